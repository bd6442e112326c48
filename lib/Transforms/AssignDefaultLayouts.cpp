//===- AssignDefaultLayouts.cpp - --spyre-assign-default-layouts -----------===//
//
// Gives every tensor at a function boundary a `#spyre.layout`: the one its
// `spyre.layout` attribute fixes, the default for its `spyre.dim_order`, or
// the reference stack's default. Bodies keep computing on host tensors through
// explicit transfers at the boundary, so the IR verifies after the pass.
//
//===----------------------------------------------------------------------===//

#include "Spyre/Transforms/Passes.h"

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

/// Reads a `spyre.dim_order` (already verified by the dialect).
SmallVector<int32_t> readDimOrder(Attribute attr) {
  SmallVector<int32_t> order;
  if (auto dense = dyn_cast<DenseI64ArrayAttr>(attr)) {
    for (int64_t v : dense.asArrayRef())
      order.push_back(static_cast<int32_t>(v));
  } else if (auto array = dyn_cast<ArrayAttr>(attr)) {
    for (Attribute element : array)
      order.push_back(
          static_cast<int32_t>(cast<IntegerAttr>(element).getInt()));
  }
  return order;
}

/// The laid-out version of one boundary type, or the type itself when it
/// needs no layout. Emits a diagnostic and fails when no layout can be given.
FailureOr<Type> layOut(Type type, DictionaryAttr attrs, int64_t stickBytes,
                       function_ref<InFlightDiagnostic()> emitError) {
  auto tensorType = dyn_cast<RankedTensorType>(type);
  if (!tensorType || isDeviceTensor(tensorType))
    return type;
  if (Attribute encoding = tensorType.getEncoding()) {
    emitError() << "has encoding " << encoding
                << ", which is not a #spyre.layout; cannot assign a layout";
    return failure();
  }
  Attribute layoutAttr =
      attrs ? attrs.get(SpyreDialect::kLayoutAttrName) : Attribute();
  Attribute dimOrderAttr =
      attrs ? attrs.get(SpyreDialect::kDimOrderAttrName) : Attribute();

  if (auto layout = dyn_cast_or_null<LayoutAttr>(layoutAttr)) {
    if (layout.getStickBytes() != stickBytes) {
      emitError() << "its 'spyre.layout' is built for "
                  << layout.getStickBytes()
                  << "-byte sticks, but the target's sticks have "
                  << stickBytes << " bytes";
      return failure();
    }
    return Type(withLayout(tensorType, layout));
  }

  std::optional<SmallVector<int32_t>> dimOrder;
  if (dimOrderAttr)
    dimOrder = readDimOrder(dimOrderAttr);
  llvm::Expected<::spyre::SpyreTensorLayout> layout = getDefaultLayout(
      tensorType,
      dimOrder ? std::optional<ArrayRef<int32_t>>(*dimOrder) : std::nullopt,
      stickBytes);
  if (!layout) {
    emitError() << "cannot assign a layout to " << type << ": "
                << llvm::toString(layout.takeError());
    return failure();
  }
  return Type(withLayout(
      tensorType,
      LayoutAttr::get(type.getContext(), *layout, tensorType.getElementType())));
}

} // namespace

void AssignDefaultLayoutsPass::runOnOperation() {
  ModuleOp module = getOperation();
  MLIRContext *context = &getContext();
  int64_t stickBytes = getTarget(module).getStickBytes();
  auto layoutName = StringAttr::get(context, SpyreDialect::kLayoutAttrName);
  auto dimOrderName = StringAttr::get(context, SpyreDialect::kDimOrderAttrName);
  bool failedAny = false;
  DenseMap<StringAttr, FunctionType> oldTypes;

  for (auto function : module.getOps<func::FuncOp>()) {
    FunctionType oldType = function.getFunctionType();
    SmallVector<Type> inputs, results;
    for (auto [i, type] : llvm::enumerate(oldType.getInputs())) {
      Location loc = function.isExternal() ? function.getLoc()
                                           : function.getArgument(i).getLoc();
      FailureOr<Type> laidOut =
          layOut(type, function.getArgAttrDict(i), stickBytes, [&] {
            return emitError(loc) << "argument #" << i << " of @"
                                  << function.getSymName() << ": ";
          });
      failedAny |= failed(laidOut);
      inputs.push_back(succeeded(laidOut) ? *laidOut : type);
    }
    for (auto [i, type] : llvm::enumerate(oldType.getResults())) {
      FailureOr<Type> laidOut =
          layOut(type, function.getResultAttrDict(i), stickBytes, [&] {
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
        auto toHost = FromDeviceOp::create(builder, arg.getLoc(), hostType, arg);
        arg.replaceAllUsesExcept(toHost.getResult(), toHost);
      }
      function.walk([&](func::ReturnOp ret) {
        builder.setInsertionPoint(ret);
        for (auto [i, operand] : llvm::enumerate(ret.getOperands()))
          if (operand.getType() != results[i])
            ret.setOperand(
                i, ToDeviceOp::create(builder, ret.getLoc(), results[i],
                                      operand)
                       .getResult());
      });
    }
    function.setType(newType);
    for (unsigned i = 0; i < newType.getNumInputs(); ++i) {
      function.removeArgAttr(i, layoutName);
      function.removeArgAttr(i, dimOrderName);
    }
    for (unsigned i = 0; i < newType.getNumResults(); ++i) {
      function.removeResultAttr(i, layoutName);
      function.removeResultAttr(i, dimOrderName);
    }
  }
  if (failedAny)
    return signalPassFailure();

  // Callers pass and receive device tensors now.
  module.walk([&](func::CallOp call) {
    auto it = oldTypes.find(call.getCalleeAttr().getAttr());
    if (it == oldTypes.end())
      return;
    auto callee = module.lookupSymbol<func::FuncOp>(call.getCalleeAttr());
    FunctionType newType = callee.getFunctionType();
    OpBuilder builder(call);
    for (auto [i, operand] : llvm::enumerate(call.getOperands()))
      if (operand.getType() != newType.getInput(i))
        call.setOperand(i, ToDeviceOp::create(builder, call.getLoc(),
                                              newType.getInput(i), operand)
                               .getResult());
    builder.setInsertionPointAfter(call);
    for (auto [i, result] : llvm::enumerate(call.getResults())) {
      Type hostType = result.getType();
      if (hostType == newType.getResult(i))
        continue;
      result.setType(newType.getResult(i));
      auto toHost = FromDeviceOp::create(builder, call.getLoc(), hostType,
                                         result);
      result.replaceAllUsesExcept(toHost.getResult(), toHost);
    }
  });
}
