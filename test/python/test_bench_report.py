"""bench/run_all's report building, on canned benchmark output (nothing is
benchmarked here)."""

import datetime
import importlib.machinery
import importlib.util
import os

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RUN_ALL = os.path.join(ROOT, "bench", "run_all")


def load_run_all():
    loader = importlib.machinery.SourceFileLoader("run_all", RUN_ALL)
    spec = importlib.util.spec_from_loader("run_all", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


run_all = load_run_all()


def stickify_data():
    def mode(memcpy, recipe):
        return {"ratios": {"stickify/memcpy": memcpy,
                           "stickify/numpy_literal": recipe}}
    return {"results": [
        {"case": "f16 [4096,4096] default", "dim_order": None,
         "modes": {"cold": mode(1.6, 7.5), "hot": mode(0.7, 2.5)}},
        {"case": "f16 [4096,4096] dim_order [1,0]", "dim_order": [1, 0],
         "modes": {"cold": mode(0.4, 2.0), "hot": mode(0.3, 2.0)}},
    ]}


def compile_time_data():
    def rows(growth, wall, passes):
        return [{"layers": 1, "ops": 148, "per_op_growth": 1.0,
                 "wall_ratio": 1.0, "pass_ratio": 2.0},
                {"layers": 64, "ops": 7771, "per_op_growth": growth,
                 "wall_ratio": wall, "pass_ratio": passes}]
    return {"reps": 5, "layouts": rows(0.9, 1.2, 2.5),
            "kernels": rows(0.6, 1.9, 3.7)}


DIVISION_STDOUT = (
    "op | shape\n"
    "\ntargets: never slower than greedy: met; large matmuls >= 85% of the "
    "roofline: NOT met (worst 80%)\n")


def division_data():
    return {"cores": 32, "rows": [
        {"op": "matmul", "shape": "8x1024x1024", "speedup_over_greedy": 1.0,
         "utilisation": 0.95},
        {"op": "matmul", "shape": "512x4096x4096",
         "speedup_over_greedy": 1.66, "utilisation": 0.80},
    ]}


def simulator_data():
    return {"reps": 3, "rows": [
        {"example": "gpt2_mlp", "simulate_ms": 150.0, "reference_ms": 100.0,
         "utilisation": 0.95, "kernels": 14},
        {"example": "softmax", "simulate_ms": 90.0, "reference_ms": 30.0,
         "utilisation": 0.75, "kernels": 6},
    ]}


def constants(name):
    return run_all.script_constants(os.path.join(ROOT, "bench", name))


def test_targets_are_read_from_the_benchmarks():
    assert constants("stickify.py")["TARGET_VS_MEMCPY"] == 0.8
    assert constants("stickify.py")["TARGET_VS_NUMPY"] == 3.0
    assert constants("compile_time.py")["TARGET_GROWTH"] == 1.5
    assert constants("compile_time.py")["TARGET_RATIO"] == 3.0
    assert constants("simulator.py")["TARGET"] == 2.0


def test_stickify_rows():
    rows = run_all.summarise_stickify(stickify_data(), "",
                                      constants("stickify.py"))
    by = {r["measurement"]: r for r in rows}
    cold = by["f16 [4096,4096] default, cold caches: stickify vs memcpy "
              "(throughput)"]
    assert (cold["value"], cold["target"], cold["op"], cold["met"]) == \
        (1.6, 0.8, ">=", True)
    hot = by["f16 [4096,4096] default, hot caches: stickify vs NumPy recipe "
             "(throughput)"]
    assert hot["met"] is False
    # Non-default layouts: cold only, and no target.
    other = [r for r in rows if "dim_order" in r["measurement"]]
    assert len(other) == 2
    assert all(r["target"] is None and r["met"] is None for r in other)


def test_compile_time_rows():
    rows = run_all.summarise_compile_time(compile_time_data(), "",
                                          constants("compile_time.py"))
    assert len(rows) == 6
    assert [r["met"] for r in rows] == [True, True, True, True, True, False]
    assert all(r["op"] == "<=" for r in rows)
    assert rows[0]["note"] is None and "layouts" in rows[3]["note"]


def test_division_rows_use_the_printed_verdicts():
    rows = run_all.summarise_division(division_data(), DIVISION_STDOUT, {})
    worst, best, large = rows
    assert (worst["value"], worst["target"], worst["met"]) == (1.0, 1.0, True)
    assert best["value"] == 1.66 and best["target"] is None
    assert (large["value"], large["target"], large["unit"], large["met"]) == \
        (0.80, 0.85, "%", False)


def test_division_target_line_matches_the_benchmark_source():
    # The regex follows the format string in bench/division.cpp.
    with open(os.path.join(ROOT, "bench", "division.cpp")) as f:
        source = f.read()
    assert "never slower than greedy: {0}; large matmuls >= 85% of the " \
        in source
    assert "roofline: {1} (worst {2:f0}%)" in source


def test_simulator_rows():
    rows = run_all.summarise_simulator(simulator_data(), "",
                                       constants("simulator.py"))
    ratios = [r for r in rows if r["unit"] == "x"]
    assert [round(r["value"], 2) for r in ratios] == [1.5, 3.0]
    assert [r["met"] for r in ratios] == [True, False]
    util = [r for r in rows if r["unit"] == "%"]
    assert [r["target"] for r in util] == [None, None]


def result(name, rows=(), error=None, stdout="table\nwrote /tmp/x.json\n"):
    return {"name": name, "title": name.title(), "rows": list(rows),
            "error": error, "stdout": stdout, "stderr": "", "seconds": 1.5,
            "argv": ["/usr/bin/python3", os.path.join(ROOT, "bench", "x.py"),
                     "--json", f"/tmp/d/{name}.json"],
            "env": {}}


def test_report():
    sim = run_all.summarise_simulator(simulator_data(), "",
                                      constants("simulator.py"))
    results = [
        result("simulator", sim),
        result("stickify", error="exit code 1: ModuleNotFoundError: spyre\n"
               "Traceback ...\nModuleNotFoundError: spyre", stdout=""),
    ]
    machine = {"commit": "`abc` (clean) subject",
               "rows": [("CPU", "Some CPU | with a bar"), ("RAM", "1 GiB")]}
    started = datetime.datetime(2026, 1, 2, 3, 4, 5,
                                tzinfo=datetime.timezone.utc)
    text = run_all.build_report(results, machine, "bench/run_all --quick",
                                started, 12.0, True)
    assert text.startswith("# spyre-mlir benchmark report\n")
    assert "2026-01-02T03:04:05+00:00" in text
    assert "`bench/run_all --quick`" in text
    assert "| CPU | Some CPU \\| with a bar |" in text
    assert "measured side by side in this one run" in text
    assert "not comparable across machines" in text
    assert "| area | measurement | ratio | target | met? |" in text
    assert ("| simulator | gpt2_mlp: simulator vs JIT reference (wall time) "
            "| 1.50x | ≤ 2x | yes |") in text
    assert ("| simulator | softmax: simulator vs JIT reference (wall time) "
            "| 3.00x | ≤ 2x | **no** |") in text
    assert "| 95% |  |  |" in text
    assert ("| stickify | benchmark failed: exit code 1: ModuleNotFoundError: "
            "spyre |  |  | **FAILED** |") in text
    assert "1 of 2 targets met" in text
    assert "## Failures" in text and "## Details" in text
    assert "wrote /tmp/x.json" not in text
    assert "--json FILE" in text
    # Exactly one ratio table.
    assert text.count("| area | measurement |") == 1


def test_only():
    names = [b.name for b in run_all.parse_only("simulator,compile-time")]
    assert names == ["compile_time", "simulator"]
    assert len(run_all.parse_only(None)) == 6
    with pytest.raises(SystemExit):
        run_all.parse_only("nope")


def test_quick_and_reps():
    stick = run_all.BY_NAME["stickify"]
    argv, env = run_all.bench_command(stick, "/b", "/t/s.json", None, True,
                                      "/usr/bin/python3")
    assert argv[-4:] == ["--warmup", "1", "--reps", "3"]
    assert env["PYTHONPATH"].split(os.pathsep)[0] == "/b/python"
    sim = run_all.BY_NAME["simulator"]
    argv, _ = run_all.bench_command(sim, "/b", "/t/s.json", 7, True,
                                    "/usr/bin/python3")
    assert argv[-2:] == ["--reps", "7"] and "--build" in argv
    div = run_all.BY_NAME["division"]
    argv, _ = run_all.bench_command(div, "/b", "/t/d.json", 7, True,
                                    "/usr/bin/python3")
    assert argv == ["/b/bin/spyre-bench-division", "--json=/t/d.json"]


def programs_data():
    row = {"kernels": 10, "host_segments": 0, "modelled_us": 100.0,
           "roofline_us": 50.0, "kernel_utilisation": 0.9, "ddr_mb": 10.0,
           "compulsory_mb": 5.0}
    return {"rows": [
        dict(row, program="llama-s2048", utilisation=0.5, traffic_ratio=2.0,
             wall_s=7.0),
        dict(row, program="softmax-8192x4096", utilisation=0.25,
             traffic_ratio=4.0, wall_s=0.5),
        dict(row, program="llama-s2048-op-by-op", utilisation=0.3,
             traffic_ratio=11.0, wall_s=6.0),
        dict(row, program="llama-s128-weights-auto", utilisation=0.8,
             traffic_ratio=1.1, wall_s=0.7, modelled_us=90.0),
        dict(row, program="llama-s128-weights-dim-order", utilisation=0.8,
             traffic_ratio=1.1, wall_s=0.7, modelled_us=90.0),
    ]}


def test_programs_rows():
    assert constants("programs.py")["TRAFFIC_TARGET"] == 1.2
    rows = run_all.summarise_programs(programs_data(), "",
                                      constants("programs.py"))
    by = {r["measurement"]: r for r in rows}
    util = by["llama-s2048: program utilisation (program roofline / "
              "modelled time)"]
    assert (util["value"], util["target"], util["met"]) == (0.5, 0.8, False)
    traffic = by["llama-s2048: DDR traffic / compulsory traffic"]
    assert (traffic["value"], traffic["met"]) == (2.0, False)
    # Kernels that are not model layers have no target, nor do the layers'
    # variants (op by op).
    assert by["softmax-8192x4096: DDR traffic / compulsory traffic"][
        "target"] is None
    assert by["llama-s2048-op-by-op: DDR traffic / compulsory traffic"][
        "target"] is None
    wall = [r for r in rows if "model-only wall" in r["measurement"]][0]
    assert (wall["value"], wall["met"], wall["unit"]) == (7.0, True, "s")
    weights = [r for r in rows if "hand-written" in r["measurement"]][0]
    assert weights["value"] == 1.0 and weights["met"] is True
    quick = run_all.bench_command(run_all.BY_NAME["programs"], "/b", "/t/p.json",
                                  None, True, "/usr/bin/python3")[0]
    assert quick[-1] == "--quick"
