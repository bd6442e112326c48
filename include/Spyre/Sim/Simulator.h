//===- Simulator.h - Run the kernel form on a modelled stick machine -*- C++
//-*-===//
//
// Executes a function in kernel form (`--spyre-pipeline` output) on a model
// of the machine `#spyre.target` describes: N cores, each with an LX
// scratchpad, one shared DDR bound to each kernel's address segments, DMA in
// whole sticks following the kernel's access descriptors, SFP and PT compute
// on the staged tiles, partial sums of split reductions combined over the
// ring. It runs exactly what the emitters write, so a wrong division,
// address or descriptor shows up as a wrong number or a reported fault.
//
// Numerics: tensors are stored in their device formats (DL16 modelled as
// IEEE binary16); compute reads them as f32, accumulates in f32 (matmul,
// reductions, across tiles and across cores) and rounds once when it stores
// a result element.
//
// Faults are reported, never silently ignored: LX accesses past the usable
// scratchpad, DMA outside a tensor's bytes, reads of data never written,
// two cores writing the same bytes, a core reaching past the per-core span.
//
// Timing comes from the same target: per core, transfers at its DMA rate
// (the DDR bandwidth shared by the active cores, tiles several cores need
// forwarded over the ring), compute at the PT or SFP rate, loads of the next
// tile overlapping compute where a tensor is double-buffered, a per-step
// overhead, the ring combine of split reductions.
//
//===----------------------------------------------------------------------===//

#ifndef SPYRE_SIM_SIMULATOR_H
#define SPYRE_SIM_SIMULATOR_H

#include "Spyre/Layout/Numerics.h"
#include "Spyre/Sim/HostTensor.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/Support/JSON.h"

#include <string>
#include <vector>

namespace mlir::spyre::sim {

/// What one kernel did, summed over its launches.
struct KernelStats {
  std::string name;
  std::string opFunc;
  std::string unit; ///< "pt" or "sfp"
  int64_t cores = 0;
  int64_t launches = 0;
  double seconds = 0;        ///< modelled time
  double dmaSeconds = 0;     ///< busiest core's transfer time
  double computeSeconds = 0; ///< busiest core's compute time
  double combineSeconds = 0; ///< ring combine of partial results
  int64_t ddrBytes = 0;      ///< DDR traffic of all cores
  int64_t ringBytes = 0;     ///< bytes forwarded between cores
  double flops = 0;          ///< useful work (2 per MAC, 1 per SFP element)
  double roofline = 0;       ///< the target's roofline for this kernel
  double computeFloor = 0;   ///< its work at the peak of its unit
  std::string bottleneck;    ///< "DDR", "PT", "SFP" or "ring"
  double utilisation() const { return seconds > 0 ? roofline / seconds : 0; }
};

/// One run of a host segment (a function --spyre-outline-host-segments
/// made of what the device does not run): host wall time on this machine,
/// not modelled time.
struct HostSegmentStats {
  std::string name;
  double compileSeconds = 0; ///< lowering and JIT compilation
  double runSeconds = 0;
  bool ran = true; ///< false in model-only runs
};

/// One transfer between a host segment and device memory, at the target's
/// host link bandwidth (modelled).
struct TransferStats {
  std::string what; ///< "to_device" or "from_device"
  int64_t bytes = 0;
  double seconds = 0;
};

struct SimStats {
  std::vector<KernelStats> kernels;
  std::vector<HostSegmentStats> hostSegments;
  std::vector<TransferStats> transfers;
  /// Modelled time: kernels and transfers (host segments' wall time is
  /// reported apart).
  double seconds = 0;
  int64_t ddrBytes = 0;
  double flops = 0;
  /// Sum of the kernels' own rooflines (each kernel's tensors moved once):
  /// a bound of this plan, which a plan that spills every intermediate
  /// still meets. Reported as the per-kernel figure only.
  double roofline = 0;
  int64_t cores = 0; ///< the target's
  double utilisation() const { return seconds > 0 ? roofline / seconds : 0; }

  /// The program's own limit: its arguments read once and its results
  /// written once (in their device formats, no padding) at the full DDR
  /// bandwidth, or its kernels' work at the peak of their units, whichever
  /// is longer. Independent of how the plan moves intermediates.
  int64_t compulsoryBytes = 0;
  double computeFloor = 0;
  double programRoofline() const;
  double programUtilisation() const {
    return seconds > 0 ? programRoofline() / seconds : 0;
  }
  /// DDR traffic over the compulsory traffic (1 is the minimum).
  double trafficRatio() const {
    return compulsoryBytes > 0 ? static_cast<double>(ddrBytes) /
                                     static_cast<double>(compulsoryBytes)
                               : 0;
  }
  double ddrBytesPerSecond = 0; ///< the target's
};

/// The version of the --stats-json schema (docs/simulator.md).
constexpr int kStatsSchemaVersion = 2;

struct SimOptions {
  /// Record a Chrome trace (one track per core: transfers and compute).
  bool trace = false;
  /// Run the timing model and every check that needs no values (addresses,
  /// LX capacity and bounds, spans, stale and unwritten sticks, ownership)
  /// without computing values: no inputs are read, no outputs produced,
  /// host segments are not run (their transfers are still modelled).
  bool modelOnly = false;
  /// How the device stores SEN169_FP16 elements: DLFloat16, as the machine
  /// does, or IEEE binary16 (the earlier model, for comparison).
  Sen169Numerics numerics = Sen169Numerics::DLFloat16;
};

struct SimResult {
  std::vector<HostTensor> outputs;
  SimStats stats;
  /// The Chrome trace JSON (`{"traceEvents": [...]}`) when asked for.
  llvm::json::Value trace = nullptr;
};

/// The host type of a function argument or result type; fails for types
/// without one.
FailureOr<HostType> getHostTypeOf(Type type);

/// Runs `function` (kernel form) on `inputs` (one per argument, in order).
/// Errors name the function argument, kernel, core and addresses involved.
llvm::Expected<SimResult> simulate(FunctionOpInterface function,
                                   llvm::ArrayRef<HostTensor> inputs,
                                   const SimOptions &options = {});

/// A readable table of the statistics.
std::string formatStats(const SimStats &stats);
/// The statistics as JSON.
llvm::json::Value statsToJson(const SimStats &stats);

/// `type` as a user wrote it on the host: tensors without their layout.
std::string describeType(Type type);

/// Calls `f(op, name, attr)` for every attribute of a constant in
/// `function` or a function it calls that is a dense_resource whose blob is
/// missing (elided when the program was printed): the data no run can read.
void forEachElidedConstant(
    FunctionOpInterface function,
    llvm::function_ref<void(Operation *, StringAttr, DenseResourceElementsAttr)>
        f);

/// The function to run: `name` if given (it must have a body), else the only
/// public function with a body, else `main`. `function` is null when there
/// is none; `publicFunctions` then says how many were candidates.
struct FunctionChoice {
  func::FuncOp function;
  size_t publicFunctions = 0;
};
FunctionChoice chooseFunction(ModuleOp module, StringRef name);

} // namespace mlir::spyre::sim

#endif // SPYRE_SIM_SIMULATOR_H
