//===- Compute.h - What a payload computes on a staged tile -----*- C++ -*-===//
//
// Internal to lib/Sim. The semantics of a kernel's payload, found through
// its interfaces (elementwise ops' scalar semantics, reductions' combiners)
// or, for the ops with a compute structure of their own, by kind (matmul,
// the layer-norm family); and the loops that apply it to the dense f32
// tiles of one step. Compute sees f32 and accumulates in f32 (matmul,
// reductions, across tiles and across cores); stores round.
//
//===----------------------------------------------------------------------===//

#ifndef SPYRE_LIB_SIM_COMPUTE_H
#define SPYRE_LIB_SIM_COMPUTE_H

#include "Operand.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::spyre::sim {

enum class Kind {
  Elementwise,
  Copy,
  Reduce,
  Matmul,
  ScaledMatmul,
  Exx2,
  LnScale,
  LnNorm,
};

struct Semantics {
  Kind kind = Kind::Copy;
  ScalarSemantics scalar; ///< of an elementwise op
  CombinerKind combiner = CombinerKind::Sum;
  double a = 0;               ///< eps, scale
  int reducedDim = -1;        ///< op dim of a reduction
  std::optional<double> mask; ///< value padding of the reduced dim holds
  std::optional<double> padValue;
  mutable ReductionOpInterface reduction;
  /// The scaled matmul's B: how its stored parts read back.
  struct QuantizedB {
    /// Values per data byte along k (2: packed 4-bit codes, low first), and
    /// the value of each code; 1: the element is the value (int8, fp8).
    int64_t perData = 1;
    std::vector<float> codeValues;
    /// Elements of k one scale covers; E8M0 scales are their bytes.
    int64_t tile = 1;
    bool e8m0 = false;
    bool hasZero = false, packedZero = false, floatZero = false;
    /// 2^-6 for MXINT8.
    float unit = 1.0f;
    /// A codebook: `codeValues` holds its mappings row-major (mapping *
    /// entries + index); the meta operand (when `metaBits` > 0) picks the
    /// mapping per `metaGroup` values of k, `metaBits` at a time from the
    /// low bits of the byte covering `metaPer` values.
    bool codebook = false;
    int64_t entries = 0, metaBits = 0, metaGroup = 1, metaPer = 1;
    int metaOperand = -1;
  };
  QuantizedB quantized;
};

/// The semantics of `op`; fails with `reason` for an op the simulator does
/// not implement.
FailureOr<Semantics> semanticsOf(Operation *op, std::string &reason);

/// Combines two partial values of a reduction (NaN propagating for max and
/// min, as arith.maximumf / minimumf).
float combine(CombinerKind kind, float a, float b);

/// The compute of one kernel step: reads the inputs' dense tiles, writes
/// (or, for reductions, accumulates into) the result's.
class TileCompute {
public:
  TileCompute(const Semantics &semantics, ArrayRef<Operand> operands,
              ArrayRef<int64_t> tile, const kernel::Problem &problem)
      : semantics(semantics), operands(operands), tile(tile), problem(problem) {
  }

  /// One step over the tile; `firstReduction` starts the accumulator at
  /// the combiner's neutral value.
  void compute(bool firstReduction, std::vector<std::vector<float>> &inputs,
               std::vector<float> &acc) const;
  /// What is applied once the whole reduction is combined (a mean's 1/N,
  /// exx2's scale); `size` gives the op's extents.
  void finalize(std::vector<float> &acc, ArrayRef<int64_t> size) const;

private:
  const Semantics &semantics;
  ArrayRef<Operand> operands;
  ArrayRef<int64_t> tile;
  const kernel::Problem &problem;
};

} // namespace mlir::spyre::sim

#endif // SPYRE_LIB_SIM_COMPUTE_H
