//===- InitSpyre.h - Register the spyre dialect and passes ------*- C++ -*-===//
//
// What an MLIR tool embedding spyre-mlir calls: the dialect plus the dialects
// its passes create, and every spyre pass.
//
//===----------------------------------------------------------------------===//

#ifndef SPYRE_INITSPYRE_H
#define SPYRE_INITSPYRE_H

namespace mlir {
class DialectRegistry;
namespace spyre {

/// Adds the spyre dialect and the dialects spyre passes produce.
void registerSpyreDialects(DialectRegistry &registry);

/// Registers every spyre pass (and pipeline) with the global pass registry.
void registerSpyrePassesAndPipelines();

} // namespace spyre
} // namespace mlir

#endif // SPYRE_INITSPYRE_H
