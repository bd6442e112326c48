//===- Stickify.h - Host <-> device buffer conversion -----------*- C++ -*-===//
//
// Moves real data between a strided host buffer and a device buffer laid out
// by a BoundLayout, following the layout's DMA nests exactly as a transfer
// engine would (so what the simulator and the runtime see is what the DMA
// descriptors say). Padding is filled with a given value, never read from the
// host.
//
// Conversions done by the DMA: bf16 -> DL16 (rounded to nearest even), bool ->
// DL16 (0.0 / 1.0), i64 -> i32 (truncated), i4 (one value per host byte) ->
// packed nibbles (low nibble first). DL16 (SEN169_FP16) is modelled as IEEE
// binary16.
//
//===----------------------------------------------------------------------===//

#ifndef SPYRE_LAYOUT_STICKIFY_H
#define SPYRE_LAYOUT_STICKIFY_H

#include "Spyre/Layout/Layout.h"
#include "Spyre/Layout/Numerics.h"

namespace mlir::spyre {

/// Copies the host tensor `host` (element (0,...,0) at `host`, strides in
/// elements from the bound host view, elements of `hostType`) into the device
/// buffer `device` of `layout().deviceBytes()` bytes, filling padding with
/// `padValue`. `threads` = 0 uses every hardware thread for transfers of 8
/// MiB or more and one thread below; any other value is used as given.
llvm::Error stickify(const BoundLayout &layout, HostType hostType,
                     const void *host, void *device, double padValue = 0.0,
                     unsigned threads = 0);

/// The inverse: writes every host element from `device` into `host`.
llvm::Error unstickify(const BoundLayout &layout, HostType hostType,
                       const void *device, void *host, unsigned threads = 0);

} // namespace mlir::spyre

#endif // SPYRE_LAYOUT_STICKIFY_H
