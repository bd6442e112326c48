//===- KernelRunner.cpp - One spyre.kernel on the modelled cores ----------===//
//
// The driver of one kernel: for each launch (chunk) and each core, the core
// walks its slice tile by tile exactly as the kernel's attributes say. Per
// tile it stages the inputs whose tile changed (Staging.cpp), computes
// (Compute.cpp) and, at the end of the reduction, stores the result tile;
// partial results of a split reduction are combined over the ring and
// stored by the partner with the first slice. Timing.cpp turns the traffic
// and the steps into modelled time and the trace.
//
//===----------------------------------------------------------------------===//

#include "KernelRunner.h"
#include "Compute.h"
#include "Staging.h"
#include "Timing.h"

#include "Spyre/Dialect/Spyre/IR/KernelForm.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/FormatVariadic.h"

#include <limits>
#include <map>

using namespace mlir;
using namespace mlir::spyre;
using namespace mlir::spyre::sim;

namespace {

/// Partial results of a split reduction for one result tile.
struct Partial {
  std::vector<float> acc;
  int64_t leader = -1;
  SmallVector<int64_t, 6> region;
  int64_t contributions = 0;
  /// The core of each partner (its slice index along the split reduction
  /// dim), -1 until it contributes.
  SmallVector<int64_t, 8> members;
};

/// What one launch moved, and its partial results.
struct LaunchState {
  SmallVector<int64_t, 6> chunkAt;
  std::vector<Timeline> timelines;
  /// Ownership of the result's DDR sticks in this launch.
  std::vector<int32_t> owner;
  std::map<SmallVector<int64_t, 6>, Partial> partials;
  int64_t ddrBytes = 0, ringBytes = 0;
};

} // namespace

namespace mlir::spyre::sim {

class KernelExecution {
public:
  KernelExecution(KernelRunner &runner, KernelOp kernel)
      : runner(runner), machine(runner.machine), target(runner.target),
        kernel(kernel), stager(kernel, runner.machine, runner.target, tile) {}

  llvm::Error prepare();
  llvm::Error launch(int64_t chunk, KernelStats &stats);

  double clockBase = 0;

private:
  /// The op coordinate where `core`'s slice starts in this launch.
  SmallVector<int64_t, 6> sliceStart(int64_t core, const LaunchState &launch);
  llvm::Error runCore(int64_t core, LaunchState &launch);
  llvm::Error storeTile(int64_t core, ArrayRef<int64_t> region,
                        ArrayRef<int64_t> sliceStart, int64_t &stores,
                        std::vector<float> &acc, double ready, double storeRate,
                        LaunchState &launch);
  /// Gives the core's pending store to its DMA engine.
  void flushStore(int64_t core, LaunchState &launch);
  llvm::Error combinePartials(LaunchState &launch, double &combineSeconds);
  /// The combine of a result that stays in LX: a reduce-scatter, each
  /// partner keeping its part (kernel::resultDivision).
  llvm::Error scatterPartials(LaunchState &launch, double &combineSeconds);
  void span(int64_t core, StringRef name, StringRef category, double start,
            double duration) {
    runner.trace.span(core, name, category, clockBase + start, duration);
  }

  KernelRunner &runner;
  Machine &machine;
  const TargetModel &target;
  KernelOp kernel;
  Operation *payload = nullptr;
  Semantics semantics;
  kernel::Problem problem;
  kernel::Division division;
  SmallVector<int64_t, 6> size, padded, slice, tile, trips;
  SmallVector<bool, 6> reduction;
  SmallVector<int, 6> loopOrder;
  std::vector<Operand> operands; ///< inputs, then the result
  int64_t cores = 1, partners = 1, numDims = 0;
  /// The split reduction dim (-1: none).
  int64_t splitReduction = -1;
  Stager stager;
  std::optional<TileCompute> tileCompute;
  /// Per operand, the DDR bytes the current core's transfers reach.
  std::vector<Reach> reach;
  double rate = 0, ringRate = 0, stepSeconds = 0;
};

} // namespace mlir::spyre::sim

llvm::Error KernelExecution::prepare() {
  payload = kernel.getPayload();
  std::string reason;
  FailureOr<Semantics> s = semanticsOf(payload, reason);
  if (failed(s))
    return fail(kernel, reason);
  semantics = *s;
  FailureOr<kernel::Problem> p = getKernelProblem(payload, reason);
  if (failed(p))
    return fail(kernel, reason);
  problem = std::move(*p);
  division = getKernelDivision(kernel);
  auto info = cast<KernelPayloadOpInterface>(payload);
  numDims = static_cast<int64_t>(info.getNumLoops());
  cores = kernel.getNumCores();
  for (int64_t d = 0; d < numDims; ++d) {
    KernelDimAttr dim = kernel.getDim(d);
    size.push_back(dim.getSize());
    padded.push_back(dim.getPadded());
    slice.push_back(dim.getSlice());
    tile.push_back(dim.getTile());
    trips.push_back(dim.getTrips());
    reduction.push_back(dim.getReduction());
    if (dim.getReduction() && dim.getSplit() > 1) {
      partners *= dim.getSplit();
      splitReduction = d;
    }
  }
  // Parallel dims outermost, reduction dims innermost.
  for (int64_t d = 0; d < numDims; ++d)
    if (!reduction[d])
      loopOrder.push_back(static_cast<int>(d));
  for (int64_t d = 0; d < numDims; ++d)
    if (reduction[d])
      loopOrder.push_back(static_cast<int>(d));

  if (semantics.kind == Kind::Reduce || semantics.kind == Kind::Exx2) {
    int d = semantics.reducedDim;
    if (padded[d] > size[d] && !semantics.mask)
      return fail(
          kernel,
          llvm::formatv("reduces over {0} padding positions of dim {1} without "
                        "a padding_value; the result would include whatever "
                        "the padding holds (run --spyre-insert-padding)",
                        padded[d] - size[d], d));
  }
  llvm::Expected<std::vector<Operand>> bound = bindOperands(
      kernel, info.getIndexingMapsArray(), tile, division, machine, target);
  if (!bound)
    return bound.takeError();
  operands = std::move(*bound);
  tileCompute.emplace(semantics, operands, tile, problem);
  rate = target.coreDmaBytesPerSecond(cores);
  ringRate = target.ringBytesPerSecond();
  stepSeconds =
      stepComputeSeconds(problem, tile, target) +
      static_cast<double>(target.tileOverheadCycles) / target.clockHz();
  return llvm::Error::success();
}

SmallVector<int64_t, 6> KernelExecution::sliceStart(int64_t core,
                                                    const LaunchState &launch) {
  SmallVector<int64_t> at = kernel.getSliceOf(core);
  SmallVector<int64_t, 6> start(numDims);
  for (int64_t d = 0; d < numDims; ++d)
    start[d] = (launch.chunkAt[d] * division.splits[d] + at[d]) * slice[d];
  return start;
}

/// The result tile: scatter into LX, then store it to DDR (unless the
/// result stays in LX), checking no two cores write the same sticks.
llvm::Error KernelExecution::storeTile(int64_t core, ArrayRef<int64_t> region,
                                       ArrayRef<int64_t> sliceStart,
                                       int64_t &stores, std::vector<float> &acc,
                                       double ready, double storeRate,
                                       LaunchState &launch) {
  const Operand &out = operands.back();
  float padFill =
      semantics.padValue ? static_cast<float>(*semantics.padValue) : 0.0f;
  if (!machine.modelOnly)
    tileCompute->finalize(acc, size);
  if (out.resident) {
    SmallVector<int64_t, 8> origin = stager.boxStart(out, sliceStart);
    return stager.scatter(out, core, region, out.access.getBase(), origin, acc,
                          padFill);
  }
  int64_t buffer = out.access.getLxOffsets()[stores % out.buffers];
  ++stores;
  SmallVector<int64_t, 8> origin = stager.boxStart(out, region);
  if (llvm::Error error =
          stager.scatter(out, core, region, buffer, origin, acc, padFill))
    return error;
  int64_t address = out.access.getBase() + out.access.getCoreOffsets()[core];
  for (int64_t d = 0; d < numDims; ++d) {
    address +=
        (region[d] - sliceStart[d]) / tile[d] * out.access.getTileSteps()[d];
    if (!out.access.getChunkSteps().empty())
      address += launch.chunkAt[d] * out.access.getChunkSteps()[d];
  }
  int64_t bytes = 0;
  if (llvm::Error error = stager.dma(out, core, address, buffer, region,
                                     /*toLx=*/false, bytes, reach.back()))
    return error;
  // Ownership: no two cores write the same sticks.
  SmallVector<int64_t, 8> counts = stager.boxCounts(out, region);
  ArrayRef<int64_t> ddrStrides = out.access.getDdrStrides();
  std::string error;
  forEachPosition(counts, [&](ArrayRef<int64_t> at) {
    if (!error.empty())
      return;
    int64_t src = address;
    for (size_t d = 0; d < at.size(); ++d)
      src += at[d] * ddrStrides[d];
    int64_t stick =
        (src % target.segmentBytes - out.regionBegin) / out.stickBytes;
    int32_t &o = launch.owner[stick];
    if (o >= 0 && o != core)
      error = llvm::formatv("cores {0} and {1} both write byte {2} of the "
                            "result",
                            o, core, src)
                  .str();
    o = static_cast<int32_t>(core);
  });
  if (!error.empty())
    return fail(kernel, error);
  Timeline &timeline = launch.timelines[core];
  double duration = static_cast<double>(bytes) / storeRate;
  launch.ddrBytes += bytes;
  // A double-buffered tile is stored after the next step's loads are
  // issued (the compute writes the other buffer meanwhile).
  flushStore(core, launch);
  timeline.pendingStore = {ready, duration};
  if (out.buffers < 2)
    flushStore(core, launch);
  return llvm::Error::success();
}

void KernelExecution::flushStore(int64_t core, LaunchState &launch) {
  Timeline &timeline = launch.timelines[core];
  if (!timeline.pendingStore)
    return;
  auto [ready, duration] = *timeline.pendingStore;
  timeline.pendingStore.reset();
  double start = std::max(ready, timeline.dmaFree);
  span(core, "store", "dma", start, duration);
  timeline.dmaFree = start + duration;
  timeline.dmaBusy += duration;
}

/// One core's walk over its slice in this launch.
llvm::Error KernelExecution::runCore(int64_t core, LaunchState &launch) {
  Timeline &timeline = launch.timelines[core];
  SmallVector<int64_t, 6> start = sliceStart(core, launch);
  SmallVector<int64_t> at = kernel.getSliceOf(core);
  bool reductionLeader = true;
  for (int64_t d = 0; d < numDims; ++d)
    if (reduction[d] && at[d] != 0)
      reductionLeader = false;
  reach.assign(operands.size(), {std::numeric_limits<int64_t>::max(), -1});

  unsigned numInputs = operands.size() - 1;
  int inPlace = getInPlaceOperand(kernel);
  std::vector<std::vector<float>> dense(numInputs);
  std::vector<SmallVector<int64_t, 6>> loadedAt(numInputs);
  std::vector<int64_t> loads(numInputs, 0);
  // Per input and staging buffer, the tile it holds (empty: none yet). A
  // tile still in a buffer is read from there, not loaded again (a kept
  // input's tiles, one buffer each: kernel::staging).
  std::vector<std::vector<std::optional<SmallVector<int64_t, 6>>>> held(
      numInputs);
  for (unsigned i = 0; i < numInputs; ++i)
    held[i].resize(std::max<int64_t>(operands[i].buffers, 0));
  std::vector<float> acc;
  int64_t stores = 0;
  float fill =
      (semantics.kind == Kind::Reduce || semantics.kind == Kind::Exx2) &&
              semantics.mask
          ? static_cast<float>(*semantics.mask)
          : 0.0f;
  SmallVector<int64_t, 6> tileAt(numDims, 0);
  for (bool done = false; !done;) {
    SmallVector<int64_t, 6> region(numDims);
    bool firstReduction = true, lastReduction = true;
    for (int64_t d = 0; d < numDims; ++d) {
      region[d] = start[d] + tileAt[d] * tile[d];
      if (reduction[d]) {
        firstReduction &= tileAt[d] == 0;
        lastReduction &= tileAt[d] == trips[d] - 1;
      }
    }
    // Stage every input whose tile changed.
    double loadSeconds = 0;
    bool doubleBuffered = true;
    for (unsigned i = 0; i < numInputs; ++i) {
      if (static_cast<int>(i) == inPlace)
        continue; // written in place, never read
      const Operand &t = operands[i];
      SmallVector<int64_t, 6> key;
      for (int64_t d = 0; d < numDims; ++d)
        if (t.usedMask >> d & 1)
          key.push_back(tileAt[d]);
      if (loads[i] && key == loadedAt[i])
        continue;
      loadedAt[i] = key;
      if (t.resident) {
        SmallVector<int64_t, 8> origin = stager.boxStart(t, start);
        if (llvm::Error error = stager.gather(
                t, core, region, t.access.getBase(), origin, dense[i], fill))
          return error;
        ++loads[i];
        continue;
      }
      // A tile still in a staging buffer is read from there; any other is
      // loaded into the next buffer in turn.
      auto in = llvm::find(held[i], key);
      bool hit = in != held[i].end();
      int64_t slot = hit ? in - held[i].begin() : loads[i] % t.buffers;
      int64_t buffer = t.access.getLxOffsets()[slot];
      if (!hit) {
        held[i][slot] = key;
        doubleBuffered &= t.buffers > 1;
        ++loads[i];
        int64_t address = t.access.getBase() + t.access.getCoreOffsets()[core];
        for (int64_t d = 0; d < numDims; ++d) {
          address += tileAt[d] * t.access.getTileSteps()[d];
          if (!t.access.getChunkSteps().empty())
            address += launch.chunkAt[d] * t.access.getChunkSteps()[d];
        }
        int64_t bytes = 0;
        if (llvm::Error error = stager.dma(t, core, address, buffer, region,
                                           /*toLx=*/true, bytes, reach[i]))
          return error;
        // One core of the sharing group loads it from DDR, in turn; the
        // others receive it over the ring.
        double shared =
            static_cast<double>(bytes) / static_cast<double>(t.group);
        loadSeconds += std::max(
            shared / rate, (static_cast<double>(bytes) - shared) / ringRate);
        launch.ddrBytes += bytes / t.group;
        launch.ringBytes += bytes - bytes / t.group;
      }
      SmallVector<int64_t, 8> origin = stager.boxStart(t, region);
      if (llvm::Error error =
              stager.gather(t, core, region, buffer, origin, dense[i], fill))
        return error;
    }
    double loadStart = std::max(
        timeline.dmaFree, doubleBuffered ? timeline.prevPrev : timeline.prev);
    double loadEnd = loadStart + loadSeconds;
    span(core, "load", "dma", loadStart, loadSeconds);
    timeline.dmaFree = loadEnd;
    timeline.dmaBusy += loadSeconds;
    flushStore(core, launch);
    double computeStart = std::max(loadEnd, timeline.unitFree);
    span(core, payload->getName().getStringRef(),
         problem.unit == kernel::Unit::PT ? "pt" : "sfp", computeStart,
         stepSeconds);
    double computeEnd = computeStart + stepSeconds;
    timeline.unitFree = computeEnd;
    timeline.prevPrev = timeline.prev;
    timeline.prev = computeEnd;
    timeline.computeBusy += stepSeconds;

    if (!machine.modelOnly)
      tileCompute->compute(firstReduction, dense, acc);
    if (lastReduction) {
      if (partners > 1) {
        SmallVector<int64_t, 6> key;
        for (int64_t d = 0; d < numDims; ++d)
          key.push_back(reduction[d] ? 0 : region[d]);
        Partial &partial = launch.partials[key];
        if (partial.acc.empty()) {
          partial.acc = acc;
          partial.region = region;
        } else {
          for (size_t x = 0; x < acc.size(); ++x) {
            float &a = partial.acc[x];
            a = semantics.kind == Kind::Reduce
                    ? combine(semantics.combiner, a, acc[x])
                    : a + acc[x];
          }
        }
        ++partial.contributions;
        partial.members.resize(partners, -1);
        partial.members[at[splitReduction] % partners] = core;
        if (reductionLeader) {
          partial.leader = core;
          partial.region = region;
        }
      } else if (llvm::Error error = storeTile(core, region, start, stores, acc,
                                               computeEnd, rate, launch)) {
        return error;
      }
    }
    // Next tile: parallel dims outermost, reduction dims innermost.
    int pos = static_cast<int>(loopOrder.size()) - 1;
    for (; pos >= 0; --pos) {
      int d = loopOrder[pos];
      if (++tileAt[d] < trips[d])
        break;
      tileAt[d] = 0;
    }
    done = pos < 0;
  }
  flushStore(core, launch);
  for (auto [i, range] : llvm::enumerate(reach))
    if (range.second >= 0 && range.second - range.first > target.spanBytes)
      return fail(
          kernel,
          llvm::formatv("core {0} reaches {1} bytes of {2} (DDR [{3}, {4})), "
                        "more than the per-core span of {5}",
                        core, range.second - range.first, operands[i].name,
                        range.first, range.second, target.spanBytes));
  return llvm::Error::success();
}

/// Partial results of a split reduction: combined over the ring, stored by
/// the partner with the first slice. Only those partners store then, so
/// they share the DDR bandwidth among themselves, not with every core.
llvm::Error KernelExecution::combinePartials(LaunchState &launch,
                                             double &combineSeconds) {
  const Operand &out = operands.back();
  if (launch.partials.empty())
    return llvm::Error::success();
  if (out.resident)
    return scatterPartials(launch, combineSeconds);
  llvm::SmallDenseSet<int64_t, 32> leaders;
  for (auto &entry : launch.partials)
    leaders.insert(entry.second.leader);
  double storeRate = target.coreDmaBytesPerSecond(
      std::max<int64_t>(1, static_cast<int64_t>(leaders.size())));
  for (auto &[key, partial] : launch.partials) {
    if (partial.leader < 0)
      return fail(kernel,
                  "a split reduction has no partner holding the first slice");
    int64_t core = partial.leader;
    Timeline &timeline = launch.timelines[core];
    int64_t tileBytes =
        kernel::boxSticks(problem.result(), tile) * out.stickBytes;
    double ring = static_cast<double>((partners - 1) * tileBytes) / ringRate;
    double start = timeline.end();
    span(core, "combine", "ring", start, ring);
    combineSeconds += ring;
    launch.ringBytes += (partners - 1) * tileBytes;
    timeline.unitFree = start + ring;
    int64_t stores = 0;
    reach.assign(operands.size(), {std::numeric_limits<int64_t>::max(), -1});
    if (llvm::Error error =
            storeTile(core, partial.region, sliceStart(core, launch), stores,
                      partial.acc, start + ring, storeRate, launch))
      return error;
    flushStore(core, launch);
  }
  return llvm::Error::success();
}

llvm::Error KernelExecution::scatterPartials(LaunchState &launch,
                                             double &combineSeconds) {
  const Operand &out = operands.back();
  std::optional<kernel::Division> held =
      kernel::resultDivision(problem, division);
  if (!held)
    return fail(kernel, "keeps the result of a split reduction in LX, but "
                        "its partners cannot scatter it "
                        "(kernel::resultDivision)");
  // The dim the partners' parts go along: the one whose split grew.
  int64_t s = 0;
  while (s < numDims && (held->splits[s] == division.splits[s] || reduction[s]))
    ++s;
  if (s == numDims)
    return fail(kernel, "a split reduction's scattered result has no dim "
                        "for the partners' parts");
  int64_t part = slice[s] / partners;
  float padFill =
      semantics.padValue ? static_cast<float>(*semantics.padValue) : 0.0f;
  // Each partner sends and receives P - 1 of the P parts of a tile.
  int64_t tileBytes =
      kernel::boxSticks(problem.result(), tile) * out.stickBytes;
  double ring = static_cast<double>((partners - 1) * tileBytes) /
                static_cast<double>(partners) / ringRate;
  for (auto &[key, partial] : launch.partials) {
    if (llvm::is_contained(partial.members, -1))
      return fail(kernel, "a split reduction is missing a partner's partial "
                          "result");
    if (!machine.modelOnly)
      tileCompute->finalize(partial.acc, size);
    double start = 0;
    for (int64_t core : partial.members)
      start = std::max(start, launch.timelines[core].end());
    combineSeconds += ring;
    launch.ringBytes += (partners - 1) * tileBytes;
    for (auto [p, core] : llvm::enumerate(partial.members)) {
      span(core, "combine", "ring", start, ring);
      launch.timelines[core].unitFree = start + ring;
      // The part of this tile in partner p's part of the slice.
      SmallVector<int64_t, 6> owned = sliceStart(core, launch);
      owned[s] += static_cast<int64_t>(p) * part;
      int64_t lo = std::max(partial.region[s], owned[s]);
      int64_t hi = std::min(partial.region[s] + tile[s], owned[s] + part);
      if (lo >= hi)
        continue;
      SmallVector<int64_t, 6> pieceTile(tile), pieceRegion(partial.region);
      pieceTile[s] = hi - lo;
      pieceRegion[s] = lo;
      Operand piece = out;
      setDenseTile(piece, pieceTile);
      // The piece's box, as --spyre-lower-to-kernels boxes a tile.
      SmallVector<int64_t, 8> box =
          kernel::boxCounts(problem.result(), pieceTile);
      box.pop_back();
      AccessAttr a = out.access;
      piece.access = AccessAttr::get(a.getContext(), a.getMem(), a.getBase(),
                                     a.getCoreOffsets(), a.getTileSteps(),
                                     a.getChunkSteps(), box, a.getDdrStrides(),
                                     a.getLxStrides(), a.getLxOffsets());
      std::vector<float> dense;
      if (!partial.acc.empty()) {
        dense.assign(piece.slots * piece.denseSize, 0.0f);
        SmallVector<int64_t, 6> counts(numDims, 1);
        for (int64_t d = 0; d < numDims; ++d)
          if (out.usedMask >> d & 1)
            counts[d] = pieceTile[d];
        forEachPosition(counts, [&](ArrayRef<int64_t> at) {
          int64_t from = (lo - partial.region[s]) * out.denseStride[s], to = 0;
          for (int64_t d = 0; d < numDims; ++d) {
            from += at[d] * out.denseStride[d];
            to += at[d] * piece.denseStride[d];
          }
          for (int64_t k = 0; k < out.slots; ++k)
            dense[k * piece.denseSize + to] =
                partial.acc[k * out.denseSize + from];
        });
      }
      Stager pieceStager(kernel, machine, target, pieceTile);
      if (llvm::Error error = pieceStager.scatter(
              piece, core, pieceRegion, a.getBase(),
              pieceStager.boxStart(piece, owned), dense, padFill))
        return error;
    }
  }
  return llvm::Error::success();
}

llvm::Error KernelExecution::launch(int64_t chunk, KernelStats &stats) {
  LaunchState launch;
  // The chunk's index along each dim (row-major, last dim fastest).
  launch.chunkAt.assign(numDims, 0);
  int64_t rest = chunk;
  for (int64_t d = numDims - 1; d >= 0; --d) {
    int64_t chunks = kernel.getDim(d).getChunks();
    launch.chunkAt[d] = rest % chunks;
    rest /= chunks;
  }
  launch.timelines.resize(cores);
  const Operand &out = operands.back();
  if (!out.resident)
    launch.owner.assign((out.regionEnd - out.regionBegin) / out.stickBytes, -1);

  for (int64_t core = 0; core < cores; ++core)
    if (llvm::Error error = runCore(core, launch))
      return error;
  double combineSeconds = 0;
  if (llvm::Error error = combinePartials(launch, combineSeconds))
    return error;

  double seconds = 0, dma = 0, computeBusy = 0;
  for (const Timeline &t : launch.timelines) {
    seconds = std::max(seconds, t.end());
    dma = std::max(dma, t.dmaBusy);
    computeBusy = std::max(computeBusy, t.computeBusy);
  }
  seconds = std::max(seconds, static_cast<double>(launch.ddrBytes) /
                                  target.ddrBytesPerSecond());
  runner.trace.span(
      target.cores, kernel.getName(), "kernel", clockBase, seconds,
      llvm::json::Object{
          {"cores", cores}, {"ddr_bytes", launch.ddrBytes}, {"chunk", chunk}});
  clockBase += seconds;
  stats.seconds += seconds;
  stats.dmaSeconds += dma;
  stats.computeSeconds += computeBusy;
  stats.combineSeconds += combineSeconds;
  stats.ddrBytes += launch.ddrBytes;
  stats.ringBytes += launch.ringBytes;
  stats.launches += 1;
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// KernelRunner
//===----------------------------------------------------------------------===//

llvm::Error KernelRunner::run(KernelOp kernel) {
  KernelExecution execution(*this, kernel);
  if (llvm::Error error = execution.prepare())
    return error;
  KernelStats k;
  k.name = kernel.getName().str();
  Operation *payload = kernel.getPayload();
  k.opFunc = getSuperDscOpFunc(payload);
  auto info = cast<KernelPayloadOpInterface>(payload);
  bool pt = info.getExecutionUnit() == ExecutionUnit::PT;
  k.unit = pt ? "pt" : "sfp";
  k.cores = kernel.getNumCores();
  execution.clockBase = clock;
  for (int64_t chunk = 0, e = kernel.getNumChunks(); chunk < e; ++chunk)
    if (llvm::Error error = execution.launch(chunk, k))
      return error;
  clock = execution.clockBase;
  std::string reason;
  FailureOr<kernel::Problem> problem = getKernelProblem(payload, reason);
  if (succeeded(problem)) {
    for (unsigned i = 0, e = kernel.getNumInputs() + 1; i < e; ++i)
      // (getKernelProblem marks a destination written in place already.)
      problem->tensors[i].lxResident |= kernel.getAccess(i).isResident();
    double points = 1;
    for (int64_t r : info.getStaticLoopRanges())
      points *= static_cast<double>(r);
    k.flops = pt ? 2 * points : points;
    k.roofline = kernel::roofline(*problem, target, target.cores);
    k.computeFloor = kernel::computeFloor(*problem, target, target.cores);
  }
  double top = std::max({k.dmaSeconds, k.computeSeconds, k.combineSeconds});
  k.bottleneck = top == k.combineSeconds && top > 0 ? "ring"
                 : top == k.computeSeconds          ? (pt ? "PT" : "SFP")
                                                    : "DDR";
  stats.seconds += k.seconds;
  stats.ddrBytes += k.ddrBytes;
  stats.flops += k.flops;
  stats.roofline += k.roofline;
  // The program's work is what it computes: copies and restickifies are
  // the plan's, not the program's (a plan that adds copies must not raise
  // its own bound).
  if (!info.isDataMovement())
    stats.computeFloor += k.computeFloor;
  stats.kernels.push_back(std::move(k));
  return llvm::Error::success();
}

void KernelRunner::recordTransfer(StringRef what, int64_t bytes) {
  TransferStats transfer;
  transfer.what = what.str();
  transfer.bytes = bytes;
  transfer.seconds =
      static_cast<double>(bytes) / target.hostLinkBytesPerSecond();
  trace.span(target.cores + 1, what, "host link", clock, transfer.seconds,
             llvm::json::Object{{"bytes", bytes}});
  clock += transfer.seconds;
  stats.seconds += transfer.seconds;
  stats.transfers.push_back(std::move(transfer));
}

void KernelRunner::recordHostSegment(const HostSegmentStats &segment) {
  trace.span(target.cores + 1, segment.name, "host (wall time)", clock,
             segment.runSeconds);
  stats.hostSegments.push_back(segment);
}

llvm::json::Value KernelRunner::takeTrace() { return trace.take(target.cores); }
