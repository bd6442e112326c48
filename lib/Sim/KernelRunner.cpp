//===- KernelRunner.cpp - One spyre.kernel on the modelled cores ----------===//
//
// For each launch (chunk) and each core, the core walks its slice tile by
// tile exactly as the kernel's attributes say: DMA of a tile's sticks from
// DDR (base + the core's offset + tile and chunk steps, through the kernel's
// segments, along `box` with the DDR and LX strides) into the LX staging
// buffers, compute on the staged tiles, DMA of result tiles back. Compute
// reads a tile through the tensor's layout (its device coordinates relative
// to the tile's first) and the LX strides; it sees f32 and accumulates in
// f32; stores round to the device format.
//
//===----------------------------------------------------------------------===//

#include "KernelRunner.h"

#include "Spyre/Analysis/KernelModel.h"
#include "Spyre/Layout/Stickify.h"
#include "Spyre/Dialect/Spyre/IR/KernelForm.h"

#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <cstring>
#include <limits>

using namespace mlir;
using namespace mlir::spyre;
using namespace mlir::spyre::sim;

//===----------------------------------------------------------------------===//
// Machine
//===----------------------------------------------------------------------===//

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
    error = llvm::formatv(
        "{0}: stick {1} (device {2}) at byte {3} of {4} {5}", what, s,
        formatList(coord), base + s * stick, memory.name,
        tag == 0 ? std::string("was never written")
                 : "holds " + nameOf(tag).str() + " instead")
                .str();
  });
  if (!error.empty())
    return llvm::createStringError(error);
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// What the payload computes
//===----------------------------------------------------------------------===//

namespace {

enum class Kind {
  Elementwise,
  Copy,
  Reduce,
  Matmul,
  Exx2,
  LnScale,
  LnNorm,
};

struct Semantics {
  Kind kind = Kind::Copy;
  ScalarSemantics scalar;               ///< of an elementwise op
  CombinerKind combiner = CombinerKind::Sum;
  double a = 0;                         ///< eps, scale
  int reducedDim = -1;                  ///< op dim of a reduction
  std::optional<double> mask;           ///< value padding of the reduced dim holds
  std::optional<double> padValue;
  ReductionOpInterface reduction;
};

FailureOr<Semantics> semanticsOf(Operation *op, std::string &reason) {
  Semantics s;
  if (auto elementwise = dyn_cast<ElementwiseOpInterface>(op)) {
    s.kind = Kind::Elementwise;
    s.scalar = elementwise.getScalarSemantics();
  } else if (isa<RestickifyOp>(op)) {
    s.kind = Kind::Copy;
  } else if (auto pad = dyn_cast<PadOp>(op)) {
    s.kind = Kind::Copy;
    s.padValue = pad.getValue().convertToDouble();
  } else if (auto reduction = dyn_cast<ReductionOpInterface>(op)) {
    s.kind = Kind::Reduce;
    s.reduction = reduction;
    s.combiner = reduction.getCombinerKind();
    s.reducedDim = static_cast<int>(reduction.getReducedDim());
    s.mask = reduction.getMaskValue();
  } else if (isa<MatmulOp, BatchMatmulOp>(op)) {
    s.kind = Kind::Matmul;
  } else if (auto exx2 = dyn_cast<Exx2Op>(op)) {
    s.kind = Kind::Exx2;
    s.a = exx2.getScale().convertToDouble();
  } else if (auto scale = dyn_cast<LayerNormScaleOp>(op)) {
    s.kind = Kind::LnScale;
    s.a = scale.getEps().convertToDouble();
  } else if (isa<LayerNormNormOp>(op)) {
    s.kind = Kind::LnNorm;
  } else {
    reason = "the simulator does not implement " +
             op->getName().getStringRef().str();
    return failure();
  }
  return s;
}

/// Combines two partial values of a reduction (NaN propagating for max and
/// min, as arith.maximumf / minimumf).
inline float combine(CombinerKind kind, float a, float b) {
  switch (kind) {
  case CombinerKind::Max:
    return mlir::spyre::detail::maximum(a, b);
  case CombinerKind::Min:
    return mlir::spyre::detail::minimum(a, b);
  case CombinerKind::Sum:
    break;
  }
  return a + b;
}

//===----------------------------------------------------------------------===//
// One kernel
//===----------------------------------------------------------------------===//

/// One operand (or the result) of the kernel being run.
struct Operand {
  std::string name;
  Value value;
  bool isResult = false;
  int32_t id = 0;
  RankedTensorType type;
  std::optional<BoundLayout> bound;
  DataFormat format = DataFormat::SEN169_FP16;
  int64_t eps = 64, stickBytes = 128, elemBytes = 2;
  int deviceRank = 0;
  SmallVector<int64_t, 8> deviceSize;
  /// Per device dim: the op dim it steps (-1: none), its multiplier, and
  /// the host dim it tiles (-1: none).
  SmallVector<int, 8> opDim, hostDim;
  SmallVector<int64_t, 8> multiplier;
  SmallVector<int64_t, 6> hostSize;
  SmallVector<int, 6> opDimOfHost;
  int stickHost = -1;
  AccessAttr access;
  bool resident = false;
  // DDR side.
  Memory *ddr = nullptr;
  int64_t segment = 0, regionBegin = 0, regionEnd = 0;
  int64_t buffers = 0;
  /// Op dims the tensor uses, and the row-major stride of each in its dense
  /// tile (0 for op dims it does not use).
  uint32_t usedMask = 0;
  SmallVector<int64_t, 6> denseStride;
  int64_t denseSize = 1;
  /// Cores sharing each tile (the tile is forwarded along the ring).
  int64_t group = 1;

  /// Host elements between two lanes of a stick (0 for sparse layouts).
  int64_t stickStep() const {
    return stickHost >= 0 ? multiplier[deviceRank - 1] : 0;
  }
  /// The op dim the stick's lanes step (-1: none).
  int stickOpDim() const {
    return stickHost >= 0 ? opDimOfHost[stickHost] : -1;
  }
};

struct Timeline {
  double dmaFree = 0, unitFree = 0, prev = 0, prevPrev = 0;
  double dmaBusy = 0, computeBusy = 0;
  double end() const { return std::max(dmaFree, unitFree); }
};

} // namespace

namespace mlir::spyre::sim {

class KernelExecution {
public:
  KernelExecution(KernelRunner &runner, KernelOp kernel)
      : runner(runner), machine(runner.machine), target(runner.target),
        kernel(kernel) {}

  llvm::Error prepare();
  llvm::Error launch(int64_t chunk, KernelStats &stats);

private:
  friend class KernelRunner;
  llvm::Error fail(const llvm::Twine &message) {
    return llvm::createStringError(
        llvm::formatv("kernel {0}: {1}", kernel.getName(), message.str())
            .str());
  }
  Memory &resolve(MemAttr mem);
  SmallVector<int64_t, 8> boxStart(const Operand &t,
                                   ArrayRef<int64_t> start) const;
  SmallVector<int64_t, 8> boxCounts(const Operand &t,
                                    ArrayRef<int64_t> start) const;
  /// The error for a stick of `t` at LX byte `address` of `core` that is
  /// not inside the usable LX (`verb`: what the core does with it), or "".
  std::string checkLxRange(const Operand &t, int64_t core, int64_t address,
                           StringRef verb) const;
  /// Calls f(coord, address) for every stick of `t`'s access box in the
  /// tile at `region`: its device coordinate (non-stick dims) and its LX
  /// byte, the box being staged at `lxBase` for the tile at `origin`.
  /// Stops calling once `error` is set.
  template <typename F>
  void forEachBoxStick(const Operand &t, ArrayRef<int64_t> region,
                       int64_t lxBase, ArrayRef<int64_t> origin,
                       const std::string &error, F f) const;
  llvm::Error dma(const Operand &t, int64_t core, int64_t ddrAddress,
                  int64_t lxBase, ArrayRef<int64_t> start, bool toLx,
                  int64_t &bytes);
  llvm::Error gather(const Operand &t, int64_t core, ArrayRef<int64_t> region,
                     int64_t lxBase, ArrayRef<int64_t> origin,
                     std::vector<float> &dense, float fill);
  llvm::Error scatter(const Operand &t, int64_t core, ArrayRef<int64_t> region,
                      int64_t lxBase, ArrayRef<int64_t> origin,
                      const std::vector<float> &dense);
  void compute(ArrayRef<int64_t> region, bool firstReduction,
               std::vector<std::vector<float>> &inputs,
               std::vector<float> &acc);
  void finalize(std::vector<float> &acc);
  double computeSeconds() const;
  void event(int64_t core, StringRef name, StringRef category, double start,
             double duration);

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
  double clockBase = 0;
  /// Per operand, the DDR bytes the current core's transfers reach.
  std::vector<std::pair<int64_t, int64_t>> reach;
};

} // namespace mlir::spyre::sim

Memory &KernelExecution::resolve(MemAttr mem) {
  return mem.getSpace() == MemorySpace::Pool ? machine.pool
                                             : machine.ioBuffer(mem.getValue());
}

llvm::Error KernelExecution::prepare() {
  payload = kernel.getPayload();
  std::string reason;
  FailureOr<Semantics> s = semanticsOf(payload, reason);
  if (failed(s))
    return fail(reason);
  semantics = *s;
  FailureOr<kernel::Problem> p = getKernelProblem(payload, reason);
  if (failed(p))
    return fail(reason);
  problem = std::move(*p);
  division = getKernelDivision(kernel);
  auto info = cast<KernelPayloadOpInterface>(payload);
  SmallVector<AffineMap> maps = info.getIndexingMapsArray();
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
    if (dim.getReduction())
      partners *= dim.getSplit();
  }
  for (int64_t d = 0; d < numDims; ++d)
    if (!reduction[d])
      loopOrder.push_back(static_cast<int>(d));
  for (int64_t d = 0; d < numDims; ++d)
    if (reduction[d])
      loopOrder.push_back(static_cast<int>(d));

  if (semantics.kind == Kind::Reduce) {
    int d = semantics.reducedDim;
    if (padded[d] > size[d] && !semantics.mask)
      return fail(llvm::formatv(
          "reduces over {0} padding positions of dim {1} without a "
          "padding_value; the result would include whatever the padding "
          "holds (run --spyre-insert-padding)",
          padded[d] - size[d], d));
  }

  if (semantics.kind == Kind::Exx2 || semantics.kind == Kind::LnScale ||
      semantics.kind == Kind::LnNorm) {
    // Both statistics of a row must be in the same tile.
    int64_t s = numDims - 1;
    if (division.splits[s] != 1 || division.chunks[s] != 1 || tile[s] < 2)
      return fail(llvm::formatv(
          "the statistic dim must stay whole on every core (split {0}, "
          "chunks {1}, tile {2})",
          division.splits[s], division.chunks[s], tile[s]));
  }

  int64_t segmentBytes = target.segmentBytes;
  for (unsigned i = 0, e = kernel.getNumInputs() + 1; i < e; ++i) {
    Operand t;
    t.isResult = i == kernel.getNumInputs();
    t.value = t.isResult ? kernel.getResult() : kernel.getInputs()[i];
    t.name = t.isResult ? std::string("the result")
                        : "operand #" + std::to_string(i);
    t.type = cast<RankedTensorType>(t.value.getType());
    llvm::Expected<BoundLayout> bound = bindLayout(t.type);
    if (!bound)
      return bound.takeError();
    t.bound.emplace(std::move(*bound));
    const SpyreTensorLayout &layout = t.bound->layout();
    t.format = layout.getFormat();
    if (t.format == DataFormat::SENINT4)
      return fail(t.name + " is packed int4, which the simulator does not "
                           "compute on");
    t.eps = layout.elemsPerStick();
    t.stickBytes = layout.stickBytes();
    t.elemBytes = t.stickBytes / t.eps;
    t.deviceRank = layout.deviceRank();
    t.deviceSize.assign(layout.getDeviceSize().begin(),
                        layout.getDeviceSize().end());
    AffineMap map = maps[i];
    for (AffineExpr expr : map.getResults()) {
      auto dim = dyn_cast<AffineDimExpr>(expr);
      t.opDimOfHost.push_back(dim ? static_cast<int>(dim.getPosition()) : -1);
    }
    t.hostSize.assign(t.type.getShape().begin(), t.type.getShape().end());
    for (const auto &role : t.bound->roles()) {
      bool piece = role.kind == BoundLayout::DimKind::Piece;
      t.hostDim.push_back(piece ? role.hostDim : -1);
      t.multiplier.push_back(piece ? role.multiplier : 0);
      t.opDim.push_back(piece ? t.opDimOfHost[role.hostDim] : -1);
    }
    t.stickHost = t.bound->stickHostDim();
    t.access = kernel.getAccess(i);
    t.resident = t.access.isResident();
    t.id = machine.idOf(getBufferRoot(t.value),
                        t.isResult ? ("the result of kernel " +
                                      kernel.getName())
                                         .str()
                                   : "a tensor");
    // Dense tiles: op dims the tensor uses, row-major.
    t.denseStride.assign(numDims, 0);
    for (int opDim : t.opDimOfHost)
      if (opDim >= 0)
        t.usedMask |= 1u << opDim;
    for (int64_t d = numDims - 1; d >= 0; --d)
      if (t.usedMask >> d & 1) {
        t.denseStride[d] = t.denseSize;
        t.denseSize *= tile[d];
      }
    for (int64_t d = 0; d < numDims; ++d)
      if (!(t.usedMask >> d & 1))
        t.group *= division.splits[d];
    if (!t.resident) {
      t.segment = t.access.getBase() / segmentBytes;
      if (t.access.getBase() < 0 ||
          t.segment >= static_cast<int64_t>(kernel.getSegments().size()))
        return fail(llvm::formatv("{0}: base {1} lies in none of the {2} "
                                  "segments the kernel binds",
                                  t.name, t.access.getBase(),
                                  kernel.getSegments().size()));
      auto mem = cast<MemAttr>(kernel.getSegments()[t.segment]);
      t.ddr = &resolve(mem);
      t.regionBegin = t.access.getBase() % segmentBytes;
      t.regionEnd = t.regionBegin + layout.deviceBytes();
      if (t.ddr->size() < t.regionEnd) {
        if (!t.isResult)
          return fail(llvm::formatv(
              "{0} occupies bytes [{1}, {2}) of {3}, which holds only {4}",
              t.name, t.regionBegin, t.regionEnd, t.ddr->name,
              t.ddr->size()));
        // A result buffer is created by its first writer.
        Memory grown;
        grown.name = t.ddr->name;
        grown.resize(t.regionEnd, target.stickBytes);
        std::copy(t.ddr->bytes.begin(), t.ddr->bytes.end(),
                  grown.bytes.begin());
        std::copy(t.ddr->tags.begin(), t.ddr->tags.end(), grown.tags.begin());
        *t.ddr = std::move(grown);
      }
      t.buffers = static_cast<int64_t>(t.access.getLxOffsets().size());
    }
    operands.push_back(std::move(t));
  }
  return llvm::Error::success();
}

SmallVector<int64_t, 8> KernelExecution::boxStart(const Operand &t,
                                                  ArrayRef<int64_t> start) const {
  SmallVector<int64_t, 8> coord(t.deviceRank - 1, 0);
  for (int dd = 0; dd + 1 < t.deviceRank; ++dd)
    if (t.opDim[dd] >= 0)
      coord[dd] = (start[t.opDim[dd]] / t.multiplier[dd]) % t.deviceSize[dd];
  return coord;
}

SmallVector<int64_t, 8>
KernelExecution::boxCounts(const Operand &t, ArrayRef<int64_t> start) const {
  SmallVector<int64_t, 8> counts;
  SmallVector<int64_t, 8> first = boxStart(t, start);
  for (int dd = 0; dd + 1 < t.deviceRank; ++dd)
    counts.push_back(std::max<int64_t>(
        0, std::min(t.access.getBox()[dd], t.deviceSize[dd] - first[dd])));
  return counts;
}

/// Calls f(position) for every position of a box, last dim fastest.
template <typename F>
static void forEachPosition(ArrayRef<int64_t> counts, F f) {
  for (int64_t c : counts)
    if (c <= 0)
      return;
  SmallVector<int64_t, 8> at(counts.size(), 0);
  while (true) {
    f(ArrayRef<int64_t>(at));
    int d = static_cast<int>(counts.size()) - 1;
    for (; d >= 0; --d) {
      if (++at[d] < counts[d])
        break;
      at[d] = 0;
    }
    if (d < 0)
      return;
  }
}

std::string KernelExecution::checkLxRange(const Operand &t, int64_t core,
                                          int64_t address,
                                          StringRef verb) const {
  int64_t usable = target.usableLxBytes();
  if (address >= 0 && address + t.stickBytes <= usable)
    return "";
  return llvm::formatv("core {0} {1} {2} at LX bytes [{3}, {4}), past the "
                       "{5} usable bytes",
                       core, verb, t.name, address, address + t.stickBytes,
                       usable)
      .str();
}

template <typename F>
void KernelExecution::forEachBoxStick(const Operand &t,
                                      ArrayRef<int64_t> region,
                                      int64_t lxBase, ArrayRef<int64_t> origin,
                                      const std::string &error, F f) const {
  SmallVector<int64_t, 8> first = boxStart(t, region);
  SmallVector<int64_t, 8> counts = boxCounts(t, region);
  ArrayRef<int64_t> lxStrides = t.access.getLxStrides();
  SmallVector<int64_t, 8> coord(counts.size());
  forEachPosition(counts, [&](ArrayRef<int64_t> at) {
    if (!error.empty())
      return;
    int64_t address = lxBase;
    for (size_t d = 0; d < at.size(); ++d) {
      coord[d] = first[d] + at[d];
      address += (coord[d] - origin[d]) * lxStrides[d];
    }
    f(ArrayRef<int64_t>(coord), address);
  });
}

llvm::Error KernelExecution::dma(const Operand &t, int64_t core,
                                 int64_t ddrAddress, int64_t lxBase,
                                 ArrayRef<int64_t> start, bool toLx,
                                 int64_t &bytes) {
  Memory &lx = machine.lx(core);
  SmallVector<int64_t, 8> counts = boxCounts(t, start);
  ArrayRef<int64_t> ddrStrides = t.access.getDdrStrides();
  ArrayRef<int64_t> lxStrides = t.access.getLxStrides();
  std::string error;
  bytes = 0;
  forEachPosition(counts, [&](ArrayRef<int64_t> at) {
    if (!error.empty())
      return;
    int64_t src = ddrAddress, dst = lxBase;
    for (size_t d = 0; d < at.size(); ++d) {
      src += at[d] * ddrStrides[d];
      dst += at[d] * lxStrides[d];
    }
    int64_t segment = src / target.segmentBytes;
    int64_t offset = src % target.segmentBytes;
    if (segment != t.segment || offset < t.regionBegin ||
        offset + t.stickBytes > t.regionEnd) {
      // Addresses are segment * segment_bytes + offset: name the segment
      // the address falls in when it is not the tensor's.
      std::string where =
          segment == t.segment
              ? std::string()
              : llvm::formatv(" (in segment {0}, not the tensor's)", segment)
                    .str();
      error = llvm::formatv(
                  "core {0} {1} {2} at DDR address {3}{7}, outside its bytes "
                  "[{4}, {5}) of segment {6}",
                  core, toLx ? "loads" : "stores", t.name, src,
                  t.segment * target.segmentBytes + t.regionBegin,
                  t.segment * target.segmentBytes + t.regionEnd, t.segment,
                  where)
                  .str();
      return;
    }
    error = checkLxRange(t, core, dst, "stages");
    if (!error.empty())
      return;
    auto &range = reach[&t - operands.data()];
    range.first = std::min(range.first, src);
    range.second = std::max(range.second, src + t.stickBytes);
    if (toLx) {
      std::memcpy(lx.bytes.data() + dst, t.ddr->bytes.data() + offset,
                  t.stickBytes);
      lx.setTag(dst, t.ddr->tagAt(offset));
    } else {
      std::memcpy(t.ddr->bytes.data() + offset, lx.bytes.data() + dst,
                  t.stickBytes);
      t.ddr->setTag(offset, lx.tagAt(dst));
    }
    bytes += t.stickBytes;
  });
  if (!error.empty())
    return fail(error);
  return llvm::Error::success();
}

/// The host coordinate of the first element of the stick at device
/// coordinate `coord` (non-stick dims).
static void hostCoordOf(const Operand &t, ArrayRef<int64_t> coord,
                        SmallVectorImpl<int64_t> &host) {
  host.assign(t.hostSize.size(), 0);
  for (size_t dd = 0; dd < coord.size(); ++dd)
    if (t.hostDim[dd] >= 0)
      host[t.hostDim[dd]] += coord[dd] * t.multiplier[dd];
}

llvm::Error KernelExecution::gather(const Operand &t, int64_t core,
                                    ArrayRef<int64_t> region, int64_t lxBase,
                                    ArrayRef<int64_t> origin,
                                    std::vector<float> &dense, float fill) {
  Memory &lx = machine.lx(core);
  dense.assign(t.denseSize, fill);
  int64_t stickStep = t.stickStep();
  int stickOp = t.stickOpDim();
  SmallVector<int64_t, 6> host;
  std::string error;
  forEachBoxStick(t, region, lxBase, origin, error,
                  [&](ArrayRef<int64_t> coord, int64_t address) {
    hostCoordOf(t, coord, host);
    // Where the stick's lane 0 lands in the dense tile; lanes step the
    // stick's host dim.
    int64_t index = 0;
    for (size_t h = 0; h < host.size(); ++h) {
      int d = t.opDimOfHost[h];
      if (d < 0 || h == static_cast<size_t>(t.stickHost))
        continue;
      if (host[h] >= t.hostSize[h] || host[h] < region[d] ||
          host[h] >= region[d] + tile[d])
        return; // padding, or outside this tile
      index += (host[h] - region[d]) * t.denseStride[d];
    }
    // The lanes holding real elements of this tile: a contiguous range.
    int64_t laneBegin = 0, laneEnd = 1, laneStride = 0;
    if (t.stickHost >= 0) {
      int64_t h0 = host[t.stickHost];
      auto lanesBelow = [&](int64_t limit) {
        return std::max<int64_t>(0, (limit - h0 + stickStep - 1) / stickStep);
      };
      laneEnd = std::min(t.eps, lanesBelow(t.hostSize[t.stickHost]));
      if (stickOp >= 0) {
        laneBegin = lanesBelow(region[stickOp]);
        laneEnd = std::min(laneEnd, lanesBelow(region[stickOp] +
                                               tile[stickOp]));
        index += (h0 + laneBegin * stickStep - region[stickOp]) *
                 t.denseStride[stickOp];
        laneStride = stickStep * t.denseStride[stickOp];
      }
    }
    if (laneBegin >= laneEnd)
      return;
    error = checkLxRange(t, core, address, "reads");
    if (!error.empty())
      return;
    int32_t tag = lx.tagAt(address);
    if (tag != t.id) {
      error = llvm::formatv("core {0} reads {1} (device {2}) from LX byte "
                            "{3}, which {4}",
                            core, t.name, formatList(coord), address,
                            tag == 0 ? std::string("was never written")
                                     : "holds " + machine.nameOf(tag).str() +
                                           " instead")
                  .str();
      return;
    }
    const uint8_t *bytes = lx.bytes.data() + address;
    float *to = dense.data() + index;
    if (t.format == DataFormat::SEN169_FP16) {
      const float *table = halfToFloatTable();
      for (int64_t lane = laneBegin; lane < laneEnd; ++lane) {
        uint16_t bits;
        std::memcpy(&bits, bytes + lane * 2, 2);
        *to = table[bits];
        to += laneStride;
      }
      return;
    }
    for (int64_t lane = laneBegin; lane < laneEnd; ++lane) {
      *to = loadDeviceElement(t.format, bytes + lane * t.elemBytes);
      to += laneStride;
    }
  });
  if (!error.empty())
    return fail(error);
  return llvm::Error::success();
}

llvm::Error KernelExecution::scatter(const Operand &t, int64_t core,
                                     ArrayRef<int64_t> region, int64_t lxBase,
                                     ArrayRef<int64_t> origin,
                                     const std::vector<float> &dense) {
  Memory &lx = machine.lx(core);
  int64_t stickStep = t.stickStep();
  int stickOp = t.stickOpDim();
  float fill = semantics.padValue ? static_cast<float>(*semantics.padValue)
                                  : 0.0f;
  SmallVector<int64_t, 6> host;
  std::string error;
  forEachBoxStick(t, region, lxBase, origin, error,
                  [&](ArrayRef<int64_t> coord, int64_t address) {
    error = checkLxRange(t, core, address, "writes");
    if (!error.empty())
      return;
    hostCoordOf(t, coord, host);
    // The box must stay within the tile computed: a box larger than the
    // tile (attributes that disagree) has no values to store.
    auto outside = [&](int d, int64_t h) {
      error = llvm::formatv("core {0} stores {1} (device {2}) from a tile "
                            "at {3}: the access's box {4} reaches past the "
                            "tile (dim {5} at {6}, the tile covers [{7}, "
                            "{8}))",
                            core, t.name, formatList(coord),
                            formatList(region),
                            formatList(t.access.getBox()), d, h,
                            region[d], region[d] + tile[d])
                  .str();
    };
    bool padding = false;
    int64_t index = 0;
    for (size_t h = 0; h < host.size(); ++h) {
      int d = t.opDimOfHost[h];
      if (h == static_cast<size_t>(t.stickHost))
        continue;
      if (host[h] >= t.hostSize[h]) {
        padding = true;
        continue;
      }
      if (d >= 0) {
        if (host[h] < region[d] || host[h] >= region[d] + tile[d])
          return outside(d, host[h]);
        index += (host[h] - region[d]) * t.denseStride[d];
      }
    }
    uint8_t *bytes = lx.bytes.data() + address;
    for (int64_t lane = 0; lane < t.eps; ++lane) {
      bool real = !padding && (t.stickHost >= 0 || lane == 0);
      int64_t laneIndex = index;
      if (real && t.stickHost >= 0) {
        int64_t h = host[t.stickHost] + lane * stickStep;
        if (h >= t.hostSize[t.stickHost]) {
          real = false;
        } else if (stickOp >= 0) {
          if (h < region[stickOp] || h >= region[stickOp] + tile[stickOp])
            return outside(stickOp, h);
          laneIndex += (h - region[stickOp]) * t.denseStride[stickOp];
        }
      }
      if (real && (laneIndex < 0 ||
                   laneIndex >= static_cast<int64_t>(dense.size())))
        return outside(stickOp >= 0 ? stickOp : 0, laneIndex);
      storeDeviceElement(t.format, bytes + lane * t.elemBytes,
                   real ? dense[laneIndex] : fill);
    }
    lx.setTag(address, t.id);
  });
  if (!error.empty())
    return fail(error);
  return llvm::Error::success();
}

/// c[n] += x[k] * b[k][n] for k in [0, kt) in order, n in [0, nt): one
/// output row of a matmul tile (each element adds its k terms in order).
/// Built for AVX2 too; the running sums are rounded after every add (no
/// fused multiply-add), so both versions give the same bits.
__attribute__((target_clones("avx2", "default"))) static void
matmulRow(float *__restrict c, const float *__restrict x, int64_t xStride,
          const float *__restrict b, int64_t kt, int64_t nt) {
  int64_t k = 0;
  for (; k + 4 <= kt; k += 4) {
    float x0 = x[k * xStride], x1 = x[(k + 1) * xStride];
    float x2 = x[(k + 2) * xStride], x3 = x[(k + 3) * xStride];
    const float *b0 = b + k * nt, *b1 = b0 + nt, *b2 = b1 + nt, *b3 = b2 + nt;
    for (int64_t n = 0; n < nt; ++n)
      c[n] = (((c[n] + x0 * b0[n]) + x1 * b1[n]) + x2 * b2[n]) + x3 * b3[n];
  }
  for (; k < kt; ++k) {
    float xk = x[k * xStride];
    const float *row = b + k * nt;
    for (int64_t n = 0; n < nt; ++n)
      c[n] += xk * row[n];
  }
}

/// Calls f(index of each array) for every point of `extents`; `strides[k]`
/// gives array k's stride per dim.
template <typename F>
static void forEachPoint(ArrayRef<int64_t> extents,
                         ArrayRef<ArrayRef<int64_t>> strides, F f) {
  size_t n = extents.size(), k = strides.size();
  for (int64_t e : extents)
    if (e <= 0)
      return;
  SmallVector<int64_t, 6> at(n, 0);
  SmallVector<int64_t, 6> index(k, 0);
  if (n == 0) {
    f(ArrayRef<int64_t>(index));
    return;
  }
  while (true) {
    for (int64_t x = 0; x < extents[n - 1]; ++x) {
      f(ArrayRef<int64_t>(index));
      for (size_t a = 0; a < k; ++a)
        index[a] += strides[a][n - 1];
    }
    for (size_t a = 0; a < k; ++a)
      index[a] -= strides[a][n - 1] * extents[n - 1];
    int d = static_cast<int>(n) - 2;
    for (; d >= 0; --d) {
      for (size_t a = 0; a < k; ++a)
        index[a] += strides[a][d];
      if (++at[d] < extents[d])
        break;
      for (size_t a = 0; a < k; ++a)
        index[a] -= strides[a][d] * extents[d];
      at[d] = 0;
    }
    if (d < 0)
      return;
  }
}

void KernelExecution::compute(ArrayRef<int64_t> region, bool firstReduction,
                              std::vector<std::vector<float>> &in,
                              std::vector<float> &acc) {
  const Operand &out = operands.back();
  SmallVector<int64_t, 6> extents(tile.begin(), tile.end());
  auto strides = [&](unsigned i) {
    return ArrayRef<int64_t>(operands[i].denseStride);
  };
  float init = semantics.kind == Kind::Reduce
                   ? static_cast<float>(semantics.reduction.getNeutralValue())
                   : 0.0f;
  if (firstReduction)
    acc.assign(out.denseSize, init);
  unsigned r = operands.size() - 1;
  switch (semantics.kind) {
  case Kind::Elementwise: {
    unsigned n = operands.size() - 1;
    SmallVector<ArrayRef<int64_t>, 4> all;
    for (unsigned k = 0; k <= n; ++k)
      all.push_back(strides(k));
    SmallVector<float, 4> x(n);
    const ScalarSemantics &f = semantics.scalar;
    forEachPoint(extents, all, [&](ArrayRef<int64_t> i) {
      for (unsigned k = 0; k < n; ++k)
        x[k] = in[k][i[k]];
      acc[i[n]] = f(x.data());
    });
    return;
  }
  case Kind::Copy:
    forEachPoint(extents, {strides(0), strides(r)},
                 [&](ArrayRef<int64_t> i) { acc[i[1]] = in[0][i[0]]; });
    return;
  case Kind::Reduce: {
    CombinerKind combiner = semantics.combiner;
    forEachPoint(extents, {strides(0), strides(r)}, [&](ArrayRef<int64_t> i) {
      float &a = acc[i[1]];
      a = combine(combiner, a, in[0][i[0]]);
    });
    return;
  }
  case Kind::Matmul: {
    // (batch..., m, n, k). For each output row, C[m, :] += A[m, k] * B[k, :]
    // over k in order: every element still adds its k terms in order (as a
    // dot product would), and the inner loop over n vectorizes.
    int64_t mD = problem.mDim, nD = problem.nDim, kD = problem.kDim;
    int64_t mt = extents[mD], nt = extents[nD], kt = extents[kD];
    const Operand &A = operands[0], &B = operands[1];
    SmallVector<int64_t, 6> batch(extents.begin(), extents.end());
    batch[mD] = batch[nD] = batch[kD] = 1;
    std::vector<float> bt(static_cast<size_t>(kt * nt));
    int64_t sAm = A.denseStride[mD], sAk = A.denseStride[kD];
    int64_t sBk = B.denseStride[kD], sBn = B.denseStride[nD];
    int64_t sCm = out.denseStride[mD], sCn = out.denseStride[nD];
    forEachPoint(batch, {strides(0), strides(1), strides(r)},
                 [&](ArrayRef<int64_t> i) {
                   const float *a = in[0].data() + i[0];
                   const float *b = in[1].data() + i[1];
                   for (int64_t k = 0; k < kt; ++k)
                     for (int64_t n = 0; n < nt; ++n)
                       bt[k * nt + n] = b[k * sBk + n * sBn];
                   for (int64_t m = 0; m < mt; ++m) {
                     float *c = acc.data() + i[2] + m * sCm;
                     if (sCn == 1) {
                       matmulRow(c, a + m * sAm, sAk, bt.data(), kt, nt);
                       continue;
                     }
                     for (int64_t k = 0; k < kt; ++k) {
                       float x = a[m * sAm + k * sAk];
                       const float *row = bt.data() + k * nt;
                       for (int64_t n = 0; n < nt; ++n)
                         c[n * sCn] += x * row[n];
                     }
                   }
                 });
    return;
  }
  case Kind::Exx2: {
    // Dims: input dims, then the statistic s (the last op dim).
    int64_t s = numDims - 1;
    SmallVector<int64_t, 6> outer(extents.begin(), extents.end());
    outer[s] = 1;
    int64_t so = out.denseStride[s];
    forEachPoint(outer, {strides(0), strides(r)}, [&](ArrayRef<int64_t> i) {
      float x = in[0][i[0]];
      acc[i[1]] += x;
      acc[i[1] + so] += x * x;
    });
    return;
  }
  case Kind::LnScale: {
    int64_t s = numDims - 1;
    SmallVector<int64_t, 6> outer(extents.begin(), extents.end());
    outer[s] = 1;
    int64_t si = operands[0].denseStride[s], so = out.denseStride[s];
    float eps = static_cast<float>(semantics.a);
    forEachPoint(outer, {strides(0), strides(r)}, [&](ArrayRef<int64_t> i) {
      float mean = in[0][i[0]], square = in[0][i[0] + si];
      acc[i[1]] = mean;
      acc[i[1] + so] = 1.0f / std::sqrt(square - mean * mean + eps);
    });
    return;
  }
  case Kind::LnNorm: {
    // x, stats, weight, bias; the statistic is the last op dim.
    int64_t s = numDims - 1;
    SmallVector<int64_t, 6> outer(extents.begin(), extents.end());
    outer[s] = 1;
    int64_t ss = operands[1].denseStride[s];
    forEachPoint(outer,
                 {strides(0), strides(1), strides(2), strides(3), strides(r)},
                 [&](ArrayRef<int64_t> i) {
                   float mean = in[1][i[1]], rstd = in[1][i[1] + ss];
                   acc[i[4]] =
                       (in[0][i[0]] - mean) * rstd * in[2][i[2]] + in[3][i[3]];
                 });
    return;
  }
  }
}

void KernelExecution::finalize(std::vector<float> &acc) {
  if (semantics.kind == Kind::Reduce) {
    double scale =
        semantics.reduction.getResultScale(size[semantics.reducedDim]);
    if (scale != 1.0)
      for (float &v : acc)
        v *= static_cast<float>(scale);
  }
  if (semantics.kind == Kind::Exx2) {
    float scale = static_cast<float>(semantics.a);
    for (float &v : acc)
      v *= scale;
  }
}

double KernelExecution::computeSeconds() const {
  if (problem.unit == kernel::Unit::PT) {
    double points = 1;
    for (int64_t t : tile)
      points *= static_cast<double>(t);
    int64_t rows = problem.mDim >= 0 ? tile[problem.mDim] : 1;
    return points /
           (static_cast<double>(target.ptMacsPerCycle * target.corelets) *
            target.clockHz() * target.ptEfficiency(rows));
  }
  int64_t sticks = 0;
  for (const kernel::Tensor &t : problem.tensors)
    sticks = std::max(sticks, kernel::boxSticks(t, tile));
  return static_cast<double>(sticks) / target.coreSfpSticksPerSecond();
}

void KernelExecution::event(int64_t core, StringRef name,
                            StringRef category, double start,
                            double duration) {
  if (!runner.tracing || duration <= 0)
    return;
  // json::Value keeps StringRefs unowned: copy.
  runner.events.push_back(llvm::json::Object{
      {"name", name.str()},
      {"cat", category.str()},
      {"ph", "X"},
      {"pid", 0},
      {"tid", core},
      {"ts", (clockBase + start) * 1e6},
      {"dur", duration * 1e6}});
}

llvm::Error KernelExecution::launch(int64_t chunk, KernelStats &stats) {
  // The chunk's index along each dim (row-major, last dim fastest).
  SmallVector<int64_t, 6> chunkAt(numDims, 0);
  int64_t rest = chunk;
  for (int64_t d = numDims - 1; d >= 0; --d) {
    int64_t chunks = kernel.getDim(d).getChunks();
    chunkAt[d] = rest % chunks;
    rest /= chunks;
  }
  const Operand &out = operands.back();
  unsigned numInputs = operands.size() - 1;
  double rate = target.coreDmaBytesPerSecond(cores);
  double ringRate = target.ringBytesPerSecond();
  double overhead =
      static_cast<double>(target.tileOverheadCycles) / target.clockHz();
  double stepCompute = computeSeconds();
  std::string unitName = problem.unit == kernel::Unit::PT ? "pt" : "sfp";
  int64_t ddrBytes = 0, ringBytes = 0;
  std::vector<Timeline> timelines(cores);
  // Ownership of the result's DDR sticks in this launch.
  std::vector<int32_t> owner;
  if (!out.resident)
    owner.assign((out.regionEnd - out.regionBegin) / out.stickBytes, -1);

  struct Partial {
    std::vector<float> acc;
    int64_t leader = -1;
    SmallVector<int64_t, 6> region;
    int64_t contributions = 0;
  };
  std::map<SmallVector<int64_t, 6>, Partial> partials;

  // The result tile: scatter into LX, then store it.
  auto storeTile = [&](int64_t core, ArrayRef<int64_t> region,
                       ArrayRef<int64_t> sliceStart, int64_t &stores,
                       std::vector<float> &acc, Timeline &timeline,
                       double ready) -> llvm::Error {
    finalize(acc);
    if (out.resident) {
      SmallVector<int64_t, 8> origin = boxStart(out, sliceStart);
      return scatter(out, core, region, out.access.getBase(), origin, acc);
    }
    int64_t buffer = out.access.getLxOffsets()[stores % out.buffers];
    ++stores;
    SmallVector<int64_t, 8> origin = boxStart(out, region);
    if (llvm::Error error = scatter(out, core, region, buffer, origin, acc))
      return error;
    int64_t address = out.access.getBase() + out.access.getCoreOffsets()[core];
    for (int64_t d = 0; d < numDims; ++d) {
      address += (region[d] - sliceStart[d]) / tile[d] *
                 out.access.getTileSteps()[d];
      if (!out.access.getChunkSteps().empty())
        address += chunkAt[d] * out.access.getChunkSteps()[d];
    }
    int64_t bytes = 0;
    if (llvm::Error error =
            dma(out, core, address, buffer, region, /*toLx=*/false, bytes))
      return error;
    // Ownership: no two cores write the same sticks.
    {
      SmallVector<int64_t, 8> counts = boxCounts(out, region);
      ArrayRef<int64_t> ddrStrides = out.access.getDdrStrides();
      std::string error;
      forEachPosition(counts, [&](ArrayRef<int64_t> at) {
        if (!error.empty())
          return;
        int64_t src = address;
        for (size_t d = 0; d < at.size(); ++d)
          src += at[d] * ddrStrides[d];
        int64_t stick = (src % target.segmentBytes - out.regionBegin) /
                        out.stickBytes;
        int32_t &o = owner[stick];
        if (o >= 0 && o != core)
          error = llvm::formatv("cores {0} and {1} both write byte {2} of "
                                "the result",
                                o, core, src)
                      .str();
        o = static_cast<int32_t>(core);
      });
      if (!error.empty())
        return fail(error);
    }
    double start = std::max(ready, timeline.dmaFree);
    double duration = static_cast<double>(bytes) / rate;
    event(core, "store", "dma", start, duration);
    timeline.dmaFree = start + duration;
    timeline.dmaBusy += duration;
    ddrBytes += bytes;
    return llvm::Error::success();
  };

  for (int64_t core = 0; core < cores; ++core) {
    Timeline &timeline = timelines[core];
    SmallVector<int64_t> at = kernel.getSliceOf(core);
    SmallVector<int64_t, 6> sliceStart(numDims);
    for (int64_t d = 0; d < numDims; ++d)
      sliceStart[d] =
          (chunkAt[d] * division.splits[d] + at[d]) * slice[d];
    bool reductionLeader = true;
    for (int64_t d = 0; d < numDims; ++d)
      if (reduction[d] && at[d] != 0)
        reductionLeader = false;
    // Span: the DDR bytes each tensor's transfers reach.
    reach.assign(operands.size(), {std::numeric_limits<int64_t>::max(), -1});

    std::vector<std::vector<float>> dense(numInputs);
    std::vector<SmallVector<int64_t, 6>> loadedAt(numInputs);
    std::vector<int64_t> loads(numInputs, 0);
    std::vector<float> acc;
    int64_t stores = 0;
    SmallVector<int64_t, 6> tileAt(numDims, 0);
    bool done = false;
    while (!done) {
      SmallVector<int64_t, 6> region(numDims);
      bool firstReduction = true, lastReduction = true;
      for (int64_t d = 0; d < numDims; ++d) {
        region[d] = sliceStart[d] + tileAt[d] * tile[d];
        if (reduction[d]) {
          firstReduction &= tileAt[d] == 0;
          lastReduction &= tileAt[d] == trips[d] - 1;
        }
      }
      // Stage every input whose tile changed.
      double loadSeconds = 0;
      bool doubleBuffered = true;
      for (unsigned i = 0; i < numInputs; ++i) {
        const Operand &t = operands[i];
        SmallVector<int64_t, 6> key;
        for (int64_t d = 0; d < numDims; ++d)
          if (t.usedMask >> d & 1)
            key.push_back(tileAt[d]);
        if (loads[i] && key == loadedAt[i])
          continue;
        loadedAt[i] = key;
        float fill = 0;
        if (semantics.kind == Kind::Reduce && semantics.mask)
          fill = static_cast<float>(*semantics.mask);
        if (t.resident) {
          SmallVector<int64_t, 8> origin = boxStart(t, sliceStart);
          if (llvm::Error error = gather(t, core, region, t.access.getBase(),
                                         origin, dense[i], fill))
            return error;
          ++loads[i];
          continue;
        }
        int64_t buffer = t.access.getLxOffsets()[loads[i] % t.buffers];
        doubleBuffered &= t.buffers > 1;
        ++loads[i];
        int64_t address =
            t.access.getBase() + t.access.getCoreOffsets()[core];
        for (int64_t d = 0; d < numDims; ++d) {
          address += tileAt[d] * t.access.getTileSteps()[d];
          if (!t.access.getChunkSteps().empty())
            address += chunkAt[d] * t.access.getChunkSteps()[d];
        }
        int64_t bytes = 0;
        if (llvm::Error error =
                dma(t, core, address, buffer, region, /*toLx=*/true, bytes))
          return error;
        SmallVector<int64_t, 8> origin = boxStart(t, region);
        if (llvm::Error error =
                gather(t, core, region, buffer, origin, dense[i], fill))
          return error;
        // One core of the sharing group loads it from DDR, in turn; the
        // others receive it over the ring.
        double shared = static_cast<double>(bytes) /
                        static_cast<double>(t.group);
        loadSeconds += std::max(shared / rate,
                                (static_cast<double>(bytes) - shared) /
                                    ringRate);
        ddrBytes += bytes / t.group;
        ringBytes += bytes - bytes / t.group;
      }
      double loadStart = std::max(
          timeline.dmaFree, doubleBuffered ? timeline.prevPrev : timeline.prev);
      double loadEnd = loadStart + loadSeconds;
      event(core, "load", "dma", loadStart, loadSeconds);
      timeline.dmaFree = loadEnd;
      timeline.dmaBusy += loadSeconds;
      double computeStart = std::max(loadEnd, timeline.unitFree);
      double computeDuration = stepCompute + overhead;
      event(core, payload->getName().getStringRef(), unitName, computeStart,
            computeDuration);
      double computeEnd = computeStart + computeDuration;
      timeline.unitFree = computeEnd;
      timeline.prevPrev = timeline.prev;
      timeline.prev = computeEnd;
      timeline.computeBusy += computeDuration;

      compute(region, firstReduction, dense, acc);
      if (lastReduction) {
        if (partners > 1) {
          SmallVector<int64_t, 6> key;
          for (int64_t d = 0; d < numDims; ++d)
            key.push_back(reduction[d] ? 0 : region[d]);
          Partial &partial = partials[key];
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
          if (reductionLeader) {
            partial.leader = core;
            partial.region = region;
          }
        } else {
          if (llvm::Error error = storeTile(core, region, sliceStart, stores,
                                            acc, timeline, computeEnd))
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
    for (auto [i, range] : llvm::enumerate(reach))
      if (range.second >= 0 && range.second - range.first > target.spanBytes)
        return fail(llvm::formatv(
            "core {0} reaches {1} bytes of {2} (DDR [{3}, {4})), more than "
            "the per-core span of {5}",
            core, range.second - range.first, operands[i].name, range.first,
            range.second, target.spanBytes));
  }

  // Partial results of a split reduction: combined over the ring, stored by
  // the partner with the first slice.
  double combineSeconds = 0;
  for (auto &[key, partial] : partials) {
    if (partial.leader < 0)
      return fail("a split reduction has no partner holding the first slice");
    int64_t core = partial.leader;
    Timeline &timeline = timelines[core];
    SmallVector<int64_t> at = kernel.getSliceOf(core);
    SmallVector<int64_t, 6> sliceStart(numDims);
    for (int64_t d = 0; d < numDims; ++d)
      sliceStart[d] = (chunkAt[d] * division.splits[d] + at[d]) * slice[d];
    int64_t tileBytes =
        kernel::boxSticks(problem.result(), tile) * out.stickBytes;
    double ring = static_cast<double>((partners - 1) * tileBytes) / ringRate;
    double start = timeline.end();
    event(core, "combine", "ring", start, ring);
    combineSeconds += ring;
    ringBytes += (partners - 1) * tileBytes;
    timeline.unitFree = start + ring;
    int64_t stores = 0;
    if (llvm::Error error = storeTile(core, partial.region, sliceStart,
                                      stores, partial.acc, timeline,
                                      start + ring))
      return error;
  }

  double seconds = 0, dma = 0, computeBusy = 0;
  for (const Timeline &t : timelines) {
    seconds = std::max(seconds, t.end());
    dma = std::max(dma, t.dmaBusy);
    computeBusy = std::max(computeBusy, t.computeBusy);
  }
  seconds = std::max(seconds, static_cast<double>(ddrBytes) /
                                  target.ddrBytesPerSecond());
  if (runner.tracing)
    runner.events.push_back(llvm::json::Object{
        {"name", kernel.getName().str()},
        {"cat", "kernel"},
        {"ph", "X"},
        {"pid", 0},
        {"tid", target.cores},
        {"ts", clockBase * 1e6},
        {"dur", seconds * 1e6},
        {"args", llvm::json::Object{{"cores", cores},
                                    {"ddr_bytes", ddrBytes},
                                    {"chunk", chunk}}}});
  clockBase += seconds;
  stats.seconds += seconds;
  stats.dmaSeconds += dma;
  stats.computeSeconds += computeBusy;
  stats.combineSeconds += combineSeconds;
  stats.ddrBytes += ddrBytes;
  stats.ringBytes += ringBytes;
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
      problem->tensors[i].lxResident = kernel.getAccess(i).isResident();
    double points = 1;
    for (int64_t r : info.getStaticLoopRanges())
      points *= static_cast<double>(r);
    k.flops = pt ? 2 * points : points;
    k.roofline = kernel::roofline(*problem, target, target.cores);
  }
  double top = std::max({k.dmaSeconds, k.computeSeconds, k.combineSeconds});
  k.bottleneck = top == k.combineSeconds && top > 0 ? "ring"
                 : top == k.computeSeconds         ? k.unit == "pt" ? "PT"
                                                                    : "SFP"
                                                   : "DDR";
  stats.seconds += k.seconds;
  stats.ddrBytes += k.ddrBytes;
  stats.flops += k.flops;
  stats.roofline += k.roofline;
  stats.kernels.push_back(std::move(k));
  return llvm::Error::success();
}

llvm::json::Value KernelRunner::takeTrace() {
  llvm::json::Array all;
  for (int64_t core = 0; core < target.cores; ++core)
    all.push_back(llvm::json::Object{
        {"name", "thread_name"},
        {"ph", "M"},
        {"pid", 0},
        {"tid", core},
        {"args", llvm::json::Object{{"name", "core " + std::to_string(core)}}}});
  all.push_back(llvm::json::Object{
      {"name", "thread_name"},
      {"ph", "M"},
      {"pid", 0},
      {"tid", target.cores},
      {"args", llvm::json::Object{{"name", "kernels"}}}});
  all.push_back(llvm::json::Object{
      {"name", "process_name"},
      {"ph", "M"},
      {"pid", 0},
      {"args", llvm::json::Object{{"name", "spyre (modelled)"}}}});
  for (llvm::json::Value &e : events)
    all.push_back(std::move(e));
  events.clear();
  return llvm::json::Object{{"traceEvents", std::move(all)},
                            {"displayTimeUnit", "ns"}};
}
