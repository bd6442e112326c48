//===- CompilerModule.cpp - pybind11 bindings of the compiler and simulator ===//
//
// The `spyre._spyre_compiler` extension behind `spyre.compile` and
// `spyre.run` (python/spyre/__init__.py wraps it): parse MLIR text, run the
// spyre pipeline, emit SuperDSC and DCI, simulate, and run the upstream
// reference. Results travel as JSON text and numpy arrays; every error is a
// ValueError carrying the diagnostics (with their locations) or the
// library's message.
//
//===----------------------------------------------------------------------===//

#include "Spyre/Dialect/Spyre/IR/Spyre.h"
#include "Spyre/InitSpyre.h"
#include "Spyre/Sim/Npy.h"
#include "Spyre/Sim/Reference.h"
#include "Spyre/Sim/Simulator.h"
#include "Spyre/Target/Emitters.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
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

/// An MLIR context with everything registered, collecting diagnostics.
struct Session {
  DialectRegistry registry;
  std::unique_ptr<MLIRContext> context;
  std::string diagnostics;
  std::unique_ptr<ScopedDiagnosticHandler> handler;

  Session() {
    mlir::spyre::registerSpyreDialects(registry);
    mlir::spyre::sim::registerReferenceDialects(registry);
    context = std::make_unique<MLIRContext>(registry);
    context->loadAllAvailableDialects();
    handler = std::make_unique<ScopedDiagnosticHandler>(
        context.get(), [this](Diagnostic &diag) {
          llvm::raw_string_ostream os(diagnostics);
          os << diag.getLocation() << ": " << diag << "\n";
          for (Diagnostic &note : diag.getNotes())
            os << note.getLocation() << ": note: " << note << "\n";
          return success();
        });
  }

  [[noreturn]] void fail(const std::string &what) {
    raise(what + (diagnostics.empty() ? "" : ":\n" + diagnostics));
  }

  OwningOpRef<ModuleOp> parse(const std::string &text) {
    OwningOpRef<ModuleOp> module =
        parseSourceString<ModuleOp>(text, context.get(), "<input>");
    if (!module)
      fail("cannot parse the MLIR text");
    return module;
  }
};

func::FuncOp pickFunction(ModuleOp module, const std::string &name,
                          Session &session) {
  mlir::spyre::sim::FunctionChoice choice =
      mlir::spyre::sim::chooseFunction(module, name);
  if (choice.function)
    return choice.function;
  if (!name.empty())
    session.fail("no function @" + name + " with a body");
  session.fail(llvm::formatv("the module has {0} public functions; pass "
                             "function=",
                             choice.publicFunctions));
}

OwningOpRef<ModuleOp> lower(ModuleOp module, int cores,
                            const std::string &policy, Session &session) {
  OwningOpRef<ModuleOp> lowered = module.clone();
  if (mlir::spyre::containsKernels(*lowered))
    return lowered;
  PassManager pm(session.context.get());
  mlir::spyre::SpyrePipelineOptions options;
  options.cores = cores;
  options.policy = policy;
  mlir::spyre::buildSpyrePipeline(pm, options);
  if (failed(pm.run(*lowered)))
    session.fail("compilation failed");
  return lowered;
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

std::optional<HostType> hostTypeOf(const py::dtype &dtype) {
  return hostTypeForNpyDescr(py::str(dtype.attr("str")).cast<std::string>());
}

py::dtype dtypeOf(HostType type) {
  std::optional<llvm::StringRef> descr = npyDescr(type);
  if (!descr)
    raise("results of type " + stringifyHostType(type).str() +
          " have no numpy dtype");
  return py::dtype(descr->str());
}

HostTensor toHost(const py::array &array, size_t index) {
  std::optional<HostType> type = hostTypeOf(array.dtype());
  if (!type)
    raise(llvm::formatv("input {0}: numpy dtype {1} has no device type",
                        index, std::string(py::str(array.dtype())))
              .str());
  py::array contiguous =
      py::array::ensure(array, py::array::c_style | py::array::forcecast);
  SmallVector<int64_t> shape(contiguous.shape(),
                             contiguous.shape() + contiguous.ndim());
  HostTensor tensor(*type, shape);
  std::memcpy(tensor.data.data(), contiguous.data(), tensor.data.size());
  return tensor;
}

py::array toNumpy(const HostTensor &tensor) {
  std::vector<py::ssize_t> shape(tensor.shape.begin(), tensor.shape.end());
  py::array array(dtypeOf(tensor.type), shape);
  std::memcpy(array.mutable_data(), tensor.data.data(), tensor.data.size());
  return array;
}

//===----------------------------------------------------------------------===//
// The bindings
//===----------------------------------------------------------------------===//

py::dict compile(const std::string &text, int cores,
                 const std::string &policy) {
  Session session;
  OwningOpRef<ModuleOp> module = session.parse(text);
  OwningOpRef<ModuleOp> lowered = lower(*module, cores, policy, session);
  FailureOr<std::vector<mlir::spyre::EmittedFile>> sdsc =
      mlir::spyre::emitSuperDsc(*lowered);
  FailureOr<std::string> bundle = mlir::spyre::emitBundle(*lowered);
  FailureOr<std::vector<mlir::spyre::EmittedFile>> dci = mlir::spyre::emitDci(*lowered);
  if (failed(sdsc) || failed(bundle) || failed(dci))
    session.fail("emission failed");
  llvm::json::Object superdsc;
  llvm::json::Array order;
  for (mlir::spyre::EmittedFile &file : *sdsc) {
    order.push_back(file.name);
    superdsc[file.name] = std::move(file.json);
  }
  llvm::json::Array descriptors;
  for (mlir::spyre::EmittedFile &file : *dci)
    descriptors.push_back(std::move(file.json));
  py::dict result;
  result["ir"] = printed(lowered->getOperation());
  result["superdsc"] = json(llvm::json::Object{{"bundle", std::move(order)},
                                               {"sdscs", std::move(superdsc)}});
  result["bundle"] = *bundle;
  result["dci"] = json(std::move(descriptors));
  return result;
}

py::tuple run(const std::string &text, const py::list &arrays,
              const std::string &source, const std::string &function,
              int cores, const std::string &policy, bool check, bool trace) {
  Session session;
  OwningOpRef<ModuleOp> module = session.parse(text);
  std::vector<HostTensor> inputs;
  for (size_t i = 0; i < arrays.size(); ++i)
    inputs.push_back(toHost(py::array::ensure(arrays[i]), i));
  OwningOpRef<ModuleOp> lowered = lower(*module, cores, policy, session);
  func::FuncOp picked = pickFunction(*lowered, function, session);
  mlir::spyre::sim::SimOptions options;
  options.trace = trace;
  llvm::Expected<mlir::spyre::sim::SimResult> result =
      mlir::spyre::sim::simulate(picked, inputs, options);
  if (!result)
    raise(llvm::toString(result.takeError()));
  py::list outputs;
  for (const HostTensor &tensor : result->outputs)
    outputs.append(toNumpy(tensor));
  py::dict stats;
  stats["json"] = json(mlir::spyre::sim::statsToJson(result->stats));
  stats["table"] = mlir::spyre::sim::formatStats(result->stats);
  if (trace)
    stats["trace"] = json(result->trace);
  if (check) {
    // The reference runs the linalg program: the text itself, or the
    // source an artifact was compiled from.
    const std::string &linalg = source.empty() ? text : source;
    OwningOpRef<ModuleOp> original = session.parse(linalg);
    if (mlir::spyre::containsKernels(*original))
      raise("check=True needs the linalg program the kernels were compiled "
            "from");
    llvm::Expected<std::vector<HostTensor>> expected = mlir::spyre::sim::runReference(
        *original, picked.getSymName(), inputs);
    if (!expected)
      raise("the reference failed: " + llvm::toString(expected.takeError()));
    py::list reference;
    for (const HostTensor &tensor : *expected)
      reference.append(toNumpy(tensor));
    stats["reference"] = reference;
  }
  return py::make_tuple(outputs, stats);
}

} // namespace

PYBIND11_MODULE(_spyre_compiler, m) {
  m.doc() = "spyre-mlir's compiler and simulator (see spyre.compile and "
            "spyre.run)";
  m.def("compile", &compile, py::arg("text"), py::arg("cores") = 0,
        py::arg("policy") = "model");
  m.def("run", &run, py::arg("text"), py::arg("inputs"),
        py::arg("source") = "", py::arg("function") = "",
        py::arg("cores") = 0, py::arg("policy") = "model",
        py::arg("check") = false, py::arg("trace") = false);
}
