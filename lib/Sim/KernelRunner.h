//===- KernelRunner.h - Runs spyre.kernel ops on the machine ---*- C++ -*-===//
//
// Internal to lib/Sim: the driver of the kernels of a function (one
// KernelRunner per simulation), over the machine's memories (Machine.h),
// summing statistics and the trace.
//
//===----------------------------------------------------------------------===//

#ifndef SPYRE_LIB_SIM_KERNELRUNNER_H
#define SPYRE_LIB_SIM_KERNELRUNNER_H

#include "Machine.h"
#include "Timing.h"

#include "Spyre/Dialect/Spyre/IR/Spyre.h"
#include "Spyre/Sim/Simulator.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

namespace mlir::spyre::sim {

/// Runs spyre.kernel ops on a Machine and accumulates statistics and the
/// trace.
class KernelRunner {
public:
  KernelRunner(Machine &machine, const TargetModel &target, bool trace)
      : machine(machine), target(target), trace(trace) {}

  llvm::Error run(KernelOp kernel);
  /// A transfer of `bytes` between the host and the card at the target's
  /// host link bandwidth: it takes modelled time.
  void recordTransfer(llvm::StringRef what, int64_t bytes);
  /// A host segment that ran for `wallSeconds` on this machine (traced on
  /// the host track; it does not advance the modelled clock).
  void recordHostSegment(const HostSegmentStats &segment);

  SimStats takeStats() { return std::move(stats); }
  llvm::json::Value takeTrace();

private:
  friend class KernelExecution;
  Machine &machine;
  const TargetModel &target;
  Trace trace;
  SimStats stats;
  /// Modelled time at which the next kernel starts.
  double clock = 0;
};

} // namespace mlir::spyre::sim

#endif // SPYRE_LIB_SIM_KERNELRUNNER_H
