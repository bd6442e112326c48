//===- InitSpyre.h - Register the spyre dialect and passes ------*- C++ -*-===//
//
// What an MLIR tool embedding spyre-mlir calls: the dialect plus the dialects
// its passes create, and every spyre pass.
//
//===----------------------------------------------------------------------===//

#ifndef SPYRE_INITSPYRE_H
#define SPYRE_INITSPYRE_H

#include "Spyre/Analysis/KernelModel.h"
#include "Spyre/Transforms/LinalgToSpyre.h"
#include "Spyre/Transforms/PassEnums.h"

#include "mlir/Pass/PassOptions.h"

namespace mlir {
class DialectRegistry;
class OpPassManager;
namespace spyre {

/// Options of `--spyre-pipeline` (shown by `spyre-opt --help`).
struct SpyrePipelineOptions : public PassPipelineOptions<SpyrePipelineOptions> {
  Option<int> beamWidth{*this, "beam-width",
                        llvm::cl::desc("Partial layout assignments kept by "
                                       "the beam search"),
                        llvm::cl::init(64)};
  Option<int> exactLimit{*this, "exact-limit",
                         llvm::cl::desc("Solve layouts exactly when at most "
                                        "this many ops have a choice"),
                         llvm::cl::init(32)};
  Option<int> cores{*this, "cores",
                    llvm::cl::desc("Cores to divide work across, 1..32 (0: "
                                   "the target's cores)"),
                    llvm::cl::init(0)};
  Option<kernel::Policy> policy{
      *this, "policy", llvm::cl::desc("Work division policy"),
      llvm::cl::init(kernel::Policy::Model),
      llvm::cl::values(clEnumValN(kernel::Policy::Model, "model",
                                  "minimise the modelled time"),
                       clEnumValN(kernel::Policy::Greedy, "greedy",
                                  "the reference stack's policy"))};
  Option<bool> lxResidency{
      *this, "lx-residency",
      llvm::cl::desc("Keep intermediates in LX between kernels whose "
                     "slices match"),
      llvm::cl::init(true)};
  Option<bool> splitProjections{
      *this, "split-projections",
      llvm::cl::desc("Split a matmul read only in column blocks of whole "
                     "sticks (a fused Q/K/V projection) into one matmul per "
                     "block"),
      llvm::cl::init(true)};
  Option<bool> fuseRowBlocks{
      *this, "fuse-row-blocks",
      llvm::cl::desc("Run row-wise pipelines (softmax, norms) in row blocks "
                     "whose intermediates stay in LX"),
      llvm::cl::init(true)};
  Option<bool> hostFallback{
      *this, "host-fallback",
      llvm::cl::desc("Run what the device cannot on the host, in host "
                     "segments between the kernels (false: every op left on "
                     "the host is an error)"),
      llvm::cl::init(true)};
  Option<ArgLayouts> argLayouts{
      *this, "arg-layouts",
      llvm::cl::desc("Who lays out arguments without a spyre.layout or "
                     "spyre.dim_order"),
      llvm::cl::init(ArgLayouts::Auto),
      llvm::cl::values(
          clEnumValN(ArgLayouts::Auto, "auto",
                     "layout propagation, at no cost (the upload stickifies "
                     "into the chosen layout)"),
          clEnumValN(ArgLayouts::Default, "default",
                     "the default layout of the shape"))};
  Option<F32Matmul> f32Matmul{
      *this, "f32-matmul", llvm::cl::desc("Where matmuls on f32 tensors run"),
      llvm::cl::init(F32Matmul::Host),
      llvm::cl::values(
          clEnumValN(F32Matmul::Host, "host", "on the host, exactly"),
          clEnumValN(F32Matmul::F16, "f16",
                     "on the device, operands converted to f16"))};
  Option<bool> kernels{
      *this, "kernels",
      llvm::cl::desc("Divide work, plan memory and lower to spyre.kernel "
                     "(false: stop after layouts and padding)"),
      llvm::cl::init(true)};
};

/// Adds the spyre compiler's passes, in order, to `pm` (a module pass
/// manager).
void buildSpyrePipeline(OpPassManager &pm,
                        const SpyrePipelineOptions &options = {});

/// Adds the spyre dialect and the dialects spyre passes produce.
void registerSpyreDialects(DialectRegistry &registry);

/// Registers every spyre pass (and pipeline) with the global pass registry.
void registerSpyrePassesAndPipelines();

} // namespace spyre
} // namespace mlir

#endif // SPYRE_INITSPYRE_H
