//===- StickRules.cpp - Stick constraints of compute ops
//-------------------===//

#include "Spyre/Dialect/Spyre/IR/StickRules.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::spyre;

std::string mlir::spyre::describeStick(int stick) {
  if (stick == kSparseStick)
    return "sparse";
  if (stick == kAnyStick)
    return "any";
  return "d" + std::to_string(stick);
}

/// The op dims the result's map covers, in result-dim order.
static SmallVector<int> resultOpDims(AffineMap resultMap) {
  SmallVector<int> dims;
  for (AffineExpr expr : resultMap.getResults())
    dims.push_back(static_cast<int>(cast<AffineDimExpr>(expr).getPosition()));
  return dims;
}

/// Whether op dim `dim` appears in `map`.
static bool mapsDim(AffineMap map, int dim) {
  return map.isFunctionOfDim(static_cast<unsigned>(dim));
}

SmallVector<StickConfig> mlir::spyre::getStickConfigs(ComputeOpInterface op) {
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  AffineMap resultMap = maps.back();
  ArrayRef<AffineMap> inputMaps = ArrayRef<AffineMap>(maps).drop_back();
  SmallVector<StickConfig> configs;
  auto isScalar = [&](unsigned i) { return inputMaps[i].getNumResults() == 0; };

  switch (op.getStickRule()) {
  case StickRule::Pointwise: {
    for (int p : resultOpDims(resultMap)) {
      StickConfig config;
      for (unsigned i = 0; i < inputMaps.size(); ++i)
        config.inputs.push_back(mapsDim(inputMaps[i], p) ? p : kAnyStick);
      config.result = p;
      configs.push_back(config);
    }
    // Sparse in, sparse out (e.g. the reciprocal of a row sum).
    StickConfig sparse;
    for (unsigned i = 0; i < inputMaps.size(); ++i)
      sparse.inputs.push_back(isScalar(i) ? kAnyStick : kSparseStick);
    sparse.result = kSparseStick;
    configs.push_back(sparse);
    break;
  }
  case StickRule::Reduction: {
    SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
    for (unsigned s = 0; s < iterators.size(); ++s) {
      if (!mapsDim(inputMaps[0], s))
        continue;
      StickConfig config;
      config.inputs.push_back(static_cast<int>(s));
      for (unsigned i = 1; i < inputMaps.size(); ++i)
        config.inputs.push_back(kAnyStick);
      config.result = iterators[s] == utils::IteratorType::reduction
                          ? kSparseStick
                          : static_cast<int>(s);
      configs.push_back(config);
    }
    StickConfig sparse;
    sparse.inputs.push_back(kSparseStick);
    for (unsigned i = 1; i < inputMaps.size(); ++i)
      sparse.inputs.push_back(kAnyStick);
    sparse.result = kSparseStick;
    configs.push_back(sparse);
    break;
  }
  case StickRule::Matmul: {
    SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
    int k = -1;
    for (auto [d, it] : llvm::enumerate(iterators))
      if (it == utils::IteratorType::reduction)
        k = static_cast<int>(d);
    int n = resultOpDims(resultMap).back();
    configs.push_back(StickConfig{{k, n}, n});
    break;
  }
  case StickRule::ScaledMatmul: {
    // (m, n, k): A and the data on k; scales and zeros that vary along k on
    // k, channel ones (indexed by n alone) on n; C on n.
    StickConfig config;
    for (AffineMap map : inputMaps)
      config.inputs.push_back(mapsDim(map, 2)   ? 2
                              : mapsDim(map, 1) ? 1
                                                : kAnyStick);
    config.result = 1;
    configs.push_back(config);
    break;
  }
  case StickRule::Norm: {
    // The data (x, weight, bias, the normalized result) is sticked on the
    // normalized dim - the innermost dim of input 0 - and the per-row
    // statistics, which lack it, are sparse.
    AffineMap data = inputMaps.empty() ? resultMap : inputMaps.front();
    int normalized =
        data.getNumResults() == 0
            ? kAnyStick
            : static_cast<int>(data.getDimPosition(data.getNumResults() - 1));
    auto stickOf = [&](AffineMap map) {
      return map.getNumResults() == 0   ? kAnyStick
             : mapsDim(map, normalized) ? normalized
                                        : kSparseStick;
    };
    StickConfig config;
    for (AffineMap map : inputMaps)
      config.inputs.push_back(stickOf(map));
    config.result = stickOf(resultMap);
    configs.push_back(config);
    break;
  }
  }
  // A box may take its stick only on a dim where it starts (and, written,
  // ends) on a whole stick.
  auto keepAligned = [&](RankedTensorType type, auto aligned) {
    llvm::Expected<SpyreTensorLayout> layout = getDefaultLayout(
        withoutLayout(type), std::nullopt, getTarget(op).getStickBytes());
    if (!layout) {
      llvm::consumeError(layout.takeError());
      return;
    }
    int64_t eps = layout->elemsPerStick();
    llvm::erase_if(configs, [&](const StickConfig &config) {
      return config.result >= 0 &&
             !aligned(static_cast<unsigned>(config.result), eps);
    });
  };
  if (auto slice = dyn_cast<ExtractSliceOp>(op.getOperation()))
    keepAligned(slice.getInput().getType(), [&](unsigned d, int64_t eps) {
      return slice.isStickAligned(d, eps);
    });
  if (auto insert = dyn_cast<InsertSliceOp>(op.getOperation()))
    keepAligned(insert.getDest().getType(), [&](unsigned d, int64_t eps) {
      return insert.isStickAligned(d, eps);
    });
  return configs;
}

FailureOr<int> mlir::spyre::getStickOpDim(AffineMap map, Type type) {
  auto tensorType = dyn_cast<RankedTensorType>(type);
  if (!tensorType || !getLayoutAttr(tensorType))
    return failure();
  llvm::Expected<BoundLayout> bound = bindLayout(tensorType);
  if (!bound) {
    llvm::consumeError(bound.takeError());
    return failure();
  }
  int h = bound->stickHostDim();
  if (h < 0)
    return kSparseStick;
  // A stick along a constant dim (a size-1 dim a map indexes with 0) holds
  // one value: the layout is sparse for the op.
  int opDim = getOpDimOf(map.getResult(static_cast<unsigned>(h)));
  return opDim < 0 ? kSparseStick : opDim;
}

LogicalResult mlir::spyre::verifyStickRule(ComputeOpInterface op) {
  Operation *operation = op.getOperation();
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  unsigned numInputs = operation->getNumOperands();
  Type resultType = operation->getResult(0).getType();
  bool resultLaidOut = isDeviceTensor(resultType);

  // Either everything (but scalars) is laid out, or nothing is.
  SmallVector<int, 4> actual;
  for (unsigned i = 0; i < numInputs; ++i) {
    Type type = operation->getOperand(i).getType();
    if (maps[i].getNumResults() == 0) {
      actual.push_back(kAnyStick);
      continue;
    }
    if (isDeviceTensor(type) != resultLaidOut)
      return op.emitOpError() << "mixes host and device tensors: input #" << i
                              << (resultLaidOut ? " has no" : " has a")
                              << " #spyre.layout but the result "
                              << (resultLaidOut ? "has one" : "does not");
    if (!resultLaidOut)
      continue;
    FailureOr<int> stick = getStickOpDim(maps[i], type);
    if (failed(stick))
      return failure(); // The type verifier reports the broken layout.
    actual.push_back(*stick);
  }
  if (!resultLaidOut)
    return success();
  FailureOr<int> resultStick = getStickOpDim(maps.back(), resultType);
  if (failed(resultStick))
    return failure();

  SmallVector<StickConfig> configs = getStickConfigs(op);
  for (const StickConfig &config : configs) {
    bool matches = config.result == *resultStick;
    for (unsigned i = 0; matches && i < numInputs; ++i)
      matches = config.inputs[i] == kAnyStick || actual[i] == kAnyStick ||
                config.inputs[i] == actual[i];
    if (matches)
      return success();
  }

  InFlightDiagnostic diag = op.emitOpError();
  auto listSticks = [&]() {
    for (unsigned i = 0; i < numInputs; ++i)
      if (actual[i] != kAnyStick)
        diag << ", input #" << i << " on " << describeStick(actual[i]);
    diag << ", result on " << describeStick(*resultStick);
  };
  switch (op.getStickRule()) {
  case StickRule::Pointwise:
    diag << "operands must be sticked on the result's stick dim (inputs "
            "broadcast along it are exempt), but they are not:";
    listSticks();
    break;
  case StickRule::Reduction: {
    const StickConfig *expected = nullptr;
    for (const StickConfig &config : configs)
      if (config.inputs[0] == actual[0])
        expected = &config;
    diag << "a reduction keeps its input's stick dim, or gives a sparse "
            "result when it reduces along the stick; input #0 is sticked on "
         << describeStick(actual[0]) << " so the result must be "
         << (expected ? describeStick(expected->result) : "sparse")
         << ", but it is " << describeStick(*resultStick);
    break;
  }
  case StickRule::Matmul: {
    const StickConfig &expected = configs.front();
    diag << "matmul needs A sticked on k (" << describeStick(expected.inputs[0])
         << ") and B and C sticked on n (" << describeStick(expected.result)
         << "), but A is on " << describeStick(actual[0]) << ", B on "
         << describeStick(actual[1]) << " and C on "
         << describeStick(*resultStick);
    break;
  }
  case StickRule::ScaledMatmul:
    diag << "the scaled matmul needs A, B's data and its per-tile scales "
            "sticked on k (d2), channel scales and C on n (d1), but they are "
            "not:";
    listSticks();
    break;
  case StickRule::Norm:
    diag << "the data must be sticked on the normalized (innermost) dim and "
            "the per-row statistics sparse, but they are not:";
    listSticks();
    break;
  }
  return diag;
}
