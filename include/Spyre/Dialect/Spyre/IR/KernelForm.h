//===- KernelForm.h - Kernel payloads and the kernel model ------*- C++ -*-===//
//
// The kernel form's accessors that the passes (divide-work, plan-memory,
// lower-to-kernels), the emitters and the simulator share: the plain C++
// kernel model (Spyre/Analysis/KernelModel.h) of a laid-out payload op, the
// SuperDSC dim labels and OpFunc, and the division a kernel or payload
// carries.
//
//===----------------------------------------------------------------------===//

#ifndef SPYRE_DIALECT_SPYRE_IR_KERNELFORM_H
#define SPYRE_DIALECT_SPYRE_IR_KERNELFORM_H

#include "Spyre/Analysis/KernelModel.h"
#include "Spyre/Dialect/Spyre/IR/Spyre.h"

#include <string>

namespace mlir::spyre {

/// The kernel model of a payload whose operands and result are device
/// tensors, for sticks of the target's size. Fails with a reason when an
/// operand has no layout or a layout the kernels cannot walk.
FailureOr<kernel::Problem> getKernelProblem(Operation *op, std::string &reason);

/// Marks `lxResident` the tensors of `op`'s kernel model (its operands, then
/// its result) that `inLx` says stay in LX: the kernel stages none of them.
void markLxResident(kernel::Problem &problem, Operation *op,
                    llvm::function_ref<bool(Value)> inLx);

/// The SuperDSC label of every op dim: matmul (..., y, x,) mb, out, in;
/// other ops mb, x, y, i, j, ki, kj with the last dim called out.
SmallVector<std::string> getDimLabels(Operation *payload);
/// The first label of the SFP sequence (mb, x, y, ...) not in `used`: the
/// label of a synthetic stick dim.
std::string getUnusedDimLabel(ArrayRef<std::string> used);

/// The OpFunc the SuperDSC names: the op's, with the reference stack's
/// `nonstick` suffix for sum/max/min/mean whose result keeps a stick.
std::string getSuperDscOpFunc(Operation *payload);

/// The division of `op` that gives every core the same slice of operand
/// `index` as `producer` (whose result it is) gives it with `division`, so
/// the intermediate can stay in LX (a split reduction's result as its
/// combine scatters it: kernel::resultDivision); nullopt when it cannot be
/// carried over (chunks, a result that cannot be scattered, or dims the
/// operand does not index).
std::optional<kernel::Division> carryOver(Operation *op, unsigned index,
                                          Operation *producer,
                                          const kernel::Division &division);

/// The division a kernel's dims and order describe.
kernel::Division getKernelDivision(KernelOp kernel);

/// The `spyre.division` of a payload, or null.
DivisionAttr getDivision(Operation *op);

} // namespace mlir::spyre

#endif // SPYRE_DIALECT_SPYRE_IR_KERNELFORM_H
