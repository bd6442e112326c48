//===- Quant.cpp - Scales, shapes, quantize and dequantize ----------------===//

#include "Spyre/Quant/Quant.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

using namespace mlir::spyre::quant;
using llvm::ArrayRef;
using llvm::SmallVector;

//===----------------------------------------------------------------------===//
// Names
//===----------------------------------------------------------------------===//

namespace {
template <typename Enum, size_t N>
std::optional<Enum> parseName(llvm::StringRef name,
                              const std::pair<Enum, const char *> (&names)[N]) {
  for (const auto &[value, spelling] : names)
    if (name == spelling)
      return value;
  return std::nullopt;
}
template <typename Enum, size_t N>
llvm::StringRef nameOf(Enum value,
                       const std::pair<Enum, const char *> (&names)[N]) {
  for (const auto &[v, spelling] : names)
    if (v == value)
      return spelling;
  return "";
}

const std::pair<Scaling, const char *> kScalingNames[] = {
    {Scaling::None, "none"},       {Scaling::Tensor, "tensor"},
    {Scaling::Channel, "channel"}, {Scaling::Tile, "tile"},
    {Scaling::Matrix, "matrix"},   {Scaling::MX, "mx"}};
const std::pair<CastMode, const char *> kModeNames[] = {
    {CastMode::Virtual, "virtual"},
    {CastMode::Actual, "actual"},
    {CastMode::Compressed, "compressed"}};
const std::pair<ScaleType, const char *> kScaleTypeNames[] = {
    {ScaleType::Float32, "float32"},
    {ScaleType::Float16, "float16"},
    {ScaleType::BFloat16, "bfloat16"},
    {ScaleType::E4M3FN, "float8_e4m3fn"},
    {ScaleType::E8M0, "float8_e8m0fnu"}};
} // namespace

llvm::StringRef mlir::spyre::quant::stringifyScaling(Scaling s) {
  return nameOf(s, kScalingNames);
}
std::optional<Scaling> mlir::spyre::quant::parseScaling(llvm::StringRef n) {
  return parseName(n, kScalingNames);
}
llvm::StringRef mlir::spyre::quant::stringifyCastMode(CastMode m) {
  return nameOf(m, kModeNames);
}
std::optional<CastMode> mlir::spyre::quant::parseCastMode(llvm::StringRef n) {
  return parseName(n, kModeNames);
}
llvm::StringRef mlir::spyre::quant::stringifyScaleType(ScaleType t) {
  return nameOf(t, kScaleTypeNames);
}
std::optional<ScaleType> mlir::spyre::quant::parseScaleType(llvm::StringRef n) {
  if (n == "e8m0")
    return ScaleType::E8M0;
  if (n == "e4m3fn")
    return ScaleType::E4M3FN;
  return parseName(n, kScaleTypeNames);
}

//===----------------------------------------------------------------------===//
// Shapes
//===----------------------------------------------------------------------===//

namespace {

llvm::Error fail(const llvm::Twine &message) {
  return llvm::createStringError(message);
}

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

int64_t product(ArrayRef<int64_t> shape) {
  return std::accumulate(shape.begin(), shape.end(), int64_t{1},
                         std::multiplies<int64_t>());
}

/// Values of a `bits`-wide format stored per byte when compressed (1-, 2-
/// and 4-bit values pack; 6-bit values take a byte each).
int64_t valuesPerByte(unsigned bits) { return 8 % bits == 0 ? 8 / bits : 1; }

int64_t dtypeBytes(llvm::StringRef dtype) {
  if (dtype == "float32")
    return 4;
  if (dtype == "float16" || dtype == "bfloat16")
    return 2;
  return 1;
}

bool isMxElement(Format format) {
  switch (format) {
  case Format::E4M3FN:
  case Format::E5M2:
  case Format::E3M2FN:
  case Format::E2M3FN:
  case Format::E2M1FN:
  case Format::E3M2FNUZ:
  case Format::E2M3FNUZ:
  case Format::E2M1FNUZ:
  case Format::Int8:
    return true;
  default:
    return false;
  }
}

/// MXINT8 elements carry an implicit scale of 2^-6 (OCP MX v1.0, 5.3.3).
int implicitScaleLog2(const QuantSpec &spec) {
  return spec.scaling == Scaling::MX && spec.format == Format::Int8 ? -6 : 0;
}

/// OCP's emax_elem: the exponent of the element format's largest normal.
int elementEmax(const QuantSpec &spec) {
  if (spec.scaling == Scaling::MX && spec.format == Format::Int8)
    return 0;
  return getFormatInfo(spec.format).emax;
}

/// The largest magnitude a scaled element takes (symmetric int: qmax).
double elementMax(const QuantSpec &spec) {
  const FormatInfo &info = getFormatInfo(spec.format);
  if (spec.scaling == Scaling::MX && spec.format == Format::Int8)
    return 127.0 / 64.0;
  return info.maxValue;
}

/// Bits of one stored data value: a codebook's index or the format's value.
unsigned dataBits(const QuantSpec &spec) {
  return spec.codebook ? spec.codebook->indexBits
                       : getFormatInfo(spec.format).bits;
}

/// Subtiles per tile of a codebook's meta (1 when it is per tile).
int64_t subtilesPerTile(const QuantShapes &shapes) {
  const QuantSpec &spec = shapes.spec;
  if (!spec.codebook || !spec.subtile)
    return 1;
  return shapes.tileShape[spec.axis] / spec.subtile;
}

/// Bytes one tile's meta packs into: (meta_bits * num_subtiles + 7) // 8.
int64_t metaBytesPerTile(const QuantShapes &shapes) {
  return (shapes.spec.codebook->metaBits * subtilesPerTile(shapes) + 7) / 8;
}

} // namespace

llvm::Expected<QuantShapes>
mlir::spyre::quant::computeShapes(ArrayRef<int64_t> shape,
                                  const QuantSpec &given) {
  QuantSpec spec = given;
  const FormatInfo &info = getFormatInfo(spec.format);
  int64_t rank = static_cast<int64_t>(shape.size());
  bool isInt = info.isInteger();
  if (info.kind == FormatKind::Exponent)
    return fail("e8m0 is a scale format, not a data format");
  for (int64_t size : shape)
    if (size < 0)
      return fail(llvm::formatv("dims must not be negative (shape [{0}])",
                                llvm::make_range(shape.begin(), shape.end())));
  auto resolveAxis = [&](int64_t &axis, llvm::StringRef what) -> llvm::Error {
    if (axis < -rank || axis >= rank)
      return fail(llvm::formatv("{0} {1} is out of range for a rank-{2} tensor",
                                what, axis, rank));
    if (axis < 0)
      axis += rank;
    return llvm::Error::success();
  };
  if (rank == 0) {
    if (spec.scaling != Scaling::None && spec.scaling != Scaling::Tensor)
      return fail(llvm::formatv("{0} scaling needs a tensor of rank >= 1",
                                stringifyScaling(spec.scaling)));
    if (spec.sparsityPercent)
      return fail("sparsity needs a tensor of rank >= 1");
    spec.axis = 0;
  } else if (llvm::Error e = resolveAxis(spec.axis, "axis")) {
    return std::move(e);
  }

  // The scheme.
  if (spec.scaling == Scaling::None) {
    if (isInt)
      return fail(llvm::formatv("{0} needs a scale (only float formats cast "
                                "unscaled)",
                                info.name));
    if (spec.zeroPoint || spec.multiscale)
      return fail("unscaled casts have no zero points or tensor scale");
  }
  if (spec.scaling == Scaling::MX) {
    if (!isMxElement(spec.format))
      return fail(llvm::formatv("{0} is not an MX element format (e4m3fn, "
                                "e5m2, e3m2fn, e2m3fn, e2m1fn and their fnuz "
                                "spellings, int8)",
                                info.name));
    if (spec.tile != kMxBlockSize)
      return fail(
          llvm::formatv("MX scaling uses blocks of {0} values (tile = {1})",
                        kMxBlockSize, spec.tile));
    if (spec.scaleType && *spec.scaleType != ScaleType::E8M0)
      return fail("MX scales are E8M0");
    if (spec.zeroPoint)
      return fail("MX formats have no zero points");
    spec.scaleType = ScaleType::E8M0;
  }
  if (!spec.scaleType)
    spec.scaleType = ScaleType::Float32;
  if ((spec.scaling == Scaling::Tile || spec.scaling == Scaling::Matrix) &&
      spec.tile <= 0)
    return fail(llvm::formatv("tile must be positive (tile = {0})", spec.tile));
  if (spec.scaling == Scaling::Matrix) {
    if (rank < 2)
      return fail("matrix tiles need a tensor of rank >= 2");
    if (llvm::Error e = resolveAxis(spec.axis2, "axis2"))
      return std::move(e);
    if (spec.axis2 == spec.axis)
      return fail(llvm::formatv("matrix tiles need two different dims (axis "
                                "and axis2 are both {0})",
                                spec.axis));
    if (spec.tile2 <= 0)
      return fail(
          llvm::formatv("tile2 must be positive (tile2 = {0})", spec.tile2));
  }
  if (spec.zeroPoint) {
    if (!isInt)
      return fail(llvm::formatv("zero points are for integer formats, not {0}",
                                info.name));
    if (spec.multiscale)
      return fail("zero points do not combine with a tensor scale");
    if (*spec.scaleType == ScaleType::E8M0 ||
        *spec.scaleType == ScaleType::E4M3FN)
      return fail("zero points need float32, float16 or bfloat16 scales");
    if (spec.zeroType && (*spec.zeroType == ScaleType::E8M0 ||
                          *spec.zeroType == ScaleType::E4M3FN))
      return fail("float zero points are float32, float16 or bfloat16");
  } else if (spec.zeroType) {
    return fail("a zero point type needs zero points (zero_point=True)");
  } else if (info.kind == FormatKind::UInt) {
    return fail(llvm::formatv("{0} holds no negative values: give it zero "
                              "points (zero_point=True)",
                              info.name));
  }
  if (!spec.saturate && (info.kind != FormatKind::Float ||
                         !(info.hasNaN || info.hasInfinity) || spec.codebook))
    return fail(llvm::formatv("{0} values do not overflow to NaN or "
                              "infinity: saturate = false is for float "
                              "formats that have them",
                              info.name));
  if (spec.multiscale &&
      (spec.scaling == Scaling::None || spec.scaling == Scaling::Tensor))
    return fail("multiscale combines a tensor scale with channel or tile "
                "scales");
  if (spec.sparsityPercent != 0 && spec.sparsityPercent != 25 &&
      spec.sparsityPercent != 50)
    return fail(llvm::formatv("sparsity is 25 or 50 percent (got {0})",
                              spec.sparsityPercent));
  if (spec.sparsityPercent) {
    if (spec.sparseGroup <= 0 ||
        spec.sparseGroup * spec.sparsityPercent % 100 != 0)
      return fail(llvm::formatv("a sparse group of {0} values cannot prune {1} "
                                "percent",
                                spec.sparseGroup, spec.sparsityPercent));
    if (shape[spec.axis] % spec.sparseGroup != 0)
      return fail(llvm::formatv("the sparse dim {0} (size {1}) is not a "
                                "multiple of the sparse group ({2})",
                                spec.axis, shape[spec.axis], spec.sparseGroup));
  }

  if (spec.codebook) {
    const Codebook &book = *spec.codebook;
    if (info.kind != FormatKind::Float)
      return fail(llvm::formatv("codebook '{0}': the compute type {1} is not "
                                "a float format",
                                book.code, info.name));
    if (book.mappings.empty())
      return fail(llvm::formatv("codebook '{0}' is generic: give its {1} "
                                "mappings of {2} {3} values",
                                book.code, book.numMappings(),
                                book.numEntries(), info.name));
    if (static_cast<int64_t>(book.mappings.size()) !=
        book.numMappings() * book.numEntries())
      return fail(llvm::formatv("codebook '{0}' holds {1} values, not {2} "
                                "mappings of {3}",
                                book.code, book.mappings.size(),
                                book.numMappings(), book.numEntries()));
    if (spec.scaling == Scaling::None || spec.scaling == Scaling::Matrix)
      return fail(llvm::formatv("codebook '{0}' takes tensor, channel, tile "
                                "or mx scaling, not {1}",
                                book.code, stringifyScaling(spec.scaling)));
    if (spec.subtile) {
      int64_t tile = spec.scaling == Scaling::MX ? kMxBlockSize : spec.tile;
      if (spec.scaling != Scaling::Tile && spec.scaling != Scaling::MX)
        return fail("codebook subtiles divide 1-D tiles (tile or mx "
                    "scaling)");
      if (spec.subtile < 0 || tile % spec.subtile != 0)
        return fail(llvm::formatv("a subtile of {0} does not divide the tile "
                                  "of {1}",
                                  spec.subtile, tile));
      if (book.metaBits == 0)
        return fail(llvm::formatv("codebook '{0}' has one mapping: it has no "
                                  "meta to select one per subtile",
                                  book.code));
    }
  } else if (spec.subtile) {
    return fail("subtiles are for codebook formats");
  }

  QuantShapes out;
  out.tileShape.assign(shape.size(), 1);
  switch (spec.scaling) {
  case Scaling::None:
    break;
  case Scaling::Tensor:
    for (auto [tile, size] : llvm::zip(out.tileShape, shape))
      tile = std::max<int64_t>(size, 1);
    break;
  case Scaling::Channel:
    out.tileShape[spec.axis] = std::max<int64_t>(shape[spec.axis], 1);
    break;
  case Scaling::Tile:
  case Scaling::MX:
    out.tileShape[spec.axis] = spec.tile;
    break;
  case Scaling::Matrix:
    out.tileShape[spec.axis] = spec.tile;
    out.tileShape[spec.axis2] = spec.tile2;
    break;
  }

  unsigned bits = dataBits(spec);
  int64_t perByte = valuesPerByte(bits);
  int64_t kept = spec.sparseGroup * (100 - spec.sparsityPercent) / 100;
  // Codebook data are indices, held in bytes.
  std::string actualDtype =
      spec.codebook ? std::string("uint8") : info.actualDtype.str();

  // data
  out.data.present = true;
  out.data.shape.assign(shape.begin(), shape.end());
  out.data.dtype = spec.mode == CastMode::Virtual ? "float32" : actualDtype;
  out.data.compressedShape = out.data.shape;
  if (rank > 0) {
    int64_t &dim = out.data.compressedShape[spec.axis];
    if (spec.sparsityPercent)
      dim = dim / spec.sparseGroup * kept;
    dim = ceilDiv(dim, perByte);
  }
  out.data.compressedDtype = bits == 8 ? actualDtype : "uint8";

  // scale and zero
  SmallVector<int64_t> scaleShape;
  for (auto [size, tile] : llvm::zip(shape, out.tileShape))
    scaleShape.push_back(ceilDiv(size, tile));
  if (spec.scaling != Scaling::None) {
    out.scale.present = true;
    out.scale.shape = scaleShape;
    out.scale.dtype = stringifyScaleType(*spec.scaleType).str();
    out.scale.compressedShape = scaleShape;
    out.scale.compressedDtype = out.scale.dtype;
  }
  if (spec.zeroPoint) {
    out.zero.present = true;
    out.zero.shape = scaleShape;
    out.zero.compressedShape = scaleShape;
    if (spec.zeroType) {
      out.zero.dtype = out.zero.compressedDtype =
          stringifyScaleType(*spec.zeroType).str();
    } else {
      out.zero.dtype = info.actualDtype.str();
      out.zero.compressedShape[spec.axis] =
          ceilDiv(scaleShape[spec.axis], perByte);
      out.zero.compressedDtype = perByte > 1 ? "uint8" : info.actualDtype.str();
    }
  }
  if (spec.multiscale) {
    out.tenscale.present = true;
    out.tenscale.dtype = out.tenscale.compressedDtype = "float32";
  }
  if (spec.codebook && spec.codebook->metaBits > 0) {
    // Meta: the scale's shape, the scaled dim times the subtiles per tile;
    // compressed, each tile's meta bits pack into whole bytes.
    out.spec = spec;
    out.meta.present = true;
    out.meta.shape = scaleShape;
    out.meta.shape[spec.axis] *= subtilesPerTile(out);
    out.meta.dtype = out.meta.compressedDtype = "uint8";
    out.meta.compressedShape = scaleShape;
    out.meta.compressedShape[spec.axis] *= metaBytesPerTile(out);
  }
  if (spec.sparsityPercent) {
    out.mask.present = true;
    out.mask.shape.assign(shape.begin(), shape.end());
    out.mask.dtype = "bool";
    out.mask.compressedShape = out.mask.shape;
    out.mask.compressedShape[spec.axis] = ceilDiv(shape[spec.axis], 8);
    out.mask.compressedDtype = "uint8";
  }

  for (const Companion *c :
       {&out.data, &out.scale, &out.zero, &out.tenscale, &out.meta, &out.mask})
    if (c->present)
      out.compressedBytes +=
          product(c->compressedShape) * dtypeBytes(c->compressedDtype);
  int64_t numel = product(shape);
  out.bitsPerValue =
      numel ? 8.0 * static_cast<double>(out.compressedBytes) / numel : 0;
  out.spec = spec;
  return out;
}

llvm::Expected<StickFit>
mlir::spyre::quant::fitOnSticks(const QuantShapes &shapes, int64_t stickBytes) {
  const QuantSpec &spec = shapes.spec;
  const FormatInfo &info = getFormatInfo(spec.format);
  StickFit fit{stickBytes * valuesPerByte(dataBits(spec)), 0};
  if (shapes.tileShape.empty() || spec.scaling == Scaling::None)
    return fit;
  int64_t tile = shapes.tileShape[spec.axis];
  if (tile > fit.valuesPerStick) {
    fit.scalesPerStick = 0;
    return fit;
  }
  if (fit.valuesPerStick % tile != 0)
    return fail(llvm::formatv(
        "a {0}-byte stick holds {1} {2} values: tiles of {3} along the stick "
        "dim would straddle sticks",
        stickBytes, fit.valuesPerStick, info.name, tile));
  fit.scalesPerStick = fit.valuesPerStick / tile;
  return fit;
}

//===----------------------------------------------------------------------===//
// Quantize and dequantize
//===----------------------------------------------------------------------===//

namespace {

/// Element positions of a row-major tensor and the scale each one uses.
struct Geometry {
  SmallVector<int64_t> shape, tileShape, scaleShape;
  int64_t numel = 1, outer = 1, extent = 1, inner = 1;

  Geometry(const QuantShapes &shapes, ArrayRef<int64_t> dataShape)
      : shape(dataShape), tileShape(shapes.tileShape) {
    int64_t axis = shapes.spec.axis;
    for (auto [i, size] : llvm::enumerate(shape)) {
      scaleShape.push_back((size + tileShape[i] - 1) / tileShape[i]);
      numel *= size;
      if (static_cast<int64_t>(i) < axis)
        outer *= size;
      else if (static_cast<int64_t>(i) > axis)
        inner *= size;
    }
    extent = shape.empty() ? 1 : shape[axis];
  }

  /// The grid of the scales themselves (one element per scale): what zero
  /// points are packed over.
  static Geometry ofScales(const QuantShapes &shapes,
                           ArrayRef<int64_t> scaleShape) {
    QuantShapes grid = shapes;
    grid.tileShape.assign(scaleShape.size(), 1);
    return Geometry(grid, scaleShape);
  }

  /// The linear index of the scale of element `linear`.
  int64_t scaleIndex(int64_t linear) const {
    int64_t index = 0, stride = 1;
    for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
      int64_t coord = linear % shape[d];
      linear /= shape[d];
      index += coord / tileShape[d] * stride;
      stride *= scaleShape[d];
    }
    return index;
  }
  int64_t numScales() const { return product(scaleShape); }

  /// The linear index of element `linear`'s codebook meta in `metaShape`
  /// (one meta per tile, or per `subtile` along `axis`).
  int64_t metaIndex(int64_t linear, int64_t axis, int64_t subtile,
                    ArrayRef<int64_t> metaShape) const {
    int64_t index = 0, stride = 1;
    for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
      int64_t coord = linear % shape[d];
      linear /= shape[d];
      int64_t group = d == axis && subtile ? subtile : tileShape[d];
      index += coord / group * stride;
      stride *= metaShape[d];
    }
    return index;
  }
};

/// Packs (or unpacks) codebook meta: along `axis`, the meta of each tile's
/// subtiles go into the tile's bytes, `metaBits` each, low bits first.
/// `visit(metaLinear, byte, bitOffset)` for every meta value's first bit.
template <typename Visit>
void forEachMetaBit(const QuantShapes &shapes, Visit visit) {
  const QuantSpec &spec = shapes.spec;
  ArrayRef<int64_t> metaShape = shapes.meta.shape;
  int64_t axis = spec.axis, outer = 1, inner = 1;
  for (auto [d, size] : llvm::enumerate(metaShape)) {
    if (static_cast<int64_t>(d) < axis)
      outer *= size;
    else if (static_cast<int64_t>(d) > axis)
      inner *= size;
  }
  int64_t extent = metaShape.empty() ? 1 : metaShape[axis];
  int64_t packedExtent =
      metaShape.empty() ? 1 : shapes.meta.compressedShape[axis];
  int64_t perTile = subtilesPerTile(shapes);
  int64_t bytesPerTile = metaBytesPerTile(shapes);
  unsigned bits = spec.codebook->metaBits;
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t a = 0; a < extent; ++a)
      for (int64_t in = 0; in < inner; ++in) {
        int64_t bit = a % perTile * bits;
        int64_t byteAlong = a / perTile * bytesPerTile;
        visit((o * extent + a) * inner + in,
              [&, o, in, byteAlong](int64_t b) {
                return (o * packedExtent + byteAlong + b / 8) * inner + in;
              },
              bit);
      }
}

/// Bytes one scale of `type` takes in host storage.
int64_t scaleTypeBytes(ScaleType type) {
  switch (type) {
  case ScaleType::Float32:
    return 4;
  case ScaleType::Float16:
  case ScaleType::BFloat16:
    return 2;
  case ScaleType::E4M3FN:
  case ScaleType::E8M0:
    break;
  }
  return 1;
}

/// Appends `value` in the host storage of a scale type.
void storeScale(ScaleType type, double value, std::vector<uint8_t> &bytes) {
  auto append = [&](const void *p, size_t n) {
    const auto *b = static_cast<const uint8_t *>(p);
    bytes.insert(bytes.end(), b, b + n);
  };
  auto appendBits = [&](const llvm::fltSemantics &sem) {
    llvm::APFloat v(value);
    bool loses = false;
    v.convert(sem, llvm::APFloat::rmNearestTiesToEven, &loses);
    uint16_t bits = static_cast<uint16_t>(v.bitcastToAPInt().getZExtValue());
    append(&bits, 2);
  };
  switch (type) {
  case ScaleType::Float32: {
    float f = static_cast<float>(value);
    append(&f, 4);
    return;
  }
  case ScaleType::Float16:
    return appendBits(llvm::APFloat::IEEEhalf());
  case ScaleType::BFloat16:
    return appendBits(llvm::APFloat::BFloat());
  case ScaleType::E4M3FN:
    bytes.push_back(static_cast<uint8_t>(encode(Format::E4M3FN, value)));
    return;
  case ScaleType::E8M0:
    bytes.push_back(static_cast<uint8_t>(encode(Format::E8M0, value)));
    return;
  }
}

double loadScale(ScaleType type, const std::vector<uint8_t> &bytes,
                 int64_t index);

/// `value` as a scale of `type` stores it.
double roundToScaleType(ScaleType type, double value) {
  std::vector<uint8_t> bytes;
  storeScale(type, value, bytes);
  return loadScale(type, bytes, 0);
}

double loadScale(ScaleType type, const std::vector<uint8_t> &bytes,
                 int64_t index) {
  auto fromBits = [&](const llvm::fltSemantics &sem) {
    uint16_t bits;
    std::memcpy(&bits, bytes.data() + 2 * index, 2);
    return llvm::APFloat(sem, llvm::APInt(16, bits)).convertToDouble();
  };
  switch (type) {
  case ScaleType::Float32: {
    float f;
    std::memcpy(&f, bytes.data() + 4 * index, 4);
    return f;
  }
  case ScaleType::Float16:
    return fromBits(llvm::APFloat::IEEEhalf());
  case ScaleType::BFloat16:
    return fromBits(llvm::APFloat::BFloat());
  case ScaleType::E4M3FN:
    return decode(Format::E4M3FN, bytes[index]);
  case ScaleType::E8M0:
    return decode(Format::E8M0, bytes[index]);
  }
  return 0;
}

Buffer makeBuffer(ArrayRef<int64_t> shape, llvm::StringRef dtype) {
  Buffer b;
  b.shape.assign(shape.begin(), shape.end());
  b.dtype = dtype.str();
  b.storage = storageDtype(dtype).str();
  return b;
}

/// The format "actual" cast mode stores a float format's values in.
Format actualFormat(Format format) {
  switch (format) {
  case Format::E3M2FNUZ:
  case Format::E2M3FNUZ:
  case Format::E2M1FNUZ:
    return Format::E4M3FNUZ;
  case Format::E3M2FN:
  case Format::E2M3FN:
  case Format::E2M1FN:
    return Format::E4M3FN;
  default:
    return format;
  }
}

/// Visits the kept positions (all when `keep` is empty) along the axis of
/// `g`, in order, with where each one's bits go in a packed buffer of
/// `packedExtent` bytes along the axis: `visit(linear, byte, shift, mask)`.
template <typename Visit>
void forEachPacked(const std::vector<bool> &keep, const Geometry &g,
                   unsigned bits, int64_t packedExtent, Visit visit) {
  int64_t perByte = valuesPerByte(bits);
  unsigned width = perByte == 1 ? 8 : bits;
  uint32_t mask = (1u << width) - 1;
  for (int64_t o = 0; o < g.outer; ++o)
    for (int64_t in = 0; in < g.inner; ++in) {
      int64_t slot = 0;
      for (int64_t j = 0; j < g.extent; ++j) {
        int64_t linear = (o * g.extent + j) * g.inner + in;
        if (!keep.empty() && !keep[linear])
          continue;
        int64_t byte = (o * packedExtent + slot / perByte) * g.inner + in;
        visit(linear, byte, static_cast<unsigned>(slot % perByte * width),
              mask);
        ++slot;
      }
    }
}

/// Packs codes of `bits` along the axis of `g`, keeping only the positions
/// `keep` selects (all when empty): low bits first.
std::vector<uint8_t> packAlongAxis(const std::vector<uint32_t> &codes,
                                   const std::vector<bool> &keep,
                                   const Geometry &g, unsigned bits,
                                   int64_t packedExtent) {
  std::vector<uint8_t> out(g.outer * packedExtent * g.inner, 0);
  forEachPacked(
      keep, g, bits, packedExtent,
      [&](int64_t linear, int64_t byte, unsigned shift, uint32_t mask) {
        out[byte] |= static_cast<uint8_t>((codes[linear] & mask) << shift);
      });
  return out;
}

/// The inverse of packAlongAxis: codes at every position (0 where pruned).
std::vector<uint32_t> unpackAlongAxis(const std::vector<uint8_t> &packed,
                                      const std::vector<bool> &keep,
                                      const Geometry &g, unsigned bits,
                                      int64_t packedExtent) {
  std::vector<uint32_t> codes(g.numel, 0);
  forEachPacked(
      keep, g, bits, packedExtent,
      [&](int64_t linear, int64_t byte, unsigned shift, uint32_t mask) {
        codes[linear] = (packed[byte] >> shift) & mask;
      });
  return codes;
}

/// Structured sparsity: in each group of `group` values along the axis,
/// keeps the `kept` largest magnitudes (the earlier of equal ones).
std::vector<bool> chooseKept(ArrayRef<float> values, const Geometry &g,
                             int64_t group, int64_t kept) {
  std::vector<bool> keep(g.numel, false);
  SmallVector<int64_t> order(group);
  for (int64_t o = 0; o < g.outer; ++o)
    for (int64_t in = 0; in < g.inner; ++in)
      for (int64_t start = 0; start < g.extent; start += group) {
        auto at = [&](int64_t k) {
          return (o * g.extent + start + k) * g.inner + in;
        };
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
          float x = std::fabs(values[at(a)]), y = std::fabs(values[at(b)]);
          // NaN ranks first so that it is kept (and poisons its scale).
          if (std::isnan(x) != std::isnan(y))
            return std::isnan(x);
          return x > y;
        });
        for (int64_t k = 0; k < kept; ++k)
          keep[at(order[k])] = true;
      }
  return keep;
}

void appendBytes(std::vector<uint8_t> &bytes, const void *p, size_t n) {
  const auto *b = static_cast<const uint8_t *>(p);
  bytes.insert(bytes.end(), b, b + n);
}

/// The zero points a zero companion stores (unpacked in compressed mode).
std::vector<double> zeroValues(const QuantShapes &shapes, const Buffer &zero) {
  const QuantSpec &spec = shapes.spec;
  if (spec.zeroType) {
    std::vector<double> values;
    for (int64_t i = 0, e = product(shapes.zero.shape); i < e; ++i)
      values.push_back(loadScale(*spec.zeroType, zero.bytes, i));
    return values;
  }
  std::vector<uint32_t> codes;
  if (spec.mode == CastMode::Compressed) {
    Geometry zg = Geometry::ofScales(shapes, shapes.zero.shape);
    codes = unpackAlongAxis(zero.bytes, {}, zg, getFormatInfo(spec.format).bits,
                            shapes.zero.compressedShape[spec.axis]);
  } else {
    codes.assign(zero.bytes.begin(), zero.bytes.end());
  }
  std::vector<double> values;
  for (uint32_t z : codes)
    values.push_back(decode(spec.format, z));
  return values;
}

double tensorScaleValue(const Buffer &tenscale) {
  float ts;
  std::memcpy(&ts, tenscale.bytes.data(), 4);
  return ts;
}

/// Reads scales a program gives (GivenScales) over the ones found: each
/// companion the scheme has must be given with the bytes its shapes say.
llvm::Error readGivenScales(const QuantShapes &shapes, const GivenScales &given,
                            std::vector<double> &scale,
                            std::vector<double> &zero, double &tenscale) {
  bool compressed = shapes.spec.mode == CastMode::Compressed;
  auto check = [&](const std::optional<Buffer> &buffer, const Companion &c,
                   int64_t bytesPerElement,
                   llvm::StringRef name) -> llvm::Error {
    if (c.present != buffer.has_value())
      return fail(llvm::formatv("the {0} tensor is {1}", name,
                                c.present ? "missing" : "not in this scheme"));
    if (!buffer)
      return llvm::Error::success();
    int64_t bytes = compressed && name == "zero" && !shapes.spec.zeroType
                        ? product(c.compressedShape)
                        : product(c.shape) * bytesPerElement;
    if (static_cast<int64_t>(buffer->bytes.size()) != bytes)
      return fail(llvm::formatv("the given {0} holds {1} bytes, its shapes say "
                                "{2}",
                                name, buffer->bytes.size(), bytes));
    return llvm::Error::success();
  };
  ScaleType type = *shapes.spec.scaleType;
  if (llvm::Error e =
          check(given.scale, shapes.scale, scaleTypeBytes(type), "scale"))
    return e;
  if (llvm::Error e = check(
          given.zero, shapes.zero,
          shapes.spec.zeroType ? scaleTypeBytes(*shapes.spec.zeroType) : 1,
          "zero"))
    return e;
  if (llvm::Error e = check(given.tenscale, shapes.tenscale, 4, "tenscale"))
    return e;
  if (given.scale)
    for (auto [s, value] : llvm::enumerate(scale))
      value = loadScale(type, given.scale->bytes, static_cast<int64_t>(s));
  if (given.zero)
    zero = zeroValues(shapes, *given.zero);
  if (given.tenscale)
    tenscale = tensorScaleValue(*given.tenscale);
  return llvm::Error::success();
}

/// The tensor scale: the tensor's largest magnitude over what the element
/// format and (narrow) scale format reach together.
double tensorScaleFor(const QuantSpec &spec, double amax) {
  double reach = elementMax(spec);
  if (*spec.scaleType == ScaleType::E4M3FN)
    reach *= getFormatInfo(Format::E4M3FN).maxValue;
  if (std::isnan(amax) || std::isinf(amax))
    return std::nan("");
  double ts = static_cast<float>(amax / reach);
  return ts > 0 ? ts : 1.0;
}

} // namespace

llvm::StringRef mlir::spyre::quant::storageDtype(llvm::StringRef dtype) {
  if (dtype == "float32" || dtype == "float16" || dtype == "int8" ||
      dtype == "bool")
    return dtype;
  if (dtype == "bfloat16")
    return "uint16";
  return "uint8";
}

llvm::Expected<QuantizedTensor>
mlir::spyre::quant::quantize(ArrayRef<float> values, ArrayRef<int64_t> shape,
                             const QuantSpec &requested,
                             const GivenScales *given) {
  llvm::Expected<QuantShapes> shapes = computeShapes(shape, requested);
  if (!shapes)
    return shapes.takeError();
  const QuantSpec &spec = shapes->spec;
  const FormatInfo &info = getFormatInfo(spec.format);
  Geometry g(*shapes, shape);
  if (static_cast<int64_t>(values.size()) != g.numel)
    return fail(llvm::formatv("{0} values given for a tensor of {1}",
                              values.size(), g.numel));
  bool isInt = info.isInteger();

  // Sparsity, then scale discovery over the kept values.
  std::vector<bool> keep;
  if (spec.sparsityPercent)
    keep = chooseKept(values, g, spec.sparseGroup,
                      spec.sparseGroup * (100 - spec.sparsityPercent) / 100);
  auto valueAt = [&](int64_t i) -> double {
    return keep.empty() || keep[i] ? values[i] : 0.0;
  };

  int64_t numScales = g.numScales();
  std::vector<double> amax(numScales, 0), lo(numScales, 0), hi(numScales, 0);
  std::vector<bool> poisoned(numScales, false);
  double tensorAmax = 0;
  bool tensorPoisoned = false;
  std::vector<int64_t> scaleOf(g.numel);
  for (int64_t i = 0; i < g.numel; ++i) {
    int64_t s = scaleOf[i] = g.scaleIndex(i);
    double v = valueAt(i);
    if (!std::isfinite(v)) {
      poisoned[s] = true;
      tensorPoisoned = true;
      continue;
    }
    amax[s] = std::max(amax[s], std::fabs(v));
    lo[s] = std::min(lo[s], v);
    hi[s] = std::max(hi[s], v);
    tensorAmax = std::max(tensorAmax, std::fabs(v));
  }
  double tenscale = 1.0;
  if (spec.multiscale)
    tenscale = tensorPoisoned ? std::nan("") : tensorScaleFor(spec, tensorAmax);

  // Scales (and zero points), as stored.
  ScaleType scaleType = *spec.scaleType;
  std::vector<double> scale(numScales, 1.0), zero(numScales, 0.0);
  double qmin = info.lowest, qmax = elementMax(spec);
  for (int64_t s = 0; s < numScales; ++s) {
    if (spec.scaling == Scaling::None)
      break;
    if (poisoned[s] || std::isnan(tenscale)) {
      scale[s] = std::nan("");
      continue;
    }
    if (scaleType == ScaleType::E8M0) {
      double a = amax[s] / tenscale;
      int exponent = a > 0 ? std::ilogb(a) - elementEmax(spec) : -127;
      scale[s] = std::ldexp(1.0, std::clamp(exponent, -127, 127));
      continue;
    }
    if (spec.zeroPoint) {
      double step = (hi[s] - lo[s]) / (info.maxValue - info.lowest);
      scale[s] = step > 0 ? roundToScaleType(scaleType, step) : 1.0;
      if (scale[s] == 0)
        scale[s] = 1.0;
      // Float zero points are the exact offset (rounded to their type);
      // integer ones the nearest code.
      zero[s] =
          spec.zeroType
              ? roundToScaleType(*spec.zeroType, info.lowest - lo[s] / scale[s])
              : std::clamp(std::nearbyint(info.lowest - lo[s] / scale[s]),
                           info.lowest, info.maxValue);
      continue;
    }
    double step = amax[s] / (qmax * tenscale);
    scale[s] = step > 0 ? roundToScaleType(scaleType, step) : 0.0;
  }
  if (given)
    if (llvm::Error e = readGivenScales(*shapes, *given, scale, zero, tenscale))
      return std::move(e);
  // The quotient of a value by its scale: with given scales, in float32.
  auto quotient = [&](double v, double factor) -> double {
    return given ? static_cast<float>(v / factor) : v / factor;
  };

  // Elements: codes of the data format, and the values they stand for.
  std::vector<uint32_t> codes(g.numel);
  std::vector<float> dequantized(g.numel);
  std::vector<uint32_t> meta;
  double elementUnit = std::ldexp(1.0, implicitScaleLog2(spec));
  if (spec.codebook) {
    const Codebook &book = *spec.codebook;
    int64_t entries = book.numEntries(), mappings = book.numMappings();
    ArrayRef<double> table = book.mappings;
    // The nearest entry of mapping m to x (the first of equally near ones).
    auto nearest = [&](int64_t m, double x) {
      int64_t best = 0;
      double bestDistance = INFINITY;
      for (int64_t k = 0; k < entries; ++k) {
        double distance = std::fabs(table[m * entries + k] - x);
        if (distance < bestDistance) {
          best = k;
          bestDistance = distance;
        }
      }
      return best;
    };
    auto scaled = [&](int64_t i) -> std::optional<double> {
      double factor = scale[scaleOf[i]] * tenscale;
      if ((!keep.empty() && !keep[i]) || std::isnan(factor) || factor == 0)
        return std::nullopt;
      return quotient(valueAt(i), factor);
    };
    // Meta: per tile (or subtile), the mapping with the least squared error.
    std::vector<int64_t> groupOf(g.numel, 0);
    int64_t groups = 1;
    if (shapes->meta.present) {
      groups = product(shapes->meta.shape);
      for (int64_t i = 0; i < g.numel; ++i)
        groupOf[i] =
            g.metaIndex(i, spec.axis, spec.subtile, shapes->meta.shape);
    }
    std::vector<double> error(groups * mappings, 0.0);
    for (int64_t i = 0; i < g.numel; ++i)
      if (std::optional<double> x = scaled(i))
        for (int64_t m = 0; m < mappings; ++m) {
          double d = table[m * entries + nearest(m, *x)] - *x;
          error[groupOf[i] * mappings + m] += d * d;
        }
    meta.assign(groups, 0);
    for (int64_t group = 0; group < groups; ++group) {
      auto row = llvm::ArrayRef(error).slice(group * mappings, mappings);
      meta[group] = static_cast<uint32_t>(
          std::min_element(row.begin(), row.end()) - row.begin());
    }
    for (int64_t i = 0; i < g.numel; ++i) {
      int64_t m = meta[groupOf[i]];
      std::optional<double> x = scaled(i);
      codes[i] = x ? static_cast<uint32_t>(nearest(m, *x)) : 0;
      double factor = scale[scaleOf[i]] * tenscale;
      dequantized[i] =
          (!keep.empty() && !keep[i])
              ? 0.0f
              : static_cast<float>(table[m * entries + codes[i]] * factor);
    }
  }
  for (int64_t i = 0; i < g.numel && !spec.codebook; ++i) {
    int64_t s = scaleOf[i];
    double factor = spec.scaling == Scaling::None ? 1.0 : scale[s] * tenscale;
    double v = valueAt(i);
    uint32_t code;
    if (!keep.empty() && !keep[i])
      code = encode(spec.format, 0.0);
    else if (spec.scaling == Scaling::None)
      code = encode(spec.format, v, spec.saturate);
    else if (std::isnan(factor) || factor == 0)
      code = encode(spec.format, 0.0);
    else if (isInt) {
      // Symmetric integers use [-qmax, qmax]; asymmetric the whole range.
      double top = spec.zeroPoint ? info.maxValue : qmax / elementUnit;
      double bottom = spec.zeroPoint ? qmin : -top;
      // A float zero point shifts the value before it is rounded; an
      // integer one is a code of its own, added after.
      double shifted =
          spec.zeroType
              ? std::nearbyint(quotient(v, factor) / elementUnit + zero[s])
              : std::nearbyint(quotient(v, factor) / elementUnit) + zero[s];
      code = encode(spec.format, std::clamp(shifted, bottom, top));
    } else
      code = encode(spec.format, quotient(v, factor), spec.saturate);
    codes[i] = code;
    double q = decode(spec.format, code);
    dequantized[i] = static_cast<float>(
        (!keep.empty() && !keep[i])     ? 0.0
        : spec.scaling == Scaling::None ? q
                                        : (q - zero[s]) * elementUnit * factor);
  }

  QuantizedTensor out;
  out.shapes = *shapes;
  out.shape.assign(shape.begin(), shape.end());
  const Companion &dataShapes = shapes->data;
  switch (spec.mode) {
  case CastMode::Virtual:
    out.data = makeBuffer(shape, "float32");
    appendBytes(out.data.bytes, dequantized.data(), 4 * dequantized.size());
    break;
  case CastMode::Actual: {
    out.data = makeBuffer(shape, dataShapes.dtype);
    for (int64_t i = 0; i < g.numel; ++i) {
      uint32_t code = codes[i];
      if (spec.codebook)
        ; // the index as it is
      else if (!isInt && actualFormat(spec.format) != spec.format)
        code = encode(actualFormat(spec.format), decode(spec.format, code));
      else if (isInt)
        code = static_cast<uint32_t>(
            static_cast<int64_t>(decode(spec.format, code)));
      out.data.bytes.push_back(static_cast<uint8_t>(code));
    }
    break;
  }
  case CastMode::Compressed:
    out.data =
        makeBuffer(dataShapes.compressedShape, dataShapes.compressedDtype);
    out.data.bytes = packAlongAxis(
        codes, keep, g, dataBits(spec),
        shape.empty() ? 1 : dataShapes.compressedShape[spec.axis]);
    break;
  }
  bool compressed = spec.mode == CastMode::Compressed;
  if (shapes->meta.present) {
    const Companion &c = shapes->meta;
    if (compressed) {
      out.meta = makeBuffer(c.compressedShape, c.compressedDtype);
      out.meta->bytes.assign(product(c.compressedShape), 0);
      forEachMetaBit(*shapes, [&](int64_t linear, auto byteOf, int64_t bit) {
        for (unsigned b = 0; b < spec.codebook->metaBits; ++b)
          if (meta[linear] >> b & 1)
            out.meta->bytes[byteOf(bit + b)] |= uint8_t(1) << ((bit + b) % 8);
      });
    } else {
      out.meta = makeBuffer(c.shape, c.dtype);
      for (uint32_t m : meta)
        out.meta->bytes.push_back(static_cast<uint8_t>(m));
    }
  }
  if (shapes->scale.present) {
    out.scale = makeBuffer(shapes->scale.shape, shapes->scale.dtype);
    for (double s : scale)
      storeScale(scaleType, s, out.scale->bytes);
  }
  if (shapes->zero.present) {
    const Companion &c = shapes->zero;
    if (spec.zeroType) {
      out.zero = makeBuffer(c.shape, c.dtype);
      for (double z : zero)
        storeScale(*spec.zeroType, z, out.zero->bytes);
    } else if (compressed) {
      std::vector<uint32_t> zeroCodes;
      for (double z : zero)
        zeroCodes.push_back(encode(spec.format, z));
      out.zero = makeBuffer(c.compressedShape, c.compressedDtype);
      Geometry zg = Geometry::ofScales(*shapes, c.shape);
      out.zero->bytes = packAlongAxis(zeroCodes, {}, zg, info.bits,
                                      c.compressedShape[spec.axis]);
    } else {
      out.zero = makeBuffer(c.shape, c.dtype);
      for (double z : zero)
        out.zero->bytes.push_back(
            static_cast<uint8_t>(static_cast<int64_t>(z)));
    }
  }
  if (shapes->tenscale.present) {
    out.tenscale = makeBuffer({}, "float32");
    float ts = static_cast<float>(tenscale);
    appendBytes(out.tenscale->bytes, &ts, 4);
  }
  if (shapes->mask.present) {
    const Companion &c = shapes->mask;
    if (compressed) {
      out.mask = makeBuffer(c.compressedShape, c.compressedDtype);
      std::vector<uint32_t> bits(keep.begin(), keep.end());
      out.mask->bytes =
          packAlongAxis(bits, {}, g, 1, c.compressedShape[spec.axis]);
    } else {
      out.mask = makeBuffer(c.shape, c.dtype);
      for (bool k : keep)
        out.mask->bytes.push_back(k);
    }
  }
  return out;
}

llvm::Expected<std::vector<float>>
mlir::spyre::quant::dequantize(const QuantizedTensor &t) {
  const QuantShapes &shapes = t.shapes;
  const QuantSpec &spec = shapes.spec;
  const FormatInfo &info = getFormatInfo(spec.format);
  Geometry g(shapes, t.shape);
  bool isInt = info.isInteger();
  auto check = [&](const std::optional<Buffer> &b, const Companion &c,
                   llvm::StringRef name) -> llvm::Error {
    if (c.present && !b)
      return fail(llvm::formatv("the {0} tensor is missing", name));
    return llvm::Error::success();
  };
  for (auto [b, c, name] :
       {std::make_tuple(&t.scale, &shapes.scale, "scale"),
        std::make_tuple(&t.zero, &shapes.zero, "zero"),
        std::make_tuple(&t.tenscale, &shapes.tenscale, "tenscale"),
        std::make_tuple(&t.meta, &shapes.meta, "meta"),
        std::make_tuple(&t.mask, &shapes.mask, "mask")})
    if (llvm::Error e = check(*b, *c, name))
      return std::move(e);
  int64_t expected = g.numel * (spec.mode == CastMode::Virtual ? 4 : 1);
  if (spec.mode == CastMode::Compressed)
    expected = product(shapes.data.compressedShape);
  if (static_cast<int64_t>(t.data.bytes.size()) != expected)
    return fail(llvm::formatv("the data holds {0} bytes, its shapes say {1}",
                              t.data.bytes.size(), expected));

  if (spec.mode == CastMode::Virtual) {
    std::vector<float> out(g.numel);
    std::memcpy(out.data(), t.data.bytes.data(), 4 * out.size());
    return out;
  }
  bool compressed = spec.mode == CastMode::Compressed;
  std::vector<bool> keep;
  if (t.mask) {
    if (compressed) {
      std::vector<uint32_t> bits = unpackAlongAxis(
          t.mask->bytes, {}, g, 1, shapes.mask.compressedShape[spec.axis]);
      keep.assign(bits.begin(), bits.end());
    } else {
      keep.assign(t.mask->bytes.begin(), t.mask->bytes.end());
    }
  }
  std::vector<uint32_t> codes;
  if (compressed) {
    codes = unpackAlongAxis(
        t.data.bytes, keep, g, dataBits(spec),
        t.shape.empty() ? 1 : shapes.data.compressedShape[spec.axis]);
  } else {
    for (uint8_t byte : t.data.bytes)
      codes.push_back(byte);
  }
  // Codebook meta: the mapping of each tile or subtile.
  std::vector<uint32_t> meta;
  if (t.meta) {
    const Companion &c = shapes.meta;
    int64_t size = product(compressed ? c.compressedShape : c.shape);
    if (static_cast<int64_t>(t.meta->bytes.size()) != size)
      return fail(llvm::formatv("the meta holds {0} bytes, its shapes say {1}",
                                t.meta->bytes.size(), size));
    if (compressed) {
      meta.assign(product(c.shape), 0);
      forEachMetaBit(shapes, [&](int64_t linear, auto byteOf, int64_t bit) {
        for (unsigned b = 0; b < spec.codebook->metaBits; ++b)
          meta[linear] |=
              uint32_t(t.meta->bytes[byteOf(bit + b)] >> ((bit + b) % 8) & 1)
              << b;
      });
    } else {
      meta.assign(t.meta->bytes.begin(), t.meta->bytes.end());
    }
    for (auto [i, m] : llvm::enumerate(meta))
      if (m >= spec.codebook->numMappings())
        return fail(llvm::formatv("meta value {0} (at {1}) selects no mapping "
                                  "of codebook '{2}' ({3} mappings)",
                                  m, i, spec.codebook->code,
                                  spec.codebook->numMappings()));
  }
  if (spec.codebook)
    for (auto [i, code] : llvm::enumerate(codes))
      if (code >= spec.codebook->numEntries())
        return fail(llvm::formatv("data value {0} (at {1}) is no index of "
                                  "codebook '{2}' ({3} entries)",
                                  code, i, spec.codebook->code,
                                  spec.codebook->numEntries()));
  auto elementValue = [&](int64_t i) {
    uint32_t code = codes[i];
    if (spec.codebook) {
      const Codebook &book = *spec.codebook;
      int64_t m = meta.empty() ? 0
                               : meta[g.metaIndex(i, spec.axis, spec.subtile,
                                                  shapes.meta.shape)];
      return book.mappings[m * book.numEntries() + code];
    }
    if (compressed || isInt)
      return decode(spec.format, code);
    return decode(actualFormat(spec.format), code);
  };
  std::vector<double> zero;
  if (t.zero)
    zero = zeroValues(shapes, *t.zero);
  double tenscale = t.tenscale ? tensorScaleValue(*t.tenscale) : 1.0;
  double unit = std::ldexp(1.0, implicitScaleLog2(spec));
  std::vector<float> out(g.numel);
  for (int64_t i = 0; i < g.numel; ++i) {
    if (!keep.empty() && !keep[i]) {
      out[i] = 0;
      continue;
    }
    double q = elementValue(i);
    if (spec.scaling == Scaling::None) {
      out[i] = static_cast<float>(q);
      continue;
    }
    int64_t s = g.scaleIndex(i);
    double scale = loadScale(*spec.scaleType, t.scale->bytes, s);
    double z = zero.empty() ? 0.0 : zero[s];
    out[i] = static_cast<float>((q - z) * unit * scale * tenscale);
  }
  return out;
}
