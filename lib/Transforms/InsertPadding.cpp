//===- InsertPadding.cpp - --spyre-insert-padding
//--------------------------===//
//
// Device padding holds whatever was there unless something says otherwise.
// Two places need a neutral value in it:
//
//  - matmul reduces over K; when K is not a whole number of sticks, B's K
//    rows are copied into a zero-filled buffer of roundup(K, eps) rows that
//    the matmul reads in place, as torch-spyre pads K. A's tail inside its
//    last K stick is masked by hardware.
//  - a reduction (or exx2) along a dim whose device extent exceeds the host
//    extent (the stick dim of a partial stick) masks the padding with its
//    neutral value (`padding_value`).
//
//===----------------------------------------------------------------------===//

#include "Spyre/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::spyre {
#define GEN_PASS_DEF_SPYREINSERTPADDING
#include "Spyre/Transforms/Passes.h.inc"
} // namespace mlir::spyre

using namespace mlir;
using namespace mlir::spyre;

/// Whether host dim `h` of a bound layout has device slots past its end.
static bool isPadded(const BoundLayout &bound, int h) {
  ArrayRef<int> pieces = bound.piecesOf(h);
  if (pieces.empty())
    return false;
  int outer = pieces.back();
  return bound.roles()[outer].multiplier *
             bound.layout().getDeviceSize()[outer] >
         bound.host().sizes[h];
}

/// Pads B's K rows with zeros when K is not a whole number of sticks.
static LogicalResult padMatmul(ComputeOpInterface op, OpBuilder &builder) {
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  unsigned k = 0;
  for (auto [d, it] : llvm::enumerate(iterators))
    if (it == utils::IteratorType::reduction)
      k = d;
  Value b = op->getOperand(1);
  auto type = cast<RankedTensorType>(b.getType());
  llvm::Expected<BoundLayout> bound = bindLayout(type);
  if (!bound)
    return op.emitOpError(llvm::toString(bound.takeError()));
  int64_t eps = bound->layout().elemsPerStick();
  int64_t kExtent = ranges[k];
  if (kExtent % eps == 0)
    return success();
  std::optional<unsigned> kDim =
      maps[1].getResultPosition(builder.getAffineDimExpr(k));
  if (!kDim)
    return success();
  ArrayRef<int> pieces = bound->piecesOf(static_cast<int>(*kDim));
  if (pieces.empty())
    return success();
  // Grow the outermost device dim of K so K's device extent is a whole
  // number of sticks; everything else stays where it is.
  int outer = pieces.back();
  int64_t multiplier = bound->roles()[outer].multiplier;
  int64_t padded = llvm::alignTo(kExtent, eps);
  SmallVector<int64_t> deviceSize(bound->layout().getDeviceSize());
  int64_t grown = llvm::divideCeil(padded, multiplier);
  if (deviceSize[outer] >= grown)
    return success(); // already padded far enough
  deviceSize[outer] = grown;
  LayoutAttr layout = getLayoutAttr(type);
  auto paddedLayout = LayoutAttr::get(
      op->getContext(), deviceSize, layout.getStrideMap(), layout.getFormat(),
      layout.getArrangement(), layout.getStickBytes());
  builder.setInsertionPoint(op);
  Location loc = op->getLoc();
  // As torch-spyre pads K: a [K_pad, ...] buffer filled with zeros, B copied
  // into its first K rows (a view write, with backGapCore_), and the matmul
  // reading the first K rows of that buffer in place (a view).
  SmallVector<int64_t> bufferShape(type.getShape());
  bufferShape[*kDim] = padded;
  auto bufferType = withLayout(
      RankedTensorType::get(bufferShape, type.getElementType()), paddedLayout);
  llvm::Expected<BoundLayout> bufferBound = bindLayout(bufferType);
  if (!bufferBound) {
    // The padded rows do not form a host shape of this layout: the padding
    // is written by one masked copy instead.
    llvm::consumeError(bufferBound.takeError());
    Value result = PadOp::create(builder, loc,
                                 withLayout(withoutLayout(type), paddedLayout),
                                 b, builder.getF64FloatAttr(0.0));
    op->setOperand(1, result);
    return success();
  }
  llvm::Expected<SpyreTensorLayout> scalarLayout =
      getDefaultLayout(RankedTensorType::get({}, type.getElementType()),
                       std::nullopt, layout.getStickBytes());
  if (!scalarLayout)
    return op.emitOpError(llvm::toString(scalarLayout.takeError()));
  auto scalarType = RankedTensorType::get({}, type.getElementType());
  Value zero = ConstantOp::create(
      builder, loc,
      withLayout(scalarType, LayoutAttr::get(op->getContext(), *scalarLayout,
                                             type.getElementType())),
      DenseElementsAttr::get(scalarType,
                             builder.getZeroAttr(type.getElementType())));
  Value filled =
      IdentityOp::create(builder, loc, bufferType, ValueRange{zero}, nullptr);
  SmallVector<int64_t> origin(type.getRank(), 0);
  Value written = InsertSliceOp::create(builder, loc, bufferType, b, filled,
                                        origin, builder.getF64FloatAttr(0.0));
  Value view = ExtractSliceOp::create(
      builder, loc, withLayout(withoutLayout(type), paddedLayout), written,
      origin);
  op->setOperand(1, view);
  return success();
}

/// Whether laid-out `value` has device slots past the end of its dim `dim`.
static bool isPaddedAlong(Value value, int64_t dim) {
  auto type = cast<RankedTensorType>(value.getType());
  if (!isDeviceTensor(type))
    return false;
  llvm::Expected<BoundLayout> bound = bindLayout(type);
  if (!bound) {
    llvm::consumeError(bound.takeError());
    return false;
  }
  return isPadded(*bound, static_cast<int>(dim));
}

/// Masks padding along the reduced dim with the reduction's neutral value.
static void maskReduction(ReductionOpInterface op) {
  if (isPaddedAlong(op->getOperand(0), op.getReducedDim()))
    op.setMaskValue(op.getNeutralValue());
}

/// exx2 sums x and x * x along the innermost dim: its padding reads as 0.
static void maskExx2(Exx2Op op) {
  if (isPaddedAlong(op.getInput(), op.getInput().getType().getRank() - 1))
    op.setPaddingValueAttr(Builder(op).getF64FloatAttr(0.0));
}

namespace {
struct InsertPaddingPass
    : mlir::spyre::impl::SpyreInsertPaddingBase<InsertPaddingPass> {
  void runOnOperation() override {
    OpBuilder builder(&getContext());
    WalkResult result = getOperation()->walk([&](Operation *op) {
      if (auto compute = dyn_cast<ComputeOpInterface>(op)) {
        if (!isDeviceTensor(op->getResult(0).getType()))
          return WalkResult::advance();
        if (compute.getStickRule() == StickRule::Matmul &&
            failed(padMatmul(compute, builder)))
          return WalkResult::interrupt();
      }
      if (auto reduction = dyn_cast<ReductionOpInterface>(op))
        maskReduction(reduction);
      if (auto exx2 = dyn_cast<Exx2Op>(op))
        maskExx2(exx2);
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
