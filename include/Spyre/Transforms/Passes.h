//===- Passes.h - spyre passes ----------------------------------*- C++ -*-===//

#ifndef SPYRE_TRANSFORMS_PASSES_H
#define SPYRE_TRANSFORMS_PASSES_H

#include "Spyre/Dialect/Spyre/IR/Spyre.h"
#include "Spyre/Transforms/LinalgToSpyre.h"
#include "Spyre/Transforms/PassEnums.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Pass/Pass.h"

namespace mlir::spyre {

#define GEN_PASS_DECL
#include "Spyre/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "Spyre/Transforms/Passes.h.inc"

} // namespace mlir::spyre

#endif // SPYRE_TRANSFORMS_PASSES_H
