//===- CanonicalizeShapes.cpp - --spyre-canonicalize-shapes
//----------------===//
//
// The seeds' canonical form: size-1 dims do not take part in layouts, so
// spyre ops should not see them. Every pointwise op and reduction with a
// size-1 dim is rebuilt on the squeezed shapes (its unit op dims removed from
// the indexing maps), surrounded by reshapes; the reshapes of neighbouring
// ops then cancel, leaving reshapes only where host code or the function
// boundary sees the original shapes. Chains of views fold.
//
//===----------------------------------------------------------------------===//

#include "Spyre/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::spyre {
#define GEN_PASS_DEF_SPYRECANONICALIZESHAPES
#include "Spyre/Transforms/Passes.h.inc"
} // namespace mlir::spyre

using namespace mlir;
using namespace mlir::spyre;

/// `value` without its size-1 dims (a reshape view), and the dims kept.
static Value squeeze(PatternRewriter &rewriter, Location loc, Value value) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> shape;
  for (int64_t size : type.getShape())
    if (size != 1)
      shape.push_back(size);
  if (static_cast<int64_t>(shape.size()) == type.getRank())
    return value;
  return ReshapeOp::create(rewriter, loc,
                           RankedTensorType::get(shape, type.getElementType()),
                           value);
}

/// Removes unit op dims from `map`, and results that index size-1 dims.
static AffineMap squeezeMap(AffineMap map, ArrayRef<int64_t> ranges,
                            ArrayRef<int64_t> shape, MLIRContext *context) {
  SmallVector<int64_t> newIndex(ranges.size(), -1);
  int64_t next = 0;
  for (auto [d, range] : llvm::enumerate(ranges))
    if (range != 1)
      newIndex[d] = next++;
  SmallVector<AffineExpr> results;
  for (auto [i, expr] : llvm::enumerate(map.getResults())) {
    if (shape[i] == 1)
      continue;
    unsigned d = cast<AffineDimExpr>(expr).getPosition();
    results.push_back(getAffineDimExpr(newIndex[d], context));
  }
  return AffineMap::get(next, 0, results, context);
}

namespace {

/// Rebuilds a pointwise op on squeezed operands.
struct SqueezePointwise : OpInterfaceRewritePattern<ComputeOpInterface> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;

  LogicalResult matchAndRewrite(ComputeOpInterface op,
                                PatternRewriter &rewriter) const override {
    // A box keeps its unit dims: the dim of the tensor it is a box of may
    // be longer, and its offsets name every dim.
    if (op.getStickRule() != StickRule::Pointwise ||
        isa<ExtractSliceOp, InsertSliceOp>(op) ||
        isDeviceTensor(op->getResult(0).getType()))
      return failure();
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    bool hasUnitDim = llvm::is_contained(ranges, 1);
    for (Value operand : op->getOperands())
      hasUnitDim |= llvm::is_contained(
          cast<RankedTensorType>(operand.getType()).getShape(), 1);
    if (!hasUnitDim)
      return failure();
    MLIRContext *context = op->getContext();
    Location loc = op->getLoc();
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    SmallVector<Value> operands;
    SmallVector<Attribute> newMaps;
    for (auto [i, operand] : llvm::enumerate(op->getOperands())) {
      ArrayRef<int64_t> shape =
          cast<RankedTensorType>(operand.getType()).getShape();
      operands.push_back(squeeze(rewriter, loc, operand));
      newMaps.push_back(
          AffineMapAttr::get(squeezeMap(maps[i], ranges, shape, context)));
    }
    auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
    newMaps.push_back(AffineMapAttr::get(
        squeezeMap(maps.back(), ranges, resultType.getShape(), context)));
    SmallVector<int64_t> squeezedShape;
    for (int64_t size : resultType.getShape())
      if (size != 1)
        squeezedShape.push_back(size);
    auto squeezedType =
        RankedTensorType::get(squeezedShape, resultType.getElementType());
    OperationState state(loc, op->getName());
    state.addOperands(operands);
    state.addTypes(squeezedType);
    for (NamedAttribute attr : op->getAttrs())
      if (attr.getName() != "indexing_maps")
        state.addAttribute(attr.getName(), attr.getValue());
    bool identity = llvm::all_of(newMaps, [](Attribute a) {
      AffineMap m = cast<AffineMapAttr>(a).getValue();
      return m.isIdentity() || m.getNumResults() == 0;
    });
    if (!identity && op->hasAttr("indexing_maps"))
      state.addAttribute("indexing_maps", rewriter.getArrayAttr(newMaps));
    else if (!identity)
      state.addAttribute("indexing_maps", rewriter.getArrayAttr(newMaps));
    Operation *squeezed = rewriter.create(state);
    rewriter.replaceOpWithNewOp<ReshapeOp>(op, resultType,
                                           squeezed->getResult(0));
    return success();
  }
};

/// Rebuilds a reduction on its squeezed input; reducing a size-1 dim is a
/// reshape.
struct SqueezeReduction : OpInterfaceRewritePattern<ReductionOpInterface> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;

  LogicalResult matchAndRewrite(ReductionOpInterface op,
                                PatternRewriter &rewriter) const override {
    Value input = op->getOperand(0);
    Type resultType = op->getResult(0).getType();
    auto inputType = cast<RankedTensorType>(input.getType());
    if (isDeviceTensor(resultType) ||
        !llvm::is_contained(inputType.getShape(), 1))
      return failure();
    int64_t dim = op.getReducedDim();
    if (inputType.getDimSize(dim) == 1) {
      rewriter.replaceOpWithNewOp<ReshapeOp>(op, resultType, input);
      return success();
    }
    int64_t newDim = 0;
    for (int64_t d = 0; d < dim; ++d)
      newDim += inputType.getDimSize(d) != 1;
    Value squeezed = squeeze(rewriter, op.getLoc(), input);
    SmallVector<int64_t> shape(
        cast<RankedTensorType>(squeezed.getType()).getShape());
    shape.erase(shape.begin() + newDim);
    std::optional<double> mask = op.getMaskValue();
    Operation *reduced = op.buildReduction(
        rewriter, op.getLoc(),
        RankedTensorType::get(shape, inputType.getElementType()), squeezed,
        newDim, mask ? rewriter.getF64FloatAttr(*mask) : FloatAttr());
    rewriter.replaceOpWithNewOp<ReshapeOp>(op, resultType,
                                           reduced->getResult(0));
    return success();
  }
};

/// A transpose of a tensor with size-1 dims: transpose the squeezed tensor.
struct SqueezeTranspose : OpRewritePattern<TransposeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(TransposeOp op,
                                PatternRewriter &rewriter) const override {
    RankedTensorType inputType = op.getInput().getType();
    if (isDeviceTensor(op.getType()) ||
        !llvm::is_contained(inputType.getShape(), 1))
      return failure();
    SmallVector<int64_t> newIndex(inputType.getRank(), -1);
    int64_t next = 0;
    for (int64_t d = 0; d < inputType.getRank(); ++d)
      if (inputType.getDimSize(d) != 1)
        newIndex[d] = next++;
    SmallVector<int64_t> perm, shape;
    for (int64_t d : op.getPermutation())
      if (newIndex[d] >= 0) {
        perm.push_back(newIndex[d]);
        shape.push_back(inputType.getDimSize(d));
      }
    Value input = squeeze(rewriter, op.getLoc(), op.getInput());
    Value result = input;
    if (!llvm::equal(perm, llvm::seq<int64_t>(0, perm.size())))
      result = TransposeOp::create(
          rewriter, op.getLoc(),
          RankedTensorType::get(shape, inputType.getElementType()), input,
          perm);
    rewriter.replaceOpWithNewOp<ReshapeOp>(op, op.getType(), result);
    return success();
  }
};

/// Constants with size-1 dims: the squeezed constant, reshaped.
struct SqueezeConstant : OpRewritePattern<ConstantOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ConstantOp op,
                                PatternRewriter &rewriter) const override {
    RankedTensorType type = op.getType();
    auto dense = dyn_cast<DenseElementsAttr>(op.getValue());
    if (isDeviceTensor(type) || !dense ||
        !llvm::is_contained(type.getShape(), 1))
      return failure();
    SmallVector<int64_t> shape;
    for (int64_t size : type.getShape())
      if (size != 1)
        shape.push_back(size);
    auto squeezedType = RankedTensorType::get(shape, type.getElementType());
    auto constant = ConstantOp::create(rewriter, op.getLoc(), squeezedType,
                                       dense.reshape(squeezedType));
    rewriter.replaceOpWithNewOp<ReshapeOp>(op, type, constant);
    return success();
  }
};

struct CanonicalizeShapesPass
    : mlir::spyre::impl::SpyreCanonicalizeShapesBase<CanonicalizeShapesPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    RewritePatternSet patterns(context);
    patterns.add<SqueezePointwise>(context);
    patterns.add<SqueezeReduction, SqueezeTranspose, SqueezeConstant>(context);
    // Folding reshape chains cancels the reshapes between rebuilt ops.
    ReshapeOp::getCanonicalizationPatterns(patterns, context);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
