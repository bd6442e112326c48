#!/usr/bin/env python3
"""Checks the stores of a split reduction in spyre-run's --trace.

    check_split_store.py TRACE.json RESULT_BYTES DDR_GBPS

The partners of a split reduction combine their partial results over the
ring and one of each (the leader) stores the combined tile. Only the
leaders store then, so they share the DDR among themselves: together they
store the result in RESULT_BYTES / DDR bandwidth, whatever their number.
"""

import json
import sys


def main(trace_path, result_bytes, ddr_gbps):
    result_bytes = int(result_bytes)
    ddr = float(ddr_gbps) * 1e9
    with open(trace_path) as f:
        events = json.load(f)["traceEvents"]
    spans = [e for e in events if e.get("ph") == "X" and e["cat"] != "kernel"]
    leaders = sorted({e["tid"] for e in spans if e["name"] == "combine"})
    storers = sorted({e["tid"] for e in spans if e["name"] == "store"})
    assert leaders and storers == leaders, (leaders, storers)
    expected_us = result_bytes / ddr * 1e6
    for core in leaders:
        stored_us = sum(e["dur"] for e in spans
                        if e["tid"] == core and e["name"] == "store")
        assert abs(stored_us - expected_us) <= 0.01 * expected_us, (
            core, stored_us, expected_us)
    print(f"{len(leaders)} leaders store the result, each its share in "
          f"{expected_us:.2f} us (the DDR shared by the {len(leaders)})")
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
