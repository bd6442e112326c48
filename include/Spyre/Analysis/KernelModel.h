//===- KernelModel.h - Work division, tiling and timing of kernels -*- C++
//-*-===//
//
// A kernel is one compute op run SPMD on a number of cores. Its iteration
// space (the op dims) is split evenly across cores; each core walks its slice
// in tiles that fit its LX scratchpad, staging tiles of every tensor between
// DDR and LX in whole sticks, and writes its part of the result back.
//
// This header is the plain C++ model of that, independent of MLIR:
//
//   Problem     the op dims (extent, stick granule, parallel/reduction) and,
//               per tensor, which op dim each device dim steps;
//   Division    splits per op dim, the core-id -> slice mixed radix, and the
//               sequential chunks an op is cut into when one launch cannot
//               respect the per-core span limit;
//   Tiling      the per-core tile of every op dim, and whether inputs keep
//               the tiles they need across loops they do not depend on;
//   Staging     how often a tensor moves between DDR and LX, in how many
//               buffers (a tile still in one is not loaded again);
//   Estimate    the modelled time of the kernel and its resources: DDR
//               traffic at the shared bandwidth (a tile several cores need
//               is loaded once and forwarded along the ring), PT/SFP
//               throughput (PT efficiency from the tile's rows),
//               double-buffered overlap one step ahead (the first load, the
//               last store and stores the next step cannot hide exposed),
//               the ring combine of split reductions (gathered and stored,
//               or, for a result kept in LX, scattered over the partners:
//               resultDivision gives which part each keeps).
//
// `divide` chooses a division by minimising the modelled time over every
// feasible split (the "model" policy) or reproduces the reference stack's
// greedy policy; both respect the span and loop-count limits or fail with
// a reason. Every machine number comes from the TargetModel.
//
//===----------------------------------------------------------------------===//

#ifndef SPYRE_ANALYSIS_KERNELMODEL_H
#define SPYRE_ANALYSIS_KERNELMODEL_H

#include "Spyre/Layout/Layout.h"
#include "Spyre/Support/TargetModel.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mlir::spyre::kernel {

enum class Unit { SFP, PT };

/// One device dim of a tensor as the kernel walks it.
struct TensorDim {
  int64_t size = 1;       ///< device extent
  int opDim = -1;         ///< the op dim it steps, -1 if none
  int64_t multiplier = 1; ///< op-dim elements per +1 step
};

/// One operand or the result of a kernel.
struct Tensor {
  std::string name;            ///< for diagnostics: "operand 0", "result"
  std::vector<TensorDim> dims; ///< outermost first; the last is the stick
  int64_t stickBytes = 128;
  bool isResult = false;
  /// Lives in LX for the whole kernel (no DDR traffic, no staging buffer).
  bool lxResident = false;

  int64_t numSticks() const;
  int64_t bytes() const { return numSticks() * stickBytes; }
  /// Whether the tensor's position depends on op dim `d`.
  bool uses(int d) const;
};

/// One op dim.
struct Dim {
  int64_t size = 1;    ///< logical extent
  int64_t granule = 1; ///< splits and tiles are multiples (whole sticks)
  bool reduction = false;

  int64_t padded() const { return (size + granule - 1) / granule * granule; }
  /// The stick-adjusted extent splits must divide.
  int64_t units() const { return padded() / granule; }
};

struct Problem {
  std::vector<Dim> dims;
  std::vector<Tensor> tensors; ///< inputs, then the result (last)
  Unit unit = Unit::SFP;
  /// Matmul roles (op dims), -1 when not a matmul; batch dims are the rest.
  int mDim = -1, nDim = -1, kDim = -1;
  /// The scaled matmul: each step, the SFP dequantizes B's tile (n by k)
  /// into DL16 sticks before the PT multiplies it.
  bool dequantizesB = false;

  bool isMatmul() const { return kDim >= 0; }
  const Tensor &result() const { return tensors.back(); }
  int numDims() const { return static_cast<int>(dims.size()); }
  /// Parallel op dims in order, then reduction dims: the per-core loop
  /// order (outermost first).
  llvm::SmallVector<int, 6> loopOrder() const;
};

struct Division {
  llvm::SmallVector<int64_t, 6> splits; ///< slices per op dim
  /// Op dims from the fastest-varying digit of the core id to the slowest.
  llvm::SmallVector<int64_t, 6> order;
  llvm::SmallVector<int64_t, 6> chunks; ///< sequential launches per op dim

  int64_t numCores() const;
  int64_t numChunks() const;
  /// The slice index of core `core` along every op dim.
  llvm::SmallVector<int64_t, 6> sliceOf(int64_t core) const;
  /// The reference mapping, the first fastest: a matmul's dims in order
  /// (its k dim first when split, so partial-sum partners are ring
  /// neighbours); any other op's output dims, then its reduced dims, the
  /// order of its SuperDSC labels (Inductor's).
  static llvm::SmallVector<int64_t, 6>
  defaultOrder(const Problem &problem, llvm::ArrayRef<int64_t> splits);
};

/// The kernel view of a laid-out tensor: the device dims of `bound`, where
/// host dim h steps op dim `opDims[h]` (-1: none, e.g. a size-1 dim), one
/// host element covering `divisors[h]` op-dim elements (default 1; packed
/// data and tile scales cover several).
Tensor makeTensor(const BoundLayout &bound, llvm::ArrayRef<int> opDims,
                  std::string name, bool isResult,
                  llvm::ArrayRef<int64_t> divisors = {});

/// Raises the granule of every op dim some host dim of `bound` steps to the
/// multiplier of that host dim's outermost device dim (whole sticks for the
/// stick dim), so splits and tiles cover whole device positions.
void addGranules(Problem &problem, const BoundLayout &bound,
                 llvm::ArrayRef<int> opDims,
                 llvm::ArrayRef<int64_t> divisors = {});

/// Whether two divided ops give every core the same device positions of a
/// tensor they share: tensor `tensorA` of `a` (inputs, then the result) and
/// `tensorB` of `b`, the same tensor or views of it (the same device dims,
/// each op reaching them through its own host dims). False when the
/// tensors' device dims differ or a core's part is not a box of them.
bool sameCoreSlices(const Problem &a, const Division &divisionA,
                    unsigned tensorA, const Problem &b,
                    const Division &divisionB, unsigned tensorB);

/// The device position (one index per dim of `tensor`, the last the
/// element in its stick) `bytes` into the tensor's device memory (row-major
/// over its device dims); nullopt past its end or inside a stick.
std::optional<llvm::SmallVector<int64_t, 6>>
devicePosition(const Tensor &tensor, int64_t bytes);

/// Where each core finds its slice of tensor `tensorB` of `b` inside its LX
/// slice of tensor `tensorA` of `a`, as `a` leaves it (each core's slice
/// row-major over its box of device dims), when B is a box of A starting at
/// device position `boxStart` of A's device dims (B's device dims are A's,
/// each as long or shorter): the offset in sticks from the slice's start.
/// Nullopt unless every core's part of the box lies inside its own slice, at
/// the same offset on every core, and is laid out with the slice's strides
/// along every dim it spans (so that one LX address and B's own strides
/// reach it on every core), and each side's range on every core is the box
/// its layout has.
std::optional<int64_t>
residentBoxOffset(const Problem &a, const Division &divisionA, unsigned tensorA,
                  const Problem &b, const Division &divisionB, unsigned tensorB,
                  llvm::ArrayRef<int64_t> boxStart);

/// Per-core extent (elements, padded) of every op dim in one launch.
llvm::SmallVector<int64_t, 6> sliceSizes(const Problem &problem,
                                         const Division &division);

/// The division whose slices hold the result of `division` when the result
/// stays in LX: `division` itself, unless a reduction dim is split. Then the
/// partners' combine scatters the reduced values over the partners (a
/// reduce-scatter on the ring: each receives one of P equal parts of the
/// group's result slice along one parallel dim), so the reduction's split
/// moves onto that dim: the first after the reduction dim in `order` that is
/// split, or else any unsplit one. Every core keeps its id (partner p of a
/// group holds part p). nullopt when more than one reduction dim is split,
/// the launch is chunked, or that dim's slice does not cut into P parts of
/// whole granules, or the op is not a matmul (an SFP reduction's partners
/// keep storing their combined result).
std::optional<Division> resultDivision(const Problem &problem,
                                       const Division &division);
/// The bytes of the result each core holds in LX when it stays there: its
/// slice of resultDivision (of `division` when that is nullopt).
int64_t residentResultBytes(const Problem &problem, const Division &division);

/// Device extent of every dim of `tensor` covered by a box of `extents` op-dim
/// elements (aligned to the tensor's pieces); dims stepping no op dim are
/// covered whole.
llvm::SmallVector<int64_t, 8> boxCounts(const Tensor &tensor,
                                        llvm::ArrayRef<int64_t> extents);
/// Sticks of `tensor` in such a box.
int64_t boxSticks(const Tensor &tensor, llvm::ArrayRef<int64_t> extents);

/// The address range (bytes) one core reaches in `tensor` when its slice has
/// the given per-op-dim extents: the reference stack's measure - the first
/// device dim (outermost first, the stick excluded) the core covers more than
/// one position of, times everything inside it.
int64_t perCoreSpan(const Tensor &tensor, llvm::ArrayRef<int64_t> slice);

struct Tiling {
  llvm::SmallVector<int64_t, 6> tiles; ///< per op dim, elements
  /// Inputs keep the tiles they need across the loops they do not depend
  /// on (see `staging`) instead of streaming them again.
  bool keep = false;
};

/// How one core stages one tensor per launch.
struct Staging {
  int64_t transfers = 1; ///< DMA transfers between DDR and LX
  int64_t buffers = 1;   ///< LX buffers of one tile each (0: LX-resident)
  /// When its tiles stay in the buffers across a loop it does not depend
  /// on: the iterations of the loops outside that loop (each loads the
  /// tiles, in its first pass), and those times the loop's own (the passes);
  /// 0 otherwise.
  int64_t outer = 0, passes = 0;
};

/// What one core does in one launch, and what it costs.
struct Estimate {
  double seconds = 0; ///< modelled time of the whole op
  /// Per launch: DDR traffic at the shared bandwidth or, for tiles other
  /// cores forward, the ring, whichever takes longer.
  double dmaSeconds = 0;
  double computeSeconds = 0; ///< per launch, per core
  double combineSeconds = 0; ///< ring combine of a split reduction
  int64_t ddrBytes = 0;      ///< DDR traffic of all cores and launches
  int64_t ringBytes = 0;     ///< per core and launch, tiles forwarded to it
  int64_t lxBytes = 0;       ///< per-core LX working set
  int64_t steps = 0;         ///< tile iterations per core per launch
  int64_t maxLoopCount = 0;  ///< largest trip count of any loop or DMA dim
  double flops = 0;          ///< useful work (2 per MAC; 1 per SFP element)
  const char *bottleneck = "DDR";
};

/// How one core stages `tensor` between DDR and LX per launch.
///
/// Streamed, a tensor is staged again each time its tile changes: the
/// product of the tile trip counts of every loop (in loop order) up to the
/// innermost one with more than one trip that it depends on, in two
/// buffers (double buffering; one when it is staged once; none when it is
/// LX-resident). With `keep`, an input keeps the tiles it needs inside the
/// outermost loop it does not depend on, one buffer each, and loads them
/// once for all of that loop's iterations (a matmul's A over K kept across
/// the tiles of N). A tile still in one of the tensor's buffers is never
/// loaded again: that is the simulator's rule, and the count here is exact
/// for it.
Staging staging(const Problem &problem, const Tensor &tensor,
                llvm::ArrayRef<int64_t> slice, llvm::ArrayRef<int64_t> tiles,
                bool keep = false);

/// `staging(...).buffers`.
int64_t stagingBuffers(const Problem &problem, const Tensor &tensor,
                       llvm::ArrayRef<int64_t> slice,
                       llvm::ArrayRef<int64_t> tiles, bool keep = false);

/// The per-core LX bytes of every tensor's staging buffers.
int64_t lxWorkingSet(const Problem &problem, llvm::ArrayRef<int64_t> slice,
                     llvm::ArrayRef<int64_t> tiles, bool keep = false);

/// Tiles for the per-core slice of `division`: the modelled-fastest tiling
/// whose staging buffers fit `lxBudget` and whose loop and DMA trip counts
/// stay within the target's limit (within 2% of the fastest, the one with
/// the fewest tile steps). Tiles are granule multiples dividing the slice.
/// Fails when even one granule per dim does not fit.
llvm::Expected<Tiling> chooseTiles(const Problem &problem,
                                   const TargetModel &target,
                                   const Division &division, int64_t lxBudget);

/// The least LX the staging buffers of `problem` (the tensors it keeps in
/// LX marked `lxResident`: those need none) take: at `tiling`, or at the
/// tiling within 2% of its fastest (within `lxBudget`) that takes the
/// least, whichever is less. Room that a
/// kernel tiled again within it is sure to leave.
int64_t leastStagingBytes(const Problem &problem, const TargetModel &target,
                          const Division &division, const Tiling &tiling,
                          int64_t lxBudget);

/// The modelled cost of running `problem` with a division and tiling.
Estimate estimate(const Problem &problem, const Division &division,
                  const Tiling &tiling, const TargetModel &target);

/// A lower bound of `estimate(problem, division, any tiling, target)`:
/// compulsory traffic and the compute at the slice's best PT efficiency.
double lowerBound(const Problem &problem, const Division &division,
                  const TargetModel &target);

/// The roofline of `problem` on `cores` cores: compulsory DDR traffic (every
/// tensor not resident in LX, once) at the full bandwidth or the work at the
/// peak of the unit, whichever is slower.
double roofline(const Problem &problem, const TargetModel &target,
                int64_t cores);
/// The compute half of the roofline: the work of `problem` at the peak of
/// its unit on `cores` cores (MACs for the PT unit, sticks for the SFP).
double computeFloor(const Problem &problem, const TargetModel &target,
                    int64_t cores);

enum class Policy {
  Model,  ///< minimise the modelled time over every feasible split
  Greedy, ///< the reference stack: span splits, then largest divisors
};

struct Plan {
  Division division;
  Tiling tiling;
  Estimate estimate;
};

/// Chooses how to run `problem` on at most `maxCores` cores with `lxBudget`
/// LX bytes per core. Fails with a reason when the span or loop-count limits
/// cannot be met. With the model policy, a `preferred` division (such as the
/// one matching the producer of an operand, so the intermediate can stay in
/// LX) wins when it is feasible and within `kPreferenceSlack` of the best.
/// The preferred division is costed on `preferredProblem` when given: the
/// same op with the operands that division lets stay in LX marked
/// `lxResident` (they are read from LX only if the consumer's slices match
/// the producer's).
llvm::Expected<Plan> divide(const Problem &problem, const TargetModel &target,
                            int64_t maxCores, Policy policy, int64_t lxBudget,
                            const Division *preferred = nullptr,
                            const Problem *preferredProblem = nullptr);

/// The model policy's one-launch plans whose modelled time is within
/// `slack` (relative) of the best's, the best first; empty when none is
/// feasible. Lets a caller break near-ties by what the division does to
/// other ops (a consumer that could read the result from LX).
std::vector<Plan> nearBestPlans(const Problem &problem,
                                const TargetModel &target, int64_t maxCores,
                                int64_t lxBudget, double slack);

/// How much slower (relative) a preferred division may be and still win.
constexpr double kPreferenceSlack = 0.02;

/// Checks a user's splits (one per op dim) the way the reference stack
/// checks its work-division hints, then tiles and estimates them.
llvm::Expected<Plan> planWithSplits(const Problem &problem,
                                    const TargetModel &target, int64_t maxCores,
                                    llvm::ArrayRef<int64_t> splits,
                                    int64_t lxBudget);

/// Tiles and estimates a complete division; fails when it breaks a limit.
llvm::Expected<Plan> planDivision(const Problem &problem,
                                  const TargetModel &target,
                                  const Division &division, int64_t lxBudget);

} // namespace mlir::spyre::kernel

#endif // SPYRE_ANALYSIS_KERNELMODEL_H
