//===- ReshapeViewTest.cpp - Reshapes as views of the same device bytes ---===//
//
// Expected layouts are derived by hand from the stride_map definition
// (host offset = dot(device coordinate, stride_map)); the property tests
// check every element's device offset against the source layout's.
//
//===----------------------------------------------------------------------===//

#include "Spyre/Layout/Layout.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <numeric>
#include <random>

using namespace mlir::spyre;
using llvm::ArrayRef;
using llvm::SmallVector;

namespace {
using Ints = std::vector<int64_t>;

SpyreTensorLayout defaultLayout(ArrayRef<int64_t> sizes) {
  return llvm::cantFail(SpyreTensorLayout::getDefault(
      HostView::contiguous(sizes), HostType::Float16));
}

BoundLayout bindContiguous(const SpyreTensorLayout &layout,
                           ArrayRef<int64_t> sizes) {
  return llvm::cantFail(layout.bind(HostView::contiguous(sizes)));
}

Ints vec(ArrayRef<int64_t> values) {
  return Ints(values.begin(), values.end());
}

template <typename T> std::string errorOf(llvm::Expected<T> value) {
  if (value)
    return "";
  return llvm::toString(value.takeError());
}
} // namespace

namespace reshape_test {
/// Every host element (by row-major offset) at the same device offset under
/// both bindings: an independent check of "same device bytes".
void expectSameBytes(const BoundLayout &from, const BoundLayout &to) {
  int64_t n = from.host().numElements();
  ASSERT_EQ(n, to.host().numElements());
  auto coordOf = [](int64_t linear, ArrayRef<int64_t> sizes) {
    SmallVector<int64_t, 6> coord(sizes.size());
    for (int i = static_cast<int>(sizes.size()) - 1; i >= 0; --i) {
      coord[i] = linear % sizes[i];
      linear /= sizes[i];
    }
    return coord;
  };
  for (int64_t x = 0; x < n; ++x)
    ASSERT_EQ(from.deviceOffset(coordOf(x, from.host().sizes)),
              to.deviceOffset(coordOf(x, to.host().sizes)))
        << "host element " << x;
  EXPECT_EQ(from.layout().numDeviceElements(), to.layout().numDeviceElements());
}
} // namespace reshape_test

TEST(ReshapeView, SplittingAnOuterDimSplitsItsDeviceDim) {
  // The front door's bug: [4, 64] -> [2, 2, 64] is a view.
  BoundLayout source = bindContiguous(defaultLayout({4, 64}), {4, 64});
  EXPECT_EQ(vec(source.layout().getDeviceSize()), (Ints{1, 4, 64}));
  EXPECT_FALSE(survivesReshape(source.layout(), {2, 2, 64}));
  SpyreTensorLayout view = llvm::cantFail(reshapeView(source, {2, 2, 64}));
  EXPECT_EQ(vec(view.getDeviceSize()), (Ints{1, 2, 2, 64}));
  EXPECT_EQ(vec(view.getStrideMap()), (Ints{64, 128, 64, 1}));
  EXPECT_TRUE(sameDeviceBytes(source.layout(), view));
  reshape_test::expectSameBytes(source, bindContiguous(view, {2, 2, 64}));
}

TEST(ReshapeView, HeadSplitAndMergeAreViews) {
  // [B*S, D] -> [B, S, H, Dh] and back; [24, 128, 128] -> [2, 12, 128, 128].
  struct Case {
    Ints from, to;
  } cases[] = {{{256, 768}, {2, 128, 12, 64}},
               {{2, 128, 12, 64}, {256, 768}},
               {{24, 128, 128}, {2, 12, 128, 128}},
               {{2, 12, 128, 128}, {24, 128, 128}},
               {{128, 256}, {2, 64, 4, 64}}};
  for (const Case &c : cases) {
    BoundLayout source = bindContiguous(defaultLayout(c.from), c.from);
    llvm::Expected<SpyreTensorLayout> view = reshapeView(source, c.to);
    ASSERT_TRUE(static_cast<bool>(view))
        << formatList(c.from) << " -> " << formatList(c.to) << ": "
        << llvm::toString(view.takeError());
    EXPECT_TRUE(sameDeviceBytes(source.layout(), *view));
    reshape_test::expectSameBytes(source, bindContiguous(*view, c.to));
  }
}

TEST(ReshapeView, AdjacentDeviceDimsOfOneNewDimMerge) {
  // [2, 12, 256, 64] laid out batch outside heads, both inside the rows
  // (device [256, 1, 2, 12, 64]): read as [24, 256, 64], the batch and head
  // dims step along the one new dim 24, one right outside the other
  // (196608 = 12 * 16384), and merge into one device dim of 24 - what a
  // block of the 24 can cut. The layout binds unchanged too (two pieces of
  // host dim 0), so the view must prefer the merged form.
  SpyreTensorLayout split = llvm::cantFail(
      SpyreTensorLayout::get({256, 1, 2, 12, 64}, {64, 64, 196608, 16384, 1},
                             DataFormat::SEN169_FP16));
  BoundLayout source = bindContiguous(split, {2, 12, 256, 64});
  ASSERT_TRUE(survivesReshape(split, {24, 256, 64}));
  SpyreTensorLayout view = llvm::cantFail(reshapeView(source, {24, 256, 64}));
  EXPECT_EQ(vec(view.getDeviceSize()), (Ints{256, 1, 24, 64}));
  EXPECT_EQ(vec(view.getStrideMap()), (Ints{64, 64, 16384, 1}));
  reshape_test::expectSameBytes(source, bindContiguous(view, {24, 256, 64}));

  // The default layout puts the batch inside and the heads outside the rows
  // (device [12, 256, 1, 2, 64]): the two pieces are apart, nothing merges,
  // the layout is its own view.
  SpyreTensorLayout apart = defaultLayout({2, 12, 256, 64});
  EXPECT_EQ(vec(apart.getDeviceSize()), (Ints{12, 256, 1, 2, 64}));
  BoundLayout other = bindContiguous(apart, {2, 12, 256, 64});
  EXPECT_EQ(llvm::cantFail(reshapeView(other, {24, 256, 64})), apart);
}

TEST(ReshapeView, StickAndPaddingCannotStraddle) {
  // The stick of [4, 64] cannot be read as two dims of 32.
  BoundLayout source = bindContiguous(defaultLayout({4, 64}), {4, 64});
  EXPECT_NE(errorOf(reshapeView(source, {4, 2, 32})).find("straddle"),
            std::string::npos);
  // [4, 50] is padded to sticks of 64: its rows cannot merge.
  BoundLayout padded = bindContiguous(defaultLayout({4, 50}), {4, 50});
  EXPECT_NE(errorOf(reshapeView(padded, {200})).find("padded"),
            std::string::npos);
  // But its padded dim may stay whole while the others split.
  SpyreTensorLayout view = llvm::cantFail(reshapeView(padded, {2, 2, 50}));
  reshape_test::expectSameBytes(padded, bindContiguous(view, {2, 2, 50}));
  EXPECT_NE(errorOf(reshapeView(source, {3, 64})).find("cannot reshape"),
            std::string::npos);
}

TEST(ReshapeView, RandomReshapesAreViewsOrRejected) {
  // Random factorizations of random shapes: whatever reshapeView accepts
  // keeps every element's device offset.
  std::mt19937_64 rng(7);
  auto factor = [&](int64_t n) {
    Ints parts;
    for (int64_t p : {2, 3, 4, 8, 16, 64, 128})
      while (n % p == 0 && n > 1 && parts.size() < 4 && rng() % 2) {
        parts.push_back(p);
        n /= p;
      }
    parts.push_back(n);
    std::shuffle(parts.begin(), parts.end(), rng);
    return parts;
  };
  int accepted = 0;
  for (int i = 0; i < 300; ++i) {
    Ints from = factor(int64_t(1) << (6 + rng() % 6));
    Ints to = factor(std::accumulate(from.begin(), from.end(), int64_t(1),
                                     std::multiplies<int64_t>()));
    for (int32_t stick = 0; stick < static_cast<int32_t>(from.size());
         ++stick) {
      SmallVector<int32_t, 6> order = SpyreTensorLayout::defaultDimOrder(from);
      std::swap(*llvm::find(order, stick), order.back());
      llvm::Expected<SpyreTensorLayout> layout = SpyreTensorLayout::getDefault(
          HostView::contiguous(from), DataFormat::SEN169_FP16,
          ArrayRef<int32_t>(order));
      if (!layout) {
        llvm::consumeError(layout.takeError());
        continue;
      }
      BoundLayout source = bindContiguous(*layout, from);
      llvm::Expected<SpyreTensorLayout> view = reshapeView(source, to);
      if (!view) {
        llvm::consumeError(view.takeError());
        continue;
      }
      ++accepted;
      reshape_test::expectSameBytes(source, bindContiguous(*view, to));
    }
  }
  EXPECT_GT(accepted, 100);
}
