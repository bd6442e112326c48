//===- Machine.cpp - The modelled machine's memories ----------------------===//

#include "Machine.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::spyre;
using namespace mlir::spyre::sim;

Memory &Machine::ioBuffer(int64_t index) {
  Memory &memory = io[index];
  if (memory.name.empty()) {
    memory.name = "io buffer " + std::to_string(index);
    memory.stickBytes = target.stickBytes;
  }
  return memory;
}

Memory &Machine::lx(int64_t core) {
  if (static_cast<int64_t>(lxs.size()) <= core)
    lxs.resize(core + 1);
  Memory &memory = lxs[core];
  if (memory.bytes.empty()) {
    memory.name = "the LX of core " + std::to_string(core);
    memory.resize(target.lxBytes, target.stickBytes);
  }
  return memory;
}

int32_t Machine::idOf(Value root, StringRef name) {
  auto [it, inserted] =
      ids.try_emplace(root, static_cast<int32_t>(names.size()));
  if (inserted)
    names.push_back(name.str());
  return it->second;
}

StringRef Machine::nameOf(int32_t id) const {
  // Two returns, not a conditional: `cond ? names[id] : "unknown"` has type
  // std::string, a temporary the returned StringRef would outlive.
  if (id >= 0 && id < static_cast<int32_t>(names.size()))
    return names[id];
  return "unknown";
}

/// Calls `f(stick index, device coordinate of the stick's first element)`
/// for every stick of `layout`.
template <typename F> static void forEachStick(const BoundLayout &layout, F f) {
  ArrayRef<int64_t> size = layout.layout().getDeviceSize();
  SmallVector<int64_t, 8> coord(size.size(), 0);
  int64_t sticks = layout.layout().numSticks();
  for (int64_t s = 0; s < sticks; ++s) {
    f(s, ArrayRef<int64_t>(coord));
    for (int d = static_cast<int>(size.size()) - 2; d >= 0; --d) {
      if (++coord[d] < size[d])
        break;
      coord[d] = 0;
    }
  }
}

void Machine::tagRealSticks(const BoundLayout &layout, Memory &memory,
                            int64_t base, int32_t id) {
  int64_t stick = layout.layout().stickBytes();
  forEachStick(layout, [&](int64_t s, ArrayRef<int64_t> coord) {
    if (!layout.isPadding(coord))
      memory.setTag(base + s * stick, id);
  });
}

llvm::Error Machine::checkRealSticks(const BoundLayout &layout,
                                     const Memory &memory, int64_t base,
                                     int32_t id, StringRef what) const {
  int64_t stick = layout.layout().stickBytes();
  std::string error;
  forEachStick(layout, [&](int64_t s, ArrayRef<int64_t> coord) {
    if (!error.empty() || layout.isPadding(coord))
      return;
    int32_t tag = memory.tagAt(base + s * stick);
    if (tag == id)
      return;
    error =
        llvm::formatv("{0}: stick {1} (device {2}) at byte {3} of {4} {5}",
                      what, s, formatList(coord), base + s * stick, memory.name,
                      tag == 0 ? std::string("was never written")
                               : "holds " + nameOf(tag).str() + " instead")
            .str();
  });
  if (!error.empty())
    return llvm::createStringError(error);
  return llvm::Error::success();
}
