//===- Emitters.h - SuperDSC and DCI emission -------------------*- C++ -*-===//
//
// What the backend and the runtime consume, written from the spyre.kernel
// form (`--spyre-lower-to-kernels`) with llvm::json:
//
//  - SuperDSC: one JSON object per kernel launch (a kernel cut into chunks
//    launches once per chunk) in the reference stack's schema, plus a
//    bundle listing them in execution order;
//  - DCI: one DataConversionInfo per host-visible tensor (function
//    arguments, constants, results, transfers to and from host code): the
//    DMA loop nests between the host tensor and its device layout, main
//    nest and remainder nests for partial sticks, innermost first.
//
//===----------------------------------------------------------------------===//

#ifndef SPYRE_TARGET_EMITTERS_H
#define SPYRE_TARGET_EMITTERS_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/JSON.h"

#include <string>
#include <vector>

namespace mlir::spyre {

/// One file of an emitted artifact.
struct EmittedFile {
  std::string name; ///< e.g. "sdsc_0.json"
  llvm::json::Value json = nullptr;
};

/// The SuperDSC files of every function of `module`, numbered in execution
/// order across the module. Fails (with diagnostics) on ops that are not in
/// kernel form.
FailureOr<std::vector<EmittedFile>> emitSuperDsc(ModuleOp module);

/// The bundle: a module with one function per source function that runs its
/// SuperDSC files in order (`sdscbundle.sdsc_execute`), as the reference
/// stack writes `bundle.mlir`.
FailureOr<std::string> emitBundle(ModuleOp module);

/// The DCI descriptors of every host-visible tensor of `module`.
FailureOr<std::vector<EmittedFile>> emitDci(ModuleOp module);

/// Registers `--spyre-to-superdsc` and `--spyre-to-dci` with the MLIR
/// translation registry (for spyre-translate and tools embedding us). With
/// `--spyre-output-dir=DIR` they write one file per object into DIR and list
/// the files on the output stream; otherwise they print one JSON document.
void registerSpyreTranslations();

} // namespace mlir::spyre

#endif // SPYRE_TARGET_EMITTERS_H
