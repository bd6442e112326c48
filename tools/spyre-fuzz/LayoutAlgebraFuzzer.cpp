//===- LayoutAlgebraFuzzer.cpp - Random layouts keep every invariant ------===//
//
// libFuzzer target over lib/Layout (no MLIR). Each input decodes to one of:
//  0. the reference constructor: a host view (rank 0..5, sizes around the
//     stick size, dims laid out in a random memory order with gaps), a host
//     type and a dim_order (none, a permutation, a permutation plus the
//     sparse -1, or arbitrary integers);
//  1. the direct form: arbitrary device_size, stride_map and format, bound
//     to an arbitrary contiguous host view;
//  2. a legacy dim_map over a random host view.
// Whatever the algebra accepts must keep the invariants of
// LayoutInvariants.h; accepted reference layouts must also round-trip
// through dimOrder() and dimMap(), and their restickify targets must be
// valid layouts of the same tensor. Rejections are fine; crashes, hangs and
// accepted-but-wrong layouts are findings.
//
//===----------------------------------------------------------------------===//

#include "FuzzInput.h"
#include "LayoutInvariants.h"

#include "llvm/Support/Error.h"

using namespace mlir::spyre;
using namespace mlir::spyre::fuzz;

namespace {

constexpr int kHostTypes = 10;
constexpr int kFormats = 7;

int64_t pickSize(FuzzInput &in, int64_t eps) {
  switch (in.below(6)) {
  case 0:
    return 1;
  case 1:
    return eps;
  case 2:
    return eps + in.range(-2, 2);
  case 3:
    return 2 * eps + in.range(0, 3);
  default:
    return in.range(1, 9);
  }
}

/// Sizes with a product of at most 2^15, in a random memory order with
/// random gaps (never overlapping).
HostView pickHost(FuzzInput &in, int rank, int64_t eps) {
  llvm::SmallVector<int64_t, 6> sizes;
  int64_t total = 1;
  for (int i = 0; i < rank; ++i) {
    int64_t s = pickSize(in, eps);
    if (s < 1 || total * s > (1 << 15))
      s = 1;
    sizes.push_back(s);
    total *= s;
  }
  llvm::SmallVector<int64_t, 6> strides(rank, 0);
  llvm::SmallVector<int32_t, 8> order = in.permutation(rank); // inner first
  int64_t next = 1;
  for (int32_t d : order) {
    strides[d] = next;
    next *= sizes[d];
    if (in.below(4) == 0)
      next += in.range(1, 3); // a gap
  }
  return HostView(sizes, strides);
}

void consume(llvm::Error err) { llvm::consumeError(std::move(err)); }

/// A constructor that starts from a host view must build a layout that
/// binds to it.
BoundLayout bindToOwnHost(const SpyreTensorLayout &layout, const HostView &host,
                          const char *constructor) {
  llvm::Expected<BoundLayout> bound = layout.bind(host);
  if (bound)
    return std::move(*bound);
  llvm::errs() << constructor << " built " << layout.str()
               << " which does not bind to its own host view: "
               << llvm::toString(bound.takeError()) << "\n";
  std::abort();
}

void checkReferenceRoundTrips(const BoundLayout &bound, HostType type,
                              FuzzInput &in) {
  const SpyreTensorLayout &layout = bound.layout();
  if (auto order = bound.dimOrder()) {
    auto again = SpyreTensorLayout::getDefault(bound.host(), layout.getFormat(),
                                               llvm::ArrayRef<int32_t>(*order));
    if (!again)
      violated(bound, "getDefault rejects its own dimOrder " +
                          formatList(*order) + ": " +
                          llvm::toString(again.takeError()));
    if (*again != layout)
      violated(bound, "getDefault(dimOrder()) is " + again->str());
  } else {
    consume(order.takeError());
  }
  if (auto dimMap = bound.dimMap()) {
    auto again = SpyreTensorLayout::fromDimMap(
        bound.host(), layout.getDeviceSize(), *dimMap, layout.getFormat());
    if (!again)
      violated(bound, "fromDimMap rejects its own dimMap " +
                          formatList(*dimMap) + ": " +
                          llvm::toString(again.takeError()));
    if (*again != layout)
      violated(bound, "fromDimMap(dimMap()) is " + again->str());
  } else {
    consume(dimMap.takeError());
  }
  if (bound.host().rank() == 0)
    return;
  int newStick = static_cast<int>(in.below(bound.host().rank()));
  auto target = restickifyTarget(bound, newStick);
  if (!target) {
    consume(target.takeError());
    return;
  }
  auto rebound = target->bind(bound.host());
  if (!rebound)
    violated(bound, "restickifyTarget(" + llvm::Twine(newStick) +
                        ") = " + target->str() + " does not bind: " +
                        llvm::toString(rebound.takeError()));
  checkInvariants(*rebound, type);
}

void referenceCase(FuzzInput &in) {
  auto type = static_cast<HostType>(in.below(kHostTypes));
  int64_t eps = elemsPerStick(deviceFormatFor(type));
  int rank = static_cast<int>(in.below(6));
  HostView host = pickHost(in, rank, eps);
  std::optional<llvm::SmallVector<int32_t, 8>> dimOrder;
  switch (in.below(4)) {
  case 0:
    break;
  case 1:
    dimOrder = in.permutation(rank);
    break;
  case 2:
    dimOrder = in.permutation(rank);
    dimOrder->push_back(-1);
    break;
  default: {
    dimOrder.emplace();
    int n = static_cast<int>(in.below(rank + 3));
    for (int i = 0; i < n; ++i)
      dimOrder->push_back(static_cast<int32_t>(in.range(-2, rank + 1)));
  }
  }
  auto layout = dimOrder ? SpyreTensorLayout::getDefault(
                               host, type, llvm::ArrayRef<int32_t>(*dimOrder))
                         : SpyreTensorLayout::getDefault(host, type);
  if (!layout)
    return consume(layout.takeError());
  BoundLayout bound = bindToOwnHost(*layout, host, "getDefault");
  checkInvariants(bound, type);
  checkReferenceRoundTrips(bound, type, in);
}

void directCase(FuzzInput &in) {
  auto format = static_cast<DataFormat>(in.below(kFormats));
  int64_t eps = elemsPerStick(format);
  int deviceRank = static_cast<int>(in.range(1, 6));
  llvm::SmallVector<int64_t, 8> deviceSize, strideMap;
  for (int d = 0; d < deviceRank; ++d) {
    deviceSize.push_back(d + 1 == deviceRank && in.below(8) ? eps
                                                            : in.range(1, 5));
    switch (in.below(5)) {
    case 0:
      strideMap.push_back(-1);
      break;
    case 1:
      strideMap.push_back(in.range(-3, 1));
      break;
    case 2:
      strideMap.push_back(eps * in.range(1, 4));
      break;
    default:
      strideMap.push_back(in.range(1, 40));
    }
  }
  auto layout = SpyreTensorLayout::get(deviceSize, strideMap, format);
  if (!layout)
    return consume(layout.takeError());
  int rank = static_cast<int>(in.below(4));
  llvm::SmallVector<int64_t, 6> sizes;
  for (int h = 0; h < rank; ++h)
    sizes.push_back(in.flag() ? in.range(1, 8) : eps * in.range(1, 2));
  HostView host = HostView::contiguous(sizes);
  auto bound = layout->bind(host);
  if (!bound)
    return consume(bound.takeError());
  checkInvariants(*bound, naturalHostType(format));
}

void dimMapCase(FuzzInput &in) {
  auto type = static_cast<HostType>(in.below(kHostTypes));
  int64_t eps = elemsPerStick(deviceFormatFor(type));
  int rank = static_cast<int>(in.range(1, 4));
  HostView host = pickHost(in, rank, eps);
  int deviceRank = static_cast<int>(in.range(1, 6));
  llvm::SmallVector<int64_t, 8> deviceSize;
  llvm::SmallVector<int32_t, 8> dimMap;
  for (int d = 0; d < deviceRank; ++d) {
    dimMap.push_back(static_cast<int32_t>(in.range(-1, rank - 1)));
    int32_t h = dimMap.back();
    int64_t hs = h >= 0 ? host.sizes[h] : 1;
    switch (in.below(3)) {
    case 0:
      deviceSize.push_back(hs);
      break;
    case 1:
      deviceSize.push_back((hs + eps - 1) / eps);
      break;
    default:
      deviceSize.push_back(in.range(1, 4));
    }
  }
  deviceSize.back() = eps;
  auto layout = SpyreTensorLayout::fromDimMap(host, deviceSize, dimMap,
                                              deviceFormatFor(type));
  if (!layout)
    return consume(layout.takeError());
  BoundLayout bound = bindToOwnHost(*layout, host, "fromDimMap");
  checkInvariants(bound, type);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  FuzzInput in(data, size);
  switch (in.below(3)) {
  case 0:
    referenceCase(in);
    break;
  case 1:
    directCase(in);
    break;
  default:
    dimMapCase(in);
  }
  return 0;
}
