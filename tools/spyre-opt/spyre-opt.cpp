//===- spyre-opt.cpp - The spyre-mlir optimizer driver
//---------------------===//
//
// mlir-opt with the spyre dialect and passes: every upstream dialect, pass
// and extension is registered too (driver::registerToolDialects, the same
// set every spyre tool accepts), so linalg from torch-mlir or StableHLO
// pipelines, and upstream passes such as -canonicalize, work unchanged.
//
// Unlike mlir-opt, the output is written only when the run succeeded
// (through a temporary file renamed into place), and an output file that is
// the input is refused: a failing `spyre-opt IN ... -o IN` never truncates
// its input.
//
//===----------------------------------------------------------------------===//

#include "Spyre/Driver/Driver.h"
#include "Spyre/InitSpyre.h"
#include "Spyre/Support/OutputFiles.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  mlir::registerAllPasses();
  mlir::spyre::registerSpyrePassesAndPipelines();
  mlir::spyre::driver::registerVersionPrinter();

  mlir::DialectRegistry registry;
  mlir::spyre::driver::registerToolDialects(registry);
  auto [inputFile, outputFile] = mlir::registerAndParseCLIOptions(
      argc, argv, "spyre-mlir optimizer driver\n", registry);
  mlir::MlirOptMainConfig config =
      mlir::MlirOptMainConfig::createFromCLOptions();

  std::vector<std::string> inputs = {inputFile};
  mlir::spyre::OutputFiles outputs(inputs);
  if (llvm::Error error = outputs.add(outputFile, "")) {
    llvm::errs() << "spyre-opt: error: " << llvm::toString(std::move(error))
                 << "\n";
    return 1;
  }
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> file =
      mlir::openInputFile(inputFile, &error);
  if (!file) {
    llvm::errs() << "spyre-opt: error: " << error << "\n";
    return 1;
  }
  if (std::optional<mlir::spyre::driver::NestingError> deep =
          mlir::spyre::driver::checkNestingDepth(file->getBuffer())) {
    llvm::errs() << deep->str(inputFile) << "\n";
    return 1;
  }
  // Op spellings of older MLIR releases (linalg.matmul_transpose_b,
  // tensor.pack, ...) in their current form.
  if (std::unique_ptr<llvm::MemoryBuffer> upgraded =
          mlir::spyre::driver::upgradeLegacySpellings(*file))
    file = std::move(upgraded);
  std::string output;
  llvm::raw_string_ostream os(output);
  if (mlir::failed(mlir::MlirOptMain(os, std::move(file), registry, config)))
    return 1;
  mlir::spyre::OutputFiles result(inputs);
  if (llvm::Error failure = result.add(outputFile, std::move(output))) {
    llvm::errs() << "spyre-opt: error: " << llvm::toString(std::move(failure))
                 << "\n";
    return 1;
  }
  if (llvm::Error failure = result.commit()) {
    llvm::errs() << "spyre-opt: error: " << llvm::toString(std::move(failure))
                 << "\n";
    return 1;
  }
  return 0;
}
