//===- Memory.h - Simulated DDR buffers and LX scratchpads -----*- C++ -*-===//
//
// Internal to lib/Sim. A memory is bytes plus one tag per stick: the id of
// the tensor whose data the stick holds (0: never written). Every transfer
// moves tags with the bytes, and compute checks the tag of every stick it
// reads, so reading data that was never written - or that belongs to another
// tensor, e.g. a stale LX buffer - is reported instead of computed with.
//
//===----------------------------------------------------------------------===//

#ifndef SPYRE_LIB_SIM_MEMORY_H
#define SPYRE_LIB_SIM_MEMORY_H

#include <cstdint>
#include <string>
#include <vector>

namespace mlir::spyre::sim {

struct Memory {
  std::string name;
  int64_t stickBytes = 128;
  std::vector<uint8_t> bytes;
  std::vector<int32_t> tags; ///< per stick

  void resize(int64_t size, int64_t stick) {
    stickBytes = stick;
    bytes.assign(static_cast<size_t>(size), 0);
    tags.assign(static_cast<size_t>((size + stick - 1) / stick), 0);
  }
  int64_t size() const { return static_cast<int64_t>(bytes.size()); }
  int32_t tagAt(int64_t offset) const { return tags[offset / stickBytes]; }
  void setTag(int64_t offset, int32_t tag) { tags[offset / stickBytes] = tag; }
};

} // namespace mlir::spyre::sim

#endif // SPYRE_LIB_SIM_MEMORY_H
