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
#include "Spyre/Transforms/Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/SmallPtrSet.h"
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
  FloatAttr scalar;
  if (isa<FloatType>(value.getType()) &&
      matchPattern(value, m_Constant(&scalar)))
    return scalar.getValueAsDouble();
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
  if (failed(host) || !isComputedOnDevice(*host))
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
  Converter(PatternRewriter &rewriter, const OpTable &table,
            const LinalgToSpyreOptions &options)
      : rewriter(rewriter), table(table), options(options) {}

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
  FailureOr<Term> groupedOperand(Location loc, const Term &term,
                                 ArrayRef<SmallVector<unsigned, 2>> groups,
                                 ArrayRef<int64_t> ranges, std::string &why);
  std::optional<Value> multiplyQuantized(Location loc, ArrayRef<Term> terms,
                                         AffineMap cMap);
  FailureOr<Value> multiply(Location loc, ArrayRef<Term> operands,
                            AffineMap cMap, ArrayRef<int64_t> ranges,
                            std::string &why);
  std::optional<Unsupported> finishContraction(linalg::LinalgOp op,
                                               Value product,
                                               RankedTensorType outputType,
                                               AffineMap outputMap);
  FailureOr<Value> foldInit(linalg::LinalgOp op, Value value,
                            CombinerKind combiner, std::string &why);
  Value constantScalar(Location loc, double value, Type elementType);
  /// erf(x) from device ops (the device has no erf instruction).
  Value erf(Location loc, const Term &x, RankedTensorType type);
  Value erfF32(Location loc, const Term &x, RankedTensorType type);
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
  const LinalgToSpyreOptions &options;
};

} // namespace

//===----------------------------------------------------------------------===//
// Building blocks
//===----------------------------------------------------------------------===//

std::optional<Unsupported>
Converter::run(Operation *op, function_ref<std::optional<Unsupported>()> f) {
  // Device tensors have at most kMaxHostRank dims; larger ones stay on the
  // host with every op that touches them.
  for (Type type :
       llvm::concat<const Type>(op->getOperandTypes(), op->getResultTypes()))
    if (auto tensor = dyn_cast<RankedTensorType>(type);
        tensor && tensor.getRank() > kMaxHostRank)
      return Unsupported{llvm::formatv("it reads or writes a tensor of rank "
                                       "{0}; device tensors have at most {1} "
                                       "dims",
                                       tensor.getRank(), kMaxHostRank)
                             .str()};
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

/// Abramowitz and Stegun 7.1.26: for x >= 0, erf(x) = 1 - t (a1 + t (a2 +
/// t (a3 + t (a4 + t a5)))) exp(-x^2) with t = 1 / (1 + p x), within 1.5e-7;
/// odd, so the sign comes back as x / (|x| + tiny) (0 at 0, where erf is 0,
/// and no comparison: the device compares DL16 only). About twenty SFP
/// passes, in f32 whatever the element type: near 0, 1 - (...) cancels, and
/// in DL16 that costs 1e-2 relative; in f32 the result is within 5e-7.
Value Converter::erf(Location loc, const Term &input, RankedTensorType type) {
  Type element = rewriter.getF32Type();
  auto wide = type.clone(element);
  Term x = input;
  if (type.getElementType() != element) {
    // A conversion reads its input whole, in the result's order.
    Value read =
        materialize(loc, input, type.getShape(), type.getElementType());
    x = Term{ConvertOp::create(rewriter, loc, wide, read),
             AffineMap::getMultiDimIdentityMap(type.getRank(),
                                               rewriter.getContext())};
  }
  Value result = erfF32(loc, x, wide);
  if (type.getElementType() == element)
    return result;
  return ConvertOp::create(rewriter, loc, type, result);
}

Value Converter::erfF32(Location loc, const Term &x, RankedTensorType type) {
  Type element = type.getElementType();
  unsigned rank = static_cast<unsigned>(type.getRank());
  auto whole = [&](Value v) {
    return Term{v,
                AffineMap::getMultiDimIdentityMap(rank, rewriter.getContext())};
  };
  auto scalar = [&](double value) {
    return Term{constantScalar(loc, value, element),
                AffineMap::get(rank, 0, {}, rewriter.getContext())};
  };
  constexpr double p = 0.3275911;
  constexpr double a[] = {0.254829592, -0.284496736, 1.421413741, -1.453152027,
                          1.061405429};
  Term magnitude = whole(pointwise<AbsOp>(loc, {x}, type));
  Term t = whole(pointwise<ReciprocalOp>(
      loc,
      {whole(pointwise<AddOp>(
          loc,
          {whole(pointwise<MulOp>(loc, {magnitude, scalar(p)}, type)),
           scalar(1.0)},
          type))},
      type));
  Term poly = whole(pointwise<MulOp>(loc, {t, scalar(a[4])}, type));
  for (int i = 3; i >= 0; --i)
    poly = whole(pointwise<MulOp>(
        loc, {whole(pointwise<AddOp>(loc, {poly, scalar(a[i])}, type)), t},
        type));
  Term square = whole(pointwise<MulOp>(loc, {x, x}, type));
  Term gauss = whole(pointwise<ExpOp>(
      loc, {whole(pointwise<MulOp>(loc, {square, scalar(-1.0)}, type))}, type));
  Term y = whole(pointwise<SubOp>(
      loc, {scalar(1.0), whole(pointwise<MulOp>(loc, {poly, gauss}, type))},
      type));
  // The smallest normal DL16 holds, so that f16 and f32 share it.
  Term sign = whole(pointwise<DivOp>(
      loc,
      {x, whole(pointwise<AddOp>(loc, {magnitude, scalar(0x1p-30)}, type))},
      type));
  return pointwise<MulOp>(loc, {y, sign}, type);
}

Value Converter::constantScalar(Location loc, double value, Type elementType) {
  return createScalarConstant(rewriter, loc, value, elementType);
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
      Type element = getElementTypeOrSelf(value.getType());
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
  // f64 and the fnuz fp8s reach the device only converted to another
  // format: no device tensor holds them, not even a copy's.
  if (FailureOr<HostType> host = getHostType(type.getElementType());
      succeeded(host) && !isComputedOnDevice(*host)) {
    why = "operand #" + std::to_string(operand->getOperandNumber()) +
          " holds " + str(type.getElementType()) +
          ", which no device tensor holds";
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

/// A float constant of a body: an `arith.constant`, or `math.sqrt` of one
/// (torch-mlir writes `sqrt(2.0)` inside the body).
static std::optional<double> bodyConstant(Value value) {
  FloatAttr constant;
  if (matchPattern(value, m_Constant(&constant)))
    return constant.getValueAsDouble();
  if (auto sqrt = value.getDefiningOp<math::SqrtOp>())
    if (std::optional<double> radicand = bodyConstant(sqrt.getOperand()))
      return std::sqrt(*radicand);
  return std::nullopt;
}

/// Whether `value` is a constant within the element type's rounding of
/// `expected` (1/sqrt(2) is 0.70703125 in f16).
static bool isConstantNear(Value value, double expected) {
  std::optional<double> constant = bodyConstant(value);
  return constant && std::abs(*constant - expected) <= 1e-3 * expected;
}

namespace {
/// The exact GELU of a body, `x * 0.5 * (1 + erf(x / sqrt(2)))`, rooted at
/// the multiplication that produces it.
struct ExactGelu {
  Value x;
  Operation *root;
  /// The body ops the GELU replaces, root excluded: each used only by the
  /// pattern.
  SmallVector<Operation *> covered;
};
} // namespace

/// Matches the exact GELU around `erf` in the forms front ends write:
/// torch-mlir's `x * (0.5 * (1 + erf((x - 0) / sqrt(2))))` (the subtraction
/// folded by the body preparation), StableHLO's and JAX's
/// `0.5 * x * (1 + erf(x * 0.7071))`, and every association and operand
/// order of the product, in one float type. torch-spyre lowers
/// `aten.gelu` to the device's `gelufwd` the same way.
static std::optional<ExactGelu> matchExactGelu(math::ErfOp erf) {
  Type type = erf.getType();
  Operation *argument = erf.getOperand().getDefiningOp();
  Value x;
  if (auto mul = dyn_cast_or_null<arith::MulFOp>(argument)) {
    for (unsigned i = 0; i < 2 && !x; ++i)
      if (isConstantNear(mul->getOperand(1 - i), M_SQRT1_2))
        x = mul->getOperand(i);
  } else if (auto div = dyn_cast_or_null<arith::DivFOp>(argument)) {
    if (isConstantNear(div.getRhs(), M_SQRT2))
      x = div.getLhs();
  }
  if (!x || x.getType() != type)
    return std::nullopt;
  ExactGelu gelu{x, nullptr, {erf}};
  if (erf.getOperand().hasOneUse())
    gelu.covered.push_back(argument);
  // 1 + erf(...)
  Value current = erf.getResult();
  if (!current.hasOneUse())
    return std::nullopt;
  auto add = dyn_cast<arith::AddFOp>(*current.getUsers().begin());
  if (!add ||
      !isConstantNear(add->getOperand(add.getLhs() == current ? 1 : 0), 1.0))
    return std::nullopt;
  gelu.covered.push_back(add);
  current = add.getResult();
  // ... times x and 0.5, the factors met one or two at a time.
  bool haveX = false, haveHalf = false;
  auto take = [&](Value factor) {
    if (factor == x && !haveX)
      return haveX = true;
    if (!haveHalf && isConstantNear(factor, 0.5))
      return haveHalf = true;
    return false;
  };
  while (!(haveX && haveHalf)) {
    if (!current.hasOneUse())
      return std::nullopt;
    auto mul = dyn_cast<arith::MulFOp>(*current.getUsers().begin());
    if (!mul || mul.getType() != type)
      return std::nullopt;
    Value other = mul->getOperand(mul.getLhs() == current ? 1 : 0);
    auto inner = other.getDefiningOp<arith::MulFOp>();
    if (inner && other.hasOneUse() && inner->getBlock() == mul->getBlock() &&
        take(inner.getLhs()) && take(inner.getRhs()))
      gelu.covered.push_back(inner);
    else if (!take(other))
      return std::nullopt;
    gelu.covered.push_back(mul);
    current = mul.getResult();
  }
  gelu.root = current.getDefiningOp();
  gelu.covered.pop_back();
  return gelu;
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
  // Rounding to fp8 (`qfp8ch`) is the one conversion into a storage-only
  // format: the device computes on nothing narrower than 16 bits.
  bool toFp8 = isa<arith::TruncFOp>(scalar) && isDeviceFp8(resultElement);
  if (!isSupportedFloat(resultElement) && !resultElement.isInteger(1) &&
      !toFp8) {
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

  if (isa<math::ErfOp>(scalar)) {
    for (StringRef name :
         {AbsOp::getOperationName(), MulOp::getOperationName(),
          AddOp::getOperationName(), SubOp::getOperationName(),
          DivOp::getOperationName(), ReciprocalOp::getOperationName(),
          ExpOp::getOperationName()})
      if (!computesOn(name, rewriter.getContext(), rewriter.getF32Type())) {
        why = "the device does not compute '" + name.split('.').second.str() +
              "' (for 'math.erf') on f32";
        return failure();
      }
    return erf(loc, operands[0], resultType);
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
  // The output is the iteration space reordered (dims, constant 0 for
  // size-1 dims); an output written through expressions (a relayout into
  // blocks, `(d0 * 2 + d2, ...)`) is not.
  if (!outputMap.isProjectedPermutation(/*allowZeroInResults=*/true))
    return Unsupported{"its output map is not a projected permutation"};

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
    Type combined = combiner->getResult(0).getType();
    if (!isSupportedFloat(combined))
      return Unsupported{"its reduction combines " + str(combined) +
                         " values; the device computes on f16, bf16 and f32"};
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
  // Exact GELUs become the device's gelufwd: erf has no device op.
  DenseMap<Operation *, Value> geluRoots;
  llvm::SmallPtrSet<Operation *, 8> coveredByGelu;
  body.walk([&](math::ErfOp erf) {
    std::optional<ExactGelu> gelu = matchExactGelu(erf);
    if (!gelu || gelu->root == combiner)
      return;
    // Elsewhere (f32) the erf is computed from device ops.
    if (!computesOn(GeluOp::getOperationName(), rewriter.getContext(),
                    erf.getType()))
      return;
    geluRoots[gelu->root] = gelu->x;
    coveredByGelu.insert(gelu->covered.begin(), gelu->covered.end());
  });
  for (Operation &scalar : body.without_terminator()) {
    if (&scalar == combiner || coveredByGelu.contains(&scalar))
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
    Value geluInput = geluRoots.lookup(&scalar);
    SmallVector<Term> operands;
    for (Value operand :
         geluInput ? ValueRange(geluInput) : scalar.getOperands()) {
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
        geluInput
            ? pointwise<GeluOp>(
                  isa<UnknownLoc>(scalar.getLoc()) ? loc : scalar.getLoc(),
                  subOperands,
                  RankedTensorType::get(subRanges, geluInput.getType()))
            : convertScalarOp(&scalar, loc, subOperands, subRanges, why);
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

/// `term` (an operand over the op's loops) with each group of loops that it
/// reads made adjacent, in group order (a transpose view if needed), and
/// collapsed into one dim (a reshape): its map is then over one loop per
/// group (group i is loop i).
FailureOr<Term>
Converter::groupedOperand(Location loc, const Term &term,
                          ArrayRef<SmallVector<unsigned, 2>> groups,
                          ArrayRef<int64_t> ranges, std::string &why) {
  auto type = cast<RankedTensorType>(term.tensor.getType());
  auto groupOf = [&](unsigned loop) -> int {
    for (auto [g, group] : llvm::enumerate(groups))
      if (llvm::is_contained(group, loop))
        return static_cast<int>(g);
    return -1;
  };
  // The operand's dims, ordered by group (groups in order of first
  // appearance in the operand), each group's loops in loop order.
  SmallVector<int64_t> loops;
  for (AffineExpr expr : term.map.getResults())
    loops.push_back(cast<AffineDimExpr>(expr).getPosition());
  SmallVector<int> order; // groups in order of appearance
  for (int64_t loop : loops) {
    int g = groupOf(loop);
    if (g < 0) {
      why = "loop " + std::to_string(loop) +
            " of the contraction is not a "
            "batch, M, N or K dim";
      return failure();
    }
    if (!llvm::is_contained(order, g))
      order.push_back(g);
  }
  SmallVector<int64_t> perm;
  SmallVector<AffineExpr> exprs;
  SmallVector<int64_t> collapsed;
  for (int g : order) {
    int64_t size = 1;
    for (unsigned loop : groups[g]) {
      auto it = llvm::find(loops, loop);
      if (it == loops.end()) {
        why = "an operand reads only some loops of a merged group";
        return failure();
      }
      perm.push_back(it - loops.begin());
      size *= ranges[loop];
    }
    collapsed.push_back(size);
    exprs.push_back(rewriter.getAffineDimExpr(g));
  }
  Value value = term.tensor;
  if (!llvm::equal(perm, llvm::seq<int64_t>(0, perm.size()))) {
    SmallVector<int64_t> shape;
    for (int64_t p : perm)
      shape.push_back(type.getDimSize(p));
    value = TransposeOp::create(
        rewriter, loc, RankedTensorType::get(shape, type.getElementType()),
        value, perm);
  }
  if (collapsed.size() != perm.size())
    value = ReshapeOp::create(
        rewriter, loc, RankedTensorType::get(collapsed, type.getElementType()),
        value);
  return Term{value,
              AffineMap::get(groups.size(), 0, exprs, rewriter.getContext())};
}

std::optional<Unsupported> Converter::convertContraction(linalg::LinalgOp op) {
  unsigned numLoops = op.getNumLoops();
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
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  Location loc = op.getLoc();

  // Several batch, M, N or K loops (attention's B and H, a linear layer's
  // B and S): merge each group into one loop, so the device sees a matmul or
  // a batched matmul; the result is split back afterwards.
  SmallVector<SmallVector<unsigned, 2>> groups;
  if (numLoops >= 4) {
    FailureOr<linalg::ContractionDimensions> dims =
        linalg::inferContractionDims(ArrayRef<AffineMap>{
            operands[0].map, operands[1].map,
            outputMap.getMinorSubMap(outputMap.getNumResults())});
    if (failed(dims) || dims->m.empty() || dims->n.empty() || dims->k.empty())
      return Unsupported{"it is a contraction over " +
                         std::to_string(numLoops) +
                         " dims that is not a (batched) matrix product"};
    for (auto *group : {&dims->batch, &dims->m, &dims->n, &dims->k})
      if (!group->empty()) {
        groups.push_back(*group);
        llvm::sort(groups.back());
      }
    unsigned grouped = 0;
    for (const auto &group : groups)
      grouped += group.size();
    if (grouped != numLoops)
      return Unsupported{"it is a contraction with loops that are not batch, "
                         "M, N or K dims"};
    // A plain batched matmul (one loop per group) needs no merging; a
    // batch-reduce matmul (two K loops) does.
    if (llvm::all_of(groups, [](const auto &g) { return g.size() == 1; }))
      groups.clear();
  }
  if (!groups.empty()) {
    SmallVector<int64_t> groupRanges;
    for (const auto &group : groups) {
      int64_t size = 1;
      for (unsigned loop : group)
        size *= ranges[loop];
      groupRanges.push_back(size);
    }
    for (Term &term : operands) {
      FailureOr<Term> grouped = groupedOperand(loc, term, groups, ranges, why);
      if (failed(grouped))
        return Unsupported{why};
      term = *grouped;
    }
    // The merged problem's product, [batch, M, N]: split its dims back into
    // their loops and order them as the op's loops.
    SmallVector<int64_t> parallelLoops, split;
    for (const auto &group : ArrayRef(groups).drop_back())
      for (unsigned loop : group) {
        parallelLoops.push_back(loop);
        split.push_back(ranges[loop]);
      }
    SmallVector<AffineExpr> cExprs;
    for (unsigned g = 0; g + 1 < groups.size(); ++g)
      cExprs.push_back(rewriter.getAffineDimExpr(g));
    FailureOr<Value> product = multiply(
        loc, operands,
        AffineMap::get(groups.size(), 0, cExprs, rewriter.getContext()),
        groupRanges, why);
    if (failed(product))
      return Unsupported{why};
    auto productType = cast<RankedTensorType>(product->getType());
    Value value = ReshapeOp::create(
        rewriter, loc,
        RankedTensorType::get(split, productType.getElementType()), *product);
    SmallVector<int64_t> sorted(parallelLoops);
    llvm::sort(sorted);
    SmallVector<int64_t> perm, shape;
    for (int64_t loop : sorted) {
      perm.push_back(llvm::find(parallelLoops, loop) - parallelLoops.begin());
      shape.push_back(ranges[loop]);
    }
    if (!llvm::equal(perm, llvm::seq<int64_t>(0, perm.size())))
      value = TransposeOp::create(
          rewriter, loc,
          RankedTensorType::get(shape, productType.getElementType()), value,
          perm);
    return finishContraction(op, value, outputType, outputMap);
  }
  if (numLoops != 3 && numLoops != 4)
    return Unsupported{"it is a contraction over " + std::to_string(numLoops) +
                       " dims; the device multiplies matrices and batches of "
                       "them"};
  // The spyre op computes C in op-dim order of its parallel dims.
  SmallVector<AffineExpr> cExprs;
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  for (unsigned d = 0; d < numLoops; ++d)
    if (iterators[d] == utils::IteratorType::parallel)
      cExprs.push_back(rewriter.getAffineDimExpr(d));
  FailureOr<Value> product = multiply(
      loc, operands, AffineMap::get(numLoops, 0, cExprs, rewriter.getContext()),
      ranges, why);
  if (failed(product))
    return Unsupported{why};
  return finishContraction(op, *product, outputType, outputMap);
}

/// A @ B where B is what a `spyre.dequantize` reads back from a weight
/// stored [N, K] and quantized along K, directly or transposed (A [M, K],
/// C [M, N]): the scaled
/// matmul, which reads B's stored parts, so that B travels quantized. None
/// when B is not such a weight or the scaled matmul does not read its
/// scheme (the dequantize then runs on the host).
std::optional<Value> Converter::multiplyQuantized(Location loc,
                                                  ArrayRef<Term> terms,
                                                  AffineMap cMap) {
  MLIRContext *context = rewriter.getContext();
  // Through a transpose of the weight (torch-mlir's linear layer: W^T, then
  // a plain matmul): B's map over the weight itself.
  Value b = terms[1].tensor;
  AffineMap bMap = terms[1].map;
  if (auto transpose = b.getDefiningOp<TransposeOp>()) {
    ArrayRef<int64_t> perm = transpose.getPermutation();
    SmallVector<AffineExpr> exprs(perm.size());
    for (auto [j, p] : llvm::enumerate(perm))
      exprs[p] = bMap.getResult(j);
    b = transpose.getInput();
    bMap = AffineMap::get(bMap.getNumDims(), 0, exprs, context);
  }
  // Through row-major reshapes that come back to the weight's shape (a
  // grouped weight [N, G, T] read as [N, K]).
  Value source = b;
  while (auto reshape = source.getDefiningOp<ReshapeOp>())
    source = reshape.getInput();
  if (source != b && cast<RankedTensorType>(source.getType()).getShape() ==
                         cast<RankedTensorType>(b.getType()).getShape())
    b = source;
  auto dequantize = b.getDefiningOp<DequantizeOp>();
  if (!dequantize || cMap.getNumDims() != 3 || cMap.getNumResults() != 2)
    return std::nullopt;
  AffineExpr m = cMap.getResult(0), n = cMap.getResult(1);
  int k = -1;
  for (unsigned d = 0; d < 3; ++d)
    if (!cMap.isFunctionOfDim(d))
      k = static_cast<int>(d);
  if (k < 0)
    return std::nullopt;
  AffineExpr kExpr = getAffineDimExpr(k, context);
  if (terms[0].map != AffineMap::get(3, 0, {m, kExpr}, context) ||
      bMap != AffineMap::get(3, 0, {n, kExpr}, context))
    return std::nullopt;
  auto a = cast<RankedTensorType>(terms[0].tensor.getType());
  auto weight = dequantize.getResult().getType();
  if (weight.getElementType() != a.getElementType())
    return std::nullopt;
  // As multiply(): a unit N or K leaves one value per stick of B or C,
  // which the PT unit cannot read.
  if (weight.getDimSize(0) == 1 || weight.getDimSize(1) == 1)
    return std::nullopt;
  ValueRange parts = dequantize.getParts();
  if (parts.size() < 2)
    return std::nullopt;
  // An f32 product under f32-matmul=f16, as multiply() computes it: A
  // converted to f16 on the way in, the f16 product converted back by the
  // caller (the weight is read quantized either way).
  Value lhs = terms[0].tensor;
  bool inF16 =
      a.getElementType().isF32() && options.f32Matmul == F32Matmul::F16;
  if (inF16) {
    lhs = ConvertOp::create(
        rewriter, loc,
        RankedTensorType::get(a.getShape(), rewriter.getF16Type()), lhs);
    a = cast<RankedTensorType>(lhs.getType());
  }
  auto cType = RankedTensorType::get({a.getDimSize(0), weight.getDimSize(0)},
                                     a.getElementType());
  OperationState state(loc, ScaledMatmulOp::getOperationName());
  ScaledMatmulOp::build(rewriter, state, cType, lhs, parts,
                        dequantize.getQuant());
  Operation *op = Operation::create(state);
  // Built unattached: a scheme the scaled matmul does not read leaves B to
  // the host's dequantize, and the diagnostics of that check stay silent.
  {
    ScopedDiagnosticHandler silence(context,
                                    [](Diagnostic &) { return success(); });
    if (failed(mlir::verify(op))) {
      op->destroy();
      if (inF16)
        rewriter.eraseOp(lhs.getDefiningOp());
      return std::nullopt;
    }
  }
  if (inF16)
    emitRemark(loc) << "f32 matmul computed in f16 on the device "
                       "(f32-matmul=f16)";
  rewriter.insert(op);
  return op->getResult(0);
}

/// The device matmul (3 loops) or batched matmul (4) of two terms, computing
/// C over `cMap`'s loops in loop order, in the PT unit's product type.
FailureOr<Value> Converter::multiply(Location loc, ArrayRef<Term> terms,
                                     AffineMap cMap, ArrayRef<int64_t> ranges,
                                     std::string &why) {
  if (std::optional<Value> scaled = multiplyQuantized(loc, terms, cMap))
    return *scaled;
  SmallVector<Term, 2> operands(terms);
  Type inputElement =
      cast<RankedTensorType>(operands[0].tensor.getType()).getElementType();
  if (inputElement !=
      cast<RankedTensorType>(operands[1].tensor.getType()).getElementType()) {
    why = "its operands have different element types";
    return failure();
  }
  if (inputElement.isF32()) {
    if (options.f32Matmul != F32Matmul::F16) {
      why = "the PT unit does not multiply f32 (--spyre-convert-linalg="
            "f32-matmul=f16 computes it in f16 on the device)";
      return failure();
    }
    // Computed in the device format: the operands converted on the way in,
    // the product converted back by the caller.
    inputElement = rewriter.getF16Type();
    for (Term &term : operands) {
      auto type = cast<RankedTensorType>(term.tensor.getType());
      term.tensor = ConvertOp::create(
          rewriter, loc, RankedTensorType::get(type.getShape(), inputElement),
          term.tensor);
    }
    emitRemark(loc) << "f32 matmul computed in f16 on the device "
                       "(f32-matmul=f16)";
  }
  if (!(inputElement.isBF16() ||
        computesOn(MatmulOp::getOperationName(), rewriter.getContext(),
                   inputElement))) {
    why = "the PT unit multiplies DL16 or fp8, not " + str(inputElement);
    return failure();
  }
  // A unit N or K leaves B or C one value per stick, which the PT unit
  // cannot read (it needs B and C sticked on N, A on K): such a
  // matrix-vector or outer product stays on the host.
  for (unsigned d = 0; d < cMap.getNumDims(); ++d) {
    if (ranges[d] != 1)
      continue;
    bool inA = operands[0].map.isFunctionOfDim(d);
    bool inB = operands[1].map.isFunctionOfDim(d);
    bool inC = cMap.isFunctionOfDim(d);
    if ((inB && inC && !inA) || (inA && inB && !inC)) {
      why = std::string("its ") + (inC ? "N" : "K") +
            " is 1 (a matrix-vector or outer product): the PT unit needs B "
            "and C sticked on N and A on K, and a unit dim leaves one value "
            "per stick";
      return failure();
    }
  }
  SmallVector<int64_t> cShape;
  for (AffineExpr expr : cMap.getResults())
    cShape.push_back(ranges[cast<AffineDimExpr>(expr).getPosition()]);
  bool fp8 = isDeviceFp8(inputElement);
  Type productElement = fp8 ? Type(rewriter.getF16Type()) : inputElement;
  auto cType = RankedTensorType::get(cShape, productElement);
  SmallVector<AffineMap> maps = {operands[0].map, operands[1].map, cMap};
  bool batched = cMap.getNumDims() == 4;
  // Leave the default maps implicit, for readability.
  ArrayAttr mapsAttr;
  SmallVector<AffineMap> defaults = spyre::detail::getMatmulIndexingMaps(
      operands[0].tensor.getContext(), batched);
  if (maps != defaults)
    mapsAttr = rewriter.getAffineMapArrayAttr(maps);
  if (batched)
    return BatchMatmulOp::create(rewriter, loc, cType, operands[0].tensor,
                                 operands[1].tensor, mapsAttr)
        .getResult();
  return MatmulOp::create(rewriter, loc, cType, operands[0].tensor,
                          operands[1].tensor, mapsAttr)
      .getResult();
}

/// `product` (C over the op's parallel loops, in loop order) converted to
/// the output's element type, plus the op's init unless it is zero, in the
/// op's output: the op is replaced.
std::optional<Unsupported>
Converter::finishContraction(linalg::LinalgOp op, Value product,
                             RankedTensorType outputType, AffineMap outputMap) {
  Location loc = op.getLoc();
  auto productType = cast<RankedTensorType>(product.getType());
  if (productType.getElementType() != outputType.getElementType())
    product =
        ConvertOp::create(rewriter, loc,
                          RankedTensorType::get(productType.getShape(),
                                                outputType.getElementType()),
                          product);
  OpOperand *init = op.getDpsInitOperand(0);
  std::optional<double> initValue = getSplatValue(init->get());
  if (!(initValue && *initValue == 0.0) &&
      !init->get().getDefiningOp<tensor::EmptyOp>()) {
    std::string why;
    FailureOr<Term> initTerm = inputTerm(op, init, why, /*allowScalar=*/true);
    if (failed(initTerm))
      return Unsupported{why};
    SmallVector<AffineExpr> exprs;
    SmallVector<int64_t> parallel;
    SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
    for (unsigned d = 0; d < op.getNumLoops(); ++d)
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
  ConversionState(MLIRContext *context, UnsupportedOps *unsupported,
                  const LinalgToSpyreOptions &options)
      : table(context), unsupported(unsupported), options(options) {}
  OpTable table;
  UnsupportedOps *unsupported;
  LinalgToSpyreOptions options;

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
  // An op marked for the host (`spyre.on_host`) is converted by no pattern,
  // nor is one on tensors another dialect encodes (sparse tensors: the
  // device holds dense tensors only).
  return isa_and_nonnull<FunctionOpInterface>(op->getParentOp()) &&
         !op->hasAttr(SpyreDialect::kOnHostAttrName) && !hasForeignEncoding(op);
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
    Converter converter(rewriter, state->table, state->options);
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
    Converter converter(rewriter, state->table, state->options);
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
    Converter converter(rewriter, state->table, state->options);
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
    if (!op.hasPureTensorSemantics() || !isTopLevel(op) ||
        cast<ShapedType>(op.getInput().getType()).getRank() > kMaxHostRank ||
        failed(
            getDeviceHostType(getElementTypeOrSelf(op.getInput().getType()))))
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
    if (!reshapeHasDeviceView(op.getSrcType(), op.getResultType().getShape(),
                              getTarget(op).getStickBytes()))
      return state->finish(
          op, rewriter,
          Unsupported{"no device layout makes it a view: it would move "
                      "elements across sticks"});
    rewriter.replaceOpWithNewOp<ReshapeOp>(op, op.getResultType(), op.getSrc());
    return success();
  }
  std::shared_ptr<ConversionState> state;
};

/// A pattern that records why an op stays on the host in the conversion's
/// shared state.
template <typename OpTy> struct StatefulPattern : OpRewritePattern<OpTy> {
  StatefulPattern(MLIRContext *context, std::shared_ptr<ConversionState> state)
      : OpRewritePattern<OpTy>(context), state(std::move(state)) {}
  std::shared_ptr<ConversionState> state;
};

/// Whether a slice op's box and the tensor it is a box of have static
/// shapes, and its offsets, sizes and strides are static with strides 1.
bool isStaticUnitStrideBox(OffsetSizeAndStrideOpInterface op,
                           RankedTensorType whole, RankedTensorType box) {
  return whole.hasStaticShape() && box.hasStaticShape() &&
         op.getOffsets().empty() && op.getSizes().empty() && op.hasUnitStride();
}
constexpr const char *kNotStaticBox =
    "it has dynamic offsets or sizes, or strides other than 1";

/// The elements per stick of `type`'s default layout when the device copies
/// its elements; else the reason it does not.
FailureOr<int64_t> copyableStick(Operation *op, RankedTensorType type,
                                 std::string &reason) {
  llvm::Expected<SpyreTensorLayout> layout = getDefaultLayout(
      withoutLayout(type), std::nullopt, getTarget(op).getStickBytes());
  if (!layout) {
    reason = "its elements have no device layout (" +
             llvm::toString(layout.takeError()) + ")";
    return failure();
  }
  if (!InsertSliceOp::supportsDataFormat(layout->getFormat())) {
    reason = "the device does not copy " +
             stringifyDataFormat(layout->getFormat()).str() + " data";
    return failure();
  }
  return layout->elemsPerStick();
}

/// Why a box written at `offset` of `size` elements of a `total`-element
/// innermost dim cannot be (a reason), or "" when it starts on a whole stick
/// and ends on one or at the end of the dim (or anywhere with `fill`).
std::string innermostBoxProblem(int64_t offset, int64_t size, int64_t total,
                                int64_t eps, bool fill) {
  // One element wide: no dense layout sticks the box on that dim.
  if (size == 1)
    return "the box is one element wide in the innermost dim";
  if (offset % eps != 0)
    return llvm::formatv("the box starts at element {0} of the innermost "
                         "dim, inside a stick of {1} elements",
                         offset, eps)
        .str();
  int64_t end = offset + size;
  if (!fill && end % eps != 0 && end != total)
    return llvm::formatv("the box ends at element {0} of the innermost dim, "
                         "inside a stick of {1} elements",
                         end, eps)
        .str();
  return "";
}

/// A static box with unit strides becomes spyre.extract_slice (then a view
/// dropping the unit dims of a rank-reducing slice) when it can start on a
/// whole stick of the default stick dim (the innermost).
struct ExtractSlicePattern : StatefulPattern<tensor::ExtractSliceOp> {
  using StatefulPattern::StatefulPattern;
  LogicalResult matchAndRewrite(tensor::ExtractSliceOp op,
                                PatternRewriter &rewriter) const override {
    if (!isTopLevel(op))
      return failure();
    RankedTensorType source = op.getSourceType();
    if (!isStaticUnitStrideBox(op, source, op.getType()))
      return state->finish(op, rewriter, Unsupported{kNotStaticBox});
    int64_t stickBytes = getTarget(op).getStickBytes();
    std::string reason;
    FailureOr<int64_t> stick = copyableStick(op, source, reason);
    if (failed(stick))
      return state->finish(op, rewriter, Unsupported{reason});
    ArrayRef<int64_t> offsets = op.getStaticOffsets();
    int64_t eps = *stick;
    // A box read may end anywhere: its padding is never read.
    if (source.getRank() > 0) {
      reason = innermostBoxProblem(offsets.back(), op.getStaticSizes().back(),
                                   source.getShape().back(), eps,
                                   /*fill=*/true);
      if (!reason.empty())
        return state->finish(op, rewriter, Unsupported{reason});
    }
    auto boxType =
        RankedTensorType::get(op.getStaticSizes(), source.getElementType());
    if (boxType != op.getType() &&
        !reshapeHasDeviceView(boxType, op.getType().getShape(), stickBytes))
      return state->finish(
          op, rewriter,
          Unsupported{"dropping its unit dims would move elements across "
                      "sticks"});
    Value box = ExtractSliceOp::create(rewriter, op.getLoc(), boxType,
                                       op.getSource(), offsets);
    if (boxType != op.getType())
      box = ReshapeOp::create(rewriter, op.getLoc(), op.getType(), box);
    rewriter.replaceOp(op, box);
    return success();
  }
};

/// A destination the conversion writes into: a fresh spyre.empty for a
/// tensor.empty (never shared), else the value itself (--spyre-divide-work
/// copies it when something else reads it).
Value convertedDest(PatternRewriter &rewriter, Location loc, Value dest) {
  if (dest.getDefiningOp<tensor::EmptyOp>())
    return EmptyOp::create(rewriter, loc, dest.getType());
  return dest;
}

/// A static box with unit strides written into a tensor becomes
/// spyre.insert_slice (in place) when the box starts and ends on whole
/// sticks of the innermost dim.
struct InsertSlicePattern : StatefulPattern<tensor::InsertSliceOp> {
  using StatefulPattern::StatefulPattern;
  LogicalResult matchAndRewrite(tensor::InsertSliceOp op,
                                PatternRewriter &rewriter) const override {
    if (!isTopLevel(op))
      return failure();
    RankedTensorType dest = op.getDestType();
    if (!isStaticUnitStrideBox(op, dest, op.getSourceType()))
      return state->finish(op, rewriter, Unsupported{kNotStaticBox});
    std::string reason;
    FailureOr<int64_t> eps = copyableStick(op, dest, reason);
    if (failed(eps))
      return state->finish(op, rewriter, Unsupported{reason});
    ArrayRef<int64_t> offsets = op.getStaticOffsets();
    ArrayRef<int64_t> sizes = op.getStaticSizes();
    if (dest.getRank() > 0) {
      reason = innermostBoxProblem(offsets.back(), sizes.back(),
                                   dest.getShape().back(), *eps, false);
      if (!reason.empty())
        return state->finish(op, rewriter, Unsupported{reason});
    }
    auto boxType = RankedTensorType::get(sizes, dest.getElementType());
    if (boxType != op.getSourceType() &&
        !reshapeHasDeviceView(op.getSourceType(), sizes,
                              getTarget(op).getStickBytes()))
      return state->finish(
          op, rewriter,
          Unsupported{"adding its unit dims would move elements across "
                      "sticks"});
    Value source = op.getSource();
    if (boxType != op.getSourceType())
      source = ReshapeOp::create(rewriter, op.getLoc(), boxType, source);
    rewriter.replaceOpWithNewOp<InsertSliceOp>(
        op, dest, source, convertedDest(rewriter, op.getLoc(), op.getDest()),
        offsets, nullptr);
    return success();
  }
};

/// tensor.concat: each input written into its box of one spyre.empty, as
/// torch-spyre lowers aten.cat.
struct ConcatPattern : StatefulPattern<tensor::ConcatOp> {
  using StatefulPattern::StatefulPattern;
  LogicalResult matchAndRewrite(tensor::ConcatOp op,
                                PatternRewriter &rewriter) const override {
    if (!isTopLevel(op))
      return failure();
    RankedTensorType type = op.getResultType();
    if (!type.hasStaticShape() || llvm::any_of(op.getInputs(), [](Value v) {
          return !cast<RankedTensorType>(v.getType()).hasStaticShape();
        }))
      return state->finish(op, rewriter, Unsupported{"it has dynamic shapes"});
    std::string reason;
    FailureOr<int64_t> eps = copyableStick(op, type, reason);
    if (failed(eps))
      return state->finish(op, rewriter, Unsupported{reason});
    int64_t dim = static_cast<int64_t>(op.getDim());
    bool innermost = dim + 1 == type.getRank();
    int64_t at = 0;
    for (Value input : op.getInputs()) {
      int64_t size = cast<RankedTensorType>(input.getType()).getDimSize(dim);
      if (innermost) {
        reason =
            innermostBoxProblem(at, size, type.getDimSize(dim), *eps, false);
        if (!reason.empty())
          return state->finish(op, rewriter,
                               Unsupported{"input at element " +
                                           std::to_string(at) + ": " + reason});
      }
      at += size;
    }
    Value buffer = EmptyOp::create(rewriter, op.getLoc(), type);
    at = 0;
    for (Value input : op.getInputs()) {
      SmallVector<int64_t> offsets(type.getRank(), 0);
      offsets[dim] = at;
      buffer = InsertSliceOp::create(rewriter, op.getLoc(), type, input, buffer,
                                     offsets, nullptr);
      at += cast<RankedTensorType>(input.getType()).getDimSize(dim);
    }
    rewriter.replaceOp(op, buffer);
    return success();
  }
};

/// tensor.pad with a constant: the padded shape filled with the value on
/// the device, the input written into its box (the box's last stick may
/// end inside the padding, which holds the value already).
struct PadPattern : StatefulPattern<tensor::PadOp> {
  using StatefulPattern::StatefulPattern;
  LogicalResult matchAndRewrite(tensor::PadOp op,
                                PatternRewriter &rewriter) const override {
    if (!isTopLevel(op))
      return failure();
    RankedTensorType type = op.getResultType();
    if (!type.hasStaticShape() || !op.getSourceType().hasStaticShape() ||
        !op.getLow().empty() || !op.getHigh().empty())
      return state->finish(op, rewriter,
                           Unsupported{"it has dynamic shapes or padding"});
    FloatAttr value;
    Value padding = op.getConstantPaddingValue();
    if (!padding || !matchPattern(padding, m_Constant(&value)))
      return state->finish(op, rewriter,
                           Unsupported{"it pads with a value that is not a "
                                       "float constant"});
    // The fill is written as a value of the device format: a float type
    // held in another kind of format (E8M0 scales as bytes) keeps its pad
    // on the host.
    FailureOr<HostType> host = getDeviceHostType(type.getElementType());
    if (failed(host) || !isFloatingPoint(deviceFormatFor(*host)))
      return state->finish(
          op, rewriter,
          Unsupported{"its element type " + str(type.getElementType()) +
                      " is not held in a float format on the device"});
    std::string reason;
    FailureOr<int64_t> eps = copyableStick(op, type, reason);
    if (failed(eps))
      return state->finish(op, rewriter, Unsupported{reason});
    ArrayRef<int64_t> low = op.getStaticLow();
    if (type.getRank() > 0) {
      reason =
          innermostBoxProblem(low.back(), op.getSourceType().getShape().back(),
                              type.getShape().back(), *eps, true);
      if (!reason.empty())
        return state->finish(op, rewriter, Unsupported{reason});
    }
    Location loc = op.getLoc();
    Type element = type.getElementType();
    auto scalarType = RankedTensorType::get({}, element);
    Value scalar = spyre::ConstantOp::create(
        rewriter, loc, scalarType,
        DenseElementsAttr::get(
            scalarType,
            rewriter.getFloatAttr(element, value.getValueAsDouble())));
    Value filled =
        IdentityOp::create(rewriter, loc, type, ValueRange{scalar}, nullptr);
    rewriter.replaceOpWithNewOp<InsertSliceOp>(
        op, type, op.getSource(), filled, low,
        rewriter.getF64FloatAttr(value.getValueAsDouble()));
    return success();
  }
};

/// `bufferization.materialize_in_destination %v in %dest` on tensors (how
/// tpp-mlir and IREE write a result into an output argument) is `%v` as a
/// value: the write into the destination's buffer is not observable once the
/// program has value semantics, and the device returns its results.
struct MaterializeInDestinationPattern
    : OpRewritePattern<bufferization::MaterializeInDestinationOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(bufferization::MaterializeInDestinationOp op,
                                PatternRewriter &rewriter) const override {
    if (!isTopLevel(op) || op->getNumResults() != 1 ||
        !isa<RankedTensorType>(op.getDest().getType()) ||
        op.getSource().getType() != op->getResult(0).getType())
      return failure();
    rewriter.replaceOp(op, op.getSource());
    return success();
  }
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
      if ((isa<SpyreDialect>(use.getOwner()->getDialect()) &&
           !isa<QuantizeOp, DequantizeOp>(use.getOwner())) ||
          isa<func::ReturnOp>(use.getOwner()))
        uses.push_back(&use);
    if (uses.empty())
      return failure(); // read by host ops only: their remarks explain
    auto type = dyn_cast<RankedTensorType>(value.getType());
    if (!type)
      return failure(); // a scalar constant of a body
    // Stored parts of a quantized weight (int8 codes, fp8 or E8M0 scales)
    // travel to the device as they are, like an argument's.
    if (!isSupportedFloat(type.getElementType()) &&
        llvm::all_of(uses, [](OpOperand *use) {
          return isa<ScaledMatmulOp>(use->getOwner());
        }))
      return failure();
    DenseElementsAttr dense;
    std::string why;
    if (!type.hasStaticShape()) {
      why = "it has a dynamic shape";
    } else if (!isSupportedFloat(type.getElementType())) {
      why = "device constants hold f16, bf16 or f32 elements, not " +
            str(type.getElementType());
    } else if (auto broadcast = dyn_cast<linalg::BroadcastOp>(op)) {
      // Read directly (returned, reshaped): an identity kernel that reads
      // its input through the broadcast's map.
      auto inputType =
          dyn_cast<RankedTensorType>(broadcast.getInput().getType());
      if (!inputType || !inputType.hasStaticShape() ||
          inputType.getElementType() != type.getElementType())
        return state->finish(op, rewriter,
                             Unsupported{"its input is not a static tensor of "
                                         "its element type"});
      SmallVector<AffineExpr> exprs;
      for (int64_t d = 0; d < type.getRank(); ++d)
        if (!llvm::is_contained(broadcast.getDimensions(), d))
          exprs.push_back(rewriter.getAffineDimExpr(d));
      MLIRContext *context = rewriter.getContext();
      ArrayAttr maps = rewriter.getAffineMapArrayAttr(
          {AffineMap::get(type.getRank(), 0, exprs, context),
           AffineMap::getMultiDimIdentityMap(type.getRank(), context)});
      rewriter.setInsertionPoint(op);
      Value copy = IdentityOp::buildElementwise(rewriter, op->getLoc(), type,
                                                broadcast.getInput(), maps)
                       ->getResult(0);
      for (OpOperand *use : uses)
        rewriter.modifyOpInPlace(use->getOwner(), [&] { use->set(copy); });
      return success();
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

//===----------------------------------------------------------------------===//
// Body preparation: idioms front ends write, in forms the conversion knows
//===----------------------------------------------------------------------===//

/// `select(cmpf(u{gt,ge,lt,le}, x, c), x, c)` with `c` a constant that is
/// not NaN: maximumf / minimumf (torch-mlir's relu and clamp). Both return
/// x when x is NaN, which is why only unordered predicates qualify; ordered
/// ones have device compare and select ops.
struct SelectOfUnorderedCompare : OpRewritePattern<arith::SelectOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::SelectOp select,
                                PatternRewriter &rewriter) const override {
    auto compare = select.getCondition().getDefiningOp<arith::CmpFOp>();
    if (!compare || !compare->hasOneUse() || !isa<FloatType>(select.getType()))
      return failure();
    Value x = select.getTrueValue(), c = select.getFalseValue();
    arith::CmpFPredicate predicate = compare.getPredicate();
    if (compare.getLhs() == c && compare.getRhs() == x)
      predicate = swapped(predicate);
    else if (compare.getLhs() != x || compare.getRhs() != c)
      return failure();
    FloatAttr constant;
    if (!matchPattern(c, m_Constant(&constant)) || constant.getValue().isNaN())
      return failure();
    switch (predicate) {
    case arith::CmpFPredicate::UGT:
    case arith::CmpFPredicate::UGE:
      rewriter.replaceOpWithNewOp<arith::MaximumFOp>(select, x, c);
      return success();
    case arith::CmpFPredicate::ULT:
    case arith::CmpFPredicate::ULE:
      rewriter.replaceOpWithNewOp<arith::MinimumFOp>(select, x, c);
      return success();
    default:
      return failure();
    }
  }
  static arith::CmpFPredicate swapped(arith::CmpFPredicate p) {
    using P = arith::CmpFPredicate;
    switch (p) {
    case P::UGT:
      return P::ULT;
    case P::UGE:
      return P::ULE;
    case P::ULT:
      return P::UGT;
    case P::ULE:
      return P::UGE;
    default:
      return P::AlwaysFalse;
    }
  }
};

/// `truncf` of a float constant (an f64 literal narrowed to the element
/// type, as torch-mlir writes scalars): the constant, rounded as truncf
/// rounds (to nearest even, or the op's rounding mode). Upstream folds only
/// exact narrowings.
struct TruncFOfConstant : OpRewritePattern<arith::TruncFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::TruncFOp op,
                                PatternRewriter &rewriter) const override {
    FloatAttr constant;
    auto type = dyn_cast<FloatType>(op.getType());
    if (!type || !matchPattern(op.getIn(), m_Constant(&constant)))
      return failure();
    llvm::RoundingMode mode = llvm::RoundingMode::NearestTiesToEven;
    if (std::optional<arith::RoundingMode> rounding = op.getRoundingmode()) {
      switch (*rounding) {
      case arith::RoundingMode::to_nearest_even:
        break;
      case arith::RoundingMode::downward:
        mode = llvm::RoundingMode::TowardNegative;
        break;
      case arith::RoundingMode::upward:
        mode = llvm::RoundingMode::TowardPositive;
        break;
      case arith::RoundingMode::toward_zero:
        mode = llvm::RoundingMode::TowardZero;
        break;
      case arith::RoundingMode::to_nearest_away:
        mode = llvm::RoundingMode::NearestTiesToAway;
        break;
      }
    }
    APFloat value = constant.getValue();
    bool losesInfo = false;
    value.convert(type.getFloatSemantics(), mode, &losesInfo);
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(
        op, type, rewriter.getFloatAttr(type, value));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Activation idioms on converted ops
//===----------------------------------------------------------------------===//

/// `v` computed by an op of type OpTy over tensors of `v`'s own shape (no
/// broadcast operands), used only once.
template <typename OpTy> OpTy definedElementwise(Value v) {
  auto op = v.getDefiningOp<OpTy>();
  if (!op || !v.hasOneUse() || op.getIndexingMaps())
    return nullptr;
  for (Value input : op->getOperands())
    if (input.getType() != v.getType())
      return nullptr;
  return op;
}

/// `1 + exp(-x)` (either operand order of the add): returns x.
Value onePlusExpNeg(Value v) {
  auto add = v.getDefiningOp<AddOp>();
  if (!add || !v.hasOneUse() || add.getIndexingMaps() ||
      add->getNumOperands() != 2)
    return nullptr;
  for (unsigned i = 0; i < 2; ++i) {
    std::optional<double> one = getSplatValue(add->getOperand(1 - i));
    if (!one || *one != 1.0)
      continue;
    auto exp = definedElementwise<ExpOp>(add->getOperand(i));
    if (!exp || exp->getOperand(0).getType() != v.getType())
      continue;
    if (auto neg = definedElementwise<NegOp>(exp->getOperand(0)))
      return neg->getOperand(0);
  }
  return nullptr;
}

/// A linalg.generic that reads an operand dim through a linear combination
/// of loops that enumerates it exactly - `d3 * 32 + d4 * 2 + d5` over a dim
/// of 128 * 32 with d3 < 128, d4 < 16, d5 < 2: each loop's coefficient is
/// the product of the ranges of the loops with smaller coefficients (the
/// smallest is 1), and the largest coefficient times its range is the dim -
/// as VNNI-packed contractions (graph-compiler, tpp-mlir) read a K dim split
/// into blocks - reads that dim expanded into one dim per loop
/// (`tensor.expand_shape`, a view), with the loops as plain map results.
/// An output expanded so has its result collapsed back. The generic then has
/// projected-permutation maps the conversion takes.
struct DelinearizeIndexing : OpRewritePattern<linalg::GenericOp> {
  DelinearizeIndexing(MLIRContext *context)
      : OpRewritePattern(context, /*benefit=*/4) {}

  /// The loops of `expr`, largest coefficient first, when it enumerates a
  /// dim of `size` exactly over `ranges`.
  static std::optional<SmallVector<unsigned>>
  delinearized(AffineExpr expr, int64_t size, ArrayRef<int64_t> ranges) {
    if (!isa<AffineBinaryOpExpr>(expr) || expr.getKind() != AffineExprKind::Add)
      return std::nullopt;
    // sum of coefficient * loop terms, each loop once.
    SmallVector<std::pair<int64_t, unsigned>> terms;
    SmallVector<AffineExpr> worklist = {expr};
    while (!worklist.empty()) {
      AffineExpr e = worklist.pop_back_val();
      if (e.getKind() == AffineExprKind::Add) {
        auto add = cast<AffineBinaryOpExpr>(e);
        worklist.push_back(add.getLHS());
        worklist.push_back(add.getRHS());
        continue;
      }
      int64_t coefficient = 1;
      if (e.getKind() == AffineExprKind::Mul) {
        auto mul = cast<AffineBinaryOpExpr>(e);
        AffineExpr lhs = mul.getLHS(), rhs = mul.getRHS();
        if (isa<AffineConstantExpr>(lhs))
          std::swap(lhs, rhs);
        auto constant = dyn_cast<AffineConstantExpr>(rhs);
        if (!constant || constant.getValue() <= 0)
          return std::nullopt;
        coefficient = constant.getValue();
        e = lhs;
      }
      auto dim = dyn_cast<AffineDimExpr>(e);
      if (!dim)
        return std::nullopt;
      terms.push_back({coefficient, dim.getPosition()});
    }
    llvm::sort(terms, [](auto a, auto b) { return a.first > b.first; });
    int64_t expected = 1;
    SmallVector<unsigned> loops;
    for (auto [coefficient, loop] : llvm::reverse(terms)) {
      int64_t range = ranges[loop];
      if (coefficient != expected || ShapedType::isDynamic(range) ||
          range <= 0 || llvm::is_contained(loops, loop))
        return std::nullopt;
      expected *= range;
      loops.push_back(loop);
    }
    if (expected != size)
      return std::nullopt;
    std::reverse(loops.begin(), loops.end());
    return loops;
  }

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (!isTopLevel(op) || !op.hasPureTensorSemantics())
      return failure();
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    MLIRContext *context = op.getContext();
    Location loc = op.getLoc();
    // Per operand: its map with each combination replaced by its loops, and
    // the expanded shape (groups of the original dims), if any.
    struct Expansion {
      AffineMap map;
      SmallVector<int64_t> shape;
      SmallVector<ReassociationIndices> groups;
      bool expanded = false;
    };
    SmallVector<Expansion> expansions;
    for (OpOperand &operand : op->getOpOperands()) {
      AffineMap map = op.getMatchingIndexingMap(&operand);
      auto type = dyn_cast<RankedTensorType>(operand.get().getType());
      Expansion &expansion = expansions.emplace_back();
      SmallVector<AffineExpr> results;
      for (auto [i, expr] : llvm::enumerate(map.getResults())) {
        std::optional<SmallVector<unsigned>> loops;
        if (type && !type.isDynamicDim(i))
          loops = delinearized(expr, type.getDimSize(i), ranges);
        ReassociationIndices &group = expansion.groups.emplace_back();
        if (!loops) {
          group.push_back(expansion.shape.size());
          results.push_back(expr);
          expansion.shape.push_back(type ? type.getDimSize(i) : 0);
          continue;
        }
        expansion.expanded = true;
        for (unsigned loop : *loops) {
          group.push_back(expansion.shape.size());
          results.push_back(getAffineDimExpr(loop, context));
          expansion.shape.push_back(ranges[loop]);
        }
      }
      expansion.map = AffineMap::get(map.getNumDims(), map.getNumSymbols(),
                                     results, context);
    }
    if (llvm::none_of(expansions,
                      [](const Expansion &e) { return e.expanded; }))
      return rewriter.notifyMatchFailure(op, "no linear combination of loops");
    // Only where that leaves maps the conversion takes: otherwise the views
    // would surround a generic that stays on the host anyway.
    if (!llvm::all_of(expansions, [](const Expansion &e) {
          return e.map.isProjectedPermutation(/*allowZeroInResults=*/true);
        }))
      return rewriter.notifyMatchFailure(op, "other expressions remain");
    SmallVector<Value> operands;
    SmallVector<AffineMap> maps;
    SmallVector<SmallVector<ReassociationIndices>> outputGroups;
    for (auto [operand, expansion] :
         llvm::zip(op->getOpOperands(), expansions)) {
      Value value = operand.get();
      maps.push_back(expansion.map);
      if (op.isDpsInit(&operand))
        outputGroups.push_back(expansion.expanded
                                   ? expansion.groups
                                   : SmallVector<ReassociationIndices>());
      if (expansion.expanded) {
        Type element = cast<RankedTensorType>(value.getType()).getElementType();
        // An output filled with a value is filled expanded (so that the
        // contraction still sees its zero accumulator).
        auto fill = value.getDefiningOp<linalg::FillOp>();
        if (fill && op.isDpsInit(&operand))
          value = linalg::FillOp::create(
                      rewriter, loc, fill.value(),
                      tensor::EmptyOp::create(rewriter, loc, expansion.shape,
                                              element)
                          .getResult())
                      .getResult(0);
        else
          value = tensor::ExpandShapeOp::create(
              rewriter, loc, RankedTensorType::get(expansion.shape, element),
              value, expansion.groups);
      }
      operands.push_back(value);
    }
    unsigned numInputs = op.getNumDpsInputs();
    ValueRange all(operands);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, all.drop_front(numInputs).getTypes(),
        all.take_front(numInputs), all.drop_front(numInputs), maps,
        op.getIteratorTypesArray());
    rewriter.inlineRegionBefore(op.getRegion(), generic.getRegion(),
                                generic.getRegion().begin());
    // Attributes other than the structure (front ends' tuning hints).
    for (NamedAttribute attr : op->getDiscardableAttrs())
      generic->setAttr(attr.getName(), attr.getValue());
    SmallVector<Value> results;
    for (auto [result, groups, original] :
         llvm::zip(generic.getResults(), outputGroups, op.getResults())) {
      if (groups.empty()) {
        results.push_back(result);
        continue;
      }
      results.push_back(tensor::CollapseShapeOp::create(
          rewriter, loc, original.getType(), result, groups));
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// The #spyre.quant of a compressed scheme with the library's defaults for
/// the rest (the last dim scaled, its tiles, no sparsity or codebook).
QuantAttr quantScheme(MLIRContext *context, quant::Format format,
                      quant::Scaling scaling,
                      std::optional<quant::ScaleType> scaleType, bool zeroPoint,
                      std::optional<quant::ScaleType> zeroType = std::nullopt,
                      bool saturate = true) {
  quant::QuantSpec defaults;
  return QuantAttr::get(
      context, format, scaling, quant::CastMode::Compressed, defaults.axis,
      defaults.tile, defaults.axis2, defaults.tile2, scaleType,
      /*multiscale=*/false, zeroPoint, /*sparsity=*/0, /*codebook=*/nullptr,
      /*subtile=*/0, /*mappings=*/nullptr, zeroType, saturate);
}

/// A linalg.generic that dequantizes int8 with arith ops, as front ends
/// write it (torch-mlir's `aten.dequantize` of a per-tensor or per-channel
/// quantized tensor): over [N, K], `(sitofp(q) - zero) * scale` (the zero
/// optional, the product either way round, computed in the result's type
/// or in f32 and rounded to it), q an i8 input read as it is, scale and
/// zero either constants (one for the tensor) or inputs indexed by the row
/// alone (one per output channel, [N] or [N, 1]), read by a matmul, becomes
/// (torch-mlir's current form, `sitofp(extsi(q) - zero)` in i32, too)
/// `spyre.dequantize` of the int8 scheme that says the same, so that the
/// matmul multiplies the stored int8 (the scaled matmul). The values are
/// the same: |q - zero| <= 255 and the conversions are exact, so both round
/// once, the product. Zero points must be int8 (a constant with an integral
/// value in range, or an i8 input); anything else is left as it is.
struct DequantizeIdiom : OpRewritePattern<linalg::GenericOp> {
  DequantizeIdiom(MLIRContext *context)
      : OpRewritePattern(context, /*benefit=*/3) {}

  /// Where a body value comes from: an input (its operand number) or a
  /// constant.
  struct Source {
    OpOperand *input = nullptr;
    std::optional<double> constant;
  };

  /// What a generic yields, seen through a rounding of an f32 value to the
  /// result's type (to nearest even, as spyre.dequantize rounds); nullopt
  /// for any other truncation.
  static std::optional<Value> valueBeforeRounding(linalg::GenericOp op) {
    Value v = op.getBody()->getTerminator()->getOperand(0);
    if (auto trunc = v.getDefiningOp<arith::TruncFOp>()) {
      if (trunc.getRoundingmodeAttr() || !trunc.getIn().getType().isF32())
        return std::nullopt;
      return trunc.getIn();
    }
    return v;
  }

  static bool feedsContraction(Value value) {
    for (Operation *user : value.getUsers()) {
      // Through a transpose (torch-mlir's linear layer) or a reshape (a
      // grouped weight [N, G, T] read as [N, K]).
      if (isa<linalg::TransposeOp, tensor::CollapseShapeOp,
              tensor::ExpandShapeOp>(user)) {
        if (feedsContraction(user->getResult(0)))
          return true;
        continue;
      }
      auto linalgOp = dyn_cast<linalg::LinalgOp>(user);
      if (linalgOp && linalg::isaContractionOpInterface(linalgOp))
        return true;
    }
    return false;
  }

  static std::optional<Source> sourceOf(linalg::GenericOp op, Value value) {
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      if (arg.getOwner() != op.getBody() ||
          arg.getArgNumber() >= op.getNumDpsInputs())
        return std::nullopt;
      OpOperand *input = op.getDpsInputOperand(arg.getArgNumber());
      // A 0-d constant input (a captured scalar) is a constant.
      DenseElementsAttr dense;
      if (matchPattern(input->get(), m_Constant(&dense)) && dense.isSplat()) {
        Type element = dense.getElementType();
        if (isa<FloatType>(element))
          return Source{nullptr,
                        dense.getSplatValue<APFloat>().convertToDouble()};
        if (isa<IntegerType>(element))
          return Source{
              nullptr,
              static_cast<double>(dense.getSplatValue<APInt>().getSExtValue())};
      }
      return Source{input, std::nullopt};
    }
    if (value.getParentRegion()->isAncestor(&op.getRegion()) &&
        value.getParentRegion() != &op.getRegion()) {
      FloatAttr f;
      IntegerAttr i;
      if (matchPattern(value, m_Constant(&f)))
        return Source{nullptr, f.getValueAsDouble()};
      if (matchPattern(value, m_Constant(&i)))
        return Source{nullptr, static_cast<double>(i.getInt())};
    }
    return std::nullopt;
  }

  /// The result of a top-level elementwise generic with one result, as
  /// the dequantization idioms are; null for any other op.
  static RankedTensorType elementwiseResult(linalg::GenericOp op) {
    if (!isTopLevel(op) || op.getNumResults() != 1 ||
        op.getNumReductionLoops() != 0 || !op.hasPureTensorSemantics())
      return {};
    return cast<RankedTensorType>(op.getResult(0).getType());
  }

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    auto resultType = elementwiseResult(op);
    if (!resultType)
      return failure();
    Type element = resultType.getElementType();
    if (resultType.getRank() != 2 || !resultType.hasStaticShape() ||
        !(element.isF16() || element.isBF16() || element.isF32()) ||
        op.getIndexingMapsArray().back() != rewriter.getMultiDimIdentityMap(2))
      return failure();
    // A dequantize only where a matmul reads it (through a transpose, as
    // torch-mlir's linear layer): elsewhere it would run on the host as the
    // generic does, with its companions moved about for nothing.
    if (!feedsContraction(op.getResult(0)))
      return failure();
    // Walk the body back from the yield: the product in the result's type,
    // or in f32 rounded to it (to nearest even, as the dequantize rounds).
    std::optional<Value> v = valueBeforeRounding(op);
    if (!v)
      return failure();
    auto mul = v->getDefiningOp<arith::MulFOp>();
    if (!mul)
      return failure();
    Type computeType = mul.getType();
    if (!(computeType.isF16() || computeType.isBF16() || computeType.isF32()))
      return failure();
    for (unsigned side = 0; side < 2; ++side) {
      std::optional<Source> scale = sourceOf(op, mul->getOperand(side));
      if (!scale)
        continue;
      Value rest = mul->getOperand(1 - side);
      std::optional<Source> zero;
      if (auto sub = rest.getDefiningOp<arith::SubFOp>()) {
        Value z = sub.getRhs();
        if (auto toFloat = z.getDefiningOp<arith::SIToFPOp>())
          z = toFloat.getIn();
        zero = sourceOf(op, z);
        if (!zero)
          return failure();
        rest = sub.getLhs();
      }
      auto toFloat = rest.getDefiningOp<arith::SIToFPOp>();
      if (!toFloat)
        return failure();
      Value q = toFloat.getIn();
      // torch-mlir's current form subtracts in integers:
      // sitofp(extsi(q) - trunci(zero)), exact as |q - zero| <= 255.
      if (auto subi = q.getDefiningOp<arith::SubIOp>(); subi && !zero) {
        Value z = subi.getRhs();
        while (
            isa_and_nonnull<arith::TruncIOp, arith::ExtSIOp>(z.getDefiningOp()))
          z = z.getDefiningOp()->getOperand(0);
        zero = sourceOf(op, z);
        if (!zero || subi.getType().getIntOrFloatBitWidth() < 16)
          return failure();
        q = subi.getLhs();
      }
      if (auto ext = q.getDefiningOp<arith::ExtSIOp>())
        q = ext.getIn();
      std::optional<Source> data = sourceOf(op, q);
      if (!data || !data->input || !q.getType().isInteger(8) ||
          op.getMatchingIndexingMap(data->input) !=
              rewriter.getMultiDimIdentityMap(2))
        return failure();
      return rewrite(op, rewriter, data->input->get(), *scale, zero,
                     computeType);
    }
    return failure();
  }

  LogicalResult rewrite(linalg::GenericOp op, PatternRewriter &rewriter,
                        Value data, const Source &scale,
                        const std::optional<Source> &zero,
                        Type computeType) const {
    Location loc = op.getLoc();
    MLIRContext *context = op.getContext();
    auto resultType = cast<RankedTensorType>(op.getResult(0).getType());
    int64_t rows = resultType.getDimSize(0);
    // The data exactly [N, K] x i8; companion inputs [N] or [N, 1].
    if (data.getType() !=
        RankedTensorType::get(resultType.getShape(), rewriter.getI8Type()))
      return failure();
    auto companionFits = [&](const Source &source) {
      if (!source.input)
        return true;
      auto type = cast<RankedTensorType>(source.input->get().getType());
      return type.hasStaticShape() && type.getDimSize(0) == rows &&
             (type.getRank() == 1 ||
              (type.getRank() == 2 && type.getDimSize(1) == 1));
    };
    if (!companionFits(scale) || (zero && !companionFits(*zero)))
      return failure();
    std::optional<quant::ScaleType> scaleType;
    if (computeType.isF16())
      scaleType = quant::ScaleType::Float16;
    else if (computeType.isBF16())
      scaleType = quant::ScaleType::BFloat16;
    // The scaling: a constant is the tensor's; an input indexed by the row
    // alone, a channel's.
    auto perRow = [&](const Source &source) {
      if (!source.input)
        return true;
      AffineMap map = op.getMatchingIndexingMap(source.input);
      AffineExpr row = rewriter.getAffineDimExpr(0);
      AffineExpr zeroExpr = rewriter.getAffineConstantExpr(0);
      return map == AffineMap::get(2, 0, {row}, context) ||
             map == AffineMap::get(2, 0, {row, zeroExpr}, context);
    };
    bool channel = scale.input || (zero && zero->input);
    if (!perRow(scale) || (zero && !perRow(*zero)))
      return failure();
    if (zero && zero->constant &&
        (*zero->constant != std::round(*zero->constant) ||
         *zero->constant < -128 || *zero->constant > 127))
      return failure();
    if (zero && zero->input &&
        !getElementTypeOrSelf(zero->input->get().getType()).isInteger(8))
      return failure();
    if (scale.input &&
        getElementTypeOrSelf(scale.input->get().getType()) != computeType)
      return failure();
    // Each companion as the scheme stores it: [N, 1] per channel, [1, 1]
    // for the tensor.
    int64_t shapeRows = channel ? rows : 1;
    auto part = [&](const Source &source, Type type) -> Value {
      auto partType = RankedTensorType::get({shapeRows, 1}, type);
      if (source.input) {
        Value value = source.input->get();
        if (cast<RankedTensorType>(value.getType()).getRank() == 2)
          return value;
        return tensor::ExpandShapeOp::create(
            rewriter, loc, partType, value,
            ArrayRef<ReassociationIndices>{{0, 1}});
      }
      Attribute attr =
          isa<FloatType>(type)
              ? Attribute(rewriter.getFloatAttr(type, *source.constant))
              : Attribute(rewriter.getIntegerAttr(
                    type, static_cast<int64_t>(*source.constant)));
      return arith::ConstantOp::create(rewriter, loc,
                                       DenseElementsAttr::get(partType, attr));
    };
    SmallVector<Value> parts = {data, part(scale, computeType)};
    if (zero)
      parts.push_back(part(*zero, rewriter.getI8Type()));
    auto quantAttr = quantScheme(
        context, quant::Format::Int8,
        channel ? quant::Scaling::Channel : quant::Scaling::Tensor, scaleType,
        /*zeroPoint=*/zero.has_value());
    rewriter.replaceOpWithNewOp<DequantizeOp>(op, resultType, parts, quantAttr);
    return success();
  }
};

/// IREE's (and SHARK's) dequantization of grouped 4-bit weights: over
/// [N, G, T] (or [N, K], one group a row), `(uitofp(extui q) - zero) *
/// scale` in the result's type (f16 or bf16), q an i4 input read as it is
/// (or an i8 one, unsigned: uint8, its bytes the data as they are),
/// scale and zero inputs indexed by the row and group alone ([N, G] or
/// [N, G, 1]), the zero optional for signed codes (`sitofp(extsi q)`), the
/// product either way round, read by a contraction. It becomes
/// `spyre.dequantize` of uint4 (int4) with tiles of T along K = G * T (one
/// group: a scale per channel) and float zero points of the zero's type,
/// reading the codes packed two a byte, so that the matmul reads 4 bits a
/// weight and its scales. The packing of an i4 argument is a host op (a
/// real runtime packs during the upload, as it stickifies).
struct GroupedInt4DequantizeIdiom : OpRewritePattern<linalg::GenericOp> {
  GroupedInt4DequantizeIdiom(MLIRContext *context)
      : OpRewritePattern(context, /*benefit=*/3) {}

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    auto resultType = DequantizeIdiom::elementwiseResult(op);
    if (!resultType)
      return failure();
    Type element = resultType.getElementType();
    int64_t rank = resultType.getRank();
    if ((rank != 2 && rank != 3) || !resultType.hasStaticShape() ||
        !(element.isF16() || element.isBF16() || element.isF32()) ||
        op.getIndexingMapsArray().back() !=
            rewriter.getMultiDimIdentityMap(rank) ||
        !DequantizeIdiom::feedsContraction(op.getResult(0)))
      return failure();
    Value v = op.getBody()->getTerminator()->getOperand(0);
    auto mul = v.getDefiningOp<arith::MulFOp>();
    if (!mul || mul.getType() != element)
      return failure();
    for (unsigned side = 0; side < 2; ++side) {
      std::optional<DequantizeIdiom::Source> scale =
          DequantizeIdiom::sourceOf(op, mul->getOperand(side));
      if (!scale || !scale->input)
        continue;
      Value rest = mul->getOperand(1 - side);
      std::optional<DequantizeIdiom::Source> zero;
      if (auto sub = rest.getDefiningOp<arith::SubFOp>()) {
        zero = DequantizeIdiom::sourceOf(op, sub.getRhs());
        if (!zero || !zero->input)
          return failure();
        rest = sub.getLhs();
      }
      Value q;
      bool isUnsigned;
      if (auto u = rest.getDefiningOp<arith::UIToFPOp>()) {
        q = u.getIn();
        isUnsigned = true;
      } else if (auto s = rest.getDefiningOp<arith::SIToFPOp>()) {
        q = s.getIn();
        isUnsigned = false;
      } else {
        return failure();
      }
      if (auto ext = q.getDefiningOp<arith::ExtUIOp>()) {
        q = ext.getIn();
        isUnsigned = true;
      } else if (auto ext = q.getDefiningOp<arith::ExtSIOp>()) {
        if (isUnsigned)
          return failure();
        q = ext.getIn();
      }
      // The codes: an input read as it is (a constant one too, splat or
      // not: it is packed at compile time).
      // i8 codes are bytes as they are: unsigned ones (IREE's `extui` of
      // i8) are uint8 (signed ones are torch-mlir's int8, DequantizeIdiom's).
      auto codes = dyn_cast<BlockArgument>(q);
      if (!codes || codes.getOwner() != op.getBody() ||
          codes.getArgNumber() >= op.getNumDpsInputs() ||
          !(q.getType().isInteger(4) ||
            (q.getType().isInteger(8) && isUnsigned)))
        return failure();
      OpOperand *data = op.getDpsInputOperand(codes.getArgNumber());
      if (op.getMatchingIndexingMap(data) !=
          rewriter.getMultiDimIdentityMap(rank))
        return failure();
      // uint4 holds no negative values: it needs its zero points.
      if (isUnsigned && !zero)
        return failure();
      return rewrite(op, rewriter, data->get(), scale->input,
                     zero ? zero->input : nullptr, isUnsigned);
    }
    return failure();
  }

  /// The scale type of a float element type.
  static std::optional<quant::ScaleType> floatTypeOf(Type type) {
    if (type.isF32())
      return quant::ScaleType::Float32;
    if (type.isF16())
      return quant::ScaleType::Float16;
    if (type.isBF16())
      return quant::ScaleType::BFloat16;
    return std::nullopt;
  }

  /// The weight the generic dequantizes: [N, G, T] (rank 3) or [N, K].
  struct Weight {
    RankedTensorType type;
    Type element;
    int64_t rank, rows, groups, k;
  };
  static Weight weightOf(linalg::GenericOp op) {
    auto type = cast<RankedTensorType>(op.getResult(0).getType());
    int64_t rank = type.getRank(), rows = type.getDimSize(0);
    return {type,
            type.getElementType(),
            rank,
            rows,
            rank == 3 ? type.getDimSize(1) : 1,
            type.getNumElements() / rows};
  }

  LogicalResult rewrite(linalg::GenericOp op, PatternRewriter &rewriter,
                        Value data, OpOperand *scale, OpOperand *zero,
                        bool isUnsigned) const {
    MLIRContext *context = op.getContext();
    Location loc = op.getLoc();
    Weight w = weightOf(op);
    Type element = w.element;
    int64_t rank = w.rank, rows = w.rows, groups = w.groups, k = w.k;
    bool bytes = getElementTypeOrSelf(data.getType()).isInteger(8);
    // Two 4-bit codes a byte along K.
    if (!bytes && k % 2 != 0)
      return failure();
    quant::Format format = bytes        ? quant::Format::UInt8
                           : isUnsigned ? quant::Format::UInt4
                                        : quant::Format::Int4;
    // Scale and zero: one per (row, group), [N, G] or [N, G, 1] (one
    // group: [N] or [N, 1]), read by (n, g) or (n, g, 0).
    SmallVector<AffineExpr> byGroup;
    for (int64_t d = 0; d + 1 < rank; ++d)
      byGroup.push_back(rewriter.getAffineDimExpr(d));
    AffineMap groupMap = AffineMap::get(rank, 0, byGroup, context);
    byGroup.push_back(rewriter.getAffineConstantExpr(0));
    AffineMap unitMap = AffineMap::get(rank, 0, byGroup, context);
    auto companion = [&](OpOperand *operand) -> Value {
      AffineMap map = op.getMatchingIndexingMap(operand);
      if (map != groupMap && map != unitMap)
        return {};
      auto type = cast<RankedTensorType>(operand->get().getType());
      if (!type.hasStaticShape())
        return {};
      // As [N, G].
      auto partType =
          RankedTensorType::get({rows, groups}, type.getElementType());
      if (type.getShape() == partType.getShape())
        return operand->get();
      if (type.getNumElements() != rows * groups)
        return {};
      SmallVector<ReassociationIndices> groupsOf =
          type.getRank() == 1 ? SmallVector<ReassociationIndices>{{0, 1}}
                              : SmallVector<ReassociationIndices>{{0}, {1, 2}};
      if (type.getRank() == 1)
        return tensor::ExpandShapeOp::create(rewriter, loc, partType,
                                             operand->get(), groupsOf);
      return tensor::CollapseShapeOp::create(rewriter, loc, partType,
                                             operand->get(), groupsOf);
    };
    Type scaleElement = getElementTypeOrSelf(scale->get().getType());
    std::optional<quant::ScaleType> zeroType;
    if (zero &&
        !(zeroType = floatTypeOf(getElementTypeOrSelf(zero->get().getType()))))
      return failure();
    if (scaleElement != element)
      return failure();
    Value scaleValue = companion(scale);
    Value zeroValue = zero ? companion(zero) : Value();
    if (!scaleValue || (zero && !zeroValue))
      return failure();
    // Bytes are the data as they are, as [N, K].
    Type i4 = rewriter.getIntegerType(4), i8 = rewriter.getI8Type();
    if (bytes) {
      if (rank == 3)
        data = tensor::CollapseShapeOp::create(
            rewriter, loc, RankedTensorType::get({rows, k}, i8), data,
            ArrayRef<ReassociationIndices>{{0}, {1, 2}});
      return finish(op, rewriter, data, scaleValue, zeroValue, format,
                    zeroType);
    }
    // 4-bit codes as [N, K], then packed two a byte, low first: at compile
    // time for a constant weight, else by a host op.
    auto packedType = RankedTensorType::get({rows, k / 2}, i8);
    DenseIntElementsAttr codes;
    if (matchPattern(data, m_Constant(&codes))) {
      SmallVector<int8_t> bytes(rows * k / 2, 0);
      for (auto [i, code] : llvm::enumerate(codes.getValues<APInt>())) {
        auto nibble = static_cast<uint8_t>(code.getZExtValue() & 0xF);
        bytes[i / 2] = static_cast<int8_t>(static_cast<uint8_t>(bytes[i / 2]) |
                                           (i % 2 ? nibble << 4 : nibble));
      }
      Value packed = arith::ConstantOp::create(
          rewriter, loc,
          DenseElementsAttr::get(packedType, ArrayRef<int8_t>(bytes)));
      return finish(op, rewriter, packed, scaleValue, zeroValue, format,
                    zeroType);
    }
    if (rank == 3)
      data = tensor::CollapseShapeOp::create(
          rewriter, loc, RankedTensorType::get({rows, k}, i4), data,
          ArrayRef<ReassociationIndices>{{0}, {1, 2}});
    Value pairs = tensor::ExpandShapeOp::create(
        rewriter, loc, RankedTensorType::get({rows, k / 2, 2}, i4), data,
        ArrayRef<ReassociationIndices>{{0}, {1, 2}});
    AffineExpr n = rewriter.getAffineDimExpr(0),
               j = rewriter.getAffineDimExpr(1);
    auto lane = [&](int64_t which) {
      return AffineMap::get(2, 0, {n, j, rewriter.getAffineConstantExpr(which)},
                            context);
    };
    Value init =
        tensor::EmptyOp::create(rewriter, loc, packedType.getShape(), i8);
    auto pack = linalg::GenericOp::create(
        rewriter, loc, TypeRange{packedType}, ValueRange{pairs, pairs},
        ValueRange{init},
        ArrayRef<AffineMap>{lane(0), lane(1),
                            rewriter.getMultiDimIdentityMap(2)},
        ArrayRef<utils::IteratorType>{utils::IteratorType::parallel,
                                      utils::IteratorType::parallel},
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value low = arith::ExtUIOp::create(b, l, i8, args[0]);
          Value high = arith::ShLIOp::create(
              b, l, arith::ExtUIOp::create(b, l, i8, args[1]),
              arith::ConstantIntOp::create(b, l, i8, 4));
          linalg::YieldOp::create(
              b, l, ValueRange{arith::OrIOp::create(b, l, low, high)});
        });
    return finish(op, rewriter, pack.getResult(0), scaleValue, zeroValue,
                  format, zeroType);
  }

  /// The dequantize of the codes (packed, or bytes) in `format` with the
  /// scheme the generic's scale and zero say, in the generic's place.
  LogicalResult finish(linalg::GenericOp op, PatternRewriter &rewriter,
                       Value packed, Value scaleValue, Value zeroValue,
                       quant::Format format,
                       std::optional<quant::ScaleType> zeroType) const {
    MLIRContext *context = op.getContext();
    Location loc = op.getLoc();
    Weight w = weightOf(op);
    quant::QuantSpec defaults;
    bool perChannel = w.groups == 1;
    auto quantAttr = QuantAttr::get(
        context, format,
        perChannel ? quant::Scaling::Channel : quant::Scaling::Tile,
        quant::CastMode::Compressed, defaults.axis,
        perChannel ? defaults.tile : w.k / w.groups, defaults.axis2,
        defaults.tile2, floatTypeOf(w.element), /*multiscale=*/false,
        /*zeroPoint=*/static_cast<bool>(zeroValue), /*sparsity=*/0,
        /*codebook=*/nullptr, /*subtile=*/0, /*mappings=*/nullptr, zeroType,
        /*saturate=*/true);
    SmallVector<Value> parts = {packed, scaleValue};
    if (zeroValue)
      parts.push_back(zeroValue);
    Value weight = DequantizeOp::create(
        rewriter, loc, RankedTensorType::get({w.rows, w.k}, w.element), parts,
        quantAttr);
    if (w.rank == 3)
      weight = tensor::ExpandShapeOp::create(
          rewriter, loc, w.type, weight,
          ArrayRef<ReassociationIndices>{{0}, {1, 2}});
    rewriter.replaceOp(op, weight);
    return success();
  }
};

/// A linalg.generic that quantizes to int8 with arith ops as torch-mlir
/// writes `aten.quantize_per_tensor`: over any shape, elementwise,
/// `fptosi(min(max(roundeven(x / scale) + zero, -128), 127))` in f32 (the
/// clamp either way round), scale and zero point constants (through the
/// truncf / sitofp torch-mlir wraps them in), becomes `spyre.quantize` of
/// the int8 scheme with the scale and zero given: the same codes, the
/// quotient rounded to f32 and then to nearest even as the generic does.
/// A quantize of a constant (a weight) folds to the int8 constant; others
/// run on the host as the generic did.
struct QuantizeIdiom : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  /// A constant defined outside the body, seen through the conversions
  /// torch-mlir wraps scalars in, as the f32 value the body computes with.
  static std::optional<double> constantOf(linalg::GenericOp op, Value value) {
    Operation *def = value.getDefiningOp();
    if (isa_and_nonnull<arith::TruncFOp, arith::ExtFOp, arith::SIToFPOp>(def) &&
        def->getResult(0).getType().isF32()) {
      std::optional<double> in = constantOf(op, def->getOperand(0));
      if (!in)
        return std::nullopt;
      return static_cast<double>(static_cast<float>(*in));
    }
    std::optional<DequantizeIdiom::Source> source =
        DequantizeIdiom::sourceOf(op, value);
    if (!source || !source->constant)
      return std::nullopt;
    return source->constant;
  }

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (!isTopLevel(op) || op.getNumResults() != 1 ||
        op.getNumDpsInputs() < 1 || op.getNumReductionLoops() != 0 ||
        !op.hasPureTensorSemantics())
      return failure();
    auto resultType = cast<RankedTensorType>(op.getResult(0).getType());
    if (!resultType.getElementType().isInteger(8) ||
        !resultType.hasStaticShape())
      return failure();
    for (AffineMap map : op.getIndexingMapsArray())
      if (!map.isIdentity())
        return failure();
    Value v = op.getBody()->getTerminator()->getOperand(0);
    auto toInt = v.getDefiningOp<arith::FPToSIOp>();
    if (!toInt || !toInt.getIn().getType().isF32())
      return failure();
    // The clamp to [-128, 127], min and max in either order.
    v = toInt.getIn();
    bool low = false, high = false;
    for (int step = 0; step < 2; ++step) {
      Operation *clamp = v.getDefiningOp();
      if (!isa_and_nonnull<arith::MaximumFOp, arith::MinimumFOp>(clamp))
        return failure();
      bool isMax = isa<arith::MaximumFOp>(clamp);
      std::optional<double> bound;
      Value rest;
      for (unsigned side = 0; side < 2 && !bound; ++side)
        if ((bound = constantOf(op, clamp->getOperand(side))))
          rest = clamp->getOperand(1 - side);
      if (!bound || *bound != (isMax ? -128.0 : 127.0) || (isMax ? low : high))
        return failure();
      (isMax ? low : high) = true;
      v = rest;
    }
    // roundeven(x / scale) + zero.
    auto add = v.getDefiningOp<arith::AddFOp>();
    if (!add)
      return failure();
    std::optional<double> zero;
    arith::DivFOp div;
    for (unsigned side = 0; side < 2 && !div; ++side) {
      auto round = add->getOperand(side).getDefiningOp<math::RoundEvenOp>();
      if (!round || !(zero = constantOf(op, add->getOperand(1 - side))))
        continue;
      div = round.getOperand().getDefiningOp<arith::DivFOp>();
    }
    if (!div || *zero != std::round(*zero) || *zero < -128 || *zero > 127)
      return failure();
    std::optional<double> scale = constantOf(op, div.getRhs());
    auto x = dyn_cast<BlockArgument>(div.getLhs());
    if (!scale || !(*scale > 0) || !std::isfinite(*scale) || !x ||
        x.getOwner() != op.getBody() ||
        x.getArgNumber() >= op.getNumDpsInputs())
      return failure();
    Value input = op.getDpsInputOperand(x.getArgNumber())->get();
    auto inputType = cast<RankedTensorType>(input.getType());
    if (!inputType.getElementType().isF32())
      return failure();

    MLIRContext *context = op.getContext();
    auto quantAttr =
        quantScheme(context, quant::Format::Int8, quant::Scaling::Tensor,
                    /*scaleType=*/std::nullopt, /*zeroPoint=*/true);
    FailureOr<SmallVector<std::pair<StringRef, RankedTensorType>>> parts =
        quantAttr.getPartTypes(inputType, [&] { return op.emitError(); });
    if (failed(parts) || parts->size() != 3 || (*parts)[0].second != resultType)
      return failure();
    Location loc = op.getLoc();
    auto constant = [&](RankedTensorType type, Attribute value) -> Value {
      return arith::ConstantOp::create(rewriter, loc,
                                       DenseElementsAttr::get(type, value));
    };
    Value scales[] = {
        constant((*parts)[1].second,
                 rewriter.getF32FloatAttr(static_cast<float>(*scale))),
        constant((*parts)[2].second,
                 rewriter.getI8IntegerAttr(static_cast<int8_t>(*zero)))};
    rewriter.replaceOpWithNewOp<QuantizeOp>(op, TypeRange{resultType}, input,
                                            scales, quantAttr);
    return success();
  }
};

/// MX fake quantization as MLIR writes it: a linalg.generic computing
/// `scaling_extf(scaling_truncf(x, s), s)` (quantize and dequantize in one
/// body) from an f32 x (or an f16 / bf16 one widened) and E8M0 scales read
/// per block of 32 along the last dim (`(..., d floordiv 32)`), to FP4 or
/// FP6 (formats without infinities or NaN, whose truncation saturates as the
/// quantization library's does) or FP8 (e4m3fn, e5m2: the scheme's
/// `saturate = false`, values overflowing to NaN or infinity as the
/// truncation does), its f32 result optionally rounded to f16 /
/// bf16, read by a matmul, becomes `spyre.quantize` of the MX scheme with
/// those scales given and `spyre.dequantize`: the same values (the quotient
/// in f32, rounded to nearest even; the product exact), and the matmul then
/// multiplies the packed data (a scaled matmul; for a constant weight the
/// quantize folds).
struct MxFakeQuantIdiom : OpRewritePattern<linalg::GenericOp> {
  MxFakeQuantIdiom(MLIRContext *context)
      : OpRewritePattern(context, /*benefit=*/3) {}

  static std::optional<quant::Format> mxFormatOf(Type type) {
    if (isa<Float4E2M1FNType>(type))
      return quant::Format::E2M1FN;
    if (isa<Float6E2M3FNType>(type))
      return quant::Format::E2M3FN;
    if (isa<Float6E3M2FNType>(type))
      return quant::Format::E3M2FN;
    if (isa<Float8E4M3FNType>(type))
      return quant::Format::E4M3FN;
    if (isa<Float8E5M2Type>(type))
      return quant::Format::E5M2;
    return std::nullopt;
  }

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (!isTopLevel(op) || op.getNumResults() != 1 ||
        op.getNumDpsInputs() != 2 || op.getNumReductionLoops() != 0 ||
        !op.hasPureTensorSemantics() ||
        !DequantizeIdiom::feedsContraction(op.getResult(0)))
      return failure();
    auto resultType = cast<RankedTensorType>(op.getResult(0).getType());
    Type element = resultType.getElementType();
    int64_t rank = resultType.getRank();
    if (rank < 1 || !resultType.hasStaticShape() ||
        !(element.isF32() || element.isF16() || element.isBF16()))
      return failure();
    std::optional<Value> v = DequantizeIdiom::valueBeforeRounding(op);
    if (!v)
      return failure();
    auto extend = v->getDefiningOp<arith::ScalingExtFOp>();
    if (!extend || !extend.getType().isF32())
      return failure();
    auto truncate = extend.getIn().getDefiningOp<arith::ScalingTruncFOp>();
    if (!truncate || truncate.getScale() != extend.getScale())
      return failure();
    std::optional<quant::Format> format = mxFormatOf(truncate.getType());
    Value x = truncate.getIn();
    if (auto widen = x.getDefiningOp<arith::ExtFOp>())
      x = widen.getIn();
    auto xArg = dyn_cast<BlockArgument>(x);
    auto scaleArg = dyn_cast<BlockArgument>(truncate.getScale());
    if (!format || !truncate.getIn().getType().isF32() || !xArg || !scaleArg ||
        xArg.getOwner() != op.getBody() ||
        scaleArg.getOwner() != op.getBody() ||
        xArg.getArgNumber() >= op.getNumDpsInputs() ||
        scaleArg.getArgNumber() >= op.getNumDpsInputs() ||
        !isa<Float8E8M0FNUType>(scaleArg.getType()))
      return failure();
    OpOperand *xOperand = op.getDpsInputOperand(xArg.getArgNumber());
    OpOperand *scaleOperand = op.getDpsInputOperand(scaleArg.getArgNumber());
    // x read as it is; the scales per block of 32 along the last dim.
    MLIRContext *context = op.getContext();
    SmallVector<AffineExpr> blocks;
    for (int64_t d = 0; d < rank; ++d)
      blocks.push_back(d + 1 == rank ? rewriter.getAffineDimExpr(d).floorDiv(
                                           quant::kMxBlockSize)
                                     : rewriter.getAffineDimExpr(d));
    AffineMap identity = rewriter.getMultiDimIdentityMap(rank);
    if (op.getMatchingIndexingMap(xOperand) != identity ||
        op.getIndexingMapsArray().back() != identity ||
        op.getMatchingIndexingMap(scaleOperand) !=
            AffineMap::get(rank, 0, blocks, context))
      return failure();
    Value input = xOperand->get();
    auto inputType = cast<RankedTensorType>(input.getType());
    // FP8 keeps the cast's overflow to NaN (infinity for e5m2); FP6 and FP4
    // have neither and saturate, as the library does.
    const quant::FormatInfo &info = quant::getFormatInfo(*format);
    auto quantAttr = quantScheme(
        context, *format, quant::Scaling::MX, /*scaleType=*/std::nullopt,
        /*zeroPoint=*/false, /*zeroType=*/std::nullopt,
        /*saturate=*/!(info.hasNaN || info.hasInfinity));
    FailureOr<SmallVector<std::pair<StringRef, RankedTensorType>>> parts =
        quantAttr.getPartTypes(inputType, [&] { return op.emitError(); });
    Value scales = scaleOperand->get();
    if (failed(parts) || parts->size() != 2 ||
        (*parts)[1].second != scales.getType())
      return failure();
    Location loc = op.getLoc();
    auto quantize =
        QuantizeOp::create(rewriter, loc, TypeRange{(*parts)[0].second}, input,
                           ValueRange{scales}, quantAttr);
    rewriter.replaceOpWithNewOp<DequantizeOp>(
        op, resultType, ValueRange{quantize.getResult(0), scales}, quantAttr);
    return success();
  }
};

/// reciprocal(1 + exp(-x)) -> sigmoid(x); x / (1 + exp(-x)) and
/// x * sigmoid(x) -> silu(x), where the device computes them in the type.
struct ActivationIdioms : RewritePattern {
  ActivationIdioms(MLIRContext *context)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context) {}
  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (op->getNumResults() != 1 || op->getAttr("indexing_maps"))
      return failure();
    Type type = op->getResult(0).getType();
    Type element = getElementTypeOrSelf(type);
    auto supported = [&](StringRef name) {
      return computesOn(name, op->getContext(), element);
    };
    if (isa<ReciprocalOp>(op)) {
      Value x = onePlusExpNeg(op->getOperand(0));
      if (!x || !supported(SigmoidOp::getOperationName()))
        return failure();
      rewriter.replaceOpWithNewOp<SigmoidOp>(op, type, ValueRange{x});
      return success();
    }
    if (isa<DivOp>(op)) {
      Value x = onePlusExpNeg(op->getOperand(1));
      if (!x || x != op->getOperand(0) ||
          !supported(SiluOp::getOperationName()))
        return failure();
      rewriter.replaceOpWithNewOp<SiluOp>(op, type, ValueRange{x});
      return success();
    }
    if (isa<MulOp>(op)) {
      for (unsigned i = 0; i < 2; ++i) {
        auto sigmoid = definedElementwise<SigmoidOp>(op->getOperand(i));
        if (!sigmoid || sigmoid->getOperand(0) != op->getOperand(1 - i) ||
            op->getOperand(1 - i).getType() != type ||
            !supported(SiluOp::getOperationName()))
          continue;
        rewriter.replaceOpWithNewOp<SiluOp>(op, type,
                                            ValueRange{op->getOperand(1 - i)});
        return success();
      }
    }
    return failure();
  }
};

} // namespace

void mlir::spyre::populateSpyreLinalgBodyPreparationPatterns(
    RewritePatternSet &patterns) {
  mlir::populateMathAlgebraicSimplificationPatterns(patterns);
  patterns.add<SelectOfUnorderedCompare, TruncFOfConstant>(
      patterns.getContext());
}

/// A scalar a generic's body reads from a 0-d tensor outside it (what
/// torch-mlir writes for a scalar tensor operand - an alpha, a scale:
/// `tensor.extract %t[]`) becomes an input of the generic, broadcast by the
/// map `(d...) -> ()`, so the body computes on its operands only.
static void capturedScalarsAsInputs(Operation *root) {
  SmallVector<linalg::GenericOp> generics;
  root->walk([&](linalg::GenericOp op) {
    if (op.hasPureTensorSemantics())
      generics.push_back(op);
  });
  for (linalg::GenericOp op : generics) {
    llvm::SetVector<Value> captured;
    op.getRegion().walk([&](Operation *inner) {
      for (Value value : inner->getOperands())
        if (auto extract = value.getDefiningOp<tensor::ExtractOp>())
          if (extract.getIndices().empty() && !op->isAncestor(extract))
            captured.insert(value);
    });
    if (captured.empty())
      continue;
    SmallVector<Value> inputs(op.getDpsInputs());
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    unsigned numInputs = inputs.size();
    Block &body = op.getRegion().front();
    AffineMap broadcast = AffineMap::get(op.getNumLoops(), 0, op.getContext());
    for (auto [i, captive] : llvm::enumerate(captured)) {
      Value value = captive;
      inputs.push_back(value.getDefiningOp<tensor::ExtractOp>().getTensor());
      maps.insert(maps.begin() + numInputs + i, broadcast);
      BlockArgument argument =
          body.insertArgument(numInputs + i, value.getType(), value.getLoc());
      value.replaceUsesWithIf(argument, [&](OpOperand &use) {
        return op->isProperAncestor(use.getOwner());
      });
    }
    OpBuilder builder(op);
    auto generic = linalg::GenericOp::create(
        builder, op.getLoc(), op.getResultTypes(), inputs, op.getDpsInits(),
        maps, op.getIteratorTypesArray());
    generic->setDiscardableAttrs(op->getDiscardableAttrDictionary());
    generic.getRegion().takeBody(op.getRegion());
    op->replaceAllUsesWith(generic->getResults());
    op->erase();
  }
}

void mlir::spyre::prepareLinalgBodies(Operation *root) {
  capturedScalarsAsInputs(root);
  MLIRContext *context = root->getContext();
  RewritePatternSet patterns(context);
  populateSpyreLinalgBodyPreparationPatterns(patterns);
  FrozenRewritePatternSet frozen(std::move(patterns));
  root->walk([&](linalg::LinalgOp op) {
    if (!op.hasPureTensorSemantics())
      return;
    GreedyRewriteConfig config;
    config.setScope(&op->getRegion(0));
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    (void)applyPatternsGreedily(op->getRegion(0), frozen, config);
  });
}

void mlir::spyre::populateSpyreConvertLinalgPatterns(
    RewritePatternSet &patterns, UnsupportedOps *unsupported,
    const LinalgToSpyreOptions &options) {
  MLIRContext *context = patterns.getContext();
  auto state = std::make_shared<ConversionState>(context, unsupported, options);
  patterns.add<ContractionPattern, BodyPattern<false>, BodyPattern<true>,
               SoftmaxPattern, ReshapePattern<tensor::ExpandShapeOp>,
               ReshapePattern<tensor::CollapseShapeOp>, ExtractSlicePattern,
               InsertSlicePattern, ConcatPattern, PadPattern, ConstantPattern>(
      context, state);
  patterns
      .add<TransposePattern, ActivationIdioms, MaterializeInDestinationPattern,
           DequantizeIdiom, GroupedInt4DequantizeIdiom, QuantizeIdiom,
           MxFakeQuantIdiom, DelinearizeIndexing>(context);
}
