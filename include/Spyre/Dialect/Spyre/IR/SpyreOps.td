//===- SpyreOps.td - spyre dialect operations --------------*- tablegen -*-===//

#ifndef SPYRE_DIALECT_SPYRE_IR_SPYREOPS_TD
#define SPYRE_DIALECT_SPYRE_IR_SPYREOPS_TD

include "Spyre/Dialect/Spyre/IR/SpyreBase.td"
include "Spyre/Dialect/Spyre/IR/SpyreAttrs.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/BuiltinTypes.td"
include "mlir/IR/OpAsmInterface.td"
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

def Spyre_RestickifyOp
    : Spyre_Op<"restickify", [Pure, Spyre_KernelPayloadOpInterface]>,
      Spyre_PayloadFacts<"ReStickifyOpHBM", AllFormats, "SFP",
                         /*movement=*/1> {
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
  let extraClassDeclaration = spyreFactsDecl # [{
    /// A copy: one parallel op dim per tensor dim.
    ::llvm::SmallVector<::mlir::AffineMap> getIndexingMapsArray() {
      return ::mlir::spyre::detail::getCopyIndexingMaps(getOperation());
    }
  }];
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
    The same elements in row-major order under another shape. A stride_map
    counts row-major host elements, which a reshape keeps, so the op is a
    view whenever the result's layout places every element at the same
    device bytes as the input's: the input's layout itself when it binds to
    the new shape, else the same device dims split at the new dim
    boundaries (a row dim of 4 read as `[2, 2]`) and merged where pieces of
    one new dim meet. A reshape that would split the stick or a padded dim
    moves data; `--spyre-convert-linalg` leaves those on the host.
  }];
  let arguments = (ins AnyRankedTensor:$input);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
  let extraClassDeclaration = [{
    /// Whether the op moves no data: both sides laid out, placing every
    /// element at the same device bytes (spyre::sameDeviceBytes).
    bool isView();
  }];
}

//===----------------------------------------------------------------------===//
// Padding and constants
//===----------------------------------------------------------------------===//

def Spyre_PadOp
    : Spyre_Op<"pad", [Pure, Spyre_KernelPayloadOpInterface]>,
      Spyre_PayloadFacts<"identity", AllFormats, "SFP", /*movement=*/1> {
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
  let extraClassDeclaration = spyreFactsDecl # [{
    /// A copy: one parallel op dim per tensor dim.
    ::llvm::SmallVector<::mlir::AffineMap> getIndexingMapsArray() {
      return ::mlir::spyre::detail::getCopyIndexingMaps(getOperation());
    }
  }];
}

def Spyre_ConstantOp : Spyre_Op<"constant", [Pure, ConstantLike]> {
  let summary = "A constant tensor";
  let description = [{
    Constants are uploaded like graph inputs (the hardware has no immediate
    tensor operands; a scalar is one stick that kernels broadcast). The
    result may carry a layout.

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

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

def Spyre_KernelOp : Spyre_Op<"kernel", [IsolatedFromAbove, Pure,
                                         SingleBlock]> {
  let summary = "One op run SPMD on the cores, with its per-core program";
  let description = [{
    The form `--spyre-lower-to-kernels` produces and every consumer reads:
    the SuperDSC and DCI emitters and the simulator. The body holds the
    computation (one spyre compute op, restickify or pad on the block
    arguments); the attributes say how the cores run it:

    - `name`: `<index>_<opfunc>`, the kernel's key in the bundle;
    - `dims`: one `#spyre.kdim` per operation dim - extent, stick granule,
      split across cores, sequential chunks and per-core tile;
    - `order`: the core id -> slice mixed radix (operation dims, fastest
      first);
    - `accesses`: one `#spyre.access` per operand and for the result - where
      it lives, its per-core DDR offsets, and the DMA descriptor that stages
      one tile between DDR and LX;
    - `segments`: the DDR buffers bound to the kernel's address segments, in
      order (segment i starts at i times the target's segment size);
    - `lx_bytes`: the per-core LX the kernel's staging buffers occupy.

    Each core walks its slice tile by tile (parallel dims outermost, then
    reduction dims), staging every input tile whose position changed from
    DDR into LX (double-buffered when it is staged more than once), computing
    the tile on the SFP (pointwise, reductions) or the PT array (matmul), and
    storing each finished result tile. Partial results of a split reduction
    dim are combined over the ring before the store.

    ```mlir
    %r = spyre.kernel "0_add" (%a, %b) : (!t, !t) -> !t attributes {
        dims = [#spyre.kdim<"mb", size = 128, split = 4, tile = 32>,
                #spyre.kdim<"out", size = 256, granule = 64, tile = 256>],
        order = array<i64: 0, 1>, accesses = [...], segments = [...],
        lx_bytes = 49152} {
    ^bb0(%x: !t, %y: !t):
      %0 = spyre.add %x, %y : (!t, !t) -> !t
      spyre.yield %0 : !t
    }
    ```
  }];
  let arguments = (ins Variadic<Spyre_DeviceTensor>:$inputs,
                       StrAttr:$name,
                       TypedArrayAttrBase<Spyre_KernelDimAttr,
                                          "kernel dims">:$dims,
                       DenseI64ArrayAttr:$order,
                       TypedArrayAttrBase<Spyre_AccessAttr,
                                          "operand accesses">:$accesses,
                       TypedArrayAttrBase<Spyre_MemAttr,
                                          "segment buffers">:$segments,
                       I64Attr:$lx_bytes);
  let results = (outs Spyre_DeviceTensor:$result);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $name `(` $inputs `)` `:` functional-type($inputs, $result)
    attr-dict-with-keyword $body
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    /// The op in the body computing the kernel's result.
    ::mlir::Operation *getPayload();
    /// Cores the kernel runs on (product of the splits).
    int64_t getNumCores();
    /// Sequential launches (product of the chunks).
    int64_t getNumChunks();
    /// The slice index of `core` along every operation dim.
    ::llvm::SmallVector<int64_t> getSliceOf(int64_t core);
    ::mlir::spyre::KernelDimAttr getDim(unsigned d) {
      return ::llvm::cast<::mlir::spyre::KernelDimAttr>(getDims()[d]);
    }
    /// Access of operand `i`; `getNumInputs()` is the result.
    ::mlir::spyre::AccessAttr getAccess(unsigned i) {
      return ::llvm::cast<::mlir::spyre::AccessAttr>(getAccesses()[i]);
    }
    unsigned getNumInputs() { return getInputs().size(); }
  }];
}

def Spyre_YieldOp : Spyre_Op<"yield", [Pure, Terminator,
                                       HasParent<"KernelOp">]> {
  let summary = "The result of a kernel body";
  let arguments = (ins AnyRankedTensor:$value);
  let assemblyFormat = "$value attr-dict `:` type($value)";
}


//===----------------------------------------------------------------------===//
// Quantized tensors
//===----------------------------------------------------------------------===//

def Spyre_QuantizeOp : Spyre_Op<"quantize", [Pure]> {
  let summary = "Quantize a tensor into its data and companion tensors";
  let description = [{
    Quantizes `input` as `quant` describes and returns the stored parts:
    the data, then each companion the scheme has, in the order scale, zero,
    tenscale, meta, mask. Their shapes and element types follow from `quant` and
    the input's shape (docs/quantization.md): for MXFP4 of a `[R, C]` tensor,
    packed data `[R, C/2] x i8` and E8M0 scales `[R, C/32]`. Packed bytes
    and integers are signless; fp8 data and scales use MLIR's fp8 types.

    ```mlir
    %data, %scale = spyre.quantize %w {quant = #spyre.quant<format = e2m1fn, scaling = mx>}
        : tensor<64x256xf32> -> tensor<64x128xi8>, tensor<64x8xf8E8M0FNU>
    ```

    With `scales(...)` the program gives the scales itself (the scale, zero
    and tenscale companions the scheme has, in that order and in their stored
    types) and the op returns the other parts: the data (and meta, mask).
    Each value is divided by its scale in f32, rounded to nearest even and
    offset by its zero point: PyTorch's `quantize_per_tensor`, which the
    linalg conversion raises to this form, and MLIR's `arith.scaling_truncf`
    with E8M0 scales.

    ```mlir
    %q = spyre.quantize %x scales(%s, %z : tensor<1x1xf32>, tensor<1x1xi8>)
        {quant = #spyre.quant<format = int8, scaling = tensor, zero_point = true>}
        : tensor<16x64xf32> -> tensor<16x64xi8>
    ```

    fp8 with float scales found per tensor, channel or tile runs on the
    device (`--spyre-lower-quant-casts`: torch-spyre's
    `quantize_fp8_with_scale`); every other form runs on the host, where the
    simulator's reference calls the quantization library (what Python's
    `spyre.quantize` computes) from its generated code. A quantize of a
    constant folds to the constant parts at compile time.
  }];
  let arguments = (ins Spyre_HostTensor:$input,
                       Variadic<Spyre_HostTensor>:$scales,
                       Spyre_QuantAttr:$quant);
  let results = (outs Variadic<Spyre_HostTensor>:$parts);
  let assemblyFormat = [{
    $input (`scales` `(` $scales^ `:` type($scales) `)`)? attr-dict `:`
    type($input) `->` type($parts)
  }];
  let hasFolder = 1;
  let hasVerifier = 1;
}

def Spyre_DequantizeOp : Spyre_Op<"dequantize", [Pure]> {
  let summary = "The values a quantized tensor stands for";
  let description = [{
    The inverse of `spyre.quantize`: reads the data and companion tensors
    (same order and types) and returns the unquantized tensor, scales and
    zero points applied and pruned values reinstated as zeros.

    ```mlir
    %w = spyre.dequantize %data, %scale {quant = #spyre.quant<format = e2m1fn, scaling = mx>}
        : tensor<64x128xi8>, tensor<64x8xf8E8M0FNU> -> tensor<64x256xf16>
    ```
  }];
  let arguments = (ins Variadic<Spyre_HostTensor>:$parts, Spyre_QuantAttr:$quant);
  let results = (outs Spyre_HostTensor:$result);
  let assemblyFormat =
      "$parts attr-dict `:` type($parts) `->` type($result)";
  let hasVerifier = 1;
}

#endif // SPYRE_DIALECT_SPYRE_IR_SPYREOPS_TD
