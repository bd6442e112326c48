//===- StickAssignment.h - Global choice of stick dims ----------*- C++ -*-===//
//
// Layout propagation as an optimisation problem, independent of MLIR.
//
// Every tensor value ends up with a layout; what matters for the hardware is
// which of its host dims is the stick (or that it is sparse). Each operation
// offers *configurations*: for each configuration, the stick each input must
// have, the stick of each result, and an intrinsic cost. A value whose layout
// does not have the stick a consumer requires is restickified once per
// distinct required stick; that costs every element of the value's device
// tensor (the reference stack's cost: elements moved). The problem is to pick
// one configuration per operation minimising the total cost.
//
// Solvers: exact branch and bound with memoisation of the live frontier
// (optimal, bounded by a node budget), beam search (the reference stack's
// method), and beam search refined by iterated local improvement, which is
// never worse than the beam it starts from.
//
//===----------------------------------------------------------------------===//

#ifndef SPYRE_ANALYSIS_STICKASSIGNMENT_H
#define SPYRE_ANALYSIS_STICKASSIGNMENT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mlir::spyre::stick {

/// The layout choice of a value: the host dim holding its stick, or kSparse.
using Key = int32_t;
constexpr Key kSparse = -1;
/// A requirement that accepts any layout.
constexpr Key kAny = -2;
/// Keys are host dims (at most 6) or kSparse.
constexpr int kNumKeys = 7;
/// The cost of an impossible restickify: between a sparse layout and a
/// dense one (no mechanism gathers one value per stick into full sticks or
/// scatters the other way). Large enough to dominate any real cost, small
/// enough that sums of a few cannot overflow.
constexpr int64_t kInfeasible = int64_t(1) << 50;

/// Whether a restickify from `from` to `to` is possible.
inline bool canRestickify(int32_t from, int32_t to) {
  return (from == -1) == (to == -1);
}

struct Value {
  /// Producing node, or -1 for a value with a fixed layout (a function
  /// argument).
  int producer = -1;
  /// Which result of the producer.
  int result = 0;
  /// The layout of a fixed value.
  Key fixedKey = 0;
  /// Elements moved by a restickify out of this value, per layout key
  /// (index key + 1). Keys the value can never have may be left at 0.
  int64_t elements[kNumKeys] = {0, 0, 0, 0, 0, 0, 0};

  int64_t elementsFor(Key key) const { return elements[key + 1]; }
  /// The cost of restickifying this value from layout `from` to `to`.
  int64_t restickifyCost(Key from, Key to) const {
    return canRestickify(from, to) ? elementsFor(from) : kInfeasible;
  }
};

struct Config {
  /// Required key of each input (kAny: no requirement).
  llvm::SmallVector<Key, 4> inputs;
  /// Key of each result.
  llvm::SmallVector<Key, 1> results;
  /// Cost of the configuration itself (e.g. a reshape that must copy).
  int64_t cost = 0;
};

struct Node {
  llvm::SmallVector<int, 4> inputs;  ///< value ids
  llvm::SmallVector<int, 1> results; ///< value ids
  llvm::SmallVector<Config, 4> configs;
};

struct Problem {
  std::vector<Value> values;
  /// In topological order: a node's inputs are fixed values or results of
  /// earlier nodes, and its results have larger ids than every value it
  /// reads and every result of earlier nodes.
  std::vector<Node> nodes;
  /// Requirements from outside the graph (function results whose layout the
  /// caller fixed).
  std::vector<std::pair<int, Key>> sinks;

  /// Checks the invariants above; returns a message or "".
  std::string verify() const;
};

struct Solution {
  std::vector<int> configs; ///< per node
  int64_t cost = 0;
  /// Whether the solution is proven optimal.
  bool exact = false;
};

/// The cost of a complete assignment of configurations.
int64_t evaluate(const Problem &problem, llvm::ArrayRef<int> configs);

/// The key of every value under an assignment.
std::vector<Key> valueKeys(const Problem &problem, llvm::ArrayRef<int> configs);

/// Tries every combination (tests and tiny graphs only).
Solution solveExhaustive(const Problem &problem);

/// Beam search in topological order keeping `width` partial assignments;
/// among equal costs it keeps those satisfying more requirements (the
/// majority layout).
Solution solveBeam(const Problem &problem, int width);

/// Re-chooses one node's configuration at a time while that lowers the cost.
void improveLocally(const Problem &problem, Solution &solution);

struct SolveOptions {
  int beamWidth = 64;
  /// Graphs with at most this many operations that have a choice are solved
  /// exactly (when the search fits the budget).
  int exactNodeLimit = 32;
  /// Search states the exact solver may create before giving up on proving
  /// optimality.
  int64_t exactBudget = 2000000;
};

/// Beam search refined by local improvement, then proven optimal (or
/// improved) by the exact search on graphs with at most exactNodeLimit
/// choices. Never worse than solveBeam(problem, beamWidth).
Solution solve(const Problem &problem, const SolveOptions &options = {});

} // namespace mlir::spyre::stick

#endif // SPYRE_ANALYSIS_STICKASSIGNMENT_H
