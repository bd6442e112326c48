//===- LowerQuantCasts.cpp - --spyre-lower-quant-casts --------------------===//
//
// The quantization casts the device has instructions for become device ops.
// torch-spyre's device converts between DL16 and fp8 (`qfp8ch`,
// `fp8todl16`, its `quantize_fp8_with_scale` and
// `dequantize_fp8_with_scale`) and computes the rest - magnitudes, maxima,
// the scale, the division, the clamp - with ordinary SFP ops; it has no
// instruction for packed 4-bit codes, E8M0 scales, integers' rounding or
// codebooks. So a `spyre.quantize` / `spyre.dequantize` of fp8 (`e4m3fn`,
// `e5m2`) with float scales per tensor, per channel or per tile along one
// dim (whole tiles: the dim is viewed as [tiles, tile]), no zero points,
// sparsity, tensor scale or codebook, becomes:
//
//   quantize:   x (in f32) -> abs -> max over the scaled dims -> / max code
//               = the scale (rounded to its type, 0 for an all-zero slice);
//               x / max(scale, FLT_MIN) -> clamp to the format's range ->
//               DL16 -> fp8 (qfp8ch)
//   dequantize: fp8 -> DL16 (fp8todl16) -> times the scale (in f32 when the
//               scale or the result is f32), rounded to the result type
//
// the scale read through a broadcast indexing map. Every other scheme keeps
// its op, which runs on the host (a scaled matmul reads the rest).
//
//===----------------------------------------------------------------------===//

#include "Spyre/Dialect/Spyre/IR/Spyre.h"
#include "Spyre/Quant/Quant.h"
#include "Spyre/Transforms/Passes.h"
#include "Spyre/Transforms/Utils.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <cfloat>

namespace mlir::spyre {
#define GEN_PASS_DEF_SPYRELOWERQUANTCASTS
#include "Spyre/Transforms/Passes.h.inc"
} // namespace mlir::spyre

using namespace mlir;
using namespace mlir::spyre;

namespace {

/// The parts of a scheme the device computes, or nullopt.
struct DeviceCast {
  /// The data's fp8 type and its largest finite value.
  FloatType format;
  double maxCode;
  /// The shape the casts compute on: the unquantized tensor's, with a tiled
  /// axis split into [tiles, tile] (a view).
  SmallVector<int64_t> workShape;
  /// Per dim of `workShape`: whether the scale spans it (one scale for all
  /// its positions).
  SmallVector<bool> scaledDims;
};

bool isComputeFloat(Type type) {
  return type.isF16() || type.isBF16() || type.isF32();
}

std::optional<DeviceCast>
asDeviceCast(QuantAttr quant, RankedTensorType unquantized, TypeRange parts) {
  quant::QuantSpec spec = quant.getSpec();
  MLIRContext *context = quant.getContext();
  FloatType format;
  if (spec.format == quant::Format::E4M3FN)
    format = Float8E4M3FNType::get(context);
  else if (spec.format == quant::Format::E5M2)
    format = Float8E5M2Type::get(context);
  if (!format ||
      (spec.scaling != quant::Scaling::Tensor &&
       spec.scaling != quant::Scaling::Channel &&
       spec.scaling != quant::Scaling::Tile) ||
      spec.mode == quant::CastMode::Virtual || spec.multiscale ||
      spec.zeroPoint || spec.sparsityPercent || spec.codebook ||
      parts.size() != 2 || !unquantized.hasStaticShape() ||
      !isComputeFloat(unquantized.getElementType()))
    return std::nullopt;
  auto data = dyn_cast<RankedTensorType>(parts[0]);
  auto scale = dyn_cast<RankedTensorType>(parts[1]);
  if (!data || !scale || data.getElementType() != format ||
      data.getShape() != unquantized.getShape() ||
      scale.getRank() != unquantized.getRank() ||
      !isComputeFloat(scale.getElementType()))
    return std::nullopt;
  DeviceCast scheme{format, quant::getFormatInfo(spec.format).maxValue, {}, {}};
  int64_t rank = unquantized.getRank();
  int64_t axis = spec.axis < 0 ? spec.axis + rank : spec.axis;
  for (auto [d, size, scaled] :
       llvm::enumerate(unquantized.getShape(), scale.getShape())) {
    // Tiles along the axis, whole ones only (a partial tile at the edge has
    // a scale of its own that no view gives).
    if (spec.scaling == quant::Scaling::Tile &&
        static_cast<int64_t>(d) == axis && scaled != size && scaled != 1) {
      if (size % spec.tile != 0 || size / spec.tile != scaled)
        return std::nullopt;
      scheme.workShape.append({scaled, spec.tile});
      scheme.scaledDims.append({false, true});
      continue;
    }
    if (scaled != size && scaled != 1)
      return std::nullopt;
    scheme.workShape.push_back(size);
    scheme.scaledDims.push_back(scaled != size);
  }
  return scheme;
}

/// Builds the device ops of one cast.
class CastBuilder {
public:
  CastBuilder(PatternRewriter &rewriter, Location loc, const DeviceCast &scheme)
      : rewriter(rewriter), loc(loc), shape(scheme.workShape),
        f32(rewriter.getF32Type()) {
    for (auto [d, size] : llvm::enumerate(shape))
      if (!scheme.scaledDims[d]) {
        keptShape.push_back(size);
        scaleMapResults.push_back(rewriter.getAffineDimExpr(d));
      }
  }

  /// `value` converted to `element` (the device's `convert`), if it is not.
  Value convert(Value value, Type element) {
    auto type = cast<RankedTensorType>(value.getType());
    if (type.getElementType() == element)
      return value;
    return ConvertOp::create(rewriter, loc, type.clone(element), value);
  }

  /// A 0-d f32 constant.
  Value scalar(double value) {
    return createScalarConstant(rewriter, loc, value, f32);
  }

  /// `OpTy` over the whole tensor, `operands` read through identity maps
  /// or, for 0-d ones, broadcast.
  template <typename OpTy>
  Value elementwise(ArrayRef<int64_t> resultShape, Type element,
                    ValueRange operands) {
    return OpTy::buildElementwise(rewriter, loc,
                                  RankedTensorType::get(resultShape, element),
                                  operands, ArrayAttr())
        ->getResult(0);
  }

  /// `OpTy(whole, scale)` with the scale (kept dims only) broadcast along
  /// the scaled dims.
  template <typename OpTy> Value withScale(Value whole, Value scale) {
    MLIRContext *context = rewriter.getContext();
    unsigned rank = shape.size();
    auto identity = AffineMap::getMultiDimIdentityMap(rank, context);
    auto scaleMap = AffineMap::get(rank, 0, scaleMapResults, context);
    ArrayAttr maps =
        rewriter.getAffineMapArrayAttr({identity, scaleMap, identity});
    auto type = cast<RankedTensorType>(whole.getType());
    return OpTy::buildElementwise(rewriter, loc, type, {whole, scale}, maps)
        ->getResult(0);
  }

  /// `value` viewed with shape `target`, if it has another.
  Value view(Value value, ArrayRef<int64_t> target) {
    auto type = cast<RankedTensorType>(value.getType());
    if (type.getShape() == target)
      return value;
    return ReshapeOp::create(rewriter, loc, type.clone(target), value);
  }
  /// An unquantized-shape tensor in the work shape; the scale (its scaled
  /// dims of size 1) as its kept dims.
  Value toWork(Value value) { return view(value, shape); }
  Value squeezeScale(Value scale) { return view(scale, keptShape); }

  PatternRewriter &rewriter;
  Location loc;
  ArrayRef<int64_t> shape;
  Type f32;
  SmallVector<int64_t> keptShape;
  SmallVector<AffineExpr> scaleMapResults;
};

struct LowerQuantize : OpRewritePattern<QuantizeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(QuantizeOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.getScales().empty())
      return rewriter.notifyMatchFailure(op, "the program gives the scales");
    auto input = cast<RankedTensorType>(op.getInput().getType());
    std::optional<DeviceCast> scheme =
        asDeviceCast(op.getQuant(), input, op->getResultTypes());
    if (!scheme)
      return rewriter.notifyMatchFailure(op, "not a cast the device computes");
    auto scaleType = cast<RankedTensorType>(op->getResult(1).getType());
    CastBuilder b(rewriter, op.getLoc(), *scheme);
    // The scale: the largest magnitude of each slice over the largest code,
    // rounded to the scale's type (16-bit types as the device stores them).
    Value x = b.convert(b.toWork(op.getInput()), b.f32);
    Value magnitude = b.elementwise<AbsOp>(b.shape, b.f32, {x});
    SmallVector<int64_t> reducedShape(b.shape);
    for (int64_t d = static_cast<int64_t>(b.shape.size()) - 1; d >= 0; --d) {
      if (!scheme->scaledDims[d])
        continue;
      reducedShape.erase(reducedShape.begin() + d);
      magnitude = MaxOp::create(rewriter, op.getLoc(),
                                RankedTensorType::get(reducedShape, b.f32),
                                magnitude, d, FloatAttr())
                      .getResult();
    }
    Value scale = b.elementwise<DivOp>(b.keptShape, b.f32,
                                       {magnitude, b.scalar(scheme->maxCode)});
    Value stored = b.convert(scale, scaleType.getElementType());
    Value divisor = b.convert(stored, b.f32);
    // An all-zero slice has scale 0 and codes 0: divide it by the smallest
    // normal instead (every other scale is larger: |x| >= 2^-149).
    divisor = b.elementwise<MaximumOp>(b.keptShape, b.f32,
                                       {divisor, b.scalar(FLT_MIN)});
    Value scaled = b.withScale<DivOp>(x, divisor);
    Value clamped = b.elementwise<MaximumOp>(
        b.shape, b.f32, {scaled, b.scalar(-scheme->maxCode)});
    clamped = b.elementwise<MinimumOp>(b.shape, b.f32,
                                       {clamped, b.scalar(scheme->maxCode)});
    Value data =
        b.convert(b.convert(clamped, rewriter.getF16Type()), scheme->format);
    rewriter.replaceOp(op, {b.view(data, input.getShape()),
                            b.view(stored, scaleType.getShape())});
    return success();
  }
};

struct LowerDequantize : OpRewritePattern<DequantizeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(DequantizeOp op,
                                PatternRewriter &rewriter) const override {
    auto result = cast<RankedTensorType>(op.getType());
    std::optional<DeviceCast> scheme =
        asDeviceCast(op.getQuant(), result, op.getParts().getTypes());
    if (!scheme)
      return rewriter.notifyMatchFailure(op, "not a cast the device computes");
    CastBuilder b(rewriter, op.getLoc(), *scheme);
    Value scale = b.squeezeScale(op.getParts()[1]);
    Type scaleElement = getElementTypeOrSelf(scale.getType());
    // One rounding, of the product: in f32 unless everything is 16-bit.
    Type compute = scaleElement.isF32() || result.getElementType().isF32()
                       ? b.f32
                       : scaleElement;
    Value codes = b.convert(b.toWork(op.getParts()[0]), rewriter.getF16Type());
    Value product = b.withScale<MulOp>(b.convert(codes, compute),
                                       b.convert(scale, compute));
    rewriter.replaceOp(op, b.view(b.convert(product, result.getElementType()),
                                  result.getShape()));
    return success();
  }
};

struct LowerQuantCastsPass
    : mlir::spyre::impl::SpyreLowerQuantCastsBase<LowerQuantCastsPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    RewritePatternSet patterns(context);
    populateSpyreLowerQuantCastsPatterns(patterns);
    GreedyRewriteConfig config;
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    if (failed(
            applyPatternsGreedily(getOperation(), std::move(patterns), config)))
      signalPassFailure();
  }
};

} // namespace

void mlir::spyre::populateSpyreLowerQuantCastsPatterns(
    RewritePatternSet &patterns) {
  patterns.add<LowerQuantize, LowerDequantize>(patterns.getContext());
}
