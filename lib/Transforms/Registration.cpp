//===- Registration.cpp - Register the spyre dialect and passes ------------===//

#include "Spyre/InitSpyre.h"
#include "Spyre/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"

void mlir::spyre::registerSpyreDialects(DialectRegistry &registry) {
  registry.insert<SpyreDialect, func::FuncDialect>();
}

void mlir::spyre::registerSpyrePassesAndPipelines() { registerSpyrePasses(); }
