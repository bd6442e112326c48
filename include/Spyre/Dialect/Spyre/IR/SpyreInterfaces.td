//===- SpyreInterfaces.td - spyre op interfaces ------------*- tablegen -*-===//

#ifndef SPYRE_DIALECT_SPYRE_IR_SPYREINTERFACES_TD
#define SPYRE_DIALECT_SPYRE_IR_SPYREINTERFACES_TD

include "mlir/IR/OpBase.td"

def Spyre_ComputeOpInterface : OpInterface<"ComputeOpInterface"> {
  let cppNamespace = "::mlir::spyre";
  let description = [{
    What every pass needs to know about a spyre compute op, so passes speak to
    this interface and never to individual ops:

    - the *operation dims* (the iteration space) and whether each is parallel
      or a reduction;
    - one indexing map per operand (inputs, then the result): op dims ->
      tensor dims, a projected permutation. An op dim missing from an input's
      map is broadcast for that input; one missing from the result's map is
      reduced. This is the seeds' "scales" mapping;
    - the backend OpFunc name and execution unit (PT for matmul, SFP
      otherwise);
    - the rule that relates the stick dims of its operands (its layout
      constraint class).
  }];
  let methods = [
    InterfaceMethod<"The backend's OpFunc name for this op.",
      "::llvm::StringRef", "getOpFuncName">,
    InterfaceMethod<"How the op constrains its operands' sticks.",
      "::mlir::spyre::StickRule", "getStickRule">,
    InterfaceMethod<"The unit the op runs on.",
      "::mlir::spyre::ExecutionUnit", "getExecutionUnit", (ins), [{}],
      [{ return ::mlir::spyre::ExecutionUnit::SFP; }]>,
    InterfaceMethod<"Number of operation dims.", "unsigned", "getNumLoops",
      (ins), [{}],
      [{ return ::mlir::spyre::detail::getNumLoops($_op); }]>,
    InterfaceMethod<"Parallel or reduction, per operation dim.",
      "::llvm::SmallVector<::mlir::utils::IteratorType>",
      "getIteratorTypesArray", (ins), [{}],
      [{ return ::mlir::spyre::detail::getIteratorTypes($_op); }]>,
    InterfaceMethod<[{
        Indexing maps: one per input, then one for the result; each maps the
        operation dims to the dims of that tensor.
      }],
      "::llvm::SmallVector<::mlir::AffineMap>", "getIndexingMapsArray">,
    InterfaceMethod<"Static extent of every operation dim.",
      "::llvm::SmallVector<int64_t>", "getStaticLoopRanges", (ins), [{}],
      [{ return ::mlir::spyre::detail::getStaticLoopRanges($_op); }]>,
  ];
}

#endif // SPYRE_DIALECT_SPYRE_IR_SPYREINTERFACES_TD
