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
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"

#include <cstring>

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
  auto type = cast<RankedTensorType>(getInput().getType());
  if (getScales().empty())
    return verifyQuantParts(*this, getQuant(), type, getParts().getTypes(),
                            "result");
  FailureOr<SmallVector<std::pair<StringRef, RankedTensorType>>> expected =
      getQuant().getPartTypes(type, [&] { return emitOpError(); });
  if (failed(expected))
    return failure();
  SmallVector<std::pair<StringRef, RankedTensorType>> given, returned;
  for (const auto &part : *expected)
    (quant::GivenScales::holds(part.first) ? given : returned).push_back(part);
  if (given.empty())
    return emitOpError() << getQuant() << " has no scales to give";
  auto check = [&](ArrayRef<std::pair<StringRef, RankedTensorType>> parts,
                   TypeRange got, StringRef role) -> LogicalResult {
    if (got.size() != parts.size()) {
      auto diag = emitOpError("expects ")
                  << parts.size() << " " << role << "s (";
      llvm::interleaveComma(parts, diag,
                            [&](const auto &part) { diag << part.first; });
      return diag << ") for " << getQuant() << " with given scales, got "
                  << got.size();
    }
    for (auto [i, part, t] : llvm::enumerate(parts, got))
      if (t != part.second)
        return emitOpError()
               << role << " #" << i << " (" << part.first << ") must be "
               << part.second << " for " << type << ", got " << t;
    return success();
  };
  if (failed(check(given, getScales().getTypes(), "given scale")))
    return failure();
  return check(returned, getParts().getTypes(), "result");
}

/// The elements of a constant as the quantization library's host buffers
/// store them (row-major, little-endian, one or more whole bytes each).
static std::optional<std::vector<uint8_t>> hostBytes(DenseElementsAttr attr) {
  Type element = attr.getElementType();
  unsigned bits = element.getIntOrFloatBitWidth();
  if (bits % 8 != 0 || bits > 64)
    return std::nullopt;
  std::vector<uint8_t> bytes;
  bytes.reserve(attr.getNumElements() * bits / 8);
  auto append = [&](const APInt &value) {
    uint64_t word = value.getZExtValue();
    for (unsigned b = 0; b < bits / 8; ++b)
      bytes.push_back(static_cast<uint8_t>(word >> (8 * b)));
  };
  if (isa<FloatType>(element))
    for (const APFloat &value : attr.getValues<APFloat>())
      append(value.bitcastToAPInt());
  else if (isa<IntegerType>(element))
    for (const APInt &value : attr.getValues<APInt>())
      append(value);
  else
    return std::nullopt;
  return bytes;
}

/// The values of a float constant, dense or a resource blob (how front ends
/// export weights).
static std::optional<std::vector<float>> floatValues(Attribute attr) {
  std::vector<float> values;
  if (auto dense = dyn_cast_if_present<DenseElementsAttr>(attr)) {
    values.reserve(dense.getNumElements());
    for (const APFloat &value : dense.getValues<APFloat>())
      values.push_back(value.convertToFloat());
    return values;
  }
  auto resource = dyn_cast_if_present<DenseResourceElementsAttr>(attr);
  if (!resource || !resource.getRawHandle().getBlob())
    return std::nullopt;
  ArrayRef<char> data = resource.getRawHandle().getBlob()->getData();
  auto type = cast<FloatType>(resource.getType().getElementType());
  unsigned bytes = type.getWidth() / 8;
  int64_t count = resource.getNumElements();
  if (type.getWidth() % 8 != 0 || bytes > 4 ||
      static_cast<int64_t>(data.size()) != count * bytes)
    return std::nullopt;
  values.reserve(count);
  for (int64_t i = 0; i < count; ++i) {
    uint32_t bits = 0;
    std::memcpy(&bits, data.data() + i * bytes, bytes);
    values.push_back(
        APFloat(type.getFloatSemantics(), APInt(type.getWidth(), bits))
            .convertToFloat());
  }
  return values;
}

/// A quantize of a constant (with constant given scales) is its parts,
/// computed by the quantization library as the host would compute them.
LogicalResult QuantizeOp::fold(FoldAdaptor adaptor,
                               SmallVectorImpl<OpFoldResult> &results) {
  std::optional<std::vector<float>> values = floatValues(adaptor.getInput());
  if (!values)
    return failure();
  auto type = cast<RankedTensorType>(getInput().getType());
  quant::QuantSpec spec = getQuant().getSpec();
  // Virtual data is the input's type, which the library returns as f32.
  if (spec.mode == quant::CastMode::Virtual && !type.getElementType().isF32())
    return failure();
  for (Type part : getResultTypes())
    if (getElementTypeOrSelf(part).getIntOrFloatBitWidth() % 8 != 0)
      return failure();
  quant::GivenScales given;
  FailureOr<SmallVector<std::pair<StringRef, RankedTensorType>>> expected =
      getQuant().getPartTypes(type, [&] { return emitOpError(); });
  if (failed(expected))
    return failure();
  unsigned next = 0;
  for (const auto &part : *expected) {
    if (getScales().empty() || !quant::GivenScales::holds(part.first))
      continue;
    auto attr =
        dyn_cast_if_present<DenseElementsAttr>(adaptor.getScales()[next++]);
    std::optional<std::vector<uint8_t>> bytes =
        attr ? hostBytes(attr) : std::nullopt;
    if (!bytes)
      return failure();
    quant::Buffer buffer;
    buffer.bytes = std::move(*bytes);
    *given.slot(part.first) = std::move(buffer);
  }
  llvm::Expected<quant::QuantizedTensor> q = quant::quantize(
      *values, type.getShape(), spec, getScales().empty() ? nullptr : &given);
  if (!q) {
    llvm::consumeError(q.takeError());
    return failure();
  }
  SmallVector<const quant::Buffer *> parts =
      q->storedParts(/*scalesGiven=*/!getScales().empty());
  if (parts.size() != getNumResults())
    return failure();
  for (auto [part, resultType] : llvm::zip(parts, getResultTypes())) {
    auto shaped = cast<RankedTensorType>(resultType);
    size_t bytes =
        shaped.getNumElements() * (shaped.getElementTypeBitWidth() / 8);
    if (part->bytes.size() != bytes)
      return failure();
    bool detectedSplat = false;
    ArrayRef<char> raw(reinterpret_cast<const char *>(part->bytes.data()),
                       part->bytes.size());
    if (!DenseElementsAttr::isValidRawBuffer(shaped, raw, detectedSplat))
      return failure();
    results.push_back(DenseElementsAttr::getFromRawBuffer(shaped, raw));
  }
  return success();
}

LogicalResult DequantizeOp::verify() {
  return verifyQuantParts(*this, getQuant(), getResult().getType(),
                          getParts().getTypes(), "operand");
}
