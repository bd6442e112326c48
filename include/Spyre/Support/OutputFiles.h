//===- OutputFiles.h - Files written all or nothing -------------*- C++ -*-===//
//
// Every tool and the Python module write their outputs through this: each
// file goes to a temporary file next to it, and only when all of them are
// written are they renamed into place. An output path naming one of the
// run's inputs is refused up front, so a failed run never truncates or
// overwrites what it read, and a run that fails half way leaves nothing
// behind.
//
//===----------------------------------------------------------------------===//

#ifndef SPYRE_SUPPORT_OUTPUTFILES_H
#define SPYRE_SUPPORT_OUTPUTFILES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <utility>
#include <vector>

namespace mlir::spyre {

/// Files written all or nothing: each goes to a temporary file in its
/// directory first, and `commit` renames them all into place. An output
/// path that is one of the inputs is refused, so a failed run never
/// truncates what it read.
class OutputFiles {
public:
  explicit OutputFiles(llvm::ArrayRef<std::string> inputs = {});
  ~OutputFiles();
  /// Adds a file; fails when `path` is an input.
  llvm::Error add(llvm::StringRef path, std::string contents);
  /// Creates the directory (and parents) files will be added to.
  llvm::Error createDirectory(llvm::StringRef path);
  /// Writes every file to a temporary and renames them into place;
  /// nothing is left behind on failure.
  llvm::Error commit();

private:
  std::vector<std::string> inputs;
  std::vector<std::pair<std::string, std::string>> files;
};

/// Whether `a` and `b` name the same file: the same file on disk when both
/// exist, else the same absolute path.
bool isSameFile(llvm::StringRef a, llvm::StringRef b);

} // namespace mlir::spyre

#endif // SPYRE_SUPPORT_OUTPUTFILES_H
