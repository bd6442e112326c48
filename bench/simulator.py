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
modelled time). Target: the simulator at most 2x the reference.

Then how `--check` grows with the program: chains of 100, 400 and 1600
elementwise ops over one shared `tensor.empty` (as front ends write them),
whole `spyre-run --random-inputs --check` wall time per op. Target: the
per-op time at 1600 ops at most 1.5x that at 100 (linear). Timings are
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
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGET = 2.0
CHAIN_OPS = (100, 400, 1600)
CHAIN_GROWTH_TARGET = 1.5


def chain_program(ops):
    """A chain of `ops` elementwise ops, all writing into one empty."""
    lines = ["func.func @chain(%a: tensor<64x128xf16>) -> tensor<64x128xf16> {",
             "  %e = tensor.empty() : tensor<64x128xf16>"]
    previous = "%a"
    for i in range(ops):
        op = ("linalg.exp", "linalg.negf", "linalg.abs", "linalg.negf")[i % 4]
        lines.append(f"  %v{i} = {op} ins({previous} : tensor<64x128xf16>) "
                     "outs(%e : tensor<64x128xf16>) -> tensor<64x128xf16>")
        previous = f"%v{i}"
    lines += [f"  return {previous} : tensor<64x128xf16>", "}"]
    return "\n".join(lines) + "\n"


def check_scaling(run, tmp, reps):
    """Per-op wall time of spyre-run --check on chains of CHAIN_OPS ops."""
    rows = []
    for ops in CHAIN_OPS:
        path = os.path.join(tmp, f"chain{ops}.mlir")
        with open(path, "w") as f:
            f.write(chain_program(ops))
        times = []
        for _ in range(reps):
            t0 = time.perf_counter()
            out = subprocess.run([run, path, "--random-inputs=0", "--check"],
                                 capture_output=True, text=True)
            times.append(time.perf_counter() - t0)
            if out.returncode != 0:
                sys.exit(f"chain of {ops}: spyre-run failed\n{out.stderr}")
        seconds = statistics.median(times)
        rows.append({"ops": ops, "seconds": seconds,
                     "ms_per_op": seconds / ops * 1e3})
    return rows


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
        chains = check_scaling(run, tmp, args.reps)
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
    print()
    print(f"spyre-run --check on op chains (median of {args.reps})")
    print(f"{'ops':>6} | {'seconds':>8} | {'ms per op':>9}")
    for c in chains:
        print(f"{c['ops']:>6} | {c['seconds']:>8.2f} | {c['ms_per_op']:>9.2f}")
    growth = chains[-1]["ms_per_op"] / chains[0]["ms_per_op"]
    print(f"target: per-op time at {CHAIN_OPS[-1]} ops <= "
          f"{CHAIN_GROWTH_TARGET}x that at {CHAIN_OPS[0]}: {growth:.2f}x "
          f"({'met' if growth <= CHAIN_GROWTH_TARGET else 'NOT met'})")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"reps": args.reps, "rows": rows, "chains": chains,
                       "chain_growth": growth}, f, indent=2)
        print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
