//===- DivideWork.cpp - --spyre-divide-work
//--------------------------------===//
//
// Every device payload op gets a #spyre.division chosen by the kernel model
// (lib/Analysis/KernelModel). Ops with the same types and attributes get the
// same division, so each distinct op is planned once per function.
//
//===----------------------------------------------------------------------===//

#include "Spyre/Dialect/Spyre/IR/KernelForm.h"
#include "Spyre/Transforms/Passes.h"
#include "Spyre/Transforms/Utils.h"

#include "mlir/IR/Builders.h"

#include <map>

namespace mlir::spyre {
#define GEN_PASS_DEF_SPYREDIVIDEWORK
#include "Spyre/Transforms/Passes.h.inc"
} // namespace mlir::spyre

using namespace mlir;
using namespace mlir::spyre;

namespace {

using Key = OpSignature;

/// Identifies ops that divide the same way: their signature with the user's
/// hint, and the preferred division.
Key signature(Operation *op, const kernel::Division *preferred) {
  Key key = getOpSignature(op, {SpyreDialect::kWorkDivisionAttrName});
  if (preferred) {
    key.insert(key.end(), preferred->splits.begin(), preferred->splits.end());
    key.insert(key.end(), preferred->order.begin(), preferred->order.end());
  }
  return key;
}

struct DivideWorkPass
    : public ::mlir::spyre::impl::SpyreDivideWorkBase<DivideWorkPass> {
  using SpyreDivideWorkBase::SpyreDivideWorkBase;

  void runOnOperation() override {
    // The bound is the target's: checked before any op, even without any.
    if (failed(checkCoresOption(getOperation(), "--spyre-divide-work", cores)))
      return signalPassFailure();
    if (failed(forEachFunction(getOperation(), [&](FunctionOpInterface f) {
          return divideFunction(f);
        })))
      signalPassFailure();
  }

  LogicalResult divideFunction(FunctionOpInterface function) {
    TargetModel target = getTarget(function).getModel();
    int64_t maxCores = cores == 0 ? target.cores : cores;
    kernel::Policy chosen = policy;

    // An in-place write into a buffer something else reads (or the caller
    // owns) first copies it: the copy is the buffer written.
    function.walk([&](InsertSliceOp insert) {
      if (!isDeviceTensor(insert.getType()) ||
          isExclusivelyOwned(insert.getDest()))
        return;
      OpBuilder builder(insert);
      Value copy = IdentityOp::create(builder, insert.getLoc(),
                                      insert.getDest().getType(),
                                      ValueRange{insert.getDest()}, nullptr);
      insert.getDestMutable().assign(copy);
    });

    std::map<Key, DivisionAttr> cache;
    DenseMap<Operation *, kernel::Division> chosenFor;
    bool failed = false;
    function.walk([&](Operation *op) {
      if (!isKernelPayload(op) || op->getParentOfType<KernelOp>())
        return;
      // Ops still computing on host tensors stay where they are.
      if (!isDeviceTensor(op->getResult(0).getType()))
        return;
      // Prefer the division of an operand's producer.
      std::optional<kernel::Division> preferred;
      for (OpOperand &operand : op->getOpOperands()) {
        Operation *producer = operand.get().getDefiningOp();
        auto it = producer ? chosenFor.find(producer) : chosenFor.end();
        if (it == chosenFor.end())
          continue;
        preferred =
            carryOver(op, operand.getOperandNumber(), producer, it->second);
        if (preferred)
          break;
      }
      auto remember = [&](DivisionAttr attr) {
        chosenFor[op] = attr.getModel();
        op->setAttr(SpyreDialect::kDivisionAttrName, attr);
      };
      Key key = signature(op, preferred ? &*preferred : nullptr);
      auto cached = cache.find(key);
      if (cached != cache.end()) {
        remember(cached->second);
        return;
      }
      std::string reason;
      FailureOr<kernel::Problem> problem = getKernelProblem(op, reason);
      if (::mlir::failed(problem)) {
        op->emitOpError() << "cannot be divided across cores: " << reason;
        failed = true;
        return;
      }
      llvm::Expected<kernel::Plan> plan = [&]() {
        if (auto hint = op->getAttrOfType<DenseI64ArrayAttr>(
                SpyreDialect::kWorkDivisionAttrName))
          return kernel::planWithSplits(*problem, target, maxCores,
                                        hint.asArrayRef(),
                                        target.usableLxBytes());
        return kernel::divide(*problem, target, maxCores, chosen,
                              target.usableLxBytes(),
                              preferred ? &*preferred : nullptr);
      }();
      if (!plan) {
        InFlightDiagnostic diag = op->emitOpError();
        if (auto hint = op->getAttrOfType<DenseI64ArrayAttr>(
                SpyreDialect::kWorkDivisionAttrName))
          diag << "'" << SpyreDialect::kWorkDivisionAttrName << "' "
               << formatList(hint.asArrayRef()) << " is invalid: ";
        else
          diag << "cannot be divided across " << maxCores << " cores: ";
        diag << llvm::toString(plan.takeError());
        failed = true;
        return;
      }
      auto attr = DivisionAttr::get(op->getContext(), plan->division);
      cache[key] = attr;
      remember(attr);
    });
    return failure(failed);
  }
};

} // namespace
