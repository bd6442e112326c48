//===- StickifyTest.cpp - Host <-> device buffers
//--------------------------===//

#include "Spyre/Layout/Stickify.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstring>
#include <numeric>
#include <vector>

using namespace mlir::spyre;
using llvm::ArrayRef;

namespace {

BoundLayout defaultBound(ArrayRef<int64_t> sizes, HostType type,
                         std::optional<ArrayRef<int32_t>> order = {}) {
  HostView host = HostView::contiguous(sizes);
  SpyreTensorLayout layout =
      llvm::cantFail(SpyreTensorLayout::getDefault(host, type, order));
  return llvm::cantFail(layout.bind(host));
}

std::string errorText(llvm::Error err) {
  return err ? llvm::toString(std::move(err)) : "<no error>";
}

TEST(Stickify, RfcLoopNest) {
  // device[i*65536 + j*64 + k] = host[j*256 + i*64 + k]
  BoundLayout bound = defaultBound({1024, 256}, HostType::Float16);
  std::vector<uint16_t> host(1024 * 256);
  std::iota(host.begin(), host.end(), 0);
  std::vector<uint16_t> device(bound.layout().numDeviceElements(), 0xFFFF);
  ASSERT_EQ(
      errorText(stickify(bound, HostType::Float16, host.data(), device.data())),
      "<no error>");
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 1024; ++j)
      for (int k = 0; k < 64; ++k)
        ASSERT_EQ(device[i * 65536 + j * 64 + k], host[j * 256 + i * 64 + k]);
}

TEST(Stickify, PaddingHoldsTheFillValue) {
  BoundLayout bound = defaultBound({1000, 200}, HostType::Float16);
  std::vector<uint16_t> host(1000 * 200, 0x3C00); // 1.0
  std::vector<uint16_t> device(bound.layout().numDeviceElements(), 0);
  ASSERT_EQ(errorText(stickify(bound, HostType::Float16, host.data(),
                               device.data(), -INFINITY)),
            "<no error>");
  // Tile 3 of every row holds 8 values then 56 padding elements.
  for (int row = 0; row < 1000; ++row)
    for (int k = 0; k < 64; ++k)
      ASSERT_EQ(device[3 * 64000 + row * 64 + k], k < 8 ? 0x3C00 : 0xFC00)
          << row << " " << k;
}

TEST(Stickify, SizeOneDimLayoutsAreEquivalent) {
  // [512, 1] and [512] produce the same device bytes.
  std::vector<uint16_t> host(512);
  std::iota(host.begin(), host.end(), 1);
  BoundLayout a = defaultBound({512}, HostType::Float16);
  BoundLayout b = defaultBound({512, 1}, HostType::Float16);
  std::vector<uint16_t> da(a.layout().numDeviceElements());
  std::vector<uint16_t> db(b.layout().numDeviceElements());
  ASSERT_FALSE(static_cast<bool>(
      stickify(a, HostType::Float16, host.data(), da.data())));
  ASSERT_FALSE(static_cast<bool>(
      stickify(b, HostType::Float16, host.data(), db.data())));
  EXPECT_EQ(da, db);
}

TEST(Stickify, EncodesDeviceValues) {
  EXPECT_EQ(llvm::cantFail(encodeDeviceValue(DataFormat::SEN169_FP16, 1.0)),
            0x3C00u);
  EXPECT_EQ(
      llvm::cantFail(encodeDeviceValue(DataFormat::SEN169_FP16, -INFINITY)),
      0xFC00u);
  EXPECT_EQ(llvm::cantFail(encodeDeviceValue(DataFormat::IEEE_FP32, 0.5)),
            0x3F000000u);
  EXPECT_EQ(llvm::cantFail(encodeDeviceValue(DataFormat::SENINT4, -8)), 0x8u);
  EXPECT_EQ(llvm::cantFail(encodeDeviceValue(DataFormat::SENINT8, -1)), 0xFFu);
  EXPECT_EQ(llvm::cantFail(encodeDeviceValue(DataFormat::SEN143_FP8, 1.0)),
            0x38u);
  EXPECT_NE(
      errorText(
          encodeDeviceValue(DataFormat::SEN143_FP8, -INFINITY).takeError())
          .find("not representable in SEN143_FP8"),
      std::string::npos);
  EXPECT_NE(
      errorText(encodeDeviceValue(DataFormat::SEN169_FP16, 1e6).takeError())
          .find("not representable"),
      std::string::npos);
  EXPECT_NE(
      errorText(encodeDeviceValue(DataFormat::IEEE_INT32, 0.5).takeError())
          .find("integers in"),
      std::string::npos);
  EXPECT_NE(errorText(encodeDeviceValue(DataFormat::SENINT4, 8).takeError())
                .find("[-8, 7]"),
            std::string::npos);
  EXPECT_EQ(decodeDeviceValue(DataFormat::SEN169_FP16, 0x3C00), 1.0);
  EXPECT_EQ(decodeDeviceValue(DataFormat::SENINT4, 0xF), -1.0);
}

TEST(Stickify, ConversionsDoneByTheDma) {
  // bf16 -> DL16: values round to nearest even; out-of-range overflows.
  BoundLayout bf16 = defaultBound({4}, HostType::BFloat16);
  std::vector<uint16_t> host = {0x3F80,  // 1.0
                                0x3F81,  // 1.0078125 (exact in f16)
                                0x4780,  // 65536 -> +inf in f16
                                0xC000}; // -2.0
  std::vector<uint16_t> device(64);
  ASSERT_FALSE(static_cast<bool>(
      stickify(bf16, HostType::BFloat16, host.data(), device.data())));
  EXPECT_EQ(device[0], 0x3C00);
  EXPECT_EQ(device[1], 0x3C08);
  EXPECT_EQ(device[2], 0x7C00);
  EXPECT_EQ(device[3], 0xC000);

  // i64 -> i32 keeps the low 32 bits.
  BoundLayout i64 = defaultBound({2}, HostType::Int64);
  std::vector<int64_t> wide = {(int64_t(1) << 32) + 5, -7};
  std::vector<int32_t> narrow(32);
  ASSERT_FALSE(static_cast<bool>(
      stickify(i64, HostType::Int64, wide.data(), narrow.data())));
  EXPECT_EQ(narrow[0], 5);
  EXPECT_EQ(narrow[1], -7);
  std::vector<int64_t> back(2);
  ASSERT_FALSE(static_cast<bool>(
      unstickify(i64, HostType::Int64, narrow.data(), back.data())));
  EXPECT_EQ(back[0], 5);
  EXPECT_EQ(back[1], -7);

  // bool -> DL16 0.0 / 1.0.
  BoundLayout flags = defaultBound({3}, HostType::Bool);
  std::vector<uint8_t> bits = {0, 1, 1};
  std::vector<uint16_t> halves(64);
  ASSERT_FALSE(static_cast<bool>(
      stickify(flags, HostType::Bool, bits.data(), halves.data())));
  EXPECT_EQ(halves[0], 0x0000);
  EXPECT_EQ(halves[1], 0x3C00);

  // i4: packed two per byte along the stick, low nibble first.
  BoundLayout int4 = defaultBound({3}, HostType::Int4);
  std::vector<int8_t> nibbles = {1, -2, 7};
  std::vector<uint8_t> packed(128, 0xEE);
  ASSERT_FALSE(static_cast<bool>(
      stickify(int4, HostType::Int4, nibbles.data(), packed.data())));
  EXPECT_EQ(packed[0], 0xE1);
  EXPECT_EQ(packed[1], 0x07); // 7, then the zero padding nibble
  EXPECT_EQ(packed[2], 0x00);
  std::vector<int8_t> unpacked(3);
  ASSERT_FALSE(static_cast<bool>(
      unstickify(int4, HostType::Int4, packed.data(), unpacked.data())));
  EXPECT_EQ(unpacked, nibbles);
}

TEST(Stickify, Errors) {
  BoundLayout f16 = defaultBound({4, 4}, HostType::Float16);
  std::vector<uint8_t> buffer(4096);
  EXPECT_NE(
      errorText(stickify(f16, HostType::Float32, buffer.data(), buffer.data()))
          .find("host elements of type float32 are stored as "
                "IEEE_FP32, but the layout's device format is "
                "SEN169_FP16"),
      std::string::npos);
  EXPECT_NE(errorText(stickify(f16, HostType::Float16, buffer.data(),
                               buffer.data(), 1e9))
                .find("pad value: value 1e+09 is not representable"),
            std::string::npos);
  BoundLayout int4 = defaultBound({2}, HostType::Int4);
  std::vector<int8_t> bad = {3, 9};
  EXPECT_NE(errorText(stickify(int4, HostType::Int4, bad.data(), buffer.data()))
                .find("outside [-8, 7]"),
            std::string::npos);
}

TEST(Stickify, LargeTransfersTakeTheStreamingPath) {
  // 32 MiB: above the streaming threshold; the device buffer is offset by 8
  // bytes once to exercise the unaligned fallback too.
  for (int misalign : {0, 8}) {
    BoundLayout bound = defaultBound({4096, 4096}, HostType::Float16);
    std::vector<uint16_t> host(4096 * 4096);
    for (size_t i = 0; i < host.size(); ++i)
      host[i] = static_cast<uint16_t>(i * 2654435761u >> 7);
    std::vector<uint8_t> storage(bound.layout().deviceBytes() + 64);
    uint8_t *device = storage.data() + misalign;
    ASSERT_FALSE(static_cast<bool>(
        stickify(bound, HostType::Float16, host.data(), device)));
    uint16_t sample;
    std::memcpy(&sample, device + 2 * (5 * 4096 * 64 + 77 * 64 + 3), 2);
    EXPECT_EQ(sample, host[77 * 4096 + 5 * 64 + 3]);
    std::vector<uint16_t> back(host.size(), 0);
    ASSERT_FALSE(static_cast<bool>(
        unstickify(bound, HostType::Float16, device, back.data())));
    EXPECT_EQ(back, host);
  }
}

TEST(Stickify, TransposedStick) {
  // dim_order [1, 0]: each stick gathers a column.
  BoundLayout bound =
      defaultBound({128, 96}, HostType::Float16, ArrayRef<int32_t>{1, 0});
  std::vector<uint16_t> host(128 * 96);
  std::iota(host.begin(), host.end(), 0);
  std::vector<uint16_t> device(bound.layout().numDeviceElements());
  ASSERT_FALSE(static_cast<bool>(
      stickify(bound, HostType::Float16, host.data(), device.data())));
  // device [2 (row tiles), 96 (columns), 64 (rows)]
  EXPECT_EQ(device[(1 * 96 + 5) * 64 + 3], host[(64 + 3) * 96 + 5]);
  std::vector<uint16_t> back(host.size());
  ASSERT_FALSE(static_cast<bool>(
      unstickify(bound, HostType::Float16, device.data(), back.data())));
  EXPECT_EQ(back, host);
}

} // namespace
