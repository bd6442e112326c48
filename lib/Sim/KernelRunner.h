//===- KernelRunner.h - The modelled machine and its kernel execution -*- C++ -*-===//
//
// Internal to lib/Sim.
//
//===----------------------------------------------------------------------===//

#ifndef SPYRE_LIB_SIM_KERNELRUNNER_H
#define SPYRE_LIB_SIM_KERNELRUNNER_H

#include "Memory.h"

#include "Spyre/Dialect/Spyre/IR/Spyre.h"
#include "Spyre/Sim/Simulator.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <map>

namespace mlir::spyre::sim {

/// The memories of the modelled machine and the identities of the tensors
/// they hold.
class Machine {
public:
  explicit Machine(const TargetModel &target) : target(target) {}

  Memory pool;
  /// Host-visible buffer `index` (created empty on first use).
  Memory &ioBuffer(int64_t index);
  /// The LX of `core` (allocated on first use).
  Memory &lx(int64_t core);

  /// The id of the buffer `root` is (ids start at 1; 0 means unwritten).
  int32_t idOf(Value root, llvm::StringRef name);
  llvm::StringRef nameOf(int32_t id) const;

  /// Tags every stick of the tensor at `base` in `memory` that holds a real
  /// element (sticks of pure padding stay unwritten).
  void tagRealSticks(const BoundLayout &layout, Memory &memory,
                     int64_t base, int32_t id);
  /// Checks every stick holding a real element carries `id`.
  llvm::Error checkRealSticks(const BoundLayout &layout,
                              const Memory &memory, int64_t base, int32_t id,
                              llvm::StringRef what) const;

private:
  const TargetModel &target;
  std::map<int64_t, Memory> io;
  std::vector<Memory> lxs;
  DenseMap<Value, int32_t> ids;
  std::vector<std::string> names = {"nothing"};
};

/// Runs spyre.kernel ops on a Machine and accumulates statistics and the
/// trace.
class KernelRunner {
public:
  KernelRunner(Machine &machine, const TargetModel &target,
               bool trace)
      : machine(machine), target(target), tracing(trace) {}

  llvm::Error run(KernelOp kernel);

  SimStats takeStats() { return std::move(stats); }
  llvm::json::Value takeTrace();

private:
  friend class KernelExecution;
  Machine &machine;
  const TargetModel &target;
  bool tracing;
  SimStats stats;
  /// Modelled time at which the next kernel starts.
  double clock = 0;
  llvm::json::Array events;
};

} // namespace mlir::spyre::sim

#endif // SPYRE_LIB_SIM_KERNELRUNNER_H
