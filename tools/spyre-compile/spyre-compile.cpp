//===- spyre-compile.cpp - linalg in, every artifact out ------------------===//
//
//   spyre-compile model.mlir --cores=32 -o out/
//
// One call from linalg on tensors to everything the runtime and the backend
// need, as iree-compile does: the kernel form (kernels.mlir), the SuperDSC
// JSON of every kernel and the bundle (bundle.mlir), the DCI descriptors,
// the source it was compiled from (source.mlir) and a manifest
// (manifest.json: the function, its inputs and outputs with their shapes,
// element types, layouts and DCI files) that `spyre-run out/manifest.json`
// runs. Files are written only when everything succeeded.
//
//===----------------------------------------------------------------------===//

#include "Spyre/Dialect/Spyre/IR/Spyre.h"
#include "Spyre/Driver/Driver.h"
#include "Spyre/Sim/Simulator.h"

#include "mlir/Support/Timing.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace mlir::spyre;
namespace cl = llvm::cl;

static cl::OptionCategory category("spyre-compile options");
static driver::CompileFlags compileFlags(category);
static cl::opt<std::string> inputFile(cl::Positional,
                                      cl::desc("<input .mlir file>"),
                                      cl::init("-"), cl::cat(category));
static cl::opt<std::string>
    outputDir("o", cl::desc("The directory to write the artifacts into"),
              cl::value_desc("directory"), cl::Required, cl::cat(category));
static cl::opt<std::string>
    functionName("function",
                 cl::desc("The function the manifest describes (default: the "
                          "only public function, or `main`)"),
                 cl::init(""), cl::cat(category));
static cl::opt<bool> timing("timing",
                            cl::desc("Print the wall time of every pass"),
                            cl::init(false), cl::cat(category));

static int fail(const llvm::Twine &message) {
  llvm::errs() << "spyre-compile: error: " << message << "\n";
  return 1;
}

static std::string printed(Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  op->print(os);
  return text;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  registerSpyrePassesAndPipelines();
  driver::registerVersionPrinter();
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "spyre-compile: linalg on tensors to the kernel form, SuperDSC, DCI "
      "and a manifest spyre-run reads\n");

  DefaultTimingManager timingManager;
  timingManager.setEnabled(timing);
  TimingScope rootTiming = timingManager.getRootScope();

  driver::Session session;
  std::string openError;
  OwningOpRef<ModuleOp> module = session.parseFile(inputFile, &openError);
  if (!module)
    return openError.empty() ? 1 : fail(openError);
  if (std::optional<std::string> problem = compileFlags.problem(*module))
    return fail(*problem);
  sim::FunctionChoice choice = sim::chooseFunction(*module, functionName);
  if (!choice.function) {
    if (!functionName.empty())
      return fail(llvm::formatv("no function @{0} with a body in {1}",
                                functionName, inputFile));
    return fail(llvm::formatv("{0} has {1} public functions; choose the one "
                              "the manifest describes with --function=NAME",
                              inputFile, choice.publicFunctions));
  }
  std::string name = choice.function.getSymName().str();
  std::string why;
  if (failed(driver::argumentsAsTensors(choice.function, why)))
    return fail(why);

  driver::CompileOptions options = compileFlags.options();
  bool compiled = false;
  FailureOr<OwningOpRef<ModuleOp>> lowered = [&] {
    TimingScope compileTiming = rootTiming.nest("compile");
    return session.compile(*module, options, compiled, &compileTiming);
  }();
  if (failed(lowered))
    return fail("compilation failed");
  if (!compiled)
    return fail(inputFile + " is in kernel form already; spyre-compile "
                            "compiles linalg");
  FailureOr<driver::Artifacts> artifacts = [&] {
    TimingScope emitTiming = rootTiming.nest("emit");
    return driver::emitArtifacts(**lowered);
  }();
  if (failed(artifacts))
    return fail("emission failed");

  // Everything into the directory, all or nothing, never over the input.
  std::vector<std::string> inputs = {inputFile};
  OutputFiles files(inputs);
  if (llvm::Error error = files.createDirectory(outputDir))
    return fail(llvm::toString(std::move(error)));
  SmallVector<std::string> written;
  auto add = [&](StringRef fileName, std::string contents) {
    SmallString<256> path(outputDir.getValue());
    llvm::sys::path::append(path, fileName);
    written.push_back(std::string(path));
    return files.add(path, std::move(contents));
  };
  auto json = [](const llvm::json::Value &value) {
    return llvm::formatv("{0:2}", value).str() + "\n";
  };
  llvm::Error error = add("kernels.mlir", printed(**lowered));
  if (!error)
    error = add("source.mlir", printed(*module));
  for (const EmittedFile &file : artifacts->superdsc)
    if (!error)
      error = add(file.name, renderFile(file));
  for (const EmittedBundle &bundle : artifacts->bundles)
    if (!error)
      error = add(bundle.name, bundle.text);
  for (const EmittedFile &file : artifacts->dci)
    if (!error)
      error = add(file.name, renderFile(file));
  auto function = (*lowered)->lookupSymbol<func::FuncOp>(name);
  if (!error)
    error = add("manifest.json",
                json(driver::buildManifest(function, *artifacts, "kernels.mlir",
                                           "source.mlir")));
  if (!error)
    error = files.commit();
  if (error)
    return fail(llvm::toString(std::move(error)));
  llvm::outs() << llvm::formatv("@{0}: {1} SuperDSCs, {2} DCI descriptors in "
                                "{3} (run it: spyre-run {4})\n",
                                name, artifacts->superdsc.size(),
                                artifacts->dci.size(), outputDir,
                                written.back());
  return 0;
}
