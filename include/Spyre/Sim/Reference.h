//===- Reference.h - Run a linalg program with upstream MLIR ----*- C++ -*-===//
//
// The independent reference the simulator is checked against: a function on
// host tensors, written with linalg (named ops, softmax, reduce, generic),
// tensor (empty, expand_shape, collapse_shape), arith and math, is lowered
// with upstream MLIR's own passes only (bufferization, loops, LLVM) and run
// in process by MLIR's ExecutionEngine. Nothing of the spyre compiler takes
// part, so agreement between the two is evidence for both.
//
// f16/bf16 reductions accumulate in f32 and round once, as CPU kernels do;
// every other f16/bf16 op rounds its result to its type.
//
//===----------------------------------------------------------------------===//

#ifndef SPYRE_SIM_REFERENCE_H
#define SPYRE_SIM_REFERENCE_H

#include "Spyre/Sim/HostTensor.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <vector>

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace mlir::spyre::sim {

/// Registers in `registry` what runReference needs (dialects, extensions, LLVM
/// IR translations). Call before creating the context that parses the module.
void registerReferenceDialects(DialectRegistry &registry);

/// Runs `function` of `module` (a clone is lowered; `module` is untouched):
/// functions on host tensors using linalg (named ops incl. matmul,
/// batch_matmul, transpose, fill, softmax, reduce, generic, elementwise named
/// ops), tensor (empty, expand_shape, collapse_shape), arith and math (tanh,
/// exp, rsqrt, sqrt, log, ...). Inputs in argument order, results in result
/// order. Fails (llvm::Error with a clear message) on a wrong number of
/// inputs, a shape or element type that does not match the function, or when
/// lowering/JIT fails (naming the pass and op that failed where known).
///
/// Element types at the function boundary: f16, bf16, f32, i1 (a HostTensor
/// of Bool, one byte 0/1 per element), i8, i32, i64 and i4 (Int4, one
/// sign-extended byte per element); tensors of any rank, with static or
/// dynamic dimensions (a dynamic one takes its size from the input).
llvm::Expected<std::vector<sim::HostTensor>>
runReference(ModuleOp module, llvm::StringRef function,
             llvm::ArrayRef<sim::HostTensor> inputs);

/// A function of a module lowered and JIT-compiled once, to be run on any
/// number of inputs (runReference is compile + run). The simulator runs the
/// host segments of a program this way.
class ReferenceProgram {
public:
  /// Lowers a clone of `module` reduced to `function` and what it calls
  /// (`module` stays as it is) and JIT-compiles it.
  static llvm::Expected<ReferenceProgram> compile(ModuleOp module,
                                                  llvm::StringRef function);
  /// Runs it on `inputs` (one per argument); the results in order.
  llvm::Expected<std::vector<sim::HostTensor>>
  run(llvm::ArrayRef<sim::HostTensor> inputs) const;

  ReferenceProgram(ReferenceProgram &&);
  ReferenceProgram &operator=(ReferenceProgram &&);
  ~ReferenceProgram();

private:
  struct Impl;
  explicit ReferenceProgram(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl;
};

} // namespace mlir::spyre::sim

#endif // SPYRE_SIM_REFERENCE_H
