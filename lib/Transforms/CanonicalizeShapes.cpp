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

/// Replaces pointwise `op` by the same op on `operands` with result type
/// `type` and `maps` (left out when all are identities or scalars), and a
/// reshape of its result to `op`'s type.
static void replaceWithReshaped(PatternRewriter &rewriter, Operation *op,
                                ValueRange operands, RankedTensorType type,
                                ArrayRef<Attribute> maps) {
  OperationState state(op->getLoc(), op->getName());
  state.addOperands(operands);
  state.addTypes(type);
  for (NamedAttribute attr : op->getAttrs())
    if (attr.getName() != "indexing_maps")
      state.addAttribute(attr.getName(), attr.getValue());
  bool identity = llvm::all_of(maps, [](Attribute a) {
    AffineMap map = cast<AffineMapAttr>(a).getValue();
    return map.isIdentity() || map.getNumResults() == 0;
  });
  if (!identity)
    state.addAttribute("indexing_maps", rewriter.getArrayAttr(maps));
  Operation *rebuilt = rewriter.create(state);
  rewriter.replaceOpWithNewOp<ReshapeOp>(op, op->getResult(0).getType(),
                                         rebuilt->getResult(0));
}

/// Whether `op` is a pointwise op on host tensors that may be rebuilt on
/// other shapes. (A box keeps its dims: the dim of the tensor it is a box
/// of may be longer, and its offsets name every dim.)
static bool isReshapeablePointwise(ComputeOpInterface op) {
  return op.getStickRule() == StickRule::Pointwise &&
         !isa<ExtractSliceOp, InsertSliceOp>(op) &&
         !isDeviceTensor(op->getResult(0).getType());
}

/// Rebuilds a pointwise op on squeezed operands.
struct SqueezePointwise : OpInterfaceRewritePattern<ComputeOpInterface> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;

  LogicalResult matchAndRewrite(ComputeOpInterface op,
                                PatternRewriter &rewriter) const override {
    if (!isReshapeablePointwise(op))
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
    replaceWithReshaped(rewriter, op, operands, squeezedType, newMaps);
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

/// The share of a pointwise op's result an operand broadcast to read both
/// merged dims may have at most (1 / kMaxBroadcastShare): a padding mask
/// copied once per head is a few kilobytes, a [queries, keys] mask per head
/// would be the scores' size again.
constexpr int64_t kMaxBroadcastShare = 16;

/// `type` with dims i and i + 1 merged.
static RankedTensorType mergedType(RankedTensorType type, unsigned i) {
  SmallVector<int64_t> shape(type.getShape());
  shape[i] *= shape[i + 1];
  shape.erase(shape.begin() + i + 1);
  return RankedTensorType::get(shape, type.getElementType());
}

/// The dim i of `value` such that `value` is a reshape of a tensor whose
/// dims are `value`'s with dims i and i + 1 merged into one (a batch dim a
/// contraction collapsed, split again for its readers), if any.
static std::optional<unsigned> splitPairOf(Value value) {
  auto reshape = value.getDefiningOp<ReshapeOp>();
  if (!reshape)
    return std::nullopt;
  auto source = cast<RankedTensorType>(reshape.getInput().getType());
  auto type = cast<RankedTensorType>(value.getType());
  if (source.getRank() + 1 != type.getRank())
    return std::nullopt;
  for (unsigned i = 0; i + 1 < type.getRank(); ++i)
    if (mergedType(type, i).getShape() == source.getShape())
      return i;
  return std::nullopt;
}

/// `value` with dims i and i + 1 merged (a reshape view, folding into the
/// reshape that split them).
static Value mergeDims(PatternRewriter &rewriter, Location loc, Value value,
                       unsigned i) {
  return ReshapeOp::create(
      rewriter, loc, mergedType(cast<RankedTensorType>(value.getType()), i),
      value);
}

/// A pointwise op reading a tensor whose two adjacent dims a reshape split
/// (torch-mlir's [batch, heads, ...] attention, whose contractions run on
/// [batch * heads, ...]): rebuilt with the two loops merged, when every
/// operand reads both of them, in order and adjacent, or neither. The
/// reshapes between it and its neighbours then cancel, so that the whole
/// chain runs on the merged shapes (one layout, one row group).
struct MergeSplitPointwise : OpInterfaceRewritePattern<ComputeOpInterface> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;

  LogicalResult matchAndRewrite(ComputeOpInterface op,
                                PatternRewriter &rewriter) const override {
    if (!isReshapeablePointwise(op))
      return failure();
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    if (!maps.back().isIdentity())
      return failure();
    // The two loops a split operand reads at its split dims.
    std::optional<unsigned> loop;
    for (auto [k, operand] : llvm::enumerate(op->getOperands())) {
      std::optional<unsigned> pair = splitPairOf(operand);
      if (!pair)
        continue;
      auto first = dyn_cast<AffineDimExpr>(maps[k].getResult(*pair));
      auto second = dyn_cast<AffineDimExpr>(maps[k].getResult(*pair + 1));
      if (first && second && second.getPosition() == first.getPosition() + 1) {
        loop = first.getPosition();
        break;
      }
    }
    if (!loop)
      return failure();
    unsigned a = *loop;
    MLIRContext *context = op->getContext();
    Location loc = op->getLoc();
    auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
    SmallVector<std::optional<int64_t>> mergeAt;
    // Operands read along one of the two loops only (a padding mask
    // [batch, keys] read by [batch, heads, queries, keys] scores): broadcast
    // along the other first, at the position it then has, when that is small
    // beside the op's result.
    // (Per operand: the position the broadcast dim takes, and its size.)
    SmallVector<std::optional<std::pair<int64_t, int64_t>>> broadcastAt(
        maps.size());
    SmallVector<Attribute> newMaps;
    auto newDim = [&](unsigned d) { return d <= a ? d : d - 1; };
    for (auto [k, original] : llvm::enumerate(maps)) {
      AffineMap map = original;
      std::optional<unsigned> atA =
          map.getResultPosition(getAffineDimExpr(a, context));
      std::optional<unsigned> atB =
          map.getResultPosition(getAffineDimExpr(a + 1, context));
      if (k + 1 < maps.size() && atA.has_value() != atB.has_value()) {
        unsigned missing = atA ? a + 1 : a;
        unsigned position = atA ? *atA + 1 : *atB;
        auto type = cast<RankedTensorType>(op->getOperand(k).getType());
        if (type.getNumElements() * resultType.getDimSize(missing) *
                kMaxBroadcastShare >
            resultType.getNumElements())
          return failure();
        map = map.insertResult(getAffineDimExpr(missing, context), position);
        broadcastAt[k] = {position, resultType.getDimSize(missing)};
      }
      std::optional<int64_t> at;
      SmallVector<AffineExpr> results;
      for (auto [p, expr] : llvm::enumerate(map.getResults())) {
        auto dim = dyn_cast<AffineDimExpr>(expr);
        if (!dim)
          return failure();
        unsigned d = dim.getPosition();
        if (d == a) {
          auto next = p + 1 < map.getNumResults()
                          ? dyn_cast<AffineDimExpr>(map.getResult(p + 1))
                          : nullptr;
          if (!next || next.getPosition() != a + 1)
            return failure();
          at = p;
        } else if (d == a + 1) {
          if (!at || *at + 1 != p)
            return failure();
          continue;
        }
        results.push_back(getAffineDimExpr(newDim(d), context));
      }
      newMaps.push_back(AffineMapAttr::get(
          AffineMap::get(maps.back().getNumDims() - 1, 0, results, context)));
      mergeAt.push_back(at);
    }
    // Every map checked: only now may the IR change.
    SmallVector<Value> operands;
    for (auto [k, operand] : llvm::enumerate(op->getOperands())) {
      Value value = operand;
      if (broadcastAt[k]) {
        auto [position, size] = *broadcastAt[k];
        auto type = cast<RankedTensorType>(value.getType());
        SmallVector<int64_t> shape(type.getShape());
        shape.insert(shape.begin() + position, size);
        unsigned rank = shape.size();
        AffineMap all = rewriter.getMultiDimIdentityMap(rank);
        AffineMap read = all.dropResult(position);
        value = IdentityOp::create(
            rewriter, loc, RankedTensorType::get(shape, type.getElementType()),
            ValueRange{value}, rewriter.getAffineMapArrayAttr({read, all}));
      }
      operands.push_back(
          mergeAt[k] ? mergeDims(rewriter, loc, value, *mergeAt[k]) : value);
    }
    replaceWithReshaped(rewriter, op, operands, mergedType(resultType, a),
                        newMaps);
    return success();
  }
};

/// A reduction of a tensor whose two adjacent dims a reshape split, along
/// another dim: reduced on the merged tensor.
struct MergeSplitReduction : OpInterfaceRewritePattern<ReductionOpInterface> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;

  LogicalResult matchAndRewrite(ReductionOpInterface op,
                                PatternRewriter &rewriter) const override {
    Value input = op->getOperand(0);
    auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
    auto inputType = cast<RankedTensorType>(input.getType());
    std::optional<unsigned> pair = splitPairOf(input);
    int64_t dim = op.getReducedDim();
    if (isDeviceTensor(resultType) || !pair || dim == *pair ||
        dim == *pair + 1 || resultType.getRank() + 1 != inputType.getRank())
      return failure();
    RankedTensorType merged = mergedType(inputType, *pair);
    int64_t newDim = dim > *pair + 1 ? dim - 1 : dim;
    SmallVector<int64_t> shape(merged.getShape());
    shape.erase(shape.begin() + newDim);
    std::optional<double> mask = op.getMaskValue();
    Operation *reduced = op.buildReduction(
        rewriter, op.getLoc(),
        RankedTensorType::get(shape, inputType.getElementType()),
        mergeDims(rewriter, op.getLoc(), input, *pair), newDim,
        mask ? rewriter.getF64FloatAttr(*mask) : FloatAttr());
    rewriter.replaceOpWithNewOp<ReshapeOp>(op, resultType,
                                           reduced->getResult(0));
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
    patterns.add<MergeSplitPointwise, MergeSplitReduction>(context);
    // Folding reshape chains cancels the reshapes between rebuilt ops.
    ReshapeOp::getCanonicalizationPatterns(patterns, context);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
