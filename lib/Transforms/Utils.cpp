//===- Utils.cpp - Helpers shared by spyre passes
//--------------------------===//

#include "Spyre/Transforms/Utils.h"
#include "Spyre/Dialect/Spyre/IR/KernelForm.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include "llvm/ADT/SetVector.h"

#include <limits>

using namespace mlir;
using namespace mlir::spyre;

/// A dim_order entry as the layout algebra's 32-bit dim: one outside that
/// range becomes INT32_MAX, which no tensor has, instead of being truncated
/// into a valid dim.
static int32_t toDim(int64_t value) {
  if (value < std::numeric_limits<int32_t>::min() ||
      value > std::numeric_limits<int32_t>::max())
    return std::numeric_limits<int32_t>::max();
  return static_cast<int32_t>(value);
}

/// Reads a `spyre.dim_order` (already verified by the dialect).
static SmallVector<int32_t> readDimOrder(Attribute attr) {
  SmallVector<int32_t> order;
  if (auto dense = dyn_cast<DenseI64ArrayAttr>(attr)) {
    for (int64_t v : dense.asArrayRef())
      order.push_back(toDim(v));
  } else if (auto array = dyn_cast<ArrayAttr>(attr)) {
    for (Attribute element : array)
      if (auto integer = dyn_cast<IntegerAttr>(element))
        order.push_back(toDim(integer.getInt()));
  }
  return order;
}

RankedTensorType mlir::spyre::foreignEncodedTensor(Operation *op) {
  auto foreign = [](Type type) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    return tensor && tensor.getEncoding() &&
           !isa<LayoutAttr>(tensor.getEncoding());
  };
  for (Type type : op->getOperandTypes())
    if (foreign(type))
      return cast<RankedTensorType>(type);
  for (Type type : op->getResultTypes())
    if (foreign(type))
      return cast<RankedTensorType>(type);
  return {};
}

FailureOr<Type>
mlir::spyre::layOutBoundaryType(Type type, DictionaryAttr attrs,
                                int64_t stickBytes,
                                function_ref<InFlightDiagnostic()> emitError) {
  auto tensorType = dyn_cast<RankedTensorType>(type);
  if (!tensorType || isDeviceTensor(tensorType))
    return type;
  if (Attribute encoding = tensorType.getEncoding()) {
    emitError() << "has encoding " << encoding
                << ", which is not a #spyre.layout; cannot assign a layout";
    return failure();
  }
  Attribute layoutAttr =
      attrs ? attrs.get(SpyreDialect::kLayoutAttrName) : Attribute();
  Attribute dimOrderAttr =
      attrs ? attrs.get(SpyreDialect::kDimOrderAttrName) : Attribute();

  if (auto layout = dyn_cast_or_null<LayoutAttr>(layoutAttr)) {
    if (layout.getStickBytes() != stickBytes) {
      emitError() << "its 'spyre.layout' is built for "
                  << layout.getStickBytes()
                  << "-byte sticks, but the target's sticks have " << stickBytes
                  << " bytes";
      return failure();
    }
    return Type(withLayout(tensorType, layout));
  }

  std::optional<SmallVector<int32_t>> dimOrder;
  if (dimOrderAttr)
    dimOrder = readDimOrder(dimOrderAttr);
  llvm::Expected<SpyreTensorLayout> layout = getDefaultLayout(
      tensorType,
      dimOrder ? std::optional<ArrayRef<int32_t>>(*dimOrder) : std::nullopt,
      stickBytes);
  if (!layout) {
    emitError() << "cannot assign a layout to " << type << ": "
                << llvm::toString(layout.takeError());
    return failure();
  }
  return Type(
      withLayout(tensorType, LayoutAttr::get(type.getContext(), *layout,
                                             tensorType.getElementType())));
}

void mlir::spyre::dropLayoutAttributes(FunctionOpInterface function) {
  MLIRContext *context = function->getContext();
  auto layoutName = StringAttr::get(context, SpyreDialect::kLayoutAttrName);
  auto dimOrderName = StringAttr::get(context, SpyreDialect::kDimOrderAttrName);
  for (unsigned i = 0; i < function.getNumArguments(); ++i) {
    function.removeArgAttr(i, layoutName);
    function.removeArgAttr(i, dimOrderName);
  }
  for (unsigned i = 0; i < function.getNumResults(); ++i) {
    function.removeResultAttr(i, layoutName);
    function.removeResultAttr(i, dimOrderName);
  }
}

void mlir::spyre::updateCallSites(
    ModuleOp module, const DenseMap<StringAttr, FunctionType> &oldTypes) {
  module.walk([&](func::CallOp call) {
    if (!oldTypes.count(call.getCalleeAttr().getAttr()))
      return;
    auto callee = module.lookupSymbol<func::FuncOp>(call.getCalleeAttr());
    FunctionType newType = callee.getFunctionType();
    OpBuilder builder(call);
    for (auto [i, operand] : llvm::enumerate(call.getOperands())) {
      Type want = newType.getInput(i);
      if (operand.getType() == want)
        continue;
      Value converted = isDeviceTensor(operand.getType())
                            ? Value(RestickifyOp::create(builder, call.getLoc(),
                                                         want, operand))
                            : Value(ToDeviceOp::create(builder, call.getLoc(),
                                                       want, operand));
      call.setOperand(i, converted);
    }
    builder.setInsertionPointAfter(call);
    for (auto [i, result] : llvm::enumerate(call.getResults())) {
      Type hostType = result.getType();
      if (hostType == newType.getResult(i))
        continue;
      result.setType(newType.getResult(i));
      auto toHost =
          FromDeviceOp::create(builder, call.getLoc(), hostType, result);
      result.replaceAllUsesExcept(toHost.getResult(), toHost);
    }
  });
}

llvm::Expected<LayoutAttr>
mlir::spyre::getLayoutWithStick(RankedTensorType type, int stickDim,
                                int64_t stickBytes) {
  SmallVector<int32_t, 6> order =
      SpyreTensorLayout::defaultDimOrder(type.getShape());
  if (type.getRank() > 0) {
    if (stickDim < 0)
      order.push_back(-1);
    else
      std::swap(*llvm::find(order, stickDim), order.back());
  }
  llvm::Expected<SpyreTensorLayout> layout = getDefaultLayout(
      type,
      type.getRank() > 0 ? std::optional<ArrayRef<int32_t>>(order)
                         : std::nullopt,
      stickBytes);
  if (!layout)
    return layout.takeError();
  return LayoutAttr::get(type.getContext(), *layout, type.getElementType());
}

FailureOr<LayoutAttr> mlir::spyre::reshapeViewLayout(RankedTensorType input,
                                                     ArrayRef<int64_t> shape) {
  llvm::Expected<BoundLayout> bound = bindLayout(input);
  if (!bound) {
    llvm::consumeError(bound.takeError());
    return failure();
  }
  llvm::Expected<SpyreTensorLayout> view = reshapeView(*bound, shape);
  if (!view) {
    llvm::consumeError(view.takeError());
    return failure();
  }
  return LayoutAttr::get(input.getContext(), *view, input.getElementType());
}

std::optional<int> mlir::spyre::reshapeViewKey(RankedTensorType hostType,
                                               LayoutAttr layout,
                                               ArrayRef<int64_t> shape) {
  FailureOr<LayoutAttr> view =
      reshapeViewLayout(withLayout(hostType, layout), shape);
  if (failed(view))
    return std::nullopt;
  llvm::Expected<SpyreTensorLayout> stl =
      view->getLayout(hostType.getElementType());
  if (!stl) {
    llvm::consumeError(stl.takeError());
    return std::nullopt;
  }
  llvm::Expected<BoundLayout> bound = stl->bind(HostView::contiguous(shape));
  if (!bound) {
    llvm::consumeError(bound.takeError());
    return std::nullopt;
  }
  return bound->stickHostDim();
}

bool mlir::spyre::reshapeHasDeviceView(RankedTensorType hostType,
                                       ArrayRef<int64_t> shape,
                                       int64_t stickBytes) {
  // Dense layouts only: a dense value (anything but a reduction's result)
  // cannot become sparse, so a reshape that is a view only of a sparse
  // layout would need a conversion the device does not have.
  for (int key = hostType.getRank() > 0 ? 0 : -1; key < hostType.getRank();
       ++key) {
    llvm::Expected<LayoutAttr> layout =
        getLayoutWithStick(hostType, key, stickBytes);
    if (!layout) {
      llvm::consumeError(layout.takeError());
      continue;
    }
    if (reshapeViewKey(hostType, *layout, shape))
      return true;
  }
  return false;
}

Value mlir::spyre::createScalarConstant(OpBuilder &builder, Location loc,
                                        double value, Type element) {
  auto type = RankedTensorType::get({}, element);
  return ConstantOp::create(
      builder, loc, type,
      DenseElementsAttr::get(type, builder.getFloatAttr(element, value)));
}

bool mlir::spyre::isExclusivelyOwned(Value dest) {
  for (Value v = dest;;) {
    if (!v.hasOneUse())
      return false;
    Operation *def = v.getDefiningOp();
    if (!def)
      return false;
    if (isViewOp(def)) {
      v = def->getOperand(0);
      continue;
    }
    if (int in = getInPlaceOperand(def); in >= 0) {
      v = def->getOperand(in);
      continue;
    }
    return isa<EmptyOp>(def) || isKernelPayload(def);
  }
}

OpSignature mlir::spyre::getOpSignature(Operation *op,
                                        ArrayRef<StringRef> spyreAttrs) {
  OpSignature key;
  auto add = [&](const void *p) {
    key.push_back(reinterpret_cast<intptr_t>(p));
  };
  add(op->getName().getAsOpaquePointer());
  for (Type type : op->getOperandTypes())
    add(type.getAsOpaquePointer());
  for (Type type : op->getResultTypes())
    add(type.getAsOpaquePointer());
  add(op->getPropertiesAsAttribute().getAsOpaquePointer());
  for (StringRef name : spyreAttrs)
    add(op->getAttr(name).getAsOpaquePointer());
  return key;
}

LogicalResult mlir::spyre::forEachFunction(
    Operation *root, function_ref<LogicalResult(FunctionOpInterface)> fn) {
  LogicalResult status = success();
  root->walk<WalkOrder::PreOrder>([&](FunctionOpInterface function) {
    if (failed(fn(function))) {
      status = failure();
      return WalkResult::interrupt();
    }
    return WalkResult::skip();
  });
  return status;
}

namespace {
/// A matmul reading an op's result through elementwise ops that only it
/// and each other read (BERT's up projection -> bias add -> GELU -> down
/// projection; GPT-2's tanh GELU, several ops reading x): the matmul, the
/// operand it reads, the ops in between, and a path of (op, operand) steps
/// from the first op's result to that operand's producer.
struct MatmulReader {
  Operation *matmul = nullptr;
  unsigned operand = 0;
  SmallVector<Operation *> between;
  SmallVector<std::pair<Operation *, unsigned>> path;
};
} // namespace

static std::optional<MatmulReader> findMatmulReader(Operation *op) {
  constexpr size_t kMaxOps = 16;
  MatmulReader reader;
  llvm::SmallSetVector<Operation *, 8> inside;
  inside.insert(op);
  for (size_t i = 0; i < inside.size(); ++i) {
    for (OpOperand &use : inside[i]->getResult(0).getUses()) {
      Operation *user = use.getOwner();
      auto payload = dyn_cast<KernelPayloadOpInterface>(user);
      if (!payload || user->getNumResults() != 1 ||
          !isDeviceTensor(user->getResult(0).getType()))
        return std::nullopt;
      if (payload.getExecutionUnit() == ExecutionUnit::PT) {
        // One matmul, reading one of the values once.
        if (reader.matmul)
          return std::nullopt;
        reader.matmul = user;
        reader.operand = use.getOperandNumber();
        continue;
      }
      if (llvm::is_contained(payload.getIteratorTypesArray(),
                             utils::IteratorType::reduction))
        return std::nullopt;
      inside.insert(user);
      if (inside.size() > kMaxOps)
        return std::nullopt;
    }
  }
  if (!reader.matmul)
    return std::nullopt;
  reader.between.assign(inside.begin() + 1, inside.end());
  // Back from the matmul's operand to `op`, through ops inside.
  Operation *at = reader.matmul->getOperand(reader.operand).getDefiningOp();
  while (at != op) {
    auto from = llvm::find_if(at->getOpOperands(), [&](OpOperand &operand) {
      Operation *def = operand.get().getDefiningOp();
      return def && inside.contains(def);
    });
    if (from == at->getOpOperands().end())
      return std::nullopt;
    reader.path.insert(reader.path.begin(), {at, from->getOperandNumber()});
    at = from->get().getDefiningOp();
  }
  return reader;
}

/// Among `op`'s divisions within kLookaheadSlack of its best, the one that
/// makes `op` and the matmul reading its result (through `reader`'s chain)
/// fastest together: a division the matmul can take reads the chain's
/// result from LX where the chain's last op may keep it there. Nullopt
/// when no division beats `best` that way.
static std::optional<kernel::Division>
lookAhead(Operation *op, const kernel::Problem &problem,
          const kernel::Plan &best, const MatmulReader &reader,
          const TargetModel &target, int64_t maxCores) {
  constexpr double kLookaheadSlack = 0.1;
  Operation *last = reader.matmul->getOperand(reader.operand).getDefiningOp();
  if (!mayKeepOutputInLx(last, target))
    return std::nullopt;
  std::string reason;
  FailureOr<kernel::Problem> matmul = getKernelProblem(reader.matmul, reason);
  if (failed(matmul))
    return std::nullopt;
  llvm::Expected<kernel::Plan> own = kernel::divide(
      *matmul, target, maxCores, kernel::Policy::Model, target.usableLxBytes());
  if (!own) {
    llvm::consumeError(own.takeError());
    return std::nullopt;
  }
  kernel::Problem resident = *matmul;
  resident.tensors[reader.operand].lxResident = true;
  // What the pair costs with `plan` for op: the matmul takes the division
  // carried to it when that is within the preference slack of its own best
  // (kernel::divide's rule), reading the operand from LX; its own best
  // otherwise.
  auto pairSeconds = [&](const kernel::Plan &plan) {
    double matmulSeconds = own->estimate.seconds;
    std::optional<kernel::Division> carried = plan.division;
    Operation *from = op;
    for (auto [next, index] : reader.path) {
      carried = carryOver(next, index, from, *carried);
      if (!carried)
        return plan.estimate.seconds + matmulSeconds;
      from = next;
    }
    carried = carryOver(reader.matmul, reader.operand, from, *carried);
    if (carried) {
      llvm::Expected<kernel::Plan> taken = kernel::planDivision(
          resident, target, *carried, target.usableLxBytes());
      if (!taken)
        llvm::consumeError(taken.takeError());
      else if (taken->estimate.seconds <=
               own->estimate.seconds * (1 + kernel::kPreferenceSlack))
        matmulSeconds = taken->estimate.seconds;
    }
    return plan.estimate.seconds + matmulSeconds;
  };
  double bestPair = pairSeconds(best);
  std::optional<kernel::Division> chosen;
  for (const kernel::Plan &plan :
       kernel::nearBestPlans(problem, target, maxCores, target.usableLxBytes(),
                             kLookaheadSlack)) {
    double pair = pairSeconds(plan);
    if (pair < bestPair * (1 - 1e-9)) {
      bestPair = pair;
      chosen = plan.division;
    }
  }
  return chosen;
}

/// Whether `user` is a kernel that reads its operands whole (a box's
/// extract or insert reads through DDR addresses).
static bool readsWhole(Operation *user) {
  return isKernelPayload(user) && !isa<ExtractSliceOp, InsertSliceOp>(user);
}

/// The kernel payload whose result `value` views (through reshapes and
/// transposes, at least one), or null.
static Operation *producerThroughViews(Value value) {
  Value viewed = getViewedValue(value);
  Operation *def = viewed.getDefiningOp();
  return viewed != value && def && isKernelPayload(def) ? def : nullptr;
}

namespace {
/// A producer whose result an op reads through views (operand `index`),
/// with its kernel problem and the division its result is held in.
struct ViewedProducer {
  unsigned index;
  Operation *op;
  kernel::Problem problem;
  kernel::Division held;
};
} // namespace

/// Whether two results are held in the same slices on the same cores.
static bool sameHeld(const std::optional<kernel::Division> &a,
                     const std::optional<kernel::Division> &b) {
  return a && b && a->splits == b->splits && a->order == b->order;
}

/// The first of `division`'s orders (its split dims in every order, in
/// lexicographic order, the unsplit dims after them) that `accept` takes.
static std::optional<kernel::Division>
firstOrder(const kernel::Division &division,
           function_ref<bool(const kernel::Division &)> accept) {
  SmallVector<int64_t, 6> split, unsplit;
  for (int64_t d : division.order)
    (division.splits[d] > 1 ? split : unsplit).push_back(d);
  llvm::sort(split);
  kernel::Division candidate = division;
  do {
    candidate.order.assign(split.begin(), split.end());
    candidate.order.append(unsplit.begin(), unsplit.end());
    if (accept(candidate))
      return candidate;
  } while (std::next_permutation(split.begin(), split.end()));
  return std::nullopt;
}

/// `division` with its split dims reordered so that every core gets the
/// part of operand `viewed.index` that the producer left it, when some
/// order does; nullopt otherwise. The order decides which core takes which
/// slice, not what a slice costs (but see keepsResult).
static std::optional<kernel::Division>
alignWithProducer(const kernel::Problem &problem,
                  const kernel::Division &division,
                  const ViewedProducer &viewed) {
  return firstOrder(division, [&](const kernel::Division &candidate) {
    return kernel::sameCoreSlices(viewed.problem, viewed.held,
                                  viewed.problem.tensors.size() - 1, problem,
                                  candidate, viewed.index);
  });
}

namespace {
/// An op's divisions within kViewSlack of its best, for reading a result
/// through views from LX: the best of them whose slices of it are the
/// boxes its producer left the cores, costed with it in LX, and which
/// holds the op's result exactly as its best does (another division, even
/// one splitting no reduction, moves its readers' slices too: BERT's K
/// restickify at sequence 2048, op by op, took its add's slices, the
/// scores' batch matmul the restickify's split of the keys, and the
/// softmax's reductions went over the cores: 7842.6 -> 7966.2 us).
class ViewedReading {
public:
  ViewedReading(const kernel::Problem &problem, const TargetModel &target,
                int64_t maxCores)
      : problem(problem), target(target),
        near(kernel::nearBestPlans(problem, target, maxCores,
                                   target.usableLxBytes(), kViewSlack)) {
    for (const kernel::Plan &plan : near)
      if (!own || plan.estimate.seconds < own->estimate.seconds)
        own = &plan;
    if (own)
      ownHeld = kernel::resultDivision(problem, own->division);
  }

  std::optional<kernel::Plan> bestAligned(const ViewedProducer &viewed) const {
    if (!ownHeld)
      return std::nullopt;
    kernel::Problem resident = problem;
    resident.tensors[viewed.index].lxResident = true;
    std::optional<kernel::Plan> best;
    for (const kernel::Plan &candidate : near) {
      std::optional<kernel::Division> aligned =
          alignWithProducer(problem, candidate.division, viewed);
      if (!aligned)
        continue;
      if (!sameHeld(kernel::resultDivision(problem, *aligned), ownHeld))
        continue;
      llvm::Expected<kernel::Plan> costed = kernel::planDivision(
          resident, target, *aligned, target.usableLxBytes());
      if (!costed)
        llvm::consumeError(costed.takeError());
      else if (!best || costed->estimate.seconds < best->estimate.seconds)
        best = std::move(*costed);
    }
    return best;
  }

private:
  static constexpr double kViewSlack = 0.5;
  const kernel::Problem &problem;
  const TargetModel &target;
  std::vector<kernel::Plan> near;
  const kernel::Plan *own = nullptr;
  std::optional<kernel::Division> ownHeld;
};
} // namespace

namespace {
/// A reader outside a fusion group of a group op's result, through views.
struct GroupReader {
  Operation *member;
  Operation *reader;
  unsigned index;
};
} // namespace

/// The ops of `op`'s fusion group after it, in program order, and the
/// kernels outside the group that read their results (or `op`'s) through
/// views.
static std::pair<SmallVector<Operation *>, SmallVector<GroupReader>>
groupAndViewReaders(Operation *op) {
  std::pair<SmallVector<Operation *>, SmallVector<GroupReader>> found;
  Attribute group = op->getAttr(SpyreDialect::kFusionGroupAttrName);
  if (!group)
    return found;
  SmallVector<Operation *> members = {op};
  for (Operation *next = op->getNextNode(); next; next = next->getNextNode())
    if (isKernelPayload(next) &&
        next->getAttr(SpyreDialect::kFusionGroupAttrName) == group)
      members.push_back(next);
  for (Operation *member : members)
    for (OpOperand *read : readsThroughViews(member->getResult(0))) {
      Operation *user = read->getOwner();
      if (read->get() != member->getResult(0) && readsWhole(user) &&
          user->getAttr(SpyreDialect::kFusionGroupAttrName) != group)
        found.second.push_back({member, user, read->getOperandNumber()});
    }
  found.first.assign(members.begin() + 1, members.end());
  return found;
}

/// For the first op of a fusion group whose splits are fixed and whose
/// order nothing else asks for: the order of its split dims, carried
/// through the group as its ops take their producers' slices, that lets a
/// kernel outside the group read a group op's result through views from LX
/// (ViewedReading), when the division's own order does not and some order
/// does. GPT-2's attention, whose Q comes from c_attn's thirds, keeps the
/// heads fastest by default, and the output projection could then read
/// P.V's output from LX only with its K fastest, which scatters its sums
/// by rows; with the rows fastest it reads it with m8.k4 as BERT's does.
static std::optional<kernel::Division>
orderForGroupReaders(const kernel::Division &division,
                     ArrayRef<Operation *> members,
                     ArrayRef<GroupReader> readers, Operation *op,
                     const TargetModel &target, int64_t maxCores) {
  std::string reason;
  std::map<Operation *, kernel::Problem> problems;
  auto problemOf = [&](Operation *x) -> const kernel::Problem * {
    auto it = problems.find(x);
    if (it == problems.end()) {
      FailureOr<kernel::Problem> p = getKernelProblem(x, reason);
      if (failed(p))
        return nullptr;
      it = problems.emplace(x, std::move(*p)).first;
    }
    return &it->second;
  };
  std::map<Operation *, ViewedReading> readings;
  auto readable = [&](const kernel::Division &first) {
    std::map<Operation *, kernel::Division> trial = {{op, first}};
    for (Operation *member : members)
      for (OpOperand &operand : member->getOpOperands()) {
        auto from = trial.find(operand.get().getDefiningOp());
        if (from == trial.end())
          continue;
        if (std::optional<kernel::Division> carried = carryOver(
                member, operand.getOperandNumber(), from->first, from->second))
          trial.emplace(member, *carried);
        break;
      }
    return llvm::any_of(readers, [&](const GroupReader &r) {
      auto division = trial.find(r.member);
      const kernel::Problem *theirs = problemOf(r.member);
      const kernel::Problem *mine = problemOf(r.reader);
      if (division == trial.end() || !theirs || !mine)
        return false;
      std::optional<kernel::Division> held =
          kernel::resultDivision(*theirs, division->second);
      if (!held)
        return false;
      auto reading = readings.find(r.reader);
      if (reading == readings.end())
        reading = readings.try_emplace(r.reader, *mine, target, maxCores).first;
      return reading->second.bestAligned({r.index, r.member, *theirs, *held})
          .has_value();
    });
  };
  if (readable(division))
    return std::nullopt;
  return firstOrder(division, [&](const kernel::Division &candidate) {
    return candidate.order != division.order && readable(candidate);
  });
}

/// Whether `division` leaves the op's result held as `reference` does when
/// it splits a reduction dim: the dim its partners scatter their sums over
/// follows the order (kernel::resultDivision), and the readers took their
/// slices from it. Any division that splits no reduction dim does.
static bool keepsResult(const kernel::Problem &problem,
                        const kernel::Division &division,
                        const kernel::Division &reference) {
  bool splitsReduction =
      llvm::any_of(llvm::enumerate(problem.dims), [&](auto dim) {
        return dim.value().reduction && division.splits[dim.index()] > 1;
      });
  if (!splitsReduction)
    return true;
  std::optional<kernel::Division> held =
      kernel::resultDivision(problem, division);
  std::optional<kernel::Division> before =
      kernel::resultDivision(problem, reference);
  // (Neither held in LX: an SFP reduction's partial results meet in DDR.)
  if (!held && !before)
    return true;
  return sameHeld(held, before);
}

Value mlir::spyre::getViewedValue(Value value) {
  while (Operation *def = value.getDefiningOp()) {
    if (!isViewOp(def) || isa<ExtractSliceOp>(def))
      break;
    value = def->getOperand(0);
  }
  return value;
}

SmallVector<OpOperand *> mlir::spyre::readsThroughViews(Value value) {
  SmallVector<OpOperand *> reads;
  SmallVector<Value> values = {value};
  while (!values.empty())
    for (OpOperand &use : values.pop_back_val().getUses()) {
      Operation *user = use.getOwner();
      if (isViewOp(user) && !isa<ExtractSliceOp>(user))
        values.push_back(user->getResult(0));
      else
        reads.push_back(&use);
    }
  return reads;
}

std::optional<BoxedRead> mlir::spyre::getBoxedRead(Value value) {
  std::optional<BoxedRead> read;
  // Every view but the extract keeps the device dims as they are (a view
  // may also regroup them: the same bytes, other dims, which the box's
  // device position would not follow).
  auto deviceSize = [](Value v) -> ArrayRef<int64_t> {
    LayoutAttr layout = getLayoutAttr(cast<RankedTensorType>(v.getType()));
    return layout ? layout.getDeviceSize() : ArrayRef<int64_t>();
  };
  while (Operation *def = value.getDefiningOp()) {
    if (!isViewOp(def))
      break;
    Value input = def->getOperand(0);
    if (auto slice = dyn_cast<ExtractSliceOp>(def)) {
      FailureOr<int64_t> window = slice.getWindowBytes();
      if (read || failed(window))
        return std::nullopt;
      read = BoxedRead{Value(), *window};
    } else if (deviceSize(input).empty() ||
               deviceSize(input) != deviceSize(value)) {
      return std::nullopt;
    }
    value = input;
  }
  if (read)
    read->viewed = value;
  return read;
}

std::optional<int64_t> mlir::spyre::residentBoxOffset(
    const kernel::Problem &producer, const kernel::Division &held,
    const kernel::Problem &reader, const kernel::Division &readerDivision,
    unsigned operand, int64_t windowBytes) {
  unsigned result = producer.tensors.size() - 1;
  std::optional<SmallVector<int64_t, 6>> start =
      kernel::devicePosition(producer.tensors[result], windowBytes);
  if (!start)
    return std::nullopt;
  return kernel::residentBoxOffset(producer, held, result, reader,
                                   readerDivision, operand, *start);
}

std::optional<int64_t>
mlir::spyre::residentBoxOffset(const DividedPayload &producer,
                               const DividedPayload &reader, unsigned operand) {
  std::optional<BoxedRead> read = getBoxedRead(reader.op->getOperand(operand));
  if (!read || read->viewed != producer.op->getResult(0))
    return std::nullopt;
  std::optional<kernel::Division> held =
      kernel::resultDivision(*producer.problem, *producer.division);
  if (!held)
    return std::nullopt;
  return residentBoxOffset(*producer.problem, *held, *reader.problem,
                           *reader.division, operand, read->windowBytes);
}

bool DivisionChooser::othersTake(
    Operation *op, ArrayRef<OpOperand *> reads,
    function_ref<bool(OpOperand &, const kernel::Division &)> same) const {
  return llvm::all_of(reads, [&](OpOperand *use) {
    Operation *user = use->getOwner();
    if (user == op)
      return true;
    if (!readsWhole(user))
      return false;
    const kernel::Division *taken = lookup(user);
    return !taken || same(*use, *taken);
  });
}

llvm::Expected<kernel::Division> DivisionChooser::choose(Operation *op) {
  std::optional<kernel::Division> preferred;
  // The operand the preferred division would read from LX, if any.
  std::optional<unsigned> keptInLx;
  // The first operand whose producer's slices carry over, unless one may
  // stay in LX with them: then the one that saves the most DDR traffic (its
  // bytes written once and read by each reader; no other reader divided
  // already may have taken other slices, later ones may carry them too).
  int64_t bestSaving = 0;
  for (OpOperand &operand : op->getOpOperands()) {
    Operation *producer = operand.get().getDefiningOp();
    // A buffer of blocks each written in place: the last block's writer
    // split its rows as the blocks were (the buffer itself is in DDR).
    bool inPlace = producer && isInPlaceInsert(producer);
    if (inPlace)
      producer = cast<InsertSliceOp>(producer).getSource().getDefiningOp();
    const kernel::Division *division = producer ? lookup(producer) : nullptr;
    if (!division)
      continue;
    std::optional<kernel::Division> carried =
        carryOver(op, operand.getOperandNumber(), producer, *division);
    if (!carried)
      continue;
    if (!preferred)
      preferred = carried;
    if (inPlace)
      break;
    // With the producer's slices, its output may stay in LX for this op:
    // when the producer may keep it there (a fusion group's op, or the
    // target's LX-resident ops) and every other reader takes those slices
    // too. --spyre-plan-memory decides; this only lets the model see what
    // the division makes possible.
    if (isa<ExtractSliceOp, InsertSliceOp>(op) ||
        !mayKeepOutputInLx(producer, target))
      continue;
    SmallVector<OpOperand *> reads = llvm::to_vector(llvm::map_range(
        operand.get().getUses(), [](OpOperand &use) { return &use; }));
    bool othersMatch = othersTake(
        op, reads, [&](OpOperand &use, const kernel::Division &taken) {
          std::optional<kernel::Division> same = carryOver(
              use.getOwner(), use.getOperandNumber(), producer, *division);
          return same && same->splits == taken.splits &&
                 same->order == taken.order;
        });
    auto type = cast<RankedTensorType>(operand.get().getType());
    int64_t saving =
        type.getNumElements() * type.getElementTypeBitWidth() *
        (1 + static_cast<int64_t>(llvm::range_size(operand.get().getUses())));
    if (othersMatch && saving > bestSaving) {
      bestSaving = saving;
      preferred = carried;
      keptInLx = operand.getOperandNumber();
    }
  }
  // Producers whose results the op reads through views, which may keep
  // them in LX: the op's slices of them match theirs in some order.
  SmallVector<std::pair<unsigned, Operation *>> viewed;
  if (!isa<ExtractSliceOp, InsertSliceOp>(op))
    for (OpOperand &operand : op->getOpOperands())
      if (Operation *producer = producerThroughViews(operand.get());
          producer && lookup(producer) && mayKeepOutputInLx(producer, target))
        viewed.push_back({operand.getOperandNumber(), producer});
  auto hint =
      op->getAttrOfType<DenseI64ArrayAttr>(SpyreDialect::kWorkDivisionAttrName);
  // A fusion group's first op with its splits fixed (its hint) may order
  // its cores for a reader of the group's results through views.
  std::pair<SmallVector<Operation *>, SmallVector<GroupReader>> groupReaders;
  if (hint && viewed.empty() && policy == kernel::Policy::Model &&
      op->hasAttr(SpyreDialect::kFusionGroupAttrName) &&
      llvm::none_of(op->getOperands(), [&](Value v) {
        Operation *def = v.getDefiningOp();
        return def && def->getAttr(SpyreDialect::kFusionGroupAttrName) ==
                          op->getAttr(SpyreDialect::kFusionGroupAttrName);
      }))
    groupReaders = groupAndViewReaders(op);
  std::optional<MatmulReader> reader;
  if (!hint && policy == kernel::Policy::Model)
    reader = findMatmulReader(op);
  // A result every reader of which is in the op's fusion group is expected
  // to stay in LX for them (they take its slices): its store is no part of
  // the op's cost, whatever the division.
  Attribute group = op->getAttr(SpyreDialect::kFusionGroupAttrName);
  bool resultKept =
      group && op->getNumResults() == 1 && !op->getResult(0).use_empty() &&
      llvm::all_of(op->getResult(0).getUsers(), [&](Operation *user) {
        return readsWhole(user) &&
               user->getAttr(SpyreDialect::kFusionGroupAttrName) == group;
      });
  OpSignature key = getOpSignature(op, {SpyreDialect::kWorkDivisionAttrName});
  key.push_back(maxCores);
  key.push_back(resultKept);
  // (The look-ahead below asks whether the op may keep its output in LX.)
  key.push_back(mayKeepOutputInLx(op, target));
  key.push_back(static_cast<intptr_t>(policy));
  if (preferred) {
    key.insert(key.end(), preferred->splits.begin(), preferred->splits.end());
    key.insert(key.end(), preferred->order.begin(), preferred->order.end());
    key.push_back(keptInLx ? static_cast<intptr_t>(*keptInLx) : -1);
  }
  for (auto [index, producer] : viewed) {
    // (Delimited: the producer, its division and the operand.)
    const kernel::Division *division = lookup(producer);
    OpSignature part = getOpSignature(producer);
    key.push_back(-2);
    key.insert(key.end(), part.begin(), part.end());
    key.push_back(index);
    key.insert(key.end(), division->splits.begin(), division->splits.end());
    key.insert(key.end(), division->order.begin(), division->order.end());
  }
  for (const GroupReader &r : groupReaders.second) {
    // (Delimited: the group's reader and the operand it reads.)
    OpSignature part = getOpSignature(r.reader);
    key.push_back(-3);
    key.insert(key.end(), part.begin(), part.end());
    key.push_back(r.index);
  }
  if (reader) {
    // The choice depends on the reader and the chain to it too.
    for (Operation *next : reader->between) {
      OpSignature part = getOpSignature(next);
      key.insert(key.end(), part.begin(), part.end());
      // Whether it may keep its output in LX, not which group it is in.
      key.push_back(next->hasAttr(SpyreDialect::kFusionGroupAttrName));
    }
    OpSignature part = getOpSignature(reader->matmul);
    key.insert(key.end(), part.begin(), part.end());
    key.push_back(static_cast<intptr_t>(reader->operand));
  }
  auto cached = cache.find(key);
  if (cached != cache.end())
    return chosen[op] = cached->second;
  std::string reason;
  FailureOr<kernel::Problem> problem = getKernelProblem(op, reason);
  if (failed(problem))
    return llvm::createStringError(reason);
  if (resultKept)
    problem->tensors.back().lxResident = true;
  // The producers read through views, with their problems.
  SmallVector<ViewedProducer, 2> producers;
  for (auto [index, producer] : viewed) {
    FailureOr<kernel::Problem> theirs = getKernelProblem(producer, reason);
    std::optional<kernel::Division> held;
    if (succeeded(theirs))
      held = kernel::resultDivision(*theirs, *lookup(producer));
    if (held)
      producers.push_back({index, producer, std::move(*theirs), *held});
  }
  // Without a producer's slices to carry over, a division whose slices of
  // a result read through views are the boxes its producer left the cores
  // is preferred, costed with that operand read from LX (the best such
  // among the op's divisions within kViewSlack of its best without it):
  // the attention's output read by the output projection with its K split
  // by heads. Only when every other reader of the result that has a
  // division takes the producer's slices too, and when it leaves the
  // result as the op's own best would (GPT-2's output projection, its K
  // split by the heads fastest, would scatter its sums by rows and move
  // the LayerNorm after it off the up projection's slices).
  if (!preferred && !hint && policy == kernel::Policy::Model &&
      !producers.empty()) {
    ViewedReading reading(*problem, target, maxCores);
    for (const ViewedProducer &viewed : producers) {
      bool othersMatch =
          othersTake(op, readsThroughViews(viewed.op->getResult(0)),
                     [&](OpOperand &use, const kernel::Division &taken) {
                       std::string why;
                       FailureOr<kernel::Problem> theirs =
                           getKernelProblem(use.getOwner(), why);
                       return succeeded(theirs) &&
                              kernel::sameCoreSlices(
                                  viewed.problem, viewed.held,
                                  viewed.problem.tensors.size() - 1, *theirs,
                                  taken, use.getOperandNumber());
                     });
      if (!othersMatch)
        continue;
      if (std::optional<kernel::Plan> best = reading.bestAligned(viewed)) {
        preferred = best->division;
        keptInLx = viewed.index;
        break;
      }
    }
  }
  std::optional<kernel::Problem> preferredProblem;
  if (keptInLx) {
    preferredProblem = *problem;
    preferredProblem->tensors[*keptInLx].lxResident = true;
  }
  llvm::Expected<kernel::Plan> plan =
      hint ? kernel::planWithSplits(*problem, target, maxCores,
                                    hint.asArrayRef(), target.usableLxBytes())
           : kernel::divide(*problem, target, maxCores, policy,
                            target.usableLxBytes(),
                            preferred ? &*preferred : nullptr,
                            preferredProblem ? &*preferredProblem : nullptr);
  if (!plan)
    return plan.takeError();
  // Its own preference taken, an op keeps it; otherwise near-ties are
  // broken by what they let the matmul reading the result do. (A hint
  // fixes the splits: the order of a preference with the same splits comes
  // with them.)
  bool tookPreference = preferred && plan->division.splits == preferred->splits;
  if (tookPreference && keepsResult(*problem, *preferred, plan->division))
    plan->division.order = preferred->order;
  // Otherwise the op's slices of a result it reads through views may be
  // the ones its producer left each core, in another order.
  if (!tookPreference)
    for (const ViewedProducer &viewed : producers)
      if (std::optional<kernel::Division> aligned =
              alignWithProducer(*problem, plan->division, viewed);
          aligned && keepsResult(*problem, *aligned, plan->division)) {
        plan->division = *aligned;
        break;
      }
  if (!tookPreference && !groupReaders.second.empty())
    if (std::optional<kernel::Division> ordered =
            orderForGroupReaders(plan->division, groupReaders.first,
                                 groupReaders.second, op, target, maxCores))
      plan->division = *ordered;
  if (reader && !tookPreference)
    if (std::optional<kernel::Division> better =
            lookAhead(op, *problem, *plan, *reader, target, maxCores))
      plan->division = *better;
  cache[key] = plan->division;
  return chosen[op] = plan->division;
}

std::optional<int64_t> LxPlacer::place(int64_t def, int64_t last, int64_t bytes,
                                       int64_t floor) {
  bytes = llvm::alignTo(bytes, stick);
  SmallVector<std::pair<int64_t, int64_t>> busy;
  for (const Placed &p : placed)
    if (p.def <= last && def <= p.last)
      busy.push_back({p.begin, p.end});
  // The highest offset that avoids every busy range.
  SmallVector<int64_t> tops = {usable};
  for (auto [begin, end] : busy)
    tops.push_back(begin);
  llvm::sort(tops, std::greater<int64_t>());
  for (int64_t top : tops) {
    int64_t begin = (top - bytes) / stick * stick;
    if (begin < floor)
      continue;
    if (llvm::any_of(busy, [&](auto range) {
          return begin < range.second && range.first < begin + bytes;
        }))
      continue;
    placed.push_back({def, last, begin, begin + bytes});
    return begin;
  }
  return std::nullopt;
}

int64_t LxPlacer::roomAt(int64_t position) const {
  int64_t room = usable;
  for (const Placed &p : placed)
    if (p.def <= position && position <= p.last)
      room = std::min(room, p.begin);
  return room;
}

bool mlir::spyre::mayKeepOutputInLx(Operation *op, const TargetModel &target) {
  auto payload = dyn_cast<KernelPayloadOpInterface>(op);
  return payload && (op->hasAttr(SpyreDialect::kFusionGroupAttrName) ||
                     target.mayStayInLx(payload.getOpFuncName().str()));
}

bool mlir::spyre::mayStayInLx(
    const DividedPayload &producer,
    function_ref<std::optional<DividedPayload>(Operation *)> lookup,
    const TargetModel &target) {
  Value result = producer.op->getResult(0);
  // (A result an in-place insert places is its destination's DDR bytes.)
  if (result.use_empty() || producer.division->numChunks() > 1 ||
      getBufferRoot(result) != result ||
      !mayKeepOutputInLx(producer.op, target))
    return false;
  // A split reduction's result is held as its combine scatters it.
  std::optional<kernel::Division> held =
      kernel::resultDivision(*producer.problem, *producer.division);
  if (!held)
    return false;
  // Its readers, through the views (reshapes and transposes: the same
  // device bytes under other host dims) between.
  SmallVector<OpOperand *> reads = readsThroughViews(result);
  unsigned resultIndex = producer.problem->tensors.size() - 1;
  for (OpOperand *use : reads) {
    // A view's box (a head's block of Q) is read by its readers from each
    // core's slice, where one LX address reaches their parts on every core.
    if (auto slice = dyn_cast<ExtractSliceOp>(use->getOwner());
        slice && isViewOp(slice)) {
      SmallVector<OpOperand *> boxReads =
          readsThroughViews(slice->getResult(0));
      if (boxReads.empty())
        return false;
      for (OpOperand *boxRead : boxReads) {
        Operation *owner = boxRead->getOwner();
        std::optional<DividedPayload> consumer =
            isa<ExtractSliceOp, InsertSliceOp>(owner) ? std::nullopt
                                                      : lookup(owner);
        if (!consumer || consumer->division->numChunks() > 1 ||
            !residentBoxOffset(producer, *consumer,
                               boxRead->getOperandNumber()))
          return false;
      }
      continue;
    }
    // Another box is read through DDR addresses (a copy of the buffer's
    // part); the source an insert copies into its box is read whole.
    bool boxRead =
        isa<ExtractSliceOp>(use->getOwner()) ||
        (isa<InsertSliceOp>(use->getOwner()) && use->getOperandNumber() != 0);
    std::optional<DividedPayload> consumer = lookup(use->getOwner());
    if (boxRead || !consumer || consumer->division->numChunks() > 1 ||
        !kernel::sameCoreSlices(*producer.problem, *held, resultIndex,
                                *consumer->problem, *consumer->division,
                                use->getOperandNumber()))
      return false;
  }
  return true;
}
