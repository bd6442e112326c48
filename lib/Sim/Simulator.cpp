//===- Simulator.cpp - Run the kernel form on a modelled stick machine ----===//
//
// The function walk: arguments and constants are uploaded the way a DCI
// would (real elements only; padding never written), kernels run on the
// modelled cores (KernelRunner.cpp), views alias their root's buffer, and
// results are downloaded from their buffers through their layouts.
//
//===----------------------------------------------------------------------===//

#include "Spyre/Sim/Simulator.h"
#include "KernelRunner.h"

#include "Spyre/Dialect/Spyre/IR/KernelForm.h"
#include "Spyre/Layout/Stickify.h"

#include "Spyre/Sim/Reference.h"
#include "Spyre/Support/HostMemory.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/FormatVariadic.h"

#include <chrono>
#include <functional>
#include <optional>

using namespace mlir;
using namespace mlir::spyre;
using namespace mlir::spyre::sim;

/// `loc` as text ("file:line:col").
static std::string describeLocation(Location loc) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << loc;
  return text;
}

FailureOr<HostType> mlir::spyre::sim::getHostTypeOf(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape())
    return failure();
  return getHostType(tensor.getElementType());
}

void mlir::spyre::sim::forEachElidedConstant(
    FunctionOpInterface function,
    llvm::function_ref<void(Operation *, StringAttr, DenseResourceElementsAttr)>
        f) {
  SmallVector<Operation *> scopes{function.getOperation()};
  function.walk([&](func::CallOp call) {
    if (Operation *callee =
            SymbolTable::lookupNearestSymbolFrom(call, call.getCalleeAttr()))
      scopes.push_back(callee);
  });
  for (Operation *scope : scopes)
    scope->walk([&](Operation *op) {
      if (!op->hasTrait<OpTrait::ConstantLike>())
        return;
      for (NamedAttribute attr : op->getAttrs())
        if (auto resource =
                dyn_cast<DenseResourceElementsAttr>(attr.getValue()))
          if (!resource.getRawHandle().getBlob())
            f(op, attr.getName(), resource);
    });
}

std::string mlir::spyre::sim::describeType(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    os << withoutLayout(tensor);
  else
    os << type;
  return text;
}

FunctionChoice mlir::spyre::sim::chooseFunction(ModuleOp module,
                                                StringRef name) {
  FunctionChoice choice;
  if (!name.empty()) {
    auto function = module.lookupSymbol<func::FuncOp>(name);
    if (function && !function.isExternal())
      choice.function = function;
    return choice;
  }
  SmallVector<func::FuncOp> candidates;
  for (auto function : module.getOps<func::FuncOp>())
    if (!function.isExternal() && function.isPublic())
      candidates.push_back(function);
  choice.publicFunctions = candidates.size();
  if (candidates.size() == 1)
    choice.function = candidates.front();
  else
    choice.function = module.lookupSymbol<func::FuncOp>("main");
  return choice;
}

namespace {

/// A host tensor of `type`'s shape and element type holding `attr`.
llvm::Expected<HostTensor> constantValue(ElementsAttr attr, HostType type) {
  auto shaped = cast<ShapedType>(attr.getType());
  HostTensor tensor(type, shaped.getShape());
  int64_t n = tensor.numElements();
  unsigned bytes = tensor.elementBytes();
  auto dense = dyn_cast<DenseElementsAttr>(attr);
  if (!dense)
    return llvm::createStringError("only dense constants can be uploaded");
  for (int64_t i = 0; i < n; ++i) {
    uint8_t *out = tensor.data.data() + i * bytes;
    if (auto floats = dyn_cast<FloatType>(shaped.getElementType())) {
      llvm::APFloat value = dense.isSplat()
                                ? dense.getSplatValue<llvm::APFloat>()
                                : dense.getValues<llvm::APFloat>()[i];
      llvm::APInt bits = value.bitcastToAPInt();
      uint64_t raw = bits.getZExtValue();
      std::memcpy(out, &raw, bytes);
    } else {
      llvm::APInt value = dense.isSplat() ? dense.getSplatValue<llvm::APInt>()
                                          : dense.getValues<llvm::APInt>()[i];
      int64_t raw = value.getBitWidth() == 1 ? value.getZExtValue()
                                             : value.getSExtValue();
      std::memcpy(out, &raw, bytes);
    }
  }
  return tensor;
}

class FunctionSimulator {
public:
  FunctionSimulator(FunctionOpInterface function, const SimOptions &options)
      : function(function), options(options),
        target(getTarget(function).getModel()), machine(target) {}

  llvm::Expected<SimResult> run(ArrayRef<HostTensor> inputs);

private:
  llvm::Error checkInputs(ArrayRef<HostTensor> inputs);
  llvm::Error upload(Value value, const HostTensor &host, MemAttr mem,
                     StringRef what);
  llvm::Expected<HostTensor> download(Value value, StringRef what);
  llvm::Expected<MemAttr> memOf(Value value, StringRef what);
  /// Runs the host segment `call` calls on its host inputs.
  llvm::Error runHostSegment(func::CallOp call, KernelRunner &runner);
  Memory &ddrBuffer(MemAttr mem, int64_t bytes);

  FunctionOpInterface function;
  const SimOptions &options;
  TargetModel target;
  Machine machine;
  DenseMap<Value, HostTensor> hostValues;
  SimResult result;
};

/// A tensor of `type` without values (model-only runs).
static HostTensor placeholderFor(Type type) {
  HostTensor tensor;
  if (auto ranked = dyn_cast<RankedTensorType>(type)) {
    FailureOr<HostType> host = getHostTypeOf(type);
    if (succeeded(host))
      tensor.type = *host;
    tensor.shape.assign(ranked.getShape().begin(), ranked.getShape().end());
  }
  return tensor;
}

llvm::Error FunctionSimulator::checkInputs(ArrayRef<HostTensor> inputs) {
  ArrayRef<Type> types = function.getArgumentTypes();
  if (inputs.size() != types.size())
    return llvm::createStringError(
        llvm::formatv("@{0} takes {1} inputs, {2} were given",
                      function.getName(), types.size(), inputs.size()));
  for (auto [i, type, input] : llvm::enumerate(types, inputs)) {
    FailureOr<HostType> expected = getHostTypeOf(type);
    if (!isa<RankedTensorType>(type))
      return llvm::createStringError(llvm::formatv(
          "argument {0} of @{1} is not a tensor ({2}); the simulator takes "
          "tensor arguments only",
          i, function.getName(), describeType(type)));
    if (!cast<RankedTensorType>(type).hasStaticShape())
      return llvm::createStringError(llvm::formatv(
          "argument {0} of @{1} has a dynamic shape ({2}); the simulator "
          "runs static shapes (make the shape static, e.g. with the input's "
          "sizes)",
          i, function.getName(), describeType(type)));
    if (failed(expected))
      return llvm::createStringError(llvm::formatv(
          "argument {0} of @{1} has type {2}, whose elements have no host "
          "type the simulator reads",
          i, function.getName(), describeType(type)));
    auto tensor = cast<RankedTensorType>(type);
    if (!acceptsHostType(*expected, input.type))
      return llvm::createStringError(
          llvm::formatv("input {0}: @{1} expects {2} elements ({3}), got {4}",
                        i, function.getName(), stringifyHostType(*expected),
                        describeType(type), stringifyHostType(input.type)));
    if (ArrayRef<int64_t>(input.shape) != tensor.getShape())
      return llvm::createStringError(
          llvm::formatv("input {0}: @{1} expects shape {2} ({3}), got {4}", i,
                        function.getName(), formatList(tensor.getShape()),
                        describeType(type), formatList(input.shape)));
  }
  return llvm::Error::success();
}

Memory &FunctionSimulator::ddrBuffer(MemAttr mem, int64_t bytes) {
  Memory &buffer = mem.getSpace() == MemorySpace::Pool
                       ? machine.pool
                       : machine.ioBuffer(mem.getValue());
  int64_t needed =
      mem.getSpace() == MemorySpace::Pool ? mem.getValue() + bytes : bytes;
  if (buffer.size() < needed) {
    // Grow, keeping what is there.
    Memory grown;
    grown.name = buffer.name;
    grown.resize(needed, target.stickBytes);
    std::copy(buffer.bytes.begin(), buffer.bytes.end(), grown.bytes.begin());
    std::copy(buffer.tags.begin(), buffer.tags.end(), grown.tags.begin());
    buffer = std::move(grown);
  }
  return buffer;
}

llvm::Expected<MemAttr> FunctionSimulator::memOf(Value value, StringRef what) {
  MemAttr mem = getRecordedMem(value);
  if (!mem)
    return llvm::createStringError(llvm::formatv(
        "{0} of @{1} has no 'spyre.mem'; the function is not in kernel form "
        "(run --spyre-pipeline)",
        what, function.getName()));
  return mem;
}

llvm::Error FunctionSimulator::upload(Value value, const HostTensor &host,
                                      MemAttr mem, StringRef what) {
  auto type = cast<RankedTensorType>(value.getType());
  llvm::Expected<BoundLayout> bound = bindLayout(type);
  if (!bound)
    return bound.takeError();
  if (mem.getSpace() == MemorySpace::LX)
    return llvm::createStringError(
        llvm::formatv("{0} is uploaded from the host but lives in LX", what));
  int64_t bytes = bound->layout().deviceBytes();
  Memory &buffer = ddrBuffer(mem, bytes);
  int64_t base = mem.getSpace() == MemorySpace::Pool ? mem.getValue() : 0;
  if (!machine.modelOnly)
    if (llvm::Error error =
            stickify(*bound, host.type, host.data.data(),
                     buffer.bytes.data() + base, 0.0, /*threads=*/1))
      return error;
  // The transfer writes real elements only: sticks holding any are the
  // tensor's, sticks of pure padding stay unwritten.
  int32_t id = machine.idOf(getBufferRoot(value), what);
  machine.tagRealSticks(*bound, buffer, base, id);
  return llvm::Error::success();
}

llvm::Expected<HostTensor> FunctionSimulator::download(Value value,
                                                       StringRef what) {
  auto type = cast<RankedTensorType>(value.getType());
  llvm::Expected<MemAttr> mem = memOf(value, what);
  if (!mem)
    return mem.takeError();
  llvm::Expected<BoundLayout> bound = bindLayout(type);
  if (!bound)
    return bound.takeError();
  FailureOr<HostType> hostType = getHostTypeOf(type);
  if (failed(hostType))
    return llvm::createStringError(
        llvm::formatv("{0} has no host element type", what));
  if (mem->getSpace() == MemorySpace::LX)
    return llvm::createStringError(
        llvm::formatv("{0} lives in LX and cannot be downloaded", what));
  // A view of a block of rows starts inside its buffer.
  int64_t window = 0;
  Value root = getBufferRoot(value, &window);
  int64_t bytes = window + bound->usedBytes();
  Memory &buffer = ddrBuffer(*mem, bytes);
  int64_t base =
      window + (mem->getSpace() == MemorySpace::Pool ? mem->getValue() : 0);
  int32_t id = machine.idOf(root, what);
  if (llvm::Error error =
          machine.checkRealSticks(*bound, buffer, base, id, what))
    return std::move(error);
  if (machine.modelOnly)
    return placeholderFor(type);
  HostTensor host(*hostType, type.getShape());
  if (llvm::Error error = unstickify(
          *bound, *hostType, buffer.bytes.data() + base, host.data.data(),
          /*threads=*/1))
    return std::move(error);
  return host;
}

/// The bytes a transfer of a device tensor of `type` moves over the host
/// link: its elements in the device format.
static int64_t transferBytes(Type type) {
  auto tensor = cast<RankedTensorType>(type);
  LayoutAttr layout = getLayoutAttr(tensor);
  FailureOr<DataFormat> format =
      layout ? layout.getFormatFor(tensor.getElementType())
             : FailureOr<DataFormat>(failure());
  int64_t bits = succeeded(format) ? deviceElementBits(*format) : 16;
  return (tensor.getNumElements() * bits + 7) / 8;
}

llvm::Error FunctionSimulator::runHostSegment(func::CallOp call,
                                              KernelRunner &runner) {
  auto module = function->getParentOfType<ModuleOp>();
  auto callee =
      module ? module.lookupSymbol<func::FuncOp>(call.getCallee()) : nullptr;
  if (!callee || !callee->hasAttr(SpyreDialect::kHostSegmentAttrName))
    return llvm::createStringError(llvm::formatv(
        "the call of @{0} at {1} is not a host segment; inline calls before "
        "compiling (--spyre-pipeline does)",
        call.getCallee(), describeLocation(call.getLoc())));
  std::vector<HostTensor> arguments;
  for (auto [i, operand] : llvm::enumerate(call.getOperands())) {
    auto host = hostValues.find(operand);
    if (host == hostValues.end())
      return llvm::createStringError(
          llvm::formatv("host segment @{0}: argument {1} is not a host tensor",
                        call.getCallee(), i));
    arguments.push_back(host->second);
  }
  HostSegmentStats stats;
  stats.name = call.getCallee().str();
  if (machine.modelOnly) {
    // Not run: its results are placeholders, its transfers still modelled.
    for (Value value : call.getResults())
      hostValues[value] = placeholderFor(value.getType());
    stats.ran = false;
    runner.recordHostSegment(stats);
    return llvm::Error::success();
  }
  auto started = std::chrono::steady_clock::now();
  auto seconds = [](auto from) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                         from)
        .count();
  };
  llvm::Expected<ReferenceProgram> program =
      ReferenceProgram::compile(module, call.getCallee());
  if (!program)
    return llvm::createStringError(
        llvm::formatv("host segment @{0}: {1}", call.getCallee(),
                      llvm::toString(program.takeError())));
  stats.compileSeconds = seconds(started);
  started = std::chrono::steady_clock::now();
  llvm::Expected<std::vector<HostTensor>> results = program->run(arguments);
  if (!results)
    return llvm::createStringError(
        llvm::formatv("host segment @{0}: {1}", call.getCallee(),
                      llvm::toString(results.takeError())));
  stats.runSeconds = seconds(started);
  for (auto [value, result] : llvm::zip(call.getResults(), *results))
    hostValues[value] = std::move(result);
  runner.recordHostSegment(stats);
  return llvm::Error::success();
}

llvm::Expected<SimResult> FunctionSimulator::run(ArrayRef<HostTensor> inputs) {
  if (function.isExternal())
    return llvm::createStringError(
        llvm::formatv("@{0} has no body to simulate", function.getName()));
  machine.modelOnly = options.modelOnly;
  // Constants without data (elided dense_resource blobs) cannot give values,
  // on the device or in a host segment.
  if (!options.modelOnly) {
    // (Every constant the function uploads is checked here, so the upload
    // below only meets elided data in --model-only runs.)
    std::string missing;
    forEachElidedConstant(function, [&](Operation *op, StringAttr,
                                        DenseResourceElementsAttr resource) {
      if (missing.empty())
        missing = llvm::formatv(
            "the constant at {0} has no data: its dense_resource blob "
            "'{1}' is not in the module (elided when the program was "
            "printed); add the blob, give --random-inputs to draw it, or "
            "run with --model-only",
            describeLocation(op->getLoc()), resource.getRawHandle().getKey());
    });
    if (!missing.empty())
      return llvm::createStringError(missing);
  }
  // Model only: no values, so placeholders stand for the inputs.
  std::vector<HostTensor> placeholders;
  if (options.modelOnly) {
    for (Type type : function.getArgumentTypes())
      placeholders.push_back(placeholderFor(type));
    inputs = placeholders;
  } else if (llvm::Error error = checkInputs(inputs)) {
    return std::move(error);
  }
  Region &body = function.getFunctionBody();
  if (!body.hasOneBlock())
    return llvm::createStringError(llvm::formatv(
        "@{0} has {1} blocks; the simulator runs straight-line functions",
        function.getName(), body.getBlocks().size()));
  Block &block = body.front();
  if (auto pool = function->getAttrOfType<IntegerAttr>(
          SpyreDialect::kPoolBytesAttrName)) {
    // The pool is one DDR address segment: never allocate more (the
    // verifier says so too; this guards unverified input).
    int64_t bytes = pool.getInt();
    int64_t limit = std::min(target.segmentBytes, target.ddrBytes);
    if (bytes < 0 || bytes > limit)
      return llvm::createStringError(llvm::formatv(
          "@{0}: spyre.pool_bytes = {1} does not fit one DDR address "
          "segment of the target ({2} bytes)",
          function.getName(), bytes, limit));
    machine.pool.resize(bytes, target.stickBytes);
  }
  machine.pool.name = "the DDR pool";

  // The host memory the run needs, before any of it is allocated: the DDR
  // pool, the host-visible buffers, the LX of every core a kernel uses, and
  // the host copies of inputs and results.
  {
    uint64_t needed = static_cast<uint64_t>(machine.pool.size());
    auto deviceBytes = [](Type type) -> uint64_t {
      auto tensor = dyn_cast<RankedTensorType>(type);
      if (!tensor || !isDeviceTensor(tensor))
        return 0;
      llvm::Expected<BoundLayout> bound = bindLayout(tensor);
      if (!bound) {
        llvm::consumeError(bound.takeError());
        return 0;
      }
      return static_cast<uint64_t>(bound->layout().deviceBytes());
    };
    for (Type type : function.getArgumentTypes())
      needed += 2 * deviceBytes(type);
    for (Type type : function.getResultTypes())
      needed += 2 * deviceBytes(type);
    int64_t cores = 0;
    function.walk([&](KernelOp kernel) {
      cores = std::max<int64_t>(cores, kernel.getNumCores());
    });
    needed +=
        static_cast<uint64_t>(cores) * static_cast<uint64_t>(target.lxBytes);
    uint64_t available = hostMemoryBytes();
    if (needed > available / 10 * 8)
      return llvm::createStringError(llvm::formatv(
          "simulating @{0} needs about {1} of host memory (the DDR pool, "
          "the tensors' buffers and {2} cores' LX of {3} each); this machine "
          "has {4}",
          function.getName(), formatBytes(needed), cores,
          formatBytes(static_cast<uint64_t>(target.lxBytes)),
          formatBytes(available)));
  }

  for (auto [i, arg] : llvm::enumerate(block.getArguments())) {
    std::string what = llvm::formatv("argument {0}", i).str();
    if (!isDeviceTensor(arg.getType())) {
      hostValues[arg] = inputs[i];
      continue;
    }
    llvm::Expected<MemAttr> mem = memOf(arg, what);
    if (!mem)
      return mem.takeError();
    if (llvm::Error error = upload(arg, inputs[i], *mem, what))
      return std::move(error);
  }

  KernelRunner runner(machine, target, options.trace);
  for (Operation &op : block) {
    if (auto kernel = dyn_cast<KernelOp>(op)) {
      if (llvm::Error error = runner.run(kernel))
        return std::move(error);
      continue;
    }
    // A view reads its root's buffer; an empty buffer is created by its
    // first writer; an in-place insert's source was written into its box.
    if (isViewOp(&op) || isa<EmptyOp>(op) || isInPlaceInsert(&op))
      continue;
    if (auto constant = dyn_cast<ConstantOp>(op)) {
      std::string what = "constant";
      FailureOr<HostType> type = getHostTypeOf(constant.getType());
      if (failed(type))
        return llvm::createStringError("a constant has no host element type");
      llvm::Expected<HostTensor> value =
          constantValue(constant.getValue(), *type);
      if (!value)
        return value.takeError();
      if (!isDeviceTensor(constant.getType())) {
        hostValues[constant.getResult()] = std::move(*value);
        continue;
      }
      llvm::Expected<MemAttr> mem = memOf(constant.getResult(), what);
      if (!mem)
        return mem.takeError();
      if (llvm::Error error = upload(constant.getResult(), *value, *mem, what))
        return std::move(error);
      continue;
    }
    if (op.hasTrait<OpTrait::ConstantLike>() && !isa<ConstantOp>(op)) {
      // A host constant (arith.constant) read by a transfer: its value is
      // the host's. Scalars are only read inside host segments, which
      // carry their own copies.
      DenseElementsAttr dense;
      if (op.getNumResults() == 1 &&
          matchPattern(op.getResult(0), m_Constant(&dense))) {
        FailureOr<HostType> type = getHostTypeOf(dense.getType());
        if (failed(type))
          return llvm::createStringError(
              llvm::formatv("a constant at {0} has no host element type",
                            describeLocation(op.getLoc())));
        llvm::Expected<HostTensor> value = constantValue(dense, *type);
        if (!value)
          return value.takeError();
        hostValues[op.getResult(0)] = std::move(*value);
      }
      continue;
    }
    if (auto toDevice = dyn_cast<ToDeviceOp>(op)) {
      auto host = hostValues.find(toDevice.getInput());
      if (host == hostValues.end()) {
        // A constant whose data is not in the module (an elided
        // dense_resource blob, as printed with --mlir-elide-resource-*).
        Operation *def = toDevice.getInput().getDefiningOp();
        auto resource = def && def->hasTrait<OpTrait::ConstantLike>() &&
                                def->getNumResults() == 1
                            ? dyn_cast_or_null<DenseResourceElementsAttr>(
                                  def->getAttr("value"))
                            : DenseResourceElementsAttr();
        if (resource && machine.modelOnly) {
          // No values are computed: a placeholder stands for its data.
          host = hostValues
                     .insert({toDevice.getInput(),
                              placeholderFor(toDevice.getInput().getType())})
                     .first;
        } else {
          return llvm::createStringError(
              llvm::formatv("spyre.to_device at {0} reads a value no host "
                            "segment or argument produced",
                            describeLocation(op.getLoc())));
        }
      }
      llvm::Expected<MemAttr> mem = memOf(toDevice.getResult(), "to_device");
      if (!mem)
        return mem.takeError();
      if (llvm::Error error =
              upload(toDevice.getResult(), host->second, *mem, "to_device"))
        return std::move(error);
      runner.recordTransfer("to_device", transferBytes(toDevice.getType()));
      continue;
    }
    if (auto fromDevice = dyn_cast<FromDeviceOp>(op)) {
      llvm::Expected<HostTensor> host =
          download(fromDevice.getInput(), "from_device");
      if (!host)
        return host.takeError();
      hostValues[fromDevice.getResult()] = std::move(*host);
      runner.recordTransfer("from_device",
                            transferBytes(fromDevice.getInput().getType()));
      continue;
    }
    if (auto call = dyn_cast<func::CallOp>(op)) {
      if (llvm::Error error = runHostSegment(call, runner))
        return std::move(error);
      continue;
    }
    if (op.hasTrait<OpTrait::IsTerminator>()) {
      for (auto [i, value] : llvm::enumerate(op.getOperands())) {
        std::string what = llvm::formatv("result {0}", i).str();
        if (isDeviceTensor(value.getType())) {
          llvm::Expected<HostTensor> host = download(value, what);
          if (!host)
            return host.takeError();
          result.outputs.push_back(std::move(*host));
          continue;
        }
        auto host = hostValues.find(value);
        if (host == hostValues.end())
          return llvm::createStringError(llvm::formatv(
              "{0} of @{1} is computed on the host ('{2}'); the simulator "
              "runs device kernels only",
              what, function.getName(),
              value.getDefiningOp()
                  ? value.getDefiningOp()->getName().getStringRef()
                  : StringRef("argument")));
        result.outputs.push_back(host->second);
      }
      continue;
    }
    // A tensor.empty is only left here when something reads its contents.
    if (isa<tensor::EmptyOp>(op))
      return llvm::createStringError(llvm::formatv(
          "the tensor.empty at {0} is read as a value, but its contents are "
          "undefined: the program has no defined result (initialize it, e.g. "
          "with linalg.fill)",
          describeLocation(op.getLoc())));
    return llvm::createStringError(llvm::formatv(
        "'{0}' at {1} is on the host outside a host segment; compile with "
        "--spyre-pipeline (which outlines what the device does not run)",
        op.getName().getStringRef(), describeLocation(op.getLoc())));
  }
  if (options.modelOnly)
    result.outputs.clear(); // placeholders, not values
  result.stats = runner.takeStats();
  result.stats.cores = target.cores;
  result.stats.ddrBytesPerSecond = target.ddrBytesPerSecond();
  // The program's compulsory traffic: every argument and device constant (a
  // weight) read once, every result written once.
  auto compulsory = [](Type type) -> int64_t {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor || !tensor.hasStaticShape())
      return 0;
    if (isDeviceTensor(tensor))
      return transferBytes(tensor);
    FailureOr<HostType> host = getHostTypeOf(tensor);
    return succeeded(host) ? tensor.getNumElements() * hostElementBytes(*host)
                           : 0;
  };
  // Only what the device reads or writes: a host tensor only host segments
  // use (an f32 matmul's operands, with the work on the host) is none of the
  // device's traffic, and the modelled time has none of that work either.
  auto reachesDevice = [](Value value) {
    return isDeviceTensor(value.getType()) ||
           llvm::any_of(value.getUsers(),
                        [](Operation *user) { return isa<ToDeviceOp>(user); });
  };
  // A tensor the program only reads boxes of (`tensor.extract_slice`:
  // views, or kernels copying the box) needs only those boxes read.
  std::function<int64_t(Value)> needed = [&](Value value) -> int64_t {
    int64_t whole = compulsory(value.getType());
    auto boxOf = [&](Operation *user) -> std::optional<Value> {
      if (isa<ExtractSliceOp>(user))
        return user->getResult(0);
      if (auto kernel = dyn_cast<KernelOp>(user);
          kernel && isa<ExtractSliceOp>(kernel.getPayload()) &&
          kernel->getOperand(0) == value)
        return kernel.getResult();
      return std::nullopt;
    };
    if (value.use_empty() || !llvm::all_of(value.getUsers(), [&](Operation *u) {
          return boxOf(u).has_value();
        }))
      return whole;
    int64_t boxes = 0;
    for (Operation *user : value.getUsers())
      boxes += needed(*boxOf(user));
    return std::min(whole, boxes);
  };
  for (BlockArgument arg : block.getArguments())
    if (reachesDevice(arg)) // (an unread `outs` is never read)
      result.stats.compulsoryBytes += isDeviceTensor(arg.getType())
                                          ? needed(arg)
                                          : compulsory(arg.getType());
  for (Value value : block.getTerminator()->getOperands())
    if (isDeviceTensor(value.getType()) || value.getDefiningOp<FromDeviceOp>())
      result.stats.compulsoryBytes += compulsory(value.getType());
  for (auto constant : block.getOps<ConstantOp>())
    if (isDeviceTensor(constant.getType()) && !constant->use_empty())
      result.stats.compulsoryBytes += needed(constant.getResult());
  // What crosses between host segments and the device is the device part's
  // input and output as much as an argument or a result is: a segment's
  // result the device reads (the packed codes of an i4 weight), moved up
  // once; a device value a segment reads and the function does not return,
  // moved down once.
  for (auto toDevice : block.getOps<ToDeviceOp>())
    if (toDevice.getInput().getDefiningOp<func::CallOp>())
      result.stats.compulsoryBytes += needed(toDevice.getResult());
  for (auto fromDevice : block.getOps<FromDeviceOp>())
    if (llvm::any_of(fromDevice->getUsers(),
                     [](Operation *user) { return isa<func::CallOp>(user); }) &&
        llvm::none_of(fromDevice->getUsers(), [](Operation *user) {
          return isa<func::ReturnOp>(user);
        }))
      result.stats.compulsoryBytes += compulsory(fromDevice.getType());
  if (options.trace)
    result.trace = runner.takeTrace();
  return std::move(result);
}

} // namespace

double SimStats::programRoofline() const {
  double ddr = ddrBytesPerSecond > 0
                   ? static_cast<double>(compulsoryBytes) / ddrBytesPerSecond
                   : 0;
  return std::max(ddr, computeFloor);
}

llvm::Expected<SimResult>
mlir::spyre::sim::simulate(FunctionOpInterface function,
                           ArrayRef<HostTensor> inputs,
                           const SimOptions &options) {
  ScopedSen169Numerics numerics(options.numerics);
  FunctionSimulator simulator(function, options);
  return simulator.run(inputs);
}

//===----------------------------------------------------------------------===//
// Reports
//===----------------------------------------------------------------------===//

std::string mlir::spyre::sim::formatStats(const SimStats &stats) {
  std::string text;
  llvm::raw_string_ostream os(text);
  std::string header = llvm::formatv(
      "{0,-22} {1,5} {2,11} {3,11} {4,11} {5,12} {6,7} {7,-6}", "kernel",
      "cores", "time us", "DDR MB", "GFLOP", "roofline us", "util", "bound");
  os << header << "\n" << std::string(header.size(), '-') << "\n";
  for (const KernelStats &k : stats.kernels)
    os << llvm::formatv(
        "{0,-22} {1,5} {2,11:f2} {3,11:f3} {4,11:f4} {5,12:f2} {6,6:f1}% "
        "{7,-6}\n",
        k.name, k.cores, k.seconds * 1e6, k.ddrBytes / 1e6, k.flops / 1e9,
        k.roofline * 1e6, k.utilisation() * 100, k.bottleneck);
  for (const TransferStats &t : stats.transfers)
    os << llvm::formatv("{0,-22} {1,5} {2,11:f2} {3,11:f3}   (host link)\n",
                        t.what, "", t.seconds * 1e6, t.bytes / 1e6);
  os << std::string(header.size(), '-') << "\n";
  os << llvm::formatv(
      "{0,-22} {1,5} {2,11:f2} {3,11:f3} {4,11:f4} {5,12:f2} {6,6:f1}%\n",
      "total (per kernel)", stats.cores, stats.seconds * 1e6,
      stats.ddrBytes / 1e6, stats.flops / 1e9, stats.roofline * 1e6,
      stats.utilisation() * 100);
  os << llvm::formatv(
      "{0,-22} {1,5} {2,11} {3,11:f3} {4,11} {5,12:f2} {6,6:f1}%\n",
      "program (compulsory)", "", "", stats.compulsoryBytes / 1e6, "",
      stats.programRoofline() * 1e6, stats.programUtilisation() * 100);
  // (A program with no device kernels has nothing to measure.)
  if (!stats.kernels.empty())
    os << llvm::formatv("DDR traffic {0:f2}x the compulsory {1:f3} MB; "
                        "program utilisation {2:f1}% (its inputs and outputs "
                        "moved once, or its work at peak, over the modelled "
                        "time)\n",
                        stats.trafficRatio(), stats.compulsoryBytes / 1e6,
                        stats.programUtilisation() * 100);
  for (const HostSegmentStats &h : stats.hostSegments) {
    if (!h.ran) {
      os << llvm::formatv("host segment @{0}: not run (model only)\n", h.name);
      continue;
    }
    os << llvm::formatv("host segment @{0}: {1:f3} ms wall time on this "
                        "machine ({2:f1} ms to compile)\n",
                        h.name, h.runSeconds * 1e3, h.compileSeconds * 1e3);
  }
  return text;
}

llvm::json::Value mlir::spyre::sim::statsToJson(const SimStats &stats) {
  llvm::json::Array kernels;
  for (const KernelStats &k : stats.kernels)
    kernels.push_back(llvm::json::Object{{"name", k.name},
                                         {"opfunc", k.opFunc},
                                         {"unit", k.unit},
                                         {"cores", k.cores},
                                         {"launches", k.launches},
                                         {"seconds", k.seconds},
                                         {"dma_seconds", k.dmaSeconds},
                                         {"compute_seconds", k.computeSeconds},
                                         {"combine_seconds", k.combineSeconds},
                                         {"ddr_bytes", k.ddrBytes},
                                         {"ring_bytes", k.ringBytes},
                                         {"flops", k.flops},
                                         {"roofline_seconds", k.roofline},
                                         {"utilisation", k.utilisation()},
                                         {"bottleneck", k.bottleneck}});
  llvm::json::Array segments, transfers;
  for (const HostSegmentStats &h : stats.hostSegments)
    segments.push_back(
        llvm::json::Object{{"name", h.name},
                           {"ran", h.ran},
                           {"wall_seconds", h.runSeconds},
                           {"compile_seconds", h.compileSeconds}});
  for (const TransferStats &t : stats.transfers)
    transfers.push_back(llvm::json::Object{
        {"what", t.what}, {"bytes", t.bytes}, {"seconds", t.seconds}});
  llvm::json::Object program{{"compulsory_ddr_bytes", stats.compulsoryBytes},
                             {"flops", stats.flops},
                             {"compute_floor_seconds", stats.computeFloor},
                             {"roofline_seconds", stats.programRoofline()},
                             {"utilisation", stats.programUtilisation()},
                             {"ddr_traffic_ratio", stats.trafficRatio()}};
  return llvm::json::Object{{"schema", "spyre-stats"},
                            {"schema_version", kStatsSchemaVersion},
                            {"seconds", stats.seconds},
                            {"program", std::move(program)},
                            {"host_segments", std::move(segments)},
                            {"transfers", std::move(transfers)},
                            {"ddr_bytes", stats.ddrBytes},
                            {"flops", stats.flops},
                            {"kernel_roofline_seconds", stats.roofline},
                            {"kernel_utilisation", stats.utilisation()},
                            {"cores", stats.cores},
                            {"kernels", std::move(kernels)}};
}
