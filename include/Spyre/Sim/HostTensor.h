//===- HostTensor.h - A host array for the simulator and its checks -*- C++
//-*-===//
//
// A dense row-major array in host memory: what spyre-run reads from and
// writes to .npy files, what the simulator uploads and downloads, and what
// the reference (upstream MLIR's lowering, JIT-compiled) consumes and
// produces. Plain C++.
//
//===----------------------------------------------------------------------===//

#ifndef SPYRE_SIM_HOSTTENSOR_H
#define SPYRE_SIM_HOSTTENSOR_H

#include "Spyre/Layout/DataFormat.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <vector>

namespace mlir::spyre::sim {

struct HostTensor {
  HostType type = HostType::Float16;
  llvm::SmallVector<int64_t, 6> shape;
  /// Row-major elements of hostElementBytes(type) bytes each (bool: one
  /// byte, 0 or 1; int4: one byte per element, sign-extended).
  std::vector<uint8_t> data;

  HostTensor() = default;
  HostTensor(HostType type, llvm::ArrayRef<int64_t> shape)
      : type(type), shape(shape.begin(), shape.end()),
        data(static_cast<size_t>(numElements()) * elementBytes()) {}

  int64_t numElements() const {
    int64_t n = 1;
    for (int64_t s : shape)
      n *= s;
    return n;
  }
  unsigned elementBytes() const {
    return type == HostType::Int4 ? 1 : hostElementBytes(type);
  }
  int rank() const { return static_cast<int>(shape.size()); }
};

} // namespace mlir::spyre::sim

#endif // SPYRE_SIM_HOSTTENSOR_H
