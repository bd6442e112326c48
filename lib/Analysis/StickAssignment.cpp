//===- StickAssignment.cpp - Global choice of stick dims
//-------------------===//
//
// All solvers share one forward search over the nodes in topological order.
// A search state is the *live frontier*: every value that has been produced
// (or is a fixed input) and still has a consumer to come, with its key and
// the set of stick requirements already charged to it. The cost of finishing
// depends only on the frontier, so states with equal frontiers merge (keeping
// the cheaper). With unbounded width that is an exact dynamic program, and
// pruning states that already cost at least a known solution keeps it exact;
// with a width limit it is beam search.
//
//===----------------------------------------------------------------------===//

#include "Spyre/Analysis/StickAssignment.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <array>
#include <limits>

using namespace mlir::spyre;
using namespace mlir::spyre::stick;
using llvm::ArrayRef;
using llvm::SmallVector;

namespace {

inline uint8_t bit(Key key) { return static_cast<uint8_t>(1u << (key + 1)); }

/// Per value, the index of its last consumer node (nodes.size() if a sink
/// reads it), or -1 if nothing reads it.
std::vector<int> lastUses(const Problem &problem) {
  std::vector<int> last(problem.values.size(), -1);
  for (auto [i, node] : llvm::enumerate(problem.nodes))
    for (int v : node.inputs)
      last[v] = std::max(last[v], static_cast<int>(i));
  for (auto [v, key] : problem.sinks)
    last[v] = static_cast<int>(problem.nodes.size());
  return last;
}

struct LiveValue {
  int value;
  Key key;
  uint8_t charged; ///< requirement keys already paid for (besides `key`)
  bool operator==(const LiveValue &o) const {
    return value == o.value && key == o.key && charged == o.charged;
  }
};

struct State {
  SmallVector<LiveValue, 16> live; ///< sorted by value id
  int64_t cost = 0;
  int64_t satisfied = 0; ///< requirements met without a restickify
  uint64_t hash = 0;     ///< XOR of the entries' hashes (order independent)
  int parent = -1;       ///< index into the previous layer's states
  int config = -1;       ///< configuration chosen at this layer
};

/// A well-mixed hash of one frontier entry (splitmix64's finaliser).
uint64_t entryHash(const LiveValue &l) {
  uint64_t x = (static_cast<uint64_t>(l.value) << 16) ^
               (static_cast<uint64_t>(l.key + 2) << 8) ^ l.charged;
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

LiveValue *findLive(SmallVector<LiveValue, 16> &live, int value) {
  auto it = llvm::lower_bound(
      live, value, [](const LiveValue &l, int v) { return l.value < v; });
  if (it == live.end() || it->value != value)
    return nullptr;
  return &*it;
}

/// Adds a fixed value to the frontier at its first use.
LiveValue *enterFixed(const Problem &problem, SmallVector<LiveValue, 16> &live,
                      int value) {
  auto it = llvm::lower_bound(
      live, value, [](const LiveValue &l, int v) { return l.value < v; });
  it = live.insert(it, {value, problem.values[value].fixedKey, 0});
  return &*it;
}

/// Charges requirement `req` on `entry`; returns the added cost.
int64_t charge(const Problem &problem, LiveValue &entry, Key req,
               int64_t &satisfied) {
  if (req == kAny)
    return 0;
  if (req == entry.key) {
    ++satisfied;
    return 0;
  }
  if (entry.charged & bit(req))
    return 0;
  entry.charged |= bit(req);
  return problem.values[entry.value].restickifyCost(entry.key, req);
}

/// The effect of one configuration of node `i` on one state: its cost, the
/// requirements it meets and its frontier's hash, computed from the entries
/// the node touches only. With `child`, also builds the new frontier.
struct Step {
  int64_t cost;
  int64_t satisfied;
  uint64_t hash;
};

Step step(const Problem &problem, ArrayRef<int> last, int i, const State &state,
          const Config &config, State *child) {
  const Node &node = problem.nodes[i];
  Step out{state.cost + config.cost, state.satisfied, state.hash};
  // The entries of the node's inputs, as they are before and after.
  SmallVector<LiveValue, 4> touched;
  SmallVector<bool, 4> existed;
  for (auto [j, v] : llvm::enumerate(node.inputs)) {
    LiveValue *entry = nullptr;
    for (LiveValue &t : touched)
      if (t.value == v)
        entry = &t;
    if (!entry) {
      auto it =
          llvm::lower_bound(state.live, v, [](const LiveValue &l, int value) {
            return l.value < value;
          });
      bool found = it != state.live.end() && it->value == v;
      touched.push_back(found ? *it
                              : LiveValue{v, problem.values[v].fixedKey, 0});
      existed.push_back(found);
      if (found)
        out.hash ^= entryHash(*it);
      entry = &touched.back();
    }
    out.cost += charge(problem, *entry, config.inputs[j], out.satisfied);
  }
  // Values read for the last time leave the frontier; the others stay with
  // their new charges; results someone reads join it.
  for (const LiveValue &t : touched)
    if (last[t.value] != i)
      out.hash ^= entryHash(t);
  for (auto [r, v] : llvm::enumerate(node.results))
    if (last[v] > i)
      out.hash ^= entryHash({v, config.results[r], 0});
  if (!child)
    return out;
  child->live = state.live;
  for (const LiveValue &t : touched) {
    LiveValue *entry = findLive(child->live, t.value);
    if (!entry)
      entry = enterFixed(problem, child->live, t.value);
    *entry = t;
  }
  llvm::erase_if(child->live,
                 [&](const LiveValue &l) { return last[l.value] == i; });
  // Results have the largest ids so far, so the frontier stays sorted.
  for (auto [r, v] : llvm::enumerate(node.results))
    if (last[v] > i)
      child->live.push_back({v, config.results[r], 0});
  child->cost = out.cost;
  child->satisfied = out.satisfied;
  child->hash = out.hash;
  return out;
}

struct SearchResult {
  Solution solution;
  bool completed = true; ///< no state was dropped for lack of width/budget
};

/// The shared forward search. `width` 0 means unbounded (exact); states whose
/// cost reaches `upperBound` are pruned; `budget` bounds the states created.
///
/// Each layer first scores every (state, configuration) pair from the few
/// frontier entries the node touches, then builds the frontiers of the best
/// distinct ones only. Frontiers are told apart by an order-independent
/// 64-bit hash of their entries.
SearchResult search(const Problem &problem, int width, int64_t upperBound,
                    int64_t budget) {
  SearchResult out;
  std::vector<int> last = lastUses(problem);
  int numNodes = static_cast<int>(problem.nodes.size());

  // Fixed values (arguments) join the frontier at their first use, not at
  // the start: a weight read once never lingers in every state.
  std::vector<std::vector<State>> layers;
  layers.push_back({State()});
  int64_t created = 0;

  struct Candidate {
    int parent;
    int config;
    Step effect;
  };
  std::vector<Candidate> candidates;
  for (int i = 0; i < numNodes; ++i) {
    const Node &node = problem.nodes[i];
    const std::vector<State> &current = layers.back();
    candidates.clear();
    for (auto [s, state] : llvm::enumerate(current))
      for (auto [c, config] : llvm::enumerate(node.configs)) {
        Step effect = step(problem, last, i, state, config, nullptr);
        if (effect.cost < upperBound)
          candidates.push_back(
              {static_cast<int>(s), static_cast<int>(c), effect});
      }
    created += static_cast<int64_t>(candidates.size());
    if (candidates.empty()) {
      // Everything was pruned by the upper bound: no better solution.
      out.solution.cost = std::numeric_limits<int64_t>::max();
      return out;
    }
    // Cheapest first; among equals, the one meeting more requirements (the
    // majority layout), then expansion order.
    std::stable_sort(candidates.begin(), candidates.end(),
                     [](const Candidate &a, const Candidate &b) {
                       if (a.effect.cost != b.effect.cost)
                         return a.effect.cost < b.effect.cost;
                       return a.effect.satisfied > b.effect.satisfied;
                     });
    std::vector<State> next;
    llvm::DenseSet<uint64_t> seen;
    for (const Candidate &candidate : candidates) {
      if (!seen.insert(candidate.effect.hash).second)
        continue; // the same frontier, already reached as cheaply
      if (width > 0 && static_cast<int>(next.size()) == width) {
        out.completed = false;
        break;
      }
      State child;
      child.parent = candidate.parent;
      child.config = candidate.config;
      step(problem, last, i, current[candidate.parent],
           node.configs[candidate.config], &child);
      next.push_back(std::move(child));
    }
    if (budget > 0 && created > budget) {
      out.completed = false;
      out.solution.cost = std::numeric_limits<int64_t>::max();
      return out;
    }
    layers.push_back(std::move(next));
  }

  // Requirements from outside the graph, then the best final state.
  int best = -1;
  int64_t bestCost = std::numeric_limits<int64_t>::max(), bestSatisfied = -1;
  for (auto [s, state] : llvm::enumerate(layers.back())) {
    State final = state;
    for (auto [v, key] : problem.sinks) {
      LiveValue *entry = findLive(final.live, v);
      if (!entry)
        entry = enterFixed(problem, final.live, v);
      final.cost += charge(problem, *entry, key, final.satisfied);
    }
    if (final.cost < bestCost ||
        (final.cost == bestCost && final.satisfied > bestSatisfied)) {
      best = static_cast<int>(s);
      bestCost = final.cost;
      bestSatisfied = final.satisfied;
    }
  }
  out.solution.cost = bestCost;
  out.solution.configs.assign(numNodes, 0);
  for (int i = numNodes; i > 0; --i) {
    const State &state = layers[i][best];
    out.solution.configs[i - 1] = state.config;
    best = state.parent;
  }
  return out;
}

} // namespace

std::string Problem::verify() const {
  int lastProduced = -1;
  for (auto [v, value] : llvm::enumerate(values)) {
    if (value.producer >= static_cast<int>(nodes.size()))
      return "value " + std::to_string(v) + " has an invalid producer";
    if (value.producer >= 0 &&
        (value.result >=
             static_cast<int>(nodes[value.producer].results.size()) ||
         nodes[value.producer].results[value.result] != static_cast<int>(v)))
      return "value " + std::to_string(v) + " is not its producer's result";
  }
  for (auto [i, node] : llvm::enumerate(nodes)) {
    if (node.configs.empty())
      return "node " + std::to_string(i) + " has no configuration";
    for (int v : node.inputs) {
      if (v < 0 || v >= static_cast<int>(values.size()))
        return "node " + std::to_string(i) + " reads an unknown value";
      if (values[v].producer >= static_cast<int>(i))
        return "node " + std::to_string(i) + " reads a later value";
    }
    for (int r : node.results)
      if (r <= lastProduced)
        return "node " + std::to_string(i) +
               " has a result id below an earlier node's result";
      else
        lastProduced = r;
    for (const Config &config : node.configs)
      if (config.inputs.size() != node.inputs.size() ||
          config.results.size() != node.results.size())
        return "node " + std::to_string(i) +
               " has a configuration of the wrong arity";
  }
  return "";
}

std::vector<Key> mlir::spyre::stick::valueKeys(const Problem &problem,
                                               ArrayRef<int> configs) {
  std::vector<Key> keys(problem.values.size());
  for (auto [v, value] : llvm::enumerate(problem.values))
    keys[v] = value.producer < 0 ? value.fixedKey
                                 : problem.nodes[value.producer]
                                       .configs[configs[value.producer]]
                                       .results[value.result];
  return keys;
}

int64_t mlir::spyre::stick::evaluate(const Problem &problem,
                                     ArrayRef<int> configs) {
  std::vector<Key> keys = valueKeys(problem, configs);
  std::vector<uint8_t> charged(problem.values.size(), 0);
  int64_t cost = 0;
  auto require = [&](int v, Key req) {
    if (req == kAny || req == keys[v] || (charged[v] & bit(req)))
      return;
    charged[v] |= bit(req);
    cost += problem.values[v].restickifyCost(keys[v], req);
  };
  for (auto [i, node] : llvm::enumerate(problem.nodes)) {
    const Config &config = node.configs[configs[i]];
    cost += config.cost;
    for (auto [j, v] : llvm::enumerate(node.inputs))
      require(v, config.inputs[j]);
  }
  for (auto [v, key] : problem.sinks)
    require(v, key);
  return cost;
}

Solution mlir::spyre::stick::solveExhaustive(const Problem &problem) {
  Solution best;
  best.cost = std::numeric_limits<int64_t>::max();
  best.exact = true;
  std::vector<int> configs(problem.nodes.size(), 0);
  while (true) {
    int64_t cost = evaluate(problem, configs);
    if (cost < best.cost) {
      best.cost = cost;
      best.configs = configs;
    }
    size_t k = 0;
    for (; k < configs.size(); ++k) {
      if (++configs[k] < static_cast<int>(problem.nodes[k].configs.size()))
        break;
      configs[k] = 0;
    }
    if (k == configs.size())
      break;
  }
  return best;
}

Solution mlir::spyre::stick::solveBeam(const Problem &problem, int width) {
  SearchResult result = search(problem, std::max(width, 1),
                               std::numeric_limits<int64_t>::max(), 0);
  result.solution.exact = result.completed;
  return result.solution;
}

namespace {
/// The cost of an assignment kept up to date under single-node changes:
/// per value its key and how many uses require each key, so re-choosing one
/// node only recosts the values it reads and writes.
class IncrementalCost {
public:
  IncrementalCost(const Problem &problem, ArrayRef<int> configs)
      : problem(problem), configs(configs.begin(), configs.end()),
        keys(valueKeys(problem, configs)), requirements(problem.values.size()) {
    for (auto [i, node] : llvm::enumerate(problem.nodes))
      addRequirements(i, +1);
    for (auto [v, key] : problem.sinks)
      if (key != kAny)
        ++requirements[v][key + 1];
  }

  /// The cost change if node `i` took configuration `c`; applies the change
  /// when `commit`.
  int64_t tryConfig(size_t i, int c, bool commit) {
    const Node &node = problem.nodes[i];
    SmallVector<int, 8> touched(node.inputs.begin(), node.inputs.end());
    touched.append(node.results.begin(), node.results.end());
    llvm::sort(touched);
    touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
    int64_t before = node.configs[configs[i]].cost;
    for (int v : touched)
      before += valueCost(v);
    int previous = configs[i];
    apply(i, c);
    int64_t after = node.configs[c].cost;
    for (int v : touched)
      after += valueCost(v);
    if (!commit)
      apply(i, previous);
    return after - before;
  }

  int config(size_t i) const { return configs[i]; }

private:
  void addRequirements(size_t i, int delta) {
    const Node &node = problem.nodes[i];
    const Config &config = node.configs[configs[i]];
    for (auto [j, v] : llvm::enumerate(node.inputs))
      if (config.inputs[j] != kAny)
        requirements[v][config.inputs[j] + 1] += delta;
  }
  void apply(size_t i, int c) {
    addRequirements(i, -1);
    configs[i] = c;
    addRequirements(i, +1);
    const Node &node = problem.nodes[i];
    for (auto [r, v] : llvm::enumerate(node.results))
      keys[v] = node.configs[c].results[r];
  }
  int64_t valueCost(int v) const {
    int64_t cost = 0;
    for (int k = 0; k < kNumKeys; ++k)
      if (requirements[v][k] > 0 && k != keys[v] + 1)
        cost += problem.values[v].restickifyCost(keys[v], k - 1);
    return cost;
  }

  const Problem &problem;
  std::vector<int> configs;
  std::vector<Key> keys;
  std::vector<std::array<int, kNumKeys>> requirements;
};
} // namespace

void mlir::spyre::stick::improveLocally(const Problem &problem,
                                        Solution &solution) {
  // Each pass re-chooses every node's configuration given all the others;
  // stops when a pass changes nothing. Every accepted move strictly lowers
  // the cost, so this terminates.
  IncrementalCost state(problem, solution.configs);
  bool changed = true;
  for (int pass = 0; changed && pass < 16; ++pass) {
    changed = false;
    for (size_t i = 0; i < problem.nodes.size(); ++i) {
      int bestConfig = state.config(i);
      int64_t bestDelta = 0;
      for (int c = 0; c < static_cast<int>(problem.nodes[i].configs.size());
           ++c) {
        if (c == state.config(i))
          continue;
        int64_t delta = state.tryConfig(i, c, /*commit=*/false);
        if (delta < bestDelta) {
          bestDelta = delta;
          bestConfig = c;
        }
      }
      if (bestDelta < 0) {
        state.tryConfig(i, bestConfig, /*commit=*/true);
        solution.configs[i] = bestConfig;
        solution.cost += bestDelta;
        changed = true;
      }
    }
  }
}

Solution mlir::spyre::stick::solve(const Problem &problem,
                                   const SolveOptions &options) {
  Solution beam = solveBeam(problem, options.beamWidth);
  if (beam.exact)
    return beam; // the beam never had to drop a state: it is the optimum
  improveLocally(problem, beam);
  int choices = 0;
  for (const Node &node : problem.nodes)
    choices += node.configs.size() > 1 ? 1 : 0;
  if (choices > options.exactNodeLimit)
    return beam;
  // Prove optimality (or find better) within the budget, pruning with the
  // refined beam's cost.
  SearchResult exact =
      search(problem, /*width=*/0, beam.cost + 1, options.exactBudget);
  if (!exact.completed)
    return beam;
  if (exact.solution.cost <= beam.cost) {
    exact.solution.exact = true;
    return exact.solution;
  }
  // The search pruned everything: nothing is cheaper than the beam's answer.
  beam.exact = true;
  return beam;
}
