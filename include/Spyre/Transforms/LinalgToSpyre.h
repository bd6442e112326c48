//===- LinalgToSpyre.h - linalg -> spyre conversion patterns ----*- C++ -*-===//
//
// The patterns of `--spyre-convert-linalg`, for pipelines that embed the
// conversion in their own pattern sets (as IREE and upstream populate*
// functions are used). One pattern per family:
//
//   contraction   linalg.matmul / batch_matmul / contraction generics
//   elementwise   named elementwise ops, linalg.elementwise and generics,
//                 through their bodies
//   reduction     linalg.reduce and generics with reduction loops
//   softmax       linalg.softmax
//   transpose     linalg.transpose (a view)
//   reshape       tensor.expand_shape / collapse_shape (views)
//   constant      fills, broadcasts and constants read by converted ops
//   activations   sigmoid and silu written out (1 / (1 + exp(-x)), ...) on
//                 converted ops become the device's sigmoid and silu
//
// A pattern that cannot convert its op leaves the IR untouched and records
// why in the `UnsupportedOps` it was given, so that the caller can report
// the op as staying on the host.
//
//===----------------------------------------------------------------------===//

#ifndef SPYRE_TRANSFORMS_LINALGTOSPYRE_H
#define SPYRE_TRANSFORMS_LINALGTOSPYRE_H

#include "mlir/IR/PatternMatch.h"

#include <string>

namespace mlir::spyre {

/// What to do with a matmul on f32 tensors: the PT unit multiplies DL16
/// (and fp8), not f32.
enum class F32Matmul {
  Host, ///< leave it on the host (exact)
  F16,  ///< convert its operands to f16 and multiply on the device
};

/// Choices of the conversion.
struct LinalgToSpyreOptions {
  F32Matmul f32Matmul = F32Matmul::Host;
};

/// Why each op the patterns declined stays on the host (the last reason
/// given for it).
struct UnsupportedOps {
  llvm::DenseMap<Operation *, std::string> reasons;
};

/// Adds the conversion patterns to `patterns`. `unsupported`, if given,
/// collects the reason of every op a pattern declined.
void populateSpyreConvertLinalgPatterns(
    RewritePatternSet &patterns, UnsupportedOps *unsupported = nullptr,
    const LinalgToSpyreOptions &options = {});

/// Rewrites, inside the bodies of structured ops, what front ends write in
/// forms the conversion has ops for: `powf` with a constant exponent (upstream
/// math's algebraic simplification: x*x, sqrt, rsqrt, 1/x) and
/// `select(cmpf(ugt|uge|ult|ule, x, c), x, c)` with a constant c
/// (maximumf/minimumf: torch-mlir's relu and clamp). Exact: the results are
/// the same values, NaN included.
void populateSpyreLinalgBodyPreparationPatterns(RewritePatternSet &patterns);

/// Rewrites `spyre.quantize` / `spyre.dequantize` of the schemes the device
/// converts (fp8 `e4m3fn` / `e5m2` with float scales per tensor, per
/// channel or per whole tile, nothing else) into device ops: `qfp8ch` and
/// `fp8todl16` conversions and the SFP ops that find and apply the scales
/// (`--spyre-lower-quant-casts`).
void populateSpyreLowerQuantCastsPatterns(RewritePatternSet &patterns);

/// Applies those patterns, with folding (an f64 constant truncated to the
/// element type becomes a constant of it), to the body of every structured
/// op on tensors in `root`. `--spyre-convert-linalg` runs this first.
void prepareLinalgBodies(Operation *root);

} // namespace mlir::spyre

#endif // SPYRE_TRANSFORMS_LINALGTOSPYRE_H
