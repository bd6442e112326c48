//===- KernelForm.cpp - Kernel payloads and the kernel model --------------===//

#include "Spyre/Dialect/Spyre/IR/KernelForm.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::spyre;

FailureOr<kernel::Problem> mlir::spyre::getKernelProblem(Operation *op,
                                                         std::string &reason) {
  auto payload = cast<KernelPayloadOpInterface>(op);
  SmallVector<int64_t> ranges = payload.getStaticLoopRanges();
  SmallVector<AffineMap> maps = payload.getIndexingMapsArray();
  kernel::Problem problem;
  for (auto [range, iterator] :
       llvm::zip_equal(ranges, payload.getIteratorTypesArray())) {
    kernel::Dim dim;
    dim.size = range;
    dim.reduction = iterator == utils::IteratorType::reduction;
    problem.dims.push_back(dim);
  }
  if (payload.getExecutionUnit() == ExecutionUnit::PT) {
    problem.unit = kernel::Unit::PT;
    int batch = static_cast<int>(ranges.size()) - 3;
    problem.mDim = batch;
    problem.nDim = batch + 1;
    problem.kDim = batch + 2;
    problem.dequantizesB = isa<ScaledMatmulOp>(op);
  }

  SmallVector<Value> tensors(op->getOperands());
  tensors.push_back(op->getResult(0));
  for (auto [i, value] : llvm::enumerate(tensors)) {
    bool isResult = i + 1 == tensors.size();
    std::string name =
        isResult ? "the result" : "operand #" + std::to_string(i);
    auto type = dyn_cast<RankedTensorType>(value.getType());
    if (!type || !isDeviceTensor(type)) {
      reason = name + " is not a laid-out device tensor (run "
                      "--spyre-propagate-layouts first)";
      return failure();
    }
    llvm::Expected<BoundLayout> bound = bindLayout(type);
    if (!bound) {
      reason = name + ": " + llvm::toString(bound.takeError());
      return failure();
    }
    SmallVector<int> opDims;
    SmallVector<int64_t> divisors;
    for (AffineExpr expr : maps[i].getResults())
      opDims.push_back(getOpDimOf(expr, &divisors.emplace_back()));
    kernel::Tensor tensor =
        kernel::makeTensor(*bound, opDims, name, isResult, divisors);
    kernel::addGranules(problem, *bound, opDims, divisors);
    problem.tensors.push_back(std::move(tensor));
  }
  // The destination of an in-place write is neither read nor staged: the
  // model sees it as a tensor that moves no bytes.
  if (int dest = getInPlaceOperand(op); dest >= 0)
    problem.tensors[dest].lxResident = true;
  // A pad writes the result's padding too: its dims run over the result's
  // device extent, in granules that round the extent up to exactly that.
  if (isa<PadOp>(op)) {
    const kernel::Tensor &result = problem.tensors.back();
    for (auto [d, dim] : llvm::enumerate(problem.dims)) {
      int64_t extent = 1;
      for (const kernel::TensorDim &td : result.dims)
        if (td.opDim == static_cast<int>(d))
          extent = std::max(extent, td.size * td.multiplier);
      if (extent <= dim.padded())
        continue;
      int64_t granule = extent;
      for (int64_t g = dim.granule; g < extent; g += dim.granule)
        if (extent % g == 0 && (dim.size + g - 1) / g * g == extent) {
          granule = g;
          break;
        }
      dim.granule = granule;
    }
  }
  return problem;
}

void mlir::spyre::markLxResident(kernel::Problem &problem, Operation *op,
                                 llvm::function_ref<bool(Value)> inLx) {
  for (unsigned i = 0, e = op->getNumOperands();
       i < e && i + 1 < problem.tensors.size(); ++i)
    problem.tensors[i].lxResident |= inLx(op->getOperand(i));
  problem.tensors.back().lxResident |= inLx(op->getResult(0));
}

/// The SuperDSC labels of the dims of SFP ops but the last (`out`).
static const char *const kInputLabels[] = {"mb", "x",  "y", "i",
                                           "j",  "ki", "kj"};

SmallVector<std::string> mlir::spyre::getDimLabels(Operation *payload) {
  auto info = cast<KernelPayloadOpInterface>(payload);
  size_t n = info.getNumLoops();
  SmallVector<std::string> labels;
  if (info.getExecutionUnit() == ExecutionUnit::PT) {
    static const char *const kMatmul[] = {"ki", "kj",  "y", "x",
                                          "mb", "out", "in"};
    size_t total = std::size(kMatmul);
    for (size_t i = total - std::min(n, total); i < total; ++i)
      labels.push_back(kMatmul[i]);
    return labels;
  }
  // As Inductor iterates: the output dims first, then the reduced ones; the
  // p-th dim of that order takes the p-th label, the last `out` (a column
  // sum labels its kept column dim `mb`, the reduced rows `out`).
  SmallVector<utils::IteratorType> iterators = info.getIteratorTypesArray();
  SmallVector<size_t> order;
  for (utils::IteratorType kind :
       {utils::IteratorType::parallel, utils::IteratorType::reduction})
    for (size_t d = 0; d < n; ++d)
      if ((d < iterators.size() ? iterators[d]
                                : utils::IteratorType::parallel) == kind)
        order.push_back(d);
  labels.resize(n);
  for (auto [p, d] : llvm::enumerate(order))
    labels[d] = p + 1 == n                    ? std::string("out")
                : p < std::size(kInputLabels) ? std::string(kInputLabels[p])
                                              : "d" + std::to_string(p);
  return labels;
}

std::string mlir::spyre::getUnusedDimLabel(ArrayRef<std::string> used) {
  for (size_t i = 0;; ++i) {
    std::string label =
        i < std::size(kInputLabels) ? kInputLabels[i] : "d" + std::to_string(i);
    if (!llvm::is_contained(used, label))
      return label;
  }
}

std::string mlir::spyre::getSuperDscOpFunc(Operation *payload) {
  std::string name =
      cast<KernelPayloadOpInterface>(payload).getOpFuncName().str();
  if (isa<ReductionOpInterface>(payload)) {
    llvm::Expected<BoundLayout> result =
        bindLayout(cast<RankedTensorType>(payload->getResult(0).getType()));
    if (result && !result->isSparse())
      name += "nonstick";
    if (!result)
      llvm::consumeError(result.takeError());
  }
  return name;
}

DivisionAttr DivisionAttr::get(MLIRContext *context,
                               const kernel::Division &division) {
  SmallVector<int64_t> chunks;
  if (division.numChunks() > 1)
    chunks.assign(division.chunks.begin(), division.chunks.end());
  return DivisionAttr::get(
      context,
      SmallVector<int64_t>(division.splits.begin(), division.splits.end()),
      SmallVector<int64_t>(division.order.begin(), division.order.end()),
      chunks);
}

kernel::Division DivisionAttr::getModel() const {
  kernel::Division division;
  division.splits.assign(getSplits().begin(), getSplits().end());
  division.order.assign(getOrder().begin(), getOrder().end());
  for (unsigned d = 0; d < division.splits.size(); ++d)
    division.chunks.push_back(getChunk(d));
  return division;
}

kernel::Division mlir::spyre::getKernelDivision(KernelOp kernel) {
  kernel::Division division;
  for (Attribute attr : kernel.getDims()) {
    auto dim = cast<KernelDimAttr>(attr);
    division.splits.push_back(dim.getSplit());
    division.chunks.push_back(dim.getChunks());
  }
  division.order.assign(kernel.getOrder().begin(), kernel.getOrder().end());
  return division;
}

DivisionAttr mlir::spyre::getDivision(Operation *op) {
  return op->getAttrOfType<DivisionAttr>(SpyreDialect::kDivisionAttrName);
}

std::optional<kernel::Division>
mlir::spyre::carryOver(Operation *op, unsigned index, Operation *producer,
                       const kernel::Division &producerDivision) {
  if (producerDivision.numChunks() > 1)
    return std::nullopt;
  auto from = cast<KernelPayloadOpInterface>(producer);
  auto to = cast<KernelPayloadOpInterface>(op);
  // A split reduction leaves its result as its combine scatters it.
  kernel::Division division = producerDivision;
  if (llvm::any_of(llvm::enumerate(from.getIteratorTypesArray()), [&](auto it) {
        return it.value() == utils::IteratorType::reduction &&
               division.splits[it.index()] > 1;
      })) {
    std::string reason;
    FailureOr<kernel::Problem> problem = getKernelProblem(producer, reason);
    std::optional<kernel::Division> held;
    if (succeeded(problem))
      held = kernel::resultDivision(*problem, division);
    if (!held)
      return std::nullopt;
    division = *held;
  }
  AffineMap produced = from.getIndexingMapsArray().back();
  AffineMap consumed = to.getIndexingMapsArray()[index];
  size_t n = to.getNumLoops();
  kernel::Division carried;
  carried.splits.assign(n, 1);
  carried.chunks.assign(n, 1);
  SmallVector<int64_t> opDimOf(from.getNumLoops(), -1);
  for (unsigned h = 0; h < produced.getNumResults(); ++h) {
    auto e = dyn_cast<AffineDimExpr>(produced.getResult(h));
    auto d = dyn_cast<AffineDimExpr>(consumed.getResult(h));
    if (!e || !d)
      return std::nullopt;
    carried.splits[d.getPosition()] = division.splits[e.getPosition()];
    opDimOf[e.getPosition()] = d.getPosition();
  }
  for (int64_t e : division.order) {
    if (opDimOf[e] >= 0)
      carried.order.push_back(opDimOf[e]);
    else if (division.splits[e] > 1)
      return std::nullopt;
  }
  for (size_t d = 0; d < n; ++d)
    if (!llvm::is_contained(carried.order, static_cast<int64_t>(d)))
      carried.order.push_back(d);
  return carried;
}
