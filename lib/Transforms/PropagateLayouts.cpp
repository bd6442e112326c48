//===- PropagateLayouts.cpp - --spyre-propagate-layouts
//--------------------===//
//
// Gives every tensor of a function a `#spyre.layout`, choosing the stick of
// every value for the whole function at once:
//
//  1. The function's spyre ops become a stick-assignment problem (see
//     Spyre/Analysis/StickAssignment.h): each op's configurations come from
//     its stick rule (StickRules.h) through its indexing maps; views pass a
//     stick through; host values read by spyre ops become uploads free to
//     take any layout; arguments are fixed; results are free unless fixed.
//  2. The problem is solved (exactly when small, beam search refined by
//     local improvement otherwise).
//  3. The solution is materialised: result types get layouts, one
//     spyre.restickify per (value, required stick), spyre.to_device for
//     uploads, spyre.from_device for host readers, and the function
//     signature and call sites are updated.
//
//===----------------------------------------------------------------------===//

#include "Spyre/Analysis/StickAssignment.h"
#include "Spyre/Dialect/Spyre/IR/StickRules.h"
#include "Spyre/Transforms/Passes.h"

#include "Spyre/Transforms/Utils.h"
#include <limits>

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Verifier.h"

namespace mlir::spyre {
/// A reshape copied through the host costs this many times its elements (a
/// device restickify costs its elements once: the host link is slower than
/// the DDR, and the data crosses it twice), plus a fixed cost that keeps it
/// the last resort: chosen only when no device layouts make the reshape a
/// view (a host round trip stops the device).
constexpr int64_t kHostReshapeCostFactor = 16;
constexpr int64_t kHostReshapeFixedCost = int64_t(1) << 40;
#define GEN_PASS_DEF_SPYREPROPAGATELAYOUTS
#include "Spyre/Transforms/Passes.h.inc"
} // namespace mlir::spyre

using namespace mlir;
using namespace mlir::spyre;
using stick::Key;

namespace {

/// Ops whose tensors live on the device and get layouts from this pass.
bool isDeviceOp(Operation *op) {
  return isa<ComputeOpInterface, TransposeOp, ReshapeOp, ConstantOp, EmptyOp>(
      op);
}

/// The host dim of `type` that op dim `opDim` indexes through `map`.
Key hostKey(int opDim, AffineMap map) {
  if (opDim == kAnyStick)
    return stick::kAny;
  if (opDim == kSparseStick)
    return stick::kSparse;
  // `dN`, or `dN floordiv q` (a quantized part's packed or scaled dim).
  for (auto [h, expr] : llvm::enumerate(map.getResults()))
    if (getOpDimOf(expr) == opDim)
      return static_cast<Key>(h);
  return stick::kAny;
}

/// The stick key of a laid-out tensor type.
FailureOr<Key> keyOf(RankedTensorType type) {
  llvm::Expected<BoundLayout> bound = bindLayout(type);
  if (!bound) {
    llvm::consumeError(bound.takeError());
    return failure();
  }
  int h = bound->stickHostDim();
  return h < 0 ? stick::kSparse : static_cast<Key>(h);
}

class FunctionPropagation {
public:
  FunctionPropagation(func::FuncOp function, int64_t stickBytes,
                      const stick::SolveOptions &options, ArgLayouts argLayouts)
      : function(function), stickBytes(stickBytes), options(options),
        argLayouts(argLayouts), builder(function.getContext()) {}

  /// Runs on the function; returns failure after emitting diagnostics.
  LogicalResult run();

private:
  LogicalResult layOutArguments();
  bool isFreeArgument(BlockArgument arg, DictionaryAttr attrs);
  bool isHostOnlyArgument(BlockArgument arg, DictionaryAttr attrs);
  int addValue(Value value, int producer, int result);
  FailureOr<int> valueFor(Value value, Operation *user);
  /// The layouts a value produced at will (a free argument, an upload) may
  /// take, the default one first and free, the others at what they cost.
  FailureOr<SmallVector<stick::Config>>
  sourceConfigs(RankedTensorType type,
                function_ref<InFlightDiagnostic()> error);
  LogicalResult addNode(Operation *op);
  LogicalResult materialize(const stick::Solution &solution);
  FailureOr<Value> withKey(int valueId, Key key, Operation *user,
                           unsigned operandIndex);
  FailureOr<LayoutAttr> layoutFor(RankedTensorType type, Key key, Location loc);
  FailureOr<LayoutAttr> layoutForReaders(Value value, RankedTensorType type,
                                         Key key);
  LogicalResult reshapeOnHost(ReshapeOp op, Value input, int resultId,
                              StringRef why);
  LogicalResult finishBoundary();

  func::FuncOp function;
  int64_t stickBytes;
  stick::SolveOptions options;
  ArgLayouts argLayouts;
  /// Reshapes replaced by a host round trip, erased once materialized.
  SmallVector<Operation *> hostReshapes;
  OpBuilder builder;

  stick::Problem problem;
  /// IR value of each problem value (the host value for uploads).
  SmallVector<Value> irValues;
  DenseMap<Value, int> valueIds;
  /// The op of each node (nullptr for uploads).
  SmallVector<Operation *> nodeOps;
  /// Upload nodes: the op before which the to_device goes.
  DenseMap<int, Operation *> uploadSites;
  /// Arguments whose layout the solution chooses: node -> argument number.
  DenseMap<int, unsigned> freeArguments;
  /// Boundary: the arguments' types before and after, fixed result layouts.
  SmallVector<Type> originalArgumentTypes;
  SmallVector<Type> argumentTypes;
  SmallVector<LayoutAttr> fixedResults;

  /// Candidate layouts and their sizes, per (host tensor type, key): a model
  /// has few distinct tensor types, so each is built once.
  DenseMap<std::pair<Type, Key>, std::optional<LayoutAttr>> layoutCache;
  DenseMap<std::pair<Type, Key>, int64_t> elementCache;
  std::optional<LayoutAttr> candidateLayout(RankedTensorType hostType, Key key);
  int64_t candidateElements(RankedTensorType hostType, Key key);

  /// Materialisation state.
  SmallVector<Value> deviceValues; ///< per problem value
  std::vector<Key> keys;
  DenseMap<std::pair<int, Key>, Value> restickified;
};

} // namespace

//===----------------------------------------------------------------------===//
// Building the problem
//===----------------------------------------------------------------------===//

std::optional<LayoutAttr>
FunctionPropagation::candidateLayout(RankedTensorType hostType, Key key) {
  auto [it, inserted] = layoutCache.try_emplace({hostType, key});
  if (inserted) {
    llvm::Expected<LayoutAttr> layout =
        getLayoutWithStick(hostType, key, stickBytes);
    if (layout)
      it->second = *layout;
    else
      llvm::consumeError(layout.takeError());
  }
  return it->second;
}

int64_t FunctionPropagation::candidateElements(RankedTensorType hostType,
                                               Key key) {
  auto [it, inserted] = elementCache.try_emplace({hostType, key});
  if (inserted) {
    it->second = stick::kInfeasible;
    if (std::optional<LayoutAttr> layout = candidateLayout(hostType, key)) {
      llvm::Expected<SpyreTensorLayout> stl =
          layout->getLayout(hostType.getElementType());
      if (stl)
        it->second = stl->numDeviceElements();
      else
        llvm::consumeError(stl.takeError());
    }
  }
  return it->second;
}

FailureOr<LayoutAttr> FunctionPropagation::layoutFor(RankedTensorType type,
                                                     Key key, Location loc) {
  if (std::optional<LayoutAttr> cached = candidateLayout(type, key))
    return *cached;
  llvm::Expected<LayoutAttr> layout = getLayoutWithStick(type, key, stickBytes);
  if (!layout) {
    emitError(loc) << "cannot lay out " << withoutLayout(type) << ": "
                   << llvm::toString(layout.takeError());
    return failure();
  }
  return *layout;
}

/// The layout laid-out `type` shows through a transpose by `perm` (the same
/// device bytes).
static llvm::Expected<LayoutAttr> transposedLayout(RankedTensorType type,
                                                   ArrayRef<int64_t> perm) {
  llvm::Expected<BoundLayout> bound = bindLayout(type);
  if (!bound)
    return bound.takeError();
  llvm::Expected<SpyreTensorLayout> view = transposeView(*bound, perm);
  if (!view)
    return view.takeError();
  return LayoutAttr::get(type.getContext(), *view, type.getElementType());
}

/// `layout` of host tensor `from` seen through `view` (a reshape or a
/// transpose), as a tensor of shape `to`: forwards (`from` is the view's
/// input) or, with `backwards`, the input's layout the view shows as
/// `layout` of its result `from`.
static FailureOr<LayoutAttr> seenThrough(Operation *view, RankedTensorType from,
                                         LayoutAttr layout,
                                         ArrayRef<int64_t> to, bool backwards) {
  if (isa<ReshapeOp>(view))
    return reshapeViewLayout(withLayout(from, layout), to);
  SmallVector<int64_t> perm(cast<TransposeOp>(view).getPermutation());
  if (backwards)
    for (auto [i, p] :
         llvm::enumerate(cast<TransposeOp>(view).getPermutation()))
      perm[p] = static_cast<int64_t>(i);
  llvm::Expected<LayoutAttr> transposed =
      transposedLayout(withLayout(from, layout), perm);
  if (!transposed) {
    llvm::consumeError(transposed.takeError());
    return failure();
  }
  return *transposed;
}

FailureOr<LayoutAttr>
FunctionPropagation::layoutForReaders(Value value, RankedTensorType type,
                                      Key key) {
  FailureOr<LayoutAttr> fallback = layoutFor(type, key, value.getLoc());
  if (failed(fallback))
    return failure();
  // The views the device reads the value through, one after another, each
  // the only way the value before it is read (several equal views count as
  // one): torch-mlir's [batch * seq, heads * dim] projection read as
  // [batch, seq, heads, dim], transposed to [batch, heads, seq, dim] and
  // merged to [batch * heads, seq, dim] for a batch matmul.
  SmallVector<Operation *> chain;
  Value current = value;
  while (true) {
    Operation *next = nullptr;
    for (Operation *user : current.getUsers()) {
      if (!isDeviceOp(user))
        continue;
      if (!isa<ReshapeOp, TransposeOp>(user) ||
          (next &&
           (next->getName() != user->getName() ||
            next->getResult(0).getType() != user->getResult(0).getType() ||
            next->getAttrDictionary() != user->getAttrDictionary()))) {
        next = nullptr;
        break;
      }
      next = user;
    }
    if (!next)
      break;
    chain.push_back(next);
    current = next->getResult(0);
  }
  // A device op must compute with what the views show (a result only
  // returned may take any layout: the caller unstickifies it).
  if (llvm::none_of(current.getUsers(),
                    [](Operation *u) { return isDeviceOp(u); }))
    return *fallback;
  // Only the chain up to its last reshape that merges dims: read split
  // ([24, ...] as [2, 12, ...]) the value keeps its own default.
  while (!chain.empty()) {
    auto reshape = dyn_cast<ReshapeOp>(chain.back());
    if (reshape &&
        cast<RankedTensorType>(reshape.getType()).getRank() <
            cast<RankedTensorType>(reshape.getInput().getType()).getRank())
      break;
    chain.pop_back();
  }
  if (chain.empty())
    return *fallback;
  SmallVector<RankedTensorType> types = {type};
  for (Operation *view : chain)
    types.push_back(
        withoutLayout(cast<RankedTensorType>(view->getResult(0).getType())));
  // The sticks of every link when the value has layout `start`.
  auto keysThrough = [&](LayoutAttr start) -> FailureOr<SmallVector<Key>> {
    SmallVector<Key> keys;
    LayoutAttr seen = start;
    for (auto [i, view] : llvm::enumerate(chain)) {
      FailureOr<LayoutAttr> next = seenThrough(
          view, types[i], seen, types[i + 1].getShape(), /*backwards=*/false);
      if (failed(next))
        return failure();
      FailureOr<Key> k = keyOf(withLayout(types[i + 1], *next));
      if (failed(k))
        return failure();
      keys.push_back(*k);
      seen = *next;
    }
    return keys;
  };
  // The default layout seen through the chain: the sticks the plan expects
  // at every link.
  FailureOr<SmallVector<Key>> expected = keysThrough(*fallback);
  if (failed(expected))
    return *fallback;
  // Laid out as the last view's tensor would be by default, seen back at
  // the value's shape: the dims the last reshape merges stay adjacent in
  // device memory, one device dim of the merged tensor (a row group can cut
  // it), not two the value's default layout puts apart. Taken only when it
  // has the planned sticks everywhere and no more padding.
  std::optional<LayoutAttr> wanted =
      candidateLayout(types.back(), expected->back());
  if (!wanted)
    return *fallback;
  LayoutAttr back = *wanted;
  for (size_t i = chain.size(); i-- > 0;) {
    FailureOr<LayoutAttr> previous =
        seenThrough(chain[i], types[i + 1], back, types[i].getShape(),
                    /*backwards=*/true);
    if (failed(previous))
      return *fallback;
    back = *previous;
  }
  FailureOr<SmallVector<Key>> keys = keysThrough(back);
  if (failed(keys) || *keys != *expected)
    return *fallback;
  FailureOr<Key> backKey = keyOf(withLayout(type, back));
  llvm::Expected<SpyreTensorLayout> stl = back.getLayout(type.getElementType());
  if (!stl) {
    llvm::consumeError(stl.takeError());
    return *fallback;
  }
  llvm::Expected<SpyreTensorLayout> base =
      fallback->getLayout(type.getElementType());
  if (!base) {
    llvm::consumeError(base.takeError());
    return *fallback;
  }
  // The same bytes: keep the default's form (its size-1 dims).
  if (sameDeviceBytes(*base, *stl) || failed(backKey) || *backKey != key ||
      stl->numDeviceElements() > candidateElements(type, key))
    return *fallback;
  return back;
}

int FunctionPropagation::addValue(Value value, int producer, int result) {
  stick::Value v;
  v.producer = producer;
  v.result = result;
  auto type = cast<RankedTensorType>(value.getType());
  // Elements a restickify moves, per layout the value could have.
  auto elements = [&](Key key) -> int64_t {
    return candidateElements(withoutLayout(type), key);
  };
  v.elements[0] = elements(stick::kSparse);
  for (int h = 0; h < type.getRank(); ++h)
    v.elements[h + 1] = elements(h);
  if (LayoutAttr fixed = getLayoutAttr(type)) {
    // A value whose layout is already given: its actual size.
    if (llvm::Expected<BoundLayout> bound = bindLayout(type)) {
      int h = bound->stickHostDim();
      v.elements[h + 1] = bound->layout().numDeviceElements();
    } else {
      llvm::consumeError(bound.takeError());
    }
  }
  int id = static_cast<int>(problem.values.size());
  problem.values.push_back(v);
  irValues.push_back(value);
  valueIds[value] = id;
  return id;
}

/// Whether the propagation chooses `arg`'s layout: arg-layouts=auto, a
/// static host tensor with a device format and no layout attribute.
bool FunctionPropagation::isFreeArgument(BlockArgument arg,
                                         DictionaryAttr attrs) {
  if (argLayouts != ArgLayouts::Auto)
    return false;
  auto type = dyn_cast<RankedTensorType>(arg.getType());
  if (!type || !type.hasStaticShape() || isDeviceTensor(type) ||
      (attrs && (attrs.get(SpyreDialect::kLayoutAttrName) ||
                 attrs.get(SpyreDialect::kDimOrderAttrName))))
    return false;
  // Only arguments read by device ops: what the host reads stays as it is.
  if (llvm::none_of(arg.getUsers(),
                    [](Operation *user) { return isDeviceOp(user); }))
    return false;
  return static_cast<bool>(candidateLayout(
      type, type.getRank() > 0 ? type.getRank() - 1 : stick::kSparse));
}

/// Whether `arg` stays on the host: read by host ops only (what the device
/// does not run), with no layout asked for. It is not transferred to the
/// card, as a runtime with a CPU fallback keeps it where it is.
bool FunctionPropagation::isHostOnlyArgument(BlockArgument arg,
                                             DictionaryAttr attrs) {
  auto type = dyn_cast<RankedTensorType>(arg.getType());
  if (!type || isDeviceTensor(type) || arg.use_empty() ||
      (attrs && (attrs.get(SpyreDialect::kLayoutAttrName) ||
                 attrs.get(SpyreDialect::kDimOrderAttrName))))
    return false;
  return llvm::none_of(arg.getUsers(), [](Operation *user) {
    return isDeviceOp(user) || isa<ToDeviceOp>(user);
  });
}

LogicalResult FunctionPropagation::layOutArguments() {
  Block &entry = function.front();
  for (BlockArgument arg : entry.getArguments())
    originalArgumentTypes.push_back(arg.getType());
  for (auto [i, arg] : llvm::enumerate(entry.getArguments())) {
    if (isFreeArgument(arg, function.getArgAttrDict(i)) ||
        isHostOnlyArgument(arg, function.getArgAttrDict(i))) {
      argumentTypes.push_back(arg.getType()); // set once solved, or host
      continue;
    }
    FailureOr<Type> type =
        layOutBoundaryType(arg.getType(), function.getArgAttrDict(i),
                           stickBytes, [&, i = i, arg = arg] {
                             return emitError(arg.getLoc())
                                    << "argument #" << i << " of @"
                                    << function.getSymName() << ": ";
                           });
    if (failed(type))
      return failure();
    argumentTypes.push_back(*type);
  }
  for (unsigned i = 0; i < function.getNumResults(); ++i) {
    Type resultType = function.getResultTypes()[i];
    DictionaryAttr attrs = function.getResultAttrDict(i);
    bool fixed = isDeviceTensor(resultType) ||
                 (attrs && (attrs.get(SpyreDialect::kLayoutAttrName) ||
                            attrs.get(SpyreDialect::kDimOrderAttrName)));
    LayoutAttr layout;
    if (fixed) {
      FailureOr<Type> type =
          layOutBoundaryType(resultType, attrs, stickBytes, [&] {
            return function.emitError() << "result #" << i << " of @"
                                        << function.getSymName() << ": ";
          });
      if (failed(type))
        return failure();
      layout = getLayoutAttr(*type);
    }
    fixedResults.push_back(layout);
  }
  // Arguments read by spyre ops are fixed values of the problem, or free
  // ones: a node that produces the argument in any layout at no cost.
  for (auto [i, arg] : llvm::enumerate(entry.getArguments())) {
    auto type = dyn_cast<RankedTensorType>(argumentTypes[i]);
    if (type && isFreeArgument(arg, function.getArgAttrDict(i))) {
      int node = static_cast<int>(problem.nodes.size());
      stick::Node source;
      source.results.push_back(addValue(arg, node, 0));
      FailureOr<SmallVector<stick::Config>> configs = sourceConfigs(type, [&] {
        return emitError(arg.getLoc()) << "argument #" << i << ": ";
      });
      if (failed(configs))
        return failure();
      source.configs = std::move(*configs);
      problem.nodes.push_back(source);
      nodeOps.push_back(nullptr);
      freeArguments[node] = static_cast<unsigned>(i);
      continue;
    }
    if (!type || !isDeviceTensor(type))
      continue;
    int id = addValue(arg, -1, 0);
    FailureOr<Key> key = keyOf(type);
    if (failed(key))
      return emitError(arg.getLoc())
             << "argument #" << i << " has a layout that does not bind";
    problem.values[id].fixedKey = *key;
  }
  return success();
}

FailureOr<SmallVector<stick::Config>>
FunctionPropagation::sourceConfigs(RankedTensorType type,
                                   function_ref<InFlightDiagnostic()> error) {
  // The default layout first: ties keep it.
  SmallVector<Key> candidates;
  FailureOr<Type> defaultType = layOutBoundaryType(type, {}, stickBytes, error);
  if (failed(defaultType))
    return failure();
  FailureOr<Key> defaultKey = keyOf(cast<RankedTensorType>(*defaultType));
  if (succeeded(defaultKey))
    candidates.push_back(*defaultKey);
  for (Key key = type.getRank() > 0 ? 0 : stick::kSparse; key < type.getRank();
       ++key)
    if (!llvm::is_contained(candidates, key) && candidateLayout(type, key))
      candidates.push_back(key);
  // The default layout is free. Another costs what its padding adds, plus
  // half the tensor: the cost model counts restickified elements only, so a
  // layout change must save at least a restickify of half the tensor's size
  // (a weight read transposed saves all of it) rather than trade its whole
  // layout for a few small row statistics, whose kernels the count does not
  // see - or pad a dim of 2 to a whole stick for nothing.
  SmallVector<stick::Config> configs;
  if (candidates.empty())
    return configs;
  int64_t base = candidateElements(type, candidates.front());
  for (auto [index, key] : llvm::enumerate(candidates)) {
    stick::Config config;
    config.results.push_back(key);
    int64_t elements = candidateElements(type, key);
    config.cost =
        index == 0 ? 0 : std::max<int64_t>(elements - base, 0) + elements / 2;
    configs.push_back(config);
  }
  return configs;
}

FailureOr<int> FunctionPropagation::valueFor(Value value, Operation *user) {
  // Reading a device value back through from_device: use it directly.
  if (auto fromDevice = value.getDefiningOp<FromDeviceOp>())
    value = fromDevice.getInput();
  auto it = valueIds.find(value);
  if (it != valueIds.end())
    return it->second;
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || !type.hasStaticShape())
    return user->emitOpError("operand of type ")
           << value.getType() << " cannot be moved to the device";
  if (isDeviceTensor(type)) {
    // A device value made elsewhere (e.g. an existing to_device): fixed.
    int id = addValue(value, -1, 0);
    FailureOr<Key> key = keyOf(type);
    if (failed(key))
      return user->emitOpError("operand layout does not bind");
    problem.values[id].fixedKey = *key;
    return id;
  }
  // A host value: an upload node free to choose its layout, the default
  // one unless another saves more than it costs.
  int node = static_cast<int>(problem.nodes.size());
  stick::Node upload;
  int id = addValue(value, node, 0);
  upload.results.push_back(id);
  FailureOr<SmallVector<stick::Config>> configs =
      sourceConfigs(type, [&] { return user->emitOpError("operand: "); });
  if (failed(configs))
    return failure();
  upload.configs = std::move(*configs);
  problem.nodes.push_back(upload);
  nodeOps.push_back(nullptr);
  uploadSites[node] = user;
  return id;
}

LogicalResult FunctionPropagation::addNode(Operation *op) {
  stick::Node node;
  for (Value operand : op->getOperands()) {
    FailureOr<int> id = valueFor(operand, op);
    if (failed(id))
      return failure();
    node.inputs.push_back(*id);
  }
  int index = static_cast<int>(problem.nodes.size());
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  int rank = static_cast<int>(resultType.getRank());

  if (auto compute = dyn_cast<ComputeOpInterface>(op)) {
    SmallVector<AffineMap> maps = compute.getIndexingMapsArray();
    for (const StickConfig &rule : getStickConfigs(compute)) {
      stick::Config config;
      for (auto [i, opDim] : llvm::enumerate(rule.inputs))
        config.inputs.push_back(hostKey(opDim, maps[i]));
      config.results.push_back(rank == 0 ? stick::kSparse
                                         : hostKey(rule.result, maps.back()));
      if (config.results[0] == stick::kAny)
        continue;
      node.configs.push_back(config);
    }
  } else if (auto transpose = dyn_cast<TransposeOp>(op)) {
    // A view: the stick follows the permutation.
    ArrayRef<int64_t> perm = transpose.getPermutation();
    for (Key key = stick::kSparse; key < rank; ++key) {
      stick::Config config;
      config.inputs.push_back(key);
      config.results.push_back(
          key < 0 ? key
                  : static_cast<Key>(llvm::find(perm, key) - perm.begin()));
      node.configs.push_back(config);
    }
  } else if (auto reshape = dyn_cast<ReshapeOp>(op)) {
    // A view when the layout survives the reshape, else a copy into any
    // layout of the new shape.
    auto inputType = cast<RankedTensorType>(reshape.getInput().getType());
    int64_t inputRank = inputType.getRank();
    for (Key key = stick::kSparse; key < inputRank; ++key) {
      std::optional<LayoutAttr> layout =
          candidateLayout(withoutLayout(inputType), key);
      if (!layout)
        continue;
      std::optional<Key> viewKey =
          reshapeViewKey(inputType, *layout, resultType.getShape());
      if (!viewKey)
        continue;
      stick::Config config;
      config.inputs.push_back(key);
      config.results.push_back(*viewKey);
      node.configs.push_back(config);
    }
    // Else a copy through the host into any layout of the new shape: the
    // input goes out as it is and comes back in the layout its readers
    // need. Far dearer than a device restickify (the host link, twice), so
    // chosen only when no view works.
    int64_t elements = inputType.getNumElements();
    for (Key key = stick::kSparse; key < resultType.getRank(); ++key) {
      stick::Config config;
      config.inputs.push_back(stick::kAny);
      config.results.push_back(key);
      config.cost = kHostReshapeFixedCost +
                    kHostReshapeCostFactor * std::max<int64_t>(elements, 1);
      node.configs.push_back(config);
    }
  } else {
    // Constants: uploaded in whatever layout suits the readers.
    for (Key key = rank > 0 ? 0 : stick::kSparse; key < rank; ++key) {
      stick::Config config;
      for (size_t i = 0; i < node.inputs.size(); ++i)
        config.inputs.push_back(stick::kAny);
      config.results.push_back(key);
      node.configs.push_back(config);
    }
  }
  // A configuration needing a sparse input that can never be sparse would
  // only ever cost an impossible conversion: drop it (unless nothing else is
  // left, so the infeasibility is still diagnosed).
  auto maySparse = [&](int id) {
    const stick::Value &v = problem.values[id];
    if (v.producer < 0)
      return v.fixedKey == stick::kSparse;
    for (const stick::Config &c : problem.nodes[v.producer].configs)
      if (c.results[v.result] == stick::kSparse)
        return true;
    return false;
  };
  SmallVector<stick::Config, 4> feasible;
  for (const stick::Config &config : node.configs) {
    bool possible = true;
    for (auto [i, key] : llvm::enumerate(config.inputs))
      if (key == stick::kSparse && !maySparse(node.inputs[i]))
        possible = false;
    if (possible)
      feasible.push_back(config);
  }
  if (!feasible.empty())
    node.configs = std::move(feasible);
  // A result that already has a layout keeps it.
  if (isDeviceTensor(resultType)) {
    FailureOr<Key> fixed = keyOf(resultType);
    if (succeeded(fixed))
      llvm::erase_if(node.configs, [&](const stick::Config &config) {
        return config.results[0] != *fixed;
      });
  }
  if (node.configs.empty())
    return op->emitOpError("has no supported layout for its result ")
           << withoutLayout(resultType);
  node.results.push_back(addValue(op->getResult(0), index, 0));
  problem.nodes.push_back(node);
  nodeOps.push_back(op);
  return success();
}

//===----------------------------------------------------------------------===//
// Materialising the solution
//===----------------------------------------------------------------------===//

/// The value `valueId` with stick `key` for `user`'s operand: the value
/// itself, or one restickify per (value, key) placed before the first user.
FailureOr<Value> FunctionPropagation::withKey(int valueId, Key key,
                                              Operation *user,
                                              unsigned operandIndex) {
  Value value = deviceValues[valueId];
  if (key == stick::kAny || key == keys[valueId])
    return value;
  auto it = restickified.find({valueId, key});
  if (it != restickified.end())
    return it->second;
  auto type = cast<RankedTensorType>(value.getType());
  auto describe = [](Key k) {
    return k == stick::kSparse ? std::string("sparse (one value per stick)")
                               : "sticked on host dim " + std::to_string(k);
  };
  if (!stick::canRestickify(keys[valueId], key))
    return user->emitOpError("cannot restickify input #")
           << operandIndex << ": it is " << describe(keys[valueId])
           << " but the op needs it " << describe(key)
           << "; sparse and dense layouts cannot be converted into one "
              "another";
  llvm::Expected<BoundLayout> bound = bindLayout(type);
  if (!bound)
    return user->emitOpError("input #")
           << operandIndex << ": " << llvm::toString(bound.takeError());
  llvm::Expected<SpyreTensorLayout> target = restickifyTarget(*bound, key);
  if (!target) {
    // Layouts that are not generic stick layouts (e.g. fixed arguments):
    // go to the canonical layout with that stick instead.
    llvm::consumeError(target.takeError());
    FailureOr<LayoutAttr> layout =
        layoutFor(withoutLayout(type), key, user->getLoc());
    if (failed(layout))
      return failure();
    target = layout->getLayout(type.getElementType());
    if (!target)
      return user->emitOpError(llvm::toString(target.takeError()));
  }
  builder.setInsertionPoint(user);
  Value result = RestickifyOp::create(
      builder, user->getLoc(),
      withLayout(type, LayoutAttr::get(builder.getContext(), *target,
                                       type.getElementType())),
      value);
  restickified[{valueId, key}] = result;
  return result;
}

LogicalResult
FunctionPropagation::materialize(const stick::Solution &solution) {
  keys = stick::valueKeys(problem, solution.configs);
  deviceValues.assign(irValues.begin(), irValues.end());
  for (auto [id, value] : llvm::enumerate(problem.values))
    if (value.producer < 0)
      deviceValues[id].setType(
          argumentTypes.empty() || !isa<BlockArgument>(irValues[id])
              ? irValues[id].getType()
              : argumentTypes[cast<BlockArgument>(irValues[id])
                                  .getArgNumber()]);

  for (auto [n, node] : llvm::enumerate(problem.nodes)) {
    const stick::Config &config = node.configs[solution.configs[n]];
    Operation *op = nodeOps[n];
    int resultId = node.results[0];
    if (auto free = freeArguments.find(static_cast<int>(n));
        free != freeArguments.end()) {
      // An argument in the chosen layout: the upload stickifies into it.
      BlockArgument arg = function.getArgument(free->second);
      auto type = cast<RankedTensorType>(arg.getType());
      FailureOr<LayoutAttr> layout =
          layoutForReaders(arg, type, keys[resultId]);
      if (failed(layout))
        return failure();
      argumentTypes[free->second] = withLayout(type, *layout);
      arg.setType(argumentTypes[free->second]);
      deviceValues[resultId] = arg;
      continue;
    }
    if (!op) {
      // Upload a host value.
      Value host = irValues[resultId];
      auto type = cast<RankedTensorType>(host.getType());
      FailureOr<LayoutAttr> layout =
          layoutFor(type, keys[resultId], host.getLoc());
      if (failed(layout))
        return failure();
      builder.setInsertionPoint(uploadSites[static_cast<int>(n)]);
      deviceValues[resultId] = ToDeviceOp::create(
          builder, host.getLoc(), withLayout(type, *layout), host);
      continue;
    }
    // A reshape whose input cannot take the stick it needs (sparse and
    // dense layouts do not convert), or that would still move data, runs on
    // the host: an explicit transfer out, the reshape, a transfer back.
    if (auto reshape = dyn_cast<ReshapeOp>(op)) {
      int inputId = node.inputs[0];
      Key want = config.inputs[0];
      StringRef viaHost;
      if (want == stick::kAny) {
        viaHost = "no layout of its input is a view of its result the "
                  "device could use";
      } else if (want != keys[inputId] &&
                 !stick::canRestickify(keys[inputId], want)) {
        viaHost = "its input is sparse (one value per stick) and its result "
                  "dense, or the other way round, which no device copy "
                  "converts";
      } else {
        FailureOr<Value> operand = withKey(inputId, want, op, 0);
        if (failed(operand))
          return failure();
        if (failed(reshapeViewLayout(
                cast<RankedTensorType>(operand->getType()),
                cast<RankedTensorType>(reshape.getType()).getShape())))
          viaHost = "no layout of its input is a view of its result";
      }
      if (!viaHost.empty()) {
        if (failed(reshapeOnHost(reshape, deviceValues[inputId], resultId,
                                 viaHost)))
          return failure();
        continue;
      }
    }
    // Operands with the sticks the configuration needs.
    for (auto [i, input] : llvm::enumerate(node.inputs)) {
      FailureOr<Value> operand =
          withKey(input, config.inputs[i], op, static_cast<unsigned>(i));
      if (failed(operand))
        return failure();
      op->setOperand(static_cast<unsigned>(i), *operand);
    }
    Value result = op->getResult(0);
    auto type = cast<RankedTensorType>(result.getType());
    LayoutAttr layout;
    if (auto transpose = dyn_cast<TransposeOp>(op)) {
      // The transpose of the input's actual layout: same device bytes.
      llvm::Expected<LayoutAttr> view = transposedLayout(
          transpose.getInput().getType(), transpose.getPermutation());
      if (!view)
        return op->emitOpError(llvm::toString(view.takeError()));
      layout = *view;
    } else if (auto reshape = dyn_cast<ReshapeOp>(op)) {
      FailureOr<LayoutAttr> view =
          reshapeViewLayout(reshape.getInput().getType(), type.getShape());
      if (succeeded(view))
        layout = *view;
    } else if (LayoutAttr existing = getLayoutAttr(type)) {
      layout = existing;
    }
    if (!layout) {
      FailureOr<LayoutAttr> chosen =
          layoutForReaders(result, withoutLayout(type), keys[resultId]);
      if (failed(chosen))
        return failure();
      layout = *chosen;
    }
    result.setType(withLayout(withoutLayout(type), layout));
    deviceValues[resultId] = result;
    // The actual key may differ from the plan (e.g. a reshape of a fixed
    // argument whose layout does not survive); later users see the truth.
    FailureOr<Key> actual = keyOf(cast<RankedTensorType>(result.getType()));
    if (succeeded(actual))
      keys[resultId] = *actual;
  }
  for (Operation *op : hostReshapes)
    op->erase();
  hostReshapes.clear();
  return success();
}

LogicalResult FunctionPropagation::reshapeOnHost(ReshapeOp op, Value input,
                                                 int resultId, StringRef why) {
  Location loc = op.getLoc();
  auto inputType = cast<RankedTensorType>(input.getType());
  RankedTensorType resultType =
      withoutLayout(cast<RankedTensorType>(op.getType()));
  FailureOr<LayoutAttr> layout = layoutFor(resultType, keys[resultId], loc);
  if (failed(layout))
    return failure();
  emitRemark(loc) << "'" << op->getName() << "' runs on the host: " << why;
  builder.setInsertionPoint(op);
  Value host = input;
  if (isDeviceTensor(inputType))
    host = FromDeviceOp::create(builder, loc, withoutLayout(inputType), input);
  SmallVector<int64_t> shape(resultType.getShape());
  auto shapeType = RankedTensorType::get({static_cast<int64_t>(shape.size())},
                                         builder.getI64Type());
  Value shapeValue = arith::ConstantOp::create(
      builder, loc, DenseIntElementsAttr::get(shapeType, shape));
  Value reshaped =
      tensor::ReshapeOp::create(builder, loc, resultType, host, shapeValue);
  Value device = ToDeviceOp::create(builder, loc,
                                    withLayout(resultType, *layout), reshaped);
  op.getResult().replaceAllUsesWith(device);
  deviceValues[resultId] = device;
  hostReshapes.push_back(op);
  return success();
}

LogicalResult FunctionPropagation::finishBoundary() {
  Block &entry = function.front();
  // Arguments take their laid-out types; host readers get from_device.
  for (auto [i, arg] : llvm::enumerate(entry.getArguments())) {
    Type hostType = originalArgumentTypes[i];
    Type deviceType = argumentTypes[i];
    arg.setType(deviceType);
    if (hostType == deviceType)
      continue;
    builder.setInsertionPointToStart(&entry);
    SmallVector<OpOperand *> hostUses;
    for (OpOperand &use : arg.getUses())
      if (!isDeviceOp(use.getOwner()) &&
          !isa<RestickifyOp, ToDeviceOp, FromDeviceOp>(use.getOwner()))
        hostUses.push_back(&use);
    if (hostUses.empty())
      continue;
    auto toHost = FromDeviceOp::create(builder, arg.getLoc(), hostType, arg);
    for (OpOperand *use : hostUses)
      use->set(toHost);
  }
  // Device results read by host ops.
  for (auto [id, value] : llvm::enumerate(deviceValues)) {
    if (problem.values[id].producer < 0 ||
        !nodeOps[problem.values[id].producer])
      continue;
    SmallVector<OpOperand *> hostUses;
    for (OpOperand &use : value.getUses()) {
      Operation *owner = use.getOwner();
      // An existing from_device already reads the value to the host.
      if (!isDeviceOp(owner) &&
          !isa<RestickifyOp, FromDeviceOp, func::ReturnOp>(owner))
        hostUses.push_back(&use);
    }
    if (hostUses.empty())
      continue;
    builder.setInsertionPointAfterValue(value);
    auto toHost = FromDeviceOp::create(
        builder, value.getLoc(),
        withoutLayout(cast<RankedTensorType>(value.getType())), value);
    for (OpOperand *use : hostUses)
      use->set(toHost);
  }
  // Results: the returned value's layout unless fixed.
  SmallVector<Type> resultTypes(function.getResultTypes());
  WalkResult walk = function.walk([&](func::ReturnOp ret) -> WalkResult {
    builder.setInsertionPoint(ret);
    for (auto [i, operand] : llvm::enumerate(ret.getOperands())) {
      Value value = operand;
      if (auto fromDevice = value.getDefiningOp<FromDeviceOp>())
        value = fromDevice.getInput();
      auto type = dyn_cast<RankedTensorType>(value.getType());
      if (!type) {
        resultTypes[i] = value.getType();
        continue;
      }
      LayoutAttr fixed = fixedResults[i];
      if (!isDeviceTensor(type)) {
        // A host-computed result stays on the host, unless the caller fixed
        // a layout for it.
        LayoutAttr layout = fixed;
        if (!layout) {
          resultTypes[i] = operand.getType();
          continue;
        }
        value = ToDeviceOp::create(builder, ret.getLoc(),
                                   withLayout(type, layout), value);
      } else if (fixed && getLayoutAttr(type) != fixed) {
        RankedTensorType target = withLayout(withoutLayout(type), fixed);
        FailureOr<Key> from = keyOf(type), to = keyOf(target);
        if (succeeded(from) && succeeded(to) &&
            !stick::canRestickify(*from, *to)) {
          ret.emitOpError("result #")
              << i << " must have the caller's layout " << fixed
              << ", but the value is "
              << (*from == stick::kSparse ? "sparse" : "dense")
              << " and the layout is not; sparse and dense layouts cannot "
                 "be converted into one another";
          return WalkResult::interrupt();
        }
        value = RestickifyOp::create(builder, ret.getLoc(), target, value);
      }
      ret.setOperand(static_cast<unsigned>(i), value);
      resultTypes[i] = value.getType();
    }
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  SmallVector<Type> inputs(entry.getArgumentTypes());
  function.setType(
      FunctionType::get(function.getContext(), inputs, resultTypes));
  dropLayoutAttributes(function);
  return success();
}

static void assignArrangements(func::FuncOp function,
                               ArrayRef<bool> fixedArguments);
static void viewStridedRowBlocks(func::FuncOp function);

LogicalResult FunctionPropagation::run() {
  if (function.isExternal())
    return success();
  if (!function.getBody().hasOneBlock())
    return function.emitOpError(
        "has more than one block; spyre functions are straight-line");
  if (failed(layOutArguments()))
    return failure();
  // Scalar constants are embedded in the kernels that read them: they take
  // the rank-0 layout up front and are fixed values for their readers.
  for (Operation &op : function.front().without_terminator())
    if (auto constant = dyn_cast<ConstantOp>(op);
        constant && constant.getType().getRank() == 0 &&
        !isDeviceTensor(constant.getType())) {
      FailureOr<LayoutAttr> layout =
          layoutFor(constant.getType(), stick::kSparse, constant.getLoc());
      if (failed(layout))
        return failure();
      constant.getResult().setType(withLayout(constant.getType(), *layout));
    }
  for (Operation &op : function.front().without_terminator()) {
    if (!isDeviceOp(&op))
      continue;
    if (auto constant = dyn_cast<ConstantOp>(op);
        constant && constant.getType().getRank() == 0)
      continue;
    if (failed(addNode(&op)))
      return failure();
  }
  // Results whose layout the caller fixed are requirements from outside.
  function.walk([&](func::ReturnOp ret) {
    for (auto [i, operand] : llvm::enumerate(ret.getOperands())) {
      Value value = operand;
      if (auto fromDevice = value.getDefiningOp<FromDeviceOp>())
        value = fromDevice.getInput();
      auto it = valueIds.find(value);
      if (it == valueIds.end() || !fixedResults[i])
        continue;
      FailureOr<Key> key = keyOf(
          withLayout(withoutLayout(cast<RankedTensorType>(value.getType())),
                     fixedResults[i]));
      if (succeeded(key))
        problem.sinks.push_back({it->second, *key});
    }
  });
  std::string broken = problem.verify();
  if (!broken.empty())
    return function.emitOpError("internal error building the layout "
                                "problem: ")
           << broken;
  stick::Solution solution = stick::solve(problem, options);
  if (failed(materialize(solution)))
    return failure();
  // Arguments whose layout the caller gave keep its element order.
  SmallVector<bool> fixedArguments;
  for (auto [i, type] : llvm::enumerate(originalArgumentTypes))
    fixedArguments.push_back(
        isDeviceTensor(type) ||
        function.getArgAttr(static_cast<unsigned>(i),
                            SpyreDialect::kLayoutAttrName));
  if (failed(finishBoundary()))
    return failure();
  viewStridedRowBlocks(function);
  assignArrangements(function, fixedArguments);
  return success();
}

/// A block of rows one kernel reads, laid out as its input restricted to
/// the rows, that is not one range of the input's bytes (the rows are not
/// the outermost device dim) becomes a strided view: the input's device
/// dims, the rest of them padding, read in place with the input's strides
/// instead of copied out by a kernel of its own. So does a block of whole
/// sticks along the stick's dim laid out as the input's restricted to them
/// (a third of a fused QKV projection). The one kernel may read the block
/// through reshapes and transposes, each read only by the next (a head
/// split): they take the strided layout seen through them. When a view or
/// the kernel does not verify with the new types, all are restored.
static void viewStridedRowBlocks(func::FuncOp function) {
  function.walk([](ExtractSliceOp slice) {
    if (isViewOp(slice) || !slice->hasOneUse())
      return;
    // The one kernel reading the block, through a chain of views (the
    // reshape and transpose splitting a projection's columns into heads).
    SmallVector<Operation *> chain;
    Operation *reader = *slice->getUsers().begin();
    while (isa<ReshapeOp, TransposeOp>(reader) && reader->hasOneUse() &&
           isViewOp(reader)) {
      chain.push_back(reader);
      reader = *reader->getUsers().begin();
    }
    if (!isKernelPayload(reader) || getInPlaceOperand(reader) >= 0)
      return;
    std::optional<unsigned> cut = slice.getCutDim();
    RankedTensorType input = slice.getInput().getType(), type = slice.getType();
    if (!cut)
      return;
    int64_t rows = type.getDimSize(*cut);
    FailureOr<RankedTensorType> strided = failure();
    if (FailureOr<RankedTensorType> dense = getRowBlockType(input, *cut, rows);
        succeeded(dense) && *dense == type)
      strided = getRowBlockType(input, *cut, rows, /*deviceDim=*/nullptr,
                                /*strided=*/true);
    else if (FailureOr<RankedTensorType> sticks =
                 getStickBlockType(input, *cut, rows, /*strided=*/false);
             succeeded(sticks) && *sticks == type)
      strided = getStickBlockType(input, *cut, rows);
    if (failed(strided))
      return;
    SmallVector<Type> chainTypes;
    for (Operation *view : chain)
      chainTypes.push_back(view->getResult(0).getType());
    slice.getResult().setType(*strided);
    bool viewed = isViewOp(slice);
    Value at = slice.getResult();
    for (Operation *view : chain) {
      if (!viewed)
        break;
      auto from = cast<RankedTensorType>(at.getType());
      auto to = cast<RankedTensorType>(view->getResult(0).getType());
      FailureOr<LayoutAttr> seen =
          seenThrough(view, from, getLayoutAttr(from), to.getShape(),
                      /*backwards=*/false);
      if (failed(seen)) {
        viewed = false;
        break;
      }
      view->getResult(0).setType(withLayout(to, *seen));
      viewed = isViewOp(view);
      at = view->getResult(0);
    }
    // (A trial: a failed check says nothing.)
    ScopedDiagnosticHandler silence(slice->getContext(),
                                    [](Diagnostic &) { return success(); });
    if (viewed &&
        llvm::all_of(
            chain,
            [](Operation *view) { return succeeded(mlir::verify(view)); }) &&
        succeeded(mlir::verify(reader)))
      return;
    slice.getResult().setType(type);
    for (auto [view, t] : llvm::zip_equal(chain, chainTypes))
      view->getResult(0).setType(t);
  });
}

/// `value`'s type with element arrangement `arrangement`.
static void setArrangement(Value value, ElementArrangement arrangement) {
  auto type = cast<RankedTensorType>(value.getType());
  LayoutAttr layout = getLayoutAttr(type);
  value.setType(withLayout(
      type, LayoutAttr::get(value.getContext(), layout.getDeviceSize(),
                            layout.getStrideMap(), layout.getFormat(),
                            arrangement, layout.getStickBytes())));
}

/// Element orders, once every value is laid out: each compute result takes
/// the order it writes (exx2's statistics, dl16tofp32's lanes, the lanes a
/// lane-by-lane op reads), and an f32 value combined lane by lane with values
/// in another order takes that order when the order is ours to choose: an
/// argument, constant or host result (the host stickifies it, unless the
/// caller gave the argument's layout) or a result whose lanes repeat one value
/// (a fill), and the views of them. Values combined in two orders that no
/// upload reconciles are left for the verifier to name.
static void assignArrangements(func::FuncOp function,
                               ArrayRef<bool> fixedArguments) {
  // Values whose lane order is ours to choose: uploads (the host stickifies
  // them) and results whose lanes repeat one value (no input read lane by
  // lane: a fill, a broadcast row statistic).
  auto isFree = [&](Value value) {
    if (auto arg = dyn_cast<BlockArgument>(value))
      return arg.getOwner()->isEntryBlock() &&
             arg.getOwner()->getParentOp() == function.getOperation() &&
             !fixedArguments[arg.getArgNumber()];
    Operation *def = value.getDefiningOp();
    if (isa_and_nonnull<ConstantOp, ToDeviceOp>(def))
      return true;
    auto compute = dyn_cast_or_null<ComputeOpInterface>(def);
    return compute && getLaneOperands(compute).empty() &&
           !compute.getRequiredArrangement(def->getNumOperands());
  };
  // Ops whose result holds their input's lanes as they are: views and
  // copies between layouts.
  auto movesLanes = [](Operation *op) {
    return isa<ReshapeOp, TransposeOp, RestickifyOp>(op) ||
           (isa<ExtractSliceOp>(op) && isViewOp(op));
  };
  // `value` and the values it is a view or copy of, back to a free value;
  // empty when it does not come from one. A `spyre.identity` of one input
  // copies lane i to lane i (a bias broadcast along the rows, too), so its
  // result is in its input's order.
  auto uploadChain = [&](Value value) {
    SmallVector<Value> chain{value};
    while (!isFree(chain.back())) {
      Operation *def = chain.back().getDefiningOp();
      bool copiesLanes = isa_and_nonnull<IdentityOp>(def) &&
                         def->getNumOperands() == 1 &&
                         getLayoutAttr(def->getOperand(0).getType());
      if (!def || !(movesLanes(def) || copiesLanes))
        return SmallVector<Value>();
      chain.push_back(def->getOperand(0));
    }
    return chain;
  };
  auto arrangementOf = [](Value value) {
    return getLayoutAttr(value.getType()).getArrangement();
  };
  // Each change moves a value away from standard, once: the walk settles.
  for (bool changed = true; changed;) {
    changed = false;
    function.walk([&](Operation *op) {
      if (op->getNumResults() != 1 ||
          !getLayoutAttr(op->getResult(0).getType()))
        return;
      Value result = op->getResult(0);
      if (movesLanes(op) && getLayoutAttr(op->getOperand(0).getType())) {
        ElementArrangement want = arrangementOf(op->getOperand(0));
        if (arrangementOf(result) != want) {
          setArrangement(result, want);
          changed = true;
        }
        return;
      }
      auto compute = dyn_cast<ComputeOpInterface>(op);
      if (!compute)
        return;
      // Inputs free to choose their order follow the others.
      SmallVector<unsigned> lanes = getLaneOperands(compute);
      std::optional<ElementArrangement> other;
      for (unsigned i : lanes)
        if (arrangementOf(op->getOperand(i)) != ElementArrangement::Standard)
          other = arrangementOf(op->getOperand(i));
      if (other)
        for (unsigned i : lanes) {
          Value input = op->getOperand(i);
          LayoutAttr layout = getLayoutAttr(input.getType());
          if (layout.getArrangement() != ElementArrangement::Standard ||
              layout.getFormatFor(getElementTypeOrSelf(input.getType())) !=
                  DataFormat::IEEE_FP32)
            continue;
          for (Value link : uploadChain(input)) {
            setArrangement(link, *other);
            changed = true;
          }
        }
      if (lanes.empty() &&
          !compute.getRequiredArrangement(op->getNumOperands()))
        return; // free: keeps the order its readers asked for
      ElementArrangement want = inferResultArrangement(compute);
      if (arrangementOf(result) != want) {
        setArrangement(result, want);
        changed = true;
      }
    });
  }
  // The signature records the arguments' and results' orders.
  SmallVector<Type> results(function.getResultTypes());
  function.walk([&](func::ReturnOp ret) {
    for (auto [i, operand] : llvm::enumerate(ret.getOperands()))
      results[i] = operand.getType();
  });
  function.setType(FunctionType::get(
      function.getContext(), function.front().getArgumentTypes(), results));
}

namespace {
struct PropagateLayoutsPass
    : mlir::spyre::impl::SpyrePropagateLayoutsBase<PropagateLayoutsPass> {
  using SpyrePropagateLayoutsBase::SpyrePropagateLayoutsBase;

  LogicalResult initialize(MLIRContext *context) override {
    return checkLayoutSearchOptions(context, "--spyre-propagate-layouts",
                                    beamWidth, exactLimit);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    int64_t stickBytes = getTarget(module).getStickBytes();
    stick::SolveOptions options;
    options.beamWidth = beamWidth;
    options.exactNodeLimit = exactLimit;
    DenseMap<StringAttr, FunctionType> oldTypes;
    bool failedAny = false;
    for (auto function : module.getOps<func::FuncOp>()) {
      FunctionType before = function.getFunctionType();
      FunctionPropagation propagation(function, stickBytes, options,
                                      argLayouts);
      if (failed(propagation.run())) {
        failedAny = true;
        continue;
      }
      if (function.getFunctionType() != before)
        oldTypes[function.getSymNameAttr()] = before;
    }
    if (failedAny)
      return signalPassFailure();
    updateCallSites(module, oldTypes);
  }
};
} // namespace
