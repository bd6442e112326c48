//===- Passes.td - spyre passes ----------------------------*- tablegen -*-===//

#ifndef SPYRE_TRANSFORMS_PASSES_TD
#define SPYRE_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

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

def SpyreConvertLinalg : Pass<"spyre-convert-linalg", "::mlir::ModuleOp"> {
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
      written as generics come through; body constants become scalars;
    - reductions (linalg.reduce, generics with reduction iterators and an
      add/max/min combiner) -> elementwise work plus one `spyre.sum`/`max`/
      `min` per reduced dim; a neutral init is dropped;
    - linalg.softmax -> max, sub, exp, sum, reciprocal, mul;
    - linalg.transpose -> `spyre.transpose` (a view); linalg.broadcast is
      folded into its consumers' indexing maps; linalg.fill and constants ->
      `spyre.constant`; tensor.expand_shape / collapse_shape ->
      `spyre.reshape` (views); tensor.empty disappears.

    Anything else stays on the host with a remark naming the op and why;
    `--spyre-propagate-layouts` puts transfers at the boundary.
  }];
  let dependentDialects = ["::mlir::spyre::SpyreDialect"];
}

def SpyreCanonicalizeShapes
    : Pass<"spyre-canonicalize-shapes", "::mlir::ModuleOp"> {
  let summary = "Drop size-1 dims so layout reasoning sees canonical shapes";
  let description = [{
    The seeds' canonical form: every spyre op works on tensors without size-1
    dims. Each op is rewritten on the squeezed shapes (indexing maps and
    reduction dims adjusted), chains of views are folded, and reshapes
    restore the original shapes where host code or the function boundary
    sees a value, so the function's signature does not change.
  }];
  let dependentDialects = ["::mlir::spyre::SpyreDialect"];
}

def SpyrePropagateLayouts
    : Pass<"spyre-propagate-layouts", "::mlir::ModuleOp"> {
  let summary = "Choose a layout for every tensor, restickifying at least cost";
  let description = [{
    Gives every tensor value a `#spyre.layout`. Function arguments keep the
    layout in their type, their `spyre.layout` / `spyre.dim_order`
    attribute, or the default; results are free unless their type or
    attributes fix one. Each compute op's rule constrains its operands'
    sticks (pointwise: one stick dim for all; matmul: A on k, B and C on n;
    reductions: keep the stick or give a sparse result; views pass layouts
    through). Conflicts are resolved for the whole function at once by
    minimising the elements moved by `spyre.restickify` ops: exactly on
    small graphs, by beam search refined with local improvement otherwise.
    Host values used by spyre ops get `spyre.to_device`, spyre values used by
    host ops `spyre.from_device`.
  }];
  let options = [
    Option<"beamWidth", "beam-width", "int", /*default=*/"64",
           "Partial assignments kept by the beam search">,
    Option<"exactLimit", "exact-limit", "int", /*default=*/"32",
           "Solve exactly when at most this many ops have a choice">,
  ];
  let dependentDialects = ["::mlir::spyre::SpyreDialect"];
}

def SpyreInsertPadding : Pass<"spyre-insert-padding", "::mlir::ModuleOp"> {
  let summary = "Make padding hold the values the hardware needs";
  let description = [{
    - matmul with K not a multiple of the stick: B is copied into a layout
      whose K rows are padded to a whole number of sticks and hold zeros
      (`spyre.pad`); A's tail inside its last stick is masked by hardware;
    - reductions along a padded dim mask the padding with their neutral
      value (`padding_value`: 0 for sum and mean, -inf for max, +inf for
      min).

    Nothing is inserted where no padding is involved.
  }];
  let dependentDialects = ["::mlir::spyre::SpyreDialect"];
}
#endif // SPYRE_TRANSFORMS_PASSES_TD
