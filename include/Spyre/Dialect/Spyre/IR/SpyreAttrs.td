//===- SpyreAttrs.td - spyre dialect attributes ------------*- tablegen -*-===//

#ifndef SPYRE_DIALECT_SPYRE_IR_SPYREATTRS_TD
#define SPYRE_DIALECT_SPYRE_IR_SPYREATTRS_TD

include "Spyre/Dialect/Spyre/IR/SpyreBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/TensorEncoding.td"
include "mlir/IR/EnumAttr.td"

class Spyre_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Spyre_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

/// `[1, 2, 3]`
def Spyre_IntListParameter : ArrayRefParameter<"int64_t"> {
  let parser = "::mlir::spyre::parseIntList($_parser)";
  let printer = "::mlir::spyre::printIntList($_printer, $_self)";
}

/// A real number (scalar parameters of the target).
class Spyre_RealParameter<string defaultValue, string desc>
    : DefaultValuedParameter<"::llvm::APFloat",
                             "::llvm::APFloat(" # defaultValue # ")", desc> {
  let parser = "::mlir::spyre::parseReal($_parser)";
  let printer = "::mlir::spyre::printReal($_printer, $_self)";
}

/// `SEN169_FP16`, ... (optional; the element type's format when absent).
def Spyre_DataFormatParameter
    : OptionalParameter<"std::optional<::mlir::spyre::DataFormat>",
                        "device data format"> {
  let parser = "::mlir::spyre::parseDataFormat($_parser)";
  let printer = "::mlir::spyre::printDataFormat($_printer, *$_self)";
}

/// `standard`, `dl16_to_fp32`, `qfp8ch`, `exx2`.
def Spyre_ArrangementParameter
    : DefaultValuedParameter<"::mlir::spyre::ElementArrangement",
                             "::mlir::spyre::ElementArrangement::Standard",
                             "element arrangement inside sticks"> {
  let parser = "::mlir::spyre::parseArrangement($_parser)";
  let printer = "::mlir::spyre::printArrangement($_printer, $_self)";
}

class Spyre_CountParameter<string defaultValue, string desc>
    : DefaultValuedParameter<"int64_t", defaultValue, desc>;

def Spyre_LayoutAttr : Spyre_Attr<"Layout", "layout",
    [DeclareAttrInterfaceMethods<VerifiableTensorEncoding>]> {
  let summary = "A tiled device layout (SpyreTensorLayout)";
  let description = [{
    Places the elements of the host tensor whose type carries this encoding
    into a tiled, padded, row-major device tensor.

    - `device_size`: the padded extent of every device dim. The last device
      dim is the stick and holds exactly one stick of the device format.
    - `stride_map`: per device dim, the host elements advanced by a +1 step
      along it (host strides are the tensor's row-major strides). `-1` marks
      a synthetic dim (only coordinate 0 holds data) or a size-1 dim; `0` a
      broadcast dim (every coordinate aliases one host element).
    - `format` (optional): the device data format; defaults to the format the
      DMA converts the element type to (f16, bf16, i1 -> `SEN169_FP16`;
      f32 -> `IEEE_FP32`; i16, i32, i64, index -> `IEEE_INT32`; i8 -> `SENINT8`;
      f8E4M3FN -> `SEN143_FP8`; f8E5M2 -> `SEN152_FP8`; i4 -> `SENINT4`).
    - `arrangement` (optional): `standard` (default), `dl16_to_fp32`,
      `qfp8ch` or `exx2`.
    - `stick_bytes` (optional): the stick size the layout is built for
      (default 128). It must match the module's `#spyre.target`; stating it
      keeps a layout verifiable on its own, wherever its type is built.

    The encoding is verified against its tensor type: the stick must match
    the format, every device dim must step along exactly one host dim, and
    each host dim's device dims must tile it exactly - every host element in
    exactly one device slot, padding only past the end of a dim.

    Example (f16 [5, 100, 150], the reference stack's default layout):

    ```mlir
    tensor<5x100x150xf16, #spyre.layout<device_size = [100, 3, 5, 64],
                                        stride_map = [150, 64, 15000, 1]>>
    ```
  }];
  let parameters = (ins
    Spyre_IntListParameter:$device_size,
    Spyre_IntListParameter:$stride_map,
    Spyre_DataFormatParameter:$format,
    Spyre_ArrangementParameter:$arrangement,
    DefaultValuedParameter<"int64_t", "::mlir::spyre::kDefaultStickBytes",
                           "bytes per stick">:$stick_bytes
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The device format for tensors of `elementType` (the explicit `format`
    /// or the element type's default). Fails for element types without one.
    ::mlir::FailureOr<::mlir::spyre::DataFormat>
    getFormatFor(::mlir::Type elementType) const;

    /// The layout algebra value for tensors of `elementType`.
    ::llvm::Expected<::mlir::spyre::SpyreTensorLayout>
    getLayout(::mlir::Type elementType) const;

    /// The layout bound to (and verified against) `type`'s shape.
    ::llvm::Expected<::mlir::spyre::BoundLayout>
    bind(::mlir::RankedTensorType type) const;

    /// The attribute for `layout` used with `elementType`; the format is
    /// elided when it is the element type's default (the normal form).
    static LayoutAttr get(::mlir::MLIRContext *context,
                          const ::mlir::spyre::SpyreTensorLayout &layout,
                          ::mlir::Type elementType);
  }];
}

def Spyre_TargetAttr : Spyre_Attr<"Target", "target"> {
  let summary = "The modelled machine: every machine number in one place";
  let description = [{
    Attach to a module as `spyre.target` to override the reference machine.
    Every parameter is optional; omitted ones take the default shown.

    | parameter | default | range | meaning |
    |---|---|---|---|
    | `cores` | 32 | 1 .. 1024 | cores per card |
    | `corelets` | 2 | 1 .. 64 | corelets per core (PT array + SFP each) |
    | `stick_bytes` | 128 | 4 .. 4096, multiple of 4 | bytes per stick |
    | `lx_bytes` | 2097152 | 1 .. 2^32, whole sticks | LX scratchpad bytes per core |
    | `lx_reserved` | 0.2 | [0, 1) | fraction of LX reserved for the backend |
    | `ddr_gbps` | 204.8 | 0.001 .. 1e6 | aggregate DDR bandwidth, GB/s |
    | `ddr_bytes` | 137438953472 | 1 .. 2^48 | DDR capacity |
    | `segment_bytes` | 17179869184 | 1 .. 2^48 | DDR segment per kernel argument |
    | `span_bytes` | 268435456 | 1 .. 2^48 | per-core address span per tensor |
    | `clock_ghz` | 1.0 | 0.001 .. 1000 | core clock (model default) |
    | `pt_macs_per_cycle` | 768 | 1 .. 2^20 | PT MACs per cycle per corelet |
    | `pt_rows` | 8 | 1 .. 2^16 | rows of A per PT pass |
    | `pt_fill_passes` | 8 | 1 .. 2^16 | PT passes that amortise array fill and drain |
    | `sfp_sticks_per_cycle` | 1 | 1 .. 2^16 | SFP sticks per cycle per corelet |
    | `dma_bytes_per_cycle` | 64 | 1 .. 2^20 | one core's DMA throughput (model default) |
    | `ring_bytes_per_cycle` | 128 | 1 .. 2^20 | ring bandwidth per direction |
    | `tile_overhead_cycles` | 100 | 0 .. 2^32 | per tile step: issuing DMAs, syncing (model default) |
    | `max_loop_count` | 65535 | 1 .. 2^32 | largest hardware loop trip count |
    | `host_link_gbps` | 32.0 | 0.001 .. 1e6 | host <-> card bandwidth for transfers at host segments (model default) |
    | `bundle_segments` | 6 | 1 .. 1024 | DDR segments one bundle binds: the pool (if any) and one per host-visible tensor (torch-spyre's limit) |
    | `lx_resident_ops` | `["max", "amax", "sum", "exp", "sub", "mul", "mean", "add", "rsqrt"]` | SuperDSC op names | ops whose outputs may stay in LX between kernels (torch-spyre's set; a `nonstick` reduction counts as its base op) |

    The ranges are checked by the verifier: wide enough for any machine worth
    modelling, narrow enough that the model's arithmetic (MACs per second,
    bytes per core, loop counts) neither overflows nor loses precision.

    ```mlir
    module attributes {spyre.target = #spyre.target<cores = 8>} { ... }
    ```
  }];
  let parameters = (ins
    Spyre_CountParameter<"::mlir::spyre::TargetModel{}.cores", "cores">:$cores,
    Spyre_CountParameter<"::mlir::spyre::TargetModel{}.corelets", "corelets">:$corelets,
    Spyre_CountParameter<"::mlir::spyre::TargetModel{}.stickBytes", "stick bytes">:$stick_bytes,
    Spyre_CountParameter<"::mlir::spyre::TargetModel{}.lxBytes", "LX bytes">:$lx_bytes,
    Spyre_RealParameter<"::mlir::spyre::TargetModel{}.lxReservedFraction", "reserved LX fraction">:$lx_reserved,
    Spyre_RealParameter<"::mlir::spyre::TargetModel{}.ddrGBps", "DDR GB/s">:$ddr_gbps,
    Spyre_CountParameter<"::mlir::spyre::TargetModel{}.ddrBytes", "DDR bytes">:$ddr_bytes,
    Spyre_CountParameter<"::mlir::spyre::TargetModel{}.segmentBytes", "segment bytes">:$segment_bytes,
    Spyre_CountParameter<"::mlir::spyre::TargetModel{}.spanBytes", "span bytes">:$span_bytes,
    Spyre_RealParameter<"::mlir::spyre::TargetModel{}.clockGHz", "clock GHz">:$clock_ghz,
    Spyre_CountParameter<"::mlir::spyre::TargetModel{}.ptMacsPerCycle", "PT MACs per cycle">:$pt_macs_per_cycle,
    Spyre_CountParameter<"::mlir::spyre::TargetModel{}.ptRows", "PT rows per pass">:$pt_rows,
    Spyre_CountParameter<"::mlir::spyre::TargetModel{}.ptFillPasses", "PT fill passes">:$pt_fill_passes,
    Spyre_CountParameter<"::mlir::spyre::TargetModel{}.sfpSticksPerCycle", "SFP sticks per cycle">:$sfp_sticks_per_cycle,
    Spyre_CountParameter<"::mlir::spyre::TargetModel{}.dmaBytesPerCycle", "DMA bytes per cycle">:$dma_bytes_per_cycle,
    Spyre_CountParameter<"::mlir::spyre::TargetModel{}.ringBytesPerCycle", "ring bytes per cycle">:$ring_bytes_per_cycle,
    Spyre_CountParameter<"::mlir::spyre::TargetModel{}.tileOverheadCycles", "cycles per tile step">:$tile_overhead_cycles,
    Spyre_CountParameter<"::mlir::spyre::TargetModel{}.maxLoopCount", "max loop count">:$max_loop_count,
    Spyre_RealParameter<"::mlir::spyre::TargetModel{}.hostLinkGBps", "host link GB/s">:$host_link_gbps,
    Spyre_CountParameter<"::mlir::spyre::TargetModel{}.bundleSegments", "segments per bundle">:$bundle_segments,
    OptionalParameter<"::mlir::ArrayAttr", "ops whose outputs may stay in LX (absent: the default set)">:$lx_resident_ops
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The plain C++ machine description.
    ::mlir::spyre::TargetModel getModel() const;
    /// The attribute describing `model`.
    static TargetAttr get(::mlir::MLIRContext *context,
                          const ::mlir::spyre::TargetModel &model);
  }];
}

//===----------------------------------------------------------------------===//
// Work division, memory and kernels
//===----------------------------------------------------------------------===//

/// `[1, 2, 3]`, optional (empty when absent).
def Spyre_OptionalIntListParameter : OptionalArrayRefParameter<"int64_t"> {
  let parser = "::mlir::spyre::parseIntList($_parser)";
  let printer = "::mlir::spyre::printIntList($_printer, $_self)";
}

def Spyre_DivisionAttr : Spyre_Attr<"Division", "division"> {
  let summary = "How a compute op's iteration space is split across cores";
  let description = [{
    Set by `--spyre-divide-work` as the `spyre.division` attribute of every
    device compute op (and restickify / pad).

    - `splits`: slices per operation dim (the op's iteration space). Their
      product is the number of cores the op runs on. A split of a dim that
      is a stick of some operand is counted in whole sticks.
    - `order`: the operation dims from the fastest-varying digit of the core
      id to the slowest: core `c` works on slice
      `(c / prod(splits[order[0..i)])) % splits[order[i]]` of dim `order[i]`.
      A split matmul `k` comes first, so partial-sum partners are ring
      neighbours.
    - `chunks` (optional): sequential launches per operation dim, used when
      one launch cannot keep every core within the per-core span limit.

    ```mlir
    %0 = spyre.add %a, %b {spyre.division = #spyre.division<splits = [4, 1], order = [0, 1]>} : ...
    ```
  }];
  let parameters = (ins Spyre_IntListParameter:$splits,
                        Spyre_IntListParameter:$order,
                        Spyre_OptionalIntListParameter:$chunks);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    int64_t getNumCores() const;
    int64_t getNumChunks() const;
    /// Chunks of dim `d` (1 when `chunks` is absent).
    int64_t getChunk(unsigned d) const;
    /// The attribute of a kernel-model division (chunks omitted when there
    /// is one launch), and back.
    static DivisionAttr get(::mlir::MLIRContext *context,
                            const ::mlir::spyre::kernel::Division &division);
    ::mlir::spyre::kernel::Division getModel() const;
  }];
}

def Spyre_MemorySpace : I32EnumAttr<"MemorySpace", "where a buffer lives", [
    I32EnumAttrCase<"IO", 0, "io">,
    I32EnumAttrCase<"Pool", 1, "pool">,
    I32EnumAttrCase<"LX", 2, "lx">]> {
  let cppNamespace = "::mlir::spyre";
  let genSpecializedAttr = 0;
}

def Spyre_MemAttr : Spyre_Attr<"Mem", "mem"> {
  let summary = "Where a device tensor lives";
  let description = [{
    Set by `--spyre-plan-memory` (`spyre.mem` on the op defining a tensor, or
    on a function argument / result):

    - `#spyre.mem<io N>`: host-visible DDR buffer N of the function (its
      arguments, constants, results, and tensors crossing to or from host
      code); each kernel binds it to a 16 GiB address segment of its own.
    - `#spyre.mem<pool OFFSET>`: an intermediate at byte OFFSET of the
      function's DDR pool (the kernels' segment 0), reused once dead.
    - `#spyre.mem<lx OFFSET>`: an intermediate that never leaves the
      scratchpads: every core keeps its slice at byte OFFSET of its LX.
  }];
  let parameters = (ins EnumParameter<Spyre_MemorySpace>:$space,
                        "int64_t":$value);
  let assemblyFormat = "`<` $space $value `>`";
  let genVerifyDecl = 1;
}

def Spyre_KernelDimAttr : Spyre_Attr<"KernelDim", "kdim"> {
  let summary = "One operation dim of a kernel";
  let description = [{
    `label` names the dim as the SuperDSC does (`mb`, `x`, `y`, ..., `out`;
    matmul `mb`, `out`, `in`). `size` is the logical extent; splits, chunks
    and tiles count in multiples of `granule` (a stick when the dim is some
    operand's stick), over the extent rounded up to it. Each core walks its
    slice (`size` / `chunks` / `split`, rounded) in tiles of `tile`.
  }];
  let parameters = (ins
    StringRefParameter<"SuperDSC label">:$label,
    "int64_t":$size,
    DefaultValuedParameter<"int64_t", "1">:$granule,
    DefaultValuedParameter<"int64_t", "1">:$split,
    DefaultValuedParameter<"int64_t", "1">:$chunks,
    "int64_t":$tile,
    DefaultValuedParameter<"bool", "false">:$reduction
  );
  let assemblyFormat =
      "`<` $label `,` struct($size, $granule, $split, $chunks, $tile, "
      "$reduction) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The extent rounded up to whole granules.
    int64_t getPadded() const {
      return (getSize() + getGranule() - 1) / getGranule() * getGranule();
    }
    /// Elements of this dim one core covers in one launch.
    int64_t getSlice() const { return getPadded() / getChunks() / getSplit(); }
    /// Tiles per slice.
    int64_t getTrips() const {
      return getSlice() / getTile() + (getSlice() % getTile() != 0);
    }
  }];
}

def Spyre_AccessAttr : Spyre_Attr<"Access", "access"> {
  let summary = "How a kernel reaches one of its tensors";
  let description = [{
    One per kernel operand (inputs, then the result). Addresses are bytes.

    - `mem`: where the tensor lives (see `#spyre.mem`).
    - `base`: DDR address of the tensor in this kernel (its segment's base
      plus its offset), or its LX offset when `mem` is `lx`.
    - `core_offsets`: per core, the offset of the core's slice from `base`
      (DDR tensors only).
    - `tile_steps` / `chunk_steps`: per operation dim, the offset added per
      tile index (in the core's slice) and per chunk index.
    - `box`: the device extent of one tile, per device dim except the stick
      (whole sticks); a transfer copies `prod(box)` sticks.
    - `ddr_strides` / `lx_strides`: per device dim of `box`, the byte
      distance of consecutive sticks in DDR and in the LX buffer. For an
      LX-resident tensor `lx_strides` lay out the core's whole slice and
      there are no DDR strides.
    - `lx_offsets`: the LX staging buffers of a DDR tensor (two when it is
      double-buffered), or none for an LX-resident one. An input keeping
      the tiles it needs across a loop it does not depend on (a matmul's A
      over K, kept across the tiles of N: `spyre.keep_inputs`) has one per
      tile; a tile still in a buffer is read from there, not loaded again.

    A tile's transfer is clipped to the tensor's device extent, so operands
    with a smaller stick (f32 next to f16) never move bytes outside their
    tensor.
  }];
  let parameters = (ins
    "MemAttr":$mem,
    "int64_t":$base,
    Spyre_OptionalIntListParameter:$core_offsets,
    Spyre_IntListParameter:$tile_steps,
    Spyre_OptionalIntListParameter:$chunk_steps,
    Spyre_IntListParameter:$box,
    Spyre_OptionalIntListParameter:$ddr_strides,
    Spyre_IntListParameter:$lx_strides,
    Spyre_OptionalIntListParameter:$lx_offsets
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let extraClassDeclaration = [{
    bool isResident() const {
      return getMem().getSpace() == ::mlir::spyre::MemorySpace::LX;
    }
    /// Sticks in one tile's box.
    int64_t getBoxSticks() const;
  }];
}


//===----------------------------------------------------------------------===//
// Quantized tensors
//===----------------------------------------------------------------------===//

class Spyre_QuantKeywordParameter<string cppType, string parseFn,
                                  string printFn, string desc>
    : AttrParameter<cppType, desc> {
  let parser = "::mlir::spyre::" # parseFn # "($_parser)";
  let printer = "::mlir::spyre::" # printFn # "($_printer, $_self)";
}

def Spyre_QuantModeParameter
    : DefaultValuedParameter<"::mlir::spyre::quant::CastMode",
                             "::mlir::spyre::quant::CastMode::Compressed",
                             "cast mode"> {
  let parser = "::mlir::spyre::parseQuantCastMode($_parser)";
  let printer = "::mlir::spyre::printQuantCastMode($_printer, $_self)";
}

def Spyre_QuantScaleTypeParameter
    : OptionalParameter<"std::optional<::mlir::spyre::quant::ScaleType>",
                        "scale type"> {
  let parser = "::mlir::spyre::parseQuantScaleType($_parser)";
  let printer = "::mlir::spyre::printQuantScaleType($_printer, *$_self)";
}

def Spyre_QuantAttr : Spyre_Attr<"Quant", "quant"> {
  let summary = "How a tensor is quantized (TensorCast's data type and cast)";
  let description = [{
    Describes a quantized tensor: its element format, how its scales are
    found, and how it is stored (the cast mode). `spyre.quantize` and
    `spyre.dequantize` carry one; the shapes and element types of the data
    and of every companion tensor (scale, zero, tenscale, meta, mask) follow from
    it and the unquantized tensor's shape (docs/quantization.md).

    - `format`: `e4m3fn`, `e5m2`, `e4m3fnuz`, `e5m2fnuz` (fp8), `e3m2fnuz`,
      `e2m3fnuz`, `e3m2fn`, `e2m3fn` (fp6), `e2m1fnuz`, `e2m1fn` (fp4),
      `int8`, `uint8`, `int4`, `uint4`, `int2`.
    - `scaling`: `mx` (OCP MX: blocks of 32 along `axis`, E8M0 scales),
      `tile` (tiles of `tile` along `axis`), `matrix` (`tile` along `axis`
      by `tile2` along `axis2`), `channel` (one scale per slice along
      `axis`), `tensor`, or `none`.
    - `mode`: `virtual` (quantize-dequantize), `actual` (the smallest
      standard type holding the values) or `compressed` (packed: 4-bit
      values 2 per byte and 2-bit values 4 per byte along `axis`, pruned
      values omitted; the default).
    - `scale_type`: `float32` (default; `float8_e8m0fnu` for MX), `float16`,
      `bfloat16`, `float8_e4m3fn`, `float8_e8m0fnu`.
    - `multiscale`: a tensor scale (`tenscale`) combined with the tile
      scales; `zero_point`: asymmetric integers, their zero points codes of
      the data's format (packed like it) unless `zero_type` (`float32`,
      `float16`, `bfloat16`) makes them floats, one per scale, never
      packed and not rounded to an integer (GPTQ-style int4 weights);
      `sparsity`: 0, 25 or 50 percent of each group of 4 along `axis`
      pruned.
    - `codebook`: TensorCast's codebook code
      (`"cb<index_bits><meta_bits>[<desc>]_<compute>[_<label>]"`); `format`
      is then its compute type, the data are indices into the mapping a
      `meta` companion selects per tile, or per `subtile` values along
      `axis`; a generic codebook (no desc) gives its `mappings` (2^meta_bits
      x 2^index_bits values of the compute type, row-major).
    - `saturate`: values beyond the format's range saturate (the default,
      OCP MX's conversion); `saturate = false` (fp8 formats, which have NaN
      or infinities) overflows to them as a cast does - MLIR's
      `scaling_truncf` to fp8, whose fake quantization is raised to it.

    ```mlir
    #spyre.quant<format = e2m1fn, scaling = mx>                  // MXFP4
    #spyre.quant<format = int8, scaling = channel, zero_point = true>
    #spyre.quant<format = uint4, scaling = tile, tile = 128,
                 scale_type = float16, zero_point = true, zero_type = float16>
    #spyre.quant<format = e2m3fnuz, scaling = mx,
                 codebook = "cb42f1346_e2m3fnuz", subtile = 8>
    ```
  }];
  let parameters = (ins
    Spyre_QuantKeywordParameter<"::mlir::spyre::quant::Format",
        "parseQuantFormat", "printQuantFormat", "element format">:$format,
    Spyre_QuantKeywordParameter<"::mlir::spyre::quant::Scaling",
        "parseQuantScaling", "printQuantScaling", "scaling">:$scaling,
    Spyre_QuantModeParameter:$mode,
    DefaultValuedParameter<"int64_t", "-1", "scaled dim">:$axis,
    DefaultValuedParameter<"int64_t", "32", "tile along axis">:$tile,
    DefaultValuedParameter<"int64_t", "-2", "second dim of matrix tiles">:$axis2,
    DefaultValuedParameter<"int64_t", "32", "tile along axis2">:$tile2,
    Spyre_QuantScaleTypeParameter:$scale_type,
    DefaultValuedParameter<"bool", "false", "tensor scale too">:$multiscale,
    DefaultValuedParameter<"bool", "false", "zero points">:$zero_point,
    DefaultValuedParameter<"int64_t", "0", "sparsity percent">:$sparsity,
    OptionalParameter<"::mlir::StringAttr", "codebook code">:$codebook,
    DefaultValuedParameter<"int64_t", "0", "codebook subtile">:$subtile,
    OptionalParameter<"::mlir::DenseF64ArrayAttr",
        "a generic codebook's mappings">:$mappings,
    Spyre_QuantScaleTypeParameter:$zero_type,
    DefaultValuedParameter<"bool", "true",
        "values beyond the range saturate">:$saturate
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The library's description of the scheme.
    ::mlir::spyre::quant::QuantSpec getSpec() const;
    /// The shapes and dtypes of the data and its companions for an
    /// unquantized tensor of `shape` (fails with the reason when the scheme
    /// does not fit it).
    ::llvm::Expected<::mlir::spyre::quant::QuantShapes>
    getShapes(::llvm::ArrayRef<int64_t> shape) const;
    /// The tensor types of the stored parts (data, then each companion
    /// present: scale, zero, tenscale, meta, mask) for an unquantized tensor of
    /// `type`, with their names.
    ::mlir::FailureOr<::llvm::SmallVector<
        std::pair<::llvm::StringRef, ::mlir::RankedTensorType>>>
    getPartTypes(::mlir::RankedTensorType type,
                 ::llvm::function_ref<::mlir::InFlightDiagnostic()> emitError)
        const;
  }];
}

#endif // SPYRE_DIALECT_SPYRE_IR_SPYREATTRS_TD
