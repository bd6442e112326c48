//===- SpyreComputeOps.cpp - spyre compute, view and constant ops
//----------===//
//
// Indexing maps, iterator types and verification shared by every compute op
// class, plus the view ops (transpose, reshape), pad and constant.
//
//===----------------------------------------------------------------------===//

#include "Spyre/Dialect/Spyre/IR/Spyre.h"
#include "Spyre/Dialect/Spyre/IR/StickRules.h"
#include "Spyre/Layout/Stickify.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/STLExtras.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::spyre;

#include "Spyre/Dialect/Spyre/IR/SpyreInterfaces.cpp.inc"

//===----------------------------------------------------------------------===//
// Shared structure of compute ops
//===----------------------------------------------------------------------===//

unsigned mlir::spyre::detail::getNumLoops(Operation *op) {
  SmallVector<AffineMap> maps =
      cast<KernelPayloadOpInterface>(op).getIndexingMapsArray();
  return maps.empty() ? 0 : maps.front().getNumDims();
}

SmallVector<utils::IteratorType>
mlir::spyre::detail::getIteratorTypes(Operation *op) {
  SmallVector<AffineMap> maps =
      cast<KernelPayloadOpInterface>(op).getIndexingMapsArray();
  unsigned numLoops = maps.front().getNumDims();
  SmallVector<utils::IteratorType> iterators(numLoops,
                                             utils::IteratorType::reduction);
  for (AffineExpr expr : maps.back().getResults())
    if (auto dim = dyn_cast<AffineDimExpr>(expr))
      iterators[dim.getPosition()] = utils::IteratorType::parallel;
  return iterators;
}

SmallVector<int64_t> mlir::spyre::detail::getStaticLoopRanges(Operation *op) {
  SmallVector<AffineMap> maps =
      cast<KernelPayloadOpInterface>(op).getIndexingMapsArray();
  SmallVector<int64_t> ranges(maps.front().getNumDims(), ShapedType::kDynamic);
  SmallVector<Type> types(op->getOperandTypes());
  types.push_back(op->getResult(0).getType());
  for (auto [map, type] : llvm::zip(maps, types)) {
    ArrayRef<int64_t> shape = cast<RankedTensorType>(type).getShape();
    for (auto [i, expr] : llvm::enumerate(map.getResults()))
      if (auto dim = dyn_cast<AffineDimExpr>(expr))
        if (ranges[dim.getPosition()] == ShapedType::kDynamic)
          ranges[dim.getPosition()] = shape[i];
  }
  return ranges;
}

int mlir::spyre::getOpDimOf(AffineExpr expr, int64_t *divisor) {
  if (divisor)
    *divisor = 1;
  if (auto dim = dyn_cast<AffineDimExpr>(expr))
    return static_cast<int>(dim.getPosition());
  auto binary = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!binary || binary.getKind() != AffineExprKind::FloorDiv)
    return -1;
  auto dim = dyn_cast<AffineDimExpr>(binary.getLHS());
  auto q = dyn_cast<AffineConstantExpr>(binary.getRHS());
  if (!dim || !q || q.getValue() <= 0)
    return -1;
  if (divisor)
    *divisor = q.getValue();
  return static_cast<int>(dim.getPosition());
}

LogicalResult mlir::spyre::detail::verifyComputeOp(Operation *op,
                                                   bool allowBlocks) {
  auto compute = cast<ComputeOpInterface>(op);
  SmallVector<AffineMap> maps = compute.getIndexingMapsArray();
  unsigned numOperands = op->getNumOperands() + 1;
  if (maps.size() != numOperands)
    return op->emitOpError("expects ")
           << numOperands << " indexing maps (inputs, then the result), got "
           << maps.size();
  SmallVector<Type> types(op->getOperandTypes());
  types.push_back(op->getResult(0).getType());
  unsigned numLoops = maps.front().getNumDims();
  SmallVector<int64_t> extents(numLoops, ShapedType::kDynamic);
  SmallVector<int> seenBy(numLoops, -1);
  for (auto [i, map, type] : llvm::enumerate(maps, types)) {
    bool isResult = i + 1 == maps.size();
    size_t index = i; // lambdas cannot capture structured bindings (C++17)
    auto name = [&]() -> std::string {
      return isResult ? "the result" : "input #" + std::to_string(index);
    };
    auto tensorType = cast<RankedTensorType>(type);
    if (!tensorType.hasStaticShape())
      return op->emitOpError() << name() << " must have a static shape";
    if (map.getNumDims() != numLoops || map.getNumSymbols() != 0)
      return op->emitOpError("indexing map of ")
             << name() << " must have " << numLoops << " dims and no symbols";
    if (!allowBlocks &&
        !map.isProjectedPermutation(/*allowZeroInResults=*/false))
      return op->emitOpError("indexing map of ")
             << name() << " must be a projected permutation, got "
             << AffineMapAttr::get(map);
    if (map.getNumResults() != static_cast<unsigned>(tensorType.getRank()))
      return op->emitOpError("indexing map of ")
             << name() << " has " << map.getNumResults()
             << " results but the tensor has rank " << tensorType.getRank();
    for (auto [j, expr] : llvm::enumerate(map.getResults())) {
      int64_t divisor = 1;
      int opDim = getOpDimOf(expr, &divisor);
      // Blocks: `dN floordiv q` spans ceil(extent / q); a constant, 1.
      if (allowBlocks && (opDim < 0 || divisor != 1)) {
        bool zero = isa<AffineConstantExpr>(expr) &&
                    cast<AffineConstantExpr>(expr).getValue() == 0;
        if (opDim < 0 && !zero)
          return op->emitOpError("indexing map of ")
                 << name() << " may hold dims, `d floordiv q` and 0, not "
                 << AffineMapAttr::get(map);
        continue;
      }
      unsigned d = static_cast<unsigned>(opDim);
      int64_t size = tensorType.getDimSize(j);
      if (extents[d] == ShapedType::kDynamic) {
        extents[d] = size;
        seenBy[d] = static_cast<int>(i);
      } else if (extents[d] != size) {
        return op->emitOpError("op dim d")
               << d << " has extent " << extents[d] << " in "
               << (seenBy[d] + 1 == static_cast<int>(maps.size())
                       ? std::string("the result")
                       : "input #" + std::to_string(seenBy[d]))
               << " but " << size << " in " << name();
      }
    }
  }
  for (unsigned d = 0; d < numLoops; ++d)
    if (extents[d] == ShapedType::kDynamic)
      return op->emitOpError("op dim d") << d << " is used by no operand";
  if (failed(verifyStickRule(compute)))
    return failure();
  if (failed(verifyArrangements(compute)))
    return failure();
  return verifyDeviceFormats(compute);
}

/// Whether `type` is laid out with a real stick dim (not per-row).
static bool hasDenseStick(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !getLayoutAttr(tensor))
    return false;
  llvm::Expected<BoundLayout> bound = bindLayout(tensor);
  if (!bound) {
    llvm::consumeError(bound.takeError());
    return false;
  }
  return bound->stickHostDim() >= 0;
}

SmallVector<unsigned> mlir::spyre::getLaneOperands(ComputeOpInterface op) {
  SmallVector<unsigned> lanes;
  StickRule rule = op.getStickRule();
  if (rule != StickRule::Pointwise && rule != StickRule::Reduction)
    return lanes;
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  for (unsigned i = 0, e = op->getNumOperands(); i < e; ++i)
    if (maps[i].getNumResults() > 0 &&
        !op.getRequiredArrangement(i).has_value() &&
        hasDenseStick(op->getOperand(i).getType()))
      lanes.push_back(i);
  return lanes;
}

ElementArrangement mlir::spyre::inferResultArrangement(ComputeOpInterface op) {
  if (std::optional<ElementArrangement> required =
          op.getRequiredArrangement(op->getNumOperands()))
    return *required;
  if (!hasDenseStick(op->getResult(0).getType()))
    return ElementArrangement::Standard;
  for (unsigned i : getLaneOperands(op)) {
    ElementArrangement arrangement =
        getLayoutAttr(op->getOperand(i).getType()).getArrangement();
    if (arrangement != ElementArrangement::Standard)
      return arrangement;
  }
  return ElementArrangement::Standard;
}

LogicalResult mlir::spyre::detail::verifyArrangements(ComputeOpInterface op) {
  SmallVector<Type> types(op->getOperandTypes());
  types.push_back(op->getResult(0).getType());
  auto nameOf = [&](size_t i) {
    return i + 1 == types.size() ? std::string("the result")
                                 : "input #" + std::to_string(i);
  };
  auto spell = [](ElementArrangement a) {
    return stringifyElementArrangement(a).lower();
  };
  for (auto [i, type] : llvm::enumerate(types)) {
    LayoutAttr layout = getLayoutAttr(type);
    if (!layout)
      continue;
    ElementArrangement actual = layout.getArrangement();
    std::optional<ElementArrangement> required =
        op.getRequiredArrangement(static_cast<unsigned>(i));
    if (required ? actual == *required : actual != ElementArrangement::EXX2)
      continue;
    InFlightDiagnostic diag = op.emitOpError()
                              << nameOf(i) << " has element arrangement "
                              << spell(actual);
    if (required)
      return diag << ", but it must be " << spell(*required);
    return diag << ", which only the layer-norm family reads (two statistics "
                   "per stick)";
  }
  // Lanes are combined positionally (torch-spyre's validate_ops): the
  // operands read lane by lane share one element order, which the result
  // keeps.
  SmallVector<unsigned> lanes = getLaneOperands(op);
  for (unsigned i : lanes) {
    ElementArrangement first =
        getLayoutAttr(types[lanes.front()]).getArrangement();
    ElementArrangement actual = getLayoutAttr(types[i]).getArrangement();
    if (actual != first)
      return op.emitOpError()
             << "input #" << lanes.front() << " has element arrangement "
             << spell(first) << " but input #" << i << " has " << spell(actual)
             << "; inputs combined lane by lane need one element order";
  }
  // An op reading no lanes (a fill, a broadcast row value) repeats one value
  // across each stick: any order is its order.
  if (!lanes.empty() && hasDenseStick(types.back()) &&
      !op.getRequiredArrangement(op->getNumOperands())) {
    ElementArrangement want = inferResultArrangement(op);
    ElementArrangement actual = getLayoutAttr(types.back()).getArrangement();
    if (actual != want)
      return op.emitOpError()
             << "the result has element arrangement " << spell(actual)
             << ", but its inputs' lanes are in " << spell(want)
             << " order, which a lane-by-lane op keeps";
  }
  return success();
}

LogicalResult mlir::spyre::detail::verifyDeviceFormats(ComputeOpInterface op) {
  SmallVector<Type> types(op->getOperandTypes());
  types.push_back(op->getResult(0).getType());
  for (Type type : types) {
    LayoutAttr layout = getLayoutAttr(type);
    if (!layout)
      continue;
    FailureOr<DataFormat> format =
        layout.getFormatFor(cast<RankedTensorType>(type).getElementType());
    if (failed(format))
      continue; // reported by the encoding verifier
    auto payload = cast<KernelPayloadOpInterface>(op.getOperation());
    if (!payload.supportsDataFormat(*format))
      return op.emitOpError("runs '")
             << payload.getOpFuncName()
             << "', which the device does not compute on "
             << stringifyDataFormat(*format) << " data";
  }
  return success();
}

SmallVector<AffineMap> mlir::spyre::detail::getCopyIndexingMaps(Operation *op) {
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  AffineMap identity =
      AffineMap::getMultiDimIdentityMap(type.getRank(), op->getContext());
  return {identity, identity};
}

//===----------------------------------------------------------------------===//
// Pointwise ops
//===----------------------------------------------------------------------===//

SmallVector<AffineMap>
mlir::spyre::detail::getPointwiseIndexingMaps(Operation *op, ArrayAttr maps) {
  if (maps)
    return llvm::to_vector(maps.getAsValueRange<AffineMapAttr>());
  MLIRContext *context = op->getContext();
  int64_t rank = cast<RankedTensorType>(op->getResult(0).getType()).getRank();
  SmallVector<AffineMap> result;
  for (Type type : op->getOperandTypes()) {
    int64_t inputRank = cast<RankedTensorType>(type).getRank();
    // Same rank: identity; rank 0: a scalar. Anything else needs explicit
    // maps (the verifier says so); align to the trailing dims meanwhile.
    result.push_back(AffineMap::getMinorIdentityMap(
        rank, std::min(inputRank, rank), context));
  }
  result.push_back(AffineMap::getMultiDimIdentityMap(rank, context));
  return result;
}

LogicalResult mlir::spyre::detail::verifyPointwiseOp(Operation *op,
                                                     unsigned numInputs,
                                                     ElementRule rule) {
  if (op->getNumOperands() != numInputs)
    return op->emitOpError("expects ")
           << numInputs << " input" << (numInputs == 1 ? "" : "s") << ", got "
           << op->getNumOperands();
  auto result = cast<RankedTensorType>(op->getResult(0).getType());
  auto mapsAttr = op->getAttrOfType<ArrayAttr>("indexing_maps");
  if (mapsAttr) {
    AffineMap resultMap =
        cast<AffineMapAttr>(mapsAttr.getValue().back()).getValue();
    if (!resultMap.isIdentity())
      return op->emitOpError("the result's indexing map must be the identity "
                             "(the op dims are the result's dims), got ")
             << AffineMapAttr::get(resultMap);
  } else {
    for (auto [i, type] : llvm::enumerate(op->getOperandTypes())) {
      int64_t rank = cast<RankedTensorType>(type).getRank();
      if (rank != 0 && rank != result.getRank())
        return op->emitOpError("input #")
               << i << " has rank " << rank << " but the result has rank "
               << result.getRank()
               << "; give indexing_maps to say how it broadcasts";
    }
  }
  SmallVector<Type> elements;
  for (Type type : op->getOperandTypes())
    elements.push_back(cast<RankedTensorType>(type).getElementType());
  Type resultElement = result.getElementType();
  auto mismatch = [&](unsigned i, Type expected) {
    return op->emitOpError("input #")
           << i << " has element type " << elements[i] << " but " << expected
           << " is expected";
  };
  switch (rule) {
  case ElementRule::Same:
    for (unsigned i = 0; i < elements.size(); ++i)
      if (elements[i] != resultElement)
        return mismatch(i, resultElement);
    break;
  case ElementRule::Compare:
    if (!resultElement.isInteger(1))
      return op->emitOpError("a comparison produces i1, not ") << resultElement;
    if (elements[1] != elements[0])
      return mismatch(1, elements[0]);
    break;
  case ElementRule::Select:
    if (!elements[0].isInteger(1))
      return mismatch(0, IntegerType::get(op->getContext(), 1));
    for (unsigned i = 1; i < 3; ++i)
      if (elements[i] != resultElement)
        return mismatch(i, resultElement);
    break;
  }
  return verifyComputeOp(op);
}

LogicalResult ClipOp::verify() {
  if (getInput().getType().getShape() != getType().getShape() ||
      getInput().getType().getElementType() != getType().getElementType())
    return emitOpError("result must have the input's shape and element type");
  if (getMin().convertToDouble() > getMax().convertToDouble())
    return emitOpError("min ") << getMin().convertToDouble() << " exceeds max "
                               << getMax().convertToDouble();
  return detail::verifyComputeOp(*this);
}

StringRef ConvertOp::getOpFuncName() {
  // By device format: bf16 is stored as DL16 like f16 (the transfer
  // converts it), so its conversions are DL16's.
  Type from = getInput().getType().getElementType();
  Type to = getType().getElementType();
  auto isDl16 = [](Type t) { return t.isF16() || t.isBF16(); };
  if (isDl16(from) && to.isF32())
    return "dl16tofp32";
  if (from.isF32() && isDl16(to))
    return "fp32todl16";
  if (isDl16(from) && isDl16(to))
    return "identity";
  if (isDeviceFp8(from) && isDl16(to))
    return "fp8todl16";
  if (isDl16(from) && isDeviceFp8(to))
    return "qfp8ch";
  return "";
}

bool ConvertOp::matchesScalarOp(Operation *op) {
  return isa<arith::ExtFOp, arith::TruncFOp>(op);
}

Operation *ConvertOp::buildElementwise(OpBuilder &builder, Location loc,
                                       Type resultType, ValueRange inputs,
                                       ArrayAttr) {
  return ConvertOp::create(builder, loc, resultType, inputs.front())
      .getOperation();
}

std::optional<ElementArrangement>
ConvertOp::getRequiredArrangement(unsigned operand) {
  if (operand == 0)
    return std::nullopt;
  return getOpFuncName() == "dl16tofp32" ? ElementArrangement::DL16ToFP32
                                         : ElementArrangement::Standard;
}

LogicalResult ConvertOp::verify() {
  if (getInput().getType().getShape() != getType().getShape())
    return emitOpError("result must have the input's shape");
  if (getOpFuncName().empty())
    return emitOpError("unsupported conversion from ")
           << getInput().getType().getElementType() << " to "
           << getType().getElementType()
           << "; the device converts f16 or bf16 <-> f32, f16 <-> bf16, "
              "fp8 -> f16 and f16 -> fp8";
  return detail::verifyComputeOp(*this);
}

//===----------------------------------------------------------------------===//
// Extract slice
//===----------------------------------------------------------------------===//

/// Bytes from the first device byte of `bound` to the box at `offsets`, or
/// a reason when the box does not start on a device position of every dim
/// (an inner piece of a dim, or a lane of the stick, not at 0). With
/// `lanesOk`, a position inside a stick passes.
static FailureOr<int64_t> boxStartBytes(const BoundLayout &bound,
                                        ArrayRef<int64_t> offsets,
                                        std::string &reason,
                                        bool lanesOk = false) {
  SmallVector<int64_t, 8> coord = bound.deviceCoord(offsets);
  ArrayRef<BoundLayout::DimRole> roles = bound.roles();
  for (auto [h, offset] : llvm::enumerate(offsets)) {
    if (offset == 0)
      continue;
    // The piece with the largest multiplier takes the offset; every other
    // piece of the dim, and the stick's lanes, must start at 0.
    int outer = -1;
    for (int d : bound.piecesOf(static_cast<int>(h)))
      if (outer < 0 || roles[d].multiplier > roles[outer].multiplier)
        outer = d;
    for (int d : bound.piecesOf(static_cast<int>(h))) {
      bool isStick = d + 1 == static_cast<int>(roles.size());
      if ((d != outer || isStick) && coord[d] != 0 && !(isStick && lanesOk)) {
        int64_t span =
            isStick ? bound.layout().elemsPerStick() : roles[outer].multiplier;
        reason = "offset " + std::to_string(offset) + " of dim " +
                 std::to_string(h) + " is not a multiple of " +
                 std::to_string(span) + ", the elements one device position " +
                 (isStick ? "(a stick)" : "of that dim") + " holds";
        return failure();
      }
    }
  }
  return bound.deviceOffset(offsets) / bound.layout().elemsPerStick() *
         bound.layout().stickBytes();
}

/// Checks that `box` at `offsets` lies inside `whole` (named `wholeName`).
static LogicalResult verifyBoxBounds(Operation *op, ArrayRef<int64_t> offsets,
                                     RankedTensorType box,
                                     RankedTensorType whole,
                                     StringRef wholeName) {
  if (offsets.size() != static_cast<size_t>(whole.getRank()))
    return op->emitOpError("needs ")
           << whole.getRank() << " offsets, got " << offsets.size();
  for (auto [d, offset] : llvm::enumerate(offsets))
    if (offset < 0 || offset + box.getDimSize(d) > whole.getDimSize(d))
      return op->emitOpError("the box [")
             << offset << ", " << offset + box.getDimSize(d) << ") of dim " << d
             << " lies outside the " << wholeName << "'s "
             << whole.getDimSize(d) << " elements";
  return success();
}

/// Bytes from the first device byte of the laid-out `type` to its box at
/// `offsets`; failure without a layout or for a box not of device positions.
static FailureOr<int64_t> windowBytes(RankedTensorType type,
                                      ArrayRef<int64_t> offsets) {
  if (!getLayoutAttr(type))
    return failure();
  llvm::Expected<BoundLayout> bound = bindLayout(type);
  if (!bound) {
    llvm::consumeError(bound.takeError());
    return failure();
  }
  std::string reason;
  return boxStartBytes(*bound, offsets, reason);
}

FailureOr<int64_t> ExtractSliceOp::getWindowBytes() {
  return windowBytes(getInput().getType(), getOffsets());
}

/// The one host dim along which `box` at `offsets` is a block of `whole`
/// (every other dim whole), or nullopt.
static std::optional<unsigned> cutDimOf(RankedTensorType whole,
                                        RankedTensorType box,
                                        ArrayRef<int64_t> offsets) {
  if (whole.getRank() != box.getRank() ||
      static_cast<int64_t>(offsets.size()) != box.getRank())
    return std::nullopt;
  std::optional<unsigned> cut;
  for (int64_t d = 0, e = box.getRank(); d < e; ++d) {
    if (offsets[d] == 0 && box.getDimSize(d) == whole.getDimSize(d))
      continue;
    if (cut)
      return std::nullopt;
    cut = d;
  }
  return cut;
}

std::optional<unsigned> ExtractSliceOp::getCutDim() {
  return cutDimOf(getInput().getType(), getType(), getOffsets());
}

bool ExtractSliceOp::isView() {
  RankedTensorType inputType = getInput().getType(), type = getType();
  LayoutAttr input = getLayoutAttr(inputType);
  ArrayRef<int64_t> offsets = getOffsets();
  // (Called from verifiers on ops not verified yet.)
  if (!input || !getLayoutAttr(type) || inputType.getRank() != type.getRank() ||
      static_cast<int64_t>(offsets.size()) != type.getRank())
    return false;
  if (input == getLayoutAttr(type) &&
      llvm::all_of(offsets, [](int64_t o) { return o == 0; }))
    return true;
  // A block of rows laid out as the input's restricted to them, whose
  // device dim comes first: its bytes are a contiguous range of the
  // input's, at the box's start.
  std::optional<unsigned> cut = getCutDim();
  if (!cut || failed(getWindowBytes()))
    return false;
  // A strided block: the input's device strides from the window on.
  FailureOr<RankedTensorType> strided =
      getRowBlockType(inputType, *cut, type.getDimSize(*cut),
                      /*deviceDim=*/nullptr, /*strided=*/true);
  if (succeeded(strided) && *strided == type)
    return true;
  // A block of whole sticks along the stick's dim, read the same way.
  FailureOr<RankedTensorType> sticks =
      getStickBlockType(inputType, *cut, type.getDimSize(*cut));
  if (succeeded(sticks) && *sticks == type)
    return true;
  unsigned deviceDim = 0;
  FailureOr<RankedTensorType> block =
      getRowBlockType(inputType, *cut, type.getDimSize(*cut), &deviceDim);
  if (failed(block) || *block != type)
    return false;
  ArrayRef<int64_t> deviceSize = input.getDeviceSize();
  return llvm::all_of(deviceSize.take_front(deviceDim),
                      [](int64_t size) { return size == 1; });
}

LogicalResult ExtractSliceOp::verify() {
  RankedTensorType input = getInput().getType(), result = getType();
  if (input.getRank() != result.getRank() ||
      input.getElementType() != result.getElementType())
    return emitOpError("the box must have the input's rank and element type");
  ArrayRef<int64_t> offsets = getOffsets();
  if (failed(verifyBoxBounds(getOperation(), offsets, result, input, "input")))
    return failure();
  if (getLayoutAttr(input)) {
    llvm::Expected<BoundLayout> bound = bindLayout(input);
    if (bound) {
      std::string reason;
      if (failed(boxStartBytes(*bound, offsets, reason)))
        return emitOpError("the box is not one of device positions: ")
               << reason;
    } else {
      llvm::consumeError(bound.takeError()); // the encoding verifier reports
    }
  }
  // The input is larger than the op dims: only the stick rule and the
  // formats of verifyComputeOp apply.
  if (failed(verifyStickRule(*this)))
    return failure();
  return detail::verifyDeviceFormats(*this);
}

//===----------------------------------------------------------------------===//
// Insert slice
//===----------------------------------------------------------------------===//

bool InsertSliceOp::isStickAligned(unsigned dim, int64_t elemsPerStick) {
  int64_t offset = getOffsets()[dim];
  int64_t end = offset + getSource().getType().getDimSize(dim);
  return offset % elemsPerStick == 0 &&
         (end % elemsPerStick == 0 ||
          end == getDest().getType().getDimSize(dim) || getFill());
}

FailureOr<int64_t> InsertSliceOp::getWindowBytes() {
  return windowBytes(getDest().getType(), getOffsets());
}

std::optional<unsigned> InsertSliceOp::getCutDim() {
  return cutDimOf(getDest().getType(), getSource().getType(), getOffsets());
}

LogicalResult InsertSliceOp::verify() {
  RankedTensorType source = getSource().getType(), dest = getDest().getType();
  if (source.getRank() != dest.getRank() ||
      source.getElementType() != dest.getElementType())
    return emitOpError("the source must have the destination's rank and "
                       "element type");
  if (withoutLayout(getType()) != withoutLayout(dest))
    return emitOpError("the result must have the destination's type");
  ArrayRef<int64_t> offsets = getOffsets();
  if (failed(verifyBoxBounds(getOperation(), offsets, source, dest,
                             "destination")))
    return failure();
  if (getLayoutAttr(dest)) {
    llvm::Expected<BoundLayout> bound = bindLayout(dest);
    // The result is the destination's buffer: the same bytes (its layout
    // may spell unit device dims differently).
    if (getLayoutAttr(getType()) != getLayoutAttr(dest)) {
      llvm::Expected<BoundLayout> result = bindLayout(getType());
      bool same =
          bound && result && sameDeviceBytes(bound->layout(), result->layout());
      if (!result)
        llvm::consumeError(result.takeError());
      if (!same) {
        if (!bound)
          llvm::consumeError(bound.takeError());
        return emitOpError("the result must place every element at the "
                           "destination's bytes (it is the destination's "
                           "buffer)");
      }
    }
    if (bound) {
      std::string reason;
      if (failed(boxStartBytes(*bound, offsets, reason)))
        return emitOpError("the box is not one of device positions: ")
               << reason;
      // Its end too, where it is not the end of the dim.
      for (auto [d, offset] : llvm::enumerate(offsets)) {
        int64_t end = offset + source.getDimSize(d);
        if (end == dest.getDimSize(d))
          continue;
        SmallVector<int64_t> at(dest.getRank(), 0);
        at[d] = end;
        if (failed(boxStartBytes(*bound, at, reason,
                                 /*lanesOk=*/getFill().has_value())))
          return emitOpError("the box does not end on a device position: ")
                 << reason << " (give a fill value when the destination "
                 << "holds it there)";
      }
    } else {
      llvm::consumeError(bound.takeError()); // the encoding verifier reports
    }
  }
  if (failed(verifyStickRule(*this)))
    return failure();
  return detail::verifyDeviceFormats(*this);
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

SmallVector<AffineMap>
mlir::spyre::detail::getReductionIndexingMaps(Operation *op, int64_t dim) {
  MLIRContext *context = op->getContext();
  unsigned rank = static_cast<unsigned>(
      cast<RankedTensorType>(op->getOperand(0).getType()).getRank());
  SmallVector<AffineExpr> kept;
  for (unsigned d = 0; d < rank; ++d)
    if (static_cast<int64_t>(d) != dim)
      kept.push_back(getAffineDimExpr(d, context));
  return {AffineMap::getMultiDimIdentityMap(rank, context),
          AffineMap::get(rank, 0, kept, context)};
}

LogicalResult mlir::spyre::detail::verifyReductionOp(Operation *op,
                                                     int64_t dim) {
  auto input = cast<RankedTensorType>(op->getOperand(0).getType());
  auto result = cast<RankedTensorType>(op->getResult(0).getType());
  if (dim < 0 || dim >= input.getRank())
    return op->emitOpError("dim ") << dim << " is not a dim of the rank-"
                                   << input.getRank() << " input";
  SmallVector<int64_t> expected(input.getShape());
  expected.erase(expected.begin() + dim);
  if (result.getShape() != ArrayRef<int64_t>(expected))
    return op->emitOpError("result shape [")
           << result.getShape() << "] must be the input shape without dim "
           << dim << ", i.e. [" << ArrayRef<int64_t>(expected) << "]";
  if (result.getElementType() != input.getElementType())
    return op->emitOpError("result element type ")
           << result.getElementType() << " differs from the input's "
           << input.getElementType();
  return verifyComputeOp(op);
}

//===----------------------------------------------------------------------===//
// Matmul
//===----------------------------------------------------------------------===//

SmallVector<AffineMap>
mlir::spyre::detail::getMatmulIndexingMaps(Operation *op, ArrayAttr maps,
                                           bool batched) {
  if (maps)
    return llvm::to_vector(maps.getAsValueRange<AffineMapAttr>());
  return getMatmulIndexingMaps(op->getContext(), batched);
}

SmallVector<AffineMap>
mlir::spyre::detail::getMatmulIndexingMaps(MLIRContext *context, bool batched) {
  auto d = [&](unsigned i) { return getAffineDimExpr(i, context); };
  if (!batched) // (m, n, k)
    return {AffineMap::get(3, 0, {d(0), d(2)}, context),
            AffineMap::get(3, 0, {d(2), d(1)}, context),
            AffineMap::get(3, 0, {d(0), d(1)}, context)};
  // (b, m, n, k)
  return {AffineMap::get(4, 0, {d(0), d(1), d(3)}, context),
          AffineMap::get(4, 0, {d(0), d(3), d(2)}, context),
          AffineMap::get(4, 0, {d(0), d(1), d(2)}, context)};
}

LogicalResult mlir::spyre::detail::verifyMatmul(Operation *op,
                                                unsigned numLoops,
                                                ArrayAttr explicitMaps) {
  // Without indexing_maps the operands are plain matrices (or batches of
  // them): say so in terms of ranks, not of the implicit maps.
  if (!explicitMaps) {
    int64_t rank = numLoops - 1;
    StringRef dims = numLoops == 3 ? "[m, k] x [k, n] -> [m, n]"
                                   : "[b, m, k] x [b, k, n] -> [b, m, n]";
    SmallVector<Type> types(op->getOperandTypes());
    types.push_back(op->getResult(0).getType());
    for (auto [i, type] : llvm::enumerate(types)) {
      int64_t actual = cast<RankedTensorType>(type).getRank();
      if (actual == rank)
        continue;
      std::string name = i + 1 == types.size() ? std::string("the result")
                                               : "input #" + std::to_string(i);
      return op->emitOpError("needs rank-")
             << rank << " operands and result (" << dims
             << ") unless indexing_maps say otherwise; " << name << " has rank "
             << actual;
    }
  }
  auto compute = cast<ComputeOpInterface>(op);
  SmallVector<AffineMap> maps = compute.getIndexingMapsArray();
  if (maps.size() != 3)
    return op->emitOpError("expects 3 indexing maps (A, B, C), got ")
           << maps.size();
  if (maps[0].getNumDims() != numLoops)
    return op->emitOpError("expects ")
           << numLoops << " operation dims, got " << maps[0].getNumDims();
  int reductions = 0;
  for (utils::IteratorType it : compute.getIteratorTypesArray())
    reductions += it == utils::IteratorType::reduction;
  if (reductions != 1)
    return op->emitOpError("expects exactly one reduction dim (k), got ")
           << reductions;
  Type a = cast<RankedTensorType>(op->getOperand(0).getType()).getElementType();
  Type b = cast<RankedTensorType>(op->getOperand(1).getType()).getElementType();
  Type c = cast<RankedTensorType>(op->getResult(0).getType()).getElementType();
  if (a != b)
    return op->emitOpError("A and B must have one element type, got ")
           << a << " and " << b;
  bool fp8 = isDeviceFp8(a);
  if (!(a.isF16() || a.isBF16() || fp8))
    return op->emitOpError("the PT unit multiplies DL16 or fp8 operands, not ")
           << a;
  if (fp8 ? !c.isF16() : c != a)
    return op->emitOpError("result element type ")
           << c << " must be " << (fp8 ? "f16" : "the operands'");
  return verifyComputeOp(op);
}

StringRef mlir::spyre::detail::getMatmulOpFunc(Operation *op) {
  return isDeviceFp8(cast<RankedTensorType>(op->getOperand(0).getType())
                         .getElementType())
             ? "batchmatmulfp8"
             : "batchmatmul";
}

//===----------------------------------------------------------------------===//
// Scaled matmul
//===----------------------------------------------------------------------===//

int64_t ScaledMatmulOp::getValuesPerDataElement() {
  QuantAttr quant = getQuant();
  std::optional<quant::Codebook> book = quant.getSpec().codebook;
  unsigned bits =
      book ? book->indexBits : quant::getFormatInfo(quant.getFormat()).bits;
  return quant.getMode() == quant::CastMode::Compressed && bits < 8 ? 8 / bits
                                                                    : 1;
}

int64_t ScaledMatmulOp::getValuesPerScale() {
  QuantAttr quant = getQuant();
  switch (quant.getScaling()) {
  case quant::Scaling::MX:
    return quant::kMxBlockSize;
  case quant::Scaling::Channel:
  case quant::Scaling::Tensor:
    return std::max<int64_t>(
        cast<RankedTensorType>(getLhs().getType()).getDimSize(1), 1);
  default:
    return quant.getTile();
  }
}

int64_t ScaledMatmulOp::getValuesPerMetaElement() {
  QuantAttr quant = getQuant();
  quant::QuantSpec spec = quant.getSpec();
  if (!spec.codebook || spec.codebook->metaBits == 0)
    return 1;
  int64_t tile = getValuesPerScale();
  int64_t group = spec.subtile ? spec.subtile : tile;
  // Actual mode: a byte a subtile (or tile).
  if (spec.mode != quant::CastMode::Compressed)
    return group;
  // Compressed: each tile's meta bits packed into whole bytes, low first.
  int64_t metaBits = spec.codebook->metaBits;
  int64_t bitsPerTile = metaBits * ((tile + group - 1) / group);
  if (bitsPerTile <= 8)
    return tile;
  if (bitsPerTile % 8 == 0 && 8 % metaBits == 0 && tile % group == 0)
    return group * (8 / metaBits);
  return 0;
}

/// B's part named `name` (the library's companions, in their order, those
/// the scheme has), or null when the scheme has no such part.
static Value namedPart(ScaledMatmulOp op, StringRef name) {
  ValueRange parts = op.getParts();
  int64_t n = cast<RankedTensorType>(parts.front().getType()).getDimSize(0);
  int64_t k = cast<RankedTensorType>(op.getLhs().getType()).getDimSize(1);
  llvm::Expected<quant::QuantShapes> shapes = op.getQuant().getShapes({n, k});
  if (!shapes) {
    llvm::consumeError(shapes.takeError());
    return Value();
  }
  size_t index = 0;
  for (auto [partName, companion] : shapes->companions()) {
    if (!companion->present)
      continue;
    if (partName == name)
      return index < parts.size() ? parts[index] : Value();
    ++index;
  }
  return Value();
}

Value ScaledMatmulOp::getScale() { return namedPart(*this, "scale"); }
Value ScaledMatmulOp::getZero() { return namedPart(*this, "zero"); }
Value ScaledMatmulOp::getMeta() { return namedPart(*this, "meta"); }

SmallVector<AffineMap> ScaledMatmulOp::getIndexingMapsArray() {
  MLIRContext *context = getContext();
  AffineExpr m = getAffineDimExpr(0, context), n = getAffineDimExpr(1, context),
             k = getAffineDimExpr(2, context);
  auto map = [&](ArrayRef<AffineExpr> results) {
    return AffineMap::get(3, 0, results, context);
  };
  auto along = [&](int64_t q) { return q == 1 ? k : k.floorDiv(q); };
  int64_t perData = getValuesPerDataElement();
  QuantAttr quant = getQuant();
  // The elements of K one scale covers (channel: all of them; tensor: one
  // scale for all of B).
  quant::Scaling scaling = quant.getScaling();
  AffineExpr zero = getAffineConstantExpr(0, context);
  int64_t tile = getValuesPerScale();
  AffineMap scale = scaling == quant::Scaling::Tensor ? map({zero, zero})
                    : scaling == quant::Scaling::Channel
                        ? map({n, zero})
                        : map({n, along(tile)});
  SmallVector<AffineMap> maps = {map({m, k}), map({n, along(perData)}), scale};
  // Integer zero points pack like the data, along the scaled dim; float
  // ones are laid out like the scales.
  if (getZero())
    maps.push_back(!quant.getZeroType() && (scaling == quant::Scaling::Tile ||
                                            scaling == quant::Scaling::MX)
                       ? map({n, along(tile * perData)})
                       : scale);
  // A codebook's meta bytes, each covering the values whose mappings it
  // packs (a channel's one byte: indexed by n alone, like its scale).
  if (getMeta()) {
    int64_t perMeta = std::max<int64_t>(getValuesPerMetaElement(), 1);
    int64_t kSize = cast<RankedTensorType>(getLhs().getType()).getDimSize(1);
    maps.push_back(perMeta >= kSize ? map({n, zero})
                                    : map({n, along(perMeta)}));
  }
  maps.push_back(map({m, n}));
  return maps;
}

LogicalResult ScaledMatmulOp::verify() {
  QuantAttr quant = getQuant();
  quant::Scaling scaling = quant.getScaling();
  if (scaling != quant::Scaling::MX && scaling != quant::Scaling::Tile &&
      scaling != quant::Scaling::Channel && scaling != quant::Scaling::Tensor)
    return emitOpError("scales B by mx, tile, channel or tensor scales, not '")
           << quant::stringifyScaling(scaling) << "'";
  if (quant.getMode() == quant::CastMode::Virtual)
    return emitOpError("reads stored data: mode 'virtual' holds the "
                       "dequantized values themselves (use spyre.matmul)");
  if (quant.getSparsity() != 0 || quant.getMultiscale())
    return emitOpError("does not read sparse data or a tensor scale");
  std::optional<quant::Codebook> book = quant.getSpec().codebook;
  if (book && book->indexBits != 4)
    return emitOpError("reads codebooks of 16 entries (4-bit indices), not ")
           << book->numEntries();
  if (quant.getAxis() != -1 && quant.getAxis() != 1)
    return emitOpError("needs B quantized along K, its last dim (axis = -1), "
                       "got axis = ")
           << quant.getAxis();
  using quant::Format;
  Format format = quant.getFormat();
  if (!book && !llvm::is_contained({Format::E2M1FN, Format::E4M3FN,
                                    Format::E5M2, Format::Int8, Format::UInt8,
                                    Format::Int4, Format::UInt4},
                                   format))
    return emitOpError("reads e2m1fn, e4m3fn, e5m2, int8, uint8, int4 or "
                       "uint4 data, not ")
           << quant::getFormatInfo(format).name;
  auto a = cast<RankedTensorType>(getLhs().getType());
  auto c = cast<RankedTensorType>(getResult().getType());
  auto data = cast<RankedTensorType>(getData().getType());
  if (a.getRank() != 2 || c.getRank() != 2 || data.getRank() != 2)
    return emitOpError("multiplies A [M, K] by B stored [N, K] into C "
                       "[M, N]: A, the data and C must have rank 2");
  if (!a.getElementType().isF16() && !a.getElementType().isBF16())
    return emitOpError("the PT unit multiplies DL16 (f16 or bf16) A, not ")
           << a.getElementType();
  if (c.getElementType() != a.getElementType())
    return emitOpError("result element type ")
           << c.getElementType() << " must be A's, " << a.getElementType();
  int64_t m = a.getDimSize(0), k = a.getDimSize(1), n = data.getDimSize(0);
  if (c.getDimSize(0) != m || c.getDimSize(1) != n)
    return emitOpError("result must be [M, N] = [")
           << m << ", " << n << "], got [" << c.getShape() << "]";
  // The stored parts of B [N, K], in order.
  auto weight = RankedTensorType::get({n, k}, a.getElementType());
  FailureOr<SmallVector<std::pair<StringRef, RankedTensorType>>> expected =
      quant.getPartTypes(weight, [&] { return emitOpError(); });
  if (failed(expected))
    return failure();
  if (book && getValuesPerMetaElement() == 0)
    return emitOpError("reads a codebook's meta a byte at a time: ")
           << book->metaBits << " meta bits a subtile straddle bytes (the "
           << "meta of a tile must fit one byte, or fill whole bytes with "
           << "meta_bits dividing 8)";
  ValueRange parts = getParts();
  if (parts.size() != expected->size()) {
    auto diag = emitOpError("expects B's parts (");
    llvm::interleaveComma(*expected, diag,
                          [&](const auto &part) { diag << part.first; });
    return diag << ") for " << quant << ", got " << parts.size()
                << " operands after A";
  }
  for (auto [part, value] : llvm::zip(*expected, parts)) {
    auto type = withoutLayout(cast<RankedTensorType>(value.getType()));
    if (type != part.second)
      return emitOpError("B's ") << part.first << " must be " << part.second
                                 << " for B " << weight << ", got " << type;
  }
  return verifyComputeOp(*this, /*allowBlocks=*/true);
}

//===----------------------------------------------------------------------===//
// The layer-norm family
//===----------------------------------------------------------------------===//

/// Over the op dims (d0, ..., d(r-1)) of the layer-norm family, for data of
/// rank r: the data's map (all dims) and the per-row statistics' map (every
/// dim but the innermost, the normalized one).
static std::pair<AffineMap, AffineMap> dataAndRowMaps(unsigned rank,
                                                      MLIRContext *context) {
  AffineMap data = AffineMap::getMultiDimIdentityMap(rank, context);
  return {data, data.getMajorSubMap(rank - 1)};
}

SmallVector<AffineMap> Exx2Op::getIndexingMapsArray() {
  unsigned rank = static_cast<unsigned>(getInput().getType().getRank());
  auto [data, rows] = dataAndRowMaps(rank, getContext());
  return {data, rows};
}

/// The shape of the per-row statistics of `x`: its shape without the
/// innermost dim.
static SmallVector<int64_t> rowShape(RankedTensorType x) {
  return SmallVector<int64_t>(x.getShape().drop_back());
}

LogicalResult Exx2Op::verify() {
  RankedTensorType input = getInput().getType();
  if (input.getRank() == 0)
    return emitOpError("needs a dim to normalize");
  if (getType().getShape() != ArrayRef<int64_t>(rowShape(input)) ||
      getType().getElementType() != input.getElementType())
    return emitOpError("result must be ")
           << RankedTensorType::get(rowShape(input), input.getElementType())
           << ": one row of statistics per row of the input";
  return detail::verifyComputeOp(*this);
}

LogicalResult LayerNormScaleOp::verify() {
  if (getInput().getType().getShape() != getType().getShape() ||
      getInput().getType().getElementType() != getType().getElementType())
    return emitOpError("result must have the input's shape and element type");
  return detail::verifyComputeOp(*this);
}

SmallVector<AffineMap> LayerNormNormOp::getIndexingMapsArray() {
  MLIRContext *context = getContext();
  unsigned rank = static_cast<unsigned>(getInput().getType().getRank());
  auto [data, rows] = dataAndRowMaps(rank, context);
  AffineMap inner =
      AffineMap::get(rank, 0, {getAffineDimExpr(rank - 1, context)}, context);
  return {data, rows, rows, inner, inner, data};
}

LogicalResult LayerNormNormOp::verify() {
  RankedTensorType x = getInput().getType();
  if (x.getRank() == 0)
    return emitOpError("needs a dim to normalize");
  Type element = x.getElementType();
  for (auto [name, value] :
       {std::pair<StringRef, Value>{"mean", getMean()}, {"norm", getNorm()}}) {
    auto type = cast<RankedTensorType>(value.getType());
    if (type.getShape() != ArrayRef<int64_t>(rowShape(x)))
      return emitOpError() << name << " must have shape [" << rowShape(x)
                           << "] (the input's without its innermost dim), "
                              "not ["
                           << type.getShape() << "]";
    if (type.getElementType() != element)
      return emitOpError() << name << " must have element type " << element;
  }
  int64_t n = x.getShape().back();
  for (auto [name, value] : {std::pair<StringRef, Value>{"weight", getWeight()},
                             {"bias", getBias()}}) {
    auto type = cast<RankedTensorType>(value.getType());
    if (type.getShape() != ArrayRef<int64_t>{n})
      return emitOpError() << name << " must have shape [" << n << "], not ["
                           << type.getShape() << "]";
    if (type.getElementType() != element)
      return emitOpError() << name << " must have element type " << element;
  }
  if (getType().getShape() != x.getShape() ||
      getType().getElementType() != element)
    return emitOpError("result must have the input's shape and element type");
  return detail::verifyComputeOp(*this);
}

//===----------------------------------------------------------------------===//
// Views
//===----------------------------------------------------------------------===//

LogicalResult TransposeOp::verify() {
  ArrayRef<int64_t> perm = getPermutation();
  RankedTensorType input = getInput().getType();
  RankedTensorType result = getType();
  SmallVector<bool> seen(input.getRank(), false);
  if (static_cast<int64_t>(perm.size()) != input.getRank())
    return emitOpError("permutation has ")
           << perm.size() << " entries but the input has rank "
           << input.getRank();
  for (int64_t d : perm) {
    if (d < 0 || d >= input.getRank() || seen[d])
      return emitOpError("permutation [")
             << perm << "] is not a permutation of [0, " << input.getRank()
             << ")";
    seen[d] = true;
  }
  SmallVector<int64_t> expected;
  for (int64_t d : perm)
    expected.push_back(input.getDimSize(d));
  if (result.getShape() != ArrayRef<int64_t>(expected) ||
      result.getElementType() != input.getElementType())
    return emitOpError("result must be the permuted input, ")
           << RankedTensorType::get(expected, input.getElementType())
           << ", not " << withoutLayout(result);
  return success();
}

bool TransposeOp::isView() {
  llvm::Expected<BoundLayout> input = bindLayout(getInput().getType());
  LayoutAttr result = getLayoutAttr(getType());
  if (!input || !result) {
    if (!input)
      llvm::consumeError(input.takeError());
    return false;
  }
  llvm::Expected<SpyreTensorLayout> view =
      transposeView(*input, getPermutation());
  if (!view) {
    llvm::consumeError(view.takeError());
    return false;
  }
  return LayoutAttr::get(getContext(), *view, getType().getElementType()) ==
         result;
}

OpFoldResult TransposeOp::fold(FoldAdaptor) {
  if (llvm::equal(getPermutation(),
                  llvm::seq<int64_t>(0, getType().getRank())) &&
      getInput().getType() == getType())
    return getInput();
  // transpose(transpose(x, p), q) = transpose(x, p o q).
  if (auto inner = getInput().getDefiningOp<TransposeOp>()) {
    SmallVector<int64_t> composed;
    for (int64_t d : getPermutation())
      composed.push_back(inner.getPermutation()[d]);
    getInputMutable().assign(inner.getInput());
    setPermutation(composed);
    return getResult();
  }
  return {};
}

LogicalResult ReshapeOp::verify() {
  RankedTensorType input = getInput().getType();
  RankedTensorType result = getType();
  if (!input.hasStaticShape() || !result.hasStaticShape())
    return emitOpError("reshapes need static shapes");
  if (input.getNumElements() != result.getNumElements())
    return emitOpError("reshape from ")
           << input.getNumElements() << " to " << result.getNumElements()
           << " elements";
  if (input.getElementType() != result.getElementType())
    return emitOpError("reshape changes the element type");
  return success();
}

bool ReshapeOp::isView() {
  LayoutAttr input = getLayoutAttr(getInput().getType());
  LayoutAttr result = getLayoutAttr(getType());
  if (!input || !result)
    return false;
  if (input == result)
    return true;
  llvm::Expected<BoundLayout> from = bindLayout(getInput().getType());
  llvm::Expected<BoundLayout> to = bindLayout(getType());
  bool same = from && to && sameDeviceBytes(from->layout(), to->layout());
  if (!from)
    llvm::consumeError(from.takeError());
  if (!to)
    llvm::consumeError(to.takeError());
  return same;
}

OpFoldResult ReshapeOp::fold(FoldAdaptor) {
  if (getInput().getType() == getType())
    return getInput();
  if (auto inner = getInput().getDefiningOp<ReshapeOp>()) {
    if (inner.getInput().getType() == getType())
      return inner.getInput();
    // A view of a view is a view of the original when the layouts agree.
    if (isView() && inner.isView()) {
      getInputMutable().assign(inner.getInput());
      return getResult();
    }
    if (!isDeviceTensor(getType()) && !isDeviceTensor(inner.getType())) {
      getInputMutable().assign(inner.getInput());
      return getResult();
    }
  }
  return {};
}

//===----------------------------------------------------------------------===//
// Pad and constant
//===----------------------------------------------------------------------===//

LogicalResult PadOp::verify() {
  if (getInput().getType().getShape() != getType().getShape() ||
      getInput().getType().getElementType() != getType().getElementType())
    return emitOpError("the padded tensor must keep the input's shape and "
                       "element type");
  FailureOr<DataFormat> format =
      getLayoutAttr(getType()).getFormatFor(getType().getElementType());
  if (succeeded(format)) {
    llvm::Expected<uint32_t> bits =
        encodeDeviceValue(*format, getValue().convertToDouble());
    if (!bits)
      return emitOpError("padding value: ") << llvm::toString(bits.takeError());
  }
  return success();
}

LogicalResult ConstantOp::verify() {
  auto valueType = cast<ShapedType>(getValue().getType());
  if (valueType.getShape() != getType().getShape() ||
      valueType.getElementType() != getType().getElementType())
    return emitOpError("value of type ")
           << valueType << " does not match the result "
           << withoutLayout(getType());
  return success();
}

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }
