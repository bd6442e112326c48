//===- OutputFiles.cpp - Files written all or nothing ---------------------===//

#include "Spyre/Support/OutputFiles.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir::spyre;
using llvm::ArrayRef;
using llvm::SmallString;
using llvm::StringRef;

/// Whether `a` and `b` name the same file (for files that exist) or the
/// same path.
bool mlir::spyre::isSameFile(StringRef a, StringRef b) {
  llvm::sys::fs::UniqueID idA, idB;
  if (!llvm::sys::fs::getUniqueID(a, idA) &&
      !llvm::sys::fs::getUniqueID(b, idB))
    return idA == idB;
  SmallString<256> fullA(a), fullB(b);
  llvm::sys::fs::make_absolute(fullA);
  llvm::sys::fs::make_absolute(fullB);
  llvm::sys::path::remove_dots(fullA, /*remove_dot_dot=*/true);
  llvm::sys::path::remove_dots(fullB, /*remove_dot_dot=*/true);
  return fullA == fullB;
}

OutputFiles::OutputFiles(ArrayRef<std::string> inputs)
    : inputs(inputs.begin(), inputs.end()) {}

OutputFiles::~OutputFiles() = default;

llvm::Error OutputFiles::add(StringRef path, std::string contents) {
  for (const std::string &input : inputs)
    if (input != "-" && isSameFile(path, input))
      return llvm::createStringError(
          llvm::formatv("refusing to write {0}: it is an input of this run",
                        path)
              .str());
  files.emplace_back(path.str(), std::move(contents));
  return llvm::Error::success();
}

llvm::Error OutputFiles::createDirectory(StringRef path) {
  if (std::error_code error = llvm::sys::fs::create_directories(path))
    return llvm::createStringError(error, "cannot create directory " + path +
                                              ": " + error.message());
  if (!llvm::sys::fs::is_directory(path))
    return llvm::createStringError("cannot write into " + path +
                                   ": it is not a directory");
  return llvm::Error::success();
}

/// Whether `path` exists and is not a regular file (a device such as
/// /dev/null, a FIFO, a socket): it is written in place, never replaced.
static bool isSpecialFile(StringRef path) {
  llvm::sys::fs::file_status status;
  if (llvm::sys::fs::status(path, status, /*follow=*/true))
    return false;
  return llvm::sys::fs::exists(status) &&
         !llvm::sys::fs::is_regular_file(status) &&
         !llvm::sys::fs::is_directory(status);
}

/// Writes `contents` to the existing special file `path` in place.
static llvm::Error writeInPlace(StringRef path, StringRef contents) {
  std::error_code error;
  llvm::raw_fd_ostream os(path, error, llvm::sys::fs::OF_None);
  if (!error) {
    os << contents;
    os.close();
    if (os.has_error()) {
      error = os.error();
      os.clear_error();
    }
  }
  if (error)
    return llvm::createStringError(error, "cannot write " + path + ": " +
                                              error.message());
  return llvm::Error::success();
}

llvm::Error OutputFiles::commit() {
  // Everything goes to temporaries next to its target first; only when all
  // of them are written is anything renamed into place. Standard output and
  // special files (/dev/null, FIFOs) cannot be replaced: they are written
  // in place, before any rename, so that a failure there (/dev/full) still
  // leaves every regular file untouched. A symbolic link is followed: its
  // target is replaced, not the link.
  std::vector<std::string> temporaries, targets;
  auto removeTemporaries = [&] {
    for (const std::string &temporary : temporaries)
      if (!temporary.empty())
        llvm::sys::fs::remove(temporary);
  };
  for (const auto &[path, contents] : files) {
    if (path == "-" || isSpecialFile(path)) {
      temporaries.push_back("");
      targets.push_back(path);
      continue;
    }
    SmallString<256> target(path);
    if (llvm::sys::fs::is_symlink_file(path)) {
      SmallString<256> real;
      if (!llvm::sys::fs::real_path(path, real))
        target = real;
    }
    targets.push_back(std::string(target));
    SmallString<256> model(target);
    model += ".tmp%%%%%%";
    int fd = -1;
    SmallString<256> temporary;
    if (std::error_code error =
            llvm::sys::fs::createUniqueFile(model, fd, temporary)) {
      removeTemporaries();
      return llvm::createStringError(error, "cannot write " + path + ": " +
                                                error.message());
    }
    temporaries.push_back(std::string(temporary));
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << contents;
    os.close();
    if (os.has_error()) {
      std::error_code error = os.error();
      os.clear_error();
      removeTemporaries();
      return llvm::createStringError(error, "cannot write " + path + ": " +
                                                error.message());
    }
  }
  for (auto [file, temporary] : llvm::zip(files, temporaries)) {
    if (!temporary.empty())
      continue;
    if (file.first == "-") {
      llvm::outs() << file.second;
      llvm::outs().flush();
      if (llvm::outs().has_error()) {
        std::error_code error = llvm::outs().error();
        llvm::outs().clear_error();
        removeTemporaries();
        return llvm::createStringError(
            error, "cannot write to standard output: " + error.message());
      }
      continue;
    }
    if (llvm::Error error = writeInPlace(file.first, file.second)) {
      removeTemporaries();
      return error;
    }
  }
  for (auto [temporary, target] : llvm::zip(temporaries, targets)) {
    if (temporary.empty())
      continue;
    if (std::error_code error = llvm::sys::fs::rename(temporary, target)) {
      removeTemporaries();
      return llvm::createStringError(error, "cannot write " + target + ": " +
                                                error.message());
    }
  }
  files.clear();
  return llvm::Error::success();
}
