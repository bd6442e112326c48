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
