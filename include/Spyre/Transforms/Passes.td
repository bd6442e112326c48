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

#endif // SPYRE_TRANSFORMS_PASSES_TD
