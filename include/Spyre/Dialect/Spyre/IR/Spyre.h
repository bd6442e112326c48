//===- Spyre.h - The spyre dialect, its attributes and ops ------*- C++ -*-===//
//
// Public entry point of the dialect: include this to use `#spyre.layout`,
// `#spyre.target` and the spyre ops, plus the helpers every pass uses to go
// between MLIR types and the layout algebra.
//
//===----------------------------------------------------------------------===//

#ifndef SPYRE_DIALECT_SPYRE_IR_SPYRE_H
#define SPYRE_DIALECT_SPYRE_IR_SPYRE_H

#include "Spyre/Analysis/KernelModel.h"
#include "Spyre/Layout/Layout.h"
#include "Spyre/Quant/Quant.h"
#include "Spyre/Support/TargetModel.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/TensorEncoding.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <cmath>
#include <limits>
#include <memory>
#include <mutex>

namespace mlir::spyre {

// Custom parameter parsers/printers used by the generated attribute code.
FailureOr<SmallVector<int64_t>> parseIntList(AsmParser &parser);
void printIntList(AsmPrinter &printer, ArrayRef<int64_t> values);
FailureOr<llvm::APFloat> parseReal(AsmParser &parser);
void printReal(AsmPrinter &printer, const llvm::APFloat &value);
FailureOr<std::optional<DataFormat>> parseDataFormat(AsmParser &parser);
void printDataFormat(AsmPrinter &printer, DataFormat format);
FailureOr<ElementArrangement> parseArrangement(AsmParser &parser);
void printArrangement(AsmPrinter &printer, ElementArrangement arrangement);
FailureOr<quant::Format> parseQuantFormat(AsmParser &parser);
void printQuantFormat(AsmPrinter &printer, quant::Format format);
FailureOr<quant::Scaling> parseQuantScaling(AsmParser &parser);
void printQuantScaling(AsmPrinter &printer, quant::Scaling scaling);
FailureOr<quant::CastMode> parseQuantCastMode(AsmParser &parser);
void printQuantCastMode(AsmPrinter &printer, quant::CastMode mode);
FailureOr<std::optional<quant::ScaleType>>
parseQuantScaleType(AsmParser &parser);
void printQuantScaleType(AsmPrinter &printer, quant::ScaleType type);

} // namespace mlir::spyre

#include "Spyre/Dialect/Spyre/IR/SpyreDialect.h.inc"

#include "Spyre/Dialect/Spyre/IR/SpyreEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "Spyre/Dialect/Spyre/IR/SpyreAttrs.h.inc"

namespace mlir::spyre {

/// The host element type a tensor element type corresponds to (f16, bf16,
/// f32, i1, i8, i32, i64, f8E4M3FN, f8E5M2, i4); failure for anything else.
FailureOr<HostType> getHostType(Type elementType);

/// The host type of an element type that device tensors hold (a layout can
/// lay it out and device ops compute on it): getHostType's, except the
/// types that only travel (f64, the fnuz fp8s).
FailureOr<HostType> getDeviceHostType(Type elementType);

/// Whether `type` is a ranked tensor carrying a `#spyre.layout`.
bool isDeviceTensor(Type type);

/// Whether `element` is an fp8 format the device converts to and from DL16
/// (`qfp8ch`, `fp8todl16`) and multiplies (`batchmatmulfp8`): e4m3fn and
/// e5m2.
bool isDeviceFp8(Type element);

/// The `#spyre.layout` of a tensor type, or null.
LayoutAttr getLayoutAttr(Type type);

/// `type` with `layout` as its encoding.
RankedTensorType withLayout(RankedTensorType type, LayoutAttr layout);

/// `type` without any encoding.
RankedTensorType withoutLayout(RankedTensorType type);

/// Binds the layout of a device tensor type to its shape.
llvm::Expected<BoundLayout> bindLayout(RankedTensorType type);

/// `type` cut to `rows` positions along host dim `dim`, with the layout of
/// the full tensor restricted to them: the dim must be tiled by one device
/// dim (not the stick), one element per position (the device dim may be
/// padded past the host dim, as a strided stick block's outer dim is once
/// seen through a head split's reshape and transpose; the block never
/// reaches the padding). Fails
/// otherwise. `deviceDim`, when given, receives that device dim: when it is
/// the outermost, a block's bytes are a contiguous range of the tensor's.
/// With `strided`, the device dim keeps the full tensor's size (the
/// positions past `rows` are padding), so that the block's device strides
/// are the tensor's: a block anywhere in the tensor's bytes, read in place
/// (a strided view) wherever its device dim lies.
FailureOr<RankedTensorType> getRowBlockType(RankedTensorType type, unsigned dim,
                                            int64_t rows,
                                            unsigned *deviceDim = nullptr,
                                            bool strided = false);

/// `type` cut to `columns` positions along host dim `dim`, the dim the
/// stick holds (its lanes and one device dim of whole sticks outside them),
/// `columns` whole sticks, with the layout of the full tensor restricted to
/// them; with `strided`, a strided view laid out with the full tensor's
/// device dims (the sticks past the block are padding), read in place with
/// the tensor's strides (a column block of a fused projection's output,
/// torch's `split` along the last dim). Fails otherwise.
FailureOr<RankedTensorType> getStickBlockType(RankedTensorType type,
                                              unsigned dim, int64_t columns,
                                              bool strided = true);

/// The default layout (or the one for `dimOrder`) of a host tensor type, as
/// the reference stack builds it, for sticks of `stickBytes` bytes.
llvm::Expected<SpyreTensorLayout>
getDefaultLayout(RankedTensorType type,
                 std::optional<ArrayRef<int32_t>> dimOrder = std::nullopt,
                 int64_t stickBytes = kDefaultStickBytes);

/// The `#spyre.target` in effect for `op`: the nearest `spyre.target`
/// attribute on `op` or an ancestor, else the reference machine.
TargetAttr getTarget(Operation *op);

/// How a compute op constrains the stick dims of its operands.
enum class StickRule {
  /// Every input that has the result's stick op dim is sticked on it.
  Pointwise,
  /// The input's stick op dim survives, or the result is sparse when the
  /// reduced dim is the stick.
  Reduction,
  /// A sticked on k; B and C sticked on n.
  Matmul,
  /// The layer-norm family: the data sticked on the normalized (innermost)
  /// dim, the per-row statistics sparse.
  Norm,
  /// The scaled matmul: A and the quantized data sticked on k, C on n;
  /// scales and zeros on k (tile and MX scales) or on n (channel scales).
  ScaledMatmul,
};

/// The op dim a result of an operand's indexing map steps: `dN` (divisor
/// 1) or `dN floordiv q` (divisor q: one element of the operand covers q
/// elements of the op dim - packed data, a tile's scale); -1 for a
/// constant.
int getOpDimOf(AffineExpr expr, int64_t *divisor = nullptr);

/// The unit a compute op runs on.
enum class ExecutionUnit { PT, SFP };

/// How a reduction combines two partial values.
enum class CombinerKind { Sum, Max, Min };

/// What an elementwise op computes at one point of its iteration space, in
/// f32: `fn(inputs, params.data())`, `params` holding the op's attributes
/// the function reads (e.g. clip's bounds).
struct ScalarSemantics {
  using Fn = float (*)(const float *inputs, const float *params);
  Fn fn = nullptr;
  SmallVector<float, 2> params;
  float operator()(const float *inputs) const {
    return fn(inputs, params.data());
  }
};

/// Element-type rule of a pointwise op.
enum class ElementRule {
  Same,    ///< all inputs and the result share one element type
  Compare, ///< inputs share a type, the result is i1
  Select,  ///< (i1 condition, T, T) -> T
};

namespace detail {
unsigned getNumLoops(Operation *op);
SmallVector<utils::IteratorType> getIteratorTypes(Operation *op);
SmallVector<int64_t> getStaticLoopRanges(Operation *op);
/// `allowBlocks`: operand maps may hold `d floordiv q` and 0 (the quantized
/// parts of the scaled matmul).
LogicalResult verifyComputeOp(Operation *op, bool allowBlocks = false);
SmallVector<AffineMap> getPointwiseIndexingMaps(Operation *op, ArrayAttr maps);
SmallVector<AffineMap> getReductionIndexingMaps(Operation *op, int64_t dim);
SmallVector<AffineMap> getMatmulIndexingMaps(Operation *op, ArrayAttr maps,
                                             bool batched);
/// The default maps: (m, n, k) or (b, m, n, k), A[m, k] B[k, n] C[m, n].
SmallVector<AffineMap> getMatmulIndexingMaps(MLIRContext *context,
                                             bool batched);
LogicalResult verifyPointwiseOp(Operation *op, unsigned numInputs,
                                ElementRule rule);
LogicalResult verifyReductionOp(Operation *op, int64_t dim);
/// A copy's maps: one parallel op dim per dim of its (same-shaped) operand
/// and result.
SmallVector<AffineMap> getCopyIndexingMaps(Operation *op);
StringRef getMatmulOpFunc(Operation *op);
LogicalResult verifyMatmul(Operation *op, unsigned numLoops,
                           ArrayAttr explicitMaps);

// Scalar functions of elementwise ops' semantics (f32, NaN propagating as
// the arith and math dialects define them).
inline float sigmoid(float x) { return 1.0f / (1.0f + std::exp(-x)); }
/// The exact GELU, `x * P(X <= x)` for X ~ N(0, 1): what torch-spyre lowers
/// `aten.gelu` to `gelufwd` for (its default, `approximate="none"`).
inline float gelu(float x) {
  return 0.5f * x * (1.0f + std::erf(x * static_cast<float>(M_SQRT1_2)));
}
inline float relu(float x) { return std::isnan(x) ? x : x > 0 ? x : 0.0f; }
/// IEEE 754-2019 maximum (arith.maximumf): NaN if either is NaN.
inline float maximum(float x, float y) {
  return std::isnan(x) || std::isnan(y)
             ? std::numeric_limits<float>::quiet_NaN()
             : std::max(x, y);
}
/// IEEE 754-2019 minimum (arith.minimumf).
inline float minimum(float x, float y) {
  return std::isnan(x) || std::isnan(y)
             ? std::numeric_limits<float>::quiet_NaN()
             : std::min(x, y);
}
} // namespace detail

} // namespace mlir::spyre

#include "Spyre/Dialect/Spyre/IR/SpyreInterfaces.h.inc"

namespace mlir::spyre::detail {
/// Checks that a laid-out compute op's device formats are ones it computes
/// on (its `supportsDataFormat`).
LogicalResult verifyDeviceFormats(ComputeOpInterface op);
/// Checks the element arrangement of every laid-out operand against the
/// op's `getRequiredArrangement`.
LogicalResult verifyArrangements(ComputeOpInterface op);
} // namespace mlir::spyre::detail

#define GET_OP_CLASSES
#include "Spyre/Dialect/Spyre/IR/SpyreOps.h.inc"

namespace mlir::spyre {

/// A transpose, reshape or box that only reinterprets its input's bytes: a
/// `spyre.extract_slice` at offset 0 with the input's layout, or one of a
/// block of rows (`getRowBlockType`) whose device dim comes first, which
/// looks at a contiguous range of the input's bytes (`getBufferRoot`'s
/// window), or a strided block of rows anywhere (`getRowBlockType` with
/// `strided`: the input's device strides, starting at the window).
bool isViewOp(Operation *op);

/// The inputs of a pointwise or reduction op read lane by lane with its
/// result: non-scalar, laid out with a real stick dim, with no arrangement
/// of their own required.
SmallVector<unsigned> getLaneOperands(ComputeOpInterface op);

/// The element arrangement `op`'s result has on the device: the one it
/// requires (exx2's statistics, a DL16 -> f32 conversion's order), else the
/// order of the lanes it reads (a lane-by-lane op keeps it), else standard.
ElementArrangement inferResultArrangement(ComputeOpInterface op);

/// Whether `op` is a `spyre.insert_slice` that copies nothing: its source
/// is a kernel's result that only it reads, typed as the block of the
/// destination at the offsets laid out with the destination's device
/// strides (`getRowBlockType` with `strided`), so that kernel wrote it into
/// the destination's buffer in place (`getBufferRoot` of the source is the
/// destination's root, at the box's window).
bool isInPlaceInsert(Operation *op);

/// Whether `op` runs as a kernel (a compute op, restickify or pad that is
/// not a view, or an insert that copies something).
inline bool isKernelPayload(Operation *op) {
  return isa<KernelPayloadOpInterface>(op) && !isViewOp(op) &&
         !isInPlaceInsert(op);
}

/// The operand whose buffer `op` writes its result into (spyre.insert_slice,
/// or a kernel running one: the destination), or -1.
int getInPlaceOperand(Operation *op);

/// The value whose buffer `value` looks at: itself, or the root of the
/// chain of views (and in-place writes) it is computed by, or, for the
/// source of an in-place insert (`isInPlaceInsert`), its destination's.
/// `windowBytes`, when given, receives where in the root's bytes `value`'s
/// first device byte lies (nonzero for a view of a block of rows).
Value getBufferRoot(Value value, int64_t *windowBytes = nullptr);

/// Where the buffer `value` looks at lives, as --spyre-plan-memory recorded
/// it: the `spyre.mem` of its buffer root (the op defining it, or the
/// function argument), or null when there is none.
MemAttr getRecordedMem(Value value);

/// Whether `root` holds spyre.kernel ops (is in kernel form).
bool containsKernels(Operation *root);

} // namespace mlir::spyre

#endif // SPYRE_DIALECT_SPYRE_IR_SPYRE_H
