//===- Staging.cpp - Sticks between DDR, LX and compute tiles -------------===//

#include "Staging.h"

#include "Spyre/Layout/Numerics.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>
#include <cstring>

using namespace mlir;
using namespace mlir::spyre;
using namespace mlir::spyre::sim;

SmallVector<int64_t, 8> Stager::boxStart(const Operand &t,
                                         ArrayRef<int64_t> start) const {
  SmallVector<int64_t, 8> coord(t.deviceRank - 1, 0);
  for (int dd = 0; dd + 1 < t.deviceRank; ++dd)
    if (t.opDim[dd] >= 0)
      coord[dd] = (start[t.opDim[dd]] / t.opMultiplier(dd)) % t.deviceSize[dd];
  return coord;
}

SmallVector<int64_t, 8> Stager::boxCounts(const Operand &t,
                                          ArrayRef<int64_t> start) const {
  SmallVector<int64_t, 8> counts;
  SmallVector<int64_t, 8> first = boxStart(t, start);
  for (int dd = 0; dd + 1 < t.deviceRank; ++dd)
    counts.push_back(std::max<int64_t>(
        0, std::min(t.access.getBox()[dd], t.deviceSize[dd] - first[dd])));
  return counts;
}

std::string Stager::checkLxRange(const Operand &t, int64_t core,
                                 int64_t address, StringRef verb) const {
  int64_t usable = target.usableLxBytes();
  if (address >= 0 && address + t.stickBytes <= usable)
    return "";
  return llvm::formatv("core {0} {1} {2} at LX bytes [{3}, {4}), past the "
                       "{5} usable bytes",
                       core, verb, t.name, address, address + t.stickBytes,
                       usable)
      .str();
}

template <typename F>
void Stager::forEachBoxStick(const Operand &t, ArrayRef<int64_t> region,
                             int64_t lxBase, ArrayRef<int64_t> origin,
                             const std::string &error, F f) const {
  SmallVector<int64_t, 8> first = boxStart(t, region);
  SmallVector<int64_t, 8> counts = boxCounts(t, region);
  ArrayRef<int64_t> lxStrides = t.access.getLxStrides();
  SmallVector<int64_t, 8> coord(counts.size());
  forEachPosition(counts, [&](ArrayRef<int64_t> at) {
    if (!error.empty())
      return;
    int64_t address = lxBase;
    for (size_t d = 0; d < at.size(); ++d) {
      coord[d] = first[d] + at[d];
      address += (coord[d] - origin[d]) * lxStrides[d];
    }
    f(ArrayRef<int64_t>(coord), address);
  });
}

llvm::Error Stager::dma(const Operand &t, int64_t core, int64_t ddrAddress,
                        int64_t lxBase, ArrayRef<int64_t> start, bool toLx,
                        int64_t &bytes, Reach &range) {
  Memory &lx = machine.lx(core);
  SmallVector<int64_t, 8> counts = boxCounts(t, start);
  ArrayRef<int64_t> ddrStrides = t.access.getDdrStrides();
  ArrayRef<int64_t> lxStrides = t.access.getLxStrides();
  std::string error;
  bytes = 0;
  forEachPosition(counts, [&](ArrayRef<int64_t> at) {
    if (!error.empty())
      return;
    int64_t src = ddrAddress, dst = lxBase;
    for (size_t d = 0; d < at.size(); ++d) {
      src += at[d] * ddrStrides[d];
      dst += at[d] * lxStrides[d];
    }
    int64_t segment = src / target.segmentBytes;
    int64_t offset = src % target.segmentBytes;
    if (segment != t.segment || offset < t.regionBegin ||
        offset + t.stickBytes > t.regionEnd) {
      // Addresses are segment * segment_bytes + offset: name the segment
      // the address falls in when it is not the tensor's.
      std::string where =
          segment == t.segment
              ? std::string()
              : llvm::formatv(" (in segment {0}, not the tensor's)", segment)
                    .str();
      error =
          llvm::formatv(
              "core {0} {1} {2} at DDR address {3}{7}, outside its bytes "
              "[{4}, {5}) of segment {6}",
              core, toLx ? "loads" : "stores", t.name, src,
              t.segment * target.segmentBytes + t.regionBegin,
              t.segment * target.segmentBytes + t.regionEnd, t.segment, where)
              .str();
      return;
    }
    error = checkLxRange(t, core, dst, "stages");
    if (!error.empty())
      return;
    range.first = std::min(range.first, src);
    range.second = std::max(range.second, src + t.stickBytes);
    if (toLx) {
      if (!machine.modelOnly)
        std::memcpy(lx.bytes.data() + dst, t.ddr->bytes.data() + offset,
                    t.stickBytes);
      lx.setTag(dst, t.ddr->tagAt(offset));
    } else {
      if (!machine.modelOnly)
        std::memcpy(t.ddr->bytes.data() + offset, lx.bytes.data() + dst,
                    t.stickBytes);
      t.ddr->setTag(offset, lx.tagAt(dst));
    }
    bytes += t.stickBytes;
  });
  if (!error.empty())
    return fail(kernel, error);
  return llvm::Error::success();
}

/// The host coordinate of the first element of the stick at device
/// coordinate `coord` (non-stick dims).
/// The value in lane `lane` of the stick at `bytes`. A SENINT4 stick packs
/// two lanes a byte, low nibble first (as the stickify writes them): the
/// SFP unpacks each into a lane of its own, a signed 4-bit integer.
static float loadLane(const Operand &t, const uint8_t *bytes, int64_t lane) {
  if (t.format == DataFormat::SENINT4) {
    uint8_t byte = bytes[lane / 2];
    int nibble = lane % 2 == 0 ? byte & 0xF : byte >> 4;
    return static_cast<float>(nibble >= 8 ? nibble - 16 : nibble);
  }
  return loadDeviceElement(t.format, bytes + lane * t.elemBytes);
}

/// Stores `value` into lane `lane`: SENINT4 repacks it into its nibble
/// (rounded and clamped to [-8, 7]), keeping the other lane of the byte.
static void storeLane(const Operand &t, uint8_t *bytes, int64_t lane,
                      float value) {
  if (t.format == DataFormat::SENINT4) {
    float r = std::nearbyint(std::min(std::max(value, -8.0f), 7.0f));
    auto nibble = static_cast<uint8_t>(static_cast<int>(r) & 0xF);
    uint8_t &byte = bytes[lane / 2];
    byte = lane % 2 == 0 ? (byte & 0xF0) | nibble : (byte & 0x0F) | nibble << 4;
    return;
  }
  storeDeviceElement(t.format, bytes + lane * t.elemBytes, value);
}

static void hostCoordOf(const Operand &t, ArrayRef<int64_t> coord,
                        SmallVectorImpl<int64_t> &host) {
  host.assign(t.hostSize.size(), 0);
  for (size_t dd = 0; dd < coord.size(); ++dd)
    if (t.hostDim[dd] >= 0)
      host[t.hostDim[dd]] += coord[dd] * t.multiplier[dd];
}

llvm::Error Stager::gather(const Operand &t, int64_t core,
                           ArrayRef<int64_t> region, int64_t lxBase,
                           ArrayRef<int64_t> origin, std::vector<float> &dense,
                           float fill) {
  Memory &lx = machine.lx(core);
  if (!machine.modelOnly)
    dense.assign(t.denseSize * t.slots, fill);
  int64_t stickStep = t.stickStep();
  int stickOp = t.stickOpDim();
  // Op-dim elements each lane covers: a lane of packed data or of tile
  // scales is read into each of the q positions it covers.
  int64_t q = t.stickDivisor();
  SmallVector<int64_t, 6> host;
  std::string error;
  forEachBoxStick(
      t, region, lxBase, origin, error,
      [&](ArrayRef<int64_t> coord, int64_t address) {
        hostCoordOf(t, coord, host);
        // Where the stick's lane 0 lands in the dense tile; lanes step the
        // stick's host dim.
        int64_t index = 0;
        for (size_t h = 0; h < host.size(); ++h) {
          int d = t.opDimOfHost[h];
          if (d < 0 || h == static_cast<size_t>(t.stickHost))
            continue;
          if (host[h] >= t.hostSize[h] || host[h] < region[d] ||
              host[h] >= region[d] + tile[d])
            return; // padding, or outside this tile
          index += (host[h] - region[d]) * t.denseStride[d];
        }
        // The lanes holding real elements of this tile: a contiguous range.
        int64_t laneBegin = 0, laneEnd = 1, laneStride = 0;
        if (t.stickHost >= 0) {
          int64_t h0 = host[t.stickHost];
          auto lanesBelow = [&](int64_t limit) {
            return std::max<int64_t>(0,
                                     (limit - h0 + stickStep - 1) / stickStep);
          };
          laneEnd = std::min(t.eps, lanesBelow(t.hostSize[t.stickHost]));
          if (stickOp >= 0) {
            laneBegin = lanesBelow(region[stickOp] / q);
            laneEnd = std::min(
                laneEnd,
                lanesBelow((region[stickOp] + tile[stickOp] + q - 1) / q));
            index += ((h0 + laneBegin * stickStep) * q - region[stickOp]) *
                     t.denseStride[stickOp];
            laneStride = stickStep * q * t.denseStride[stickOp];
          }
        }
        if (laneBegin >= laneEnd)
          return;
        error = checkLxRange(t, core, address, "reads");
        if (!error.empty())
          return;
        int32_t tag = lx.tagAt(address);
        if (tag != t.id) {
          error =
              llvm::formatv("core {0} reads {1} (device {2}) from LX byte "
                            "{3}, which {4}",
                            core, t.name, formatList(coord), address,
                            tag == 0 ? std::string("was never written")
                                     : "holds " + machine.nameOf(tag).str() +
                                           " instead")
                  .str();
          return;
        }
        if (machine.modelOnly)
          return;
        const uint8_t *bytes = lx.bytes.data() + address;
        // Further values of the element in the next lanes (exx2).
        for (int64_t slot = 1; slot < t.slots; ++slot)
          dense[index + slot * t.denseSize] =
              loadDeviceElement(t.format, bytes + slot * t.elemBytes);
        float *to = dense.data() + index;
        if (q > 1 && stickOp >= 0) {
          // Lane l covers op positions [(h0 + l * step) * q, + q), clipped
          // to the tile.
          int64_t h0 = host[t.stickHost];
          int64_t end = region[stickOp] + tile[stickOp];
          int64_t step = t.denseStride[stickOp];
          for (int64_t lane = laneBegin; lane < laneEnd; ++lane) {
            float value = loadLane(t, bytes, lane);
            int64_t first = (h0 + lane * stickStep) * q;
            int64_t count = std::min(q, end - first);
            for (int64_t j = 0; j < count; ++j)
              to[j * step] = value;
            to += laneStride;
          }
          return;
        }
        if (t.format == DataFormat::SEN169_FP16) {
          const float *table = sen169ToFloatTable();
          for (int64_t lane = laneBegin; lane < laneEnd; ++lane) {
            uint16_t bits;
            std::memcpy(&bits, bytes + lane * 2, 2);
            *to = table[bits];
            to += laneStride;
          }
          return;
        }
        for (int64_t lane = laneBegin; lane < laneEnd; ++lane) {
          *to = loadLane(t, bytes, lane);
          to += laneStride;
        }
      });
  if (!error.empty())
    return fail(kernel, error);
  return llvm::Error::success();
}

llvm::Error Stager::scatter(const Operand &t, int64_t core,
                            ArrayRef<int64_t> region, int64_t lxBase,
                            ArrayRef<int64_t> origin,
                            const std::vector<float> &dense, float fill) {
  Memory &lx = machine.lx(core);
  int64_t stickStep = t.stickStep();
  int stickOp = t.stickOpDim();
  SmallVector<int64_t, 6> host;
  std::string error;
  forEachBoxStick(
      t, region, lxBase, origin, error,
      [&](ArrayRef<int64_t> coord, int64_t address) {
        error = checkLxRange(t, core, address, "writes");
        if (!error.empty())
          return;
        hostCoordOf(t, coord, host);
        // The box must stay within the tile computed: a box larger than the
        // tile (attributes that disagree) has no values to store.
        auto outside = [&](int d, int64_t h) {
          error =
              llvm::formatv("core {0} stores {1} (device {2}) from a tile "
                            "at {3}: the access's box {4} reaches past the "
                            "tile (dim {5} at {6}, the tile covers [{7}, "
                            "{8}))",
                            core, t.name, formatList(coord), formatList(region),
                            formatList(t.access.getBox()), d, h, region[d],
                            region[d] + tile[d])
                  .str();
        };
        bool padding = false;
        int64_t index = 0;
        for (size_t h = 0; h < host.size(); ++h) {
          int d = t.opDimOfHost[h];
          if (h == static_cast<size_t>(t.stickHost))
            continue;
          if (host[h] >= t.hostSize[h]) {
            padding = true;
            continue;
          }
          if (d >= 0) {
            if (host[h] < region[d] || host[h] >= region[d] + tile[d])
              return outside(d, host[h]);
            index += (host[h] - region[d]) * t.denseStride[d];
          }
        }
        uint8_t *bytes = lx.bytes.data() + address;
        for (int64_t lane = 0; lane < t.eps; ++lane) {
          bool real = !padding && (t.stickHost >= 0 || lane < t.slots);
          int64_t laneIndex =
              index + (t.stickHost >= 0 ? 0 : lane) * t.denseSize;
          if (real && t.stickHost >= 0) {
            int64_t h = host[t.stickHost] + lane * stickStep;
            if (h >= t.hostSize[t.stickHost]) {
              real = false;
            } else if (stickOp >= 0) {
              if (h < region[stickOp] || h >= region[stickOp] + tile[stickOp])
                return outside(stickOp, h);
              laneIndex += (h - region[stickOp]) * t.denseStride[stickOp];
            }
          }
          if (real && (laneIndex < 0 || laneIndex >= t.denseSize * t.slots))
            return outside(stickOp >= 0 ? stickOp : 0, laneIndex);
          if (!machine.modelOnly)
            storeLane(t, bytes, lane, real ? dense[laneIndex] : fill);
        }
        lx.setTag(address, t.id);
      });
  if (!error.empty())
    return fail(kernel, error);
  return llvm::Error::success();
}
