//===- consumer-opt.cpp - A tool embedding spyre-mlir
//----------------------===//
//
// What another MLIR project does to use the spyre dialect and passes: register
// them next to its own dialects and run them in its own pipelines.
//
//===----------------------------------------------------------------------===//

#include "Spyre/InitSpyre.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::spyre::registerSpyrePassesAndPipelines();
  mlir::DialectRegistry registry;
  mlir::spyre::registerSpyreDialects(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "spyre-mlir consumer\n", registry));
}
