# -*- Python -*-
# lit configuration of the spyre-mlir integration tests: the slow end-to-end
# runs (every example and op simulated and checked, the bad-input corpus,
# the fuzzers' seeds and regressions replayed, installing the package). The
# tools, substitutions and features are the regression tests' (test/), so
# one configuration serves both trees.

import os

lit_config.load_config(
    config, os.path.join(config.spyre_src_root, "test", "lit.cfg.py"))

config.name = "SPYRE-Integration"
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.spyre_obj_root, "integration_test")
