//===- spyre-lsp-server.cpp - Language server for spyre-mlir ---------------===//
//
// mlir-lsp-server that knows the spyre dialect: diagnostics (including
// layout verification), hover and go-to-definition for .mlir files in editors.
//
//===----------------------------------------------------------------------===//

#include "Spyre/InitSpyre.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Tools/mlir-lsp-server/MlirLspServerMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::spyre::registerSpyreDialects(registry);
  return mlir::failed(mlir::MlirLspServerMain(argc, argv, registry));
}
