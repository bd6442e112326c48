#!/usr/bin/env python3
"""Runs `spyre-run --check` for every function of some .mlir files on
several core counts.

    check_runs.py BIN_DIR --cores 1 2 7 32 FILE.mlir... [--function NAME...]

Each run compiles the function with the spyre pipeline, simulates it on
random inputs and compares every result with upstream MLIR's lowering of
the same program. Prints one line per run (`<file>:@<fn> cores=<n>: ok` or
the failure) and finally `N runs, N failed`.
"""

import argparse
import os
import re
import subprocess
import sys


def functions_of(path):
    with open(path) as f:
        return re.findall(r"^\s*func\.func @([\w.$-]+)\(", f.read(), re.M)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("bindir")
    parser.add_argument("files", nargs="+")
    parser.add_argument("--cores", nargs="+", type=int, default=[32])
    parser.add_argument("--function", nargs="*", default=None)
    args = parser.parse_args()
    runs = failed = 0
    for path in args.files:
        names = args.function or functions_of(path)
        for name in names:
            for cores in args.cores:
                runs += 1
                command = [os.path.join(args.bindir, "spyre-run"), path,
                           f"--function={name}", f"--cores={cores}",
                           "--random-inputs=1", "--check"]
                out = subprocess.run(command, capture_output=True, text=True)
                label = f"{os.path.basename(path)}:@{name} cores={cores}"
                checks = re.findall(r"^check result \d+: (\S+)", out.stdout,
                                    re.M)
                if out.returncode == 0 and checks and all(
                        c.startswith("ok") for c in checks):
                    print(f"{label}: ok ({len(checks)} results)")
                else:
                    failed += 1
                    print(f"{label}: FAILED (exit {out.returncode})")
                    print(out.stdout + out.stderr)
    print(f"{runs} runs, {failed} failed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
