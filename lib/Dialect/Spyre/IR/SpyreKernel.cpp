//===- SpyreKernel.cpp - spyre.kernel and the payload view of ops ---------===//

#include "Spyre/Dialect/Spyre/IR/Spyre.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::spyre;

//===----------------------------------------------------------------------===//
// Payloads
//===----------------------------------------------------------------------===//

bool mlir::spyre::isKernelPayload(Operation *op) {
  return isa<ComputeOpInterface, RestickifyOp, PadOp>(op);
}

PayloadInfo mlir::spyre::getPayloadInfo(Operation *op) {
  PayloadInfo info;
  if (auto compute = dyn_cast<ComputeOpInterface>(op)) {
    info.opFunc = compute.getOpFuncName();
    info.unit = compute.getExecutionUnit();
    info.maps = compute.getIndexingMapsArray();
    info.iterators = compute.getIteratorTypesArray();
    info.ranges = compute.getStaticLoopRanges();
    return info;
  }
  // Copies: one parallel dim per tensor dim.
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  info.opFunc = isa<RestickifyOp>(op) ? "ReStickifyOpHBM" : "identity";
  AffineMap identity =
      AffineMap::getMultiDimIdentityMap(type.getRank(), op->getContext());
  info.maps = {identity, identity};
  info.iterators.assign(type.getRank(), utils::IteratorType::parallel);
  info.ranges.assign(type.getShape().begin(), type.getShape().end());
  return info;
}

//===----------------------------------------------------------------------===//
// KernelOp
//===----------------------------------------------------------------------===//

Operation *KernelOp::getPayload() {
  Block &block = getBody().front();
  if (block.empty())
    return nullptr;
  auto yield = dyn_cast<YieldOp>(block.getTerminator());
  if (!yield)
    return nullptr;
  return yield.getValue().getDefiningOp();
}

int64_t KernelOp::getNumCores() {
  int64_t n = 1;
  for (Attribute dim : getDims())
    n *= cast<KernelDimAttr>(dim).getSplit();
  return n;
}

int64_t KernelOp::getNumChunks() {
  int64_t n = 1;
  for (Attribute dim : getDims())
    n *= cast<KernelDimAttr>(dim).getChunks();
  return n;
}

SmallVector<int64_t> KernelOp::getSliceOf(int64_t core) {
  SmallVector<int64_t> slice(getDims().size(), 0);
  int64_t inner = 1;
  for (int64_t d : getOrder()) {
    int64_t split = getDim(d).getSplit();
    slice[d] = (core / inner) % split;
    inner *= split;
  }
  return slice;
}

LogicalResult KernelOp::verifyRegions() {
  Block &block = getBody().front();
  if (block.getNumArguments() != getNumInputs())
    return emitOpError() << "body takes " << block.getNumArguments()
                         << " arguments for " << getNumInputs() << " inputs";
  for (auto [arg, input] : llvm::zip(block.getArguments(), getInputs()))
    if (arg.getType() != input.getType())
      return emitOpError() << "body argument type " << arg.getType()
                           << " differs from its input's " << input.getType();
  Operation *payload = getPayload();
  if (!payload || !isKernelPayload(payload) ||
      !llvm::hasSingleElement(block.without_terminator()))
    return emitOpError() << "body must be one spyre compute op, restickify or "
                            "pad followed by spyre.yield of its result";
  if (payload->getNumOperands() != getNumInputs() ||
      !llvm::equal(payload->getOperands(), block.getArguments()))
    return emitOpError() << "the body op must take the block arguments in "
                            "order";
  if (payload->getResult(0).getType() != getResult().getType())
    return emitOpError() << "body yields " << payload->getResult(0).getType()
                         << " but the kernel returns "
                         << getResult().getType();

  PayloadInfo info = getPayloadInfo(payload);
  unsigned numDims = info.ranges.size();
  if (getDims().size() != numDims)
    return emitOpError() << "has " << getDims().size() << " dims but its "
                         << payload->getName() << " has " << numDims;
  for (unsigned d = 0; d < numDims; ++d) {
    KernelDimAttr dim = getDim(d);
    if (dim.getSize() != info.ranges[d])
      return emitOpError() << "dim " << d << " (\"" << dim.getLabel()
                           << "\") has size " << dim.getSize()
                           << " but the op's extent is " << info.ranges[d];
    bool reduction = info.iterators[d] == utils::IteratorType::reduction;
    if (dim.getReduction() != reduction)
      return emitOpError() << "dim " << d << " (\"" << dim.getLabel()
                           << "\") must be marked "
                           << (reduction ? "reduction" : "parallel");
  }
  SmallVector<bool> seen(numDims, false);
  if (getOrder().size() != numDims)
    return emitOpError() << "order must list all " << numDims << " dims";
  for (int64_t d : getOrder()) {
    if (d < 0 || d >= numDims || seen[d])
      return emitOpError() << "order " << ::spyre::formatList(getOrder())
                           << " must be a permutation of the " << numDims
                           << " dims";
    seen[d] = true;
  }

  ::spyre::TargetModel target = getTarget(*this).getModel();
  if (getNumCores() > target.cores)
    return emitOpError() << "runs on " << getNumCores()
                         << " cores, the target has " << target.cores;
  if (getLxBytes() < 0 || getLxBytes() > target.usableLxBytes())
    return emitOpError() << "needs " << getLxBytes()
                         << " bytes of LX per core, the target has "
                         << target.usableLxBytes() << " usable";
  for (Attribute segment : getSegments())
    if (cast<MemAttr>(segment).getSpace() == MemorySpace::LX)
      return emitOpError() << "segments hold DDR buffers, not " << segment;

  if (getAccesses().size() != getNumInputs() + 1)
    return emitOpError() << "has " << getAccesses().size()
                         << " accesses for " << getNumInputs()
                         << " inputs and a result";
  for (unsigned i = 0, e = getNumInputs() + 1; i < e; ++i) {
    AccessAttr access = getAccess(i);
    Type type = i < getNumInputs() ? getInputs()[i].getType()
                                   : getResult().getType();
    auto describe = [&]() {
      return i < getNumInputs() ? "access of operand #" + std::to_string(i)
                                : std::string("access of the result");
    };
    int64_t deviceRank = getLayoutAttr(type).getDeviceSize().size();
    if (static_cast<int64_t>(access.getBox().size()) != deviceRank - 1 ||
        access.getLxStrides().size() != access.getBox().size())
      return emitOpError() << describe() << ": box and lx_strides need one "
                           << "entry per device dim but the stick ("
                           << deviceRank - 1 << ")";
    if (access.getTileSteps().size() != numDims ||
        (!access.getChunkSteps().empty() &&
         access.getChunkSteps().size() != numDims))
      return emitOpError() << describe()
                           << ": tile_steps and chunk_steps need one entry "
                              "per dim ("
                           << numDims << ")";
    if (access.isResident()) {
      if (!access.getDdrStrides().empty() || !access.getLxOffsets().empty() ||
          !access.getCoreOffsets().empty())
        return emitOpError() << describe()
                             << ": an LX-resident tensor has no DDR strides, "
                                "staging buffers or core offsets";
      continue;
    }
    if (access.getDdrStrides().size() != access.getBox().size())
      return emitOpError() << describe()
                           << ": ddr_strides need one entry per box dim";
    if (static_cast<int64_t>(access.getCoreOffsets().size()) != getNumCores())
      return emitOpError() << describe() << ": " << getNumCores()
                           << " cores need " << getNumCores()
                           << " core_offsets, got "
                           << access.getCoreOffsets().size();
    if (access.getLxOffsets().empty() || access.getLxOffsets().size() > 2)
      return emitOpError() << describe()
                           << ": a DDR tensor needs one or two LX staging "
                              "buffers";
    int64_t segment = access.getBase() / target.segmentBytes;
    if (segment >= static_cast<int64_t>(getSegments().size()))
      return emitOpError() << describe() << ": base " << access.getBase()
                           << " lies in segment " << segment
                           << ", the kernel binds "
                           << getSegments().size();
    auto bound = cast<MemAttr>(getSegments()[segment]);
    bool matches = access.getMem().getSpace() == bound.getSpace() &&
                   (bound.getSpace() == MemorySpace::Pool ||
                    access.getMem() == bound);
    if (!matches)
      return emitOpError() << describe() << ": its tensor lives in "
                           << access.getMem() << " but segment " << segment
                           << " is bound to " << bound;
  }
  return success();
}

LogicalResult KernelOp::verify() {
  if (getName().empty())
    return emitOpError() << "needs a name";
  return success();
}
