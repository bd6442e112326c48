//===- Layout.h - The Spyre tensor layout algebra ---------------*- C++ -*-===//
//
// A Spyre tensor layout (the reference stack's SpyreTensorLayout) places the
// elements of a host tensor into a tiled, padded, row-major device tensor:
//
//   device_size  padded extent of every device dim; the last is the stick
//                (elements per stick of the device format)
//   stride_map   per device dim, the host elements advanced by a +1 step
//                (-1: synthetic/size-1 dim, 0: broadcast dim)
//   format       the device data format
//
// and `host_offset = dot(device_coordinate, stride_map)`.
//
// `SpyreTensorLayout` is the value; it knows nothing about a host tensor.
// `BoundLayout` is a layout checked against a host view (sizes + strides): it
// resolves every device dim to the host dim it tiles and answers every
// question that needs both (offsets, padding, dim_map, DMA nests). A layout
// can only be used with a host tensor through a BoundLayout, so a layout that
// does not fit its tensor is rejected before anything uses it.
//
// This library is plain C++ (LLVM ADT only) so the dialect, the passes, the
// emitters, the simulator and the Python module all share one implementation.
//
//===----------------------------------------------------------------------===//

#ifndef SPYRE_LAYOUT_LAYOUT_H
#define SPYRE_LAYOUT_LAYOUT_H

#include "Spyre/Layout/DataFormat.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>

namespace mlir::spyre {

/// Largest host rank the reference stack supports.
constexpr int kMaxHostRank = 6;
/// Largest device rank: host rank + tile dim + a synthetic sparse dim.
constexpr int kMaxDeviceRank = kMaxHostRank + 2;

/// Sizes and strides (in elements) of a host tensor, PyTorch style.
struct HostView {
  llvm::SmallVector<int64_t, 6> sizes;
  llvm::SmallVector<int64_t, 6> strides;

  HostView() = default;
  HostView(llvm::ArrayRef<int64_t> sizes, llvm::ArrayRef<int64_t> strides)
      : sizes(sizes), strides(strides) {}
  /// A row-major contiguous view of `sizes`.
  static HostView contiguous(llvm::ArrayRef<int64_t> sizes);

  int rank() const { return static_cast<int>(sizes.size()); }
  int64_t numElements() const;
  /// Smallest buffer (in elements) that holds every element of the view.
  int64_t spanElements() const;
  bool operator==(const HostView &other) const {
    return sizes == other.sizes && strides == other.strides;
  }
};

/// Row-major strides of `sizes`.
llvm::SmallVector<int64_t, 6> rowMajorStrides(llvm::ArrayRef<int64_t> sizes);

/// Renders "[1, 2, 3]".
std::string formatList(llvm::ArrayRef<int64_t> values);
std::string formatList(llvm::ArrayRef<int32_t> values);

class BoundLayout;

class SpyreTensorLayout {
public:
  /// The direct form. Checks everything that does not need the host tensor:
  /// equal lengths, rank, positive sizes, stride_map entries >= -1, and the
  /// stick dim (last) holding exactly one stick of `format`.
  static llvm::Expected<SpyreTensorLayout>
  get(llvm::ArrayRef<int64_t> deviceSize, llvm::ArrayRef<int64_t> strideMap,
      DataFormat format,
      ElementArrangement arrangement = ElementArrangement::Standard,
      int64_t stickBytes = kDefaultStickBytes);

  /// The reference constructor: the generic stick layout of `host` with the
  /// given dim_order (its last entry is the stick dim, its first the tile-row
  /// dim; a trailing -1 asks for a sparse layout). Without a dim_order the
  /// default order is used (see defaultDimOrder).
  static llvm::Expected<SpyreTensorLayout>
  getDefault(const HostView &host, DataFormat format,
             std::optional<llvm::ArrayRef<int32_t>> dimOrder = std::nullopt,
             int64_t stickBytes = kDefaultStickBytes);
  static llvm::Expected<SpyreTensorLayout>
  getDefault(const HostView &host, HostType dtype,
             std::optional<llvm::ArrayRef<int32_t>> dimOrder = std::nullopt,
             int64_t stickBytes = kDefaultStickBytes) {
    return getDefault(host, deviceFormatFor(dtype), dimOrder, stickBytes);
  }

  /// Builds the stride_map of a legacy (device_size, dim_map) layout: the
  /// innermost occurrence of a host dim gets its host stride, each outer
  /// occurrence the previous stride times the previous device size; -1 and
  /// size-1 host dims get -1. The result is validated against `host`.
  static llvm::Expected<SpyreTensorLayout>
  fromDimMap(const HostView &host, llvm::ArrayRef<int64_t> deviceSize,
             llvm::ArrayRef<int32_t> dimMap, DataFormat format,
             int64_t stickBytes = kDefaultStickBytes);

  /// [0, 1, ..., n-1], except that size-1 dims are moved between the other
  /// dims and the stick so they never become the stick or the tile-row dim
  /// (unless every dim has size 1). `[512, 1]` and `[512]` thus get
  /// equivalent layouts.
  static llvm::SmallVector<int32_t, 6>
  defaultDimOrder(llvm::ArrayRef<int64_t> hostSizes);

  llvm::ArrayRef<int64_t> getDeviceSize() const { return deviceSize; }
  llvm::ArrayRef<int64_t> getStrideMap() const { return strideMap; }
  DataFormat getFormat() const { return format; }
  ElementArrangement getArrangement() const { return arrangement; }

  int deviceRank() const { return static_cast<int>(deviceSize.size()); }
  int64_t elemsPerStick() const { return deviceSize.back(); }
  /// Bytes of one stick (elems per stick times the element width).
  int64_t stickBytes() const;
  /// Sticks in the device tensor: prod(device_size[:-1]).
  int64_t numSticks() const;
  /// Device elements, padding included: prod(device_size).
  int64_t numDeviceElements() const { return numSticks() * elemsPerStick(); }
  int64_t deviceBytes() const { return numSticks() * stickBytes(); }
  /// Row-major strides of the device tensor.
  llvm::SmallVector<int64_t, 8> deviceStrides() const;

  /// The layout checked against a host view.
  llvm::Expected<BoundLayout> bind(const HostView &host) const;

  /// The same layout with another element arrangement.
  SpyreTensorLayout withArrangement(ElementArrangement ea) const {
    SpyreTensorLayout copy = *this;
    copy.arrangement = ea;
    return copy;
  }

  /// Python-style rendering, exactly as the reference stack prints it:
  /// `SpyreTensorLayout(device_size=[...], stride_map =[...],
  /// device_dtype=DataFormats.SEN169_FP16)`.
  std::string str() const;

  bool operator==(const SpyreTensorLayout &other) const {
    return deviceSize == other.deviceSize && strideMap == other.strideMap &&
           format == other.format && arrangement == other.arrangement;
  }
  bool operator!=(const SpyreTensorLayout &other) const {
    return !(*this == other);
  }

private:
  SpyreTensorLayout() = default;
  llvm::SmallVector<int64_t, 8> deviceSize;
  llvm::SmallVector<int64_t, 8> strideMap;
  DataFormat format = DataFormat::SEN169_FP16;
  ElementArrangement arrangement = ElementArrangement::Standard;
};

//===----------------------------------------------------------------------===//
// DMA loop nests
//===----------------------------------------------------------------------===//

/// One loop of a transfer: `range` iterations, advancing the device by
/// `deviceStride` and the host by `hostStride` elements per iteration.
struct DmaLoop {
  int64_t range;
  int64_t deviceStride;
  int64_t hostStride;
  bool operator==(const DmaLoop &o) const {
    return range == o.range && deviceStride == o.deviceStride &&
           hostStride == o.hostStride;
  }
};

/// A loop nest, outermost loop first (decreasing device stride, the RFC's
/// convention), starting at the given element offsets.
struct DmaNest {
  llvm::SmallVector<DmaLoop, 8> loops;
  int64_t deviceOffset = 0;
  int64_t hostOffset = 0;

  int64_t numElements() const;
  /// Merges adjacent loops that are contiguous on both sides.
  void coalesce();
  /// The RFC's notation: ((ranges), (device strides), (host strides)).
  std::string str() const;
  bool operator==(const DmaNest &o) const {
    return loops == o.loops && deviceOffset == o.deviceOffset &&
           hostOffset == o.hostOffset;
  }
};

enum class DmaDirection { HostToDevice, DeviceToHost };

/// How the loops of a nest are written: merged where contiguous on both
/// sides, size-1 loops dropped (what the simulator walks), or one loop per
/// device dim, outermost first, as the runtime's DataConversionInfo writes
/// them (size-1 dims kept, a synthetic dim's host stride 1, a broadcast
/// dim written in full in both directions).
enum class DmaForm { Compact, DeviceRank };

/// Every element of a host <-> device transfer: a main nest over the full
/// tiles followed by remainder nests for partial sticks. Padding is never
/// transferred from the host.
struct DmaPlan {
  llvm::SmallVector<DmaNest, 2> nests;
  int64_t numElements() const;
};

//===----------------------------------------------------------------------===//
// BoundLayout
//===----------------------------------------------------------------------===//

class BoundLayout {
public:
  /// What a device dim means for the host tensor.
  enum class DimKind : uint8_t {
    Piece,     ///< tiles host dim `hostDim` with `multiplier` elements per step
    Synthetic, ///< stride -1: only coordinate 0 holds data, the rest is padding
    Broadcast, ///< stride 0: every coordinate aliases the same host element
    Unit,      ///< device size 1: contributes nothing
  };
  struct DimRole {
    DimKind kind = DimKind::Unit;
    int hostDim = -1;
    int64_t multiplier = 0;
  };

  const SpyreTensorLayout &layout() const { return layout_; }
  const HostView &host() const { return host_; }
  llvm::ArrayRef<DimRole> roles() const { return roles_; }
  /// Device dims tiling host dim `h`, innermost (multiplier 1) first.
  llvm::ArrayRef<int> piecesOf(int h) const { return pieces_[h]; }
  /// Host dim of the stick (last) device dim, or -1 for sparse layouts.
  int stickHostDim() const;
  bool isSparse() const { return stickHostDim() < 0; }

  /// dot(deviceCoord, stride_map), with -1 entries counting as 0.
  int64_t hostOffset(llvm::ArrayRef<int64_t> deviceCoord) const;
  /// Whether a device position holds no host element.
  bool isPadding(llvm::ArrayRef<int64_t> deviceCoord) const;
  /// The host coordinate stored at a device position, if it is not padding.
  std::optional<llvm::SmallVector<int64_t, 6>>
  hostCoord(llvm::ArrayRef<int64_t> deviceCoord) const;
  /// The (first) device position holding a host coordinate.
  llvm::SmallVector<int64_t, 8>
  deviceCoord(llvm::ArrayRef<int64_t> hostCoord) const;
  /// Row-major device offset (in elements) of a host coordinate.
  int64_t deviceOffset(llvm::ArrayRef<int64_t> hostCoord) const;

  /// The legacy dim_map (host dim per device dim, -1 for synthetic dims).
  /// Fails for layouts with broadcast dims.
  llvm::Expected<llvm::SmallVector<int32_t, 8>> dimMap() const;
  /// The dim_order that rebuilds this layout with getDefault; fails for
  /// layouts that are not generic stick layouts.
  llvm::Expected<llvm::SmallVector<int32_t, 6>> dimOrder() const;

  /// The transfer nests for every non-padding element. For HostToDevice,
  /// broadcast dims are written in full (host stride 0); for DeviceToHost
  /// only their first copy is read.
  DmaPlan dmaPlan(DmaDirection direction = DmaDirection::HostToDevice,
                  DmaForm form = DmaForm::Compact) const;
  /// Bytes from the device tensor's start to the end of its last stick
  /// holding a host element: at most layout().deviceBytes(), less when the
  /// last sticks are padding (a strided block of a larger tensor's rows,
  /// whose padding is the rest of that tensor).
  int64_t usedBytes() const;
  /// Nests (host strides 0) covering exactly the padding positions.
  DmaPlan paddingPlan() const;

private:
  friend class SpyreTensorLayout;
  BoundLayout(SpyreTensorLayout layout, HostView host)
      : layout_(std::move(layout)), host_(std::move(host)) {}

  SpyreTensorLayout layout_;
  HostView host_;
  llvm::SmallVector<DimRole, 8> roles_;
  llvm::SmallVector<llvm::SmallVector<int, 2>, 6> pieces_;
};

//===----------------------------------------------------------------------===//
// Views
//===----------------------------------------------------------------------===//

/// The layout of `transpose(x, permutation)` (result dim i is x's dim
/// permutation[i], row-major) that describes the same device bytes as x's
/// layout: every stride_map entry is re-expressed in the result's host
/// strides. Transposes are free when the consumer accepts this layout.
llvm::Expected<SpyreTensorLayout>
transposeView(const BoundLayout &source, llvm::ArrayRef<int64_t> permutation);

/// Whether `layout` also describes a row-major tensor of `sizes` unchanged:
/// stride_map entries count host elements, which a row-major reshape keeps.
bool survivesReshape(const SpyreTensorLayout &layout,
                     llvm::ArrayRef<int64_t> sizes);

/// The layout of a row-major reshape of `source` (bound to a row-major host
/// tensor) to `sizes` that describes the same device bytes: device dims that
/// straddle a boundary between the new host dims are split into one device
/// dim per host dim (e.g. a row dim of 4 read as [2, 2]), adjacent pieces of
/// one new host dim are merged. Fails when no such layout exists: the stick
/// or a padded dim would straddle a boundary, or the device rank would exceed
/// kMaxDeviceRank. The reshape then has to move data.
llvm::Expected<SpyreTensorLayout> reshapeView(const BoundLayout &source,
                                              llvm::ArrayRef<int64_t> sizes);

/// Whether two layouts place the same host elements (by row-major host
/// offset) at the same device bytes: equal after dropping size-1 device dims
/// and merging adjacent dims that are contiguous in both spaces.
bool sameDeviceBytes(const SpyreTensorLayout &a, const SpyreTensorLayout &b);

//===----------------------------------------------------------------------===//
// Restickify
//===----------------------------------------------------------------------===//

/// The layout that moves the stick of `source` from its current host dim to
/// host dim `newStickDim`, keeping every other dim in place (the stick dim and
/// `newStickDim` swap places in the dim_order).
llvm::Expected<SpyreTensorLayout> restickifyTarget(const BoundLayout &source,
                                                   int newStickDim);

/// Elements a restickify out of `source` moves: every device element,
/// padding included.
int64_t restickifyCost(const SpyreTensorLayout &source);

} // namespace mlir::spyre

#endif // SPYRE_LAYOUT_LAYOUT_H
