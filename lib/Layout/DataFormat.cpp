//===- DataFormat.cpp - Spyre device data formats --------------------------===//
//
// Tables for device formats and host types. The reference stack derives
// elements-per-stick from the stick byte count and the element width; so do
// we.
//
//===----------------------------------------------------------------------===//

#include "Spyre/Layout/DataFormat.h"

#include "llvm/ADT/StringSwitch.h"

using namespace mlir::spyre;

llvm::StringRef mlir::spyre::stringifyDataFormat(DataFormat format) {
  switch (format) {
  case DataFormat::SEN169_FP16:
    return "SEN169_FP16";
  case DataFormat::IEEE_FP32:
    return "IEEE_FP32";
  case DataFormat::IEEE_INT32:
    return "IEEE_INT32";
  case DataFormat::SENINT8:
    return "SENINT8";
  case DataFormat::SEN143_FP8:
    return "SEN143_FP8";
  case DataFormat::SEN152_FP8:
    return "SEN152_FP8";
  case DataFormat::SENINT4:
    return "SENINT4";
  }
  return "<invalid>";
}

std::optional<DataFormat> mlir::spyre::symbolizeDataFormat(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<DataFormat>>(name)
      .Case("SEN169_FP16", DataFormat::SEN169_FP16)
      .Case("IEEE_FP32", DataFormat::IEEE_FP32)
      .Case("IEEE_INT32", DataFormat::IEEE_INT32)
      .Case("SENINT8", DataFormat::SENINT8)
      .Case("SEN143_FP8", DataFormat::SEN143_FP8)
      .Case("SEN152_FP8", DataFormat::SEN152_FP8)
      .Case("SENINT4", DataFormat::SENINT4)
      .Default(std::nullopt);
}

llvm::StringRef mlir::spyre::stringifyHostType(HostType type) {
  switch (type) {
  case HostType::Float16:
    return "float16";
  case HostType::BFloat16:
    return "bfloat16";
  case HostType::Float32:
    return "float32";
  case HostType::Bool:
    return "bool";
  case HostType::Int8:
    return "int8";
  case HostType::Int32:
    return "int32";
  case HostType::Int64:
    return "int64";
  case HostType::Float8E4M3FN:
    return "float8_e4m3fn";
  case HostType::Float8E5M2:
    return "float8_e5m2";
  case HostType::Int4:
    return "int4";
  }
  return "<invalid>";
}

std::optional<HostType> mlir::spyre::symbolizeHostType(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<HostType>>(name)
      .Cases({"float16", "half", "f16"}, HostType::Float16)
      .Cases({"bfloat16", "bf16"}, HostType::BFloat16)
      .Cases({"float32", "f32"}, HostType::Float32)
      .Cases({"bool", "bool_", "i1"}, HostType::Bool)
      .Cases({"int8", "i8"}, HostType::Int8)
      .Cases({"int32", "i32"}, HostType::Int32)
      .Cases({"int64", "i64"}, HostType::Int64)
      .Cases({"float8_e4m3fn", "f8E4M3FN"}, HostType::Float8E4M3FN)
      .Cases({"float8_e5m2", "f8E5M2"}, HostType::Float8E5M2)
      .Cases({"int4", "i4"}, HostType::Int4)
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
  case DataFormat::SEN169_FP16:
    return 16;
  case DataFormat::IEEE_FP32:
  case DataFormat::IEEE_INT32:
    return 32;
  case DataFormat::SENINT8:
  case DataFormat::SEN143_FP8:
  case DataFormat::SEN152_FP8:
    return 8;
  case DataFormat::SENINT4:
    return 4;
  }
  return 0;
}

int64_t mlir::spyre::elemsPerStick(DataFormat format, int64_t stickBytes) {
  int64_t bits = deviceElementBits(format);
  if (bits == 0 || stickBytes <= 0 || (stickBytes * 8) % bits != 0)
    return 0;
  return stickBytes * 8 / bits;
}

unsigned mlir::spyre::hostElementBytes(HostType type) {
  switch (type) {
  case HostType::Float16:
  case HostType::BFloat16:
    return 2;
  case HostType::Float32:
  case HostType::Int32:
    return 4;
  case HostType::Int64:
    return 8;
  case HostType::Bool:
  case HostType::Int8:
  case HostType::Float8E4M3FN:
  case HostType::Float8E5M2:
  case HostType::Int4:
    return 1;
  }
  return 0;
}

DataFormat mlir::spyre::deviceFormatFor(HostType type) {
  switch (type) {
  case HostType::Float16:
  case HostType::BFloat16:
  case HostType::Bool:
    return DataFormat::SEN169_FP16;
  case HostType::Float32:
    return DataFormat::IEEE_FP32;
  case HostType::Int32:
  case HostType::Int64:
    return DataFormat::IEEE_INT32;
  case HostType::Int8:
    return DataFormat::SENINT8;
  case HostType::Float8E4M3FN:
    return DataFormat::SEN143_FP8;
  case HostType::Float8E5M2:
    return DataFormat::SEN152_FP8;
  case HostType::Int4:
    return DataFormat::SENINT4;
  }
  return DataFormat::SEN169_FP16;
}

HostType mlir::spyre::naturalHostType(DataFormat format) {
  switch (format) {
  case DataFormat::SEN169_FP16:
    return HostType::Float16;
  case DataFormat::IEEE_FP32:
    return HostType::Float32;
  case DataFormat::IEEE_INT32:
    return HostType::Int32;
  case DataFormat::SENINT8:
    return HostType::Int8;
  case DataFormat::SEN143_FP8:
    return HostType::Float8E4M3FN;
  case DataFormat::SEN152_FP8:
    return HostType::Float8E5M2;
  case DataFormat::SENINT4:
    return HostType::Int4;
  }
  return HostType::Float16;
}

bool mlir::spyre::isFloatingPoint(DataFormat format) {
  switch (format) {
  case DataFormat::SEN169_FP16:
  case DataFormat::IEEE_FP32:
  case DataFormat::SEN143_FP8:
  case DataFormat::SEN152_FP8:
    return true;
  default:
    return false;
  }
}
