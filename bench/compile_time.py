#!/usr/bin/env python3
"""Compile time of `spyre-opt --spyre-pipeline` against `mlir-opt
--canonicalize --cse` on the same transformer stacks, in one run.

    /usr/bin/python3 bench/compile_time.py [--build build] [--reps 5] [--json F]

Two pipelines are measured: `layouts` (--spyre-pipeline=kernels=false:
convert-linalg through insert-padding, the scope the targets were set for)
and `kernels` (the whole pipeline, adding divide-work, plan-memory and
lower-to-kernels, whose output - the per-core kernel form - is several
times larger than its input).
For 1, 8 and 64 layers (bench/transformer.py) it reports, side by side:
  - wall time of each command (process start, parse, passes, print);
  - pass time alone (from --mlir-timing: everything but Parser, Output and
    Rest), which is what grows with the graph;
  - both per input op, the ratio spyre / (canonicalize+cse), and how the
    per-op pass time grows from the smallest to the largest graph.
Medians over --reps runs; commands alternate so load affects both alike.
Targets: per-op pass time at most 1.5x from 1 to 64 layers; the pipeline at
most 3x canonicalize+cse. Timings are reported, never asserted.
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))
import transformer  # noqa: E402

MLIR_OPT = "/usr/lib/llvm-22/bin/mlir-opt"
LAYERS = (1, 8, 64)
TARGET_GROWTH = 1.5
TARGET_RATIO = 3.0


def count_ops(path):
    """Ops in the input, from upstream's op statistics."""
    out = subprocess.run([MLIR_OPT, path, "--print-op-stats", "-o",
                          os.devnull], capture_output=True, text=True,
                         check=True)
    return sum(int(n) for n in re.findall(r",\s*(\d+)\s*$",
                                          out.stdout + out.stderr,
                                          re.MULTILINE))


def run(command):
    """(wall seconds, pass seconds) of one run with --mlir-timing."""
    t0 = time.perf_counter()
    out = subprocess.run(command + ["--mlir-timing", "-o", os.devnull],
                         capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if out.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{out.stderr}")
    passes = 0.0
    for line in out.stderr.splitlines():
        m = re.match(r"\s*([\d.]+) \(\s*[\d.]+%\)\s+(\S.*)$", line)
        if not m or line.startswith("    ") and line[4] == " ":
            continue  # nested entries (analyses) are part of their pass
        name = m.group(2).strip()
        if name in ("Parser", "Output", "Rest", "Total"):
            continue
        passes += float(m.group(1))
    return wall, passes


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--json", metavar="FILE")
    args = parser.parse_args()
    spyre_opt = os.path.join(args.build, "bin", "spyre-opt")

    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for layers in LAYERS:
            path = os.path.join(tmp, f"encoder{layers}.mlir")
            with open(path, "w") as f:
                f.write(transformer.generate(layers))
            ops = count_ops(path)
            commands = {
                "base": [MLIR_OPT, path, "--canonicalize", "--cse"],
                "layouts": [spyre_opt, path, "--spyre-pipeline=kernels=false"],
                "kernels": [spyre_opt, path, "--spyre-pipeline"],
            }
            for command in commands.values():
                run(command)  # warm the page cache
            samples = {key: [] for key in commands}
            for _ in range(args.reps):
                for key, command in commands.items():
                    samples[key].append(run(command))
            row = {"layers": layers, "ops": ops}
            for key, values in samples.items():
                row[f"{key}_wall_s"] = statistics.median(v[0] for v in values)
                row[f"{key}_pass_s"] = statistics.median(v[1] for v in values)
            results.append(row)

    report = {"reps": args.reps}
    for variant in ("layouts", "kernels"):
        report[variant] = table(variant, results, args.reps)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=2)
        print(f"wrote {args.json}")
    return 0


def table(variant, rows, reps):
    """Prints one variant's table and targets; returns its rows."""
    results = []
    for row in rows:
        results.append({"layers": row["layers"], "ops": row["ops"],
                        "spyre_wall_s": row[f"{variant}_wall_s"],
                        "spyre_pass_s": row[f"{variant}_pass_s"],
                        "base_wall_s": row["base_wall_s"],
                        "base_pass_s": row["base_pass_s"]})
    flag = ("--spyre-pipeline=kernels=false" if variant == "layouts"
            else "--spyre-pipeline")
    first = results[0]
    print()
    print(f"compile time [{variant}]: spyre-opt {flag} vs mlir-opt "
          f"--canonicalize --cse (median of {reps}; us = microseconds)")
    header = (f"{'layers':>6} | {'ops':>6} | {'spyre wall ms':>13} | "
              f"{'c+cse wall ms':>13} | {'wall ratio':>10} | "
              f"{'spyre pass us/op':>16} | {'c+cse pass us/op':>16} | "
              f"{'pass ratio':>10} | {'per-op growth':>13}")
    print(header)
    print("-" * len(header))
    for r in results:
        spyre_per_op = r["spyre_pass_s"] / r["ops"] * 1e6
        base_per_op = r["base_pass_s"] / r["ops"] * 1e6
        growth = spyre_per_op / (first["spyre_pass_s"] / first["ops"] * 1e6)
        r["wall_ratio"] = r["spyre_wall_s"] / r["base_wall_s"]
        r["pass_ratio"] = r["spyre_pass_s"] / r["base_pass_s"]
        r["spyre_pass_us_per_op"] = spyre_per_op
        r["per_op_growth"] = growth
        print(f"{r['layers']:>6} | {r['ops']:>6} | "
              f"{r['spyre_wall_s'] * 1e3:>13.1f} | "
              f"{r['base_wall_s'] * 1e3:>13.1f} | {r['wall_ratio']:>9.2f}x | "
              f"{spyre_per_op:>16.1f} | {base_per_op:>16.1f} | "
              f"{r['pass_ratio']:>9.2f}x | {growth:>12.2f}x")
    last = results[-1]
    print()
    print(f"targets: per-op pass time growth 1 -> {last['layers']} layers "
          f"<= {TARGET_GROWTH}x: {last['per_op_growth']:.2f}x "
          f"({'met' if last['per_op_growth'] <= TARGET_GROWTH else 'NOT met'}); "
          f"pipeline <= {TARGET_RATIO}x canonicalize+cse at {last['layers']} "
          f"layers: wall {last['wall_ratio']:.2f}x "
          f"({'met' if last['wall_ratio'] <= TARGET_RATIO else 'NOT met'}), "
          f"passes {last['pass_ratio']:.2f}x "
          f"({'met' if last['pass_ratio'] <= TARGET_RATIO else 'NOT met'})")
    return results


if __name__ == "__main__":
    sys.exit(main())
