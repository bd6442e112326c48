//===- SuperDSC.cpp - SuperDSC JSON from spyre.kernel ---------------------===//
//
// Field by field the reference stack's schema (torch-spyre's
// codegen/compute_ops.py generate_sdsc): dims are named by their SuperDSC
// labels; each tensor's layout class (OUTPUT/KERNEL/INPUT, or
// INPUT/KERNEL/OUTPUT for matmul, first seen first) is keyed by its stick
// label, its dims and its stick size; a tensor's `scale_` marks the layout
// class dims it has (1), lacks (-1) or lacks as a reduced stick (-2); start
// addresses are per core (DDR: segment base + offset + the core's slice;
// LX: the same offset on every core).
//
// Deliberate differences: `maskingConstId_` is the index of the mask
// constant (the reference always writes 0), and no `backGapCore_` is
// written (our kernels' operands never have device extents past the
// iteration space other than padding, which the layouts carry).
//
//===----------------------------------------------------------------------===//

#include "Spyre/Dialect/Spyre/IR/KernelForm.h"
#include "Spyre/Layout/Stickify.h"
#include "Spyre/Target/Emitters.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <map>

using namespace mlir;
using namespace mlir::spyre;
using llvm::json::Array;
using llvm::json::Object;
using JValue = llvm::json::Value;

namespace {

JValue affine(int64_t alpha, int64_t beta = 0) {
  return Object{{"Affine", Object{{"alpha_", alpha}, {"beta_", beta}}}};
}

JValue fold(int64_t factor, StringRef label) {
  return Object{{"factor_", factor}, {"label_", label}};
}

/// The per-core fold attributes every core-indexed table carries.
Array coreCoreletTime(int64_t cores) {
  return Array{fold(cores, "core"), fold(1, "corelet"), fold(1, "time")};
}

/// One tensor of a kernel as the SuperDSC sees it.
struct SdscTensor {
  SmallVector<std::string> order; ///< its own dims, then missing ones
  SmallVector<int> scale;         ///< per entry of `order`
  std::string stick;              ///< stick label (the op's for sparse ones)
  int64_t eps = 0;
  /// Op-dim elements one lane covers (packed codes: 2, a tile's scale: the
  /// tile; 1 otherwise).
  int64_t stickDivisor = 1;
  std::string format;
  int layoutClass = 0;
  bool resident = false;
  unsigned access = 0; ///< the kernel operand (inputs, then the result)
  /// Per op dim: the elements the tensor's device dims hold beyond one
  /// launch's extent (a view of a larger buffer), 0 for none.
  SmallVector<int64_t> backGap;
};

/// The stick op dim of a tensor, -1 when sparse.
int stickOpDim(const BoundLayout &bound, AffineMap map) {
  int host = bound.stickHostDim();
  if (host < 0)
    return -1;
  return getOpDimOf(map.getResult(host));
}

/// The value of a SuperDSC constant for format `format`.
FailureOr<int64_t> encodeConstant(KernelOp kernel, DataFormat format,
                                  double value) {
  llvm::Expected<uint32_t> bits = encodeDeviceValue(format, value);
  if (!bits) {
    kernel.emitOpError() << "constant " << value << " has no "
                         << stringifyDataFormat(format)
                         << " encoding: " << llvm::toString(bits.takeError());
    return failure();
  }
  return static_cast<int64_t>(*bits);
}

class KernelEmitter {
public:
  KernelEmitter(KernelOp kernel, const TargetModel &target)
      : kernel(kernel), target(target) {}

  /// The SuperDSC of launch `chunk` (row-major over the chunked dims).
  FailureOr<JValue> emit(int64_t index, int64_t chunk);

private:
  LogicalResult analyse();
  JValue allocateNode(unsigned i, int64_t chunk);
  Object coordInfo(const SdscTensor &tensor, StringRef label);
  FailureOr<JValue> constants(ArrayRef<std::pair<std::string, double>> values);

  /// The extents of op dim `d`, or of the synthetic stick dim (the label
  /// after the op dims, when there is one): one stick, not split, one chunk.
  struct DimView {
    int64_t padded, chunks, split;
  };
  DimView dimAt(unsigned d);
  unsigned numOpDims() { return kernel.getDims().size(); }

  KernelOp kernel;
  const TargetModel &target;
  Operation *payload = nullptr;
  int64_t syntheticSize = 0;
  SmallVector<AffineMap> maps;
  SmallVector<utils::IteratorType> iterators;
  SmallVector<std::string> labels;
  SmallVector<SdscTensor, 4> tensors;
  SmallVector<std::string> classNames;
  SmallVector<const SdscTensor *> classFirst;
  std::string opFunc;
  bool isMatmul = false;
  int64_t cores = 0;
};

LogicalResult KernelEmitter::analyse() {
  payload = kernel.getPayload();
  auto info = cast<KernelPayloadOpInterface>(payload);
  maps = info.getIndexingMapsArray();
  iterators = info.getIteratorTypesArray();
  labels = getDimLabels(payload);
  opFunc = getSuperDscOpFunc(payload);
  isMatmul = info.getExecutionUnit() == ExecutionUnit::PT;
  cores = kernel.getNumCores();
  unsigned numDims = labels.size();

  SmallVector<::mlir::Value> values(kernel.getInputs());
  values.push_back(kernel.getResult());
  // The op's stick: the input's for reductions, else the result's.
  bool isReduction =
      llvm::is_contained(iterators, utils::IteratorType::reduction) &&
      !isMatmul;
  unsigned ref = isReduction ? 0 : values.size() - 1;
  int opStick = -1;
  {
    auto type = cast<RankedTensorType>(values[ref].getType());
    llvm::Expected<BoundLayout> bound = bindLayout(type);
    if (!bound)
      return kernel.emitOpError() << llvm::toString(bound.takeError());
    opStick = stickOpDim(*bound, maps[ref]);
  }

  static const char *const kClasses[] = {"OUTPUT", "KERNEL", "INPUT",
                                         "KERNEL_IDX"};
  static const char *const kMatmulClasses[] = {"INPUT", "KERNEL", "OUTPUT",
                                               "KERNEL_IDX"};
  int inPlace = getInPlaceOperand(kernel);
  for (auto [i, value] : llvm::enumerate(values)) {
    // The destination written in place is the result's buffer, not an
    // operand of the copy (torch-spyre writes the slice view it copies into).
    if (static_cast<int>(i) == inPlace)
      continue;
    auto type = cast<RankedTensorType>(value.getType());
    llvm::Expected<BoundLayout> bound = bindLayout(type);
    if (!bound)
      return kernel.emitOpError() << llvm::toString(bound.takeError());
    AffineMap map = maps[i];
    SdscTensor t;
    t.access = static_cast<unsigned>(i);
    t.eps = bound->layout().elemsPerStick();
    DataFormat format = bound->layout().getFormat();
    // The backend copies 32-bit integers as 32-bit floats.
    if (format == DataFormat::IEEE_INT32 &&
        isa<IdentityOp, PadOp, ExtractSliceOp, InsertSliceOp>(payload))
      format = DataFormat::IEEE_FP32;
    t.format = stringifyDataFormat(format).str();
    t.resident = kernel.getAccess(i).isResident();
    int stick = stickOpDim(*bound, map);
    if (stick >= 0)
      getOpDimOf(map.getResult(bound->stickHostDim()), &t.stickDivisor);
    int shownStick = stick >= 0 ? stick : opStick;
    if (shownStick >= 0)
      t.stick = labels[shownStick];
    auto add = [&](StringRef label, int scale) {
      if (llvm::is_contained(t.order, label))
        return;
      t.order.push_back(label.str());
      t.scale.push_back(scale);
    };
    // Innermost non-stick device dim outward.
    int deviceRank = bound->layout().deviceRank();
    for (int d = deviceRank - 2; d >= 0; --d) {
      const auto &role = bound->roles()[d];
      if (role.kind == BoundLayout::DimKind::Piece) {
        if (int opDim = getOpDimOf(map.getResult(role.hostDim)); opDim >= 0)
          add(labels[opDim], 1);
      } else if (role.kind == BoundLayout::DimKind::Unit && stick >= 0) {
        add(labels[stick], 1);
      }
    }
    if (stick >= 0)
      add(labels[stick], 1);
    if (!isMatmul)
      for (unsigned d = 0; d < numDims; ++d)
        add(labels[d], stick < 0 && static_cast<int>(d) == opStick ? -2 : -1);

    // torch-spyre's backGapCore_: wherever a device dim holds more than the
    // launch iterates over (the stick dim counted in whole sticks).
    t.backGap.assign(numDims, 0);
    for (auto [d, role] : llvm::enumerate(bound->roles())) {
      if (role.kind != BoundLayout::DimKind::Piece)
        continue;
      int64_t divisor = 1;
      int opDim = getOpDimOf(map.getResult(role.hostDim), &divisor);
      if (opDim < 0)
        continue;
      int64_t device = bound->layout().getDeviceSize()[d] *
                       std::max<int64_t>(1, role.multiplier) * divisor;
      KernelDimAttr dim = kernel.getDim(opDim);
      int64_t iterated = dim.getPadded() / dim.getChunks();
      t.backGap[opDim] = std::max(t.backGap[opDim], device - iterated);
    }

    t.layoutClass = -1;
    tensors.push_back(std::move(t));
  }
  // Tensors whose stick holds no op dim (every operand of a pointwise op on
  // per-row values, e.g. the reciprocal of row sums) get a synthetic stick
  // dim, as the reference generator writes them: labelled with the next
  // unused label, one stick long, not split. A stick label is never empty.
  if (llvm::any_of(tensors,
                   [](const SdscTensor &t) { return t.stick.empty(); })) {
    std::string label = getUnusedDimLabel(labels);
    labels.push_back(label);
    for (SdscTensor &t : tensors) {
      if (t.stick.empty()) {
        t.stick = label;
        syntheticSize = std::max(syntheticSize, t.eps);
        t.order.push_back(label);
        // layernormscale reads both statistics of exx2's stick: the
        // reference generator marks its input's stick reduced (-2).
        t.scale.push_back(isa<LayerNormScaleOp>(payload) && t.access == 0 ? -2
                                                                          : 1);
      } else if (!isMatmul) {
        t.order.push_back(label);
        t.scale.push_back(-1);
      }
    }
  }
  for (SdscTensor &t : tensors) {
    for (auto [c, first] : llvm::enumerate(classFirst)) {
      SmallVector<std::string> x(t.order), y(first->order);
      llvm::sort(x);
      llvm::sort(y);
      if (first->stick == t.stick && x == y && first->eps == t.eps &&
          first->stickDivisor == t.stickDivisor) {
        t.layoutClass = static_cast<int>(c);
        break;
      }
    }
    if (t.layoutClass < 0) {
      t.layoutClass = static_cast<int>(classFirst.size());
      classFirst.push_back(&t);
      size_t n = classFirst.size() - 1;
      // The scaled matmul's scales (a class of their own) come before its
      // output: a matmul's classes are named by role, A's INPUT, B's
      // KERNEL, the result's OUTPUT, any other KERNEL_IDX.
      bool isResult = t.access + 1 == values.size();
      if (isMatmul && n > 1)
        classNames.push_back(isResult ? std::string("OUTPUT")
                             : !llvm::is_contained(classNames, "KERNEL_IDX")
                                 ? std::string("KERNEL_IDX")
                                 : "LAYOUT" + std::to_string(n));
      else
        classNames.push_back(n < 4 ? (isMatmul ? kMatmulClasses : kClasses)[n]
                                   : "LAYOUT" + std::to_string(n));
    }
  }
  return success();
}

KernelEmitter::DimView KernelEmitter::dimAt(unsigned d) {
  if (d >= numOpDims())
    return {syntheticSize, 1, 1};
  KernelDimAttr dim = kernel.getDim(d);
  return {dim.getPadded(), dim.getChunks(), dim.getSplit()};
}

Object KernelEmitter::coordInfo(const SdscTensor &tensor, StringRef label) {
  const SdscTensor &cls = *classFirst[tensor.layoutClass];
  unsigned d = llvm::find(labels, label) - labels.begin();
  DimView dim = dimAt(d);
  int scale = -1;
  for (auto [l, s] : llvm::zip(tensor.order, tensor.scale))
    if (l == label)
      scale = s;
  int64_t extent = dim.padded / dim.chunks;
  int64_t size = 1, splits = 1;
  if (scale == 1) {
    size = extent / dim.split;
    splits = dim.split;
  }
  Object folds;
  if (label != cls.stick) {
    folds["dim_prop_func"] =
        Array{affine(size), affine(0), affine(0), affine(1)};
    folds["dim_prop_attr"] =
        Array{fold(splits, "core_fold"), fold(1, "corelet_fold"),
              fold(1, "row_fold"), fold(size, "elem_arr_0")};
    return Object{{"spatial", 3},
                  {"temporal", 0},
                  {"elemArr", 1},
                  {"padding", "nopad"},
                  {"folds", std::move(folds)}};
  }
  bool stickReduction = scale == -2;
  int64_t eps = cls.eps;
  // A lane of packed codes or tile scales steps q elements of the dim.
  int64_t q = cls.stickDivisor;
  folds["dim_prop_func"] =
      Array{affine(stickReduction ? eps : size), affine(0), affine(0),
            affine(eps * q), affine(stickReduction ? 0 : q)};
  folds["dim_prop_attr"] = Array{
      fold(splits, "core_fold"), fold(1, "corelet_fold"), fold(1, "row_fold"),
      fold(stickReduction ? 1 : std::max<int64_t>(1, size / (eps * q)),
           "elem_arr_1"),
      fold(eps, "elem_arr_0")};
  return Object{{"spatial", 3},
                {"temporal", 0},
                {"elemArr", 2},
                {"padding", "nopad"},
                {"folds", std::move(folds)}};
}

JValue KernelEmitter::allocateNode(unsigned i, int64_t chunk) {
  const SdscTensor &t = tensors[i];
  const SdscTensor &cls = *classFirst[t.layoutClass];
  AccessAttr access = kernel.getAccess(t.access);
  StringRef component = t.resident ? "lx" : "hbm";
  // The chunk's offset.
  int64_t chunkOffset = 0;
  if (!access.getChunkSteps().empty()) {
    int64_t rest = chunk;
    for (int d = static_cast<int>(numOpDims()) - 1; d >= 0; --d) {
      int64_t chunks = kernel.getDim(d).getChunks();
      chunkOffset += (rest % chunks) * access.getChunkSteps()[d];
      rest /= chunks;
    }
  }
  Object addresses;
  for (int64_t c = 0; c < cores; ++c) {
    int64_t address = access.getBase();
    if (!t.resident)
      address += access.getCoreOffsets()[c] + chunkOffset;
    addresses[llvm::formatv("[{0}, 0, 0]", c).str()] = std::to_string(address);
  }
  Object coordinates;
  for (const std::string &label : cls.order)
    coordinates[label] = coordInfo(t, label);
  Array maxDimSizes;
  for (size_t k = 0; k < cls.order.size(); ++k)
    maxDimSizes.push_back(-1);
  Array ownOrder;
  for (const std::string &label : t.order)
    ownOrder.push_back(label);
  // An LX tensor names every core, a DDR one all cores at once (-1).
  Object backGap;
  for (auto [d, gap] : llvm::enumerate(t.backGap)) {
    if (gap <= 0)
      continue;
    Object perCore;
    if (t.resident)
      for (int64_t c = 0; c < cores; ++c)
        perCore[std::to_string(c)] = std::to_string(gap);
    else
      perCore["-1"] = std::to_string(gap);
    backGap[labels[d]] = std::move(perCore);
  }
  Object node{
      {"nodeType_", "allocate"},
      {"name_", llvm::formatv("allocate-Tensor{0}_{1}", i, component).str()},
      {"prev_", ""},
      {"ldsIdx_", static_cast<int64_t>(i)},
      {"component_", component},
      {"layoutDimOrder_", std::move(ownOrder)},
      {"maxDimSizes_", std::move(maxDimSizes)},
      {"indirectAllocType_", "no_indirection"},
      {"startAddressCoreCorelet_",
       Object{{"dim_prop_func",
               Array{Object{{"Map", Object{}}}, Object{{"Const", Object{}}},
                     Object{{"Const", Object{}}}}},
              {"dim_prop_attr", coreCoreletTime(cores)},
              {"data_", std::move(addresses)}}},
      {"coordinates_", Object{{"coordInfo", std::move(coordinates)},
                              {"coreIdToWkSlice_", Object{}}}}};
  if (!backGap.empty())
    node["backGapCore_"] = std::move(backGap);
  return node;
}

FailureOr<JValue>
KernelEmitter::constants(ArrayRef<std::pair<std::string, double>> values) {
  if (values.empty())
    return JValue("{}");
  DataFormat format = *symbolizeDataFormat(tensors.front().format);
  Object out;
  for (auto [k, entry] : llvm::enumerate(values)) {
    FailureOr<int64_t> bits = encodeConstant(kernel, format, entry.second);
    if (failed(bits))
      return failure();
    out[std::to_string(k)] = Object{
        {"dataFormat_", tensors.front().format},
        {"name_", entry.first},
        {"data_", Object{{"dim_prop_func", Array{Object{{"Const", Object{}}},
                                                 Object{{"Const", Object{}}},
                                                 Object{{"Map", Object{}}}}},
                         {"dim_prop_attr", coreCoreletTime(cores)},
                         {"data_", Object{{"[0, 0, 0]", Array{*bits}}}}}}};
  }
  return JValue(std::move(out));
}

FailureOr<JValue> KernelEmitter::emit(int64_t index, int64_t chunk) {
  if (tensors.empty() && failed(analyse()))
    return failure();
  unsigned numDims = labels.size();

  // Core tables.
  Object coreIdToDsc, coreIdToWkSlice, schedule, slicesPerDim;
  for (unsigned d = 0; d < numDims; ++d)
    slicesPerDim[labels[d]] = dimAt(d).split;
  Array coreIds;
  for (int64_t c = 0; c < cores; ++c) {
    std::string key = std::to_string(c);
    coreIdToDsc[key] = 0;
    SmallVector<int64_t> at = kernel.getSliceOf(c);
    Object slice;
    for (unsigned d = 0; d < numDims; ++d)
      slice[labels[d]] = d < at.size() ? at[d] : 0;
    coreIdToWkSlice[key] = std::move(slice);
    schedule[key] = Array{Array{-1, 0, 0, 0}};
    coreIds.push_back(c);
  }

  // Extents.
  Object n{{"name_", "n"}}, perCore{{"name_", "core"}};
  for (unsigned d = 0; d < numDims; ++d) {
    DimView dim = dimAt(d);
    int64_t extent = dim.padded / dim.chunks;
    n[labels[d] + "_"] = extent;
    perCore[labels[d] + "_"] = extent / dim.split;
  }

  // Constants and masking.
  SmallVector<std::pair<std::string, double>> values =
      cast<KernelPayloadOpInterface>(payload).getSuperDscConstants();
  Object masking;
  int64_t maskId = -1;
  std::optional<double> maskValue;
  SmallVector<unsigned> maskedDims;
  auto reduction = dyn_cast<ReductionOpInterface>(payload);
  if (reduction && reduction.getMaskValue()) {
    maskValue = reduction.getMaskValue();
    maskedDims.push_back(static_cast<unsigned>(reduction.getReducedDim()));
  } else if (auto exx2 = dyn_cast<Exx2Op>(payload);
             exx2 && exx2.getPaddingValue()) {
    maskValue = exx2.getPaddingValue()->convertToDouble();
    maskedDims.push_back(numOpDims() - 1);
  } else if (auto pad = dyn_cast<PadOp>(payload)) {
    maskValue = pad.getValue().convertToDouble();
    for (unsigned d = 0; d < numOpDims(); ++d)
      maskedDims.push_back(d);
  }
  for (unsigned d : maskedDims) {
    KernelDimAttr dim = kernel.getDim(d);
    if (dim.getPadded() > dim.getSize())
      masking[labels[d]] =
          Array{Array{dim.getSize(), dim.getPadded() - dim.getSize()}};
  }
  if (!masking.empty()) {
    maskId = static_cast<int64_t>(values.size());
    values.push_back({"samv-maskvalue", *maskValue});
  }
  FailureOr<JValue> constantInfo = constants(values);
  if (failed(constantInfo))
    return failure();

  // Layout classes, tensors, allocation.
  Object primary;
  for (auto [c, first] : llvm::enumerate(classFirst)) {
    Array order;
    for (const std::string &label : first->order)
      order.push_back(label);
    primary[classNames[c]] = Object{{"layoutDimOrder_", std::move(order)},
                                    {"stickDimOrder_", Array{first->stick}},
                                    {"stickSize_", Array{first->eps}}};
  }
  Array scheduleTree, labeled;
  for (unsigned i = 0; i < tensors.size(); ++i) {
    const SdscTensor &t = tensors[i];
    const SdscTensor &cls = *classFirst[t.layoutClass];
    scheduleTree.push_back(allocateNode(i, chunk));
    Array scale;
    for (const std::string &label : cls.order) {
      int s = -1;
      for (auto [l, v] : llvm::zip(t.order, t.scale))
        if (l == label)
          s = v;
      scale.push_back(s);
    }
    Object memOrg{{"lx", Object{{"isPresent", 1}}}};
    if (!t.resident)
      memOrg["hbm"] = Object{{"isPresent", 1}};
    labeled.push_back(Object{{"ldsIdx_", static_cast<int64_t>(i)},
                             {"dsName_", "Tensor" + std::to_string(i)},
                             {"dsType_", classNames[t.layoutClass]},
                             {"scale_", std::move(scale)},
                             {"wordLength", target.stickBytes / t.eps},
                             {"dataFormat_", t.format},
                             {"memOrg_", std::move(memOrg)}});
  }

  // The compute op: reductions other than matmul list the output as an
  // input too.
  bool isReduction =
      llvm::is_contained(iterators, utils::IteratorType::reduction);
  unsigned numInputs = tensors.size() - 1;
  if (isReduction && !isMatmul)
    numInputs += 1;
  Array inputs;
  for (unsigned i = 0; i < numInputs; ++i)
    inputs.push_back(llvm::formatv("Tensor{0}-idx{0}", i).str());
  unsigned last = tensors.size() - 1;
  Object compute{{"exUnit", isMatmul ? "pt" : "sfp"},
                 {"opFuncName", opFunc},
                 {"attributes_", Object{{"dataFormat_", tensors.front().format},
                                        {"fidelity_", "regular"}}},
                 {"location", "Inner"},
                 {"inputLabeledDs", std::move(inputs)},
                 {"outputLabeledDs",
                  Array{llvm::formatv("Tensor{0}-idx{0}", last).str()}}};

  Object dsc{{"numCoresUsed_", cores},
             {"numCoreletsUsed_", 1},
             {"coreIdsUsed_", std::move(coreIds)},
             {"N_", std::move(n)},
             {"coordinateMasking_", std::move(masking)},
             {"maskingConstId_", maskId},
             {"dataStageParam_",
              Object{{"0", Object{{"ss_", JValue(Object(perCore))},
                                  {"el_", JValue(std::move(perCore))}}}}},
             {"primaryDsInfo_", std::move(primary)},
             {"scheduleTree_", std::move(scheduleTree)},
             {"labeledDs_", std::move(labeled)},
             {"constantInfo_", std::move(*constantInfo)},
             {"computeOp_", Array{std::move(compute)}}};

  Object body{{"sdscFoldProps_", Array{fold(1, "time")}},
              {"sdscFolds_", Object{{"dim_prop_func", Array{affine(1)}},
                                    {"dim_prop_attr", Array{fold(1, "time")}},
                                    {"data_", Object{{"[0]", "0"}}}}},
              {"coreFoldProp_", fold(cores, "core")},
              {"coreletFoldProp_", fold(1, "corelet")},
              {"numCoresUsed_", cores},
              {"coreIdToDsc_", std::move(coreIdToDsc)},
              {"numWkSlicesPerDim_", std::move(slicesPerDim)},
              {"coreIdToWkSlice_", std::move(coreIdToWkSlice)},
              {"coreIdToDscSchedule", std::move(schedule)},
              {"dscs_", Array{Object{{opFunc, std::move(dsc)}}}}};
  return JValue(
      Object{{std::to_string(index) + "_" + opFunc, std::move(body)}});
}

/// Every kernel of `function`, in program order, or failure when device
/// work is not in kernel form.
FailureOr<SmallVector<KernelOp>> collectKernels(FunctionOpInterface function) {
  SmallVector<KernelOp> kernels;
  bool ok = true;
  function.getFunctionBody().walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (auto kernel = dyn_cast<KernelOp>(op)) {
      kernels.push_back(kernel);
      return WalkResult::skip();
    }
    // A payload op outside a kernel: on device tensors it was not lowered,
    // on host tensors not even laid out (--spyre-convert-linalg output).
    if (isKernelPayload(op)) {
      op->emitOpError() << "is not in kernel form; run "
                           "--spyre-lower-to-kernels (or --spyre-pipeline) "
                           "first";
      ok = false;
    }
    return WalkResult::advance();
  });
  if (!ok)
    return failure();
  return kernels;
}

} // namespace

FailureOr<std::vector<EmittedFile>> mlir::spyre::emitSuperDsc(ModuleOp module) {
  // A module that never mentions the dialect has not loaded it.
  module.getContext()->getOrLoadDialect<SpyreDialect>();
  TargetModel target = getTarget(module).getModel();
  std::vector<EmittedFile> files;
  int64_t index = 0;
  for (auto function : module.getOps<FunctionOpInterface>()) {
    FailureOr<SmallVector<KernelOp>> kernels = collectKernels(function);
    if (failed(kernels))
      return failure();
    for (KernelOp kernel : *kernels) {
      KernelEmitter emitter(kernel, target);
      for (int64_t chunk = 0, e = kernel.getNumChunks(); chunk < e; ++chunk) {
        FailureOr<JValue> json = emitter.emit(index, chunk);
        if (failed(json))
          return failure();
        // Rendered now, the tree dropped: the module's SuperDSCs never
        // exist as JSON trees all at once.
        EmittedFile file;
        file.name = "sdsc_" + std::to_string(index) + ".json";
        file.text = llvm::formatv("{0:2}", *json).str() + "\n";
        files.push_back(std::move(file));
        ++index;
      }
    }
  }
  return files;
}

/// The bundle `kernel` runs in: its `spyre.bundle`, or none (a bundle of
/// its own) when --spyre-form-bundles has not run.
static std::optional<int64_t> bundleOf(KernelOp kernel) {
  if (auto attr =
          kernel->getAttrOfType<IntegerAttr>(SpyreDialect::kBundleAttrName))
    return attr.getInt();
  return std::nullopt;
}

FailureOr<std::vector<EmittedBundle>>
mlir::spyre::emitBundles(ModuleOp module) {
  std::vector<EmittedBundle> bundles;
  int64_t sdsc = 0;
  llvm::DenseSet<int64_t> closed;
  for (auto function : module.getOps<FunctionOpInterface>()) {
    FailureOr<SmallVector<KernelOp>> kernels = collectKernels(function);
    if (failed(kernels))
      return failure();
    KernelOp first;
    std::optional<int64_t> current;
    llvm::json::Array sdscs;
    std::string body;
    auto close = [&] {
      if (!first)
        return;
      llvm::json::Array segments;
      for (Attribute mem : first.getSegments()) {
        std::string text;
        llvm::raw_string_ostream os(text);
        os << mem;
        segments.push_back(text);
      }
      std::string name = "bundle_" + std::to_string(bundles.size()) + ".mlir";
      bundles.push_back(
          {name,
           "module {\n\tfunc.func @sdsc_bundle() {\n" + body +
               "\t\treturn\n\t}\n}\n",
           llvm::json::Object{{"function", function.getName().str()},
                              {"segments", std::move(segments)},
                              {"sdscs", std::move(sdscs)}}});
      if (current)
        closed.insert(*current);
      first = KernelOp();
      current.reset();
      sdscs = llvm::json::Array();
      body.clear();
    };
    for (KernelOp kernel : *kernels) {
      std::optional<int64_t> bundle = bundleOf(kernel);
      if (!first || !bundle || bundle != current)
        close();
      if (bundle && closed.contains(*bundle))
        return kernel.emitOpError()
               << "runs in bundle " << *bundle
               << ", which earlier kernels ended; a bundle's kernels run one "
                  "after another";
      if (first && first.getSegments() != kernel.getSegments())
        return kernel.emitOpError()
               << "binds the segments " << kernel.getSegments()
               << ", but bundle " << *bundle << " binds " << first.getSegments()
               << "; its kernels share one binding (run --spyre-form-bundles)";
      if (!first) {
        first = kernel;
        current = bundle;
      }
      for (int64_t chunk = 0, e = kernel.getNumChunks(); chunk < e; ++chunk) {
        std::string file = "sdsc_" + std::to_string(sdsc++) + ".json";
        body +=
            "\t\tsdscbundle.sdsc_execute () {sdsc_filename=\"" + file + "\"}\n";
        sdscs.push_back(file);
      }
    }
    close();
  }
  return bundles;
}

llvm::json::Value mlir::spyre::listHostSegments(ModuleOp module) {
  llvm::json::Array segments;
  int64_t index = 0;
  for (auto function : module.getOps<FunctionOpInterface>()) {
    if (function.isExternal())
      continue;
    for (Operation &op : function.getFunctionBody().front()) {
      if (auto kernel = dyn_cast<KernelOp>(op)) {
        index += kernel.getNumChunks();
      } else if (auto call = dyn_cast<func::CallOp>(op)) {
        auto callee = module.lookupSymbol<func::FuncOp>(call.getCallee());
        if (!callee || !callee->hasAttr(SpyreDialect::kHostSegmentAttrName))
          continue;
        segments.push_back(
            llvm::json::Object{{"name", call.getCallee().str()},
                               {"function", function.getName().str()},
                               {"before_sdsc", index}});
      }
    }
  }
  return segments;
}
