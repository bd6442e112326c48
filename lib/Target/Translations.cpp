//===- Translations.cpp - --spyre-to-superdsc, --spyre-to-dci
//--------------===//

#include "Spyre/Dialect/Spyre/IR/Spyre.h"
#include "Spyre/InitSpyre.h"
#include "Spyre/Support/OutputFiles.h"

#include "Spyre/Target/Emitters.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::spyre;

static llvm::cl::opt<std::string> outputDir(
    "spyre-output-dir",
    llvm::cl::desc("Write one file per SuperDSC / DCI object (and the "
                   "bundle) into this directory, listing them on the output "
                   "stream; nothing is written unless every file is"),
    llvm::cl::init(""));

static std::string render(const llvm::json::Value &value) {
  return llvm::formatv("{0:2}", value).str() + "\n";
}

std::string mlir::spyre::renderFile(const EmittedFile &file) {
  return file.text.empty() ? render(file.json) : file.text;
}

/// With --spyre-output-dir: writes every file into the directory, all or
/// nothing, and lists them on `os`. File-system errors are reported at the
/// module's location without printing the module.
static LogicalResult writeFiles(Operation *anchor, ArrayRef<EmittedFile> files,
                                ArrayRef<EmittedBundle> bundles,
                                raw_ostream &os) {
  OutputFiles outputs;
  SmallVector<std::string> paths;
  auto add = [&](StringRef name, std::string text) -> llvm::Error {
    SmallString<256> path(outputDir);
    llvm::sys::path::append(path, sanitizeFileName(name));
    paths.push_back(std::string(path));
    return outputs.add(path, std::move(text));
  };
  llvm::Error error = outputs.createDirectory(outputDir);
  for (const EmittedFile &file : files)
    if (!error)
      error = add(file.name, renderFile(file));
  for (const EmittedBundle &bundle : bundles)
    if (!error)
      error = add(bundle.name, bundle.text);
  if (!error)
    error = outputs.commit();
  if (error)
    return emitError(anchor->getLoc()) << llvm::toString(std::move(error));
  for (const std::string &path : paths)
    os << path << "\n";
  return success();
}

/// Fails with a located error unless every function of `module` is in
/// kernel form: its body holds only spyre ops, calls (of host segments),
/// constants and the return. A function still in linalg (never compiled, or
/// added after compilation) would silently give no SuperDSC and no DCIs.
/// Host segments themselves are the host's code.
static LogicalResult checkCompiled(ModuleOp module) {
  for (auto function : module.getOps<FunctionOpInterface>()) {
    if (function.isExternal() ||
        function->hasAttr(SpyreDialect::kHostSegmentAttrName))
      continue;
    for (Operation &op : function.getFunctionBody().getOps()) {
      // spyre ops on device tensors are the emitters' to judge (a compute
      // op outside spyre.kernel is one of their located errors); on host
      // tensors they were never laid out. Calls only of host segments.
      if (isa<SpyreDialect>(op.getDialect()) &&
          (!isa<KernelPayloadOpInterface>(op) ||
           llvm::any_of(op.getResultTypes(), isDeviceTensor)))
        continue;
      if (auto call = dyn_cast<func::CallOp>(op)) {
        auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
            call, call.getCalleeAttr());
        if (callee && callee->hasAttr(SpyreDialect::kHostSegmentAttrName))
          continue;
      }
      if (op.hasTrait<OpTrait::IsTerminator>() ||
          op.hasTrait<OpTrait::ConstantLike>())
        continue;
      if (isa<SpyreDialect>(op.getDialect()))
        return emitError(op.getLoc())
               << "'" << op.getName()
               << "' op is not in kernel form; run --spyre-lower-to-kernels "
                  "(or --spyre-pipeline) first";
      return function.emitError()
             << "@" << function.getName()
             << " is not in kernel form (it holds '" << op.getName()
             << "'); compile it with spyre-opt --spyre-pipeline first";
    }
  }
  return success();
}

/// The module a translation reads: `op`, which must be a module in kernel
/// form.
static FailureOr<ModuleOp> compiledModule(Operation *op) {
  auto module = dyn_cast<ModuleOp>(op);
  if (!module)
    return op->emitError("expected a module");
  if (failed(checkCompiled(module)))
    return failure();
  return module;
}

static LogicalResult translateToSuperDsc(Operation *op, raw_ostream &os) {
  FailureOr<ModuleOp> module = compiledModule(op);
  if (failed(module))
    return failure();
  FailureOr<std::vector<EmittedFile>> files = emitSuperDsc(*module);
  if (failed(files))
    return failure();
  FailureOr<std::vector<EmittedBundle>> bundles = emitBundles(*module);
  if (failed(bundles))
    return failure();
  if (!outputDir.empty())
    return writeFiles(op, *files, *bundles, os);
  llvm::json::Value segments = listHostSegments(*module);
  os << superDscDocument(*files, *bundles, &segments);
  return success();
}

static LogicalResult translateToDci(Operation *op, raw_ostream &os) {
  FailureOr<ModuleOp> module = compiledModule(op);
  if (failed(module))
    return failure();
  FailureOr<std::vector<EmittedFile>> files = emitDci(*module);
  if (failed(files))
    return failure();
  if (!outputDir.empty())
    return writeFiles(op, *files, {}, os);
  // Each descriptor exactly as its file holds it, with what it moves beside
  // it (the runtime's descriptor has no field for that).
  llvm::json::Array all;
  for (const EmittedFile &file : *files) {
    llvm::json::Object entry = file.metadata;
    entry["file"] = file.name;
    entry["dci"] = file.json;
    all.push_back(std::move(entry));
  }
  os << render(std::move(all));
  return success();
}

void mlir::spyre::registerSpyreTranslations(
    void (*registerDialects)(DialectRegistry &)) {
  static bool once = [registerDialects] {
    auto dialects = registerDialects ? registerDialects : registerSpyreDialects;
    TranslateFromMLIRRegistration superdsc(
        "spyre-to-superdsc",
        "Emit the SuperDSC JSON of every kernel and the bundle listing them",
        translateToSuperDsc, dialects);
    TranslateFromMLIRRegistration dci(
        "spyre-to-dci",
        "Emit the DCI (host <-> device DMA) descriptor of every host-visible "
        "tensor",
        translateToDci, dialects);
    return true;
  }();
  (void)once;
}

std::string mlir::spyre::sanitizeFileName(StringRef name) {
  std::string safe;
  for (char c : name)
    safe.push_back(llvm::isAlnum(c) || c == '-' || c == '_' || c == '.' ? c
                                                                        : '_');
  if (safe.empty() || safe.front() == '.')
    safe.insert(safe.begin(), '_');
  return safe;
}

std::string
mlir::spyre::superDscDocument(ArrayRef<EmittedFile> files,
                              ArrayRef<EmittedBundle> bundles,
                              const llvm::json::Value *hostSegments) {
  std::string text;
  llvm::raw_string_ostream stream(text);
  llvm::json::OStream json(stream, /*IndentSize=*/2);
  // Keys in the order llvm::json::Object prints them (sorted).
  json.object([&] {
    json.attributeArray("bundles", [&] {
      for (const EmittedBundle &bundle : bundles) {
        llvm::json::Object entry = bundle.metadata;
        entry["file"] = bundle.name;
        json.value(std::move(entry));
      }
    });
    if (hostSegments && hostSegments->getAsArray() &&
        !hostSegments->getAsArray()->empty())
      json.attribute("host_segments", *hostSegments);
    json.attributeObject("sdscs", [&] {
      for (const EmittedFile &file : files) {
        json.attributeBegin(file.name);
        if (file.text.empty())
          json.value(file.json);
        else
          json.rawValue(StringRef(file.text).rtrim());
        json.attributeEnd();
      }
    });
  });
  return text + "\n";
}
