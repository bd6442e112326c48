//===- Registration.cpp - Register the spyre dialect, passes, pipeline -----===//

#include "Spyre/InitSpyre.h"
#include "Spyre/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::spyre;

void mlir::spyre::registerSpyreDialects(DialectRegistry &registry) {
  registry.insert<SpyreDialect, func::FuncDialect, arith::ArithDialect,
                  math::MathDialect, tensor::TensorDialect,
                  linalg::LinalgDialect>();
}

void mlir::spyre::buildSpyrePipeline(OpPassManager &pm,
                                     const SpyrePipelineOptions &options) {
  pm.addPass(createSpyreConvertLinalg());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createSpyreCanonicalizeShapes());
  SpyrePropagateLayoutsOptions propagate;
  propagate.beamWidth = options.beamWidth;
  propagate.exactLimit = options.exactLimit;
  pm.addPass(createSpyrePropagateLayouts(propagate));
  pm.addPass(createSpyreInsertPadding());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  if (!options.kernels)
    return;
  SpyreDivideWorkOptions divide;
  divide.cores = options.cores;
  divide.policy = options.policy;
  pm.addPass(createSpyreDivideWork(divide));
  SpyrePlanMemoryOptions plan;
  plan.lxResidency = options.lxResidency;
  pm.addPass(createSpyrePlanMemory(plan));
  pm.addPass(createSpyreLowerToKernels());
}

void mlir::spyre::registerSpyrePassesAndPipelines() {
  registerSpyrePasses();
  PassPipelineRegistration<SpyrePipelineOptions>(
      "spyre-pipeline",
      "The spyre compiler: linalg on tensors to spyre kernels on laid-out "
      "tensors (convert-linalg, canonicalize-shapes, propagate-layouts, "
      "insert-padding, divide-work, plan-memory, lower-to-kernels)",
      buildSpyrePipeline);
}
