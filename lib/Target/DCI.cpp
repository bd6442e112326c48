//===- DCI.cpp - DataConversionInfo descriptors ---------------------------===//
//
// The runtime's host <-> device DMA descriptor (torch-spyre csrc/spyre_mem.cpp
// generate_dci): formats on both sides, shapes and stride infos innermost
// first, one stride info per loop nest of the layout algebra's DMA plan (the
// main nest over full tiles, then remainder nests for partial sticks).
//
//===----------------------------------------------------------------------===//

#include "Spyre/Dialect/Spyre/IR/KernelForm.h"
#include "Spyre/Target/Emitters.h"

#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace mlir::spyre;
using llvm::json::Array;
using llvm::json::Object;
using JValue = llvm::json::Value;

namespace {

template <typename Range> Array reversed(const Range &values) {
  Array out;
  for (auto it = std::rbegin(values); it != std::rend(values); ++it)
    out.push_back(*it);
  return out;
}

struct Transfer {
  ::mlir::Value value;
  bool hostToDevice;
  std::string what;
};

FailureOr<JValue> describe(Operation *anchor, const Transfer &transfer) {
  auto type = cast<RankedTensorType>(transfer.value.getType());
  llvm::Expected<BoundLayout> bound = bindLayout(type);
  if (!bound) {
    anchor->emitError() << transfer.what << ": "
                        << llvm::toString(bound.takeError());
    return failure();
  }
  FailureOr<HostType> host = getHostType(type.getElementType());
  if (failed(host)) {
    anchor->emitError() << transfer.what << ": element type "
                        << type.getElementType()
                        << " has no host format for a DMA";
    return failure();
  }
  StringRef hostName = dciHostFormat(*host);
  StringRef deviceName = stringifyDataFormat(bound->layout().getFormat());
  SmallVector<int64_t> hostShape(type.getShape());
  if (hostShape.empty())
    hostShape.push_back(1);
  ArrayRef<int64_t> deviceShape = bound->layout().getDeviceSize();

  // One loop per device dim, as the runtime writes its stride infos.
  DmaPlan plan =
      bound->dmaPlan(transfer.hostToDevice ? DmaDirection::HostToDevice
                                           : DmaDirection::DeviceToHost,
                     DmaForm::DeviceRank);
  // A view of a block of rows starts inside the buffer the runtime moves.
  int64_t windowBytes = 0;
  getBufferRoot(transfer.value, &windowBytes);
  const SpyreTensorLayout &layout = bound->layout();
  int64_t window = windowBytes * layout.elemsPerStick() / layout.stickBytes();
  Array infos;
  for (const DmaNest &nest : plan.nests) {
    SmallVector<int64_t> sizes, hostStrides, deviceStrides;
    for (const DmaLoop &loop : nest.loops) {
      sizes.push_back(loop.range);
      hostStrides.push_back(loop.hostStride);
      deviceStrides.push_back(loop.deviceStride);
    }
    bool h2d = transfer.hostToDevice;
    infos.push_back(Object{
        {"size_", reversed(sizes)},
        {"stride_src_", reversed(h2d ? hostStrides : deviceStrides)},
        {"stride_dst_", reversed(h2d ? deviceStrides : hostStrides)},
        {"offset_src_", h2d ? nest.hostOffset : nest.deviceOffset + window},
        {"offset_dst_", h2d ? nest.deviceOffset + window : nest.hostOffset}});
  }
  bool h2d = transfer.hostToDevice;
  // Every descriptor is named as the runtime names it; which tensor and
  // buffer it moves is our metadata, written beside it (the manifest).
  return JValue(Object{
      {"dci_dsName_", "DCI-Tensor-0"},
      {"isHostToSen_", h2d},
      {"dataformat_src_", h2d ? hostName : deviceName},
      {"dataformat_dst_", h2d ? deviceName : hostName},
      {"input_shape_", h2d ? reversed(hostShape) : reversed(deviceShape)},
      {"output_shape_", h2d ? reversed(deviceShape) : reversed(hostShape)},
      {"dcsi_", std::move(infos)}});
}

} // namespace

FailureOr<std::vector<EmittedFile>> mlir::spyre::emitDci(ModuleOp module) {
  // A module that never mentions the dialect has not loaded it.
  module.getContext()->getOrLoadDialect<SpyreDialect>();
  std::vector<EmittedFile> files;
  for (auto function : module.getOps<FunctionOpInterface>()) {
    if (function.isExternal())
      continue;
    SmallVector<Transfer> transfers;
    Region &body = function.getFunctionBody();
    for (BlockArgument arg : body.getArguments())
      if (isDeviceTensor(arg.getType()))
        transfers.push_back(
            {arg, true, "argument " + std::to_string(arg.getArgNumber())});
    body.walk([&](Operation *op) {
      if (op->getParentOfType<KernelOp>())
        return;
      if (auto constant = dyn_cast<ConstantOp>(op)) {
        if (isDeviceTensor(constant.getType()))
          transfers.push_back({constant.getResult(), true, "constant"});
      } else if (auto toDevice = dyn_cast<ToDeviceOp>(op)) {
        transfers.push_back({toDevice.getResult(), true, "to_device"});
      } else if (auto fromDevice = dyn_cast<FromDeviceOp>(op)) {
        transfers.push_back({fromDevice.getInput(), false, "from_device"});
      } else if (op->hasTrait<OpTrait::IsTerminator>() &&
                 op->getParentOp() == function.getOperation()) {
        for (auto [i, value] : llvm::enumerate(op->getOperands()))
          if (isDeviceTensor(value.getType()))
            transfers.push_back({value, false, "result " + std::to_string(i)});
      }
    });
    for (const Transfer &transfer : transfers) {
      // The buffer the runtime moves: the io buffer of the tensor's root.
      MemAttr mem = getRecordedMem(transfer.value);
      if (!mem || mem.getSpace() != MemorySpace::IO) {
        function.emitError()
            << transfer.what << " of @" << function.getName()
            << " has no host-visible buffer; run --spyre-plan-memory first";
        return failure();
      }
      FailureOr<JValue> json = describe(function, transfer);
      if (failed(json))
        return failure();
      std::string what = transfer.what;
      std::replace(what.begin(), what.end(), ' ', '_');
      llvm::json::Object metadata{{"function", function.getName().str()},
                                  {"tensor", transfer.what},
                                  {"buffer", mem.getValue()}};
      // A lane order other than the standard one (dl16tofp32's, exx2's)
      // is the runtime's to apply when it (un)stickifies, as torch-spyre's
      // SpyreTensorLayout carries it.
      ElementArrangement arrangement =
          getLayoutAttr(transfer.value.getType()).getArrangement();
      if (arrangement != ElementArrangement::Standard)
        metadata["element_arrangement"] =
            stringifyElementArrangement(arrangement).upper();
      files.push_back({sanitizeFileName(llvm::formatv("dci_{0}_{1}_{2}.json",
                                                      function.getName(),
                                                      files.size(), what)
                                            .str()),
                       std::move(*json), std::move(metadata)});
    }
  }
  return files;
}
