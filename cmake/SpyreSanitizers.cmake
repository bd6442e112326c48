# Sanitizer and fuzzer instrumentation of spyre-mlir's own code.
#
#   SPYRE_ENABLE_SANITIZERS  AddressSanitizer + UndefinedBehaviorSanitizer on
#                            every target of this project (GCC or Clang).
#                            LLVM/MLIR come from Debian's uninstrumented
#                            libMLIR.so; errors inside our code, and bad
#                            accesses our code makes to memory it got from
#                            MLIR, are caught. scripts/sanitize builds and
#                            tests this configuration.
#   SPYRE_ENABLE_FUZZERS     The libFuzzer targets (tools/spyre-fuzz) linked
#                            with -fsanitize=fuzzer, everything else compiled
#                            with coverage instrumentation; implies the
#                            sanitizers and needs Clang. scripts/fuzz builds
#                            and runs them. Without it the same targets are
#                            built as plain programs that replay files (the
#                            seed corpora and crash regressions in integration_test/fuzz).
#
# UBSan runs with -fno-sanitize-recover, so the first error stops the
# process; vptr and function checks are off because LLVM and MLIR are built
# without RTTI (as upstream's LLVM_UBSAN_FLAGS do).

option(SPYRE_ENABLE_SANITIZERS
  "Instrument spyre-mlir with AddressSanitizer and UndefinedBehaviorSanitizer"
  OFF)
option(SPYRE_ENABLE_FUZZERS
  "Build the libFuzzer targets (Clang; implies SPYRE_ENABLE_SANITIZERS)" OFF)

if(SPYRE_ENABLE_FUZZERS)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR
      "SPYRE_ENABLE_FUZZERS needs Clang (libFuzzer), not "
      "${CMAKE_CXX_COMPILER_ID}: configure with "
      "-DCMAKE_CXX_COMPILER=clang++-22 -DCMAKE_C_COMPILER=clang-22 "
      "(Debian: apt-get install clang-22 libclang-rt-22-dev), or use "
      "scripts/fuzz, which does")
  endif()
  set(SPYRE_ENABLE_SANITIZERS ON CACHE BOOL "" FORCE)
endif()

set(SPYRE_SANITIZER_PRELOAD "")
set(SPYRE_SANITIZER_LINK_OPTIONS "")
if(SPYRE_ENABLE_SANITIZERS)
  set(_spyre_ubsan -fsanitize=undefined -fno-sanitize=vptr)
  if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    list(APPEND _spyre_ubsan -fno-sanitize=function)
  endif()
  add_compile_options(-fsanitize=address ${_spyre_ubsan}
    -fno-sanitize-recover=all -fno-omit-frame-pointer -g1)
  add_link_options(-fsanitize=address ${_spyre_ubsan})
  # Programs linking the installed (instrumented) libraries need the
  # runtimes too: spyre_add_library exports these as interface link options.
  set(SPYRE_SANITIZER_LINK_OPTIONS -fsanitize=address ${_spyre_ubsan})
  if(SPYRE_ENABLE_FUZZERS)
    add_compile_options(-fsanitize=fuzzer-no-link)
  endif()

  # Programs that are not instrumented themselves (python3) must load the
  # ASan runtime first to import an instrumented extension module; the test
  # runners read the path from here.
  if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    set(_spyre_asan_lib libclang_rt.asan-${CMAKE_SYSTEM_PROCESSOR}.so)
    execute_process(
      COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=${_spyre_asan_lib}
      OUTPUT_VARIABLE SPYRE_SANITIZER_PRELOAD OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(NOT EXISTS "${SPYRE_SANITIZER_PRELOAD}")
      execute_process(
        COMMAND ${CMAKE_CXX_COMPILER} -print-runtime-dir
        OUTPUT_VARIABLE _spyre_rt_dir OUTPUT_STRIP_TRAILING_WHITESPACE)
      set(SPYRE_SANITIZER_PRELOAD "${_spyre_rt_dir}/${_spyre_asan_lib}")
    endif()
  else()
    execute_process(
      COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=libasan.so
      OUTPUT_VARIABLE SPYRE_SANITIZER_PRELOAD OUTPUT_STRIP_TRAILING_WHITESPACE)
  endif()
  # libstdc++ is preloaded with it: ASan's __cxa_throw interceptor resolves
  # the real function when the runtime starts, and python3 does not load
  # libstdc++ itself, so without it the first C++ exception aborts.
  execute_process(
    COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=libstdc++.so
    OUTPUT_VARIABLE _spyre_libstdcxx OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT EXISTS "${SPYRE_SANITIZER_PRELOAD}")
    message(WARNING "ASan runtime not found (${SPYRE_SANITIZER_PRELOAD}): "
      "the Python tests will not load the instrumented module")
  endif()
  if(EXISTS "${_spyre_libstdcxx}")
    string(APPEND SPYRE_SANITIZER_PRELOAD ":${_spyre_libstdcxx}")
  endif()
  file(WRITE ${PROJECT_BINARY_DIR}/sanitizer-preload.txt
    "${SPYRE_SANITIZER_PRELOAD}\n")
  message(STATUS "spyre-mlir: ASan+UBSan on (runtime ${SPYRE_SANITIZER_PRELOAD})")
else()
  file(REMOVE ${PROJECT_BINARY_DIR}/sanitizer-preload.txt)
endif()
