//===- StickRules.h - Stick constraints of compute ops ----------*- C++ -*-===//
//
// The one place that says which stick dims a compute op accepts. Expressed in
// operation dims, so it is independent of how each operand is indexed; the
// op verifiers check laid-out IR against it and --spyre-propagate-layouts
// enumerates it.
//
//===----------------------------------------------------------------------===//

#ifndef SPYRE_DIALECT_SPYRE_IR_STICKRULES_H
#define SPYRE_DIALECT_SPYRE_IR_STICKRULES_H

#include "Spyre/Dialect/Spyre/IR/Spyre.h"

namespace mlir::spyre {

/// A requirement that accepts any stick (broadcast operands, scalars).
constexpr int kAnyStick = -2;
/// A sparse layout: one value per stick.
constexpr int kSparseStick = -1;

/// One consistent choice of sticks for a compute op, in operation dims.
struct StickConfig {
  SmallVector<int, 4> inputs; ///< op dim, kSparseStick or kAnyStick
  int result;                 ///< op dim or kSparseStick
};

/// Every configuration `op`'s rule allows.
SmallVector<StickConfig> getStickConfigs(ComputeOpInterface op);

/// The operation dim the stick of a laid-out tensor falls on through its
/// indexing map, kSparseStick for a sparse layout; failure without a layout.
FailureOr<int> getStickOpDim(AffineMap map, Type type);

/// "d2", or "sparse".
std::string describeStick(int stick);

/// Checks a laid-out compute op against its rule; emits a diagnostic naming
/// the operands and their sticks on failure. Host-tensor ops pass.
LogicalResult verifyStickRule(ComputeOpInterface op);

} // namespace mlir::spyre

#endif // SPYRE_DIALECT_SPYRE_IR_STICKRULES_H
