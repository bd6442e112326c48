//===- DataFormat.cpp - Spyre device data formats
//--------------------------===//
//
// The queries of DataFormat.h, each an expansion of ElementTypes.def. The
// reference stack derives elements-per-stick from the stick byte count and
// the element width; so do we.
//
//===----------------------------------------------------------------------===//

#include "Spyre/Layout/DataFormat.h"

#include "llvm/ADT/StringSwitch.h"

using namespace mlir::spyre;

llvm::StringRef mlir::spyre::stringifyDataFormat(DataFormat format) {
  switch (format) {
#define SPYRE_DATA_FORMAT(Enum, ...)                                           \
  case DataFormat::Enum:                                                       \
    return #Enum;
#include "Spyre/Layout/ElementTypes.def"
  }
  return "<invalid>";
}

std::optional<DataFormat>
mlir::spyre::symbolizeDataFormat(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<DataFormat>>(name)
#define SPYRE_DATA_FORMAT(Enum, ...) .Case(#Enum, DataFormat::Enum)
#include "Spyre/Layout/ElementTypes.def"
      .Default(std::nullopt);
}

llvm::StringRef mlir::spyre::stringifyHostType(HostType type) {
  switch (type) {
#define SPYRE_HOST_TYPE(Enum, Name, ...)                                       \
  case HostType::Enum:                                                         \
    return Name;
#include "Spyre/Layout/ElementTypes.def"
  }
  return "<invalid>";
}

std::optional<HostType> mlir::spyre::symbolizeHostType(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<HostType>>(name)
#define SPYRE_HOST_TYPE(Enum, Name, ...) .Case(Name, HostType::Enum)
#define SPYRE_HOST_TYPE_ALIAS(Enum, Alias) .Case(Alias, HostType::Enum)
#include "Spyre/Layout/ElementTypes.def"
      .Default(std::nullopt);
}

llvm::StringRef
mlir::spyre::stringifyElementArrangement(ElementArrangement arrangement) {
  switch (arrangement) {
  case ElementArrangement::Standard:
    return "STANDARD";
  case ElementArrangement::DL16ToFP32:
    return "DL16_TO_FP32";
  case ElementArrangement::QFP8Ch:
    return "QFP8CH";
  case ElementArrangement::EXX2:
    return "EXX2";
  }
  return "<invalid>";
}

std::optional<ElementArrangement>
mlir::spyre::symbolizeElementArrangement(llvm::StringRef name) {
  std::string upper = name.upper();
  return llvm::StringSwitch<std::optional<ElementArrangement>>(upper)
      .Case("STANDARD", ElementArrangement::Standard)
      .Case("DL16_TO_FP32", ElementArrangement::DL16ToFP32)
      .Case("QFP8CH", ElementArrangement::QFP8Ch)
      .Case("EXX2", ElementArrangement::EXX2)
      .Default(std::nullopt);
}

unsigned mlir::spyre::deviceElementBits(DataFormat format) {
  switch (format) {
#define SPYRE_DATA_FORMAT(Enum, Bits, ...)                                     \
  case DataFormat::Enum:                                                       \
    return Bits;
#include "Spyre/Layout/ElementTypes.def"
  }
  return 0;
}

int64_t mlir::spyre::elemsPerStick(DataFormat format, int64_t stickBytes) {
  int64_t bits = deviceElementBits(format);
  if (bits == 0 || stickBytes <= 0 || (stickBytes * 8) % bits != 0)
    return 0;
  return stickBytes * 8 / bits;
}

bool mlir::spyre::isFloatingPoint(DataFormat format) {
  switch (format) {
#define SPYRE_DATA_FORMAT(Enum, Bits, IsFloat, ...)                            \
  case DataFormat::Enum:                                                       \
    return IsFloat;
#include "Spyre/Layout/ElementTypes.def"
  }
  return false;
}

HostType mlir::spyre::naturalHostType(DataFormat format) {
  switch (format) {
#define SPYRE_DATA_FORMAT(Enum, Bits, IsFloat, Host, ...)                      \
  case DataFormat::Enum:                                                       \
    return HostType::Host;
#include "Spyre/Layout/ElementTypes.def"
  }
  return HostType::Float16;
}

llvm::StringRef mlir::spyre::deviceNumpyDtype(DataFormat format) {
  switch (format) {
#define SPYRE_DATA_FORMAT(Enum, Bits, IsFloat, Host, Python)                   \
  case DataFormat::Enum:                                                       \
    return Python;
#include "Spyre/Layout/ElementTypes.def"
  }
  return "";
}

unsigned mlir::spyre::hostElementBytes(HostType type) {
  switch (type) {
#define SPYRE_HOST_TYPE(Enum, Name, Bytes, ...)                                \
  case HostType::Enum:                                                         \
    return Bytes;
#include "Spyre/Layout/ElementTypes.def"
  }
  return 0;
}

DataFormat mlir::spyre::deviceFormatFor(HostType type) {
  switch (type) {
#define SPYRE_HOST_TYPE(Enum, Name, Bytes, Format, ...)                        \
  case HostType::Enum:                                                         \
    return DataFormat::Format;
#include "Spyre/Layout/ElementTypes.def"
  }
  return DataFormat::SEN169_FP16;
}

bool mlir::spyre::isComputedOnDevice(HostType type) {
  switch (type) {
#define SPYRE_HOST_TYPE(Enum, Name, Bytes, Format, BitExact, Npy, Dci, Python, \
                        MlirType, Computed)                                    \
  case HostType::Enum:                                                         \
    return Computed;
#include "Spyre/Layout/ElementTypes.def"
  }
  llvm_unreachable("unknown host type");
}

bool mlir::spyre::isBitExact(HostType type) {
  switch (type) {
#define SPYRE_HOST_TYPE(Enum, Name, Bytes, Format, BitExact, ...)              \
  case HostType::Enum:                                                         \
    return BitExact;
#include "Spyre/Layout/ElementTypes.def"
  }
  return false;
}

std::optional<llvm::StringRef> mlir::spyre::npyDescr(HostType type) {
  llvm::StringRef descr;
  switch (type) {
#define SPYRE_HOST_TYPE(Enum, Name, Bytes, Format, BitExact, Npy, ...)         \
  case HostType::Enum:                                                         \
    descr = Npy;                                                               \
    break;
#include "Spyre/Layout/ElementTypes.def"
  }
  if (descr.empty())
    return std::nullopt;
  return descr;
}

llvm::StringRef mlir::spyre::dciHostFormat(HostType type) {
  switch (type) {
#define SPYRE_HOST_TYPE(Enum, Name, Bytes, Format, BitExact, Npy, Dci, ...)    \
  case HostType::Enum:                                                         \
    return Dci;
#include "Spyre/Layout/ElementTypes.def"
  }
  return "";
}

llvm::StringRef mlir::spyre::hostNumpyDtype(HostType type) {
  switch (type) {
#define SPYRE_HOST_TYPE(Enum, Name, Bytes, Format, BitExact, Npy, Dci, Python, \
                        ...)                                                   \
  case HostType::Enum:                                                         \
    return Python;
#include "Spyre/Layout/ElementTypes.def"
  }
  return "";
}
