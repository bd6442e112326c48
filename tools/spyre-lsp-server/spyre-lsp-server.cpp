//===- spyre-lsp-server.cpp - Language server for spyre-mlir
//---------------===//
//
// mlir-lsp-server that knows the spyre dialect: diagnostics (including
// layout verification), hover and go-to-definition for .mlir files in
// editors. It accepts the dialects every spyre tool accepts.
//
//===----------------------------------------------------------------------===//

#include "Spyre/Driver/Driver.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-lsp-server/MlirLspServerMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::spyre::driver::registerToolDialects(registry);
  mlir::spyre::driver::registerVersionPrinter();
  return mlir::failed(mlir::MlirLspServerMain(argc, argv, registry));
}
