//===- HostMemory.h - The memory of the machine the tools run on -*- C++
//-*-===//
//
// The tools check the host memory a run needs before allocating it (a
// 2^31-element input, a 10 GB result, a simulated machine with large
// memories) and report how much it needs, instead of aborting out of memory.
//
//===----------------------------------------------------------------------===//

#ifndef SPYRE_SUPPORT_HOSTMEMORY_H
#define SPYRE_SUPPORT_HOSTMEMORY_H

#include <cstdint>
#include <string>

namespace mlir::spyre {

/// Physical memory of this machine in bytes; the environment variable
/// SPYRE_HOST_MEMORY_BYTES overrides it (tests use it to exercise the
/// limit).
uint64_t hostMemoryBytes();

/// "512 B", "3.0 KiB", "1.5 GiB".
std::string formatBytes(uint64_t bytes);

} // namespace mlir::spyre

#endif // SPYRE_SUPPORT_HOSTMEMORY_H
