//===- SpyreInterfaces.td - spyre op interfaces ------------*- tablegen -*-===//
//
// Every fact a pass, the emitters or the simulator need of a spyre op is
// declared on the op (SpyreComputeOps.td, SpyreOps.td) and reached through
// these interfaces; nothing outside the dialect switches over op names.
//
//   KernelPayloadOpInterface   anything a spyre.kernel can run: compute
//     ^                        ops, restickify, pad
//   ComputeOpInterface         + its stick rule
//     ^            ^
//   Elementwise   Reduction    + scalar semantics and the body ops they
//                              come from; + the combiner of a reduction
//
//===----------------------------------------------------------------------===//

#ifndef SPYRE_DIALECT_SPYRE_IR_SPYREINTERFACES_TD
#define SPYRE_DIALECT_SPYRE_IR_SPYREINTERFACES_TD

include "mlir/IR/OpBase.td"

def Spyre_KernelPayloadOpInterface : OpInterface<"KernelPayloadOpInterface"> {
  let cppNamespace = "::mlir::spyre";
  let description = [{
    An op a `spyre.kernel` runs on the cores: its iteration space (dims,
    parallel or reduction, extents), how each operand is indexed by it, the
    backend's name for it and its unit, the device formats it computes on and
    the constants the backend needs. Compute ops, `spyre.restickify` and
    `spyre.pad` implement it.
  }];
  let methods = [
    InterfaceMethod<"The backend's OpFunc name for this op.",
      "::llvm::StringRef", "getOpFuncName">,
    InterfaceMethod<"The unit the op runs on.",
      "::mlir::spyre::ExecutionUnit", "getExecutionUnit">,
    InterfaceMethod<[{
        Indexing maps: one per input, then one for the result; each maps the
        operation dims to the dims of that tensor.
      }],
      "::llvm::SmallVector<::mlir::AffineMap>", "getIndexingMapsArray">,
    InterfaceMethod<"Number of operation dims.", "unsigned", "getNumLoops",
      (ins), [{}],
      [{ return ::mlir::spyre::detail::getNumLoops($_op); }]>,
    InterfaceMethod<"Parallel or reduction, per operation dim.",
      "::llvm::SmallVector<::mlir::utils::IteratorType>",
      "getIteratorTypesArray", (ins), [{}],
      [{ return ::mlir::spyre::detail::getIteratorTypes($_op); }]>,
    InterfaceMethod<"Static extent of every operation dim.",
      "::llvm::SmallVector<int64_t>", "getStaticLoopRanges", (ins), [{}],
      [{ return ::mlir::spyre::detail::getStaticLoopRanges($_op); }]>,
    StaticInterfaceMethod<[{
        Whether the op computes on data stored in `format` (the verifier
        rejects laid-out operands in other formats; conversion keeps ops
        whose format is not supported on the host).
      }],
      "bool", "supportsDataFormat", (ins "::mlir::spyre::DataFormat":$format)>,
    InterfaceMethod<[{
        The constants the backend reads (`constantInfo_` of the SuperDSC), by
        name, in order.
      }],
      "::llvm::SmallVector<std::pair<std::string, double>>",
      "getSuperDscConstants">,
    InterfaceMethod<[{
        Whether the op only moves data (restickify, pad, copies): its results
        are exactly its inputs' values.
      }],
      "bool", "isDataMovement">,
  ];
}

def Spyre_ComputeOpInterface
    : OpInterface<"ComputeOpInterface", [Spyre_KernelPayloadOpInterface]> {
  let cppNamespace = "::mlir::spyre";
  let description = [{
    A spyre compute op: a kernel payload plus the rule that relates the stick
    dims of its operands (its layout constraint class). An op dim missing
    from an input's map is broadcast for that input; one missing from the
    result's map is reduced (the seeds' "scales").
  }];
  let methods = [
    InterfaceMethod<"How the op constrains its operands' sticks.",
      "::mlir::spyre::StickRule", "getStickRule">,
    InterfaceMethod<[{
        The element arrangement operand `operand` (inputs, then the result)
        must have on the device; nullopt: any but `exx2` (per-row statistics
        are read only by the layer-norm family).
      }],
      "std::optional<::mlir::spyre::ElementArrangement>",
      "getRequiredArrangement", (ins "unsigned":$operand), [{}],
      [{ return std::nullopt; }]>,
  ];
}

def Spyre_ElementwiseOpInterface
    : OpInterface<"ElementwiseOpInterface", [Spyre_ComputeOpInterface]> {
  let cppNamespace = "::mlir::spyre";
  let description = [{
    A compute op that maps the values of its inputs at one point of the
    iteration space to the result's value there: its scalar semantics (what
    the simulator computes, in f32), and the scalar body op (arith, math) it
    is converted from.
  }];
  let methods = [
    InterfaceMethod<"The value at one point: f(inputs, params).",
      "::mlir::spyre::ScalarSemantics", "getScalarSemantics">,
    StaticInterfaceMethod<[{
        Whether a scalar op of a linalg body (e.g. `arith.addf`) computes
        this op, element for element, with the same semantics.
      }],
      "bool", "matchesScalarOp", (ins "::mlir::Operation *":$scalar)>,
    StaticInterfaceMethod<[{
        Creates the op over `inputs` (one per operand; `maps`: the indexing
        maps, or null for the defaults), returning null when the op has
        attributes a scalar op cannot give.
      }],
      "::mlir::Operation *", "buildElementwise",
      (ins "::mlir::OpBuilder &":$builder, "::mlir::Location":$loc,
           "::mlir::Type":$resultType, "::mlir::ValueRange":$inputs,
           "::mlir::ArrayAttr":$maps)>,
  ];
}

def Spyre_ReductionOpInterface
    : OpInterface<"ReductionOpInterface", [Spyre_ComputeOpInterface]> {
  let cppNamespace = "::mlir::spyre";
  let description = [{
    A reduction over one input dim: how partial values combine (also across
    cores), the neutral value padding must hold, the scale applied to the
    combined value (1/N for a mean), and the combiner of a linalg reduction
    body it is converted from.
  }];
  let methods = [
    InterfaceMethod<"The reduced input dim.", "int64_t", "getReducedDim">,
    InterfaceMethod<"How two partial values combine.",
      "::mlir::spyre::CombinerKind", "getCombinerKind">,
    InterfaceMethod<"The value padding along the reduced dim must hold.",
      "double", "getNeutralValue">,
    InterfaceMethod<[{
        The factor the combined value of `count` elements is multiplied by
        (1 unless the op averages).
      }],
      "double", "getResultScale", (ins "int64_t":$count)>,
    InterfaceMethod<[{
        The value the padding of the reduced dim holds as the kernel reads it
        (`padding_value`, set by --spyre-insert-padding), if any.
      }],
      "std::optional<double>", "getMaskValue">,
    InterfaceMethod<"Masks the padding of the reduced dim with `value`.",
      "void", "setMaskValue", (ins "double":$value)>,
    StaticInterfaceMethod<[{
        Whether `combiner`, the op of a linalg reduction body that combines
        the accumulator with a new value, combines like this op.
      }],
      "bool", "matchesCombiner", (ins "::mlir::Operation *":$combiner)>,
    StaticInterfaceMethod<[{
        Creates the op reducing `dim` of `input`, its padding masked with
        `maskValue` (null: not masked).
      }],
      "::mlir::Operation *", "buildReduction",
      (ins "::mlir::OpBuilder &":$builder, "::mlir::Location":$loc,
           "::mlir::Type":$resultType, "::mlir::Value":$input,
           "int64_t":$dim, "::mlir::FloatAttr":$maskValue)>,
  ];
}

#endif // SPYRE_DIALECT_SPYRE_IR_SPYREINTERFACES_TD
