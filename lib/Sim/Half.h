//===- Half.h - Fast IEEE binary16 <-> float for the simulator -*- C++ -*-===//
//
// Internal to lib/Sim. The conversions are the compiler's (_Float16) and the
// CPU's (F16C, when the host has it): binary16 -> float goes through a table
// the compiler's conversion fills once; float -> binary16 uses F16C's
// round-to-nearest-even conversion, or the compiler's where F16C is missing.
//
//===----------------------------------------------------------------------===//

#ifndef SPYRE_LIB_SIM_HALF_H
#define SPYRE_LIB_SIM_HALF_H

#include <cstdint>
#include <cstring>
#include <vector>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define SPYRE_SIM_X86 1
#endif

namespace mlir::spyre::sim {

inline const float *halfTable() {
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

inline float halfToFloat(uint16_t bits) { return halfTable()[bits]; }

#ifdef SPYRE_SIM_X86
__attribute__((target("f16c"))) inline uint16_t floatToHalfF16C(float v) {
  return static_cast<uint16_t>(_mm_extract_epi16(
      _mm_cvtps_ph(_mm_set_ss(v), _MM_FROUND_TO_NEAREST_INT), 0));
}
#endif

inline uint16_t floatToHalf(float v) {
#ifdef SPYRE_SIM_X86
  static const bool f16c = __builtin_cpu_supports("f16c");
  if (f16c)
    return floatToHalfF16C(v);
#endif
  _Float16 h = static_cast<_Float16>(v);
  uint16_t bits;
  std::memcpy(&bits, &h, 2);
  return bits;
}

} // namespace mlir::spyre::sim

#endif // SPYRE_LIB_SIM_HALF_H
