//===- spyre-run.cpp - Compile and simulate a function --------------------===//
//
//   spyre-run model.mlir --input=@x.npy --input=@w.npy --output=@y.npy \
//             [--function=NAME] [--cores=N] [--check] [--stats]
//             [--stats-json=FILE] [--trace=FILE]
//   spyre-run out/manifest.json ...      (what spyre-compile wrote)
//
// Follows iree-run-module's conventions. A linalg program is compiled with
// the spyre pipeline first; a file already in kernel form (spyre.kernel ops)
// runs as it is. `--check` also runs the original linalg program through
// upstream MLIR's own lowering (JIT-compiled in process) and compares every
// result. Every step is the driver library's (Spyre/Driver/Driver.h); files
// are written only once the whole run has succeeded.
//
//===----------------------------------------------------------------------===//

#include "Spyre/Dialect/Spyre/IR/Spyre.h"
#include "Spyre/Driver/Driver.h"
#include "Spyre/Sim/Npy.h"
#include "Spyre/Sim/Reference.h"
#include "Spyre/Sim/Simulator.h"
#include "Spyre/Support/HostMemory.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/Timing.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"

#include <cmath>
#include <cstdio>

using namespace mlir;
using namespace mlir::spyre;
using namespace mlir::spyre::sim;
namespace cl = llvm::cl;

static cl::OptionCategory category("spyre-run options");
static driver::CompileFlags compileFlags(category);
static cl::opt<std::string>
    inputFile(cl::Positional,
              cl::desc("<input: a .mlir file (linalg or kernel form), or the "
                       "manifest.json spyre-compile wrote>"),
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
static cl::opt<Sen169Numerics> numerics(
    "numerics", cl::desc("How the device stores f16 (SEN169_FP16) elements"),
    cl::values(clEnumValN(Sen169Numerics::DLFloat16, "dl16",
                          "DLFloat16, as the machine does (default): 6 "
                          "exponent and 9 fraction bits, see docs/numerics.md"),
               clEnumValN(Sen169Numerics::IEEEHalf, "ieee-f16",
                          "IEEE binary16 (the earlier model)")),
    cl::init(Sen169Numerics::DLFloat16), cl::cat(category));
static cl::opt<bool> modelOnly(
    "model-only",
    cl::desc("Run the timing model and every check that needs no values "
             "(addresses, LX capacity, spans, stale sticks, ownership) "
             "without computing: no inputs, no results, host segments not "
             "run (their transfers are modelled). For programs too large to "
             "simulate with values"),
    cl::init(false), cl::cat(category));
static cl::opt<bool> check("check",
                           cl::desc("Compare with upstream MLIR's lowering of "
                                    "the same program, run in process on the "
                                    "inputs as the device stores them (f16 "
                                    "rounded to DLFloat16 under "
                                    "--numerics=dl16)"),
                           cl::init(false), cl::cat(category));
static cl::opt<double> atolOption(
    "atol",
    cl::desc("Absolute tolerance of --check (default: per element type, "
             "scaled by each output's root-mean-square reference value: f16 "
             "1e-2, bf16 4e-2, f32 1e-4 (or, when looser, n * 2^-24 for a "
             "program whose longest reduction sums n terms), fp8 one step "
             "of the format (e4m3 "
             "0.125, e5m2 0.25) times it, the less precise type's "
             "when the kernels compute in one (--f32-matmul=f16) or round to "
             "fp8 (qfp8ch); integers "
             "and data movement exact)"),
    cl::init(0), cl::cat(category));
static cl::opt<double> rtolOption(
    "rtol",
    cl::desc("Relative tolerance of --check (default: f16 1e-2, bf16 4e-2, "
             "f32 1e-4, fp8 e4m3 0.125, e5m2 0.25; integers exact)"),
    cl::init(0), cl::cat(category));
static cl::opt<bool> allowNonfinite(
    "allow-nonfinite",
    cl::desc("Let --check accept NaN and inf where the reference has the "
             "same (otherwise every non-finite value is a mismatch)"),
    cl::init(false), cl::cat(category));
static cl::opt<std::string>
    traceFile("trace",
              cl::desc("Write a Chrome trace (Perfetto, chrome://tracing) "
                       "here"),
              cl::cat(category));
static cl::opt<int> randomInputs(
    "random-inputs",
    cl::desc("Generate the inputs from this non-negative seed instead of "
             "reading them (operands a contraction reduces over K elements "
             "are drawn from [-1, 1) / sqrt(K), others from [-1, 1)); "
             "constants whose dense_resource data was elided are drawn too"),
    cl::init(0), cl::cat(category));
static cl::opt<int64_t> dynamicSize(
    "dynamic-size",
    cl::desc("The size of every dynamic dim of the arguments when no input "
             "gives it (--random-inputs, --model-only); given .npy inputs "
             "fix the shapes themselves (default: 16)"),
    cl::init(16), cl::cat(category));
static cl::opt<std::string> saveInputs(
    "save-inputs",
    cl::desc("Write the inputs (e.g. generated ones) as input_N.npy into "
             "this directory"),
    cl::cat(category));
static cl::opt<bool> timing(
    "timing",
    cl::desc("Print the wall time of compilation (per pass), simulation and "
             "the reference"),
    cl::init(false), cl::cat(category));
static cl::opt<std::string>
    saveKernels("save-kernels", cl::desc("Write the compiled kernel form here"),
                cl::cat(category));

// `--stats` and `--stats-json` take the names LLVM gives its own pass
// statistics options; main() replaces those before registering these.
static cl::opt<bool> statsOption(
    "stats",
    cl::desc("Print the modelled time, traffic and utilisation of every "
             "kernel"),
    cl::init(false), cl::cat(category));
static cl::opt<std::string>
    statsJson("stats-json", cl::desc("Write the statistics as JSON here"),
              cl::cat(category));

static int fail(const llvm::Twine &message) {
  llvm::errs() << "spyre-run: error: " << message << "\n";
  return 1;
}

/// Gives `--stats` and `--stats-json` to spyre-run: LLVM registers options
/// of those names (pass statistics, which a Release LLVM does not collect)
/// when the command line is first used.
static void replaceLlvmStatisticsOptions() {
  statsOption.removeArgument();
  statsJson.removeArgument();
  cl::HideUnrelatedOptions(category); // registers LLVM's common options
  auto &registered = cl::getRegisteredOptions();
  for (StringRef name : {"stats", "stats-json"})
    if (cl::Option *option = registered.lookup(name))
      option->removeArgument();
  statsOption.addArgument();
  statsJson.addArgument();
}

/// The tolerance the user gave, if any.
static std::optional<driver::Tolerance> givenTolerance() {
  if (!atolOption.getNumOccurrences() && !rtolOption.getNumOccurrences())
    return std::nullopt;
  return driver::Tolerance{atolOption, rtolOption};
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  registerSpyrePassesAndPipelines();
  driver::registerVersionPrinter();
  replaceLlvmStatisticsOptions();
  cl::ParseCommandLineOptions(
      argc, argv,
      "spyre-run: compile a function for the modelled Spyre machine and run "
      "it on the simulator\n");

  // Options checked before any work, naming the flag as the user gave it.
  bool generated = randomInputs.getNumOccurrences() > 0;
  if (generated && randomInputs < 0)
    return fail(llvm::formatv(
        "--random-inputs={0}: the seed must not be negative", randomInputs));
  if (generated && !inputs.empty())
    return fail("give either --input or --random-inputs, not both");
  if (modelOnly) {
    for (auto [flag, given] :
         {std::pair<StringRef, bool>{"check", check.getNumOccurrences() > 0},
          {"input", !inputs.empty()},
          {"random-inputs", generated},
          {"output", !outputs.empty()},
          {"save-inputs", saveInputs.getNumOccurrences() > 0}})
      if (given)
        return fail(llvm::formatv("--{0} needs values; --model-only computes "
                                  "none",
                                  flag));
  }
  for (cl::opt<double> *tolerance : {&atolOption, &rtolOption}) {
    double value = tolerance->getValue();
    if (tolerance->getNumOccurrences() &&
        !(value >= 0 && std::isfinite(value))) {
      char text[32];
      std::snprintf(text, sizeof(text), "%g", value);
      return fail(llvm::formatv("--{0}={1}: a tolerance must be a "
                                "non-negative number",
                                tolerance->ArgStr, text));
    }
  }
  for (auto [flag, value] :
       {std::pair<StringRef, cl::opt<std::string> *>{"stats-json", &statsJson},
        {"trace", &traceFile},
        {"save-kernels", &saveKernels},
        {"save-inputs", &saveInputs}})
    if (value->getNumOccurrences() && value->empty())
      return fail(llvm::formatv("--{0} needs a file name (--{0}=FILE)", flag));
  for (const std::string &spec : inputs)
    if (spec.empty() || spec[0] != '@')
      return fail(llvm::formatv("--input={0}: expected @file.npy", spec));
  for (const std::string &spec : outputs)
    if (spec.empty() || spec[0] != '@')
      return fail(llvm::formatv("--output={0}: expected @file.npy", spec));

  DefaultTimingManager timingManager;
  timingManager.setEnabled(timing);
  TimingScope rootTiming = timingManager.getRootScope();

  // What to run: the file, or the kernel form (and source) a manifest names.
  std::string kernelsPath = inputFile, sourcePath;
  std::string chosen = functionName;
  llvm::Expected<std::optional<driver::ManifestFiles>> manifest =
      driver::readManifest(inputFile);
  if (!manifest)
    return fail(llvm::toString(manifest.takeError()));
  if (*manifest) {
    kernelsPath = (*manifest)->kernels;
    sourcePath = (*manifest)->source;
    if (chosen.empty())
      chosen = (*manifest)->function;
  }

  driver::Session session;
  std::string openError;
  OwningOpRef<ModuleOp> module = session.parseFile(kernelsPath, &openError);
  if (!module)
    return openError.empty() ? 1 : fail(openError);
  FunctionChoice choice = chooseFunction(*module, chosen);
  if (!choice.function) {
    if (!chosen.empty())
      return fail(llvm::formatv("no function @{0} with a body in {1}", chosen,
                                kernelsPath));
    return fail(llvm::formatv("{0} has {1} public functions; choose one with "
                              "--function=NAME",
                              kernelsPath, choice.publicFunctions));
  }
  func::FuncOp picked = choice.function;
  std::string name = picked.getSymName().str();
  // Scalar arguments travel as 0-d tensors (.npy arrays of shape ()).
  std::string scalarsWhy;
  if (failed(driver::argumentsAsTensors(picked, scalarsWhy)))
    return fail(scalarsWhy);
  if (std::optional<std::string> problem = compileFlags.problem(*module))
    return fail(*problem);

  // Dynamic argument shapes: the given inputs' (read here), or
  // --dynamic-size for each dynamic dim; the program is specialized to them
  // before anything else (compiler and reference) sees it.
  std::vector<HostTensor> values;
  bool readEarly = false;
  // Reads the --input files into `values`; on an error, the exit status.
  auto readInputs = [&]() -> std::optional<int> {
    ArrayRef<Type> types = picked.getArgumentTypes();
    if (inputs.size() != types.size())
      return fail(llvm::formatv(
          "@{0} takes {1} inputs, {2} given (--input=@file.npy, in argument "
          "order)",
          name, types.size(), inputs.size()));
    for (auto [i, spec] : llvm::enumerate(inputs)) {
      llvm::Expected<HostTensor> tensor = readNpy(StringRef(spec).drop_front());
      if (!tensor)
        return fail(llvm::formatv("input {0}: {1}", i,
                                  llvm::toString(tensor.takeError())));
      values.push_back(driver::fromExchangeType(std::move(*tensor), types[i]));
    }
    return std::nullopt;
  };
  if (driver::hasDynamicArguments(picked)) {
    SmallVector<SmallVector<int64_t>> shapes;
    if (!generated && !modelOnly) {
      if (std::optional<int> status = readInputs())
        return *status;
      for (const HostTensor &value : values)
        shapes.emplace_back(value.shape.begin(), value.shape.end());
      readEarly = true;
    } else {
      if (dynamicSize < 0)
        return fail(llvm::formatv(
            "--dynamic-size={0}: a size must not be negative", dynamicSize));
      shapes = driver::argumentShapes(picked, dynamicSize);
    }
    std::string why;
    bool sizesWrong = false;
    if (failed(driver::specializeShapes(picked, shapes, why, &sizesWrong)))
      return fail(llvm::formatv(
          "@{0} has dynamic shapes: {1}{2}", name, why,
          !sizesWrong ? ""
          : readEarly ? " (its dynamic dims take the --input files' sizes)"
                      : llvm::formatv(" (its dynamic dims take "
                                      "--dynamic-size={0}; give another)",
                                      dynamicSize.getValue())
                            .str()));
  }

  // Inputs.
  ArrayRef<Type> argTypes = picked.getArgumentTypes();
  for (auto [i, type] : llvm::enumerate(argTypes))
    if (std::optional<std::string> problem =
            driver::argumentProblem(type, generated))
      return fail(llvm::formatv("argument {0} of @{1} {2}", i, name, *problem));
  if (modelOnly || readEarly) {
    // No values, or read above.
  } else if (generated) {
    uint64_t bytes = 0;
    for (Type type : argTypes)
      if (auto tensor = dyn_cast<RankedTensorType>(type))
        if (FailureOr<HostType> host = getHostTypeOf(tensor); succeeded(host))
          bytes += static_cast<uint64_t>(tensor.getNumElements()) *
                   hostElementBytes(*host);
    if (bytes > hostMemoryBytes() / 2)
      return fail(llvm::formatv("the inputs of @{0} need {1} of memory; this "
                                "machine has {2}",
                                name, formatBytes(bytes),
                                formatBytes(hostMemoryBytes())));
    values = driver::randomInputs(picked, static_cast<unsigned>(randomInputs));
    driver::drawElidedConstants(picked, static_cast<unsigned>(randomInputs));
  } else if (std::optional<int> status = readInputs()) {
    return *status;
  }
  if (!outputs.empty() && outputs.size() != picked.getNumResults())
    return fail(llvm::formatv("@{0} has {1} results, {2} --output given", name,
                              picked.getNumResults(), outputs.size()));

  // Compile unless the file is in kernel form already.
  driver::CompileOptions options = compileFlags.options();
  options.function = name;
  bool compiled = false;
  OwningOpRef<ModuleOp> lowered;
  {
    TimingScope compileTiming = rootTiming.nest("compile");
    FailureOr<OwningOpRef<ModuleOp>> result =
        session.compile(*module, options, compiled, &compileTiming);
    if (failed(result))
      return fail("compilation failed");
    lowered = std::move(*result);
  }
  if (!compiled && compileFlags.cores())
    return fail("--cores applies to compilation; " + kernelsPath +
                " is in kernel form already");
  auto loweredFunction = lowered->lookupSymbol<func::FuncOp>(name);

  // Simulate.
  SimOptions simOptions;
  simOptions.trace = !traceFile.empty();
  simOptions.modelOnly = modelOnly;
  simOptions.numerics = numerics;
  llvm::Expected<SimResult> result = [&] {
    TimingScope simulateTiming = rootTiming.nest("simulate");
    return simulate(loweredFunction, values, simOptions);
  }();
  if (!result)
    return fail(llvm::toString(result.takeError()));

  int64_t kernels = 0;
  loweredFunction.walk([&](KernelOp) { ++kernels; });
  // The machine's cores, and the cores the kernels were divided across
  // when --cores asked for fewer.
  std::string compiledFor;
  if (compiled) {
    compiledFor = " (compiled with --spyre-pipeline";
    if (int64_t cores = compileFlags.cores();
        cores > 0 && cores != result->stats.cores)
      compiledFor +=
          llvm::formatv(" for {0} core{1}", cores, cores == 1 ? "" : "s").str();
    compiledFor += ")";
  }
  llvm::outs() << llvm::formatv(
      "@{0}: {1} kernels on {2} modelled cores{3}{4}\n", name, kernels,
      result->stats.cores, compiledFor,
      modelOnly ? " (model only: no values computed)" : "");
  for (auto [i, tensor] : llvm::enumerate(result->outputs))
    llvm::outs() << llvm::formatv("result {0}: {1} {2}\n", i,
                                  formatList(tensor.shape),
                                  stringifyHostType(tensor.type));

  int status = 0;
  if (check) {
    // The reference runs the linalg program: the file itself, or the source
    // a manifest names.
    OwningOpRef<ModuleOp> source;
    ModuleOp linalg = *module;
    if (!compiled) {
      if (sourcePath.empty())
        return fail("--check needs the original linalg program; " +
                    kernelsPath + " is in kernel form already");
      source = session.parseFile(sourcePath, &openError);
      if (!source)
        return openError.empty() ? 1 : fail(openError);
      linalg = *source;
      if (auto original = linalg.lookupSymbol<func::FuncOp>(name))
        if (failed(driver::argumentsAsTensors(original, scalarsWhy)))
          return fail(scalarsWhy);
    }
    llvm::Expected<std::vector<HostTensor>> expected = [&] {
      TimingScope referenceTiming = rootTiming.nest("reference");
      return runReference(
          linalg, name,
          driver::inputsAsStored(loweredFunction, values, numerics));
    }();
    if (!expected)
      return fail("the reference failed: " +
                  llvm::toString(expected.takeError()));
    if (expected->size() != result->outputs.size())
      return fail("the reference returned a different number of results");
    bool movement = driver::onlyMovesData(loweredFunction);
    std::optional<HostType> precision = driver::leastPrecision(loweredFunction);
    int64_t reduction = 1;
    if (auto original = linalg.lookupSymbol<func::FuncOp>(name))
      reduction = driver::longestReduction(original);
    for (auto [i, got, want] : llvm::enumerate(result->outputs, *expected)) {
      driver::ResultCheck checked =
          driver::compareResult(got, want, movement, givenTolerance(),
                                allowNonfinite, precision, numerics, reduction);
      llvm::outs() << driver::formatResultCheck(i, checked) << "\n";
      if (!checked.ok())
        status = 1;
    }
  }

  const SimStats &stats = result->stats;
  if (stats.kernels.empty())
    llvm::outs() << llvm::formatv(
        "modelled time: {0:f2} us, {1:f3} MB of DDR traffic (no device "
        "kernels: no roofline to measure against)\n",
        stats.seconds * 1e6, stats.ddrBytes / 1e6);
  else
    llvm::outs() << llvm::formatv(
        "modelled time: {0:f2} us, {1:f1}% of the program roofline ({2:f2} "
        "us), {3:f3} MB of DDR traffic ({4:f2}x the compulsory {5:f3} MB)\n",
        stats.seconds * 1e6, stats.programUtilisation() * 100,
        stats.programRoofline() * 1e6, stats.ddrBytes / 1e6,
        stats.trafficRatio(), stats.compulsoryBytes / 1e6);
  if (!stats.hostSegments.empty())
    llvm::outs() << llvm::formatv(
        "(the device part: {0} host segment(s) ran on this machine, outside "
        "the model and the roofline)\n",
        stats.hostSegments.size());
  if (statsOption)
    llvm::outs() << formatStats(stats);

  // Files, all or nothing, never over an input.
  std::vector<std::string> read = {kernelsPath};
  if (!sourcePath.empty())
    read.push_back(sourcePath);
  for (const std::string &spec : inputs)
    read.push_back(spec.substr(1));
  OutputFiles files(read);
  auto add = [&](StringRef path, std::string contents) {
    if (llvm::Error error = files.add(path, std::move(contents))) {
      fail(llvm::toString(std::move(error)));
      return false;
    }
    return true;
  };
  auto json = [](const llvm::json::Value &value) {
    return llvm::formatv("{0:2}", value).str() + "\n";
  };
  auto npy = [&](StringRef path, const HostTensor &tensor) {
    llvm::Expected<std::vector<uint8_t>> bytes =
        serializeNpy(driver::toExchangeType(tensor));
    if (!bytes) {
      fail(path + ": " + llvm::toString(bytes.takeError()));
      return false;
    }
    return add(path, std::string(bytes->begin(), bytes->end()));
  };
  for (auto [spec, tensor] : llvm::zip(outputs, result->outputs))
    if (!npy(StringRef(spec).drop_front(), tensor))
      return 1;
  if (!saveKernels.empty()) {
    std::string text;
    llvm::raw_string_ostream os(text);
    lowered->print(os);
    if (!add(saveKernels, std::move(text)))
      return 1;
  }
  if (!saveInputs.empty()) {
    if (llvm::Error error = files.createDirectory(saveInputs))
      return fail(llvm::toString(std::move(error)));
    for (auto [i, tensor] : llvm::enumerate(values)) {
      SmallString<256> path(saveInputs.getValue());
      llvm::sys::path::append(path, "input_" + std::to_string(i) + ".npy");
      if (!npy(path, tensor))
        return 1;
    }
  }
  if (!statsJson.empty() && !add(statsJson, json(statsToJson(stats))))
    return 1;
  if (!traceFile.empty() && !add(traceFile, json(result->trace)))
    return 1;
  if (llvm::Error error = files.commit())
    return fail(llvm::toString(std::move(error)));
  if (!traceFile.empty())
    llvm::outs() << "trace: " << traceFile
                 << " (open in https://ui.perfetto.dev)\n";
  return status;
}
