//===- Machine.h - The modelled machine's memories ---------------*- C++
//-*-===//
//
// Internal to lib/Sim. A memory is bytes plus one tag per stick: the id of
// the tensor whose data the stick holds (0: never written). Every transfer
// moves tags with the bytes, and compute checks the tag of every stick it
// reads, so reading data that was never written - or that belongs to another
// tensor, e.g. a stale LX buffer - is reported instead of computed with.
// The machine is the DDR (one pool of intermediates and the host-visible io
// buffers) and one LX per core, allocated when a core first uses it.
//
//===----------------------------------------------------------------------===//

#ifndef SPYRE_LIB_SIM_MACHINE_H
#define SPYRE_LIB_SIM_MACHINE_H

#include "Spyre/Dialect/Spyre/IR/Spyre.h"

#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <map>
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

/// The memories of the modelled machine and the identities of the tensors
/// they hold.
class Machine {
public:
  explicit Machine(const TargetModel &target) : target(target) {}

  /// Model only: memories carry tags (who wrote each stick) but no values;
  /// transfers, staging and compute skip the elements.
  bool modelOnly = false;

  Memory pool;
  /// Host-visible buffer `index` (created empty on first use).
  Memory &ioBuffer(int64_t index);
  /// The LX of `core` (allocated on first use).
  Memory &lx(int64_t core);
  /// The DDR memory a `#spyre.mem` names (the pool or an io buffer).
  Memory &memoryOf(MemAttr mem) {
    return mem.getSpace() == MemorySpace::Pool ? pool
                                               : ioBuffer(mem.getValue());
  }

  /// The id of the buffer `root` is (ids start at 1; 0 means unwritten).
  int32_t idOf(Value root, llvm::StringRef name);
  llvm::StringRef nameOf(int32_t id) const;

  /// Tags every stick of the tensor at `base` in `memory` that holds a real
  /// element (sticks of pure padding stay unwritten).
  void tagRealSticks(const BoundLayout &layout, Memory &memory, int64_t base,
                     int32_t id);
  /// Checks every stick holding a real element carries `id`.
  llvm::Error checkRealSticks(const BoundLayout &layout, const Memory &memory,
                              int64_t base, int32_t id,
                              llvm::StringRef what) const;

private:
  const TargetModel &target;
  std::map<int64_t, Memory> io;
  std::vector<Memory> lxs;
  DenseMap<Value, int32_t> ids;
  std::vector<std::string> names = {"nothing"};
};

} // namespace mlir::spyre::sim

#endif // SPYRE_LIB_SIM_MACHINE_H
