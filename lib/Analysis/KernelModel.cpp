//===- KernelModel.cpp - Work division, tiling and timing of kernels ------===//

#include "Spyre/Analysis/KernelModel.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>
#include <tuple>

using namespace mlir::spyre;
using namespace mlir::spyre::kernel;
using llvm::ArrayRef;
using llvm::SmallVector;

namespace {

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

std::string formatInts(ArrayRef<int64_t> values) {
  std::string out = "[";
  for (auto [i, v] : llvm::enumerate(values))
    out += (i ? ", " : "") + std::to_string(v);
  return out + "]";
}

/// Divisors of n, ascending.
SmallVector<int64_t, 16> divisors(int64_t n) {
  SmallVector<int64_t, 16> low, high;
  for (int64_t i = 1; i * i <= n; ++i) {
    if (n % i)
      continue;
    low.push_back(i);
    if (i != n / i)
      high.push_back(n / i);
  }
  low.append(high.rbegin(), high.rend());
  return low;
}

/// The reference stack's core_split: the largest divisor of `size` that is
/// at most `cores`.
int64_t coreSplit(int64_t size, int64_t cores) {
  for (int64_t i = std::min(size, cores); i > 1; --i)
    if (size % i == 0)
      return i;
  return 1;
}

/// Tile iterations per loop (indexed by op dim).
SmallVector<int64_t, 6> tripCounts(ArrayRef<int64_t> slice,
                                   ArrayRef<int64_t> tiles) {
  SmallVector<int64_t, 6> trips;
  for (auto [s, t] : llvm::zip_equal(slice, tiles))
    trips.push_back(ceilDiv(s, t));
  return trips;
}

/// The op dims `tensor` depends on (more than one position of), as a mask.
uint32_t usedDims(const Tensor &tensor) {
  uint32_t mask = 0;
  for (const TensorDim &d : tensor.dims)
    if (d.opDim >= 0 && d.size > 1)
      mask |= 1u << d.opDim;
  return mask;
}

/// How one core stages a tensor (used op dims `uses`) per launch, walking
/// `trips` tiles per op dim in `order`.
///
/// Streamed, a tensor is staged again each time its tile changes: the
/// product of the trips of every loop up to the innermost one with more
/// than one trip it depends on, in two buffers (one when staged once).
/// Kept (`keep`, inputs only), the tiles it needs inside the outermost loop
/// it does not depend on (outside that innermost one) each have a buffer
/// and are loaded once for all of that loop's iterations (a matmul's A
/// slice over K, kept across the tiles of N, so that each output tile can
/// be stored while the next is computed).
///
/// A tile already in one of the tensor's buffers is not loaded again (the
/// simulator's rule): an input whose tiles inside such a loop fit its
/// buffers, streamed or kept, is loaded once per iteration of the loops
/// outside it.
Staging stagingOf(ArrayRef<int> order, ArrayRef<int64_t> trips, uint32_t uses,
                  bool isResult, bool keep) {
  int last = -1;
  for (auto [pos, d] : llvm::enumerate(order))
    if (trips[d] > 1 && (uses >> d & 1))
      last = static_cast<int>(pos);
  Staging s;
  for (int pos = 0; pos <= last; ++pos)
    s.transfers *= trips[order[pos]];
  s.buffers = s.transfers > 1 ? 2 : 1;
  if (isResult || s.transfers == 1)
    return s;
  // The tiles used inside the loop at `pos`, for each loop the tensor does
  // not depend on, outermost first.
  auto tilesInside = [&](int pos) {
    int64_t tiles = 1;
    for (int inner = pos + 1; inner <= last; ++inner)
      if (uses >> order[inner] & 1)
        tiles *= trips[order[inner]];
    return tiles;
  };
  SmallVector<int, 6> unused;
  for (int pos = 0; pos < last; ++pos)
    if (trips[order[pos]] > 1 && !(uses >> order[pos] & 1))
      unused.push_back(pos);
  if (keep && !unused.empty())
    s.buffers = std::max<int64_t>(s.buffers, tilesInside(unused.front()));
  for (int pos : unused) {
    int64_t inside = tilesInside(pos);
    if (inside > s.buffers)
      continue;
    s.outer = 1;
    for (int outer = 0; outer < pos; ++outer)
      s.outer *= trips[order[outer]];
    s.transfers = s.outer * inside;
    s.passes = s.outer * trips[order[pos]];
    break;
  }
  return s;
}

/// The product of the splits of reduction dims (at most one is split).
int64_t reductionSplit(const Problem &problem, const Division &division) {
  int64_t r = 1;
  for (auto [d, dim] : llvm::enumerate(problem.dims))
    if (dim.reduction)
      r *= division.splits[d];
  return r;
}

/// The ring combine of a split reduction's partial results, per launch:
/// gathered by the partner that stores them ((P - 1) result slices), or,
/// when the result stays in LX, scattered over the partners (each sends
/// and receives P - 1 of the P parts of its slice, all at once).
double combineSeconds(const Problem &problem, const Division &division,
                      const TargetModel &target) {
  int64_t partners = reductionSplit(problem, division);
  if (partners == 1)
    return 0;
  const Tensor &result = problem.result();
  double bytes = static_cast<double>(
      boxSticks(result, sliceSizes(problem, division)) * result.stickBytes);
  if (result.lxResident)
    bytes /= static_cast<double>(partners);
  return static_cast<double>(partners - 1) * bytes /
         target.ringBytesPerSecond();
}

} // namespace

//===----------------------------------------------------------------------===//
// Problem, Tensor, Division
//===----------------------------------------------------------------------===//

int64_t Tensor::numSticks() const {
  int64_t n = 1;
  for (size_t d = 0; d + 1 < dims.size(); ++d)
    n *= dims[d].size;
  return n;
}

bool Tensor::uses(int d) const {
  return llvm::any_of(
      dims, [&](const TensorDim &td) { return td.opDim == d && td.size > 1; });
}

SmallVector<int, 6> Problem::loopOrder() const {
  SmallVector<int, 6> order;
  for (auto [d, dim] : llvm::enumerate(dims))
    if (!dim.reduction)
      order.push_back(static_cast<int>(d));
  for (auto [d, dim] : llvm::enumerate(dims))
    if (dim.reduction)
      order.push_back(static_cast<int>(d));
  return order;
}

int64_t Division::numCores() const {
  int64_t n = 1;
  for (int64_t s : splits)
    n *= s;
  return n;
}

int64_t Division::numChunks() const {
  int64_t n = 1;
  for (int64_t c : chunks)
    n *= c;
  return n;
}

SmallVector<int64_t, 6> Division::sliceOf(int64_t core) const {
  SmallVector<int64_t, 6> slice(splits.size(), 0);
  int64_t inner = 1;
  for (int64_t d : order) {
    slice[d] = (core / inner) % splits[d];
    inner *= splits[d];
  }
  return slice;
}

SmallVector<int64_t, 6> Division::defaultOrder(const Problem &problem,
                                               ArrayRef<int64_t> splits) {
  SmallVector<int64_t, 6> order;
  if (problem.isMatmul()) {
    // K fastest when it is split (the partners of a combine are neighbours).
    if (splits[problem.kDim] > 1)
      order.push_back(problem.kDim);
    for (int d = 0, e = problem.numDims(); d < e; ++d)
      if (!(splits[problem.kDim] > 1 && d == problem.kDim))
        order.push_back(d);
    return order;
  }
  // Otherwise the first SuperDSC label fastest: output dims, then reduced.
  for (int d : problem.loopOrder())
    order.push_back(d);
  return order;
}

Tensor mlir::spyre::kernel::makeTensor(const BoundLayout &bound,
                                       ArrayRef<int> opDims, std::string name,
                                       bool isResult,
                                       ArrayRef<int64_t> divisors) {
  auto divisor = [&](int h) { return divisors.empty() ? 1 : divisors[h]; };
  Tensor tensor;
  tensor.name = std::move(name);
  tensor.isResult = isResult;
  tensor.stickBytes = bound.layout().stickBytes();
  for (auto [d, role] : llvm::enumerate(bound.roles())) {
    TensorDim dim;
    dim.size = bound.layout().getDeviceSize()[d];
    if (role.kind == BoundLayout::DimKind::Piece && opDims[role.hostDim] >= 0) {
      dim.opDim = opDims[role.hostDim];
      dim.multiplier = role.multiplier * divisor(role.hostDim);
    }
    tensor.dims.push_back(dim);
  }
  return tensor;
}

void mlir::spyre::kernel::addGranules(Problem &problem,
                                      const BoundLayout &bound,
                                      ArrayRef<int> opDims,
                                      ArrayRef<int64_t> divisors) {
  auto divisor = [&](int h) { return divisors.empty() ? 1 : divisors[h]; };
  for (int h = 0, e = bound.host().rank(); h < e; ++h) {
    ArrayRef<int> pieces = bound.piecesOf(h);
    if (pieces.empty() || opDims[h] < 0)
      continue;
    int64_t outer = bound.roles()[pieces.back()].multiplier * divisor(h);
    Dim &dim = problem.dims[opDims[h]];
    dim.granule = std::lcm(dim.granule, outer);
  }
  // Transfers move whole sticks: the stick's host dim comes in whole sticks
  // even when the tensor has a single stick along it.
  int stick = bound.layout().deviceRank() - 1;
  const auto &role = bound.roles()[stick];
  if (role.kind == BoundLayout::DimKind::Piece && opDims[role.hostDim] >= 0) {
    Dim &dim = problem.dims[opDims[role.hostDim]];
    int64_t coverage = role.multiplier * divisor(role.hostDim) *
                       bound.layout().getDeviceSize()[stick];
    // A stick of blocks (packed data, tile scales) covering the whole dim
    // forbids splitting it, not more: the dim keeps its extent, rounded to
    // the granules it already has, instead of growing to the stick's reach.
    if (divisor(role.hostDim) > 1 && coverage >= dim.size)
      coverage = (dim.size + dim.granule - 1) / dim.granule * dim.granule;
    dim.granule = std::lcm(dim.granule, coverage);
  }
}

SmallVector<int64_t, 6>
mlir::spyre::kernel::sliceSizes(const Problem &problem,
                                const Division &division) {
  SmallVector<int64_t, 6> slice;
  for (auto [d, dim] : llvm::enumerate(problem.dims))
    slice.push_back(dim.padded() / division.chunks[d] / division.splits[d]);
  return slice;
}

/// The device positions along `dim` of a tensor a core covers when its
/// slice of every op dim starts at `index * slice` (op elements): an
/// inclusive range, nullopt when they are not one (a slice ending inside a
/// device step no finer dim resolves, or wrapping around the dim).
static std::optional<std::pair<int64_t, int64_t>>
deviceRange(const Tensor &tensor, const TensorDim &dim, ArrayRef<int64_t> slice,
            ArrayRef<int64_t> index) {
  if (dim.opDim < 0)
    return std::make_pair(int64_t(0), dim.size - 1);
  int64_t lo = index[dim.opDim] * slice[dim.opDim];
  int64_t hi = lo + slice[dim.opDim];
  // The finest step of the op dim in this tensor: a slice boundary inside
  // one would share a device element between cores. The op dim's padded
  // extent may reach past the tensor's (an operand of another element
  // width): the slice ends where the tensor does.
  int64_t finest = dim.multiplier, reach = 0;
  for (const TensorDim &other : tensor.dims)
    if (other.opDim == dim.opDim) {
      finest = std::min(finest, other.multiplier);
      reach = std::max(reach, other.size * other.multiplier);
    }
  if (lo >= reach)
    return std::nullopt;
  hi = std::min(hi, reach);
  if (lo % finest || hi % finest)
    return std::nullopt;
  int64_t first = lo / dim.multiplier, last = (hi - 1) / dim.multiplier;
  int64_t span = last - first + 1;
  if (span >= dim.size) {
    if (first % dim.size || span % dim.size)
      return std::nullopt;
    return std::make_pair(int64_t(0), dim.size - 1);
  }
  if (first % dim.size > last % dim.size)
    return std::nullopt;
  return std::make_pair(first % dim.size, last % dim.size);
}

bool mlir::spyre::kernel::sameCoreSlices(const Problem &a,
                                         const Division &divisionA,
                                         unsigned tensorA, const Problem &b,
                                         const Division &divisionB,
                                         unsigned tensorB) {
  int64_t cores = divisionA.numCores();
  if (cores != divisionB.numCores() || divisionA.numChunks() > 1 ||
      divisionB.numChunks() > 1 || tensorA >= a.tensors.size() ||
      tensorB >= b.tensors.size())
    return false;
  const Tensor &ta = a.tensors[tensorA];
  const Tensor &tb = b.tensors[tensorB];
  // The same device dims: one tensor, or views of it (a view keeps the
  // device layout and only renames the host dims).
  if (ta.dims.size() != tb.dims.size() || ta.stickBytes != tb.stickBytes ||
      !llvm::all_of(llvm::zip(ta.dims, tb.dims), [](auto pair) {
        return std::get<0>(pair).size == std::get<1>(pair).size;
      }))
    return false;
  SmallVector<int64_t, 6> sliceA = sliceSizes(a, divisionA);
  SmallVector<int64_t, 6> sliceB = sliceSizes(b, divisionB);
  for (int64_t c = 0; c < cores; ++c) {
    SmallVector<int64_t, 6> indexA = divisionA.sliceOf(c);
    SmallVector<int64_t, 6> indexB = divisionB.sliceOf(c);
    for (auto [da, db] : llvm::zip(ta.dims, tb.dims)) {
      auto rangeA = deviceRange(ta, da, sliceA, indexA);
      auto rangeB = deviceRange(tb, db, sliceB, indexB);
      if (!rangeA || !rangeB || *rangeA != *rangeB)
        return false;
    }
  }
  return true;
}

std::optional<SmallVector<int64_t, 6>>
mlir::spyre::kernel::devicePosition(const Tensor &tensor, int64_t bytes) {
  if (tensor.dims.empty() || tensor.stickBytes <= 0 || bytes < 0 ||
      bytes % tensor.stickBytes)
    return std::nullopt;
  int64_t stick = bytes / tensor.stickBytes;
  SmallVector<int64_t, 6> position(tensor.dims.size(), 0);
  for (size_t d = tensor.dims.size() - 1; d-- > 0;) {
    position[d] = stick % tensor.dims[d].size;
    stick /= tensor.dims[d].size;
  }
  if (stick)
    return std::nullopt;
  return position;
}

std::optional<int64_t> mlir::spyre::kernel::residentBoxOffset(
    const Problem &a, const Division &divisionA, unsigned tensorA,
    const Problem &b, const Division &divisionB, unsigned tensorB,
    ArrayRef<int64_t> boxStart) {
  int64_t cores = divisionA.numCores();
  if (cores != divisionB.numCores() || divisionA.numChunks() > 1 ||
      divisionB.numChunks() > 1 || tensorA >= a.tensors.size() ||
      tensorB >= b.tensors.size())
    return std::nullopt;
  const Tensor &ta = a.tensors[tensorA];
  const Tensor &tb = b.tensors[tensorB];
  size_t rank = ta.dims.size();
  if (rank == 0 || tb.dims.size() != rank || boxStart.size() != rank ||
      ta.stickBytes != tb.stickBytes)
    return std::nullopt;
  for (size_t d = 0; d < rank; ++d)
    if (boxStart[d] < 0 || boxStart[d] + tb.dims[d].size > ta.dims[d].size)
      return std::nullopt;
  // Whole sticks: the box starts at a stick and spans the stick dim's
  // elements as the tensor does.
  if (boxStart[rank - 1] != 0 ||
      tb.dims[rank - 1].size != ta.dims[rank - 1].size)
    return std::nullopt;
  SmallVector<int64_t, 6> sliceA = sliceSizes(a, divisionA);
  SmallVector<int64_t, 6> sliceB = sliceSizes(b, divisionB);
  // Each side's LX layout, as --spyre-lower-to-kernels lays a resident
  // slice out: row-major over its box of device dims (sticks).
  SmallVector<int64_t, 8> boxA = boxCounts(ta, sliceA);
  SmallVector<int64_t, 8> boxB = boxCounts(tb, sliceB);
  boxA.pop_back();
  boxB.pop_back();
  SmallVector<int64_t, 6> stridesA = rowMajorStrides(boxA);
  SmallVector<int64_t, 6> stridesB = rowMajorStrides(boxB);
  for (size_t d = 0; d + 1 < rank; ++d)
    if (boxB[d] > 1 && stridesB[d] != stridesA[d])
      return std::nullopt;
  std::optional<int64_t> offset;
  for (int64_t c = 0; c < cores; ++c) {
    SmallVector<int64_t, 6> indexA = divisionA.sliceOf(c);
    SmallVector<int64_t, 6> indexB = divisionB.sliceOf(c);
    int64_t at = 0;
    for (size_t d = 0; d < rank; ++d) {
      auto rangeA = deviceRange(ta, ta.dims[d], sliceA, indexA);
      auto rangeB = deviceRange(tb, tb.dims[d], sliceB, indexB);
      if (!rangeA || !rangeB)
        return std::nullopt;
      int64_t first = boxStart[d] + rangeB->first;
      int64_t last = boxStart[d] + rangeB->second;
      if (first < rangeA->first || last > rangeA->second)
        return std::nullopt;
      if (d + 1 < rank) {
        // (The layout's box is the range the core covers.)
        if (rangeA->second - rangeA->first + 1 != boxA[d] ||
            rangeB->second - rangeB->first + 1 != boxB[d])
          return std::nullopt;
        at += (first - rangeA->first) * stridesA[d];
      }
    }
    if (offset && *offset != at)
      return std::nullopt;
    offset = at;
  }
  return offset;
}

std::optional<Division>
mlir::spyre::kernel::resultDivision(const Problem &problem,
                                    const Division &division) {
  int64_t partners = reductionSplit(problem, division);
  if (partners == 1)
    return division;
  if (division.numChunks() > 1 || !problem.isMatmul())
    return std::nullopt;
  auto split = [&](int64_t d) { return division.splits[d] > 1; };
  auto reduced = llvm::find_if(division.order, [&](int64_t d) {
    return problem.dims[d].reduction && split(d);
  });
  if (division.splits[*reduced] != partners)
    return std::nullopt; // more than one reduction dim split
  // The partners are the digit of the core id just below the next split
  // dim's, so part p of that dim's slice goes to partner p (with no split
  // dim after it, any unsplit parallel dim may take that place).
  auto next = std::find_if(std::next(reduced), division.order.end(), split);
  if (next == division.order.end())
    next = llvm::find_if(division.order, [&](int64_t d) {
      return !problem.dims[d].reduction && !split(d);
    });
  if (next == division.order.end() || problem.dims[*next].reduction)
    return std::nullopt;
  int64_t s = *next;
  if (problem.dims[s].units() % (division.splits[s] * partners))
    return std::nullopt;
  Division scattered = division;
  scattered.splits[s] *= partners;
  scattered.splits[*reduced] = 1;
  scattered.order.clear();
  for (int64_t d : division.order)
    if (d == *reduced)
      scattered.order.push_back(s);
    else if (d != s)
      scattered.order.push_back(d);
  scattered.order.push_back(*reduced);
  return scattered;
}

int64_t mlir::spyre::kernel::residentResultBytes(const Problem &problem,
                                                 const Division &division) {
  std::optional<Division> held = resultDivision(problem, division);
  const Tensor &result = problem.result();
  return boxSticks(result, sliceSizes(problem, held ? *held : division)) *
         result.stickBytes;
}

SmallVector<int64_t, 8>
mlir::spyre::kernel::boxCounts(const Tensor &tensor,
                               ArrayRef<int64_t> extents) {
  SmallVector<int64_t, 8> counts;
  for (const TensorDim &td : tensor.dims) {
    if (td.opDim < 0) {
      counts.push_back(td.size);
      continue;
    }
    counts.push_back(
        std::min(td.size, ceilDiv(extents[td.opDim], td.multiplier)));
  }
  return counts;
}

int64_t mlir::spyre::kernel::boxSticks(const Tensor &tensor,
                                       ArrayRef<int64_t> extents) {
  SmallVector<int64_t, 8> counts = boxCounts(tensor, extents);
  int64_t n = 1;
  for (size_t d = 0; d + 1 < counts.size(); ++d)
    n *= counts[d];
  return n;
}

int64_t mlir::spyre::kernel::perCoreSpan(const Tensor &tensor,
                                         ArrayRef<int64_t> slice) {
  SmallVector<int64_t, 8> counts = boxCounts(tensor, slice);
  size_t last = tensor.dims.size() - 1;
  for (size_t d = 0; d < last; ++d) {
    if (counts[d] <= 1)
      continue;
    int64_t inner = 1;
    for (size_t e = d + 1; e < last; ++e)
      inner *= tensor.dims[e].size;
    return counts[d] * inner * tensor.stickBytes;
  }
  return tensor.stickBytes;
}

//===----------------------------------------------------------------------===//
// Tiling and estimates
//===----------------------------------------------------------------------===//

Staging mlir::spyre::kernel::staging(const Problem &problem,
                                     const Tensor &tensor,
                                     ArrayRef<int64_t> slice,
                                     ArrayRef<int64_t> tiles, bool keep) {
  if (tensor.lxResident)
    return {1, 0};
  return stagingOf(problem.loopOrder(), tripCounts(slice, tiles),
                   usedDims(tensor), tensor.isResult, keep);
}

int64_t mlir::spyre::kernel::stagingBuffers(const Problem &problem,
                                            const Tensor &tensor,
                                            ArrayRef<int64_t> slice,
                                            ArrayRef<int64_t> tiles,
                                            bool keep) {
  return staging(problem, tensor, slice, tiles, keep).buffers;
}

int64_t mlir::spyre::kernel::lxWorkingSet(const Problem &problem,
                                          ArrayRef<int64_t> slice,
                                          ArrayRef<int64_t> tiles, bool keep) {
  int64_t bytes = 0;
  for (const Tensor &t : problem.tensors)
    bytes += stagingBuffers(problem, t, slice, tiles, keep) *
             boxSticks(t, tiles) * t.stickBytes;
  return bytes;
}

namespace {

/// Evaluates tilings of one per-core slice quickly (no allocation per
/// candidate): the tile search calls it thousands of times.
class TileEvaluator {
public:
  TileEvaluator(const Problem &problem, const TargetModel &target,
                const Division &division)
      : problem(problem), target(target), slice(sliceSizes(problem, division)),
        cores(division.numCores()), partners(reductionSplit(problem, division)),
        order(problem.loopOrder()) {
    for (const Tensor &t : problem.tensors) {
      uint32_t mask = usedDims(t);
      uses.push_back(mask);
      // Cores whose slices differ only along dims the tensor does not use
      // share its tiles.
      int64_t group = 1;
      for (auto [d, split] : llvm::enumerate(division.splits))
        if (!(mask >> d & 1))
          group *= split;
      groups.push_back(group);
    }
  }

  struct Result {
    double dmaSeconds = 0, computeSeconds = 0, launchSeconds = 0;
    /// Per core: bytes staged in and stored.
    int64_t loadBytes = 0, storeBytes = 0;
    /// All cores: DDR traffic (shared tiles once per sharing group).
    int64_t ddrBytes = 0;
    /// Per core: bytes its DMA engine moves, and bytes it receives from a
    /// ring neighbour.
    int64_t dmaBytes = 0, ringBytes = 0;
    int64_t lxBytes = 0, steps = 1, maxLoopCount = 0;
    /// Whether keeping inputs changed their staging (see `staging`).
    bool kept = false;
  };

  /// Bytes moved: over the DDR (all cores), by one core's DMA engine, and
  /// received by one core from a ring neighbour.
  struct Bytes {
    int64_t ddr = 0, dma = 0, ring = 0;
    Bytes operator+(const Bytes &o) const {
      return {ddr + o.ddr, dma + o.dma, ring + o.ring};
    }
    Bytes operator-(const Bytes &o) const {
      return {ddr - o.ddr, dma - o.dma, ring - o.ring};
    }
  };
  /// The time `bytes` take: each at its rate, all at once.
  double transferSeconds(const Bytes &bytes) const {
    return std::max(
        {static_cast<double>(bytes.ddr) / target.ddrBytesPerSecond(),
         static_cast<double>(bytes.dma) / target.coreDmaBytesPerSecond(cores),
         static_cast<double>(bytes.ring) / target.ringBytesPerSecond()});
  }

  Result evaluate(ArrayRef<int64_t> tiles, bool keep = false) const {
    Result r;
    int64_t trips[32];
    size_t n = slice.size();
    for (size_t d = 0; d < n; ++d) {
      trips[d] = ceilDiv(slice[d], tiles[d]);
      r.steps *= trips[d];
      r.maxLoopCount = std::max(r.maxLoopCount, trips[d]);
    }
    int64_t maxSticks = 0;
    // The bytes of the first step's loads, of one result tile (the last is
    // stored after the last step), of every load; the result's stores.
    Bytes first, last, loads;
    int64_t stores = 0;
    // Inputs whose tiles stay in their buffers across a loop, with the
    // bytes they load.
    SmallVector<std::pair<Staging, Bytes>, 2> held;
    for (auto [i, t] : llvm::enumerate(problem.tensors)) {
      int64_t sticks = 1;
      for (size_t d = 0; d + 1 < t.dims.size(); ++d) {
        const TensorDim &td = t.dims[d];
        int64_t count =
            td.opDim < 0
                ? td.size
                : std::min(td.size, ceilDiv(tiles[td.opDim], td.multiplier));
        r.maxLoopCount = std::max(r.maxLoopCount, count);
        sticks *= count;
      }
      maxSticks = std::max(maxSticks, sticks);
      if (t.lxResident) {
        // A split reduction accumulates each result tile, and receives its
        // partners' partial tiles, in LX before it scatters the sums.
        if (t.isResult && partners > 1)
          r.lxBytes += 2 * sticks * t.stickBytes;
        continue;
      }
      Staging staged = stagingOf(order, ArrayRef<int64_t>(trips, n), uses[i],
                                 t.isResult, keep);
      if (keep && !t.isResult &&
          staged.buffers != stagingOf(order, ArrayRef<int64_t>(trips, n),
                                      uses[i], false, false)
                                .buffers)
        r.kept = true;
      int64_t tileBytes = sticks * t.stickBytes;
      int64_t bytes = staged.transfers * tileBytes;
      // An input's bytes as its sharing group moves them: the cores take
      // turns loading a tile from DDR and forward it along the ring.
      auto shared = [&](int64_t b) {
        return Bytes{cores / groups[i] * b, b / groups[i], b - b / groups[i]};
      };
      if (staged.passes > 0)
        held.push_back({staged, shared(bytes)});
      if (t.isResult) {
        // Partial results are combined over the ring; the partners take
        // turns storing.
        r.storeBytes += bytes;
        r.ddrBytes += cores / partners * bytes;
        r.dmaBytes += bytes / partners;
        // A split reduction's partial tiles are all combined and stored
        // after the last step.
        int64_t lastBytes = partners > 1 ? bytes : tileBytes;
        last.ddr += cores / partners * lastBytes;
        last.dma += lastBytes / partners;
        stores += partners > 1 ? 1 : staged.transfers;
      } else {
        Bytes moved = shared(bytes), firstTile = shared(tileBytes);
        r.loadBytes += bytes;
        r.ddrBytes += moved.ddr;
        r.dmaBytes += moved.dma;
        r.ringBytes += moved.ring;
        loads = loads + moved;
        first = first + firstTile;
      }
      r.lxBytes += staged.buffers * tileBytes;
      if (t.isResult && partners > 1)
        r.lxBytes += tileBytes;
    }
    // Each core moves its own bytes at its DMA engine's rate or its share
    // of the DDR, and the DDR moves every core's bytes; forwarded tiles
    // arrive over the core's ring link.
    r.dmaSeconds = transferSeconds({r.ddrBytes, r.dmaBytes, r.ringBytes});
    double stepSeconds;
    if (problem.unit == Unit::PT) {
      double points = 1;
      for (size_t d = 0; d < n; ++d)
        points *= static_cast<double>(tiles[d]);
      int64_t rows = problem.mDim >= 0 ? tiles[problem.mDim] : 1;
      stepSeconds =
          points /
          (static_cast<double>(target.ptMacsPerCycle * target.corelets) *
           target.clockHz() * target.ptEfficiency(rows));
      // The dequantized B tile, written as DL16 sticks by the SFP first.
      if (problem.dequantizesB && problem.nDim >= 0 && problem.kDim >= 0) {
        double values = static_cast<double>(tiles[problem.nDim]) *
                        static_cast<double>(tiles[problem.kDim]);
        double perStick = static_cast<double>(
            elemsPerStick(DataFormat::SEN169_FP16, target.stickBytes));
        stepSeconds +=
            std::ceil(values / perStick) / target.coreSfpSticksPerSecond();
      }
    } else {
      stepSeconds =
          static_cast<double>(maxSticks) / target.coreSfpSticksPerSecond();
    }
    r.computeSeconds = stepSeconds * static_cast<double>(r.steps);
    // Double buffering overlaps transfers with compute, one step ahead.
    // When the compute bounds it, the first tiles' load and the last result
    // tile's store are exposed (a matmul storing its whole output after its
    // last K step waits for all of it), and each earlier store delays the
    // next step's load by what one step's compute does not hide; when the
    // transfers do, one step's compute.
    auto per = [](const Bytes &b, int64_t n) {
      return Bytes{b.ddr / n, b.dma / n, b.ring / n};
    };
    double stepLoad = transferSeconds(per(loads, r.steps));
    double storeStalls =
        static_cast<double>(std::max<int64_t>(stores - 1, 0)) *
        std::max(0.0, transferSeconds(last) + stepLoad - stepSeconds);
    if (r.steps == 1)
      r.launchSeconds = r.dmaSeconds + r.computeSeconds;
    else
      r.launchSeconds = std::max(r.dmaSeconds + stepSeconds,
                                 r.computeSeconds + transferSeconds(first) +
                                     transferSeconds(last) + storeStalls);
    // An input whose tiles stay in its buffers across a loop loads them all
    // in that loop's first pass (A's whole slice over K during the first
    // tile of N): that pass waits for them, the others only for the rest.
    for (auto &[staged, bytes] : held) {
      Bytes rest = Bytes{r.ddrBytes, r.dmaBytes, r.ringBytes} - bytes;
      double pass = r.computeSeconds / static_cast<double>(staged.passes);
      Bytes restPass = per(rest, staged.passes);
      Bytes heldPass = per(bytes, staged.outer);
      Bytes firstPass = restPass + heldPass;
      double phases = static_cast<double>(staged.outer) *
                          std::max(transferSeconds(firstPass), pass) +
                      static_cast<double>(staged.passes - staged.outer) *
                          std::max(transferSeconds(restPass), pass) +
                      transferSeconds(last) + storeStalls;
      r.launchSeconds = std::max(r.launchSeconds, phases);
    }
    r.launchSeconds +=
        static_cast<double>(r.steps * target.tileOverheadCycles) /
        target.clockHz();
    return r;
  }

  /// A lower bound of `evaluate(tiles).launchSeconds` over every tiling:
  /// compulsory traffic, the compute at the slice's best efficiency and one
  /// step's overhead.
  double lowerBound() const {
    Result whole = evaluate(slice);
    return std::max(whole.dmaSeconds, whole.computeSeconds) +
           static_cast<double>(target.tileOverheadCycles) / target.clockHz();
  }

  ArrayRef<int64_t> getSlice() const { return slice; }

private:
  const Problem &problem;
  const TargetModel &target;
  SmallVector<int64_t, 6> slice;
  int64_t cores, partners;
  SmallVector<int, 6> order;
  SmallVector<uint32_t, 4> uses;
  SmallVector<int64_t, 4> groups;
};

/// Tiles within `slice` along each dim: granule multiples dividing it.
SmallVector<SmallVector<int64_t, 16>, 6>
tileCandidates(const Problem &problem, ArrayRef<int64_t> slice) {
  SmallVector<SmallVector<int64_t, 16>, 6> options;
  for (auto [d, dim] : llvm::enumerate(problem.dims)) {
    SmallVector<int64_t, 16> values;
    for (int64_t v : divisors(slice[d] / dim.granule))
      values.push_back(v * dim.granule);
    options.push_back(std::move(values));
  }
  return options;
}

/// Which of the tilings within 2% of the fastest `searchTiles` picks.
enum class TileGoal {
  /// The least DDR traffic, then the fewest tile steps (the model's
  /// per-step cost is small: tiny tiles would otherwise win by a hair).
  FewestSteps,
  /// The least LX for staging buffers (room for tensors kept in LX).
  LeastLx,
};

llvm::Expected<Tiling> searchTiles(const Problem &problem,
                                   const TargetModel &target,
                                   const Division &division, int64_t lxBudget,
                                   TileGoal goal) {
  TileEvaluator evaluator(problem, target, division);
  ArrayRef<int64_t> slice = evaluator.getSlice();
  auto options = tileCandidates(problem, slice);
  size_t n = options.size();
  auto feasible = [&](const TileEvaluator::Result &r) {
    return r.lxBytes <= lxBudget && r.maxLoopCount <= target.maxLoopCount;
  };
  // Pick the fastest tiling; within 2% of it, the one `goal` asks for.
  struct Candidate {
    SmallVector<int64_t, 6> tiles;
    TileEvaluator::Result result;
    bool keep = false;
  };
  SmallVector<Candidate, 0> all;
  // Each tiling streamed and, when that changes anything, with its inputs
  // kept.
  auto add = [&](ArrayRef<int64_t> tiles, const TileEvaluator::Result &r) {
    if (feasible(r))
      all.push_back({SmallVector<int64_t, 6>(tiles), r, false});
    TileEvaluator::Result kept = evaluator.evaluate(tiles, /*keep=*/true);
    if (kept.kept && feasible(kept))
      all.push_back({SmallVector<int64_t, 6>(tiles), kept, true});
  };
  double combos = 1;
  for (const auto &o : options)
    combos *= static_cast<double>(o.size());
  if (combos <= 20000) {
    SmallVector<size_t, 6> at(n, 0);
    SmallVector<int64_t, 6> tiles(n);
    while (true) {
      for (size_t d = 0; d < n; ++d)
        tiles[d] = options[d][at[d]];
      add(tiles, evaluator.evaluate(tiles));
      size_t d = 0;
      while (d < n && ++at[d] == options[d].size())
        at[d++] = 0;
      if (d == n)
        break;
    }
  } else {
    // Too many combinations: shrink from the whole slice, one dim at a
    // time to its next divisor, keeping the fastest step.
    SmallVector<size_t, 6> at;
    for (const auto &o : options)
      at.push_back(o.size() - 1);
    SmallVector<int64_t, 6> tiles(n);
    auto load = [&](ArrayRef<size_t> idx) {
      for (size_t d = 0; d < n; ++d)
        tiles[d] = options[d][idx[d]];
      return evaluator.evaluate(tiles);
    };
    TileEvaluator::Result current = load(at);
    while (true) {
      add(tiles, current);
      int best = -1;
      TileEvaluator::Result bestResult;
      for (size_t d = 0; d < n; ++d) {
        if (at[d] == 0)
          continue;
        SmallVector<size_t, 6> next = at;
        --next[d];
        TileEvaluator::Result r = load(next);
        bool better = best < 0 || (feasible(r) && !feasible(bestResult)) ||
                      (feasible(r) == feasible(bestResult) &&
                       (r.launchSeconds < bestResult.launchSeconds ||
                        (r.launchSeconds == bestResult.launchSeconds &&
                         r.lxBytes < bestResult.lxBytes)));
        if (better) {
          best = static_cast<int>(d);
          bestResult = r;
        }
      }
      if (best < 0 || !all.empty())
        break;
      --at[best];
      current = load(at);
    }
  }
  if (all.empty()) {
    SmallVector<int64_t, 6> smallest;
    for (const auto &o : options)
      smallest.push_back(o.front());
    TileEvaluator::Result r = evaluator.evaluate(smallest);
    if (r.lxBytes > lxBudget)
      return llvm::createStringError(llvm::formatv(
          "the smallest tile {0} needs {1} bytes of LX per core, only {2} "
          "are available",
          formatInts(smallest), r.lxBytes, lxBudget));
    // Bigger tiles to shorten the loops do not fit either.
    return llvm::createStringError(llvm::formatv(
        "no tile of the per-core slice {0} both fits the {1} bytes of LX and "
        "keeps every loop and DMA trip count within the limit of {2}",
        formatInts(slice), lxBudget, target.maxLoopCount));
  }
  double fastest = std::numeric_limits<double>::infinity();
  for (const Candidate &c : all)
    fastest = std::min(fastest, c.result.launchSeconds);
  const Candidate *chosen = nullptr;
  for (const Candidate &c : all) {
    if (c.result.launchSeconds > fastest * 1.02)
      continue;
    if (goal == TileGoal::LeastLx) {
      if (!chosen || c.result.lxBytes < chosen->result.lxBytes ||
          (c.result.lxBytes == chosen->result.lxBytes &&
           c.result.steps < chosen->result.steps))
        chosen = &c;
      continue;
    }
    // The least DDR traffic (a reload the compute hides still moves bytes),
    // then the fewest steps, then the fastest.
    auto rank = [](const Candidate &x) {
      return std::make_tuple(x.result.ddrBytes, x.result.steps,
                             x.result.launchSeconds);
    };
    if (!chosen || rank(c) < rank(*chosen))
      chosen = &c;
  }
  Tiling tiling;
  tiling.tiles = chosen->tiles;
  tiling.keep = chosen->keep;
  return tiling;
}

} // namespace

llvm::Expected<Tiling>
mlir::spyre::kernel::chooseTiles(const Problem &problem,
                                 const TargetModel &target,
                                 const Division &division, int64_t lxBudget) {
  return searchTiles(problem, target, division, lxBudget,
                     TileGoal::FewestSteps);
}

int64_t mlir::spyre::kernel::leastStagingBytes(const Problem &problem,
                                               const TargetModel &target,
                                               const Division &division,
                                               const Tiling &tiling,
                                               int64_t lxBudget) {
  int64_t atTiling = estimate(problem, division, tiling, target).lxBytes;
  llvm::Expected<Tiling> least =
      searchTiles(problem, target, division, lxBudget, TileGoal::LeastLx);
  if (!least) {
    llvm::consumeError(least.takeError());
    return atTiling;
  }
  return std::min(atTiling,
                  estimate(problem, division, *least, target).lxBytes);
}

Estimate mlir::spyre::kernel::estimate(const Problem &problem,
                                       const Division &division,
                                       const Tiling &tiling,
                                       const TargetModel &target) {
  Estimate e;
  int64_t chunks = division.numChunks();
  TileEvaluator evaluator(problem, target, division);
  TileEvaluator::Result r = evaluator.evaluate(tiling.tiles, tiling.keep);
  e.dmaSeconds = r.dmaSeconds;
  e.computeSeconds = r.computeSeconds;
  e.steps = r.steps;
  e.combineSeconds = combineSeconds(problem, division, target);
  e.seconds =
      (r.launchSeconds + e.combineSeconds) * static_cast<double>(chunks);
  e.ddrBytes = chunks * r.ddrBytes;
  e.ringBytes = r.ringBytes;
  e.lxBytes = r.lxBytes;
  e.maxLoopCount = std::max(r.maxLoopCount, chunks);
  double points = 1;
  for (const Dim &d : problem.dims)
    points *= static_cast<double>(d.size);
  e.flops = problem.unit == Unit::PT ? 2 * points : points;
  if (e.combineSeconds > std::max(e.dmaSeconds, e.computeSeconds))
    e.bottleneck = "ring";
  else if (e.computeSeconds > e.dmaSeconds)
    e.bottleneck = problem.unit == Unit::PT ? "PT" : "SFP";
  else
    e.bottleneck = "DDR";
  return e;
}

double mlir::spyre::kernel::lowerBound(const Problem &problem,
                                       const Division &division,
                                       const TargetModel &target) {
  TileEvaluator evaluator(problem, target, division);
  return (evaluator.lowerBound() + combineSeconds(problem, division, target)) *
         static_cast<double>(division.numChunks());
}

/// Sticks of `t` the op's iteration space reaches: all of them, except for
/// a box of a larger tensor (an extract's input, an insert's destination).
static int64_t touchedSticks(const Problem &problem, const Tensor &t) {
  SmallVector<int64_t, 6> extents;
  for (const Dim &d : problem.dims)
    extents.push_back(d.padded());
  return std::min(t.numSticks(), boxSticks(t, extents));
}

double mlir::spyre::kernel::roofline(const Problem &problem,
                                     const TargetModel &target, int64_t cores) {
  int64_t bytes = 0;
  for (const Tensor &t : problem.tensors)
    if (!t.lxResident)
      bytes += touchedSticks(problem, t) * t.stickBytes;
  double ddr = static_cast<double>(bytes) / target.ddrBytesPerSecond();
  return std::max(ddr, computeFloor(problem, target, cores));
}

double mlir::spyre::kernel::computeFloor(const Problem &problem,
                                         const TargetModel &target,
                                         int64_t cores) {
  if (problem.unit == Unit::PT) {
    double macs = 1;
    for (const Dim &d : problem.dims)
      macs *= static_cast<double>(d.size);
    return macs / (static_cast<double>(target.ptMacsPerCycle) *
                   static_cast<double>(target.corelets) *
                   static_cast<double>(cores) * target.clockHz());
  }
  int64_t sticks = 0;
  for (const Tensor &t : problem.tensors)
    sticks = std::max(sticks, touchedSticks(problem, t));
  return static_cast<double>(sticks) /
         (target.coreSfpSticksPerSecond() * static_cast<double>(cores));
}

//===----------------------------------------------------------------------===//
// Division
//===----------------------------------------------------------------------===//

namespace {

Division makeDivision(const Problem &problem, ArrayRef<int64_t> splits,
                      ArrayRef<int64_t> chunks) {
  Division division;
  division.splits.assign(splits.begin(), splits.end());
  division.chunks.assign(chunks.begin(), chunks.end());
  division.order = Division::defaultOrder(problem, splits);
  return division;
}

/// The first tensor whose per-core span exceeds the limit, if any.
const Tensor *spanViolation(const Problem &problem, ArrayRef<int64_t> slice,
                            int64_t limit, int64_t *span = nullptr) {
  for (const Tensor &t : problem.tensors) {
    int64_t s = perCoreSpan(t, slice);
    if (s > limit) {
      if (span)
        *span = s;
      return &t;
    }
  }
  return nullptr;
}

/// The coefficients torch-spyre's matmul planner fit to measured device
/// kernel times (work_division.py, _matmul_split_cost). The machine numbers
/// it also uses (peak MACs, DDR bandwidth, PT rows and passes) come from the
/// target.
struct ReferencePlannerFit {
  /// Cores sharing a broadcast before it contends for bandwidth.
  static constexpr double kCohortLimit = 8;
  /// Microseconds per output element per K-split ring hop.
  static constexpr double kPsumPerElementUs = 1.4e-4;
  /// Batch splits cost b^this (fit to bmm sweeps).
  static constexpr double kBatchSplitExponent = 1.4;
  /// Tie-break weight when the per-core M under-fills the PT pipeline.
  static constexpr double kShortMPenaltyUs = 50.0;
};

/// torch-spyre's estimate, in microseconds, of a [B, M, K] @ [B, K, N]
/// matmul split (b, m, n, k) ways: compute derated for short per-core M,
/// DDR traffic with a broadcast-cohort penalty, the K-split ring hops, a
/// tie-break against short M, all times a super-linear batch penalty.
double referenceMatmulCost(const TargetModel &target, double elementBytes,
                           int64_t B, int64_t b, int64_t M, int64_t m,
                           int64_t N, int64_t n, int64_t K, int64_t k) {
  using Fit = ReferencePlannerFit;
  double cores = static_cast<double>(b * m * n * k);
  double peakMacsPerUs = static_cast<double>(target.ptMacsPerCycle) *
                         static_cast<double>(target.corelets) *
                         target.clockHz() / 1e6;
  double rows = static_cast<double>(target.ptRows);
  double passesTarget = static_cast<double>(target.ptFillPasses);
  double passes = std::max(1.0, static_cast<double>(M / m) / rows);
  double efficiency = std::min(1.0, std::sqrt(passes / passesTarget));
  double macs = static_cast<double>(B) * static_cast<double>(M) *
                static_cast<double>(N) * static_cast<double>(K);
  double compute = macs / cores / (peakMacsPerUs * efficiency);
  double bytes =
      (static_cast<double>(B) * M * K + static_cast<double>(B) * K * N +
       static_cast<double>(B) * M * N) *
      elementBytes;
  double ddr =
      bytes / (target.ddrGBps * 1000) *
      std::max(1.0, static_cast<double>(std::max(m, n)) / Fit::kCohortLimit);
  double psum = static_cast<double>(std::max<int64_t>(0, k - 1)) *
                static_cast<double>(B) * M * N * Fit::kPsumPerElementUs;
  double shortM = passes >= passesTarget ? 0.0
                                         : std::log2(passesTarget / passes) *
                                               Fit::kShortMPenaltyUs;
  return (compute + ddr + psum + shortM) *
         std::pow(static_cast<double>(b), Fit::kBatchSplitExponent);
}

/// torch-spyre's pass 2 (_cost_model_matmul_planner): for a matmul whose
/// result is sticked on N, with one M (the row dim only the left operand
/// has), batch dims both operands have and one K, the cheapest split by
/// referenceMatmulCost over the divisors of B, M, N's and K's sticks, or
/// nothing where that planner declines.
std::optional<SmallVector<int64_t, 6>>
referenceMatmulSplits(const Problem &problem, ArrayRef<int64_t> units,
                      int64_t maxCores, const TargetModel &target) {
  if (!problem.isMatmul() || problem.mDim < 0 || problem.nDim < 0 ||
      problem.tensors.size() != 3)
    return std::nullopt;
  const Tensor &result = problem.result();
  if (result.dims.empty() || result.dims.back().opDim != problem.nDim)
    return std::nullopt;
  SmallVector<int, 6> batch;
  for (int d = 0, e = problem.numDims(); d < e; ++d) {
    if (d == problem.mDim || d == problem.nDim || d == problem.kDim)
      continue;
    if (problem.dims[d].reduction)
      return std::nullopt; // a second reduction dim
    // A batch dim of one operand only (a shared weight): declined.
    if (!problem.tensors[0].uses(d) || !problem.tensors[1].uses(d))
      return std::nullopt;
    batch.push_back(d);
  }
  const Dim &nDim = problem.dims[problem.nDim];
  double elementBytes = static_cast<double>(result.stickBytes) /
                        static_cast<double>(std::max<int64_t>(1, nDim.granule));
  int64_t B = 1;
  for (int d : batch)
    B *= units[d];
  int64_t M = problem.dims[problem.mDim].padded();
  int64_t N = nDim.padded();
  int64_t K = problem.dims[problem.kDim].padded();

  std::optional<SmallVector<int64_t, 6>> best;
  double bestCost = std::numeric_limits<double>::infinity();
  SmallVector<int64_t, 6> splits(problem.numDims(), 1);
  // Batch combinations first (the first batch dim slowest), then m, n, k by
  // ascending divisors: the reference's enumeration order, so ties resolve
  // alike.
  std::function<void(size_t, int64_t)> visitBatch = [&](size_t i, int64_t b) {
    if (i < batch.size()) {
      for (int64_t s : divisors(units[batch[i]])) {
        splits[batch[i]] = s;
        visitBatch(i + 1, b * s);
      }
      splits[batch[i]] = 1;
      return;
    }
    for (int64_t m : divisors(units[problem.mDim]))
      for (int64_t n : divisors(units[problem.nDim]))
        for (int64_t k : divisors(units[problem.kDim])) {
          if (b * m * n * k > maxCores)
            continue;
          double cost =
              referenceMatmulCost(target, elementBytes, B, b, M, m, N, n, K, k);
          if (cost < bestCost) {
            bestCost = cost;
            best = splits;
            (*best)[problem.mDim] = m;
            (*best)[problem.nDim] = n;
            (*best)[problem.kDim] = k;
          }
        }
  };
  visitBatch(0, 1);
  return best;
}

/// The reference stack's greedy split (work_division.py): span splits first,
/// then, for a matmul no span limit split, the cheapest split by its cost
/// model unless that uses fewer cores, else the result's dims by decreasing
/// extent and one reduction dim.
llvm::Expected<SmallVector<int64_t, 6>>
greedySplits(const Problem &problem, int64_t maxCores, ArrayRef<int64_t> chunks,
             const TargetModel &target) {
  int64_t spanLimit = target.spanBytes;
  int n = problem.numDims();
  SmallVector<int64_t, 6> units;
  for (auto [d, dim] : llvm::enumerate(problem.dims))
    units.push_back(dim.units() / chunks[d]);
  auto product = [](ArrayRef<int64_t> v) {
    int64_t p = 1;
    for (int64_t x : v)
      p *= x;
    return p;
  };
  auto sliceFor = [&](ArrayRef<int64_t> splits) {
    SmallVector<int64_t, 6> slice;
    for (int d = 0; d < n; ++d)
      slice.push_back(units[d] / splits[d] * problem.dims[d].granule);
    return slice;
  };

  // Pass 1: splits the span limit forces, tensor by tensor, outer dims first.
  SmallVector<int64_t, 6> committed(n, 1);
  for (const Tensor &t : problem.tensors) {
    if (perCoreSpan(t, sliceFor(committed)) <= spanLimit)
      continue;
    for (size_t dd = 0; dd + 1 < t.dims.size(); ++dd) {
      int v = t.dims[dd].opDim;
      if (v < 0 || units[v] <= 1)
        continue;
      int64_t bestWithin = 0, bestWithinSpan = -1;
      int64_t bestAbove = 0,
              bestAboveSpan = std::numeric_limits<int64_t>::max();
      for (int64_t s : divisors(units[v])) {
        if (s < committed[v])
          continue;
        SmallVector<int64_t, 6> trial = committed;
        trial[v] = s;
        if (product(trial) > maxCores)
          continue;
        int64_t span = perCoreSpan(t, sliceFor(trial));
        if (span <= spanLimit && span > bestWithinSpan) {
          bestWithin = s;
          bestWithinSpan = span;
        } else if (span > spanLimit && span < bestAboveSpan) {
          bestAbove = s;
          bestAboveSpan = span;
        }
      }
      if (bestWithin)
        committed[v] = bestWithin;
      else if (bestAbove)
        committed[v] = bestAbove;
      else
        break;
      if (perCoreSpan(t, sliceFor(committed)) <= spanLimit)
        break;
      if (boxCounts(t, sliceFor(committed))[dd] > 1)
        break;
    }
  }
  int reductionSplits = 0;
  for (int d = 0; d < n; ++d)
    if (problem.dims[d].reduction && committed[d] > 1)
      ++reductionSplits;
  if (reductionSplits > 1)
    return llvm::createStringError(llvm::formatv(
        "the span limit of {0} bytes needs {1} reduction dims split, but at "
        "most one can be",
        spanLimit, reductionSplits));

  // Pass 3: the result's dims by decreasing extent, then one reduction dim.
  int64_t left = maxCores / product(committed);
  SmallVector<int64_t, 6> splits = committed;
  SmallVector<int, 6> outputDims, reductionDims;
  for (int d = 0; d < n; ++d) {
    if (committed[d] > 1)
      continue;
    (problem.result().uses(d) ? outputDims : reductionDims).push_back(d);
  }
  if (reductionSplits)
    reductionDims.clear();
  auto bySize = [&](int a, int b) { return units[a] > units[b]; };
  std::stable_sort(outputDims.begin(), outputDims.end(), bySize);
  std::stable_sort(reductionDims.begin(), reductionDims.end(), bySize);
  for (int d : outputDims) {
    if (left <= 1)
      break;
    int64_t s = coreSplit(units[d], left);
    if (s > 1) {
      splits[d] = s;
      left /= s;
    }
  }
  if (!reductionDims.empty() && left > 1) {
    int best = -1;
    int64_t bestSplit = 1;
    for (int d : reductionDims) {
      int64_t s = coreSplit(units[d], left);
      if (s > bestSplit) {
        best = d;
        bestSplit = s;
      }
    }
    if (best >= 0)
      splits[best] = bestSplit;
  }
  // Pass 2, for a matmul the span limit did not split: the cost model's
  // choice, unless it uses fewer cores than pass 3's.
  if (product(committed) == 1)
    if (std::optional<SmallVector<int64_t, 6>> planned =
            referenceMatmulSplits(problem, units, maxCores, target))
      if (product(*planned) >= product(splits))
        return *planned;
  return splits;
}

/// Every split vector: divisors of each dim's units, at most `maxCores`
/// cores, at most one reduction dim split.
void enumerateSplits(const Problem &problem, ArrayRef<int64_t> chunks,
                     int64_t maxCores,
                     llvm::function_ref<void(ArrayRef<int64_t>)> visit) {
  int n = problem.numDims();
  SmallVector<SmallVector<int64_t, 16>, 6> options;
  for (int d = 0; d < n; ++d)
    options.push_back(divisors(problem.dims[d].units() / chunks[d]));
  SmallVector<int64_t, 6> splits(n, 1);
  std::function<void(int, int64_t, bool)> rec = [&](int d, int64_t cores,
                                                    bool reductionSplit) {
    if (d == n) {
      visit(splits);
      return;
    }
    for (int64_t s : options[d]) {
      if (cores * s > maxCores)
        break;
      bool isReduction = problem.dims[d].reduction && s > 1;
      if (isReduction && reductionSplit)
        continue;
      splits[d] = s;
      rec(d + 1, cores * s, reductionSplit || isReduction);
    }
    splits[d] = 1;
  };
  rec(0, 1, false);
}

/// Whether `a` beats `b`: faster in the model. Ties keep the earlier
/// candidate, so the greedy split (tried first) stands unless the model
/// finds something faster.
bool better(const Plan &a, const Plan &b) {
  return a.estimate.seconds < b.estimate.seconds * (1 - 1e-9);
}

/// The best plan for fixed chunks, or an error explaining why none exists.
/// With `near`, also every plan within `slack` of the best (the best first).
llvm::Expected<Plan> bestPlan(const Problem &problem, const TargetModel &target,
                              int64_t maxCores, Policy policy,
                              ArrayRef<int64_t> chunks, int64_t lxBudget,
                              double slack = 0,
                              std::vector<Plan> *near = nullptr) {
  auto greedy = greedySplits(problem, maxCores, chunks, target);
  if (!greedy)
    return greedy.takeError();
  llvm::Expected<Plan> greedyPlan = planDivision(
      problem, target, makeDivision(problem, *greedy, chunks), lxBudget);
  if (policy == Policy::Greedy)
    return greedyPlan;

  std::optional<Plan> best;
  std::string firstError;
  if (greedyPlan)
    best = *greedyPlan;
  else
    firstError = llvm::toString(greedyPlan.takeError());
  // Every feasible split, most promising first; stop once no remaining
  // split can beat the best even in its lower bound.
  SmallVector<std::pair<double, Division>, 0> candidates;
  enumerateSplits(problem, chunks, maxCores, [&](ArrayRef<int64_t> splits) {
    Division division = makeDivision(problem, splits, chunks);
    if (spanViolation(problem, sliceSizes(problem, division), target.spanBytes))
      return;
    candidates.push_back({lowerBound(problem, division, target), division});
  });
  llvm::stable_sort(candidates, [](const auto &a, const auto &b) {
    return a.first < b.first;
  });
  std::vector<Plan> planned;
  for (const auto &[bound, division] : candidates) {
    if (best && bound >= best->estimate.seconds * (1 + slack - 1e-9))
      break;
    llvm::Expected<Plan> plan =
        planDivision(problem, target, division, lxBudget);
    if (!plan) {
      if (firstError.empty())
        firstError = llvm::toString(plan.takeError());
      else
        llvm::consumeError(plan.takeError());
      continue;
    }
    if (near)
      planned.push_back(*plan);
    if (!best || better(*plan, *best))
      best = std::move(*plan);
  }
  if (!best)
    return llvm::createStringError(firstError);
  if (near) {
    near->push_back(*best);
    for (Plan &plan : planned)
      if (plan.division.splits != best->division.splits &&
          plan.estimate.seconds <= best->estimate.seconds * (1 + slack))
        near->push_back(std::move(plan));
  }
  return *best;
}

} // namespace

llvm::Expected<Plan>
mlir::spyre::kernel::planDivision(const Problem &problem,
                                  const TargetModel &target,
                                  const Division &division, int64_t lxBudget) {
  int reductionSplits = 0;
  for (auto [d, dim] : llvm::enumerate(problem.dims)) {
    int64_t parts = division.splits[d] * division.chunks[d];
    if (dim.units() % parts)
      return llvm::createStringError(llvm::formatv(
          "dim {0} ({1} granules of {2}) does not divide into {3} parts", d,
          dim.units(), dim.granule, parts));
    if (dim.reduction && division.splits[d] > 1)
      ++reductionSplits;
  }
  if (reductionSplits > 1)
    return llvm::createStringError(
        "at most one reduction dim can be split across cores");
  SmallVector<int64_t, 6> slice = sliceSizes(problem, division);
  int64_t span = 0;
  if (const Tensor *t = spanViolation(problem, slice, target.spanBytes, &span))
    return llvm::createStringError(llvm::formatv(
        "{0} would span {1} bytes per core with splits {2}{3}, more than the "
        "per-core limit of {4} bytes",
        t->name, span, formatInts(division.splits),
        division.numChunks() > 1 ? " and chunks " + formatInts(division.chunks)
                                 : std::string(),
        target.spanBytes));
  if (division.numChunks() > target.maxLoopCount)
    return llvm::createStringError(
        llvm::formatv("{0} chunks exceed the loop-count limit of {1}",
                      division.numChunks(), target.maxLoopCount));
  // A result asked to stay in LX that a split reduction cannot scatter
  // over the partners, or that chunked launches produce, is stored after
  // all (--spyre-plan-memory keeps neither): costed so.
  std::optional<Problem> stored;
  if (problem.result().lxResident &&
      (division.numChunks() > 1 || !resultDivision(problem, division))) {
    stored = problem;
    stored->tensors.back().lxResident = false;
  }
  const Problem &costed = stored ? *stored : problem;
  llvm::Expected<Tiling> tiling =
      chooseTiles(costed, target, division, lxBudget);
  if (!tiling)
    return tiling.takeError();
  Plan plan;
  plan.division = division;
  plan.tiling = *tiling;
  plan.estimate = estimate(costed, division, *tiling, target);
  return plan;
}

std::vector<Plan> mlir::spyre::kernel::nearBestPlans(const Problem &problem,
                                                     const TargetModel &target,
                                                     int64_t maxCores,
                                                     int64_t lxBudget,
                                                     double slack) {
  std::vector<Plan> near;
  SmallVector<int64_t, 6> noChunks(problem.numDims(), 1);
  llvm::Expected<Plan> best = bestPlan(problem, target, maxCores, Policy::Model,
                                       noChunks, lxBudget, slack, &near);
  if (!best) {
    llvm::consumeError(best.takeError());
    return {};
  }
  return near;
}

llvm::Expected<Plan>
mlir::spyre::kernel::divide(const Problem &problem, const TargetModel &target,
                            int64_t maxCores, Policy policy, int64_t lxBudget,
                            const Division *preferred,
                            const Problem *preferredProblem) {
  int n = problem.numDims();
  SmallVector<int64_t, 6> noChunks(n, 1);
  llvm::Expected<Plan> plan =
      bestPlan(problem, target, maxCores, policy, noChunks, lxBudget);
  if (plan && preferred && policy == Policy::Model &&
      preferred->numCores() <= maxCores) {
    llvm::Expected<Plan> wanted =
        planDivision(preferredProblem ? *preferredProblem : problem, target,
                     *preferred, lxBudget);
    if (!wanted)
      llvm::consumeError(wanted.takeError());
    else if (wanted->estimate.seconds <=
             plan->estimate.seconds * (1 + kPreferenceSlack))
      return wanted;
  }
  if (plan)
    return plan;
  std::string reason = llvm::toString(plan.takeError());

  // One launch cannot do it: cut the op into sequential chunks along one
  // parallel dim, as few as possible.
  std::optional<Plan> best;
  SmallVector<std::pair<int64_t, int>, 16> candidates;
  for (int d = 0; d < n; ++d) {
    if (problem.dims[d].reduction)
      continue;
    for (int64_t c : divisors(problem.dims[d].units()))
      if (c > 1)
        candidates.push_back({c, d});
  }
  llvm::sort(candidates);
  int64_t bestChunks = 0;
  for (auto [c, d] : candidates) {
    if (bestChunks && c > bestChunks)
      break;
    SmallVector<int64_t, 6> chunks = noChunks;
    chunks[d] = c;
    llvm::Expected<Plan> chunked =
        bestPlan(problem, target, maxCores, policy, chunks, lxBudget);
    if (!chunked) {
      llvm::consumeError(chunked.takeError());
      continue;
    }
    if (!best || better(*chunked, *best))
      best = std::move(*chunked);
    bestChunks = c;
  }
  if (best)
    return *best;
  return llvm::createStringError(reason);
}

llvm::Expected<Plan> mlir::spyre::kernel::planWithSplits(
    const Problem &problem, const TargetModel &target, int64_t maxCores,
    ArrayRef<int64_t> splits, int64_t lxBudget) {
  int n = problem.numDims();
  if (static_cast<int>(splits.size()) != n)
    return llvm::createStringError(
        llvm::formatv("has {0} splits, the op has {1} dims", splits.size(), n));
  SmallVector<int, 6> reductions;
  int64_t cores = 1;
  for (int d = 0; d < n; ++d) {
    if (splits[d] < 1)
      return llvm::createStringError(
          llvm::formatv("split {0} of dim {1} must be positive", splits[d], d));
    const Dim &dim = problem.dims[d];
    if (dim.units() % splits[d]) {
      if (dim.granule > 1)
        return llvm::createStringError(llvm::formatv(
            "dim {0} ({1} elements, {2} sticks) is not evenly divisible by "
            "split {3}",
            d, dim.size, dim.units(), splits[d]));
      return llvm::createStringError(llvm::formatv(
          "dim {0} of size {1} is not evenly divisible by split {2}", d,
          dim.size, splits[d]));
    }
    if (problem.dims[d].reduction && splits[d] > 1)
      reductions.push_back(d);
    cores *= splits[d];
  }
  if (reductions.size() > 1)
    return llvm::createStringError(llvm::formatv(
        "splits {0} reduction dims ({1}), but at most one can be split",
        reductions.size(),
        llvm::join(llvm::map_range(reductions,
                                   [](int d) { return std::to_string(d); }),
                   ", ")));
  if (cores > maxCores)
    return llvm::createStringError(llvm::formatv(
        "uses {0} cores, more than the {1} available", cores, maxCores));
  SmallVector<int64_t, 6> noChunks(n, 1);
  return planDivision(problem, target, makeDivision(problem, splits, noChunks),
                      lxBudget);
}
