//===- SimulatorPartsTest.cpp - The simulator's parts, one at a time ------===//
//
// Each part of lib/Sim on its own: the machine's memories and tags, operand
// binding, staging (DMA, gather, scatter and their checks), compute
// semantics, and the timing model and trace. The kernels come from the real
// pipeline on small linalg functions, so the parts see what they see in a
// run.
//
//===----------------------------------------------------------------------===//

#include "Compute.h"
#include "Machine.h"
#include "Operand.h"
#include "Staging.h"
#include "Timing.h"

#include "Spyre/Dialect/Spyre/IR/KernelForm.h"
#include "Spyre/InitSpyre.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/Error.h"

#include "gtest/gtest.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::spyre;
using namespace mlir::spyre::sim;

namespace {

/// A module compiled to kernel form on `cores` cores.
struct Compiled {
  std::unique_ptr<MLIRContext> context;
  OwningOpRef<ModuleOp> module;
  SmallVector<KernelOp> kernels;

  Compiled(StringRef source, int cores) {
    DialectRegistry registry;
    registerSpyreDialects(registry);
    context = std::make_unique<MLIRContext>(registry);
    module = parseSourceString<ModuleOp>(source, context.get());
    EXPECT_TRUE(module);
    PassManager pm(context.get());
    SpyrePipelineOptions options;
    options.cores = cores;
    buildSpyrePipeline(pm, options);
    EXPECT_TRUE(succeeded(pm.run(*module)));
    module->walk([&](KernelOp kernel) { kernels.push_back(kernel); });
  }
};

constexpr StringRef kAdd = R"mlir(
func.func @f(%a: tensor<64x128xf16>, %b: tensor<64x128xf16>) -> tensor<64x128xf16> {
  %e = tensor.empty() : tensor<64x128xf16>
  %r = linalg.add ins(%a, %b : tensor<64x128xf16>, tensor<64x128xf16>) outs(%e : tensor<64x128xf16>) -> tensor<64x128xf16>
  return %r : tensor<64x128xf16>
}
)mlir";

constexpr StringRef kRowMax = R"mlir(
func.func @f(%a: tensor<8x64xf16>) -> tensor<8xf16> {
  %ninf = arith.constant 0xFC00 : f16
  %e = tensor.empty() : tensor<8xf16>
  %i = linalg.fill ins(%ninf : f16) outs(%e : tensor<8xf16>) -> tensor<8xf16>
  %r = linalg.reduce ins(%a : tensor<8x64xf16>) outs(%i : tensor<8xf16>) dimensions = [1]
    (%x: f16, %acc: f16) {
      %m = arith.maximumf %x, %acc : f16
      linalg.yield %m : f16
    }
  return %r : tensor<8xf16>
}
)mlir";

/// The tiles and division of a kernel, as the runner reads them.
struct KernelShape {
  SmallVector<int64_t, 6> tile;
  kernel::Division division;
  SmallVector<AffineMap> maps;
  explicit KernelShape(KernelOp kernel) {
    for (unsigned d = 0, e = kernel.getDims().size(); d < e; ++d)
      tile.push_back(kernel.getDim(d).getTile());
    division = getKernelDivision(kernel);
    maps = cast<KernelPayloadOpInterface>(kernel.getPayload())
               .getIndexingMapsArray();
  }
};

//===----------------------------------------------------------------------===//
// Machine
//===----------------------------------------------------------------------===//

TEST(SimMachine, MemoriesAreCreatedOnFirstUseAndTagged) {
  TargetModel target;
  Machine machine(target);
  Memory &lx = machine.lx(3);
  EXPECT_EQ(lx.size(), target.lxBytes);
  EXPECT_EQ(lx.tagAt(0), 0) << "a fresh LX holds nothing";
  Memory &io = machine.ioBuffer(2);
  EXPECT_EQ(io.size(), 0);
  EXPECT_EQ(io.name, "io buffer 2");
  // Ids are per buffer root, starting at 1, and named.
  Compiled compiled(kAdd, 1);
  Value root = compiled.kernels.front().getInputs()[0];
  int32_t id = machine.idOf(root, "a tensor");
  EXPECT_GE(id, 1);
  EXPECT_EQ(machine.idOf(root, "ignored"), id);
  EXPECT_EQ(machine.nameOf(id), "a tensor");
  EXPECT_EQ(machine.nameOf(12345), "unknown");
}

TEST(SimMachine, CheckRealSticksNamesTheFirstStaleStick) {
  TargetModel target;
  Machine machine(target);
  Compiled compiled(kAdd, 1);
  auto type =
      cast<RankedTensorType>(compiled.kernels.front().getInputs()[0].getType());
  llvm::Expected<BoundLayout> bound = bindLayout(type);
  ASSERT_TRUE(!!bound);
  Memory memory;
  memory.name = "test memory";
  memory.resize(bound->layout().deviceBytes(), target.stickBytes);
  llvm::Error unwritten = machine.checkRealSticks(*bound, memory, 0, 7, "x");
  ASSERT_TRUE(!!unwritten);
  EXPECT_NE(llvm::toString(std::move(unwritten)).find("was never written"),
            std::string::npos);
  machine.tagRealSticks(*bound, memory, 0, 7);
  EXPECT_FALSE(!!machine.checkRealSticks(*bound, memory, 0, 7, "x"));
  memory.setTag(target.stickBytes * 3, 9);
  llvm::Error error = machine.checkRealSticks(*bound, memory, 0, 7, "input");
  ASSERT_TRUE(!!error);
  std::string message = llvm::toString(std::move(error));
  EXPECT_NE(message.find("input: stick 3"), std::string::npos) << message;
  EXPECT_NE(message.find("test memory"), std::string::npos) << message;
}

//===----------------------------------------------------------------------===//
// Operand binding
//===----------------------------------------------------------------------===//

TEST(SimOperands, BindsInputsAndResultToSegments) {
  TargetModel target;
  Machine machine(target);
  Compiled compiled(kAdd, 1);
  KernelOp kernel = compiled.kernels.front();
  KernelShape shape(kernel);
  // The inputs' io buffers exist before the kernel reads them.
  for (int64_t io = 0; io < 3; ++io)
    machine.ioBuffer(io).resize(1 << 16, target.stickBytes);
  llvm::Expected<std::vector<Operand>> operands = bindOperands(
      kernel, shape.maps, shape.tile, shape.division, machine, target);
  ASSERT_TRUE(!!operands) << llvm::toString(operands.takeError());
  ASSERT_EQ(operands->size(), 3u);
  const Operand &result = operands->back();
  EXPECT_TRUE(result.isResult);
  EXPECT_EQ(result.name, "the result");
  EXPECT_EQ(result.eps, 64);
  EXPECT_EQ(result.elemBytes, 2);
  EXPECT_EQ(result.stickOpDim(), 1) << "sticked on the inner op dim";
  EXPECT_EQ(result.regionEnd - result.regionBegin, 64 * 128 * 2);
  EXPECT_EQ(result.denseSize, shape.tile[0] * shape.tile[1]);
  EXPECT_NE((*operands)[0].id, (*operands)[1].id);
}

TEST(SimOperands, AnInputLargerThanItsBufferIsAnError) {
  TargetModel target;
  Machine machine(target);
  Compiled compiled(kAdd, 1);
  KernelOp kernel = compiled.kernels.front();
  KernelShape shape(kernel);
  // No io buffer holds the inputs yet.
  llvm::Expected<std::vector<Operand>> operands = bindOperands(
      kernel, shape.maps, shape.tile, shape.division, machine, target);
  ASSERT_FALSE(!!operands);
  std::string message = llvm::toString(operands.takeError());
  EXPECT_NE(message.find("operand #0 occupies bytes"), std::string::npos)
      << message;
  EXPECT_NE(message.find("which holds only 0"), std::string::npos) << message;
}

//===----------------------------------------------------------------------===//
// Staging
//===----------------------------------------------------------------------===//

struct SimStaging : ::testing::Test {
  TargetModel target;
  Machine machine{target};
  Compiled compiled{kAdd, 1};
  KernelOp kernel = compiled.kernels.front();
  KernelShape shape{kernel};
  std::vector<Operand> operands;

  void SetUp() override {
    for (int64_t io = 0; io < 3; ++io)
      machine.ioBuffer(io).resize(1 << 16, target.stickBytes);
    llvm::Expected<std::vector<Operand>> bound = bindOperands(
        kernel, shape.maps, shape.tile, shape.division, machine, target);
    ASSERT_TRUE(!!bound) << llvm::toString(bound.takeError());
    operands = std::move(*bound);
  }
};

TEST_F(SimStaging, DmaMovesWholeSticksWithTheirTags) {
  Stager stager(kernel, machine, target, shape.tile);
  const Operand &a = operands[0];
  // Tag the input's sticks in DDR as the upload would.
  machine.tagRealSticks(*a.bound, *a.ddr, a.regionBegin, a.id);
  SmallVector<int64_t, 6> origin(shape.tile.size(), 0);
  int64_t bytes = 0;
  Reach reach{std::numeric_limits<int64_t>::max(), -1};
  int64_t lxBase = a.access.getLxOffsets().front();
  llvm::Error error =
      stager.dma(a, /*core=*/0, a.access.getBase(), lxBase, origin,
                 /*toLx=*/true, bytes, reach);
  ASSERT_FALSE(!!error) << llvm::toString(std::move(error));
  EXPECT_GT(bytes, 0);
  EXPECT_EQ(bytes % target.stickBytes, 0);
  EXPECT_EQ(machine.lx(0).tagAt(lxBase), a.id);
  EXPECT_EQ(reach.second - reach.first, bytes) << "a contiguous tile";
  // Gathering reads the tagged sticks.
  std::vector<float> dense;
  SmallVector<int64_t, 8> box = stager.boxStart(a, origin);
  error = stager.gather(a, 0, origin, lxBase, box, dense, 0.0f);
  EXPECT_FALSE(!!error) << llvm::toString(std::move(error));
  EXPECT_EQ(static_cast<int64_t>(dense.size()), a.denseSize);
}

TEST_F(SimStaging, GatherRefusesSticksNeverWritten) {
  Stager stager(kernel, machine, target, shape.tile);
  const Operand &a = operands[0];
  SmallVector<int64_t, 6> origin(shape.tile.size(), 0);
  std::vector<float> dense;
  SmallVector<int64_t, 8> box = stager.boxStart(a, origin);
  llvm::Error error = stager.gather(
      a, 0, origin, a.access.getLxOffsets().front(), box, dense, 0.0f);
  ASSERT_TRUE(!!error);
  std::string message = llvm::toString(std::move(error));
  EXPECT_NE(message.find("was never written"), std::string::npos) << message;
  EXPECT_NE(message.find("kernel "), std::string::npos) << message;
}

TEST_F(SimStaging, DmaOutsideTheTensorIsAFault) {
  Stager stager(kernel, machine, target, shape.tile);
  const Operand &a = operands[0];
  SmallVector<int64_t, 6> origin(shape.tile.size(), 0);
  int64_t bytes = 0;
  Reach reach{0, -1};
  // One stick past the tensor's bytes.
  int64_t past = a.access.getBase() + (a.regionEnd - a.regionBegin);
  llvm::Error error = stager.dma(a, 0, past, a.access.getLxOffsets().front(),
                                 origin, true, bytes, reach);
  ASSERT_TRUE(!!error);
  std::string message = llvm::toString(std::move(error));
  EXPECT_NE(message.find("outside its bytes"), std::string::npos) << message;
}

TEST_F(SimStaging, LxPastTheUsableBytesIsAFault) {
  Stager stager(kernel, machine, target, shape.tile);
  const Operand &a = operands[0];
  machine.tagRealSticks(*a.bound, *a.ddr, a.regionBegin, a.id);
  SmallVector<int64_t, 6> origin(shape.tile.size(), 0);
  int64_t bytes = 0;
  Reach reach{0, -1};
  llvm::Error error =
      stager.dma(a, 0, a.access.getBase(), target.usableLxBytes(), origin, true,
                 bytes, reach);
  ASSERT_TRUE(!!error);
  std::string message = llvm::toString(std::move(error));
  EXPECT_NE(message.find("past the"), std::string::npos) << message;
  EXPECT_NE(message.find("usable bytes"), std::string::npos) << message;
}

//===----------------------------------------------------------------------===//
// Compute
//===----------------------------------------------------------------------===//

TEST(SimCompute, SemanticsComeFromTheOpsInterfaces) {
  Compiled add(kAdd, 1);
  std::string reason;
  FailureOr<Semantics> s =
      semanticsOf(add.kernels.front().getPayload(), reason);
  ASSERT_TRUE(succeeded(s)) << reason;
  EXPECT_EQ(s->kind, Kind::Elementwise);
  float x[2] = {1.5f, 2.25f};
  EXPECT_EQ(s->scalar(x), 3.75f);

  Compiled max(kRowMax, 1);
  s = semanticsOf(max.kernels.back().getPayload(), reason);
  ASSERT_TRUE(succeeded(s)) << reason;
  EXPECT_EQ(s->kind, Kind::Reduce);
  EXPECT_EQ(s->combiner, CombinerKind::Max);
  EXPECT_EQ(s->reducedDim, 1);
}

TEST(SimCompute, MaxAndMinPropagateNaNAsArithDoes) {
  float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_TRUE(std::isnan(combine(CombinerKind::Max, 1.0f, nan)));
  EXPECT_TRUE(std::isnan(combine(CombinerKind::Max, nan, 1.0f)));
  EXPECT_TRUE(std::isnan(combine(CombinerKind::Min, 1.0f, nan)));
  EXPECT_EQ(combine(CombinerKind::Max, 1.0f, 2.0f), 2.0f);
  EXPECT_EQ(combine(CombinerKind::Min, 1.0f, 2.0f), 1.0f);
  EXPECT_EQ(combine(CombinerKind::Sum, 1.0f, 2.0f), 3.0f);
}

TEST(SimCompute, ReductionTileStartsAtTheNeutralValue) {
  TargetModel target;
  Machine machine(target);
  Compiled compiled(kRowMax, 1);
  KernelOp kernel = compiled.kernels.back();
  KernelShape shape(kernel);
  std::string reason;
  FailureOr<Semantics> s = semanticsOf(kernel.getPayload(), reason);
  ASSERT_TRUE(succeeded(s));
  FailureOr<kernel::Problem> problem =
      getKernelProblem(kernel.getPayload(), reason);
  ASSERT_TRUE(succeeded(problem)) << reason;
  for (int64_t io = 0; io < 2; ++io)
    machine.ioBuffer(io).resize(1 << 16, target.stickBytes);
  llvm::Expected<std::vector<Operand>> operands = bindOperands(
      kernel, shape.maps, shape.tile, shape.division, machine, target);
  ASSERT_TRUE(!!operands) << llvm::toString(operands.takeError());
  TileCompute compute(*s, *operands, shape.tile, *problem);
  std::vector<std::vector<float>> inputs(1);
  inputs[0].assign((*operands)[0].denseSize, -5.0f);
  inputs[0][3] = 7.0f;
  inputs[0][(*operands)[0].denseSize - 1] =
      std::numeric_limits<float>::quiet_NaN();
  std::vector<float> acc;
  compute.compute(/*firstReduction=*/true, inputs, acc);
  ASSERT_EQ(static_cast<int64_t>(acc.size()), operands->back().denseSize);
  EXPECT_EQ(acc.front(), 7.0f) << "the max of row 0";
  EXPECT_TRUE(std::isnan(acc.back())) << "a NaN in the last row wins";
}

//===----------------------------------------------------------------------===//
// Timing
//===----------------------------------------------------------------------===//

TEST(SimTiming, StepTimeFollowsTheTarget) {
  TargetModel target;
  Compiled compiled(kAdd, 1);
  KernelOp kernel = compiled.kernels.front();
  std::string reason;
  FailureOr<kernel::Problem> problem =
      getKernelProblem(kernel.getPayload(), reason);
  ASSERT_TRUE(succeeded(problem)) << reason;
  SmallVector<int64_t, 6> tile = KernelShape(kernel).tile;
  double seconds = stepComputeSeconds(*problem, tile, target);
  // An SFP step: one stick per cycle of the largest operand's box.
  int64_t sticks = 0;
  for (const kernel::Tensor &t : problem->tensors)
    sticks = std::max(sticks, kernel::boxSticks(t, tile));
  EXPECT_DOUBLE_EQ(seconds, sticks / target.coreSfpSticksPerSecond());
  TargetModel faster = target;
  faster.clockGHz *= 2;
  EXPECT_DOUBLE_EQ(stepComputeSeconds(*problem, tile, faster), seconds / 2);
}

TEST(SimTiming, TraceNamesEveryTrackAndSkipsEmptySpans) {
  Trace off(false);
  off.span(0, "load", "dma", 0, 1e-6);
  llvm::json::Value empty = off.take(2);
  EXPECT_EQ(empty.getAsObject()->getArray("traceEvents")->size(), 5u)
      << "two cores, the kernels' and the host's tracks and the process name";
  Trace on(true);
  on.span(1, "load", "dma", 1e-6, 2e-6);
  on.span(1, "nothing", "dma", 1e-6, 0);
  llvm::json::Value trace = on.take(2);
  const llvm::json::Array *events =
      trace.getAsObject()->getArray("traceEvents");
  ASSERT_EQ(events->size(), 6u);
  const llvm::json::Object *load = events->back().getAsObject();
  EXPECT_EQ(*load->getString("name"), "load");
  EXPECT_EQ(*load->getInteger("tid"), 1);
  EXPECT_DOUBLE_EQ(*load->getNumber("ts"), 1.0);
  EXPECT_DOUBLE_EQ(*load->getNumber("dur"), 2.0);
}

} // namespace
