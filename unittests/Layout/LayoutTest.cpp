//===- LayoutTest.cpp - Worked examples of the seed documents -------------===//
//
// Every number here is copied from the seed documents (spec/*.md) or the
// facts sheet; none was produced by the code under test.
//
//===----------------------------------------------------------------------===//

#include "Spyre/Layout/Layout.h"

#include "gtest/gtest.h"

using namespace mlir::spyre;
using llvm::ArrayRef;
using llvm::SmallVector;

namespace {

SpyreTensorLayout defaultLayout(ArrayRef<int64_t> sizes,
                                HostType dtype = HostType::Float16) {
  llvm::Expected<SpyreTensorLayout> layout =
      SpyreTensorLayout::getDefault(HostView::contiguous(sizes), dtype);
  if (!layout) {
    ADD_FAILURE() << llvm::toString(layout.takeError());
    return llvm::cantFail(
        SpyreTensorLayout::get({64}, {1}, DataFormat::SEN169_FP16));
  }
  return *layout;
}

SpyreTensorLayout orderedLayout(ArrayRef<int64_t> sizes,
                                ArrayRef<int32_t> dimOrder,
                                HostType dtype = HostType::Float16) {
  llvm::Expected<SpyreTensorLayout> layout = SpyreTensorLayout::getDefault(
      HostView::contiguous(sizes), dtype, dimOrder);
  if (!layout) {
    ADD_FAILURE() << llvm::toString(layout.takeError());
    return llvm::cantFail(
        SpyreTensorLayout::get({64}, {1}, DataFormat::SEN169_FP16));
  }
  return *layout;
}

BoundLayout bindContiguous(const SpyreTensorLayout &layout,
                           ArrayRef<int64_t> sizes) {
  return llvm::cantFail(layout.bind(HostView::contiguous(sizes)));
}

template <typename T> std::string errorOf(llvm::Expected<T> value) {
  if (value)
    return "<no error>";
  return llvm::toString(value.takeError());
}

using Ints = std::vector<int64_t>;
Ints vec(ArrayRef<int64_t> values) {
  return Ints(values.begin(), values.end());
}
std::vector<int32_t> vec32(ArrayRef<int32_t> values) {
  return std::vector<int32_t>(values.begin(), values.end());
}

//===----------------------------------------------------------------------===//
// Data formats
//===----------------------------------------------------------------------===//

TEST(DataFormat, ElementsPerStickFromStickBytes) {
  EXPECT_EQ(elemsPerStick(deviceFormatFor(HostType::Float16)), 64);
  EXPECT_EQ(elemsPerStick(deviceFormatFor(HostType::BFloat16)), 64);
  EXPECT_EQ(elemsPerStick(deviceFormatFor(HostType::Bool)), 64);
  EXPECT_EQ(elemsPerStick(deviceFormatFor(HostType::Float32)), 32);
  EXPECT_EQ(elemsPerStick(deviceFormatFor(HostType::Int32)), 32);
  EXPECT_EQ(elemsPerStick(deviceFormatFor(HostType::Int64)), 32);
  EXPECT_EQ(elemsPerStick(deviceFormatFor(HostType::Int8)), 128);
  EXPECT_EQ(elemsPerStick(deviceFormatFor(HostType::Float8E4M3FN)), 128);
  EXPECT_EQ(elemsPerStick(deviceFormatFor(HostType::Float8E5M2)), 128);
  EXPECT_EQ(elemsPerStick(deviceFormatFor(HostType::Int4)), 256);
  // A different stick size scales every format.
  EXPECT_EQ(elemsPerStick(DataFormat::SEN169_FP16, 256), 128);
  EXPECT_EQ(elemsPerStick(DataFormat::IEEE_FP32, 6), 0);
}

TEST(DataFormat, HostToDeviceFormat) {
  EXPECT_EQ(deviceFormatFor(HostType::Float16), DataFormat::SEN169_FP16);
  EXPECT_EQ(deviceFormatFor(HostType::BFloat16), DataFormat::SEN169_FP16);
  EXPECT_EQ(deviceFormatFor(HostType::Bool), DataFormat::SEN169_FP16);
  EXPECT_EQ(deviceFormatFor(HostType::Float32), DataFormat::IEEE_FP32);
  EXPECT_EQ(deviceFormatFor(HostType::Int32), DataFormat::IEEE_INT32);
  EXPECT_EQ(deviceFormatFor(HostType::Int64), DataFormat::IEEE_INT32);
  EXPECT_EQ(deviceFormatFor(HostType::Int8), DataFormat::SENINT8);
  EXPECT_EQ(deviceFormatFor(HostType::Float8E4M3FN), DataFormat::SEN143_FP8);
  EXPECT_EQ(deviceFormatFor(HostType::Float8E5M2), DataFormat::SEN152_FP8);
  EXPECT_EQ(deviceFormatFor(HostType::Int4), DataFormat::SENINT4);
}

TEST(DataFormat, NamesRoundTrip) {
  for (DataFormat f :
       {DataFormat::SEN169_FP16, DataFormat::IEEE_FP32, DataFormat::IEEE_INT32,
        DataFormat::SENINT8, DataFormat::SEN143_FP8, DataFormat::SEN152_FP8,
        DataFormat::SENINT4})
    EXPECT_EQ(symbolizeDataFormat(stringifyDataFormat(f)), f);
  EXPECT_EQ(symbolizeHostType("float16"), HostType::Float16);
  EXPECT_EQ(symbolizeHostType("bfloat16"), HostType::BFloat16);
  EXPECT_EQ(symbolizeHostType("float8_e4m3fn"), HostType::Float8E4M3FN);
  EXPECT_EQ(symbolizeHostType("bool"), HostType::Bool);
  EXPECT_FALSE(symbolizeHostType("float13").has_value());
  // f64 and the fnuz fp8s travel (converted by value) but are not computed
  // on by the device.
  EXPECT_EQ(symbolizeHostType("float64"), HostType::Float64);
  EXPECT_FALSE(isComputedOnDevice(HostType::Float64));
  EXPECT_FALSE(isComputedOnDevice(HostType::Float8E4M3FNUZ));
  EXPECT_TRUE(isComputedOnDevice(HostType::BFloat16));
  EXPECT_EQ(symbolizeElementArrangement("exx2"), ElementArrangement::EXX2);
  EXPECT_EQ(symbolizeElementArrangement("DL16_TO_FP32"),
            ElementArrangement::DL16ToFP32);
}

//===----------------------------------------------------------------------===//
// Default layouts: spyre_facts.md section 2 table and the seed examples.
//===----------------------------------------------------------------------===//

struct DefaultExample {
  Ints size;
  std::vector<int32_t> dimOrder; // empty: default
  Ints deviceSize;
  Ints strideMap;
};

class DefaultLayoutExamples : public ::testing::TestWithParam<DefaultExample> {
};

TEST_P(DefaultLayoutExamples, MatchesReference) {
  const DefaultExample &ex = GetParam();
  SpyreTensorLayout layout = ex.dimOrder.empty()
                                 ? defaultLayout(ex.size)
                                 : orderedLayout(ex.size, ex.dimOrder);
  EXPECT_EQ(vec(layout.getDeviceSize()), ex.deviceSize);
  EXPECT_EQ(vec(layout.getStrideMap()), ex.strideMap);
  EXPECT_EQ(layout.getFormat(), DataFormat::SEN169_FP16);
}

INSTANTIATE_TEST_SUITE_P(
    FactsSheet, DefaultLayoutExamples,
    ::testing::Values(
        DefaultExample{{1024, 256}, {}, {4, 1024, 64}, {64, 256, 1}},
        DefaultExample{{1000, 200}, {}, {4, 1000, 64}, {64, 200, 1}},
        DefaultExample{{5, 100, 150}, {}, {100, 3, 5, 64}, {150, 64, 15000, 1}},
        DefaultExample{
            {5, 100, 150}, {1, 0, 2}, {5, 3, 100, 64}, {15000, 64, 150, 1}},
        DefaultExample{
            {128, 256, 512}, {}, {256, 8, 128, 64}, {512, 64, 131072, 1}},
        DefaultExample{{50, 10, 200}, {}, {10, 4, 50, 64}, {200, 64, 2000, 1}},
        // Rank 1 and the matmul operands of the seeds' end-to-end example.
        DefaultExample{{512}, {}, {8, 64}, {64, 1}},
        DefaultExample{{1024, 512}, {}, {8, 1024, 64}, {64, 512, 1}},
        DefaultExample{{512, 256}, {}, {4, 512, 64}, {64, 256, 1}}));

TEST(DefaultLayout, ReprMatchesReferencePrint) {
  // tensor_layouts_stride_map.md, "Default Layout Example".
  EXPECT_EQ(defaultLayout({5, 100, 150}).str(),
            "SpyreTensorLayout(device_size=[100, 3, 5, 64], stride_map "
            "=[150, 64, 15000, 1], device_dtype=DataFormats.SEN169_FP16)");
  EXPECT_EQ(orderedLayout({5, 100, 150}, {1, 0, 2}).str(),
            "SpyreTensorLayout(device_size=[5, 3, 100, 64], stride_map "
            "=[15000, 64, 150, 1], device_dtype=DataFormats.SEN169_FP16)");
  EXPECT_EQ(defaultLayout({5, 100, 150})
                .withArrangement(ElementArrangement::EXX2)
                .str(),
            "SpyreTensorLayout(device_size=[100, 3, 5, 64], stride_map "
            "=[150, 64, 15000, 1], device_dtype=DataFormats.SEN169_FP16, "
            "element_arrangement=ElementArrangement.EXX2)");
}

TEST(DefaultLayout, RankZero) {
  SpyreTensorLayout layout = defaultLayout({});
  EXPECT_EQ(vec(layout.getDeviceSize()), (Ints{1, 64}));
  EXPECT_EQ(vec(layout.getStrideMap()), (Ints{-1, -1}));
  SpyreTensorLayout f32 = defaultLayout({}, HostType::Float32);
  EXPECT_EQ(vec(f32.getDeviceSize()), (Ints{1, 32}));
}

TEST(DefaultLayout, OtherFormatsUseTheirStick) {
  SpyreTensorLayout f32 = defaultLayout({100, 100}, HostType::Float32);
  EXPECT_EQ(vec(f32.getDeviceSize()), (Ints{4, 100, 32}));
  EXPECT_EQ(vec(f32.getStrideMap()), (Ints{32, 100, 1}));
  EXPECT_EQ(f32.getFormat(), DataFormat::IEEE_FP32);
  SpyreTensorLayout i8 = defaultLayout({3, 300}, HostType::Int8);
  EXPECT_EQ(vec(i8.getDeviceSize()), (Ints{3, 3, 128}));
  EXPECT_EQ(vec(i8.getStrideMap()), (Ints{128, 300, 1}));
  SpyreTensorLayout i4 = defaultLayout({2, 300}, HostType::Int4);
  EXPECT_EQ(vec(i4.getDeviceSize()), (Ints{2, 2, 256}));
  EXPECT_EQ(i4.stickBytes(), 128);
  EXPECT_EQ(i4.deviceBytes(), 4 * 128);
  SpyreTensorLayout i64 = defaultLayout({10}, HostType::Int64);
  EXPECT_EQ(i64.getFormat(), DataFormat::IEEE_INT32);
  EXPECT_EQ(vec(i64.getDeviceSize()), (Ints{1, 32}));
}

TEST(DefaultLayout, StickDimPaddedOnly) {
  // "The stick dimension of 150 has been padded to 192 and broken into two
  // device dimensions of (3 and 64)."
  SpyreTensorLayout layout = defaultLayout({5, 100, 150});
  EXPECT_EQ(layout.numSticks(), 100 * 3 * 5);
  EXPECT_EQ(layout.deviceBytes(), 128 * 100 * 3 * 5);
  EXPECT_EQ(layout.numDeviceElements(), 100 * 192 * 5);
}

TEST(DefaultLayout, SizeOneDimsNeverTileRows) {
  // [512, 1] and [512] get equivalent layouts: same sticks, same offsets.
  SpyreTensorLayout plain = defaultLayout({512});
  SpyreTensorLayout withUnit = defaultLayout({512, 1});
  EXPECT_EQ(vec(withUnit.getDeviceSize()), (Ints{8, 1, 64}));
  EXPECT_EQ(vec(withUnit.getStrideMap()), (Ints{64, -1, 1}));
  EXPECT_EQ(plain.numSticks(), withUnit.numSticks());
  BoundLayout a = bindContiguous(plain, {512});
  BoundLayout b = bindContiguous(withUnit, {512, 1});
  for (int64_t i = 0; i < 512; ++i)
    EXPECT_EQ(a.deviceOffset({i}), b.deviceOffset({i, 0}));

  // A leading size-1 dim does not become the tile-row dim.
  SpyreTensorLayout lead = defaultLayout({1, 100, 150});
  EXPECT_EQ(vec(lead.getDeviceSize()), (Ints{1, 3, 100, 64}));
  EXPECT_EQ(vec(lead.getStrideMap()), (Ints{-1, 64, 150, 1}));
  EXPECT_EQ(vec32(SpyreTensorLayout::defaultDimOrder({1, 100, 150})),
            (std::vector<int32_t>{1, 0, 2}));
  EXPECT_EQ(vec32(SpyreTensorLayout::defaultDimOrder({5, 100, 150})),
            (std::vector<int32_t>{0, 1, 2}));
  // Size-1 host dims map to device size 1 with stride_map -1.
  SpyreTensorLayout mid = defaultLayout({5, 1, 150});
  EXPECT_EQ(vec(mid.getDeviceSize()), (Ints{1, 3, 5, 64}));
  EXPECT_EQ(vec(mid.getStrideMap()), (Ints{-1, 64, 150, 1}));
}

TEST(DefaultLayout, Sparse) {
  // A trailing -1 gives one element per stick: reductions along the stick.
  SpyreTensorLayout rank1 = orderedLayout({512}, {0, -1});
  EXPECT_EQ(vec(rank1.getDeviceSize()), (Ints{1, 512, 64}));
  EXPECT_EQ(vec(rank1.getStrideMap()), (Ints{-1, 1, -1}));
  SpyreTensorLayout rank2 = orderedLayout({5, 100}, {1, 0, -1});
  EXPECT_EQ(vec(rank2.getDeviceSize()), (Ints{5, 1, 100, 64}));
  EXPECT_EQ(vec(rank2.getStrideMap()), (Ints{100, -1, 1, -1}));
  BoundLayout bound = bindContiguous(rank2, {5, 100});
  EXPECT_TRUE(bound.isSparse());
  // Each host element sits at position 0 of its own stick.
  EXPECT_EQ(bound.deviceOffset({2, 7}), (2 * 100 + 7) * 64);
  EXPECT_TRUE(bound.isPadding({2, 0, 7, 1}));
  EXPECT_FALSE(bound.isPadding({2, 0, 7, 0}));
}

TEST(DefaultLayout, NonContiguousHostStrides) {
  // A transposed host view [256, 1024] with strides [1, 256]: the stick is
  // on host dim 1, whose host stride is 256.
  llvm::Expected<SpyreTensorLayout> layout = SpyreTensorLayout::getDefault(
      HostView({256, 1024}, {1, 256}), HostType::Float16);
  ASSERT_TRUE(static_cast<bool>(layout)) << llvm::toString(layout.takeError());
  EXPECT_EQ(vec(layout->getDeviceSize()), (Ints{16, 256, 64}));
  EXPECT_EQ(vec(layout->getStrideMap()), (Ints{16384, 1, 256}));
}

TEST(DefaultLayout, RejectsBadDimOrders) {
  HostView host = HostView::contiguous({4, 8});
  EXPECT_NE(errorOf(SpyreTensorLayout::getDefault(host, HostType::Float16,
                                                  ArrayRef<int32_t>{0, 0}))
                .find("must be a permutation"),
            std::string::npos);
  EXPECT_NE(errorOf(SpyreTensorLayout::getDefault(host, HostType::Float16,
                                                  ArrayRef<int32_t>{0}))
                .find("must be a permutation"),
            std::string::npos);
  EXPECT_NE(errorOf(SpyreTensorLayout::getDefault(host, HostType::Float16,
                                                  ArrayRef<int32_t>{0, 2}))
                .find("must be a permutation"),
            std::string::npos);
  EXPECT_NE(errorOf(SpyreTensorLayout::getDefault(
                        HostView::contiguous({1, 2, 3, 4, 5, 6, 7}),
                        HostType::Float16))
                .find("host rank 7 exceeds the maximum of 6"),
            std::string::npos);
  EXPECT_NE(errorOf(SpyreTensorLayout::getDefault(HostView::contiguous({4, 0}),
                                                  HostType::Float16))
                .find("host size[1] = 0 must be positive"),
            std::string::npos);
}

TEST(DefaultLayout, RankSixIsSupported) {
  SpyreTensorLayout layout = defaultLayout({2, 3, 4, 5, 6, 70});
  EXPECT_EQ(vec(layout.getDeviceSize()), (Ints{3, 4, 5, 6, 2, 2, 64}));
  // host strides of [2,3,4,5,6,70]: [25200, 8400, 2100, 420, 70, 1].
  EXPECT_EQ(vec(layout.getStrideMap()),
            (Ints{8400, 2100, 420, 70, 64, 25200, 1}));
}

//===----------------------------------------------------------------------===//
// dim_map (tensor_layouts_dim_map.md, dimension_and_layout_concepts.md)
//===----------------------------------------------------------------------===//

TEST(DimMap, DerivedFromStrideMap) {
  auto dimMapOf = [](const SpyreTensorLayout &layout, ArrayRef<int64_t> size) {
    return vec32(llvm::cantFail(bindContiguous(layout, size).dimMap()));
  };
  using V = std::vector<int32_t>;
  EXPECT_EQ(dimMapOf(defaultLayout({1024, 256}), {1024, 256}), (V{1, 0, 1}));
  EXPECT_EQ(dimMapOf(defaultLayout({128, 256, 512}), {128, 256, 512}),
            (V{1, 2, 0, 2}));
  EXPECT_EQ(dimMapOf(defaultLayout({5, 100, 150}), {5, 100, 150}),
            (V{1, 2, 0, 2}));
  EXPECT_EQ(dimMapOf(orderedLayout({5, 100, 150}, {1, 0, 2}), {5, 100, 150}),
            (V{0, 2, 1, 2}));
  EXPECT_EQ(dimMapOf(defaultLayout({128, 256, 200}), {128, 256, 200}),
            (V{1, 2, 0, 2}));
  EXPECT_EQ(dimMapOf(defaultLayout({1024, 512}), {1024, 512}), (V{1, 0, 1}));
  // Sparse: the synthetic dims map to -1.
  EXPECT_EQ(dimMapOf(orderedLayout({5, 100}, {1, 0, -1}), {5, 100}),
            (V{0, -1, 1, -1}));
  // Size-1 host dims keep their dim_map entry.
  EXPECT_EQ(dimMapOf(defaultLayout({5, 1, 150}), {5, 1, 150}), (V{1, 2, 0, 2}));
  EXPECT_EQ(dimMapOf(orderedLayout({5, 1}, {0, 1}), {5, 1}), (V{1, 0, 1}));
  // A stick dim shorter than a stick: the size-1 stick-count dim still
  // belongs to it.
  EXPECT_EQ(dimMapOf(defaultLayout({3, 10}), {3, 10}), (V{1, 0, 1}));
}

TEST(DimMap, StickCountDimWithGappedHostStrides) {
  // Found by spyre-fuzz-layout: with host strides [32, 8, 1] the extent of
  // dim 1 (4 x 8) equals the stick's (32 x 1), and the size-1 stick-count
  // dim was attributed to dim 1. It is the stick dim's, and dim_map must
  // rebuild the same layout.
  HostView host({32, 4, 6}, {32, 8, 1});
  SpyreTensorLayout layout = llvm::cantFail(
      SpyreTensorLayout::getDefault(host, DataFormat::IEEE_FP32));
  EXPECT_EQ(vec(layout.getDeviceSize()), (Ints{4, 1, 32, 32}));
  EXPECT_EQ(vec(layout.getStrideMap()), (Ints{8, 32, 32, 1}));
  BoundLayout bound = llvm::cantFail(layout.bind(host));
  std::vector<int32_t> dimMap = vec32(llvm::cantFail(bound.dimMap()));
  EXPECT_EQ(dimMap, (std::vector<int32_t>{1, 2, 0, 2}));
  SpyreTensorLayout rebuilt = llvm::cantFail(SpyreTensorLayout::fromDimMap(
      host, layout.getDeviceSize(), dimMap, DataFormat::IEEE_FP32));
  EXPECT_EQ(rebuilt, layout);
}

TEST(DimMap, LegacyConstruction) {
  // "for a 3d PyTorch tensor of size [128, 256, 512] with stride
  // [131072, 512, 1] and a device_size [256, 8, 128, 64] ... The
  // corresponding stride_map is [512, 64, 131072, 1]."
  SpyreTensorLayout layout = llvm::cantFail(SpyreTensorLayout::fromDimMap(
      HostView::contiguous({128, 256, 512}), {256, 8, 128, 64}, {1, 2, 0, 2},
      DataFormat::SEN169_FP16));
  EXPECT_EQ(vec(layout.getStrideMap()), (Ints{512, 64, 131072, 1}));
  SpyreTensorLayout twoD = llvm::cantFail(SpyreTensorLayout::fromDimMap(
      HostView::contiguous({1024, 256}), {4, 1024, 64}, {1, 0, 1},
      DataFormat::SEN169_FP16));
  EXPECT_EQ(vec(twoD.getStrideMap()), (Ints{64, 256, 1}));
  EXPECT_NE(errorOf(SpyreTensorLayout::fromDimMap(HostView::contiguous({4, 4}),
                                                  {1, 4, 64}, {1, 5, 1},
                                                  DataFormat::SEN169_FP16))
                .find("dim_map[1] = 5 is not a host dim"),
            std::string::npos);
}

TEST(DimMap, CoordinateSemantics) {
  // "the element with coordinates (a, b, c, d) in the Spyre tensor
  // corresponds to the PyTorch element (c, a, b*64 + d)".
  BoundLayout bound =
      bindContiguous(defaultLayout({128, 256, 512}), {128, 256, 512});
  for (auto [a, b, c, d] :
       {std::array<int64_t, 4>{0, 0, 0, 0}, std::array<int64_t, 4>{3, 5, 7, 11},
        std::array<int64_t, 4>{255, 7, 127, 63}}) {
    auto host = bound.hostCoord({a, b, c, d});
    ASSERT_TRUE(host.has_value());
    EXPECT_EQ(vec(*host), (Ints{c, a, b * 64 + d}));
  }
}

TEST(DimOrder, RecoveredFromLayout) {
  using V = std::vector<int32_t>;
  auto orderOf = [](const SpyreTensorLayout &layout, ArrayRef<int64_t> size) {
    return vec32(llvm::cantFail(bindContiguous(layout, size).dimOrder()));
  };
  EXPECT_EQ(orderOf(defaultLayout({5, 100, 150}), {5, 100, 150}), (V{0, 1, 2}));
  EXPECT_EQ(orderOf(orderedLayout({5, 100, 150}, {1, 0, 2}), {5, 100, 150}),
            (V{1, 0, 2}));
  EXPECT_EQ(orderOf(orderedLayout({5, 100}, {1, 0, -1}), {5, 100}),
            (V{1, 0, -1}));
  EXPECT_EQ(orderOf(defaultLayout({512}), {512}), (V{0}));
  // A layout that no dim_order produces is reported as such.
  SpyreTensorLayout odd = llvm::cantFail(SpyreTensorLayout::get(
      {2, 8, 64}, {512, 64, 1}, DataFormat::SEN169_FP16));
  EXPECT_NE(errorOf(bindContiguous(odd, {1024}).dimOrder())
                .find("is not a generic stick layout"),
            std::string::npos);
}

//===----------------------------------------------------------------------===//
// Padding and coordinates
//===----------------------------------------------------------------------===//

TEST(Padding, LargerDeviceSpaceForSmallerTensor) {
  // "a Spyre tensor layout with stride_map [512, 64, 131072, 1] and
  // device_size [256, 8, 128, 64] may also be used for a PyTorch tensor of
  // size [100, 200, 500] in which case device positions that do not map to
  // valid host coordinates represent padding." The stride_map entries are
  // host strides of the [128, 256, 512] tensor the layout was made for.
  SpyreTensorLayout layout = llvm::cantFail(SpyreTensorLayout::get(
      {256, 8, 128, 64}, {512, 64, 131072, 1}, DataFormat::SEN169_FP16));
  BoundLayout bound =
      llvm::cantFail(layout.bind(HostView({100, 200, 500}, {131072, 512, 1})));
  EXPECT_FALSE(bound.isPadding({199, 7, 99, 51})); // host (99, 199, 499)
  EXPECT_TRUE(bound.isPadding({200, 0, 0, 0}));    // host dim 1 = 200
  EXPECT_TRUE(bound.isPadding({0, 7, 0, 52}));     // host dim 2 = 500
  EXPECT_TRUE(bound.isPadding({0, 0, 100, 0}));    // host dim 0 = 100
  EXPECT_EQ(bound.hostOffset({199, 7, 99, 51}), 99 * 131072 + 199 * 512 + 499);
}

TEST(Padding, OneElementHostDimStepsAlongItsStride) {
  // One head of [32, 2048, 128] laid out with the whole tensor's strides
  // (the buffer a block writes into in place): host dim 0 has one element,
  // and the device dim of 32 heads steps along it (stride 262144 is its host
  // stride); heads 1..31 lie past the host tensor, as padding.
  SpyreTensorLayout layout = llvm::cantFail(SpyreTensorLayout::get(
      {2048, 2, 32, 64}, {128, 64, 262144, 1}, DataFormat::SEN169_FP16));
  BoundLayout bound =
      llvm::cantFail(layout.bind(HostView({1, 2048, 128}, {262144, 128, 1})));
  EXPECT_EQ(bound.roles()[2].kind, BoundLayout::DimKind::Piece);
  EXPECT_EQ(bound.roles()[2].hostDim, 0);
  EXPECT_FALSE(bound.isPadding({2047, 1, 0, 63}));
  EXPECT_TRUE(bound.isPadding({0, 0, 1, 0}));
  EXPECT_EQ(bound.hostOffset({2047, 1, 0, 63}), 2047 * 128 + 127);
  // Where another dim has the same stride, the one-element dim is not
  // taken: [4, 1, 64] with strides [64, 64, 1] steps along dim 0.
  SpyreTensorLayout rows = llvm::cantFail(
      SpyreTensorLayout::get({4, 64}, {64, 1}, DataFormat::SEN169_FP16));
  BoundLayout byRows =
      llvm::cantFail(rows.bind(HostView({4, 1, 64}, {64, 64, 1})));
  EXPECT_EQ(byRows.roles()[0].hostDim, 0);
}

TEST(Padding, StickTail) {
  BoundLayout bound = bindContiguous(defaultLayout({1000, 200}), {1000, 200});
  EXPECT_FALSE(bound.isPadding({3, 999, 7}));
  EXPECT_TRUE(bound.isPadding({3, 999, 8}));
  EXPECT_EQ(bound.hostOffset({3, 999, 7}), 999 * 200 + 199);
}

TEST(Padding, UsedBytesEndAtTheLastRealStick) {
  // Dense, and a stick tail: every stick holds elements.
  BoundLayout dense = bindContiguous(defaultLayout({2048, 768}), {2048, 768});
  EXPECT_EQ(dense.usedBytes(), 12 * 2048 * 128);
  BoundLayout tail = bindContiguous(defaultLayout({1000, 200}), {1000, 200});
  EXPECT_EQ(tail.usedBytes(), tail.layout().deviceBytes());
  // Rows [0, 1024) of [2048, 768] laid out with the whole tensor's device
  // dims (a strided block of rows): the last stick column's rows past 1023
  // are padding. 12 x 2048 sticks less 1024: 23552 sticks of 128 bytes.
  SpyreTensorLayout whole = defaultLayout({2048, 768});
  BoundLayout block = bindContiguous(whole, {1024, 768});
  EXPECT_TRUE(block.isPadding({11, 1024, 0}));
  EXPECT_EQ(block.usedBytes(), (12 * 2048 - 1024) * 128);
}

TEST(Coordinates, InverseMapping) {
  BoundLayout bound =
      bindContiguous(defaultLayout({50, 10, 200}), {50, 10, 200});
  // The seeds' end-to-end example: offset = dot(device_coordinates,
  // stride_map).
  Ints device = vec(bound.deviceCoord({49, 9, 199}));
  EXPECT_EQ(device, (Ints{9, 3, 49, 7}));
  EXPECT_EQ(bound.hostOffset(device), 49 * 2000 + 9 * 200 + 199);
  EXPECT_EQ(bound.deviceOffset({0, 0, 64}), 1 * 50 * 64);
}

//===----------------------------------------------------------------------===//
// DMA nests
//===----------------------------------------------------------------------===//

TEST(Dma, RfcExample) {
  // ((4, 1024, 64), (65536, 64, 1), (64, 256, 1)).
  BoundLayout bound = bindContiguous(defaultLayout({1024, 256}), {1024, 256});
  DmaPlan plan = bound.dmaPlan();
  ASSERT_EQ(plan.nests.size(), 1u);
  EXPECT_EQ(plan.nests[0].str(),
            "((4, 1024, 64), (65536, 64, 1), (64, 256, 1))");
  EXPECT_EQ(plan.nests[0].deviceOffset, 0);
  EXPECT_EQ(plan.nests[0].hostOffset, 0);
  EXPECT_TRUE(bound.paddingPlan().nests.empty());
}

TEST(Dma, RemainderNestForPartialSticks) {
  // [1000, 200] f16: main size=[64,1000,3] plus remainder size=[8,1000,1],
  // offset_src=192, offset_dst=192000 (innermost first).
  BoundLayout bound = bindContiguous(defaultLayout({1000, 200}), {1000, 200});
  DmaPlan plan = bound.dmaPlan();
  ASSERT_EQ(plan.nests.size(), 2u);
  const DmaNest &main = plan.nests[0];
  const DmaNest &rest = plan.nests[1];
  ASSERT_EQ(main.loops.size(), 3u);
  EXPECT_EQ(main.loops[2].range, 64);
  EXPECT_EQ(main.loops[1].range, 1000);
  EXPECT_EQ(main.loops[0].range, 3);
  EXPECT_EQ(main.hostOffset, 0);
  EXPECT_EQ(main.deviceOffset, 0);
  ASSERT_EQ(rest.loops.size(), 3u);
  EXPECT_EQ(rest.loops[2].range, 8);
  EXPECT_EQ(rest.loops[1].range, 1000);
  EXPECT_EQ(rest.loops[0].range, 1);
  EXPECT_EQ(rest.hostOffset, 192);
  EXPECT_EQ(rest.deviceOffset, 192000);
  EXPECT_EQ(plan.numElements(), 1000 * 200);
  // The padding: the last 56 elements of every row's last stick.
  DmaPlan padding = bound.paddingPlan();
  EXPECT_EQ(padding.numElements(), 1000 * 56);
}

TEST(Dma, DeviceRankFormKeepsEveryDim) {
  // The runtime's DCI form of [4096, 64] f16: nothing merged, the size-1
  // stick-column dim kept: ((1, 4096, 64), (262144, 64, 1), (64, 64, 1)).
  BoundLayout bound = bindContiguous(defaultLayout({4096, 64}), {4096, 64});
  DmaPlan plan = bound.dmaPlan(DmaDirection::HostToDevice, DmaForm::DeviceRank);
  ASSERT_EQ(plan.nests.size(), 1u);
  EXPECT_EQ(plan.nests[0].str(),
            "((1, 4096, 64), (262144, 64, 1), (64, 64, 1))");
  // [1000, 200]: the remainder nest keeps all three loops too.
  bound = bindContiguous(defaultLayout({1000, 200}), {1000, 200});
  plan = bound.dmaPlan(DmaDirection::DeviceToHost, DmaForm::DeviceRank);
  ASSERT_EQ(plan.nests.size(), 2u);
  EXPECT_EQ(plan.nests[1].str(),
            "((1, 1000, 8), (64000, 64, 1), (64, 200, 1))");
  EXPECT_EQ(plan.nests[1].hostOffset, 192);
  EXPECT_EQ(plan.nests[1].deviceOffset, 192000);
}

TEST(Dma, ContiguousDimsCoalesce) {
  // [4096, 64]: every row is one stick, so the device tensor is the host
  // tensor and the whole transfer is one contiguous run.
  BoundLayout bound = bindContiguous(defaultLayout({4096, 64}), {4096, 64});
  DmaPlan plan = bound.dmaPlan();
  ASSERT_EQ(plan.nests.size(), 1u);
  EXPECT_EQ(plan.nests[0].str(), "((262144), (1), (1))");
}

//===----------------------------------------------------------------------===//
// Validation of the direct form
//===----------------------------------------------------------------------===//

struct InvalidExample {
  Ints deviceSize;
  Ints strideMap;
  Ints hostSize;
  const char *message;
};

class InvalidLayouts : public ::testing::TestWithParam<InvalidExample> {};

TEST_P(InvalidLayouts, Rejected) {
  const InvalidExample &ex = GetParam();
  llvm::Expected<SpyreTensorLayout> layout = SpyreTensorLayout::get(
      ex.deviceSize, ex.strideMap, DataFormat::SEN169_FP16);
  std::string message;
  if (!layout)
    message = llvm::toString(layout.takeError());
  else
    message = errorOf(layout->bind(HostView::contiguous(ex.hostSize)));
  EXPECT_NE(message.find(ex.message), std::string::npos) << "got: " << message;
}

INSTANTIATE_TEST_SUITE_P(
    Direct, InvalidLayouts,
    ::testing::Values(
        InvalidExample{{4, 1024},
                       {64, 256, 1},
                       {1024, 256},
                       "device_size has 2 entries but stride_map has 3"},
        InvalidExample{{4, 1024, 32},
                       {64, 256, 1},
                       {1024, 256},
                       "stick dim device_size[2] = 32 must be 64"},
        InvalidExample{{0, 1024, 64},
                       {64, 256, 1},
                       {1024, 256},
                       "device_size[0] = 0 must be positive"},
        InvalidExample{{4, 1024, 64},
                       {64, -2, 1},
                       {1024, 256},
                       "stride_map[1] = -2 is invalid"},
        InvalidExample{{4, 1024, 64},
                       {64, 257, 1},
                       {1024, 256},
                       "stride_map[1] = 257 does not step along any host dim"},
        InvalidExample{{3, 1024, 64},
                       {64, 256, 1},
                       {1024, 256},
                       "layout too small: its device dims cover 192 of the "
                       "256 elements of host dim 1"},
        InvalidExample{
            {4, 512, 64}, {64, 256, 1}, {1024, 256}, "layout too small"},
        InvalidExample{{4, 1024, 64},
                       {32, 256, 1},
                       {1024, 256},
                       "two device slots would hold one host element"},
        InvalidExample{{2, 1024, 64},
                       {128, 256, 1},
                       {1024, 256},
                       "leaving host elements without a device slot"},
        InvalidExample{{4, 1024, 64},
                       {64, 256, 2},
                       {1024, 256},
                       "has no device dim stepping by its host stride 1"},
        InvalidExample{{4, 64},
                       {64, 1},
                       {1024, 256},
                       "host dim 0 (size 1024) is not mapped by any device "
                       "dim"},
        InvalidExample{{1, 1, 1, 1, 1, 1, 1, 1, 64},
                       {-1, -1, -1, -1, -1, -1, -1, -1, 1},
                       {64},
                       "device rank 9 exceeds the maximum of 8"}));

TEST(Validation, BroadcastDimsMayAlias) {
  // A declared broadcast (stride 0) dim may repeat host elements.
  SpyreTensorLayout layout = llvm::cantFail(
      SpyreTensorLayout::get({3, 2, 64}, {0, 64, 1}, DataFormat::SEN169_FP16));
  BoundLayout bound = bindContiguous(layout, {128});
  EXPECT_EQ(bound.hostOffset({2, 1, 5}), bound.hostOffset({0, 1, 5}));
  EXPECT_EQ(bound.dmaPlan(DmaDirection::HostToDevice).numElements(), 3 * 128);
  EXPECT_EQ(bound.dmaPlan(DmaDirection::DeviceToHost).numElements(), 128);
  EXPECT_FALSE(static_cast<bool>(bound.dimMap()));
}

TEST(Validation, OverflowIsRejected) {
  EXPECT_NE(
      errorOf(SpyreTensorLayout::get({int64_t(1) << 40, int64_t(1) << 40, 64},
                                     {-1, -1, 1}, DataFormat::SEN169_FP16))
          .find("too large"),
      std::string::npos);
}

//===----------------------------------------------------------------------===//
// Restickify
//===----------------------------------------------------------------------===//

TEST(Restickify, MovesTheStick) {
  // Moving the stick of [1024, 256] to dim 0 is the dim_order [1, 0] layout.
  BoundLayout source = bindContiguous(defaultLayout({1024, 256}), {1024, 256});
  SpyreTensorLayout target = llvm::cantFail(restickifyTarget(source, 0));
  EXPECT_EQ(vec(target.getDeviceSize()), (Ints{16, 256, 64}));
  EXPECT_EQ(vec(target.getStrideMap()), (Ints{16384, 1, 256}));
  EXPECT_EQ(target, orderedLayout({1024, 256}, {1, 0}));
  EXPECT_EQ(restickifyCost(source.layout()), 4 * 1024 * 64);
  // And back.
  SpyreTensorLayout back =
      llvm::cantFail(restickifyTarget(bindContiguous(target, {1024, 256}), 1));
  EXPECT_EQ(back, source.layout());
}

TEST(Restickify, KeepsOtherDimsInPlace) {
  // The reference stack's in-place rule for [5, 100, 150] -> stick on dim 1:
  // the stick-count slot counts sticks of dim 1, dim 1's slot takes dim 2.
  BoundLayout source =
      bindContiguous(defaultLayout({5, 100, 150}), {5, 100, 150});
  SpyreTensorLayout target = llvm::cantFail(restickifyTarget(source, 1));
  EXPECT_EQ(vec(target.getDeviceSize()), (Ints{150, 2, 5, 64}));
  EXPECT_EQ(vec(target.getStrideMap()), (Ints{1, 9600, 15000, 150}));
  EXPECT_EQ(restickifyCost(source.layout()), 100 * 3 * 5 * 64);
  // To the current stick: the same layout.
  EXPECT_EQ(llvm::cantFail(restickifyTarget(source, 2)), source.layout());
  EXPECT_NE(errorOf(restickifyTarget(source, 3)).find("rank 3"),
            std::string::npos);
  EXPECT_NE(
      errorOf(restickifyTarget(
                  bindContiguous(orderedLayout({8, 4}, {1, 0, -1}), {8, 4}), 0))
          .find("sparse"),
      std::string::npos);
}

} // namespace
