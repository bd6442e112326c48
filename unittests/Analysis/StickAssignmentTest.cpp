//===- StickAssignmentTest.cpp - The layout choice optimiser
//---------------===//
//
// The solver against exhaustive search on hundreds of random small graphs,
// and the guarantee that it is never worse than a beam of width 64.
//
//===----------------------------------------------------------------------===//

#include "Spyre/Analysis/StickAssignment.h"

#include "gtest/gtest.h"

#include <random>

using namespace mlir::spyre::stick;

namespace {

/// A random DAG of pointwise-like, matmul-like and reduction-like nodes over
/// values of rank 2 or 3.
Problem randomProblem(std::mt19937_64 &rng, int numNodes, int numInputs) {
  Problem p;
  auto pick = [&](int n) {
    return std::uniform_int_distribution<int>(0, n - 1)(rng);
  };
  auto addValue = [&](int producer, int result, int rank) {
    Value v;
    v.producer = producer;
    v.result = result;
    for (int k = 0; k < rank; ++k)
      v.elements[k + 1] = 64 * (1 + pick(16));
    v.elements[0] = 64 * 64 * (1 + pick(4)); // sparse layouts are big
    v.fixedKey = static_cast<Key>(pick(rank));
    p.values.push_back(v);
    return static_cast<int>(p.values.size()) - 1;
  };
  std::vector<int> rank;
  for (int i = 0; i < numInputs; ++i) {
    rank.push_back(2 + pick(2));
    addValue(-1, 0, rank.back());
  }
  for (int n = 0; n < numNodes; ++n) {
    Node node;
    int arity = 1 + pick(3);
    for (int a = 0; a < arity; ++a)
      node.inputs.push_back(pick(static_cast<int>(p.values.size())));
    int r = 2 + pick(2);
    int kind = pick(3);
    if (kind == 0) {
      // Pointwise: one stick for everything, any key.
      for (Key k = 0; k < r; ++k) {
        Config c;
        for (int in : node.inputs)
          c.inputs.push_back(k < rank[in] ? k : kAny);
        c.results.push_back(k);
        node.configs.push_back(c);
      }
    } else if (kind == 1) {
      // Fixed requirements (matmul-like).
      Config c;
      for (int in : node.inputs)
        c.inputs.push_back(static_cast<Key>(pick(rank[in])));
      c.results.push_back(static_cast<Key>(pick(r)));
      node.configs.push_back(c);
    } else {
      // Reduction-like: input stick choice; the reduced one gives sparse.
      int reduced = pick(rank[node.inputs[0]]);
      for (Key k = 0; k < rank[node.inputs[0]]; ++k) {
        Config c;
        c.inputs.push_back(k);
        for (size_t a = 1; a < node.inputs.size(); ++a)
          c.inputs.push_back(kAny);
        c.results.push_back(k == reduced ? kSparse : std::min<Key>(k, r - 1));
        c.cost = pick(2) * 100;
        node.configs.push_back(c);
      }
    }
    int id = static_cast<int>(p.nodes.size());
    p.nodes.push_back(node);
    p.nodes.back().results.push_back(addValue(id, 0, r));
    rank.push_back(r);
  }
  // Some results are fixed by the caller.
  for (size_t v = numInputs; v < p.values.size(); ++v)
    if (pick(5) == 0)
      p.sinks.push_back({static_cast<int>(v), static_cast<Key>(pick(rank[v]))});
  return p;
}

TEST(StickAssignment, MatchesExhaustiveSearchOnRandomGraphs) {
  std::mt19937_64 rng(12345);
  int exactCount = 0;
  for (int trial = 0; trial < 400; ++trial) {
    int nodes = 1 + static_cast<int>(rng() % 9);
    Problem p = randomProblem(rng, nodes, 1 + static_cast<int>(rng() % 3));
    ASSERT_EQ(p.verify(), "");
    Solution best = solveExhaustive(p);
    Solution got = solve(p);
    ASSERT_EQ(static_cast<int>(got.configs.size()), nodes);
    EXPECT_EQ(evaluate(p, got.configs), got.cost) << "trial " << trial;
    EXPECT_EQ(got.cost, best.cost) << "trial " << trial;
    EXPECT_TRUE(got.exact) << "trial " << trial;
    exactCount += got.exact;
  }
  EXPECT_EQ(exactCount, 400);
}

TEST(StickAssignment, TwelveOpGraphsAreSolvedExactly) {
  std::mt19937_64 rng(777);
  for (int trial = 0; trial < 60; ++trial) {
    Problem p = randomProblem(rng, 12, 3);
    Solution got = solve(p);
    EXPECT_TRUE(got.exact) << "trial " << trial;
    // A narrow beam can only be worse.
    EXPECT_LE(got.cost, solveBeam(p, 1).cost);
  }
}

TEST(StickAssignment, NeverWorseThanBeam64OnLargeGraphs) {
  std::mt19937_64 rng(99);
  for (int trial = 0; trial < 20; ++trial) {
    Problem p = randomProblem(rng, 300, 8);
    Solution beam = solveBeam(p, 64);
    Solution got = solve(p);
    EXPECT_EQ(evaluate(p, got.configs), got.cost);
    EXPECT_LE(got.cost, beam.cost) << "trial " << trial;
  }
}

TEST(StickAssignment, LocalImprovementKeepsTheCostExact) {
  std::mt19937_64 rng(5);
  for (int trial = 0; trial < 50; ++trial) {
    Problem p = randomProblem(rng, 40, 4);
    Solution s = solveBeam(p, 1);
    improveLocally(p, s);
    EXPECT_EQ(evaluate(p, s.configs), s.cost);
  }
}

// The reference stack's classical cases in abstract form.

/// Two [N, N] inputs feeding one pointwise op; `stickA`/`stickB` are the op
/// dims the inputs' sticks fall on.
Problem pointwise(std::vector<Key> inputSticks) {
  Problem p;
  for (Key k : inputSticks) {
    Value v;
    v.fixedKey = k;
    v.elements[1] = v.elements[2] = 1000;
    p.values.push_back(v);
  }
  Node node;
  for (size_t i = 0; i < inputSticks.size(); ++i)
    node.inputs.push_back(static_cast<int>(i));
  for (Key k = 0; k < 2; ++k) {
    Config c;
    for (size_t i = 0; i < inputSticks.size(); ++i)
      c.inputs.push_back(k);
    c.results.push_back(k);
    node.configs.push_back(c);
  }
  Value out;
  out.producer = 0;
  out.elements[1] = out.elements[2] = 1000;
  p.values.push_back(out);
  node.results.push_back(static_cast<int>(p.values.size()) - 1);
  p.nodes.push_back(node);
  return p;
}

TEST(StickAssignment, TransposedOperandCostsOneRestickify) {
  Solution s = solve(pointwise({1, 0}));
  EXPECT_EQ(s.cost, 1000);
}

TEST(StickAssignment, MajorityWins) {
  // Two transposed operands and one plain: restickify the plain one.
  Problem p = pointwise({0, 0, 1});
  Solution s = solve(p);
  EXPECT_EQ(s.cost, 1000);
  EXPECT_EQ(valueKeys(p, s.configs)[3], 0);
}

TEST(StickAssignment, SharedRestickifyIsPaidOnce) {
  // One value read by two ops that both need it on the other stick.
  Problem p;
  Value x;
  x.fixedKey = 0;
  x.elements[1] = x.elements[2] = 500;
  p.values.push_back(x);
  for (int n = 0; n < 2; ++n) {
    Node node;
    node.inputs.push_back(0);
    Config c;
    c.inputs.push_back(1);
    c.results.push_back(1);
    node.configs.push_back(c);
    Value out;
    out.producer = n;
    p.values.push_back(out);
    node.results.push_back(static_cast<int>(p.values.size()) - 1);
    p.nodes.push_back(node);
  }
  EXPECT_EQ(solve(p).cost, 500);
}

TEST(StickAssignment, VerifyReportsMalformedProblems) {
  Problem p = pointwise({0, 1});
  p.nodes[0].configs[0].inputs.pop_back();
  EXPECT_NE(p.verify().find("wrong arity"), std::string::npos);
  Problem q = pointwise({0, 1});
  q.nodes[0].inputs[0] = 7;
  EXPECT_NE(q.verify().find("unknown value"), std::string::npos);
}

} // namespace
