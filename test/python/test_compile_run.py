"""spyre.compile and spyre.run: the compiler and the simulator from Python."""

import json
import os

import numpy as np
import pytest

import spyre
from spyre_reference import dl16

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLES = os.path.join(ROOT, "examples")

ADD = """
func.func @add(%a: tensor<128x256xf16>, %b: tensor<128x256xf16>) -> tensor<128x256xf16> {
  %e = tensor.empty() : tensor<128x256xf16>
  %0 = linalg.add ins(%a, %b : tensor<128x256xf16>, tensor<128x256xf16>)
                  outs(%e : tensor<128x256xf16>) -> tensor<128x256xf16>
  return %0 : tensor<128x256xf16>
}
"""

MATMUL = """
func.func @mm(%a: tensor<37x200xf16>, %b: tensor<200x100xf16>) -> tensor<37x100xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<37x100xf16>
  %z = linalg.fill ins(%zero : f16) outs(%e : tensor<37x100xf16>) -> tensor<37x100xf16>
  %0 = linalg.matmul ins(%a, %b : tensor<37x200xf16>, tensor<200x100xf16>)
                     outs(%z : tensor<37x100xf16>) -> tensor<37x100xf16>
  return %0 : tensor<37x100xf16>
}
"""


def rand(shape, dtype=np.float16, seed=0):
    return np.random.default_rng(seed).uniform(-1, 1, shape).astype(dtype)


def test_compile_artifact():
    artifact = spyre.compile(ADD, cores=4)
    assert isinstance(artifact, spyre.Artifact)
    assert "spyre.kernel" in artifact.ir
    (bundle,) = artifact.superdsc["bundles"]
    assert bundle["file"] == "bundle_0.mlir"
    assert bundle["sdscs"] == ["sdsc_0.json"]
    # a + b -> c: three io buffers, no pool, one segment each.
    assert bundle["segments"] == [f"#spyre.mem<io {i}>" for i in range(3)]
    (name, body), = artifact.superdsc["sdscs"]["sdsc_0.json"].items()
    assert name == "0_add"
    assert body["numCoresUsed_"] == 4
    assert body["numWkSlicesPerDim_"] == {"mb": 4, "out": 1}
    assert list(artifact.bundles) == ["bundle_0.mlir"]
    text = artifact.bundles["bundle_0.mlir"]
    assert text.count("func.func @sdsc_bundle()") == 1
    assert 'sdsc_filename="sdsc_0.json"' in text
    assert [d["isHostToSen_"] for d in artifact.dci] == [True, True, False]
    assert artifact.dci[0]["dcsi_"][0]["size_"] == [64, 128, 4]
    assert "1 SuperDSCs in 1 bundles" in repr(artifact)
    assert "4 cores" in repr(artifact)


def dl16_add(a, b):
    """a + b as the device computes it: DL16 operands, added, stored DL16."""
    return dl16(dl16(a) + dl16(b)).astype(np.float16)


def test_run_add_is_exact():
    a, b = rand((128, 256), seed=1), rand((128, 256), seed=2)
    (out,), stats = spyre.run(ADD, [a, b], cores=4)
    assert out.dtype == np.float16 and out.shape == (128, 256)
    np.testing.assert_array_equal(out, dl16_add(a, b))
    # With IEEE binary16 numerics: binary16 addition.
    (ieee,), _ = spyre.run(ADD, [a, b], cores=4, numerics="ieee-f16")
    np.testing.assert_array_equal(ieee, (a.astype(np.float32) + b).astype(np.float16))
    assert stats["seconds"] > 0
    assert stats["kernels"][0]["name"] == "0_add"
    assert stats["kernels"][0]["cores"] == 4
    assert "total" in stats["table"]


@pytest.mark.parametrize("cores", [1, 2, 7, 32])
def test_run_matmul_matches_numpy(cores):
    a, b = rand((37, 200), seed=3), rand((200, 100), seed=4)
    (out,), stats = spyre.run(MATMUL, [a, b], cores=cores)
    want = a.astype(np.float32) @ b.astype(np.float32)
    np.testing.assert_allclose(out.astype(np.float32), want, atol=1e-2, rtol=1e-2)
    assert stats["kernels"][-1]["unit"] == "pt"


LAYER_NORM = """
func.func @ln(%x: tensor<96x200xf16>, %w: tensor<200xf16>, %b: tensor<200xf16>)
    -> (tensor<96x200xf16>, tensor<96xf16>, tensor<96xf16>) {
  %m = spyre.exx2 %x scale = 0.005 : tensor<96x200xf16> -> tensor<96xf16>
  %n = spyre.layernormscale %m eps = 1.0e-05 : tensor<96xf16> -> tensor<96xf16>
  %y = spyre.layernormnorm %x, %m, %n, %w, %b
      : (tensor<96x200xf16>, tensor<96xf16>, tensor<96xf16>, tensor<200xf16>,
         tensor<200xf16>) -> tensor<96x200xf16>
  return %y, %m, %n : tensor<96x200xf16>, tensor<96xf16>, tensor<96xf16>
}
"""


@pytest.mark.parametrize("cores", [1, 3, 32])
def test_layer_norm_family_matches_numpy(cores):
    # torch-spyre's layer_norm: the statistics travel as one stick per row
    # holding two values (the exx2 arrangement); the host reads lane 0, the
    # mean, of exx2's and layernormscale's results.
    x = (rand((96, 200), seed=5) * 3 + 0.5).astype(np.float16)
    w, b = rand((200,), seed=6), rand((200,), seed=7)
    (y, m, n), _ = spyre.run(LAYER_NORM, [x, w, b], cores=cores)
    xf = x.astype(np.float64)
    mean = xf.mean(axis=1)
    want = ((xf - mean[:, None]) / np.sqrt(xf.var(axis=1)[:, None] + 1e-5)
            * w.astype(np.float64) + b.astype(np.float64))
    np.testing.assert_allclose(m.astype(np.float64), mean, atol=2e-3)
    np.testing.assert_allclose(n.astype(np.float64), mean, atol=2e-3)
    np.testing.assert_allclose(y.astype(np.float64), want, atol=3e-2, rtol=1e-2)


def test_run_artifact_with_check():
    artifact = spyre.compile(MATMUL, cores=8)
    a, b = rand((37, 200), seed=5), rand((200, 100), seed=6)
    outs, stats = spyre.run(artifact, [a, b], check=True)
    assert stats["check_ok"], stats["check"]
    assert stats["check"][0]["max_abs_error"] < 0.1


def test_run_example_with_trace():
    with open(os.path.join(EXAMPLES, "softmax.mlir")) as f:
        text = f.read()
    x = rand((64, 1000), seed=7)
    (out,), stats = spyre.run(text, [x], check=True, trace=True)
    np.testing.assert_allclose(out.astype(np.float32).sum(axis=1), 1.0, atol=2e-2)
    assert stats["check_ok"]
    events = stats["trace"]["traceEvents"]
    assert any(e.get("cat") == "kernel" for e in events)
    assert {e["tid"] for e in events if e.get("cat") == "dma"} <= set(range(32))
    json.dumps(stats["trace"])  # serialisable as is


def test_wrong_inputs_raise():
    a = rand((128, 256))
    with pytest.raises(ValueError, match="takes 2 inputs, 1 were given"):
        spyre.run(ADD, [a])
    with pytest.raises(ValueError, match=r"expects shape \[128, 256\]"):
        spyre.run(ADD, [a, rand((256, 128))])
    with pytest.raises(ValueError, match="expects float16 elements"):
        spyre.run(ADD, [a, a.astype(np.float32)])


def test_bad_programs_raise():
    with pytest.raises(ValueError, match="cannot parse the MLIR text"):
        spyre.compile("func.func @f(")
    bad = ADD.replace("linalg.add", "linalg.sub").replace("128x256xf16>, tensor<128x256xf16>)\n", "128x256xf16>, tensor<128x255xf16>)\n")
    with pytest.raises(ValueError):
        spyre.compile(bad)
    with pytest.raises(ValueError, match="linalg program"):
        spyre.run(spyre.compile(ADD).ir, [rand((128, 256)), rand((128, 256))], check=True)


F32_MATMUL = """
func.func @mm(%a: tensor<8x32xf32>, %b: tensor<32x8xf32>) -> tensor<8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<8x32xf32>, tensor<32x8xf32>)
                     outs(%z : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
"""


def test_remarks_reach_python_as_warnings():
    with pytest.warns(spyre.CompileWarning,
                      match=r"'linalg.matmul' stays on the host: the PT unit "
                            r"does not multiply f32"):
        artifact = spyre.compile(F32_MATMUL, cores=4)
    assert any("stays on the host" in remark for remark in artifact.remarks)
    # The remark carries its location, as the command-line tools print it.
    assert any("<input>:6:" in remark for remark in artifact.remarks)


def test_errors_carry_the_compilers_message_and_location():
    with pytest.raises(ValueError) as raised:
        spyre.compile("func.func @f(%a: tensor<4xf16>) -> tensor<4xf16> {\n"
                      "  %0 = arith.addf %a, %b : tensor<4xf16>\n"
                      "  return %0 : tensor<4xf16>\n}\n")
    message = str(raised.value)
    assert "cannot parse the MLIR text" in message
    assert "<input>:2:" in message and "use of undeclared SSA value" in message


def test_check_rows_and_tolerances():
    a, b = rand((128, 256), seed=1), rand((128, 256), seed=2)
    _, stats = spyre.run(ADD, [a, b], cores=4, check=True)
    (row,) = stats["check"]
    assert stats["check_ok"] and row["ok"]
    # f16: rtol 1e-2, atol 1e-2 times the reference's root mean square. The
    # reference computes on the inputs as the device stores them (DL16).
    reference = (dl16(a) + dl16(b)).astype(np.float16).astype(np.float64)
    rms = float(np.sqrt(np.mean(reference ** 2)))
    assert row["rtol"] == pytest.approx(1e-2)
    assert row["atol"] == pytest.approx(1e-2 * rms, rel=1e-6)
    assert row["text"].startswith("check result 0: ok")


LONG_SUM = """
func.func @sum(%x: tensor<2x40960xf32>) -> tensor<2xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2xf32>) -> tensor<2xf32>
  %r = linalg.reduce ins(%x : tensor<2x40960xf32>) outs(%f : tensor<2xf32>) dimensions = [1]
    (%a: f32, %b: f32) {
      %s = arith.addf %a, %b : f32
      linalg.yield %s : f32
    }
  return %r : tensor<2xf32>
}
"""


def test_long_f32_reductions_are_checked_within_the_references_rounding():
    # IREE's regression case: 40960 x 0.001. The reference adds in order and
    # drifts to 40.95; the device's partial sums give 40.96, the exact sum
    # of the f32 inputs to 6 digits. The tolerance grows with the terms
    # summed (40960 * 2^-24 = 0.24%, so a sum off by 1% still fails).
    x = np.full((2, 40960), 0.001, np.float32)
    (out,), stats = spyre.run(LONG_SUM, [x], check=True)
    (row,) = stats["check"]
    assert row["ok"] and row["rtol"] == pytest.approx(40960 * 2.0**-24)
    exact = 40960 * np.float64(np.float32(0.001))
    np.testing.assert_allclose(out, exact, rtol=1e-5)
    sequential = np.float32(0)
    for _ in range(40960):
        sequential = np.float32(sequential + np.float32(0.001))
    assert abs(sequential - exact) > 1e-4 * exact  # beyond f32's 1e-4


def test_big_endian_inputs_are_converted():
    a, b = rand((128, 256), seed=1), rand((128, 256), seed=2)
    (out,), _ = spyre.run(ADD, [a.astype(">f2"), b.astype(">f2")], cores=4)
    np.testing.assert_array_equal(out, dl16_add(a, b))


def test_version():
    assert spyre.__version__ == spyre._compiler().version


def test_program_roofline_is_not_the_plans_own_bound():
    # Softmax as separate kernels writes intermediates to DDR: the program's
    # own limit (input read once, output written once) is below the sum of
    # the kernels' rooflines, and the traffic is above the compulsory bytes.
    with open(os.path.join(EXAMPLES, "softmax.mlir")) as f:
        text = f.read()
    x = rand((64, 1000), seed=7)
    _, stats = spyre.run(text, [x], cores=32)
    program = stats["program"]
    assert stats["schema"] == "spyre-stats" and stats["schema_version"] == 2
    assert program["compulsory_ddr_bytes"] == 2 * 64 * 1000 * 2
    assert program["ddr_traffic_ratio"] == pytest.approx(
        stats["ddr_bytes"] / program["compulsory_ddr_bytes"])
    assert program["roofline_seconds"] <= stats["seconds"]
    assert program["utilisation"] == pytest.approx(
        program["roofline_seconds"] / stats["seconds"])


SOFTMAX_512 = """
func.func @softmax(%x: tensor<512x1024xf16>) -> tensor<512x1024xf16> {
  %e = tensor.empty() : tensor<512x1024xf16>
  %y = linalg.softmax dimension(1) ins(%x : tensor<512x1024xf16>)
                                   outs(%e : tensor<512x1024xf16>) -> tensor<512x1024xf16>
  return %y : tensor<512x1024xf16>
}
"""


def test_row_blocks_keep_softmax_intermediates_in_lx():
    # One core: softmax 512x1024 f16 does not fit LX with its intermediates.
    # In row blocks the DDR sees the input read once and the output written
    # once (2 MiB); op by op it is four times that. Both compute softmax.
    x = rand((512, 1024), seed=11)
    e = np.exp(x.astype(np.float64) - x.max(axis=1, keepdims=True))
    expected = e / e.sum(axis=1, keepdims=True)
    (blocked,), fused = spyre.run(SOFTMAX_512, [x], cores=1)
    (whole,), alone = spyre.run(SOFTMAX_512, [x], cores=1,
                                fuse_row_blocks=False)
    for y in (blocked, whole):
        np.testing.assert_allclose(y.astype(np.float64), expected, atol=2e-3,
                                   rtol=1e-2)
    assert fused["ddr_bytes"] == 2 * 2**20
    assert alone["ddr_bytes"] >= 4 * 2**20
    assert len(fused["kernels"]) > len(alone["kernels"])
    assert fused["seconds"] < alone["seconds"]
    # The program's own bound does not depend on the plan.
    assert fused["program"]["roofline_seconds"] == pytest.approx(
        alone["program"]["roofline_seconds"])
    artifact = spyre.compile(SOFTMAX_512, cores=1, fuse_row_blocks=False)
    assert "spyre.fusion_group" not in artifact.ir


FUSED_QKV = """
#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @qkv(%x: tensor<64x128xf16>, %w: tensor<128x384xf16>,
               %b: tensor<384xf16>)
    -> (tensor<64x128xf16>, tensor<64x128xf16>, tensor<64x128xf16>) {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<64x384xf16>
  %z = linalg.fill ins(%zero : f16) outs(%e : tensor<64x384xf16>)
       -> tensor<64x384xf16>
  %m = linalg.matmul indexing_maps = [#mk, #kn, #mn]
       ins(%x, %w : tensor<64x128xf16>, tensor<128x384xf16>)
       outs(%z : tensor<64x384xf16>) -> tensor<64x384xf16>
  %a = linalg.generic {indexing_maps = [#id, #col, #id],
                       iterator_types = ["parallel", "parallel"]}
       ins(%m, %b : tensor<64x384xf16>, tensor<384xf16>)
       outs(%e : tensor<64x384xf16>) {
  ^bb0(%p: f16, %q: f16, %o: f16):
    %r = arith.addf %p, %q : f16
    linalg.yield %r : f16
  } -> tensor<64x384xf16>
  %q = tensor.extract_slice %a[0, 0] [64, 128] [1, 1]
       : tensor<64x384xf16> to tensor<64x128xf16>
  %k = tensor.extract_slice %a[0, 128] [64, 128] [1, 1]
       : tensor<64x384xf16> to tensor<64x128xf16>
  %v = tensor.extract_slice %a[0, 256] [64, 128] [1, 1]
       : tensor<64x384xf16> to tensor<64x128xf16>
  return %q, %k, %v : tensor<64x128xf16>, tensor<64x128xf16>,
                      tensor<64x128xf16>
}
"""


def test_split_projections():
    # A projection read in three column blocks (GPT-2's c_attn) compiles to
    # three matmuls by default, one with split_projections=False; both
    # compute x @ w + b, block by block.
    x = rand((64, 128), seed=3) / 8
    w = rand((128, 384), seed=4) / 8
    b = rand((384,), seed=5)
    expected = x.astype(np.float64) @ w.astype(np.float64) + b
    split = spyre.compile(FUSED_QKV, cores=4)
    whole = spyre.compile(FUSED_QKV, cores=4, split_projections=False)
    assert split.ir.count("spyre.matmul") == 3
    assert whole.ir.count("spyre.matmul") == 1
    for option in (True, False):
        outputs, _ = spyre.run(FUSED_QKV, [x, w, b], cores=4,
                               split_projections=option)
        for i, y in enumerate(outputs):
            np.testing.assert_allclose(
                y.astype(np.float64), expected[:, 128 * i:128 * (i + 1)],
                atol=2e-2, rtol=1e-2)


def test_program_roofline_counts_constant_weights():
    # A weight compiled into the program is read from DDR at least once, as
    # an argument is: it is part of the compulsory traffic.
    w = rand((64, 64), seed=9)
    literal = ", ".join("[" + ", ".join(f"{v:.4f}" for v in row) + "]"
                        for row in w.astype(np.float32))
    text = f"""
func.func @mm(%x: tensor<32x64xf16>) -> tensor<32x64xf16> {{
  %w = arith.constant dense<[{literal}]> : tensor<64x64xf16>
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<32x64xf16>
  %z = linalg.fill ins(%zero : f16) outs(%e : tensor<32x64xf16>) -> tensor<32x64xf16>
  %y = linalg.matmul ins(%x, %w : tensor<32x64xf16>, tensor<64x64xf16>)
                     outs(%z : tensor<32x64xf16>) -> tensor<32x64xf16>
  return %y : tensor<32x64xf16>
}}
"""
    (y,), stats = spyre.run(text, [rand((32, 64), seed=10)], cores=4, check=True)
    x_bytes, w_bytes, y_bytes = 32 * 64 * 2, 64 * 64 * 2, 32 * 64 * 2
    assert stats["program"]["compulsory_ddr_bytes"] == x_bytes + w_bytes + y_bytes


def test_program_roofline_counts_only_the_boxes_read():
    # A program that reads two boxes of an argument needs only those read:
    # rows [128, 192) through a view, and a box inside a stick column
    # copied by a kernel. Counting the whole argument would let the
    # utilisation exceed 100%.
    text = """
func.func @boxes(%x: tensor<256x128xf16>) -> (tensor<64x128xf16>, tensor<32x64xf16>) {
  %s = tensor.extract_slice %x[128, 0] [64, 128] [1, 1] : tensor<256x128xf16> to tensor<64x128xf16>
  %e = tensor.empty() : tensor<64x128xf16>
  %y = linalg.exp ins(%s : tensor<64x128xf16>) outs(%e : tensor<64x128xf16>) -> tensor<64x128xf16>
  %t = tensor.extract_slice %x[0, 64] [32, 64] [1, 1] : tensor<256x128xf16> to tensor<32x64xf16>
  return %y, %t : tensor<64x128xf16>, tensor<32x64xf16>
}
"""
    x = rand((256, 128), seed=11)
    (y, t), stats = spyre.run(text, [x], cores=4, check=True)
    assert stats["check_ok"]
    np.testing.assert_allclose(t.astype(np.float32), x[0:32, 64:128].astype(np.float32), rtol=1e-2)
    boxes = 64 * 128 * 2 + 32 * 64 * 2
    results = 64 * 128 * 2 + 32 * 64 * 2
    assert stats["program"]["compulsory_ddr_bytes"] == boxes + results
    assert stats["program"]["utilisation"] <= 1.0


def test_model_only_times_without_values():
    x = rand((64, 1000), seed=8)
    with open(os.path.join(EXAMPLES, "softmax.mlir")) as f:
        text = f.read()
    _, with_values = spyre.run(text, [x], cores=32)
    outputs, model = spyre.run(text, [], cores=32, model_only=True)
    assert outputs == []
    assert model["seconds"] == pytest.approx(with_values["seconds"])
    assert model["ddr_bytes"] == with_values["ddr_bytes"]
    with pytest.raises(ValueError, match="model_only"):
        spyre.run(text, [], model_only=True, check=True)


def test_double_buffered_steps_overlap_loads_compute_and_stores():
    # An up-projection of GPT-2 at sequence 2048: each core walks its N
    # tiles, loading the next weight tile while it computes and storing each
    # result tile. A pipelined core issues the next step's loads before the
    # last step's store, so its DMA engine never waits for a store to start
    # the next load: the kernel takes less than its DMA and compute time
    # added up, and no less than either.
    text = """
func.func @up(%x: tensor<2048x768xf16>, %w: tensor<3072x768xf16>) -> tensor<2048x3072xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<2048x3072xf16>
  %z = linalg.fill ins(%zero : f16) outs(%e : tensor<2048x3072xf16>) -> tensor<2048x3072xf16>
  %y = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%x, %w : tensor<2048x768xf16>, tensor<3072x768xf16>) outs(%z : tensor<2048x3072xf16>) -> tensor<2048x3072xf16>
  return %y : tensor<2048x3072xf16>
}
"""
    _, stats = spyre.run(text, [], cores=32, model_only=True, trace=True)
    (k,) = stats["kernels"]
    assert k["seconds"] >= max(k["dma_seconds"], k["compute_seconds"])
    assert k["seconds"] < 0.8 * (k["dma_seconds"] + k["compute_seconds"])
    core0 = sorted((e for e in stats["trace"]["traceEvents"]
                    if e.get("ph") == "X" and e.get("tid") == 0),
                   key=lambda e: e["ts"])
    steps = [e for e in core0 if e["cat"] == "pt"]
    loads = [e for e in core0 if e["name"] == "load"]
    stores = [e for e in core0 if e["name"] == "store"]
    # Each step stores its result tile; the input tiles the later steps
    # need again are still in their staging buffers (read from there, not
    # loaded again), so those steps load nothing.
    assert len(steps) == len(stores) > 2
    assert 2 < len(loads) < len(steps)
    for i in range(len(steps) - 1):
        # The store waits for its step; the load for step i + 1 (the first
        # steps load) runs before step i's store.
        assert stores[i]["ts"] >= steps[i]["ts"] + steps[i]["dur"] - 1e-6
        if i + 1 < len(loads):
            assert loads[i + 1]["ts"] < stores[i]["ts"]


def test_deep_nesting_is_refused():
    deep = "func.func @f() attributes {x = " + "[" * 5000 + "]" * 5000 + "} { return }"
    with pytest.raises(ValueError, match="nests brackets more than 1000 deep"):
        spyre.compile(deep)


DYNAMIC_ADD = """
func.func @add(%a: tensor<?x?xf16>, %b: tensor<?x?xf16>) -> tensor<?x?xf16> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %a, %c0 : tensor<?x?xf16>
  %n = tensor.dim %a, %c1 : tensor<?x?xf16>
  %e = tensor.empty(%m, %n) : tensor<?x?xf16>
  %r = linalg.add ins(%a, %b : tensor<?x?xf16>, tensor<?x?xf16>)
                  outs(%e : tensor<?x?xf16>) -> tensor<?x?xf16>
  return %r : tensor<?x?xf16>
}
"""


def test_dynamic_shapes_take_the_inputs_shapes():
    a, b = rand((48, 320), seed=3), rand((48, 320), seed=4)
    (out,), stats = spyre.run(DYNAMIC_ADD, [a, b], check=True)
    assert stats["check_ok"] and not stats["host_segments"]
    assert out.shape == (48, 320)
    np.testing.assert_array_equal(out, dl16_add(a, b))
    with pytest.raises(ValueError, match="cannot take the shape"):
        spyre.run(DYNAMIC_ADD, [a[0], b])
    # Without inputs (model only), every dynamic dim takes dynamic_size:
    # two 64x64 f16 inputs and the result move once.
    _, stats = spyre.run(DYNAMIC_ADD, [], model_only=True, dynamic_size=64)
    assert stats["program"]["compulsory_ddr_bytes"] == 3 * 64 * 64 * 2
    with pytest.raises(ValueError, match="dynamic_size=-1"):
        spyre.run(DYNAMIC_ADD, [], model_only=True, dynamic_size=-1)
