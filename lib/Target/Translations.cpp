//===- Translations.cpp - --spyre-to-superdsc, --spyre-to-dci --------------===//

#include "Spyre/Dialect/Spyre/IR/Spyre.h"
#include "Spyre/InitSpyre.h"
#include "Spyre/Target/Emitters.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::spyre;

static llvm::cl::opt<std::string> outputDir(
    "spyre-output-dir",
    llvm::cl::desc("Write one file per SuperDSC / DCI object into this "
                   "directory (spyre-translate's `-o DIR` sets it)"),
    llvm::cl::init(""));

/// Writes `text` to DIR/name and lists the file on `os`. File-system errors
/// are reported at the module's location without printing the module.
static LogicalResult writeFile(Operation *anchor, StringRef name,
                               StringRef text, raw_ostream &os) {
  SmallString<256> path(outputDir);
  llvm::sys::path::append(path, name);
  std::error_code error;
  llvm::raw_fd_ostream file(path, error, llvm::sys::fs::OF_Text);
  if (error)
    return emitError(anchor->getLoc())
           << "cannot write " << path << ": " << error.message();
  file << text;
  os << path << "\n";
  return success();
}

static LogicalResult prepareDir(Operation *anchor) {
  if (std::error_code error = llvm::sys::fs::create_directories(outputDir))
    return emitError(anchor->getLoc())
           << "cannot create directory " << outputDir << ": "
           << error.message();
  if (!llvm::sys::fs::is_directory(outputDir))
    return emitError(anchor->getLoc())
           << "cannot write into " << outputDir << ": it is not a directory";
  return success();
}

static std::string render(const llvm::json::Value &value) {
  return llvm::formatv("{0:2}", value).str() + "\n";
}

/// Fails with a located error when `module` was never compiled: no function
/// holds a spyre.kernel or a device tensor, yet some function has ops to
/// run (plain linalg, or --spyre-convert-linalg output). Emitting such a
/// module would silently give an empty bundle or no DCIs.
static LogicalResult checkCompiled(ModuleOp module) {
  FunctionOpInterface uncompiled;
  bool compiled = false;
  module.walk([&](Operation *op) {
    if (isa<KernelOp>(op) ||
        llvm::any_of(op->getResultTypes(), isDeviceTensor)) {
      compiled = true;
      return WalkResult::interrupt();
    }
    if (auto function = dyn_cast<FunctionOpInterface>(op)) {
      if (llvm::any_of(function.getArgumentTypes(), isDeviceTensor) ||
          llvm::any_of(function.getResultTypes(), isDeviceTensor)) {
        compiled = true;
        return WalkResult::interrupt();
      }
      if (!uncompiled && !function.isExternal() &&
          llvm::any_of(function.getFunctionBody().getOps(), [](Operation &o) {
            return !o.hasTrait<OpTrait::IsTerminator>();
          }))
        uncompiled = function;
    }
    return WalkResult::advance();
  });
  if (compiled || !uncompiled)
    return success();
  return uncompiled.emitError()
         << "@" << uncompiled.getName()
         << " is not in kernel form (it has no spyre.kernel and no device "
            "tensors); compile it with spyre-opt --spyre-pipeline first";
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

/// With --spyre-output-dir: writes every file into the directory.
static LogicalResult writeFiles(Operation *op,
                                ArrayRef<EmittedFile> files,
                                raw_ostream &os) {
  if (failed(prepareDir(op)))
    return failure();
  for (const EmittedFile &file : files)
    if (failed(writeFile(op, file.name, render(file.json), os)))
      return failure();
  return success();
}

static LogicalResult translateToSuperDsc(Operation *op, raw_ostream &os) {
  FailureOr<ModuleOp> module = compiledModule(op);
  if (failed(module))
    return failure();
  FailureOr<std::vector<EmittedFile>> files = emitSuperDsc(*module);
  if (failed(files))
    return failure();
  FailureOr<std::string> bundle = emitBundle(*module);
  if (failed(bundle))
    return failure();
  if (!outputDir.empty()) {
    if (failed(writeFiles(op, *files, os)))
      return failure();
    return writeFile(op, "bundle.mlir", *bundle, os);
  }
  llvm::json::Array order;
  llvm::json::Object objects;
  for (const EmittedFile &file : *files) {
    order.push_back(file.name);
    objects[file.name] = file.json;
  }
  os << render(llvm::json::Object{{"bundle", std::move(order)},
                                  {"sdscs", std::move(objects)}});
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
    return writeFiles(op, *files, os);
  llvm::json::Array all;
  for (const EmittedFile &file : *files)
    all.push_back(file.json);
  os << render(std::move(all));
  return success();
}

void mlir::spyre::registerSpyreTranslations() {
  static bool once = [] {
    TranslateFromMLIRRegistration superdsc(
        "spyre-to-superdsc",
        "Emit the SuperDSC JSON of every kernel and the bundle listing them",
        translateToSuperDsc, registerSpyreDialects);
    TranslateFromMLIRRegistration dci(
        "spyre-to-dci",
        "Emit the DCI (host <-> device DMA) descriptor of every host-visible "
        "tensor",
        translateToDci, registerSpyreDialects);
    return true;
  }();
  (void)once;
}
