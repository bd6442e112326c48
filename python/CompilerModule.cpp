//===- CompilerModule.cpp - pybind11 bindings of the compiler and simulator
//===//
//
// The `spyre._spyre_compiler` extension behind `spyre.compile` and
// `spyre.run` (python/spyre/__init__.py wraps it), over the driver library
// the command-line tools use: parse MLIR text, run the spyre pipeline, emit
// SuperDSC and DCI, simulate, run the upstream reference and compare.
// Results travel as JSON text and numpy arrays. Every diagnostic is
// collected: remarks and warnings are returned (Python turns them into
// `warnings.warn`), errors raise ValueError with the compiler's own
// messages and locations.
//
//===----------------------------------------------------------------------===//

#include "Spyre/Dialect/Spyre/IR/Spyre.h"
#include "Spyre/Driver/Driver.h"
#include "Spyre/Sim/Npy.h"
#include "Spyre/Sim/Reference.h"
#include "Spyre/Sim/Simulator.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/FormatVariadic.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstring>
#include <string>
#include <vector>

namespace py = pybind11;
using namespace mlir;
using namespace mlir::spyre;
using namespace mlir::spyre::sim;

namespace {

[[noreturn]] void raise(const std::string &message) {
  throw py::value_error(message);
}

/// A driver session collecting diagnostics, raising with them on failure.
struct Session : driver::Session {
  Session() : driver::Session(DiagnosticMode::Collect) {}

  [[noreturn]] void fail(const std::string &what) {
    std::string errors = getErrorText();
    raise(errors.empty() ? what : what + ":\n" + errors);
  }

  OwningOpRef<ModuleOp> parse(const std::string &text) {
    OwningOpRef<ModuleOp> module = parseString(text, "<input>");
    if (!module)
      fail("cannot parse the MLIR text");
    return module;
  }

  /// The remarks and warnings so far, as (severity, text) pairs.
  py::list messages() const {
    py::list list;
    for (const driver::Message &message : getMessages()) {
      const char *severity =
          message.severity == DiagnosticSeverity::Remark    ? "remark"
          : message.severity == DiagnosticSeverity::Warning ? "warning"
                                                            : nullptr;
      if (severity)
        list.append(py::make_tuple(severity, message.text));
    }
    return list;
  }
};

/// The keyword arguments spyre.compile and spyre.run share.
struct CompileArgs {
  int cores = 0;
  std::string policy = "model";
  bool hostFallback = true;
  std::string f32Matmul = "host";
  std::string function; ///< only this one, when set
  bool fuseRowBlocks = true;
  bool splitProjections = true;

  driver::CompileOptions options() const {
    driver::CompileOptions options;
    if (cores < 0)
      raise(llvm::formatv("cores={0} must not be negative", cores).str());
    options.cores = cores;
    if (policy == "greedy")
      options.policy = kernel::Policy::Greedy;
    else if (policy != "model")
      raise("unknown policy '" + policy + "'; use 'model' or 'greedy'");
    options.hostFallback = hostFallback;
    if (f32Matmul == "f16")
      options.f32Matmul = F32Matmul::F16;
    else if (f32Matmul != "host")
      raise("unknown f32_matmul '" + f32Matmul + "'; use 'host' or 'f16'");
    options.function = function;
    options.fuseRowBlocks = fuseRowBlocks;
    options.splitProjections = splitProjections;
    return options;
  }
};

OwningOpRef<ModuleOp> lower(ModuleOp module, const CompileArgs &args,
                            Session &session) {
  int64_t targetCores = getTarget(module).getCores();
  if (args.cores > targetCores)
    raise(llvm::formatv("cores={0} is out of range 1..{1} (the target's "
                        "cores)",
                        args.cores, targetCores)
              .str());
  bool compiled = false;
  FailureOr<OwningOpRef<ModuleOp>> lowered =
      session.compile(module, args.options(), compiled);
  if (failed(lowered))
    session.fail("compilation failed");
  return std::move(*lowered);
}

func::FuncOp pickFunction(ModuleOp module, const std::string &name) {
  FunctionChoice choice = chooseFunction(module, name);
  if (choice.function) {
    // Scalar arguments are passed as NumPy scalars or 0-d arrays.
    std::string why;
    if (failed(driver::argumentsAsTensors(choice.function, why)))
      raise(why);
    return choice.function;
  }
  if (!name.empty())
    raise("no function @" + name + " with a body");
  raise(llvm::formatv("the module has {0} public functions; pass function=",
                      choice.publicFunctions)
            .str());
}

std::string printed(Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  op->print(os);
  return text;
}

std::string json(const llvm::json::Value &value) {
  return llvm::formatv("{0}", value).str();
}

//===----------------------------------------------------------------------===//
// numpy <-> HostTensor
//===----------------------------------------------------------------------===//

/// `array` as a host tensor for an argument of element type `expected`: a
/// one-byte argument type numpy has no dtype for (fp8, E8M0 scales, packed
/// codes in i8) takes the raw bytes of a uint8 or int8 array, as
/// spyre.quantize returns them.
HostTensor toHost(py::array array, size_t index, Type expected) {
  // Big-endian (or non-native) arrays are converted to little-endian first.
  py::dtype dtype = array.dtype();
  if (py::str(dtype.attr("byteorder")).cast<std::string>() == ">")
    array = py::array(array.attr("astype")(dtype.attr("newbyteorder")("<")));
  std::optional<HostType> type = hostTypeForNpyDescr(
      py::str(array.dtype().attr("str")).cast<std::string>());
  FailureOr<HostType> wanted = getHostType(expected);
  char kind = array.dtype().kind();
  if (succeeded(wanted) && hostElementBytes(*wanted) == 1 &&
      array.dtype().itemsize() == 1 && (kind == 'u' || kind == 'i'))
    type = *wanted;
  if (!type)
    raise(llvm::formatv("input {0}: numpy dtype {1} has no device type", index,
                        std::string(py::str(array.dtype())))
              .str());
  py::array contiguous =
      py::array::ensure(array, py::array::c_style | py::array::forcecast);
  SmallVector<int64_t> shape(contiguous.shape(),
                             contiguous.shape() + contiguous.ndim());
  HostTensor tensor(*type, shape);
  std::memcpy(tensor.data.data(), contiguous.data(), tensor.data.size());
  return tensor;
}

py::array toNumpy(const HostTensor &result) {
  HostTensor tensor = driver::toExchangeType(result);
  std::optional<llvm::StringRef> descr = npyDescr(tensor.type);
  // One-byte types numpy has none for (fp8, E8M0) come back as their bytes,
  // as arguments of those types are given.
  if (!descr && hostElementBytes(tensor.type) == 1)
    descr = "|u1";
  if (!descr)
    raise("results of type " + stringifyHostType(tensor.type).str() +
          " have no numpy dtype");
  std::vector<py::ssize_t> shape(tensor.shape.begin(), tensor.shape.end());
  py::array array(py::dtype(descr->str()), shape);
  std::memcpy(array.mutable_data(), tensor.data.data(), tensor.data.size());
  return array;
}

//===----------------------------------------------------------------------===//
// The bindings
//===----------------------------------------------------------------------===//

py::dict compile(const std::string &text, int cores, const std::string &policy,
                 bool hostFallback, const std::string &f32Matmul,
                 bool fuseRowBlocks, bool splitProjections) {
  Session session;
  OwningOpRef<ModuleOp> module = session.parse(text);
  OwningOpRef<ModuleOp> lowered =
      lower(*module,
            CompileArgs{cores, policy, hostFallback, f32Matmul, "",
                        fuseRowBlocks, splitProjections},
            session);
  FailureOr<driver::Artifacts> artifacts = driver::emitArtifacts(*lowered);
  if (failed(artifacts))
    session.fail("emission failed");
  llvm::json::Array descriptors;
  for (EmittedFile &file : artifacts->dci)
    descriptors.push_back(std::move(file.json));
  py::dict result;
  result["ir"] = printed(lowered->getOperation());
  result["superdsc"] =
      superDscDocument(artifacts->superdsc, artifacts->bundles);
  py::dict bundles;
  for (const EmittedBundle &bundle : artifacts->bundles)
    bundles[py::str(bundle.name)] = bundle.text;
  result["bundles"] = bundles;
  result["dci"] = json(std::move(descriptors));
  result["messages"] = session.messages();
  return result;
}

py::tuple run(const std::string &text, const py::list &arrays,
              const std::string &source, const std::string &function, int cores,
              const std::string &policy, bool check, bool trace,
              bool allowNonfinite, std::optional<double> atol,
              std::optional<double> rtol, bool hostFallback,
              const std::string &f32Matmul, bool modelOnly,
              const std::string &numerics, bool fuseRowBlocks,
              bool splitProjections, int64_t dynamicSize) {
  if (modelOnly && check)
    raise("check=True needs values; model_only=True computes none");
  Session session;
  OwningOpRef<ModuleOp> module = session.parse(text);
  func::FuncOp parsed = pickFunction(*module, function);
  std::string name = parsed.getSymName().str();
  ArrayRef<Type> argumentTypes = parsed.getArgumentTypes();
  std::vector<HostTensor> inputs;
  for (size_t i = 0; i < arrays.size(); ++i)
    inputs.push_back(toHost(py::array::ensure(arrays[i]), i,
                            i < argumentTypes.size()
                                ? getElementTypeOrSelf(argumentTypes[i])
                                : Type()));
  // Dynamic argument shapes take the inputs' (the compiler and the
  // reference see the program specialized to them), or, without inputs
  // (model_only), `dynamic_size` for every dynamic dim.
  if (dynamicSize < 0)
    raise("dynamic_size=" + std::to_string(dynamicSize) +
          ": a size must not be negative");
  SmallVector<SmallVector<int64_t>> shapes;
  for (const HostTensor &input : inputs)
    shapes.emplace_back(input.shape.begin(), input.shape.end());
  if (inputs.empty())
    shapes = driver::argumentShapes(parsed, dynamicSize);
  auto specialize = [&](ModuleOp program) {
    func::FuncOp f = pickFunction(program, name);
    if (!driver::hasDynamicArguments(f))
      return;
    std::string why;
    if (shapes.size() != f.getNumArguments() ||
        failed(driver::specializeShapes(f, shapes, why)))
      raise("@" + name + " has dynamic shapes: " +
            (why.empty() ? "give one input per argument" : why));
  };
  specialize(*module);
  OwningOpRef<ModuleOp> lowered =
      lower(*module,
            CompileArgs{cores, policy, hostFallback, f32Matmul, name,
                        fuseRowBlocks, splitProjections},
            session);
  func::FuncOp picked = pickFunction(*lowered, name);
  // bf16 arguments take float32 arrays (numpy has no bfloat16).
  for (auto [input, type] : llvm::zip(inputs, picked.getArgumentTypes()))
    input = driver::fromExchangeType(std::move(input), type);
  SimOptions options;
  options.trace = trace;
  options.modelOnly = modelOnly;
  if (numerics == "ieee-f16")
    options.numerics = Sen169Numerics::IEEEHalf;
  else if (numerics != "dl16")
    raise("unknown numerics '" + numerics + "'; use 'dl16' or 'ieee-f16'");
  llvm::Expected<SimResult> result = simulate(picked, inputs, options);
  if (!result)
    raise(llvm::toString(result.takeError()));
  py::list outputs;
  for (const HostTensor &tensor : result->outputs)
    outputs.append(toNumpy(tensor));
  py::dict stats;
  stats["json"] = json(statsToJson(result->stats));
  stats["table"] = formatStats(result->stats);
  if (trace)
    stats["trace"] = json(result->trace);
  if (check) {
    // The reference runs the linalg program: the text itself, or the
    // source an artifact was compiled from.
    OwningOpRef<ModuleOp> original =
        session.parse(source.empty() ? text : source);
    if (containsKernels(*original))
      raise("check=True needs the linalg program the kernels were compiled "
            "from");
    // The same function the kernels were compiled from: scalar arguments
    // as 0-d tensors, dynamic shapes the inputs'.
    pickFunction(*original, name);
    specialize(*original);
    llvm::Expected<std::vector<HostTensor>> expected =
        runReference(*original, picked.getSymName(),
                     driver::inputsAsStored(picked, inputs, options.numerics));
    if (!expected)
      raise("the reference failed: " + llvm::toString(expected.takeError()));
    std::optional<driver::Tolerance> given;
    if (atol || rtol)
      given = driver::Tolerance{atol.value_or(0), rtol.value_or(0)};
    bool movement = driver::onlyMovesData(picked);
    std::optional<HostType> precision = driver::leastPrecision(picked);
    int64_t reduction = 1;
    if (auto function =
            original->lookupSymbol<func::FuncOp>(picked.getSymName()))
      reduction = driver::longestReduction(function);
    py::list reference, rows;
    for (auto [i, got, want] : llvm::enumerate(result->outputs, *expected)) {
      reference.append(toNumpy(want));
      driver::ResultCheck checked =
          driver::compareResult(got, want, movement, given, allowNonfinite,
                                precision, options.numerics, reduction);
      py::dict row;
      row["ok"] = checked.ok();
      row["max_abs_error"] = checked.maxError;
      row["mismatches"] = checked.mismatches;
      row["nonfinite"] = checked.nonfinite;
      row["atol"] = checked.tolerance.atol;
      row["rtol"] = checked.tolerance.rtol;
      row["text"] = driver::formatResultCheck(i, checked);
      rows.append(row);
    }
    stats["reference"] = reference;
    stats["check"] = rows;
  }
  stats["messages"] = session.messages();
  return py::make_tuple(outputs, stats);
}

} // namespace

PYBIND11_MODULE(_spyre_compiler, m) {
  m.doc() = "spyre-mlir's compiler and simulator (see spyre.compile and "
            "spyre.run)";
  m.def("compile", &compile, py::arg("text"), py::arg("cores") = 0,
        py::arg("policy") = "model", py::arg("host_fallback") = true,
        py::arg("f32_matmul") = "host", py::arg("fuse_row_blocks") = true,
        py::arg("split_projections") = true);
  m.def("run", &run, py::arg("text"), py::arg("inputs"), py::arg("source") = "",
        py::arg("function") = "", py::arg("cores") = 0,
        py::arg("policy") = "model", py::arg("check") = false,
        py::arg("trace") = false, py::arg("allow_nonfinite") = false,
        py::arg("atol") = py::none(), py::arg("rtol") = py::none(),
        py::arg("host_fallback") = true, py::arg("f32_matmul") = "host",
        py::arg("model_only") = false, py::arg("numerics") = "dl16",
        py::arg("fuse_row_blocks") = true, py::arg("split_projections") = true,
        py::arg("dynamic_size") = 16);
  m.attr("version") = driver::getVersion().str();
}
