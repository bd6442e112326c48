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
config.substitutions.append(("%python", config.python_executable))

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

tool_dirs = [config.spyre_tools_dir, config.llvm_tools_dir]
tools = ["spyre-opt", "spyre-translate", "spyre-run", "spyre-lsp-server", "spyre-capi-test", "mlir-opt"]
llvm_config.add_tool_substitutions(tools, tool_dirs)

if config.enable_python:
    config.available_features.add("python")
    llvm_config.with_environment(
        "PYTHONPATH", os.path.join(config.spyre_obj_root, "python"),
        append_path=True)
