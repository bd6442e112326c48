//===- spyre-opt.cpp - The spyre-mlir optimizer driver ---------------------===//
//
// mlir-opt with the spyre dialect and passes: every upstream dialect, pass
// and extension is registered too, so linalg from torch-mlir or StableHLO
// pipelines, and upstream passes such as -canonicalize, work unchanged.
//
//===----------------------------------------------------------------------===//

#include "Spyre/InitSpyre.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::spyre::registerSpyrePassesAndPipelines();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::spyre::registerSpyreDialects(registry);

  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "spyre-mlir optimizer driver\n", registry));
}
