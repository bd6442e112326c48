//===- SpyreAttrs.cpp - #spyre.layout and #spyre.target
//--------------------===//
//
// The layout attribute is a thin holder of data: all layout math, including
// its verification against a tensor type, is done by the layout algebra
// (lib/Layout), whose error text becomes the diagnostic.
//
//===----------------------------------------------------------------------===//

#include "Spyre/Dialect/Spyre/IR/Spyre.h"

#include <cmath>

#include "mlir/IR/Builders.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <charconv>

using namespace mlir;
using namespace mlir::spyre;

#include "Spyre/Dialect/Spyre/IR/SpyreEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "Spyre/Dialect/Spyre/IR/SpyreAttrs.cpp.inc"

//===----------------------------------------------------------------------===//
// Parameter parsers and printers
//===----------------------------------------------------------------------===//

FailureOr<SmallVector<int64_t>> mlir::spyre::parseIntList(AsmParser &parser) {
  SmallVector<int64_t> values;
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square,
                                     [&]() -> ParseResult {
                                       int64_t value;
                                       if (parser.parseInteger(value))
                                         return failure();
                                       values.push_back(value);
                                       return success();
                                     }))
    return failure();
  return values;
}

void mlir::spyre::printIntList(AsmPrinter &printer, ArrayRef<int64_t> values) {
  printer << '[';
  llvm::interleaveComma(values, printer);
  printer << ']';
}

FailureOr<llvm::APFloat> mlir::spyre::parseReal(AsmParser &parser) {
  double value;
  if (parser.parseFloat(value))
    return failure();
  return llvm::APFloat(value);
}

/// Shortest text that reads back as the same double, always with a '.' or an
/// exponent so it parses as a float.
static std::string formatReal(double value) {
  char buffer[64];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof(buffer), value);
  std::string text(buffer, ec == std::errc() ? end : buffer);
  if (text.find_first_of(".eEn") == std::string::npos)
    text += ".0";
  return text;
}

void mlir::spyre::printReal(AsmPrinter &printer, const llvm::APFloat &real) {
  printer << formatReal(real.convertToDouble());
}

FailureOr<std::optional<DataFormat>>
mlir::spyre::parseDataFormat(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef keyword;
  if (parser.parseKeyword(&keyword))
    return failure();
  std::optional<DataFormat> format = symbolizeDataFormat(keyword);
  if (!format)
    return parser.emitError(loc, "unknown device data format '")
           << keyword
           << "'; expected one of SEN169_FP16, IEEE_FP32, IEEE_INT32, "
              "SENINT8, SEN143_FP8, SEN152_FP8, SENINT4";
  return std::optional<DataFormat>(*format);
}

void mlir::spyre::printDataFormat(AsmPrinter &printer, DataFormat format) {
  printer << stringifyDataFormat(format);
}

FailureOr<ElementArrangement> mlir::spyre::parseArrangement(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef keyword;
  if (parser.parseKeyword(&keyword))
    return failure();
  std::optional<ElementArrangement> arrangement;
  if (keyword == keyword.lower())
    arrangement = symbolizeElementArrangement(keyword);
  if (!arrangement)
    return parser.emitError(loc, "unknown element arrangement '")
           << keyword
           << "'; expected one of standard, dl16_to_fp32, qfp8ch, exx2";
  return *arrangement;
}

void mlir::spyre::printArrangement(AsmPrinter &printer,
                                   ElementArrangement arrangement) {
  printer << StringRef(stringifyElementArrangement(arrangement)).lower();
}

//===----------------------------------------------------------------------===//
// Helpers shared by the dialect and the passes
//===----------------------------------------------------------------------===//

FailureOr<HostType> mlir::spyre::getHostType(Type elementType) {
  if (!elementType)
    return failure();
  Type T = elementType;
#define SPYRE_HOST_TYPE(Enum, Name, Bytes, Format, BitExact, Npy, Dci, Python, \
                        MlirType, ...)                                         \
  if (MlirType)                                                                \
    return HostType::Enum;
#include "Spyre/Layout/ElementTypes.def"
  return failure();
}

FailureOr<HostType> mlir::spyre::getDeviceHostType(Type elementType) {
  FailureOr<HostType> host = getHostType(elementType);
  if (failed(host) || !isComputedOnDevice(*host))
    return failure();
  return host;
}

bool mlir::spyre::isDeviceFp8(Type element) {
  return isa<Float8E4M3FNType, Float8E5M2Type>(element);
}

bool mlir::spyre::isDeviceTensor(Type type) {
  return static_cast<bool>(getLayoutAttr(type));
}

LayoutAttr mlir::spyre::getLayoutAttr(Type type) {
  auto tensorType = dyn_cast<RankedTensorType>(type);
  if (!tensorType)
    return {};
  return dyn_cast_or_null<LayoutAttr>(tensorType.getEncoding());
}

RankedTensorType mlir::spyre::withLayout(RankedTensorType type,
                                         LayoutAttr layout) {
  return RankedTensorType::get(type.getShape(), type.getElementType(), layout);
}

RankedTensorType mlir::spyre::withoutLayout(RankedTensorType type) {
  return RankedTensorType::get(type.getShape(), type.getElementType());
}

llvm::Expected<BoundLayout> mlir::spyre::bindLayout(RankedTensorType type) {
  LayoutAttr layout = getLayoutAttr(type);
  if (!layout)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "tensor type has no #spyre.layout");
  // Types are uniqued, so a bound layout is computed once per type; every
  // verification after every pass asks again.
  auto *dialect = type.getContext()->getLoadedDialect<SpyreDialect>();
  if (!dialect)
    return layout.bind(type);
  {
    std::lock_guard<std::mutex> lock(dialect->bindCacheMutex);
    auto it = dialect->bindCache.find(type);
    if (it != dialect->bindCache.end())
      return *it->second;
  }
  llvm::Expected<BoundLayout> bound = layout.bind(type);
  if (!bound)
    return bound.takeError();
  std::lock_guard<std::mutex> lock(dialect->bindCacheMutex);
  dialect->bindCache.try_emplace(type, std::make_unique<BoundLayout>(*bound));
  return bound;
}

/// `type` (bound as `bound`) cut to `size` positions along host dim `dim`,
/// with device sizes `deviceSize`: the stride map follows the new host
/// strides; a device dim of one position (`collapsed`, when given) steps
/// nowhere. Failure when the result does not bind.
static FailureOr<RankedTensorType> blockType(RankedTensorType type,
                                             const BoundLayout &bound,
                                             unsigned dim, int64_t size,
                                             ArrayRef<int64_t> deviceSize,
                                             std::optional<int> collapsed) {
  SmallVector<int64_t> shape(type.getShape());
  shape[dim] = size;
  // Host strides change for the dims outside the cut one.
  SmallVector<int64_t> hostStrides(shape.size(), 1);
  for (int64_t h = static_cast<int64_t>(shape.size()) - 2; h >= 0; --h)
    hostStrides[h] = hostStrides[h + 1] * shape[h + 1];
  LayoutAttr full = getLayoutAttr(type);
  SmallVector<int64_t> strideMap(full.getStrideMap());
  for (auto [d, role] : llvm::enumerate(bound.roles()))
    if (role.kind == BoundLayout::DimKind::Piece)
      strideMap[d] = hostStrides[role.hostDim] * role.multiplier;
  // A dim of one position steps nowhere (the layout's `-1`).
  if (collapsed && deviceSize[*collapsed] == 1)
    strideMap[*collapsed] = -1;
  auto sliced = LayoutAttr::get(type.getContext(), deviceSize, strideMap,
                                full.getFormat(), full.getArrangement(),
                                full.getStickBytes());
  auto result = cast<RankedTensorType>(
      withLayout(RankedTensorType::get(shape, type.getElementType()), sliced));
  llvm::Expected<BoundLayout> check = bindLayout(result);
  if (!check) {
    llvm::consumeError(check.takeError());
    return failure();
  }
  return result;
}

/// `type`'s bound layout when `size` positions of its host dim `dim` can be
/// cut from it.
static std::optional<BoundLayout> boundForBlock(RankedTensorType type,
                                                unsigned dim, int64_t size) {
  if (!isDeviceTensor(type) || dim >= type.getRank() || size < 1 ||
      size > type.getDimSize(dim))
    return std::nullopt;
  llvm::Expected<BoundLayout> bound = bindLayout(type);
  if (!bound) {
    llvm::consumeError(bound.takeError());
    return std::nullopt;
  }
  return std::move(*bound);
}

FailureOr<RankedTensorType>
mlir::spyre::getRowBlockType(RankedTensorType type, unsigned dim, int64_t rows,
                             unsigned *deviceDim, bool strided) {
  std::optional<BoundLayout> bound = boundForBlock(type, dim, rows);
  if (!bound)
    return failure();
  ArrayRef<int> pieces = bound->piecesOf(static_cast<int>(dim));
  const SpyreTensorLayout &layout = bound->layout();
  if (pieces.size() != 1 ||
      pieces.front() == static_cast<int>(layout.deviceRank()) - 1 ||
      bound->roles()[pieces.front()].multiplier != 1 ||
      layout.getDeviceSize()[pieces.front()] < type.getDimSize(dim))
    return failure();
  if (deviceDim)
    *deviceDim = static_cast<unsigned>(pieces.front());
  SmallVector<int64_t> deviceSize(layout.getDeviceSize());
  if (!strided)
    deviceSize[pieces.front()] = rows;
  return blockType(type, *bound, dim, rows, deviceSize, pieces.front());
}

FailureOr<RankedTensorType>
mlir::spyre::getStickBlockType(RankedTensorType type, unsigned dim,
                               int64_t columns, bool strided) {
  std::optional<BoundLayout> bound = boundForBlock(type, dim, columns);
  if (!bound)
    return failure();
  // The dim is the stick's: its lanes, and one device dim of whole sticks
  // outside them.
  ArrayRef<int> pieces = bound->piecesOf(static_cast<int>(dim));
  const SpyreTensorLayout &layout = bound->layout();
  int stick = static_cast<int>(layout.deviceRank()) - 1;
  int64_t lanes = layout.elemsPerStick();
  if (pieces.size() != 2 || !llvm::is_contained(pieces, stick) ||
      columns % lanes != 0)
    return failure();
  int outer = pieces.front() == stick ? pieces.back() : pieces.front();
  if (bound->roles()[outer].multiplier != lanes ||
      bound->roles()[stick].multiplier != 1)
    return failure();
  // Strided, the device dims stay the tensor's: the sticks past the block
  // are padding, so the block's device strides are the tensor's.
  SmallVector<int64_t> deviceSize(layout.getDeviceSize());
  if (!strided)
    deviceSize[outer] = columns / lanes;
  return blockType(type, *bound, dim, columns, deviceSize,
                   strided ? std::nullopt : std::optional<int>(outer));
}

llvm::Expected<SpyreTensorLayout>
mlir::spyre::getDefaultLayout(RankedTensorType type,
                              std::optional<ArrayRef<int32_t>> dimOrder,
                              int64_t stickBytes) {
  auto fail = [](const Twine &message) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
  };
  if (!type.hasStaticShape())
    return fail("dynamic dims have no device layout");
  FailureOr<HostType> hostType = getDeviceHostType(type.getElementType());
  if (failed(hostType)) {
    std::string typeName;
    llvm::raw_string_ostream os(typeName);
    os << type.getElementType();
    return fail("element type '" + typeName + "' has no Spyre device format");
  }
  return SpyreTensorLayout::getDefault(HostView::contiguous(type.getShape()),
                                       *hostType, dimOrder, stickBytes);
}

TargetAttr mlir::spyre::getTarget(Operation *op) {
  for (Operation *current = op; current; current = current->getParentOp())
    if (auto target =
            current->getAttrOfType<TargetAttr>(SpyreDialect::kTargetAttrName))
      return target;
  // The default target is built in the spyre dialect, which a module that
  // never mentions it (e.g. plain linalg given to spyre-translate) has not
  // loaded. Verifiers and passes of spyre ops always find it loaded, so
  // this never loads a dialect during multi-threaded execution.
  MLIRContext *context = op->getContext();
  if (!context->getLoadedDialect<SpyreDialect>())
    context->getOrLoadDialect<SpyreDialect>();
  return TargetAttr::get(context, TargetModel{});
}

//===----------------------------------------------------------------------===//
// LayoutAttr
//===----------------------------------------------------------------------===//

LogicalResult LayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 ArrayRef<int64_t> deviceSize,
                                 ArrayRef<int64_t> strideMap,
                                 std::optional<DataFormat> format,
                                 ElementArrangement arrangement,
                                 int64_t stickBytes) {
  if (stickBytes <= 0 || stickBytes % 4 != 0)
    return emitError() << "stick_bytes = " << stickBytes
                       << " must be a positive multiple of 4";
  // Without a format the stick size is checked against the element type in
  // verifyEncoding; here any format whose stick matches stands in for it so
  // the shape-independent rules are still checked where the attribute is
  // written.
  std::optional<DataFormat> checkFormat = format;
  if (!checkFormat && !deviceSize.empty()) {
    for (DataFormat candidate : {DataFormat::SEN169_FP16, DataFormat::IEEE_FP32,
                                 DataFormat::SENINT8, DataFormat::SENINT4})
      if (elemsPerStick(candidate, stickBytes) == deviceSize.back())
        checkFormat = candidate;
    if (!checkFormat)
      return emitError() << "stick dim device_size[" << deviceSize.size() - 1
                         << "] = " << deviceSize.back() << " holds no whole "
                         << stickBytes
                         << "-byte stick of any device format (it holds "
                         << stickBytes / 2 << " 16-bit, " << stickBytes / 4
                         << " 32-bit, " << stickBytes << " 8-bit or "
                         << stickBytes * 2 << " 4-bit elements)";
  }
  llvm::Expected<SpyreTensorLayout> layout = SpyreTensorLayout::get(
      deviceSize, strideMap, checkFormat.value_or(DataFormat::SEN169_FP16),
      arrangement, stickBytes);
  if (!layout)
    return emitError() << llvm::toString(layout.takeError());
  return success();
}

/// "tensor<5x100xf16>" for diagnostics.
static std::string describeTensor(ArrayRef<int64_t> shape, Type elementType) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << RankedTensorType::get(shape, elementType);
  return text;
}

LogicalResult
LayoutAttr::verifyEncoding(ArrayRef<int64_t> shape, Type elementType,
                           function_ref<InFlightDiagnostic()> emitError) const {
  auto fail = [&]() -> InFlightDiagnostic {
    return emitError() << "#spyre.layout does not fit "
                       << describeTensor(shape, elementType) << ": ";
  };
  // The tensor type parser verifies the encoding even when the element type
  // failed to parse (it has reported that already).
  if (!elementType)
    return failure();
  for (auto [i, size] : llvm::enumerate(shape))
    if (ShapedType::isDynamic(size))
      return emitError() << "#spyre.layout needs a static shape, but dim " << i
                         << " of the tensor is dynamic";
  llvm::Expected<SpyreTensorLayout> layout = getLayout(elementType);
  if (!layout)
    return fail() << llvm::toString(layout.takeError());
  llvm::Expected<BoundLayout> bound = layout->bind(HostView::contiguous(shape));
  if (!bound)
    return fail() << llvm::toString(bound.takeError());
  return success();
}

FailureOr<DataFormat> LayoutAttr::getFormatFor(Type elementType) const {
  FailureOr<HostType> hostType = getDeviceHostType(elementType);
  if (failed(hostType))
    return failure();
  DataFormat natural = deviceFormatFor(*hostType);
  if (getFormat() && *getFormat() != natural)
    return failure();
  return natural;
}

llvm::Expected<SpyreTensorLayout>
LayoutAttr::getLayout(Type elementType) const {
  auto fail = [](const Twine &message) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
  };
  FailureOr<HostType> hostType = getDeviceHostType(elementType);
  auto typeName = [&] {
    std::string name;
    llvm::raw_string_ostream os(name);
    os << elementType;
    return name;
  };
  if (failed(hostType))
    return fail("element type '" + typeName() + "' has no Spyre device format");
  DataFormat natural = deviceFormatFor(*hostType);
  if (getFormat() && *getFormat() != natural)
    return fail("device format " + stringifyDataFormat(*getFormat()) +
                " does not match element type '" + typeName() +
                "', which is stored as " + stringifyDataFormat(natural));
  return SpyreTensorLayout::get(getDeviceSize(), getStrideMap(), natural,
                                getArrangement(), getStickBytes());
}

llvm::Expected<BoundLayout> LayoutAttr::bind(RankedTensorType type) const {
  llvm::Expected<SpyreTensorLayout> layout = getLayout(type.getElementType());
  if (!layout)
    return layout.takeError();
  return layout->bind(HostView::contiguous(type.getShape()));
}

LayoutAttr LayoutAttr::get(MLIRContext *context,
                           const SpyreTensorLayout &layout, Type elementType) {
  std::optional<DataFormat> format = layout.getFormat();
  FailureOr<HostType> hostType = getDeviceHostType(elementType);
  if (succeeded(hostType) && deviceFormatFor(*hostType) == layout.getFormat())
    format = std::nullopt;
  return get(context, layout.getDeviceSize(), layout.getStrideMap(), format,
             layout.getArrangement(), layout.stickBytes());
}

//===----------------------------------------------------------------------===//
// TargetAttr
//===----------------------------------------------------------------------===//

LogicalResult
TargetAttr::verify(function_ref<InFlightDiagnostic()> emitError, int64_t cores,
                   int64_t corelets, int64_t stickBytes, int64_t lxBytes,
                   llvm::APFloat lxReservedValue, llvm::APFloat ddrGBpsValue,
                   int64_t ddrBytes, int64_t segmentBytes, int64_t spanBytes,
                   llvm::APFloat clockGHzValue, int64_t ptMacsPerCycle,
                   int64_t ptRows, int64_t ptFillPasses,
                   int64_t sfpSticksPerCycle, int64_t dmaBytesPerCycle,
                   int64_t ringBytesPerCycle, int64_t tileOverheadCycles,
                   int64_t maxLoopCount, llvm::APFloat hostLinkGBpsValue,
                   int64_t bundleSegments, ArrayAttr lxResidentOps) {
  // Every number has a documented range (the attribute's description):
  // wide enough for any machine worth modelling, narrow enough that the
  // model's products (MACs per second, bytes per core, ...) cannot
  // overflow or lose precision.
  struct IntRange {
    StringRef name;
    int64_t value, min, max;
  };
  const int64_t k2p16 = int64_t(1) << 16, k2p20 = int64_t(1) << 20,
                k2p32 = int64_t(1) << 32, k2p48 = int64_t(1) << 48;
  for (const IntRange &r : std::initializer_list<IntRange>{
           {"cores", cores, 1, 1024},
           {"corelets", corelets, 1, 64},
           {"stick_bytes", stickBytes, 4, 4096},
           {"lx_bytes", lxBytes, 1, k2p32},
           {"ddr_bytes", ddrBytes, 1, k2p48},
           {"segment_bytes", segmentBytes, 1, k2p48},
           {"span_bytes", spanBytes, 1, k2p48},
           {"pt_macs_per_cycle", ptMacsPerCycle, 1, k2p20},
           {"pt_rows", ptRows, 1, k2p16},
           {"pt_fill_passes", ptFillPasses, 1, k2p16},
           {"sfp_sticks_per_cycle", sfpSticksPerCycle, 1, k2p16},
           {"dma_bytes_per_cycle", dmaBytesPerCycle, 1, k2p20},
           {"ring_bytes_per_cycle", ringBytesPerCycle, 1, k2p20},
           {"tile_overhead_cycles", tileOverheadCycles, 0, k2p32},
           {"max_loop_count", maxLoopCount, 1, k2p32},
           {"bundle_segments", bundleSegments, 1, 1024}})
    if (r.value < r.min || r.value > r.max)
      return emitError() << "#spyre.target " << r.name << " = " << r.value
                         << " is outside its range [" << r.min << ", " << r.max
                         << "]";
  double lxReserved = lxReservedValue.convertToDouble();
  double ddrGBps = ddrGBpsValue.convertToDouble();
  double clockGHz = clockGHzValue.convertToDouble();
  double hostLinkGBps = hostLinkGBpsValue.convertToDouble();
  struct RealRange {
    StringRef name;
    double value, min, max;
  };
  for (const RealRange &r : std::initializer_list<RealRange>{
           {"ddr_gbps", ddrGBps, 1e-3, 1e6},
           {"clock_ghz", clockGHz, 1e-3, 1e3},
           {"host_link_gbps", hostLinkGBps, 1e-3, 1e6}})
    if (!(r.value >= r.min && r.value <= r.max)) // NaN fails too
      return emitError() << "#spyre.target " << r.name << " = "
                         << formatReal(r.value) << " is outside its range ["
                         << formatReal(r.min) << ", " << formatReal(r.max)
                         << "]";
  if (lxResidentOps)
    for (Attribute op : lxResidentOps) {
      auto name = dyn_cast<StringAttr>(op);
      if (!name || name.getValue().empty())
        return emitError() << "#spyre.target lx_resident_ops holds " << op
                           << "; expected op names (strings)";
    }
  if (stickBytes % 4 != 0)
    return emitError() << "#spyre.target stick_bytes = " << stickBytes
                       << " must be a multiple of 4 (a stick holds whole "
                          "32-bit elements)";
  if (!(lxReserved >= 0.0 && lxReserved < 1.0))
    return emitError() << "#spyre.target lx_reserved = "
                       << formatReal(lxReserved) << " is outside its range "
                       << "[0, 1)";
  if (lxBytes % stickBytes != 0)
    return emitError() << "#spyre.target lx_bytes = " << lxBytes
                       << " must be a whole number of " << stickBytes
                       << "-byte sticks";
  return success();
}

TargetModel TargetAttr::getModel() const {
  TargetModel model;
  model.cores = getCores();
  model.corelets = getCorelets();
  model.stickBytes = getStickBytes();
  model.lxBytes = getLxBytes();
  model.lxReservedFraction = getLxReserved().convertToDouble();
  model.ddrGBps = getDdrGbps().convertToDouble();
  model.ddrBytes = getDdrBytes();
  model.segmentBytes = getSegmentBytes();
  model.spanBytes = getSpanBytes();
  model.clockGHz = getClockGhz().convertToDouble();
  model.ptMacsPerCycle = getPtMacsPerCycle();
  model.ptRows = getPtRows();
  model.ptFillPasses = getPtFillPasses();
  model.sfpSticksPerCycle = getSfpSticksPerCycle();
  model.dmaBytesPerCycle = getDmaBytesPerCycle();
  model.ringBytesPerCycle = getRingBytesPerCycle();
  model.tileOverheadCycles = getTileOverheadCycles();
  model.maxLoopCount = getMaxLoopCount();
  model.hostLinkGBps = getHostLinkGbps().convertToDouble();
  model.bundleSegments = getBundleSegments();
  if (ArrayAttr ops = getLxResidentOps()) {
    model.lxResidentOps.clear();
    for (Attribute op : ops)
      model.lxResidentOps.push_back(cast<StringAttr>(op).getValue().str());
  }
  return model;
}

TargetAttr TargetAttr::get(MLIRContext *context, const TargetModel &model) {
  return get(context, model.cores, model.corelets, model.stickBytes,
             model.lxBytes, llvm::APFloat(model.lxReservedFraction),
             llvm::APFloat(model.ddrGBps), model.ddrBytes, model.segmentBytes,
             model.spanBytes, llvm::APFloat(model.clockGHz),
             model.ptMacsPerCycle, model.ptRows, model.ptFillPasses,
             model.sfpSticksPerCycle, model.dmaBytesPerCycle,
             model.ringBytesPerCycle, model.tileOverheadCycles,
             model.maxLoopCount, llvm::APFloat(model.hostLinkGBps),
             model.bundleSegments, [&]() -> ArrayAttr {
               // The default set prints as nothing.
               if (model.lxResidentOps == TargetModel().lxResidentOps)
                 return nullptr;
               SmallVector<Attribute> ops;
               for (const std::string &op : model.lxResidentOps)
                 ops.push_back(StringAttr::get(context, op));
               return ArrayAttr::get(context, ops);
             }());
}

//===----------------------------------------------------------------------===//
// DivisionAttr, MemAttr, KernelDimAttr, AccessAttr
//===----------------------------------------------------------------------===//

LogicalResult DivisionAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                   ArrayRef<int64_t> splits,
                                   ArrayRef<int64_t> order,
                                   ArrayRef<int64_t> chunks) {
  if (order.size() != splits.size())
    return emitError() << "#spyre.division has " << splits.size()
                       << " splits but an order of " << order.size() << " dims";
  if (!chunks.empty() && chunks.size() != splits.size())
    return emitError() << "#spyre.division has " << splits.size()
                       << " splits but " << chunks.size() << " chunks";
  for (auto [d, s] : llvm::enumerate(splits))
    if (s < 1)
      return emitError() << "#spyre.division split " << s << " of dim " << d
                         << " must be positive";
  for (auto [d, c] : llvm::enumerate(chunks))
    if (c < 1)
      return emitError() << "#spyre.division chunk count " << c << " of dim "
                         << d << " must be positive";
  SmallVector<bool> seen(splits.size(), false);
  for (int64_t d : order) {
    if (d < 0 || d >= static_cast<int64_t>(splits.size()) || seen[d])
      return emitError() << "#spyre.division order " << formatList(order)
                         << " must be a permutation of the " << splits.size()
                         << " op dims";
    seen[d] = true;
  }
  return success();
}

int64_t DivisionAttr::getNumCores() const {
  int64_t n = 1;
  for (int64_t s : getSplits())
    n *= s;
  return n;
}

int64_t DivisionAttr::getNumChunks() const {
  int64_t n = 1;
  for (int64_t c : getChunks())
    n *= c;
  return n;
}

int64_t DivisionAttr::getChunk(unsigned d) const {
  return getChunks().empty() ? 1 : getChunks()[d];
}

LogicalResult MemAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                              MemorySpace space, int64_t value) {
  if (value < 0)
    return emitError() << "#spyre.mem " << stringifyMemorySpace(space) << " "
                       << (space == MemorySpace::IO ? "buffer index" : "offset")
                       << " must not be negative, got " << value;
  return success();
}

LogicalResult
KernelDimAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                      StringRef label, int64_t size, int64_t granule,
                      int64_t split, int64_t chunks, int64_t tile,
                      bool reduction) {
  if (size < 1 || granule < 1 || split < 1 || chunks < 1 || tile < 1)
    return emitError() << "#spyre.kdim \"" << label
                       << "\": size, granule, split, chunks and tile must be "
                          "positive";
  // Every number is the user's: no arithmetic on them may overflow.
  int64_t padded;
  if (llvm::AddOverflow(size, granule - 1, padded))
    return emitError() << "#spyre.kdim \"" << label << "\": size " << size
                       << " is too large (rounding it up to whole " << granule
                       << "-element granules overflows 64 bits)";
  padded = padded / granule * granule;
  int64_t parts;
  if (llvm::MulOverflow(granule, split, parts) ||
      llvm::MulOverflow(parts, chunks, parts) || padded % parts)
    return emitError() << "#spyre.kdim \"" << label << "\": " << padded
                       << " elements do not divide into " << chunks
                       << " chunks of " << split << " slices of whole "
                       << granule << "-element granules";
  int64_t slice = padded / split / chunks;
  if (tile % granule || tile > slice)
    return emitError() << "#spyre.kdim \"" << label << "\": tile " << tile
                       << " must be a multiple of the granule " << granule
                       << " and at most the per-core slice " << slice;
  return success();
}

int64_t AccessAttr::getBoxSticks() const {
  int64_t n = 1;
  for (int64_t b : getBox())
    n *= b;
  return n;
}

//===----------------------------------------------------------------------===//
// Registration
//===----------------------------------------------------------------------===//

void SpyreDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "Spyre/Dialect/Spyre/IR/SpyreAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// QuantAttr
//===----------------------------------------------------------------------===//

namespace {
/// Parses a keyword that `symbolize` maps to a value, or explains the
/// choices.
template <typename T, typename Symbolize>
FailureOr<T> parseQuantKeyword(AsmParser &parser, Symbolize symbolize,
                               StringRef what, StringRef choices) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef keyword;
  if (parser.parseKeyword(&keyword))
    return failure();
  // A symbolizer may explain its own failure (it takes the location).
  if constexpr (std::is_invocable_v<Symbolize, StringRef, SMLoc>) {
    return symbolize(keyword, loc);
  } else {
    if (std::optional<T> value = symbolize(keyword))
      return *value;
    return parser.emitError(loc, "unknown ")
           << what << " '" << keyword << "'; expected one of " << choices;
  }
}
} // namespace

FailureOr<quant::Format> mlir::spyre::parseQuantFormat(AsmParser &parser) {
  SmallVector<StringRef> names;
  for (quant::Format format : quant::allFormats())
    if (quant::getFormatInfo(format).kind != quant::FormatKind::Exponent)
      names.push_back(quant::getFormatInfo(format).name);
  std::string choices = llvm::join(names, ", ");
  return parseQuantKeyword<quant::Format>(
      parser,
      [&](StringRef name, SMLoc loc) -> FailureOr<quant::Format> {
        // Codebook formats (cb...) live in the library and Python only.
        if (name.starts_with_insensitive("cb"))
          return parser.emitError(loc, "'")
                 << name
                 << "' is a codebook: give its compute type as the format "
                    "and the code as codebook = \""
                 << name << "\"";
        std::optional<quant::Format> format = quant::parseFormat(name);
        if (format &&
            quant::getFormatInfo(*format).kind == quant::FormatKind::Exponent)
          format = std::nullopt;
        if (!format)
          return parser.emitError(loc, "unknown quantized format '")
                 << name << "'; expected one of " << choices;
        return *format;
      },
      "quantized format", choices);
}
void mlir::spyre::printQuantFormat(AsmPrinter &printer, quant::Format format) {
  printer << quant::getFormatInfo(format).name;
}
FailureOr<quant::Scaling> mlir::spyre::parseQuantScaling(AsmParser &parser) {
  return parseQuantKeyword<quant::Scaling>(
      parser, quant::parseScaling, "scaling",
      "none, tensor, channel, tile, matrix, mx");
}
void mlir::spyre::printQuantScaling(AsmPrinter &printer,
                                    quant::Scaling scaling) {
  printer << quant::stringifyScaling(scaling);
}
FailureOr<quant::CastMode> mlir::spyre::parseQuantCastMode(AsmParser &parser) {
  return parseQuantKeyword<quant::CastMode>(
      parser, quant::parseCastMode, "cast mode", "virtual, actual, compressed");
}
void mlir::spyre::printQuantCastMode(AsmPrinter &printer,
                                     quant::CastMode mode) {
  printer << quant::stringifyCastMode(mode);
}
FailureOr<std::optional<quant::ScaleType>>
mlir::spyre::parseQuantScaleType(AsmParser &parser) {
  FailureOr<quant::ScaleType> type = parseQuantKeyword<quant::ScaleType>(
      parser, quant::parseScaleType, "scale type",
      "float32, float16, bfloat16, float8_e4m3fn, float8_e8m0fnu");
  if (failed(type))
    return failure();
  return std::optional<quant::ScaleType>(*type);
}
void mlir::spyre::printQuantScaleType(AsmPrinter &printer,
                                      quant::ScaleType type) {
  printer << quant::stringifyScaleType(type);
}

/// A codebook attribute's codebook (with the generic one's mappings).
static llvm::Expected<quant::Codebook>
makeCodebook(quant::Format format, StringAttr code,
             DenseF64ArrayAttr mappings) {
  auto parsed = quant::parseCodebook(code.getValue());
  if (!parsed)
    return parsed.takeError();
  auto [book, compute] = std::move(*parsed);
  if (compute != format)
    return llvm::createStringError(
        llvm::formatv("codebook '{0}' holds {1} values, but format is {2} "
                      "(the compute type is the format)",
                      code.getValue(), quant::getFormatInfo(compute).name,
                      quant::getFormatInfo(format).name)
            .str());
  if (mappings) {
    if (!book.mappings.empty())
      return llvm::createStringError(
          ("codebook '" + code.getValue() +
           "' is implicit (its desc builds the mappings): mappings are for "
           "generic codebooks")
              .str());
    if (llvm::Error e =
            quant::setMappings(book, compute, mappings.asArrayRef()))
      return std::move(e);
  }
  return book;
}

static quant::QuantSpec
makeQuantSpec(quant::Format format, quant::Scaling scaling,
              quant::CastMode mode, int64_t axis, int64_t tile, int64_t axis2,
              int64_t tile2, std::optional<quant::ScaleType> scaleType,
              bool multiscale, bool zeroPoint, int64_t sparsity,
              StringAttr codebook, int64_t subtile, DenseF64ArrayAttr mappings,
              std::optional<quant::ScaleType> zeroType, bool saturate) {
  quant::QuantSpec spec;
  spec.saturate = saturate;
  spec.format = format;
  spec.scaling = scaling;
  spec.mode = mode;
  spec.axis = axis;
  spec.tile = tile;
  spec.axis2 = axis2;
  spec.tile2 = tile2;
  spec.scaleType = scaleType;
  spec.multiscale = multiscale;
  spec.zeroPoint = zeroPoint;
  spec.zeroType = zeroType;
  spec.sparsityPercent = static_cast<unsigned>(
      std::clamp<int64_t>(sparsity, 0, std::numeric_limits<unsigned>::max()));
  spec.subtile = subtile;
  if (codebook) {
    // (The verifier has reported a codebook that does not parse.)
    if (llvm::Expected<quant::Codebook> book =
            makeCodebook(format, codebook, mappings))
      spec.codebook = std::move(*book);
    else
      llvm::consumeError(book.takeError());
  }
  return spec;
}

LogicalResult QuantAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, quant::Format format,
    quant::Scaling scaling, quant::CastMode mode, int64_t axis, int64_t tile,
    int64_t axis2, int64_t tile2, std::optional<quant::ScaleType> scaleType,
    bool multiscale, bool zeroPoint, int64_t sparsity, StringAttr codebook,
    int64_t subtile, DenseF64ArrayAttr mappings,
    std::optional<quant::ScaleType> zeroType, bool saturate) {
  constexpr int64_t kMaxAxis = 64;
  for (int64_t a : {axis, axis2})
    if (a < -kMaxAxis || a >= kMaxAxis)
      return emitError() << "axis " << a << " is out of range [-" << kMaxAxis
                         << ", " << kMaxAxis << ")";
  if (sparsity != 0 && sparsity != 25 && sparsity != 50)
    return emitError() << "sparsity is 0, 25 or 50 percent (got " << sparsity
                       << ")";
  if (codebook) {
    if (llvm::Expected<quant::Codebook> book =
            makeCodebook(format, codebook, mappings);
        !book)
      return emitError() << llvm::toString(book.takeError());
  } else if (mappings) {
    return emitError() << "mappings are for codebooks (codebook = \"cb...\")";
  }
  // What does not depend on the tensor: checked on a probe shape every axis
  // fits, with dims every tile and sparse group divides.
  quant::QuantSpec spec = makeQuantSpec(
      format, scaling, mode, axis, tile, axis2, tile2, scaleType, multiscale,
      zeroPoint, sparsity, codebook, subtile, mappings, zeroType, saturate);
  int64_t rank = 2;
  for (int64_t a : {axis, axis2})
    rank = std::max(rank, a < 0 ? -a : a + 1);
  SmallVector<int64_t> probe(rank, 64);
  if (llvm::Expected<quant::QuantShapes> shapes =
          quant::computeShapes(probe, spec);
      !shapes)
    return emitError() << llvm::toString(shapes.takeError());
  return success();
}

quant::QuantSpec QuantAttr::getSpec() const {
  return makeQuantSpec(getFormat(), getScaling(), getMode(), getAxis(),
                       getTile(), getAxis2(), getTile2(), getScaleType(),
                       getMultiscale(), getZeroPoint(), getSparsity(),
                       getCodebook(), getSubtile(), getMappings(),
                       getZeroType(), getSaturate());
}

llvm::Expected<quant::QuantShapes>
QuantAttr::getShapes(ArrayRef<int64_t> shape) const {
  return quant::computeShapes(shape, getSpec());
}

/// The MLIR element type of a quantized dtype (torch spelling): integers
/// and packed bytes are signless.
static Type quantElementType(MLIRContext *ctx, StringRef dtype) {
  Builder b(ctx);
  return llvm::StringSwitch<Type>(dtype)
      .Case("float32", b.getF32Type())
      .Case("float16", b.getF16Type())
      .Case("bfloat16", b.getBF16Type())
      .Case("bool", b.getI1Type())
      .Cases({"int8", "uint8"}, b.getI8Type())
      .Case("float8_e4m3fn", b.getType<Float8E4M3FNType>())
      .Case("float8_e5m2", b.getType<Float8E5M2Type>())
      .Case("float8_e4m3fnuz", b.getType<Float8E4M3FNUZType>())
      .Case("float8_e5m2fnuz", b.getType<Float8E5M2FNUZType>())
      .Case("float8_e8m0fnu", b.getType<Float8E8M0FNUType>())
      .Default(Type());
}

FailureOr<SmallVector<std::pair<StringRef, RankedTensorType>>>
QuantAttr::getPartTypes(RankedTensorType type,
                        function_ref<InFlightDiagnostic()> emitError) const {
  Type floatType = type.getElementType();
  if (!floatType.isF32() && !floatType.isF16() && !floatType.isBF16())
    return emitError() << "quantizes f32, f16 or bf16 tensors, not "
                       << floatType;
  if (!type.hasStaticShape())
    return emitError() << "quantized tensors need static shapes";
  llvm::Expected<quant::QuantShapes> shapes = getShapes(type.getShape());
  if (!shapes)
    return emitError() << llvm::toString(shapes.takeError());
  bool compressed = getMode() == quant::CastMode::Compressed;
  SmallVector<std::pair<StringRef, RankedTensorType>> parts;
  auto add = [&](StringRef name, const quant::Companion &c) {
    if (!c.present)
      return;
    ArrayRef<int64_t> shape = compressed ? c.compressedShape : c.shape;
    Type element = quantElementType(getContext(),
                                    compressed ? c.compressedDtype : c.dtype);
    parts.emplace_back(name, RankedTensorType::get(shape, element));
  };
  for (auto [name, companion] : shapes->companions()) {
    // Virtual data is the dequantized values, in the tensor's own type.
    if (name == "data" && getMode() == quant::CastMode::Virtual)
      parts.emplace_back(name, type);
    else
      add(name, *companion);
  }
  return parts;
}
