//===- SpyreOps.td - spyre dialect operations --------------*- tablegen -*-===//

#ifndef SPYRE_DIALECT_SPYRE_IR_SPYREOPS_TD
#define SPYRE_DIALECT_SPYRE_IR_SPYREOPS_TD

include "Spyre/Dialect/Spyre/IR/SpyreBase.td"
include "Spyre/Dialect/Spyre/IR/SpyreAttrs.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/BuiltinTypes.td"
include "Spyre/Dialect/Spyre/IR/SpyreComputeOps.td"

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

//===----------------------------------------------------------------------===//
// Views
//===----------------------------------------------------------------------===//

def Spyre_TransposeOp : Spyre_Op<"transpose", [Pure]> {
  let summary = "Permute the dims of a tensor (a view when layouts allow)";
  let description = [{
    `result[i0, ..., in] = input[...]` with result dim `i` being input dim
    `permutation[i]`. When the result's layout is the input's layout seen
    through the permutation (`spyre::transposeView`), the op is a view: the
    same device bytes, no data movement. Any other result layout makes it a
    copy; `--spyre-propagate-layouts` only chooses that when it is cheaper.
  }];
  let arguments = (ins AnyRankedTensor:$input, DenseI64ArrayAttr:$permutation);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$input `permutation` `=` $permutation attr-dict `:` "
                       "type($input) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
  let extraClassDeclaration = [{
    /// Whether the op moves no data: both sides laid out, the result's
    /// layout the view of the input's.
    bool isView();
  }];
}

def Spyre_ReshapeOp : Spyre_Op<"reshape", [Pure]> {
  let summary = "Row-major reshape (a view when layouts allow)";
  let description = [{
    The same elements in row-major order under another shape. Because a
    stride_map counts host elements, the input's layout describes the same
    device bytes for the new shape whenever it binds to it (no padding in the
    middle of a merged dim): then the op is a view. Otherwise it copies.
  }];
  let arguments = (ins AnyRankedTensor:$input);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
  let extraClassDeclaration = [{
    /// Whether the op moves no data (same layout on both sides).
    bool isView();
  }];
}

//===----------------------------------------------------------------------===//
// Padding and constants
//===----------------------------------------------------------------------===//

def Spyre_PadOp : Spyre_Op<"pad", [Pure]> {
  let summary = "The same tensor with its padding set to a value";
  let description = [{
    The logical tensor is unchanged; the result's layout may cover more device
    slots than the input's (e.g. a matmul B operand whose K rows are padded to
    a whole number of sticks), and every padding slot of the result holds
    `value`. Inserted by `--spyre-insert-padding` where padding must hold a
    neutral value.
  }];
  let arguments = (ins Spyre_DeviceTensor:$input, F64Attr:$value);
  let results = (outs Spyre_DeviceTensor:$result);
  let assemblyFormat = "$input `value` `=` $value attr-dict `:` type($input) "
                       "`->` type($result)";
  let hasVerifier = 1;
}

def Spyre_ConstantOp : Spyre_Op<"constant", [Pure, ConstantLike]> {
  let summary = "A constant tensor";
  let description = [{
    Scalars (rank 0) and splats are embedded in the kernels that read them
    (the SuperDSC's constants); other constants are uploaded like graph
    inputs. The result may carry a layout.

    ```mlir
    %half = spyre.constant dense<5.000000e-01> : tensor<f16> -> tensor<f16>
    ```
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$value attr-dict `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

#endif // SPYRE_DIALECT_SPYRE_IR_SPYREOPS_TD
