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

/// Why each op the patterns declined stays on the host (the last reason
/// given for it).
struct UnsupportedOps {
  llvm::DenseMap<Operation *, std::string> reasons;
};

/// Adds the conversion patterns to `patterns`. `unsupported`, if given,
/// collects the reason of every op a pattern declined.
void populateSpyreConvertLinalgPatterns(RewritePatternSet &patterns,
                                        UnsupportedOps *unsupported = nullptr);

} // namespace mlir::spyre

#endif // SPYRE_TRANSFORMS_LINALGTOSPYRE_H
