//===- FuzzInput.h - Structured values out of fuzzer bytes ------*- C++ -*-===//
//
// Turns the fuzzer's byte string into small integers, choices and
// permutations. Reading past the end yields zeros, so every input, however
// short, decodes to some case.
//
//===----------------------------------------------------------------------===//

#ifndef SPYRE_FUZZ_FUZZINPUT_H
#define SPYRE_FUZZ_FUZZINPUT_H

#include "llvm/ADT/SmallVector.h"

#include <cstddef>
#include <cstdint>
#include <utility>

namespace mlir::spyre::fuzz {

class FuzzInput {
public:
  FuzzInput(const uint8_t *data, size_t size) : data(data), size(size) {}

  uint8_t byte() { return pos < size ? data[pos++] : 0; }
  /// A value in [0, n) (n >= 1).
  uint32_t below(uint32_t n) {
    uint32_t v = byte();
    if (n > 256)
      v = v << 8 | byte();
    return v % n;
  }
  /// A value in [lo, hi].
  int64_t range(int64_t lo, int64_t hi) {
    return lo + static_cast<int64_t>(below(static_cast<uint32_t>(hi - lo + 1)));
  }
  bool flag() { return byte() & 1; }
  /// A permutation of [0, n), Fisher-Yates driven by the input.
  llvm::SmallVector<int32_t, 8> permutation(int n) {
    llvm::SmallVector<int32_t, 8> p;
    for (int i = 0; i < n; ++i)
      p.push_back(i);
    for (int i = n - 1; i > 0; --i)
      std::swap(p[i], p[below(static_cast<uint32_t>(i + 1))]);
    return p;
  }
  bool exhausted() const { return pos >= size; }

private:
  const uint8_t *data;
  size_t size;
  size_t pos = 0;
};

} // namespace mlir::spyre::fuzz

#endif // SPYRE_FUZZ_FUZZINPUT_H
