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
    assert stats["schema"] == "spyre-stats" and stats["schema_version"] == 2
    program = stats["program"]
    assert 0 < program["utilisation"] <= 1, stats
    assert 0 < stats["kernel_utilisation"] <= 1, stats
    assert stats["seconds"] >= stats["kernel_roofline_seconds"] > 0
    # The program's own limit is below every plan's: no plan moves less
    # than its inputs and outputs once.
    assert stats["seconds"] >= program["roofline_seconds"] > 0
    assert stats["ddr_bytes"] >= program["compulsory_ddr_bytes"] > 0
    assert program["ddr_traffic_ratio"] >= 1
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
