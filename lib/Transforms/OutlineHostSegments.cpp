//===- OutlineHostSegments.cpp - --spyre-outline-host-segments ------------===//
//
// What the device cannot run stays on the host, and a program is then a
// sequence of device kernels and host segments with transfers between them,
// as a runtime with a CPU fallback runs it. This pass makes the partition
// explicit: every maximal run of host ops in a function's body (ops outside
// the spyre dialect; constants they read are copied in, not cut at) becomes
// a private function marked `spyre.host_segment`, called where the run was.
// The simulator runs those functions on the host (upstream lowering, JIT),
// the emitters list them beside the kernels, and the spyre.to_device /
// spyre.from_device ops around them are the transfers.
//
// With `allow=false` (`--spyre-pipeline=host-fallback=false`) every host op
// is an error at its location instead.
//
//===----------------------------------------------------------------------===//

#include "Spyre/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::spyre {
#define GEN_PASS_DEF_SPYREOUTLINEHOSTSEGMENTS
#include "Spyre/Transforms/Passes.h.inc"
} // namespace mlir::spyre

using namespace mlir;
using namespace mlir::spyre;

namespace {

/// Whether a host op is better copied into every segment that reads it
/// than cut at: constants and other ops that make a value from nothing
/// (tensor.empty).
bool isRematerializable(Operation &op) {
  // (A `return` of nothing has no operands and no effects too.)
  return op.hasTrait<OpTrait::ConstantLike>() ||
         (op.getNumOperands() == 0 && op.getNumRegions() == 0 &&
          op.getNumResults() > 0 && isMemoryEffectFree(&op));
}

/// Whether `op`, directly in a function body, runs on the host (calls of
/// host segments are the host's already).
bool isHostOp(Operation &op) {
  if (auto call = dyn_cast<func::CallOp>(op)) {
    auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
        call, call.getCalleeAttr());
    return !callee || !callee->hasAttr(SpyreDialect::kHostSegmentAttrName);
  }
  // The quantization casts are host ops of the dialect (they compute on
  // host tensors); the device reads quantized parts through compute ops.
  if (isa<QuantizeOp, DequantizeOp>(op))
    return true;
  return !isa<SpyreDialect>(op.getDialect()) &&
         !op.hasTrait<OpTrait::IsTerminator>() && !isRematerializable(op);
}

/// Buffers live in one host segment where they can: segments exchange
/// tensors only. A buffer's materialization (`bufferization.to_buffer` of a
/// tensor, which tensors never change, or an allocation) moves down to the
/// first op of `block` that uses it or a view of it, and a tensor made of a
/// buffer (`bufferization.to_tensor`) up to right after the last, so that
/// device ops the program wrote between them and the buffer's code do not
/// cut a segment through the buffer.
void gatherBufferCode(Block &block) {
  // The top-level ops that use `buffer` or a memref derived from it.
  auto users = [&](Value buffer) {
    SmallVector<Operation *> tops;
    SmallVector<Value> worklist = {buffer};
    llvm::SmallPtrSet<Value, 8> seen;
    while (!worklist.empty()) {
      Value value = worklist.pop_back_val();
      if (!seen.insert(value).second)
        continue;
      for (Operation *user : value.getUsers()) {
        if (Operation *top = block.findAncestorOpInBlock(*user))
          tops.push_back(top);
        for (Value result : user->getResults())
          if (isa<BaseMemRefType>(result.getType()))
            worklist.push_back(result);
      }
    }
    return tops;
  };
  SmallVector<Operation *> sources, sinks;
  for (Operation &op : block) {
    if (isa<bufferization::ToBufferOp, memref::AllocOp>(op))
      sources.push_back(&op);
    else if (isa<bufferization::ToTensorOp>(op))
      sinks.push_back(&op);
  }
  for (Operation *op : sources) {
    Operation *first = nullptr;
    for (Operation *top : users(op->getResult(0)))
      if (!first || top->isBeforeInBlock(first))
        first = top;
    if (first && op->getNextNode() != first && op->isBeforeInBlock(first))
      op->moveBefore(first);
  }
  for (Operation *op : sinks) {
    Value buffer = op->getOperand(0);
    Operation *last = buffer.getDefiningOp();
    if (!last || last->getBlock() != &block)
      continue;
    for (Operation *top : users(buffer))
      if (top != op && top->isBeforeInBlock(op) && last->isBeforeInBlock(top))
        last = top;
    if (last->getNextNode() != op)
      op->moveAfter(last);
  }
  // Device ops between the first buffer and the last use of any that need
  // nothing made in between (they compute on tensors: moving them is free)
  // go before the first.
  if (sources.empty())
    return;
  Operation *first = sources.front(), *last = sources.front();
  for (Operation *source : sources) {
    if (source->isBeforeInBlock(first))
      first = source;
    for (Operation *top : users(source->getResult(0)))
      if (last->isBeforeInBlock(top))
        last = top;
  }
  SmallVector<Operation *> inside;
  for (Operation *op = first->getNextNode(); op && op != last;
       op = op->getNextNode())
    inside.push_back(op);
  llvm::SmallPtrSet<Operation *, 16> stays;
  for (Operation *op : inside) {
    bool movable = !isHostOp(*op) && isPure(op);
    for (Value operand : op->getOperands())
      if (Operation *def = operand.getDefiningOp())
        movable &= !stays.contains(def);
    if (movable)
      op->moveBefore(first);
    else
      stays.insert(op);
  }
}

struct OutlineHostSegmentsPass
    : mlir::spyre::impl::SpyreOutlineHostSegmentsBase<OutlineHostSegmentsPass> {
  using SpyreOutlineHostSegmentsBase::SpyreOutlineHostSegmentsBase;

  /// The tensor.extract ops that give a function body back the scalars its
  /// segments return as 0-d tensors.
  llvm::SmallPtrSet<Operation *, 8> carriers;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<func::FuncOp> functions;
    for (auto function : module.getOps<func::FuncOp>())
      if (!function.isExternal() &&
          !function->hasAttr(SpyreDialect::kHostSegmentAttrName))
        functions.push_back(function);
    bool failed = false;
    for (func::FuncOp function : functions)
      failed |= mlir::failed(outlineFunction(module, function));
    if (failed)
      signalPassFailure();
  }

  LogicalResult outlineFunction(ModuleOp module, func::FuncOp function) {
    Region &body = function.getBody();
    if (!body.hasOneBlock())
      return success(); // not a straight-line function: left as it is
    gatherBufferCode(body.front());
    // Maximal runs of host ops; constants do not cut a run.
    SmallVector<SmallVector<Operation *>> runs(1);
    for (Operation &op : body.front()) {
      if (isHostOp(op))
        runs.back().push_back(&op);
      else if (!isRematerializable(op) && !runs.back().empty())
        runs.emplace_back();
    }
    if (runs.back().empty())
      runs.pop_back();
    if (!allow) {
      for (const SmallVector<Operation *> &run : runs)
        for (Operation *op : run)
          // At the op, without the op printed after it: the remark above
          // already names it.
          emitError(op->getLoc())
              << "'" << op->getName()
              << "' runs on the host, and host fallback is off "
                 "(--spyre-pipeline=host-fallback=false); its "
                 "remark says why the device does not run it";
      return failure(!runs.empty());
    }
    SymbolTable symbols(module);
    Operation *previous = function; // segments follow in order
    for (auto [index, run] : llvm::enumerate(runs))
      if (failed(outline(function, run, index, symbols, previous)))
        return failure();
    // Constants only the segments read now are dead, and so are the
    // extracts of scalars only segments read.
    for (Operation &op : llvm::make_early_inc_range(
             llvm::reverse(body.front().getOperations())))
      if ((isRematerializable(op) || carriers.contains(&op)) &&
          !isa<SpyreDialect>(op.getDialect()) && op.use_empty())
        op.erase();
    return success();
  }

  LogicalResult outline(func::FuncOp function, ArrayRef<Operation *> run,
                        size_t index, SymbolTable &symbols,
                        Operation *&previous) {
    llvm::SmallPtrSet<Operation *, 16> inRun(run.begin(), run.end());
    // Values the run reads from outside (constants are copied in instead),
    // and values the rest of the function reads from the run.
    llvm::SetVector<Value> inputs;
    llvm::SetVector<Operation *> constants;
    auto read = [&](Value value) {
      Operation *def = value.getDefiningOp();
      if (def && inRun.contains(def))
        return;
      if (def && isRematerializable(*def)) {
        constants.insert(def);
      } else if (def && carriers.contains(def)) {
        // A scalar an earlier segment returned as a 0-d tensor: the tensor
        // comes in, the extract is copied in.
        inputs.insert(def->getOperand(0));
        constants.insert(def);
      } else {
        inputs.insert(value);
      }
    };
    for (Operation *op : run) {
      for (Value operand : op->getOperands())
        read(operand);
      llvm::SetVector<Value> above;
      getUsedValuesDefinedAbove(op->getRegions(), above);
      for (Value value : above)
        read(value);
    }
    SmallVector<Value> outputs;
    Block &block = function.getBody().front();
    for (Operation *op : run)
      for (Value result : op->getResults())
        if (llvm::any_of(result.getUsers(), [&](Operation *user) {
              Operation *top = block.findAncestorOpInBlock(*user);
              return !top || !inRun.contains(top);
            }))
          outputs.push_back(result);
    // Scalars the function itself takes (a helper's size argument: only
    // host code calls a function with scalar arguments, spyre-run having
    // made an entry's 0-d tensors) are the segment's arguments as they are.
    auto isScalarArgument = [&](Value value) {
      return isa<BlockArgument>(value) &&
             value.getParentRegion() == &function.getBody() &&
             isa<IntegerType, IndexType, FloatType>(value.getType());
    };
    for (Value input : inputs)
      if (!isa<RankedTensorType>(input.getType()) && !isScalarArgument(input))
        return run.front()->emitError()
               << "'" << run.front()->getName()
               << "' runs on the host but reads a " << input.getType()
               << " computed elsewhere; host segments exchange tensors only";
    // Scalars the rest of the function reads (a time from rtclock printed
    // by a later segment) leave as 0-d tensors.
    auto isScalar = [](Type type) {
      return isa<IntegerType, IndexType, FloatType>(type);
    };

    // The segment function.
    OpBuilder builder(function);
    builder.setInsertionPointAfter(previous);
    SmallVector<Type> inputTypes, outputTypes;
    for (Value input : inputs)
      inputTypes.push_back(input.getType());
    for (Value output : outputs)
      outputTypes.push_back(isScalar(output.getType())
                                ? RankedTensorType::get({}, output.getType())
                                : output.getType());
    std::string name =
        (function.getName() + "__host" + std::to_string(index)).str();
    auto segment =
        func::FuncOp::create(builder, run.front()->getLoc(), name,
                             builder.getFunctionType(inputTypes, outputTypes));
    segment.setPrivate();
    segment->setAttr(SpyreDialect::kHostSegmentAttrName, builder.getUnitAttr());
    symbols.insert(segment, Block::iterator(segment));
    previous = segment;
    Block *entry = segment.addEntryBlock();
    IRMapping mapping;
    for (auto [input, arg] : llvm::zip(inputs, entry->getArguments()))
      mapping.map(input, arg);
    builder.setInsertionPointToStart(entry);
    for (Operation *constant : constants)
      builder.clone(*constant, mapping);
    for (Operation *op : run)
      builder.clone(*op, mapping);
    SmallVector<Value> returned;
    for (Value output : outputs) {
      Value value = mapping.lookup(output);
      if (isScalar(value.getType()))
        value = tensor::FromElementsOp::create(
            builder, value.getLoc(), RankedTensorType::get({}, value.getType()),
            value);
      returned.push_back(value);
    }
    func::ReturnOp::create(builder, run.back()->getLoc(), returned);

    // The call where the run was.
    builder.setInsertionPointAfter(run.back());
    auto call = func::CallOp::create(builder, run.back()->getLoc(), segment,
                                     inputs.getArrayRef());
    for (auto [output, result] : llvm::zip(outputs, call.getResults())) {
      Value value = result;
      if (isScalar(output.getType())) {
        auto extract = tensor::ExtractOp::create(builder, output.getLoc(),
                                                 result, ValueRange{});
        carriers.insert(extract);
        value = extract;
      }
      output.replaceAllUsesWith(value);
    }
    for (Operation *op : llvm::reverse(run))
      op->erase();
    return success();
  }
};

} // namespace
