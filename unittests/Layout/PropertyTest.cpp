//===- PropertyTest.cpp - Layout invariants over random tensors -----------===//
//
// Thousands of random (sizes, strides, dtype, dim_order) cases checked against
// an independent reference: the seeds' dim_map semantics ("the coordinates of
// a tiled dimension are combined into a PyTorch coordinate with strides
// increasing right-to-left"), which never looks at stride_map. Checked:
//  - the layout has the spec's device sizes;
//  - every host element lands in exactly one device slot, padding is what
//    the dim_map semantics say, and offsets agree with dot(coord, stride_map);
//  - host -> device -> host is exact and padding holds the fill value;
//  - the DMA nests copy exactly the (device, host) pairs of the slow mapping,
//    and the padding nests cover exactly the padding.
// Random direct-form layouts must either be rejected or keep the bijection.
//
//===----------------------------------------------------------------------===//

#include "Spyre/Layout/Layout.h"
#include "Spyre/Layout/Stickify.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <numeric>
#include <random>

using namespace mlir::spyre;
using llvm::ArrayRef;
using Ints = std::vector<int64_t>;

namespace {

constexpr int kCases = 2500;

struct Case {
  Ints sizes, strides;
  HostType dtype;
  std::vector<int32_t> dimOrder;
  int64_t hostSpan; // elements of the host buffer
};

/// The spec's generic stick layout in dim_map form, built from the prose of
/// spyre_facts.md section 2 (not from the implementation).
struct Reference {
  std::vector<int32_t> slotDim; // host dim per device dim, -1 synthetic
  Ints deviceSize;
};

Reference referenceLayout(const Case &c, int64_t eps) {
  Reference ref;
  int n = static_cast<int>(c.sizes.size());
  if (n == 0) {
    ref.slotDim = {-1, -1};
    ref.deviceSize = {1, eps};
    return ref;
  }
  const std::vector<int32_t> &o = c.dimOrder;
  size_t m = o.size();
  int32_t stick = o.back();
  auto stickCount = [&]() -> int64_t {
    return stick < 0 ? 1 : (c.sizes[stick] + eps - 1) / eps;
  };
  if (m == 1) {
    // Rank 1: [ceil(n / eps), eps].
    ref.slotDim = {stick, stick};
    ref.deviceSize = {stickCount()};
  } else {
    // [o1, ..., o(m-2), ceil(size[o(m-1)] / eps), o0, eps]
    for (size_t i = 1; i + 1 < m; ++i) {
      ref.slotDim.push_back(o[i]);
      ref.deviceSize.push_back(c.sizes[o[i]]);
    }
    ref.slotDim.push_back(stick);
    ref.deviceSize.push_back(stickCount());
    ref.slotDim.push_back(o[0]);
    ref.deviceSize.push_back(c.sizes[o[0]]);
    ref.slotDim.push_back(stick);
  }
  ref.deviceSize.push_back(eps);
  return ref;
}

/// Host coordinate of a device coordinate under dim_map semantics, or
/// nullopt for padding.
std::optional<Ints> referenceHostCoord(const Case &c, const Reference &ref,
                                       ArrayRef<int64_t> x) {
  Ints coord(c.sizes.size(), 0);
  // Combine right-to-left: the innermost occurrence has weight 1, each outer
  // one the product of the device sizes of the inner occurrences.
  std::vector<int64_t> weight(c.sizes.size(), 1);
  for (int j = static_cast<int>(ref.slotDim.size()) - 1; j >= 0; --j) {
    int32_t d = ref.slotDim[j];
    if (d < 0) {
      if (x[j] != 0)
        return std::nullopt;
      continue;
    }
    coord[d] += x[j] * weight[d];
    weight[d] *= ref.deviceSize[j];
  }
  for (size_t h = 0; h < c.sizes.size(); ++h)
    if (coord[h] >= c.sizes[h])
      return std::nullopt;
  return coord;
}

int64_t dot(ArrayRef<int64_t> a, ArrayRef<int64_t> b) {
  int64_t s = 0;
  for (size_t i = 0; i < a.size(); ++i)
    s += a[i] * b[i];
  return s;
}

/// Calls fn(coordinate) for every coordinate of `sizes`, row-major.
template <typename Fn> void forEachCoord(ArrayRef<int64_t> sizes, Fn fn) {
  Ints x(sizes.size(), 0);
  while (true) {
    fn(ArrayRef<int64_t>(x));
    int k = static_cast<int>(sizes.size()) - 1;
    for (; k >= 0; --k) {
      if (++x[k] < sizes[k])
        break;
      x[k] = 0;
    }
    if (k < 0)
      return;
  }
}

Case randomCase(std::mt19937_64 &rng) {
  static const int64_t sizeChoices[] = {1,  2,  3,  5,   7,   31, 33,
                                        63, 64, 65, 100, 130, 200};
  static const HostType types[] = {HostType::Float16,    HostType::BFloat16,
                                   HostType::Float32,    HostType::Bool,
                                   HostType::Int8,       HostType::Int32,
                                   HostType::Int64,      HostType::Float8E4M3FN,
                                   HostType::Float8E5M2, HostType::Int4};
  Case c;
  while (true) {
    int rank = std::uniform_int_distribution<int>(0, 6)(rng);
    c.sizes.clear();
    for (int i = 0; i < rank; ++i)
      c.sizes.push_back(sizeChoices[std::uniform_int_distribution<int>(
          0, std::size(sizeChoices) - 1)(rng)]);
    int64_t n = 1;
    for (int64_t s : c.sizes)
      n *= s;
    if (n <= 6000)
      break;
  }
  c.dtype = types[std::uniform_int_distribution<int>(0, 9)(rng)];
  int n = static_cast<int>(c.sizes.size());
  // Host strides: a contiguous buffer in a random dim order, sometimes with
  // gaps (a slice of a larger buffer).
  std::vector<int> memOrder(n);
  std::iota(memOrder.begin(), memOrder.end(), 0);
  if (std::uniform_int_distribution<int>(0, 2)(rng) == 0)
    std::shuffle(memOrder.begin(), memOrder.end(), rng);
  c.strides.assign(n, 0);
  int64_t stride = 1;
  bool gaps = std::uniform_int_distribution<int>(0, 3)(rng) == 0;
  for (int i = n - 1; i >= 0; --i) {
    c.strides[memOrder[i]] = stride;
    stride *= c.sizes[memOrder[i]] + (gaps ? 1 : 0);
  }
  c.hostSpan = 1;
  for (int h = 0; h < n; ++h)
    c.hostSpan += (c.sizes[h] - 1) * c.strides[h];
  // dim_order: the default, or a random permutation, sometimes sparse.
  int mode = std::uniform_int_distribution<int>(0, 3)(rng);
  if (mode == 0) {
    auto order = SpyreTensorLayout::defaultDimOrder(c.sizes);
    c.dimOrder.assign(order.begin(), order.end());
  } else {
    c.dimOrder.resize(n);
    std::iota(c.dimOrder.begin(), c.dimOrder.end(), 0);
    std::shuffle(c.dimOrder.begin(), c.dimOrder.end(), rng);
    if (n > 0 && mode == 3)
      c.dimOrder.push_back(-1);
  }
  return c;
}

std::string describe(const Case &c) {
  std::string s = "sizes=" + formatList(c.sizes) +
                  " strides=" + formatList(c.strides) +
                  " dtype=" + stringifyHostType(c.dtype).str() +
                  " dim_order=" + formatList(c.dimOrder);
  return s;
}

/// Random host bytes whose values survive the DMA conversion exactly.
std::vector<uint8_t> randomHostData(const Case &c, std::mt19937_64 &rng) {
  unsigned bytes = hostElementBytes(c.dtype);
  std::vector<uint8_t> data(c.hostSpan * bytes);
  std::uniform_int_distribution<int> byte(0, 255);
  for (int64_t e = 0; e < c.hostSpan; ++e) {
    uint8_t *p = data.data() + e * bytes;
    switch (c.dtype) {
    case HostType::Bool:
      *p = byte(rng) & 1;
      break;
    case HostType::Int4:
      *p = static_cast<uint8_t>(static_cast<int8_t>(byte(rng) % 16 - 8));
      break;
    case HostType::Int64: {
      int64_t v = static_cast<int32_t>(rng());
      std::memcpy(p, &v, 8);
      break;
    }
    case HostType::BFloat16: {
      // Small integers are exact in both bf16 and f16.
      float f = static_cast<float>(byte(rng) - 128);
      uint32_t bits;
      std::memcpy(&bits, &f, 4);
      uint16_t hi = static_cast<uint16_t>(bits >> 16);
      std::memcpy(p, &hi, 2);
      break;
    }
    default:
      for (unsigned i = 0; i < bytes; ++i)
        p[i] = static_cast<uint8_t>(byte(rng));
    }
  }
  return data;
}

/// Reads device element `e` (any width).
uint32_t loadDevice(const std::vector<uint8_t> &device, unsigned bits,
                    int64_t e) {
  if (bits == 4)
    return (device[e / 2] >> ((e % 2) * 4)) & 0xf;
  uint32_t v = 0;
  std::memcpy(&v, device.data() + e * (bits / 8), bits / 8);
  return v;
}

/// The device bits a host element becomes (reference conversion).
uint32_t referenceDeviceBits(HostType type, const uint8_t *p) {
  switch (type) {
  case HostType::Bool:
    return *p ? 0x3C00 : 0; // 1.0 in binary16
  case HostType::Int4:
    return *p & 0xf;
  case HostType::Int64: {
    int64_t v;
    std::memcpy(&v, p, 8);
    return static_cast<uint32_t>(v);
  }
  case HostType::BFloat16: {
    // Integers in [-128, 127]: build the binary16 encoding from the value.
    uint16_t raw;
    std::memcpy(&raw, p, 2);
    uint32_t bits = static_cast<uint32_t>(raw) << 16;
    float f;
    std::memcpy(&f, &bits, 4);
    return llvm::cantFail(encodeDeviceValue(DataFormat::SEN169_FP16, f));
  }
  default: {
    uint32_t v = 0;
    std::memcpy(&v, p, hostElementBytes(type));
    return v;
  }
  }
}

TEST(LayoutProperties, RandomDefaultLayoutsAgreeWithDimMapSemantics) {
  std::mt19937_64 rng(20261122);
  int checked = 0;
  for (int iteration = 0; iteration < kCases; ++iteration) {
    Case c = randomCase(rng);
    SCOPED_TRACE(describe(c));
    DataFormat format = deviceFormatFor(c.dtype);
    int64_t eps = elemsPerStick(format);
    llvm::Expected<SpyreTensorLayout> layoutOr = SpyreTensorLayout::getDefault(
        HostView(c.sizes, c.strides), c.dtype, ArrayRef<int32_t>(c.dimOrder));
    ASSERT_TRUE(static_cast<bool>(layoutOr))
        << llvm::toString(layoutOr.takeError());
    const SpyreTensorLayout &layout = *layoutOr;
    Reference ref = referenceLayout(c, eps);
    ASSERT_EQ(
        Ints(layout.getDeviceSize().begin(), layout.getDeviceSize().end()),
        ref.deviceSize);
    if (layout.numDeviceElements() > 400000)
      continue; // keep the enumeration cheap
    BoundLayout bound =
        llvm::cantFail(layout.bind(HostView(c.sizes, c.strides)));
    // One temporary: begin() and end() of two calls would pair iterators
    // of different vectors (found by the ASan build).
    llvm::SmallVector<int64_t, 8> strides = layout.deviceStrides();
    Ints deviceStrides(strides.begin(), strides.end());

    // Exactly one device slot per host element; padding and offsets agree.
    std::map<int64_t, int> hits;
    std::vector<std::pair<int64_t, int64_t>> pairs; // (device, host) offsets
    std::vector<int64_t> paddingOffsets;
    bool ok = true;
    forEachCoord(layout.getDeviceSize(), [&](ArrayRef<int64_t> x) {
      std::optional<Ints> refCoord = referenceHostCoord(c, ref, x);
      bool padding = bound.isPadding(x);
      if (padding != !refCoord.has_value()) {
        ADD_FAILURE() << "padding mismatch at " << formatList(x);
        ok = false;
        return;
      }
      int64_t devOffset = dot(x, deviceStrides);
      if (padding) {
        paddingOffsets.push_back(devOffset);
        return;
      }
      int64_t hostOffset = dot(*refCoord, c.strides);
      if (bound.hostOffset(x) != hostOffset) {
        ADD_FAILURE() << "offset mismatch at " << formatList(x);
        ok = false;
      }
      llvm::SmallVector<int64_t, 8> inverse = bound.deviceCoord(*refCoord);
      if (Ints(inverse.begin(), inverse.end()) != Ints(x.begin(), x.end())) {
        ADD_FAILURE() << "inverse mismatch at " << formatList(x);
        ok = false;
      }
      ++hits[hostOffset];
      pairs.emplace_back(devOffset, hostOffset);
    });
    ASSERT_TRUE(ok);
    int64_t hostElements = 1;
    for (int64_t s : c.sizes)
      hostElements *= s;
    ASSERT_EQ(static_cast<int64_t>(hits.size()), hostElements);
    for (auto [offset, count] : hits)
      ASSERT_EQ(count, 1) << "host offset " << offset;

    // The used bytes end with the last stick holding an element.
    int64_t lastElement = 0;
    for (auto [device, host] : pairs)
      lastElement = std::max(lastElement, device);
    EXPECT_EQ(bound.usedBytes(), (lastElement / eps + 1) * layout.stickBytes());
    EXPECT_LE(bound.usedBytes(), layout.deviceBytes());

    // The DMA nests move exactly these pairs; padding nests the rest. The
    // runtime's form (one loop per device dim, nothing merged) moves the
    // same pairs; broadcast dims it writes in full, like HostToDevice.
    auto pairsOf = [](const DmaPlan &plan) {
      std::vector<std::pair<int64_t, int64_t>> moved;
      for (const DmaNest &nest : plan.nests) {
        Ints ranges;
        for (const DmaLoop &loop : nest.loops)
          ranges.push_back(loop.range);
        forEachCoord(ranges, [&](ArrayRef<int64_t> i) {
          int64_t dev = nest.deviceOffset, host = nest.hostOffset;
          for (size_t k = 0; k < i.size(); ++k) {
            dev += i[k] * nest.loops[k].deviceStride;
            host += i[k] * nest.loops[k].hostStride;
          }
          moved.emplace_back(dev, host);
        });
      }
      return moved;
    };
    DmaPlan deviceRank =
        bound.dmaPlan(DmaDirection::HostToDevice, DmaForm::DeviceRank);
    for (const DmaNest &nest : deviceRank.nests)
      ASSERT_EQ(static_cast<int64_t>(nest.loops.size()),
                bound.layout().deviceRank());
    std::vector<std::pair<int64_t, int64_t>> dmaPairs =
        pairsOf(bound.dmaPlan());
    std::vector<std::pair<int64_t, int64_t>> deviceRankPairs =
        pairsOf(deviceRank);
    std::sort(pairs.begin(), pairs.end());
    std::sort(dmaPairs.begin(), dmaPairs.end());
    ASSERT_EQ(dmaPairs, pairs);
    std::sort(deviceRankPairs.begin(), deviceRankPairs.end());
    ASSERT_EQ(deviceRankPairs, pairs);
    std::vector<int64_t> padPositions;
    for (const DmaNest &nest : bound.paddingPlan().nests) {
      Ints ranges;
      for (const DmaLoop &loop : nest.loops)
        ranges.push_back(loop.range);
      forEachCoord(ranges, [&](ArrayRef<int64_t> i) {
        int64_t dev = nest.deviceOffset;
        for (size_t k = 0; k < i.size(); ++k)
          dev += i[k] * nest.loops[k].deviceStride;
        padPositions.push_back(dev);
      });
    }
    std::sort(paddingOffsets.begin(), paddingOffsets.end());
    std::sort(padPositions.begin(), padPositions.end());
    ASSERT_EQ(padPositions, paddingOffsets);

    // Real data: stickify, compare with the slow reference, and come back.
    std::vector<uint8_t> host = randomHostData(c, rng);
    std::vector<uint8_t> device(layout.deviceBytes(), 0xAB);
    double padValue = isFloatingPoint(format) ? -0.5 : -3.0;
    ASSERT_FALSE(static_cast<bool>(
        stickify(bound, c.dtype, host.data(), device.data(), padValue)));
    unsigned bits = deviceElementBits(format);
    uint32_t padBits = llvm::cantFail(encodeDeviceValue(format, padValue));
    unsigned hostBytes = hostElementBytes(c.dtype);
    for (auto [dev, hostOff] : pairs)
      ASSERT_EQ(loadDevice(device, bits, dev),
                referenceDeviceBits(c.dtype, host.data() + hostOff * hostBytes))
          << "device element " << dev;
    for (int64_t dev : paddingOffsets)
      ASSERT_EQ(loadDevice(device, bits, dev), padBits)
          << "padding element " << dev;
    std::vector<uint8_t> back(host.size(), 0x5A);
    ASSERT_FALSE(static_cast<bool>(
        unstickify(bound, c.dtype, device.data(), back.data())));
    for (auto [dev, hostOff] : pairs)
      ASSERT_EQ(0, std::memcmp(back.data() + hostOff * hostBytes,
                               host.data() + hostOff * hostBytes, hostBytes))
          << "host element " << hostOff;
    ++checked;
  }
  EXPECT_GT(checked, kCases * 9 / 10);
}

TEST(LayoutProperties, RandomDirectLayoutsAreRejectedOrBijective) {
  // Perturb valid layouts (one size or one stride_map entry) and check that
  // whatever validation accepts still maps every host element to exactly one
  // non-padding device slot.
  std::mt19937_64 rng(7);
  int accepted = 0, rejected = 0;
  for (int iteration = 0; iteration < kCases; ++iteration) {
    Case c = randomCase(rng);
    c.dtype = HostType::Float16;
    c.strides.assign(c.sizes.size(), 0);
    int64_t stride = 1;
    for (int i = static_cast<int>(c.sizes.size()) - 1; i >= 0; --i) {
      c.strides[i] = stride;
      stride *= c.sizes[i];
    }
    if (c.sizes.empty())
      continue;
    if (c.dimOrder.back() == -1)
      c.dimOrder.pop_back();
    SpyreTensorLayout base = llvm::cantFail(SpyreTensorLayout::getDefault(
        HostView(c.sizes, c.strides), c.dtype, ArrayRef<int32_t>(c.dimOrder)));
    Ints size(base.getDeviceSize().begin(), base.getDeviceSize().end());
    Ints strideMap(base.getStrideMap().begin(), base.getStrideMap().end());
    int dim = std::uniform_int_distribution<int>(
        0, static_cast<int>(size.size()) - 1)(rng);
    if (std::uniform_int_distribution<int>(0, 1)(rng)) {
      if (dim + 1 != static_cast<int>(size.size()))
        size[dim] = std::max<int64_t>(
            1, size[dim] + std::uniform_int_distribution<int>(-2, 2)(rng));
    } else {
      static const int64_t choices[] = {-1, 0, 1, 2, 32, 64, 100, 128};
      strideMap[dim] =
          std::uniform_int_distribution<int>(0, 2)(rng) == 0
              ? strideMap[dim] * 2
              : choices[std::uniform_int_distribution<int>(0, 7)(rng)];
    }
    SCOPED_TRACE(describe(c) + " device_size=" + formatList(size) +
                 " stride_map=" + formatList(strideMap));
    llvm::Expected<SpyreTensorLayout> layout =
        SpyreTensorLayout::get(size, strideMap, DataFormat::SEN169_FP16);
    if (!layout) {
      llvm::consumeError(layout.takeError());
      ++rejected;
      continue;
    }
    llvm::Expected<BoundLayout> bound =
        layout->bind(HostView(c.sizes, c.strides));
    if (!bound) {
      llvm::consumeError(bound.takeError());
      ++rejected;
      continue;
    }
    if (layout->numDeviceElements() > 400000)
      continue;
    ++accepted;
    std::map<int64_t, int> hits;
    bool hasBroadcast = llvm::is_contained(strideMap, 0);
    forEachCoord(layout->getDeviceSize(), [&](ArrayRef<int64_t> x) {
      std::optional<llvm::SmallVector<int64_t, 6>> coord = bound->hostCoord(x);
      if (!coord)
        return;
      for (size_t h = 0; h < c.sizes.size(); ++h)
        ASSERT_LT((*coord)[h], c.sizes[h]);
      ASSERT_EQ(bound->hostOffset(x),
                dot(Ints(coord->begin(), coord->end()), c.strides));
      ++hits[bound->hostOffset(x)];
    });
    int64_t hostElements = 1;
    for (int64_t s : c.sizes)
      hostElements *= s;
    ASSERT_EQ(static_cast<int64_t>(hits.size()), hostElements);
    if (!hasBroadcast) {
      for (auto [offset, count] : hits)
        ASSERT_EQ(count, 1) << "host offset " << offset;
    }
  }
  // Both outcomes must actually occur for the test to mean anything.
  EXPECT_GT(accepted, kCases / 10);
  EXPECT_GT(rejected, kCases / 10);
}

} // namespace
