//===- Operand.h - A kernel's tensors bound to the machine ------*- C++ -*-===//
//
// Internal to lib/Sim. Binding resolves each operand (and the result) of a
// kernel once: its layout and format, which op dim each of its device dims
// steps, where its bytes are (a DDR region in one of the kernel's segments,
// or an LX offset when it stays resident), its LX staging buffers, and the
// shape of its dense f32 tile that compute reads and writes.
//
//===----------------------------------------------------------------------===//

#ifndef SPYRE_LIB_SIM_OPERAND_H
#define SPYRE_LIB_SIM_OPERAND_H

#include "Machine.h"

#include "Spyre/Dialect/Spyre/IR/KernelForm.h"

#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::spyre::sim {

/// One operand (or the result) of the kernel being run.
struct Operand {
  std::string name;
  Value value;
  bool isResult = false;
  int32_t id = 0;
  RankedTensorType type;
  std::optional<BoundLayout> bound;
  DataFormat format = DataFormat::SEN169_FP16;
  int64_t eps = 64, stickBytes = 128, elemBytes = 2;
  int deviceRank = 0;
  SmallVector<int64_t, 8> deviceSize;
  /// Per device dim: the op dim it steps (-1: none), its multiplier, and
  /// the host dim it tiles (-1: none).
  SmallVector<int, 8> opDim, hostDim;
  SmallVector<int64_t, 8> multiplier;
  SmallVector<int64_t, 6> hostSize;
  SmallVector<int, 6> opDimOfHost;
  /// Per host dim: the op-dim elements one element covers (1, or q for
  /// `d floordiv q`: packed data, tile scales; only on the stick dim).
  SmallVector<int64_t, 6> divisorOfHost;
  int stickHost = -1;
  AccessAttr access;
  bool resident = false;
  // DDR side.
  Memory *ddr = nullptr;
  int64_t segment = 0, regionBegin = 0, regionEnd = 0;
  int64_t buffers = 0;
  /// Op dims the tensor uses, and the row-major stride of each in its dense
  /// tile (0 for op dims it does not use).
  uint32_t usedMask = 0;
  SmallVector<int64_t, 6> denseStride;
  int64_t denseSize = 1;
  /// Values per element: 2 for the exx2 arrangement (lanes 0 and 1 of each
  /// stick), else 1. Slot k of the dense tile starts at k * denseSize.
  int64_t slots = 1;
  /// Cores sharing each tile (the tile is forwarded along the ring).
  int64_t group = 1;

  /// Host elements between two lanes of a stick (0 for sparse layouts).
  int64_t stickStep() const {
    return stickHost >= 0 ? multiplier[deviceRank - 1] : 0;
  }
  /// The op dim the stick's lanes step (-1: none).
  int stickOpDim() const {
    return stickHost >= 0 ? opDimOfHost[stickHost] : -1;
  }
  /// Op-dim elements one lane of a stick covers (see divisorOfHost).
  int64_t stickDivisor() const {
    return stickHost >= 0 ? divisorOfHost[stickHost] : 1;
  }
  /// Op-dim elements per +1 step along device dim `dd`.
  int64_t opMultiplier(int dd) const {
    return multiplier[dd] * (hostDim[dd] >= 0 ? divisorOfHost[hostDim[dd]] : 1);
  }
};

/// Binds the inputs and the result of `kernel` (whose payload indexes them
/// with `maps`, op dims tiled by `tile` and split by `division`) to
/// `machine`'s memories; a result buffer grows on its first writer.
llvm::Expected<std::vector<Operand>>
bindOperands(KernelOp kernel, ArrayRef<AffineMap> maps, ArrayRef<int64_t> tile,
             const kernel::Division &division, Machine &machine,
             const TargetModel &target);

/// Sets the dense tile of `t` (its usedMask set): a tile of `tile`.
void setDenseTile(Operand &t, ArrayRef<int64_t> tile);

/// An error naming `kernel`.
llvm::Error fail(KernelOp kernel, const llvm::Twine &message);

} // namespace mlir::spyre::sim

#endif // SPYRE_LIB_SIM_OPERAND_H
