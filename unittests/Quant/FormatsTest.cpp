//===- FormatsTest.cpp - Every encoding of every quantized format ---------===//
//
// The codecs are checked against a decoder written here from the formats'
// definitions (sign, exponent, mantissa and bias; OCP OFP8 and MX v1.0, the
// fnuz convention of LLVM and Graphcore), not against LLVM's APFloat that the
// library uses.
//
//===----------------------------------------------------------------------===//

#include "Spyre/Quant/Quant.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace mlir::spyre::quant;

namespace {

enum class Specials { IEEE, AllOnesNaN, NegZeroNaN, None };

struct Definition {
  Format format;
  unsigned ebits, mbits;
  int bias;
  Specials specials;
};

const Definition kFloats[] = {
    {Format::E4M3FN, 4, 3, 7, Specials::AllOnesNaN},
    {Format::E5M2, 5, 2, 15, Specials::IEEE},
    {Format::E4M3FNUZ, 4, 3, 8, Specials::NegZeroNaN},
    {Format::E5M2FNUZ, 5, 2, 16, Specials::NegZeroNaN},
    {Format::E3M2FNUZ, 3, 2, 3, Specials::NegZeroNaN},
    {Format::E2M3FNUZ, 2, 3, 1, Specials::NegZeroNaN},
    {Format::E2M1FNUZ, 2, 1, 1, Specials::NegZeroNaN},
    {Format::E3M2FN, 3, 2, 3, Specials::None},
    {Format::E2M3FN, 2, 3, 1, Specials::None},
    {Format::E2M1FN, 2, 1, 1, Specials::None},
};

double definedValue(const Definition &d, uint32_t code) {
  unsigned bits = 1 + d.ebits + d.mbits;
  bool negative = code >> (bits - 1);
  uint32_t exponent = (code >> d.mbits) & ((1u << d.ebits) - 1);
  uint32_t mantissa = code & ((1u << d.mbits) - 1);
  uint32_t allOnes = (1u << d.ebits) - 1;
  switch (d.specials) {
  case Specials::IEEE:
    if (exponent == allOnes)
      return mantissa ? NAN : (negative ? -INFINITY : INFINITY);
    break;
  case Specials::AllOnesNaN:
    if (exponent == allOnes && mantissa == (1u << d.mbits) - 1)
      return NAN;
    break;
  case Specials::NegZeroNaN:
    if (code == 1u << (bits - 1))
      return NAN;
    break;
  case Specials::None:
    break;
  }
  double fraction = mantissa / std::ldexp(1.0, d.mbits);
  double magnitude = exponent == 0
                         ? std::ldexp(fraction, 1 - d.bias)
                         : std::ldexp(1.0 + fraction, int(exponent) - d.bias);
  return negative ? -magnitude : magnitude;
}

TEST(Formats, EveryFloatEncodingMatchesItsDefinition) {
  for (const Definition &d : kFloats) {
    const FormatInfo &info = getFormatInfo(d.format);
    ASSERT_EQ(info.bits, 1 + d.ebits + d.mbits) << info.name.str();
    for (uint32_t code = 0; code < (1u << info.bits); ++code) {
      double expected = definedValue(d, code);
      double actual = decode(d.format, code);
      SCOPED_TRACE(info.name.str() + " code " + std::to_string(code));
      if (std::isnan(expected)) {
        EXPECT_TRUE(std::isnan(actual));
        EXPECT_TRUE(std::isnan(decode(d.format, encode(d.format, NAN))));
        continue;
      }
      EXPECT_EQ(actual, expected);
      EXPECT_EQ(std::signbit(actual), std::signbit(expected));
      // Every value encodes back to its own code.
      EXPECT_EQ(encode(d.format, expected), code);
    }
  }
}

TEST(Formats, EveryE8M0EncodingIsAPowerOfTwo) {
  for (uint32_t code = 0; code < 256; ++code) {
    double value = decode(Format::E8M0, code);
    if (code == 0xff) {
      EXPECT_TRUE(std::isnan(value));
      continue;
    }
    EXPECT_EQ(value, std::ldexp(1.0, int(code) - 127)) << code;
    EXPECT_EQ(encode(Format::E8M0, value), code);
  }
  EXPECT_EQ(encode(Format::E8M0, NAN), 0xffu);
}

TEST(Formats, EveryIntegerEncoding) {
  struct {
    Format format;
    int lo, hi;
  } ints[] = {{Format::Int8, -128, 127},
              {Format::Int4, -8, 7},
              {Format::UInt8, 0, 255},
              {Format::UInt4, 0, 15},
              {Format::Int2, -2, 1}};
  for (auto [format, lo, hi] : ints) {
    const FormatInfo &info = getFormatInfo(format);
    int seen = 0;
    for (uint32_t code = 0; code < (1u << info.bits); ++code) {
      double v = decode(format, code);
      EXPECT_GE(v, lo);
      EXPECT_LE(v, hi);
      EXPECT_EQ(encode(format, v), code);
      ++seen;
    }
    EXPECT_EQ(seen, hi - lo + 1);
    EXPECT_EQ(info.maxValue, hi);
    EXPECT_EQ(info.lowest, lo);
    // Saturation and round half to even.
    EXPECT_EQ(decode(format, encode(format, hi + 10.0)), hi);
    EXPECT_EQ(decode(format, encode(format, lo - 10.0)), lo);
  }
  EXPECT_EQ(decode(Format::Int8, encode(Format::Int8, 2.5)), 2);
  EXPECT_EQ(decode(Format::Int8, encode(Format::Int8, 3.5)), 4);
  EXPECT_EQ(decode(Format::Int8, encode(Format::Int8, -2.5)), -2);
}

TEST(Formats, KnownValuesFromTheDefinitions) {
  // OFP8 (OCP 8-bit floating point v1.0, table 1).
  EXPECT_EQ(getFormatInfo(Format::E4M3FN).maxValue, 448);
  EXPECT_EQ(encode(Format::E4M3FN, 448), 0x7eu);
  EXPECT_EQ(encode(Format::E4M3FN, NAN) & 0x7f, 0x7fu);
  EXPECT_EQ(decode(Format::E4M3FN, 0x01), std::ldexp(1.0, -9));
  EXPECT_EQ(getFormatInfo(Format::E5M2).maxValue, 57344);
  EXPECT_EQ(encode(Format::E5M2, INFINITY), 0x7cu);
  EXPECT_EQ(decode(Format::E5M2, 0x01), std::ldexp(1.0, -16));
  // fnuz: bias one more, 0x80 is NaN, no negative zero.
  EXPECT_EQ(getFormatInfo(Format::E4M3FNUZ).maxValue, 240);
  EXPECT_EQ(encode(Format::E4M3FNUZ, -0.0), 0u);
  EXPECT_EQ(getFormatInfo(Format::E5M2FNUZ).maxValue, 57344);
  EXPECT_EQ(decode(Format::E4M3FNUZ, 0x01), std::ldexp(1.0, -10));
  // MX v1.0 element types (table 2): FP6 E3M2 max 28, E2M3 max 7.5, FP4 6.
  EXPECT_EQ(getFormatInfo(Format::E3M2FN).maxValue, 28);
  EXPECT_EQ(getFormatInfo(Format::E2M3FN).maxValue, 7.5);
  EXPECT_EQ(getFormatInfo(Format::E2M1FN).maxValue, 6);
  EXPECT_EQ(getFormatInfo(Format::E3M2FN).emax, 4);
  EXPECT_EQ(getFormatInfo(Format::E2M3FN).emax, 2);
  EXPECT_EQ(getFormatInfo(Format::E2M1FN).emax, 2);
  EXPECT_EQ(getFormatInfo(Format::E4M3FN).emax, 8);
  EXPECT_EQ(getFormatInfo(Format::E5M2).emax, 15);
  const double fp4[] = {0, 0.5, 1, 1.5, 2, 3, 4, 6};
  for (uint32_t code = 0; code < 8; ++code) {
    EXPECT_EQ(decode(Format::E2M1FN, code), fp4[code]);
    EXPECT_EQ(decode(Format::E2M1FN, code | 8), -fp4[code]);
  }
  EXPECT_EQ(decode(Format::E8M0, 0x7f), 1.0);
}

TEST(Formats, RoundingIsToNearestEvenAndSaturates) {
  // FP4: ties go to the even mantissa.
  EXPECT_EQ(decode(Format::E2M1FN, encode(Format::E2M1FN, 0.25)), 0);
  EXPECT_EQ(decode(Format::E2M1FN, encode(Format::E2M1FN, 0.75)), 1);
  EXPECT_EQ(decode(Format::E2M1FN, encode(Format::E2M1FN, 2.5)), 2);
  EXPECT_EQ(decode(Format::E2M1FN, encode(Format::E2M1FN, 5)), 4);
  EXPECT_EQ(decode(Format::E2M1FN, encode(Format::E2M1FN, 5.01)), 6);
  // Beyond the range: the largest magnitude, also for infinities where the
  // format has none.
  EXPECT_EQ(encode(Format::E2M1FN, 100), 0x7u);
  EXPECT_EQ(encode(Format::E2M1FN, -100), 0xfu);
  EXPECT_EQ(encode(Format::E4M3FN, 1e6), 0x7eu);
  EXPECT_EQ(encode(Format::E4M3FN, -INFINITY), 0xfeu);
  EXPECT_EQ(encode(Format::E5M2, 1e6), 0x7bu);
  // Formats without NaN write zero (the block's scale carries the NaN).
  EXPECT_EQ(encode(Format::E2M1FN, NAN), 0u);
  EXPECT_EQ(encode(Format::Int8, NAN), 0u);
  // The unsigned zero of the fnuz formats.
  EXPECT_EQ(encode(Format::E2M1FNUZ, -0.0), 0u);
  EXPECT_EQ(encode(Format::E2M1FNUZ, -0.1), 0u);
}

// Without saturation, fp8 overflows as APFloat's conversion (and so MLIR's
// arith.truncf) does: to NaN for e4m3fn, which has no infinity, to
// infinity for e5m2; what rounds to the largest value still does.
TEST(Formats, WithoutSaturationFp8OverflowsAsACastDoes) {
  // e4m3fn: 448 is the largest; 464 is the tie between it and the next
  // step (480), which goes to the even mantissa, 448.
  EXPECT_EQ(encode(Format::E4M3FN, 464, /*saturate=*/false), 0x7eu);
  EXPECT_EQ(encode(Format::E4M3FN, 465, /*saturate=*/false), 0x7fu);
  EXPECT_EQ(encode(Format::E4M3FN, -1e6, /*saturate=*/false), 0xffu);
  EXPECT_EQ(encode(Format::E4M3FN, INFINITY, /*saturate=*/false), 0x7fu);
  EXPECT_TRUE(
      std::isnan(decode(Format::E4M3FN, encode(Format::E4M3FN, 500, false))));
  // e5m2: 57344 (odd mantissa) is the largest; 61440, the tie with the
  // next step (65536, even), rounds to it and so overflows to infinity.
  EXPECT_EQ(encode(Format::E5M2, 61439, /*saturate=*/false), 0x7bu);
  EXPECT_EQ(encode(Format::E5M2, 61440, /*saturate=*/false), 0x7cu);
  EXPECT_EQ(encode(Format::E5M2, -1e6, /*saturate=*/false), 0xfcu);
  // Saturating (the default), the same values give the largest.
  EXPECT_EQ(encode(Format::E4M3FN, 465), 0x7eu);
  EXPECT_EQ(encode(Format::E5M2, 61441), 0x7bu);
  // In range, both agree.
  for (double v : {0.1, 1.0, -3.3, 447.0, 0.001})
    EXPECT_EQ(encode(Format::E4M3FN, v, false), encode(Format::E4M3FN, v));
}

TEST(Formats, NamesParse) {
  for (Format format : allFormats())
    EXPECT_EQ(parseFormat(getFormatInfo(format).name), format);
  EXPECT_FALSE(parseFormat("fp5"));
  EXPECT_NE(formatNames().find("e2m1fnuz"), std::string::npos);
}

} // namespace
