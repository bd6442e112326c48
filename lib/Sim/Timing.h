//===- Timing.h - The timing model and the trace ----------------*- C++ -*-===//
//
// Internal to lib/Sim. Each core has a timeline: its DMA engine and its
// compute unit, the loads of a step overlapping the previous step's compute
// where the tensor is double-buffered. A step computes at the PT or SFP
// rate of the target; transfers run at the core's share of the DDR
// bandwidth, tiles shared by several cores forwarded over the ring. The
// trace records every transfer and step as Chrome trace events, one track
// per core plus one for the kernels.
//
//===----------------------------------------------------------------------===//

#ifndef SPYRE_LIB_SIM_TIMING_H
#define SPYRE_LIB_SIM_TIMING_H

#include "Spyre/Analysis/KernelModel.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"

#include <algorithm>
#include <optional>
#include <utility>

namespace mlir::spyre::sim {

/// When a core's DMA engine and compute unit are next free, and how long
/// each was busy.
struct Timeline {
  double dmaFree = 0, unitFree = 0, prev = 0, prevPrev = 0;
  double dmaBusy = 0, computeBusy = 0;
  /// The store of the last step's double-buffered result tile, not yet
  /// given to the DMA engine: a pipelined core issues the next step's loads
  /// first (they only wait for their buffer), then this store.
  std::optional<std::pair<double, double>> pendingStore; ///< ready, seconds
  double end() const { return std::max(dmaFree, unitFree); }
};

/// Modelled seconds one core spends computing one tile of `problem`.
double stepComputeSeconds(const kernel::Problem &problem,
                          llvm::ArrayRef<int64_t> tile,
                          const TargetModel &target);

/// Chrome trace events (Perfetto, chrome://tracing).
class Trace {
public:
  explicit Trace(bool enabled) : enabled(enabled) {}
  bool isEnabled() const { return enabled; }
  /// A span on `track` (a core, or the kernels' track) from `start` for
  /// `duration` seconds; nothing when tracing is off or it is empty.
  void span(int64_t track, llvm::StringRef name, llvm::StringRef category,
            double start, double duration, llvm::json::Object args = {});
  /// The trace of `cores` cores so far, with track names; clears it.
  llvm::json::Value take(int64_t cores);

private:
  bool enabled;
  llvm::json::Array events;
};

} // namespace mlir::spyre::sim

#endif // SPYRE_LIB_SIM_TIMING_H
