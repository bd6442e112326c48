//===- division.cpp - Work division against the roofline and greedy ------===//
//
//   build/bin/spyre-bench-division [--cores N] [--json FILE]
//
// For the matmuls and a set of pointwise ops and reductions (f16,
// default layouts), the modelled time of the model policy's division
// (what --spyre-divide-work does), of the reference stack's greedy policy,
// and the target's roofline (compulsory DDR traffic at full bandwidth, or
// the work at the full peak of all cores), all in one run. The kernel model
// is deterministic, so the ratios are exact, not measurements.
//
// Targets: the model is never slower than greedy; at least 85% of the
// roofline for the large matmuls (512x4096x4096, 8192x32768x4096 and
// 8192x4096x32768).
//
//===----------------------------------------------------------------------===//

#include "Spyre/Analysis/KernelModel.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

using namespace mlir::spyre;
using namespace mlir::spyre::kernel;
using llvm::ArrayRef;
using llvm::SmallVector;

static llvm::cl::opt<int> coresOption("cores", llvm::cl::desc("Core budget"),
                                      llvm::cl::init(32));
static llvm::cl::opt<std::string>
    jsonOption("json", llvm::cl::desc("Also write the rows as JSON here"),
               llvm::cl::init(""));

namespace {

BoundLayout bind(ArrayRef<int64_t> sizes,
                 std::optional<SmallVector<int32_t, 6>> order = {}) {
  HostView host = HostView::contiguous(sizes);
  std::optional<ArrayRef<int32_t>> dimOrder;
  if (order)
    dimOrder = ArrayRef<int32_t>(*order);
  auto layout =
      SpyreTensorLayout::getDefault(host, HostType::Float16, dimOrder);
  if (!layout)
    llvm::report_fatal_error(llvm::Twine(llvm::toString(layout.takeError())));
  auto bound = layout->bind(host);
  if (!bound)
    llvm::report_fatal_error(llvm::Twine(llvm::toString(bound.takeError())));
  return std::move(*bound);
}

void add(Problem &p, const BoundLayout &bound, ArrayRef<int> opDims,
         bool isResult) {
  p.tensors.push_back(makeTensor(bound, opDims, "t", isResult));
  addGranules(p, bound, opDims);
}

/// C[M, N] = A[M, K] @ B[K, N].
Problem matmul(int64_t m, int64_t k, int64_t n) {
  Problem p;
  p.dims = {Dim{m, 1, false}, Dim{n, 1, false}, Dim{k, 1, true}};
  p.unit = Unit::PT;
  p.mDim = 0;
  p.nDim = 1;
  p.kDim = 2;
  add(p, bind({m, k}), {0, 2}, false);
  add(p, bind({k, n}), {2, 1}, false);
  add(p, bind({m, n}), {0, 1}, true);
  return p;
}

Problem pointwise(ArrayRef<int64_t> sizes, int inputs) {
  Problem p;
  SmallVector<int, 4> ids;
  for (auto [d, s] : llvm::enumerate(sizes)) {
    p.dims.push_back(Dim{s, 1, false});
    ids.push_back(static_cast<int>(d));
  }
  BoundLayout bound = bind(sizes);
  for (int i = 0; i < inputs; ++i)
    add(p, bound, ids, false);
  add(p, bound, ids, true);
  return p;
}

/// A reduction of the last dim of [R, C] (a sparse result).
Problem rowReduction(int64_t r, int64_t c) {
  Problem p;
  p.dims = {Dim{r, 1, false}, Dim{c, 1, true}};
  add(p, bind({r, c}), {0, 1}, false);
  add(p, bind({r}, SmallVector<int32_t, 6>{0, -1}), {0}, true);
  return p;
}

struct Case {
  std::string name;
  std::string shape;
  Problem problem;
  bool large = false;
};

std::string splits(const Plan &plan) {
  std::string s = formatList(plan.division.splits);
  if (plan.division.numChunks() > 1)
    s += " x" + std::to_string(plan.division.numChunks());
  return s;
}

} // namespace

int main(int argc, char **argv) {
  llvm::cl::ParseCommandLineOptions(
      argc, argv,
      "Modelled time of work division: model vs greedy vs "
      "roofline\n");
  TargetModel target;
  int64_t cores = coresOption;
  std::vector<Case> cases;
  cases.push_back({"matmul", "8x1024x1024", matmul(8, 1024, 1024)});
  cases.push_back({"matmul", "128x4096x4096", matmul(128, 4096, 4096)});
  cases.push_back({"matmul", "512x4096x4096", matmul(512, 4096, 4096), true});
  cases.push_back(
      {"matmul", "8192x32768x4096", matmul(8192, 32768, 4096), true});
  cases.push_back(
      {"matmul", "8192x4096x32768", matmul(8192, 4096, 32768), true});
  cases.push_back({"add", "4096x4096", pointwise({4096, 4096}, 2)});
  cases.push_back({"add", "128x768", pointwise({128, 768}, 2)});
  cases.push_back({"exp", "3x4096", pointwise({3, 4096}, 1)});
  cases.push_back({"exp", "1000x200", pointwise({1000, 200}, 1)});
  cases.push_back({"mul", "32x8192x17408", pointwise({32, 8192, 17408}, 2)});
  cases.push_back({"sum(stick)", "2x65536", rowReduction(2, 65536)});
  cases.push_back({"sum(stick)", "8192x4096", rowReduction(8192, 4096)});

  llvm::outs() << llvm::formatv(
      "work division on {0} cores (MxKxN for matmuls; modelled microseconds; "
      "util = roofline / modelled)\n",
      cores);
  std::string header = llvm::formatv(
      "{0,-11} | {1,-16} | {2,-16} | {3,11} | {4,-16} | {5,11} | {6,11} | "
      "{7,6} | {8,13}",
      "op", "shape", "greedy splits", "greedy us", "model splits", "model us",
      "roofline us", "util", "model/greedy");
  llvm::outs() << header << "\n" << std::string(header.size(), '-') << "\n";
  bool neverSlower = true, largeMet = true;
  double worstLarge = 1.0;
  llvm::json::Array rows;
  for (Case &c : cases) {
    auto greedy = divide(c.problem, target, cores, Policy::Greedy,
                         target.usableLxBytes());
    auto model =
        divide(c.problem, target, cores, Policy::Model, target.usableLxBytes());
    if (!greedy || !model) {
      llvm::errs() << c.name << " " << c.shape << ": "
                   << (greedy ? llvm::toString(model.takeError())
                              : llvm::toString(greedy.takeError()))
                   << "\n";
      return 1;
    }
    double roof = roofline(c.problem, target, cores);
    double g = greedy->estimate.seconds, m = model->estimate.seconds;
    double util = roof / m;
    neverSlower &= m <= g * (1 + 1e-9);
    if (c.large) {
      worstLarge = std::min(worstLarge, util);
      largeMet &= util >= 0.85;
    }
    llvm::outs() << llvm::formatv(
        "{0,-11} | {1,-16} | {2,-16} | {3,11:f1} | {4,-16} | {5,11:f1} | "
        "{6,11:f1} | {7,5:f0}% | {8,12:f2}x\n",
        c.name, c.shape, splits(*greedy), g * 1e6, splits(*model), m * 1e6,
        roof * 1e6, util * 100, g / m);
    rows.push_back(
        llvm::json::Object{{"op", c.name},
                           {"shape", c.shape},
                           {"greedy_us", g * 1e6},
                           {"model_us", m * 1e6},
                           {"roofline_us", roof * 1e6},
                           {"utilisation", util},
                           {"speedup_over_greedy", g / m},
                           {"bottleneck", model->estimate.bottleneck}});
  }
  llvm::outs() << llvm::formatv(
      "\ntargets: never slower than greedy: {0}; large matmuls >= 85% of the "
      "roofline: {1} (worst {2:f0}%)\n",
      neverSlower ? "met" : "NOT met", largeMet ? "met" : "NOT met",
      worstLarge * 100);
  if (!jsonOption.empty()) {
    std::error_code error;
    llvm::raw_fd_ostream file(jsonOption, error);
    if (error) {
      llvm::errs() << "cannot write " << jsonOption << ": " << error.message()
                   << "\n";
      return 1;
    }
    file << llvm::formatv("{0:2}",
                          llvm::json::Value(llvm::json::Object{
                              {"cores", cores}, {"rows", std::move(rows)}}));
  }
  return 0;
}
