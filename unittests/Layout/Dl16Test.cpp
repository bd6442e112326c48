//===- Dl16Test.cpp - The DMA numerics: DLFloat16 codec, host integers ----===//
//
// Expected values are derived by hand from the format's definition (1 sign,
// 6 exponent bits with bias 31, 9 fraction bits, no subnormals, one special
// encoding per sign, ties away from zero), never from the code under test.
//
//===----------------------------------------------------------------------===//

#include "Spyre/Layout/Numerics.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstdint>
#include <cstring>

using namespace mlir::spyre;

namespace {

TEST(Dl16, HandDerivedEncodings) {
  EXPECT_EQ(floatToDl16(0.0f), 0x0000);
  EXPECT_EQ(floatToDl16(-0.0f), 0x8000);
  EXPECT_EQ(floatToDl16(1.0f), 31 << 9);             // 2^0
  EXPECT_EQ(floatToDl16(0.5f), 30 << 9);             // 2^-1
  EXPECT_EQ(floatToDl16(-2.0f), 0x8000 | (32 << 9)); // -2^1
  EXPECT_EQ(floatToDl16(1.5f), (31 << 9) | 256);     // 1 + 256/512
  EXPECT_EQ(floatToDl16(65536.0f), 47 << 9);         // 2^16
  EXPECT_EQ(dl16ToFloat(31 << 9), 1.0f);
  EXPECT_EQ(dl16ToFloat((31 << 9) | 1), 1.0f + 1.0f / 512);
  // The largest finite value: exponent and fraction all ones is special.
  EXPECT_EQ(dl16ToFloat(0x7ffe), std::ldexp(1.0f + 510.0f / 512, 32));
  EXPECT_TRUE(std::isinf(dl16ToFloat(0x7fff)) && dl16ToFloat(0x7fff) > 0);
  EXPECT_TRUE(std::isinf(dl16ToFloat(0xffff)) && dl16ToFloat(0xffff) < 0);
  // The smallest positive value: 2^-31 (1 + 1/512); no subnormals.
  EXPECT_EQ(dl16ToFloat(0x0001), std::ldexp(1.0f + 1.0f / 512, -31));
  // A wider range than binary16 (max 65504): bf16's 1.9e6 is finite.
  EXPECT_FALSE(std::isinf(dl16ToFloat(floatToDl16(1925120.0f))));
  EXPECT_EQ(dl16ToFloat(floatToDl16(1925120.0f)), 1925120.0f);
}

TEST(Dl16, SpecialValues) {
  EXPECT_EQ(floatToDl16(INFINITY), 0x7fff);
  EXPECT_EQ(floatToDl16(-INFINITY), 0xffff);
  EXPECT_EQ(floatToDl16(NAN), 0x7fff);
  // Past the largest finite value (and its rounding range): special.
  EXPECT_EQ(floatToDl16(std::ldexp(1.0f, 33)), 0x7fff);
  EXPECT_EQ(floatToDl16(-std::ldexp(1.0f + 511.0f / 512, 32)), 0xffff);
  // Far below the smallest: zero, keeping the sign.
  EXPECT_EQ(floatToDl16(std::ldexp(1.0f, -40)), 0x0000);
  EXPECT_EQ(floatToDl16(-std::ldexp(1.0f, -40)), 0x8000);
}

TEST(Dl16, EveryEncodingRoundTrips) {
  for (uint32_t bits = 0; bits < (1u << 16); ++bits) {
    uint16_t b = static_cast<uint16_t>(bits);
    EXPECT_EQ(floatToDl16(dl16ToFloat(b)), b) << "encoding " << bits;
    EXPECT_EQ(dl16ToFloatTable()[bits], dl16ToFloat(b));
  }
}

TEST(Dl16, EncodingsAreOrdered) {
  // Positive finite encodings increase with their bits; negatives mirror.
  for (uint32_t bits = 1; bits < 0x7ffe; ++bits) {
    EXPECT_LT(dl16ToFloat(static_cast<uint16_t>(bits)),
              dl16ToFloat(static_cast<uint16_t>(bits + 1)));
    EXPECT_EQ(dl16ToFloat(static_cast<uint16_t>(bits | 0x8000)),
              -dl16ToFloat(static_cast<uint16_t>(bits)));
  }
}

TEST(Dl16, HalfwayCasesRoundAwayFromZero) {
  // Between neighbours a < b: the midpoint goes to b (away from zero), the
  // float just below it to a, just above it to b. Midpoints have 11
  // significant bits, exact in float.
  for (uint32_t bits = 1; bits < 0x7ffe; ++bits) {
    float a = dl16ToFloat(static_cast<uint16_t>(bits));
    float b = dl16ToFloat(static_cast<uint16_t>(bits + 1));
    float mid = a + (b - a) / 2;
    ASSERT_EQ(static_cast<double>(mid),
              (static_cast<double>(a) + static_cast<double>(b)) / 2);
    EXPECT_EQ(floatToDl16(mid), bits + 1) << "midpoint above " << bits;
    EXPECT_EQ(floatToDl16(std::nextafter(mid, 0.0f)), bits);
    EXPECT_EQ(floatToDl16(-mid), (bits + 1) | 0x8000);
  }
}

TEST(Dl16, TheSwitchChangesOnlySen169) {
  EXPECT_EQ(getSen169Numerics(), Sen169Numerics::IEEEHalf);
  uint8_t bytes[2];
  {
    ScopedSen169Numerics dl16(Sen169Numerics::DLFloat16);
    storeDeviceElement(DataFormat::SEN169_FP16, bytes, 1.0f);
    EXPECT_EQ(bytes[0] | bytes[1] << 8, 31 << 9);
    EXPECT_EQ(loadDeviceElement(DataFormat::SEN169_FP16, bytes), 1.0f);
    // 100000 overflows binary16 but not DLFloat16.
    EXPECT_EQ(
        llvm::cantFail(encodeDeviceValue(DataFormat::SEN169_FP16, 100000.0)),
        floatToDl16(100000.0f));
    EXPECT_FALSE(isBitExactTransfer(HostType::Float16));
    EXPECT_TRUE(isBitExactTransfer(HostType::Float32));
  }
  EXPECT_EQ(getSen169Numerics(), Sen169Numerics::IEEEHalf);
  storeDeviceElement(DataFormat::SEN169_FP16, bytes, 1.0f);
  EXPECT_EQ(bytes[0] | bytes[1] << 8, 0x3c00); // binary16 1.0
  EXPECT_TRUE(isBitExactTransfer(HostType::Float16));
}

} // namespace

namespace {

// i16 and index host elements: the device holds them as IEEE_INT32, so the
// DMA sign-extends on the way in and keeps the low bits on the way out; as
// numbers they load and store exactly.
TEST(HostIntegers, Int16AndIndexConversions) {
  for (int16_t v : {int16_t(0), int16_t(1), int16_t(-1), int16_t(32767),
                    int16_t(-32768), int16_t(-1234)}) {
    uint8_t bytes[2];
    std::memcpy(bytes, &v, 2);
    uint32_t bits = hostToDeviceBits(HostType::Int16, bytes, 0);
    EXPECT_EQ(static_cast<int32_t>(bits), static_cast<int32_t>(v));
    uint8_t back[2] = {0xaa, 0xaa};
    deviceBitsToHost(HostType::Int16, bits, back);
    EXPECT_EQ(std::memcmp(back, bytes, 2), 0);
    EXPECT_EQ(loadHostElement(HostType::Int16, bytes), v);
    storeHostElement(HostType::Int16, back, static_cast<double>(v));
    EXPECT_EQ(std::memcmp(back, bytes, 2), 0);
  }
  EXPECT_EQ(hostElementBytes(HostType::Int16), 2u);
  EXPECT_EQ(hostElementBytes(HostType::Index), 8u);
  int64_t index = -5;
  uint8_t bytes[8];
  std::memcpy(bytes, &index, 8);
  EXPECT_EQ(loadHostElement(HostType::Index, bytes), -5.0);
  EXPECT_EQ(static_cast<int32_t>(hostToDeviceBits(HostType::Index, bytes, 0)),
            -5);
  // numpy has no index type: int64 buffers stand for index arguments.
  EXPECT_TRUE(acceptsHostType(HostType::Index, HostType::Int64));
  EXPECT_FALSE(acceptsHostType(HostType::Int64, HostType::Index));
  EXPECT_FALSE(acceptsHostType(HostType::Int16, HostType::Int32));
  EXPECT_EQ(npyDescr(HostType::Int16), llvm::StringRef("<i2"));
}

} // namespace
