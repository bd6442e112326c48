# -*- Python -*-
# lit configuration of the spyre-mlir regression tests.

import os

import lit.formats
from lit.llvm import llvm_config

config.name = "SPYRE"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.spyre_obj_root, "test")
# Python tests run under pytest (test/Unit is its own suite); inputs are
# data, not tests.
config.excludes = ["python", "Inputs", "CMakeLists.txt", "lit.cfg.py"]

# Captured SSA names must be re-captured in every CHECK-LABEL block.
config.environment["FILECHECK_OPTS"] = "-enable-var-scope"

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%spyre_src_root", config.spyre_src_root))
config.substitutions.append(("%spyre_obj_root", config.spyre_obj_root))
python = config.python_executable
if config.enable_sanitizers:
    # ASan+UBSan build (scripts/sanitize): stop at the first error with a
    # signal, which `not` does not accept, so a sanitizer report fails the
    # test even where the tool is expected to exit non-zero.
    config.available_features.add("sanitizers")
    # allow_user_poisoning=0: LLVM's inline allocators poison slab memory in
    # our instrumented code that uninstrumented libMLIR.so then hands out
    # (see tools/spyre-fuzz/SanitizerDefaults.cpp).
    config.environment.setdefault(
        "ASAN_OPTIONS", "abort_on_error=1:detect_leaks=1:"
        "allow_user_poisoning=0:check_initialization_order=1")
    config.environment.setdefault(
        "UBSAN_OPTIONS", "print_stacktrace=1:abort_on_error=1")
    if config.sanitizer_preload:
        # python3 is not instrumented: it loads the ASan runtime first so it
        # can import the instrumented `spyre` module. Python itself leaks
        # at exit by design, so leak checking is off for it.
        python = ("env LD_PRELOAD=" + config.sanitizer_preload +
                  " ASAN_OPTIONS=abort_on_error=1:detect_leaks=0:"
                  "allow_user_poisoning=0 " + python)
config.substitutions.append(("%python_version", config.python_version))
config.substitutions.append(("%python", python))

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

tool_dirs = [config.spyre_tools_dir, config.llvm_tools_dir]
tools = ["spyre-opt", "spyre-translate", "spyre-run", "spyre-compile",
         "spyre-lsp-server",
         "spyre-capi-test", "mlir-opt", "spyre-fuzz-layout",
         "spyre-fuzz-layout-attr", "spyre-fuzz-pipeline"]
llvm_config.add_tool_substitutions(tools, tool_dirs)

import shutil
if shutil.which("clang-format-22") and os.path.isdir(
        os.path.join(config.spyre_src_root, ".git")):
    config.available_features.add("clang-format")

if config.enable_python:
    config.available_features.add("python")
    llvm_config.with_environment(
        "PYTHONPATH", os.path.join(config.spyre_obj_root, "python"),
        append_path=True)
