//===- OptionChecks.cpp - Checks of pass and pipeline options -------------===//
//
// A pass option error is about the command line, not the IR: it is reported
// once, without a location and without the "see current operation" dump an
// op diagnostic carries, naming the flag the user gave.
//
//===----------------------------------------------------------------------===//

#include "Spyre/Transforms/Utils.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"

using namespace mlir;
using namespace mlir::spyre;

static InFlightDiagnostic optionError(MLIRContext *context, StringRef flag) {
  return emitError(UnknownLoc::get(context)) << flag << ": ";
}

LogicalResult mlir::spyre::checkLayoutSearchOptions(MLIRContext *context,
                                                    StringRef flag,
                                                    int64_t beamWidth,
                                                    int64_t exactLimit) {
  if (beamWidth < 1)
    return optionError(context, flag)
           << "beam-width=" << beamWidth << " must be at least 1";
  if (exactLimit < 0)
    return optionError(context, flag)
           << "exact-limit=" << exactLimit
           << " must not be negative (0: beam search only)";
  return success();
}

LogicalResult mlir::spyre::checkCoresOption(Operation *scope, StringRef flag,
                                            int64_t cores) {
  int64_t targetCores = getTarget(scope).getCores();
  if (cores >= 0 && cores <= targetCores)
    return success();
  return optionError(scope->getContext(), flag)
         << "cores=" << cores << " is out of range 1.." << targetCores
         << " (the target's cores; 0 uses them all)";
}
