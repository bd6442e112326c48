//===- spyre-run.cpp - Compile and simulate a function --------------------===//
//
//   spyre-run model.mlir --input=@x.npy --input=@w.npy --output=@y.npy \
//             [--function=NAME] [--cores=N] [--check] [--stats]
//             [--stats-json=FILE] [--trace=FILE]
//
// Follows iree-run-module's conventions. A linalg program is compiled with
// the spyre pipeline first; a file already in kernel form (spyre.kernel ops)
// runs as it is. `--check` also runs the original linalg program through
// upstream MLIR's own lowering (JIT-compiled in process) and compares every
// result within per-dtype tolerances.
//
//===----------------------------------------------------------------------===//

#include "Spyre/InitSpyre.h"
#include "Spyre/Layout/Numerics.h"
#include "Spyre/Sim/Npy.h"
#include "Spyre/Sim/Reference.h"
#include "Spyre/Sim/Simulator.h"
#include "Spyre/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <random>

using namespace mlir;
using namespace mlir::spyre;
using namespace mlir::spyre::sim;
namespace cl = llvm::cl;

static cl::OptionCategory category("spyre-run options");
static cl::opt<std::string> inputFile(cl::Positional,
                                      cl::desc("<input .mlir file>"),
                                      cl::init("-"), cl::cat(category));
static cl::opt<std::string>
    functionName("function",
                 cl::desc("Function to run (default: the only public "
                          "function, or `main`)"),
                 cl::init(""), cl::cat(category));
static cl::list<std::string>
    inputs("input",
           cl::desc("An input, in argument order: @file.npy (repeatable)"),
           cl::cat(category));
static cl::list<std::string>
    outputs("output",
            cl::desc("Where a result goes, in result order: @file.npy "
                     "(repeatable)"),
            cl::cat(category));
static cl::opt<int> cores("cores",
                          cl::desc("Cores to compile for (default: the "
                                   "target's)"),
                          cl::init(0), cl::cat(category));
static cl::opt<std::string>
    policy("policy", cl::desc("Work division policy: model or greedy"),
           cl::init("model"), cl::cat(category));
static cl::opt<bool> check("check",
                           cl::desc("Compare with upstream MLIR's lowering of "
                                    "the same program, run in process"),
                           cl::init(false), cl::cat(category));
static cl::opt<double> atolOption(
    "atol", cl::desc("Absolute tolerance of --check (default: per dtype)"),
    cl::init(0), cl::cat(category));
static cl::opt<double> rtolOption(
    "rtol", cl::desc("Relative tolerance of --check (default: per dtype)"),
    cl::init(0), cl::cat(category));
// `--stats` (the per-kernel table) and `--stats-json=FILE` are read by hand:
// LLVM registers `-stats` and `-stats-json` options of its own (pass
// statistics) in every tool.
static bool statsOption = false;
static std::string statsJson;
static cl::opt<std::string>
    traceFile("trace",
              cl::desc("Write a Chrome trace (Perfetto, chrome://tracing) "
                       "here"),
              cl::init(""), cl::cat(category));
static cl::opt<int> randomInputs(
    "random-inputs",
    cl::desc("Generate the inputs (uniform in [-1, 1)) from this "
             "non-negative seed instead of reading them"),
    cl::init(0), cl::cat(category));
static cl::opt<bool> timing(
    "timing",
    cl::desc("Print the wall time of compilation, simulation and the "
             "reference"),
    cl::init(false), cl::cat(category));
static cl::opt<std::string>
    saveKernels("save-kernels",
                cl::desc("Write the compiled kernel form here"),
                cl::init(""), cl::cat(category));

static int fail(const llvm::Twine &message) {
  llvm::errs() << "spyre-run: error: " << message << "\n";
  return 1;
}

/// The function to run: --function, else the only public function with a
/// body, else `main`.
static FailureOr<func::FuncOp> pickFunction(ModuleOp module) {
  sim::FunctionChoice choice = sim::chooseFunction(module, functionName);
  if (choice.function)
    return choice.function;
  if (!functionName.empty())
    llvm::errs() << "spyre-run: error: no function @" << functionName
                 << " with a body in " << inputFile << "\n";
  else
    llvm::errs() << "spyre-run: error: " << inputFile << " has "
                 << choice.publicFunctions
                 << " public functions; choose one with --function=NAME\n";
  return failure();
}

static std::string typeText(Type type) {
  return mlir::spyre::sim::describeType(type);
}

/// Why spyre-run cannot pass an argument of `type` (completing "argument N
/// of @f ..."), or nothing: it must be a tensor and, to be generated by
/// --random-inputs, have a static shape and an element type with a .npy
/// dtype. (With --input files the compiler reports other problems, located.)
static std::optional<std::string> argumentProblem(Type type, bool generated) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return llvm::formatv(
               "is not a tensor ({0}); spyre-run passes tensor arguments only",
               typeText(type))
        .str();
  if (!generated)
    return std::nullopt;
  if (!tensor.hasStaticShape())
    return llvm::formatv(
               "has a dynamic shape ({0}); --random-inputs needs static shapes",
               typeText(type))
        .str();
  FailureOr<HostType> host = getHostType(tensor.getElementType());
  if (failed(host) || !npyDescr(*host))
    return llvm::formatv("has element type {0} ({1}), which --random-inputs "
                         "cannot generate (supported: f16, f32, i1, i8, i32, "
                         "i64)",
                         tensor.getElementType(), typeText(type))
        .str();
  return std::nullopt;
}

static HostTensor randomTensor(HostType type, ArrayRef<int64_t> shape,
                               std::mt19937 &rng) {
  HostTensor tensor(type, shape);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  // Integers are drawn from a wider range than [-1, 1).
  double scale = type == HostType::Int8                                ? 100
                 : type == HostType::Int32 || type == HostType::Int64 ? 1000
                                                                      : 1;
  bool boolean = type == HostType::Bool;
  for (int64_t i = 0, n = tensor.numElements(); i < n; ++i) {
    float v = uniform(rng);
    storeHostElement(type, tensor.data.data() + i * tensor.elementBytes(),
                     boolean ? v > 0 : v * scale);
  }
  return tensor;
}

/// An element as a double, for comparisons.
static double elementValue(const HostTensor &t, int64_t i) {
  return loadHostElement(t.type, t.data.data() + i * t.elementBytes());
}

/// The reference stack's tolerances: f16 and bf16 0.1 / 0.1, f32 1e-4
/// relative, integers and booleans exact; pure data movement exact.
static std::pair<double, double> tolerances(HostType type, bool movement) {
  if (movement)
    return {0, 0};
  switch (type) {
  case HostType::Float16:
  case HostType::BFloat16:
    return {0.1, 0.1};
  case HostType::Float32:
    return {1e-4, 1e-4};
  default:
    return {0, 0};
  }
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  registerSpyrePassesAndPipelines();
  std::vector<char *> args;
  for (int i = 0; i < argc; ++i) {
    StringRef arg(argv[i]);
    if (i > 0 && (arg == "--stats" || arg == "-stats")) {
      statsOption = true;
      continue;
    }
    if (i > 0 && (arg.consume_front("--stats-json") ||
                  arg.consume_front("-stats-json"))) {
      if (arg.consume_front("="))
        statsJson = arg.str();
      else if (arg.empty() && i + 1 < argc)
        statsJson = argv[++i];
      if (statsJson.empty())
        return fail("--stats-json needs a file name (--stats-json=FILE)");
      continue;
    }
    args.push_back(argv[i]);
  }
  cl::HideUnrelatedOptions(category);
  cl::extrahelp statsHelp(
      "\n  --stats            - Print the modelled time, traffic and "
      "utilisation of every kernel\n"
      "  --stats-json=FILE  - Write the statistics as JSON to FILE\n");
  cl::ParseCommandLineOptions(
      static_cast<int>(args.size()), args.data(),
      "spyre-run: compile a function for the modelled Spyre machine and run "
      "it on the simulator\n");

  DialectRegistry registry;
  registerSpyreDialects(registry);
  sim::registerReferenceDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();

  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> file =
      openInputFile(inputFile, &error);
  if (!file)
    return fail(error);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return 1;
  FailureOr<func::FuncOp> picked = pickFunction(*module);
  if (failed(picked))
    return 1;
  std::string name = picked->getSymName().str();

  // Options checked before any work, naming the flag as the user gave it.
  bool generated = randomInputs.getNumOccurrences() > 0;
  if (generated && randomInputs.getValue() < 0)
    return fail(llvm::formatv(
        "--random-inputs={0}: the seed must not be negative",
        randomInputs.getValue()));
  if (generated && !inputs.empty())
    return fail("give either --input or --random-inputs, not both");
  for (cl::opt<double> *tolerance : {&atolOption, &rtolOption}) {
    double value = tolerance->getValue();
    if (tolerance->getNumOccurrences() && !(value >= 0)) {
      char text[32];
      std::snprintf(text, sizeof(text), "%g", value);
      return fail(llvm::formatv("--{0}={1}: a tolerance must be a "
                                "non-negative number",
                                tolerance->ArgStr, text));
    }
  }
  int64_t targetCores = getTarget(*module).getCores();
  if (cores.getValue() < 0 || cores.getValue() > targetCores)
    return fail(llvm::formatv("--cores={0} is out of range 1..{1} (the "
                              "target's cores)",
                              cores.getValue(), targetCores));
  if (policy.getValue() != "model" && policy.getValue() != "greedy")
    return fail(llvm::formatv(
        "--policy={0}: unknown policy; use 'model' or 'greedy'",
        policy.getValue()));

  // Inputs.
  SmallVector<HostTensor> values;
  ArrayRef<Type> argTypes = picked->getArgumentTypes();
  for (auto [i, type] : llvm::enumerate(argTypes))
    if (std::optional<std::string> problem = argumentProblem(type, generated))
      return fail(llvm::formatv("argument {0} of @{1} {2}", i, name, *problem));
  if (generated) {
    std::mt19937 rng(static_cast<unsigned>(randomInputs));
    for (Type type : argTypes) {
      auto tensor = cast<RankedTensorType>(type);
      values.push_back(randomTensor(*getHostType(tensor.getElementType()),
                                    tensor.getShape(), rng));
    }
  } else {
    if (inputs.size() != argTypes.size())
      return fail(llvm::formatv(
          "@{0} takes {1} inputs, {2} given (--input=@file.npy, in argument "
          "order)",
          name, argTypes.size(), inputs.size()));
    for (auto [i, spec] : llvm::enumerate(inputs)) {
      if (spec.empty() || spec[0] != '@')
        return fail(llvm::formatv("--input={0}: expected @file.npy", spec));
      llvm::Expected<HostTensor> tensor =
          sim::readNpy(StringRef(spec).drop_front());
      if (!tensor)
        return fail(llvm::formatv("input {0}: {1}", i,
                                  llvm::toString(tensor.takeError())));
      values.push_back(std::move(*tensor));
    }
  }
  if (!outputs.empty() && outputs.size() != picked->getNumResults())
    return fail(llvm::formatv(
        "@{0} has {1} results, {2} --output given", name,
        picked->getNumResults(), outputs.size()));
  for (const std::string &spec : outputs)
    if (spec.empty() || spec[0] != '@')
      return fail(llvm::formatv("--output={0}: expected @file.npy", spec));

  using Clock = std::chrono::steady_clock;
  auto millis = [](Clock::time_point from) {
    return std::chrono::duration<double, std::milli>(Clock::now() - from)
        .count();
  };
  double compileMs = 0, simulateMs = 0, referenceMs = 0;

  // Compile unless the file is in kernel form already.
  Clock::time_point start = Clock::now();
  OwningOpRef<ModuleOp> lowered = module->clone();
  bool compiled = false;
  auto loweredFunction =
      lowered->lookupSymbol<func::FuncOp>(picked->getSymName());
  if (!containsKernels(loweredFunction)) {
    PassManager pm(&context);
    SpyrePipelineOptions options;
    options.cores = cores;
    options.policy = policy;
    buildSpyrePipeline(pm, options);
    if (failed(pm.run(*lowered)))
      return fail("compilation failed");
    compiled = true;
    loweredFunction = lowered->lookupSymbol<func::FuncOp>(picked->getSymName());
  } else if (cores) {
    return fail("--cores applies to compilation; " + inputFile +
                " is in kernel form already");
  }
  compileMs = millis(start);
  if (!saveKernels.empty()) {
    auto out = openOutputFile(saveKernels, &error);
    if (!out)
      return fail(error);
    lowered->print(out->os());
    out->keep();
  }

  // Simulate.
  sim::SimOptions options;
  options.trace = !traceFile.empty();
  start = Clock::now();
  llvm::Expected<sim::SimResult> result =
      sim::simulate(loweredFunction, values, options);
  simulateMs = millis(start);
  if (!result)
    return fail(llvm::toString(result.takeError()));

  int64_t kernels = 0;
  bool movement = true;
  loweredFunction.walk([&](KernelOp kernel) {
    ++kernels;
    movement &=
        cast<KernelPayloadOpInterface>(kernel.getPayload()).isDataMovement();
  });
  llvm::outs() << llvm::formatv("@{0}: {1} kernels on {2} modelled cores{3}\n",
                                name, kernels, result->stats.cores,
                                compiled ? " (compiled with --spyre-pipeline)"
                                         : "");
  for (auto [i, tensor] : llvm::enumerate(result->outputs))
    llvm::outs() << llvm::formatv("result {0}: {1} {2}\n", i,
                                  formatList(tensor.shape),
                                  stringifyHostType(tensor.type));

  for (auto [spec, tensor] : llvm::zip(outputs, result->outputs))
    if (llvm::Error error =
            sim::writeNpy(StringRef(spec).drop_front(), tensor))
      return fail(llvm::toString(std::move(error)));

  int status = 0;
  if (check) {
    if (!compiled)
      return fail("--check needs the original linalg program; " + inputFile +
                  " is in kernel form already");
    start = Clock::now();
    llvm::Expected<std::vector<HostTensor>> expected =
        sim::runReference(*module, name, values);
    referenceMs = millis(start);
    if (!expected)
      return fail("the reference failed: " +
                  llvm::toString(expected.takeError()));
    if (expected->size() != result->outputs.size())
      return fail("the reference returned a different number of results");
    for (auto [i, got, want] :
         llvm::enumerate(result->outputs, *expected)) {
      auto [atol, rtol] = tolerances(got.type, movement);
      if (atolOption.getNumOccurrences())
        atol = atolOption;
      if (rtolOption.getNumOccurrences())
        rtol = rtolOption;
      if (got.shape != want.shape || got.type != want.type) {
        llvm::outs() << llvm::formatv("check result {0}: shape or type "
                                      "differs from the reference\n",
                                      i);
        status = 1;
        continue;
      }
      double maxError = 0;
      int64_t bad = 0, firstBad = -1;
      for (int64_t e = 0, n = got.numElements(); e < n; ++e) {
        double a = elementValue(got, e), b = elementValue(want, e);
        double diff = std::fabs(a - b);
        if (std::isnan(a) != std::isnan(b))
          diff = INFINITY;
        else if (std::isnan(a))
          diff = 0;
        maxError = std::max(maxError, diff);
        if (diff > atol + rtol * std::fabs(b)) {
          if (firstBad < 0)
            firstBad = e;
          ++bad;
        }
      }
      if (bad) {
        llvm::outs() << llvm::formatv(
            "check result {0}: MISMATCH: {1} of {2} elements beyond atol {3} "
            "+ rtol {4} * |reference| (first at flat index {5}: got {6}, "
            "reference {7}); max abs error {8:e}\n",
            i, bad, got.numElements(), atol, rtol, firstBad,
            elementValue(got, firstBad), elementValue(want, firstBad),
            maxError);
        status = 1;
      } else {
        llvm::outs() << llvm::formatv(
            "check result {0}: ok, max abs error {1:e} (atol {2}, rtol {3})\n",
            i, maxError, atol, rtol);
      }
    }
  }

  const sim::SimStats &stats = result->stats;
  llvm::outs() << llvm::formatv(
      "modelled time: {0:f2} us, {1:f1}% of the roofline ({2:f2} us), {3:f3} "
      "MB of DDR traffic\n",
      stats.seconds * 1e6, stats.utilisation() * 100, stats.roofline * 1e6,
      stats.ddrBytes / 1e6);
  if (statsOption)
    llvm::outs() << sim::formatStats(stats);
  if (timing)
    llvm::outs() << llvm::formatv("timing: compile {0:f1} ms, simulate {1:f1} "
                                  "ms, reference {2:f1} ms\n",
                                  compileMs, simulateMs, referenceMs);
  auto writeJson = [&](StringRef path, const llvm::json::Value &value) {
    auto out = openOutputFile(path, &error);
    if (!out)
      return fail(error);
    out->os() << llvm::formatv("{0:2}", value) << "\n";
    out->keep();
    return 0;
  };
  if (!statsJson.empty() && writeJson(statsJson, sim::statsToJson(stats)))
    return 1;
  if (!traceFile.empty()) {
    if (writeJson(traceFile, result->trace))
      return 1;
    llvm::outs() << "trace: " << traceFile
                 << " (open in https://ui.perfetto.dev)\n";
  }
  return status;
}
