//===- FuseRowBlocks.cpp - --spyre-fuse-row-blocks ------------------------===//
//
// A row-wise pipeline (softmax, LayerNorm, RMSNorm, an activation after an
// elementwise op) run op by op writes every intermediate to DDR once its
// tensors no longer fit LX together. Run block by block, each block's
// intermediates fit:
//
//   for every block of R rows:
//     inputs read row by row -> spyre.extract_slice (into LX)
//     the group's ops on R rows (intermediates in LX)
//     results read elsewhere -> spyre.insert_slice into a full-size buffer
//       (copying nothing when the result is only for it: its op writes
//       its rows into the buffer, typed as the buffer's block with its
//       strides; see writeInPlace)
//
// Device reshapes (views) first move up next to their inputs, so that a
// group may read a [batch, heads, ...] argument reshaped for a contraction
// wherever it runs (P.V's V, reshaped where P.V was).
//
// For every host dim c that may be cut (rows of a [rows, cols] tensor; the
// heads or the queries of [heads, queries, keys] attention scores):
//
// 1. every device compute op (not a matmul, not data movement; a batch
//    matmul only when c is a batch dim of both operands) whose result's host
//    dim c is an op dim `l` read as one whole host dim by each input that
//    uses `l` at all, is row-wise;
// 2. row-wise ops connected producer -> consumer through values read along
//    `l` form groups, cut where an op reads a tensor made after the group's
//    first op (a matmul between two chains);
// 3. a group whose tensors exceed half the cores' usable LX together is cut
//    into the fewest blocks whose tensors fit together or, where no block
//    does, whose tensors live at once fit (the peak over the group's ops, in
//    order: one head's scores, their exp and its probabilities are never
//    all live) (rows a multiple of the cores, or the cores
//    shared with the next dim), and costed with the kernel model against
//    the ops run whole (both divided and kept in LX as the later passes
//    would); blocks of a group whose tensors live at once fit must also
//    beat the group run whole as one group (below), which copies nothing in
//    or out per block.
//
// Inputs every block reads whole may be copied once before the blocks (an
// attention mask every head adds), so that the copy stays in LX for all of
// them, when the kernel model gives that a gain 10% larger.
//
// The ways that gain at least 10% are rewritten, the largest gain first,
// each op in one group, in place of the group's first op.
//
// An elementwise group that is all a matmul's output feeds (a bias, a tanh
// GELU) may instead join the matmul in one group without blocks, when the
// kernel model gives that the larger gain: the matmul's output and the
// chain's intermediates stay in LX while they are live (blocks of the chain
// alone would send the matmul's output to DDR and copy it back in). A
// chain that feeds a reduction outside it (the residual add and the square
// of the RMSNorm after a projection) is left to the whole groups below,
// where the norm's group and the matmul's epilogue compete for it.
//
// A group whose tensors live at once (the peak, as blocks are sized) fit
// half the cores' LX may run whole instead, as
// one group whose ops all split their rows across the cores alike (the
// most cores that divide the rows evenly - 24 heads on 24 of 32 cores -, or
// those that divide both and the rest along the next dim - 4 of 12 heads
// by 8 blocks of queries -, each a candidate; so that
// every intermediate's slices match its readers' and may stay in LX,
// whatever the op), a row input several of its ops read copied into LX
// once. Those groups (each also without its ops that read a matmul, which
// the matmul's epilogue may take) and the matmul epilogues below compete (a
// bias add belongs to one or the other): each is costed with the kernel
// model on the part of the block it may change - its ops, their producers
// and readers, and kWindowKernels kernels each side (a whole layer: a long
// function costs each candidate on a window, not on every layer) - (every
// op divided as the later passes would, and the tensors they would keep in
// LX placed as --spyre-plan-memory places them, readers outside the group
// included) and kept, the largest gain first, while it still saves
// kMinWholeGain of its window - costed again
// once one is kept, those that did not pay before included (a norm's group
// pays once the epilogue that took its residual add splits it as the
// matmul).
//
// Then every matmul still in no group whose users are all elementwise ops
// joins one group with them, without blocks: its output may stay in LX for
// its epilogue.
//
//===----------------------------------------------------------------------===//

#include "Spyre/Dialect/Spyre/IR/KernelForm.h"
#include "Spyre/Dialect/Spyre/IR/Spyre.h"
#include "Spyre/Transforms/Passes.h"
#include "Spyre/Transforms/Utils.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/SetVector.h"

#include <numeric>
#include <set>

namespace mlir::spyre {
#define GEN_PASS_DEF_SPYREFUSEROWBLOCKS
#include "Spyre/Transforms/Passes.h.inc"
} // namespace mlir::spyre

using namespace mlir;
using namespace mlir::spyre;

namespace {

/// The blocks a group may be cut into at most (each block is a handful of
/// kernels).
constexpr int64_t kMaxBlocks = 256;

/// The modelled gain blocks must promise to be kept: the kernel model and
/// the simulator's timing differ by more than a few percent on small
/// kernels, and every block adds kernel launches.
constexpr double kMinGain = 0.10;

/// The share of the modelled time of the part of the block it changes (its
/// costing window) a group run whole must save (it adds no kernel unless it
/// copies an input, but each group constrains its ops' divisions); also what
/// splitting a boxed result's rows for its readers must save.
constexpr double kMinWholeGain = 0.005;

/// The kernels a whole group's costing window reaches past the ops it
/// touches on each side (a BERT layer has 48).
constexpr int64_t kWindowKernels = 48;

/// The host dims tried as the cut, outermost first.
constexpr unsigned kMaxCutDim = 4;

/// Device bytes of laid-out `type` (0 when it has no layout).
int64_t deviceBytes(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !isDeviceTensor(tensor))
    return 0;
  llvm::Expected<SpyreTensorLayout> layout =
      getLayoutAttr(tensor).getLayout(tensor.getElementType());
  if (!layout) {
    llvm::consumeError(layout.takeError());
    return 0;
  }
  return layout->deviceBytes();
}

/// How a whole group's rows split across the cores: the cut dim `split`
/// ways and the dim after it `next` ways (a softmax's heads and its queries).
struct RowSplit {
  int64_t split = 1, next = 1;
};

/// The splits of a whole group's `rows` across `cores`: the most cores that
/// divide the rows evenly (24 heads on 24 of 32 cores, not 8: cores left
/// idle cost less than rows done by a quarter of them), or, with `spread`,
/// as many as divide both and the rest of the cores along the next dim (8
/// heads by 4 blocks of queries: every core busy, each head's K and V read
/// by four).
RowSplit rowSplit(int64_t rows, int64_t cores, bool spread) {
  if (spread) {
    int64_t split = std::gcd(rows, cores);
    return {split, cores / split};
  }
  for (int64_t split = std::min(rows, cores); split > 1; --split)
    if (rows % split == 0)
      return {split, 1};
  return {};
}

/// The host dim laid-out `type` has its stick on (-1: sparse), or nullopt
/// when its layout does not bind.
std::optional<int> stickHostDimOf(RankedTensorType type) {
  llvm::Expected<BoundLayout> bound = bindLayout(type);
  if (!bound) {
    llvm::consumeError(bound.takeError());
    return std::nullopt;
  }
  return bound->stickHostDim();
}

/// The splits of a block copy `type` (cut along host dim `cut`) across
/// `cores`: the cut dim by as many cores as divide it, the rest of the cores
/// on the next dim they divide that is not the stick; nullopt when the cores
/// cannot all be used that way.
std::optional<SmallVector<int64_t>> blockSplits(RankedTensorType type,
                                                unsigned cut, int64_t cores) {
  SmallVector<int64_t> splits(type.getRank(), 1);
  splits[cut] = std::gcd(type.getDimSize(cut), cores);
  int64_t rest = cores / splits[cut];
  if (rest == 1)
    return splits;
  std::optional<int> stick = stickHostDimOf(type);
  if (!stick)
    return std::nullopt;
  for (unsigned d = cut + 1; d < type.getRank(); ++d)
    if (static_cast<int>(d) != *stick && type.getDimSize(d) % rest == 0) {
      splits[d] = rest;
      return splits;
    }
  return std::nullopt;
}

/// How a row-wise op reads its operands.
struct RowOp {
  Operation *op = nullptr;
  /// Per input: the host dim read at the row's op dim, or -1 when the input
  /// does not depend on the row at all (read whole by every block).
  SmallVector<int> cutDim;
};

/// Whether `op` is row-wise along host dim `cut` of its result (see the file
/// comment), and how it reads its inputs.
std::optional<RowOp> asRowOp(Operation *op, unsigned cut) {
  auto payload = dyn_cast<KernelPayloadOpInterface>(op);
  auto compute = dyn_cast<ComputeOpInterface>(op);
  if (!payload || !compute || op->getNumResults() != 1 ||
      isa<MatmulOp, ScaledMatmulOp>(op) || payload.isDataMovement() ||
      op->hasAttr(SpyreDialect::kFusionGroupAttrName))
    return std::nullopt;
  auto resultType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!resultType || !isDeviceTensor(resultType) || resultType.getRank() <= cut)
    return std::nullopt;
  SmallVector<AffineMap> maps = payload.getIndexingMapsArray();
  if (maps.size() != op->getNumOperands() + 1)
    return std::nullopt;
  auto row = dyn_cast<AffineDimExpr>(maps.back().getResult(cut));
  if (!row)
    return std::nullopt;
  unsigned l = row.getPosition();
  // The row's op dim appears once in a map, as a whole host dim.
  auto positionOfRow = [&](AffineMap map) -> std::optional<int> {
    std::optional<int> at;
    for (auto [r, e] : llvm::enumerate(map.getResults())) {
      if (!e.isFunctionOfDim(l))
        continue;
      if (at || e != row)
        return std::nullopt;
      at = static_cast<int>(r);
    }
    return at ? at : std::optional<int>(-1);
  };
  if (positionOfRow(maps.back()) != static_cast<int>(cut))
    return std::nullopt;
  RowOp result;
  result.op = op;
  for (auto [i, operand] : llvm::enumerate(op->getOperands())) {
    std::optional<int> at = positionOfRow(maps[i]);
    auto type = dyn_cast<RankedTensorType>(operand.getType());
    if (!at || !type ||
        (*at >= 0 && type.getDimSize(*at) != resultType.getDimSize(cut)))
      return std::nullopt;
    result.cutDim.push_back(*at);
  }
  // A batch matmul joins only along a batch dim: each block reads its own
  // batches of both operands, nothing twice.
  if (isa<BatchMatmulOp>(op) && llvm::is_contained(result.cutDim, -1))
    return std::nullopt;
  return result;
}

/// A range of a block's ops: those after `before` (from the block's first
/// when null) and before `after` (to its end when null), so that ops
/// inserted inside it are in it. The whole block by default.
struct Window {
  Operation *before = nullptr, *after = nullptr;
};

struct WholeGroup;

struct FuseRowBlocksPass
    : public ::mlir::spyre::impl::SpyreFuseRowBlocksBase<FuseRowBlocksPass> {
  using SpyreFuseRowBlocksBase::SpyreFuseRowBlocksBase;

  void runOnOperation() override {
    sharedDivisions.clear();
    if (failed(
            checkCoresOption(getOperation(), "--spyre-fuse-row-blocks", cores)))
      return signalPassFailure();
    if (failed(forEachFunction(getOperation(), [&](FunctionOpInterface f) {
          if (f.isExternal())
            return success();
          target = getTarget(f).getModel();
          for (Block &block : f.getFunctionBody()) {
            hoistReshapeViews(block);
            fuseBlock(block);
            keepGroupsWhole(block);
            markEpilogues(block);
            keepBoxedResultsInLx(block);
          }
          return success();
        })))
      signalPassFailure();
  }

  /// Moves every device reshape (a view: no kernel, no copy) and broadcast
  /// (an identity reading fewer dims than it writes: a padding mask copied
  /// per head) right after its inputs are made, so that a group may read it
  /// wherever it runs: a [batch, heads, ...] value a contraction reads as
  /// [batch * heads, ...] is reshaped where the contraction is, after the
  /// group's first op.
  static void hoistReshapeViews(Block &block);
  /// Every way of cutting `block`'s row-wise ops into blocks the cost
  /// check accepts, the best modelled gain first, those that share no op
  /// with a better one committed.
  void fuseBlock(Block &block);
  /// The groups of ops row-wise along host dim `cut` (see the file
  /// comment), each in program order.
  SmallVector<SmallVector<RowOp>> formGroups(Block &block, unsigned cut);
  /// Puts every matmul whose users are all elementwise ops (a bias, an
  /// activation, a residual add, a scaling) in one group with them, without
  /// blocks: its output may then stay in LX for them when its slices match
  /// and fit.
  void markEpilogues(Block &block);
  /// Splits the rows of an op whose result only blocks read, as boxes
  /// through views (a head's Q, read by its attention block), together with
  /// the ops of its fusion group (the projection whose epilogue it is), so
  /// that each core keeps the rows its block kernels read and the result
  /// may stay in LX for all of them; kept where the kernel model says that
  /// pays over the window from the group to the blocks.
  void keepBoxedResultsInLx(Block &block);
  /// The matmuls an elementwise `group` is the whole epilogue of: the
  /// matmuls whose results the group reads and nothing else does (one, or
  /// several: SwiGLU's gate and up projections), in program order; empty
  /// when there are none or another op reads one.
  SmallVector<Operation *> epilogueMatmuls(ArrayRef<RowOp> group);
  /// The modelled seconds that running `group` whole as the `matmuls`'
  /// epilogue (one fusion group: the matmuls' outputs and every
  /// intermediate may stay in LX while they are live) saves over the two
  /// run apart.
  std::optional<double> epilogueGain(ArrayRef<Operation *> matmuls,
                                     ArrayRef<RowOp> group);
  /// Runs whole, as one group each, the row-wise groups whose tensors live
  /// at once fit half the cores' LX where the whole block's modelled time
  /// says that pays (WholeGroup).
  void keepGroupsWhole(Block &block);
  /// The seconds `group` run whole (cut along `cut`) saves on its window,
  /// the better of its row splits; nullopt when it cannot run whole.
  std::optional<double> wholeGroupGain(Block &block, ArrayRef<RowOp> group,
                                       unsigned cut);
  /// blockSeconds over `window` with `apply`'s group in place (undone
  /// after); nullopt when it applies nothing or cannot be costed.
  std::optional<double>
  secondsWith(Block &block, const Window &window,
              function_ref<std::optional<WholeGroup>()> apply);
  /// The cores the pass divides over.
  int64_t numCores() const { return cores == 0 ? target.cores : cores; }
  /// The bytes a group's tensors may take in the cores' LX, together (or
  /// live at once): half of it, the rest for the staging buffers.
  int64_t groupBudget() const {
    return target.usableLxBytes() * numCores() / 2;
  }
  /// The kernel model's time for every kernel of `block` in `window`,
  /// divided and kept in LX as the later passes would.
  std::optional<double> blockSeconds(Block &block, int64_t numCores,
                                     const Window &window = {});
  /// The window whose modelled time a candidate of `ops` may change: from
  /// the first of them, their operands' producers and their results'
  /// readers to the last, widened by kWindowKernels kernels each side (LX
  /// residents nearby compete for room). Costing a candidate on it rather
  /// than on the whole block keeps a long function (a model's every
  /// layer) linear in its length.
  static Window windowOf(Block &block, ArrayRef<Operation *> ops);
  /// Divides the block's ops as --spyre-divide-work would (once per block).
  void ensureDivisions(Block &block, int64_t numCores);
  /// The modelled seconds running `group` (ops row-wise along host dim
  /// `cut` of their results, in program order) in blocks saves, when that
  /// pays; the blocks are kept when `commit`, else undone. With
  /// `copyWholeInputs`, each input every block reads whole is copied once
  /// before the blocks (the copy may stay in LX for all of them).
  std::optional<double> fuseGroup(ArrayRef<RowOp> group, unsigned cut,
                                  bool wholeRowsPerCore, bool copyWholeInputs,
                                  bool commit);
  /// The kernel model's time for `ops` (in program order, each divided by
  /// `chooser`) with the intermediates --spyre-plan-memory would keep in LX:
  /// those `mayStayInLx` allows among `ops`, largest saving first, above
  /// each kernel's staging buffers. Nullopt when the model cannot plan one
  /// of them.
  std::optional<double> modelledSeconds(ArrayRef<Operation *> ops,
                                        const DivisionChooser &chooser);

  TargetModel target;
  int64_t nextGroup = 0;
  /// The block's ops divided as --spyre-divide-work would divide them
  /// without row blocks.
  std::optional<DivisionChooser> divisions;
  /// The choices of every chooser of one run (each costs the function
  /// again, mostly with the same ops).
  DivisionChooser::Cache sharedDivisions;
};

/// The peak of the device bytes live at once, op by op in the group's order:
/// an input is live from the group's start to its last reader in the group,
/// a result from its op to its last reader, or to the group's end when the
/// program reads it elsewhere (it is copied out, or read from LX, then).
static int64_t livePeakBytes(ArrayRef<RowOp> group, ArrayRef<Value> inputs) {
  DenseMap<Operation *, size_t> position;
  for (auto [i, r] : llvm::enumerate(group))
    position[r.op] = i;
  SmallVector<int64_t> live(group.size(), 0);
  auto occupy = [&](Value v, size_t from, bool readOutsideLivesToEnd) {
    size_t last = from;
    for (Operation *user : v.getUsers()) {
      if (auto it = position.find(user); it != position.end())
        last = std::max(last, it->second);
      else if (readOutsideLivesToEnd)
        last = group.size() - 1;
    }
    for (size_t p = from; p <= last; ++p)
      live[p] += deviceBytes(v.getType());
  };
  for (Value v : inputs)
    occupy(v, 0, /*readOutsideLivesToEnd=*/false);
  for (auto [i, r] : llvm::enumerate(group))
    occupy(r.op->getResult(0), i, /*readOutsideLivesToEnd=*/true);
  return *llvm::max_element(live);
}

/// The device tensors the group reads that none of its ops makes.
static SmallVector<Value> outsideInputs(ArrayRef<RowOp> group) {
  llvm::SmallPtrSet<Operation *, 16> members;
  for (const RowOp &r : group)
    members.insert(r.op);
  llvm::SetVector<Value> inputs;
  for (const RowOp &r : group)
    for (Value operand : r.op->getOperands())
      if (!members.contains(operand.getDefiningOp()) &&
          isDeviceTensor(operand.getType()))
        inputs.insert(operand);
  return inputs.takeVector();
}

/// Whether the tensors `group` has live at once take at most `budget`
/// bytes, its inputs included: it may then run whole.
static bool fitsWhole(ArrayRef<RowOp> group, int64_t budget) {
  return livePeakBytes(group, outsideInputs(group)) <= budget;
}

/// The ways a whole group may split its rows: over the most cores that
/// divide them, and, when that leaves cores idle, over the next dim too.
static SmallVector<bool, 2> rowSpreads(int64_t rows, int64_t numCores) {
  SmallVector<bool, 2> spreads = {false};
  if (rowSplit(rows, numCores, false).split < numCores &&
      rowSplit(rows, numCores, true).next > 1)
    spreads.push_back(true);
  return spreads;
}

/// A matmul on the device in no group.
static bool isUngroupedMatmul(Operation *op) {
  return isa_and_nonnull<MatmulOp, BatchMatmulOp>(op) &&
         !op->hasAttr(SpyreDialect::kFusionGroupAttrName) &&
         isDeviceTensor(op->getResult(0).getType());
}

/// Whether an op of `group` feeds a reduction outside it.
static bool feedsOutsideReduction(ArrayRef<RowOp> group) {
  llvm::SmallPtrSet<Operation *, 16> members;
  for (const RowOp &r : group)
    members.insert(r.op);
  return llvm::any_of(group, [&](const RowOp &r) {
    return llvm::any_of(r.op->getResult(0).getUsers(), [&](Operation *u) {
      return isa<ReductionOpInterface>(u) && !members.contains(u);
    });
  });
}

/// A matmul in no group whose readers are all elementwise ops in none.
static bool isEpilogueMatmul(Operation *op) {
  return isUngroupedMatmul(op) && !op->getResult(0).use_empty() &&
         llvm::all_of(op->getResult(0).getUsers(), [](Operation *u) {
           return isa<ElementwiseOpInterface>(u) &&
                  !u->hasAttr(SpyreDialect::kFusionGroupAttrName);
         });
}

void FuseRowBlocksPass::markEpilogues(Block &block) {
  for (Operation &op : block) {
    if (!isEpilogueMatmul(&op))
      continue;
    auto group =
        IntegerAttr::get(IntegerType::get(op.getContext(), 64), nextGroup++);
    op.setAttr(SpyreDialect::kFusionGroupAttrName, group);
    for (Operation *user : op.getResult(0).getUsers())
      user->setAttr(SpyreDialect::kFusionGroupAttrName, group);
  }
}

SmallVector<Operation *>
FuseRowBlocksPass::epilogueMatmuls(ArrayRef<RowOp> group) {
  llvm::SmallPtrSet<Operation *, 16> members;
  for (const RowOp &r : group) {
    if (!isa<ElementwiseOpInterface>(r.op))
      return {};
    members.insert(r.op);
  }
  llvm::SetVector<Operation *> matmuls;
  for (const RowOp &r : group)
    for (Value operand : r.op->getOperands())
      if (Operation *producer = operand.getDefiningOp();
          isUngroupedMatmul(producer))
        matmuls.insert(producer);
  for (Operation *matmul : matmuls)
    if (!llvm::all_of(matmul->getResult(0).getUsers(),
                      [&](Operation *u) { return members.contains(u); }))
      return {};
  SmallVector<Operation *> ordered(matmuls.begin(), matmuls.end());
  llvm::sort(ordered,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  return ordered;
}

/// `group` run whole as one fusion group, applied to the IR so that it can be
/// costed and undone: every op's rows split across the cores alike (the op
/// dim at the result's cut dim; so that each intermediate's slices match its
/// readers' and may stay in LX whatever the op), and a row input several of
/// its ops read (a LayerNorm's x, read for its mean and again to centre it)
/// copied into LX once and read from there by all of them.
struct WholeGroup {
  struct Copy {
    Operation *copy;
    SmallVector<OpOperand *> uses;
  };
  SmallVector<Operation *> ops;
  SmallVector<Operation *> hinted;
  SmallVector<Copy> copies;
  /// Ops joined from outside, with the group they were in (or null).
  SmallVector<std::pair<Operation *, Attribute>> relabeled;

  /// Whether `op`'s result indexes host dim `cut` with a plain loop.
  static bool indexesCut(Operation *op, unsigned cut) {
    AffineMap result =
        cast<KernelPayloadOpInterface>(op).getIndexingMapsArray().back();
    return cut < result.getNumResults() &&
           isa<AffineDimExpr>(result.getResult(cut));
  }

  /// Splits `op`'s rows (the op dim its result indexes at host dim `cut`)
  /// `split.split` ways across the cores and the op dim at host dim
  /// `cut + 1` `split.next` ways, and no other dim; undone by undo().
  /// False (nothing changed) when the op has no such dim to split: host dim
  /// `cut + 1` is no plain loop, does not divide, or is the stick (its
  /// sticks would be cut across cores).
  bool hintRows(Operation *op, unsigned cut, RowSplit split) {
    AffineMap result =
        cast<KernelPayloadOpInterface>(op).getIndexingMapsArray().back();
    SmallVector<int64_t> splits(result.getNumDims(), 1);
    splits[cast<AffineDimExpr>(result.getResult(cut)).getPosition()] =
        split.split;
    if (split.next > 1) {
      AffineDimExpr next =
          cut + 1 < result.getNumResults()
              ? dyn_cast<AffineDimExpr>(result.getResult(cut + 1))
              : nullptr;
      auto type = cast<RankedTensorType>(op->getResult(0).getType());
      if (!next || type.getDimSize(cut + 1) % split.next != 0)
        return false;
      std::optional<int> stick = stickHostDimOf(type);
      if (!stick || *stick == static_cast<int>(cut + 1))
        return false;
      splits[next.getPosition()] = split.next;
    }
    op->setAttr(SpyreDialect::kWorkDivisionAttrName,
                DenseI64ArrayAttr::get(op->getContext(), splits));
    hinted.push_back(op);
    return true;
  }

  /// The copy `op` is, or null.
  const Copy *copyOf(Operation *op) const {
    auto it =
        llvm::find_if(copies, [&](const Copy &c) { return c.copy == op; });
    return it == copies.end() ? nullptr : &*it;
  }

  /// Whether every reader of `c` reads host dim `cut + 1` of it with the
  /// loop its result has at host dim `cut + 1`.
  static bool readsNextAtNext(const Copy &c, unsigned cut) {
    return llvm::all_of(c.uses, [&](OpOperand *use) {
      SmallVector<AffineMap> maps =
          cast<KernelPayloadOpInterface>(use->getOwner())
              .getIndexingMapsArray();
      AffineMap read = maps[use->getOperandNumber()], result = maps.back();
      return cut + 1 < read.getNumResults() &&
             cut + 1 < result.getNumResults() &&
             isa<AffineDimExpr>(result.getResult(cut + 1)) &&
             read.getResult(cut + 1) == result.getResult(cut + 1);
    });
  }

  /// Applies the group; nullopt (nothing changed) when an op's result does
  /// not index the cut dim with a plain loop.
  static std::optional<WholeGroup> apply(ArrayRef<RowOp> group, unsigned cut,
                                         int64_t numCores, bool spread,
                                         IntegerAttr id) {
    WholeGroup whole;
    llvm::SmallPtrSet<Operation *, 16> members;
    for (const RowOp &r : group) {
      if (!indexesCut(r.op, cut))
        return std::nullopt;
      members.insert(r.op);
    }
    Operation *first = group.front().op;
    llvm::SetVector<Value> inputs;
    for (const RowOp &r : group)
      for (auto [o, operand] : llvm::enumerate(r.op->getOperands()))
        if (r.cutDim[o] >= 0 && !members.contains(operand.getDefiningOp()) &&
            isDeviceTensor(operand.getType()))
          inputs.insert(operand);
    OpBuilder builder(first);
    for (Value in : inputs) {
      SmallVector<OpOperand *> uses;
      for (OpOperand &use : in.getUses())
        if (members.contains(use.getOwner()))
          uses.push_back(&use);
      if (uses.size() < 2)
        continue;
      Operation *copy = IdentityOp::create(builder, in.getLoc(), in.getType(),
                                           ValueRange{in}, nullptr)
                            .getOperation();
      for (OpOperand *use : uses)
        use->set(copy->getResult(0));
      whole.copies.push_back({copy, std::move(uses)});
      whole.ops.push_back(copy);
    }
    for (const RowOp &r : group)
      whole.ops.push_back(r.op);
    int64_t rows =
        cast<RankedTensorType>(first->getResult(0).getType()).getDimSize(cut);
    RowSplit split = rowSplit(rows, numCores, spread);
    for (Operation *op : whole.ops) {
      op->setAttr(SpyreDialect::kFusionGroupAttrName, id);
      // A copy splits its dim `cut + 1` only when its readers read it at
      // theirs (a softmax's x; not the keys of a head's K read along a
      // query block): its rows by the cut alone otherwise.
      RowSplit own = split;
      if (const Copy *c = whole.copyOf(op); c && !readsNextAtNext(*c, cut))
        own.next = 1;
      if (!op->hasAttr(SpyreDialect::kWorkDivisionAttrName) &&
          !whole.hintRows(op, cut, own)) {
        whole.undo();
        return std::nullopt;
      }
    }
    return whole;
  }

  /// A matmul and the elementwise ops that read it as one group (its
  /// output may stay in LX for them), applied.
  static WholeGroup epilogue(Operation *matmul, IntegerAttr id) {
    WholeGroup whole;
    whole.ops.push_back(matmul);
    for (Operation *user : matmul->getResult(0).getUsers())
      if (!llvm::is_contained(whole.ops, user))
        whole.ops.push_back(user);
    for (Operation *op : whole.ops)
      op->setAttr(SpyreDialect::kFusionGroupAttrName, id);
    return whole;
  }

  /// Joins `producers` (a matmul only the group reads, or a matmul's
  /// epilogue group whose results only it and the group read) to the
  /// applied group, their rows split as the group's, so that their outputs
  /// may stay in LX for the group (a projection, its bias, the residual add
  /// and the LayerNorm after them); false when a result does not index the
  /// cut dim with a plain loop or cannot split so, with the producers before
  /// it already relabeled: the caller then undoes the whole group.
  bool absorb(ArrayRef<Operation *> producers, unsigned cut, int64_t numCores,
              bool spread, IntegerAttr id) {
    if (llvm::any_of(producers, [&](Operation *op) {
          return !indexesCut(op, cut) ||
                 op->hasAttr(SpyreDialect::kWorkDivisionAttrName);
        }))
      return false;
    for (Operation *op : producers) {
      int64_t rows =
          cast<RankedTensorType>(op->getResult(0).getType()).getDimSize(cut);
      relabeled.push_back(
          {op, op->getAttr(SpyreDialect::kFusionGroupAttrName)});
      op->setAttr(SpyreDialect::kFusionGroupAttrName, id);
      if (!hintRows(op, cut, rowSplit(rows, numCores, spread)))
        return false;
    }
    // An input the group copied into LX once for its readers is now made
    // there.
    llvm::erase_if(copies, [&](Copy &c) {
      if (!llvm::is_contained(producers, c.copy->getOperand(0).getDefiningOp()))
        return false;
      for (OpOperand *use : c.uses)
        use->set(c.copy->getOperand(0));
      llvm::erase(ops, c.copy);
      llvm::erase(hinted, c.copy);
      c.copy->erase();
      return true;
    });
    return true;
  }

  void undo() {
    for (Operation *op : ops)
      op->removeAttr(SpyreDialect::kFusionGroupAttrName);
    for (auto [op, group] : relabeled) {
      if (group)
        op->setAttr(SpyreDialect::kFusionGroupAttrName, group);
      else
        op->removeAttr(SpyreDialect::kFusionGroupAttrName);
    }
    for (Operation *op : hinted)
      op->removeAttr(SpyreDialect::kWorkDivisionAttrName);
    for (Copy &c : copies) {
      for (OpOperand *use : c.uses)
        use->set(c.copy->getOperand(0));
      c.copy->erase();
    }
  }
};

/// Types a block's result `value` that the block's ops do not read (only
/// the insert into the full-size buffer of `type` will) as the block of
/// that buffer (`blockRows` along `cut`) with its device strides, when its
/// producer allows that layout: the producer then writes the block into the
/// buffer in place (`isInPlaceInsert`), and no copy moves it out of LX (an
/// attention head's P.V, whose PT-bound kernel hides the write).
static void writeInPlace(Value value, RankedTensorType type, unsigned cut,
                         int64_t blockRows) {
  Operation *producer = value.getDefiningOp();
  if (!value.use_empty() || !producer || !isKernelPayload(producer) ||
      isa<InsertSliceOp, ExtractSliceOp>(producer))
    return;
  FailureOr<RankedTensorType> strided =
      getRowBlockType(type, cut, blockRows, /*deviceDim=*/nullptr,
                      /*strided=*/true);
  Type dense = value.getType();
  if (failed(strided) || *strided == dense)
    return;
  value.setType(*strided);
  if (failed(mlir::verify(producer)))
    value.setType(dense);
}

/// When `in` is a restickify only the group (`members`) reads and the
/// block of its input's rows at `offsets` (along host dim `dim`) is a view,
/// the restickify of that view to `blockType` (the block of `in`), else
/// null. Restickifying each block of rows where it is read moves them once;
/// restickifying the whole tensor and copying out each block of the result
/// moves them three times.
static Operation *
restickifyBlock(OpBuilder &builder, Value in, unsigned dim,
                ArrayRef<int64_t> offsets, RankedTensorType blockType,
                const llvm::SmallPtrSetImpl<Operation *> &members) {
  auto restick = in.getDefiningOp<RestickifyOp>();
  if (!restick || llvm::any_of(in.getUsers(), [&](Operation *user) {
        return !members.contains(user);
      }))
    return nullptr;
  FailureOr<RankedTensorType> sourceBlock = getRowBlockType(
      restick.getInput().getType(), dim, blockType.getDimSize(dim));
  if (failed(sourceBlock))
    return nullptr;
  auto view = ExtractSliceOp::create(builder, in.getLoc(), *sourceBlock,
                                     restick.getInput(), offsets);
  if (!isViewOp(view)) {
    view->erase();
    return nullptr;
  }
  return RestickifyOp::create(builder, in.getLoc(), blockType, view.getResult())
      .getOperation();
}

/// Splits a block's `op` that reads its rows through a view (no copy whose
/// division it would carry over) as the copy would have been split
/// (`viewSplits`, over the view's dims), unless an earlier operand is a
/// result of the block's kernels, whose division it carries over instead.
static void
hintViewReader(Operation *op,
               const DenseMap<Value, SmallVector<int64_t>> &viewSplits) {
  auto payload = dyn_cast<KernelPayloadOpInterface>(op);
  if (!payload || op->hasAttr(SpyreDialect::kWorkDivisionAttrName))
    return;
  Attribute group = op->getAttr(SpyreDialect::kFusionGroupAttrName);
  for (OpOperand &operand : op->getOpOperands()) {
    // A kernel of the block (a member, or a copy every block reads): the
    // op carries its division over. One outside the block is read whole.
    Operation *def = operand.get().getDefiningOp();
    if (def && isKernelPayload(def) &&
        def->getAttr(SpyreDialect::kFusionGroupAttrName) == group)
      return;
    auto it = viewSplits.find(operand.get());
    if (it == viewSplits.end())
      continue;
    AffineMap map = payload.getIndexingMapsArray()[operand.getOperandNumber()];
    SmallVector<utils::IteratorType> iterators =
        payload.getIteratorTypesArray();
    SmallVector<int64_t> splits(payload.getNumLoops(), 1);
    for (auto [h, expr] : llvm::enumerate(map.getResults())) {
      auto dim = dyn_cast<AffineDimExpr>(expr);
      if (it->second[h] == 1)
        continue;
      if (!dim || iterators[dim.getPosition()] != utils::IteratorType::parallel)
        return;
      splits[dim.getPosition()] = it->second[h];
    }
    op->setAttr(SpyreDialect::kWorkDivisionAttrName,
                DenseI64ArrayAttr::get(op->getContext(), splits));
    return;
  }
}

/// An op that becomes one kernel of its own (what divide-work divides).
static bool isDividedKernel(Operation &op) {
  return isKernelPayload(&op) && op.getNumResults() == 1 &&
         isDeviceTensor(op.getResult(0).getType());
}

std::optional<double> FuseRowBlocksPass::blockSeconds(Block &block,
                                                      int64_t numCores,
                                                      const Window &window) {
  SmallVector<Operation *> ops;
  Operation *op = window.before ? window.before->getNextNode()
                                : (block.empty() ? nullptr : &block.front());
  for (; op && op != window.after; op = op->getNextNode())
    if (isDividedKernel(*op))
      ops.push_back(op);
  DivisionChooser chooser(target, numCores, kernel::Policy::Model,
                          &sharedDivisions);
  for (Operation *kernel : ops) {
    llvm::Expected<kernel::Division> division = chooser.choose(kernel);
    if (!division) {
      llvm::consumeError(division.takeError());
      return std::nullopt;
    }
  }
  return modelledSeconds(ops, chooser);
}

Window FuseRowBlocksPass::windowOf(Block &block, ArrayRef<Operation *> ops) {
  // The first op and the last the candidate's ops or their operands'
  // producers or their results' readers are, in the block.
  Operation *first = nullptr, *last = nullptr;
  auto see = [&](Operation *op) {
    while (op && op->getBlock() != &block)
      op = op->getParentOp();
    if (!op)
      return;
    if (!first || op->isBeforeInBlock(first))
      first = op;
    if (!last || last->isBeforeInBlock(op))
      last = op;
  };
  // (Only kernels: a constant or a view every layer reads sits at the top
  // of the function and makes no kernel.)
  auto seeKernel = [&](Operation *op) {
    if (op && isDividedKernel(*op))
      see(op);
  };
  // (Through views: a reader of a view may read the result from LX.)
  std::function<void(Value)> seeReaders = [&](Value value) {
    for (Operation *reader : value.getUsers())
      if (isViewOp(reader))
        seeReaders(reader->getResult(0));
      else
        seeKernel(reader);
  };
  for (Operation *op : ops) {
    see(op);
    for (Value operand : op->getOperands()) {
      Operation *def = operand.getDefiningOp();
      while (def && isViewOp(def))
        def = def->getOperand(0).getDefiningOp();
      seeKernel(def);
    }
    seeReaders(op->getResult(0));
  }
  Window window;
  if (!first)
    return window;
  // Widened by kWindowKernels kernels each side.
  window.before = first->getPrevNode();
  for (int64_t n = 0; window.before && n < kWindowKernels;
       window.before = window.before->getPrevNode())
    n += isDividedKernel(*window.before);
  window.after = last->getNextNode();
  for (int64_t n = 0; window.after && n < kWindowKernels;
       window.after = window.after->getNextNode())
    n += isDividedKernel(*window.after);
  return window;
}

/// What a row group (`members`) may join: a matmul in no group whose
/// result only the group reads, or a matmul's epilogue group (one matmul
/// and elementwise ops sharing a fusion group) whose results only that
/// group and the row group read; with the fusion group the ops are in
/// (null for the lone matmul).
static std::optional<std::pair<SmallVector<Operation *>, Attribute>>
producersOf(Block &block, const llvm::SmallPtrSetImpl<Operation *> &members) {
  for (Operation *member : members)
    for (Value operand : member->getOperands()) {
      Operation *def = operand.getDefiningOp();
      if (!def || members.contains(def))
        continue;
      SmallVector<Operation *> ops;
      Attribute group = def->getAttr(SpyreDialect::kFusionGroupAttrName);
      if (isUngroupedMatmul(def)) {
        ops.push_back(def);
      } else if (group) {
        for (Operation &op : block)
          if (op.getAttr(SpyreDialect::kFusionGroupAttrName) == group)
            ops.push_back(&op);
      } else {
        continue;
      }
      llvm::SmallPtrSet<Operation *, 16> inside(ops.begin(), ops.end());
      bool epilogue =
          llvm::count_if(
              ops, [](Operation *op) { return isa<MatmulOp>(op); }) == 1 &&
          llvm::all_of(ops, [&](Operation *op) {
            return (isa<MatmulOp>(op) || isa<ElementwiseOpInterface>(op)) &&
                   isDividedKernel(*op) &&
                   llvm::all_of(op->getUsers(), [&](Operation *user) {
                     return inside.contains(user) || members.contains(user);
                   });
          });
      if (epilogue)
        return std::make_pair(std::move(ops), group);
    }
  return std::nullopt;
}

void FuseRowBlocksPass::keepGroupsWhole(Block &block) {
  int64_t numCores = this->numCores();
  // The row-wise groups no block or epilogue took whose tensors fit half
  // the cores' LX together, each once.
  struct Candidate {
    SmallVector<RowOp> group;
    unsigned cut;
    double gain;
    /// Or a matmul with its elementwise readers (markEpilogues' group).
    Operation *matmul = nullptr;
    /// A matmul only the row group reads, or its epilogue group (the ops
    /// with fusion group `producersGroup`), joined to the row group.
    SmallVector<Operation *> producers;
    Attribute producersGroup;
    /// The rows split as rowSplit's `spread` gives.
    bool spread = false;
    /// The modelled seconds of the window the gain was costed on.
    double windowSeconds = 0;
  };
  SmallVector<Candidate> candidates;
  for (Operation &op : block)
    if (isEpilogueMatmul(&op))
      candidates.push_back({{}, 0, 0, &op});
  // (The same ops cut along another dim split their rows otherwise: a
  // softmax over [heads, rows, cols] by heads or by rows.)
  std::set<std::pair<unsigned, SmallVector<Operation *>>> seen;
  auto readsEpilogueMatmul = [](const RowOp &r) {
    return llvm::any_of(r.op->getOperands(), [](Value v) {
      return isEpilogueMatmul(v.getDefiningOp());
    });
  };
  for (unsigned cut = 0; cut < kMaxCutDim; ++cut)
    for (SmallVector<RowOp> &formed : formGroups(block, cut)) {
      // Each group, and the group without the ops a matmul's epilogue may
      // take (the residual add after a projection, before a LayerNorm or
      // RMSNorm): the two compete with the epilogue below.
      SmallVector<SmallVector<RowOp>, 2> ways = {formed};
      SmallVector<RowOp> rest;
      llvm::copy_if(formed, std::back_inserter(rest),
                    [&](const RowOp &r) { return !readsEpilogueMatmul(r); });
      if (rest.size() != formed.size() && rest.size() > 1)
        ways.push_back(std::move(rest));
      for (SmallVector<RowOp> &group : ways) {
        SmallVector<Operation *> key;
        llvm::SmallPtrSet<Operation *, 16> members;
        for (const RowOp &r : group) {
          members.insert(r.op);
          key.push_back(r.op);
        }
        if (!fitsWhole(group, groupBudget()) || !seen.insert({cut, key}).second)
          continue;
        // The group with what only it reads joined (a projection, or the
        // projection's epilogue group of its bias and the residual add,
        // before a LayerNorm): their outputs may then stay in LX too.
        // Each with its rows on the most cores that divide them, and, when
        // that leaves cores idle, spread over the next dim too.
        int64_t rows =
            cast<RankedTensorType>(group.front().op->getResult(0).getType())
                .getDimSize(cut);
        SmallVector<bool, 2> spreads = rowSpreads(rows, numCores);
        std::optional<std::pair<SmallVector<Operation *>, Attribute>>
            producers = producersOf(block, members);
        for (bool spread : spreads) {
          if (producers)
            candidates.push_back({group, cut, 0, nullptr, producers->first,
                                  producers->second, spread});
          candidates.push_back({group, cut, 0, nullptr, {}, {}, spread});
        }
      }
    }
  if (candidates.empty())
    return;
  // Costed on the part of the block each may change (each op divided as
  // --spyre-divide-work would, the tensors --spyre-plan-memory would keep
  // in LX kept there, readers outside the group included), each against the
  // block as it is; then kept, the largest gain first, each again against
  // the block as the groups kept before left it.
  auto marker = IntegerAttr::get(
      IntegerType::get(block.getParentOp()->getContext(), 64), nextGroup);
  auto applyCandidate = [&](const Candidate &c, IntegerAttr id) {
    if (c.matmul)
      return std::optional<WholeGroup>(WholeGroup::epilogue(c.matmul, id));
    std::optional<WholeGroup> whole =
        WholeGroup::apply(c.group, c.cut, numCores, c.spread, id);
    if (whole && !c.producers.empty() &&
        !whole->absorb(c.producers, c.cut, numCores, c.spread, id)) {
      whole->undo();
      return std::optional<WholeGroup>();
    }
    return whole;
  };
  // Each on the window of the block it may change, before and after: the
  // seconds it saves and the window's seconds before.
  auto gainOf = [&](const Candidate &c) -> std::pair<double, double> {
    SmallVector<Operation *> ops(c.producers);
    if (c.matmul)
      ops.push_back(c.matmul);
    for (const RowOp &r : c.group)
      ops.push_back(r.op);
    Window window = windowOf(block, ops);
    std::optional<double> before = blockSeconds(block, numCores, window);
    if (!before)
      return {0, 0};
    std::optional<double> seconds =
        secondsWith(block, window, [&] { return applyCandidate(c, marker); });
    return {seconds ? *before - *seconds : 0, *before};
  };
  for (Candidate &c : candidates)
    std::tie(c.gain, c.windowSeconds) = gainOf(c);
  llvm::stable_sort(candidates, [](const Candidate &a, const Candidate &b) {
    return a.gain > b.gain;
  });
  // A gain must be a share of its window's time (kMinWholeGain): the model
  // and the simulator differ by a few percent on small kernels.
  bool kept = false;
  for (const Candidate &c : candidates) {
    // A candidate that did not pay against the block as it was may pay
    // once others are kept (a matmul's epilogue takes the residual add a
    // norm's group read from LX, and its split with it).
    if ((!kept && c.gain <= 0) ||
        llvm::any_of(c.group,
                     [](const RowOp &r) {
                       return r.op->hasAttr(SpyreDialect::kFusionGroupAttrName);
                     }) ||
        (c.matmul && !isEpilogueMatmul(c.matmul)) ||
        llvm::any_of(c.producers, [&](Operation *op) {
          return op->getAttr(SpyreDialect::kFusionGroupAttrName) !=
                 c.producersGroup;
        }))
      continue;
    // (Until one is kept, the block is as each gain was costed against.)
    auto [gain, windowSeconds] =
        kept ? gainOf(c) : std::make_pair(c.gain, c.windowSeconds);
    // (A window that could not be costed gives no gain.)
    if (gain <= 0 || gain < windowSeconds * kMinWholeGain)
      continue;
    auto id = IntegerAttr::get(marker.getType(), nextGroup++);
    if (applyCandidate(c, id))
      kept = true;
  }
}

std::optional<double> FuseRowBlocksPass::secondsWith(
    Block &block, const Window &window,
    function_ref<std::optional<WholeGroup>()> apply) {
  std::optional<WholeGroup> whole = apply();
  if (!whole)
    return std::nullopt;
  std::optional<double> seconds = blockSeconds(block, numCores(), window);
  whole->undo();
  return seconds;
}

std::optional<double> FuseRowBlocksPass::wholeGroupGain(Block &block,
                                                        ArrayRef<RowOp> group,
                                                        unsigned cut) {
  int64_t numCores = this->numCores();
  SmallVector<Operation *> ops;
  for (const RowOp &r : group)
    ops.push_back(r.op);
  Window window = windowOf(block, ops);
  std::optional<double> before = blockSeconds(block, numCores, window);
  if (!before)
    return std::nullopt;
  int64_t rows =
      cast<RankedTensorType>(group.front().op->getResult(0).getType())
          .getDimSize(cut);
  auto marker = IntegerAttr::get(
      IntegerType::get(block.getParentOp()->getContext(), 64), nextGroup);
  std::optional<double> best;
  for (bool spread : rowSpreads(rows, numCores)) {
    std::optional<double> after = secondsWith(block, window, [&] {
      return WholeGroup::apply(group, cut, numCores, spread, marker);
    });
    if (after && (!best || *before - *after > *best))
      best = *before - *after;
  }
  return best;
}

void FuseRowBlocksPass::ensureDivisions(Block &block, int64_t numCores) {
  if (divisions)
    return;
  divisions.emplace(target, numCores, kernel::Policy::Model, &sharedDivisions);
  for (Operation &op : block)
    if (isDividedKernel(op) && !op.hasAttr(SpyreDialect::kFusionGroupAttrName))
      llvm::consumeError(divisions->choose(&op).takeError());
}

std::optional<double>
FuseRowBlocksPass::epilogueGain(ArrayRef<Operation *> matmuls,
                                ArrayRef<RowOp> group) {
  Operation *matmul = matmuls.front();
  ensureDivisions(*matmul->getBlock(), numCores());
  SmallVector<Operation *> ops(matmuls.begin(), matmuls.end());
  for (const RowOp &r : group)
    ops.push_back(r.op);
  // In program order (an up projection may follow the gate's activation).
  llvm::sort(ops,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  std::optional<double> apart = modelledSeconds(ops, *divisions);
  // As one group, every output may stay in LX (the liveness check of
  // modelledSeconds, as --spyre-plan-memory's, sees what fits).
  auto marker =
      IntegerAttr::get(IntegerType::get(matmul->getContext(), 64), -1);
  for (Operation *op : ops)
    op->setAttr(SpyreDialect::kFusionGroupAttrName, marker);
  std::optional<double> together = modelledSeconds(ops, *divisions);
  for (Operation *op : ops)
    op->removeAttr(SpyreDialect::kFusionGroupAttrName);
  if (!apart || !together || *together > *apart * (1 - kMinGain))
    return std::nullopt;
  return *apart - *together;
}

void FuseRowBlocksPass::keepBoxedResultsInLx(Block &block) {
  int64_t numCores = this->numCores();
  SmallVector<Operation *> producers;
  for (Operation &op : block) {
    if (!isDividedKernel(op) || op.hasAttr(SpyreDialect::kWorkDivisionAttrName))
      continue;
    // Read only as boxes through views, by kernels: no other reader whose
    // slices would have to match too.
    SmallVector<OpOperand *> reads = readsThroughViews(op.getResult(0));
    if (reads.empty() || llvm::any_of(reads, [](OpOperand *use) {
          auto slice = dyn_cast<ExtractSliceOp>(use->getOwner());
          return !slice || !isViewOp(slice) ||
                 llvm::any_of(readsThroughViews(slice.getResult()),
                              [](OpOperand *read) {
                                return !isDividedKernel(*read->getOwner());
                              });
        }))
      continue;
    producers.push_back(&op);
  }
  for (Operation *producer : producers) {
    // The producer with its fusion group's ops before it (a projection and
    // its bias), none of them hinted.
    SmallVector<Operation *> group;
    Attribute id = producer->getAttr(SpyreDialect::kFusionGroupAttrName);
    for (Operation &op : block) {
      if (&op == producer ||
          (id && isDividedKernel(op) &&
           op.getAttr(SpyreDialect::kFusionGroupAttrName) == id &&
           op.isBeforeInBlock(producer)))
        group.push_back(&op);
      if (&op == producer)
        break;
    }
    if (llvm::any_of(group, [](Operation *op) {
          return op->hasAttr(SpyreDialect::kWorkDivisionAttrName);
        }))
      continue;
    SmallVector<Operation *> touched(group);
    for (OpOperand *use : readsThroughViews(producer->getResult(0)))
      for (OpOperand *read : readsThroughViews(use->getOwner()->getResult(0)))
        touched.push_back(read->getOwner());
    Window window = windowOf(block, touched);
    std::optional<double> before = blockSeconds(block, numCores, window);
    if (!before)
      continue;
    auto type = cast<RankedTensorType>(producer->getResult(0).getType());
    // Each host dim the rows may be (the projection's rows, by which the
    // heads' blocks split their queries), each way of splitting them.
    auto apply = [&](unsigned cut, bool spread) -> std::optional<WholeGroup> {
      WholeGroup hints;
      RowSplit split = rowSplit(type.getDimSize(cut), numCores, spread);
      for (Operation *op : group)
        if (!WholeGroup::indexesCut(op, cut) ||
            !hints.hintRows(op, cut, split)) {
          hints.undo();
          return std::nullopt;
        }
      return hints;
    };
    std::optional<std::pair<unsigned, bool>> best;
    double bestSeconds = *before * (1 - kMinWholeGain);
    std::optional<int> stick = stickHostDimOf(type);
    for (unsigned cut = 0; cut < type.getRank(); ++cut) {
      // (Not a size-1 dim, nor the stick's: no row split there.)
      if (type.getDimSize(cut) == 1 || stick == static_cast<int>(cut))
        continue;
      for (bool spread : rowSpreads(type.getDimSize(cut), numCores)) {
        std::optional<double> after =
            secondsWith(block, window, [&] { return apply(cut, spread); });
        if (after && *after < bestSeconds) {
          bestSeconds = *after;
          best = {cut, spread};
        }
      }
    }
    if (best)
      (void)apply(best->first, best->second);
  }
}

void FuseRowBlocksPass::fuseBlock(Block &block) {
  // Divided when the first group needs a cost check (most small programs
  // fit LX and never do).
  divisions.reset();
  // Cut along any host dim that works (rows of a [rows, cols] tensor, the
  // heads or the queries of [heads, queries, keys] attention scores), with
  // blocks whose rows every core shares evenly, or blocks that share the
  // cores between the cut dim and the next one (a few heads per block, their
  // queries across the cores: attention with both batch matmuls inside).
  // An elementwise chain that is all a matmul's output feeds (a bias and a
  // tanh GELU) may instead run whole as its epilogue: the matmul's output
  // and the chain's intermediates stay in LX while live, which blocks of
  // the chain alone cannot give the matmul's output.
  struct Candidate {
    SmallVector<RowOp> group;
    unsigned cut;
    bool wholeRowsPerCore;
    bool copyWholeInputs;
    double gain;
    SmallVector<Operation *> epilogueOf;
  };
  SmallVector<Candidate> candidates;
  llvm::SmallPtrSet<Operation *, 8> epilogueTried;
  // The groups along every cut dim, for the blocks' comparison with the
  // groups run whole that hold them.
  SmallVector<SmallVector<SmallVector<RowOp>>> formed;
  for (unsigned cut = 0; cut < kMaxCutDim; ++cut)
    formed.push_back(formGroups(block, cut));
  for (unsigned cut = 0; cut < kMaxCutDim; ++cut)
    for (SmallVector<RowOp> &group : formed[cut]) {
      // A chain feeding a reduction outside it (a residual add and the
      // square of an RMSNorm) is left to keepGroupsWhole, where the norm's
      // row group and the matmul's epilogue compete.
      if (SmallVector<Operation *> matmuls = epilogueMatmuls(group);
          !matmuls.empty() && !feedsOutsideReduction(group) &&
          epilogueTried.insert(group.front().op).second)
        if (std::optional<double> gain = epilogueGain(matmuls, group))
          candidates.push_back({group, cut, false, false, *gain, matmuls});
      // Blocks must beat the group run whole (keepGroupsWhole), which
      // copies nothing in or out per block, when its tensors live at once
      // fit half the cores' LX: this group, or one along another cut that
      // holds it (a softmax's with the batch matmuls on either side, whose
      // scores and probabilities then stay in LX too). Costed once there
      // are blocks to compare.
      std::optional<std::optional<double>> whole;
      auto wholeGain = [&]() {
        if (whole)
          return *whole;
        whole.emplace();
        llvm::SmallPtrSet<Operation *, 16> members;
        for (const RowOp &r : group)
          members.insert(r.op);
        for (unsigned other = 0; other < kMaxCutDim; ++other)
          for (const SmallVector<RowOp> &holder : formed[other]) {
            size_t held = llvm::count_if(
                holder, [&](const RowOp &r) { return members.contains(r.op); });
            if (held != group.size() || !fitsWhole(holder, groupBudget()))
              continue;
            std::optional<double> gain = wholeGroupGain(block, holder, other);
            if (gain && (!*whole || *gain > **whole))
              *whole = gain;
          }
        return *whole;
      };
      for (bool wholeRowsPerCore : {true, false}) {
        std::optional<double> plain =
            fuseGroup(group, cut, wholeRowsPerCore, /*copyWholeInputs=*/false,
                      /*commit=*/false);
        // Copies of the inputs read whole add kernels: kept only for a
        // clearly larger gain (a mask every head reads, not a LayerNorm
        // weight).
        std::optional<double> copied =
            fuseGroup(group, cut, wholeRowsPerCore, /*copyWholeInputs=*/true,
                      /*commit=*/false);
        if (plain || copied) {
          std::optional<double> beat = wholeGain();
          if (beat && plain && *plain <= *beat)
            plain.reset();
          if (beat && copied && *copied <= *beat)
            copied.reset();
        }
        if (copied && (!plain || *copied > *plain * (1 + kMinGain)))
          candidates.push_back({group, cut, wholeRowsPerCore, true, *copied});
        else if (plain)
          candidates.push_back({group, cut, wholeRowsPerCore, false, *plain});
      }
    }
  llvm::stable_sort(candidates, [](const Candidate &a, const Candidate &b) {
    return a.gain > b.gain;
  });
  llvm::SmallPtrSet<Operation *, 32> taken;
  for (const Candidate &c : candidates) {
    if (llvm::any_of(c.group,
                     [&](const RowOp &r) { return taken.contains(r.op); }) ||
        llvm::any_of(c.epilogueOf,
                     [&](Operation *m) { return taken.contains(m); }))
      continue;
    for (const RowOp &r : c.group)
      taken.insert(r.op);
    if (!c.epilogueOf.empty()) {
      auto group = IntegerAttr::get(
          IntegerType::get(block.getParentOp()->getContext(), 64), nextGroup++);
      for (Operation *matmul : c.epilogueOf) {
        taken.insert(matmul);
        matmul->setAttr(SpyreDialect::kFusionGroupAttrName, group);
      }
      for (const RowOp &r : c.group)
        r.op->setAttr(SpyreDialect::kFusionGroupAttrName, group);
      continue;
    }
    fuseGroup(c.group, c.cut, c.wholeRowsPerCore, c.copyWholeInputs,
              /*commit=*/true);
  }
}

void FuseRowBlocksPass::hoistReshapeViews(Block &block) {
  // Ops reading only the block's arguments go first, in program order.
  Operation *lastOfArguments = nullptr;
  for (Operation &op : llvm::make_early_inc_range(block)) {
    if (op.getNumResults() != 1 || !isDeviceTensor(op.getResult(0).getType()))
      continue;
    auto identity = dyn_cast<IdentityOp>(op);
    bool broadcast =
        identity && identity.getIndexingMapsArray().front().getNumResults() <
                        identity.getIndexingMapsArray().back().getNumResults();
    if (!isa<ReshapeOp>(op) && !broadcast)
      continue;
    Operation *latest = nullptr;
    for (Value operand : op.getOperands()) {
      Operation *producer = operand.getDefiningOp();
      if (producer && producer->getBlock() == &block &&
          (!latest || latest->isBeforeInBlock(producer)))
        latest = producer;
    }
    if (latest) {
      op.moveAfter(latest);
      continue;
    }
    // A broadcast is a kernel: one of arguments goes right before its first
    // reader, not to the top where every later layer's window and its
    // buffer's lifetime would start.
    if (broadcast) {
      Operation *first = nullptr;
      for (Operation *user : op.getUsers()) {
        while (user && user->getBlock() != &block)
          user = user->getParentOp();
        if (user && (!first || user->isBeforeInBlock(first)))
          first = user;
      }
      if (first)
        op.moveBefore(first);
      continue;
    }
    if (lastOfArguments)
      op.moveAfter(lastOfArguments);
    else
      op.moveBefore(&block.front());
    lastOfArguments = &op;
  }
}

SmallVector<SmallVector<RowOp>> FuseRowBlocksPass::formGroups(Block &block,
                                                              unsigned cut) {
  SmallVector<RowOp> rowOps;
  DenseMap<Operation *, unsigned> indexOf;
  for (Operation &op : block)
    if (std::optional<RowOp> r = asRowOp(&op, cut)) {
      indexOf[&op] = rowOps.size();
      rowOps.push_back(std::move(*r));
    }
  llvm::EquivalenceClasses<unsigned> classes;
  for (auto [i, r] : llvm::enumerate(rowOps)) {
    classes.insert(i);
    for (auto [o, operand] : llvm::enumerate(r.op->getOperands())) {
      Operation *producer = operand.getDefiningOp();
      auto it = producer ? indexOf.find(producer) : indexOf.end();
      if (r.cutDim[o] == static_cast<int>(cut) && it != indexOf.end())
        classes.unionSets(it->second, i);
    }
  }
  SmallVector<SmallVector<RowOp>> groups;
  for (auto it = classes.begin(); it != classes.end(); ++it) {
    if (!(*it)->isLeader())
      continue;
    SmallVector<unsigned> members(classes.member_begin(**it),
                                  classes.member_end());
    llvm::sort(members);
    // A group runs where its first op was: it is cut where an op reads a
    // tensor made after that (a matmul between two row-wise chains).
    SmallVector<RowOp> group;
    llvm::SmallPtrSet<Operation *, 16> inGroup;
    for (unsigned m : members) {
      Operation *op = rowOps[m].op;
      bool late =
          !group.empty() && llvm::any_of(op->getOperands(), [&](Value v) {
            Operation *producer = v.getDefiningOp();
            return producer && !inGroup.contains(producer) &&
                   producer->getBlock() == &block &&
                   group.front().op->isBeforeInBlock(producer);
          });
      if (late) {
        groups.push_back(std::move(group));
        group.clear();
        inGroup.clear();
      }
      group.push_back(rowOps[m]);
      inGroup.insert(op);
    }
    groups.push_back(std::move(group));
  }
  llvm::erase_if(groups,
                 [](const SmallVector<RowOp> &g) { return g.size() < 2; });
  return groups;
}

std::optional<double>
FuseRowBlocksPass::modelledSeconds(ArrayRef<Operation *> ops,
                                   const DivisionChooser &chooser) {
  struct Planned {
    kernel::Problem problem;
    kernel::Division division;
    SmallVector<AffineMap> maps;
    kernel::Tiling tiling;
    int64_t lxBytes = 0;
  };
  DenseMap<Operation *, size_t> position;
  std::vector<Planned> plans;
  for (auto [i, op] : llvm::enumerate(ops)) {
    position[op] = i;
    std::string reason;
    FailureOr<kernel::Problem> problem = getKernelProblem(op, reason);
    const kernel::Division *division = chooser.lookup(op);
    if (failed(problem) || !division)
      return std::nullopt;
    llvm::Expected<kernel::Plan> plan = kernel::planDivision(
        *problem, target, *division, target.usableLxBytes());
    if (!plan) {
      llvm::consumeError(plan.takeError());
      return std::nullopt;
    }
    plans.push_back(
        Planned{std::move(*problem), *division,
                cast<KernelPayloadOpInterface>(op).getIndexingMapsArray(),
                plan->tiling, plan->estimate.lxBytes});
  }

  // Candidates, as --spyre-plan-memory picks them.
  auto divided = [&](size_t i) {
    return DividedPayload{ops[i], &plans[i].problem, &plans[i].division,
                          plans[i].maps};
  };
  struct Candidate {
    Value value;
    int64_t bytes;
    size_t def, last;
    int64_t saving;
  };
  // Each buffer's last reader among `ops`, through views and boxes (as
  // --spyre-plan-memory keeps a buffer live).
  DenseMap<Value, size_t> lastRead;
  for (auto [i, op] : llvm::enumerate(ops))
    for (Value operand : op->getOperands()) {
      size_t &last = lastRead[getBufferRoot(operand)];
      last = std::max(last, i);
    }
  SmallVector<Candidate> candidates;
  for (auto [i, op] : llvm::enumerate(ops)) {
    Value v = op->getResult(0);
    // An insert's result is its destination's buffer, written in place.
    if (isa<InsertSliceOp>(op) ||
        !mayStayInLx(
            divided(i),
            [&](Operation *reader) -> std::optional<DividedPayload> {
              auto it = position.find(reader);
              if (it == position.end())
                return std::nullopt;
              return divided(it->second);
            },
            target))
      continue;
    const Planned &producer = plans[i];
    Candidate c{
        v, kernel::residentResultBytes(producer.problem, producer.division), i,
        i, 0};
    c.last = std::max(c.last, lastRead.lookup(v));
    c.saving =
        c.bytes * (1 + static_cast<int64_t>(llvm::range_size(v.getUses())));
    candidates.push_back(c);
  }
  llvm::stable_sort(candidates, [](const Candidate &a, const Candidate &b) {
    return a.saving > b.saving;
  });
  llvm::SmallPtrSet<Value, 16> resident;
  // The least LX op `p`'s staging buffers take with the resident tensors
  // and `extra` in LX (as --spyre-plan-memory counts them: those need none,
  // and the kernel may be tiled again, within 2% of its fastest, to make
  // room).
  auto stagingOf = [&](size_t p, Value extra) {
    kernel::Problem problem = plans[p].problem;
    markLxResident(problem, ops[p], [&](Value v) {
      Value root = getBufferRoot(v);
      return root == extra || resident.contains(root);
    });
    return kernel::leastStagingBytes(problem, target, plans[p].division,
                                     plans[p].tiling, target.usableLxBytes());
  };
  // Placed as --spyre-plan-memory places them.
  LxPlacer placer(target.usableLxBytes(), target.stickBytes);
  for (const Candidate &c : candidates) {
    int64_t floor = 0;
    for (size_t p = c.def; p <= c.last; ++p)
      floor = std::max(floor, stagingOf(p, c.value));
    if (placer.place(c.def, c.last, c.bytes, floor))
      resident.insert(c.value);
  }

  // Each op's time with those tensors in LX, tiled below them.
  double seconds = 0;
  for (auto [p, op, planned] : llvm::enumerate(ops, plans)) {
    markLxResident(planned.problem, op, [&](Value v) {
      return resident.contains(getBufferRoot(v));
    });
    llvm::Expected<kernel::Plan> plan = kernel::planDivision(
        planned.problem, target, planned.division, placer.roomAt(p));
    if (!plan) {
      llvm::consumeError(plan.takeError());
      return std::nullopt;
    }
    seconds += plan->estimate.seconds;
  }
  return seconds;
}

std::optional<double> FuseRowBlocksPass::fuseGroup(ArrayRef<RowOp> group,
                                                   unsigned cut,
                                                   bool wholeRowsPerCore,
                                                   bool copyWholeInputs,
                                                   bool commit) {
  Operation *first = group.front().op;
  llvm::SmallPtrSet<Operation *, 16> members;
  for (const RowOp &r : group)
    members.insert(r.op);
  int64_t rows =
      cast<RankedTensorType>(first->getResult(0).getType()).getDimSize(cut);

  // Inputs read row by row (with the host dim read at the row), inputs read
  // whole, results read elsewhere.
  llvm::MapVector<Value, int> rowInputs;
  llvm::SetVector<Value> wholeInputs;
  SmallVector<Value> outputs;
  bool internal = false;
  for (const RowOp &r : group) {
    for (auto [o, operand] : llvm::enumerate(r.op->getOperands())) {
      Operation *producer = operand.getDefiningOp();
      bool inside = producer && members.contains(producer);
      if (inside && r.cutDim[o] != static_cast<int>(cut))
        return std::nullopt; // a member's result read across rows
      if (inside)
        continue;
      // Whatever the group reads must exist before it starts.
      if (producer && (producer->getBlock() != first->getBlock() ||
                       !producer->isBeforeInBlock(first)))
        return std::nullopt;
      if (r.cutDim[o] < 0) {
        wholeInputs.insert(operand);
        continue;
      }
      auto [it, inserted] = rowInputs.insert({operand, r.cutDim[o]});
      if (!inserted && it->second != r.cutDim[o])
        return std::nullopt; // read by rows along two different dims
    }
    Value result = r.op->getResult(0);
    bool readOutside = llvm::any_of(result.getUsers(), [&](Operation *user) {
      return !members.contains(user);
    });
    if (readOutside || result.use_empty())
      outputs.push_back(result);
    internal |= !readOutside && !result.use_empty();
  }
  if (!internal || llvm::any_of(rowInputs, [&](auto input) {
        return wholeInputs.contains(input.first);
      }))
    return std::nullopt;

  // An input every block reads whole may be copied once before the blocks:
  // a device tensor the program computes or is given (not a constant).
  auto copyable = [](Value in) {
    return isDeviceTensor(in.getType()) && !in.getDefiningOp<ConstantOp>();
  };
  // Without such an input, copying is the plain way again.
  if (copyWholeInputs && llvm::none_of(wholeInputs, copyable))
    return std::nullopt;

  // Whether blocks are needed: not when all the group's tensors fit half
  // the cores' LX together (the ops run whole keep them all there).
  int64_t total = 0;
  for (auto [v, dim] : rowInputs)
    total += deviceBytes(v.getType());
  for (const RowOp &r : group)
    total += deviceBytes(r.op->getResult(0).getType());
  int64_t numCores = this->numCores();
  int64_t budget = groupBudget();
  if (total <= budget)
    return std::nullopt; // (keepGroupsWhole may run it whole)
  // The peak of the tensors live at once (readers outside the group keep
  // no input in this block's LX).
  SmallVector<Value> rowInputValues;
  for (auto [v, dim] : rowInputs)
    rowInputValues.push_back(v);
  int64_t peak = livePeakBytes(group, rowInputValues);
  // The fewest blocks that fit: with rows a multiple of the cores when
  // `wholeRowsPerCore` (each core keeps whole rows of every op), else any
  // (the cores are shared with the next dim; the cost check below sees
  // whether the slices still line up).
  auto fewestBlocks = [&](int64_t bytes) -> int64_t {
    for (int64_t blocks = 2; blocks <= std::min(rows, kMaxBlocks); ++blocks) {
      if (rows % blocks || bytes / blocks > budget)
        continue;
      int64_t r = rows / blocks;
      if (!wholeRowsPerCore || r % numCores == 0)
        return r;
    }
    return 0;
  };
  // Blocks whose tensors all fit together where there are such blocks
  // (several heads per block, shared by the cores, keep their
  // intermediates in LX only that way); else blocks sized by the peak (one
  // head's attention at sequence 2048, whose scores and their exp never
  // live together with the probabilities).
  int64_t blockRows = fewestBlocks(total);
  if (blockRows == 0)
    blockRows = fewestBlocks(peak);
  if (blockRows == 0)
    return std::nullopt;

  // Every tensor the group touches must take the cut.
  DenseMap<Value, RankedTensorType> blockType;
  for (auto [v, dim] : rowInputs) {
    FailureOr<RankedTensorType> t =
        getRowBlockType(cast<RankedTensorType>(v.getType()), dim, blockRows);
    if (failed(t))
      return std::nullopt;
    blockType[v] = *t;
  }
  for (const RowOp &r : group) {
    Value v = r.op->getResult(0);
    FailureOr<RankedTensorType> t =
        getRowBlockType(cast<RankedTensorType>(v.getType()), cut, blockRows);
    if (failed(t))
      return std::nullopt;
    blockType[v] = *t;
  }

  MLIRContext *context = first->getContext();
  OpBuilder builder(first);
  auto groupAttr = builder.getI64IntegerAttr(nextGroup);
  SmallVector<Operation *> created;
  SmallVector<Operation *> firstBlock;
  SmallVector<Value> buffers;
  for (Value out : outputs) {
    buffers.push_back(EmptyOp::create(builder, out.getLoc(), out.getType()));
    created.push_back(buffers.back().getDefiningOp());
  }
  int64_t numBlocks = rows / blockRows;
  auto readers = [&](Value in) {
    return llvm::count_if(
        in.getUsers(), [&](Operation *user) { return members.contains(user); });
  };
  // Inputs every block reads whole (an attention mask every head adds):
  // copied once, before the blocks, so that the copy may stay in LX for
  // all of them instead of each block reading it from DDR.
  IRMapping resident;
  SmallVector<Operation *> residentCopies;
  for (Value in : wholeInputs) {
    if (!copyWholeInputs || !copyable(in))
      continue;
    Operation *copy = IdentityOp::create(builder, in.getLoc(), in.getType(),
                                         ValueRange{in}, nullptr)
                          .getOperation();
    copy->setAttr(SpyreDialect::kFusionGroupAttrName, groupAttr);
    resident.map(in, copy->getResult(0));
    residentCopies.push_back(copy);
    created.push_back(copy);
  }
  // The cost check reads the first block only: the others are built once
  // the blocks are kept.
  for (int64_t b = 0, built = commit ? numBlocks : 1; b < built; ++b) {
    size_t begin = created.size();
    IRMapping mapping = resident;
    DenseMap<Value, SmallVector<int64_t>> viewSplits;
    for (auto [in, dim] : rowInputs) {
      auto type = cast<RankedTensorType>(in.getType());
      SmallVector<int64_t> offsets(type.getRank(), 0);
      offsets[dim] = b * blockRows;
      // The rows are split across the cores; every op of the block
      // carries the split over (from the copy, or, reading a view, from
      // the split the copy would have had).
      std::optional<SmallVector<int64_t>> splits =
          blockSplits(blockType[in], dim, numCores);
      if (Operation *restick = restickifyBlock(builder, in, dim, offsets,
                                               blockType[in], members)) {
        created.push_back(restick->getOperand(0).getDefiningOp());
        created.push_back(restick);
        // Divided as a restickify is (both sides' sticks matter).
        restick->setAttr(SpyreDialect::kFusionGroupAttrName, groupAttr);
        mapping.map(in, restick->getResult(0));
        continue;
      }
      auto slice = ExtractSliceOp::create(builder, in.getLoc(), blockType[in],
                                          in, offsets);
      if (!isViewOp(slice) && readers(in) == 1) {
        // Not a contiguous range: read in place with the input's strides
        // by its one reader (several read a copy in LX, not DDR again).
        FailureOr<RankedTensorType> strided =
            getRowBlockType(cast<RankedTensorType>(in.getType()), dim,
                            blockRows, /*deviceDim=*/nullptr, /*strided=*/true);
        if (succeeded(strided)) {
          auto view = ExtractSliceOp::create(builder, in.getLoc(), *strided, in,
                                             offsets);
          if (isViewOp(view)) {
            slice->erase();
            slice = view;
          } else {
            view->erase();
          }
        }
      }
      mapping.map(in, slice.getResult());
      created.push_back(slice);
      if (isViewOp(slice)) {
        if (splits)
          viewSplits[slice.getResult()] = std::move(*splits);
        continue;
      }
      slice->setAttr(SpyreDialect::kFusionGroupAttrName, groupAttr);
      if (splits)
        slice->setAttr(SpyreDialect::kWorkDivisionAttrName,
                       DenseI64ArrayAttr::get(context, *splits));
    }
    for (const RowOp &r : group) {
      Operation *clone = builder.clone(*r.op, mapping);
      clone->getResult(0).setType(blockType[r.op->getResult(0)]);
      clone->setAttr(SpyreDialect::kFusionGroupAttrName, groupAttr);
      hintViewReader(clone, viewSplits);
      created.push_back(clone);
    }
    for (auto [i, out] : llvm::enumerate(outputs)) {
      auto type = cast<RankedTensorType>(out.getType());
      SmallVector<int64_t> offsets(type.getRank(), 0);
      offsets[cut] = b * blockRows;
      writeInPlace(mapping.lookup(out), type, cut, blockRows);
      auto insert = InsertSliceOp::create(
          builder, out.getLoc(), type, mapping.lookup(out), buffers[i], offsets,
          /*fill=*/nullptr);
      if (isKernelPayload(insert))
        insert->setAttr(SpyreDialect::kFusionGroupAttrName, groupAttr);
      buffers[i] = insert.getResult();
      created.push_back(insert);
    }
    if (b == 0)
      firstBlock.assign(created.begin() + begin, created.end());
  }

  // Keep the blocks only when the kernel model says they are faster: each
  // block's copies in and out do not overlap its compute the way one
  // kernel's double-buffered DMA does. Both sides are divided and kept in
  // LX as the later passes would.
  SmallVector<Operation *> wholeOps;
  for (const RowOp &r : group)
    wholeOps.push_back(r.op);
  ensureDivisions(*first->getBlock(), numCores);
  std::optional<double> whole = modelledSeconds(wholeOps, *divisions);
  DivisionChooser blockChooser(target, numCores, kernel::Policy::Model,
                               &sharedDivisions);
  // Views of the inputs' rows are no kernels: each reader addresses the
  // block in the input's buffer.
  SmallVector<Operation *> copiesAndFirstBlock(residentCopies);
  for (Operation *op : firstBlock)
    if (isDividedKernel(*op))
      copiesAndFirstBlock.push_back(op);
  bool divided = llvm::all_of(copiesAndFirstBlock, [&](Operation *op) {
    llvm::Expected<kernel::Division> division = blockChooser.choose(op);
    if (division)
      return true;
    llvm::consumeError(division.takeError());
    return false;
  });
  // The copies once, then every block as the first (the copies' results
  // in LX as the first block finds them).
  std::optional<double> withCopies =
      divided ? modelledSeconds(copiesAndFirstBlock, blockChooser)
              : std::nullopt;
  std::optional<double> copies =
      residentCopies.empty()
          ? std::optional<double>(0.0)
          : (divided ? modelledSeconds(residentCopies, blockChooser)
                     : std::nullopt);
  std::optional<double> blocked;
  double blockedTotal = 0;
  if (withCopies && copies) {
    blocked = *withCopies - *copies;
    blockedTotal = *copies + *blocked * static_cast<double>(numBlocks);
  }
  bool pays = whole && blocked && blockedTotal <= *whole * (1 - kMinGain);
  if (!pays || !commit) {
    for (Operation *op : llvm::reverse(created))
      op->erase();
    if (!pays)
      return std::nullopt;
    return *whole - blockedTotal;
  }
  ++nextGroup;
  for (auto [out, buffer] : llvm::zip(outputs, buffers))
    out.replaceAllUsesWith(buffer);
  for (const RowOp &r : llvm::reverse(group))
    r.op->erase();
  // Restickifies now done block by block.
  for (auto [in, dim] : rowInputs)
    if (Operation *def = in.getDefiningOp();
        isa_and_nonnull<RestickifyOp>(def) && def->use_empty())
      def->erase();
  return *whole - blockedTotal;
}

} // namespace
