#!/usr/bin/env python3
"""Compares an emitted SuperDSC/DCI JSON document with an expected one.

    json_diff.py ACTUAL EXPECTED [--select KEY ...]

--select walks into ACTUAL first (e.g. `sdscs sdsc_0.json` for the stdout
form of --spyre-to-superdsc). Objects compare as sets of keys (JSON has no
key order), lists element by element, numbers by value. Prints the path of
every difference and exits 1 when there is one.
"""

import json
import sys


def diff(actual, expected, path, out):
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            out.append(f"{path}: expected an object, got {actual!r}")
            return
        for key in expected.keys() - actual.keys():
            out.append(f"{path}/{key}: missing")
        for key in actual.keys() - expected.keys():
            out.append(f"{path}/{key}: unexpected")
        for key in expected.keys() & actual.keys():
            diff(actual[key], expected[key], f"{path}/{key}", out)
    elif isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            out.append(f"{path}: expected {expected!r}, got {actual!r}")
            return
        for i, (a, e) in enumerate(zip(actual, expected)):
            diff(a, e, f"{path}[{i}]", out)
    elif actual != expected or type(actual) is bool != type(expected) is bool:
        out.append(f"{path}: expected {expected!r}, got {actual!r}")


def main(argv):
    args = argv[1:]
    select = []
    if "--select" in args:
        i = args.index("--select")
        select, args = args[i + 1:], args[:i]
    with open(args[0]) as f:
        actual = json.load(f)
    with open(args[1]) as f:
        expected = json.load(f)
    for key in select:
        actual = actual[key]
    out = []
    diff(actual, expected, "", out)
    for line in out:
        print(line)
    print(f"{len(out)} differences")
    return 1 if out else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
