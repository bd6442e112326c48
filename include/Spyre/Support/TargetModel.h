//===- TargetModel.h - The modelled Spyre machine ---------------*- C++ -*-===//
//
// Every machine number in one place. The `#spyre.target` attribute carries
// these values in the IR (its defaults are this struct's defaults); passes,
// cost models, emitters and the simulator read them from here and never spell
// a stick size, core count or scratchpad size themselves.
//
// Defaults follow the reference stack (spyre_facts.md section 7). The clock is
// not public: 1 GHz is this project's model default, and the per-cycle unit
// throughputs are derived from the cost model's peak (98.304 TFLOP/s per card
// = 32 cores x 2 corelets x 768 MAC/cycle x 2 FLOP x 1 GHz).
//
//===----------------------------------------------------------------------===//

#ifndef SPYRE_SUPPORT_TARGETMODEL_H
#define SPYRE_SUPPORT_TARGETMODEL_H

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace mlir::spyre {

struct TargetModel {
  /// Cores per card; each runs the same program on its slice (SPMD).
  int64_t cores = 32;
  /// Corelets per core, each with a PT array and an SFP unit.
  int64_t corelets = 2;
  /// Bytes per stick: the unit of every DDR <-> LX transfer and SIMD op.
  int64_t stickBytes = 128;
  /// LX scratchpad bytes per core.
  int64_t lxBytes = 2 * 1024 * 1024;
  /// Fraction of LX reserved for the backend compiler.
  double lxReservedFraction = 0.2;
  /// Aggregate DDR bandwidth in GB/s (1e9 bytes per second).
  double ddrGBps = 204.8;
  /// DDR capacity in bytes.
  int64_t ddrBytes = int64_t(128) * 1024 * 1024 * 1024;
  /// DDR address segment per kernel argument.
  int64_t segmentBytes = int64_t(16) * 1024 * 1024 * 1024;
  /// Address range one core can reach for one tensor.
  int64_t spanBytes = 256 * 1024 * 1024;
  /// Core clock in GHz.
  double clockGHz = 1.0;
  /// PT (systolic array) multiply-accumulates per cycle per corelet.
  int64_t ptMacsPerCycle = 768;
  /// Rows of A one PT pass streams through the array; tiles with fewer rows
  /// per core than `ptRows * ptFillPasses` do not reach the peak (the
  /// reference cost model's efficiency curve, see peakFraction).
  int64_t ptRows = 8;
  /// PT passes needed to amortise filling and draining the array.
  int64_t ptFillPasses = 8;
  /// SFP sticks processed per cycle per corelet.
  int64_t sfpSticksPerCycle = 1;
  /// Bytes per cycle one core's DMA engine moves between DDR and LX (a model
  /// default: four cores saturate the DDR).
  int64_t dmaBytesPerCycle = 64;
  /// Ring bytes per cycle per direction between neighbouring cores.
  int64_t ringBytesPerCycle = 128;
  /// Cycles a core spends per tile step issuing its transfers and
  /// synchronising with its units (a model default): what makes bigger
  /// tiles worth having.
  int64_t tileOverheadCycles = 100;
  /// Largest trip count of one hardware loop.
  int64_t maxLoopCount = 65535;
  /// Host <-> card bandwidth in GB/s, for transfers between host segments
  /// and device kernels (a model default: PCIe Gen5 x8). Function arguments
  /// and results are taken to be resident in device memory.
  double hostLinkGBps = 32.0;
  /// DDR address segments one bundle (the kernels run as one unit, with one
  /// segment binding) may bind: the intermediate pool, when the function has
  /// one, and one per host-visible tensor. torch-spyre's default: 7 segment
  /// offsets, one kept back, so at most 6 tensors (5 beside a pool).
  int64_t bundleSegments = 6;
  /// The ops (SuperDSC op function names, without a `nonstick` suffix)
  /// whose outputs may stay in LX between kernels; any other output goes
  /// through DDR. torch-spyre's OP_OUTPUT_GOOD_FOR_LX_REUSE (`amax` is
  /// Inductor's name for `max`).
  std::vector<std::string> lxResidentOps = {"max", "amax", "sum", "exp",  "sub",
                                            "mul", "mean", "add", "rsqrt"};

  /// Whether the output of op function `opFunc` may stay in LX.
  bool mayStayInLx(std::string_view opFunc) const {
    std::string_view base = opFunc;
    constexpr std::string_view suffix = "nonstick";
    if (base.size() > suffix.size() &&
        base.substr(base.size() - suffix.size()) == suffix)
      base.remove_suffix(suffix.size());
    return std::find(lxResidentOps.begin(), lxResidentOps.end(), base) !=
           lxResidentOps.end();
  }

  /// LX bytes per core the compiler may allocate.
  int64_t usableLxBytes() const {
    return static_cast<int64_t>(
        std::floor(static_cast<double>(lxBytes) * (1.0 - lxReservedFraction)));
  }
  double clockHz() const { return clockGHz * 1e9; }
  /// DDR bytes per second (all cores together).
  double ddrBytesPerSecond() const { return ddrGBps * 1e9; }
  /// DMA bytes per second of one core when `active` cores share the DDR.
  double coreDmaBytesPerSecond(int64_t active) const {
    return std::min(static_cast<double>(dmaBytesPerCycle) * clockHz(),
                    ddrBytesPerSecond() / static_cast<double>(active));
  }
  /// Host <-> card bytes per second.
  double hostLinkBytesPerSecond() const { return hostLinkGBps * 1e9; }
  /// Ring bytes per second per direction.
  double ringBytesPerSecond() const {
    return static_cast<double>(ringBytesPerCycle) * clockHz();
  }
  /// Peak matmul FLOP/s of one core (2 FLOP per MAC).
  double corePeakFlops() const {
    return 2.0 * static_cast<double>(ptMacsPerCycle * corelets) * clockHz();
  }
  /// Peak matmul FLOP/s of `n` cores.
  double peakFlops(int64_t n) const {
    return corePeakFlops() * static_cast<double>(n);
  }
  /// Fraction of the PT peak a tile with `rows` rows of A reaches:
  /// min(1, sqrt(max(1, rows / ptRows) / ptFillPasses)).
  double ptEfficiency(int64_t rows) const {
    double passes =
        std::max(1.0, static_cast<double>(rows) / static_cast<double>(ptRows));
    return std::min(1.0, std::sqrt(passes / static_cast<double>(ptFillPasses)));
  }
  /// SFP sticks per second of one core.
  double coreSfpSticksPerSecond() const {
    return static_cast<double>(sfpSticksPerCycle * corelets) * clockHz();
  }
};

} // namespace mlir::spyre

#endif // SPYRE_SUPPORT_TARGETMODEL_H
