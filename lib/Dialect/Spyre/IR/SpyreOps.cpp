//===- SpyreOps.cpp - spyre dialect operations
//-----------------------------===//
//
// Verifiers, folders and canonicalization patterns of the data movement ops.
// All three ops preserve the logical tensor: shape and element type never
// change, only where the elements live.
//
//===----------------------------------------------------------------------===//

#include "Spyre/Dialect/Spyre/IR/Spyre.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::spyre;

namespace mlir::spyre::detail {
/// Whether `op` is an arith.cmpf with `predicate` (the ops' scalar-op
/// predicates use it).
static bool isCmpF(Operation *op, arith::CmpFPredicate predicate) {
  auto cmp = dyn_cast<arith::CmpFOp>(op);
  return cmp && cmp.getPredicate() == predicate;
}
} // namespace mlir::spyre::detail

#define GET_OP_CLASSES
#include "Spyre/Dialect/Spyre/IR/SpyreOps.cpp.inc"

/// The input and the result must be the same logical tensor.
static LogicalResult verifySameLogicalTensor(Operation *op) {
  auto input = cast<RankedTensorType>(op->getOperand(0).getType());
  auto result = cast<RankedTensorType>(op->getResult(0).getType());
  if (input.getShape() != result.getShape())
    return op->emitOpError("result shape [")
           << result.getShape() << "] differs from input shape ["
           << input.getShape() << "]; only the layout may change";
  if (input.getElementType() != result.getElementType())
    return op->emitOpError("result element type ")
           << result.getElementType() << " differs from input element type "
           << input.getElementType()
           << "; the device format is given by the layout";
  return success();
}

//===----------------------------------------------------------------------===//
// ToDeviceOp
//===----------------------------------------------------------------------===//

LogicalResult ToDeviceOp::verify() { return verifySameLogicalTensor(*this); }

OpFoldResult ToDeviceOp::fold(FoldAdaptor) {
  // to_device(from_device(%d)) with the same layout is %d.
  if (auto fromDevice = getInput().getDefiningOp<FromDeviceOp>())
    if (fromDevice.getInput().getType() == getType())
      return fromDevice.getInput();
  return {};
}

namespace {
/// to_device(from_device(%d : L1)) : L2  ->  restickify(%d) : L2: the data is
/// already on the device, only in another layout.
struct DeviceRoundTripToRestickify : OpRewritePattern<ToDeviceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ToDeviceOp op,
                                PatternRewriter &rewriter) const override {
    auto fromDevice = op.getInput().getDefiningOp<FromDeviceOp>();
    if (!fromDevice || fromDevice.getInput().getType() == op.getType())
      return failure();
    rewriter.replaceOpWithNewOp<RestickifyOp>(op, op.getType(),
                                              fromDevice.getInput());
    return success();
  }
};
} // namespace

void ToDeviceOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                             MLIRContext *context) {
  results.add<DeviceRoundTripToRestickify>(context);
}

//===----------------------------------------------------------------------===//
// FromDeviceOp
//===----------------------------------------------------------------------===//

LogicalResult FromDeviceOp::verify() { return verifySameLogicalTensor(*this); }

OpFoldResult FromDeviceOp::fold(FoldAdaptor) {
  // from_device(to_device(%h)) is %h.
  if (auto toDevice = getInput().getDefiningOp<ToDeviceOp>())
    if (toDevice.getInput().getType() == getType())
      return toDevice.getInput();
  // from_device(restickify(%d)) reads the same host tensor as
  // from_device(%d): look through the copy.
  if (auto restickify = getInput().getDefiningOp<RestickifyOp>()) {
    getInputMutable().assign(restickify.getInput());
    return getResult();
  }
  return {};
}

//===----------------------------------------------------------------------===//
// RestickifyOp
//===----------------------------------------------------------------------===//

LogicalResult RestickifyOp::verify() { return verifySameLogicalTensor(*this); }

OpFoldResult RestickifyOp::fold(FoldAdaptor) {
  // A chain of restickifies is one restickify from the first source.
  bool changed = false;
  while (auto producer = getInput().getDefiningOp<RestickifyOp>()) {
    getInputMutable().assign(producer.getInput());
    changed = true;
  }
  // Restickifying to the layout the value already has is a no-op.
  if (getInput().getType() == getType())
    return getInput();
  return changed ? getResult() : OpFoldResult();
}

//===----------------------------------------------------------------------===//
// QuantizeOp / DequantizeOp
//===----------------------------------------------------------------------===//

/// `parts` must be the stored parts `quant` gives a tensor of `type`.
static LogicalResult verifyQuantParts(Operation *op, QuantAttr quant,
                                      RankedTensorType type, TypeRange parts,
                                      StringRef role) {
  FailureOr<SmallVector<std::pair<StringRef, RankedTensorType>>> expected =
      quant.getPartTypes(type, [&] { return op->emitOpError(); });
  if (failed(expected))
    return failure();
  if (parts.size() != expected->size()) {
    auto diag = op->emitOpError("expects ")
                << expected->size() << " " << role << "s (";
    llvm::interleaveComma(*expected, diag,
                          [&](const auto &part) { diag << part.first; });
    return diag << ") for " << quant << ", got " << parts.size();
  }
  for (auto [i, part, got] : llvm::enumerate(*expected, parts))
    if (got != part.second)
      return op->emitOpError()
             << role << " #" << i << " (" << part.first << ") must be "
             << part.second << " for " << type << ", got " << got;
  return success();
}

LogicalResult QuantizeOp::verify() {
  return verifyQuantParts(*this, getQuant(), getInput().getType(),
                          getParts().getTypes(), "result");
}

LogicalResult DequantizeOp::verify() {
  return verifyQuantParts(*this, getQuant(), getResult().getType(),
                          getParts().getTypes(), "operand");
}
