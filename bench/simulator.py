#!/usr/bin/env python3
"""Simulator wall time against the upstream JIT reference, and the modelled
utilisation of every example (against the program's own roofline: its
inputs and outputs moved once or its work at peak), in one run.

    /usr/bin/python3 bench/simulator.py [--build build] [--reps 3] [--json F]

For each example model, `spyre-run --random-inputs --check --timing`
compiles the model, simulates it on the modelled 32-core machine and runs
upstream MLIR's lowering of the same linalg (JIT-compiled with the
ExecutionEngine, then run), in one process, and prints MLIR's execution
time report of the three. Reported side by side (medians of
--reps runs): the simulator's wall time, the reference's (lowering + JIT +
run), their ratio, and the modelled time and utilisation (roofline over
modelled time). Target: the simulator at most 2x the reference. Timings are
reported, never asserted.
"""

import argparse
import glob
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGET = 2.0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--json", metavar="FILE")
    args = parser.parse_args()
    run = os.path.join(args.build, "bin", "spyre-run")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for example in sorted(glob.glob(os.path.join(ROOT, "examples", "*.mlir"))):
            name = os.path.splitext(os.path.basename(example))[0]
            sim, ref = [], []
            stats = None
            for rep in range(args.reps):
                stats_file = os.path.join(tmp, f"{name}.json")
                out = subprocess.run(
                    [run, example, "--random-inputs=0", "--check", "--timing",
                     f"--stats-json={stats_file}"],
                    capture_output=True, text=True)
                if out.returncode != 0:
                    sys.exit(f"{name}: spyre-run failed\n{out.stdout}{out.stderr}")
                # --timing prints MLIR's execution time report (seconds).
                def phase(name):
                    m = re.search(r"^\s+([\d.]+) \(.*\)\s+" + name + r"$",
                                  out.stderr, re.M)
                    return float(m.group(1)) * 1e3
                sim.append(phase("simulate"))
                ref.append(phase("reference"))
                with open(stats_file) as f:
                    stats = json.load(f)
            rows.append({
                "example": name,
                "simulate_ms": statistics.median(sim),
                "reference_ms": statistics.median(ref),
                "modelled_us": stats["seconds"] * 1e6,
                "roofline_us": stats["program"]["roofline_seconds"] * 1e6,
                "utilisation": stats["program"]["utilisation"],
                "kernel_utilisation": stats["kernel_utilisation"],
                "traffic_ratio": stats["program"]["ddr_traffic_ratio"],
                "kernels": len(stats["kernels"]),
            })
    print(f"simulator vs upstream JIT reference (median of {args.reps}; "
          "32 modelled cores)")
    header = (f"{'example':<16} | {'kernels':>7} | {'simulate ms':>11} | "
              f"{'reference ms':>12} | {'sim/ref':>7} | {'modelled us':>11} | "
              f"{'roofline us':>11} | {'utilisation':>11} | {'traffic':>7}")
    print(header)
    print("-" * len(header))
    for r in rows:
        r["ratio"] = r["simulate_ms"] / r["reference_ms"]
        print(f"{r['example']:<16} | {r['kernels']:>7} | {r['simulate_ms']:>11.1f} | "
              f"{r['reference_ms']:>12.1f} | {r['ratio']:>6.2f}x | "
              f"{r['modelled_us']:>11.2f} | {r['roofline_us']:>11.2f} | "
              f"{r['utilisation'] * 100:>10.1f}% | "
              f"{r['traffic_ratio']:>6.2f}x")
    worst = max(r["ratio"] for r in rows)
    print()
    print(f"target: simulator <= {TARGET}x the reference on every example: "
          f"worst {worst:.2f}x ({'met' if worst <= TARGET else 'NOT met'})")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"reps": args.reps, "rows": rows}, f, indent=2)
        print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
