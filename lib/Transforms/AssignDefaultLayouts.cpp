//===- AssignDefaultLayouts.cpp - --spyre-assign-default-layouts
//-----------===//
//
// Gives every tensor at a function boundary a `#spyre.layout`: the one its
// `spyre.layout` attribute fixes, the default for its `spyre.dim_order`, or
// the reference stack's default. Bodies keep computing on host tensors through
// explicit transfers at the boundary, so the IR verifies after the pass.
//
//===----------------------------------------------------------------------===//

#include "Spyre/Transforms/Passes.h"
#include "Spyre/Transforms/Utils.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

namespace mlir::spyre {
#define GEN_PASS_DEF_SPYREASSIGNDEFAULTLAYOUTS
#include "Spyre/Transforms/Passes.h.inc"
} // namespace mlir::spyre

using namespace mlir;
using namespace mlir::spyre;

namespace {

struct AssignDefaultLayoutsPass
    : mlir::spyre::impl::SpyreAssignDefaultLayoutsBase<
          AssignDefaultLayoutsPass> {
  void runOnOperation() override;
};

} // namespace

void AssignDefaultLayoutsPass::runOnOperation() {
  ModuleOp module = getOperation();
  MLIRContext *context = &getContext();
  int64_t stickBytes = getTarget(module).getStickBytes();
  bool failedAny = false;
  DenseMap<StringAttr, FunctionType> oldTypes;

  for (auto function : module.getOps<func::FuncOp>()) {
    FunctionType oldType = function.getFunctionType();
    SmallVector<Type> inputs, results;
    for (auto [i, type] : llvm::enumerate(oldType.getInputs())) {
      Location loc = function.isExternal() ? function.getLoc()
                                           : function.getArgument(i).getLoc();
      FailureOr<Type> laidOut = layOutBoundaryType(
          type, function.getArgAttrDict(i), stickBytes, [&, i = i] {
            return emitError(loc) << "argument #" << i << " of @"
                                  << function.getSymName() << ": ";
          });
      failedAny |= failed(laidOut);
      inputs.push_back(succeeded(laidOut) ? *laidOut : type);
    }
    for (auto [i, type] : llvm::enumerate(oldType.getResults())) {
      FailureOr<Type> laidOut = layOutBoundaryType(
          type, function.getResultAttrDict(i), stickBytes, [&, i = i] {
            return function.emitError() << "result #" << i << " of @"
                                        << function.getSymName() << ": ";
          });
      failedAny |= failed(laidOut);
      results.push_back(succeeded(laidOut) ? *laidOut : type);
    }
    auto newType = FunctionType::get(context, inputs, results);
    if (newType == oldType)
      continue;
    oldTypes[function.getSymNameAttr()] = oldType;

    if (!function.isExternal()) {
      Block &entry = function.front();
      OpBuilder builder = OpBuilder::atBlockBegin(&entry);
      for (auto [i, arg] : llvm::enumerate(entry.getArguments())) {
        Type hostType = arg.getType();
        if (hostType == inputs[i])
          continue;
        arg.setType(inputs[i]);
        auto toHost =
            FromDeviceOp::create(builder, arg.getLoc(), hostType, arg);
        arg.replaceAllUsesExcept(toHost.getResult(), toHost);
      }
      function.walk([&](func::ReturnOp ret) {
        builder.setInsertionPoint(ret);
        for (auto [i, operand] : llvm::enumerate(ret.getOperands()))
          if (operand.getType() != results[i])
            ret.setOperand(i, ToDeviceOp::create(builder, ret.getLoc(),
                                                 results[i], operand)
                                  .getResult());
      });
    }
    function.setType(newType);
    dropLayoutAttributes(function);
  }
  if (failedAny)
    return signalPassFailure();

  // Callers pass and receive device tensors now.
  updateCallSites(module, oldTypes);
}
