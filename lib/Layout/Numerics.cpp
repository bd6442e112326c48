//===- Numerics.cpp - Element values in host and device formats -----------===//

#include "Spyre/Layout/Numerics.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/APInt.h"
#include "llvm/Support/FormatVariadic.h"

#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define SPYRE_X86 1
#endif

using namespace mlir::spyre;

/// The SEN169_FP16 encoding in effect (ScopedSen169Numerics).
static Sen169Numerics currentSen169 = Sen169Numerics::IEEEHalf;

namespace {
constexpr int kDl16Bias = 31;
constexpr uint16_t kDl16Special = 0x7fff; // exponent and fraction all ones
} // namespace

/// Shortest round-trip text of a value, for diagnostics ("1e+09", "-inf").
static std::string formatValue(double value) {
  if (std::isnan(value))
    return "nan";
  if (std::isinf(value))
    return value < 0 ? "-inf" : "inf";
  char buffer[64];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof(buffer), value);
  return std::string(buffer, ec == std::errc() ? end : buffer);
}

/// The IEEE-style semantics of a floating-point format (DL16 modelled as
/// binary16), or null for integer formats.
static const llvm::fltSemantics *semanticsOf(DataFormat format) {
  switch (format) {
  case DataFormat::SEN169_FP16:
    return &llvm::APFloat::IEEEhalf();
  case DataFormat::IEEE_FP32:
    return &llvm::APFloat::IEEEsingle();
  case DataFormat::SEN143_FP8:
    return &llvm::APFloat::Float8E4M3FN();
  case DataFormat::SEN152_FP8:
    return &llvm::APFloat::Float8E5M2();
  default:
    return nullptr;
  }
}

llvm::Expected<uint32_t> mlir::spyre::encodeDeviceValue(DataFormat format,
                                                        double value) {
  if (format == DataFormat::SEN169_FP16 &&
      currentSen169 == Sen169Numerics::DLFloat16) {
    uint16_t bits = floatToDl16(static_cast<float>(value));
    bool special = (bits & 0x7fff) == kDl16Special;
    if (special != (std::isinf(value) || std::isnan(value)))
      return llvm::createStringError(
          llvm::formatv("value {0} is not representable in DLFloat16 "
                        "(largest {1})",
                        formatValue(value), formatValue(dl16ToFloat(0x7ffe))));
    return bits;
  }
  if (const llvm::fltSemantics *sem = semanticsOf(format)) {
    llvm::APFloat converted(value);
    bool losesInfo = false;
    converted.convert(*sem, llvm::APFloat::rmNearestTiesToEven, &losesInfo);
    bool inRange = std::isnan(value) ? converted.isNaN()
                   : std::isinf(value)
                       ? converted.isInfinity()
                       : !converted.isNaN() && !converted.isInfinity();
    if (!inRange)
      return llvm::createStringError(
          llvm::formatv("value {0} is not representable in {1}",
                        formatValue(value), stringifyDataFormat(format)));
    return static_cast<uint32_t>(converted.bitcastToAPInt().getZExtValue());
  }
  unsigned bits = deviceElementBits(format);
  double lo = -std::ldexp(1.0, bits - 1), hi = std::ldexp(1.0, bits - 1) - 1;
  if (value != std::trunc(value) || value < lo || value > hi)
    return llvm::createStringError(llvm::formatv(
        "value {0} is not representable in {1} (integers in [{2}, {3}])",
        formatValue(value), stringifyDataFormat(format),
        static_cast<int64_t>(lo), static_cast<int64_t>(hi)));
  uint64_t mask = bits == 32 ? 0xffffffffULL : ((1ULL << bits) - 1);
  return static_cast<uint32_t>(
      static_cast<uint64_t>(static_cast<int64_t>(value)) & mask);
}

double mlir::spyre::decodeDeviceValue(DataFormat format, uint32_t bits) {
  if (format == DataFormat::SEN169_FP16 &&
      currentSen169 == Sen169Numerics::DLFloat16)
    return dl16ToFloat(static_cast<uint16_t>(bits));
  unsigned width = deviceElementBits(format);
  if (const llvm::fltSemantics *sem = semanticsOf(format))
    return llvm::APFloat(*sem, llvm::APInt(width, bits)).convertToDouble();
  return static_cast<double>(llvm::APInt(width, bits).getSExtValue());
}

//===----------------------------------------------------------------------===//
// binary16
//===----------------------------------------------------------------------===//

const float *mlir::spyre::halfToFloatTable() {
  static const std::vector<float> table = [] {
    std::vector<float> t(1 << 16);
    for (uint32_t bits = 0; bits < (1u << 16); ++bits) {
      uint16_t b = static_cast<uint16_t>(bits);
      _Float16 h;
      std::memcpy(&h, &b, 2);
      t[bits] = static_cast<float>(h);
    }
    return t;
  }();
  return table.data();
}

#ifdef SPYRE_X86
__attribute__((target("f16c"))) static uint16_t floatToHalfF16C(float v) {
  return static_cast<uint16_t>(_mm_extract_epi16(
      _mm_cvtps_ph(_mm_set_ss(v), _MM_FROUND_TO_NEAREST_INT), 0));
}
#endif

uint16_t mlir::spyre::floatToHalf(float value) {
#ifdef SPYRE_X86
  static const bool f16c = __builtin_cpu_supports("f16c");
  if (f16c)
    return floatToHalfF16C(value);
#endif
  _Float16 h = static_cast<_Float16>(value);
  uint16_t bits;
  std::memcpy(&bits, &h, 2);
  return bits;
}

//===----------------------------------------------------------------------===//
// DLFloat16
//===----------------------------------------------------------------------===//

Sen169Numerics mlir::spyre::getSen169Numerics() { return currentSen169; }

ScopedSen169Numerics::ScopedSen169Numerics(Sen169Numerics numerics)
    : previous(currentSen169) {
  currentSen169 = numerics;
}
ScopedSen169Numerics::~ScopedSen169Numerics() { currentSen169 = previous; }

float mlir::spyre::dl16ToFloat(uint16_t bits) {
  bool negative = bits & 0x8000;
  uint16_t magnitude = bits & 0x7fff;
  float value;
  if (magnitude == 0)
    value = 0.0f;
  else if (magnitude == kDl16Special)
    value = std::numeric_limits<float>::infinity();
  else
    value = std::ldexp(1.0f + static_cast<float>(magnitude & 0x1ff) / 512.0f,
                       static_cast<int>(magnitude >> 9) - kDl16Bias);
  return negative ? -value : value;
}

uint16_t mlir::spyre::floatToDl16(float value) {
  uint16_t sign = std::signbit(value) ? 0x8000 : 0;
  if (std::isnan(value))
    return kDl16Special;
  if (std::isinf(value))
    return sign | kDl16Special;
  double magnitude = std::fabs(static_cast<double>(value));
  if (magnitude == 0.0)
    return sign;
  int exponent;
  double mantissa = std::frexp(magnitude, &exponent); // [0.5, 1)
  // magnitude = (2 * mantissa) * 2^(exponent - 1), 2 * mantissa in [1, 2).
  int biased = exponent - 1 + kDl16Bias;
  // The 9 fraction bits, rounded to nearest with ties away from zero (exact
  // in double: a float has 24 significant bits).
  double scaled = (2.0 * mantissa - 1.0) * 512.0;
  int64_t fraction = static_cast<int64_t>(std::floor(scaled + 0.5));
  if (fraction == 512) {
    fraction = 0;
    ++biased;
  }
  if (biased < 0) {
    // Below 2^-31: the nearest of zero and the smallest positive value.
    double smallest = std::ldexp(1.0 + 1.0 / 512.0, -kDl16Bias);
    return magnitude * 2.0 >= smallest ? sign | 1 : sign;
  }
  if (biased > 63)
    return sign | kDl16Special;
  uint16_t bits = static_cast<uint16_t>((biased << 9) | fraction);
  if (bits == kDl16Special) // past the largest finite value
    return sign | kDl16Special;
  if (bits == 0) // 2^-31 exactly is not representable: round up
    bits = 1;
  return sign | bits;
}

const float *mlir::spyre::dl16ToFloatTable() {
  static const std::vector<float> table = [] {
    std::vector<float> t(1 << 16);
    for (uint32_t bits = 0; bits < (1u << 16); ++bits)
      t[bits] = dl16ToFloat(static_cast<uint16_t>(bits));
    return t;
  }();
  return table.data();
}

const float *mlir::spyre::sen169ToFloatTable() {
  return currentSen169 == Sen169Numerics::DLFloat16 ? dl16ToFloatTable()
                                                    : halfToFloatTable();
}

uint16_t mlir::spyre::floatToSen169(float value) {
  return currentSen169 == Sen169Numerics::DLFloat16 ? floatToDl16(value)
                                                    : floatToHalf(value);
}

bool mlir::spyre::isBitExactTransfer(HostType type) {
  if (type == HostType::Float16 && currentSen169 == Sen169Numerics::DLFloat16)
    return false;
  return isBitExact(type);
}

//===----------------------------------------------------------------------===//
// Device elements
//===----------------------------------------------------------------------===//

float mlir::spyre::loadDeviceElement(DataFormat format, const uint8_t *p) {
  switch (format) {
  case DataFormat::SEN169_FP16: {
    uint16_t bits;
    std::memcpy(&bits, p, 2);
    return sen169ToFloatTable()[bits];
  }
  case DataFormat::IEEE_FP32: {
    float f;
    std::memcpy(&f, p, 4);
    return f;
  }
  case DataFormat::IEEE_INT32: {
    int32_t i;
    std::memcpy(&i, p, 4);
    return static_cast<float>(i);
  }
  case DataFormat::SENINT8:
    return static_cast<float>(static_cast<int8_t>(*p));
  case DataFormat::SEN143_FP8:
  case DataFormat::SEN152_FP8:
    return static_cast<float>(decodeDeviceValue(format, *p));
  case DataFormat::SENINT4:
    break;
  }
  return 0;
}

void mlir::spyre::storeDeviceElement(DataFormat format, uint8_t *p, float v) {
  switch (format) {
  case DataFormat::SEN169_FP16: {
    uint16_t bits = floatToSen169(v);
    std::memcpy(p, &bits, 2);
    return;
  }
  case DataFormat::IEEE_FP32:
    std::memcpy(p, &v, 4);
    return;
  case DataFormat::IEEE_INT32: {
    double r = std::nearbyint(static_cast<double>(v));
    r = std::min<double>(std::max<double>(r, INT32_MIN), INT32_MAX);
    int32_t i = static_cast<int32_t>(r);
    std::memcpy(p, &i, 4);
    return;
  }
  case DataFormat::SENINT8: {
    float r = std::nearbyint(std::min(std::max(v, -128.0f), 127.0f));
    *p = static_cast<uint8_t>(static_cast<int8_t>(r));
    return;
  }
  case DataFormat::SEN143_FP8:
  case DataFormat::SEN152_FP8: {
    // Saturate to the largest finite value, as a quantizing store does.
    double limit = format == DataFormat::SEN143_FP8 ? 448.0 : 57344.0;
    double clamped =
        std::isnan(v) ? v : std::min(std::max<double>(v, -limit), limit);
    llvm::Expected<uint32_t> bits = encodeDeviceValue(format, clamped);
    if (!bits) {
      llvm::consumeError(bits.takeError());
      *p = 0x7F;
      return;
    }
    *p = static_cast<uint8_t>(*bits);
    return;
  }
  case DataFormat::SENINT4:
    return;
  }
}

//===----------------------------------------------------------------------===//
// The DMA's conversions
//===----------------------------------------------------------------------===//

static const llvm::fltSemantics *semanticsOf(HostType type);

/// Whether the DMA converts `type` through its value (a float type the
/// device stores in another float format: f64, the fnuz fp8s).
static bool convertsByValue(HostType type) {
  return !isComputedOnDevice(type) && semanticsOf(type);
}

uint32_t mlir::spyre::hostToDeviceBits(HostType type, const uint8_t *p,
                                       uint32_t oneBits) {
  if (convertsByValue(type)) {
    uint32_t bits = 0;
    storeDeviceElement(deviceFormatFor(type),
                       reinterpret_cast<uint8_t *>(&bits),
                       static_cast<float>(loadHostElement(type, p)));
    return bits;
  }
  switch (type) {
  case HostType::BFloat16: {
    uint16_t raw;
    std::memcpy(&raw, p, 2);
    llvm::APFloat value(llvm::APFloat::BFloat(), llvm::APInt(16, raw));
    if (currentSen169 == Sen169Numerics::DLFloat16)
      return floatToDl16(value.convertToFloat());
    bool losesInfo;
    value.convert(llvm::APFloat::IEEEhalf(), llvm::APFloat::rmNearestTiesToEven,
                  &losesInfo);
    return static_cast<uint32_t>(value.bitcastToAPInt().getZExtValue());
  }
  case HostType::Float16: {
    uint16_t raw;
    std::memcpy(&raw, p, 2);
    if (currentSen169 == Sen169Numerics::DLFloat16)
      return floatToDl16(halfToFloat(raw));
    return raw;
  }
  case HostType::Bool:
    return *p ? oneBits : 0;
  case HostType::Int16: {
    int16_t v;
    std::memcpy(&v, p, 2);
    return static_cast<uint32_t>(static_cast<int32_t>(v));
  }
  case HostType::Int64:
  case HostType::Index: {
    int64_t v;
    std::memcpy(&v, p, 8);
    return static_cast<uint32_t>(v);
  }
  case HostType::Int4:
    return static_cast<uint32_t>(*p) & 0xf;
  default: {
    uint32_t bits = 0;
    std::memcpy(&bits, p, hostElementBytes(type));
    return bits;
  }
  }
}

void mlir::spyre::deviceBitsToHost(HostType type, uint32_t bits, uint8_t *p) {
  if (convertsByValue(type)) {
    storeHostElement(
        type, p,
        loadDeviceElement(deviceFormatFor(type),
                          reinterpret_cast<const uint8_t *>(&bits)));
    return;
  }
  bool dl16 = currentSen169 == Sen169Numerics::DLFloat16;
  switch (type) {
  case HostType::Float16: {
    uint16_t raw = dl16 ? floatToHalf(dl16ToFloat(static_cast<uint16_t>(bits)))
                        : static_cast<uint16_t>(bits);
    std::memcpy(p, &raw, 2);
    return;
  }
  case HostType::BFloat16: {
    if (dl16) {
      llvm::APFloat value(dl16ToFloat(static_cast<uint16_t>(bits)));
      bool losesInfo;
      value.convert(llvm::APFloat::BFloat(), llvm::APFloat::rmNearestTiesToEven,
                    &losesInfo);
      uint16_t raw =
          static_cast<uint16_t>(value.bitcastToAPInt().getZExtValue());
      std::memcpy(p, &raw, 2);
      return;
    }
    llvm::APFloat value(llvm::APFloat::IEEEhalf(), llvm::APInt(16, bits));
    bool losesInfo;
    value.convert(llvm::APFloat::BFloat(), llvm::APFloat::rmNearestTiesToEven,
                  &losesInfo);
    uint16_t raw = static_cast<uint16_t>(value.bitcastToAPInt().getZExtValue());
    std::memcpy(p, &raw, 2);
    return;
  }
  case HostType::Bool:
    *p = (bits & 0x7fff) != 0;
    return;
  case HostType::Int16: {
    auto v = static_cast<int16_t>(static_cast<int32_t>(bits));
    std::memcpy(p, &v, 2);
    return;
  }
  case HostType::Int64:
  case HostType::Index: {
    int64_t v = static_cast<int32_t>(bits);
    std::memcpy(p, &v, 8);
    return;
  }
  case HostType::Int4: {
    int8_t v = static_cast<int8_t>(bits << 4) >> 4;
    *p = static_cast<uint8_t>(v);
    return;
  }
  default:
    std::memcpy(p, &bits, hostElementBytes(type));
    return;
  }
}

//===----------------------------------------------------------------------===//
// Host elements as numbers
//===----------------------------------------------------------------------===//

/// The semantics of a floating-point host type, or null.
static const llvm::fltSemantics *semanticsOf(HostType type) {
  switch (type) {
  case HostType::Float16:
    return &llvm::APFloat::IEEEhalf();
  case HostType::BFloat16:
    return &llvm::APFloat::BFloat();
  case HostType::Float32:
    return &llvm::APFloat::IEEEsingle();
  case HostType::Float8E4M3FN:
    return &llvm::APFloat::Float8E4M3FN();
  case HostType::Float8E5M2:
    return &llvm::APFloat::Float8E5M2();
  case HostType::Float64:
    return &llvm::APFloat::IEEEdouble();
  case HostType::Float8E4M3FNUZ:
    return &llvm::APFloat::Float8E4M3FNUZ();
  case HostType::Float8E5M2FNUZ:
    return &llvm::APFloat::Float8E5M2FNUZ();
  case HostType::Float8E8M0FNU:
    return &llvm::APFloat::Float8E8M0FNU();
  case HostType::Float4E2M1FN:
    return &llvm::APFloat::Float4E2M1FN();
  default:
    return nullptr;
  }
}

double mlir::spyre::loadHostElement(HostType type, const uint8_t *p) {
  unsigned bytes = hostElementBytes(type);
  switch (type) {
  case HostType::Float16: {
    uint16_t bits;
    std::memcpy(&bits, p, 2);
    return halfToFloat(bits);
  }
  case HostType::Float32: {
    float f;
    std::memcpy(&f, p, 4);
    return f;
  }
  case HostType::Bool:
    return *p != 0;
  case HostType::Int8:
  case HostType::Int4:
    return static_cast<int8_t>(*p);
  case HostType::Int16: {
    int16_t x;
    std::memcpy(&x, p, 2);
    return x;
  }
  case HostType::Int32: {
    int32_t x;
    std::memcpy(&x, p, 4);
    return x;
  }
  case HostType::Int64:
  case HostType::Index: {
    int64_t x;
    std::memcpy(&x, p, 8);
    return static_cast<double>(x);
  }
  default:
    break;
  }
  uint64_t raw = 0;
  std::memcpy(&raw, p, bytes);
  // A format narrower than its byte (fp4) holds its code in the low bits.
  const llvm::fltSemantics &sem = *semanticsOf(type);
  unsigned bits = llvm::APFloat::getSizeInBits(sem);
  if (bits < 64)
    raw &= (uint64_t(1) << bits) - 1;
  return llvm::APFloat(sem, llvm::APInt(bits, raw)).convertToDouble();
}

void mlir::spyre::storeHostElement(HostType type, uint8_t *p, double value) {
  unsigned bytes = hostElementBytes(type);
  if (const llvm::fltSemantics *sem = semanticsOf(type)) {
    if (type == HostType::Float32) {
      float f = static_cast<float>(value);
      std::memcpy(p, &f, 4);
      return;
    }
    llvm::APFloat converted(value);
    bool losesInfo = false;
    converted.convert(*sem, llvm::APFloat::rmNearestTiesToEven, &losesInfo);
    uint64_t raw = converted.bitcastToAPInt().getZExtValue();
    std::memcpy(p, &raw, bytes);
    return;
  }
  if (type == HostType::Bool) {
    *p = value != 0;
    return;
  }
  int64_t integer = static_cast<int64_t>(value);
  std::memcpy(p, &integer, bytes); // little-endian: the low bytes
}
