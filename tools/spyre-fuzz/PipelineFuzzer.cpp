//===- PipelineFuzzer.cpp - The whole compiler on mutated inputs ----------===//
//
// libFuzzer target over what `spyre-opt --spyre-pipeline` followed by
// `spyre-translate --spyre-to-superdsc / --spyre-to-dci` does: parse the
// input as an MLIR module (linalg, tensor, arith, math, func and spyre),
// run the pipeline, and emit SuperDSC and DCI from the result. Each stage may
// reject its input with a diagnostic; it must never crash, hang, trip a
// sanitizer, or succeed while leaving IR the verifier rejects (checked after
// every pass that reports success, instead of the pass manager's own
// verifier, which would turn that bug into an ordinary failure).
//
//===----------------------------------------------------------------------===//

#include "Spyre/InitSpyre.h"
#include "Spyre/Target/Emitters.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace mlir;

namespace {

/// Inputs above this are not interesting and only slow the search down.
constexpr size_t kMaxInputBytes = 16 * 1024;

DialectRegistry &registry() {
  static DialectRegistry *r = [] {
    auto *registry = new DialectRegistry;
    mlir::spyre::registerSpyreDialects(*registry);
    return registry;
  }();
  return *r;
}

/// Inputs that crash upstream MLIR 22's parser before any spyre code runs
/// (docs/robustness.md lists them with reproducers). Skipped so the search
/// keeps exploring our passes instead of rediscovering them.
bool knownUpstreamCrash(llvm::StringRef text) {
  // linalg.transpose / broadcast / reduce custom syntax: when the integer
  // list after `permutation =` or `dimensions =` fails to parse (`= e`,
  // `= [1<control char>]`, ...), the parser stores a null attribute and
  // dereferences it (mlir-opt crashes the same way). Anything but a
  // well-formed `[int, ...]` there is skipped.
  for (llvm::StringRef keyword : {"permutation", "dimensions"}) {
    for (size_t at = text.find(keyword); at != llvm::StringRef::npos;
         at = text.find(keyword, at + 1)) {
      llvm::StringRef rest = text.drop_front(at + keyword.size()).ltrim();
      if (!rest.consume_front("="))
        continue;
      rest = rest.ltrim();
      if (!rest.consume_front("["))
        return true;
      size_t close = rest.find(']');
      if (close == llvm::StringRef::npos ||
          rest.take_front(close).find_first_not_of("0123456789-, ") !=
              llvm::StringRef::npos)
        return true;
    }
  }
  return false;
}

/// Aborts when a pass reports success but leaves invalid IR.
struct VerifyAfterEachPass : public PassInstrumentation {
  void runAfterPass(Pass *pass, Operation *op) override {
    if (succeeded(verify(op)))
      return;
    llvm::errs() << "pass " << pass->getArgument()
                 << " succeeded but left IR that does not verify\n";
    llvm::errs().flush();
    std::abort();
  }
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > kMaxInputBytes)
    return 0;
  llvm::StringRef input(reinterpret_cast<const char *>(data), size);
  if (knownUpstreamCrash(input))
    return 0;
  MLIRContext context(registry(), MLIRContext::Threading::DISABLED);
  ScopedDiagnosticHandler quiet(&context,
                                [](Diagnostic &) { return success(); });

  std::string text = input.str();
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(text, &context, "fuzz-input");
  if (!module)
    return 0;

  PassManager pm(&context);
  pm.enableVerifier(false);
  pm.addInstrumentation(std::make_unique<VerifyAfterEachPass>());
  mlir::spyre::buildSpyrePipeline(pm);
  if (failed(pm.run(*module)))
    return 0;
  (void)mlir::spyre::emitSuperDsc(*module);
  (void)mlir::spyre::emitDci(*module);
  (void)mlir::spyre::emitBundles(*module);
  return 0;
}
