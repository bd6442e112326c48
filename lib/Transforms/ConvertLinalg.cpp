//===- ConvertLinalg.cpp - --spyre-convert-linalg ---------------------------===//
//
// Converts linalg on tensors to spyre compute ops. Structured ops are
// converted through their *bodies*: each arith/math op of the region becomes
// a spyre op over the op's iteration space, so named elementwise ops,
// linalg.elementwise and arbitrary elementwise generics share one path, and
// compositions written as generics (gelu, layer norm, rms norm) come through.
// Reductions compute their body elementwise, then reduce one dim at a time.
// Operands reach each op through its indexing maps, so broadcasts and
// transposed reads are absorbed, not copied.
//
// Ops that cannot run on the device stay where they are with a remark; the
// layout propagation pass puts transfers at their boundary.
//
//===----------------------------------------------------------------------===//

#include "Spyre/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/Iterators.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/RegionUtils.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>

namespace mlir::spyre {
#define GEN_PASS_DEF_SPYRECONVERTLINALG
#include "Spyre/Transforms/Passes.h.inc"
} // namespace mlir::spyre

using namespace mlir;
using namespace mlir::spyre;

namespace {

/// A value of the iteration space: a tensor and the map from the op dims to
/// its dims (rank-0 scalars have an empty map).
struct Term {
  Value tensor;
  AffineMap map;
};

/// Why an op stays on the host.
struct Unsupported {
  std::string reason;
};

/// The splat value of a tensor if it is a constant or a fill with one.
std::optional<double> getSplatValue(Value value) {
  if (auto fill = value.getDefiningOp<linalg::FillOp>()) {
    FloatAttr scalar;
    if (matchPattern(fill.getInputs()[0], m_Constant(&scalar)))
      return scalar.getValueAsDouble();
    return std::nullopt;
  }
  DenseElementsAttr dense;
  if (auto constant = value.getDefiningOp<mlir::spyre::ConstantOp>())
    dense = dyn_cast<DenseElementsAttr>(constant.getValue());
  else
    matchPattern(value, m_Constant(&dense));
  if (dense && dense.isSplat() && isa<FloatType>(dense.getElementType()))
    return dense.getSplatValue<APFloat>().convertToDouble();
  return std::nullopt;
}

bool isSupportedFloat(Type type) {
  return type.isF16() || type.isBF16() || type.isF32();
}

class Converter {
public:
  Converter(RewriterBase &rewriter) : rewriter(rewriter) {}

  /// Converts `op` in place; returns the reason it stays on the host.
  std::optional<Unsupported> convert(Operation *op);

private:
  FailureOr<Term> inputTerm(linalg::LinalgOp op, OpOperand *operand,
                            std::string &why, bool allowScalar = false);
  Value materialize(Location loc, const Term &term, ArrayRef<int64_t> ranges,
                    Type elementType);
  Value toOutput(Location loc, Value value, AffineMap outputMap,
                 RankedTensorType outputType);
  FailureOr<Value> convertScalarOp(Operation *scalar, Location opLoc,
                                   ArrayRef<Term> operands,
                                   ArrayRef<int64_t> ranges, std::string &why);
  std::optional<Unsupported> convertStructured(linalg::LinalgOp op);
  std::optional<Unsupported> convertContraction(linalg::LinalgOp op);
  std::optional<Unsupported> convertSoftmax(linalg::SoftmaxOp op);
  Value constantScalar(Location loc, double value, Type elementType);
  Value pointwise(Location loc, StringRef kind, ArrayRef<Term> inputs,
                  RankedTensorType resultType);

  RewriterBase &rewriter;
};

} // namespace

//===----------------------------------------------------------------------===//
// Building blocks
//===----------------------------------------------------------------------===//

Value Converter::constantScalar(Location loc, double value, Type elementType) {
  auto type = RankedTensorType::get({}, elementType);
  auto attr = DenseElementsAttr::get(
      type, FloatAttr::get(elementType, value).getValue());
  return mlir::spyre::ConstantOp::create(rewriter, loc, type, attr);
}

/// Creates the pointwise op named `kind` over the iteration space of
/// `resultType`; identity maps are left implicit.
Value Converter::pointwise(Location loc, StringRef kind, ArrayRef<Term> inputs,
                           RankedTensorType resultType) {
  SmallVector<Value> operands;
  SmallVector<Attribute> maps;
  bool allDefault = true;
  unsigned rank = static_cast<unsigned>(resultType.getRank());
  for (const Term &term : inputs) {
    operands.push_back(term.tensor);
    maps.push_back(AffineMapAttr::get(term.map));
    allDefault &= term.map.isIdentity() || term.map.getNumResults() == 0;
  }
  maps.push_back(AffineMapAttr::get(
      AffineMap::getMultiDimIdentityMap(rank, rewriter.getContext())));
  OperationState state(loc, ("spyre." + kind).str());
  state.addOperands(operands);
  state.addTypes(resultType);
  if (!allDefault)
    state.addAttribute("indexing_maps", rewriter.getArrayAttr(maps));
  return rewriter.create(state)->getResult(0);
}

/// A full iteration-space tensor for `term` (a copy when it is broadcast or
/// permuted).
Value Converter::materialize(Location loc, const Term &term,
                             ArrayRef<int64_t> ranges, Type elementType) {
  if (term.map.isIdentity())
    return term.tensor;
  return pointwise(loc, "identity", {term},
                   RankedTensorType::get(ranges, elementType));
}

/// Reorders an iteration-space value (op dims in order) into the op's
/// output: a transpose view when the output map permutes the dims, reshapes
/// for size-1 output dims (constant-0 map results).
Value Converter::toOutput(Location loc, Value value, AffineMap outputMap,
                          RankedTensorType outputType) {
  auto valueType = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> dims; // op dims of the output's non-constant dims
  for (AffineExpr expr : outputMap.getResults())
    if (auto dim = dyn_cast<AffineDimExpr>(expr))
      dims.push_back(dim.getPosition());
  // `value` holds the op dims that appear in the output, in op-dim order.
  SmallVector<int64_t> sorted(dims);
  llvm::sort(sorted);
  SmallVector<int64_t> perm;
  for (int64_t d : dims)
    perm.push_back(llvm::find(sorted, d) - sorted.begin());
  if (!llvm::equal(perm, llvm::seq<int64_t>(0, perm.size()))) {
    SmallVector<int64_t> shape;
    for (int64_t p : perm)
      shape.push_back(valueType.getDimSize(p));
    value = mlir::spyre::TransposeOp::create(
        rewriter, loc, RankedTensorType::get(shape, valueType.getElementType()),
        value, perm);
  }
  if (cast<RankedTensorType>(value.getType()).getShape() !=
      outputType.getShape())
    value = mlir::spyre::ReshapeOp::create(
        rewriter, loc,
        RankedTensorType::get(outputType.getShape(),
                              outputType.getElementType()),
        value);
  return value;
}

/// The operand of a structured op as a term: constants become spyre
/// constants, broadcasts are looked through (their dims leave the map), and
/// constant-0 map results (size-1 dims) are reshaped away.
FailureOr<Term> Converter::inputTerm(linalg::LinalgOp op, OpOperand *operand,
                                     std::string &why, bool allowScalar) {
  Value value = operand->get();
  AffineMap map = op.getMatchingIndexingMap(operand);
  // A splat (a fill, or a splat constant) read elementwise is a scalar.
  if (allowScalar) {
    if (std::optional<double> splat = getSplatValue(value)) {
      Type element = cast<ShapedType>(value.getType()).getElementType();
      if (isSupportedFloat(element))
        return Term{constantScalar(op.getLoc(), *splat, element),
                    AffineMap::get(map.getNumDims(), 0, {},
                                   rewriter.getContext())};
    }
  }
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type) {
    why = "operand #" + std::to_string(operand->getOperandNumber()) +
          " is not a ranked tensor";
    return failure();
  }
  if (!type.hasStaticShape()) {
    why = "operand #" + std::to_string(operand->getOperandNumber()) +
          " has a dynamic shape";
    return failure();
  }
  Location loc = op.getLoc();
  // Look through linalg.broadcast: the broadcast dims leave the map.
  while (auto broadcast = value.getDefiningOp<linalg::BroadcastOp>()) {
    ArrayRef<int64_t> added = broadcast.getDimensions();
    SmallVector<AffineExpr> kept;
    for (auto [i, expr] : llvm::enumerate(map.getResults()))
      if (!llvm::is_contained(added, static_cast<int64_t>(i)))
        kept.push_back(expr);
    map = AffineMap::get(map.getNumDims(), 0, kept, rewriter.getContext());
    value = broadcast.getInput();
  }
  // Dense constants used by device ops.
  DenseElementsAttr dense;
  if (matchPattern(value, m_Constant(&dense)) &&
      !value.getDefiningOp<mlir::spyre::ConstantOp>())
    value = mlir::spyre::ConstantOp::create(rewriter, loc,
                                      cast<RankedTensorType>(dense.getType()),
                                      dense);
  // Size-1 dims indexed by a constant 0.
  SmallVector<AffineExpr> results;
  SmallVector<int64_t> squeezed;
  auto valueType = cast<RankedTensorType>(value.getType());
  for (auto [i, expr] : llvm::enumerate(map.getResults())) {
    if (auto c = dyn_cast<AffineConstantExpr>(expr)) {
      if (c.getValue() != 0 || valueType.getDimSize(i) != 1) {
        why = "indexing map " + llvm::formatv("{0}", AffineMapAttr::get(map))
                                    .str() +
              " reads a constant position";
        return failure();
      }
      continue;
    }
    if (!isa<AffineDimExpr>(expr)) {
      why = "indexing map is not a projected permutation";
      return failure();
    }
    results.push_back(expr);
    squeezed.push_back(valueType.getDimSize(i));
  }
  if (squeezed.size() != static_cast<size_t>(valueType.getRank()))
    value = mlir::spyre::ReshapeOp::create(
        rewriter, loc,
        RankedTensorType::get(squeezed, valueType.getElementType()), value);
  map = AffineMap::get(map.getNumDims(), 0, results, rewriter.getContext());
  if (!map.isProjectedPermutation()) {
    why = "indexing map is not a projected permutation";
    return failure();
  }
  return Term{value, map};
}

//===----------------------------------------------------------------------===//
// Bodies
//===----------------------------------------------------------------------===//

FailureOr<Value> Converter::convertScalarOp(Operation *scalar, Location opLoc,
                                            ArrayRef<Term> operands,
                                            ArrayRef<int64_t> ranges,
                                            std::string &why) {
  // A body op written by the user (a generic's) keeps its own location; the
  // implicit body of a named op (linalg.add, linalg.exp, ...) has none, so
  // its ops take the linalg op's.
  Location loc = isa<UnknownLoc>(scalar->getLoc()) ? opLoc : scalar->getLoc();
  Type resultElement = scalar->getResult(0).getType();
  auto resultType = RankedTensorType::get(ranges, resultElement);
  if (!isSupportedFloat(resultElement) && !resultElement.isInteger(1)) {
    why = "its body computes on " +
          llvm::formatv("{0}", resultElement).str() +
          "; the device computes on f16, bf16 and f32";
    return failure();
  }
  auto kindOf = [&](Operation *op) -> StringRef {
    return llvm::TypeSwitch<Operation *, StringRef>(op)
        .Case([](arith::AddFOp) { return "add"; })
        .Case([](arith::SubFOp) { return "sub"; })
        .Case([](arith::MulFOp) { return "mul"; })
        .Case([](arith::DivFOp) { return "div"; })
        .Case<arith::MaximumFOp, arith::MaxNumFOp>(
            [](Operation *) { return "maximum"; })
        .Case<arith::MinimumFOp, arith::MinNumFOp>(
            [](Operation *) { return "minimum"; })
        .Case([](arith::NegFOp) { return "neg"; })
        .Case([](arith::SelectOp) { return "where"; })
        .Case([](math::ExpOp) { return "exp"; })
        .Case([](math::LogOp) { return "log"; })
        .Case([](math::SqrtOp) { return "sqrt"; })
        .Case([](math::RsqrtOp) { return "rsqrt"; })
        .Case([](math::TanhOp) { return "tanh"; })
        .Case([](math::AbsFOp) { return "abs"; })
        .Case([](math::FloorOp) { return "floor"; })
        .Case([](arith::CmpFOp cmp) -> StringRef {
          switch (cmp.getPredicate()) {
          case arith::CmpFPredicate::OEQ:
          case arith::CmpFPredicate::UEQ:
            return "equal";
          case arith::CmpFPredicate::ONE:
          case arith::CmpFPredicate::UNE:
            return "not_equal";
          case arith::CmpFPredicate::OGT:
          case arith::CmpFPredicate::UGT:
            return "greater_than";
          case arith::CmpFPredicate::OGE:
          case arith::CmpFPredicate::UGE:
            return "greater_equal";
          case arith::CmpFPredicate::OLT:
          case arith::CmpFPredicate::ULT:
            return "less_than";
          case arith::CmpFPredicate::OLE:
          case arith::CmpFPredicate::ULE:
            return "less_equal";
          default:
            return "";
          }
        })
        .Default([](Operation *) { return ""; });
  };

  // Conversions between float formats.
  if (isa<arith::ExtFOp, arith::TruncFOp>(scalar)) {
    Value input = materialize(loc, operands[0], ranges,
                              scalar->getOperand(0).getType());
    auto convert = mlir::spyre::ConvertOp::create(rewriter, loc, resultType, input);
    if (convert.getOpFuncName().empty()) {
      why = "it converts " +
            llvm::formatv("{0}", scalar->getOperand(0).getType()).str() +
            " to " + llvm::formatv("{0}", resultElement).str() +
            ", which the device does not";
      rewriter.eraseOp(convert);
      return failure();
    }
    return convert.getResult();
  }
  // max(x, 0) is a relu.
  if (isa<arith::MaximumFOp, arith::MaxNumFOp>(scalar)) {
    for (unsigned i = 0; i < 2; ++i) {
      FloatAttr zero;
      bool isZero = matchPattern(scalar->getOperand(i), m_Constant(&zero)) &&
                    zero.getValueAsDouble() == 0.0;
      if (!isZero && operands[i].map.getNumResults() == 0)
        if (auto c = operands[i].tensor.getDefiningOp<mlir::spyre::ConstantOp>())
          if (auto dense = dyn_cast<DenseElementsAttr>(c.getValue()))
            isZero = dense.isSplat() &&
                     dense.getSplatValue<APFloat>().isZero();
      if (isZero)
        return pointwise(loc, "relu", {operands[1 - i]}, resultType);
    }
  }
  // 1 / x is a reciprocal.
  if (auto div = dyn_cast<arith::DivFOp>(scalar)) {
    FloatAttr numerator;
    if (matchPattern(div.getLhs(), m_Constant(&numerator)) &&
        numerator.getValueAsDouble() == 1.0)
      return pointwise(loc, "reciprocal", {operands[1]}, resultType);
  }
  StringRef kind = kindOf(scalar);
  if (kind.empty()) {
    why = "its body uses '" + scalar->getName().getStringRef().str() +
          "', which has no Spyre op";
    return failure();
  }
  return pointwise(loc, kind, operands, resultType);
}

/// The reduction kind of a combiner and its neutral element.
static std::optional<std::pair<StringRef, double>>
getCombiner(Operation *combiner) {
  if (isa<arith::AddFOp>(combiner))
    return std::make_pair(StringRef("sum"), 0.0);
  if (isa<arith::MaximumFOp, arith::MaxNumFOp>(combiner))
    return std::make_pair(StringRef("max"), -INFINITY);
  if (isa<arith::MinimumFOp, arith::MinNumFOp>(combiner))
    return std::make_pair(StringRef("min"), INFINITY);
  return std::nullopt;
}

std::optional<Unsupported>
Converter::convertStructured(linalg::LinalgOp op) {
  if (op->getNumResults() != 1)
    return Unsupported{"it has " + std::to_string(op->getNumResults()) +
                       " results; the device ops produce one"};
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (llvm::any_of(ranges, ShapedType::isDynamic))
    return Unsupported{"its iteration space is dynamic"};
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  unsigned numLoops = op.getNumLoops();
  Block &body = *op.getBlock();
  Location loc = op.getLoc();
  std::string why;

  DenseMap<Value, Term> env;
  for (OpOperand *operand : op.getDpsInputOperands()) {
    FailureOr<Term> term = inputTerm(op, operand, why, /*allowScalar=*/true);
    if (failed(term))
      return Unsupported{why};
    env[op.getMatchingBlockArgument(operand)] = *term;
  }
  OpOperand *init = op.getDpsInitOperand(0);
  BlockArgument accumulator = op.getMatchingBlockArgument(init);
  auto outputType = cast<RankedTensorType>(op->getResult(0).getType());
  AffineMap outputMap = op.getMatchingIndexingMap(init);

  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  Value yielded = yield.getValues()[0];
  bool hasReduction =
      llvm::is_contained(iterators, utils::IteratorType::reduction);

  // A reduction yields combiner(f(inputs), accumulator).
  Operation *combiner = nullptr;
  Value reduced;
  std::optional<std::pair<StringRef, double>> combinerKind;
  if (hasReduction) {
    combiner = yielded.getDefiningOp();
    if (!combiner || combiner->getNumOperands() != 2 ||
        !(combinerKind = getCombiner(combiner)))
      return Unsupported{"its reduction does not combine with add, max or "
                         "min"};
    if (combiner->getOperand(1) == accumulator)
      reduced = combiner->getOperand(0);
    else if (combiner->getOperand(0) == accumulator)
      reduced = combiner->getOperand(1);
    else
      return Unsupported{"its reduction does not accumulate into the output"};
  } else if (!accumulator.use_empty()) {
    // An elementwise body reading its output reads the init's values.
    FailureOr<Term> term = inputTerm(op, init, why);
    if (failed(term))
      return Unsupported{why};
    env[accumulator] = *term;
  }

  // The body, op by op (stopping at the combiner of a reduction).
  for (Operation &scalar : body.without_terminator()) {
    if (&scalar == combiner)
      continue;
    if (auto constant = dyn_cast<arith::ConstantOp>(scalar)) {
      auto floatAttr = dyn_cast<FloatAttr>(constant.getValue());
      if (!floatAttr)
        return Unsupported{"its body uses a non-float constant"};
      Value c = constantScalar(loc, floatAttr.getValueAsDouble(),
                               floatAttr.getType());
      env[constant.getResult()] =
          Term{c, AffineMap::get(numLoops, 0, {}, rewriter.getContext())};
      continue;
    }
    if (scalar.getNumResults() != 1)
      return Unsupported{"its body op '" +
                         scalar.getName().getStringRef().str() +
                         "' has more than one result"};
    SmallVector<Term> operands;
    for (Value operand : scalar.getOperands()) {
      auto it = env.find(operand);
      if (it == env.end()) {
        if (operand == accumulator)
          return Unsupported{"its body reads the accumulator outside the "
                             "combiner"};
        // A float constant captured from outside the body is a scalar.
        FloatAttr captured;
        if (!matchPattern(operand, m_Constant(&captured)))
          return Unsupported{"its body uses a value defined outside the op"};
        Value c = constantScalar(loc, captured.getValueAsDouble(),
                                 captured.getType());
        it = env.insert({operand,
                         Term{c, AffineMap::get(numLoops, 0, {},
                                                rewriter.getContext())}})
                 .first;
      }
      operands.push_back(it->second);
    }
    // Compute the op over just the loops its operands vary along (e.g. a
    // per-row rsqrt in a norm runs once per row, not once per element), and
    // broadcast its result through its map.
    llvm::SmallBitVector used(numLoops);
    for (const Term &term : operands)
      for (AffineExpr expr : term.map.getResults())
        used.set(cast<AffineDimExpr>(expr).getPosition());
    SmallVector<int64_t> subRanges;
    SmallVector<int64_t> newIndex(numLoops, -1);
    SmallVector<AffineExpr> projection;
    for (unsigned d = 0; d < numLoops; ++d)
      if (used.test(d)) {
        newIndex[d] = static_cast<int64_t>(subRanges.size());
        subRanges.push_back(ranges[d]);
        projection.push_back(rewriter.getAffineDimExpr(d));
      }
    SmallVector<Term> subOperands;
    for (const Term &term : operands) {
      SmallVector<AffineExpr> exprs;
      for (AffineExpr expr : term.map.getResults())
        exprs.push_back(rewriter.getAffineDimExpr(
            newIndex[cast<AffineDimExpr>(expr).getPosition()]));
      subOperands.push_back(Term{term.tensor,
                                 AffineMap::get(subRanges.size(), 0, exprs,
                                                rewriter.getContext())});
    }
    FailureOr<Value> result =
        convertScalarOp(&scalar, loc, subOperands, subRanges, why);
    if (failed(result))
      return Unsupported{why};
    env[scalar.getResult(0)] =
        Term{*result,
             AffineMap::get(numLoops, 0, projection, rewriter.getContext())};
  }

  Value target = hasReduction ? reduced : yielded;
  auto found = env.find(target);
  if (found == env.end())
    return Unsupported{"it yields a value defined outside the op"};
  Term term = found->second;
  Type elementType = outputType.getElementType();
  Value value;
  if (term.map.getNumResults() == 0 && !hasReduction) {
    // A scalar broadcast to the output: a splat copy.
    value = materialize(loc, term, ranges, elementType);
  } else {
    value = materialize(loc, term, ranges, elementType);
  }

  if (hasReduction) {
    // One single-dim reduction per reduced op dim, highest first so the
    // lower dims keep their positions.
    for (int d = static_cast<int>(numLoops) - 1; d >= 0; --d) {
      if (iterators[d] != utils::IteratorType::reduction)
        continue;
      auto type = cast<RankedTensorType>(value.getType());
      SmallVector<int64_t> shape(type.getShape());
      shape.erase(shape.begin() + d);
      OperationState state(loc, ("spyre." + combinerKind->first).str());
      state.addOperands(value);
      state.addAttribute("dim", rewriter.getI64IntegerAttr(d));
      state.addTypes(RankedTensorType::get(shape, type.getElementType()));
      value = rewriter.create(state)->getResult(0);
    }
    // Fold in the init unless it is the combiner's neutral element.
    std::optional<double> initValue = getSplatValue(init->get());
    bool neutral = initValue && (*initValue == combinerKind->second ||
                                 (std::isinf(combinerKind->second) &&
                                  std::abs(*initValue) >= 65504.0 &&
                                  std::signbit(*initValue) ==
                                      std::signbit(combinerKind->second)));
    if (!neutral && !isa_and_nonnull<tensor::EmptyOp>(
                        init->get().getDefiningOp())) {
      // A splat init (a fill of a constant) is a scalar added once per
      // result element.
      FailureOr<Term> initTerm =
          inputTerm(op, init, why, /*allowScalar=*/true);
      if (failed(initTerm))
        return Unsupported{why};
      // Re-express the init over the parallel dims only.
      SmallVector<int64_t> parallel;
      for (unsigned d = 0; d < numLoops; ++d)
        if (iterators[d] == utils::IteratorType::parallel)
          parallel.push_back(d);
      SmallVector<AffineExpr> exprs;
      for (AffineExpr expr : initTerm->map.getResults()) {
        unsigned d = cast<AffineDimExpr>(expr).getPosition();
        exprs.push_back(rewriter.getAffineDimExpr(
            llvm::find(parallel, d) - parallel.begin()));
      }
      Term initOnParallel{initTerm->tensor,
                          AffineMap::get(parallel.size(), 0, exprs,
                                         rewriter.getContext())};
      auto type = cast<RankedTensorType>(value.getType());
      Term reducedTerm{value, AffineMap::getMultiDimIdentityMap(
                                  type.getRank(), rewriter.getContext())};
      StringRef combine = combinerKind->first == "sum"   ? "add"
                          : combinerKind->first == "max" ? "maximum"
                                                         : "minimum";
      value = pointwise(loc, combine, {reducedTerm, initOnParallel}, type);
    }
  } else if (!init->get().getDefiningOp<tensor::EmptyOp>() &&
             accumulator.use_empty()) {
    // The init is overwritten: nothing to combine.
  }
  rewriter.replaceOp(op, toOutput(loc, value, outputMap, outputType));
  return std::nullopt;
}

std::optional<Unsupported>
Converter::convertContraction(linalg::LinalgOp op) {
  unsigned numLoops = op.getNumLoops();
  if (numLoops != 3 && numLoops != 4)
    return Unsupported{"it is a contraction over " + std::to_string(numLoops) +
                       " dims; the device multiplies matrices and batches of "
                       "them"};
  std::string why;
  SmallVector<Term> operands;
  for (OpOperand *operand : op.getDpsInputOperands()) {
    FailureOr<Term> term = inputTerm(op, operand, why);
    if (failed(term))
      return Unsupported{why};
    operands.push_back(*term);
  }
  if (operands.size() != 2)
    return Unsupported{"it is a contraction of " +
                       std::to_string(operands.size()) + " operands"};
  OpOperand *init = op.getDpsInitOperand(0);
  auto outputType = cast<RankedTensorType>(op->getResult(0).getType());
  AffineMap outputMap = op.getMatchingIndexingMap(init);
  if (!outputMap.isProjectedPermutation())
    return Unsupported{"its output map is not a projected permutation"};
  Type inputElement =
      cast<RankedTensorType>(operands[0].tensor.getType()).getElementType();
  if (inputElement !=
      cast<RankedTensorType>(operands[1].tensor.getType()).getElementType())
    return Unsupported{"its operands have different element types"};
  if (!(inputElement.isF16() || inputElement.isBF16() ||
        isa<Float8E4M3FNType, Float8E5M2Type>(inputElement)))
    return Unsupported{"the PT unit multiplies DL16 or fp8, not " +
                       llvm::formatv("{0}", inputElement).str()};
  Location loc = op.getLoc();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  // The spyre op computes C in op-dim order of its parallel dims.
  SmallVector<int64_t> cShape;
  SmallVector<AffineExpr> cExprs;
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  for (unsigned d = 0; d < numLoops; ++d)
    if (iterators[d] == utils::IteratorType::parallel) {
      cShape.push_back(ranges[d]);
      cExprs.push_back(rewriter.getAffineDimExpr(d));
    }
  Type productElement =
      isa<Float8E4M3FNType, Float8E5M2Type>(inputElement)
          ? Type(rewriter.getF16Type())
          : inputElement;
  auto cType = RankedTensorType::get(cShape, productElement);
  AffineMap cMap = AffineMap::get(numLoops, 0, cExprs, rewriter.getContext());
  auto maps = rewriter.getArrayAttr(
      {AffineMapAttr::get(operands[0].map), AffineMapAttr::get(operands[1].map),
       AffineMapAttr::get(cMap)});
  Value product;
  if (numLoops == 3)
    product = mlir::spyre::MatmulOp::create(rewriter, loc, cType, operands[0].tensor,
                                      operands[1].tensor, maps);
  else
    product = mlir::spyre::BatchMatmulOp::create(rewriter, loc, cType,
                                           operands[0].tensor,
                                           operands[1].tensor, maps);
  // Drop the default maps for readability.
  auto compute = cast<ComputeOpInterface>(product.getDefiningOp());
  SmallVector<AffineMap> defaults =
      numLoops == 3
          ? mlir::spyre::detail::getMatmulIndexingMaps(compute, nullptr, false)
          : mlir::spyre::detail::getMatmulIndexingMaps(compute, nullptr, true);
  if (defaults == compute.getIndexingMapsArray())
    product.getDefiningOp()->removeAttr("indexing_maps");
  if (productElement != outputType.getElementType())
    product = mlir::spyre::ConvertOp::create(
        rewriter, loc,
        RankedTensorType::get(cShape, outputType.getElementType()), product);
  std::optional<double> initValue = getSplatValue(init->get());
  if (!(initValue && *initValue == 0.0) &&
      !init->get().getDefiningOp<tensor::EmptyOp>()) {
    FailureOr<Term> initTerm =
        inputTerm(op, init, why, /*allowScalar=*/true);
    if (failed(initTerm))
      return Unsupported{why};
    SmallVector<AffineExpr> exprs;
    SmallVector<int64_t> parallel;
    for (unsigned d = 0; d < numLoops; ++d)
      if (iterators[d] == utils::IteratorType::parallel)
        parallel.push_back(d);
    for (AffineExpr expr : initTerm->map.getResults())
      exprs.push_back(rewriter.getAffineDimExpr(
          llvm::find(parallel, cast<AffineDimExpr>(expr).getPosition()) -
          parallel.begin()));
    auto type = cast<RankedTensorType>(product.getType());
    product = pointwise(
        loc, "add",
        {Term{product, AffineMap::getMultiDimIdentityMap(type.getRank(),
                                                         rewriter.getContext())},
         Term{initTerm->tensor, AffineMap::get(parallel.size(), 0, exprs,
                                               rewriter.getContext())}},
        type);
  }
  rewriter.replaceOp(op, toOutput(loc, product, outputMap, outputType));
  return std::nullopt;
}

std::optional<Unsupported> Converter::convertSoftmax(linalg::SoftmaxOp op) {
  auto type = dyn_cast<RankedTensorType>(op.getInput().getType());
  if (!type || !type.hasStaticShape())
    return Unsupported{"its input has a dynamic shape"};
  if (!isSupportedFloat(type.getElementType()))
    return Unsupported{"it computes on " +
                       llvm::formatv("{0}", type.getElementType()).str()};
  Location loc = op.getLoc();
  MLIRContext *context = rewriter.getContext();
  int64_t dim = op.getDimension();
  unsigned rank = static_cast<unsigned>(type.getRank());
  SmallVector<int64_t> reducedShape(type.getShape());
  reducedShape.erase(reducedShape.begin() + dim);
  auto reducedType = RankedTensorType::get(reducedShape, type.getElementType());
  AffineMap id = AffineMap::getMultiDimIdentityMap(rank, context);
  SmallVector<AffineExpr> kept;
  for (unsigned d = 0; d < rank; ++d)
    if (static_cast<int64_t>(d) != dim)
      kept.push_back(getAffineDimExpr(d, context));
  AffineMap dropped = AffineMap::get(rank, 0, kept, context);
  Value x = op.getInput();
  // softmax(x) = exp(x - max(x)) * (1 / sum(exp(x - max(x))))
  Value max = mlir::spyre::MaxOp::create(rewriter, loc, reducedType, x, dim, nullptr);
  Value shifted = pointwise(loc, "sub", {{x, id}, {max, dropped}}, type);
  Value exp = pointwise(loc, "exp", {{shifted, id}}, type);
  Value sum = mlir::spyre::SumOp::create(rewriter, loc, reducedType, exp, dim, nullptr);
  AffineMap reducedId =
      AffineMap::getMultiDimIdentityMap(reducedShape.size(), context);
  Value inverse = pointwise(loc, "reciprocal", {{sum, reducedId}}, reducedType);
  Value result = pointwise(loc, "mul", {{exp, id}, {inverse, dropped}}, type);
  rewriter.replaceOp(op, result);
  return std::nullopt;
}

std::optional<Unsupported> Converter::convert(Operation *op) {
  rewriter.setInsertionPoint(op);
  if (auto softmax = dyn_cast<linalg::SoftmaxOp>(op))
    return convertSoftmax(softmax);
  if (auto transpose = dyn_cast<linalg::TransposeOp>(op)) {
    auto type = cast<RankedTensorType>(transpose->getResult(0).getType());
    rewriter.replaceOpWithNewOp<mlir::spyre::TransposeOp>(
        op, type, transpose.getInput(), transpose.getPermutation());
    return std::nullopt;
  }
  if (isa<linalg::BroadcastOp, linalg::FillOp>(op)) {
    // Folded into consumers; only left if something else reads it.
    return std::nullopt;
  }
  if (auto reshape = dyn_cast<tensor::ExpandShapeOp>(op)) {
    if (!reshape.getResultType().hasStaticShape())
      return Unsupported{"it has a dynamic shape"};
    rewriter.replaceOpWithNewOp<mlir::spyre::ReshapeOp>(op, reshape.getResultType(),
                                                  reshape.getSrc());
    return std::nullopt;
  }
  if (auto reshape = dyn_cast<tensor::CollapseShapeOp>(op)) {
    if (!reshape.getResultType().hasStaticShape())
      return Unsupported{"it has a dynamic shape"};
    rewriter.replaceOpWithNewOp<mlir::spyre::ReshapeOp>(op, reshape.getResultType(),
                                                  reshape.getSrc());
    return std::nullopt;
  }
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp)
    return std::nullopt; // not ours to convert
  if (!linalgOp.hasPureTensorSemantics())
    return Unsupported{"it works on buffers; convert before bufferization"};
  if (linalg::isaContractionOpInterface(linalgOp))
    return convertContraction(linalgOp);
  return convertStructured(linalgOp);
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

namespace {
struct ConvertLinalgPass
    : mlir::spyre::impl::SpyreConvertLinalgBase<ConvertLinalgPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    Converter converter(rewriter);
    SmallVector<Operation *> candidates;
    getOperation().walk([&](Operation *op) {
      if (isa<linalg::LinalgOp, linalg::SoftmaxOp, tensor::ExpandShapeOp,
              tensor::CollapseShapeOp>(op))
        candidates.push_back(op);
    });
    DenseSet<Operation *> remarked;
    for (Operation *op : candidates) {
      // Remember what the op was: a failed conversion may have created
      // helper ops before giving up.
      std::optional<Unsupported> unsupported = converter.convert(op);
      if (unsupported) {
        op->emitRemark() << "'" << op->getName()
                         << "' stays on the host: " << unsupported->reason;
        remarked.insert(op);
      }
    }
    eraseDeadOps();
    convertLeftovers(rewriter, remarked);
    eraseDeadOps();
  }

  /// Fills, broadcasts, empties and constants nothing reads any more, and
  /// whatever a conversion that gave up had already built.
  void eraseDeadOps() {
    bool changed = true;
    while (changed) {
      changed = false;
      getOperation().walk<WalkOrder::PostOrder, ReverseIterator>(
          [&](Operation *op) {
            bool ours = isa<linalg::FillOp, linalg::BroadcastOp,
                            tensor::EmptyOp, arith::ConstantOp>(op) ||
                        isa<mlir::spyre::SpyreDialect>(op->getDialect());
            if (ours && isOpTriviallyDead(op)) {
              op->erase();
              changed = true;
            }
          });
    }
  }

  /// What is left on tensors outside the spyre dialect after conversion: a
  /// fill or constant that device ops read or the function returns becomes
  /// a spyre.constant; everything else stays on the host with a remark
  /// saying why (unless its conversion already said so, or it only feeds
  /// host ops that do), so that whoever meets the op later - the simulator,
  /// the emitters - can point at a remark.
  void convertLeftovers(IRRewriter &rewriter,
                        const DenseSet<Operation *> &remarked) {
    auto isTensor = [](Type type) { return isa<TensorType>(type); };
    getOperation().walk([&](func::FuncOp function) {
      for (Block &block : function.getBody())
        for (Operation &op : llvm::make_early_inc_range(block)) {
          if (isa<mlir::spyre::SpyreDialect>(op.getDialect()) ||
              isa<tensor::EmptyOp>(op) ||
              op.hasTrait<OpTrait::IsTerminator>() || remarked.contains(&op))
            continue;
          if (llvm::none_of(op.getOperandTypes(), isTensor) &&
              llvm::none_of(op.getResultTypes(), isTensor))
            continue;
          if (isa<linalg::FillOp, linalg::BroadcastOp, arith::ConstantOp>(
                  op)) {
            convertLeftoverValue(rewriter, op);
            continue;
          }
          InFlightDiagnostic remark = op.emitRemark()
                                      << "'" << op.getName()
                                      << "' stays on the host: ";
          if (auto call = dyn_cast<func::CallOp>(op))
            remark << "calls are not compiled for the device; inline @"
                   << call.getCallee() << " first (--inline)";
          else
            remark << "--spyre-convert-linalg has no Spyre op for it";
        }
    });
  }

  /// A fill, broadcast or constant left after conversion: the uses device
  /// ops and returns make of it read a spyre.constant when it is a splat or
  /// dense constant of a device float type; otherwise it stays on the host
  /// with a remark. Uses by host ops stay as they are.
  void convertLeftoverValue(IRRewriter &rewriter, Operation &op) {
    Value value = op.getResult(0);
    SmallVector<OpOperand *> uses;
    for (OpOperand &use : value.getUses())
      if (isa<mlir::spyre::SpyreDialect>(use.getOwner()->getDialect()) ||
          isa<func::ReturnOp>(use.getOwner()))
        uses.push_back(&use);
    if (uses.empty())
      return; // read by host ops only: their remarks explain
    auto type = dyn_cast<RankedTensorType>(value.getType());
    DenseElementsAttr dense;
    std::string why;
    if (!type || !type.hasStaticShape()) {
      why = "it has a dynamic shape";
    } else if (!isSupportedFloat(type.getElementType())) {
      why = "device constants hold f16, bf16 or f32 elements, not " +
            llvm::formatv("{0}", type.getElementType()).str();
    } else if (isa<linalg::BroadcastOp>(op)) {
      why = "a broadcast is folded into the converted ops that read it, and "
            "this one is read directly";
    } else if (std::optional<double> splat = getSplatValue(value)) {
      dense = DenseElementsAttr::get(
          type, FloatAttr::get(type.getElementType(), *splat).getValue());
    } else if (isa<linalg::FillOp>(op)) {
      why = "it fills with a value that is not a float constant";
    } else if (!matchPattern(value, m_Constant(&dense))) {
      why = "its value is not a dense constant";
    }
    if (!dense) {
      op.emitRemark() << "'" << op.getName() << "' stays on the host: "
                      << why;
      return;
    }
    rewriter.setInsertionPoint(&op);
    Value constant =
        mlir::spyre::ConstantOp::create(rewriter, op.getLoc(), type, dense);
    for (OpOperand *use : uses)
      use->set(constant);
  }
};
} // namespace
