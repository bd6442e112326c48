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
