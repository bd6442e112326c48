//===- LayoutInvariants.h - What every accepted layout must satisfy -*- C++
//-*-===//
//
// The fuzz targets accept any layout the algebra (or the dialect's verifier)
// accepts and then check it independently of how it was built:
//  - every device position is padding exactly when it has no host
//    coordinate, and hostOffset agrees with dot(hostCoord, host strides);
//  - every host element is stored at least once, and exactly once unless the
//    layout declares broadcast (stride 0) dims; deviceCoord inverts
//    hostCoord;
//  - the DMA nests move exactly the non-padding elements and the padding
//    nests cover exactly the padding;
//  - stickify then unstickify gives the host tensor back, and every padding
//    element holds the pad value.
// A violation prints the case and aborts (what libFuzzer reports as a crash).
//
//===----------------------------------------------------------------------===//

#ifndef SPYRE_FUZZ_LAYOUTINVARIANTS_H
#define SPYRE_FUZZ_LAYOUTINVARIANTS_H

#include "Spyre/Layout/Layout.h"
#include "Spyre/Layout/Stickify.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <cstring>
#include <vector>

namespace mlir::spyre::fuzz {

/// Larger cases are only constructed, not enumerated (keeps each input fast).
constexpr int64_t kMaxCheckedElements = 1 << 16;

[[noreturn]] inline void violated(const BoundLayout &bound,
                                  const llvm::Twine &what) {
  llvm::errs() << "layout invariant violated: " << what << "\n  layout "
               << bound.layout().str() << "\n  host sizes "
               << formatList(bound.host().sizes) << " strides "
               << formatList(bound.host().strides) << "\n";
  llvm::errs().flush();
  std::abort();
}

/// Host bytes of the small integer `v` (0..7) in `type`.
inline void encodeHost(HostType type, int v, uint8_t *out) {
  auto fromDouble = [&](const llvm::fltSemantics &sem) {
    llvm::APFloat f(static_cast<double>(v));
    bool lost = false;
    f.convert(sem, llvm::APFloat::rmNearestTiesToEven, &lost);
    return f.bitcastToAPInt().getZExtValue();
  };
  uint64_t bits = 0;
  unsigned bytes = hostElementBytes(type);
  switch (type) {
  case HostType::Float16:
    bits = fromDouble(llvm::APFloat::IEEEhalf());
    break;
  case HostType::BFloat16:
    bits = fromDouble(llvm::APFloat::BFloat());
    break;
  case HostType::Float32:
    bits = fromDouble(llvm::APFloat::IEEEsingle());
    break;
  case HostType::Float8E4M3FN:
    bits = fromDouble(llvm::APFloat::Float8E4M3FN());
    break;
  case HostType::Float8E5M2:
    bits = fromDouble(llvm::APFloat::Float8E5M2());
    break;
  case HostType::Bool:
    bits = v & 1;
    break;
  default: // integers, little-endian two's complement
    bits = static_cast<uint64_t>(v);
    break;
  }
  std::memcpy(out, &bits, bytes);
}

inline uint32_t deviceBitsAt(const BoundLayout &bound,
                             const std::vector<uint8_t> &device,
                             int64_t element) {
  unsigned bits = deviceElementBits(bound.layout().getFormat());
  uint32_t value = 0;
  std::memcpy(&value, device.data() + element * (bits / 8), bits / 8);
  return value;
}

inline void checkInvariants(const BoundLayout &bound, HostType hostType) {
  const SpyreTensorLayout &layout = bound.layout();
  const HostView &host = bound.host();
  int64_t deviceElements = layout.numDeviceElements();
  int64_t hostElements = host.numElements();
  int64_t span = host.spanElements();
  if (deviceElements > kMaxCheckedElements || span > kMaxCheckedElements)
    return;
  bool broadcast = false;
  for (const BoundLayout::DimRole &role : bound.roles())
    broadcast |= role.kind == BoundLayout::DimKind::Broadcast;

  // Device -> host.
  llvm::ArrayRef<int64_t> size = layout.getDeviceSize();
  int rank = layout.deviceRank();
  llvm::SmallVector<int64_t, 8> coord(rank, 0);
  std::vector<int32_t> stored(span, 0);
  int64_t real = 0;
  for (int64_t e = 0; e < deviceElements; ++e) {
    std::optional<llvm::SmallVector<int64_t, 6>> hc = bound.hostCoord(coord);
    bool padding = bound.isPadding(coord);
    if (padding == hc.has_value())
      violated(bound, "device " + formatList(coord) +
                          ": isPadding disagrees with hostCoord");
    if (hc) {
      ++real;
      int64_t offset = 0;
      for (int h = 0; h < host.rank(); ++h) {
        if ((*hc)[h] < 0 || (*hc)[h] >= host.sizes[h])
          violated(bound,
                   "device " + formatList(coord) +
                       " maps outside the host tensor: " + formatList(*hc));
        offset += (*hc)[h] * host.strides[h];
      }
      if (bound.hostOffset(coord) != offset)
        violated(bound, "device " + formatList(coord) + ": hostOffset " +
                            llvm::Twine(bound.hostOffset(coord)) +
                            " but the host coordinate is at " +
                            llvm::Twine(offset));
      ++stored[offset];
      llvm::SmallVector<int64_t, 8> back = bound.deviceCoord(*hc);
      std::optional<llvm::SmallVector<int64_t, 6>> again =
          bound.hostCoord(back);
      if (!again || *again != *hc ||
          (!broadcast &&
           llvm::ArrayRef<int64_t>(back) != llvm::ArrayRef<int64_t>(coord)))
        violated(bound, "deviceCoord(hostCoord(" + formatList(coord) +
                            ")) is " + formatList(back));
    }
    for (int d = rank - 1; d >= 0; --d) {
      if (++coord[d] < size[d])
        break;
      coord[d] = 0;
    }
  }

  // Host -> device: every element stored, once unless broadcast.
  llvm::SmallVector<int64_t, 6> hcoord(host.rank(), 0);
  for (int64_t e = 0; e < hostElements; ++e) {
    int64_t offset = 0;
    for (int h = 0; h < host.rank(); ++h)
      offset += hcoord[h] * host.strides[h];
    if (stored[offset] == 0 || (!broadcast && stored[offset] != 1))
      violated(bound, "host " + formatList(hcoord) + " is stored " +
                          llvm::Twine(stored[offset]) + " times");
    for (int h = host.rank() - 1; h >= 0; --h) {
      if (++hcoord[h] < host.sizes[h])
        break;
      hcoord[h] = 0;
    }
  }

  // Transfers.
  if (bound.dmaPlan(DmaDirection::HostToDevice).numElements() != real)
    violated(bound, "the host-to-device nests move " +
                        llvm::Twine(bound.dmaPlan().numElements()) +
                        " elements, not the " + llvm::Twine(real) +
                        " non-padding ones");
  if (!broadcast &&
      bound.dmaPlan(DmaDirection::DeviceToHost).numElements() != hostElements)
    violated(bound, "the device-to-host nests do not move every host element");
  if (bound.paddingPlan().numElements() != deviceElements - real)
    violated(bound, "the padding nests cover " +
                        llvm::Twine(bound.paddingPlan().numElements()) +
                        " elements, not " + llvm::Twine(deviceElements - real));

  // Stickify round trip (values 0..7 are exact in every format).
  if (hostType == HostType::Bool &&
      layout.getFormat() != DataFormat::SEN169_FP16)
    return;
  if (deviceFormatFor(hostType) != layout.getFormat())
    return;
  unsigned hostBytes = hostElementBytes(hostType);
  std::vector<uint8_t> in(span * hostBytes, 0xA5), out(span * hostBytes, 0x5A);
  std::vector<uint8_t> device(layout.deviceBytes(), 0xEE);
  for (int64_t i = 0; i < span; ++i)
    encodeHost(hostType, static_cast<int>(i % 8), in.data() + i * hostBytes);
  const double pad = 3.0;
  if (llvm::Error err = stickify(bound, hostType, in.data(), device.data(), pad,
                                 /*threads=*/1))
    violated(bound, "stickify failed: " + llvm::toString(std::move(err)));
  if (llvm::Error err =
          unstickify(bound, hostType, device.data(), out.data(), 1))
    violated(bound, "unstickify failed: " + llvm::toString(std::move(err)));
  std::vector<uint8_t> expected = in;
  for (int64_t i = 0; i < span; ++i)
    if (!stored[i]) // not part of the view: unstickify must not touch it
      std::memset(expected.data() + i * hostBytes, 0x5A, hostBytes);
  if (expected != out)
    violated(bound, "unstickify(stickify(x)) != x");
  if (layout.getFormat() == DataFormat::SENINT4 || hostType == HostType::Bool)
    return;
  llvm::Expected<uint32_t> padBits = encodeDeviceValue(layout.getFormat(), pad);
  if (!padBits) {
    llvm::consumeError(padBits.takeError());
    return;
  }
  std::fill(coord.begin(), coord.end(), 0);
  for (int64_t e = 0; e < deviceElements; ++e) {
    if (bound.isPadding(coord) &&
        deviceBitsAt(bound, device, layout.deviceRank() ? e : 0) != *padBits)
      violated(bound, "padding at device " + formatList(coord) +
                          " does not hold the pad value");
    for (int d = rank - 1; d >= 0; --d) {
      if (++coord[d] < size[d])
        break;
      coord[d] = 0;
    }
  }
}

} // namespace mlir::spyre::fuzz

#endif // SPYRE_FUZZ_LAYOUTINVARIANTS_H
