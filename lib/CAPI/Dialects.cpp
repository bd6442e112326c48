//===- Dialects.cpp - C API of spyre-mlir
//----------------------------------===//

#include "Spyre-c/Dialects.h"

#include "Spyre/Dialect/Spyre/IR/Spyre.h"
#include "Spyre/Driver/Driver.h"
#include "Spyre/InitSpyre.h"
#include "Spyre/Transforms/Passes.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Pass.h"
#include "mlir/CAPI/Registration.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::spyre;

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Spyre, spyre, SpyreDialect)

void mlirSpyreRegisterDialects(MlirDialectRegistry registry) {
  registerSpyreDialects(*unwrap(registry));
}

void mlirSpyreRegisterAllPasses(void) { registerSpyrePassesAndPipelines(); }

void mlirSpyreRegisterToolDialects(MlirDialectRegistry registry) {
  driver::registerToolDialects(*unwrap(registry));
}

/// The layout `attr` is, or null (for a null attribute too).
static LayoutAttr layoutOf(MlirAttribute attr) {
  return mlirAttributeIsNull(attr) ? LayoutAttr()
                                   : dyn_cast<LayoutAttr>(unwrap(attr));
}

bool mlirAttributeIsASpyreLayout(MlirAttribute attr) {
  return static_cast<bool>(layoutOf(attr));
}

intptr_t mlirSpyreLayoutAttrGetDeviceRank(MlirAttribute attr) {
  LayoutAttr layout = layoutOf(attr);
  return layout ? static_cast<intptr_t>(layout.getDeviceSize().size()) : -1;
}

/// values[pos], or MLIR_SPYRE_INVALID_QUERY.
static int64_t entry(ArrayRef<int64_t> values, intptr_t pos) {
  if (pos < 0 || pos >= static_cast<intptr_t>(values.size()))
    return MLIR_SPYRE_INVALID_QUERY;
  return values[pos];
}

int64_t mlirSpyreLayoutAttrGetDeviceSize(MlirAttribute attr, intptr_t pos) {
  LayoutAttr layout = layoutOf(attr);
  return layout ? entry(layout.getDeviceSize(), pos) : MLIR_SPYRE_INVALID_QUERY;
}

int64_t mlirSpyreLayoutAttrGetStrideMap(MlirAttribute attr, intptr_t pos) {
  LayoutAttr layout = layoutOf(attr);
  return layout ? entry(layout.getStrideMap(), pos) : MLIR_SPYRE_INVALID_QUERY;
}

MlirAttribute mlirSpyreLayoutAttrGetDefault(MlirType tensorType) {
  if (mlirTypeIsNull(tensorType))
    return MlirAttribute{nullptr};
  auto type = dyn_cast<RankedTensorType>(unwrap(tensorType));
  if (!type)
    return MlirAttribute{nullptr};
  llvm::Expected<SpyreTensorLayout> layout = getDefaultLayout(type);
  if (!layout) {
    llvm::consumeError(layout.takeError());
    return MlirAttribute{nullptr};
  }
  return wrap(
      LayoutAttr::get(type.getContext(), *layout, type.getElementType()));
}

/// The module `op` is, or null.
static ModuleOp moduleOf(MlirOperation op) {
  return mlirOperationIsNull(op) ? ModuleOp() : dyn_cast<ModuleOp>(unwrap(op));
}

static MlirLogicalResult emitText(
    MlirOperation op, MlirStringCallback callback, void *userData,
    function_ref<FailureOr<std::string>(const driver::Artifacts &)> render) {
  ModuleOp module = moduleOf(op);
  if (!module || !callback)
    return mlirLogicalResultFailure();
  FailureOr<driver::Artifacts> artifacts = driver::emitArtifacts(module);
  if (failed(artifacts))
    return mlirLogicalResultFailure();
  FailureOr<std::string> text = render(*artifacts);
  if (failed(text))
    return mlirLogicalResultFailure();
  callback(mlirStringRefCreate(text->data(), text->size()), userData);
  return mlirLogicalResultSuccess();
}

static std::string formatJson(const llvm::json::Value &value) {
  return llvm::formatv("{0:2}", value).str() + "\n";
}

MlirLogicalResult mlirSpyreEmitSuperDsc(MlirOperation module,
                                        MlirStringCallback callback,
                                        void *userData) {
  return emitText(
      module, callback, userData,
      [](const driver::Artifacts &artifacts) -> FailureOr<std::string> {
        return superDscDocument(artifacts.superdsc, artifacts.bundles);
      });
}

MlirLogicalResult mlirSpyreEmitBundle(MlirOperation module,
                                      MlirStringCallback callback,
                                      void *userData) {
  return emitText(
      module, callback, userData,
      [](const driver::Artifacts &artifacts) -> FailureOr<std::string> {
        llvm::json::Object bundles;
        for (const EmittedBundle &bundle : artifacts.bundles)
          bundles[bundle.name] = bundle.text;
        return formatJson(std::move(bundles));
      });
}

MlirLogicalResult mlirSpyreEmitDci(MlirOperation module,
                                   MlirStringCallback callback,
                                   void *userData) {
  return emitText(
      module, callback, userData,
      [](const driver::Artifacts &artifacts) -> FailureOr<std::string> {
        llvm::json::Array all;
        for (const EmittedFile &file : artifacts.dci)
          all.push_back(file.json);
        return formatJson(std::move(all));
      });
}

// mlirRegisterSpyrePasses() and one mlirCreateSpyre<Pass>() per pass.
#include "Spyre/Transforms/Passes.capi.cpp.inc"
