//===- DataFormat.h - Spyre device data formats and host dtypes -*- C++ -*-===//
//
// The data formats a Spyre device stores, the host element types that map to
// them, and how many elements of each fit in a stick. Everything that needs
// "elements per stick" derives it from here (and from the stick byte count of
// the target), never from a literal.
//
//===----------------------------------------------------------------------===//

#ifndef SPYRE_LAYOUT_DATAFORMAT_H
#define SPYRE_LAYOUT_DATAFORMAT_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>

namespace mlir::spyre {

/// Bytes in one stick on the reference machine. Targets may override it; this
/// is the default used where no target is in scope (for example when a layout
/// attribute is verified against its tensor type).
constexpr int64_t kDefaultStickBytes = 128;

/// Device data formats (the reference stack's `DataFormats`); the facts of
/// each are columns of ElementTypes.def.
enum class DataFormat : uint8_t {
#define SPYRE_DATA_FORMAT(Enum, ...) Enum,
#include "Spyre/Layout/ElementTypes.def"
};

/// Host element types (the torch dtypes the reference stack accepts).
enum class HostType : uint8_t {
#define SPYRE_HOST_TYPE(Enum, ...) Enum,
#include "Spyre/Layout/ElementTypes.def"
};

/// How device coordinates are arranged inside sticks. Everything but
/// `Standard` is produced by specific on-device conversions or reductions.
enum class ElementArrangement : uint8_t {
  Standard,   ///< sequential element order (default)
  DL16ToFP32, ///< order produced by on-device dl16 -> fp32 conversion
  QFP8Ch,     ///< order produced by fp8 channel quantization (qfp8ch)
  EXX2,       ///< two values per stick (layer-norm statistics)
};

/// Reference-stack spelling, e.g. "SEN169_FP16".
llvm::StringRef stringifyDataFormat(DataFormat format);
std::optional<DataFormat> symbolizeDataFormat(llvm::StringRef name);

/// Canonical numpy/torch spelling, e.g. "float16", "bfloat16", "bool".
llvm::StringRef stringifyHostType(HostType type);
/// Accepts the canonical names plus common aliases ("half", "f16", "float").
std::optional<HostType> symbolizeHostType(llvm::StringRef name);

/// Reference-stack spelling, e.g. "STANDARD", "EXX2".
llvm::StringRef stringifyElementArrangement(ElementArrangement arrangement);
/// Accepts the reference spelling in any letter case ("exx2", "EXX2").
std::optional<ElementArrangement>
symbolizeElementArrangement(llvm::StringRef name);

/// Width of one device element in bits (4 for SENINT4).
unsigned deviceElementBits(DataFormat format);

/// Elements of `format` in one stick of `stickBytes` bytes. Returns 0 if the
/// stick does not hold a whole number of elements.
int64_t elemsPerStick(DataFormat format,
                      int64_t stickBytes = kDefaultStickBytes);

/// Bytes one host element occupies in a host buffer. Bool is one byte; Int4
/// values are held one per byte (int8 storage) on the host and packed only on
/// the device.
unsigned hostElementBytes(HostType type);

/// The device format the DMA converts a host type to.
DataFormat deviceFormatFor(HostType type);

/// The host type that holds a device format's values without conversion.
HostType naturalHostType(DataFormat format);

bool isFloatingPoint(DataFormat format);

/// Whether the device stores host elements of `type` bit for bit.
bool isBitExact(HostType type);

/// Whether device ops compute on `type` once transferred (f64 and the fnuz
/// fp8s travel, converted by value, but their ops stay on the host).
bool isComputedOnDevice(HostType type);

/// The .npy descriptor of `type` ("<f2"), or none when numpy has no such
/// type.
std::optional<llvm::StringRef> npyDescr(HostType type);

/// Whether a host buffer of `given` elements can stand for one of
/// `expected` elements: the same type, or int64 for `index` (numpy and .npy
/// files have no index type; the bytes are the same).
inline bool acceptsHostType(HostType expected, HostType given) {
  return expected == given ||
         (expected == HostType::Index && given == HostType::Int64);
}

/// The runtime's host-side format name of `type` in DCI descriptors.
llvm::StringRef dciHostFormat(HostType type);

/// The numpy dtype of a host buffer of `type` (raw bits where numpy has no
/// such type, e.g. "uint16" for bfloat16), and of a device buffer's raw
/// elements of `format`.
llvm::StringRef hostNumpyDtype(HostType type);
llvm::StringRef deviceNumpyDtype(DataFormat format);

} // namespace mlir::spyre

#endif // SPYRE_LAYOUT_DATAFORMAT_H
