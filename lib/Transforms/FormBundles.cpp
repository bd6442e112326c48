//===- FormBundles.cpp - --spyre-form-bundles -----------------------------===//
//
// Cuts each function's kernels into bundles, the unit the runtime launches
// with one DDR segment binding: the pool in segment 0 (when the function has
// one), then the io buffers in order of first use. Kernels join the current
// bundle while the binding stays within the target's bundle_segments; host
// code between kernels ends a bundle. Each kernel is then rebound: its
// `segments` become the bundle's and every DDR access is rebased onto its
// buffer's segment in that binding.
//
//===----------------------------------------------------------------------===//

#include "Spyre/Dialect/Spyre/IR/Spyre.h"
#include "Spyre/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::spyre {
#define GEN_PASS_DEF_SPYREFORMBUNDLES
#include "Spyre/Transforms/Passes.h.inc"
} // namespace mlir::spyre

using namespace mlir;
using namespace mlir::spyre;

namespace {

/// The kernels of one bundle and the segments they bind together.
struct Bundle {
  SmallVector<KernelOp> kernels;
  SmallVector<Attribute> segments;
};

/// `segments` with every buffer of `more` it lacks appended.
SmallVector<Attribute> merged(ArrayRef<Attribute> segments,
                              ArrayRef<Attribute> more) {
  SmallVector<Attribute> result(segments);
  for (Attribute mem : more)
    if (!llvm::is_contained(result, mem))
      result.push_back(mem);
  return result;
}

/// Whether `op`, between two kernels, ends a bundle: host code (calls of
/// host segments, transfers), control flow, anything with effects. Views and
/// constants are free.
bool endsBundle(Operation &op) {
  if (isa<KernelOp>(op))
    return false;
  return op.getNumRegions() != 0 || !isMemoryEffectFree(&op);
}

struct FormBundlesPass
    : public ::mlir::spyre::impl::SpyreFormBundlesBase<FormBundlesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    target = getTarget(module).getModel();
    nextBundle = 0;
    ddrSegments = target.ddrBytes / std::max<int64_t>(1, target.segmentBytes);
    limit = std::min(target.bundleSegments, ddrSegments);
    for (auto function : module.getOps<FunctionOpInterface>()) {
      if (function.isExternal())
        continue;
      WalkResult result = function.getFunctionBody().walk([&](Block *block) {
        return failed(formIn(*block)) ? WalkResult::interrupt()
                                      : WalkResult::advance();
      });
      if (result.wasInterrupted())
        return signalPassFailure();
    }
  }

  LogicalResult formIn(Block &block);
  LogicalResult close(Bundle &bundle);

  TargetModel target;
  int64_t ddrSegments = 0; ///< address segments the DDR holds
  int64_t limit = 0;
  int64_t nextBundle = 0;
};

LogicalResult FormBundlesPass::formIn(Block &block) {
  Bundle bundle;
  for (Operation &op : block) {
    auto kernel = dyn_cast<KernelOp>(op);
    if (!kernel) {
      if (endsBundle(op) && failed(close(bundle)))
        return failure();
      continue;
    }
    ArrayRef<Attribute> own = kernel.getSegments().getValue();
    if (static_cast<int64_t>(own.size()) > limit)
      return kernel.emitOpError()
             << "binds " << own.size()
             << " DDR address segments (the pool and one per host-visible "
                "tensor); a bundle binds at most "
             << limit
             << " (#spyre.target bundle_segments = " << target.bundleSegments
             << ", " << ddrSegments << " segments in the DDR)";
    SmallVector<Attribute> joined = merged(bundle.segments, own);
    if (static_cast<int64_t>(joined.size()) > limit) {
      if (failed(close(bundle)))
        return failure();
      joined.assign(own.begin(), own.end());
    }
    bundle.segments = std::move(joined);
    bundle.kernels.push_back(kernel);
  }
  return close(bundle);
}

LogicalResult FormBundlesPass::close(Bundle &bundle) {
  if (bundle.kernels.empty())
    return success();
  int64_t index = nextBundle++;
  for (KernelOp kernel : bundle.kernels) {
    MLIRContext *context = kernel.getContext();
    ArrayRef<Attribute> old = kernel.getSegments().getValue();
    SmallVector<Attribute> accesses;
    for (Attribute attr : kernel.getAccesses()) {
      auto access = cast<AccessAttr>(attr);
      MemAttr mem = access.getMem();
      int64_t base = access.getBase();
      if (mem.getSpace() != MemorySpace::LX) {
        // Rebase from the kernel's own segment to the bundle's.
        int64_t from = base / target.segmentBytes;
        auto bound = from >= 0 && from < static_cast<int64_t>(old.size())
                         ? cast<MemAttr>(old[from])
                         : MemAttr();
        if (!bound || (mem.getSpace() == MemorySpace::Pool
                           ? bound.getSpace() != MemorySpace::Pool
                           : bound != mem))
          return kernel.emitOpError()
                 << "accesses " << mem << " at " << base
                 << ", outside the segment the kernel binds it to";
        int64_t to =
            mem.getSpace() == MemorySpace::Pool
                ? from
                : llvm::find(bundle.segments, mem) - bundle.segments.begin();
        base += (to - from) * target.segmentBytes;
      }
      accesses.push_back(AccessAttr::get(
          context, mem, base, access.getCoreOffsets(), access.getTileSteps(),
          access.getChunkSteps(), access.getBox(), access.getDdrStrides(),
          access.getLxStrides(), access.getLxOffsets()));
    }
    Builder builder(context);
    kernel.setAccessesAttr(builder.getArrayAttr(accesses));
    kernel.setSegmentsAttr(builder.getArrayAttr(bundle.segments));
    kernel->setAttr(SpyreDialect::kBundleAttrName,
                    builder.getI64IntegerAttr(index));
  }
  bundle = Bundle();
  return success();
}

} // namespace
