//===- LowerToKernels.cpp - --spyre-lower-to-kernels
//-----------------------===//
//
// Every divided and planned payload op becomes a spyre.kernel whose
// attributes spell out the per-core program. All addresses come from the
// operand's layout: a device position's byte offset is the row-major stick
// index over device_size[:-1] times the stick size, and an op-dim coordinate
// x lands on device dim d (tiling op dim k with multiplier m) at
// (x_k / m) mod device_size[d]. Slices, tiles and chunks start on whole
// granules, so these offsets are linear in the slice, tile and chunk indices.
//
//===----------------------------------------------------------------------===//

#include "Spyre/Dialect/Spyre/IR/KernelForm.h"
#include "Spyre/Transforms/Passes.h"
#include "Spyre/Transforms/Utils.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include <map>

namespace mlir::spyre {
#define GEN_PASS_DEF_SPYRELOWERTOKERNELS
#include "Spyre/Transforms/Passes.h.inc"
} // namespace mlir::spyre

using namespace mlir;
using namespace mlir::spyre;

namespace {

/// Sticks between the origin and the device position of op-dim coordinate
/// `coord`, with `strides` per device dim (the stick dim excluded).
int64_t stickOffset(const kernel::Tensor &tensor, ArrayRef<int64_t> coord,
                    ArrayRef<int64_t> strides) {
  int64_t offset = 0;
  for (size_t d = 0; d + 1 < tensor.dims.size(); ++d) {
    const kernel::TensorDim &dim = tensor.dims[d];
    if (dim.opDim < 0)
      continue;
    offset += (coord[dim.opDim] / dim.multiplier) % dim.size * strides[d];
  }
  return offset;
}

/// `value` at op dim `d`, zero elsewhere.
SmallVector<int64_t> unitCoord(size_t numDims, unsigned d, int64_t value) {
  SmallVector<int64_t> coord(numDims, 0);
  coord[d] = value;
  return coord;
}

/// Everything about a kernel that depends only on the op's signature, its
/// division and tiles, and which tensors are LX-resident: shared by every op
/// with the same signature.
struct KernelShape {
  struct Tensor {
    SmallVector<int64_t> coreOffsets, tileSteps, chunkSteps, box, ddrStrides,
        lxStrides;
    int64_t buffers = 0, bufferBytes = 0;
  };
  std::vector<Tensor> tensors;
  ArrayAttr dims;
  DenseI64ArrayAttr order;
  int64_t combineBytes = 0;
  std::string name;
};

struct LowerToKernelsPass
    : public ::mlir::spyre::impl::SpyreLowerToKernelsBase<LowerToKernelsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    target = getTarget(module).getModel();
    for (auto function : module.getOps<FunctionOpInterface>()) {
      if (function.isExternal())
        continue;
      if (failed(lowerFunction(function)))
        return signalPassFailure();
    }
  }

  /// Kernels are numbered across the module like the SuperDSCs they
  /// become: a kernel cut into chunks takes one number per launch.
  int64_t nextIndex = 0;

  LogicalResult lowerFunction(FunctionOpInterface function);
  FailureOr<MemAttr> getMem(Operation *user, Value value);
  LogicalResult lower(Operation *op, FunctionOpInterface function, bool hasPool,
                      int64_t index);
  FailureOr<KernelShape> shapeOf(Operation *op, ArrayRef<bool> resident);

  TargetModel target;
  std::map<OpSignature, KernelShape> shapes;
};

FailureOr<MemAttr> LowerToKernelsPass::getMem(Operation *user, Value value) {
  MemAttr mem = getRecordedMem(value);
  if (!mem)
    return user->emitOpError()
           << "reads or writes a tensor with no '" << SpyreDialect::kMemAttrName
           << "'; run --spyre-plan-memory first";
  return mem;
}

LogicalResult LowerToKernelsPass::lowerFunction(FunctionOpInterface function) {
  auto pool =
      function->getAttrOfType<IntegerAttr>(SpyreDialect::kPoolBytesAttrName);
  bool hasPool = pool && pool.getInt() > 0;
  SmallVector<Operation *> payloads;
  function.getFunctionBody().walk([&](Operation *op) {
    if (isKernelPayload(op) && !op->getParentOfType<KernelOp>() &&
        isDeviceTensor(op->getResult(0).getType()))
      payloads.push_back(op);
  });
  for (Operation *op : payloads) {
    int64_t index = nextIndex;
    if (DivisionAttr division = getDivision(op))
      nextIndex += division.getNumChunks();
    if (failed(lower(op, function, hasPool, index)))
      return failure();
  }
  return success();
}

FailureOr<KernelShape> LowerToKernelsPass::shapeOf(Operation *op,
                                                   ArrayRef<bool> resident) {
  MLIRContext *context = op->getContext();
  DivisionAttr division = getDivision(op);
  auto tiles =
      op->getAttrOfType<DenseI64ArrayAttr>(SpyreDialect::kTilesAttrName);
  std::string reason;
  FailureOr<kernel::Problem> problem = getKernelProblem(op, reason);
  if (failed(problem))
    return op->emitOpError() << reason;
  size_t numDims = problem->dims.size();
  kernel::Division div = division.getModel();
  if (tiles.size() != static_cast<int64_t>(numDims))
    return op->emitOpError() << "'" << SpyreDialect::kTilesAttrName
                             << "' needs " << numDims << " entries";
  SmallVector<int64_t, 6> slice = kernel::sliceSizes(*problem, div);
  std::optional<kernel::Division> resultDiv =
      kernel::resultDivision(*problem, div);
  if (resident.back() && !resultDiv)
    return op->emitOpError()
           << "keeps its result in LX, but its split reduction cannot "
              "scatter the result over the partners";
  SmallVector<int64_t, 6> resultSlice =
      resultDiv ? kernel::sliceSizes(*problem, *resultDiv) : slice;
  ArrayRef<int64_t> tile = tiles.asArrayRef();
  for (unsigned d = 0; d < numDims; ++d)
    if (tile[d] % problem->dims[d].granule || slice[d] % tile[d])
      return op->emitOpError()
             << "tile " << tile[d] << " of dim " << d
             << " must be a multiple of " << problem->dims[d].granule
             << " dividing the per-core slice " << slice[d];

  KernelShape shape;
  int inPlace = getInPlaceOperand(op);
  for (auto [i, tensor] : llvm::enumerate(problem->tensors)) {
    tensor.lxResident = resident[i];
    bool isInPlace = static_cast<int>(i) == inPlace;
    KernelShape::Tensor out;
    SmallVector<int64_t, 8> deviceSize;
    for (const kernel::TensorDim &dim : tensor.dims)
      deviceSize.push_back(dim.size);
    deviceSize.pop_back();
    int64_t stick = tensor.stickBytes;
    auto scaled = [&](ArrayRef<int64_t> values) {
      SmallVector<int64_t> result;
      for (int64_t v : values)
        result.push_back(v * stick);
      return result;
    };
    SmallVector<int64_t, 8> tileBox = kernel::boxCounts(tensor, tile);
    tileBox.pop_back();
    out.box.assign(tileBox.begin(), tileBox.end());
    if (tensor.lxResident) {
      // The core's whole slice lives in LX, laid out row-major (its part of
      // a split reduction's result: kernel::resultDivision).
      SmallVector<int64_t, 8> sliceBox =
          kernel::boxCounts(tensor, tensor.isResult ? resultSlice : slice);
      sliceBox.pop_back();
      SmallVector<int64_t, 6> lxStrides = rowMajorStrides(sliceBox);
      for (unsigned d = 0; d < numDims; ++d)
        out.tileSteps.push_back(
            stickOffset(tensor, unitCoord(numDims, d, tile[d]), lxStrides) *
            stick);
      out.lxStrides = scaled(lxStrides);
      shape.tensors.push_back(std::move(out));
      continue;
    }
    SmallVector<int64_t, 6> ddrStrides = rowMajorStrides(deviceSize);
    // A box of a larger tensor (read or written): every core starts from
    // the box's origin.
    FailureOr<int64_t> window = 0;
    if (auto box = dyn_cast<ExtractSliceOp>(op); box && i == 0)
      window = box.getWindowBytes();
    if (auto box = dyn_cast<InsertSliceOp>(op);
        box && (tensor.isResult || isInPlace))
      window = box.getWindowBytes();
    if (failed(window))
      return op->emitOpError("the box is not one of device positions");
    for (int64_t c = 0, e = div.numCores(); c < e; ++c) {
      SmallVector<int64_t, 6> at = div.sliceOf(c);
      SmallVector<int64_t> start;
      for (unsigned d = 0; d < numDims; ++d)
        start.push_back(at[d] * slice[d]);
      out.coreOffsets.push_back(*window +
                                stickOffset(tensor, start, ddrStrides) * stick);
    }
    for (unsigned d = 0; d < numDims; ++d) {
      out.tileSteps.push_back(
          stickOffset(tensor, unitCoord(numDims, d, tile[d]), ddrStrides) *
          stick);
      if (div.numChunks() > 1)
        out.chunkSteps.push_back(
            stickOffset(tensor,
                        unitCoord(numDims, d,
                                  problem->dims[d].padded() / div.chunks[d]),
                        ddrStrides) *
            stick);
    }
    out.ddrStrides = scaled(ddrStrides);
    out.lxStrides = scaled(rowMajorStrides(tileBox));
    // The destination written in place is never staged.
    out.buffers = isInPlace
                      ? 0
                      : kernel::stagingBuffers(
                            *problem, tensor, slice, tile,
                            op->hasAttr(SpyreDialect::kKeepInputsAttrName));
    out.bufferBytes = kernel::boxSticks(tensor, tile) * stick;
    shape.tensors.push_back(std::move(out));
  }
  // A split reduction receives its partner's partial tile over the ring
  // (and, when its result stays in LX, accumulates each tile apart from the
  // part of the result it keeps).
  for (auto [d, dim] : llvm::enumerate(problem->dims))
    if (dim.reduction && div.splits[d] > 1)
      shape.combineBytes = (resident.back() ? 2 : 1) *
                           kernel::boxSticks(problem->result(), tile) *
                           problem->result().stickBytes;

  SmallVector<std::string> labels = getDimLabels(op);
  SmallVector<Attribute> dims;
  for (auto [d, dim] : llvm::enumerate(problem->dims))
    dims.push_back(KernelDimAttr::get(context, labels[d], dim.size, dim.granule,
                                      div.splits[d], div.chunks[d], tile[d],
                                      dim.reduction));
  shape.dims = ArrayAttr::get(context, dims);
  shape.order = DenseI64ArrayAttr::get(
      context, SmallVector<int64_t>(div.order.begin(), div.order.end()));
  shape.name = getSuperDscOpFunc(op);
  return shape;
}

LogicalResult LowerToKernelsPass::lower(Operation *op,
                                        FunctionOpInterface function,
                                        bool hasPool, int64_t index) {
  MLIRContext *context = op->getContext();
  if (!getDivision(op) || !op->getAttr(SpyreDialect::kTilesAttrName))
    return op->emitOpError()
           << "needs '" << SpyreDialect::kDivisionAttrName << "' and '"
           << SpyreDialect::kTilesAttrName
           << "'; run --spyre-divide-work and --spyre-plan-memory first";

  // Where every tensor lives; the segments the kernel binds.
  SmallVector<Value> tensors(op->getOperands());
  tensors.push_back(op->getResult(0));
  SmallVector<MemAttr> mems;
  SmallVector<bool> resident;
  SmallVector<Attribute> segments;
  if (hasPool)
    segments.push_back(MemAttr::get(context, MemorySpace::Pool, 0));
  for (Value value : tensors) {
    FailureOr<MemAttr> mem = getMem(op, value);
    if (failed(mem))
      return failure();
    mems.push_back(*mem);
    resident.push_back(mem->getSpace() == MemorySpace::LX);
    if (mem->getSpace() == MemorySpace::IO &&
        !llvm::is_contained(segments, *mem))
      segments.push_back(*mem);
  }
  // An LX-resident input must be sliced the way its producer left it.
  int inPlace = getInPlaceOperand(op);
  if (inPlace >= 0 && resident[inPlace])
    return op->emitOpError()
           << "writes into operand #" << inPlace
           << " in place, which must live in DDR, not " << mems[inPlace];
  // Where a box read from LX starts in each core's slice (bytes).
  SmallVector<int64_t> residentOffsets(tensors.size(), 0);
  for (auto [i, value] : llvm::enumerate(op->getOperands())) {
    if (!resident[i])
      continue;
    // (Through the views between: the same device bytes; and through a
    // view's box, read inside each core's slice.)
    std::optional<BoxedRead> boxed = getBoxedRead(value);
    auto producer = (boxed ? boxed->viewed : getViewedValue(value))
                        .getDefiningOp<KernelOp>();
    std::string reason;
    FailureOr<kernel::Problem> mine = getKernelProblem(op, reason);
    FailureOr<kernel::Problem> theirs =
        producer ? getKernelProblem(producer.getPayload(), reason)
                 : FailureOr<kernel::Problem>(failure());
    kernel::Division ours = getDivision(op).getModel();
    std::optional<kernel::Division> left;
    if (succeeded(theirs))
      left = kernel::resultDivision(*theirs, getKernelDivision(producer));
    bool found = false;
    if (succeeded(mine) && left && boxed) {
      std::optional<int64_t> offset =
          residentBoxOffset(*theirs, *left, *mine, ours, i, boxed->windowBytes);
      if (offset) {
        residentOffsets[i] = *offset * theirs->tensors.back().stickBytes;
        found = true;
      }
    } else if (succeeded(mine) && left) {
      found = kernel::sameCoreSlices(*theirs, *left, theirs->tensors.size() - 1,
                                     *mine, ours, i);
    }
    if (!found)
      return op->emitOpError()
             << "operand #" << i << " stays in LX (" << mems[i]
             << ") but its producer does not leave each core the slice this "
                "op needs";
  }
  int64_t maxSegments = target.ddrBytes / target.segmentBytes;
  if (static_cast<int64_t>(segments.size()) > maxSegments)
    return op->emitOpError()
           << "needs " << segments.size()
           << " DDR address segments (the pool and one per host-visible "
              "tensor), the DDR holds "
           << maxSegments;

  OpSignature key = getOpSignature(op, {SpyreDialect::kDivisionAttrName,
                                        SpyreDialect::kTilesAttrName,
                                        SpyreDialect::kKeepInputsAttrName});
  for (bool r : resident)
    key.push_back(r);
  auto cached = shapes.find(key);
  if (cached == shapes.end()) {
    FailureOr<KernelShape> shape = shapeOf(op, resident);
    if (failed(shape))
      return failure();
    cached = shapes.emplace(std::move(key), std::move(*shape)).first;
  }
  const KernelShape &shape = cached->second;

  // Accesses: the shape plus this kernel's addresses and staging buffers.
  SmallVector<Attribute> accesses;
  int64_t lxOffset = 0;
  for (auto [i, t] : llvm::enumerate(shape.tensors)) {
    MemAttr mem = mems[i];
    if (resident[i]) {
      accesses.push_back(
          AccessAttr::get(context, mem, mem.getValue() + residentOffsets[i], {},
                          t.tileSteps, {}, t.box, {}, t.lxStrides, {}));
      continue;
    }
    int64_t segment = mem.getSpace() == MemorySpace::Pool
                          ? 0
                          : llvm::find(segments, mem) - segments.begin();
    // A view of a block of rows starts inside its buffer.
    int64_t window = 0;
    getBufferRoot(tensors[i], &window);
    int64_t base = segment * target.segmentBytes + window +
                   (mem.getSpace() == MemorySpace::Pool ? mem.getValue() : 0);
    SmallVector<int64_t> lxOffsets;
    for (int64_t b = 0; b < t.buffers; ++b) {
      lxOffsets.push_back(lxOffset);
      lxOffset += t.bufferBytes;
    }
    accesses.push_back(AccessAttr::get(context, mem, base, t.coreOffsets,
                                       t.tileSteps, t.chunkSteps, t.box,
                                       t.ddrStrides, t.lxStrides, lxOffsets));
  }
  // The destination written in place is addressed like the result (its
  // own device dims, the same bytes); it names the result's staging
  // buffers, as it is never staged itself.
  if (inPlace >= 0) {
    auto own = cast<AccessAttr>(accesses[inPlace]);
    auto result = cast<AccessAttr>(accesses.back());
    accesses[inPlace] = AccessAttr::get(
        context, own.getMem(), own.getBase(), own.getCoreOffsets(),
        own.getTileSteps(), own.getChunkSteps(), own.getBox(),
        own.getDdrStrides(), own.getLxStrides(), result.getLxOffsets());
  }
  lxOffset += shape.combineBytes;
  if (lxOffset > target.usableLxBytes())
    return op->emitOpError()
           << "needs " << lxOffset << " bytes of LX per core for its staging "
           << "buffers, only " << target.usableLxBytes() << " are usable";

  // The kernel, with the op as its body.
  OpBuilder builder(op);
  std::string name = std::to_string(index) + "_" + shape.name;
  auto kernelOp = KernelOp::create(
      builder, op->getLoc(), op->getResult(0).getType(), op->getOperands(),
      builder.getStringAttr(name), shape.dims, shape.order,
      builder.getArrayAttr(accesses), builder.getArrayAttr(segments),
      builder.getI64IntegerAttr(lxOffset));
  SmallVector<Location> locs(op->getNumOperands(), op->getLoc());
  Block *body = builder.createBlock(&kernelOp.getBody(), {},
                                    TypeRange(op->getOperandTypes()), locs);
  builder.setInsertionPointToStart(body);
  Operation *clone = builder.clone(*op);
  for (unsigned i = 0, e = op->getNumOperands(); i < e; ++i)
    clone->setOperand(i, body->getArgument(i));
  for (StringRef attr :
       {SpyreDialect::kDivisionAttrName, SpyreDialect::kTilesAttrName,
        SpyreDialect::kKeepInputsAttrName, SpyreDialect::kMemAttrName,
        SpyreDialect::kWorkDivisionAttrName})
    clone->removeAttr(attr);
  YieldOp::create(builder, op->getLoc(), clone->getResult(0));
  if (Attribute mem = op->getAttr(SpyreDialect::kMemAttrName))
    kernelOp->setAttr(SpyreDialect::kMemAttrName, mem);
  op->getResult(0).replaceAllUsesWith(kernelOp.getResult());
  op->erase();
  return success();
}

} // namespace
