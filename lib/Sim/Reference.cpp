//===- Reference.cpp - Run a linalg program with upstream MLIR ------------===//
//
// The independent reference: a linalg-on-tensors function is lowered with
// upstream MLIR's passes only and JIT-compiled by MLIR's ExecutionEngine, in
// process.
//
// 1. The module is cloned (the caller's stays untouched) and pruned to the
//    function and the symbols it reaches. Discardable attributes (spyre's
//    hints such as `spyre.dim_order`) are dropped; the function becomes public
//    with `llvm.emit_c_interface`, and its arguments `bufferization.writable =
//    false`, so the JIT-compiled code never writes into the caller's input
//    buffers (which are passed without a copy).
// 2. Aggregated ops (linalg.softmax) are decomposed through
//    linalg::AggregatedOpInterface; upstream has no pass that does it.
// 3. Passes, in three stages with C++ steps after each of the first two:
//      convert-elementwise-to-linalg,
//      linalg-morph-ops{named-to-generic category-to-generic}
//      [accumulateReductionsInF32: every generic with a reduction loop and an
//       f16 or bf16 output becomes an f32 generic on an extended init,
//       followed by a pointwise truncf generic (see "Precision" below)]
//      [interchangeContractions: a matmul's loops i, j, k run as i, k, j;
//       every result element still sums its terms in the same order, so the
//       results are unchanged, but the innermost loop is now a parallel one
//       over contiguous elements, which LLVM vectorizes - 25x faster on
//       gpt2_mlp; an input stored along another dim (B transposed) is read
//       through a transposed copy - 6.8x faster on a 1024^3 bf16
//       matmul_transpose_b]
//      math-extend-to-supported-types, arith-emulate-unsupported-floats{
//        source-types=f16,bf16 target-type=f32}
//      [stripConversionFastMath: the emulation's extf/truncf pairs lose their
//       `contract` flag, so nothing folds a rounding away; each f16 and bf16
//       op is computed in f32 and rounded once, exactly what its type says]
//      one-shot-bufferize{bufferize-function-boundaries
//        function-boundary-type-conversion=identity-layout-map
//        allow-return-allocs-from-loops}, canonicalize,
//      convert-linalg-to-loops, lower-affine, convert-scf-to-cf,
//      arith-expand{include-bf16}, convert-math-to-llvm,
//      convert-math-to-funcs, convert-math-to-libm,
//      expand-strided-metadata, lower-affine, finalize-memref-to-llvm,
//      convert-arith-to-llvm, convert-index-to-llvm, convert-func-to-llvm,
//      convert-cf-to-llvm, convert-ub-to-llvm, reconcile-unrealized-casts
// 4. ExecutionEngine (LLVM -O2 with the vectorizers, host CPU) and a call of
//    the C interface `_mlir_ciface_<name>` through invokePacked (the
//    argument count is the function's). Every argument is a pointer to a
//    memref descriptor (MemRefUtils' StridedMemRefType, chosen by rank).
//    Results come back through one leading pointer argument: to the
//    descriptor itself for one result, to a struct of the descriptors, in
//    order, for several, read through CRunnerUtils' DynamicMemRefType.
// 5. Results are copied out into HostTensors following the returned strides,
//    which also covers a result that aliases an input or a constant global.
//
// Precision. f16/bf16 reductions accumulate in f32 and round once, as CPU
// kernels do; everything else rounds to its type after every op:
//  - An elementwise f16 or bf16 op is computed in f32 and rounded to its
//    type at once (two ops in a row round twice), exactly what the types say.
//  - A reduction (a generic with a reduction loop: matmul, batch_matmul,
//    linalg.reduce, softmax's max and sum, a hand-written sum) whose output
//    is f16 or bf16 keeps an f32 running value per output element and rounds
//    it once, when the result is stored: its init is extended to f32, its
//    body computes in f32 (the product of a matmul is not rounded either),
//    and a pointwise generic truncates the result. This is what PyTorch's CPU
//    kernels, GPU kernels and the spyre simulator do; rounding every partial
//    sum to f16 instead is off by several units in the last place after a
//    few hundred terms (about 12 on the f16 sums of 3072 products in
//    gpt2_mlp). The terms are still summed in loop order, one at a time.
//    An explicit truncf to f16/bf16 in such a body keeps rounding a term,
//    and folds away where it rounds the running value. A body with a nested
//    region is left as it is (accumulating in its own type).
//
// The generated code allocates with malloc; the JIT resolves malloc, calloc,
// aligned_alloc and free to wrappers that track the blocks of the current
// call, and everything is freed once the results are copied out. memrefCopy
// (what memref.copy between non-contiguous memrefs calls) is the one of
// upstream's mlir_c_runner_utils library.
//
//===----------------------------------------------------------------------===//

#include "Spyre/Sim/Reference.h"
#include "Spyre/Dialect/Spyre/IR/Spyre.h"
#include "Spyre/Layout/Numerics.h"
#include "Spyre/Quant/Quant.h"

#include <csetjmp>
#include <csignal>
#include <deque>
#include <mutex>

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/FuncBufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Linalg/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/SparseTensor/IR/SparseTensor.h"
#include "mlir/Dialect/SparseTensor/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/SparseTensor/Transforms/Passes.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/ExecutionEngine/CRunnerUtils.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/MemRefUtils.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/ExecutionEngine/RunnerUtils.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Transforms/Passes.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

#include <array>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <mutex>
#include <optional>
#include <string>

using namespace mlir;
using namespace mlir::spyre;
using namespace mlir::spyre::sim;

namespace {

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

llvm::Error makeError(const Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

template <typename T> std::string printed(const T &value) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << value;
  return text;
}

/// "[2, ?, 3]"
std::string formatShape(ArrayRef<int64_t> shape) {
  std::string text = "[";
  llvm::raw_string_ostream os(text);
  llvm::interleaveComma(shape, os, [&](int64_t size) {
    if (ShapedType::isDynamic(size))
      os << '?';
    else
      os << size;
  });
  os << ']';
  return text;
}

/// Row-major strides, in elements, of `shape`. (Its own copy, not
/// mlir::spyre::rowMajorStrides: the reference uses nothing of the layout
/// library it checks; hence its own name too.)
SmallVector<int64_t, 6> hostRowMajorStrides(ArrayRef<int64_t> shape) {
  SmallVector<int64_t, 6> strides(shape.size(), 1);
  for (int64_t d = static_cast<int64_t>(shape.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  return strides;
}

/// Copies the elements of a `sizes` box between two strided views (strides
/// in elements of `elementBytes` bytes).
void stridedCopy(const uint8_t *src, ArrayRef<int64_t> srcStrides, uint8_t *dst,
                 ArrayRef<int64_t> dstStrides, ArrayRef<int64_t> sizes,
                 int64_t elementBytes) {
  if (sizes.empty()) {
    std::memcpy(dst, src, elementBytes);
    return;
  }
  if (sizes.size() == 1 && srcStrides[0] == 1 && dstStrides[0] == 1) {
    std::memcpy(dst, src, sizes[0] * elementBytes);
    return;
  }
  for (int64_t i = 0; i < sizes[0]; ++i)
    stridedCopy(src + i * srcStrides[0] * elementBytes, srcStrides.drop_front(),
                dst + i * dstStrides[0] * elementBytes, dstStrides.drop_front(),
                sizes.drop_front(), elementBytes);
}

//===----------------------------------------------------------------------===//
// Runtime support for the JIT-compiled code
//===----------------------------------------------------------------------===//

/// Blocks the generated code allocated during the current call on this thread
/// (null outside runReference: then the wrappers only forward).
thread_local llvm::DenseSet<void *> *liveBlocks = nullptr;

void *trackBlock(void *block) {
  if (block && liveBlocks)
    liveBlocks->insert(block);
  return block;
}

/// A size no allocation can have: a negative size computed by the program
/// (a tensor.empty of a data-dependent size below zero) wraps to one. It
/// gets no block - null, as a failing malloc returns - without asking the
/// system allocator (which a sanitizer would abort on): what the program
/// does with it decides its diagnostic (a fault, or a result of negative
/// size).
bool impossibleSize(size_t size) {
  return size > static_cast<size_t>(std::numeric_limits<ptrdiff_t>::max());
}

void *referenceMalloc(size_t size) {
  return impossibleSize(size) ? nullptr : trackBlock(std::malloc(size));
}

void *referenceCalloc(size_t count, size_t size) {
  if (impossibleSize(count) || impossibleSize(size) ||
      (size && count > std::numeric_limits<ptrdiff_t>::max() / size))
    return nullptr;
  return trackBlock(std::calloc(count, size));
}

void *referenceAlignedAlloc(size_t alignment, size_t size) {
  if (impossibleSize(size) || impossibleSize(alignment))
    return nullptr;
  // aligned_alloc wants a size that is a multiple of the alignment.
  size_t rounded = (size + alignment - 1) / alignment * alignment;
  return trackBlock(std::aligned_alloc(alignment, rounded));
}

void referenceFree(void *block) {
  if (block && liveBlocks)
    liveBlocks->erase(block);
  std::free(block);
}

template <typename Fn> llvm::orc::ExecutorSymbolDef symbolFor(Fn *function) {
  return {llvm::orc::ExecutorAddr::fromPtr(reinterpret_cast<void *>(function)),
          llvm::JITSymbolFlags::Exported | llvm::JITSymbolFlags::Callable};
}

/// Installs `blocks` as the allocation list of this thread for its lifetime,
/// then frees whatever the generated code left allocated.
class BlockScope {
public:
  BlockScope() : previous(liveBlocks) { liveBlocks = &blocks; }
  ~BlockScope() {
    liveBlocks = previous;
    for (void *block : blocks)
      std::free(block);
  }
  BlockScope(const BlockScope &) = delete;
  BlockScope &operator=(const BlockScope &) = delete;

private:
  llvm::DenseSet<void *> blocks;
  llvm::DenseSet<void *> *previous;
};

//===----------------------------------------------------------------------===//
// Preparing the clone
//===----------------------------------------------------------------------===//

/// Erases every top-level op of `module` that `entry` does not reach through
/// symbol references.
void pruneUnreachable(ModuleOp module, Operation *entry) {
  SymbolTable symbols(module);
  llvm::SmallPtrSet<Operation *, 8> kept;
  SmallVector<Operation *> worklist;
  kept.insert(entry);
  worklist.push_back(entry);
  while (!worklist.empty()) {
    Operation *root = worklist.pop_back_val();
    root->walk([&](Operation *op) {
      op->getAttrDictionary().walk([&](SymbolRefAttr ref) {
        Operation *symbol = symbols.lookup(ref.getRootReference());
        if (symbol && kept.insert(symbol).second)
          worklist.push_back(symbol);
      });
    });
  }
  for (Operation &op : llvm::make_early_inc_range(*module.getBody()))
    if (!kept.contains(&op))
      op.erase();
}

bool isSparseTensor(Type type) {
  return sparse_tensor::getSparseTensorEncoding(type) != nullptr;
}

/// Whether anything in `module` is a sparse tensor (a value, a block
/// argument, a function's signature).
bool hasSparseTensors(ModuleOp module) {
  WalkResult found = module.walk([](Operation *op) {
    if (llvm::any_of(op->getResultTypes(), isSparseTensor) ||
        llvm::any_of(op->getOperandTypes(), isSparseTensor))
      return WalkResult::interrupt();
    if (auto function = dyn_cast<FunctionOpInterface>(op))
      if (llvm::any_of(function.getArgumentTypes(), isSparseTensor) ||
          llvm::any_of(function.getResultTypes(), isSparseTensor))
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return found.wasInterrupted();
}

/// The tensor type a caller holds for `type`: the same without a sparse
/// encoding.
Type denseType(Type type) {
  if (!isSparseTensor(type))
    return type;
  auto tensor = cast<RankedTensorType>(type);
  return RankedTensorType::get(tensor.getShape(), tensor.getElementType());
}

/// A function whose arguments or results are sparse tensors is called with
/// dense ones (the driver's buffers, a device function's tensors): `entry`
/// keeps its name and becomes a dense wrapper that converts each sparse
/// argument in (sparse_tensor.convert) and each sparse result out, around
/// a call of the original, renamed. Returns the wrapper (or `entry` when
/// its signature has no sparse tensor).
func::FuncOp densifySignature(ModuleOp module, func::FuncOp entry) {
  FunctionType type = entry.getFunctionType();
  if (!llvm::any_of(type.getInputs(), isSparseTensor) &&
      !llvm::any_of(type.getResults(), isSparseTensor))
    return entry;
  SymbolTable symbols(module);
  std::string name = entry.getSymName().str();
  (void)symbols.rename(entry, name + "__sparse");
  entry.setPrivate();
  OpBuilder builder(entry);
  Location loc = entry.getLoc();
  SmallVector<Type> inputs, results;
  for (Type t : type.getInputs())
    inputs.push_back(denseType(t));
  for (Type t : type.getResults())
    results.push_back(denseType(t));
  auto wrapper = func::FuncOp::create(builder, loc, name,
                                      builder.getFunctionType(inputs, results));
  symbols.insert(wrapper);
  Block *block = wrapper.addEntryBlock();
  builder.setInsertionPointToStart(block);
  SmallVector<Value> arguments;
  for (auto [arg, sparseType] :
       llvm::zip(block->getArguments(), type.getInputs()))
    arguments.push_back(
        arg.getType() == sparseType
            ? Value(arg)
            : sparse_tensor::ConvertOp::create(builder, loc, sparseType, arg)
                  .getResult());
  auto call = func::CallOp::create(builder, loc, entry, arguments);
  SmallVector<Value> returned;
  for (auto [value, denseResult] : llvm::zip(call.getResults(), results))
    returned.push_back(
        value.getType() == denseResult
            ? Value(value)
            : sparse_tensor::ConvertOp::create(builder, loc, denseResult, value)
                  .getResult());
  func::ReturnOp::create(builder, loc, returned);
  return wrapper;
}

/// Drops discardable attributes everywhere (hints of other dialects the
/// lowering and the LLVM translation know nothing about) and argument and
/// result attributes of functions; sets up `entry` for the C interface.
void prepareFunctions(ModuleOp module, func::FuncOp entry) {
  MLIRContext *context = module.getContext();
  module->setDiscardableAttrs(ArrayRef<NamedAttribute>{});
  module.walk([&](Operation *op) {
    op->setDiscardableAttrs(ArrayRef<NamedAttribute>{});
    auto func = dyn_cast<func::FuncOp>(op);
    if (!func)
      return;
    func.setArgAttrsAttr(nullptr);
    func.setResAttrsAttr(nullptr);
  });

  // Inputs are read-only, so a result materialized into an argument (the
  // tensor form of bufferization.materialize_in_destination) is its value:
  // the write is not observable with value semantics.
  module.walk([&](bufferization::MaterializeInDestinationOp op) {
    if (op->getNumResults() == 1 &&
        isa<RankedTensorType>(op.getDest().getType()) &&
        op.getSource().getType() == op->getResult(0).getType()) {
      op->getResult(0).replaceAllUsesWith(op.getSource());
      op.erase();
    }
  });
  entry.setPublic();
  entry->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                 UnitAttr::get(context));
  // The inputs are the caller's buffers: one-shot bufferization copies
  // instead of writing into them.
  for (unsigned i = 0, e = entry.getNumArguments(); i < e; ++i)
    entry.setArgAttr(i, bufferization::BufferizationDialect::kWritableAttrName,
                     BoolAttr::get(context, false));
}

/// Replaces ops with linalg::AggregatedOpInterface (linalg.softmax) by their
/// decomposition into simpler linalg ops.
/// `gather` as a linalg.generic that reads its indices and source with
/// tensor.extract (upstream has no bufferization of tensor.gather).
LogicalResult lowerGather(IRRewriter &rewriter, tensor::GatherOp gather) {
  RankedTensorType result = gather.getResultType();
  RankedTensorType source = gather.getSourceType();
  auto indicesType = cast<RankedTensorType>(gather.getIndices().getType());
  ArrayRef<int64_t> gatherDims = gather.getGatherDims();
  int64_t batchRank = indicesType.getRank() - 1;
  bool reduced =
      result.getRank() ==
      batchRank + source.getRank() - static_cast<int64_t>(gatherDims.size());
  if (!result.hasStaticShape())
    return failure();
  Location loc = gather.getLoc();
  rewriter.setInsertionPoint(gather);
  Value init = tensor::EmptyOp::create(rewriter, loc, result.getShape(),
                                       result.getElementType());
  SmallVector<AffineMap> maps = {
      rewriter.getMultiDimIdentityMap(result.getRank())};
  SmallVector<utils::IteratorType> iterators(result.getRank(),
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      rewriter, loc, TypeRange{result}, ValueRange{}, ValueRange{init}, maps,
      iterators, [&](OpBuilder &b, Location l, ValueRange) {
        SmallVector<Value> batch, at;
        for (int64_t d = 0; d < batchRank; ++d)
          batch.push_back(linalg::IndexOp::create(b, l, d));
        int64_t next = batchRank;
        for (int64_t s = 0; s < source.getRank(); ++s) {
          auto k = llvm::find(gatherDims, s);
          if (k == gatherDims.end()) {
            at.push_back(linalg::IndexOp::create(b, l, next++));
            continue;
          }
          if (!reduced)
            ++next; // the gathered dim is 1 in the result
          SmallVector<Value> position(batch);
          position.push_back(
              arith::ConstantIndexOp::create(b, l, k - gatherDims.begin()));
          Value index =
              tensor::ExtractOp::create(b, l, gather.getIndices(), position);
          if (!index.getType().isIndex())
            index = arith::IndexCastOp::create(b, l, b.getIndexType(), index);
          at.push_back(index);
        }
        Value value = tensor::ExtractOp::create(b, l, gather.getSource(), at);
        linalg::YieldOp::create(b, l, value);
      });
  rewriter.replaceOp(gather, generic.getResults());
  return success();
}

/// The MLIR type of a narrow float format's encodings (fp8, fp6, fp4); null
/// for integer formats.
Type narrowFloatType(MLIRContext *context, spyre::quant::Format format) {
  using spyre::quant::Format;
  switch (format) {
  case Format::E4M3FN:
    return Float8E4M3FNType::get(context);
  case Format::E5M2:
    return Float8E5M2Type::get(context);
  case Format::E4M3FNUZ:
    return Float8E4M3FNUZType::get(context);
  case Format::E5M2FNUZ:
    return Float8E5M2FNUZType::get(context);
  case Format::E3M2FN:
  case Format::E3M2FNUZ:
    return Float6E3M2FNType::get(context);
  case Format::E2M3FN:
  case Format::E2M3FNUZ:
    return Float6E2M3FNType::get(context);
  case Format::E2M1FN:
  case Format::E2M1FNUZ:
    return Float4E2M1FNType::get(context);
  default:
    return {};
  }
}

/// `spyre.dequantize` as one linalg.generic over the result that reads each
/// stored part with tensor.extract. Written from the definitions, not from
/// the quantization library: an element's code is its byte, or the `bits`
/// of a byte packed along the axis, low bits first; integers are sign- or
/// zero-extended from `bits`; float codes are bitcast to MLIR's type of the
/// format and extended (whose table APFloat builds), the fnuz 6- and 4-bit
/// formats reading their negative-zero encoding as NaN; the value is
/// (q - zero) * 2^implicit * scale * tenscale, the scale and zero of the
/// element's tile. Sparse data (pruned values omitted) is not lowered.
LogicalResult lowerDequantize(IRRewriter &rewriter, DequantizeOp op,
                              std::string &why) {
  RankedTensorType result = op.getResult().getType();
  QuantAttr attr = op.getQuant();
  llvm::Expected<spyre::quant::QuantShapes> shapes =
      attr.getShapes(result.getShape());
  if (!shapes) {
    why = llvm::toString(shapes.takeError());
    return failure();
  }
  const spyre::quant::QuantSpec &spec = shapes->spec;
  if (spec.sparsityPercent != 0) {
    why = "sparse data is not lowered";
    return failure();
  }
  const spyre::quant::FormatInfo &info =
      spyre::quant::getFormatInfo(spec.format);
  MLIRContext *context = op.getContext();
  Location loc = op.getLoc();
  int64_t rank = result.getRank();
  ValueRange parts = op.getParts();
  Value data = parts[0];
  unsigned next = 1;
  Value scale, zero, tenscale;
  if (shapes->scale.present)
    scale = parts[next++];
  if (shapes->zero.present)
    zero = parts[next++];
  if (shapes->tenscale.present)
    tenscale = parts[next++];
  Value meta;
  if (shapes->meta.present)
    meta = parts[next++];
  const std::optional<spyre::quant::Codebook> &book = spec.codebook;
  // Bits of a stored value: a codebook's index, or the format's.
  unsigned bits = book ? book->indexBits : info.bits;
  bool compressed = spec.mode == spyre::quant::CastMode::Compressed;
  bool packed = compressed && bits < 8;
  int64_t perByte = packed ? 8 / bits : 1;
  Type f32 = rewriter.getF32Type();
  Type i32 = rewriter.getI32Type();

  rewriter.setInsertionPoint(op);
  // A codebook's mappings, row-major (mapping * entries + index).
  Value table;
  if (book) {
    SmallVector<float> values(book->mappings.begin(), book->mappings.end());
    auto type = RankedTensorType::get({static_cast<int64_t>(values.size())},
                                      rewriter.getF32Type());
    table = arith::ConstantOp::create(
        rewriter, loc, DenseElementsAttr::get(type, ArrayRef<float>(values)));
  }
  Value init = tensor::EmptyOp::create(rewriter, loc, result.getShape(),
                                       result.getElementType());
  SmallVector<AffineMap> maps = {rewriter.getMultiDimIdentityMap(rank)};
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      rewriter, loc, TypeRange{result}, ValueRange{}, ValueRange{init}, maps,
      iterators, [&](OpBuilder &b, Location l, ValueRange) {
        auto index = [&](int64_t v) {
          return arith::ConstantIndexOp::create(b, l, v).getResult();
        };
        SmallVector<Value> at;
        for (int64_t d = 0; d < rank; ++d)
          at.push_back(linalg::IndexOp::create(b, l, d));
        // The code at `position` of `part`, whose elements along the axis
        // are packed `perByte` to a byte when `isPacked`, as an i32 (the
        // low `bits`).
        auto codeAt = [&](Value part, SmallVector<Value> position,
                          bool isPacked, unsigned bits) -> Value {
          Value shift;
          if (isPacked && rank > 0) {
            Value along = position[spec.axis];
            position[spec.axis] =
                arith::DivUIOp::create(b, l, along, index(perByte));
            Value lane = arith::RemUIOp::create(b, l, along, index(perByte));
            shift = arith::IndexCastOp::create(
                b, l, i32, arith::MulIOp::create(b, l, lane, index(bits)));
          }
          Value stored = tensor::ExtractOp::create(b, l, part, position);
          Type type = stored.getType();
          unsigned width = type.getIntOrFloatBitWidth();
          if (!type.isInteger())
            stored =
                arith::BitcastOp::create(b, l, b.getIntegerType(width), stored);
          Value code =
              width < 32 ? arith::ExtUIOp::create(b, l, i32, stored).getResult()
                         : stored;
          if (shift)
            code = arith::ShRUIOp::create(b, l, code, shift);
          if (bits < 32)
            code =
                arith::AndIOp::create(b, l, code,
                                      arith::ConstantIntOp::create(
                                          b, l, i32, (int64_t(1) << bits) - 1));
          return code;
        };
        // The value of an integer code of the format.
        auto integerValue = [&](Value code) -> Value {
          if (info.kind == spyre::quant::FormatKind::UInt)
            return arith::UIToFPOp::create(b, l, f32, code);
          Value up = arith::ConstantIntOp::create(b, l, i32, 32 - info.bits);
          Value extended = arith::ShRSIOp::create(
              b, l, arith::ShLIOp::create(b, l, code, up), up);
          return arith::SIToFPOp::create(b, l, f32, extended);
        };
        auto extend = [&](Value v) -> Value {
          if (v.getType() == f32)
            return v;
          if (v.getType().getIntOrFloatBitWidth() < 32)
            return arith::ExtFOp::create(b, l, f32, v);
          return arith::TruncFOp::create(b, l, f32, v);
        };

        // The element's tile: each dim divided by its tile extent.
        SmallVector<Value> tileAt;
        for (int64_t d = 0; d < rank; ++d) {
          int64_t extent = shapes->tileShape[d];
          tileAt.push_back(
              extent == 1 ? at[d]
              : extent >= result.getDimSize(d)
                  ? index(0)
                  : arith::DivUIOp::create(b, l, at[d], index(extent))
                        .getResult());
        }
        // A codebook's mapping for the element: its tile's (or subtile's)
        // meta, a byte each, or packed `meta_bits` at a time into each
        // tile's (meta_bits * subtiles + 7) / 8 bytes, low bits first.
        auto mappingAt = [&]() -> Value {
          if (!meta)
            return arith::ConstantIntOp::create(b, l, i32, 0);
          Value mask = arith::ConstantIntOp::create(
              b, l, i32, (int64_t(1) << book->metaBits) - 1);
          if (rank == 0)
            return arith::AndIOp::create(b, l, codeAt(meta, {}, false, 8),
                                         mask);
          int64_t extent = shapes->tileShape[spec.axis];
          int64_t group = spec.subtile ? spec.subtile : extent;
          int64_t perTile = extent / group;
          unsigned metaBits = book->metaBits;
          Value along = at[spec.axis];
          SmallVector<Value> position = tileAt;
          if (!compressed) {
            position[spec.axis] =
                arith::DivUIOp::create(b, l, along, index(group));
            return arith::AndIOp::create(b, l, codeAt(meta, position, false, 8),
                                         mask);
          }
          int64_t bytesPerTile = (metaBits * perTile + 7) / 8;
          Value tileIndex = arith::DivUIOp::create(b, l, along, index(extent));
          Value sub = arith::DivUIOp::create(
              b, l, arith::RemUIOp::create(b, l, along, index(extent)),
              index(group));
          Value bit = arith::MulIOp::create(b, l, sub, index(metaBits));
          Value byte = arith::AddIOp::create(
              b, l, arith::MulIOp::create(b, l, tileIndex, index(bytesPerTile)),
              arith::DivUIOp::create(b, l, bit, index(8)));
          // The next byte too (a value may straddle two); the last byte
          // stands in for it at the end, where no value needs it.
          int64_t last = shapes->meta.compressedShape[spec.axis] - 1;
          Value next = arith::MinUIOp::create(
              b, l, arith::AddIOp::create(b, l, byte, index(1)), index(last));
          position[spec.axis] = byte;
          Value low = codeAt(meta, position, false, 8);
          position[spec.axis] = next;
          Value high = codeAt(meta, position, false, 8);
          Value word = arith::OrIOp::create(
              b, l, low,
              arith::ShLIOp::create(
                  b, l, high, arith::ConstantIntOp::create(b, l, i32, 8)));
          Value shift = arith::IndexCastOp::create(
              b, l, i32, arith::RemUIOp::create(b, l, bit, index(8)));
          return arith::AndIOp::create(
              b, l, arith::ShRUIOp::create(b, l, word, shift), mask);
        };

        Value q;
        Type dataElement = getElementTypeOrSelf(data.getType());
        if (spec.mode == spyre::quant::CastMode::Virtual) {
          q = extend(tensor::ExtractOp::create(b, l, data, at));
        } else if (book) {
          // The entry of the element's mapping its index selects.
          Value entry = arith::AddIOp::create(
              b, l,
              arith::MulIOp::create(
                  b, l, mappingAt(),
                  arith::ConstantIntOp::create(b, l, i32, book->numEntries())),
              codeAt(data, at, packed, bits));
          q = tensor::ExtractOp::create(b, l, table,
                                        ValueRange{arith::IndexCastOp::create(
                                            b, l, b.getIndexType(), entry)});
        } else if (info.isInteger()) {
          q = integerValue(codeAt(data, at, packed, bits));
        } else if (isa<FloatType>(dataElement)) {
          // fp8 data, or fp6/fp4 values held exactly in an fp8 type.
          q = extend(tensor::ExtractOp::create(b, l, data, at));
        } else {
          Type format = narrowFloatType(context, spec.format);
          Value code = codeAt(data, at, packed, bits);
          Value narrow =
              arith::TruncIOp::create(b, l, b.getIntegerType(info.bits), code);
          Value encoded =
              arith::BitcastOp::create(b, l, format, narrow).getResult();
          q = arith::ExtFOp::create(b, l, f32, encoded);
          if (info.negZeroIsNaN) {
            Value negZero = arith::ConstantIntOp::create(
                b, l, i32, int64_t(1) << (info.bits - 1));
            Value isNaN = arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq,
                                                code, negZero);
            Value nan = arith::ConstantOp::create(
                b, l, f32, b.getF32FloatAttr(std::nanf("")));
            q = arith::SelectOp::create(b, l, isNaN, nan, q);
          }
        }
        // Virtual data is the dequantized values themselves.
        bool isVirtual = spec.mode == spyre::quant::CastMode::Virtual;
        if (!isVirtual && spec.scaling != spyre::quant::Scaling::None) {
          // Float zero points are floats; integer ones codes of the
          // format, packed like the data.
          if (zero && spec.zeroType)
            q = arith::SubFOp::create(
                b, l, q, extend(tensor::ExtractOp::create(b, l, zero, tileAt)));
          else if (zero)
            q = arith::SubFOp::create(
                b, l, q, integerValue(codeAt(zero, tileAt, packed, bits)));
          Value s = extend(tensor::ExtractOp::create(b, l, scale, tileAt));
          q = arith::MulFOp::create(b, l, q, s);
          if (spec.scaling == spyre::quant::Scaling::MX &&
              spec.format == spyre::quant::Format::Int8)
            q = arith::MulFOp::create(
                b, l, q,
                arith::ConstantOp::create(b, l, f32,
                                          b.getF32FloatAttr(0.015625f)));
        }
        if (tenscale && !isVirtual)
          q = arith::MulFOp::create(
              b, l, q,
              extend(tensor::ExtractOp::create(b, l, tenscale, ValueRange{})));
        Type element = result.getElementType();
        if (element != f32)
          q = element.getIntOrFloatBitWidth() < 32
                  ? arith::TruncFOp::create(b, l, element, q).getResult()
                  : arith::ExtFOp::create(b, l, element, q).getResult();
        linalg::YieldOp::create(b, l, q);
      });
  rewriter.replaceOp(op, generic.getResults());
  return success();
}

/// spyre.quantize on the host: the quantization library, called from the
/// generated code (as a runtime's host fallback calls its library). The
/// registry keeps each op's scheme for the process's lifetime; the call
/// passes its index.
struct HostQuantize {
  spyre::quant::QuantSpec spec;
  SmallVector<int64_t> shape;
  HostType input;
  /// The scales the program gives (`scales(...)`), by companion name, after
  /// the parts in the call's buffers.
  SmallVector<std::string> given;
};

std::mutex &hostQuantizeMutex() {
  static std::mutex mutex;
  return mutex;
}
std::deque<HostQuantize> &hostQuantizeRegistry() {
  static std::deque<HostQuantize> registry;
  return registry;
}

/// The bytes of a rank-1 memref<?xi8> passed unranked (rank, descriptor).
MutableArrayRef<uint8_t> unrankedBytes(int64_t rank, void *descriptor) {
  (void)rank;
  auto *d = static_cast<StridedMemRefType<uint8_t, 1> *>(descriptor);
  return {d->data + d->offset, static_cast<size_t>(d->sizes[0])};
}

/// Called by the generated code: quantizes the input bytes into the parts'
/// byte buffers (data, then each companion present that the program does not
/// give), reading the given scales from the buffers after them. A part whose
/// size disagrees is left zeroed (the verifier makes them agree).
extern "C" void spyreQuantizeHost(int64_t index, int64_t r0, void *d0,
                                  int64_t r1, void *d1, int64_t r2, void *d2,
                                  int64_t r3, void *d3, int64_t r4, void *d4,
                                  int64_t r5, void *d5, int64_t r6, void *d6) {
  HostQuantize entry;
  {
    std::lock_guard<std::mutex> lock(hostQuantizeMutex());
    entry = hostQuantizeRegistry()[index];
  }
  MutableArrayRef<uint8_t> in = unrankedBytes(r0, d0);
  int64_t numel = 1;
  for (int64_t size : entry.shape)
    numel *= size;
  unsigned inBytes = hostElementBytes(entry.input);
  std::vector<float> values(numel);
  for (int64_t i = 0; i < numel; ++i)
    values[i] = static_cast<float>(
        loadHostElement(entry.input, in.data() + i * inBytes));
  std::pair<int64_t, void *> outs[] = {{r1, d1}, {r2, d2}, {r3, d3},
                                       {r4, d4}, {r5, d5}, {r6, d6}};
  spyre::quant::GivenScales given;
  size_t firstGiven = std::size(outs) - entry.given.size();
  for (auto [i, name] : llvm::enumerate(entry.given)) {
    MutableArrayRef<uint8_t> bytes =
        unrankedBytes(outs[firstGiven + i].first, outs[firstGiven + i].second);
    spyre::quant::Buffer buffer;
    buffer.bytes.assign(bytes.begin(), bytes.end());
    *given.slot(name) = std::move(buffer);
  }
  llvm::Expected<spyre::quant::QuantizedTensor> q = spyre::quant::quantize(
      values, entry.shape, entry.spec, entry.given.empty() ? nullptr : &given);
  if (!q) {
    llvm::consumeError(q.takeError());
    return;
  }
  SmallVector<const spyre::quant::Buffer *> parts =
      q->storedParts(/*scalesGiven=*/!entry.given.empty());
  for (auto [i, part] : llvm::enumerate(parts)) {
    MutableArrayRef<uint8_t> out = unrankedBytes(outs[i].first, outs[i].second);
    // Virtual data holds the values in the input's own type.
    if (i == 0 && entry.spec.mode == spyre::quant::CastMode::Virtual) {
      for (int64_t k = 0;
           k < numel && static_cast<size_t>((k + 1) * inBytes) <= out.size();
           ++k) {
        float v;
        std::memcpy(&v, part->bytes.data() + 4 * k, 4);
        storeHostElement(entry.input, out.data() + k * inBytes, v);
      }
      continue;
    }
    if (part->bytes.size() == out.size())
      std::memcpy(out.data(), part->bytes.data(), out.size());
  }
}

/// `spyre.quantize` as a call of spyreQuantizeHost on byte buffers: the
/// input copied into one, each part a typed view of its own.
LogicalResult lowerQuantize(IRRewriter &rewriter, QuantizeOp op,
                            std::string &why) {
  auto inputType = cast<RankedTensorType>(op.getInput().getType());
  FailureOr<HostType> input = getHostType(inputType.getElementType());
  llvm::Expected<spyre::quant::QuantShapes> shapes =
      op.getQuant().getShapes(inputType.getShape());
  if (failed(input) || !shapes) {
    if (!shapes)
      why = llvm::toString(shapes.takeError());
    else
      why = "the input's element type has no host type";
    return failure();
  }
  if (op.getNumResults() + op.getScales().size() > 6) {
    why = "more than 6 parts";
    return failure();
  }
  // The given scales' companion names, in the order the op takes them.
  SmallVector<std::string> given;
  if (!op.getScales().empty()) {
    FailureOr<SmallVector<std::pair<StringRef, RankedTensorType>>> parts =
        op.getQuant().getPartTypes(inputType, [&] { return op.emitError(); });
    if (failed(parts)) {
      why = "its parts do not follow from its scheme";
      return failure();
    }
    for (const auto &part : *parts)
      if (spyre::quant::GivenScales::holds(part.first))
        given.push_back(part.first.str());
  }
  int64_t index;
  {
    std::lock_guard<std::mutex> lock(hostQuantizeMutex());
    index = static_cast<int64_t>(hostQuantizeRegistry().size());
    hostQuantizeRegistry().push_back(
        {op.getQuant().getSpec(), SmallVector<int64_t>(inputType.getShape()),
         *input, given});
  }
  MLIRContext *context = op.getContext();
  // (Before bufferization nothing has loaded these yet.)
  context->getOrLoadDialect<bufferization::BufferizationDialect>();
  context->getOrLoadDialect<memref::MemRefDialect>();
  Location loc = op.getLoc();
  auto module = op->getParentOfType<ModuleOp>();
  Type i8 = rewriter.getI8Type();
  auto unranked = mlir::UnrankedMemRefType::get(i8, 0);
  StringRef callee = "spyreQuantizeHost";
  if (!module.lookupSymbol(callee)) {
    OpBuilder b(module.getBodyRegion());
    SmallVector<Type> args = {rewriter.getI64Type()};
    args.append(7, unranked);
    auto decl = func::FuncOp::create(b, loc, callee,
                                     FunctionType::get(context, args, {}));
    decl.setPrivate();
  }
  rewriter.setInsertionPoint(op);
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  // A byte buffer of `type`'s size and its typed view.
  auto bytesOf = [&](RankedTensorType type) {
    int64_t elementBytes =
        std::max<int64_t>(1, type.getElementTypeBitWidth() / 8);
    auto buffer = memref::AllocOp::create(
        rewriter, loc,
        MemRefType::get({type.getNumElements() * elementBytes}, i8));
    auto view = memref::ViewOp::create(
        rewriter, loc, MemRefType::get(type.getShape(), type.getElementType()),
        buffer, zero, ValueRange{});
    return std::make_pair(buffer.getResult(), view.getResult());
  };
  auto [inBytes, inView] = bytesOf(inputType);
  auto copyIn = bufferization::MaterializeInDestinationOp::create(
      rewriter, loc, op.getInput(), inView);
  copyIn.setWritable(true);
  SmallVector<Value> args = {
      arith::ConstantIntOp::create(rewriter, loc, index, 64),
      memref::CastOp::create(rewriter, loc, unranked, inBytes)};
  SmallVector<Value> views;
  for (Type type : op.getResultTypes()) {
    auto [bytes, view] = bytesOf(cast<RankedTensorType>(type));
    args.push_back(memref::CastOp::create(rewriter, loc, unranked, bytes));
    views.push_back(view);
  }
  Value unused = args[1]; // (a copy: push_back may reallocate)
  // The given scales fill the last buffers.
  while (args.size() < 8 - op.getScales().size())
    args.push_back(unused);
  for (Value scale : op.getScales()) {
    auto [bytes, view] = bytesOf(cast<RankedTensorType>(scale.getType()));
    auto copy = bufferization::MaterializeInDestinationOp::create(rewriter, loc,
                                                                  scale, view);
    copy.setWritable(true);
    args.push_back(memref::CastOp::create(rewriter, loc, unranked, bytes));
  }
  func::CallOp::create(rewriter, loc, callee, TypeRange{}, args);
  SmallVector<Value> results;
  for (auto [view, type] : llvm::zip(views, op.getResultTypes()))
    results.push_back(bufferization::ToTensorOp::create(
        rewriter, loc, type, view, /*restrict=*/true, /*writable=*/true));
  rewriter.replaceOp(op, results);
  return success();
}

/// Ops upstream cannot bufferize, in forms it can: linalg.pack / unpack
/// (pad, reshape, transpose), tensor.gather and spyre.dequantize (generics
/// of extracts).
llvm::Error lowerUnbufferizableOps(ModuleOp module) {
  IRRewriter rewriter(module.getContext());
  SmallVector<Operation *> ops;
  module.walk([&](Operation *op) {
    if (isa<linalg::PackOp, linalg::UnPackOp, tensor::GatherOp, DequantizeOp,
            QuantizeOp>(op))
      ops.push_back(op);
  });
  for (Operation *op : ops) {
    rewriter.setInsertionPoint(op);
    // (What `op` is, and where, is read before a lowering erases it.)
    std::string name = op->getName().getStringRef().str();
    std::string where = printed(op->getLoc());
    LogicalResult lowered = failure();
    std::string why;
    if (auto pack = dyn_cast<linalg::PackOp>(op))
      lowered = linalg::lowerPack(rewriter, pack);
    else if (auto unpack = dyn_cast<linalg::UnPackOp>(op))
      lowered = linalg::lowerUnPack(rewriter, unpack);
    else if (auto gather = dyn_cast<tensor::GatherOp>(op))
      lowered = lowerGather(rewriter, gather);
    else if (auto dequantize = dyn_cast<DequantizeOp>(op))
      lowered = lowerDequantize(rewriter, dequantize, why);
    else if (auto quantize = dyn_cast<QuantizeOp>(op))
      lowered = lowerQuantize(rewriter, quantize, why);
    if (failed(lowered) && !why.empty())
      return makeError(llvm::formatv("the reference cannot lower '{0}' at "
                                     "{1}: {2}",
                                     name, where, why));
    if (failed(lowered))
      return makeError(llvm::formatv("the reference cannot lower '{0}' at {1}",
                                     name, where));
  }
  return llvm::Error::success();
}

llvm::Error decomposeAggregatedOps(ModuleOp module) {
  IRRewriter rewriter(module.getContext());
  // A decomposition could produce aggregated ops again; a few rounds suffice.
  for (int round = 0; round < 4; ++round) {
    SmallVector<linalg::AggregatedOpInterface> ops;
    module.walk([&](linalg::AggregatedOpInterface op) { ops.push_back(op); });
    if (ops.empty())
      return llvm::Error::success();
    for (linalg::AggregatedOpInterface op : ops) {
      rewriter.setInsertionPoint(op);
      FailureOr<SmallVector<Value>> values = op.decomposeOperation(rewriter);
      if (failed(values) || values->size() != op->getNumResults())
        return makeError(
            llvm::formatv("the reference cannot decompose '{0}' at {1}",
                          op->getName().getStringRef(), printed(op->getLoc())));
      rewriter.replaceOp(op, *values);
    }
  }
  return makeError("the reference: aggregated ops keep decomposing into "
                   "aggregated ops");
}

/// f16 and bf16: the float types the reference computes in f32.
bool isNarrowFloat(Type type) { return type.isF16() || type.isBF16(); }

/// `type`, or f32 for f16 and bf16.
Type widened(Type type) {
  return isNarrowFloat(type) ? Float32Type::get(type.getContext()) : type;
}

/// `value` converted to the float type `type` (extf, truncf, or itself).
Value convertFloat(OpBuilder &b, Location loc, Value value, Type type) {
  if (value.getType() == type)
    return value;
  if (value.getType().getIntOrFloatBitWidth() < type.getIntOrFloatBitWidth())
    return arith::ExtFOp::create(b, loc, type, value);
  return arith::TruncFOp::create(b, loc, type, value);
}

/// The tensor `input` with its elements converted to `elementType` (extf or
/// truncf), by an identity-mapped parallel linalg.generic into a new tensor.
Value convertTensor(OpBuilder &b, Location loc, Value input, Type elementType) {
  auto type = cast<RankedTensorType>(input.getType());
  Value init = tensor::EmptyOp::create(
      b, loc, tensor::getMixedSizes(b, loc, input), elementType);
  AffineMap identity = b.getMultiDimIdentityMap(type.getRank());
  SmallVector<utils::IteratorType> iterators(type.getRank(),
                                             utils::IteratorType::parallel);
  auto op = linalg::GenericOp::create(
      b, loc, init.getType(), ValueRange{input}, ValueRange{init},
      ArrayRef<AffineMap>{identity, identity}, iterators,
      [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        linalg::YieldOp::create(
            nested, nestedLoc,
            convertFloat(nested, nestedLoc, args[0], elementType));
      });
  return op.getResult(0);
}

/// An arith or math op that computes the same function on f32 as on f16 and
/// bf16 (addf, mulf, maximumf, select, cmpf, exp, ...), so that it can be
/// cloned with f32 in place of its narrow types.
bool isTypeGeneric(Operation *op) {
  if (isa<arith::ConstantOp, arith::BitcastOp, arith::ExtFOp, arith::TruncFOp,
          arith::ScalingExtFOp, arith::ScalingTruncFOp>(op))
    return false;
  StringRef dialect = op->getName().getDialectNamespace();
  return dialect == arith::ArithDialect::getDialectNamespace() ||
         dialect == math::MathDialect::getDialectNamespace();
}

/// Records the operations a rewriter inserts.
struct InsertedOps : public RewriterBase::Listener {
  void notifyOperationInserted(Operation *op,
                               OpBuilder::InsertPoint previous) override {
    ops.push_back(op);
  }
  SmallVector<Operation *> ops;
};

/// Rewrites `op`, a linalg.generic on tensors with reduction loops and f16 or
/// bf16 outputs, to accumulate in f32: those outputs' inits are extended to
/// f32, the body computes in f32 (narrow block arguments and captured values
/// are extended; arith and math ops are cloned with f32 for their narrow
/// types; others keep their types, with operands rounded back), and each f32
/// result is rounded once to its element type by a pointwise truncf generic.
///
/// Explicit conversions in the body: an extf of a value that is now f32
/// folds away; a truncf to f16 or bf16 of a value computed from the running
/// value (the output block argument) is that value's rounding, which moves to
/// the end; a truncf of anything else (a term) still rounds it, and the
/// rounded value is extended back to f32.
///
/// Returns false (and leaves `op` as it was) if the result does not verify.
bool accumulateInF32(linalg::GenericOp op) {
  MLIRContext *context = op.getContext();
  Type f32 = Float32Type::get(context);
  Location loc = op.getLoc();
  InsertedOps inserted;
  IRRewriter rewriter(context, &inserted);
  rewriter.setInsertionPoint(op);

  // Inits and result types: narrow float outputs widened to f32.
  unsigned numInputs = op.getNumDpsInputs();
  SmallVector<bool> widenedOutput;
  SmallVector<Value> inits;
  for (Value init : op.getDpsInits()) {
    Type element = cast<RankedTensorType>(init.getType()).getElementType();
    widenedOutput.push_back(isNarrowFloat(element));
    inits.push_back(isNarrowFloat(element)
                        ? convertTensor(rewriter, loc, init, f32)
                        : init);
  }
  auto promoted = linalg::GenericOp::create(
      rewriter, loc, ValueRange(inits).getTypes(), op.getDpsInputs(), inits,
      op.getIndexingMapsArray(), op.getIteratorTypesArray());

  // The body. Narrow inputs are extended where the body starts; the outputs'
  // block arguments are f32 already.
  Block &oldBody = *op.getBody();
  SmallVector<Type> argTypes;
  SmallVector<Location> argLocs;
  for (BlockArgument arg : oldBody.getArguments()) {
    bool output = arg.getArgNumber() >= numInputs;
    argTypes.push_back(output && widenedOutput[arg.getArgNumber() - numInputs]
                           ? f32
                           : arg.getType());
    argLocs.push_back(arg.getLoc());
  }
  Block *body = rewriter.createBlock(
      &promoted.getRegion(), promoted.getRegion().end(), argTypes, argLocs);
  IRMapping map;
  // Values computed from a running value (a widened output's argument).
  llvm::DenseSet<Value> running;
  for (auto [oldArg, newArg] :
       llvm::zip(oldBody.getArguments(), body->getArguments())) {
    if (oldArg.getType() == newArg.getType() &&
        isNarrowFloat(oldArg.getType()) && !oldArg.use_empty())
      map.map(oldArg, arith::ExtFOp::create(rewriter, loc, f32, newArg));
    else
      map.map(oldArg, newArg);
    if (oldArg.getType() != newArg.getType())
      running.insert(oldArg);
  }

  bool ok = true;
  for (Operation &old : oldBody.without_terminator()) {
    if (old.getNumRegions() != 0) {
      ok = false;
      break;
    }
    for (Value operand : old.getOperands()) {
      // Narrow values defined outside the body, extended on first use.
      if (!map.contains(operand) && isNarrowFloat(operand.getType()))
        map.map(operand,
                arith::ExtFOp::create(rewriter, old.getLoc(), f32, operand));
      if (running.contains(operand))
        running.insert(old.getResults().begin(), old.getResults().end());
    }
    if (auto ext = dyn_cast<arith::ExtFOp>(old)) {
      map.map(ext.getResult(), convertFloat(rewriter, ext.getLoc(),
                                            map.lookupOrDefault(ext.getIn()),
                                            widened(ext.getType())));
    } else if (auto trunc = dyn_cast<arith::TruncFOp>(old);
               trunc && isNarrowFloat(trunc.getType())) {
      Value in = map.lookupOrDefault(trunc.getIn());
      if (running.contains(trunc.getResult())) {
        map.map(trunc.getResult(),
                convertFloat(rewriter, trunc.getLoc(), in, f32));
      } else {
        Operation *rounded = rewriter.clone(old, map);
        map.map(trunc.getResult(),
                arith::ExtFOp::create(rewriter, trunc.getLoc(), f32,
                                      rounded->getResult(0)));
      }
    } else if (isTypeGeneric(&old)) {
      Operation *clone = rewriter.clone(old, map);
      for (OpResult result : clone->getResults())
        result.setType(widened(result.getType()));
    } else {
      // In its own types: widened operands rounded back (exact for narrow
      // arguments and captured values), narrow results extended.
      IRMapping own;
      for (Value operand : old.getOperands())
        own.map(operand,
                convertFloat(rewriter, old.getLoc(),
                             map.lookupOrDefault(operand), operand.getType()));
      Operation *clone = rewriter.clone(old, own);
      for (auto [oldResult, newResult] :
           llvm::zip(old.getResults(), clone->getResults()))
        map.map(oldResult, isNarrowFloat(newResult.getType())
                               ? arith::ExtFOp::create(rewriter, old.getLoc(),
                                                       f32, newResult)
                                     .getResult()
                               : Value(newResult));
    }
  }
  if (ok) {
    auto yield = cast<linalg::YieldOp>(oldBody.getTerminator());
    SmallVector<Value> yielded;
    for (auto [i, value] : llvm::enumerate(yield.getValues())) {
      Value mapped = map.lookupOrDefault(value);
      yielded.push_back(convertFloat(rewriter, yield.getLoc(), mapped,
                                     widenedOutput[i] ? f32 : value.getType()));
    }
    linalg::YieldOp::create(rewriter, yield.getLoc(), yielded);

    // The verifier's complaints are not the caller's business: a failure
    // only means the op keeps accumulating in its own type.
    ScopedDiagnosticHandler quiet(context,
                                  [](Diagnostic &) { return success(); });
    ok = succeeded(verify(promoted));
  }
  if (!ok) {
    for (Operation *created : llvm::reverse(inserted.ops))
      if (created->getBlock() == op->getBlock())
        created->erase();
    return false;
  }

  // One rounding per result element.
  rewriter.setInsertionPointAfter(promoted);
  SmallVector<Value> results;
  for (auto [i, result] : llvm::enumerate(promoted.getResults()))
    results.push_back(
        widenedOutput[i]
            ? convertTensor(rewriter, loc, result,
                            getElementTypeOrSelf(op.getResult(i).getType()))
            : Value(result));
  rewriter.replaceOp(op, results);
  return true;
}

/// Every linalg.generic on tensors with a reduction loop and an f16 or bf16
/// output accumulates in f32 and rounds once (accumulateInF32), as CPU and
/// GPU kernels do; rounding each partial sum to f16 would lose several
/// bits over a sum of thousands of terms.
void accumulateReductionsInF32(ModuleOp module) {
  SmallVector<linalg::GenericOp> reductions;
  module.walk([&](linalg::GenericOp op) {
    if (op.hasPureTensorSemantics() && op.getNumReductionLoops() > 0 &&
        llvm::any_of(op.getDpsInits(), [](Value init) {
          return isNarrowFloat(
              cast<RankedTensorType>(init.getType()).getElementType());
        }))
      reductions.push_back(op);
  });
  for (linalg::GenericOp op : reductions)
    (void)accumulateInF32(op);
}

/// Upstream's runner utilities a program may declare and call (benchmarks
/// and tests written for mlir-runner time themselves with rtclock and print
/// their results with printMemref*): each by its C name and, for memrefs,
/// the C-interface name too.
struct RunnerUtility {
  const char *name;
  llvm::orc::ExecutorSymbolDef symbol;
};

/// printMemref of the types upstream prints through the C interface only,
/// for programs that declare them without it (as they do the others).
template <typename T, void (*Print)(::UnrankedMemRefType<T> *)>
void printUnranked(int64_t rank, void *ptr) {
  ::UnrankedMemRefType<T> memref = {rank, ptr};
  Print(&memref);
}

ArrayRef<RunnerUtility> runnerUtilities() {
  static const RunnerUtility utilities[] = {
      {"rtclock", symbolFor(&rtclock)},
      {"printFlops", symbolFor(&printFlops)},
      {"printMemrefI32", symbolFor(&printMemrefI32)},
      {"printMemrefI64", symbolFor(&printMemrefI64)},
      {"printMemrefF32", symbolFor(&printMemrefF32)},
      {"printMemrefF64", symbolFor(&printMemrefF64)},
      {"printMemrefI8",
       symbolFor(&printUnranked<int8_t, _mlir_ciface_printMemrefI8>)},
      {"printMemrefF16",
       symbolFor(&printUnranked<f16, _mlir_ciface_printMemrefF16>)},
      {"printMemrefBF16",
       symbolFor(&printUnranked<bf16, _mlir_ciface_printMemrefBF16>)},
      {"_mlir_ciface_printMemrefI8", symbolFor(&_mlir_ciface_printMemrefI8)},
      {"_mlir_ciface_printMemrefI32", symbolFor(&_mlir_ciface_printMemrefI32)},
      {"_mlir_ciface_printMemrefI64", symbolFor(&_mlir_ciface_printMemrefI64)},
      {"_mlir_ciface_printMemrefF16", symbolFor(&_mlir_ciface_printMemrefF16)},
      {"_mlir_ciface_printMemrefBF16",
       symbolFor(&_mlir_ciface_printMemrefBF16)},
      {"_mlir_ciface_printMemrefF32", symbolFor(&_mlir_ciface_printMemrefF32)},
      {"_mlir_ciface_printMemrefF64", symbolFor(&_mlir_ciface_printMemrefF64)},
  };
  return utilities;
}

/// The names a program's external functions may have.
SmallVector<StringRef> runnerUtilityNames() {
  SmallVector<StringRef> names;
  for (const RunnerUtility &utility : runnerUtilities()) {
    StringRef name = utility.name;
    if (!name.starts_with("_mlir_ciface_"))
      names.push_back(name);
  }
  return names;
}

bool isRunnerUtility(StringRef name) {
  return llvm::is_contained(runnerUtilityNames(), name);
}

/// The runner utilities only read their arguments (they print or time).
/// One-shot bufferization assumes an external function may write every
/// buffer it is given and copies a tensor that is still used afterwards;
/// an unranked tensor (what printMemref takes) cannot be copied, so
/// `printMemrefF32(tensor.cast %result)` of a result that is also returned
/// would not bufferize. Said to be read only, it needs no copy.
void markRunnerUtilitiesReadOnly(ModuleOp module) {
  Builder b(module.getContext());
  for (auto function : module.getOps<func::FuncOp>()) {
    if (!function.isExternal() || !isRunnerUtility(function.getSymName()))
      continue;
    for (unsigned i = 0, e = function.getNumArguments(); i < e; ++i)
      if (isa<TensorType>(function.getArgumentTypes()[i]))
        function.setArgAttr(i, "bufferization.access", b.getStringAttr("read"));
  }
}

/// Whether `type` is a float type LLVM has no type for (8 bits or fewer).
bool isNarrowerThanLlvm(Type type) {
  auto floatType = dyn_cast<FloatType>(type);
  return floatType && floatType.getWidth() <= 8;
}

/// Replaces every `OpT` (arith.scaling_extf / scaling_truncf, OCP MX) by
/// what `expand` builds from it; the reference lowers E8M0 scales only.
template <typename OpT, typename Expand>
llvm::Error lowerScalingOps(ModuleOp module, Expand expand) {
  SmallVector<OpT> ops;
  module.walk([&](OpT op) { ops.push_back(op); });
  for (OpT op : ops) {
    if (!isa<Float8E8M0FNUType>(getElementTypeOrSelf(op.getScale().getType())))
      return makeError(
          "the reference lowers " + op->getName().getStringRef().str() +
          " with f8E8M0FNU scales only, not " +
          printed(op.getScale().getType()) + " at " + printed(op.getLoc()));
    OpBuilder b(op);
    op.replaceAllUsesWith(expand(b, op.getLoc(), op));
    op.erase();
  }
  return llvm::Error::success();
}

/// A float type the truncations below round to: 8 bits or fewer, with a
/// sign (E8M0, unsigned, is left to upstream's arith-expand).
bool isRoundedHere(Type type) {
  auto floatType = dyn_cast<FloatType>(type);
  return floatType && floatType.getWidth() <= 8 &&
         APFloat::semanticsHasSignedRepr(floatType.getFloatSemantics());
}

/// Arithmetic on float types of 8 bits or fewer, which LLVM has no type
/// for: arith.scaling_truncf (OCP MX) as truncf(in / extf(scale)); every
/// other float op on such types computed in f32 between an extf of its
/// operands and a truncf of its result (what upstream's float emulation
/// does for f16); then each arith.truncf to such a type as the rounding
/// APFloat defines (nearest, ties to even; beyond the largest value, inf or
/// NaN where the type has them, the largest value otherwise): the
/// magnitude compared with the midpoints between neighbouring values, the
/// count selecting the code, the sign its negative's code. Upstream's
/// fp4 truncation loses the sign of negative subnormals, so it is not used.
llvm::Error lowerNarrowFloatTruncations(ModuleOp module) {
  MLIRContext *context = module.getContext();
  // arith.scaling_truncf (OCP MX): truncf(in / extf(scale)).
  if (llvm::Error error = lowerScalingOps<arith::ScalingTruncFOp>(
          module, [](OpBuilder &b, Location loc, arith::ScalingTruncFOp op) {
            Value scale = arith::ExtFOp::create(b, loc, op.getIn().getType(),
                                                op.getScale());
            Value quotient = arith::DivFOp::create(b, loc, op.getIn(), scale);
            return arith::TruncFOp::create(b, loc, op.getType(), quotient)
                .getResult();
          }))
    return error;

  // Float ops on narrow types, in f32.
  Type f32 = Float32Type::get(context);
  SmallVector<Operation *> narrowOps;
  module.walk([&](Operation *op) {
    if (op->getDialect() != context->getLoadedDialect<arith::ArithDialect>() ||
        isa<arith::ExtFOp, arith::TruncFOp, arith::ScalingExtFOp,
            arith::ConstantOp, arith::BitcastOp, arith::SelectOp>(op) ||
        op->getNumResults() != 1 || op->getNumRegions() != 0)
      return;
    auto narrow = [](Type t) { return isRoundedHere(t); };
    bool resultNarrow = narrow(op->getResult(0).getType());
    bool operandNarrow = llvm::any_of(op->getOperandTypes(), narrow);
    if ((resultNarrow || operandNarrow) &&
        llvm::all_of(op->getOperandTypes(),
                     [](Type t) { return isa<FloatType, IntegerType>(t); }))
      narrowOps.push_back(op);
  });
  for (Operation *op : narrowOps) {
    OpBuilder b(op);
    Location loc = op->getLoc();
    SmallVector<Value> operands;
    for (Value operand : op->getOperands())
      operands.push_back(isRoundedHere(operand.getType())
                             ? arith::ExtFOp::create(b, loc, f32, operand)
                             : operand);
    Type resultType = op->getResult(0).getType();
    bool narrowResult = isRoundedHere(resultType);
    OperationState state(loc, op->getName(), operands,
                         narrowResult ? TypeRange(f32) : TypeRange(resultType),
                         op->getAttrs());
    Operation *wide = b.create(state);
    Value result = wide->getResult(0);
    if (narrowResult)
      result = arith::TruncFOp::create(b, loc, resultType, result);
    op->getResult(0).replaceAllUsesWith(result);
    op->erase();
  }

  SmallVector<arith::TruncFOp> truncations;
  Type rounding;
  module.walk([&](arith::TruncFOp op) {
    if (!isRoundedHere(getElementTypeOrSelf(op.getType())))
      return;
    if (isa<FloatType>(op.getType()))
      truncations.push_back(op);
    else
      rounding = op.getType();
  });
  if (rounding)
    return makeError(llvm::formatv(
        "the reference cannot lower arith.truncf to {0} (LLVM has no such "
        "type; scalar truncations are lowered)",
        printed(rounding)));
  Type f64 = Float64Type::get(context);
  OpBuilder builder(context);
  for (arith::TruncFOp op : truncations) {
    auto to = cast<FloatType>(op.getType());
    const llvm::fltSemantics &sem = to.getFloatSemantics();
    unsigned bits = to.getWidth();
    auto codeOf = [&](double value) {
      APFloat v(value);
      bool losesInfo = false;
      v.convert(sem, APFloat::rmNearestTiesToEven, &losesInfo);
      return v.bitcastToAPInt().getZExtValue();
    };
    // The non-negative finite values, ascending, and the buckets they and
    // the midpoints between them make.
    SmallVector<double> values;
    for (uint64_t code = 0; code < (uint64_t(1) << (bits - 1)); ++code) {
      APFloat v(sem, APInt(bits, code));
      if (v.isFinite() && !v.isNegative())
        values.push_back(v.convertToDouble());
    }
    llvm::sort(values);
    values.erase(std::unique(values.begin(), values.end()), values.end());
    SmallVector<std::pair<double, bool>> thresholds; // (t, inclusive)
    SmallVector<double> representatives = {values.front()};
    for (size_t k = 0; k + 1 < values.size(); ++k) {
      double t = (values[k] + values[k + 1]) / 2;
      thresholds.push_back({t, codeOf(t) == codeOf(values[k + 1])});
      representatives.push_back(values[k + 1]);
    }
    double largest = values.back();
    double over = largest + (largest - values[values.size() - 2]) / 2;
    if (codeOf(over) != codeOf(largest)) {
      thresholds.push_back({over, true});
      representatives.push_back(over);
    } else if (double above = std::nextafter(over, INFINITY);
               codeOf(above) != codeOf(largest)) {
      thresholds.push_back({over, false});
      representatives.push_back(above);
    }
    SmallVector<APInt> positive, negative;
    for (double r : representatives) {
      positive.push_back(APInt(bits, codeOf(r)));
      negative.push_back(APInt(bits, codeOf(-r)));
    }
    uint64_t nanCode =
        APFloat::semanticsHasNaN(sem)
            ? APFloat::getNaN(sem).bitcastToAPInt().getZExtValue()
            : codeOf(0.0);

    builder.setInsertionPoint(op);
    Location loc = op.getLoc();
    Type codeType = builder.getIntegerType(bits);
    Value x = op.getIn();
    if (x.getType() != f64)
      x = arith::ExtFOp::create(builder, loc, f64, x);
    Value bitsOfX =
        arith::BitcastOp::create(builder, loc, builder.getI64Type(), x);
    Value zeroI64 = arith::ConstantIntOp::create(builder, loc, 0, 64);
    Value isNegative = arith::CmpIOp::create(
        builder, loc, arith::CmpIPredicate::slt, bitsOfX, zeroI64);
    Value magnitude = math::AbsFOp::create(builder, loc, x);
    Value count = arith::ConstantIndexOp::create(builder, loc, 0);
    Value one = arith::ConstantIndexOp::create(builder, loc, 1);
    Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
    for (auto [t, inclusive] : thresholds) {
      Value tv = arith::ConstantFloatOp::create(
          builder, loc, cast<FloatType>(f64), APFloat(t));
      Value past = arith::CmpFOp::create(builder, loc,
                                         inclusive ? arith::CmpFPredicate::OGE
                                                   : arith::CmpFPredicate::OGT,
                                         magnitude, tv);
      count = arith::AddIOp::create(
          builder, loc, count,
          arith::SelectOp::create(builder, loc, past, one, zero));
    }
    auto tableOf = [&](ArrayRef<APInt> codes) {
      auto type =
          RankedTensorType::get({static_cast<int64_t>(codes.size())}, codeType);
      Value table = arith::ConstantOp::create(
          builder, loc, DenseElementsAttr::get(type, codes));
      return tensor::ExtractOp::create(builder, loc, table, count).getResult();
    };
    Value code = arith::SelectOp::create(builder, loc, isNegative,
                                         tableOf(negative), tableOf(positive));
    Value isNaN =
        arith::CmpFOp::create(builder, loc, arith::CmpFPredicate::UNO, x, x);
    Value nan = arith::ConstantIntOp::create(builder, loc, codeType, nanCode);
    code = arith::SelectOp::create(builder, loc, isNaN, nan, code);
    Value result = arith::BitcastOp::create(builder, loc, to, code);
    op.replaceAllUsesWith(result);
    op.erase();
  }
  return llvm::Error::success();
}

/// `arith.extf` from a float type of 8 bits or fewer (fp8, fp6, fp4), which
/// LLVM has no type for, as a lookup in a table of all its encodings: the
/// encoding is the index (a bitcast), every value is APFloat's conversion,
/// exact in any wider type.
llvm::Error lowerNarrowFloatExtensions(ModuleOp module) {
  if (llvm::Error error = lowerNarrowFloatTruncations(module))
    return error;
  // arith.scaling_extf (OCP MX): extf(in) * extf(scale); its extensions
  // are lowered below with the others.
  if (llvm::Error error = lowerScalingOps<arith::ScalingExtFOp>(
          module, [](OpBuilder &b, Location loc, arith::ScalingExtFOp op) {
            Type type = op.getType();
            Value in = arith::ExtFOp::create(b, loc, type, op.getIn());
            Value scale = arith::ExtFOp::create(b, loc, type, op.getScale());
            return arith::MulFOp::create(b, loc, in, scale).getResult();
          }))
    return error;
  SmallVector<arith::ExtFOp> extensions;
  module.walk([&](arith::ExtFOp ext) {
    if (isNarrowerThanLlvm(ext.getIn().getType()))
      extensions.push_back(ext);
  });
  DenseMap<std::tuple<Operation *, Type, Type>, Value> tables;
  OpBuilder builder(module.getContext());
  for (arith::ExtFOp ext : extensions) {
    auto from = cast<FloatType>(ext.getIn().getType());
    auto to = dyn_cast<FloatType>(ext.getType());
    auto function = ext->getParentOfType<FunctionOpInterface>();
    if (!to || !function)
      return makeError("the reference cannot lower " + printed(ext));
    unsigned bits = from.getWidth();
    Value &table = tables[{function.getOperation(), from, to}];
    if (!table) {
      SmallVector<APFloat> values;
      for (uint64_t code = 0; code < (uint64_t(1) << bits); ++code) {
        APFloat value(from.getFloatSemantics(), APInt(bits, code));
        bool losesInfo = false;
        value.convert(to.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                      &losesInfo);
        values.push_back(value);
      }
      auto type =
          RankedTensorType::get({static_cast<int64_t>(values.size())}, to);
      builder.setInsertionPointToStart(&function.getFunctionBody().front());
      table = arith::ConstantOp::create(builder, ext.getLoc(),
                                        DenseElementsAttr::get(type, values));
    }
    builder.setInsertionPoint(ext);
    Location loc = ext.getLoc();
    Value code = arith::BitcastOp::create(
        builder, loc, builder.getIntegerType(bits), ext.getIn());
    Value wide =
        arith::ExtUIOp::create(builder, loc, builder.getI32Type(), code);
    Value index =
        arith::IndexCastOp::create(builder, loc, builder.getIndexType(), wide);
    Value value = tensor::ExtractOp::create(builder, loc, table, index);
    ext.replaceAllUsesWith(value);
    ext.erase();
  }
  return llvm::Error::success();
}

/// Gives every input of `op` that its innermost loop steps along a dim other
/// than its last (B of a matmul with B transposed, read along n) a transposed
/// copy with that dim last, so that the innermost loop reads contiguous
/// elements. A copy: the arithmetic, and its order, are unchanged.
static void readInnermostContiguously(IRRewriter &rewriter,
                                      linalg::GenericOp op) {
  unsigned inner = op.getNumLoops() - 1;
  AffineExpr innerExpr = rewriter.getAffineDimExpr(inner);
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  bool changed = false;
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = maps[input->getOperandNumber()];
    auto type = dyn_cast<RankedTensorType>(input->get().getType());
    std::optional<unsigned> at = map.getResultPosition(innerExpr);
    if (!type || !type.hasStaticShape() || !at ||
        *at + 1 == map.getNumResults())
      continue;
    SmallVector<int64_t> permutation;
    for (unsigned r = 0; r < map.getNumResults(); ++r)
      if (r != *at)
        permutation.push_back(r);
    permutation.push_back(*at);
    SmallVector<int64_t> shape;
    SmallVector<AffineExpr> results;
    for (int64_t r : permutation) {
      shape.push_back(type.getDimSize(r));
      results.push_back(map.getResult(r));
    }
    rewriter.setInsertionPoint(op);
    Location loc = op.getLoc();
    Value empty =
        tensor::EmptyOp::create(rewriter, loc, shape, type.getElementType());
    auto transpose = linalg::TransposeOp::create(rewriter, loc, input->get(),
                                                 empty, permutation);
    input->set(transpose->getResult(0));
    maps[input->getOperandNumber()] =
        AffineMap::get(map.getNumDims(), 0, results, op.getContext());
    changed = true;
  }
  if (changed)
    op.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
}

/// For a linalg.generic with reduction loops whose innermost loop is a
/// reduction (a matmul: i, j, k), moves the loop of the output's last
/// dimension innermost (i, k, j). Every output element still accumulates its
/// terms in the same order, so the results do not change; but the innermost
/// loop becomes a parallel one over contiguous elements, which LLVM
/// vectorizes (the reduction itself, a floating-point sum in order, it
/// cannot); an input read along that loop but stored along another dim (B
/// transposed) is read through a transposed copy.
void interchangeContractions(ModuleOp module) {
  SmallVector<linalg::GenericOp> generics;
  module.walk([&](linalg::GenericOp op) { generics.push_back(op); });
  IRRewriter rewriter(module.getContext());
  for (linalg::GenericOp op : generics) {
    unsigned loops = op.getNumLoops();
    if (loops < 2 || op.getNumReductionLoops() == 0 ||
        op.getNumDpsInits() == 0 || op.getNumDpsInputs() < 2)
      continue;
    SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
    if (iterators.back() != utils::IteratorType::reduction)
      continue;
    // Every output (horizontally fused contractions have several) must end
    // with the same loop.
    std::optional<unsigned> innermost;
    bool agree = true;
    for (OpOperand &init : op.getDpsInitsMutable()) {
      AffineMap outputMap = op.getMatchingIndexingMap(&init);
      std::optional<unsigned> last;
      if (outputMap.getNumResults() > 0)
        if (auto dim = dyn_cast<AffineDimExpr>(outputMap.getResults().back()))
          last = dim.getPosition();
      if (!last || (innermost && *innermost != *last))
        agree = false;
      else
        innermost = last;
    }
    if (!agree || !innermost)
      continue;
    unsigned inner = *innermost;
    SmallVector<unsigned> order;
    for (unsigned d = 0; d < loops; ++d)
      if (d != inner)
        order.push_back(d);
    order.push_back(inner);
    rewriter.setInsertionPoint(op);
    // A failure leaves the op as it was, which is only slower.
    FailureOr<linalg::GenericOp> interchanged =
        linalg::interchangeGenericOp(rewriter, op, order);
    if (failed(interchanged))
      continue;
    readInnermostContiguously(rewriter, *interchanged);
  }
}

/// Stage 1: every linalg op in generic form (then accumulateReductionsInF32
/// and interchangeContractions).
void buildGeneralization(OpPassManager &pm) {
  // Elementwise ops on whole tensors, which one-shot-bufferize cannot
  // bufferize, as linalg.generic.
  pm.addPass(createConvertElementwiseToLinalgPass());
  LinalgMorphOpsPassOptions morph;
  morph.namedToGeneric = true;
  morph.categoryToGeneric = true;
  pm.addPass(createLinalgMorphOpsPass(morph));
}

/// Stage 2: math and arithmetic on f16 and bf16 computed in f32, rounded back
/// after every op (then stripConversionFastMath). f16 math ops have no LLVM
/// lowering; bf16 arithmetic has none that needs no runtime library.
void buildFloatLegalization(OpPassManager &pm) {
  pm.addPass(math::createMathExtendToSupportedTypes());
  arith::ArithEmulateUnsupportedFloatsOptions emulate;
  emulate.sourceTypeStrs = {"f16", "bf16"};
  emulate.targetTypeStr = "f32";
  pm.addPass(arith::createArithEmulateUnsupportedFloats(emulate));
}

/// The emulation marks the extf/truncf pairs it inserts `contract`, which
/// lets folders (arith.extf's, and LLVM's) drop a truncf-extf pair, i.e. a
/// rounding to f16 between two ops. Without the flags, every op rounds as its
/// type says (reductions, already in f32, round once at the end), and the
/// reference computes exactly what the program means.
void stripConversionFastMath(ModuleOp module) {
  auto none = arith::FastMathFlagsAttr::get(module.getContext(),
                                            arith::FastMathFlags::none);
  module.walk([&](Operation *op) {
    if (auto ext = dyn_cast<arith::ExtFOp>(op))
      ext.setFastmathAttr(none);
    else if (auto trunc = dyn_cast<arith::TruncFOp>(op))
      trunc.setFastmathAttr(none);
  });
}

/// Functions with more loop nests than this are JIT-compiled without
/// optimisation (see ReferenceProgram::compile).
constexpr int64_t kMaxOptimisedLoopNests = 128;

/// Gives every use of a tensor.empty a copy of its own. Front ends (and CSE)
/// let many ops write into one empty tensor; one-shot bufferization then
/// weighs every pair of those writes for conflicts, which grows faster than
/// the square of the uses (a chain of 800 ops writing into one: 29 s of
/// analysis; each into its own: 0.08 s). An empty tensor has no contents,
/// so the copies mean the same.
void unshareEmptyTensors(ModuleOp module) {
  SmallVector<tensor::EmptyOp> empties;
  module.walk([&](tensor::EmptyOp empty) { empties.push_back(empty); });
  for (tensor::EmptyOp empty : empties) {
    SmallVector<OpOperand *> uses;
    for (OpOperand &use : empty->getUses())
      uses.push_back(&use);
    // The first use keeps the original; its operands (dynamic sizes)
    // dominate every user, so a copy right before each one is valid.
    for (OpOperand *use : llvm::drop_begin(uses)) {
      OpBuilder builder(use->getOwner());
      use->set(builder.clone(*empty)->getResult(0));
    }
  }
}

/// Stage 3: down to the LLVM dialect. A program with sparse tensors is
/// sparsified and bufferized by upstream's sparsifier (its
/// sparsification-and-bufferization mini-pipeline, as `--sparsifier` runs
/// it, generating the sparse storage's code directly).
void buildLowering(OpPassManager &pm, bool sparse) {
  if (sparse) {
    bufferization::OneShotBufferizationOptions bufferize =
        getBufferizationOptionsForSparsification(
            /*analysisOnly=*/false);
    bufferize.allowReturnAllocsFromLoops = true;
    // Direct code generation (no runtime library): sparse storage lives in
    // buffers of the reference's own allocator, freed with the rest.
    SparsificationOptions sparsify(SparseParallelizationStrategy::kNone,
                                   SparseEmitStrategy::kFunctional,
                                   /*enableRT=*/false);
    pm.addPass(createSparsificationAndBufferizationPass(
        bufferize, sparsify, /*createSparseDeallocs=*/true,
        sparsify.enableRuntimeLibrary, /*enableBufferInitialization=*/false,
        /*vectorLength=*/0, /*enableVLAVectorization=*/false,
        /*enableSIMDIndex32=*/false, /*enableGPULibgen=*/false,
        sparsify.sparseEmitStrategy, sparsify.parallelizationStrategy));
    pm.addPass(createStorageSpecifierToLLVMPass());
  } else {
    // Tensors to buffers; function arguments and results as contiguous
    // memrefs.
    bufferization::OneShotBufferizePassOptions bufferize;
    bufferize.bufferizeFunctionBoundaries = true;
    bufferize.functionBoundaryTypeConversion =
        bufferization::LayoutMapOption::IdentityLayoutMap;
    // A loop whose iteration yields a new tensor (an scf.for carrying a
    // linalg op's result) gets a fresh buffer per iteration.
    bufferize.allowReturnAllocsFromLoops = true;
    pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  }
  pm.addPass(createCanonicalizerPass());

  // Structured ops to loops, loops to branches.
  pm.addPass(createConvertLinalgToLoopsPass());
  // Vector ops (transfers, vector.print in tests' entry functions): their
  // transfers to loops here, the rest to LLVM below.
  pm.addPass(createConvertVectorToSCFPass());
  // (The sparsifier's code grows buffers with memref.realloc.)
  if (sparse)
    pm.addPass(memref::createExpandReallocPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());

  // bf16 <-> f32 conversions as integer code (round to nearest even).
  arith::ArithExpandOpsPassOptions expand;
  expand.includeBf16 = true;
  // E8M0 scales and fp4 values (arith.scaling_truncf) as integer code too.
  expand.includeF8E8M0 = true;
  expand.includeF4E2M1 = true;
  pm.addPass(arith::createArithExpandOpsPass(expand));

  // Math on f32: LLVM intrinsics where there are some (exp, log, sqrt, ...),
  // outlined software for integer powers, libm for the rest (tanh, erf, ...).
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToFuncs());
  pm.addPass(createConvertMathToLibmPass());

  // To the LLVM dialect.
  pm.addPass(createConvertVectorToLLVMPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createUBToLLVMConversionPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

/// Records the first pass that failed.
class FailedPassRecorder : public PassInstrumentation {
public:
  explicit FailedPassRecorder(std::string &name) : name(name) {}
  void runAfterPassFailed(Pass *pass, Operation *) override {
    if (name.empty())
      name = pass->getArgument().empty() ? pass->getName().str()
                                         : pass->getArgument().str();
  }

private:
  std::string &name;
};

/// Collects the diagnostics emitted while it lives (instead of letting them
/// reach the caller's handlers), as text for an error message.
class DiagnosticCollector {
public:
  explicit DiagnosticCollector(MLIRContext *context)
      : handler(context, [this](Diagnostic &diag) {
          std::lock_guard<std::mutex> lock(mutex);
          append(diag);
          for (Diagnostic &note : diag.getNotes())
            append(note);
          return success();
        }) {}

  /// "" or ":\n" followed by the diagnostics, one a line.
  std::string suffix() {
    std::lock_guard<std::mutex> lock(mutex);
    return text.empty() ? std::string() : ":\n" + text;
  }

private:
  void append(Diagnostic &diag) {
    llvm::raw_string_ostream os(text);
    os << diag.getLocation() << ": ";
    switch (diag.getSeverity()) {
    case DiagnosticSeverity::Error:
      os << "error: ";
      break;
    case DiagnosticSeverity::Warning:
      os << "warning: ";
      break;
    case DiagnosticSeverity::Note:
      os << "note: ";
      break;
    case DiagnosticSeverity::Remark:
      os << "remark: ";
      break;
    }
    os << diag << "\n";
  }

  std::mutex mutex;
  std::string text;
  ScopedDiagnosticHandler handler;
};

/// Runs `pm` on `module`; on failure, an error naming the pass and carrying
/// the diagnostics.
llvm::Error runPipeline(PassManager &pm, ModuleOp module,
                        DiagnosticCollector &diagnostics) {
  std::string failedPass;
  pm.addInstrumentation(std::make_unique<FailedPassRecorder>(failedPass));
  if (succeeded(pm.run(module)))
    return llvm::Error::success();
  return makeError(
      "the reference lowering failed" +
      (failedPass.empty() ? std::string() : " in pass '" + failedPass + "'") +
      diagnostics.suffix());
}

void initializeNativeTarget() {
  static const bool initialized = [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    return true;
  }();
  (void)initialized;
}

//===----------------------------------------------------------------------===//
// Checking the call
//===----------------------------------------------------------------------===//

/// Checks that `inputs` fit the arguments of `func` and that its arguments and
/// results are all tensors the reference can pass.
/// Checks the types of `func`'s arguments and results are ones the
/// reference passes (ranked tensors of host element types).
llvm::Error checkSignature(func::FuncOp func, std::nullopt_t) {
  StringRef name = func.getSymName();
  FunctionType type = func.getFunctionType();
  for (auto [i, argType] : llvm::enumerate(type.getInputs())) {
    auto tensorType = dyn_cast<RankedTensorType>(argType);
    if (!tensorType || failed(getHostType(tensorType.getElementType())))
      return makeError(llvm::formatv(
          "argument #{0} of @{1} has type {2}; the reference passes ranked "
          "tensors of f16, bf16, f32, f64, f8E4M3FN, f8E5M2, f8E4M3FNUZ, "
          "f8E5M2FNUZ, f8E8M0FNU, f4E2M1FN, i1, i4, i8, i16, i32, i64 or index "
          "only",
          i, name, printed(argType)));
  }
  for (auto [i, resultType] : llvm::enumerate(type.getResults())) {
    auto tensorType = dyn_cast<RankedTensorType>(resultType);
    if (!tensorType || failed(getHostType(tensorType.getElementType())))
      return makeError(llvm::formatv(
          "result #{0} of @{1} has type {2}; the reference returns ranked "
          "tensors of f16, bf16, f32, i1, i4, i8, i16, i32, i64 or index only",
          i, name, printed(resultType)));
  }
  return llvm::Error::success();
}

/// Checks `inputs` match the arguments of `name` (of type `type`).
llvm::Error checkInputs(StringRef name, FunctionType type,
                        ArrayRef<HostTensor> inputs) {
  if (type.getNumInputs() != inputs.size())
    return makeError(llvm::formatv("@{0} takes {1} argument(s), the reference "
                                   "was given {2} input(s)",
                                   name, type.getNumInputs(), inputs.size()));
  for (auto [i, argType] : llvm::enumerate(type.getInputs())) {
    auto tensorType = cast<RankedTensorType>(argType);
    FailureOr<HostType> hostType = getHostType(tensorType.getElementType());
    const HostTensor &input = inputs[i];
    if (!acceptsHostType(*hostType, input.type))
      return makeError(llvm::formatv(
          "input #{0} is {1}, argument #{0} of @{2} is {3}", i,
          mlir::spyre::stringifyHostType(input.type), name, printed(argType)));
    ArrayRef<int64_t> expected = tensorType.getShape();
    bool fits =
        static_cast<int64_t>(input.shape.size()) == tensorType.getRank();
    for (size_t d = 0; fits && d < expected.size(); ++d)
      fits = input.shape[d] >= 0 && (ShapedType::isDynamic(expected[d]) ||
                                     expected[d] == input.shape[d]);
    if (!fits)
      return makeError(llvm::formatv(
          "input #{0} has shape {1}, argument #{0} of @{2} has shape {3}", i,
          formatShape(input.shape), name, formatShape(expected)));
    size_t bytes =
        static_cast<size_t>(input.numElements()) * input.elementBytes();
    if (input.data.size() != bytes)
      return makeError(llvm::formatv(
          "input #{0} holds {1} bytes, its shape {2} of {3} needs {4}", i,
          input.data.size(), formatShape(input.shape),
          mlir::spyre::stringifyHostType(input.type), bytes));
  }
  return llvm::Error::success();
}

/// A ranked memref descriptor of any rank for a row-major host array, built
/// by MemRefUtils (whose descriptors have their rank in their type).
template <int Rank>
std::shared_ptr<void> describeArray(char *data, ArrayRef<int64_t> shape) {
  return std::make_shared<StridedMemRefType<char, Rank>>(
      mlir::detail::makeStridedMemRefDescriptor<Rank>(data, data, shape,
                                                      shape));
}
template <size_t... Ranks>
constexpr auto describers(std::index_sequence<Ranks...>) {
  return std::array<std::shared_ptr<void> (*)(char *, ArrayRef<int64_t>),
                    sizeof...(Ranks)>{&describeArray<Ranks>...};
}
/// Ranks the reference passes (any a function is likely to have).
constexpr size_t kMaxReferenceRank = 12;

/// The descriptor of `shape` over `data`, or null beyond kMaxReferenceRank.
std::shared_ptr<void> makeDescriptor(const void *data,
                                     ArrayRef<int64_t> shape) {
  static constexpr auto table =
      describers(std::make_index_sequence<kMaxReferenceRank + 1>());
  if (shape.size() > kMaxReferenceRank)
    return nullptr;
  return table[shape.size()](static_cast<char *>(const_cast<void *>(data)),
                             shape);
}

} // namespace

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

void mlir::spyre::sim::registerReferenceDialects(DialectRegistry &registry) {
  registry
      .insert<affine::AffineDialect, arith::ArithDialect,
              bufferization::BufferizationDialect, cf::ControlFlowDialect,
              func::FuncDialect, linalg::LinalgDialect, LLVM::LLVMDialect,
              math::MathDialect, memref::MemRefDialect, scf::SCFDialect,
              tensor::TensorDialect, ub::UBDialect, vector::VectorDialect>();
  arith::registerBufferizableOpInterfaceExternalModels(registry);
  bufferization::func_ext::registerBufferizableOpInterfaceExternalModels(
      registry);
  linalg::registerBufferizableOpInterfaceExternalModels(registry);
  scf::registerBufferizableOpInterfaceExternalModels(registry);
  tensor::registerBufferizableOpInterfaceExternalModels(registry);
  registry.insert<sparse_tensor::SparseTensorDialect>();
  sparse_tensor::registerBufferizableOpInterfaceExternalModels(registry);
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
}

struct ReferenceProgram::Impl {
  std::unique_ptr<ExecutionEngine> engine;
  std::string function;
  FunctionType signature;
};

ReferenceProgram::ReferenceProgram(std::unique_ptr<Impl> impl)
    : impl(std::move(impl)) {}
ReferenceProgram::ReferenceProgram(ReferenceProgram &&) = default;
ReferenceProgram &ReferenceProgram::operator=(ReferenceProgram &&) = default;
ReferenceProgram::~ReferenceProgram() = default;

llvm::Expected<ReferenceProgram> ReferenceProgram::compile(ModuleOp module,
                                                           StringRef function) {
  MLIRContext *context = module.getContext();
  {
    // Harmless if the caller registered these already (then it is a no-op).
    DialectRegistry registry;
    registerReferenceDialects(registry);
    context->appendDialectRegistry(registry);
  }

  auto original = module.lookupSymbol<func::FuncOp>(function);
  if (!original)
    return makeError("the reference: no function @" + function +
                     " in the module");
  if (original.isExternal())
    return makeError("the reference: @" + function + " has no body");
  if (llvm::Error error = checkSignature(original, std::nullopt))
    return error;
  FunctionType signature = original.getFunctionType();

  // Lower a clone.
  DiagnosticCollector diagnostics(context);
  OwningOpRef<ModuleOp> clone = module.clone();
  auto entry = clone->lookupSymbol<func::FuncOp>(function);
  pruneUnreachable(*clone, entry);
  for (func::FuncOp callee : clone->getOps<func::FuncOp>())
    if (callee.isExternal() && !isRunnerUtility(callee.getSymName()))
      return makeError("the reference: @" + function + " calls @" +
                       callee.getSymName() +
                       ", which has no body (of external functions, the "
                       "reference runs upstream's runner utilities only: " +
                       llvm::join(runnerUtilityNames(), ", ") + ")");
  // A structured op reading the contents of a tensor.empty reads undefined
  // values. An output it accumulates into (a matmul without a fill, as much
  // test IR writes it) is read as zeros, as the device's kernels read it:
  // any value refines an undefined one. An empty read as an input has no
  // such reading: the program has no defined result.
  {
    std::string undefined;
    SmallVector<OpOperand *> zeroed;
    // An input read from an empty through views of it (a slice taken in a
    // loop, a reshape) is as undefined.
    // So is one read from an scf.forall's shared output whose initial value
    // is an empty (each thread reads its own slice of it, which no other
    // iteration writes first). An scf.for's carried value is not followed:
    // a later iteration may read what an earlier one wrote.
    auto readsEmpty = [](Value value) {
      while (true) {
        if (auto arg = dyn_cast<BlockArgument>(value)) {
          auto forall =
              dyn_cast_or_null<scf::ForallOp>(arg.getOwner()->getParentOp());
          OpOperand *init = forall ? forall.getTiedOpOperand(arg) : nullptr;
          if (!init)
            return false;
          value = init->get();
          continue;
        }
        Operation *def = value.getDefiningOp();
        if (isa<tensor::EmptyOp>(def))
          return true;
        if (!isa<tensor::ExtractSliceOp, tensor::ExpandShapeOp,
                 tensor::CollapseShapeOp, tensor::CastOp>(def))
          return false;
        value = def->getOperand(0);
      }
    };
    clone->walk([&](linalg::LinalgOp op) {
      if (!undefined.empty() || !op.hasPureTensorSemantics())
        return;
      for (OpOperand &operand : op->getOpOperands()) {
        if (!op.payloadUsesValueFromOperand(&operand))
          continue;
        bool direct = operand.get().getDefiningOp<tensor::EmptyOp>() != nullptr;
        if (op.isDpsInit(&operand)) {
          if (direct)
            zeroed.push_back(&operand);
          continue;
        }
        if (!readsEmpty(operand.get()))
          continue;
        std::string where;
        llvm::raw_string_ostream os(where);
        op.getLoc().print(os);
        undefined = "'" + op->getName().getStringRef().str() + "' at " + where +
                    " reads its input operand, a tensor.empty (or a view of "
                    "one), whose contents are undefined: the program has no "
                    "defined result (initialize it, e.g. with linalg.fill)";
        return;
      }
    });
    if (!undefined.empty())
      return makeError(undefined);
    for (OpOperand *operand : zeroed) {
      OpBuilder builder(operand->getOwner());
      Location loc = operand->getOwner()->getLoc();
      Type element = getElementTypeOrSelf(operand->get().getType());
      Value zero = arith::ConstantOp::create(builder, loc, element,
                                             builder.getZeroAttr(element));
      Value filled = linalg::FillOp::create(builder, loc, zero, operand->get())
                         .getResult(0);
      operand->set(filled);
    }
  }
  bool sparse = hasSparseTensors(*clone);
  if (sparse)
    entry = densifySignature(*clone, entry);
  prepareFunctions(*clone, entry);
  if (llvm::Error error = decomposeAggregatedOps(*clone))
    return error;
  // Packs and unpacks upstream lowers with static shapes only: a program
  // that hides static sizes behind casts (IREE's dynamic-pack tests) has
  // them back after canonicalization, which computes nothing differently.
  bool dynamicPack = false;
  clone->walk([&](Operation *op) {
    if (isa<linalg::PackOp, linalg::UnPackOp>(op))
      dynamicPack |= llvm::any_of(op->getOperandTypes(), [](Type type) {
        auto shaped = dyn_cast<ShapedType>(type);
        return shaped && !shaped.hasStaticShape();
      });
  });
  if (dynamicPack) {
    PassManager pm(context);
    pm.addPass(createCanonicalizerPass());
    if (llvm::Error error = runPipeline(pm, *clone, diagnostics))
      return error;
  }
  if (llvm::Error error = lowerUnbufferizableOps(*clone))
    return error;
  {
    PassManager pm(context);
    buildGeneralization(pm);
    if (llvm::Error error = runPipeline(pm, *clone, diagnostics))
      return error;
  }
  accumulateReductionsInF32(*clone);
  interchangeContractions(*clone);
  if (llvm::Error error = lowerNarrowFloatExtensions(*clone))
    return error;
  {
    PassManager pm(context);
    buildFloatLegalization(pm);
    if (llvm::Error error = runPipeline(pm, *clone, diagnostics))
      return error;
  }
  stripConversionFastMath(*clone);
  unshareEmptyTensors(*clone);
  markRunnerUtilitiesReadOnly(*clone);
  // Loop nests the function lowers to (one per structured op).
  int64_t loopNests = 0;
  clone->walk([&](linalg::LinalgOp) { ++loopNests; });
  {
    PassManager pm(context);
    buildLowering(pm, sparse);
    if (llvm::Error error = runPipeline(pm, *clone, diagnostics))
      return error;
  }

  // JIT-compile for the host CPU at -O2 (the LLVM vectorizers included).
  // -O3 compiles the examples' largest (attention) almost twice as long and
  // runs none of them faster. A function of very many loop nests is compiled
  // without optimisation: LLVM's loop passes (IndVarSimplify above all)
  // grow faster than the square of the loops in one function (800 nests:
  // 9.7 s at -O1 or -O2), while -O0 stays linear; such functions are chains
  // of small ops, where optimisation saves little run time.
  bool optimise = loopNests <= kMaxOptimisedLoopNests;
  initializeNativeTarget();
  llvm::Expected<llvm::orc::JITTargetMachineBuilder> machineBuilder =
      llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!machineBuilder)
    return makeError("the reference cannot target the host: " +
                     llvm::toString(machineBuilder.takeError()));
  machineBuilder->setCodeGenOptLevel(optimise ? llvm::CodeGenOptLevel::Default
                                              : llvm::CodeGenOptLevel::None);
  llvm::Expected<std::unique_ptr<llvm::TargetMachine>> machine =
      machineBuilder->createTargetMachine();
  if (!machine)
    return makeError("the reference cannot target the host: " +
                     llvm::toString(machine.takeError()));
  std::function<llvm::Error(llvm::Module *)> optimize =
      makeOptimizingTransformer(/*optLevel=*/optimise ? 2 : 0, /*sizeLevel=*/0,
                                machine->get());
  // (The engine compiles with `machine`, whose code generation level is set
  // above; ExecutionEngineOptions::jitCodeGenOptLevel would be ignored.)
  ExecutionEngineOptions options;
  options.transformer = optimize;
  // The sparse runtime library, for what the sparsifier's code leaves to
  // it (reading a tensor from a file); loaded once per process, the paths
  // outliving the engine's creation.
  static const StringRef runtimeLibraries[] = {SPYRE_C_RUNNER_UTILS_PATH};
  if (sparse)
    options.sharedLibPaths = runtimeLibraries;
  options.enableGDBNotificationListener = false;
  options.enablePerfNotificationListener = false;
  llvm::Expected<std::unique_ptr<ExecutionEngine>> engine =
      ExecutionEngine::create(*clone, options, std::move(*machine));
  if (!engine)
    return makeError("the reference cannot JIT-compile @" + function + ": " +
                     llvm::toString(engine.takeError()) + diagnostics.suffix());
  (*engine)->registerSymbols([](llvm::orc::MangleAndInterner interner) {
    llvm::orc::SymbolMap symbols;
    symbols[interner("malloc")] = symbolFor(&referenceMalloc);
    symbols[interner("calloc")] = symbolFor(&referenceCalloc);
    symbols[interner("aligned_alloc")] = symbolFor(&referenceAlignedAlloc);
    symbols[interner("free")] = symbolFor(&referenceFree);
    // memref.copy between non-contiguous memrefs: the runner utils'.
    symbols[interner("memrefCopy")] = symbolFor(&memrefCopy);
    // vector.print: the runner utils' printers (to stdout).
    symbols[interner("printI64")] = symbolFor(&printI64);
    symbols[interner("printU64")] = symbolFor(&printU64);
    symbols[interner("printF32")] = symbolFor(&printF32);
    symbols[interner("printF64")] = symbolFor(&printF64);
    symbols[interner("printString")] = symbolFor(&printString);
    symbols[interner("printOpen")] = symbolFor(&printOpen);
    symbols[interner("printClose")] = symbolFor(&printClose);
    symbols[interner("printComma")] = symbolFor(&printComma);
    symbols[interner("printNewline")] = symbolFor(&printNewline);
    // spyre.quantize on the host (lowerQuantize).
    symbols[interner("spyreQuantizeHost")] = symbolFor(&spyreQuantizeHost);
    // What programs written for mlir-runner declare and call (timing and
    // printing memrefs), from upstream's runner utilities.
    for (const RunnerUtility &utility : runnerUtilities())
      symbols[interner(utility.name)] = utility.symbol;
    return symbols;
  });
  auto impl = std::make_unique<Impl>();
  impl->engine = std::move(*engine);
  impl->function = function.str();
  impl->signature = signature;
  return ReferenceProgram(std::move(impl));
}

namespace {
/// Where a fault in JIT-compiled code on this thread returns to, and which
/// signal it was.
thread_local sigjmp_buf *faultReturn = nullptr;
thread_local volatile sig_atomic_t faultSignal = 0;

/// The signals a call of generated code survives: arithmetic faults
/// (integer division by zero or overflow) and memory faults (an index out
/// of range, which random index tensors cause where their use is not seen).
constexpr int kGuardedSignals[] = {SIGFPE, SIGSEGV, SIGBUS};

void onFault(int signal) {
  if (faultReturn) {
    faultSignal = signal;
    siglongjmp(*faultReturn, 1);
  }
  // Not ours: the default action.
  std::signal(signal, SIG_DFL);
  std::raise(signal);
}

/// Calls `name` through the engine; a fault in the generated code ends the
/// call with `fault` set (what happened and the likely cause) instead of
/// killing the process. The generated code holds no destructors or locks,
/// and the blocks it allocated are the caller's BlockScope's to free.
llvm::Error invokeGuarded(ExecutionEngine &engine, const std::string &name,
                          SmallVectorImpl<void *> &packed, std::string &fault) {
  static std::mutex installing;
  struct sigaction action = {};
  struct sigaction previous[std::size(kGuardedSignals)] = {};
  action.sa_handler = onFault;
  sigemptyset(&action.sa_mask);
  {
    std::lock_guard<std::mutex> lock(installing);
    for (auto [signal, old] : llvm::zip(kGuardedSignals, previous))
      sigaction(signal, &action, &old);
  }
  sigjmp_buf here;
  sigjmp_buf *outer = faultReturn;
  llvm::Error error = llvm::Error::success();
  if (sigsetjmp(here, /*savemask=*/1) == 0) {
    faultReturn = &here;
    error = engine.invokePacked(name, packed);
  } else if (faultSignal == SIGFPE) {
    fault = "stopped with an arithmetic fault (SIGFPE) on the host (e.g. an "
            "integer division by zero: --random-inputs draws zeros; give the "
            "inputs with --input)";
  } else {
    fault = "stopped with a memory fault (SIGSEGV or SIGBUS) on the host (an "
            "index out of range? --random-inputs draws an index tensor within "
            "the dim it indexes only where it sees it used as an index; give "
            "the inputs with --input)";
  }
  faultReturn = outer;
  {
    std::lock_guard<std::mutex> lock(installing);
    for (auto [signal, old] : llvm::zip(kGuardedSignals, previous))
      sigaction(signal, &old, nullptr);
  }
  return error;
}
} // namespace

llvm::Expected<std::vector<HostTensor>>
ReferenceProgram::run(ArrayRef<HostTensor> inputs) const {
  ExecutionEngine &engine = *impl->engine;
  StringRef function = impl->function;
  FunctionType signature = impl->signature;
  if (llvm::Error error = checkInputs(function, signature, inputs))
    return std::move(error);

  // Argument descriptors. Inputs are passed in place (the arguments are not
  // writable), except i1 and i4, normalized to what LLVM stores for them (a
  // byte 0/1, the low nibble zero-extended).
  std::vector<std::vector<uint8_t>> normalized;
  SmallVector<std::shared_ptr<void>> argDescriptors;
  for (const HostTensor &input : inputs) {
    const void *data = input.data.data();
    if (input.type == HostType::Bool || input.type == HostType::Int4) {
      std::vector<uint8_t> &copy = normalized.emplace_back(input.data);
      for (uint8_t &byte : copy)
        byte = input.type == HostType::Bool ? (byte != 0) : (byte & 0xF);
      data = copy.data();
    }
    std::shared_ptr<void> descriptor = makeDescriptor(data, input.shape);
    if (!descriptor)
      return makeError(llvm::formatv(
          "the reference passes tensors of rank {0} at most, not {1}",
          kMaxReferenceRank, input.shape.size()));
    argDescriptors.push_back(std::move(descriptor));
  }
  SmallVector<void *> argPointers;
  for (std::shared_ptr<void> &descriptor : argDescriptors)
    argPointers.push_back(descriptor.get());

  // Result descriptors, back to back: the C interface returns one result
  // through a pointer to its descriptor, several through a pointer to a
  // struct of them (all fields 8 bytes, so the struct is their
  // concatenation). Each is read as an unranked view of its words.
  SmallVector<int64_t> resultOffsets;
  int64_t resultWords = 0;
  for (Type type : signature.getResults()) {
    resultOffsets.push_back(resultWords);
    resultWords += 3 + 2 * cast<RankedTensorType>(type).getRank();
  }
  SmallVector<int64_t> results(resultWords, 0);
  void *resultPointer = results.data();

  SmallVector<void *> packed;
  if (signature.getNumResults() > 0)
    packed.push_back(&resultPointer);
  for (void *&pointer : argPointers)
    packed.push_back(&pointer);

  std::vector<HostTensor> outputs;
  {
    BlockScope blocks;
    std::string fault;
    llvm::Error error =
        invokeGuarded(engine, "_mlir_ciface_" + function.str(), packed, fault);
    if (!fault.empty()) {
      llvm::consumeError(std::move(error));
      return makeError("@" + function + " " + fault);
    }
    if (error)
      return makeError("the reference cannot call @" + function + ": " +
                       llvm::toString(std::move(error)));

    // Copy the results out before `blocks` frees them.
    for (auto [i, type] : llvm::enumerate(signature.getResults())) {
      auto tensorType = cast<RankedTensorType>(type);
      int64_t rank = tensorType.getRank();
      DynamicMemRefType<char> result(
          ::UnrankedMemRefType<char>{rank, results.data() + resultOffsets[i]});
      ArrayRef<int64_t> sizes(result.sizes, rank);
      ArrayRef<int64_t> strides(result.strides, rank);
      for (auto [size, expected] : llvm::zip(sizes, tensorType.getShape()))
        if (size < 0 || (!ShapedType::isDynamic(expected) && size != expected))
          return makeError(llvm::formatv(
              "the reference: result #{0} of @{1} came back with shape {2}, "
              "expected {3}",
              i, function, formatShape(sizes),
              formatShape(tensorType.getShape())));
      HostTensor &output = outputs.emplace_back(
          *getHostType(tensorType.getElementType()), sizes);
      if (output.data.empty())
        continue;
      int64_t elementBytes = output.elementBytes();
      const auto *source = reinterpret_cast<const uint8_t *>(result.data) +
                           result.offset * elementBytes;
      stridedCopy(source, strides, output.data.data(),
                  hostRowMajorStrides(output.shape), sizes, elementBytes);
      if (output.type == HostType::Bool)
        for (uint8_t &byte : output.data)
          byte &= 1;
      else if (output.type == HostType::Int4)
        for (uint8_t &byte : output.data)
          byte = static_cast<uint8_t>(static_cast<int8_t>(byte << 4) >> 4);
    }
  }
  return outputs;
}

llvm::Expected<std::vector<HostTensor>>
mlir::spyre::sim::runReference(ModuleOp module, StringRef function,
                               ArrayRef<HostTensor> inputs) {
  llvm::Expected<ReferenceProgram> program =
      ReferenceProgram::compile(module, function);
  if (!program)
    return program.takeError();
  return program->run(inputs);
}
