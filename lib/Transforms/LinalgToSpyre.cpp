//===- LinalgToSpyre.cpp - linalg -> spyre conversion patterns ------------===//
//
// Structured ops are converted through their *bodies*: each arith/math op of
// the region becomes the spyre op whose `matchesScalarOp` claims it (see
// SpyreComputeOps.td), over just the loops its operands vary along, so named
// elementwise ops, linalg.elementwise and arbitrary elementwise generics
// share one path, and compositions written as generics (gelu, layer norm,
// rms norm) come through. Reductions compute their body elementwise, then
// reduce one dim at a time with the spyre reduction whose combiner matches.
// Operands reach each op through its indexing maps, so broadcasts and
// transposed reads are absorbed, not copied.
//
// A pattern that gives up erases what it had built, so the IR is unchanged.
//
//===----------------------------------------------------------------------===//

#include "Spyre/Transforms/LinalgToSpyre.h"
#include "Spyre/Dialect/Spyre/IR/Spyre.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>

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

std::string str(Type type) { return llvm::formatv("{0}", type).str(); }

/// The splat value of a tensor if it is a constant or a fill with one.
std::optional<double> getSplatValue(Value value) {
  if (auto fill = value.getDefiningOp<linalg::FillOp>()) {
    FloatAttr scalar;
    if (matchPattern(fill.getInputs()[0], m_Constant(&scalar)))
      return scalar.getValueAsDouble();
    return std::nullopt;
  }
  DenseElementsAttr dense;
  if (auto constant = value.getDefiningOp<spyre::ConstantOp>())
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

/// The spyre elementwise and reduction ops, found through their interfaces
/// once per context: the conversion never names an op it maps to.
struct OpTable {
  SmallVector<
      std::pair<RegisteredOperationName, ElementwiseOpInterface::Concept *>>
      elementwise;
  SmallVector<
      std::pair<RegisteredOperationName, ReductionOpInterface::Concept *>>
      reductions;

  explicit OpTable(MLIRContext *context) {
    for (RegisteredOperationName name : context->getRegisteredOperations()) {
      if (name.getDialectNamespace() != SpyreDialect::getDialectNamespace())
        continue;
      if (auto *concept = name.getInterface<ElementwiseOpInterface>())
        elementwise.push_back({name, concept});
      if (auto *concept = name.getInterface<ReductionOpInterface>())
        reductions.push_back({name, concept});
    }
  }
};

/// Whether the spyre op `name` computes on elements of type `type` stored
/// in their device format.
bool computesOn(RegisteredOperationName name, Type type) {
  FailureOr<HostType> host = getHostType(type);
  if (failed(host))
    return false;
  auto *payload = name.getInterface<KernelPayloadOpInterface>();
  return payload && payload->supportsDataFormat(deviceFormatFor(*host));
}

bool computesOn(StringRef name, MLIRContext *context, Type type) {
  std::optional<RegisteredOperationName> registered =
      RegisteredOperationName::lookup(name, context);
  return registered && computesOn(*registered, type);
}

/// The short name of a spyre op ("exp" for spyre.exp), for messages.
StringRef shortName(RegisteredOperationName name) {
  return name.getStringRef().drop_front(
      SpyreDialect::getDialectNamespace().size() + 1);
}

class Converter {
public:
  Converter(PatternRewriter &rewriter, const OpTable &table)
      : rewriter(rewriter), table(table) {}

  /// Converts `op` (the pattern's root); on failure erases whatever was
  /// built before it and returns why it stays on the host.
  std::optional<Unsupported> run(Operation *op,
                                 function_ref<std::optional<Unsupported>()> f);

  std::optional<Unsupported> convertElementwiseOrReduction(linalg::LinalgOp op);
  std::optional<Unsupported> convertContraction(linalg::LinalgOp op);
  std::optional<Unsupported> convertSoftmax(linalg::SoftmaxOp op);

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
  FailureOr<Value> foldInit(linalg::LinalgOp op, Value value,
                            CombinerKind combiner, std::string &why);
  Value constantScalar(Location loc, double value, Type elementType);
  template <typename OpTy>
  Value pointwise(Location loc, ArrayRef<Term> inputs,
                  RankedTensorType resultType) {
    return pointwise(loc, &OpTy::buildElementwise, inputs, resultType);
  }
  Value pointwise(Location loc,
                  Operation *(*build)(OpBuilder &, Location, Type, ValueRange,
                                      ArrayAttr),
                  ArrayRef<Term> inputs, RankedTensorType resultType);

  PatternRewriter &rewriter;
  const OpTable &table;
};

} // namespace

//===----------------------------------------------------------------------===//
// Building blocks
//===----------------------------------------------------------------------===//

std::optional<Unsupported>
Converter::run(Operation *op, function_ref<std::optional<Unsupported>()> f) {
  rewriter.setInsertionPoint(op);
  Operation *before = op->getPrevNode();
  std::optional<Unsupported> unsupported = f();
  if (!unsupported)
    return std::nullopt;
  // Everything built is between `before` and `op`: erase it, last first.
  while (Operation *last = op->getPrevNode()) {
    if (last == before)
      break;
    rewriter.eraseOp(last);
  }
  return unsupported;
}

Value Converter::constantScalar(Location loc, double value, Type elementType) {
  auto type = RankedTensorType::get({}, elementType);
  auto attr = DenseElementsAttr::get(
      type, FloatAttr::get(elementType, value).getValue());
  return spyre::ConstantOp::create(rewriter, loc, type, attr);
}

/// Creates the elementwise op `build` makes over the iteration space of
/// `resultType`; identity maps are left implicit.
Value Converter::pointwise(Location loc,
                           Operation *(*build)(OpBuilder &, Location, Type,
                                               ValueRange, ArrayAttr),
                           ArrayRef<Term> inputs, RankedTensorType resultType) {
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
  return build(rewriter, loc, resultType, operands,
               allDefault ? ArrayAttr() : rewriter.getArrayAttr(maps))
      ->getResult(0);
}

/// A full iteration-space tensor for `term` (a copy when it is broadcast or
/// permuted).
Value Converter::materialize(Location loc, const Term &term,
                             ArrayRef<int64_t> ranges, Type elementType) {
  if (term.map.isIdentity())
    return term.tensor;
  return pointwise<IdentityOp>(loc, {term},
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
    value = TransposeOp::create(
        rewriter, loc, RankedTensorType::get(shape, valueType.getElementType()),
        value, perm);
  }
  if (cast<RankedTensorType>(value.getType()).getShape() !=
      outputType.getShape())
    value =
        ReshapeOp::create(rewriter, loc,
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
        return Term{
            constantScalar(op.getLoc(), *splat, element),
            AffineMap::get(map.getNumDims(), 0, {}, rewriter.getContext())};
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
      !value.getDefiningOp<spyre::ConstantOp>())
    value = spyre::ConstantOp::create(
        rewriter, loc, cast<RankedTensorType>(dense.getType()), dense);
  // Size-1 dims indexed by a constant 0.
  SmallVector<AffineExpr> results;
  SmallVector<int64_t> squeezed;
  auto valueType = cast<RankedTensorType>(value.getType());
  for (auto [i, expr] : llvm::enumerate(map.getResults())) {
    if (auto c = dyn_cast<AffineConstantExpr>(expr)) {
      if (c.getValue() != 0 || valueType.getDimSize(i) != 1) {
        why = "indexing map " +
              llvm::formatv("{0}", AffineMapAttr::get(map)).str() +
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
    value = ReshapeOp::create(
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

/// Whether `value` is the constant 0 (a scalar or a splat term).
static bool isZero(Value value, const Term &term) {
  FloatAttr zero;
  if (matchPattern(value, m_Constant(&zero)))
    return zero.getValueAsDouble() == 0.0;
  if (term.map.getNumResults() != 0)
    return false;
  auto c = term.tensor.getDefiningOp<spyre::ConstantOp>();
  auto dense = c ? dyn_cast<DenseElementsAttr>(c.getValue()) : nullptr;
  return dense && dense.isSplat() && dense.getSplatValue<APFloat>().isZero();
}

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
    why = "its body computes on " + str(resultElement) +
          "; the device computes on f16, bf16 and f32";
    return failure();
  }

  // Idioms of more than one scalar op's worth: max(x, 0) is a relu, 1 / x a
  // reciprocal.
  if (isa<arith::MaximumFOp>(scalar))
    for (unsigned i = 0; i < 2; ++i)
      if (isZero(scalar->getOperand(i), operands[i]) &&
          computesOn(ReluOp::getOperationName(), rewriter.getContext(),
                     resultElement))
        return pointwise<ReluOp>(loc, {operands[1 - i]}, resultType);
  if (auto div = dyn_cast<arith::DivFOp>(scalar)) {
    FloatAttr numerator;
    if (matchPattern(div.getLhs(), m_Constant(&numerator)) &&
        numerator.getValueAsDouble() == 1.0 &&
        computesOn(ReciprocalOp::getOperationName(), rewriter.getContext(),
                   resultElement))
      return pointwise<ReciprocalOp>(loc, {operands[1]}, resultType);
  }

  // One for one: the spyre op whose scalar op this is.
  for (auto [name, concept] : table.elementwise) {
    if (!concept->matchesScalarOp(scalar))
      continue;
    for (Value value : scalar->getOperands())
      if (!isa<IntegerType>(value.getType()) &&
          !computesOn(name, value.getType())) {
        why = "the device does not compute '" + shortName(name).str() +
              "' on " + str(value.getType());
        return failure();
      }
    if (!computesOn(name, resultElement) && !resultElement.isInteger(1)) {
      why = "the device does not compute '" + shortName(name).str() + "' on " +
            str(resultElement);
      return failure();
    }
    SmallVector<Term> inputs(operands);
    // A conversion reads its whole input: materialize broadcast reads.
    bool conversion = name.getTypeID() == TypeID::get<ConvertOp>();
    if (conversion)
      inputs = {Term{materialize(loc, operands[0], ranges,
                                 scalar->getOperand(0).getType()),
                     AffineMap::getMultiDimIdentityMap(ranges.size(),
                                                       rewriter.getContext())}};
    Value result =
        pointwise(loc, concept->buildElementwise, inputs, resultType);
    if (conversion &&
        cast<ConvertOp>(result.getDefiningOp()).getOpFuncName().empty()) {
      why = "it converts " + str(scalar->getOperand(0).getType()) + " to " +
            str(resultElement) + ", which the device does not";
      return failure();
    }
    return result;
  }
  why = "its body uses '" + scalar->getName().getStringRef().str() +
        "', which has no Spyre op";
  return failure();
}

/// Combines the reduced value with the op's init unless the init is the
/// combiner's neutral element (or an empty tensor).
FailureOr<Value> Converter::foldInit(linalg::LinalgOp op, Value value,
                                     CombinerKind combiner, std::string &why) {
  OpOperand *init = op.getDpsInitOperand(0);
  double neutral = combiner == CombinerKind::Sum   ? 0.0
                   : combiner == CombinerKind::Max ? -INFINITY
                                                   : INFINITY;
  std::optional<double> initValue = getSplatValue(init->get());
  bool isNeutral =
      initValue && (*initValue == neutral ||
                    (std::isinf(neutral) && std::abs(*initValue) >= 65504.0 &&
                     std::signbit(*initValue) == std::signbit(neutral)));
  if (isNeutral ||
      isa_and_nonnull<tensor::EmptyOp>(init->get().getDefiningOp()))
    return value;
  // A splat init (a fill of a constant) is a scalar combined once per
  // result element.
  FailureOr<Term> initTerm = inputTerm(op, init, why, /*allowScalar=*/true);
  if (failed(initTerm))
    return failure();
  // Re-express the init over the parallel dims only.
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  SmallVector<int64_t> parallel;
  for (unsigned d = 0; d < iterators.size(); ++d)
    if (iterators[d] == utils::IteratorType::parallel)
      parallel.push_back(d);
  SmallVector<AffineExpr> exprs;
  for (AffineExpr expr : initTerm->map.getResults()) {
    unsigned d = cast<AffineDimExpr>(expr).getPosition();
    exprs.push_back(
        rewriter.getAffineDimExpr(llvm::find(parallel, d) - parallel.begin()));
  }
  Term initOnParallel{
      initTerm->tensor,
      AffineMap::get(parallel.size(), 0, exprs, rewriter.getContext())};
  auto type = cast<RankedTensorType>(value.getType());
  Term reduced{value, AffineMap::getMultiDimIdentityMap(type.getRank(),
                                                        rewriter.getContext())};
  Location loc = op.getLoc();
  switch (combiner) {
  case CombinerKind::Sum:
    return pointwise<AddOp>(loc, {reduced, initOnParallel}, type);
  case CombinerKind::Max:
    return pointwise<MaximumOp>(loc, {reduced, initOnParallel}, type);
  case CombinerKind::Min:
    return pointwise<MinimumOp>(loc, {reduced, initOnParallel}, type);
  }
  llvm_unreachable("unknown combiner");
}

std::optional<Unsupported>
Converter::convertElementwiseOrReduction(linalg::LinalgOp op) {
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
  ReductionOpInterface::Concept *reduction = nullptr;
  Value reduced;
  if (hasReduction) {
    combiner = yielded.getDefiningOp();
    if (combiner && combiner->getNumOperands() == 2)
      for (auto [name, concept] : table.reductions)
        if (concept->matchesCombiner(combiner)) {
          reduction = concept;
          break;
        }
    if (!reduction)
      return Unsupported{"its reduction does not combine with add, maximumf "
                         "or minimumf"};
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
  auto scalarTerm = [&](double value, Type type) {
    return Term{constantScalar(loc, value, type),
                AffineMap::get(numLoops, 0, {}, rewriter.getContext())};
  };
  for (Operation &scalar : body.without_terminator()) {
    if (&scalar == combiner)
      continue;
    if (auto constant = dyn_cast<arith::ConstantOp>(scalar)) {
      auto floatAttr = dyn_cast<FloatAttr>(constant.getValue());
      if (!floatAttr)
        return Unsupported{"its body uses a non-float constant"};
      env[constant.getResult()] =
          scalarTerm(floatAttr.getValueAsDouble(), floatAttr.getType());
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
        it = env.insert({operand, scalarTerm(captured.getValueAsDouble(),
                                             captured.getType())})
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
      subOperands.push_back(
          Term{term.tensor, AffineMap::get(subRanges.size(), 0, exprs,
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
  Value value =
      materialize(loc, found->second, ranges, outputType.getElementType());

  if (hasReduction) {
    // One single-dim reduction per reduced op dim, highest first so the
    // lower dims keep their positions.
    for (int d = static_cast<int>(numLoops) - 1; d >= 0; --d) {
      if (iterators[d] != utils::IteratorType::reduction)
        continue;
      auto type = cast<RankedTensorType>(value.getType());
      SmallVector<int64_t> shape(type.getShape());
      shape.erase(shape.begin() + d);
      value = reduction
                  ->buildReduction(
                      rewriter, loc,
                      RankedTensorType::get(shape, type.getElementType()),
                      value, d, /*maskValue=*/nullptr)
                  ->getResult(0);
    }
    FailureOr<Value> combined = foldInit(
        op, value,
        cast<ReductionOpInterface>(value.getDefiningOp()).getCombinerKind(),
        why);
    if (failed(combined))
      return Unsupported{why};
    value = *combined;
  }
  rewriter.replaceOp(op, toOutput(loc, value, outputMap, outputType));
  return std::nullopt;
}

std::optional<Unsupported> Converter::convertContraction(linalg::LinalgOp op) {
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
  if (!(inputElement.isBF16() ||
        computesOn(MatmulOp::getOperationName(), rewriter.getContext(),
                   inputElement)))
    return Unsupported{"the PT unit multiplies DL16 or fp8, not " +
                       str(inputElement)};
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
  bool fp8 = isa<Float8E4M3FNType, Float8E5M2Type>(inputElement);
  Type productElement = fp8 ? Type(rewriter.getF16Type()) : inputElement;
  auto cType = RankedTensorType::get(cShape, productElement);
  AffineMap cMap = AffineMap::get(numLoops, 0, cExprs, rewriter.getContext());
  SmallVector<AffineMap> maps = {operands[0].map, operands[1].map, cMap};
  bool batched = numLoops == 4;
  // Leave the default maps implicit, for readability.
  ArrayAttr mapsAttr;
  SmallVector<AffineMap> defaults =
      spyre::detail::getMatmulIndexingMaps(op, nullptr, batched);
  if (maps != defaults)
    mapsAttr = rewriter.getAffineMapArrayAttr(maps);
  Value product =
      batched ? BatchMatmulOp::create(rewriter, loc, cType, operands[0].tensor,
                                      operands[1].tensor, mapsAttr)
                    .getResult()
              : MatmulOp::create(rewriter, loc, cType, operands[0].tensor,
                                 operands[1].tensor, mapsAttr)
                    .getResult();
  if (productElement != outputType.getElementType())
    product = ConvertOp::create(
        rewriter, loc,
        RankedTensorType::get(cShape, outputType.getElementType()), product);
  std::optional<double> initValue = getSplatValue(init->get());
  if (!(initValue && *initValue == 0.0) &&
      !init->get().getDefiningOp<tensor::EmptyOp>()) {
    FailureOr<Term> initTerm = inputTerm(op, init, why, /*allowScalar=*/true);
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
    product = pointwise<AddOp>(
        loc,
        {Term{product, AffineMap::getMultiDimIdentityMap(
                           type.getRank(), rewriter.getContext())},
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
    return Unsupported{"it computes on " + str(type.getElementType())};
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
  Value max = MaxOp::create(rewriter, loc, reducedType, x, dim, nullptr);
  Value shifted = pointwise<SubOp>(loc, {{x, id}, {max, dropped}}, type);
  Value exp = pointwise<ExpOp>(loc, {{shifted, id}}, type);
  Value sum = SumOp::create(rewriter, loc, reducedType, exp, dim, nullptr);
  AffineMap reducedId =
      AffineMap::getMultiDimIdentityMap(reducedShape.size(), context);
  Value inverse = pointwise<ReciprocalOp>(loc, {{sum, reducedId}}, reducedType);
  Value result = pointwise<MulOp>(loc, {{exp, id}, {inverse, dropped}}, type);
  rewriter.replaceOp(op, result);
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

namespace {

/// Shared by every pattern: the op table and where declined ops' reasons go.
struct ConversionState {
  explicit ConversionState(MLIRContext *context, UnsupportedOps *unsupported)
      : table(context), unsupported(unsupported) {}
  OpTable table;
  UnsupportedOps *unsupported;

  LogicalResult finish(Operation *op, PatternRewriter &rewriter,
                       std::optional<Unsupported> result) {
    if (!result)
      return success();
    if (unsupported)
      unsupported->reasons[op] = result->reason;
    return rewriter.notifyMatchFailure(op, result->reason);
  }
};

/// Whether `op` is directly in a function's body: ops nested in other ops'
/// regions (an scf.for, say) stay on the host with their parent, which runs
/// there as a whole.
bool isTopLevel(Operation *op) {
  return isa_and_nonnull<FunctionOpInterface>(op->getParentOp());
}

/// The root of a linalg pattern: structured ops on tensors.
bool isConvertibleLinalg(linalg::LinalgOp op) {
  return op.hasPureTensorSemantics() && isTopLevel(op);
}

struct ContractionPattern : OpInterfaceRewritePattern<linalg::LinalgOp> {
  ContractionPattern(MLIRContext *context,
                     std::shared_ptr<ConversionState> state)
      : OpInterfaceRewritePattern(context, /*benefit=*/2), state(state) {}
  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override {
    if (!isConvertibleLinalg(op) || !linalg::isaContractionOpInterface(op))
      return failure();
    Converter converter(rewriter, state->table);
    return state->finish(op, rewriter, converter.run(op, [&] {
      return converter.convertContraction(op);
    }));
  }
  std::shared_ptr<ConversionState> state;
};

/// Elementwise bodies (`reductions` false) or reductions (true).
template <bool reductions>
struct BodyPattern : OpInterfaceRewritePattern<linalg::LinalgOp> {
  BodyPattern(MLIRContext *context, std::shared_ptr<ConversionState> state)
      : OpInterfaceRewritePattern(context), state(state) {}
  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override {
    if (!isConvertibleLinalg(op) || linalg::isaContractionOpInterface(op) ||
        isa<linalg::TransposeOp, linalg::BroadcastOp, linalg::FillOp>(op))
      return failure();
    bool hasReduction = op.getNumReductionLoops() > 0;
    if (hasReduction != reductions)
      return failure();
    Converter converter(rewriter, state->table);
    return state->finish(op, rewriter, converter.run(op, [&] {
      return converter.convertElementwiseOrReduction(op);
    }));
  }
  std::shared_ptr<ConversionState> state;
};

struct SoftmaxPattern : OpRewritePattern<linalg::SoftmaxOp> {
  SoftmaxPattern(MLIRContext *context, std::shared_ptr<ConversionState> state)
      : OpRewritePattern(context), state(state) {}
  LogicalResult matchAndRewrite(linalg::SoftmaxOp op,
                                PatternRewriter &rewriter) const override {
    if (!isTopLevel(op))
      return failure();
    Converter converter(rewriter, state->table);
    return state->finish(op, rewriter, converter.run(op, [&] {
      return converter.convertSoftmax(op);
    }));
  }
  std::shared_ptr<ConversionState> state;
};

struct TransposePattern : OpRewritePattern<linalg::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::TransposeOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics() || !isTopLevel(op))
      return failure();
    rewriter.replaceOpWithNewOp<TransposeOp>(
        op, op->getResult(0).getType(), op.getInput(), op.getPermutation());
    return success();
  }
};

template <typename ReshapeTy>
struct ReshapePattern : OpRewritePattern<ReshapeTy> {
  ReshapePattern(MLIRContext *context, std::shared_ptr<ConversionState> state)
      : OpRewritePattern<ReshapeTy>(context), state(state) {}
  LogicalResult matchAndRewrite(ReshapeTy op,
                                PatternRewriter &rewriter) const override {
    if (!isTopLevel(op))
      return failure();
    if (!op.getResultType().hasStaticShape() ||
        !op.getSrcType().hasStaticShape())
      return state->finish(op, rewriter, Unsupported{"it has a dynamic shape"});
    rewriter.replaceOpWithNewOp<ReshapeOp>(op, op.getResultType(), op.getSrc());
    return success();
  }
  std::shared_ptr<ConversionState> state;
};

/// A fill, broadcast or constant read by converted ops or returned: those
/// uses read a spyre.constant when it is a splat or dense constant of a
/// device float type. Uses by host ops stay as they are.
struct ConstantPattern : RewritePattern {
  ConstantPattern(MLIRContext *context, std::shared_ptr<ConversionState> state)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context),
        state(state) {}
  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!isa<linalg::FillOp, linalg::BroadcastOp, arith::ConstantOp>(op) ||
        op->getNumResults() != 1 || !isTopLevel(op))
      return failure();
    Value value = op->getResult(0);
    SmallVector<OpOperand *> uses;
    for (OpOperand &use : value.getUses())
      if (isa<SpyreDialect>(use.getOwner()->getDialect()) ||
          isa<func::ReturnOp>(use.getOwner()))
        uses.push_back(&use);
    if (uses.empty())
      return failure(); // read by host ops only: their remarks explain
    auto type = dyn_cast<RankedTensorType>(value.getType());
    if (!type)
      return failure(); // a scalar constant of a body
    DenseElementsAttr dense;
    std::string why;
    if (!type.hasStaticShape()) {
      why = "it has a dynamic shape";
    } else if (!isSupportedFloat(type.getElementType())) {
      why = "device constants hold f16, bf16 or f32 elements, not " +
            str(type.getElementType());
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
    if (!dense)
      return state->finish(op, rewriter, Unsupported{why});
    rewriter.setInsertionPoint(op);
    Value constant =
        spyre::ConstantOp::create(rewriter, op->getLoc(), type, dense);
    for (OpOperand *use : uses)
      rewriter.modifyOpInPlace(use->getOwner(), [&] { use->set(constant); });
    return success();
  }
  std::shared_ptr<ConversionState> state;
};

} // namespace

void mlir::spyre::populateSpyreConvertLinalgPatterns(
    RewritePatternSet &patterns, UnsupportedOps *unsupported) {
  MLIRContext *context = patterns.getContext();
  auto state = std::make_shared<ConversionState>(context, unsupported);
  patterns.add<ContractionPattern, BodyPattern<false>, BodyPattern<true>,
               SoftmaxPattern, ReshapePattern<tensor::ExpandShapeOp>,
               ReshapePattern<tensor::CollapseShapeOp>, ConstantPattern>(
      context, state);
  patterns.add<TransposePattern>(context);
}
