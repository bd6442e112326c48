//===- SpyreAttrs.td - spyre dialect attributes ------------*- tablegen -*-===//

#ifndef SPYRE_DIALECT_SPYRE_IR_SPYREATTRS_TD
#define SPYRE_DIALECT_SPYRE_IR_SPYREATTRS_TD

include "Spyre/Dialect/Spyre/IR/SpyreBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/TensorEncoding.td"

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
    : OptionalParameter<"std::optional<::spyre::DataFormat>",
                        "device data format"> {
  let parser = "::mlir::spyre::parseDataFormat($_parser)";
  let printer = "::mlir::spyre::printDataFormat($_printer, *$_self)";
}

/// `standard`, `dl16_to_fp32`, `qfp8ch`, `exx2`.
def Spyre_ArrangementParameter
    : DefaultValuedParameter<"::spyre::ElementArrangement",
                             "::spyre::ElementArrangement::Standard",
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
      f32 -> `IEEE_FP32`; i32, i64 -> `IEEE_INT32`; i8 -> `SENINT8`;
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
    DefaultValuedParameter<"int64_t", "::spyre::kDefaultStickBytes",
                           "bytes per stick">:$stick_bytes
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The device format for tensors of `elementType` (the explicit `format`
    /// or the element type's default). Fails for element types without one.
    ::mlir::FailureOr<::spyre::DataFormat>
    getFormatFor(::mlir::Type elementType) const;

    /// The layout algebra value for tensors of `elementType`.
    ::llvm::Expected<::spyre::SpyreTensorLayout>
    getLayout(::mlir::Type elementType) const;

    /// The layout bound to (and verified against) `type`'s shape.
    ::llvm::Expected<::spyre::BoundLayout>
    bind(::mlir::RankedTensorType type) const;

    /// The attribute for `layout` used with `elementType`; the format is
    /// elided when it is the element type's default (the normal form).
    static LayoutAttr get(::mlir::MLIRContext *context,
                          const ::spyre::SpyreTensorLayout &layout,
                          ::mlir::Type elementType);
  }];
}

def Spyre_TargetAttr : Spyre_Attr<"Target", "target"> {
  let summary = "The modelled machine: every machine number in one place";
  let description = [{
    Attach to a module as `spyre.target` to override the reference machine.
    Every parameter is optional; omitted ones take the default shown.

    | parameter | default | meaning |
    |---|---|---|
    | `cores` | 32 | cores per card |
    | `corelets` | 2 | corelets per core (PT array + SFP each) |
    | `stick_bytes` | 128 | bytes per stick |
    | `lx_bytes` | 2097152 | LX scratchpad bytes per core |
    | `lx_reserved` | 0.2 | fraction of LX reserved for the backend |
    | `ddr_gbps` | 204.8 | aggregate DDR bandwidth, GB/s |
    | `ddr_bytes` | 137438953472 | DDR capacity |
    | `segment_bytes` | 17179869184 | DDR segment per kernel argument |
    | `span_bytes` | 268435456 | per-core address span per tensor |
    | `clock_ghz` | 1.0 | core clock (model default) |
    | `pt_macs_per_cycle` | 768 | PT MACs per cycle per corelet |
    | `sfp_sticks_per_cycle` | 1 | SFP sticks per cycle per corelet |
    | `ring_bytes_per_cycle` | 128 | ring bandwidth per direction |
    | `max_loop_count` | 65535 | largest hardware loop trip count |

    ```mlir
    module attributes {spyre.target = #spyre.target<cores = 8>} { ... }
    ```
  }];
  let parameters = (ins
    Spyre_CountParameter<"::spyre::TargetModel{}.cores", "cores">:$cores,
    Spyre_CountParameter<"::spyre::TargetModel{}.corelets", "corelets">:$corelets,
    Spyre_CountParameter<"::spyre::TargetModel{}.stickBytes", "stick bytes">:$stick_bytes,
    Spyre_CountParameter<"::spyre::TargetModel{}.lxBytes", "LX bytes">:$lx_bytes,
    Spyre_RealParameter<"::spyre::TargetModel{}.lxReservedFraction", "reserved LX fraction">:$lx_reserved,
    Spyre_RealParameter<"::spyre::TargetModel{}.ddrGBps", "DDR GB/s">:$ddr_gbps,
    Spyre_CountParameter<"::spyre::TargetModel{}.ddrBytes", "DDR bytes">:$ddr_bytes,
    Spyre_CountParameter<"::spyre::TargetModel{}.segmentBytes", "segment bytes">:$segment_bytes,
    Spyre_CountParameter<"::spyre::TargetModel{}.spanBytes", "span bytes">:$span_bytes,
    Spyre_RealParameter<"::spyre::TargetModel{}.clockGHz", "clock GHz">:$clock_ghz,
    Spyre_CountParameter<"::spyre::TargetModel{}.ptMacsPerCycle", "PT MACs per cycle">:$pt_macs_per_cycle,
    Spyre_CountParameter<"::spyre::TargetModel{}.sfpSticksPerCycle", "SFP sticks per cycle">:$sfp_sticks_per_cycle,
    Spyre_CountParameter<"::spyre::TargetModel{}.ringBytesPerCycle", "ring bytes per cycle">:$ring_bytes_per_cycle,
    Spyre_CountParameter<"::spyre::TargetModel{}.maxLoopCount", "max loop count">:$max_loop_count
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The plain C++ machine description.
    ::spyre::TargetModel getModel() const;
    /// The attribute describing `model`.
    static TargetAttr get(::mlir::MLIRContext *context,
                          const ::spyre::TargetModel &model);
  }];
}

#endif // SPYRE_DIALECT_SPYRE_IR_SPYREATTRS_TD
