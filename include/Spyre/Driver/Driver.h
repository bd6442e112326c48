//===- Driver.h - Parse, compile, emit, simulate, check ---------*- C++ -*-===//
//
// The one implementation of what the tools and the Python module do with a
// program, so they agree on every rule:
//
//   Session      an MLIR context with every dialect the tools accept, and
//                the diagnostics of everything done in it (printed with
//                their source lines, or collected as messages);
//   compile      a module to kernel form with --spyre-pipeline;
//   emit         the SuperDSC files and the bundle, the DCI descriptors and
//                a manifest of the inputs and outputs;
//   inputs       the arguments a function takes, read or generated;
//   compare      simulated results against the reference, with tolerances
//                that depend on the element type and the outputs' scale;
//   OutputFiles  files written only when everything succeeded, each through
//                a temporary file renamed into place.
//
// Simulation and the reference are `sim::simulate` and `sim::runReference`
// (Spyre/Sim).
//
//===----------------------------------------------------------------------===//

#ifndef SPYRE_DRIVER_DRIVER_H
#define SPYRE_DRIVER_DRIVER_H

#include "Spyre/Analysis/KernelModel.h"
#include "Spyre/InitSpyre.h"
#include "Spyre/Layout/Numerics.h"
#include "Spyre/Sim/HostTensor.h"
#include "Spyre/Support/OutputFiles.h"
#include "Spyre/Target/Emitters.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Support/Timing.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/SourceMgr.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir::spyre::driver {

/// The project's version ("0.2.0"), as `--version` prints it.
llvm::StringRef getVersion();
/// Makes every tool print "spyre-mlir version X (LLVM Y)" for --version.
void registerVersionPrinter();

/// Every dialect, extension and interface model the tools accept: all of
/// upstream MLIR's (so whatever torch-mlir, StableHLO or IREE pipelines
/// emit parses, `ml_program` included), spyre's, and what the reference
/// needs to lower and JIT-compile linalg. spyre-opt, spyre-translate,
/// spyre-run, spyre-compile, the language server, the C API and Python all
/// register exactly this.
void registerToolDialects(DialectRegistry &registry);

/// What --spyre-pipeline is asked to do.
struct CompileOptions {
  int64_t cores = 0; ///< 0: the target's
  kernel::Policy policy = kernel::Policy::Model;
  bool lxResidency = true;
  bool fuseRowBlocks = true;
  bool splitProjections = true;
  bool hostFallback = true;
  F32Matmul f32Matmul = F32Matmul::Host;
  /// When set, only this function (and what it calls) is compiled: the
  /// other public functions are dropped, with their remarks.
  std::string function;
  int64_t beamWidth = 64;
  int64_t exactLimit = 32;
  /// Sets `options` (the --spyre-pipeline options) to these.
  void applyTo(SpyrePipelineOptions &options) const;
};

/// The compile flags spyre-run and spyre-compile share (--cores, --policy,
/// --host-fallback, --f32-matmul), registered in `category` by the
/// constructor: construct one before parsing the command line.
class CompileFlags {
public:
  explicit CompileFlags(llvm::cl::OptionCategory &category);
  ~CompileFlags();
  /// The options the flags ask for.
  CompileOptions options() const;
  /// --cores as given (0: the target's).
  int64_t cores() const;
  /// What is wrong with the flags for `module` (--cores beyond its target's
  /// cores), if anything.
  std::optional<std::string> problem(ModuleOp module) const;

private:
  struct Impl;
  std::unique_ptr<Impl> impl;
};

/// The deepest nesting of brackets ((), [], {}, <>) the tools read. MLIR's
/// parser, verifier and printer recurse per level; real programs nest a few
/// dozen deep, and a few thousand levels exhaust a thread's stack.
constexpr int kMaxNestingDepth = 1000;

/// Where `buffer` first nests deeper than kMaxNestingDepth (strings and
/// comments are skipped; `->`, `<=` and `>=` are not brackets).
struct NestingError {
  unsigned line = 0, column = 0;
  std::string message;
  /// "name:line:col: error: message", as a diagnostic prints.
  std::string str(llvm::StringRef name) const;
};
std::optional<NestingError> checkNestingDepth(llvm::StringRef buffer);

/// Rewrites op spellings older MLIR releases wrote and LLVM 22 no longer
/// parses into their current form, so front ends' exports keep working:
///   linalg.matmul_transpose_a/b, linalg.batch_matmul_transpose_a/b
///     -> linalg.matmul / batch_matmul with the equivalent indexing_maps
///   tensor.pack / tensor.unpack -> linalg.pack / linalg.unpack
///   linalg.init_tensor [static sizes] -> tensor.empty()
/// Comments and strings are left alone; lines are never added or removed
/// (diagnostics keep their line numbers; columns after a rewritten op name
/// on its line shift). Returns nullptr when nothing needed rewriting.
std::unique_ptr<llvm::MemoryBuffer>
upgradeLegacySpellings(const llvm::MemoryBuffer &buffer);

/// One diagnostic, as printed: "file:line:col: error: message" plus the
/// source line and notes.
struct Message {
  DiagnosticSeverity severity;
  std::string text;
};

/// An MLIR context with every dialect the tools accept, the source buffers
/// parsed in it, and its diagnostics.
class Session {
public:
  /// Print: diagnostics go to `os` with their source lines as they happen
  /// (the command-line tools). Collect: they are kept as messages (Python).
  enum class DiagnosticMode { Print, Collect };
  explicit Session(DiagnosticMode mode = DiagnosticMode::Print,
                   llvm::raw_ostream &os = llvm::errs());
  ~Session();

  MLIRContext &getContext() { return *context; }

  /// Parses a file ("-": stdin) or a string; null (with a diagnostic) on
  /// failure. A file that cannot be opened is reported in `openError` when
  /// given, else as a diagnostic.
  OwningOpRef<ModuleOp> parseFile(llvm::StringRef path,
                                  std::string *openError = nullptr);
  OwningOpRef<ModuleOp> parseString(llvm::StringRef text,
                                    llvm::StringRef bufferName = "<input>");

  /// A copy of `module` in kernel form: compiled with --spyre-pipeline, or
  /// cloned as it is when it is in kernel form already (`wasCompiled`
  /// tells). Fails with the pipeline's diagnostics.
  FailureOr<OwningOpRef<ModuleOp>> compile(ModuleOp module,
                                           const CompileOptions &options,
                                           bool &wasCompiled,
                                           TimingScope *timing = nullptr);

  /// Collected messages (Collect mode), in order.
  llvm::ArrayRef<Message> getMessages() const { return messages; }
  /// The collected errors (and their notes) as one text; "" when none.
  std::string getErrorText() const;
  /// Forgets the collected messages.
  void clearMessages() { messages.clear(); }

private:
  OwningOpRef<ModuleOp> parse(std::unique_ptr<llvm::MemoryBuffer> buffer);
  /// Lowers the module's TOSA ops (if any) to linalg with upstream's passes.
  LogicalResult lowerTosa(ModuleOp module);

  std::unique_ptr<MLIRContext> context;
  llvm::SourceMgr sourceMgr;
  DiagnosticMode mode;
  std::string printed;
  std::unique_ptr<llvm::raw_string_ostream> capture;
  std::unique_ptr<SourceMgrDiagnosticHandler> handler;
  std::vector<Message> messages;
};

//===----------------------------------------------------------------------===//
// Artifacts
//===----------------------------------------------------------------------===//

/// What spyre-compile writes and spyre-run and Python read back.
struct Artifacts {
  std::vector<EmittedFile> superdsc;
  std::vector<EmittedBundle> bundles;
  std::vector<EmittedFile> dci;
};

/// Emits every artifact of a module in kernel form; fails with diagnostics.
FailureOr<Artifacts> emitArtifacts(ModuleOp kernels);

/// The manifest of a compiled function (schema "spyre-manifest", version 2;
/// version 1 had one "bundle" file): its inputs and outputs (name, shape,
/// element type, layout, DCI file) and the files of the artifact, relative to
/// the manifest.
llvm::json::Value buildManifest(func::FuncOp function, const Artifacts &,
                                llvm::StringRef kernelsFile,
                                llvm::StringRef sourceFile);

/// What a manifest names, with paths resolved against its directory.
struct ManifestFiles {
  std::string kernels; ///< the kernel form
  std::string source;  ///< the linalg it was compiled from ("" if none)
  std::string function;
};
/// Reads `path` if it is a manifest; std::nullopt (and no error) when it is
/// not JSON with the manifest's schema.
llvm::Expected<std::optional<ManifestFiles>> readManifest(llvm::StringRef path);

//===----------------------------------------------------------------------===//
// Inputs and checking
//===----------------------------------------------------------------------===//

/// Why an argument of `type` cannot be passed (completing "argument N of @f
/// ..."), or nothing. `generated`: it is to be drawn by --random-inputs.
std::optional<std::string> argumentProblem(Type type, bool generated);

/// Makes `function` take tensors only, meaning the same, so that every
/// argument is passed - as an .npy array or NumPy value - like a tensor:
///  - a scalar argument (integer, index or float) becomes a 0-d tensor the
///    body reads with tensor.extract (front ends export a learning rate or a
///    scale this way), a scalar result a 0-d tensor;
///  - a memref argument (contiguous, default memory space: what tests
///    written for mlir-runner pass) becomes a tensor; the body works on a
///    fresh buffer that starts as a copy of it, and that buffer's contents
///    after the call are returned, after the function's own results, one per
///    memref argument in order (the buffers a memref function writes are its
///    outputs).
/// Callers of `function` call a private copy of it as it was written. Fails,
/// saying why, when a memref has a layout or a memory space or a result is
/// an unranked memref.
LogicalResult argumentsAsTensors(func::FuncOp function, std::string &why);

/// Gives `function`'s dynamic tensor arguments the static `shapes` (one per
/// argument, in order; ignored for static ones) and propagates them
/// (canonicalization folds `tensor.dim`, sizes `tensor.empty` and the ops on
/// them; gathers take the type their operands imply), so that a program
/// written for any size runs on these inputs; its results become static
/// too. Fails, with the reason in `why`, when a shape
/// disagrees with the argument's type, a `tensor.cast` in the function's
/// body (not in a nested region, which may guard it) casts to a static
/// shape the sizes contradict, the function is called by others, or a
/// result stays dynamic; `sizesWrong` (when given) says whether the sizes
/// were the cause (other sizes may then work).
LogicalResult specializeShapes(func::FuncOp function,
                               ArrayRef<SmallVector<int64_t>> shapes,
                               std::string &why, bool *sizesWrong = nullptr);

/// Whether an argument of `function` is a tensor with a dynamic dim.
bool hasDynamicArguments(func::FuncOp function);

/// Per argument of `function`: its shape with every dynamic dim `size` (the
/// shapes to specialize to when no input gives them; empty for scalars).
SmallVector<SmallVector<int64_t>> argumentShapes(func::FuncOp function,
                                                 int64_t size);

/// Element types that have no numpy dtype travel as the nearest one that
/// holds every value: bf16 as float32 (numpy has no bfloat16). The host
/// side of a transfer converts, as the reference stack's DMA does.
sim::HostTensor toExchangeType(const sim::HostTensor &tensor);
/// The inverse for an argument of element type `argType`: a float32 array
/// given for a bf16 argument is rounded to bf16 (to nearest even); anything
/// else is passed through for the simulator to check.
sim::HostTensor fromExchangeType(sim::HostTensor tensor, Type argType);

/// `inputs` of the kernel-form `function` as the device stores them: f16 and
/// bf16 arguments that go to the device, rounded to DLFloat16 and back
/// under `numerics` (unchanged under IEEE binary16). --check gives these to
/// the reference, so that it computes on the values the kernels see.
std::vector<sim::HostTensor>
inputsAsStored(func::FuncOp function, llvm::ArrayRef<sim::HostTensor> inputs,
               Sen169Numerics numerics);

/// Random inputs for `function`'s arguments from `seed`, at scales that
/// keep MLP, attention and norm blocks finite in f16: an operand a
/// contraction reduces over K elements is drawn from [-1, 1) / sqrt(K),
/// everything else from [-1, 1); integers from small ranges, and integers
/// used as indices (tensor.extract, as embeddings are written) from [0, the
/// extent they index).
std::vector<sim::HostTensor> randomInputs(func::FuncOp function, unsigned seed);

/// Gives every constant of `function` (and of the functions it calls) whose
/// dense_resource blob is missing - elided when the program was printed, as
/// public test files are - values drawn from `seed`: floats like an input
/// ([-1, 1) / sqrt(K) when a contraction reduces over it), i1 masks at
/// random, other integers zeros (they are mostly indices, which must stay
/// in bounds), with a remark at the constant. The device and the reference then
/// run the same weights. Constants of more than `maxElements` elements are left
/// as they are.
void drawElidedConstants(func::FuncOp function, unsigned seed,
                         int64_t maxElements = int64_t(1) << 24);

/// Tolerances of a comparison: |got - want| <= atol + rtol * |want| per
/// element (see `defaultTolerance`).
struct Tolerance {
  double atol = 0;
  double rtol = 0;
};

/// The default tolerance of an output of `type`: exact for data movement,
/// integers and booleans; otherwise rtol r and atol r times the output's
/// scale (the root mean square of the reference, at least 1e-3), with r =
/// 1e-2 for f16, 4e-2 for bf16 and 1e-4 for f32. Scaling with the output
/// keeps the check able to fail: an all-zero softmax does not pass.
Tolerance defaultTolerance(HostType type, bool movement,
                           double referenceMagnitude);

/// The comparison of one result.
struct ResultCheck {
  bool shapeMismatch = false;
  int64_t elements = 0;
  int64_t mismatches = 0;
  int64_t firstMismatch = -1;
  double got = 0, want = 0; ///< at the first mismatch
  double maxError = 0;      ///< over finite pairs
  int64_t nonfinite = 0;    ///< NaN or inf in either, counted as mismatches
  Tolerance tolerance;
  bool ok() const { return !shapeMismatch && mismatches == 0; }
};

/// Compares `got` with `want`. Non-finite values are mismatches unless both
/// are the same non-finite value and `allowNonfinite`; `tolerance` replaces
/// the default when given. The default is the output type's, or that of
/// `computedIn` when the kernels compute in a less precise float type (an
/// f32 matmul run in f16). Data movement is exact, except that f16 stored as
/// DLFloat16 (`numerics`) keeps one fraction bit less: within 2^-10 of each
/// value. An f32 result of a program whose longest reduction sums
/// `reductionLength` terms is compared within that many f32 roundings
/// (n * 2^-24, relative and times the output's RMS) when that is looser: the
/// reference's own sequential sum may be that far off (IREE's sum of 40960 x
/// 0.001 gives 40.95; the device's tree of partial sums 40.96).
ResultCheck compareResult(const sim::HostTensor &got,
                          const sim::HostTensor &want, bool movement,
                          std::optional<Tolerance> tolerance,
                          bool allowNonfinite,
                          std::optional<HostType> computedIn = std::nullopt,
                          Sen169Numerics numerics = Sen169Numerics::IEEEHalf,
                          int64_t reductionLength = 1);

/// The most terms any structured op of `function` (a linalg program)
/// reduces into one value: the product of its static reduction loop ranges.
int64_t longestReduction(func::FuncOp function);

/// "check result N: ok, ..." / "check result N: MISMATCH: ...".
std::string formatResultCheck(unsigned index, const ResultCheck &check);

/// Whether every kernel of `function` only moves data (its results must
/// then match exactly).
bool onlyMovesData(func::FuncOp function);

/// The least precise float type (e5m2 < e4m3fn < bf16 < f16 < f32) the
/// kernels of `function` compute on or round to (fp8: a conversion, qfp8ch),
/// if any.
std::optional<HostType> leastPrecision(func::FuncOp function);

} // namespace mlir::spyre::driver

#endif // SPYRE_DRIVER_DRIVER_H
