//===- Utils.h - Helpers shared by spyre passes -----------------*- C++ -*-===//

#ifndef SPYRE_TRANSFORMS_UTILS_H
#define SPYRE_TRANSFORMS_UTILS_H

#include "Spyre/Analysis/KernelModel.h"
#include "Spyre/Dialect/Spyre/IR/Spyre.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include <map>
#include <vector>

namespace mlir::spyre {

/// A 0-d `spyre.constant` of `value` in the float type `element`.
Value createScalarConstant(OpBuilder &builder, Location loc, double value,
                           Type element);

/// Whether an op may write into `dest`'s buffer in place: nothing else
/// reads `dest` or anything its buffer is reached through (views, earlier
/// in-place writes), and the buffer is a kernel's result or a spyre.empty
/// (not an argument, an upload or a constant).
bool isExclusivelyOwned(Value dest);

/// The first of `op`'s tensor operands and results whose encoding is not a
/// #spyre.layout (a sparse tensor's), or null: such tensors stay on the
/// host, the device holding dense tensors only.
RankedTensorType foreignEncodedTensor(Operation *op);
inline bool hasForeignEncoding(Operation *op) {
  return static_cast<bool>(foreignEncodedTensor(op));
}

/// The laid-out version of a function argument or result type: the layout
/// of its `spyre.layout` attribute, the default for its `spyre.dim_order`, or
/// the default; the type itself when it already has a layout or is not a
/// ranked tensor. Emits a diagnostic through `emitError` and fails when no
/// layout can be given.
FailureOr<Type>
layOutBoundaryType(Type type, DictionaryAttr attrs, int64_t stickBytes,
                   function_ref<InFlightDiagnostic()> emitError);

/// Removes the `spyre.layout` / `spyre.dim_order` argument and result
/// attributes of `function` (they are in the types now).
void dropLayoutAttributes(FunctionOpInterface function);

/// After the signatures of the functions in `oldTypes` changed, makes every
/// func.call to them pass and receive the new types (transfers around the
/// call).
void updateCallSites(ModuleOp module,
                     const DenseMap<StringAttr, FunctionType> &oldTypes);

/// The layout `--spyre-propagate-layouts` gives a tensor whose stick is on
/// host dim `stickDim` (-1: sparse): the default layout with the stick moved
/// there, other dims in place.
llvm::Expected<LayoutAttr> getLayoutWithStick(RankedTensorType type,
                                              int stickDim, int64_t stickBytes);

/// The layout of `spyre.reshape` to `shape` of a laid-out `input` when the
/// reshape is a view of the same device bytes (see spyre::reshapeView).
FailureOr<LayoutAttr> reshapeViewLayout(RankedTensorType input,
                                        ArrayRef<int64_t> shape);
/// The stick host dim (-1: sparse) of the view of `hostType` laid out as
/// `layout` reshaped to `shape`, or nullopt when that reshape moves data.
std::optional<int> reshapeViewKey(RankedTensorType hostType, LayoutAttr layout,
                                  ArrayRef<int64_t> shape);
/// Whether some dense layout `--spyre-propagate-layouts` may give `hostType`
/// makes its reshape to `shape` a view; when none does, the reshape stays on
/// the host (it would move data across sticks).
bool reshapeHasDeviceView(RankedTensorType hostType, ArrayRef<int64_t> shape,
                          int64_t stickBytes);

/// Pass option checks, shared by the passes and `--spyre-pipeline` so that
/// a bad value is rejected before any work, in one line (no IR location, no
/// IR dump) naming the option as the user gave it: `flag` is the pass or
/// pipeline (`--spyre-pipeline`), whose options carry these names.
///
/// beam-width >= 1 and exact-limit >= 0 (`--spyre-propagate-layouts`).
LogicalResult checkLayoutSearchOptions(MLIRContext *context, StringRef flag,
                                       int64_t beamWidth, int64_t exactLimit);
/// cores is 0 (the target's) or 1..the cores of the #spyre.target in effect
/// at `scope`.
LogicalResult checkCoresOption(Operation *scope, StringRef flag, int64_t cores);

/// Runs `fn` on `root` if it is a function, else on every function nested
/// in it (in nested modules too, but not in other functions): the passes
/// that work within one function are op-agnostic so that they run on a
/// module from the command line and on each function, in parallel, when a
/// pipeline nests them (`any(...)`, `func.func(...)`). Stops at the first
/// failure.
LogicalResult
forEachFunction(Operation *root,
                function_ref<LogicalResult(FunctionOpInterface)> fn);

/// Identifies payload ops that plan the same way: the op name, operand and
/// result types, inherent attributes and the spyre attributes given (passes
/// cache per-op work under it).
using OpSignature = std::vector<intptr_t>;
OpSignature getOpSignature(Operation *op, ArrayRef<StringRef> spyreAttrs = {});

/// A divided payload op, as --spyre-plan-memory plans it.
struct DividedPayload {
  Operation *op = nullptr;
  const kernel::Problem *problem = nullptr;
  const kernel::Division *division = nullptr;
  ArrayRef<AffineMap> maps; ///< inputs, then the result
};

/// Whether payload `op`'s kind lets it keep its output in the cores' LX: the
/// target's LX-resident ops (torch-spyre's `lx_resident_ops` by default), or
/// any op of a fusion group. False for anything but a kernel payload.
bool mayKeepOutputInLx(Operation *op, const TargetModel &target);

/// The value `value` views through reshapes and transposes (the same device
/// bytes under other host dims), or `value` itself; a box's extract is not
/// looked through.
Value getViewedValue(Value value);

/// The operands through which `value`'s readers read it, through the
/// views (reshapes, transposes: the same device bytes under other host
/// dims) between; a box's extract reads the value itself.
SmallVector<OpOperand *> readsThroughViews(Value value);

/// A kernel's operand read as a box of a value that may stay in LX: the
/// value below the views (getViewedValue) and the one view extract between
/// (a block of heads, of rows), with the box's start in bytes of the device
/// memory the extract reads (the viewed value's: a view keeps it).
struct BoxedRead {
  Value viewed;
  int64_t windowBytes = 0;
};
/// The boxed read `value` is: views, one view extract, views; nullopt
/// without exactly one extract or when its window is not device positions.
std::optional<BoxedRead> getBoxedRead(Value value);

/// Where operand `operand` of a kernel (`reader` divided by
/// `readerDivision`) finds its slice in the cores' LX when it reads the box
/// `windowBytes` into the device memory of `producer`'s result, kept there
/// as `held` (kernel::resultDivision) leaves it: sticks from the start of
/// each core's slice of that result (kernel::residentBoxOffset). Nullopt
/// when the box's cores' parts are not inside their slices in a way one LX
/// address reaches. What --spyre-plan-memory and --spyre-lower-to-kernels
/// both ask.
std::optional<int64_t> residentBoxOffset(const kernel::Problem &producer,
                                         const kernel::Division &held,
                                         const kernel::Problem &reader,
                                         const kernel::Division &readerDivision,
                                         unsigned operand, int64_t windowBytes);
/// The same for operand `operand` of divided kernel `reader`, a box
/// (getBoxedRead) of divided kernel `producer`'s result; nullopt when it is
/// no box of that result.
std::optional<int64_t> residentBoxOffset(const DividedPayload &producer,
                                         const DividedPayload &reader,
                                         unsigned operand);

/// Whether the result of `producer` may stay in the cores' LX between it and
/// every op reading it, space aside: its op may keep its output there
/// (mayKeepOutputInLx), it runs in one launch (a split reduction scattering
/// its result: kernel::resultDivision), and every reader, through views too
/// (readsThroughViews), is a kernel (`lookup` finds it; nullopt: host code)
/// that runs in one launch and either reads it whole and gets each core's
/// same device box (sameCoreSlices), or reads a box of it through a view's
/// extract found inside each core's slice (residentBoxOffset).
bool mayStayInLx(
    const DividedPayload &producer,
    function_ref<std::optional<DividedPayload>(Operation *)> lookup,
    const TargetModel &target);

/// Places the tensors kept in the cores' LX the way --spyre-plan-memory
/// does, one at a time: each at the highest stick-aligned offset that keeps
/// clear of the tensors placed before it whose lives (kernel positions
/// `def` .. `last`) overlap its own, and above `floor` (the staging buffers
/// of every kernel it lives across sit below the tensors in LX). The
/// fusion cost model places with it too, so that what it counts on staying
/// in LX is what the planner keeps there.
class LxPlacer {
public:
  LxPlacer(int64_t usableBytes, int64_t stickBytes)
      : usable(usableBytes), stick(stickBytes) {}
  /// The offset `bytes` (rounded up to sticks) got, or nullopt (not
  /// placed) when no offset fits.
  std::optional<int64_t> place(int64_t def, int64_t last, int64_t bytes,
                               int64_t floor);
  /// The LX below every placed tensor live at kernel `position`: the room
  /// its staging buffers have.
  int64_t roomAt(int64_t position) const;

private:
  struct Placed {
    int64_t def, last, begin, end;
  };
  int64_t usable, stick;
  SmallVector<Placed> placed;
};

/// Chooses divisions the way --spyre-divide-work does, for ops visited in
/// program order: the op's `spyre.work_division` hint when it has one, else
/// the policy's choice, preferring the division of the first operand
/// producer's (chosen before) that carries over; ops with the same
/// signature and preference share one choice.
class DivisionChooser {
public:
  using Cache = std::map<OpSignature, kernel::Division>;

  /// With `shared`, choices are remembered there instead of in this
  /// chooser alone, so that choosers of one pass (each costing the function
  /// again) choose each op signature once.
  DivisionChooser(const TargetModel &target, int64_t maxCores,
                  kernel::Policy policy, Cache *shared = nullptr)
      : target(target), maxCores(maxCores), policy(policy),
        cache(shared ? *shared : own) {}

  /// The division of payload `op`, remembered for its consumers; fails with
  /// the reason (no kernel problem, an invalid hint, no feasible split).
  llvm::Expected<kernel::Division> choose(Operation *op);

  /// The division chosen for `op`, if any.
  const kernel::Division *lookup(Operation *op) const {
    auto it = chosen.find(op);
    return it == chosen.end() ? nullptr : &it->second;
  }

private:
  /// Whether every reader in `reads` but `op` reads its operand whole and,
  /// once divided, takes the slices `same` accepts (the ones the producer
  /// left each core, so the value may stay in LX for all of them).
  bool othersTake(
      Operation *op, ArrayRef<OpOperand *> reads,
      function_ref<bool(OpOperand &, const kernel::Division &)> same) const;
  TargetModel target;
  int64_t maxCores;
  kernel::Policy policy;
  DenseMap<Operation *, kernel::Division> chosen;
  Cache own;
  Cache &cache;
};

} // namespace mlir::spyre

#endif // SPYRE_TRANSFORMS_UTILS_H
