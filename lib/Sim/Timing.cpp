//===- Timing.cpp - The timing model and the trace ------------------------===//

#include "Timing.h"

using namespace mlir;
using namespace mlir::spyre;
using namespace mlir::spyre::sim;
using llvm::ArrayRef;
using llvm::StringRef;

double mlir::spyre::sim::stepComputeSeconds(const kernel::Problem &problem,
                                            ArrayRef<int64_t> tile,
                                            const TargetModel &target) {
  if (problem.unit == kernel::Unit::PT) {
    double points = 1;
    for (int64_t t : tile)
      points *= static_cast<double>(t);
    int64_t rows = problem.mDim >= 0 ? tile[problem.mDim] : 1;
    return points /
           (static_cast<double>(target.ptMacsPerCycle * target.corelets) *
            target.clockHz() * target.ptEfficiency(rows));
  }
  int64_t sticks = 0;
  for (const kernel::Tensor &t : problem.tensors)
    sticks = std::max(sticks, kernel::boxSticks(t, tile));
  return static_cast<double>(sticks) / target.coreSfpSticksPerSecond();
}

void Trace::span(int64_t track, StringRef name, StringRef category,
                 double start, double duration, llvm::json::Object args) {
  if (!enabled || duration <= 0)
    return;
  // json::Value keeps StringRefs unowned: copy.
  llvm::json::Object event{{"name", name.str()},
                           {"cat", category.str()},
                           {"ph", "X"},
                           {"pid", 0},
                           {"tid", track},
                           {"ts", start * 1e6},
                           {"dur", duration * 1e6}};
  if (!args.empty())
    event["args"] = std::move(args);
  events.push_back(std::move(event));
}

llvm::json::Value Trace::take(int64_t cores) {
  llvm::json::Array all;
  auto name = [&](StringRef kind, int64_t track, std::string text) {
    llvm::json::Object meta{{"name", kind.str()},
                            {"ph", "M"},
                            {"pid", 0},
                            {"args", llvm::json::Object{{"name", text}}}};
    if (track >= 0)
      meta["tid"] = track;
    all.push_back(std::move(meta));
  };
  for (int64_t core = 0; core < cores; ++core)
    name("thread_name", core, "core " + std::to_string(core));
  name("thread_name", cores, "kernels");
  name("thread_name", cores + 1, "host (segments: wall time; link: modelled)");
  name("process_name", -1, "spyre (modelled)");
  for (llvm::json::Value &e : events)
    all.push_back(std::move(e));
  events.clear();
  return llvm::json::Object{{"traceEvents", std::move(all)},
                            {"displayTimeUnit", "ns"}};
}
