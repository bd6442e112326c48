//===- Passes.td - spyre passes ----------------------------*- tablegen -*-===//

#ifndef SPYRE_TRANSFORMS_PASSES_TD
#define SPYRE_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def SpyrePipelineCheck
    : Pass<"spyre-pipeline-check", "::mlir::ModuleOp"> {
  let summary = "Check the options and the input of --spyre-pipeline";
  let description = [{
    The first pass of `--spyre-pipeline` (a pipeline builder cannot fail):
    checks the pipeline's options before any pass runs, naming them as
    `--spyre-pipeline` options rather than as options of the pass that
    reads them, and rejects input the pipeline has compiled already, and
    input upstream's verifiers let through but that means nothing (a
    structured op whose implicit body is invalid, a `tensor.expand_shape`
    whose `output_shape` contradicts its result type), at the op. It is
    registered so that a dumped pipeline (`--dump-pass-pipeline`, crash
    reproducers) parses back.
  }];
  let options = [
    Option<"beamWidth", "beam-width", "int", /*default=*/"64",
           "The pipeline's beam-width (at least 1)">,
    Option<"exactLimit", "exact-limit", "int", /*default=*/"32",
           "The pipeline's exact-limit (not negative)">,
    Option<"cores", "cores", "int", /*default=*/"0",
           "The pipeline's cores (0, or 1..the target's)">,
  ];
}

def SpyreAssignDefaultLayouts
    : Pass<"spyre-assign-default-layouts", "::mlir::ModuleOp"> {
  let summary = "Give every function argument and result tensor a layout";
  let description = [{
    Every ranked tensor argument and result of every function that has no
    `#spyre.layout` yet gets one:

    - the layout in its `spyre.layout` argument/result attribute, or
    - the reference stack's default layout for its `spyre.dim_order`
      attribute (host dims, stick dim last, tile-row dim first), or
    - the default layout (stick on the last dim of size > 1, tile rows on
      the first), built for the module's `#spyre.target` stick size.

    The attributes are consumed. The function body keeps computing on host
    tensors: a `spyre.from_device` is inserted after each entry argument and a
    `spyre.to_device` before each returned value, and call sites are updated
    the same way, so the IR stays valid and later passes fold the transfers
    into device computation.

    Fails with a diagnostic on tensors that cannot have a layout (dynamic
    shapes, element types without a device format, foreign encodings).

    ```mlir
    func.func @f(%a: tensor<1024x256xf16>,
                 %b: tensor<1024x256xf16> {spyre.dim_order = array<i64: 1, 0>})
    ```
    becomes
    ```mlir
    func.func @f(%a: tensor<1024x256xf16, #spyre.layout<device_size = [4, 1024, 64], stride_map = [64, 256, 1]>>,
                 %b: tensor<1024x256xf16, #spyre.layout<device_size = [16, 256, 64], stride_map = [16384, 1, 256]>>)
    ```
  }];
  let dependentDialects = ["::mlir::spyre::SpyreDialect"];
}

def SpyreConvertLinalg
    : Pass<"spyre-convert-linalg"> {
  let summary = "Convert linalg on tensors to spyre compute ops";
  let description = [{
    Turns what torch-mlir, StableHLO or hand-written pipelines produce into
    spyre ops:

    - linalg.matmul / batch_matmul / contraction generics (transposed or
      broadcast operands through their indexing maps) -> `spyre.matmul`,
      `spyre.batch_matmul`; a zero init is dropped, any other init added;
    - elementwise ops - linalg named ops, `linalg.elementwise`, generics -
      through their bodies: every arith/math op of the body becomes a spyre op
      over the same iteration space, so gelu, silu, layer norm or rms norm
      written as generics come through; body constants become scalars, and
      a scalar the body reads from a 0-d tensor outside (`tensor.extract
      %t[]`, torch-mlir's scalar operands) becomes a broadcast 0-d operand;
    - reductions (linalg.reduce, generics with reduction iterators and an
      add/max/min combiner) -> elementwise work plus one `spyre.sum`/`max`/
      `min` per reduced dim; a neutral init is dropped;
    - linalg.softmax -> max, sub, exp, sum, reciprocal, mul;
    - linalg.transpose -> `spyre.transpose` (a view); linalg.broadcast is
      folded into its consumers' indexing maps; linalg.fill and constants ->
      `spyre.constant`; tensor.expand_shape / collapse_shape ->
      `spyre.reshape` (views); tensor.empty disappears.

    Anything else stays on the host with a remark naming the op and why;
    `--spyre-propagate-layouts` puts transfers at the boundary. Each pattern
    family is available to other pipelines through
    `populateSpyreConvertLinalgPatterns` (Spyre/Transforms/LinalgToSpyre.h).

    Matmuls on f32 tensors stay on the host unless `f32-matmul=f16`: then
    their operands are converted to f16 and multiplied on the device, the
    product converted back, with a remark saying so.

    First, a matmul whose result - or the result of the one elementwise op
    reading it (a bias add: every operand read elementwise, per row, per
    column or as a scalar, not its own indices) - is read only in column
    blocks of whole sticks
    (`tensor.extract_slice` of all rows, apart: GPT-2's `c_attn` split
    into Q, K and V) becomes one matmul per block over that block's columns
    of the weight (a view of its sticks), the elementwise op per block too
    (`split-projections=false` keeps it whole). Each projection's output
    then gets a layout, a division and an LX residency of its own: the
    thirds of one tensor could not stay in LX for the attention (GPT-2
    s512 162.1 -> 156.7 us, s2048 783.2 -> 724.4 us, in the kernel model).
  }];
  let options = [
    Option<"splitProjections", "split-projections", "bool",
           /*default=*/"true",
           "Split a matmul read only in column blocks of whole sticks into "
           "one matmul per block">,
    Option<"f32Matmul", "f32-matmul", "::mlir::spyre::F32Matmul",
           /*default=*/"::mlir::spyre::F32Matmul::Host",
           "Where matmuls on f32 tensors run",
           [{::llvm::cl::values(
             clEnumValN(::mlir::spyre::F32Matmul::Host, "host",
                        "on the host, exactly (default)"),
             clEnumValN(::mlir::spyre::F32Matmul::F16, "f16",
                        "on the device, operands converted to f16"))}]>,
  ];
  let dependentDialects = ["::mlir::spyre::SpyreDialect"];
}

def SpyreLowerQuantCasts
    : Pass<"spyre-lower-quant-casts"> {
  let summary = "Quantization casts the device has instructions for become "
                "device ops";
  let description = [{
    torch-spyre's device converts DL16 to fp8 (`qfp8ch`) and fp8 to DL16
    (`fp8todl16`) and computes scales with ordinary SFP ops (its
    `quantize_fp8_with_scale` / `dequantize_fp8_with_scale`). So a
    `spyre.quantize` of fp8 (`e4m3fn`, `e5m2`) with float scales per tensor,
    per channel or per tile along one dim (whole tiles: the dim is viewed as
    `[tiles, tile]`) - no zero points, sparsity, tensor scale or codebook -
    becomes: the input in f32, `abs`, `max` over the scaled dims, divided by
    the format's largest value (the scale, rounded to its type; 0 for an
    all-zero slice), the input divided by it (by the smallest f32 normal
    for a zero scale, so those codes are 0), clamped to the format's range,
    rounded to DL16 and converted to fp8. A `spyre.dequantize` of the same
    schemes becomes `fp8todl16` times the scale (in f32 when the scale or
    the result is f32), rounded to the result's type. The scale is read
    through a broadcast indexing map.

    Any other scheme (MX, integers, packed 4-bit codes, codebooks, 2-D
    tiles) has no device instruction and stays as it is: a dequantize that
    only a matmul reads becomes part of `spyre.scaled_matmul`, the others
    run on the host. `--spyre-pipeline` runs this after
    `--spyre-convert-linalg`.
  }];
  let dependentDialects = ["::mlir::spyre::SpyreDialect"];
}

def SpyreCanonicalizeShapes
    : Pass<"spyre-canonicalize-shapes"> {
  let summary = "Drop size-1 dims so layout reasoning sees canonical shapes";
  let description = [{
    The seeds' canonical form: every spyre op works on tensors without size-1
    dims. Each op is rewritten on the squeezed shapes (indexing maps and
    reduction dims adjusted), chains of views are folded, and reshapes
    restore the original shapes where host code or the function boundary
    sees a value, so the function's signature does not change.

    A pointwise op or a reduction that reads, through a reshape, a tensor
    whose two adjacent dims are one dim of the reshape's input (torch-mlir's
    attention: the contractions run on `[batch * heads, ...]`, the softmax
    between them on `[batch, heads, ...]`) is rebuilt on the merged dims
    when every operand reads both dims, adjacent and in order, or neither;
    the reshapes then cancel and the chain has one shape. An operand read
    along one of the two dims only (a `[batch, keys]` padding mask) is first
    broadcast along the other, when that copy is at most a 16th of the op's
    result; a larger one keeps the op split.
  }];
  let dependentDialects = ["::mlir::spyre::SpyreDialect"];
}

def SpyrePropagateLayouts
    : Pass<"spyre-propagate-layouts", "::mlir::ModuleOp"> {
  let summary = "Choose a layout for every tensor, restickifying at least cost";
  let description = [{
    Gives every tensor value a `#spyre.layout`. Function arguments keep the
    layout in their type or their `spyre.layout` / `spyre.dim_order`
    attribute; the others are chosen like any value, at no cost (the host
    stickifies an input into whatever layout it gets during the upload, so
    a weight stored `[out, in]` arrives transposed for free), or take the
    default layout with `arg-layouts=default`. A free argument or an op's
    result the device reads only through a chain of views (reshapes,
    transposes) ending in a reshape that merges dims, whose merged tensor a
    device op computes with, is laid out as the merged tensor would be,
    seen back through the chain (a `[2, 12, s, d]` read as `[24, s, d]`, or
    torch-mlir's `[2 * s, 12 * d]` projection split into heads, transposed
    and merged, keeps batch and heads adjacent: one device dim of 24), when
    that has the sticks the solution chose and no more padding. Results are
    free unless their
    type or attributes fix one. Each compute op's rule constrains its operands'
    sticks (pointwise: one stick dim for all; matmul: A on k, B and C on n;
    reductions: keep the stick or give a sparse result; views pass layouts
    through). Conflicts are resolved for the whole function at once by
    minimising the elements moved by `spyre.restickify` ops: exactly on
    small graphs, by beam search refined with local improvement otherwise.
    Host values used by spyre ops get `spyre.to_device`, spyre values used by
    host ops `spyre.from_device`. A `spyre.extract_slice` of a block of rows
    that one kernel reads, laid out as its input restricted to the rows but
    not one range of the input's bytes, becomes a strided view (the input's
    device dims, the rows past the block padding), read in place instead of
    copied. So does a block of whole sticks along the stick's dim (a third
    of GPT-2's fused `c_attn` projection, torch's `split` along the last
    dim: the stick columns past the block are padding), also when the one
    kernel reads it through reshapes and transposes (the head split), which
    then take the padded layout seen through them.
  }];
  let options = [
    Option<"beamWidth", "beam-width", "int", /*default=*/"64",
           "Partial assignments kept by the beam search">,
    Option<"exactLimit", "exact-limit", "int", /*default=*/"32",
           "Solve exactly when at most this many ops have a choice">,
    Option<"argLayouts", "arg-layouts", "::mlir::spyre::ArgLayouts",
           /*default=*/"::mlir::spyre::ArgLayouts::Auto",
           "Who lays out arguments without a spyre.layout/dim_order",
           [{::llvm::cl::values(
             clEnumValN(::mlir::spyre::ArgLayouts::Auto, "auto",
                        "the propagation, at no cost (the host stickifies "
                        "into the chosen layout during the upload)"),
             clEnumValN(::mlir::spyre::ArgLayouts::Default, "default",
                        "the default layout of the shape"))}]>,
  ];
  let dependentDialects = ["::mlir::spyre::SpyreDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::tensor::TensorDialect"];
}

def SpyreInsertPadding
    : Pass<"spyre-insert-padding"> {
  let summary = "Make padding hold the values the hardware needs";
  let description = [{
    - matmul with K not a multiple of the stick: as torch-spyre pads K, a
      buffer of `K_pad` (K rounded up to whole sticks) rows is filled with
      zeros (`spyre.identity` of a zero scalar), B is written into its first
      K rows (`spyre.insert_slice`) and the matmul reads those rows in place
      (`spyre.extract_slice` at the origin with the buffer's layout, a
      view); A's tail inside its last stick is masked by hardware. Where
      the padded rows are not a host shape of B's layout, one masked copy
      (`spyre.pad`) writes them instead;
    - reductions along a padded dim mask the padding with their neutral
      value (`padding_value`: 0 for sum and mean, -inf for max, +inf for
      min).

    Nothing is inserted where no padding is involved.
  }];
  let dependentDialects = ["::mlir::spyre::SpyreDialect"];
}
def SpyreFuseRowBlocks
    : Pass<"spyre-fuse-row-blocks"> {
  let summary = "Run chains of row-wise ops block by block so their "
                "intermediates stay in LX";
  let description = [{
    Finds groups of device compute ops that all walk the same rows (the
    same host dim of every tensor they produce, a parallel op dim of each):
    the row-wise pipelines of softmax, LayerNorm, RMSNorm, an attention
    score path's scaling, masking and softmax, an activation after an
    elementwise op; batch matmuls join along a batch dim (each block reads
    its own batches of both operands), so attention runs whole per block of
    heads. When a group's tensors do not fit the cores' LX together, it is
    rewritten to run in row blocks: per block, each input the group reads
    row by row is copied into LX (`spyre.extract_slice`), the group's ops
    run on the block, and each result the rest of the program reads is
    written into its place in a full-size buffer (`spyre.insert_slice` into
    a `spyre.empty`); a result only the insert reads is typed as the
    buffer's block with the buffer's strides, so its op writes it there and
    the insert copies nothing (no kernel). Inputs read whole by every row (a LayerNorm weight, a
    mask every head reads, a scalar) are read by each block, or, when the
    kernel model gives that a clearly (10%) larger gain, copied once before
    the blocks (`spyre.identity`, in the group) so that the copy may stay in
    LX for all of them (an attention mask: read from DDR once instead of
    once per head).

    The rows may be any host dim (rows of `[rows, cols]`; the heads or the
    queries of `[heads, queries, keys]` scores). A block is the fewest
    blocks whose tensors take at most half the usable LX of the cores
    together (the rest holds the staging buffers) or, where no block does,
    whose tensors live at once do (the peak over the group's ops, in order:
    a tensor lives from its op, or the block's start, to its last reader in
    the group, or to the block's end when the program reads it; one head of
    attention at sequence 2048), with rows a multiple of the cores
    (split across them), or any rows with the cores shared between the cut
    dim and the next one (`spyre.work_division` on the block's copies; the
    other ops carry the split over). A block along the tensor's first
    device dim is a contiguous range of its bytes and is read through a
    view (`spyre.extract_slice`, no copy; the block's first op takes the
    split), and a restickify only the group reads is done block by block
    on such a view of its input. A block along another device dim that one
    op of the group reads is a strided view: laid out with the tensor's own
    device dims (the positions past the block are padding, the tensor's
    other rows), read in place from the block's first stick with the
    tensor's strides (the heads of Q, K and V laid out head-innermost, the
    rows of a mask or of a [rows, cols] tensor whose stick columns are
    outermost). An input several of the block's ops read is still copied
    into LX once. Each way a group can be cut is costed
    with the kernel model on both sides - the ops whole and one block, each
    divided and kept in LX as `--spyre-divide-work` and
    `--spyre-plan-memory` would - and kept only for a modelled gain of at
    least 10%; the best gains are committed first, each op in one group.
    Every op of a block carries `spyre.fusion_group = N`, which lets
    `--spyre-plan-memory` keep its intermediates in LX whatever op makes
    them. DDR then sees each input read once and each result written once.

    Epilogue chains: an elementwise group that is all a matmul's output
    feeds (GPT-2's bias and tanh GELU), or several matmuls' outputs
    (Llama's SwiGLU after its gate and up projections), is also costed as
    one group with the matmuls, without blocks (their outputs and the
    chain's intermediates stay in LX while live), against blocks of the
    chain alone; the larger gain wins.

    Groups that fit: a group whose tensors live at once fit half the cores'
    LX (the peak over its ops, in order, as for blocks: BERT's attention
    at sequence 512, its LayerNorms at 2048) may run whole as one group; blocks of such a group are kept
    only when the kernel model gives them a larger gain than the group run
    whole, or than any group cut along another dim that holds it and fits
    (a softmax's blocks against the attention with both batch matmuls,
    whose scores and probabilities then stay in LX too). A group run whole has every op's rows split across the cores alike
    (`spyre.work_division`, so each intermediate's slices match its
    readers': over the most cores that divide the rows, or over those that
    divide both and the rest of the cores along the next dim - 12 heads 4
    ways, their queries 8 ways -, each a candidate; device reshapes and
    broadcasts first move up next to their inputs, so that a group may read
    them wherever it runs) and an input several of its ops read copied into LX once
    (`spyre.identity`). These groups and the matmul epilogues below (a bias
    add belongs to one or the other) are costed on the whole function with
    the kernel model (every kernel divided and kept in LX as the later
    passes would, readers outside the group included) and kept greedily,
    the largest gain first, each re-costed against what the earlier ones
    left, while it saves 0.5% of the function. A group may also be costed
    with what only it reads joined to it: a matmul, or a matmul's epilogue
    group (a projection, its bias and the residual add before a
    LayerNorm), their rows split as the group's.

    Matmul epilogues: then a matmul still in no group whose users are all
    elementwise ops (a bias, an activation, a residual add, a scaling) is
    put in one group with them, without blocks, so that its output may stay
    in LX for them when their slices match and it fits (torch-spyre's
    `lx_resident_ops` has no matmul).

    Boxed results: last, an op whose result only blocks read, as boxes
    through views (a head's block of Q or K at sequence 2048, through the
    head split's reshape and transpose and an extract), has its rows split
    as the blocks split theirs (`spyre.work_division`), together with the
    ops of its fusion group before it (the projection it is the bias of),
    when the kernel model, costed from the group to the blocks, says that
    saves 0.5%: every core then keeps the rows its block kernels read, and
    the result may stay in LX for all of them (`--spyre-plan-memory`). BERT
    at sequence 2048: 760.5 -> 699.6 us.

    Not in blocks: matmuls and batch matmuls cut along M (their weights, or
    K and V, would be read once per block), data movement ops, groups whose
    tensors already fit LX (those may run whole, above), and tensors whose
    rows are the stick dim or are
    padded on the device (another host dim may still be cut).

    ```mlir
    // softmax 512x1024 f16 on one core: 8 blocks of 64 rows, each
    //   extract_slice (DDR -> LX), max, sub, exp, sum, reciprocal, mul,
    //   insert_slice (LX -> DDR)
    ```
  }];
  let options = [
    Option<"cores", "cores", "int", /*default=*/"0",
           "Cores the work will be divided across, 1..32 (0: the target's "
           "cores)">,
  ];
  let dependentDialects = ["::mlir::spyre::SpyreDialect"];
}

def SpyreDivideWork
    : Pass<"spyre-divide-work"> {
  let summary = "Split every device op's iteration space across cores";
  let description = [{
    Gives every device compute op, restickify and pad a `spyre.division`:
    how many slices each op dim is cut into (even slices, a stick dim only
    in whole sticks), which core works on which slice, and - when even a
    full split leaves some core reaching more than the per-core span of a
    tensor (256 MiB) - how many sequential chunks the op runs in.

    Limits are never exceeded silently: every tensor's per-core span stays
    within the target's `span_bytes`, at most one reduction dim is split
    (its partial results are combined over the ring), every loop and DMA
    trip count stays within `max_loop_count`, and a per-core tile must fit
    the usable LX. An op that cannot meet them is an error naming the
    tensor and the numbers.

    Policies:
    - `model` (default): every feasible split is costed with the kernel
      model fed by the `#spyre.target` (DDR traffic shared by the active
      cores, PT/SFP throughput with the PT fill efficiency, double-buffered
      overlap, ring combine of partial sums) and the cheapest wins; the
      greedy split is one of the candidates, so `model` is never slower
      than `greedy` in the model.
    - `greedy`: the reference stack's planner - splits the span limit
      forces; for a matmul the span did not split, torch-spyre's matmul
      cost model (unless its choice uses fewer cores); otherwise the
      result's dims by decreasing extent (largest divisor that fits the
      cores left), then one reduction dim.

    A `spyre.work_division = array<i64: ...>` attribute on an op (one split
    per op dim) forces that split; it is checked like the reference stack
    checks its hints (positive, dividing the stick-adjusted extent, at most
    one reduction dim, within the cores) and must respect the limits. The
    order of the cores over the slices comes with an operand producer's
    division that has the same splits; an op reading a producer's result
    through views (reshapes, transposes) orders its slices so that each
    core reads the device box the producer left it, when some order does,
    so that `--spyre-plan-memory` can keep the result in LX; without a
    producer's slices to carry over it prefers such a division, costed
    with that operand in LX, when it leaves its own result as its best
    would (an output projection reading the attention's output with K
    split by heads). A fusion group's first op whose hint fixes its splits
    and whose order nothing asks for orders its cores for such a reader
    of the group's results.

    ```mlir
    %0 = spyre.matmul %a, %b {spyre.work_division = array<i64: 4, 8, 1>} : ...
    ```
  }];
  let options = [
    Option<"cores", "cores", "int", /*default=*/"0",
           "Cores to divide work across, 1..32 (0: the target's cores)">,
    Option<"policy", "policy", "::mlir::spyre::kernel::Policy",
           /*default=*/"::mlir::spyre::kernel::Policy::Model",
           "How to choose splits",
           [{::llvm::cl::values(
             clEnumValN(::mlir::spyre::kernel::Policy::Model, "model",
                        "minimise the modelled time"),
             clEnumValN(::mlir::spyre::kernel::Policy::Greedy, "greedy",
                        "the reference stack's policy"))}]>,
  ];
  let dependentDialects = ["::mlir::spyre::SpyreDialect"];
}

def SpyrePlanMemory
    : Pass<"spyre-plan-memory"> {
  let summary = "Place every device tensor in DDR or LX and tile every op";
  let description = [{
    Decides where every device tensor of a function lives and how each
    divided op walks its per-core slice:

    - host-visible buffers (function arguments and results, constants,
      tensors crossing to or from host code) are `#spyre.mem<io N>`: each
      kernel binds them to a 16 GiB DDR segment of its own, as the reference
      stack does;
    - intermediates share one DDR pool (the kernels' segment 0), allocated
      first-fit over their live ranges with reuse once dead, 128-byte
      aligned: `#spyre.mem<pool OFFSET>`; the pool's size is the function's
      `spyre.pool_bytes`;
    - an intermediate whose producer and every consumer give each core the
      same slice (the same box of its device dims, also when a consumer
      reads it through views: a head split's reshape and transpose; or a
      box of it, through a view's extract, when every core's part of the
      box lies inside its slice at one offset on every core: a head's block
      of Q, read `32 * head` sticks into slices of [heads, 32 rows]) stays
      in the cores' LX between the kernels
      (`#spyre.mem<lx OFFSET>`) when it fits beside their staging buffers,
      counted without the tensors already kept in LX and this one (a
      kernel stages none of those) at the tiling, within 2% of the
      kernel's fastest, that takes the least LX; a kernel whose tiles then
      leave no room below the tensors in LX while it runs is tiled again
      within that room. Largest saving first (`lx-residency=false` turns
      this off);
    - every op gets `spyre.tiles`, the per-core tile of each op dim: the
      whole slice when its staging buffers (double-buffered where a tensor
      is staged more than once) fit the target's usable LX, else the tiling
      with the least DDR traffic that does.

    An op whose smallest tile does not fit the usable LX, or a pool larger
    than a segment, is an error naming the op and the bytes.
  }];
  let options = [
    Option<"lxResidency", "lx-residency", "bool", /*default=*/"true",
           "Keep intermediates in LX between kernels whose slices match">,
  ];
  let dependentDialects = ["::mlir::spyre::SpyreDialect"];
}

def SpyreLowerToKernels : Pass<"spyre-lower-to-kernels", "::mlir::ModuleOp"> {
  let summary = "Wrap every divided, planned op in a spyre.kernel";
  let description = [{
    Turns every device op carrying a `spyre.division` and `spyre.tiles` (see
    `--spyre-divide-work` and `--spyre-plan-memory`) into a `spyre.kernel`:
    the op becomes the kernel's body, and its attributes spell out the
    per-core program derived from the layout algebra - the op dims with
    their labels, splits, chunks and tiles; the core id -> slice mapping;
    for every operand and the result its DDR base address in the kernel's
    segments, each core's offset, the per-tile and per-chunk address steps,
    and the DMA descriptor (box of sticks, DDR and LX strides) that stages a
    tile into its LX buffers. Kernels are numbered in program order
    (`<index>_<opfunc>`).

    This is the form the SuperDSC and DCI emitters (`spyre-translate`) and
    the simulator read.
  }];
  let dependentDialects = ["::mlir::spyre::SpyreDialect"];
}

def SpyreOutlineHostSegments
    : Pass<"spyre-outline-host-segments", "::mlir::ModuleOp"> {
  let summary = "Make every run of host ops a function the host calls";
  let description = [{
    What the device cannot run stays on the host (`--spyre-convert-linalg`
    says why in a remark). This pass makes the partition of a program into
    device kernels and host segments explicit: every maximal run of host ops
    in a function's body becomes a private function marked
    `spyre.host_segment` (constants it reads are copied in), called where the
    run was. Host segments exchange tensors with the device through the
    `spyre.to_device` / `spyre.from_device` transfers around them, which the
    DCI descriptors describe. `spyre-run` runs the segments on the host
    (upstream MLIR's lowering, JIT-compiled) in the same run as the kernels;
    the emitters list them beside the kernels.

    Segments exchange tensors, not buffers, so code on a buffer is gathered
    first: a `bufferization.to_buffer` or `memref.alloc` moves down to its
    buffer's first use, a `bufferization.to_tensor` up to right after the
    last, and device ops between the first buffer and the last use of any
    that need nothing made in between move before them. A buffer still
    crossing from one segment to another is an error at the op.

    ```mlir
    %h = spyre.from_device %d : ... -> tensor<8x64xf32>
    %r = call @f__host0(%h) : (tensor<8x64xf32>) -> tensor<8x64xf32>
    ...
    func.func private @f__host0(%arg0: tensor<8x64xf32>) -> tensor<8x64xf32>
        attributes {spyre.host_segment} { ... }
    ```

    With `allow=false` every host op is an error at its location.
  }];
  let options = [
    Option<"allow", "allow", "bool", /*default=*/"true",
           "Run what the device cannot on the host (false: an error)">,
  ];
}

def SpyreFormBundles : Pass<"spyre-form-bundles", "::mlir::ModuleOp"> {
  let summary = "Group kernels into bundles that share one DDR segment binding";
  let description = [{
    The runtime launches kernels a bundle at a time (torch-spyre writes one
    `bundle.mlir`, `func.func @sdsc_bundle`, per fused kernel): it binds the
    DDR address segments once - segment 0 to the intermediate pool when the
    function has one, then one segment per host-visible tensor - and every
    SuperDSC of the bundle addresses its tensors through that one binding.

    This pass cuts each function's kernels, in program order, into bundles:
    a kernel joins the current bundle while the bundle's segments (the pool
    and the distinct io buffers of all its kernels) stay within the target's
    `bundle_segments` (6 by default, torch-spyre's limit; never more than
    the DDR holds). A host segment call, an op with regions or any op with
    side effects ends the bundle, as a fallback kernel does in torch-spyre.
    Every kernel of a bundle gets the bundle's `segments` and its accesses
    are rebased onto them; `spyre.bundle` numbers the bundles across the
    module. A kernel that alone needs more segments than a bundle may bind
    is an error at its location.

    ```mlir
    %0 = spyre.kernel "0_add"(%a, %b) ... {segments = [<io 0>, <io 1>, <io 2>],
                                           spyre.bundle = 0 : i64}
    %1 = spyre.kernel "1_exp"(%0) ...     {segments = [<io 0>, <io 1>, <io 2>,
                                           <io 3>], spyre.bundle = 0 : i64}
    ```
  }];
}

#endif // SPYRE_TRANSFORMS_PASSES_TD
