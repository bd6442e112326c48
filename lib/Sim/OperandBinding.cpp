//===- OperandBinding.cpp - A kernel's tensors bound to the machine -------===//

#include "Operand.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::spyre;
using namespace mlir::spyre::sim;

llvm::Error mlir::spyre::sim::fail(KernelOp kernel,
                                   const llvm::Twine &message) {
  return llvm::createStringError(
      llvm::formatv("kernel {0}: {1}", kernel.getName(), message.str()).str());
}

void mlir::spyre::sim::setDenseTile(Operand &t, ArrayRef<int64_t> tile) {
  // Op dims the tensor uses, row-major.
  t.denseStride.assign(tile.size(), 0);
  t.denseSize = 1;
  for (int64_t d = static_cast<int64_t>(tile.size()) - 1; d >= 0; --d)
    if (t.usedMask >> d & 1) {
      t.denseStride[d] = t.denseSize;
      t.denseSize *= tile[d];
    }
}

llvm::Expected<std::vector<Operand>>
mlir::spyre::sim::bindOperands(KernelOp kernel, ArrayRef<AffineMap> maps,
                               ArrayRef<int64_t> tile,
                               const kernel::Division &division,
                               Machine &machine, const TargetModel &target) {
  int64_t numDims = static_cast<int64_t>(tile.size());
  std::vector<Operand> operands;
  int64_t segmentBytes = target.segmentBytes;
  Operation *payload = kernel.getPayload();
  int inPlace = getInPlaceOperand(kernel);
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
    t.eps = layout.elemsPerStick();
    t.stickBytes = layout.stickBytes();
    // (SENINT4 packs two lanes a byte: the stager addresses its nibbles.)
    t.elemBytes = t.stickBytes / t.eps;
    t.deviceRank = layout.deviceRank();
    t.deviceSize.assign(layout.getDeviceSize().begin(),
                        layout.getDeviceSize().end());
    AffineMap map = maps[i];
    for (AffineExpr expr : map.getResults())
      t.opDimOfHost.push_back(
          getOpDimOf(expr, &t.divisorOfHost.emplace_back()));
    t.hostSize.assign(t.type.getShape().begin(), t.type.getShape().end());
    // A box of a larger tensor is walked from the box's origin: its
    // elements are the box's, the rest of the tensor lies outside.
    if ((isa<ExtractSliceOp>(payload) && i == 0) ||
        (isa<InsertSliceOp>(payload) && t.isResult)) {
      SmallVector<int64_t> ranges =
          cast<KernelPayloadOpInterface>(payload).getStaticLoopRanges();
      t.hostSize.assign(ranges.begin(), ranges.end());
    }
    for (const auto &role : t.bound->roles()) {
      bool piece = role.kind == BoundLayout::DimKind::Piece;
      t.hostDim.push_back(piece ? role.hostDim : -1);
      t.multiplier.push_back(piece ? role.multiplier : 0);
      t.opDim.push_back(piece ? t.opDimOfHost[role.hostDim] : -1);
    }
    t.stickHost = t.bound->stickHostDim();
    for (auto [h, divisor] : llvm::enumerate(t.divisorOfHost))
      if (divisor != 1 && static_cast<int>(h) != t.stickHost)
        return fail(kernel, llvm::formatv("{0}: host dim {1} covers {2} "
                                          "elements of its op dim but is not "
                                          "the stick dim; blocks are read "
                                          "along the stick only",
                                          t.name, h, divisor));
    if (layout.getArrangement() == ElementArrangement::EXX2)
      t.slots = 2;
    t.access = kernel.getAccess(i);
    t.resident = t.access.isResident();
    t.id = machine.idOf(getBufferRoot(t.value),
                        t.isResult
                            ? ("the result of kernel " + kernel.getName()).str()
                            : "a tensor");
    for (int opDim : t.opDimOfHost)
      if (opDim >= 0)
        t.usedMask |= 1u << opDim;
    setDenseTile(t, tile);
    for (int64_t d = 0; d < numDims; ++d)
      if (!(t.usedMask >> d & 1))
        t.group *= division.splits[d];
    if (!t.resident) {
      t.segment = t.access.getBase() / segmentBytes;
      if (t.access.getBase() < 0 ||
          t.segment >= static_cast<int64_t>(kernel.getSegments().size()))
        return fail(kernel,
                    llvm::formatv("{0}: base {1} lies in none of the {2} "
                                  "segments the kernel binds",
                                  t.name, t.access.getBase(),
                                  kernel.getSegments().size()));
      auto mem = cast<MemAttr>(kernel.getSegments()[t.segment]);
      t.ddr = &machine.memoryOf(mem);
      t.regionBegin = t.access.getBase() % segmentBytes;
      t.regionEnd = t.regionBegin + layout.deviceBytes();
      // A strided view of a block of rows runs past its tensor's buffer:
      // its padding is the tensor's other rows. It must end, at its last
      // stick holding elements, inside the buffer.
      if (!t.isResult && static_cast<int>(i) != inPlace &&
          t.regionEnd > t.ddr->size())
        t.regionEnd =
            std::max(t.regionBegin + t.bound->usedBytes(), t.ddr->size());
      if (t.ddr->size() < t.regionEnd) {
        // A result buffer (or one written in place) is created by its first
        // writer.
        if (!t.isResult && static_cast<int>(i) != inPlace)
          return fail(
              kernel,
              llvm::formatv(
                  "{0} occupies bytes [{1}, {2}) of {3}, which holds only {4}",
                  t.name, t.regionBegin, t.regionEnd, t.ddr->name,
                  t.ddr->size()));
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
  return operands;
}
