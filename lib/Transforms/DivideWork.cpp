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

    DivisionChooser chooser(target, maxCores, policy);
    bool failed = false;
    function.walk([&](Operation *op) {
      if (!isKernelPayload(op) || op->getParentOfType<KernelOp>())
        return;
      // Ops still computing on host tensors stay where they are.
      if (!isDeviceTensor(op->getResult(0).getType()))
        return;
      llvm::Expected<kernel::Division> division = chooser.choose(op);
      if (!division) {
        InFlightDiagnostic diag = op->emitOpError();
        if (auto hint = op->getAttrOfType<DenseI64ArrayAttr>(
                SpyreDialect::kWorkDivisionAttrName))
          diag << "'" << SpyreDialect::kWorkDivisionAttrName << "' "
               << formatList(hint.asArrayRef()) << " is invalid: ";
        else
          diag << "cannot be divided across " << maxCores << " cores: ";
        diag << llvm::toString(division.takeError());
        failed = true;
        return;
      }
      op->setAttr(SpyreDialect::kDivisionAttrName,
                  DivisionAttr::get(op->getContext(), *division));
    });
    return failure(failed);
  }
};

} // namespace
