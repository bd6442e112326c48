# -*- Python -*-
# The GoogleTest unit tests, one lit test per test case.

import os

import lit.formats

config.name = "SPYRE-Unit"
config.suffixes = []
config.test_exec_root = os.path.join(config.spyre_obj_root, "unittests")
config.test_source_root = config.test_exec_root
config.test_format = lit.formats.GoogleTest(".", "Tests")

if getattr(config, "enable_sanitizers", False):
    config.environment.setdefault(
        "ASAN_OPTIONS", "abort_on_error=1:detect_leaks=1:allow_user_poisoning=0")
    config.environment.setdefault(
        "UBSAN_OPTIONS", "print_stacktrace=1:abort_on_error=1")
