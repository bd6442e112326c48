//===- SanitizerDefaults.cpp - ASan options the fuzz targets need ---------===//
//
// LLVM's allocators (BumpPtrAllocator, used by MLIR's StorageUniquer) poison
// the unused part of their slabs in code compiled with ASan. Our inline
// copies of them are instrumented, libMLIR.so's are not, so memory our code
// poisoned is handed out by libMLIR without being unpoisoned, and the next
// memmove into it is reported as use-after-poison. Manual poisoning is
// therefore off; ASan's own checks (heap, stack, globals) are unaffected.
// The test configuration sets the same option for the other programs
// (test/lit.cfg.py, scripts/run_tests.py).
//
//===----------------------------------------------------------------------===//

extern "C" const char *__asan_default_options() {
  return "allow_user_poisoning=0:detect_leaks=1";
}
