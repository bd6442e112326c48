//===- SpyreKernel.cpp - spyre.kernel and the payload view of ops ---------===//

#include "Spyre/Dialect/Spyre/IR/KernelForm.h"
#include "Spyre/Dialect/Spyre/IR/Spyre.h"

#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <limits>
#include <optional>

using namespace mlir;
using namespace mlir::spyre;

//===----------------------------------------------------------------------===//
// KernelOp
//===----------------------------------------------------------------------===//

bool mlir::spyre::isViewOp(Operation *op) {
  // Checked before isView(): verifiers call this on operands whose defining
  // ops may not be verified yet.
  if (op->getNumOperands() != 1 || op->getNumResults() != 1 ||
      !isa<RankedTensorType>(op->getOperand(0).getType()) ||
      !isa<RankedTensorType>(op->getResult(0).getType()))
    return false;
  if (auto transpose = dyn_cast<TransposeOp>(op))
    return transpose.isView();
  if (auto reshape = dyn_cast<ReshapeOp>(op))
    return reshape.isView();
  if (auto slice = dyn_cast<ExtractSliceOp>(op))
    return slice.isView();
  return false;
}

int mlir::spyre::getInPlaceOperand(Operation *op) {
  if (isa<InsertSliceOp>(op))
    return 1;
  if (auto kernel = dyn_cast<KernelOp>(op))
    if (!kernel.getBody().empty() &&
        isa_and_nonnull<InsertSliceOp>(kernel.getPayload()))
      return 1;
  return -1;
}

bool mlir::spyre::isInPlaceInsert(Operation *op) {
  auto insert = dyn_cast<InsertSliceOp>(op);
  if (!insert || !insert.getSource().hasOneUse())
    return false;
  // Written by a kernel (not a view, another box or a caller's tensor).
  Operation *def = insert.getSource().getDefiningOp();
  if (!def || def->getNumResults() != 1 ||
      !(isa<KernelOp>(def) ||
        (isa<KernelPayloadOpInterface>(def) && !isViewOp(def) &&
         !isa<InsertSliceOp, ExtractSliceOp>(def))))
    return false;
  RankedTensorType source = insert.getSource().getType(),
                   dest = insert.getDest().getType();
  std::optional<unsigned> cut = insert.getCutDim();
  if (!cut || failed(insert.getWindowBytes()))
    return false;
  FailureOr<RankedTensorType> strided =
      getRowBlockType(dest, *cut, source.getDimSize(*cut),
                      /*deviceDim=*/nullptr, /*strided=*/true);
  if (failed(strided) || *strided != source)
    return false;
  // The destination's buffer exists when the kernel writes into it (a copy
  // made just before the insert does not).
  Operation *rootDef = getBufferRoot(insert.getDest()).getDefiningOp();
  return !rootDef || (rootDef->getBlock() == def->getBlock() &&
                      rootDef->isBeforeInBlock(def));
}

/// The in-place insert `value` is the source of, or null.
static InsertSliceOp getInPlaceInsertOf(Value value) {
  if (!value.hasOneUse())
    return {};
  OpOperand &use = *value.getUses().begin();
  auto insert = dyn_cast<InsertSliceOp>(use.getOwner());
  if (!insert || use.getOperandNumber() != 0 || !isInPlaceInsert(insert))
    return {};
  return insert;
}

Value mlir::spyre::getBufferRoot(Value value, int64_t *windowBytes) {
  if (windowBytes)
    *windowBytes = 0;
  while (true) {
    if (InsertSliceOp insert = getInPlaceInsertOf(value)) {
      if (windowBytes)
        *windowBytes += *insert.getWindowBytes();
      value = insert.getDest();
      continue;
    }
    Operation *def = value.getDefiningOp();
    if (!def)
      break;
    if (isViewOp(def)) {
      if (auto slice = dyn_cast<ExtractSliceOp>(def); slice && windowBytes)
        if (FailureOr<int64_t> window = slice.getWindowBytes();
            succeeded(window))
          *windowBytes += *window;
      value = def->getOperand(0);
      continue;
    }
    int dest = getInPlaceOperand(def);
    if (dest < 0 || static_cast<unsigned>(dest) >= def->getNumOperands())
      break;
    value = def->getOperand(dest);
  }
  return value;
}

MemAttr mlir::spyre::getRecordedMem(Value value) {
  StringRef name = SpyreDialect::kMemAttrName;
  Value root = getBufferRoot(value);
  if (Operation *def = root.getDefiningOp())
    return def->getAttrOfType<MemAttr>(name);
  auto arg = cast<BlockArgument>(root);
  Block *block = arg.getOwner();
  auto function = dyn_cast_or_null<FunctionOpInterface>(block->getParentOp());
  if (!function || !block->isEntryBlock())
    return {};
  return function.getArgAttrOfType<MemAttr>(arg.getArgNumber(), name);
}

bool mlir::spyre::containsKernels(Operation *root) {
  return root->walk([](KernelOp) { return WalkResult::interrupt(); })
      .wasInterrupted();
}

/// The bytes [begin, end) a box of sticks of `stickBytes` at byte `offset`
/// spans with `strides` (bytes per box dim), or nullopt on overflow.
static std::optional<std::pair<int64_t, int64_t>>
boxBytes(int64_t offset, ArrayRef<int64_t> box, ArrayRef<int64_t> strides,
         int64_t stickBytes) {
  int64_t begin = offset, end = offset;
  for (auto [count, stride] : llvm::zip(box, strides)) {
    int64_t span;
    if (llvm::MulOverflow(count - 1, stride, span))
      return std::nullopt;
    if (llvm::AddOverflow(span < 0 ? begin : end, span, span < 0 ? begin : end))
      return std::nullopt;
  }
  if (llvm::AddOverflow(end, stickBytes, end))
    return std::nullopt;
  return std::make_pair(begin, end);
}

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
                         << " but the kernel returns " << getResult().getType();

  auto info = cast<KernelPayloadOpInterface>(payload);
  SmallVector<int64_t> ranges = info.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = info.getIteratorTypesArray();
  unsigned numDims = ranges.size();
  if (getDims().size() != numDims)
    return emitOpError() << "has " << getDims().size() << " dims but its "
                         << payload->getName() << " has " << numDims;
  for (unsigned d = 0; d < numDims; ++d) {
    KernelDimAttr dim = getDim(d);
    if (dim.getSize() != ranges[d])
      return emitOpError() << "dim " << d << " (\"" << dim.getLabel()
                           << "\") has size " << dim.getSize()
                           << " but the op's extent is " << ranges[d];
    bool reduction = iterators[d] == utils::IteratorType::reduction;
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
      return emitOpError() << "order " << formatList(getOrder())
                           << " must be a permutation of the " << numDims
                           << " dims";
    seen[d] = true;
  }

  TargetModel target = getTarget(*this).getModel();
  // Every number below is the user's: products and sums are checked for
  // overflow before they are compared.
  int64_t cores = 1, chunks = 1;
  bool tooManyCores = false, tooManyChunks = false;
  for (unsigned d = 0; d < numDims; ++d) {
    KernelDimAttr dim = getDim(d);
    tooManyCores |=
        static_cast<bool>(llvm::MulOverflow(cores, dim.getSplit(), cores));
    tooManyChunks |=
        static_cast<bool>(llvm::MulOverflow(chunks, dim.getChunks(), chunks));
  }
  if (tooManyCores)
    return emitOpError() << "splits its dims across more cores than the "
                            "target's "
                         << target.cores;
  if (cores > target.cores)
    return emitOpError() << "runs on " << cores << " cores, the target has "
                         << target.cores;
  if (tooManyChunks)
    return emitOpError() << "is cut into more than "
                         << std::numeric_limits<int64_t>::max() << " chunks";
  // The I64Attr getter reads the value as unsigned.
  int64_t lxBytes = getLxBytesAttr().getInt();
  if (lxBytes < 0)
    return emitOpError() << "lx_bytes = " << lxBytes << " must not be negative";
  if (lxBytes > target.usableLxBytes())
    return emitOpError() << "needs " << lxBytes
                         << " bytes of LX per core, the target has "
                         << target.usableLxBytes() << " usable";
  for (Attribute segment : getSegments())
    if (cast<MemAttr>(segment).getSpace() == MemorySpace::LX)
      return emitOpError() << "segments hold DDR buffers, not " << segment;

  if (getAccesses().size() != getNumInputs() + 1)
    return emitOpError() << "has " << getAccesses().size() << " accesses for "
                         << getNumInputs() << " inputs and a result";
  for (unsigned i = 0, e = getNumInputs() + 1; i < e; ++i) {
    AccessAttr access = getAccess(i);
    ::mlir::Value value = i < getNumInputs() ? getInputs()[i] : getResult();
    Type type = value.getType();
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
    if (llvm::any_of(access.getBox(), [](int64_t b) { return b < 1; }))
      return emitOpError() << describe() << ": box entries must be positive, "
                           << "got " << formatList(access.getBox());
    if (access.getTileSteps().size() != numDims ||
        (!access.getChunkSteps().empty() &&
         access.getChunkSteps().size() != numDims))
      return emitOpError() << describe()
                           << ": tile_steps and chunk_steps need one entry "
                              "per dim ("
                           << numDims << ")";
    if (access.getBase() < 0)
      return emitOpError() << describe() << ": base " << access.getBase()
                           << " must not be negative";
    // Where the tensor lives, as --spyre-plan-memory recorded it.
    auto checkPlacement = [&]() -> LogicalResult {
      // The kernel's result lives where the kernel's own spyre.mem says.
      MemAttr lives =
          value == getResult()
              ? (*this)->getAttrOfType<MemAttr>(SpyreDialect::kMemAttrName)
              : getRecordedMem(value);
      if (lives && lives != access.getMem())
        return emitOpError() << describe() << ": its tensor lives in " << lives
                             << " but the access names " << access.getMem();
      return success();
    };
    llvm::Expected<BoundLayout> boundLayout =
        bindLayout(cast<RankedTensorType>(type));
    if (!boundLayout)
      return emitOpError() << describe() << ": "
                           << llvm::toString(boundLayout.takeError());
    int64_t stickBytes = boundLayout->layout().stickBytes();
    if (access.isResident()) {
      if (!access.getDdrStrides().empty() || !access.getLxOffsets().empty() ||
          !access.getCoreOffsets().empty())
        return emitOpError() << describe()
                             << ": an LX-resident tensor has no DDR strides, "
                                "staging buffers or core offsets";
      if (failed(checkPlacement()))
        return failure();
      if (access.getBase() > target.usableLxBytes() - stickBytes)
        return emitOpError()
               << describe() << ": the LX-resident tensor at LX byte "
               << access.getBase() << " lies past the target's "
               << target.usableLxBytes() << " usable LX bytes";
      continue;
    }
    if (access.getDdrStrides().size() != access.getBox().size())
      return emitOpError() << describe()
                           << ": ddr_strides need one entry per box dim";
    if (static_cast<int64_t>(access.getCoreOffsets().size()) != cores)
      return emitOpError() << describe() << ": " << cores << " cores need "
                           << cores << " core_offsets, got "
                           << access.getCoreOffsets().size();
    // An input may keep more tiles than two, one buffer each (kept across
    // loops it does not depend on); the result streams through two.
    if (access.getLxOffsets().empty() ||
        (value == getResult() && access.getLxOffsets().size() > 2))
      return emitOpError() << describe()
                           << (value == getResult()
                                   ? ": the result in DDR needs one or two LX "
                                     "staging buffers"
                                   : ": a DDR input needs at least one LX "
                                     "staging buffer");
    if (failed(checkPlacement()))
      return failure();
    if (chunks > 1 && access.getChunkSteps().empty())
      return emitOpError() << describe() << ": a kernel cut into " << chunks
                           << " chunks needs chunk_steps, one per dim";
    // Each staging buffer holds one tile's box within the usable LX.
    for (int64_t offset : access.getLxOffsets()) {
      std::optional<std::pair<int64_t, int64_t>> range =
          boxBytes(offset, access.getBox(), access.getLxStrides(), stickBytes);
      if (!range || range->first < 0 ||
          range->second > target.usableLxBytes()) {
        InFlightDiagnostic diag = emitOpError();
        diag << describe() << ": its LX staging buffer at byte " << offset;
        if (range)
          diag << " spans LX bytes [" << range->first << ", " << range->second
               << ")";
        else
          diag << " (box " << formatList(access.getBox()) << ", lx_strides "
               << formatList(access.getLxStrides())
               << ") spans more than 64-bit addresses";
        return diag << ", outside the target's " << target.usableLxBytes()
                    << " usable LX bytes per core";
      }
    }
    int64_t segment = access.getBase() / target.segmentBytes;
    if (segment >= static_cast<int64_t>(getSegments().size()))
      return emitOpError() << describe() << ": base " << access.getBase()
                           << " lies in segment " << segment
                           << ", the kernel binds " << getSegments().size();
    auto segmentMem = cast<MemAttr>(getSegments()[segment]);
    bool matches = access.getMem().getSpace() == segmentMem.getSpace() &&
                   (segmentMem.getSpace() == MemorySpace::Pool ||
                    access.getMem() == segmentMem);
    if (!matches)
      return emitOpError() << describe() << ": its tensor lives in "
                           << access.getMem() << " but segment " << segment
                           << " is bound to " << segmentMem;
    // The tensor lies within its segment.
    int64_t offset = access.getBase() % target.segmentBytes;
    int64_t bytes = boundLayout->layout().deviceBytes();
    if (bytes > target.segmentBytes - offset)
      return emitOpError() << describe() << ": the tensor's " << bytes
                           << " bytes at byte " << offset << " of segment "
                           << segment << " run past the segment's "
                           << target.segmentBytes << " bytes";
  }
  // A split reduction's result kept in LX is scattered over the partners.
  bool splitReduction = llvm::any_of(getDims(), [](Attribute attr) {
    auto dim = cast<KernelDimAttr>(attr);
    return dim.getReduction() && dim.getSplit() > 1;
  });
  if (splitReduction && getAccess(payload->getNumOperands()).isResident()) {
    std::string reason;
    FailureOr<kernel::Problem> problem = getKernelProblem(payload, reason);
    if (succeeded(problem) &&
        !kernel::resultDivision(*problem, getKernelDivision(*this)))
      return emitOpError()
             << "keeps the result of its split reduction in LX, but the "
                "partners cannot scatter it (one reduction dim split, one "
                "launch, a matmul, and a parallel dim whose slice cuts into "
                "as many parts of whole granules)";
  }
  return success();
}

LogicalResult KernelOp::verify() {
  if (getName().empty())
    return emitOpError() << "needs a name";
  return success();
}
