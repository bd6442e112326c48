//===- ConvertLinalg.cpp - --spyre-convert-linalg
//---------------------------===//
//
// Runs the conversion patterns (LinalgToSpyre.cpp) on one function with the
// greedy pattern driver, which also erases what conversion leaves dead
// (fills, broadcasts, empties, constants). Ops that cannot run on the device
// stay where they are with a remark saying why; the layout propagation pass
// puts transfers at their boundary.
//
//===----------------------------------------------------------------------===//

#include "Spyre/Transforms/LinalgToSpyre.h"
#include "Spyre/Transforms/Passes.h"
#include "Spyre/Transforms/Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/IR/Remarks.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <numeric>

namespace mlir::spyre {
#define GEN_PASS_DEF_SPYRECONVERTLINALG
#include "Spyre/Transforms/Passes.h.inc"
} // namespace mlir::spyre

using namespace mlir;
using namespace mlir::spyre;

namespace {
struct ConvertLinalgPass
    : mlir::spyre::impl::SpyreConvertLinalgBase<ConvertLinalgPass> {
  using SpyreConvertLinalgBase::SpyreConvertLinalgBase;
  void runOnOperation() override {
    (void)forEachFunction(getOperation(), [&](FunctionOpInterface f) {
      convert(f);
      return success();
    });
  }

  void convert(FunctionOpInterface function) {
    if (splitProjections)
      splitColumnSlicedMatmuls(function);
    prepareLinalgBodies(function);
    UnsupportedOps unsupported;
    RewritePatternSet patterns(&getContext());
    LinalgToSpyreOptions options;
    options.f32Matmul = f32Matmul;
    populateSpyreConvertLinalgPatterns(patterns, &unsupported, options);
    GreedyRewriteConfig config;
    // Conversion, not canonicalization: only the patterns, and no folding
    // of the ops that stay on the host.
    config.setUseTopDownTraversal(true);
    config.enableFolding(false);
    config.enableConstantCSE(false);
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    (void)applyPatternsGreedily(function, std::move(patterns), config);
    keepHostReshapesOnHost(function, unsupported);
    remarkHostOps(function, unsupported);
  }

  /// A matmul whose result (or the result of the one elementwise op that
  /// reads it: a bias add) is read only in column blocks of whole sticks
  /// (`tensor.extract_slice` of all rows; GPT-2's `c_attn` split into Q, K
  /// and V) becomes one matmul per block, over the block's columns of the
  /// weight (a view of its sticks), with the elementwise op over the block:
  /// each projection's output then has a layout, a division and an LX
  /// residency of its own instead of being a third of one tensor.
  void splitColumnSlicedMatmuls(FunctionOpInterface function) {
    TargetModel target = getTarget(function).getModel();
    SmallVector<linalg::MatmulOp> matmuls;
    function.walk([&](linalg::MatmulOp op) { matmuls.push_back(op); });
    for (linalg::MatmulOp matmul : matmuls)
      splitColumnSliced(matmul, target);
  }

  /// The column blocks `value` ([rows, cols]) is read in, when it is read
  /// only so: static extracts of all rows, whole sticks of columns, apart.
  static std::optional<SmallVector<tensor::ExtractSliceOp>>
  columnBlocks(Value value, int64_t stickElems) {
    auto type = cast<RankedTensorType>(value.getType());
    SmallVector<tensor::ExtractSliceOp> blocks;
    SmallVector<std::pair<int64_t, int64_t>> taken;
    for (Operation *user : value.getUsers()) {
      auto slice = dyn_cast<tensor::ExtractSliceOp>(user);
      if (!slice || !slice.hasUnitStride() || slice.getType().getRank() != 2 ||
          !slice.getType().hasStaticShape())
        return std::nullopt;
      ArrayRef<int64_t> offsets = slice.getStaticOffsets();
      ArrayRef<int64_t> sizes = slice.getStaticSizes();
      if (ShapedType::isDynamic(offsets[0]) ||
          ShapedType::isDynamic(offsets[1]) || offsets[0] != 0 ||
          sizes[0] != type.getDimSize(0) || offsets[1] % stickElems ||
          sizes[1] % stickElems)
        return std::nullopt;
      for (auto [begin, end] : taken)
        if (offsets[1] < end && begin < offsets[1] + sizes[1])
          return std::nullopt;
      taken.push_back({offsets[1], offsets[1] + sizes[1]});
      blocks.push_back(slice);
    }
    if (blocks.empty())
      return std::nullopt;
    return blocks;
  }

  static void splitColumnSliced(linalg::MatmulOp matmul,
                                const TargetModel &target) {
    if (matmul->getNumResults() != 1 || !matmul.hasPureTensorSemantics())
      return;
    auto resultType =
        dyn_cast<RankedTensorType>(matmul->getResult(0).getType());
    if (!resultType || resultType.getRank() != 2 ||
        !resultType.hasStaticShape())
      return;
    // The weight's dim along N: the one its map shares with the result's
    // columns (which A's map must not read).
    SmallVector<AffineMap> maps = matmul.getIndexingMapsArray();
    if (maps.size() != 3 || maps[2].getNumResults() != 2)
      return;
    auto n = dyn_cast<AffineDimExpr>(maps[2].getResult(1));
    std::optional<unsigned> weightN;
    for (auto [d, e] : llvm::enumerate(maps[1].getResults()))
      if (e == n)
        weightN = d;
    auto weightType =
        dyn_cast<RankedTensorType>(matmul.getInputs()[1].getType());
    if (!n || !weightN || !weightType || weightType.getRank() != 2 ||
        !weightType.hasStaticShape() ||
        maps[0].isFunctionOfDim(n.getPosition()))
      return;
    // The one elementwise op between, if any: it reads the matmul's result
    // elementwise, every other operand whole per row ((d0, d1) -> (d1): a
    // bias), elementwise, per row or as a scalar, and not its own indices.
    Value read = matmul->getResult(0);
    linalg::GenericOp between;
    if (read.hasOneUse())
      between = dyn_cast<linalg::GenericOp>(*read.getUsers().begin());
    if (between && !readsPerColumn(between, read))
      return;
    if (between)
      read = between->getResult(0);
    // Whole sticks of the result's, the weight's and the blocks' element
    // types.
    int64_t stickElems = 1;
    for (Value v : {Value(matmul->getResult(0)), matmul.getInputs()[1], read}) {
      Type element = getElementTypeOrSelf(v.getType());
      if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() == 0 ||
          (target.stickBytes * 8) % element.getIntOrFloatBitWidth())
        return;
      stickElems = std::lcm(stickElems, target.stickBytes * 8 /
                                            element.getIntOrFloatBitWidth());
    }
    std::optional<SmallVector<tensor::ExtractSliceOp>> blocks =
        columnBlocks(read, stickElems);
    if (!blocks || llvm::any_of(*blocks, [&](tensor::ExtractSliceOp block) {
          return block->getBlock() != matmul->getBlock();
        }))
      return;

    auto column = [&](OpBuilder &b, Value v, int64_t offset, int64_t size,
                      unsigned dim) -> Value {
      auto type = cast<RankedTensorType>(v.getType());
      SmallVector<OpFoldResult> offsets(type.getRank(), b.getIndexAttr(0));
      SmallVector<OpFoldResult> sizes,
          strides(type.getRank(), b.getIndexAttr(1));
      for (int64_t d = 0; d < type.getRank(); ++d)
        sizes.push_back(b.getIndexAttr(type.getDimSize(d)));
      offsets[dim] = b.getIndexAttr(offset);
      sizes[dim] = b.getIndexAttr(size);
      return tensor::ExtractSliceOp::create(b, v.getLoc(), v, offsets, sizes,
                                            strides);
    };
    unsigned weightOperand = matmul.getDpsInputOperand(1)->getOperandNumber();
    unsigned initOperand = matmul.getDpsInitOperand(0)->getOperandNumber();
    for (tensor::ExtractSliceOp block : *blocks) {
      OpBuilder b(block);
      int64_t offset = block.getStaticOffsets()[1];
      int64_t size = block.getStaticSizes()[1];
      Location loc = matmul.getLoc();
      // The init restricted likewise (a zero fill of an empty: a new one).
      Value init = matmul.getOutputs()[0];
      Value newInit;
      if (auto fill = init.getDefiningOp<linalg::FillOp>();
          fill && fill.getOutputs()[0].getDefiningOp<tensor::EmptyOp>()) {
        Value empty = tensor::EmptyOp::create(
            b, loc, ArrayRef<int64_t>{resultType.getDimSize(0), size},
            resultType.getElementType());
        newInit =
            linalg::FillOp::create(b, fill.getLoc(), fill.getInputs()[0], empty)
                .getResult(0);
      } else {
        newInit = column(b, init, offset, size, 1);
      }
      // (Operands set by position: the same value may be A and B.)
      Value weight = column(b, matmul.getInputs()[1], offset, size, *weightN);
      Operation *part = b.clone(*matmul);
      part->setOperand(weightOperand, weight);
      part->setOperand(initOperand, newInit);
      part->getResult(0).setType(newInit.getType());
      Value value = part->getResult(0);
      if (between) {
        SmallVector<Value> operands;
        for (OpOperand &operand : between->getOpOperands()) {
          Value v = operand.get();
          // (readsPerColumn accepted every map.)
          std::optional<unsigned> dim =
              *columnDimOf(between.getMatchingIndexingMap(&operand));
          auto empty = v.getDefiningOp<tensor::EmptyOp>();
          if (v == matmul->getResult(0))
            v = value;
          else if (dim == 1u && empty)
            v = tensor::EmptyOp::create(b, empty.getLoc(),
                                        block.getType().getShape(),
                                        empty.getType().getElementType());
          else if (dim)
            v = column(b, v, offset, size, *dim);
          operands.push_back(v);
        }
        Operation *op = b.clone(*between);
        for (auto [i, v] : llvm::enumerate(operands))
          op->setOperand(i, v);
        op->getResult(0).setType(block.getType());
        value = op->getResult(0);
      }
      block.getResult().replaceAllUsesWith(value);
      block->erase();
    }
    if (between && between->use_empty())
      between->erase();
    if (matmul->use_empty())
      matmul->erase();
  }

  /// Whether the 2-d elementwise `generic` reads `result` (read once, as
  /// itself) and each other operand so that a block of its columns reads
  /// the same block of `result`'s: whole per row, elementwise, per row or a
  /// scalar; and its body does not read its indices.
  static bool readsPerColumn(linalg::GenericOp generic, Value result) {
    if (generic.getNumDpsInits() != 1 || generic->getNumResults() != 1 ||
        generic.getNumLoops() != 2 || generic.getNumParallelLoops() != 2 ||
        !generic.hasPureTensorSemantics() || generic.hasIndexSemantics() ||
        !generic.getIndexingMapsArray().back().isIdentity())
      return false;
    int reads = 0;
    for (OpOperand &operand : generic->getOpOperands()) {
      AffineMap map = generic.getMatchingIndexingMap(&operand);
      if (operand.get() == result) {
        ++reads;
        if (!map.isIdentity())
          return false;
        continue;
      }
      auto shaped = dyn_cast<ShapedType>(operand.get().getType());
      if ((shaped && !shaped.hasStaticShape()) || failed(columnDimOf(map)))
        return false;
    }
    return reads == 1;
  }

  /// The dim of an operand a block of a 2-d elementwise op's columns reads
  /// a block of, by the operand's map: 1 elementwise, 0 whole per row (a
  /// bias); nullopt when every block reads it whole (per row, a scalar);
  /// failure when it reads it another way.
  static FailureOr<std::optional<unsigned>> columnDimOf(AffineMap map) {
    MLIRContext *context = map.getContext();
    if (map.isIdentity())
      return std::optional<unsigned>(1);
    if (map.getNumResults() == 0)
      return std::optional<unsigned>();
    if (map.getNumResults() == 1 &&
        map.getResult(0) == getAffineDimExpr(1, context))
      return std::optional<unsigned>(0);
    if (map.getNumResults() == 1 &&
        map.getResult(0) == getAffineDimExpr(0, context))
      return std::optional<unsigned>();
    return failure();
  }

  /// Whether `op` computes on the device (the quantization casts are the
  /// dialect's host ops).
  static bool isDeviceOp(Operation *op) {
    return isa<SpyreDialect>(op->getDialect()) &&
           !isa<QuantizeOp, DequantizeOp>(op);
  }

  /// A reshape of host data that only host code reads (an embedding table
  /// reshaped for a gather on the host) stays a host reshape: as a device
  /// view, its data would go to the device and straight back.
  static void keepHostReshapesOnHost(FunctionOpInterface function,
                                     UnsupportedOps &unsupported) {
    // The reshapes whose data comes from the host and goes to the host,
    // through other such reshapes: the largest such set, by elimination.
    llvm::SetVector<Operation *> staying;
    function.walk([&](ReshapeOp op) {
      if (!op->use_empty() && op.getInput().getType().hasStaticShape() &&
          op.getType().hasStaticShape())
        staying.insert(op);
    });
    auto device = [&](Operation *op) {
      return isDeviceOp(op) && !staying.contains(op);
    };
    for (bool changed = true; changed;) {
      changed = false;
      for (Operation *op : SmallVector<Operation *>(staying.getArrayRef())) {
        Operation *def = op->getOperand(0).getDefiningOp();
        // Host code must read it: a reshape only returned is the device's
        // (a program of views).
        bool hostReads = llvm::any_of(op->getUsers(), [&](Operation *user) {
          return !user->hasTrait<OpTrait::IsTerminator>() && !device(user);
        });
        if ((def && device(def)) || llvm::any_of(op->getUsers(), device) ||
            !hostReads) {
          staying.remove(op);
          changed = true;
        }
      }
    }
    for (Operation *staysOp : staying) {
      auto op = cast<ReshapeOp>(staysOp);
      auto from = cast<RankedTensorType>(op.getInput().getType());
      auto to = cast<RankedTensorType>(op.getType());
      OpBuilder b(op);
      Location loc = op.getLoc();
      Value host;
      if (std::optional<SmallVector<ReassociationIndices>> groups =
              getReassociationIndicesForReshape(from, to)) {
        if (to.getRank() < from.getRank())
          host = tensor::CollapseShapeOp::create(b, loc, to, op.getInput(),
                                                 *groups);
        else
          host =
              tensor::ExpandShapeOp::create(b, loc, to, op.getInput(), *groups);
      } else {
        auto shapeType =
            RankedTensorType::get({to.getRank()}, b.getIndexType());
        Value shape = arith::ConstantOp::create(
            b, loc,
            DenseElementsAttr::get(
                shapeType, llvm::map_to_vector(to.getShape(), [&](int64_t d) {
                  return cast<Attribute>(b.getIndexAttr(d));
                })));
        host = tensor::ReshapeOp::create(b, loc, to, op.getInput(), shape);
      }
      unsupported.reasons[host.getDefiningOp()] =
          "its data comes from the host and only host code reads it (as a "
          "device view it would go to the device and back)";
      op.replaceAllUsesWith(host);
      op.erase();
    }
  }

  /// Why no device op can take `op`'s tensors, when one of them carries an
  /// encoding the device does not hold (a sparse tensor's) or one of their
  /// element types is not held on the device (f64, the fnuz fp8s, i2, ...).
  static std::optional<std::string> hostOnlyElementType(Operation *op) {
    if (RankedTensorType encoded = foreignEncodedTensor(op)) {
      std::string name;
      llvm::raw_string_ostream os(name);
      os << encoded;
      return "its tensor " + name +
             " carries an encoding the device does not hold (sparse "
             "tensors run on the host, through upstream's sparsifier)";
    }
    SmallVector<Type> types(op->getOperandTypes());
    llvm::append_range(types, op->getResultTypes());
    for (Type type : types) {
      auto tensor = dyn_cast<TensorType>(type);
      if (!tensor || succeeded(getDeviceHostType(tensor.getElementType())))
        continue;
      std::string name;
      llvm::raw_string_ostream os(name);
      os << tensor.getElementType();
      if (succeeded(getHostType(tensor.getElementType())))
        return "its element type " + name +
               " is a host type: it travels to and from the device, but no "
               "device op computes on it or lays it out";
      return "its element type " + name + " has no Spyre device format";
    }
    return std::nullopt;
  }

  /// Every op left on tensors outside the spyre dialect stays on the host:
  /// a remark says why (the reason a pattern gave, or that no pattern
  /// applies), unless it only feeds host ops that say so already, so that
  /// whoever meets the op later - the simulator, the emitters - can point at
  /// a remark.
  void remarkHostOps(FunctionOpInterface function,
                     const UnsupportedOps &unsupported) {
    auto isTensor = [](Type type) { return isa<TensorType>(type); };
    auto isMemRef = [](Type type) { return isa<BaseMemRefType>(type); };
    function.walk([&](Operation *op) {
      // Ops nested in a host op run with it: the outer op gets the remark.
      if (op == function.getOperation() ||
          op->getParentOp() != function.getOperation() ||
          isa<SpyreDialect>(op->getDialect()) || isa<tensor::EmptyOp>(op) ||
          op->hasTrait<OpTrait::IsTerminator>())
        return;
      // Buffers and the tensors they become or come from (spyre-run's
      // memref arguments): the ops on the buffers say why.
      if (isa<bufferization::ToTensorOp, bufferization::ToBufferOp>(op))
        return;
      if (llvm::any_of(op->getOperandTypes(), isMemRef) ||
          llvm::any_of(op->getResultTypes(), isMemRef)) {
        if (!isa<memref::AllocOp, memref::CopyOp, memref::DeallocOp>(op))
          remarkStaysOnHost(op, function,
                            "it works on memrefs (buffers); the device "
                            "compiles programs on tensors");
        return;
      }
      if (llvm::none_of(op->getOperandTypes(), isTensor) &&
          llvm::none_of(op->getResultTypes(), isTensor))
        return;
      auto reason = unsupported.reasons.find(op);
      if (reason == unsupported.reasons.end() &&
          isa<linalg::FillOp, linalg::BroadcastOp, arith::ConstantOp>(op))
        return; // read by host ops only: their remarks explain
      std::string why;
      if (auto onHost =
              op->getAttrOfType<StringAttr>(SpyreDialect::kOnHostAttrName))
        why = onHost.str();
      else if (reason != unsupported.reasons.end())
        why = reason->second;
      else if (auto call = dyn_cast<func::CallOp>(op))
        why = ("calls are not compiled for the device; inline @" +
               call.getCallee() + " first (--inline)")
                  .str();
      else if (std::optional<std::string> type = hostOnlyElementType(op))
        why = *type;
      else
        why = "--spyre-convert-linalg has no Spyre op for it";
      remarkStaysOnHost(op, function, why);
    });
  }

  /// "'op' stays on the host: why". When MLIR's remark engine takes it
  /// (`--remarks-filter=spyre`, `--remark-format=yaml`, ...): a missed
  /// optimization remark of category `spyre:convert-linalg`, named
  /// StaysOnHost; otherwise a remark diagnostic at the op.
  void remarkStaysOnHost(Operation *op, FunctionOpInterface function,
                         StringRef why) {
    std::string message =
        ("'" + op->getName().getStringRef() + "' stays on the host: " + why)
            .str();
    if (auto remark =
            remark::missed(op->getLoc(), remark::RemarkOpts::name("StaysOnHost")
                                             .category("spyre")
                                             .subCategory("convert-linalg")
                                             .function(function.getName()))) {
      remark << message;
      return;
    }
    // At the op's location, without the op printed after it.
    emitRemark(op->getLoc()) << message;
  }
};
} // namespace
