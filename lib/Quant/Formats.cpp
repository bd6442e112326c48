//===- Formats.cpp - Quantized element formats and their codecs -----------===//
//
// Every float format is encoded and decoded by llvm::APFloat (its OCP and
// fnuz semantics); this file adds saturation, the unsigned zero of the fnuz
// 6- and 4-bit formats, and the integers.
//
//===----------------------------------------------------------------------===//

#include "Spyre/Quant/Quant.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/APInt.h"
#include "llvm/ADT/StringExtras.h"

#include <cmath>

using namespace mlir::spyre::quant;

namespace {

FormatInfo makeInfo(Format format, llvm::StringRef name, FormatKind kind,
                    unsigned bits, const llvm::fltSemantics &sem,
                    llvm::StringRef actual, bool negZeroIsNaN) {
  FormatInfo info{format,       name, kind, bits, nullptr, actual,
                  negZeroIsNaN, 0,    0,    0,    false,   false};
  switch (kind) {
  case FormatKind::Float:
  case FormatKind::Exponent:
    info.semantics = &sem;
    info.maxValue = llvm::APFloat::getLargest(sem).convertToDouble();
    info.lowest = kind == FormatKind::Exponent
                      ? llvm::APFloat::getSmallest(sem).convertToDouble()
                      : -info.maxValue;
    info.emax = std::ilogb(info.maxValue);
    info.hasNaN = negZeroIsNaN || llvm::APFloat::semanticsHasNaN(sem);
    info.hasInfinity = llvm::APFloat::semanticsHasInf(sem);
    break;
  case FormatKind::Int:
    info.maxValue = std::ldexp(1.0, bits - 1) - 1;
    info.lowest = -std::ldexp(1.0, bits - 1);
    break;
  case FormatKind::UInt:
    info.maxValue = std::ldexp(1.0, bits) - 1;
    info.lowest = 0;
    break;
  }
  return info;
}

const std::vector<FormatInfo> &table() {
  static const std::vector<FormatInfo> infos = {
#define SPYRE_QUANT_FORMAT(Enum, Name, Kind, Bits, Semantics, Actual,          \
                           NegZeroIsNaN)                                       \
  makeInfo(Format::Enum, Name, FormatKind::Kind, Bits,                         \
           llvm::APFloat::Semantics(), Actual, NegZeroIsNaN),
#include "Spyre/Quant/Formats.def"
  };
  return infos;
}

} // namespace

const FormatInfo &mlir::spyre::quant::getFormatInfo(Format format) {
  return table()[static_cast<size_t>(format)];
}

llvm::ArrayRef<Format> mlir::spyre::quant::allFormats() {
  static const std::vector<Format> formats = [] {
    std::vector<Format> all;
    for (const FormatInfo &info : table())
      all.push_back(info.format);
    return all;
  }();
  return formats;
}

std::optional<Format> mlir::spyre::quant::parseFormat(llvm::StringRef name) {
  for (const FormatInfo &info : table())
    if (info.name == name)
      return info.format;
  return std::nullopt;
}

std::string mlir::spyre::quant::formatNames() {
  llvm::SmallVector<llvm::StringRef> names;
  for (const FormatInfo &info : table())
    names.push_back(info.name);
  return llvm::join(names, ", ");
}

uint32_t mlir::spyre::quant::encode(Format format, double value,
                                    bool saturate) {
  const FormatInfo &info = getFormatInfo(format);
  uint32_t mask = (1u << info.bits) - 1;
  uint32_t negativeZero = 1u << (info.bits - 1);
  if (info.isInteger()) {
    if (std::isnan(value))
      return 0;
    double rounded =
        std::clamp(std::nearbyint(value), info.lowest, info.maxValue);
    return static_cast<uint32_t>(static_cast<int64_t>(rounded)) & mask;
  }
  const llvm::fltSemantics &sem = *info.semantics;
  if (std::isnan(value)) {
    if (info.negZeroIsNaN)
      return negativeZero;
    if (!info.hasNaN)
      return 0;
    return llvm::APFloat::getNaN(sem).bitcastToAPInt().getZExtValue() & mask;
  }
  if (std::isinf(value) && info.hasInfinity)
    return llvm::APFloat::getInf(sem, value < 0)
               .bitcastToAPInt()
               .getZExtValue() &
           mask;
  // Saturate (E8M0 holds only positive powers of two, 2^-127 the smallest),
  // or overflow as APFloat's conversion does.
  if (saturate || !(info.hasNaN || info.hasInfinity))
    value = std::clamp(value, info.lowest, info.maxValue);
  else if (std::isinf(value))
    return llvm::APFloat::getNaN(sem).bitcastToAPInt().getZExtValue() & mask;
  llvm::APFloat converted(value);
  bool losesInfo = false;
  converted.convert(sem, llvm::APFloat::rmNearestTiesToEven, &losesInfo);
  uint32_t code =
      static_cast<uint32_t>(converted.bitcastToAPInt().getZExtValue()) & mask;
  if (info.negZeroIsNaN && code == negativeZero)
    return 0;
  return code;
}

double mlir::spyre::quant::decode(Format format, uint32_t code) {
  const FormatInfo &info = getFormatInfo(format);
  code &= (1u << info.bits) - 1;
  switch (info.kind) {
  case FormatKind::Int:
    return static_cast<double>(llvm::APInt(info.bits, code).getSExtValue());
  case FormatKind::UInt:
    return static_cast<double>(code);
  case FormatKind::Exponent:
    // APFloat reads E8M0's NaN (0xff) as a number; the value is 2^(code-127).
    return code == 0xff ? std::nan("") : std::ldexp(1.0, int(code) - 127);
  case FormatKind::Float:
    break;
  }
  if (info.negZeroIsNaN && code == (1u << (info.bits - 1)))
    return std::nan("");
  return llvm::APFloat(*info.semantics, llvm::APInt(info.bits, code))
      .convertToDouble();
}
