// Bad-input corpus: pass preconditions, limits and options, for every spyre
// pass and --spyre-pipeline.
// Run by corpus.test through run_corpus.py; see run_corpus.py for the
// header lines.

//===----------------------------------------------------------------------===//
// --spyre-convert-linalg: unsupported ops stay on the host with a remark;
// the pass after it reports what cannot go to the device.
//===----------------------------------------------------------------------===//

// TOOL: spyre-opt --spyre-convert-linalg=bogus=1
// EXPECT: no such option bogus
// NO-LOC: a pass option error has no IR location
func.func @f() {
  return
}

// -----

// A dynamic linalg op stays on the host; its dynamic operands cannot get a
// layout.
// TOOL: spyre-opt --spyre-convert-linalg --spyre-assign-default-layouts
// EXPECT: remark: 'linalg.add' stays on the host: its iteration space is dynamic
// EXPECT: argument #0 of @dynamic: cannot assign a layout to 'tensor<?x256xf16>': dynamic dims have no device layout
// EXPECT-LOC: @+1:20
func.func @dynamic(%a: tensor<?x256xf16>, %b: tensor<?x256xf16>, %e: tensor<?x256xf16>) -> tensor<?x256xf16> {
  %0 = linalg.add ins(%a, %b : tensor<?x256xf16>, tensor<?x256xf16>) outs(%e : tensor<?x256xf16>) -> tensor<?x256xf16>
  return %0 : tensor<?x256xf16>
}

// -----

// TOOL: spyre-opt --spyre-convert-linalg --spyre-propagate-layouts
// EXPECT: argument #0 'spyre.dim_order': element type 'f64' has no Spyre device format
// An argument read by host ops only stays on the host; asking for a
// layout puts it on the device, which has no f64.
// EXPECT-LOC: @+1:16
func.func @f64(%a: tensor<128x256xf64> {spyre.dim_order = [0, 1]}, %b: tensor<128x256xf64>) -> tensor<128x256xf64> {
  %e = tensor.empty() : tensor<128x256xf64>
  %0 = linalg.add ins(%a, %b : tensor<128x256xf64>, tensor<128x256xf64>) outs(%e : tensor<128x256xf64>) -> tensor<128x256xf64>
  return %0 : tensor<128x256xf64>
}

// -----

// TOOL: spyre-opt --spyre-convert-linalg --spyre-assign-default-layouts
// EXPECT: remark: 'linalg.matmul' stays on the host: the PT unit does not multiply f32
// EXPECT: result #0 of @matmul_f32_dynamic: cannot assign a layout to 'tensor<?x128xf32>'
// EXPECT-LOC: @+1
func.func @matmul_f32_dynamic(%a: tensor<128x256xf32>, %b: tensor<256x128xf32>, %e: tensor<?x128xf32>) -> tensor<?x128xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<128x256xf32>, tensor<256x128xf32>) outs(%e : tensor<?x128xf32>) -> tensor<?x128xf32>
  return %0 : tensor<?x128xf32>
}

//===----------------------------------------------------------------------===//
// --spyre-canonicalize-shapes
//===----------------------------------------------------------------------===//

// -----

// TOOL: spyre-opt --spyre-canonicalize-shapes=max-iterations=3
// EXPECT: no such option max-iterations
// NO-LOC: a pass option error has no IR location
func.func @f() {
  return
}

// -----

// A rank-7 argument asked to be laid out (without the attribute it would
// stay on the host, with the ops that read it).
// TOOL: spyre-opt --spyre-convert-linalg --spyre-canonicalize-shapes --spyre-propagate-layouts
// EXPECT: argument #0 'spyre.dim_order': host rank 7 exceeds the maximum of 6
// EXPECT-LOC: @+1:18
func.func @rank7(%a: tensor<1x2x1x2x1x2x64xf16> {spyre.dim_order = [0, 1, 2, 3, 4, 5, 6]}) -> tensor<1x2x1x2x1x2x64xf16> {
  return %a : tensor<1x2x1x2x1x2x64xf16>
}

//===----------------------------------------------------------------------===//
// --spyre-assign-default-layouts
//===----------------------------------------------------------------------===//

// -----

// TOOL: spyre-opt --spyre-assign-default-layouts
// EXPECT: argument #0 of @sparse_encoding: has encoding
// EXPECT: which is not a #spyre.layout; cannot assign a layout
// EXPECT-LOC: @+2
#csr = #sparse_tensor.encoding<{map = (d0, d1) -> (d0 : dense, d1 : compressed)}>
func.func private @sparse_encoding(%a: tensor<128x256xf16, #csr>)

// -----

// TOOL: spyre-opt --spyre-assign-default-layouts
// EXPECT: argument #0 of @wide_target: its 'spyre.layout' is built for 128-byte sticks, but the target's sticks have 256 bytes
// EXPECT-LOC: @+2
module attributes {spyre.target = #spyre.target<stick_bytes = 256>} {
func.func private @wide_target(%a: tensor<128x256xf16> {spyre.layout = #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>})
}

// -----

// TOOL: spyre-opt --spyre-assign-default-layouts
// EXPECT: result #0 of @unsigned_result: cannot assign a layout to 'tensor<64xui16>'
// EXPECT-LOC: @+1
func.func private @unsigned_result() -> tensor<64xui16>

// -----

// TOOL: spyre-opt --spyre-assign-default-layouts
// EXPECT: argument #0 of @empty_tensor: cannot assign a layout to 'tensor<0x64xf16>'
// EXPECT-LOC: @+1
func.func private @empty_tensor(%a: tensor<0x64xf16>)

//===----------------------------------------------------------------------===//
// --spyre-propagate-layouts
//===----------------------------------------------------------------------===//

// -----

// TOOL: spyre-opt --spyre-propagate-layouts
// EXPECT: 'func.func' op has more than one block; spyre functions are straight-line
// EXPECT-LOC: @+1
func.func @branches(%a: tensor<128x256xf16>, %c: i1) -> tensor<128x256xf16> {
  %0 = spyre.exp %a : (tensor<128x256xf16>) -> tensor<128x256xf16>
  cf.cond_br %c, ^b1, ^b2
^b1:
  return %0 : tensor<128x256xf16>
^b2:
  return %a : tensor<128x256xf16>
}

// -----

// A sparse argument cannot be restickified into the dense layout the
// matmul needs.
// TOOL: spyre-opt --spyre-propagate-layouts
// EXPECT: 'spyre.matmul' op cannot restickify input #0: it is sparse (one value per stick) but the op needs it sticked on host dim 1; sparse and dense layouts cannot be converted into one another
// EXPECT-LOC: @+2
func.func @sparse_to_dense(%a: tensor<128x256xf16> {spyre.dim_order = array<i64: 0, 1, -1>}, %b: tensor<256x128xf16>) -> tensor<128x128xf16> {
  %0 = spyre.matmul %a, %b : tensor<128x256xf16>, tensor<256x128xf16> -> tensor<128x128xf16>
  return %0 : tensor<128x128xf16>
}

// -----

// TOOL: spyre-opt --spyre-propagate-layouts
// EXPECT: must have the caller's layout
// EXPECT: sparse and dense layouts cannot be converted into one another
// EXPECT-LOC: @+3
func.func @sparse_result(%a: tensor<128x256xf16>) -> (tensor<128x256xf16> {spyre.dim_order = array<i64: 0, 1, -1>}) {
  %0 = spyre.exp %a : (tensor<128x256xf16>) -> tensor<128x256xf16>
  return %0 : tensor<128x256xf16>
}

// -----

// TOOL: spyre-opt --spyre-propagate-layouts=beam-width=wide
// EXPECT: for the --beam-width option: 'wide' value invalid for integer argument
// NO-LOC: a pass option error has no IR location
func.func @f() {
  return
}

//===----------------------------------------------------------------------===//
// --spyre-insert-padding
//===----------------------------------------------------------------------===//

// -----

// TOOL: spyre-opt --spyre-insert-padding=value=1
// EXPECT: no such option value
// NO-LOC: a pass option error has no IR location
func.func @f() {
  return
}

//===----------------------------------------------------------------------===//
// --spyre-divide-work
//===----------------------------------------------------------------------===//

// -----

// TOOL: spyre-opt --spyre-divide-work=cores=-1
// EXPECT: error: --spyre-divide-work: cores=-1 is out of range 1..32 (the target's cores; 0 uses them all)
// EXPECT-NOT: see current operation
// NO-LOC: a pass option error has no IR location
module {}

// -----

// The limit is the module's target, not the reference machine.
// TOOL: spyre-opt --spyre-divide-work=cores=8
// EXPECT: error: --spyre-divide-work: cores=8 is out of range 1..4 (the target's cores; 0 uses them all)
// EXPECT-NOT: see current operation
// NO-LOC: a pass option error has no IR location
module attributes {spyre.target = #spyre.target<cores = 4>} {}

// -----

// TOOL: spyre-opt --spyre-divide-work=policy=GREEDY
// EXPECT: for the --policy option: Cannot find option named 'GREEDY'!
// EXPECT-NOT: see current operation
// NO-LOC: a pass option error has no IR location
module {}

// -----

// TOOL: spyre-opt --spyre-divide-work=cores=two
// EXPECT: for the --cores option: 'two' value invalid for integer argument
// NO-LOC: a pass option error has no IR location
module {}

// -----

// A matmul whose smallest tile does not fit a tiny scratchpad.
// TOOL: spyre-opt --spyre-divide-work
// EXPECT: 'spyre.matmul' op cannot be divided across 32 cores: the smallest tile [1, 64, 64] needs
// EXPECT: bytes of LX per core, only 819 are available
// EXPECT-LOC: @+3
module attributes {spyre.target = #spyre.target<lx_bytes = 1024, lx_reserved = 0.2>} {
func.func @lx_matmul(%a: tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>, %b: tensor<256x128xf16, #spyre.layout<device_size = [2, 256, 64], stride_map = [64, 128, 1]>>) -> tensor<128x128xf16, #spyre.layout<device_size = [2, 128, 64], stride_map = [64, 128, 1]>> {
  %0 = spyre.matmul %a, %b : tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>, tensor<256x128xf16, #spyre.layout<device_size = [2, 256, 64], stride_map = [64, 128, 1]>> -> tensor<128x128xf16, #spyre.layout<device_size = [2, 128, 64], stride_map = [64, 128, 1]>>
  return %0 : tensor<128x128xf16, #spyre.layout<device_size = [2, 128, 64], stride_map = [64, 128, 1]>>
}
}

// -----

// A hint on a tensor that is not divisible into whole sticks per core.
// TOOL: spyre-opt --spyre-divide-work
// EXPECT: 'spyre.work_division' [1, 8] is invalid: dim 1 (256 elements, 4 sticks) is not evenly divisible by split 8
// EXPECT-LOC: @+2
func.func @hint_splits_stick(%a: tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>) -> tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>> {
  %0 = spyre.exp %a {spyre.work_division = array<i64: 1, 8>} : (tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>) -> tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
  return %0 : tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
}

// -----

// A hint asking for more cores than --cores allows.
// TOOL: spyre-opt --spyre-divide-work=cores=2
// EXPECT: 'spyre.work_division' [4, 1] is invalid: uses 4 cores, more than the 2 available
// EXPECT-LOC: @+2
func.func @hint_vs_cores(%a: tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>) -> tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>> {
  %0 = spyre.exp %a {spyre.work_division = array<i64: 4, 1>} : (tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>) -> tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
  return %0 : tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
}

//===----------------------------------------------------------------------===//
// --spyre-plan-memory
//===----------------------------------------------------------------------===//

// -----

// TOOL: spyre-opt --spyre-plan-memory
// EXPECT: 'spyre.division' uses 64 cores, the target has 32
// EXPECT-LOC: @+2
func.func @too_many_cores(%a: tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>) -> tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>> {
  %0 = spyre.exp %a {spyre.division = #spyre.division<splits = [64, 1], order = [0, 1]>} : (tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>) -> tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
  return %0 : tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
}

// -----

// TOOL: spyre-opt --spyre-plan-memory
// EXPECT: 'spyre.division' has 1 entries but the op has 2 dims
// EXPECT-LOC: @+2
func.func @division_rank(%a: tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>) -> tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>> {
  %0 = spyre.exp %a {spyre.division = #spyre.division<splits = [4], order = [0]>} : (tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>) -> tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
  return %0 : tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
}

// -----

// Running the memory planner on its own output (kernel form).
// TOOL: spyre-opt --spyre-plan-memory
// EXPECT: 'spyre.kernel' op holds device tensors in a nested region; --spyre-plan-memory handles straight-line functions
// EXPECT-LOC: @+8
!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
#io0 = #spyre.access<mem = #spyre.mem<io 0>, base = 0, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [0]>
#io1 = #spyre.access<mem = #spyre.mem<io 1>, base = 17179869184, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [65536]>
#mb = #spyre.kdim<"mb", size = 128, tile = 128>
#out = #spyre.kdim<"out", size = 256, granule = 64, tile = 256>

func.func @kernel_form(%a: !t {spyre.mem = #spyre.mem<io 0>}) -> (!t {spyre.mem = #spyre.mem<io 1>}) attributes {spyre.pool_bytes = 0 : i64} {
  %0 = spyre.kernel "0_abs"(%a) : (!t) -> !t attributes {accesses = [#io0, #io1], dims = [#mb, #out], lx_bytes = 131072 : i64, order = array<i64: 0, 1>, segments = [#spyre.mem<io 0>, #spyre.mem<io 1>], spyre.mem = #spyre.mem<io 1>} {
  ^bb0(%x: !t):
    %1 = spyre.abs %x : (!t) -> !t
    spyre.yield %1 : !t
  }
  return %0 : !t
}

// -----

// TOOL: spyre-opt --spyre-plan-memory=lx-residency=maybe
// EXPECT: for the --lx-residency option: 'maybe' is invalid value for boolean argument
// NO-LOC: a pass option error has no IR location
module {}

//===----------------------------------------------------------------------===//
// --spyre-lower-to-kernels
//===----------------------------------------------------------------------===//

// -----

// TOOL: spyre-opt --spyre-lower-to-kernels
// EXPECT: 'spyre.tiles' has 1 entries but the op has 2 dims
// EXPECT-LOC: @+2
func.func @tiles_rank(%a: tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>> {spyre.mem = #spyre.mem<io 0>}) -> tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>> {
  %0 = spyre.exp %a {spyre.division = #spyre.division<splits = [4, 1], order = [0, 1]>, spyre.tiles = array<i64: 32>, spyre.mem = #spyre.mem<io 1>} : (tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>) -> tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
  return %0 : tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
}

// -----

// A tile larger than a core's slice.
// TOOL: spyre-opt --spyre-lower-to-kernels
// EXPECT: 'spyre.exp' op tile 64 of dim 0 must be a multiple of 1 dividing the per-core slice 32
// EXPECT-LOC: @+2
func.func @tile_past_slice(%a: tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>> {spyre.mem = #spyre.mem<io 0>}) -> tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>> {
  %0 = spyre.exp %a {spyre.division = #spyre.division<splits = [4, 1], order = [0, 1]>, spyre.tiles = array<i64: 64, 256>, spyre.mem = #spyre.mem<io 1>} : (tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>) -> tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
  return %0 : tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
}

// -----

// TOOL: spyre-opt --spyre-lower-to-kernels
// EXPECT: 'spyre.exp' op reads or writes a tensor with no 'spyre.mem'; run --spyre-plan-memory first
// EXPECT-LOC: @+2
func.func @result_without_mem(%a: tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>> {spyre.mem = #spyre.mem<io 0>}) -> tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>> {
  %0 = spyre.exp %a {spyre.division = #spyre.division<splits = [4, 1], order = [0, 1]>, spyre.tiles = array<i64: 32, 256>} : (tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>) -> tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
  return %0 : tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
}

//===----------------------------------------------------------------------===//
// --spyre-pipeline and its options
//===----------------------------------------------------------------------===//

// -----

// Pipeline options are checked before any pass runs and named as the
// pipeline's: one line, no IR dump.
// TOOL: spyre-opt --spyre-pipeline=cores=33
// EXPECT: error: --spyre-pipeline: cores=33 is out of range 1..32 (the target's cores; 0 uses them all)
// EXPECT-NOT: see current operation
// EXPECT-NOT: --spyre-divide-work
// NO-LOC: a pass option error has no IR location
func.func @add(%a: tensor<128x256xf16>, %b: tensor<128x256xf16>) -> tensor<128x256xf16> {
  %e = tensor.empty() : tensor<128x256xf16>
  %0 = linalg.add ins(%a, %b : tensor<128x256xf16>, tensor<128x256xf16>) outs(%e : tensor<128x256xf16>) -> tensor<128x256xf16>
  return %0 : tensor<128x256xf16>
}

// -----

// TOOL: spyre-opt --spyre-pipeline=policy=fastest
// EXPECT: for the --policy option: Cannot find option named 'fastest'!
// EXPECT-NOT: see current operation
// EXPECT-NOT: --spyre-divide-work
// NO-LOC: a pass option error has no IR location
func.func @add(%a: tensor<128x256xf16>, %b: tensor<128x256xf16>) -> tensor<128x256xf16> {
  %e = tensor.empty() : tensor<128x256xf16>
  %0 = linalg.add ins(%a, %b : tensor<128x256xf16>, tensor<128x256xf16>) outs(%e : tensor<128x256xf16>) -> tensor<128x256xf16>
  return %0 : tensor<128x256xf16>
}

// -----

// TOOL: spyre-opt --spyre-pipeline=cores=abc
// EXPECT: for the --cores option: 'abc' value invalid for integer argument
// NO-LOC: a pass option error has no IR location
func.func @f() {
  return
}

// -----

// TOOL: spyre-opt --spyre-pipeline=kernels=maybe
// EXPECT: for the --kernels option: 'maybe' is invalid value for boolean argument
// NO-LOC: a pass option error has no IR location
func.func @f() {
  return
}

// -----

// TOOL: spyre-opt --spyre-pipeline=lanes=4
// EXPECT: no such option lanes
// NO-LOC: a pass option error has no IR location
func.func @f() {
  return
}

// -----

// TOOL: spyre-opt --spyre-pipeline=exact-limit=1e3
// EXPECT: for the --exact-limit option: '1e3' value invalid for integer argument
// NO-LOC: a pass option error has no IR location
func.func @f() {
  return
}

// -----

// Out-of-range search options are errors, not silently clamped.
// TOOL: spyre-opt --spyre-pipeline=beam-width=0
// EXPECT: error: --spyre-pipeline: beam-width=0 must be at least 1
// NO-LOC: a pass option error has no IR location
func.func @add(%a: tensor<4x64xf16>, %b: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %e = tensor.empty() : tensor<4x64xf16>
  %0 = linalg.add ins(%a, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  return %0 : tensor<4x64xf16>
}

// -----

// TOOL: spyre-opt --spyre-pipeline=exact-limit=-5
// EXPECT: error: --spyre-pipeline: exact-limit=-5 must not be negative (0: beam search only)
// NO-LOC: a pass option error has no IR location
func.func @f() {
  return
}

// -----

// TOOL: spyre-opt --spyre-propagate-layouts=beam-width=-1
// EXPECT: error: --spyre-propagate-layouts: beam-width=-1 must be at least 1
// NO-LOC: a pass option error has no IR location
func.func @f() {
  return
}

// -----

// An op built from a named linalg op (here linalg.exp, whose implicit body
// has no location) reports at the named op.
// TOOL: spyre-opt --spyre-pipeline
// EXPECT: 'spyre.exp' op cannot be divided across 32 cores
// EXPECT-LOC: @+4:8
module attributes {spyre.target = #spyre.target<lx_bytes = 128>} {
func.func @g(%a: tensor<128x256xf16>) -> tensor<128x256xf16> {
  %e = tensor.empty() : tensor<128x256xf16>
  %0 = linalg.exp ins(%a : tensor<128x256xf16>) outs(%e : tensor<128x256xf16>) -> tensor<128x256xf16>
  return %0 : tensor<128x256xf16>
}
}

// -----

!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
#io0 = #spyre.access<mem = #spyre.mem<io 0>, base = 0, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [0]>
#io1 = #spyre.access<mem = #spyre.mem<io 1>, base = 17179869184, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [65536]>
#mb = #spyre.kdim<"mb", size = 128, tile = 128>
#out = #spyre.kdim<"out", size = 256, granule = 64, tile = 256>

// The pipeline run on its own output.
// TOOL: spyre-opt --spyre-pipeline
// EXPECT: error: @abs is already in kernel form (it holds spyre.kernel ops); --spyre-pipeline compiles linalg: give its output to spyre-translate or spyre-run as it is
// EXPECT-NOT: see current operation
// EXPECT-LOC: @+1:1
func.func @abs(%a: !t {spyre.mem = #spyre.mem<io 0>}) -> (!t {spyre.mem = #spyre.mem<io 1>}) attributes {spyre.pool_bytes = 0 : i64} {
  %0 = spyre.kernel "0_abs"(%a) : (!t) -> !t attributes {accesses = [#io0, #io1], dims = [#mb, #out], lx_bytes = 131072 : i64, order = array<i64: 0, 1>, segments = [#spyre.mem<io 0>, #spyre.mem<io 1>], spyre.mem = #spyre.mem<io 1>} {
  ^bb0(%x: !t):
    %1 = spyre.abs %x : (!t) -> !t
    spyre.yield %1 : !t
  }
  return %0 : !t
}

// -----

// The reference machine's span limit, shrunk: a matmul's operands cannot
// be divided so that every core's DDR range fits.
// TOOL: spyre-opt --spyre-pipeline
// EXPECT: 'spyre.matmul' op cannot be divided across 32 cores: operand #
// EXPECT: more than the per-core limit of 128 bytes
// EXPECT-LOC: @+4
module attributes {spyre.target = #spyre.target<span_bytes = 128>} {
func.func @mm(%a: tensor<128x256xf16>, %b: tensor<256x128xf16>) -> tensor<128x128xf16> {
  %e = tensor.empty() : tensor<128x128xf16>
  %0 = linalg.matmul ins(%a, %b : tensor<128x256xf16>, tensor<256x128xf16>) outs(%e : tensor<128x128xf16>) -> tensor<128x128xf16>
  return %0 : tensor<128x128xf16>
}
}

// -----

// Loop limits too small for a generic's elementwise op on one core.
// TOOL: spyre-opt --spyre-pipeline=cores=1
// EXPECT: 'spyre.exp' op cannot be divided across 1 cores: no tile of the per-core slice [128, 256]
// EXPECT: keeps every loop and DMA trip count within the limit of 1
// EXPECT-LOC: @+7
#m = affine_map<(d0, d1) -> (d0, d1)>
module attributes {spyre.target = #spyre.target<max_loop_count = 1, lx_bytes = 16384>} {
func.func @g(%a: tensor<128x256xf16>) -> tensor<128x256xf16> {
  %e = tensor.empty() : tensor<128x256xf16>
  %0 = linalg.generic {indexing_maps = [#m, #m], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<128x256xf16>) outs(%e : tensor<128x256xf16>) {
  ^bb0(%x: f16, %o: f16):
    %y = math.exp %x : f16
    linalg.yield %y : f16
  } -> tensor<128x256xf16>
  return %0 : tensor<128x256xf16>
}
}

// -----

// Intermediates that overflow one DDR address segment (each host-visible
// tensor fits one).
// TOOL: spyre-opt --spyre-pipeline
// EXPECT: the DDR intermediate pool needs 131072 bytes
// EXPECT: more than one address segment (65536 bytes)
// EXPECT-LOC: @+2
module attributes {spyre.target = #spyre.target<segment_bytes = 65536>} {
func.func @mlp(%a: tensor<256x128xf16>, %b: tensor<128x128xf16>) -> tensor<256x128xf16> {
  %e = tensor.empty() : tensor<256x128xf16>
  %0 = linalg.matmul ins(%a, %b : tensor<256x128xf16>, tensor<128x128xf16>) outs(%e : tensor<256x128xf16>) -> tensor<256x128xf16>
  %1 = linalg.matmul ins(%0, %b : tensor<256x128xf16>, tensor<128x128xf16>) outs(%e : tensor<256x128xf16>) -> tensor<256x128xf16>
  %2 = linalg.matmul ins(%1, %b : tensor<256x128xf16>, tensor<128x128xf16>) outs(%e : tensor<256x128xf16>) -> tensor<256x128xf16>
  return %2 : tensor<256x128xf16>
}
}

// -----

// A DDR too small for the kernels' address segments.
// TOOL: spyre-opt --spyre-pipeline
// EXPECT: needs 3 DDR address segments (the pool and one per host-visible tensor), the DDR holds 1
// EXPECT-LOC: @+4
module attributes {spyre.target = #spyre.target<ddr_bytes = 17179869184>} {
func.func @mm(%a: tensor<128x256xf16>, %b: tensor<256x128xf16>) -> tensor<128x128xf16> {
  %e = tensor.empty() : tensor<128x128xf16>
  %0 = linalg.matmul ins(%a, %b : tensor<128x256xf16>, tensor<256x128xf16>) outs(%e : tensor<128x128xf16>) -> tensor<128x128xf16>
  return %0 : tensor<128x128xf16>
}
}

// -----

// A dynamic argument asked to be laid out (without the attribute it stays
// on the host).
// TOOL: spyre-opt --spyre-pipeline
// EXPECT: argument #0 'spyre.dim_order': dynamic dims have no device layout
// EXPECT-LOC: @+1:16
func.func @dyn(%a: tensor<128x?xf16> {spyre.dim_order = [0, 1]}) -> tensor<128x?xf16> {
  return %a : tensor<128x?xf16>
}

// -----

// A target whose sticks do not hold whole f16 sticks the way the layout
// says: the fixed argument layout was built for 128-byte sticks.
// TOOL: spyre-opt --spyre-pipeline
// EXPECT: 'func.func' op uses a layout built for 128-byte sticks, but the module's #spyre.target has 256-byte sticks
// EXPECT-LOC: @+2
module attributes {spyre.target = #spyre.target<stick_bytes = 256>} {
func.func @f(%a: tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>) -> tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>> {
  return %a : tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
}
}

// -----

// A #spyre.target whose DDR address segment cannot hold the io tensors.
// TOOL: spyre-opt --spyre-pipeline
// EXPECT: argument 0 of @add (65536 bytes on the device) does not fit one DDR address segment (1 bytes, the #spyre.target's segment_bytes)
// EXPECT-LOC: @+2
module attributes {spyre.target = #spyre.target<segment_bytes = 1>} {
func.func @add(%a: tensor<128x256xf16>, %b: tensor<128x256xf16>) -> tensor<128x256xf16> {
  %e = tensor.empty() : tensor<128x256xf16>
  %0 = linalg.add ins(%a, %b : tensor<128x256xf16>, tensor<128x256xf16>) outs(%e : tensor<128x256xf16>) -> tensor<128x256xf16>
  return %0 : tensor<128x256xf16>
}
}

// -----

// A kernel that alone binds more DDR segments than a bundle may.
// TOOL: spyre-opt --spyre-pipeline
// EXPECT: binds 3 DDR address segments (the pool and one per host-visible tensor); a bundle binds at most 2 (#spyre.target bundle_segments = 2, 8 segments in the DDR)
// EXPECT-LOC: @+4
module attributes {spyre.target = #spyre.target<bundle_segments = 2>} {
func.func @add(%a: tensor<4x64xf16>, %b: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %e = tensor.empty() : tensor<4x64xf16>
  %0 = linalg.add ins(%a, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  return %0 : tensor<4x64xf16>
}
}
