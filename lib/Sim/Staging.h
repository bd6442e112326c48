//===- Staging.h - Sticks between DDR, LX and compute tiles -----*- C++ -*-===//
//
// Internal to lib/Sim. A core stages a tile of each operand by DMA from DDR
// into LX along the access's box (whole sticks, DDR and LX strides), then
// gathers the tile's real elements from the staged sticks into a dense f32
// tile for compute; results go the other way (scatter into LX, DMA to DDR).
// Every stick is checked: DDR addresses inside the tensor's bytes of its
// segment, LX addresses inside the usable scratchpad, and the tag of every
// stick read is the tensor's.
//
//===----------------------------------------------------------------------===//

#ifndef SPYRE_LIB_SIM_STAGING_H
#define SPYRE_LIB_SIM_STAGING_H

#include "Operand.h"

#include <string>
#include <utility>
#include <vector>

namespace mlir::spyre::sim {

/// Calls f(position) for every position of a box, last dim fastest.
template <typename F>
inline void forEachPosition(ArrayRef<int64_t> counts, F f) {
  for (int64_t c : counts)
    if (c <= 0)
      return;
  SmallVector<int64_t, 8> at(counts.size(), 0);
  while (true) {
    f(ArrayRef<int64_t>(at));
    int d = static_cast<int>(counts.size()) - 1;
    for (; d >= 0; --d) {
      if (++at[d] < counts[d])
        break;
      at[d] = 0;
    }
    if (d < 0)
      return;
  }
}

/// The DDR bytes a core's transfers of one tensor reached: [first, second).
using Reach = std::pair<int64_t, int64_t>;

class Stager {
public:
  Stager(KernelOp kernel, Machine &machine, const TargetModel &target,
         ArrayRef<int64_t> tile)
      : kernel(kernel), machine(machine), target(target), tile(tile) {}

  /// The device coordinate (non-stick dims) of the first stick of `t`'s box
  /// for the tile starting at op coordinate `start`.
  SmallVector<int64_t, 8> boxStart(const Operand &t,
                                   ArrayRef<int64_t> start) const;
  /// The extent of that box, clipped to the tensor.
  SmallVector<int64_t, 8> boxCounts(const Operand &t,
                                    ArrayRef<int64_t> start) const;
  /// Moves the box of `t` for the tile at `start` between DDR (from
  /// `ddrAddress`) and the LX of `core` (from `lxBase`); `bytes` is what it
  /// moved, `reach` grows by the DDR bytes it touched.
  llvm::Error dma(const Operand &t, int64_t core, int64_t ddrAddress,
                  int64_t lxBase, ArrayRef<int64_t> start, bool toLx,
                  int64_t &bytes, Reach &reach);
  /// Reads the real elements of the tile at `region` of `t`, staged at
  /// `lxBase` for the tile at `origin`, into `dense` (`fill` elsewhere).
  llvm::Error gather(const Operand &t, int64_t core, ArrayRef<int64_t> region,
                     int64_t lxBase, ArrayRef<int64_t> origin,
                     std::vector<float> &dense, float fill);
  /// Writes `dense` as the tile at `region` of `t` into LX, padding lanes
  /// holding `fill`.
  llvm::Error scatter(const Operand &t, int64_t core, ArrayRef<int64_t> region,
                      int64_t lxBase, ArrayRef<int64_t> origin,
                      const std::vector<float> &dense, float fill);

private:
  /// The error for a stick of `t` at LX byte `address` of `core` that is
  /// not inside the usable LX (`verb`: what the core does with it), or "".
  std::string checkLxRange(const Operand &t, int64_t core, int64_t address,
                           StringRef verb) const;
  /// Calls f(coord, address) for every stick of `t`'s access box in the
  /// tile at `region`: its device coordinate (non-stick dims) and its LX
  /// byte, the box being staged at `lxBase` for the tile at `origin`.
  /// Stops calling once `error` is set.
  template <typename F>
  void forEachBoxStick(const Operand &t, ArrayRef<int64_t> region,
                       int64_t lxBase, ArrayRef<int64_t> origin,
                       const std::string &error, F f) const;

  KernelOp kernel;
  Machine &machine;
  const TargetModel &target;
  ArrayRef<int64_t> tile;
};

} // namespace mlir::spyre::sim

#endif // SPYRE_LIB_SIM_STAGING_H
