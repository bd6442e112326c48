//===- Numerics.h - Element values in host and device formats ---*- C++ -*-===//
//
// The one place element bits are turned into numbers and back: the device
// formats' encodings (for constants, padding values and the simulator's
// loads and stores), the conversions the DMA does between host and device
// elements (bf16 -> DL16, bool -> DL16, i64 -> i32, i4 packing), and host
// elements read and written as numbers (tools comparing results or drawing
// random inputs). binary16 conversions come from the compiler (_Float16) and
// the CPU (F16C): a 65536-entry table for binary16 -> float, F16C's
// round-to-nearest-even for float -> binary16.
//
//===----------------------------------------------------------------------===//

#ifndef SPYRE_LAYOUT_NUMERICS_H
#define SPYRE_LAYOUT_NUMERICS_H

#include "Spyre/Layout/DataFormat.h"

#include "llvm/Support/Error.h"

#include <cstdint>

namespace mlir::spyre {

/// Encodes `value` in one device element of `format` (little-endian bits in
/// the low bytes of the result). Fails if the value is not representable
/// (e.g. infinity in SEN143_FP8, 1.5 in an integer format).
llvm::Expected<uint32_t> encodeDeviceValue(DataFormat format, double value);

/// Decodes one device element to a double.
double decodeDeviceValue(DataFormat format, uint32_t bits);

//===----------------------------------------------------------------------===//
// SEN169_FP16: DLFloat16 or IEEE binary16
//===----------------------------------------------------------------------===//

/// How SEN169_FP16 elements are encoded. The device stores DLFloat16
/// (IBM's DLFloat, ARITH 2019); IEEE binary16 is the simpler model earlier
/// versions used, kept for comparison (`--numerics=ieee-f16`).
enum class Sen169Numerics { DLFloat16, IEEEHalf };

/// The encoding in effect (process-wide; IEEEHalf unless a
/// ScopedSen169Numerics says otherwise).
Sen169Numerics getSen169Numerics();

/// Sets the encoding for its lifetime (the simulator holds one per run).
class ScopedSen169Numerics {
public:
  explicit ScopedSen169Numerics(Sen169Numerics numerics);
  ~ScopedSen169Numerics();
  ScopedSen169Numerics(const ScopedSen169Numerics &) = delete;
  ScopedSen169Numerics &operator=(const ScopedSen169Numerics &) = delete;

private:
  Sen169Numerics previous;
};

/// DLFloat16 as modelled here (docs/numerics.md gives the sources):
/// 1 sign, 6 exponent (bias 31) and 9 fraction bits, no subnormals; all
/// bits zero but the sign is zero, exponent and fraction all ones is the one
/// special value per sign (read as +-infinity; NaN is stored as it), every
/// other encoding is the normal number (-1)^s * 2^(e - 31) * (1 + f / 512),
/// so the largest is 2^32 * (1 + 510/512) and the smallest 2^-31 *
/// (1 + 1/512). Rounding is to nearest with ties away from zero; values
/// beyond the largest become the special value, values below the smallest
/// positive round to it or to zero.
float dl16ToFloat(uint16_t bits);
uint16_t floatToDl16(float value);
/// All 65536 DLFloat16 encodings as floats.
const float *dl16ToFloatTable();

/// SEN169_FP16 bits -> float table, and float -> bits, in the encoding in
/// effect.
const float *sen169ToFloatTable();
uint16_t floatToSen169(float value);

/// Whether a host element of `type` reaches the device with its bits
/// unchanged, in the encoding in effect (f16 does not under DLFloat16).
bool isBitExactTransfer(HostType type);

/// binary16 bits -> float, through a table filled once.
const float *halfToFloatTable();
inline float halfToFloat(uint16_t bits) { return halfToFloatTable()[bits]; }
/// float -> binary16 bits, rounded to nearest even.
uint16_t floatToHalf(float value);

/// Loads one element of `format` at `p` as a float (SENINT4: unsupported,
/// 0).
float loadDeviceElement(DataFormat format, const uint8_t *p);
/// Stores `value` as one element of `format` at `p`: rounded to nearest
/// (even) for floats, saturated to the largest finite value for fp8, rounded
/// and saturated for integers.
void storeDeviceElement(DataFormat format, uint8_t *p, float value);

/// The DMA's conversion of one host element of `type` at `p` to the bits of
/// its device format (`oneBits`: the device encoding of 1.0, for bool).
uint32_t hostToDeviceBits(HostType type, const uint8_t *p, uint32_t oneBits);
/// The DMA's conversion back: device bits of `type`'s format to one host
/// element at `p`.
void deviceBitsToHost(HostType type, uint32_t bits, uint8_t *p);

/// One host element of `type` at `p` as a number.
double loadHostElement(HostType type, const uint8_t *p);
/// Stores `value` as one host element of `type` at `p` (rounded to nearest
/// even for floats, truncated for integers, `value != 0` for bool).
void storeHostElement(HostType type, uint8_t *p, double value);

} // namespace mlir::spyre

#endif // SPYRE_LAYOUT_NUMERICS_H
