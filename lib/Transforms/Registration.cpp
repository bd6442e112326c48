//===- Registration.cpp - Register the spyre dialect, passes, pipeline
//-----===//

#include "Spyre/InitSpyre.h"
#include "Spyre/Transforms/Passes.h"

#include "Spyre/Transforms/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/IR/Verifier.h"

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

namespace mlir::spyre {
#define GEN_PASS_DEF_SPYREPIPELINECHECK
#include "Spyre/Transforms/Passes.h.inc"
} // namespace mlir::spyre

namespace {
struct PipelineCheckPass
    : mlir::spyre::impl::SpyrePipelineCheckBase<PipelineCheckPass> {
  using SpyrePipelineCheckBase::SpyrePipelineCheckBase;

  LogicalResult initialize(MLIRContext *context) override {
    return checkLayoutSearchOptions(context, kFlag, beamWidth, exactLimit);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (failed(checkCoresOption(module, kFlag, cores)))
      return signalPassFailure();
    bool compiled = false;
    for (auto function : module.getOps<FunctionOpInterface>()) {
      if (!containsKernels(function))
        continue;
      // At the function, without dumping it: the whole function is the
      // problem, not one op of it.
      emitError(function.getLoc())
          << "@" << function.getName()
          << " is already in kernel form (it holds spyre.kernel ops); "
             "--spyre-pipeline compiles linalg: give its output to "
             "spyre-translate or spyre-run as it is";
      compiled = true;
    }
    if (compiled)
      return signalPassFailure();

    bool bad = false;
    // Functions in nested modules: the pipeline compiles one module.
    module.walk([&](ModuleOp nested) {
      if (nested == module)
        return WalkResult::advance();
      for (auto function : nested.getOps<FunctionOpInterface>())
        if (!function.isExternal()) {
          emitError(nested.getLoc())
              << "a nested module holds @" << function.getName()
              << "; --spyre-pipeline compiles the functions of one module: "
                 "run it on the nested module (--pass-pipeline='"
                 "builtin.module(builtin.module(spyre-pipeline))') or move "
                 "the functions to the top level";
          bad = true;
          return WalkResult::skip();
        }
      return WalkResult::advance();
    });
    // Structured ops whose implicit bodies are invalid (linalg.add on ui8
    // builds arith.addi on unsigned integers): the verifier would report
    // the body at an unknown location; say it at the op.
    module.walk([&](linalg::LinalgOp op) {
      for (Operation &inner : op->getRegion(0).getOps())
        if (failed(mlir::verify(&inner, /*verifyRecursively=*/false))) {
          emitError(op->getLoc())
              << "'" << op->getName() << "' on "
              << getElementTypeOrSelf(op->getOperand(0).getType())
              << " has an invalid body: '" << inner.getName()
              << "' does not accept these element types (signless integers "
                 "and floats only)";
          bad = true;
          return;
        }
    });
    // An expand_shape whose static output_shape contradicts its result
    // type (upstream's verifier compares neither): the program means
    // nothing; said at the op, not as a bufferization failure later.
    module.walk([&](tensor::ExpandShapeOp expand) {
      ArrayRef<int64_t> stated = expand.getStaticOutputShape();
      ArrayRef<int64_t> typed = expand.getResultType().getShape();
      for (auto [s, t] : llvm::zip(stated, typed))
        if (!ShapedType::isDynamic(s) && !ShapedType::isDynamic(t) && s != t) {
          InFlightDiagnostic diag = emitError(expand.getLoc())
                                    << "'tensor.expand_shape' states "
                                       "output_shape [";
          llvm::interleaveComma(stated, diag, [&](int64_t d) {
            if (ShapedType::isDynamic(d))
              diag << "?";
            else
              diag << d;
          });
          diag << "], which contradicts its result type "
               << expand.getResultType();
          bad = true;
          return;
        }
    });
    if (bad)
      signalPassFailure();
  }

  static constexpr StringLiteral kFlag = "--spyre-pipeline";
};
} // namespace

void mlir::spyre::buildSpyrePipeline(OpPassManager &pm,
                                     const SpyrePipelineOptions &options) {
  SpyrePipelineCheckOptions check;
  check.beamWidth = options.beamWidth;
  check.exactLimit = options.exactLimit;
  check.cores = options.cores;
  pm.addPass(createSpyrePipelineCheck(check));
  // Calls of functions with bodies are inlined; what cannot be stays on
  // the host.
  // (No simplification pipeline between inlining steps: conversion sees
  // the program as written. Set as an option, so that a dumped pipeline
  // says so too.)
  std::unique_ptr<Pass> inliner = createInlinerPass();
  if (failed(inliner->initializeOptions("default-pipeline=",
                                        [](const Twine &message) {
                                          llvm::report_fatal_error(message);
                                          return failure();
                                        })))
    return;
  pm.addPass(std::move(inliner));
  pm.addPass(createSymbolDCEPass());
  // Passes within one function run on every function, in parallel.
  {
    OpPassManager &functions = pm.nestAny();
    SpyreConvertLinalgOptions convert;
    convert.f32Matmul = options.f32Matmul;
    convert.splitProjections = options.splitProjections;
    // Elementwise arith and math ops on whole tensors (`math.absf %t :
    // tensor<64xf32>`) as the linalg.generic they stand for.
    functions.addPass(createConvertElementwiseToLinalgPass());
    functions.addPass(createSpyreConvertLinalg(convert));
    functions.addPass(createCanonicalizerPass());
    // After the canonicalizer has dropped the dequantizes a scaled matmul
    // absorbed.
    functions.addPass(createSpyreLowerQuantCasts());
    functions.addPass(createSpyreCanonicalizeShapes());
  }
  SpyrePropagateLayoutsOptions propagate;
  propagate.beamWidth = options.beamWidth;
  propagate.exactLimit = options.exactLimit;
  propagate.argLayouts = options.argLayouts;
  pm.addPass(createSpyrePropagateLayouts(propagate));
  {
    OpPassManager &functions = pm.nestAny();
    functions.addPass(createSpyreInsertPadding());
    functions.addPass(createCanonicalizerPass());
    functions.addPass(createCSEPass());
    if (options.kernels) {
      if (options.fuseRowBlocks) {
        SpyreFuseRowBlocksOptions fuse;
        fuse.cores = options.cores;
        functions.addPass(createSpyreFuseRowBlocks(fuse));
      }
      SpyreDivideWorkOptions divide;
      divide.cores = options.cores;
      divide.policy = options.policy;
      functions.addPass(createSpyreDivideWork(divide));
      SpyrePlanMemoryOptions plan;
      plan.lxResidency = options.lxResidency;
      functions.addPass(createSpyrePlanMemory(plan));
    }
  }
  if (!options.kernels)
    return;
  pm.addPass(createSpyreLowerToKernels());
  SpyreOutlineHostSegmentsOptions outline;
  outline.allow = options.hostFallback;
  pm.addPass(createSpyreOutlineHostSegments(outline));
  pm.addPass(createSpyreFormBundles());
}

void mlir::spyre::registerSpyrePassesAndPipelines() {
  registerSpyrePasses();
  PassPipelineRegistration<SpyrePipelineOptions>(
      "spyre-pipeline",
      "The spyre compiler: linalg on tensors to spyre kernels on laid-out "
      "tensors (convert-linalg, canonicalize-shapes, propagate-layouts, "
      "insert-padding, fuse-row-blocks, divide-work, plan-memory, "
      "lower-to-kernels, "
      "outline-host-segments, form-bundles)",
      buildSpyrePipeline);
}
