#!/usr/bin/env python3
"""Runs every test suite of spyre-mlir and prints one summary line.

Suites:
  lit     test/ (regression tests, plus test/Unit: the GoogleTest binaries run
          one test case per lit test) and integration_test/ (the slow
          end-to-end runs: examples, ops, corpus, fuzz replay, install)
  pytest  test/python (the `spyre` Python module)

Each suite writes JUnit XML into <build>/test-results; the counts come from
there. The last line printed is "N passed, N failed" (what CI reads); the exit
status is non-zero if anything failed or a suite could not run.
"""

import argparse
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIT = "/usr/lib/llvm-22/bin/lit"
PYTHON = "/usr/bin/python3"


def count_junit(path):
    """(passed, failed, skipped) of a JUnit XML report."""
    passed = failed = skipped = 0
    for case in ET.parse(path).getroot().iter("testcase"):
        if case.find("failure") is not None or case.find("error") is not None:
            failed += 1
        elif case.find("skipped") is not None:
            skipped += 1
        else:
            passed += 1
    return passed, failed, skipped


def run_suite(name, command, report, env=None):
    print(f"== {name}: {' '.join(command)}", flush=True)
    if os.path.exists(report):
        os.remove(report)
    status = subprocess.call(command, env=env)
    if not os.path.exists(report):
        print(f"{name}: no report written (exit status {status})")
        return 0, 1, 0
    passed, failed, skipped = count_junit(report)
    if status != 0 and failed == 0:
        # The runner failed without a failing test case (e.g. a crash while
        # collecting): count the suite itself as failed.
        failed = 1
    print(f"{name}: {passed} passed, {failed} failed, {skipped} skipped",
          flush=True)
    return passed, failed, skipped


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--lit-args", default="-sv",
                        help="arguments for lit (default: -sv)")
    args = parser.parse_args()
    build = os.path.abspath(args.build)
    results = os.path.join(build, "test-results")
    os.makedirs(results, exist_ok=True)

    totals = [0, 0, 0]
    suites = [(
        "lit",
        [LIT] + args.lit_args.split() +
        ["--xunit-xml-output", os.path.join(results, "lit.xml"),
         os.path.join(build, "test"), os.path.join(build, "integration_test")],
        os.path.join(results, "lit.xml"),
        None,
    )]
    python_env = dict(os.environ)
    python_env["PYTHONPATH"] = os.pathsep.join(
        [os.path.join(build, "python")] +
        ([python_env["PYTHONPATH"]] if python_env.get("PYTHONPATH") else []))
    preload_file = os.path.join(build, "sanitizer-preload.txt")
    if os.path.exists(preload_file):
        # An ASan+UBSan build (scripts/sanitize): python3 is not instrumented
        # and must load the ASan runtime before the instrumented module.
        with open(preload_file) as f:
            preload = f.read().strip()
        if preload:
            python_env["LD_PRELOAD"] = preload
        python_env.setdefault("ASAN_OPTIONS",
                              "abort_on_error=1:detect_leaks=0:"
                              "allow_user_poisoning=0")
        python_env.setdefault("UBSAN_OPTIONS",
                              "print_stacktrace=1:abort_on_error=1")
    python_tests = os.path.join(ROOT, "test", "python")
    if os.path.isdir(python_tests):
        suites.append((
            "pytest",
            [PYTHON, "-m", "pytest", "-q", "-p", "no:cacheprovider",
             "--junitxml", os.path.join(results, "pytest.xml"), python_tests],
            os.path.join(results, "pytest.xml"),
            python_env,
        ))

    for name, command, report, env in suites:
        for i, value in enumerate(run_suite(name, command, report, env)):
            totals[i] += value

    passed, failed, skipped = totals
    if skipped:
        print(f"({skipped} skipped or unsupported)")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
