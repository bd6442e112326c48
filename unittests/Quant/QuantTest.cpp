//===- QuantTest.cpp - Scales, companion shapes, quantize, dequantize -----===//

#include "Spyre/Quant/Quant.h"

#include "llvm/ADT/APFloat.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>

using namespace mlir::spyre::quant;
using llvm::SmallVector;

namespace {

QuantShapes shapesOf(llvm::ArrayRef<int64_t> shape, const QuantSpec &spec) {
  llvm::Expected<QuantShapes> shapes = computeShapes(shape, spec);
  if (!shapes) {
    ADD_FAILURE() << llvm::toString(shapes.takeError());
    return {};
  }
  return *shapes;
}

std::string errorOf(llvm::ArrayRef<int64_t> shape, const QuantSpec &spec) {
  llvm::Expected<QuantShapes> shapes = computeShapes(shape, spec);
  if (shapes)
    return "";
  return llvm::toString(shapes.takeError());
}

using Shape = SmallVector<int64_t>;

QuantSpec mx(Format format) {
  QuantSpec spec;
  spec.format = format;
  spec.scaling = Scaling::MX;
  return spec;
}

TEST(QuantShapes, TileScalesDivideTheScaledDimCeil) {
  QuantSpec spec;
  spec.format = Format::E4M3FN;
  spec.scaling = Scaling::Tile;
  spec.tile = 32;
  QuantShapes s = shapesOf({7, 100}, spec);
  EXPECT_EQ(s.scale.shape, Shape({7, 4}));
  EXPECT_EQ(s.scale.compressedShape, Shape({7, 4}));
  EXPECT_EQ(s.scale.dtype, "float32");
  EXPECT_EQ(s.data.compressedShape, Shape({7, 100}));
  EXPECT_EQ(s.data.compressedDtype, "float8_e4m3fn");
  // Along dim 0 instead.
  spec.axis = 0;
  spec.tile = 3;
  s = shapesOf({7, 100}, spec);
  EXPECT_EQ(s.scale.shape, Shape({3, 100}));
  EXPECT_FALSE(s.zero.present);
  EXPECT_FALSE(s.mask.present);
  EXPECT_FALSE(s.tenscale.present);
}

TEST(QuantShapes, MXFP4PacksTwoPerByteAndCosts425Bits) {
  QuantShapes s = shapesOf({4, 256}, mx(Format::E2M1FN));
  EXPECT_EQ(s.data.compressedShape, Shape({4, 128}));
  EXPECT_EQ(s.data.compressedDtype, "uint8");
  EXPECT_EQ(s.data.dtype, "float8_e4m3fn");
  EXPECT_EQ(s.scale.shape, Shape({4, 8}));
  EXPECT_EQ(s.scale.dtype, "float8_e8m0fnu");
  EXPECT_DOUBLE_EQ(s.bitsPerValue, 4.25);
  EXPECT_DOUBLE_EQ(shapesOf({4, 256}, mx(Format::E4M3FN)).bitsPerValue, 8.25);
  // fp6 takes a byte.
  EXPECT_DOUBLE_EQ(shapesOf({4, 256}, mx(Format::E3M2FN)).bitsPerValue, 8.25);
  // On 128-byte sticks: 256 fp4 values and 8 scales, 128 fp8 and 4.
  llvm::Expected<StickFit> fit = fitOnSticks(s, 128);
  ASSERT_TRUE(bool(fit));
  EXPECT_EQ(fit->valuesPerStick, 256);
  EXPECT_EQ(fit->scalesPerStick, 8);
  fit = fitOnSticks(shapesOf({4, 256}, mx(Format::E5M2)), 128);
  ASSERT_TRUE(bool(fit));
  EXPECT_EQ(fit->valuesPerStick, 128);
  EXPECT_EQ(fit->scalesPerStick, 4);
}

TEST(QuantShapes, TwoBitValuesPackFourPerByteWithAPartialByte) {
  QuantSpec spec;
  spec.format = Format::Int2;
  spec.scaling = Scaling::Channel;
  spec.axis = 0;
  QuantShapes s = shapesOf({10, 3}, spec);
  EXPECT_EQ(s.data.compressedShape, Shape({3, 3}));
  EXPECT_EQ(s.scale.shape, Shape({1, 3}));
  EXPECT_EQ(s.data.dtype, "int8");
}

TEST(QuantShapes, MatrixTilesReduceBothDimsButPackOnlyOne) {
  QuantSpec spec;
  spec.format = Format::UInt4;
  spec.scaling = Scaling::Matrix;
  spec.axis = 1;
  spec.tile = 32;
  spec.axis2 = 0;
  spec.tile2 = 16;
  spec.zeroPoint = true;
  QuantShapes s = shapesOf({64, 100}, spec);
  EXPECT_EQ(s.scale.shape, Shape({4, 4}));
  EXPECT_EQ(s.scale.compressedShape, Shape({4, 4}));
  // Zero points are uint4: they pack, scales do not.
  EXPECT_EQ(s.zero.shape, Shape({4, 4}));
  EXPECT_EQ(s.zero.dtype, "uint8");
  EXPECT_EQ(s.zero.compressedShape, Shape({4, 2}));
  EXPECT_EQ(s.data.compressedShape, Shape({64, 50}));
}

TEST(QuantShapes, SparsityOmitsPrunedValuesAndPacksTheMask) {
  QuantSpec spec = mx(Format::E2M1FNUZ);
  spec.sparsityPercent = 50;
  QuantShapes s = shapesOf({8, 64}, spec);
  EXPECT_EQ(s.data.compressedShape, Shape({8, 16}));
  EXPECT_EQ(s.mask.shape, Shape({8, 64}));
  EXPECT_EQ(s.mask.dtype, "bool");
  EXPECT_EQ(s.mask.compressedShape, Shape({8, 8}));
  EXPECT_EQ(s.mask.compressedDtype, "uint8");
  spec.sparsityPercent = 25;
  EXPECT_EQ(shapesOf({8, 64}, spec).data.compressedShape, Shape({8, 24}));
}

TEST(QuantShapes, TensorAndMultiscale) {
  QuantSpec spec;
  spec.format = Format::E4M3FN;
  spec.scaling = Scaling::Tensor;
  QuantShapes s = shapesOf({5, 6, 7}, spec);
  EXPECT_EQ(s.scale.shape, Shape({1, 1, 1}));
  EXPECT_FALSE(s.tenscale.present);
  spec.scaling = Scaling::Tile;
  spec.tile = 16;
  spec.multiscale = true;
  spec.scaleType = ScaleType::E4M3FN;
  s = shapesOf({5, 6, 32}, spec);
  EXPECT_TRUE(s.tenscale.present);
  EXPECT_TRUE(s.tenscale.shape.empty());
  EXPECT_EQ(s.scale.shape, Shape({5, 6, 2}));
  EXPECT_EQ(s.scale.dtype, "float8_e4m3fn");
}

TEST(QuantShapes, BadSpecsAreExplained) {
  QuantSpec spec = mx(Format::E2M1FN);
  spec.axis = 2;
  EXPECT_EQ(errorOf({4, 4}, spec),
            "axis 2 is out of range for a rank-2 tensor");
  spec = mx(Format::Int4);
  EXPECT_NE(errorOf({4, 64}, spec).find("not an MX element format"),
            std::string::npos);
  spec = mx(Format::E2M1FN);
  spec.tile = 64;
  EXPECT_EQ(errorOf({4, 64}, spec),
            "MX scaling uses blocks of 32 values (tile = 64)");
  spec = QuantSpec();
  spec.format = Format::UInt4;
  EXPECT_NE(errorOf({4, 64}, spec).find("zero_point=True"), std::string::npos);
  spec.format = Format::E8M0;
  EXPECT_EQ(errorOf({4, 64}, spec),
            "e8m0 is a scale format, not a data format");
  spec = mx(Format::E2M1FN);
  spec.sparsityPercent = 50;
  EXPECT_NE(errorOf({4, 66}, spec).find("not a multiple of the sparse group"),
            std::string::npos);
  spec.sparsityPercent = 30;
  EXPECT_EQ(errorOf({4, 64}, spec), "sparsity is 25 or 50 percent (got 30)");
  spec = QuantSpec();
  spec.format = Format::Int8;
  spec.scaling = Scaling::None;
  EXPECT_NE(errorOf({4}, spec).find("needs a scale"), std::string::npos);
  // A tile of 48 int8 values straddles 128-byte sticks.
  spec = QuantSpec();
  spec.format = Format::Int8;
  spec.tile = 48;
  llvm::Expected<StickFit> fit = fitOnSticks(shapesOf({2, 96}, spec), 128);
  ASSERT_FALSE(bool(fit));
  EXPECT_NE(llvm::toString(fit.takeError()).find("straddle"),
            std::string::npos);
}

std::vector<float> randomValues(size_t n, unsigned seed, float spread = 4) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> normal(0, 1);
  std::vector<float> v(n);
  for (float &x : v)
    x = normal(rng) * std::exp2(spread * normal(rng) / 4);
  return v;
}

std::vector<float> roundTrip(llvm::ArrayRef<float> values,
                             llvm::ArrayRef<int64_t> shape, QuantSpec spec) {
  llvm::Expected<QuantizedTensor> q = quantize(values, shape, spec);
  if (!q) {
    ADD_FAILURE() << llvm::toString(q.takeError());
    return {};
  }
  llvm::Expected<std::vector<float>> back = dequantize(*q);
  if (!back) {
    ADD_FAILURE() << llvm::toString(back.takeError());
    return {};
  }
  return *back;
}

// All three cast modes stand for the same values: quantize-dequantize
// (virtual), the actual dtype, and the packed bytes read back.
TEST(Quantize, TheThreeModesAgreeForEveryFormatAndScheme) {
  Shape shape = {6, 96};
  std::vector<float> x = randomValues(6 * 96, 7);
  struct Case {
    Format format;
    Scaling scaling;
    bool zero;
    unsigned sparsity;
    bool multiscale;
  };
  std::vector<Case> cases;
  for (Format f : allFormats()) {
    const FormatInfo &info = getFormatInfo(f);
    if (info.kind == FormatKind::Exponent)
      continue;
    bool isInt = info.kind != FormatKind::Float;
    bool needsZero = info.kind == FormatKind::UInt;
    for (Scaling s : {Scaling::None, Scaling::Tensor, Scaling::Channel,
                      Scaling::Tile, Scaling::Matrix, Scaling::MX}) {
      if (s == Scaling::None && isInt)
        continue;
      if (s == Scaling::MX &&
          (needsZero || f == Format::Int4 || f == Format::Int2 ||
           f == Format::E4M3FNUZ || f == Format::E5M2FNUZ))
        continue;
      cases.push_back({f, s, needsZero && s != Scaling::MX, 0, false});
      if (s == Scaling::Tile) {
        cases.push_back({f, s, needsZero, 50, false});
        if (!isInt)
          cases.push_back({f, s, false, 25, true});
        if (isInt && !needsZero)
          cases.push_back({f, s, true, 0, false});
      }
    }
  }
  for (const Case &c : cases) {
    QuantSpec spec;
    spec.format = c.format;
    spec.scaling = c.scaling;
    spec.zeroPoint = c.zero;
    spec.sparsityPercent = c.sparsity;
    spec.multiscale = c.multiscale;
    spec.tile = 32;
    spec.axis2 = 0;
    spec.tile2 = 4;
    SCOPED_TRACE(getFormatInfo(c.format).name.str() + " " +
                 stringifyScaling(c.scaling).str() +
                 " zero=" + std::to_string(c.zero) +
                 " sparsity=" + std::to_string(c.sparsity));
    std::vector<std::vector<float>> results;
    for (CastMode mode :
         {CastMode::Virtual, CastMode::Actual, CastMode::Compressed}) {
      spec.mode = mode;
      results.push_back(roundTrip(x, shape, spec));
    }
    ASSERT_EQ(results[0].size(), x.size());
    for (size_t i = 0; i < x.size(); ++i) {
      ASSERT_EQ(results[1][i], results[0][i]) << i;
      ASSERT_EQ(results[2][i], results[0][i]) << i;
    }
    // Quantizing what came back changes nothing (without sparsity, whose
    // choice among equal magnitudes may differ).
    if (!c.sparsity && !c.multiscale && !c.zero) {
      spec.mode = CastMode::Virtual;
      std::vector<float> again = roundTrip(results[0], shape, spec);
      for (size_t i = 0; i < x.size(); ++i)
        ASSERT_EQ(again[i], results[0][i]) << i;
    }
  }
}

TEST(Quantize, MXFP4FollowsTheOCPAlgorithm) {
  // One block of 32: the largest magnitude 6.5 has exponent 2, FP4's emax is
  // 2, so the shared scale is 2^0 and the values round to FP4 directly; 6.5
  // saturates to 6.
  std::vector<float> x(32, 0.0f);
  x[0] = 6.5f;
  x[1] = -2.5f; // tie: 2 (even mantissa)
  x[2] = 0.3f;  // nearest 0.5
  x[3] = 0.2f;  // nearest 0
  x[4] = 1.25f; // tie between 1 and 1.5: 1
  llvm::Expected<QuantizedTensor> q = quantize(x, {32}, mx(Format::E2M1FN));
  ASSERT_TRUE(bool(q));
  ASSERT_EQ(q->scale->bytes.size(), 1u);
  EXPECT_EQ(q->scale->bytes[0], 127);
  // Packed low nibble first: codes 7 (6.0), 0xc (-2.0), 1 (0.5), 0, 2 (1.0).
  ASSERT_EQ(q->data.bytes.size(), 16u);
  EXPECT_EQ(q->data.bytes[0], 0xc7);
  EXPECT_EQ(q->data.bytes[1], 0x01);
  EXPECT_EQ(q->data.bytes[2], 0x02);
  // Scaled by 2^-10: the exponent follows, the codes do not change.
  for (float &v : x)
    v = std::ldexp(v, -10);
  q = quantize(x, {32}, mx(Format::E2M1FN));
  ASSERT_TRUE(bool(q));
  EXPECT_EQ(q->scale->bytes[0], 117);
  EXPECT_EQ(q->data.bytes[0], 0xc7);
  // An all-zero block gets the smallest scale, a NaN one the NaN scale.
  std::vector<float> zeros(64, 0.0f);
  zeros[40] = NAN;
  q = quantize(zeros, {64}, mx(Format::E4M3FN));
  ASSERT_TRUE(bool(q));
  EXPECT_EQ(q->scale->bytes[0], 0);
  EXPECT_EQ(q->scale->bytes[1], 0xff);
  llvm::Expected<std::vector<float>> back = dequantize(*q);
  ASSERT_TRUE(bool(back));
  EXPECT_EQ((*back)[0], 0.0f);
  EXPECT_TRUE(std::isnan((*back)[33]));
}

TEST(Quantize, MXINT8HasAnImplicitScaleOfTwoToTheMinusSix) {
  std::vector<float> x(32, 0.0f);
  x[0] = 1.0f;
  x[1] = -0.5f;
  x[2] = 1.99f;
  llvm::Expected<QuantizedTensor> q = quantize(x, {32}, mx(Format::Int8));
  ASSERT_TRUE(bool(q));
  EXPECT_EQ(q->scale->bytes[0], 127); // emax_elem of MXINT8 is 0
  EXPECT_EQ(static_cast<int8_t>(q->data.bytes[0]), 64);
  EXPECT_EQ(static_cast<int8_t>(q->data.bytes[1]), -32);
  EXPECT_EQ(static_cast<int8_t>(q->data.bytes[2]), 127);
}

TEST(Quantize, Int8PerChannelWithZeroPointsStaysWithinHalfAStep) {
  int64_t rows = 16, cols = 256;
  std::vector<float> x = randomValues(rows * cols, 3, 2);
  for (size_t i = 0; i < x.size(); ++i)
    x[i] += (i / cols) * 0.5f; // asymmetric rows
  QuantSpec spec;
  spec.format = Format::Int8;
  spec.scaling = Scaling::Channel;
  spec.zeroPoint = true;
  llvm::Expected<QuantizedTensor> q = quantize(x, {rows, cols}, spec);
  ASSERT_TRUE(bool(q));
  EXPECT_EQ(q->scale->shape, Shape({rows, 1}));
  EXPECT_EQ(q->zero->shape, Shape({rows, 1}));
  llvm::Expected<std::vector<float>> back = dequantize(*q);
  ASSERT_TRUE(bool(back));
  for (int64_t r = 0; r < rows; ++r) {
    float lo = 0, hi = 0;
    for (int64_t c = 0; c < cols; ++c) {
      lo = std::min(lo, x[r * cols + c]);
      hi = std::max(hi, x[r * cols + c]);
    }
    float step = (hi - lo) / 255;
    for (int64_t c = 0; c < cols; ++c)
      ASSERT_NEAR((*back)[r * cols + c], x[r * cols + c], step * 0.501f)
          << r << "," << c;
  }
  // 8 bits plus a float32 scale and an int8 zero per row of 256.
  EXPECT_DOUBLE_EQ(q->shapes.bitsPerValue, 8.0 + 5.0 * 8 / cols);
}

TEST(Quantize, HalfSparsityKeepsTheTwoLargestOfEachFour) {
  std::vector<float> x = {1, -4, 3, 2, 0.5f, 0.25f, -0.75f, 1,
                          8, 8,  8, 8, 0,    0,     0,      0};
  QuantSpec spec;
  spec.format = Format::E4M3FN;
  spec.scaling = Scaling::Tensor;
  spec.sparsityPercent = 50;
  llvm::Expected<QuantizedTensor> q = quantize(x, {16}, spec);
  ASSERT_TRUE(bool(q));
  ASSERT_EQ(q->mask->bytes.size(), 2u);
  // Bits, first value lowest: 0110 (-4, 3), 1100 (-0.75, 1), 0011 (the first
  // two of equal values), 0011.
  EXPECT_EQ(q->mask->bytes[0], 0b11000110);
  EXPECT_EQ(q->mask->bytes[1], 0b00110011);
  EXPECT_EQ(q->data.bytes.size(), 8u);
  llvm::Expected<std::vector<float>> back = dequantize(*q);
  ASSERT_TRUE(bool(back));
  int nonzero = 0;
  for (float v : *back)
    nonzero += v != 0;
  EXPECT_EQ(nonzero, 6);
  EXPECT_EQ((*back)[1], -4);
  EXPECT_EQ((*back)[8], 8);
  EXPECT_EQ((*back)[10], 0);
}

TEST(Quantize, MultiscaleKeepsTileScalesInTheirFormatsRange) {
  // NVFP4-like: e2m1 values, e4m3 tile scales, a float32 tensor scale.
  std::vector<float> x = randomValues(4 * 64, 11, 12);
  QuantSpec spec;
  spec.format = Format::E2M1FN;
  spec.scaling = Scaling::Tile;
  spec.tile = 16;
  spec.multiscale = true;
  spec.scaleType = ScaleType::E4M3FN;
  llvm::Expected<QuantizedTensor> q = quantize(x, {4, 64}, spec);
  ASSERT_TRUE(bool(q));
  float amax = 0;
  for (float v : x)
    amax = std::max(amax, std::fabs(v));
  float ts;
  std::memcpy(&ts, q->tenscale->bytes.data(), 4);
  EXPECT_FLOAT_EQ(ts, amax / (6 * 448));
  for (uint8_t s : q->scale->bytes)
    EXPECT_LE(decode(Format::E4M3FN, s), 448);
  llvm::Expected<std::vector<float>> back = dequantize(*q);
  ASSERT_TRUE(bool(back));
  // The largest magnitude comes back within FP4's step at the top (2 of 6).
  size_t top = 0;
  for (size_t i = 0; i < x.size(); ++i)
    if (std::fabs(x[i]) == amax)
      top = i;
  EXPECT_NEAR((*back)[top], x[top], amax / 3);
}

TEST(Quantize, RankZeroAndEmptyTensors) {
  QuantSpec spec;
  spec.format = Format::E5M2;
  spec.scaling = Scaling::Tensor;
  std::vector<float> one = {3.0f};
  EXPECT_EQ(roundTrip(one, {}, spec), std::vector<float>({3.0f}));
  spec.scaling = Scaling::Tile;
  EXPECT_EQ(roundTrip({}, {0, 64}, spec), std::vector<float>());
  llvm::Expected<QuantizedTensor> q = quantize(one, {2}, spec);
  ASSERT_FALSE(bool(q));
  EXPECT_EQ(llvm::toString(q.takeError()), "1 values given for a tensor of 2");
}

} // namespace

//===----------------------------------------------------------------------===//
// Codebooks
//===----------------------------------------------------------------------===//

namespace {

QuantSpec codebookSpec(llvm::StringRef code, int64_t subtile) {
  auto parsed = parseCodebook(code);
  if (!parsed) {
    ADD_FAILURE() << llvm::toString(parsed.takeError());
    return {};
  }
  QuantSpec spec;
  spec.format = parsed->second;
  spec.scaling = Scaling::MX;
  spec.codebook = parsed->first;
  spec.subtile = subtile;
  return spec;
}

/// A buffer of `shape` holding `values` as the bytes of T.
template <typename T>
Buffer bufferOf(llvm::ArrayRef<int64_t> shape, llvm::StringRef dtype,
                llvm::ArrayRef<T> values) {
  Buffer b;
  b.shape.assign(shape.begin(), shape.end());
  b.dtype = dtype.str();
  b.storage = storageDtype(dtype).str();
  const auto *bytes = reinterpret_cast<const uint8_t *>(values.data());
  b.bytes.assign(bytes, bytes + values.size() * sizeof(T));
  return b;
}

// PyTorch's quantize_per_tensor, written out here from its definition:
// clamp(roundeven(x / scale) + zero_point, -128, 127), the quotient in f32.
TEST(QuantizeGiven, Int8PerTensorIsPyTorchsQuantizePerTensor) {
  const float scale = 0.0125f;
  const int8_t zero = 3;
  std::vector<float> x = randomValues(4 * 64, 7, 4);
  // Ties (to even: 2.5 -> 2, 3.5 -> 4, -2.5 -> -2) and both ends of the range.
  x[0] = 2.5f * scale;
  x[1] = 3.5f * scale;
  x[2] = -2.5f * scale;
  x[3] = 1000 * scale;
  x[4] = -1000 * scale;
  QuantSpec spec;
  spec.format = Format::Int8;
  spec.scaling = Scaling::Tensor;
  spec.zeroPoint = true;
  GivenScales given;
  given.scale = bufferOf<float>({1, 1}, "float32", {scale});
  given.zero = bufferOf<int8_t>({1, 1}, "int8", {zero});
  llvm::Expected<QuantizedTensor> q = quantize(x, {4, 64}, spec, &given);
  ASSERT_TRUE(bool(q)) << llvm::toString(q.takeError());
  ASSERT_EQ(q->data.bytes.size(), x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    float quotient = x[i] / scale;
    float code =
        std::clamp(std::nearbyint(quotient) + float(zero), -128.0f, 127.0f);
    EXPECT_EQ(static_cast<int8_t>(q->data.bytes[i]), static_cast<int>(code))
        << i << ": " << x[i];
  }
  EXPECT_EQ(static_cast<int8_t>(q->data.bytes[0]), 2 + zero);
  EXPECT_EQ(static_cast<int8_t>(q->data.bytes[1]), 4 + zero);
  EXPECT_EQ(static_cast<int8_t>(q->data.bytes[2]), -2 + zero);
  EXPECT_EQ(static_cast<int8_t>(q->data.bytes[3]), 127);
  EXPECT_EQ(static_cast<int8_t>(q->data.bytes[4]), -128);
  // The given scale and zero are what the tensor stores.
  EXPECT_EQ(q->scale->bytes, given.scale->bytes);
  EXPECT_EQ(q->zero->bytes, given.zero->bytes);
}

// Given scales are the found ones when they are the same: quantizing again
// with the scales a quantize found reproduces its data, for every format
// and scheme the property test above covers (random values, whose quotients
// are nowhere near a tie in float32 and double alike).
TEST(QuantizeGiven, TheScalesAQuantizeFoundReproduceItsData) {
  std::vector<float> x = randomValues(8 * 64, 11, 3);
  int compared = 0;
  for (Format format :
       {Format::E4M3FN, Format::E5M2, Format::E2M1FN, Format::Int8,
        Format::UInt8, Format::Int4, Format::UInt4}) {
    for (Scaling scaling :
         {Scaling::Tensor, Scaling::Channel, Scaling::Tile, Scaling::MX}) {
      QuantSpec spec;
      spec.format = format;
      spec.scaling = scaling;
      spec.zeroPoint =
          getFormatInfo(format).isInteger() && scaling != Scaling::MX;
      llvm::Expected<QuantizedTensor> found = quantize(x, {8, 64}, spec);
      if (!found) {
        llvm::consumeError(found.takeError());
        continue;
      }
      GivenScales given;
      given.scale = found->scale;
      given.zero = found->zero;
      given.tenscale = found->tenscale;
      llvm::Expected<QuantizedTensor> again =
          quantize(x, {8, 64}, spec, &given);
      ASSERT_TRUE(bool(again)) << llvm::toString(again.takeError());
      EXPECT_EQ(again->data.bytes, found->data.bytes)
          << getFormatInfo(format).name.str() << " "
          << stringifyScaling(scaling).str();
      ++compared;
    }
  }
  EXPECT_GE(compared, 20);
}

// MXFP8 with E8M0 scales a program chose (MLIR's arith.scaling_truncf):
// each value divided by its block's power of two, rounded to e4m3fn by
// APFloat here.
TEST(QuantizeGiven, MXScalesAreTheProgramsPowersOfTwo) {
  std::vector<float> x = randomValues(2 * 64, 5, 8);
  QuantSpec spec = mx(Format::E4M3FN);
  // 2^-3 for the first row's blocks, 2^1 for the second's (E8M0 bias 127).
  std::vector<uint8_t> exponents = {124, 124, 128, 128};
  GivenScales given;
  given.scale = bufferOf<uint8_t>({2, 2}, "float8_e8m0fnu", exponents);
  llvm::Expected<QuantizedTensor> q = quantize(x, {2, 64}, spec, &given);
  ASSERT_TRUE(bool(q)) << llvm::toString(q.takeError());
  for (int64_t i = 0; i < 128; ++i) {
    float quotient = std::ldexp(x[i], i < 64 ? 3 : -1);
    llvm::APFloat v(quotient);
    bool loses;
    v.convert(llvm::APFloat::Float8E4M3FN(), llvm::APFloat::rmNearestTiesToEven,
              &loses);
    // Beyond 448 the cast saturates.
    if (v.isNaN())
      v = llvm::APFloat::getLargest(llvm::APFloat::Float8E4M3FN(),
                                    quotient < 0);
    EXPECT_EQ(q->data.bytes[i], v.bitcastToAPInt().getZExtValue()) << i;
  }
}

// Float zero points (GPTQ-style uint4): shaped like the scales, stored as
// floats of their type, never packed; the data still packs.
TEST(QuantShapes, FloatZeroPointsAreScaleShapedAndNotPacked) {
  QuantSpec spec;
  spec.format = Format::UInt4;
  spec.scaling = Scaling::Tile;
  spec.tile = 128;
  spec.scaleType = ScaleType::Float16;
  spec.zeroPoint = true;
  spec.zeroType = ScaleType::Float16;
  QuantShapes s = shapesOf({64, 4096}, spec);
  EXPECT_EQ(s.zero.shape, Shape({64, 32}));
  EXPECT_EQ(s.zero.compressedShape, Shape({64, 32}));
  EXPECT_EQ(s.zero.dtype, "float16");
  EXPECT_EQ(s.zero.compressedDtype, "float16");
  EXPECT_EQ(s.data.compressedShape, Shape({64, 2048}));
  // 4 bits plus a float16 scale and a float16 zero per 128 values.
  EXPECT_DOUBLE_EQ(s.bitsPerValue, 4.0 + 32.0 / 128);
  spec.zeroPoint = false;
  spec.format = Format::Int4;
  EXPECT_EQ(errorOf({64, 4096}, spec),
            "a zero point type needs zero points (zero_point=True)");
  spec.zeroPoint = true;
  spec.zeroType = ScaleType::E8M0;
  EXPECT_EQ(errorOf({64, 4096}, spec),
            "float zero points are float32, float16 or bfloat16");
}

TEST(Quantize, FloatZeroPointsAreExactOffsetsWithinHalfAStep) {
  int64_t rows = 8, cols = 256, tile = 64;
  std::vector<float> x = randomValues(rows * cols, 5, 2);
  for (size_t i = 0; i < x.size(); ++i)
    x[i] += 0.3f * static_cast<float>(i / cols); // asymmetric rows
  QuantSpec spec;
  spec.format = Format::UInt4;
  spec.scaling = Scaling::Tile;
  spec.tile = tile;
  spec.zeroPoint = true;
  spec.zeroType = ScaleType::Float32;
  llvm::Expected<QuantizedTensor> q = quantize(x, {rows, cols}, spec);
  ASSERT_TRUE(bool(q)) << llvm::toString(q.takeError());
  ASSERT_EQ(q->zero->bytes.size(), size_t(rows * cols / tile * 4));
  std::vector<float> zeros(rows * cols / tile), scales(rows * cols / tile);
  std::memcpy(zeros.data(), q->zero->bytes.data(), q->zero->bytes.size());
  std::memcpy(scales.data(), q->scale->bytes.data(), q->scale->bytes.size());
  int fractional = 0;
  for (size_t t = 0; t < zeros.size(); ++t) {
    // The tile's minimum maps to code 0 exactly: zero = -min / scale.
    float lo = 0;
    for (int64_t c = 0; c < tile; ++c)
      lo = std::min(lo, x[t * tile + c]);
    EXPECT_FLOAT_EQ(zeros[t], -lo / scales[t]) << t;
    fractional += zeros[t] != std::round(zeros[t]);
  }
  EXPECT_GT(fractional, 0);
  // Read back independently: code (low nibble first) minus zero, times
  // scale, within half a step of the input.
  for (int64_t i = 0; i < rows * cols; ++i) {
    uint8_t byte = q->data.bytes[i / 2];
    int code = i % 2 == 0 ? byte & 0xF : byte >> 4;
    int64_t t = i / tile;
    float value = (static_cast<float>(code) - zeros[t]) * scales[t];
    ASSERT_NEAR(value, x[i], scales[t] * 0.501f) << i;
  }
  llvm::Expected<std::vector<float>> back = dequantize(*q);
  ASSERT_TRUE(bool(back));
  for (int64_t i = 0; i < rows * cols; ++i) {
    uint8_t byte = q->data.bytes[i / 2];
    int code = i % 2 == 0 ? byte & 0xF : byte >> 4;
    int64_t t = i / tile;
    ASSERT_FLOAT_EQ((*back)[i],
                    (static_cast<float>(code) - zeros[t]) * scales[t]);
  }
  // The three modes agree, and the zero points given back reproduce the
  // codes.
  for (CastMode mode : {CastMode::Virtual, CastMode::Actual}) {
    QuantSpec other = spec;
    other.mode = mode;
    EXPECT_EQ(roundTrip(x, {rows, cols}, other), *back);
  }
  GivenScales given;
  given.scale = q->scale;
  given.zero = q->zero;
  llvm::Expected<QuantizedTensor> again =
      quantize(x, {rows, cols}, spec, &given);
  ASSERT_TRUE(bool(again)) << llvm::toString(again.takeError());
  EXPECT_EQ(again->data.bytes, q->data.bytes);
}

TEST(QuantizeGiven, WrongOrMissingCompanionsAreExplained) {
  std::vector<float> x(64, 1.0f);
  QuantSpec spec;
  spec.format = Format::Int8;
  spec.scaling = Scaling::Tensor;
  spec.zeroPoint = true;
  auto errorWith = [&](const GivenScales &given) {
    llvm::Expected<QuantizedTensor> q = quantize(x, {1, 64}, spec, &given);
    return q ? std::string() : llvm::toString(q.takeError());
  };
  GivenScales noZero;
  noZero.scale = bufferOf<float>({1, 1}, "float32", {0.5f});
  EXPECT_EQ(errorWith(noZero), "the zero tensor is missing");
  GivenScales twoScales = noZero;
  twoScales.scale = bufferOf<float>({2, 1}, "float32", {0.5f, 0.25f});
  twoScales.zero = bufferOf<int8_t>({1, 1}, "int8", {0});
  EXPECT_EQ(errorWith(twoScales),
            "the given scale holds 8 bytes, its shapes say 4");
  GivenScales extra = twoScales;
  extra.scale = noZero.scale;
  extra.tenscale = bufferOf<float>({}, "float32", {1.0f});
  EXPECT_EQ(errorWith(extra), "the tenscale tensor is not in this scheme");
}

TEST(Codebook, SubtileMetaShapesFollowTheSeed) {
  // Tiles of 32 with subtiles of 8: the meta's scaled dim is the scale's
  // times 4; 3 meta bits x 4 subtiles pack into (12 + 7) / 8 = 2 bytes per
  // tile. 40 values make 2 tiles (the second partial).
  QuantShapes s = shapesOf({5, 40}, codebookSpec("cb43f0123456p_e2m3fnuz", 8));
  EXPECT_EQ(s.scale.shape, Shape({5, 2}));
  EXPECT_EQ(s.meta.shape, Shape({5, 8}));
  EXPECT_EQ(s.meta.compressedShape, Shape({5, 4}));
  EXPECT_EQ(s.data.compressedShape, Shape({5, 20}));
  EXPECT_EQ(s.data.dtype, "uint8");
  // Per tile, a meta per scale: 1 byte each.
  QuantShapes t = shapesOf({5, 40}, codebookSpec("cb41fi_e2m3fnuz", 0));
  EXPECT_EQ(t.meta.shape, Shape({5, 2}));
  EXPECT_EQ(t.meta.compressedShape, Shape({5, 2}));
  // One mapping: no meta.
  EXPECT_FALSE(
      shapesOf({5, 40}, codebookSpec("cb40f_e2m3fnuz", 0)).meta.present);
}

TEST(Codebook, TheModesAgreeAndMetaPacksLosslessly) {
  // Property: for meta widths 1..3 and every subtile dividing the tile, the
  // compressed form (packed indices and meta bits) reads back as the
  // actual and virtual forms do.
  std::mt19937 rng(11);
  std::normal_distribution<float> normal;
  for (llvm::StringRef code :
       {"cb41fi_e2m3fnuz", "cb42f1346_e2m3fnuz", "cb43f0123456p_e2m3fnuz"})
    for (int64_t subtile : {0, 1, 2, 4, 8, 16, 32}) {
      std::vector<float> values(3 * 72);
      for (float &v : values)
        v = normal(rng) * 3;
      std::vector<float> expected;
      for (CastMode mode :
           {CastMode::Virtual, CastMode::Actual, CastMode::Compressed}) {
        QuantSpec spec = codebookSpec(code, subtile);
        spec.mode = mode;
        auto q = quantize(values, {3, 72}, spec);
        ASSERT_TRUE(static_cast<bool>(q)) << llvm::toString(q.takeError());
        auto back = dequantize(*q);
        ASSERT_TRUE(static_cast<bool>(back))
            << llvm::toString(back.takeError());
        if (expected.empty())
          expected = *back;
        EXPECT_EQ(*back, expected) << code.str() << " subtile " << subtile;
      }
    }
}

TEST(Codebook, ParseErrorsAreExplained) {
  auto errorOfCode = [](llvm::StringRef code) {
    auto parsed = parseCodebook(code);
    return parsed ? std::string() : llvm::toString(parsed.takeError());
  };
  EXPECT_NE(errorOfCode("c41fi_e2m3fnuz").find("does not start with cb"),
            std::string::npos);
  EXPECT_NE(errorOfCode("cb41fi").find("no compute type"), std::string::npos);
  EXPECT_NE(errorOfCode("cb21f_e2m3fnuz").find("needs 3, 4 or 5 index bits"),
            std::string::npos);
  EXPECT_NE(errorOfCode("cb41fee_e2m3fnuz").find("two 'e' modifiers"),
            std::string::npos);
  EXPECT_NE(errorOfCode("cb40p0_e2m3fnuz").find("interval must not be 0"),
            std::string::npos);
  // A generic codebook parses without mappings; setMappings checks them.
  auto generic = parseCodebook("CB40_E4M3FN_mine");
  ASSERT_TRUE(static_cast<bool>(generic));
  EXPECT_TRUE(generic->first.mappings.empty());
  std::vector<double> values(16, 448.0);
  EXPECT_FALSE(
      static_cast<bool>(setMappings(generic->first, generic->second, values)));
  values[3] = 449.0;
  llvm::Error bad = setMappings(generic->first, generic->second, values);
  EXPECT_EQ(llvm::toString(std::move(bad)),
            "codebook 'CB40_E4M3FN_mine': value 449 (mapping 0, index 3) is "
            "not a e4m3fn value");
}

} // namespace
