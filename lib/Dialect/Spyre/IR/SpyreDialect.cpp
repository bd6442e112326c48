//===- SpyreDialect.cpp - The spyre dialect
//--------------------------------===//
//
// Dialect registration and the verification of the dialect's discardable
// attributes: `spyre.target` on modules, `spyre.layout` / `spyre.dim_order`
// on function arguments and results.
//
//===----------------------------------------------------------------------===//

#include "Spyre/Dialect/Spyre/IR/Spyre.h"
#include "Spyre/InitSpyre.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/Support/MathExtras.h"

#include <limits>

using namespace mlir;
using namespace mlir::spyre;

#include "Spyre/Dialect/Spyre/IR/SpyreDialect.cpp.inc"

void SpyreDialect::initialize() {
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "Spyre/Dialect/Spyre/IR/SpyreOps.cpp.inc"
      >();
}

/// Folded host tensors (the parts of a quantized constant) are arith
/// constants.
Operation *SpyreDialect::materializeConstant(OpBuilder &builder,
                                             Attribute value, Type type,
                                             Location loc) {
  auto dense = dyn_cast<DenseElementsAttr>(value);
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!dense || !tensor || tensor.getEncoding() || dense.getType() != type)
    return nullptr;
  return arith::ConstantOp::create(builder, loc, type, dense);
}

/// Checks that every layout in `module` is built for the target's stick.
static LogicalResult verifyStickSize(Operation *module, TargetAttr target) {
  int64_t stickBytes = target.getStickBytes();
  auto check = [&](Operation *op, Type type) -> LogicalResult {
    LayoutAttr layout = getLayoutAttr(type);
    if (!layout || layout.getStickBytes() == stickBytes)
      return success();
    return op->emitOpError()
           << "uses a layout built for " << layout.getStickBytes()
           << "-byte sticks, but the module's #spyre.target has " << stickBytes
           << "-byte sticks";
  };
  WalkResult result = module->walk([&](Operation *op) {
    for (Type type : op->getResultTypes())
      if (failed(check(op, type)))
        return WalkResult::interrupt();
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          if (failed(check(op, arg.getType())))
            return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

/// `spyre.division`, `spyre.work_division` and `spyre.tiles` describe the
/// iteration space of a kernel payload and need one entry per op dim.
static LogicalResult verifyDivisionAttribute(Operation *op, StringRef name,
                                             Attribute value) {
  if (!isKernelPayload(op))
    return op->emitError() << "'" << name
                           << "' only applies to spyre compute ops, "
                              "restickify and pad";
  size_t numDims = cast<KernelPayloadOpInterface>(op).getNumLoops();
  ArrayRef<int64_t> values;
  if (auto division = dyn_cast<DivisionAttr>(value)) {
    if (name != SpyreDialect::kDivisionAttrName)
      return op->emitError() << "'" << name
                             << "' must be an array<i64: ...>, one value per "
                                "op dim";
    values = division.getSplits();
    int64_t cores = getTarget(op).getCores();
    int64_t used = 1;
    bool overflow = false;
    for (int64_t split : values)
      overflow |= static_cast<bool>(llvm::MulOverflow(used, split, used));
    if (overflow)
      return op->emitError() << "'" << name << "' splits " << formatList(values)
                             << " use more cores than the target's " << cores;
    if (used > cores)
      return op->emitError() << "'" << name << "' uses " << used
                             << " cores, the target has " << cores;
  } else if (auto array = dyn_cast<DenseI64ArrayAttr>(value)) {
    if (name == SpyreDialect::kDivisionAttrName)
      return op->emitError()
             << "'" << name << "' must be a #spyre.division attribute";
    values = array.asArrayRef();
    for (auto [d, v] : llvm::enumerate(values))
      if (v < 1)
        return op->emitError() << "'" << name << "' entry " << v
                               << " for op dim " << d << " must be positive";
  } else {
    return op->emitError() << "'" << name << "' must be "
                           << (name == SpyreDialect::kDivisionAttrName
                                   ? "a #spyre.division attribute"
                                   : "an array<i64: ...>, one value per op "
                                     "dim");
  }
  if (values.size() != numDims)
    return op->emitError() << "'" << name << "' has " << values.size()
                           << " entries but the op has " << numDims << " dims";
  return success();
}

LogicalResult SpyreDialect::verifyOperationAttribute(Operation *op,
                                                     NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  if (name == kTargetAttrName) {
    auto target = dyn_cast<TargetAttr>(attr.getValue());
    if (!target)
      return op->emitError()
             << "'" << kTargetAttrName << "' must be a #spyre.target attribute";
    if (!isa<ModuleOp>(op))
      return op->emitError()
             << "'" << kTargetAttrName << "' may only be attached to a module";
    return verifyStickSize(op, target);
  }
  if (name == kLayoutAttrName || name == kDimOrderAttrName)
    return op->emitError() << "'" << name
                           << "' is a function argument or result attribute, "
                              "not an operation attribute";
  if (name == kDivisionAttrName || name == kWorkDivisionAttrName ||
      name == kTilesAttrName)
    return verifyDivisionAttribute(op, name, attr.getValue());
  if (name == kKeepInputsAttrName) {
    if (!isa<UnitAttr>(attr.getValue()))
      return op->emitError() << "'" << name << "' must be a unit attribute";
    if (!op->hasAttr(kTilesAttrName))
      return op->emitError() << "'" << name << "' qualifies '" << kTilesAttrName
                             << "', which the op does not have";
    return success();
  }
  if (name == kMemAttrName) {
    auto mem = dyn_cast<MemAttr>(attr.getValue());
    if (!mem)
      return op->emitError()
             << "'" << name << "' must be a #spyre.mem attribute";
    if (op->getNumResults() != 1 || !isDeviceTensor(op->getResult(0).getType()))
      return op->emitError() << "'" << name
                             << "' annotates the device tensor an op defines; "
                                "this op does not define exactly one";
    // An io buffer holds one tensor: not one of the function's arguments.
    if (mem.getSpace() == MemorySpace::IO)
      if (auto function = op->getParentOfType<FunctionOpInterface>())
        for (unsigned i = 0, e = function.getNumArguments(); i < e; ++i)
          if (function.getArgAttrOfType<MemAttr>(i, kMemAttrName) == mem)
            return op->emitError()
                   << "'" << name << "': " << mem << " already holds argument #"
                   << i << " of @" << function.getName();
    return success();
  }
  if (name == kPoolBytesAttrName) {
    auto bytes = dyn_cast<IntegerAttr>(attr.getValue());
    if (!bytes || bytes.getInt() < 0 || !isa<FunctionOpInterface>(op))
      return op->emitError() << "'" << name
                             << "' must be a non-negative integer on a "
                                "function";
    // The pool is the kernels' first DDR address segment, in the DDR.
    TargetAttr target = getTarget(op);
    if (bytes.getInt() > target.getSegmentBytes())
      return op->emitError() << "'" << name << "' = " << bytes.getInt()
                             << " does not fit the one DDR address segment "
                                "the pool lives in ("
                             << target.getSegmentBytes() << " bytes)";
    if (bytes.getInt() > target.getDdrBytes())
      return op->emitError() << "'" << name << "' = " << bytes.getInt()
                             << " does not fit the target's DDR ("
                             << target.getDdrBytes() << " bytes)";
    return success();
  }
  if (name == kBundleAttrName) {
    auto bundle = dyn_cast<IntegerAttr>(attr.getValue());
    if (!bundle || !bundle.getType().isInteger(64) || bundle.getInt() < 0 ||
        !isa<KernelOp>(op))
      return op->emitError() << "'" << name
                             << "' must be a non-negative i64 on a "
                                "spyre.kernel";
    return success();
  }
  if (name == kFusionGroupAttrName) {
    auto group = dyn_cast<IntegerAttr>(attr.getValue());
    if (!group || !group.getType().isInteger(64) || group.getInt() < 0 ||
        !isKernelPayload(op))
      return op->emitError() << "'" << name
                             << "' must be a non-negative i64 on a kernel "
                                "payload op";
    return success();
  }
  if (name == kOnHostAttrName) {
    if (!isa<StringAttr>(attr.getValue()))
      return op->emitError()
             << "'" << name
             << "' must be a string: why the op stays on the host";
    return success();
  }
  if (name == kHostSegmentAttrName) {
    if (!isa<UnitAttr>(attr.getValue()) || !isa<FunctionOpInterface>(op))
      return op->emitError()
             << "'" << name << "' is a unit attribute of a function";
    return success();
  }
  return op->emitError() << "unknown spyre dialect attribute '" << name << "'";
}

namespace {
/// Which value a function argument/result attribute annotates.
struct AnnotatedValue {
  Operation *op;
  StringRef kind; // "argument" or "result"
  unsigned index;
  Type type;
  DictionaryAttr siblings;

  /// At the argument itself when the op has a body (its location points at
  /// the attribute), else at the op.
  InFlightDiagnostic emitError(StringRef attrName) const {
    Location loc = op->getLoc();
    if (kind == "argument" && op->getNumRegions() > 0 &&
        !op->getRegion(0).empty() && index < op->getRegion(0).getNumArguments())
      loc = op->getRegion(0).getArgument(index).getLoc();
    return mlir::emitError(loc)
           << kind << " #" << index << " '" << attrName << "': ";
  }
};
} // namespace

/// Reads a dim_order from an array of integers (64-bit, as written).
static FailureOr<SmallVector<int64_t>> getDimOrder(Attribute attr) {
  if (auto dense = dyn_cast<DenseI64ArrayAttr>(attr))
    return SmallVector<int64_t>(dense.asArrayRef());
  auto array = dyn_cast<ArrayAttr>(attr);
  if (!array)
    return failure();
  SmallVector<int64_t> order;
  for (Attribute element : array) {
    auto integer = dyn_cast<IntegerAttr>(element);
    if (!integer)
      return failure();
    order.push_back(integer.getInt());
  }
  return order;
}

static LogicalResult verifyValueAttribute(const AnnotatedValue &value,
                                          NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  if (name == SpyreDialect::kMemAttrName) {
    if (!isDeviceTensor(value.type))
      return value.emitError(name) << "only device tensors live in device "
                                      "memory, got "
                                   << value.type;
    auto mem = dyn_cast<MemAttr>(attr.getValue());
    if (!mem || mem.getSpace() != MemorySpace::IO)
      return value.emitError(name)
             << "function arguments and results live in host-visible "
                "buffers, #spyre.mem<io N>";
    auto function = dyn_cast<FunctionOpInterface>(value.op);
    if (!function)
      return success();
    // Distinct arguments are distinct buffers.
    if (value.kind == "argument") {
      for (unsigned j = 0; j < value.index; ++j)
        if (function.getArgAttrOfType<MemAttr>(j, name) == mem)
          return value.emitError(name)
                 << mem << " already holds argument #" << j;
      return success();
    }
    // A result is the buffer of the tensor returned. The body is not
    // verified yet: only look at what is certainly there, and leave views
    // (whose buffer is their root's) alone.
    if (function.isExternal())
      return success();
    for (Block &block : function.getFunctionBody()) {
      if (block.empty())
        continue;
      Operation *terminator = &block.back();
      if (!terminator->hasTrait<OpTrait::IsTerminator>() ||
          terminator->getNumOperands() != function.getNumResults() ||
          terminator->getNumSuccessors() != 0)
        continue;
      ::mlir::Value returned = terminator->getOperand(value.index);
      MemAttr lives;
      if (auto arg = dyn_cast<BlockArgument>(returned)) {
        if (arg.getOwner()->isEntryBlock() &&
            arg.getOwner()->getParentOp() == value.op)
          lives = function.getArgAttrOfType<MemAttr>(arg.getArgNumber(), name);
      } else if (Operation *def = returned.getDefiningOp()) {
        lives = def->getAttrOfType<MemAttr>(name);
      }
      if (lives && lives != mem)
        return value.emitError(name) << "@" << function.getName()
                                     << " returns a tensor that lives in "
                                     << lives << ", not in " << mem;
    }
    return success();
  }
  bool isLayout = name == SpyreDialect::kLayoutAttrName;
  bool isDimOrder = name == SpyreDialect::kDimOrderAttrName;
  if (!isLayout && !isDimOrder)
    return value.op->emitError()
           << "unknown spyre dialect attribute '" << name << "' on "
           << value.kind << " #" << value.index;
  if (isLayout && value.siblings &&
      value.siblings.get(SpyreDialect::kDimOrderAttrName))
    return value.emitError(name)
           << "give either 'spyre.layout' or 'spyre.dim_order', not both";
  auto tensorType = dyn_cast<RankedTensorType>(value.type);
  if (!tensorType)
    return value.emitError(name)
           << "only ranked tensors have a device layout, got " << value.type;
  if (LayoutAttr existing = getLayoutAttr(tensorType))
    return value.emitError(name)
           << "the type already carries a layout; drop the attribute";

  if (isLayout) {
    auto layout = dyn_cast<LayoutAttr>(attr.getValue());
    if (!layout)
      return value.emitError(name) << "must be a #spyre.layout attribute";
    return layout.verifyEncoding(tensorType.getShape(),
                                 tensorType.getElementType(),
                                 [&] { return value.emitError(name); });
  }
  FailureOr<SmallVector<int64_t>> order = getDimOrder(attr.getValue());
  if (failed(order))
    return value.emitError(name)
           << "must be an array of host dims, e.g. array<i64: 1, 0>";
  // The layout algebra takes 32-bit dims: an entry beyond that range must
  // not be truncated into a valid one (4294967297 is not 1).
  SmallVector<int32_t> order32;
  for (int64_t d : *order) {
    if (d < std::numeric_limits<int32_t>::min() ||
        d > std::numeric_limits<int32_t>::max())
      return value.emitError(name)
             << "dim_order " << formatList(*order)
             << " must be a permutation of the " << tensorType.getRank()
             << " host dims [0, " << tensorType.getRank()
             << "), optionally followed by -1 for a sparse layout";
    order32.push_back(static_cast<int32_t>(d));
  }
  llvm::Expected<SpyreTensorLayout> layout =
      getDefaultLayout(tensorType, ArrayRef<int32_t>(order32));
  if (!layout)
    return value.emitError(name) << llvm::toString(layout.takeError());
  return success();
}

static Type getFunctionValueType(Operation *op, unsigned regionIndex,
                                 unsigned index, bool isResult) {
  if (auto function = dyn_cast<FunctionOpInterface>(op))
    return isResult ? function.getResultTypes()[index]
                    : function.getArgumentTypes()[index];
  if (isResult || op->getNumRegions() <= regionIndex ||
      op->getRegion(regionIndex).empty())
    return {};
  return op->getRegion(regionIndex).getArgument(index).getType();
}

LogicalResult SpyreDialect::verifyRegionArgAttribute(Operation *op,
                                                     unsigned regionIndex,
                                                     unsigned argIndex,
                                                     NamedAttribute attr) {
  DictionaryAttr siblings;
  if (auto function = dyn_cast<FunctionOpInterface>(op))
    siblings = function.getArgAttrDict(argIndex);
  AnnotatedValue value{op, "argument", argIndex,
                       getFunctionValueType(op, regionIndex, argIndex, false),
                       siblings};
  return verifyValueAttribute(value, attr);
}

LogicalResult SpyreDialect::verifyRegionResultAttribute(Operation *op,
                                                        unsigned regionIndex,
                                                        unsigned resultIndex,
                                                        NamedAttribute attr) {
  DictionaryAttr siblings;
  if (auto function = dyn_cast<FunctionOpInterface>(op))
    siblings = function.getResultAttrDict(resultIndex);
  AnnotatedValue value{op, "result", resultIndex,
                       getFunctionValueType(op, regionIndex, resultIndex, true),
                       siblings};
  return verifyValueAttribute(value, attr);
}

void mlir::spyre::registerSpyreDialects(DialectRegistry &registry) {
  registry.insert<SpyreDialect, func::FuncDialect, arith::ArithDialect,
                  math::MathDialect, tensor::TensorDialect,
                  linalg::LinalgDialect>();
}
