//===- Emitters.h - SuperDSC and DCI emission -------------------*- C++ -*-===//
//
// What the backend and the runtime consume, written from the spyre.kernel
// form (`--spyre-lower-to-kernels`) with llvm::json:
//
//  - SuperDSC: one JSON object per kernel launch (a kernel cut into chunks
//    launches once per chunk) in the reference stack's schema, plus one
//    bundle per group of kernels that share a segment binding, listing
//    their SuperDSCs in execution order;
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

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace mlir::spyre {

/// One file of an emitted artifact.
struct EmittedFile {
  std::string name; ///< e.g. "sdsc_0.json"
  llvm::json::Value json = nullptr;
  /// What the file describes, for tools (function, tensor, buffer); kept
  /// beside the document, never inside it.
  llvm::json::Object metadata;
  /// The rendered file when the emitter renders as it goes (the SuperDSC
  /// emitter drops each JSON tree once written out: a tree takes tens of
  /// times the memory of its text); `json` is then null.
  std::string text;
};

/// The contents of `file`: its text, or its JSON rendered with 2-space
/// indentation, ending in a newline.
std::string renderFile(const EmittedFile &file);

/// One bundle: what the runtime launches with one DDR segment binding.
struct EmittedBundle {
  std::string name; ///< e.g. "bundle_0.mlir"
  std::string text; ///< the bundle.mlir the reference stack writes
  /// {"function", "segments": [the binding, segment 0 first], "sdscs":
  /// [its SuperDSC files in order]}.
  llvm::json::Object metadata;
};

/// `name` made safe as a file name inside an output directory: anything but
/// letters, digits, '-', '_' and '.' becomes '_', and a leading '.' too, so
/// a name taken from IR (a symbol) cannot reach outside the directory.
std::string sanitizeFileName(llvm::StringRef name);

/// The single-document form of SuperDSC files, rendered: {"bundles":
/// [{"file", "function", "segments", "sdscs"} in execution order],
/// "host_segments": `hostSegments` (when given and not empty), "sdscs":
/// {name: SuperDSC}}. Each SuperDSC goes in as its text, streamed, so the
/// document never holds a second copy of the trees.
std::string superDscDocument(llvm::ArrayRef<EmittedFile> files,
                             llvm::ArrayRef<EmittedBundle> bundles,
                             const llvm::json::Value *hostSegments = nullptr);

/// The SuperDSC files of every function of `module`, numbered in execution
/// order across the module. Fails (with diagnostics) on ops that are not in
/// kernel form.
FailureOr<std::vector<EmittedFile>> emitSuperDsc(ModuleOp module);

/// The bundles, in execution order: one per run of kernels with the same
/// `spyre.bundle` (--spyre-form-bundles; a kernel without one is a bundle of
/// its own), each a module whose `func.func @sdsc_bundle()` runs its
/// SuperDSC files in order (`sdscbundle.sdsc_execute`), as the reference
/// stack writes one `bundle.mlir` per fused kernel. Fails at a kernel whose
/// segments differ from its bundle's or whose bundle is not contiguous.
FailureOr<std::vector<EmittedBundle>> emitBundles(ModuleOp module);

/// The host segments of `module` (--spyre-outline-host-segments) in program
/// order: [{"name", "function", "before_sdsc": the index of the first
/// SuperDSC that runs after it}]. They are not SuperDSCs: the runtime runs
/// them on the CPU between the kernels.
llvm::json::Value listHostSegments(ModuleOp module);

/// The DCI descriptors of every host-visible tensor of `module`.
FailureOr<std::vector<EmittedFile>> emitDci(ModuleOp module);

/// Registers `--spyre-to-superdsc` and `--spyre-to-dci` with the MLIR
/// translation registry (for spyre-translate and tools embedding us), whose
/// input accepts the dialects `registerDialects` registers (default: the
/// spyre dialect and those its passes produce). With
/// `--spyre-output-dir=DIR` they write one file per object into DIR (all or
/// nothing) and list the files on the output stream; otherwise they print
/// one JSON document. Registering twice is harmless.
void registerSpyreTranslations(
    void (*registerDialects)(DialectRegistry &) = nullptr);

} // namespace mlir::spyre

#endif // SPYRE_TARGET_EMITTERS_H
