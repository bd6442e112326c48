//===- PlanMemory.cpp - --spyre-plan-memory
//--------------------------------===//
//
// Per function (one block of device ops, in program order):
//
//  1. every tensor buffer is a *root*: a function argument, a constant, a
//     transfer to the device, or the result of a payload op; views alias the
//     root they look at;
//  2. roots the host sees (arguments, constants, transfers, results, tensors
//     read by host code) are io buffers, numbered arguments first;
//  3. every payload op is tiled for the usable LX (`spyre.tiles`);
//  4. other roots are intermediates: those whose producer and consumers give
//     each core the same slice may stay in LX, highest-saving first, when
//     they fit above the staging buffers of every kernel they live across;
//     the rest share the DDR pool, first fit over live ranges.
//
//===----------------------------------------------------------------------===//

#include "Spyre/Dialect/Spyre/IR/KernelForm.h"
#include "Spyre/Transforms/Passes.h"
#include "Spyre/Transforms/Utils.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/MapVector.h"

#include <map>

namespace mlir::spyre {
#define GEN_PASS_DEF_SPYREPLANMEMORY
#include "Spyre/Transforms/Passes.h.inc"
} // namespace mlir::spyre

using namespace mlir;
using namespace mlir::spyre;

namespace {

struct Buffer {
  Value root;
  int64_t bytes = 0;
  int def = 0;  ///< program position of the definition (-1: argument)
  int last = 0; ///< last position reading it (through views too)
  bool hostVisible = false;
  MemorySpace space = MemorySpace::Pool;
  int64_t value = 0; ///< io index or byte offset
};

/// A payload op with its kernel model and plan.
struct Kernel {
  Operation *op = nullptr;
  int position = 0;
  kernel::Problem problem;
  kernel::Division division;
  kernel::Tiling tiling;
  int64_t lxBytes = 0;
  SmallVector<AffineMap> maps; ///< inputs, then the result
};

/// Records `tiling` on `op`: its tiles and whether its inputs keep theirs.
void setTiling(Operation *op, const kernel::Tiling &tiling) {
  op->setAttr(SpyreDialect::kTilesAttrName,
              DenseI64ArrayAttr::get(op->getContext(),
                                     SmallVector<int64_t>(tiling.tiles.begin(),
                                                          tiling.tiles.end())));
  if (tiling.keep)
    op->setAttr(SpyreDialect::kKeepInputsAttrName,
                UnitAttr::get(op->getContext()));
  else
    op->removeAttr(SpyreDialect::kKeepInputsAttrName);
}

int64_t alignTo(int64_t value, int64_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

struct PlanMemoryPass
    : public ::mlir::spyre::impl::SpyrePlanMemoryBase<PlanMemoryPass> {
  using SpyrePlanMemoryBase::SpyrePlanMemoryBase;

  void runOnOperation() override {
    if (failed(forEachFunction(getOperation(), [&](FunctionOpInterface f) {
          target = getTarget(f).getModel();
          return success(f.isExternal() || succeeded(planFunction(f)));
        })))
      signalPassFailure();
  }

  LogicalResult planFunction(FunctionOpInterface function);
  LogicalResult tileKernels(Block &block, DenseMap<Operation *, int> &position,
                            std::vector<Kernel> &kernels);
  LogicalResult
  chooseResidents(SmallVector<Buffer *> &candidates, ArrayRef<Kernel> kernels,
                  const DenseMap<Operation *, const Kernel *> &byOp);

  TargetModel target;
  std::map<OpSignature, Kernel> planned;
};

LogicalResult PlanMemoryPass::tileKernels(Block &block,
                                          DenseMap<Operation *, int> &position,
                                          std::vector<Kernel> &kernels) {
  for (Operation &op : block) {
    if (!isKernelPayload(&op) || !isDeviceTensor(op.getResult(0).getType()))
      continue;
    DivisionAttr division = getDivision(&op);
    if (!division)
      return op.emitOpError() << "has no '" << SpyreDialect::kDivisionAttrName
                              << "'; run --spyre-divide-work first";
    OpSignature key = getOpSignature(&op, {SpyreDialect::kDivisionAttrName});
    auto cached = planned.find(key);
    if (cached != planned.end()) {
      Kernel k = cached->second;
      k.op = &op;
      k.position = position[&op];
      setTiling(&op, k.tiling);
      kernels.push_back(std::move(k));
      continue;
    }
    std::string reason;
    FailureOr<kernel::Problem> problem = getKernelProblem(&op, reason);
    if (failed(problem))
      return op.emitOpError() << reason;
    Kernel k;
    k.op = &op;
    k.position = position[&op];
    k.problem = std::move(*problem);
    k.division = division.getModel();
    for (auto [d, dim] : llvm::enumerate(k.problem.dims)) {
      int64_t parts = k.division.splits[d] * k.division.chunks[d];
      if (dim.units() % parts)
        return op.emitOpError()
               << "'" << SpyreDialect::kDivisionAttrName << "' cuts dim " << d
               << " (" << dim.units() << " granules of " << dim.granule
               << ") into " << parts << " uneven parts";
    }
    llvm::Expected<kernel::Plan> plan = kernel::planDivision(
        k.problem, target, k.division, target.usableLxBytes());
    if (!plan)
      return op.emitOpError() << "does not fit the cores' LX: "
                              << llvm::toString(plan.takeError());
    k.tiling = plan->tiling;
    k.lxBytes = plan->estimate.lxBytes;
    k.maps = cast<KernelPayloadOpInterface>(op).getIndexingMapsArray();
    setTiling(&op, k.tiling);
    planned[key] = k;
    kernels.push_back(std::move(k));
  }
  return success();
}

LogicalResult PlanMemoryPass::chooseResidents(
    SmallVector<Buffer *> &candidates, ArrayRef<Kernel> kernels,
    const DenseMap<Operation *, const Kernel *> &byOp) {
  int64_t usable = target.usableLxBytes();
  LxPlacer placer(usable, target.stickBytes);
  // `k`'s problem with the tensors whose buffers are `resident` (or
  // `extra`) in LX marked so: a kernel stages none of those.
  DenseSet<Value> resident;
  auto withResidents = [&](const Kernel &k, Value extra) {
    kernel::Problem problem = k.problem;
    markLxResident(problem, k.op, [&](Value v) {
      Value root = getBufferRoot(v);
      return root == extra || resident.contains(root);
    });
    return problem;
  };
  // The least LX `k`'s staging buffers can take with those tensors in LX
  // (the kernel is tiled again below when its tiles do not leave that
  // room).
  auto stagingOf = [&](const Kernel &k, Value extra) {
    return kernel::leastStagingBytes(withResidents(k, extra), target,
                                     k.division, k.tiling, usable);
  };
  for (Buffer *buffer : candidates) {
    const Kernel *producer = byOp.lookup(buffer->root.getDefiningOp());
    int64_t bytes = alignTo(
        kernel::residentResultBytes(producer->problem, producer->division),
        target.stickBytes);
    // Staging buffers of every kernel the tensor lives across sit below
    // (none for the tensors in LX, this one included).
    int64_t floor = 0;
    auto first = llvm::partition_point(
        kernels, [&](const Kernel &k) { return k.position < buffer->def; });
    for (auto it = first; it != kernels.end() && it->position <= buffer->last;
         ++it)
      floor = std::max(floor, stagingOf(*it, buffer->root));
    std::optional<int64_t> offset =
        placer.place(buffer->def, buffer->last, bytes, floor);
    if (!offset)
      continue;
    buffer->space = MemorySpace::LX;
    buffer->value = *offset;
    resident.insert(buffer->root);
  }
  // Each kernel's staging must stay below the tensors in LX while it runs:
  // a kernel whose tiles take more is tiled again within that room (its
  // fastest tiling there; one within 2% of its fastest fits, as placed).
  for (const Kernel &k : kernels) {
    int64_t room = placer.roomAt(k.position);
    kernel::Problem problem = withResidents(k, Value());
    if (kernel::estimate(problem, k.division, k.tiling, target).lxBytes <= room)
      continue;
    llvm::Expected<kernel::Tiling> tiling =
        kernel::chooseTiles(problem, target, k.division, room);
    if (!tiling)
      return k.op->emitOpError()
             << "internal error: no tiling leaves room for the tensors kept "
                "in LX ("
             << room
             << " bytes below them): " << llvm::toString(tiling.takeError());
    setTiling(k.op, *tiling);
  }
  return success();
}

LogicalResult PlanMemoryPass::planFunction(FunctionOpInterface function) {
  Region &body = function.getFunctionBody();
  if (!body.hasOneBlock()) {
    bool hasDevice = false;
    body.walk([&](Operation *op) {
      hasDevice |= llvm::any_of(op->getResultTypes(), isDeviceTensor);
    });
    if (!hasDevice)
      return success();
    return function.emitError()
           << "--spyre-plan-memory handles functions of one block; this one "
              "has "
           << body.getBlocks().size();
  }
  Block &block = body.front();
  DenseMap<Operation *, int> position;
  int counter = 0;
  for (Operation &op : block)
    position[&op] = counter++;

  // Roots and their buffers.
  llvm::MapVector<Value, Buffer> buffers;
  auto addRoot = [&](Value value, int def) {
    Buffer buffer;
    buffer.root = value;
    buffer.def = def;
    buffer.last = def;
    LayoutAttr layout = getLayoutAttr(value.getType());
    llvm::Expected<SpyreTensorLayout> stl = layout.getLayout(
        cast<RankedTensorType>(value.getType()).getElementType());
    buffer.bytes = stl ? alignTo(stl->deviceBytes(), target.stickBytes) : 0;
    if (!stl)
      llvm::consumeError(stl.takeError());
    buffers.insert({value, buffer});
  };
  for (BlockArgument arg : block.getArguments())
    if (isDeviceTensor(arg.getType())) {
      addRoot(arg, -1);
      buffers[arg].hostVisible = true;
    }
  for (Operation &op : block) {
    if (op.getNumRegions() &&
        llvm::any_of(op.getRegions(), [](Region &r) { return !r.empty(); })) {
      bool nestedDevice = false;
      op.walk([&](Operation *inner) {
        nestedDevice |= inner != &op &&
                        llvm::any_of(inner->getResultTypes(), isDeviceTensor);
      });
      if (nestedDevice)
        return op.emitOpError()
               << "holds device tensors in a nested region; "
                  "--spyre-plan-memory handles straight-line functions";
    }
    if (auto insert = dyn_cast<InsertSliceOp>(op);
        insert && isDeviceTensor(insert.getType()) &&
        !isExclusivelyOwned(insert.getDest()))
      return insert.emitOpError()
             << "writes into its destination's buffer in place, but the "
                "destination is read elsewhere or is not a kernel's result "
                "(--spyre-divide-work copies it first)";
    for (Value result : op.getResults()) {
      // Views and in-place writes use their operand's buffer (a result an
      // in-place insert places, its destination's).
      if (!isDeviceTensor(result.getType()) || isViewOp(&op) ||
          getInPlaceOperand(&op) >= 0 || getBufferRoot(result) != result)
        continue;
      if (isa<TransposeOp, ReshapeOp>(op))
        return op.emitOpError()
               << "moves data between layouts; only views may remain "
                  "(run --spyre-propagate-layouts)";
      addRoot(result, position[&op]);
      if (isa<ConstantOp, ToDeviceOp>(op) ||
          (!isKernelPayload(&op) && !isa<EmptyOp>(op)))
        buffers[result].hostVisible = true;
    }
  }

  // Live ranges and host visibility through views.
  for (Operation &op : block) {
    for (Value operand : op.getOperands()) {
      if (!isDeviceTensor(operand.getType()))
        continue;
      Value root = getBufferRoot(operand);
      auto it = buffers.find(root);
      if (it == buffers.end())
        continue;
      Buffer &buffer = it->second;
      buffer.last = std::max(buffer.last, position[&op]);
      if (!isKernelPayload(&op) && !isViewOp(&op) && !isInPlaceInsert(&op))
        buffer.hostVisible = true;
    }
  }

  std::vector<Kernel> kernels;
  if (failed(tileKernels(block, position, kernels)))
    return failure();
  DenseMap<Operation *, const Kernel *> byOp;
  for (const Kernel &k : kernels)
    byOp[k.op] = &k;

  // IO numbering: arguments first, then in program order.
  int64_t nextIo = 0;
  for (auto &[root, buffer] : buffers)
    if (buffer.hostVisible && isa<BlockArgument>(root)) {
      buffer.space = MemorySpace::IO;
      buffer.value = nextIo++;
    }
  for (auto &[root, buffer] : buffers)
    if (buffer.hostVisible && !isa<BlockArgument>(root)) {
      buffer.space = MemorySpace::IO;
      buffer.value = nextIo++;
    }
  // Each kernel binds an io buffer to one DDR address segment: the tensor
  // must fit it (intermediates are checked with the pool below).
  for (auto &[root, buffer] : buffers) {
    if (buffer.space != MemorySpace::IO || buffer.bytes <= target.segmentBytes)
      continue;
    InFlightDiagnostic diag = isa<BlockArgument>(root)
                                  ? function.emitError()
                                  : root.getDefiningOp()->emitOpError();
    if (auto arg = dyn_cast<BlockArgument>(root))
      diag << "argument " << arg.getArgNumber() << " of @"
           << function.getName();
    else
      diag << "result";
    return diag << " (" << buffer.bytes
                << " bytes on the device) does not fit one DDR address "
                   "segment ("
                << target.segmentBytes
                << " bytes, the #spyre.target's segment_bytes)";
  }

  // LX residency for intermediates whose slices match everywhere.
  if (lxResidency) {
    SmallVector<Buffer *> candidates;
    for (auto &[root, buffer] : buffers) {
      if (buffer.hostVisible)
        continue;
      // Only the outputs of the target's LX-resident ops (torch-spyre's
      // set by default: no matmul, restickify or pad output), or of a
      // fusion group's ops (--spyre-fuse-row-blocks), which exist to keep
      // theirs in LX.
      const Kernel *producer = byOp.lookup(root.getDefiningOp());
      auto divided = [](const Kernel &k) {
        return DividedPayload{k.op, &k.problem, &k.division, k.maps};
      };
      bool matches =
          producer && mayStayInLx(
                          divided(*producer),
                          [&](Operation *op) -> std::optional<DividedPayload> {
                            if (const Kernel *k = byOp.lookup(op))
                              return divided(*k);
                            return std::nullopt;
                          },
                          target);
      if (matches)
        candidates.push_back(&buffer);
    }
    llvm::stable_sort(candidates, [](Buffer *a, Buffer *b) {
      auto saving = [](Buffer *x) {
        return x->bytes *
               (1 + static_cast<int64_t>(llvm::range_size(x->root.getUses())));
      };
      return saving(a) > saving(b);
    });
    if (failed(chooseResidents(candidates, kernels, byOp)))
      return failure();
  }

  // The DDR pool: first fit over live ranges, in definition order.
  struct Live {
    int last;
    int64_t begin, end;
  };
  SmallVector<Live> live;
  int64_t poolBytes = 0;
  for (auto &[root, buffer] : buffers) {
    if (buffer.hostVisible || buffer.space == MemorySpace::LX)
      continue;
    int def = buffer.def;
    llvm::erase_if(live, [def](const Live &l) { return l.last < def; });
    llvm::sort(live,
               [](const Live &a, const Live &b) { return a.begin < b.begin; });
    int64_t offset = 0;
    for (const Live &l : live) {
      if (offset + buffer.bytes <= l.begin)
        break;
      offset = std::max(offset, l.end);
    }
    buffer.space = MemorySpace::Pool;
    buffer.value = offset;
    live.push_back({buffer.last, offset, offset + buffer.bytes});
    poolBytes = std::max(poolBytes, offset + buffer.bytes);
  }
  if (poolBytes > target.segmentBytes)
    return function.emitError()
           << "the DDR intermediate pool needs " << poolBytes
           << " bytes, more than one address segment (" << target.segmentBytes
           << " bytes)";

  // Record the plan.
  MLIRContext *context = function.getContext();
  for (auto &[root, buffer] : buffers) {
    auto mem = MemAttr::get(context, buffer.space, buffer.value);
    if (auto arg = dyn_cast<BlockArgument>(root))
      function.setArgAttr(arg.getArgNumber(), SpyreDialect::kMemAttrName, mem);
    else
      root.getDefiningOp()->setAttr(SpyreDialect::kMemAttrName, mem);
  }
  Operation *terminator = block.getTerminator();
  if (function.getNumResults() == terminator->getNumOperands())
    for (auto [i, value] : llvm::enumerate(terminator->getOperands())) {
      if (!isDeviceTensor(value.getType()))
        continue;
      auto it = buffers.find(getBufferRoot(value));
      if (it == buffers.end())
        continue;
      function.setResultAttr(
          i, SpyreDialect::kMemAttrName,
          MemAttr::get(context, MemorySpace::IO, it->second.value));
    }
  function->setAttr(SpyreDialect::kPoolBytesAttrName,
                    IntegerAttr::get(IntegerType::get(context, 64), poolBytes));
  return success();
}

} // namespace
