//===- Utils.h - Helpers shared by spyre passes -----------------*- C++ -*-===//

#ifndef SPYRE_TRANSFORMS_UTILS_H
#define SPYRE_TRANSFORMS_UTILS_H

#include "Spyre/Dialect/Spyre/IR/Spyre.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir::spyre {

/// The laid-out version of a function argument or result type: the layout
/// of its `spyre.layout` attribute, the default for its `spyre.dim_order`, or
/// the default; the type itself when it already has a layout or is not a
/// ranked tensor. Emits a diagnostic through `emitError` and fails when no
/// layout can be given.
FailureOr<Type> layOutBoundaryType(Type type, DictionaryAttr attrs,
                                   int64_t stickBytes,
                                   function_ref<InFlightDiagnostic()> emitError);

/// Removes the `spyre.layout` / `spyre.dim_order` argument and result
/// attributes of `function` (they are in the types now).
void dropLayoutAttributes(FunctionOpInterface function);

/// After the signatures of the functions in `oldTypes` changed, makes every
/// func.call to them pass and receive the new types (transfers around the
/// call).
void updateCallSites(ModuleOp module,
                     const DenseMap<StringAttr, FunctionType> &oldTypes);

/// The layout `--spyre-propagate-layouts` gives a tensor whose stick is on
/// host dim `stickDim` (-1: sparse): the default layout with the stick moved
/// there, other dims in place.
llvm::Expected<LayoutAttr> getLayoutWithStick(RankedTensorType type,
                                              int stickDim,
                                              int64_t stickBytes);

} // namespace mlir::spyre

#endif // SPYRE_TRANSFORMS_UTILS_H
