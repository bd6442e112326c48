//===- SpyreOps.td - spyre dialect operations --------------*- tablegen -*-===//

#ifndef SPYRE_DIALECT_SPYRE_IR_SPYREOPS_TD
#define SPYRE_DIALECT_SPYRE_IR_SPYREOPS_TD

include "Spyre/Dialect/Spyre/IR/SpyreBase.td"
include "Spyre/Dialect/Spyre/IR/SpyreAttrs.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/BuiltinTypes.td"

def Spyre_DeviceTensor : Type<
    CPred<"::mlir::spyre::isDeviceTensor($_self)">,
    "ranked tensor with a #spyre.layout encoding", "::mlir::RankedTensorType">;

def Spyre_HostTensor : Type<
    And<[AnyRankedTensor.predicate,
         CPred<"!::mlir::spyre::isDeviceTensor($_self)">]>,
    "ranked tensor without a #spyre.layout encoding",
    "::mlir::RankedTensorType">;

def Spyre_ToDeviceOp : Spyre_Op<"to_device", [Pure]> {
  let summary = "Transfer a host tensor into a laid-out device tensor";
  let description = [{
    Moves every element of the host tensor into the device layout of the
    result type (the DMA of a DCI descriptor), converting the element type to
    the device format on the way (bf16 -> DL16, i64 -> i32). Padding is not
    written from the host.

    ```mlir
    %d = spyre.to_device %h : tensor<1024x256xf16>
           -> tensor<1024x256xf16, #spyre.layout<device_size = [4, 1024, 64],
                                                 stride_map = [64, 256, 1]>>
    ```
  }];
  let arguments = (ins Spyre_HostTensor:$input);
  let results = (outs Spyre_DeviceTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def Spyre_FromDeviceOp : Spyre_Op<"from_device", [Pure]> {
  let summary = "Transfer a laid-out device tensor back to a host tensor";
  let description = [{
    The inverse of `spyre.to_device`: reads every non-padding element of the
    device tensor into a host tensor of the same shape and element type.

    ```mlir
    %h = spyre.from_device %d : tensor<1024x256xf16, #spyre.layout<...>>
           -> tensor<1024x256xf16>
    ```
  }];
  let arguments = (ins Spyre_DeviceTensor:$input);
  let results = (outs Spyre_HostTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Spyre_RestickifyOp : Spyre_Op<"restickify", [Pure]> {
  let summary = "Copy a device tensor into another layout";
  let description = [{
    The same logical tensor in another device layout, typically with the
    stick on another host dim. Its cost is every element of the source device
    tensor (padding included). Restickifying to the same layout is a no-op
    and folds away; a chain of restickifies folds into one.

    ```mlir
    %t = spyre.restickify %x
           : tensor<1024x256xf16, #spyre.layout<device_size = [4, 1024, 64],
                                                stride_map = [64, 256, 1]>>
           -> tensor<1024x256xf16, #spyre.layout<device_size = [16, 256, 64],
                                                 stride_map = [16384, 1, 256]>>
    ```
  }];
  let arguments = (ins Spyre_DeviceTensor:$input);
  let results = (outs Spyre_DeviceTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

#endif // SPYRE_DIALECT_SPYRE_IR_SPYREOPS_TD
