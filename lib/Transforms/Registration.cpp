//===- Registration.cpp - Register the spyre dialect, passes, pipeline -----===//

#include "Spyre/InitSpyre.h"
#include "Spyre/Transforms/Passes.h"
#include "Spyre/Transforms/Utils.h"

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


namespace {
/// The first pass of `--spyre-pipeline`: checks the pipeline's options
/// before any pass runs (a pipeline builder cannot fail), naming them as
/// `--spyre-pipeline` options rather than as options of the pass that reads
/// them, and rejects input the pipeline has compiled already.
struct PipelineCheckPass
    : public PassWrapper<PipelineCheckPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(PipelineCheckPass)

  PipelineCheckPass(const SpyrePipelineOptions &options)
      : beamWidth(options.beamWidth), exactLimit(options.exactLimit),
        cores(options.cores), policy(options.policy) {}

  StringRef getArgument() const override { return "spyre-pipeline-check"; }
  StringRef getDescription() const override {
    return "Check the options and the input of --spyre-pipeline";
  }

  LogicalResult initialize(MLIRContext *context) override {
    if (failed(checkLayoutSearchOptions(context, kFlag, beamWidth,
                                        exactLimit)))
      return failure();
    if (failed(checkPolicyOption(context, kFlag, policy)))
      return failure();
    return success();
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
      signalPassFailure();
  }

  static constexpr StringLiteral kFlag = "--spyre-pipeline";
  int64_t beamWidth, exactLimit, cores;
  std::string policy;
};
} // namespace

void mlir::spyre::buildSpyrePipeline(OpPassManager &pm,
                                     const SpyrePipelineOptions &options) {
  pm.addPass(std::make_unique<PipelineCheckPass>(options));
  // Passes within one function run on every function, in parallel.
  {
    OpPassManager &functions = pm.nestAny();
    functions.addPass(createSpyreConvertLinalg());
    functions.addPass(createCanonicalizerPass());
    functions.addPass(createSpyreCanonicalizeShapes());
  }
  SpyrePropagateLayoutsOptions propagate;
  propagate.beamWidth = options.beamWidth;
  propagate.exactLimit = options.exactLimit;
  pm.addPass(createSpyrePropagateLayouts(propagate));
  {
    OpPassManager &functions = pm.nestAny();
    functions.addPass(createSpyreInsertPadding());
    functions.addPass(createCanonicalizerPass());
    functions.addPass(createCSEPass());
    if (options.kernels) {
      SpyreDivideWorkOptions divide;
      divide.cores = options.cores;
      divide.policy = options.policy;
      functions.addPass(createSpyreDivideWork(divide));
      SpyrePlanMemoryOptions plan;
      plan.lxResidency = options.lxResidency;
      functions.addPass(createSpyrePlanMemory(plan));
    }
  }
  if (options.kernels)
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
