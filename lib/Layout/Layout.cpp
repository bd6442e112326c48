//===- Layout.cpp - The Spyre tensor layout algebra -----------------------===//
//
// Construction, validation and coordinate mapping of Spyre tensor layouts.
//
// Validation resolves every device dim of size > 1 to a role: a *piece* of one
// host dim (its stride_map entry is `multiplier * host_stride` with
// `multiplier < host_size`), a synthetic dim (-1), or a broadcast dim (0).
// The pieces of each host dim, sorted by multiplier, must form an exact mixed
// radix (multiplier 1 first, each next multiplier the previous one times its
// device size) that covers the host dim: that is precisely "every host element
// has exactly one device slot". Positions whose per-dim host coordinate runs
// past the host size, and non-zero coordinates of synthetic dims, are padding.
//
//===----------------------------------------------------------------------===//

#include "Spyre/Layout/Layout.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <numeric>

using namespace mlir::spyre;
using llvm::ArrayRef;
using llvm::Expected;
using llvm::SmallVector;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

std::string mlir::spyre::formatList(ArrayRef<int64_t> values) {
  std::string out = "[";
  llvm::raw_string_ostream os(out);
  llvm::interleaveComma(values, os);
  os << "]";
  return out;
}

std::string mlir::spyre::formatList(ArrayRef<int32_t> values) {
  SmallVector<int64_t> wide(values.begin(), values.end());
  return formatList(wide);
}

SmallVector<int64_t, 6> mlir::spyre::rowMajorStrides(ArrayRef<int64_t> sizes) {
  SmallVector<int64_t, 6> strides(sizes.size());
  int64_t stride = 1;
  for (int i = static_cast<int>(sizes.size()) - 1; i >= 0; --i) {
    strides[i] = stride;
    stride *= sizes[i];
  }
  return strides;
}

HostView HostView::contiguous(ArrayRef<int64_t> sizes) {
  return HostView(sizes, rowMajorStrides(sizes));
}

int64_t HostView::numElements() const {
  int64_t n = 1;
  for (int64_t s : sizes)
    n *= s;
  return n;
}

int64_t HostView::spanElements() const {
  int64_t last = 0;
  for (auto [size, stride] : llvm::zip_equal(sizes, strides)) {
    if (size == 0)
      return 0;
    last += (size - 1) * stride;
  }
  return last + 1;
}

/// Checks the host view itself: rank, positive sizes, non-negative strides.
static llvm::Error verifyHostView(const HostView &host) {
  if (host.sizes.size() != host.strides.size())
    return makeError(llvm::formatv(
        "host sizes {0} and host strides {1} have different lengths",
        formatList(host.sizes), formatList(host.strides)));
  if (host.rank() > kMaxHostRank)
    return makeError(llvm::formatv("host rank {0} exceeds the maximum of {1}",
                                   host.rank(), kMaxHostRank));
  for (auto [i, size] : llvm::enumerate(host.sizes))
    if (size <= 0)
      return makeError(llvm::formatv(
          "host size[{0}] = {1} must be positive (tensor sizes {2})", i, size,
          formatList(host.sizes)));
  for (auto [i, stride] : llvm::enumerate(host.strides))
    if (stride < 0)
      return makeError(llvm::formatv(
          "host stride[{0}] = {1} must not be negative", i, stride));
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// SpyreTensorLayout
//===----------------------------------------------------------------------===//

Expected<SpyreTensorLayout>
SpyreTensorLayout::get(ArrayRef<int64_t> deviceSize,
                       ArrayRef<int64_t> strideMap, DataFormat format,
                       ElementArrangement arrangement, int64_t stickBytes) {
  if (deviceSize.empty())
    return makeError("device_size must have at least one dim (the stick)");
  if (deviceSize.size() != strideMap.size())
    return makeError(llvm::formatv(
        "device_size has {0} entries but stride_map has {1}; they must match",
        deviceSize.size(), strideMap.size()));
  if (static_cast<int>(deviceSize.size()) > kMaxDeviceRank)
    return makeError(llvm::formatv("device rank {0} exceeds the maximum of {1}",
                                   deviceSize.size(), kMaxDeviceRank));
  for (auto [i, size] : llvm::enumerate(deviceSize))
    if (size <= 0)
      return makeError(
          llvm::formatv("device_size[{0}] = {1} must be positive", i, size));
  for (auto [i, stride] : llvm::enumerate(strideMap))
    if (stride < -1)
      return makeError(llvm::formatv(
          "stride_map[{0}] = {1} is invalid: entries are host strides >= 0, "
          "or -1 for a synthetic dim",
          i, stride));
  int64_t eps = mlir::spyre::elemsPerStick(format, stickBytes);
  if (eps == 0)
    return makeError(llvm::formatv("a {0}-byte stick does not hold a whole "
                                   "number of {1} elements",
                                   stickBytes, stringifyDataFormat(format)));
  if (deviceSize.back() != eps)
    return makeError(llvm::formatv(
        "stick dim device_size[{0}] = {1} must be {2}: one {3}-byte stick of "
        "{4} holds {2} elements",
        deviceSize.size() - 1, deviceSize.back(), eps, stickBytes,
        stringifyDataFormat(format)));
  // Two statistics per stick (exx2's mean and mean square) need a stick of
  // their own: the synthetic stick of a per-row tensor.
  if (arrangement == ElementArrangement::EXX2 && strideMap.back() != -1)
    return makeError(llvm::formatv(
        "element arrangement exx2 holds two values in each stick of a "
        "synthetic stick dim, but stride_map[{0}] = {1} (it must be -1)",
        strideMap.size() - 1, strideMap.back()));
  // dl16tofp32's lane order is one of f32 values.
  if (arrangement == ElementArrangement::DL16ToFP32 &&
      format != DataFormat::IEEE_FP32)
    return makeError(llvm::formatv(
        "element arrangement dl16_to_fp32 orders the IEEE_FP32 lanes a DL16 "
        "-> f32 conversion writes, but the format is {0}",
        stringifyDataFormat(format)));
  // The device tensor's byte size must be representable.
  int64_t bytes = stickBytes;
  for (int64_t size : deviceSize.drop_back())
    if (llvm::MulOverflow(bytes, size, bytes))
      return makeError(llvm::formatv(
          "device tensor of sizes {0} is too large (its byte size overflows "
          "64 bits)",
          formatList(deviceSize)));

  SpyreTensorLayout layout;
  layout.deviceSize.assign(deviceSize.begin(), deviceSize.end());
  layout.strideMap.assign(strideMap.begin(), strideMap.end());
  layout.format = format;
  layout.arrangement = arrangement;
  return layout;
}

int64_t SpyreTensorLayout::stickBytes() const {
  return elemsPerStick() * deviceElementBits(format) / 8;
}

int64_t SpyreTensorLayout::numSticks() const {
  int64_t n = 1;
  for (int64_t size : ArrayRef<int64_t>(deviceSize).drop_back())
    n *= size;
  return n;
}

SmallVector<int64_t, 8> SpyreTensorLayout::deviceStrides() const {
  SmallVector<int64_t, 8> strides(deviceSize.size());
  int64_t stride = 1;
  for (int i = deviceRank() - 1; i >= 0; --i) {
    strides[i] = stride;
    stride *= deviceSize[i];
  }
  return strides;
}

std::string SpyreTensorLayout::str() const {
  std::string out = "SpyreTensorLayout(device_size=" + formatList(deviceSize) +
                    ", stride_map =" + formatList(strideMap) +
                    ", device_dtype=DataFormats." +
                    stringifyDataFormat(format).str();
  if (arrangement != ElementArrangement::Standard)
    out += ", element_arrangement=ElementArrangement." +
           stringifyElementArrangement(arrangement).str();
  return out + ")";
}

SmallVector<int32_t, 6>
SpyreTensorLayout::defaultDimOrder(ArrayRef<int64_t> hostSizes) {
  int n = static_cast<int>(hostSizes.size());
  SmallVector<int32_t, 6> nonUnit, unit;
  for (int i = 0; i < n; ++i)
    (hostSizes[i] == 1 ? unit : nonUnit).push_back(i);
  SmallVector<int32_t, 6> order;
  if (nonUnit.empty()) {
    for (int i = 0; i < n; ++i)
      order.push_back(i);
    return order;
  }
  int32_t stick = nonUnit.pop_back_val();
  order.append(nonUnit.begin(), nonUnit.end());
  order.append(unit.begin(), unit.end());
  order.push_back(stick);
  return order;
}

/// The reference stack's dim_map -> stride_map rule: walking the device dims
/// innermost first, a host dim's first occurrence gets its host stride, each
/// later (outer) occurrence the previous stride times the previous size.
static SmallVector<int64_t, 8>
strideMapFromDimMap(ArrayRef<int32_t> dimMap, const HostView &host,
                    ArrayRef<int64_t> deviceSize) {
  int n = static_cast<int>(dimMap.size());
  SmallVector<int64_t, 8> strideMap(n, -1);
  SmallVector<int64_t, 6> next(host.rank(), -1);
  for (int j = n - 1; j >= 0; --j) {
    int32_t d = dimMap[j];
    if (d < 0 || host.sizes[d] == 1)
      continue;
    strideMap[j] = next[d] == -1 ? host.strides[d] : next[d];
    next[d] = strideMap[j] * deviceSize[j];
  }
  return strideMap;
}

Expected<SpyreTensorLayout>
SpyreTensorLayout::getDefault(const HostView &host, DataFormat format,
                              std::optional<ArrayRef<int32_t>> dimOrder,
                              int64_t stickBytes) {
  if (llvm::Error err = verifyHostView(host))
    return std::move(err);
  int64_t eps = mlir::spyre::elemsPerStick(format, stickBytes);
  if (eps == 0)
    return makeError(llvm::formatv("a {0}-byte stick does not hold a whole "
                                   "number of {1} elements",
                                   stickBytes, stringifyDataFormat(format)));
  int n = host.rank();
  if (n == 0) {
    if (dimOrder && !dimOrder->empty())
      return makeError(llvm::formatv(
          "dim_order {0} given for a rank-0 tensor; it must be empty",
          formatList(*dimOrder)));
    return get({1, eps}, {-1, -1}, format, ElementArrangement::Standard,
               stickBytes);
  }

  SmallVector<int32_t, 6> order =
      dimOrder ? SmallVector<int32_t, 6>(dimOrder->begin(), dimOrder->end())
               : defaultDimOrder(host.sizes);
  bool sparse = !order.empty() && order.back() == -1;
  int expected = n + (sparse ? 1 : 0);
  SmallVector<bool, 6> seen(n, false);
  bool isPermutation = static_cast<int>(order.size()) == expected;
  for (int i = 0; isPermutation && i < n; ++i) {
    int32_t d = order[i];
    if (d < 0 || d >= n || seen[d])
      isPermutation = false;
    else
      seen[d] = true;
  }
  if (!isPermutation)
    return makeError(llvm::formatv(
        "dim_order {0} must be a permutation of the {1} host dims [0, {1}), "
        "optionally followed by -1 for a sparse layout",
        formatList(order), n));

  // Device dims: [o1, ..., o(N-1), o0, o(N-1)] where o(N-1) is the stick dim:
  // its first slot counts sticks, its last slot is the stick itself.
  int numSlots = static_cast<int>(order.size());
  int32_t stickDim = order.back();
  SmallVector<int32_t, 8> slotDim(order.begin() + 1, order.end());
  slotDim.push_back(order.front());
  slotDim.push_back(stickDim);

  SmallVector<int64_t, 8> deviceSize(numSlots + 1);
  for (int i = 0; i < numSlots; ++i) {
    int32_t d = slotDim[i];
    if (d == -1)
      deviceSize[i] = 1;
    else if (d == stickDim)
      deviceSize[i] = llvm::divideCeil(host.sizes[d], eps);
    else
      deviceSize[i] = host.sizes[d];
  }
  deviceSize[numSlots] = eps;
  SmallVector<int64_t, 8> strideMap =
      strideMapFromDimMap(slotDim, host, deviceSize);

  Expected<SpyreTensorLayout> layout = get(
      deviceSize, strideMap, format, ElementArrangement::Standard, stickBytes);
  if (!layout)
    return layout.takeError();
  if (Expected<BoundLayout> bound = layout->bind(host); !bound)
    return bound.takeError();
  return layout;
}

Expected<SpyreTensorLayout> SpyreTensorLayout::fromDimMap(
    const HostView &host, ArrayRef<int64_t> deviceSize,
    ArrayRef<int32_t> dimMap, DataFormat format, int64_t stickBytes) {
  if (llvm::Error err = verifyHostView(host))
    return std::move(err);
  if (dimMap.size() != deviceSize.size())
    return makeError(llvm::formatv(
        "dim_map has {0} entries but device_size has {1}; they must match",
        dimMap.size(), deviceSize.size()));
  for (auto [i, d] : llvm::enumerate(dimMap))
    if (d < -1 || d >= host.rank())
      return makeError(llvm::formatv(
          "dim_map[{0}] = {1} is not a host dim of a rank-{2} tensor or -1", i,
          d, host.rank()));
  Expected<SpyreTensorLayout> layout =
      get(deviceSize, strideMapFromDimMap(dimMap, host, deviceSize), format,
          ElementArrangement::Standard, stickBytes);
  if (!layout)
    return layout.takeError();
  if (Expected<BoundLayout> bound = layout->bind(host); !bound)
    return bound.takeError();
  return layout;
}

Expected<BoundLayout> SpyreTensorLayout::bind(const HostView &host) const {
  if (llvm::Error err = verifyHostView(host))
    return std::move(err);
  BoundLayout bound(*this, host);
  int rank = deviceRank();
  bound.roles_.resize(rank);
  bound.pieces_.resize(host.rank());

  // Resolve each device dim to the host dim it steps along.
  for (int d = 0; d < rank; ++d) {
    BoundLayout::DimRole &role = bound.roles_[d];
    int64_t size = deviceSize[d], stride = strideMap[d];
    if (size == 1) {
      role.kind = BoundLayout::DimKind::Unit;
      continue;
    }
    if (stride == -1) {
      role.kind = BoundLayout::DimKind::Synthetic;
      continue;
    }
    if (stride == 0) {
      role.kind = BoundLayout::DimKind::Broadcast;
      continue;
    }
    int found = -1;
    for (int h = 0; h < host.rank(); ++h) {
      int64_t hs = host.strides[h];
      if (host.sizes[h] == 1 || hs == 0 || stride % hs != 0 ||
          stride / hs >= host.sizes[h])
        continue;
      if (found >= 0)
        return makeError(llvm::formatv(
            "stride_map[{0}] = {1} is ambiguous: it steps along both host dim "
            "{2} and host dim {3} (host strides {4})",
            d, stride, found, h, formatList(host.strides)));
      found = h;
    }
    // A host dim of one element (a block of one head of several, laid out
    // with the whole tensor's strides) when no other dim matches: its
    // position 0 is the element, the others lie past its extent.
    for (int h = 0; found < 0 && h < host.rank(); ++h)
      if (host.sizes[h] == 1 && host.strides[h] == stride &&
          llvm::count(host.strides, stride) == 1)
        found = h;
    if (found < 0)
      return makeError(llvm::formatv(
          "stride_map[{0}] = {1} does not step along any host dim of a tensor "
          "with sizes {2} and strides {3} (an entry must be k * host_stride[h] "
          "with k < size[h])",
          d, stride, formatList(host.sizes), formatList(host.strides)));
    role.kind = BoundLayout::DimKind::Piece;
    role.hostDim = found;
    role.multiplier = stride / host.strides[found];
    bound.pieces_[found].push_back(d);
  }

  // Each host dim's pieces must form an exact mixed radix covering it.
  for (int h = 0; h < host.rank(); ++h) {
    SmallVector<int, 2> &pieces = bound.pieces_[h];
    int64_t hostSize = host.sizes[h];
    llvm::sort(pieces, [&](int a, int b) {
      return bound.roles_[a].multiplier < bound.roles_[b].multiplier;
    });
    if (hostSize == 1 || host.strides[h] == 0)
      continue;
    if (pieces.empty())
      return makeError(llvm::formatv(
          "host dim {0} (size {1}) is not mapped by any device dim: no "
          "stride_map entry steps along it",
          h, hostSize));
    int64_t expectedMultiplier = 1;
    int previous = -1;
    for (int d : pieces) {
      int64_t multiplier = bound.roles_[d].multiplier;
      if (multiplier > expectedMultiplier) {
        if (previous < 0)
          return makeError(llvm::formatv(
              "host dim {0} (size {1}) has no device dim stepping by its host "
              "stride {2}; its elements between multiples of {3} have no "
              "device slot",
              h, hostSize, host.strides[h], multiplier));
        return makeError(llvm::formatv(
            "host dim {0} (size {1}): device dim {2} covers {3} elements but "
            "the next device dim {4} steps by {5}, leaving host elements "
            "without a device slot",
            h, hostSize, previous, expectedMultiplier, d, multiplier));
      }
      if (multiplier < expectedMultiplier)
        return makeError(llvm::formatv(
            "device dims {0} and {1} both map host dim {2} (size {3}) at step "
            "{4}: two device slots would hold one host element",
            previous, d, h, hostSize, multiplier));
      expectedMultiplier = multiplier * deviceSize[d];
      previous = d;
    }
    if (expectedMultiplier < hostSize)
      return makeError(llvm::formatv(
          "layout too small: its device dims cover {0} of the {1} elements of "
          "host dim {2}",
          expectedMultiplier, hostSize, h));
  }
  return bound;
}

//===----------------------------------------------------------------------===//
// BoundLayout: coordinates
//===----------------------------------------------------------------------===//

int BoundLayout::stickHostDim() const {
  const DimRole &stick = roles_.back();
  if (stick.kind == DimKind::Piece)
    return stick.hostDim;
  return -1;
}

int64_t BoundLayout::hostOffset(ArrayRef<int64_t> deviceCoord) const {
  int64_t offset = 0;
  for (auto [x, stride] : llvm::zip_equal(deviceCoord, layout_.getStrideMap()))
    if (stride > 0)
      offset += x * stride;
  return offset;
}

std::optional<SmallVector<int64_t, 6>>
BoundLayout::hostCoord(ArrayRef<int64_t> deviceCoord) const {
  SmallVector<int64_t, 6> coord(host_.rank(), 0);
  for (auto [d, role] : llvm::enumerate(roles_)) {
    int64_t x = deviceCoord[d];
    if (role.kind == DimKind::Piece)
      coord[role.hostDim] += x * role.multiplier;
    else if (role.kind == DimKind::Synthetic && x != 0)
      return std::nullopt;
  }
  for (int h = 0; h < host_.rank(); ++h)
    if (coord[h] >= host_.sizes[h])
      return std::nullopt;
  return coord;
}

bool BoundLayout::isPadding(ArrayRef<int64_t> deviceCoord) const {
  return !hostCoord(deviceCoord).has_value();
}

SmallVector<int64_t, 8>
BoundLayout::deviceCoord(ArrayRef<int64_t> hostCoord) const {
  SmallVector<int64_t, 8> coord(roles_.size(), 0);
  for (int h = 0; h < host_.rank(); ++h) {
    int64_t remaining = hostCoord[h];
    for (int d : llvm::reverse(pieces_[h])) {
      int64_t multiplier = roles_[d].multiplier;
      coord[d] = remaining / multiplier;
      remaining -= coord[d] * multiplier;
    }
  }
  return coord;
}

int64_t BoundLayout::deviceOffset(ArrayRef<int64_t> hostCoord) const {
  SmallVector<int64_t, 8> coord = deviceCoord(hostCoord);
  SmallVector<int64_t, 8> strides = layout_.deviceStrides();
  int64_t offset = 0;
  for (auto [x, stride] : llvm::zip_equal(coord, strides))
    offset += x * stride;
  return offset;
}

//===----------------------------------------------------------------------===//
// BoundLayout: dim_map and dim_order
//===----------------------------------------------------------------------===//

Expected<SmallVector<int32_t, 8>> BoundLayout::dimMap() const {
  int rank = layout_.deviceRank();
  ArrayRef<int64_t> strideMap = layout_.getStrideMap();
  SmallVector<int32_t, 8> result(rank, -1);
  SmallVector<bool, 8> assigned(rank, false);
  for (auto [d, role] : llvm::enumerate(roles_)) {
    if (role.kind == DimKind::Broadcast)
      return makeError(llvm::formatv(
          "device dim {0} is a broadcast dim (stride 0); dim_map cannot "
          "express it",
          d));
    if (role.kind == DimKind::Piece) {
      result[d] = role.hostDim;
      assigned[d] = true;
    }
  }
  // A size-1 device dim with a positive stride that continues a host dim's
  // mixed radix (e.g. the stick-count dim of a stick dim shorter than a
  // stick) belongs to that host dim. The stick's host dim is tried first:
  // with gaps in the host strides another dim's extent can coincide with
  // the stick's (sizes [32, 4, 6], strides [32, 8, 1]: 4 x 8 = 32 x 1), and
  // the stick-count dim is the stick dim's, as in the reference layout.
  SmallVector<int, 6> candidates;
  int stickDim = stickHostDim();
  if (stickDim >= 0)
    candidates.push_back(stickDim);
  for (int h = 0; h < host_.rank(); ++h)
    if (h != stickDim)
      candidates.push_back(h);
  for (int d = 0; d < rank; ++d) {
    if (assigned[d] || roles_[d].kind != DimKind::Unit || strideMap[d] <= 0)
      continue;
    for (int h : candidates) {
      if (pieces_[h].empty())
        continue;
      int outer = pieces_[h].back();
      int64_t cover = roles_[outer].multiplier * layout_.getDeviceSize()[outer];
      if (cover * host_.strides[h] == strideMap[d]) {
        result[d] = h;
        assigned[d] = true;
        break;
      }
    }
  }
  // Size-1 host dims have no piece; they own the remaining unit dims, in
  // order. A size-1 stick dim owns both the stick and the first unit dim
  // (its stick-count dim), as in the reference stack's generic layout.
  SmallVector<int32_t, 6> unmapped;
  for (int h = 0; h < host_.rank(); ++h)
    if (pieces_[h].empty() && llvm::find(result, h) == result.end())
      unmapped.push_back(h);
  auto takeUnitDim = [&](int32_t h) {
    for (int d = 0; d < rank - 1; ++d)
      if (!assigned[d] && layout_.getDeviceSize()[d] == 1) {
        result[d] = h;
        assigned[d] = true;
        return;
      }
  };
  if (!assigned[rank - 1] && !unmapped.empty()) {
    int32_t h = unmapped.pop_back_val();
    result[rank - 1] = h;
    assigned[rank - 1] = true;
    takeUnitDim(h);
  }
  for (int32_t h : unmapped)
    takeUnitDim(h);
  return result;
}

Expected<SmallVector<int32_t, 6>> BoundLayout::dimOrder() const {
  auto notGeneric = [&](const llvm::Twine &why) {
    return makeError("layout " + layout_.str() +
                     " is not a generic stick layout: " + why);
  };
  Expected<SmallVector<int32_t, 8>> dimMapOr = dimMap();
  if (!dimMapOr)
    return notGeneric(llvm::toString(dimMapOr.takeError()));
  ArrayRef<int32_t> dm = *dimMapOr;
  int n = host_.rank();
  int rank = layout_.deviceRank();
  SmallVector<int32_t, 6> order;
  if (n > 0) {
    // [o1, ..., o(N-1), o0, stick]: the tile-row dim sits just before the
    // stick and the stick-count slot just before it.
    bool sparse = dm.back() == -1;
    if (rank != n + 1 + (sparse ? 1 : 0))
      return notGeneric(llvm::formatv("device rank {0} is not host rank {1} "
                                      "plus one{2}",
                                      rank, n, sparse ? " plus one" : ""));
    if (rank == 2) {
      order.push_back(dm[1]);
    } else {
      order.push_back(dm[rank - 2]);
      for (int i = 0; i < rank - 3; ++i)
        order.push_back(dm[i]);
      order.push_back(dm[rank - 1]);
    }
  }
  Expected<SpyreTensorLayout> rebuilt = SpyreTensorLayout::getDefault(
      host_, layout_.getFormat(), ArrayRef<int32_t>(order),
      layout_.stickBytes());
  if (!rebuilt)
    return notGeneric(llvm::toString(rebuilt.takeError()));
  if (rebuilt->withArrangement(layout_.getArrangement()) != layout_)
    return notGeneric("no dim_order rebuilds it");
  return order;
}

//===----------------------------------------------------------------------===//
// BoundLayout: DMA nests
//===----------------------------------------------------------------------===//

namespace {
/// A box of device coordinates: per device dim, [lo, hi).
struct Range {
  int dim;
  int64_t lo, hi;
};
using Box = SmallVector<Range, 4>;

/// The device dims that together hold one host dim (or one synthetic or
/// broadcast dim) - the unit over which the valid region factorises.
struct Group {
  SmallVector<int, 2> dims; // pieces innermost first
  int64_t hostSize = 1;     // only for piece groups
  BoundLayout::DimKind kind;
};
} // namespace

/// Boxes covering the coordinates of a piece group whose host coordinate is
/// below `bound` (`valid`), or at least `bound` (`!valid`), for the pieces
/// `level` and inwards.
static void decomposePieces(const Group &group, ArrayRef<int64_t> deviceSize,
                            ArrayRef<BoundLayout::DimRole> roles, int level,
                            int64_t bound, bool valid, Box prefix,
                            llvm::SmallVectorImpl<Box> &out) {
  int d = group.dims[level];
  int64_t multiplier = roles[d].multiplier;
  int64_t full = bound / multiplier, rest = bound % multiplier;
  auto innerFull = [&](Box box) {
    for (int i = level - 1; i >= 0; --i)
      box.push_back({group.dims[i], 0, deviceSize[group.dims[i]]});
    return box;
  };
  if (valid) {
    if (full > 0) {
      Box box = prefix;
      box.push_back({d, 0, std::min(full, deviceSize[d])});
      out.push_back(innerFull(box));
    }
  } else {
    int64_t lo = full + (rest > 0 ? 1 : 0);
    if (lo < deviceSize[d]) {
      Box box = prefix;
      box.push_back({d, lo, deviceSize[d]});
      out.push_back(innerFull(box));
    }
  }
  if (rest > 0 && level > 0) {
    prefix.push_back({d, full, full + 1});
    decomposePieces(group, deviceSize, roles, level - 1, rest, valid, prefix,
                    out);
  }
}

static SmallVector<Group, 8> groupsOf(const BoundLayout &bound) {
  SmallVector<Group, 8> groups;
  for (int h = 0; h < bound.host().rank(); ++h) {
    if (bound.piecesOf(h).empty())
      continue;
    Group group;
    group.dims.assign(bound.piecesOf(h).begin(), bound.piecesOf(h).end());
    group.hostSize = bound.host().sizes[h];
    group.kind = BoundLayout::DimKind::Piece;
    groups.push_back(group);
  }
  for (auto [d, role] : llvm::enumerate(bound.roles())) {
    if (role.kind == BoundLayout::DimKind::Synthetic ||
        role.kind == BoundLayout::DimKind::Broadcast) {
      Group group;
      group.dims.push_back(static_cast<int>(d));
      group.kind = role.kind;
      groups.push_back(group);
    }
  }
  return groups;
}

enum class BoxSet { Valid, Padding, Full };

static SmallVector<Box, 2> boxesOf(const Group &group,
                                   ArrayRef<int64_t> deviceSize,
                                   ArrayRef<BoundLayout::DimRole> roles,
                                   BoxSet set, DmaDirection direction) {
  SmallVector<Box, 2> boxes;
  int d = group.dims.front();
  if (set == BoxSet::Full) {
    Box box;
    for (int dim : llvm::reverse(group.dims))
      box.push_back({dim, 0, deviceSize[dim]});
    boxes.push_back(box);
    return boxes;
  }
  bool valid = set == BoxSet::Valid;
  switch (group.kind) {
  case BoundLayout::DimKind::Piece:
    decomposePieces(group, deviceSize, roles,
                    static_cast<int>(group.dims.size()) - 1, group.hostSize,
                    valid, {}, boxes);
    break;
  case BoundLayout::DimKind::Synthetic:
    if (valid)
      boxes.push_back({{d, 0, 1}});
    else if (deviceSize[d] > 1)
      boxes.push_back({{d, 1, deviceSize[d]}});
    break;
  case BoundLayout::DimKind::Broadcast:
    if (valid)
      boxes.push_back(
          {{d, 0,
            direction == DmaDirection::HostToDevice ? deviceSize[d] : 1}});
    break;
  case BoundLayout::DimKind::Unit:
    break;
  }
  return boxes;
}

/// One nest from one box per group: loops in device dim order.
static DmaNest nestFromBoxes(const BoundLayout &bound, ArrayRef<Box> boxes,
                             bool withHostStrides, DmaForm form) {
  const SpyreTensorLayout &layout = bound.layout();
  SmallVector<int64_t, 8> deviceStrides = layout.deviceStrides();
  int rank = layout.deviceRank();
  SmallVector<std::optional<Range>, 8> byDim(rank);
  for (const Box &box : boxes)
    for (const Range &range : box)
      byDim[range.dim] = range;
  bool deviceRank = form == DmaForm::DeviceRank;
  DmaNest nest;
  for (int d = 0; d < rank; ++d) {
    if (!byDim[d] && !deviceRank)
      continue;
    Range range = byDim[d].value_or(Range{d, 0, 1});
    const BoundLayout::DimRole &role = bound.roles()[d];
    int64_t hostStride =
        withHostStrides && role.kind == BoundLayout::DimKind::Piece
            ? layout.getStrideMap()[d]
            : 0;
    nest.deviceOffset += range.lo * deviceStrides[d];
    nest.hostOffset += range.lo * hostStride;
    if (deviceRank) {
      // The runtime's form: a synthetic (or size-1) dim steps the host by 1
      // over its single iteration.
      int64_t stride = layout.getStrideMap()[d];
      if (withHostStrides && role.kind != BoundLayout::DimKind::Piece)
        hostStride = stride < 0 ? 1 : stride;
      nest.loops.push_back({range.hi - range.lo, deviceStrides[d], hostStride});
      continue;
    }
    // Synthetic and broadcast-read dims pinned to coordinate 0 carry no loop.
    if (role.kind != BoundLayout::DimKind::Piece && range.hi - range.lo == 1)
      continue;
    nest.loops.push_back({range.hi - range.lo, deviceStrides[d], hostStride});
  }
  if (!deviceRank)
    nest.coalesce();
  return nest;
}

/// Appends the nest of every combination of one box per group.
static void crossProduct(const BoundLayout &bound,
                         ArrayRef<SmallVector<Box, 2>> perGroup,
                         bool withHostStrides, DmaPlan &plan,
                         DmaForm form = DmaForm::Compact) {
  for (const SmallVector<Box, 2> &boxes : perGroup)
    if (boxes.empty())
      return;
  SmallVector<size_t, 8> index(perGroup.size(), 0);
  while (true) {
    SmallVector<Box, 8> chosen;
    for (auto [g, boxes] : llvm::enumerate(perGroup))
      chosen.push_back(boxes[index[g]]);
    plan.nests.push_back(nestFromBoxes(bound, chosen, withHostStrides, form));
    int g = static_cast<int>(perGroup.size()) - 1;
    for (; g >= 0; --g) {
      if (++index[g] < perGroup[g].size())
        break;
      index[g] = 0;
    }
    if (g < 0)
      return;
  }
}

int64_t BoundLayout::usedBytes() const {
  int64_t last = -1;
  for (const DmaNest &nest : dmaPlan().nests) {
    int64_t end = nest.deviceOffset;
    for (const DmaLoop &loop : nest.loops)
      if (loop.range > 0 && loop.deviceStride > 0)
        end += (loop.range - 1) * loop.deviceStride;
    last = std::max(last, end);
  }
  return (last / layout_.elemsPerStick() + 1) * layout_.stickBytes();
}

DmaPlan BoundLayout::dmaPlan(DmaDirection direction, DmaForm form) const {
  SmallVector<Group, 8> groups = groupsOf(*this);
  SmallVector<SmallVector<Box, 2>, 8> perGroup;
  // The runtime writes broadcast dims in full in both directions.
  DmaDirection boxDirection =
      form == DmaForm::DeviceRank ? DmaDirection::HostToDevice : direction;
  for (const Group &group : groups)
    perGroup.push_back(boxesOf(group, layout_.getDeviceSize(), roles_,
                               BoxSet::Valid, boxDirection));
  DmaPlan plan;
  crossProduct(*this, perGroup, /*withHostStrides=*/true, plan, form);
  return plan;
}

DmaPlan BoundLayout::paddingPlan() const {
  // The complement of a product A1 x ... x Am is the disjoint union over i of
  // A1 x ... x A(i-1) x (not Ai) x (everything)(i+1..m).
  SmallVector<Group, 8> groups = groupsOf(*this);
  DmaPlan plan;
  for (size_t i = 0; i < groups.size(); ++i) {
    SmallVector<SmallVector<Box, 2>, 8> perGroup;
    for (size_t g = 0; g < groups.size(); ++g) {
      BoxSet set = g < i    ? BoxSet::Valid
                   : g == i ? BoxSet::Padding
                            : BoxSet::Full;
      perGroup.push_back(boxesOf(groups[g], layout_.getDeviceSize(), roles_,
                                 set, DmaDirection::HostToDevice));
    }
    crossProduct(*this, perGroup, /*withHostStrides=*/false, plan);
  }
  return plan;
}

//===----------------------------------------------------------------------===//
// DMA nests
//===----------------------------------------------------------------------===//

int64_t DmaNest::numElements() const {
  int64_t n = 1;
  for (const DmaLoop &loop : loops)
    n *= loop.range;
  return n;
}

void DmaNest::coalesce() {
  for (int i = static_cast<int>(loops.size()) - 1; i > 0; --i) {
    DmaLoop &outer = loops[i - 1];
    const DmaLoop &inner = loops[i];
    if (outer.deviceStride == inner.deviceStride * inner.range &&
        outer.hostStride == inner.hostStride * inner.range) {
      outer = {outer.range * inner.range, inner.deviceStride, inner.hostStride};
      loops.erase(loops.begin() + i);
    }
  }
}

std::string DmaNest::str() const {
  SmallVector<int64_t, 8> ranges, deviceStrides, hostStrides;
  for (const DmaLoop &loop : loops) {
    ranges.push_back(loop.range);
    deviceStrides.push_back(loop.deviceStride);
    hostStrides.push_back(loop.hostStride);
  }
  auto tuple = [](ArrayRef<int64_t> values) {
    std::string s = formatList(values);
    s.front() = '(';
    s.back() = ')';
    return s;
  };
  return "(" + tuple(ranges) + ", " + tuple(deviceStrides) + ", " +
         tuple(hostStrides) + ")";
}

int64_t DmaPlan::numElements() const {
  int64_t n = 0;
  for (const DmaNest &nest : nests)
    n += nest.numElements();
  return n;
}

//===----------------------------------------------------------------------===//
// Views
//===----------------------------------------------------------------------===//

Expected<SpyreTensorLayout>
mlir::spyre::transposeView(const BoundLayout &source,
                           ArrayRef<int64_t> permutation) {
  const HostView &host = source.host();
  int n = host.rank();
  SmallVector<int64_t, 6> inverse(n, -1);
  bool valid = static_cast<int>(permutation.size()) == n;
  for (int i = 0; valid && i < n; ++i) {
    int64_t d = permutation[i];
    if (d < 0 || d >= n || inverse[d] >= 0)
      valid = false;
    else
      inverse[d] = i;
  }
  if (!valid)
    return makeError(llvm::formatv(
        "permutation {0} is not a permutation of the {1} host dims",
        formatList(permutation), n));
  SmallVector<int64_t, 6> sizes(n);
  for (int i = 0; i < n; ++i)
    sizes[i] = host.sizes[permutation[i]];
  SmallVector<int64_t, 6> strides = rowMajorStrides(sizes);

  // Size-1 dims with a positive stride continue some host dim's mixed radix;
  // dim_map knows which.
  Expected<SmallVector<int32_t, 8>> dimMap = source.dimMap();
  SmallVector<int32_t, 8> owner;
  if (dimMap)
    owner = *dimMap;
  else
    llvm::consumeError(dimMap.takeError());

  const SpyreTensorLayout &layout = source.layout();
  SmallVector<int64_t, 8> strideMap(layout.getStrideMap().begin(),
                                    layout.getStrideMap().end());
  for (int d = 0; d < layout.deviceRank(); ++d) {
    const BoundLayout::DimRole &role = source.roles()[d];
    int64_t stride = strideMap[d];
    if (role.kind == BoundLayout::DimKind::Piece) {
      strideMap[d] = role.multiplier * strides[inverse[role.hostDim]];
    } else if (role.kind == BoundLayout::DimKind::Unit && stride > 0) {
      int h = owner.empty() ? -1 : owner[d];
      strideMap[d] =
          h >= 0 && host.strides[h] > 0 && stride % host.strides[h] == 0
              ? stride / host.strides[h] * strides[inverse[h]]
              : -1;
    }
  }
  Expected<SpyreTensorLayout> view = SpyreTensorLayout::get(
      layout.getDeviceSize(), strideMap, layout.getFormat(),
      layout.getArrangement(), layout.stickBytes());
  if (!view)
    return view.takeError();
  if (Expected<BoundLayout> bound = view->bind(HostView(sizes, strides));
      !bound)
    return bound.takeError();
  return view;
}

bool mlir::spyre::survivesReshape(const SpyreTensorLayout &layout,
                                  ArrayRef<int64_t> sizes) {
  Expected<BoundLayout> bound = layout.bind(HostView::contiguous(sizes));
  if (!bound) {
    llvm::consumeError(bound.takeError());
    return false;
  }
  return true;
}

/// The view of `source` at `target`: every device dim split at the new host
/// dims' boundaries, adjacent pieces of one new host dim merged.
static Expected<SpyreTensorLayout> viewByPieces(const BoundLayout &source,
                                                const HostView &target) {
  const HostView &host = source.host();
  const SpyreTensorLayout &layout = source.layout();
  ArrayRef<int64_t> sizes = target.sizes;
  // A host dim is padded when its outermost piece reaches past its size; its
  // padding only stays padding if the new shape keeps the dim whole.
  auto isPadded = [&](int h) {
    ArrayRef<int> pieces = source.piecesOf(h);
    if (pieces.empty())
      return false;
    int outer = pieces.back();
    return source.roles()[outer].multiplier * layout.getDeviceSize()[outer] >
           host.sizes[h];
  };
  // The new host dim a positive stride steps along.
  auto stepsAlong = [&](int64_t stride) -> int {
    for (int h = 0; h < target.rank(); ++h)
      if (target.sizes[h] > 1 && stride % target.strides[h] == 0 &&
          stride / target.strides[h] < target.sizes[h])
        return h;
    return -1;
  };

  struct Dim {
    int64_t size, stride;
    int hostDim; // new host dim of a piece, else -1
  };
  SmallVector<Dim, 8> dims;
  int rank = layout.deviceRank();
  for (int d = 0; d < rank; ++d) {
    const BoundLayout::DimRole &role = source.roles()[d];
    int64_t size = layout.getDeviceSize()[d];
    int64_t stride = layout.getStrideMap()[d];
    if (role.kind != BoundLayout::DimKind::Piece) {
      // Size-1, synthetic and broadcast dims hold no host step. A size-1
      // dim's stride only names the dim it continues, which may be gone.
      bool gone = size == 1 && stride > 0 && stepsAlong(stride) < 0;
      dims.push_back({size, gone ? -1 : stride, -1});
      continue;
    }
    int h = role.hostDim;
    if (isPadded(h)) {
      int nh = stepsAlong(host.strides[h]);
      if (nh < 0 || target.strides[nh] != host.strides[h] ||
          target.sizes[nh] != host.sizes[h])
        return makeError(llvm::formatv(
            "host dim {0} (size {1}) is padded on the device; the reshape "
            "to {2} does not keep it whole",
            h, host.sizes[h], formatList(sizes)));
      dims.push_back({size, stride, nh});
      continue;
    }
    // Split the dim at the new boundaries, inner pieces first.
    SmallVector<Dim, 4> split;
    while (true) {
      int nh = stepsAlong(stride);
      if (nh < 0)
        return makeError(llvm::formatv(
            "device dim {0} (stride {1}) does not step along any dim of {2}", d,
            stride, formatList(sizes)));
      int64_t multiplier = stride / target.strides[nh];
      int64_t extent = target.sizes[nh];
      if (multiplier * size <= extent) {
        split.push_back({size, stride, nh});
        break;
      }
      if (extent % multiplier != 0 || size % (extent / multiplier) != 0)
        return makeError(llvm::formatv(
            "device dim {0} ({1} steps of {2}) does not divide at the "
            "boundaries of {3}",
            d, size, stride, formatList(sizes)));
      int64_t inner = extent / multiplier;
      split.push_back({inner, stride, nh});
      size /= inner;
      stride = extent * target.strides[nh];
    }
    if (d == rank - 1 && split.size() > 1)
      return makeError(llvm::formatv(
          "the stick ({0} elements of host dim {1}) would straddle dims of {2}",
          layout.elemsPerStick(), h, formatList(sizes)));
    dims.append(split.rbegin(), split.rend());
  }

  // Merge adjacent pieces of one new host dim (never into the stick).
  SmallVector<Dim, 8> merged;
  for (auto [i, dim] : llvm::enumerate(dims)) {
    bool last = i + 1 == dims.size();
    if (!last && !merged.empty()) {
      Dim &outer = merged.back();
      if (outer.hostDim >= 0 && outer.hostDim == dim.hostDim &&
          outer.stride == dim.size * dim.stride) {
        outer = {outer.size * dim.size, dim.stride, dim.hostDim};
        continue;
      }
    }
    merged.push_back(dim);
  }
  if (static_cast<int>(merged.size()) > kMaxDeviceRank)
    return makeError(
        llvm::formatv("the view of {0} needs {1} device dims (at most {2})",
                      formatList(sizes), merged.size(), kMaxDeviceRank));
  SmallVector<int64_t, 8> deviceSize, strideMap;
  for (const Dim &dim : merged) {
    deviceSize.push_back(dim.size);
    strideMap.push_back(dim.stride);
  }
  Expected<SpyreTensorLayout> view =
      SpyreTensorLayout::get(deviceSize, strideMap, layout.getFormat(),
                             layout.getArrangement(), layout.stickBytes());
  if (!view)
    return view.takeError();
  if (Expected<BoundLayout> bound = view->bind(target); !bound)
    return bound.takeError();
  return view;
}

Expected<SpyreTensorLayout> mlir::spyre::reshapeView(const BoundLayout &source,
                                                     ArrayRef<int64_t> sizes) {
  const HostView &host = source.host();
  const SpyreTensorLayout &layout = source.layout();
  if (host.strides != rowMajorStrides(host.sizes))
    return makeError("only a row-major tensor can be reshaped as a view");
  HostView target = HostView::contiguous(sizes);
  if (target.numElements() != host.numElements())
    return makeError(llvm::formatv("cannot reshape {0} elements into {1}",
                                   host.numElements(), formatList(sizes)));
  Expected<BoundLayout> bound = layout.bind(target);
  if (!bound) {
    llvm::consumeError(bound.takeError());
    return viewByPieces(source, target);
  }
  // The layout binds to the new shape unchanged: it is the view, unless two
  // of its device dims, one right outside the other, step along one new host
  // dim (a [2, 12, ...] batch read as [24, ...]). Those merge into one device
  // dim, which a block of the new dim can cut.
  for (int h = 0; h < target.rank(); ++h) {
    ArrayRef<int> pieces = bound->piecesOf(h);
    for (auto [inner, outer] : llvm::zip(pieces, pieces.drop_front())) {
      if (outer + 1 != inner)
        continue;
      Expected<SpyreTensorLayout> merged = viewByPieces(source, target);
      if (merged && merged->deviceRank() < layout.deviceRank())
        return merged;
      if (!merged)
        llvm::consumeError(merged.takeError());
      return layout;
    }
  }
  return layout;
}

/// (size, stride) pairs without size-1 dims, contiguous neighbours merged.
static SmallVector<std::pair<int64_t, int64_t>, 8>
normalizedDims(const SpyreTensorLayout &layout) {
  SmallVector<std::pair<int64_t, int64_t>, 8> dims;
  for (auto [size, stride] :
       llvm::zip_equal(layout.getDeviceSize(), layout.getStrideMap())) {
    if (size == 1)
      continue;
    if (!dims.empty() && stride > 0 && dims.back().second == size * stride) {
      dims.back() = {dims.back().first * size, stride};
      continue;
    }
    dims.push_back({size, stride});
  }
  return dims;
}

bool mlir::spyre::sameDeviceBytes(const SpyreTensorLayout &a,
                                  const SpyreTensorLayout &b) {
  if (a == b)
    return true;
  return a.getFormat() == b.getFormat() &&
         a.getArrangement() == b.getArrangement() &&
         a.stickBytes() == b.stickBytes() &&
         a.elemsPerStick() == b.elemsPerStick() &&
         normalizedDims(a) == normalizedDims(b);
}

//===----------------------------------------------------------------------===//
// Restickify
//===----------------------------------------------------------------------===//

Expected<SpyreTensorLayout>
mlir::spyre::restickifyTarget(const BoundLayout &source, int newStickDim) {
  int n = source.host().rank();
  if (newStickDim < 0 || newStickDim >= n)
    return makeError(llvm::formatv(
        "cannot restickify to host dim {0}: the tensor has rank {1}",
        newStickDim, n));
  if (source.isSparse())
    return makeError("cannot restickify a sparse layout (its stick holds one "
                     "value); relayout it through a dense layout first");
  Expected<SmallVector<int32_t, 6>> order = source.dimOrder();
  if (!order)
    return makeError("cannot restickify: " + llvm::toString(order.takeError()));
  int32_t oldStick = order->back();
  if (oldStick == newStickDim)
    return source.layout();
  std::swap(*llvm::find(*order, newStickDim), order->back());
  return SpyreTensorLayout::getDefault(
      source.host(), source.layout().getFormat(), ArrayRef<int32_t>(*order),
      source.layout().stickBytes());
}

int64_t mlir::spyre::restickifyCost(const SpyreTensorLayout &source) {
  return source.numDeviceElements();
}
