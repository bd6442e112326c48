//===- Dialects.cpp - C API of spyre-mlir ----------------------------------===//

#include "Spyre-c/Dialects.h"

#include "Spyre/Dialect/Spyre/IR/Spyre.h"
#include "Spyre/InitSpyre.h"
#include "Spyre/Transforms/Passes.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Pass.h"
#include "mlir/CAPI/Registration.h"

using namespace mlir;
using namespace mlir::spyre;

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Spyre, spyre, SpyreDialect)

void mlirSpyreRegisterDialects(MlirDialectRegistry registry) {
  registerSpyreDialects(*unwrap(registry));
}

void mlirSpyreRegisterAllPasses(void) { registerSpyrePassesAndPipelines(); }

bool mlirAttributeIsASpyreLayout(MlirAttribute attr) {
  return isa<LayoutAttr>(unwrap(attr));
}

intptr_t mlirSpyreLayoutAttrGetDeviceRank(MlirAttribute attr) {
  return cast<LayoutAttr>(unwrap(attr)).getDeviceSize().size();
}

int64_t mlirSpyreLayoutAttrGetDeviceSize(MlirAttribute attr, intptr_t pos) {
  return cast<LayoutAttr>(unwrap(attr)).getDeviceSize()[pos];
}

int64_t mlirSpyreLayoutAttrGetStrideMap(MlirAttribute attr, intptr_t pos) {
  return cast<LayoutAttr>(unwrap(attr)).getStrideMap()[pos];
}

MlirAttribute mlirSpyreLayoutAttrGetDefault(MlirType tensorType) {
  auto type = dyn_cast<RankedTensorType>(unwrap(tensorType));
  if (!type)
    return MlirAttribute{nullptr};
  llvm::Expected<SpyreTensorLayout> layout = getDefaultLayout(type);
  if (!layout) {
    llvm::consumeError(layout.takeError());
    return MlirAttribute{nullptr};
  }
  return wrap(LayoutAttr::get(type.getContext(), *layout,
                              type.getElementType()));
}

// mlirRegisterSpyrePasses() and one mlirCreateSpyre<Pass>() per pass.
#include "Spyre/Transforms/Passes.capi.cpp.inc"
