//===- HostMemory.cpp - The memory of the machine the tools run on --------===//

#include "Spyre/Support/HostMemory.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FormatVariadic.h"

#include <cstdlib>
#include <unistd.h>

uint64_t mlir::spyre::hostMemoryBytes() {
  if (const char *text = std::getenv("SPYRE_HOST_MEMORY_BYTES")) {
    uint64_t value = 0;
    if (!llvm::StringRef(text).getAsInteger(10, value) && value > 0)
      return value;
  }
  long pages = sysconf(_SC_PHYS_PAGES);
  long pageSize = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || pageSize <= 0)
    return uint64_t(1) << 40; // unknown: do not refuse
  return static_cast<uint64_t>(pages) * static_cast<uint64_t>(pageSize);
}

std::string mlir::spyre::formatBytes(uint64_t bytes) {
  if (bytes < 1024)
    return llvm::formatv("{0} B", bytes).str();
  static const char *units[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double value = static_cast<double>(bytes) / 1024;
  int unit = 0;
  while (value >= 1024 && unit < 5) {
    value /= 1024;
    ++unit;
  }
  return llvm::formatv("{0:f1} {1}", value, units[unit]).str();
}
