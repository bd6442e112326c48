#!/usr/bin/env python3
"""Checks spyre-run's --stats-json and --trace files.

    check_trace.py STATS.json TRACE.json CORES
"""

import json
import sys


def main(stats_path, trace_path, cores):
    cores = int(cores)
    with open(stats_path) as f:
        stats = json.load(f)
    kernels = stats["kernels"]
    assert all(k["cores"] == cores for k in kernels), kernels
    assert 0 < stats["utilisation"] <= 1, stats
    assert stats["seconds"] >= stats["roofline_seconds"] > 0
    print(f"stats: {len(kernels)} kernels, {stats['ddr_bytes']} DDR bytes, "
          "utilisation in (0, 1]")
    with open(trace_path) as f:
        trace = json.load(f)
    events = trace["traceEvents"]
    names = {e["tid"]: e["args"]["name"] for e in events
             if e.get("ph") == "M" and e["name"] == "thread_name"}
    spans = [e for e in events if e.get("ph") == "X"]
    for e in spans:
        assert e["dur"] > 0 and e["ts"] >= 0, e
    for core in range(cores):
        assert names[core] == f"core {core}"
        kinds = {e["name"] for e in spans if e["tid"] == core}
        assert {"load", "store"} <= kinds, (core, kinds)
        assert any(e["cat"] == "sfp" for e in spans if e["tid"] == core)
    kernel_spans = [e for e in spans if e["cat"] == "kernel"]
    print(f"trace: cores 0-{cores - 1} have load, compute and store spans; "
          f"{len(kernel_spans)} kernel span")
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
