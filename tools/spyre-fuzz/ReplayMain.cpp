//===- ReplayMain.cpp - Run a fuzz target on files, without libFuzzer -----===//
//
// Builds without SPYRE_ENABLE_FUZZERS link the fuzz targets with this main:
// it feeds every file named on the command line (directories: every file in
// them) to LLVMFuzzerTestOneInput once, so the seed corpora and the crash
// regressions in integration_test/fuzz run in every build's test suite. A
// failing invariant aborts, as under libFuzzer.
//
//===----------------------------------------------------------------------===//

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv)
    __attribute__((weak));

int main(int argc, char **argv) {
  if (LLVMFuzzerInitialize)
    LLVMFuzzerInitialize(&argc, &argv);
  if (argc < 2) {
    llvm::errs() << "usage: " << argv[0] << " FILE|DIR...\n"
                 << "Runs the fuzz target once on every file (built without "
                    "libFuzzer; see scripts/fuzz for fuzzing).\n";
    return 2;
  }
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg = argv[i];
    if (arg.starts_with("-"))
      continue; // libFuzzer flags, ignored when replaying
    if (!llvm::sys::fs::is_directory(arg)) {
      files.push_back(arg.str());
      continue;
    }
    std::error_code ec;
    for (llvm::sys::fs::directory_iterator it(arg, ec), end; it != end && !ec;
         it.increment(ec))
      if (!llvm::sys::fs::is_directory(it->path()) &&
          !llvm::sys::path::filename(it->path()).starts_with("."))
        files.push_back(it->path());
    if (ec) {
      llvm::errs() << "error: " << arg << ": " << ec.message() << "\n";
      return 1;
    }
  }
  std::sort(files.begin(), files.end());
  for (const std::string &file : files) {
    auto buffer = llvm::MemoryBuffer::getFile(file);
    if (!buffer) {
      llvm::errs() << "error: cannot read " << file << ": "
                   << buffer.getError().message() << "\n";
      return 1;
    }
    LLVMFuzzerTestOneInput(
        reinterpret_cast<const uint8_t *>((*buffer)->getBufferStart()),
        (*buffer)->getBufferSize());
  }
  llvm::outs() << "replayed " << files.size() << " inputs\n";
  return 0;
}
