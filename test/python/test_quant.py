"""spyre.quantize / spyre.dequantize against NumPy references written here
from the format definitions (OCP MX v1.0, OFP8), not from the library."""

import numpy as np
import pytest

import spyre


def float_grid(ebits, mbits, bias, nan_codes=()):
    """Every code's value of a sign/exponent/mantissa format."""
    bits = 1 + ebits + mbits
    codes = np.arange(1 << bits)
    sign = np.where(codes >> (bits - 1), -1.0, 1.0)
    exponent = (codes >> mbits) & ((1 << ebits) - 1)
    mantissa = (codes & ((1 << mbits) - 1)) / 2.0**mbits
    value = np.where(exponent == 0, mantissa * 2.0 ** (1 - bias),
                     (1 + mantissa) * 2.0 ** (exponent - bias))
    value = sign * value
    value[list(nan_codes)] = np.nan
    return value


def round_to_grid(x, grid):
    """Nearest finite grid value, ties to the even code (even mantissa);
    beyond the range: the largest magnitude."""
    finite = np.where(np.isnan(grid), np.inf, grid)
    top = np.nanmax(grid)
    x = np.clip(x, -top, top)
    distance = np.abs(x[..., None] - finite[None, :])
    best = distance.min(axis=-1, keepdims=True)
    candidates = distance == best
    # Prefer even codes among the nearest, then positive zero.
    codes = np.arange(grid.size)
    score = np.where(candidates, (codes % 2) * 2 + (codes >= grid.size // 2),
                     99)
    return finite[score.argmin(axis=-1)]


FP4 = float_grid(2, 1, 1)
E4M3FN = float_grid(4, 3, 7, nan_codes=(0x7F, 0xFF))


def mxfp4_reference(x):
    blocks = x.reshape(x.shape[0], -1, 32).astype(np.float64)
    amax = np.abs(blocks).max(axis=-1, keepdims=True)
    shared = np.where(amax > 0, np.floor(np.log2(np.where(amax > 0, amax, 1)))
                      - 2, -127)
    scale = 2.0 ** np.clip(shared, -127, 127)
    q = round_to_grid(blocks / scale, FP4) * scale
    return q.reshape(x.shape), (np.clip(shared, -127, 127) + 127).astype(
        np.uint8).reshape(x.shape[0], -1)


def test_mxfp4_matches_the_ocp_algorithm():
    rng = np.random.default_rng(1)
    x = (rng.standard_normal((8, 256)) *
         2.0 ** rng.integers(-8, 8, (8, 1))).astype(np.float32)
    x[3, 32:64] = 0
    expected, scales = mxfp4_reference(x)
    for mode in ("virtual", "actual", "compressed"):
        q = spyre.quantize(x, "e2m1fn", mode=mode)
        np.testing.assert_array_equal(q.scale, scales)
        np.testing.assert_array_equal(q.dequantize(), expected)
    q = spyre.quantize(x, "e2m1fn")
    assert q.data.shape == (8, 128) and q.data.dtype == np.uint8
    assert q.scale.shape == (8, 8)
    assert q.bits_per_value == 4.25
    # Packed low nibble first.
    low = q.data & 0xF
    np.testing.assert_array_equal(
        FP4[low] * 2.0 ** (q.scale.astype(np.int64).repeat(16, axis=1) - 127),
        expected[:, 0::2])


def test_e4m3fn_tiles_with_float32_scales():
    rng = np.random.default_rng(2)
    x = rng.standard_normal((3, 100)).astype(np.float32)
    q = spyre.quantize(x, "e4m3fn", scale="tile", tile=16, mode="actual")
    assert q.scale.shape == (3, 7) and q.scale.dtype == np.float32
    padded = np.zeros((3, 112), np.float64)
    padded[:, :100] = x
    blocks = padded.reshape(3, 7, 16)
    scale = (np.abs(blocks).max(axis=-1) / 448).astype(np.float32)
    np.testing.assert_array_equal(q.scale, scale)
    expected = round_to_grid(blocks / scale[..., None].astype(np.float64),
                             E4M3FN) * scale[..., None]
    np.testing.assert_array_equal(
        q.dequantize(), expected.reshape(3, 112)[:, :100].astype(np.float32))
    # actual mode holds the e4m3fn bits.
    np.testing.assert_array_equal(
        E4M3FN[q.data].reshape(3, 100),
        expected.reshape(3, 112)[:, :100] /
        np.repeat(scale, 16, axis=1)[:, :100])


def test_int8_channel_with_zero_points():
    rng = np.random.default_rng(3)
    w = (rng.standard_normal((64, 512)) + 0.7).astype(np.float32)
    q = spyre.quantize(w, "int8", scale="channel", zero_point=True,
                       mode="actual")
    assert q.scale.shape == (64, 1) and q.zero.shape == (64, 1)
    lo = np.minimum(w.min(axis=1, keepdims=True), 0).astype(np.float64)
    hi = np.maximum(w.max(axis=1, keepdims=True), 0).astype(np.float64)
    scale = ((hi - lo) / 255).astype(np.float32)
    zero = np.clip(np.rint(-128 - lo / scale), -128, 127)
    np.testing.assert_array_equal(q.scale, scale)
    np.testing.assert_array_equal(q.zero, zero.astype(np.int8))
    codes = np.clip(np.rint(w / scale.astype(np.float64)) + zero, -128, 127)
    np.testing.assert_array_equal(q.data, codes.astype(np.int8))
    np.testing.assert_allclose(q.dequantize(), (codes - zero) * scale,
                               rtol=1e-6)
    # 8 bits plus a float32 scale and an int8 zero per row.
    assert q.bits_per_value == pytest.approx(8 + 5 * 8 / 512)


def test_uint4_zero_points_pack_two_per_byte():
    x = np.linspace(0, 3, 4 * 64, dtype=np.float32).reshape(4, 64)
    q = spyre.quantize(x, "uint4", scale="tile", tile=32, zero_point=True)
    assert q.data.shape == (4, 32) and q.zero.shape == (4, 1)
    shapes = q.shapes
    assert shapes["zero"]["shape"] == (4, 2)
    assert shapes["zero"]["compressed_shape"] == (4, 1)
    err = np.abs(q.dequantize() - x)
    step = (x.reshape(4, 2, 32).max(-1) - np.minimum(
        x.reshape(4, 2, 32).min(-1), 0)) / 15
    assert (err.reshape(4, 2, 32) <= step[..., None] * 0.5 + 1e-6).all()


def test_sparsity_keeps_the_largest_two_of_four():
    rng = np.random.default_rng(4)
    x = rng.standard_normal((4, 64)).astype(np.float32)
    q = spyre.quantize(x, "e4m3fn", scale="tile", tile=32, sparsity=50)
    assert q.data.shape == (4, 32) and q.mask.shape == (4, 8)
    groups = np.abs(x).reshape(4, 16, 4)
    kept = np.zeros_like(groups, dtype=bool)
    order = np.argsort(-groups, axis=-1, kind="stable")[..., :2]
    np.put_along_axis(kept, order, True, axis=-1)
    mask = np.unpackbits(q.mask, axis=1, bitorder="little").astype(bool)
    np.testing.assert_array_equal(mask, kept.reshape(4, 64))
    back = q.dequantize()
    assert (back[~mask] == 0).all()
    virtual = spyre.quantize(x, "e4m3fn", scale="tile", tile=32, sparsity=50,
                             mode="virtual")
    np.testing.assert_array_equal(virtual.mask, kept.reshape(4, 64))
    np.testing.assert_array_equal(virtual.data, back)


def test_shapes_and_sticks():
    s = spyre.quant_shapes([4096, 11008], "e2m1fn")
    assert s["scale"]["shape"] == (4096, 344)
    assert s["data"]["compressed_shape"] == (4096, 5504)
    assert s["sticks"] == {"values_per_stick": 256, "scales_per_stick": 8}
    s = spyre.quant_shapes([64, 100], "e4m3fn", scale="matrix", tile=32,
                           tile2=16, axis2=0)
    assert s["scale"]["shape"] == (4, 4)
    s = spyre.quant_shapes([4, 96], "int8", scale="tile", tile=48)
    assert "straddle" in s["sticks"]
    q = spyre.quantize(np.ones((2, 256), np.float32), "e2m1fn")
    layouts = q.layouts()
    assert layouts["data"].device_size[-1] == 128
    assert layouts["zero"] is None


@pytest.mark.parametrize("kwargs,message", [
    (dict(dtype="fp5"), "unknown quantized dtype 'fp5'"),
    (dict(dtype="e8m0"), "unknown quantized dtype 'e8m0'"),
    (dict(dtype="int4"), "not an MX element format"),
    (dict(dtype="e2m1fn", tile=64), "MX scaling uses blocks of 32"),
    (dict(dtype="e2m1fn", axis=5), "axis 5 is out of range"),
    (dict(dtype="e2m1fn", mode="packed"), "unknown mode 'packed'"),
    (dict(dtype="int8", scale=None), "needs a scale"),
    (dict(dtype="e4m3fn", scale="tile", sparsity=30), "25 or 50 percent"),
])
def test_bad_arguments_raise_value_error(kwargs, message):
    with pytest.raises(ValueError, match=message):
        spyre.quantize(np.ones((4, 64), np.float32), **kwargs)


def test_dequantize_checks_what_it_is_given():
    q = spyre.quantize(np.ones((4, 64), np.float32), "e2m1fn")
    q.scale = q.scale[:, :1]
    with pytest.raises(ValueError, match="scale has shape"):
        q.dequantize()
    q = spyre.quantize(np.ones((4, 64), np.float32), "e2m1fn")
    q.data = q.data.astype(np.int16)
    with pytest.raises(ValueError, match="data must hold uint8"):
        q.dequantize()


# --------------------------------------------------------------------------
# Quantized weights on the device: a scaled matmul, checked against NumPy

MATMUL = """func.func @f(%x: tensor<{M}x{K}xf16>, {args}) -> tensor<{M}x{N}xf16> {{
  %w = spyre.dequantize {names} {{quant = {quant}}} : {types} -> tensor<{N}x{K}xf16>
  %e = tensor.empty() : tensor<{M}x{N}xf16>
  %z = arith.constant 0.0 : f16
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<{M}x{N}xf16>) -> tensor<{M}x{N}xf16>
  %y = linalg.matmul_transpose_b ins(%x, %w : tensor<{M}x{K}xf16>, tensor<{N}x{K}xf16>) outs(%f : tensor<{M}x{N}xf16>) -> tensor<{M}x{N}xf16>
  return %y : tensor<{M}x{N}xf16>
}}
"""


def scaled_matmul_program(parts, quant, M, K, N):
    types = [f"tensor<{'x'.join(map(str, p.shape))}x{t}>" for p, t in parts]
    return MATMUL.format(
        M=M, K=K, N=N, quant=quant,
        args=", ".join(f"%p{i}: {t}" for i, t in enumerate(types)),
        names=", ".join(f"%p{i}" for i in range(len(parts))),
        types=", ".join(types))


def mxfp4_weight(data, scale):
    """The values of MXFP4 codes packed low nibble first, with E8M0 scales."""
    grid = float_grid(2, 1, 1)
    codes = np.stack([data & 0xF, data >> 4], axis=-1).reshape(
        data.shape[0], -1)
    blocks = 2.0 ** (scale.astype(np.float64) - 127)
    return grid[codes] * np.repeat(blocks, 32, axis=1)


def test_mxfp4_weights_run_as_a_scaled_matmul():
    rng = np.random.default_rng(3)
    M, K, N = 8, 512, 256
    x = (rng.standard_normal((M, K)) / np.sqrt(K)).astype(np.float16)
    q = spyre.quantize(rng.standard_normal((N, K)).astype(np.float32),
                       "e2m1fn", scale="mx")
    text = scaled_matmul_program([(q.data, "i8"), (q.scale, "f8E8M0FNU")],
                                 "#spyre.quant<format = e2m1fn, scaling = mx>",
                                 M, K, N)
    assert "spyre.scaled_matmul" in spyre.compile(text).ir
    (y,), stats = spyre.run(text, [x, q.data, q.scale], check=True)
    assert stats["check_ok"]
    want = x.astype(np.float64) @ mxfp4_weight(q.data, q.scale).T
    np.testing.assert_allclose(y.astype(np.float64), want,
                               atol=2e-2 * np.abs(want).max(), rtol=1e-2)
    # The weight moves as 4.25 bits a value: x, the codes, the scales, y.
    assert stats["program"]["compulsory_ddr_bytes"] == (
        M * K * 2 + N * K // 2 + N * K // 32 + M * N * 2)


def test_int8_channel_weights_with_zero_points_run_as_a_scaled_matmul():
    rng = np.random.default_rng(4)
    M, K, N = 4, 256, 128
    x = (rng.standard_normal((M, K)) / np.sqrt(K)).astype(np.float16)
    q = spyre.quantize(rng.standard_normal((N, K)).astype(np.float32) + 0.3,
                       "int8", scale="channel", zero_point=True)
    assert q.data.dtype == np.int8 and q.zero.dtype == np.int8
    text = scaled_matmul_program(
        [(q.data, "i8"), (q.scale, "f32"), (q.zero, "i8")],
        "#spyre.quant<format = int8, scaling = channel, zero_point = true>",
        M, K, N)
    (y,), stats = spyre.run(text, [x, q.data, q.scale, q.zero], check=True,
                            cores=1)
    assert stats["check_ok"]
    weight = (q.data.astype(np.float64) - q.zero) * q.scale
    want = x.astype(np.float64) @ weight.T
    np.testing.assert_allclose(y.astype(np.float64), want,
                               atol=2e-2 * np.abs(want).max(), rtol=1e-2)


def test_uint4_float_zero_points_run_as_a_scaled_matmul():
    # GPTQ-style: float16 zero points, one per tile of 128 like the scales,
    # not packed and not integers; the codes pack two a byte.
    rng = np.random.default_rng(6)
    M, K, N = 4, 512, 64
    x = (rng.standard_normal((M, K)) / np.sqrt(K)).astype(np.float16)
    w = rng.standard_normal((N, K)).astype(np.float32) + 0.5
    q = spyre.quantize(w, "uint4", scale="tile", tile=128,
                       scale_dtype="float16", zero_point="float16")
    assert q.data.shape == (N, K // 2) and q.data.dtype == np.uint8
    assert q.zero.shape == (N, 4) and q.zero.dtype == np.float16
    assert q.shapes["zero"]["compressed_shape"] == (N, 4)
    zero = q.zero.astype(np.float64)
    assert (zero != np.round(zero)).any()
    codes = np.stack([q.data & 15, q.data >> 4], -1).reshape(N, K)
    weight = (codes - np.repeat(zero, 128, 1)) * np.repeat(
        q.scale.astype(np.float64), 128, 1)
    np.testing.assert_allclose(q.dequantize(), weight, rtol=1e-6, atol=1e-6)
    step = np.repeat(q.scale.astype(np.float64), 128, 1)
    assert (np.abs(weight - w) <= step * 0.51).all()
    text = scaled_matmul_program(
        [(q.data, "i8"), (q.scale, "f16"), (q.zero, "f16")],
        "#spyre.quant<format = uint4, scaling = tile, tile = 128, "
        "scale_type = float16, zero_point = true, zero_type = float16>",
        M, K, N)
    (y,), stats = spyre.run(text, [x, q.data, q.scale, q.zero], check=True,
                            cores=1)
    assert stats["check_ok"]
    want = x.astype(np.float64) @ weight.T
    np.testing.assert_allclose(y.astype(np.float64), want,
                               atol=2e-2 * np.abs(want).max(), rtol=1e-2)
    with pytest.raises(ValueError, match="zero_point is True, False or a "
                                         "float dtype"):
        spyre.quantize(w, "uint4", scale="tile", zero_point="int8")


def test_virtual_dequantize_reads_the_data_itself():
    # Virtual data is the dequantized values (quantize-dequantize): the
    # host's dequantize returns it, scales unapplied.
    q = spyre.quantize(np.linspace(-1, 1, 4 * 64, dtype=np.float32)
                       .reshape(4, 64), "int8", scale="tile", mode="virtual")
    text = ("func.func @f(%d: tensor<4x64xf32>, %s: tensor<4x2xf32>) -> "
            "tensor<4x64xf32> {\n"
            "  %w = spyre.dequantize %d, %s {quant = #spyre.quant<format = "
            "int8, scaling = tile, mode = virtual>} : tensor<4x64xf32>, "
            "tensor<4x2xf32> -> tensor<4x64xf32>\n"
            "  return %w : tensor<4x64xf32>\n}\n")
    (w,), _ = spyre.run(text, [q.data, q.scale])
    np.testing.assert_array_equal(w, q.data)
    np.testing.assert_array_equal(w, spyre.dequantize(q))


def test_scaling_extf_matmul_on_the_host_against_numpy():
    # MX operands as MLIR writes them (arith.scaling_extf of fp4 codes and
    # E8M0 scales in a contraction) run through the host fallback; NumPy
    # decodes the codes from the e2m1 definition.
    rng = np.random.default_rng(5)
    M, N, KO, KB = 4, 8, 2, 32
    a = rng.integers(0, 16, (M, KO, KB), dtype=np.uint8)
    b = rng.integers(0, 16, (N, KO, KB), dtype=np.uint8)
    sa = rng.integers(120, 130, (M, KO), dtype=np.uint8)
    sb = rng.integers(120, 130, (N, KO), dtype=np.uint8)
    text = f"""func.func @f(%a: tensor<{M}x{KO}x{KB}xf4E2M1FN>, %b: tensor<{N}x{KO}x{KB}xf4E2M1FN>, %sa: tensor<{M}x{KO}xf8E8M0FNU>, %sb: tensor<{N}x{KO}xf8E8M0FNU>) -> tensor<{M}x{N}xf32> {{
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<{M}x{N}xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<{M}x{N}xf32>) -> tensor<{M}x{N}xf32>
  %r = linalg.generic {{indexing_maps = [affine_map<(m, n, ko, kb) -> (m, ko, kb)>, affine_map<(m, n, ko, kb) -> (n, ko, kb)>, affine_map<(m, n, ko, kb) -> (m, ko)>, affine_map<(m, n, ko, kb) -> (n, ko)>, affine_map<(m, n, ko, kb) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}} ins(%a, %b, %sa, %sb : tensor<{M}x{KO}x{KB}xf4E2M1FN>, tensor<{N}x{KO}x{KB}xf4E2M1FN>, tensor<{M}x{KO}xf8E8M0FNU>, tensor<{N}x{KO}xf8E8M0FNU>) outs(%c : tensor<{M}x{N}xf32>) {{
  ^bb0(%x: f4E2M1FN, %y: f4E2M1FN, %s: f8E8M0FNU, %t: f8E8M0FNU, %acc: f32):
    %0 = arith.scaling_extf %x, %s : f4E2M1FN, f8E8M0FNU to f32
    %1 = arith.scaling_extf %y, %t : f4E2M1FN, f8E8M0FNU to f32
    %2 = arith.mulf %0, %1 : f32
    %3 = arith.addf %acc, %2 : f32
    linalg.yield %3 : f32
  }} -> tensor<{M}x{N}xf32>
  return %r : tensor<{M}x{N}xf32>
}}
"""
    (r,), _ = spyre.run(text, [a, b, sa, sb])
    grid = float_grid(2, 1, 1)
    av = grid[a] * 2.0 ** (sa.astype(np.float64) - 127)[..., None]
    bv = grid[b] * 2.0 ** (sb.astype(np.float64) - 127)[..., None]
    want = np.einsum("mok,nok->mn", av, bv)
    np.testing.assert_allclose(r, want, rtol=1e-5, atol=1e-6)


def test_scaling_truncf_on_the_host_against_numpy():
    # OCP MX quantization as MLIR writes it (IREE's fp4 conversion tests):
    # arith.scaling_truncf to fp4 with an E8M0 scale per row, read back as
    # the 4-bit codes; NumPy rounds x / scale on the e2m1 grid (nearest,
    # ties to even, saturating at 6).
    rng = np.random.default_rng(9)
    x = (rng.standard_normal((8, 32)) * 4).astype(np.float32)
    s = rng.integers(125, 130, (8,), dtype=np.uint8)
    text = """func.func @f(%x: tensor<8x32xf32>, %s: tensor<8xf8E8M0FNU>) -> tensor<8x32xi8> {
  %e = tensor.empty() : tensor<8x32xi8>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%x, %s : tensor<8x32xf32>, tensor<8xf8E8M0FNU>) outs(%e : tensor<8x32xi8>) {
  ^bb0(%v: f32, %t: f8E8M0FNU, %o: i8):
    %0 = arith.scaling_truncf %v, %t : f32, f8E8M0FNU to f4E2M1FN
    %1 = arith.bitcast %0 : f4E2M1FN to i4
    %2 = arith.extui %1 : i4 to i8
    linalg.yield %2 : i8
  } -> tensor<8x32xi8>
  return %r : tensor<8x32xi8>
}
"""
    (r,), _ = spyre.run(text, [x, s])
    grid = float_grid(2, 1, 1)
    want = round_to_grid(x / 2.0 ** (s.astype(np.float64) - 127)[:, None],
                         grid)
    np.testing.assert_array_equal(grid[r.astype(np.int64)], want)


@pytest.mark.parametrize("dtype,grid,overflow", [
    # e4m3fn: S.1111.111 is NaN, no infinity: overflow is NaN.
    ("f8E4M3FN", float_grid(4, 3, 7, nan_codes=(0x7f, 0xff)), 0x7f),
    # e5m2: IEEE, overflow is infinity (0x7c, excluded from the inputs).
    ("f8E5M2", float_grid(5, 2, 15, nan_codes=[*range(0x7c, 0x80),
                                               *range(0xfc, 0x100)]), 0x7c),
    # fp4: finite only, overflow saturates at 6.
    ("f4E2M1FN", float_grid(2, 1, 1), 0x7),
])
def test_narrow_float_arithmetic_rounds_on_the_host(dtype, grid, overflow):
    # Adds on fp8/fp4 tensors (IREE's small-float tests) run on the host:
    # each sum rounds to the nearest value, ties to even, with the sign of
    # negative results (also of those that round to zero or a subnormal).
    bits = 4 if dtype.startswith("f4") else 8
    finite = np.flatnonzero(np.isfinite(grid[:1 << bits]))
    rng = np.random.default_rng(2)
    a = rng.choice(finite, 256).astype(np.uint8)
    b = rng.choice(finite, 256).astype(np.uint8)
    # Overflows: the largest value plus itself, of either sign.
    largest = finite[np.argmax(grid[finite])]
    a[:4] = b[:4] = largest
    a[4:8] = b[4:8] = largest | 1 << (bits - 1)
    widen = ("%w = arith.extui %c : i4 to i8" if bits == 4 else
             "%w = arith.addi %c, %c0 : i8")
    text = f"""func.func @f(%a: tensor<256x{dtype}>, %b: tensor<256x{dtype}>) -> tensor<256xi8> {{
  %e = tensor.empty() : tensor<256x{dtype}>
  %s = linalg.add ins(%a, %b : tensor<256x{dtype}>, tensor<256x{dtype}>) outs(%e : tensor<256x{dtype}>) -> tensor<256x{dtype}>
  %o = tensor.empty() : tensor<256xi8>
  %r = linalg.generic {{indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}} ins(%s : tensor<256x{dtype}>) outs(%o : tensor<256xi8>) {{
  ^bb0(%v: {dtype}, %u: i8):
    %c0 = arith.constant 0 : i8
    %c = arith.bitcast %v : {dtype} to i{bits}
    {widen}
    linalg.yield %w : i8
  }} -> tensor<256xi8>
  return %r : tensor<256xi8>
}}
"""
    (r,), _ = spyre.run(text, [a, b])
    codes = r.view(np.uint8).astype(np.int64)
    exact = grid[a] + grid[b]
    top = np.nanmax(grid)
    inside = np.abs(exact) <= top
    np.testing.assert_array_equal(grid[codes[inside]],
                                  round_to_grid(exact[inside], grid))
    # Signs survive rounding to zero or a subnormal.
    negative = inside & (exact < 0)
    assert (codes[negative] >> (bits - 1)).all()
    # Beyond the range, by more than half a step: inf, NaN or saturation.
    beyond = np.abs(exact) > top * 1.2
    assert beyond.any()
    sign = np.where(exact[beyond] < 0, 1 << (bits - 1), 0)
    np.testing.assert_array_equal(codes[beyond], overflow | sign)


# Codebooks, against the rules of TensorCast's docs/codebook.md written out
# here: the compute type's number line (negatives first, a positive value
# with code c at 2^(bits-1) + c), patterns shifted from its top.

E2M3 = float_grid(2, 3, 1)  # e2m3fnuz's positive values as OCP's e2m3


def e2m3_index(value):
    return 32 + int(np.flatnonzero(E2M3[:32] == value)[0])


def implicit_mapping(indices):
    """0, the pattern's values ascending, then their negatives."""
    values = sorted(E2M3[i - 32] for i in indices)
    return np.array([0.0] + values + [0.0] + [-v for v in values])


def test_codebook_mappings_follow_the_tensorcast_examples():
    # "cb41fi": the fp4 pattern (e2m1's values in e2m3 at indices 36, 40,
    # ..., 60, the doc's table) and the int4 pattern (1..7), as they are.
    book = spyre.codebook("cb41fi_e2m3fnuz")
    assert book["compute"] == "e2m3fnuz"
    assert (book["index_bits"], book["meta_bits"]) == (4, 1)
    fp4 = [0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0]
    assert [e2m3_index(v) for v in fp4] == [36, 40, 44, 48, 52, 56, 60]
    np.testing.assert_array_equal(book["mappings"][0],
                                  implicit_mapping([36, 40, 44, 48, 52, 56,
                                                    60]))
    np.testing.assert_array_equal(book["mappings"][1][1:8], np.arange(1, 8))
    # "cb42f1346": fp4 shifted to the top (39 .. 63), then down 1, 3, 4, 6;
    # position 3 is fp4 itself.
    book = spyre.codebook("cb42f1346_e2m3fnuz")
    for row, offset in zip(book["mappings"], [1, 3, 4, 6]):
        top = [i + 3 - offset for i in [36, 40, 44, 48, 52, 56, 60]]
        np.testing.assert_array_equal(row, implicit_mapping(top))
    np.testing.assert_array_equal(book["mappings"][1][1:8], fp4)


def test_codebook_progressive_and_static_patterns():
    # The doc's p-clause code: maxidx - o - incr, incr += interval * (i + 1).
    def progressive(interval, offset):
        out, incr = [], 0
        for i in range(7):
            out.append(63 - offset - incr)
            incr += interval * (i + 1)
        return out

    book = spyre.codebook("cb41p10p13_e2m3fnuz")
    np.testing.assert_array_equal(book["mappings"][0],
                                  implicit_mapping(progressive(1, 0)))
    np.testing.assert_array_equal(book["mappings"][1],
                                  implicit_mapping(progressive(1, 3)))
    # Interval 2 walks 42 indices down from the top: below e2m3's zero.
    with pytest.raises(ValueError, match="index 20, of 33..63"):
        spyre.codebook("cb40p21_e2m3fnuz")
    book = spyre.codebook("cb40s3_e2m3fnuz")
    np.testing.assert_array_equal(
        book["mappings"][0], implicit_mapping([63 - 3 * i for i in range(7)]))
    # The e modifier lowers the exponent: 8 indices (3 mantissa bits) down.
    book = spyre.codebook("cb41f3e_e2m3fnuz")
    np.testing.assert_array_equal(book["mappings"][1][1:8],
                                  book["mappings"][0][1:8] / 2)


def codebook_reference(x, book, subtile):
    """MX scales over the compute type (e2m3: emax 2), then per subtile the
    mapping with the least squared error, each value its nearest entry."""
    rows, cols = x.shape
    tables = book["mappings"]
    out = np.zeros_like(x, dtype=np.float64)
    meta = np.zeros((rows, cols // subtile), dtype=np.int64)
    for r in range(rows):
        for t in range(0, cols, 32):
            block = x[r, t:t + 32].astype(np.float64)
            amax = np.abs(block).max()
            scale = 2.0 ** (np.floor(np.log2(amax)) - 2) if amax else 2.0**-127
            for s in range(0, block.size, subtile):
                v = block[s:s + subtile] / scale
                choice = np.abs(v[:, None, None] - tables[None]).argmin(-1)
                picked = np.take_along_axis(
                    np.broadcast_to(tables, (v.size,) + tables.shape),
                    choice[..., None], -1)[..., 0]
                error = ((picked - v[:, None]) ** 2).sum(0)
                m = int(error.argmin())
                meta[r, (t + s) // subtile] = m
                out[r, t + s:t + s + subtile] = picked[:, m] * scale
    return out, meta


@pytest.mark.parametrize("code,subtile", [("cb42f1346_e2m3fnuz", 8),
                                          ("cb43f0123456p_e2m3fnuz", 4),
                                          ("cb41fi_e2m3fnuz", 32)])
def test_codebook_quantization_against_numpy(code, subtile):
    x = np.random.default_rng(7).standard_normal((3, 64)).astype(np.float32)
    book = spyre.codebook(code)
    expected, meta = codebook_reference(x, book, subtile)
    for mode in ("virtual", "actual", "compressed"):
        q = spyre.quantize(x, code, scale="mx", subtile=subtile, mode=mode)
        np.testing.assert_array_equal(q.dequantize(), expected.astype(
            np.float32))
    # Meta: one per subtile; compressed, each tile's bits packed low first.
    actual = spyre.quantize(x, code, scale="mx", subtile=subtile,
                            mode="actual")
    np.testing.assert_array_equal(actual.meta, meta)
    bits, per_tile = book["meta_bits"], 32 // subtile
    nbytes = (bits * per_tile + 7) // 8
    assert q.meta.shape == (3, 2 * nbytes)
    packed = np.zeros((3, 2 * nbytes), dtype=np.uint8)
    for r in range(3):
        for t in range(2):
            word = sum(int(m) << (bits * k) for k, m in
                       enumerate(meta[r, t * per_tile:(t + 1) * per_tile]))
            packed[r, t * nbytes:(t + 1) * nbytes] = list(
                word.to_bytes(nbytes, "little"))
    np.testing.assert_array_equal(q.meta, packed)
    # Indices: 4 bits, two per byte, low nibble first.
    codes = np.concatenate([q.data & 15, q.data >> 4], axis=1)
    codes = codes.reshape(3, 2, 32).transpose(0, 2, 1).reshape(3, 64)
    np.testing.assert_array_equal(codes, actual.data)
    assert q.bits_per_value == 4 + 8 / 32 + 8 * nbytes / 32


def test_codebook_generic_mappings_and_partial_tiles():
    table = np.array([[0, 1, 2, 3, 4, 5, 6, 7, 0, -1, -2, -3, -4, -5, -6, -7],
                      [0, .5, 1, 1.5, 2, 2.5, 3, 3.5, 0, -.5, -1, -1.5, -2,
                       -2.5, -3, -3.5]])
    x = np.random.default_rng(3).standard_normal((2, 40)).astype(np.float32)
    q = spyre.quantize(x, "cb41_e2m3fnuz_mine", scale="tile", tile=32,
                       subtile=8, codebook=table, sparsity=50)
    # 40 values: 2 tiles, 4 subtiles each (the last tile partial).
    assert q.shapes["meta"]["shape"] == (2, 8)
    assert q.shapes["meta"]["compressed_shape"] == (2, 2)
    y = q.dequantize()
    kept = y != 0
    assert kept.reshape(2, 10, 4).sum(-1).max() <= 2
    # Every kept value is an entry of its subtile's mapping times its scale.
    scale = q.scale.reshape(2, 2)
    actual = spyre.quantize(x, "cb41_e2m3fnuz_mine", scale="tile", tile=32,
                            subtile=8, codebook=table, sparsity=50,
                            mode="actual")
    for r in range(2):
        for c in range(40):
            if kept[r, c]:
                m = actual.meta[r, c // 8]
                entry = table[m, actual.data[r, c]]
                assert y[r, c] == np.float32(entry * scale[r, c // 32])


@pytest.mark.parametrize("kwargs,message", [
    (dict(dtype="cb41_e2m3fnuz"), "is generic: give its 2 mappings"),
    (dict(dtype="cb42f13_e2m3fnuz"), "select 4 mappings, the desc makes 2"),
    (dict(dtype="cb41fx_e2m3fnuz"), "clause 'fx' holds 'x'"),
    (dict(dtype="cb41xf_e2m3fnuz"), "'x' starts no clause"),
    (dict(dtype="cb41f9i_e2m3fnuz"), "leaves e2m3fnuz's positive values"),
    (dict(dtype="cb41fi_int8"), "is not a float format"),
    (dict(dtype="cb91fi_e2m3fnuz"), "9 index bits"),
    (dict(dtype="cb41fi_e2m3fnuz", subtile=5), "subtile of 5 does not divide"),
    (dict(dtype="cb40f_e2m3fnuz", subtile=8), "has no meta to select"),
    (dict(dtype="cb41fi_e2m3fnuz", scale="matrix"), "not matrix"),
    (dict(dtype="e4m3fn", subtile=8), "subtiles are for codebook formats"),
    (dict(dtype="cb41fi_e2m3fnuz", codebook=[0.0] * 32), "is implicit"),
    (dict(dtype="cb40_e2m3fnuz", codebook=[0.25] * 15 + [9.0]),
     "value 9 (mapping 0, index 15) is not a e2m3fnuz value"),
    (dict(dtype="cb40_e2m3fnuz", codebook=[0.0] * 3), "3 given"),
])
def test_codebook_errors(kwargs, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(")
                       .replace(")", r"\)")):
        spyre.quantize(np.ones((2, 64), np.float32), **kwargs)


def test_codebook_dequantize_checks_meta():
    x = np.random.default_rng(1).standard_normal((2, 64)).astype(np.float32)
    q = spyre.quantize(x, "cb41fi_e2m3fnuz", scale="mx", mode="actual")
    q.meta = q.meta.copy()
    q.meta[0, 0] = 2
    with pytest.raises(ValueError, match="meta value 2 .* selects no mapping"):
        q.dequantize()
    q.meta = None
    with pytest.raises(ValueError, match="the meta tensor is missing"):
        q.dequantize()


@pytest.mark.parametrize("code,subtile,mode,on_device", [
    ("cb42f1346_e2m3fnuz", 8, "compressed", True),
    ("cb42f1346_e2m3fnuz", 4, "compressed", True),
    ("cb43f0123456p_e2m3fnuz", 4, "compressed", False),
    ("cb41fi_e2m3fnuz", 0, "actual", True),
])
def test_codebook_weights_in_mlir(code, subtile, mode, on_device):
    # A linear layer whose weight is a codebook tensor: the device's scaled
    # matmul reads the indices, the meta and the E8M0 scales as stored,
    # unless 3-bit mappings straddle the meta's bytes (then spyre.dequantize
    # runs on the host and the device multiplies); --check compares with the
    # reference's lowering (written apart from the library and the
    # simulator) and NumPy builds the weight from the codebook rules above.
    rng = np.random.default_rng(6)
    M, K, N = 8, 128, 64
    x = (rng.standard_normal((M, K)) / np.sqrt(K)).astype(np.float16)
    w = rng.standard_normal((N, K)).astype(np.float32)
    q = spyre.quantize(w, code, scale="mx", subtile=subtile or None,
                       mode=mode)
    compute = code.split("_")[1]
    sub = f", subtile = {subtile}" if subtile else ""
    quant = (f'#spyre.quant<format = {compute}, scaling = mx, mode = {mode}, '
             f'codebook = "{code}"{sub}>')
    text = scaled_matmul_program(
        [(q.data, "i8"), (q.scale, "f8E8M0FNU"), (q.meta, "i8")], quant,
        M, K, N)
    assert ("spyre.scaled_matmul" in spyre.compile(text).ir) == on_device
    (y,), stats = spyre.run(text, [x, q.data, q.scale, q.meta], check=True)
    assert stats["check_ok"]
    weight, _ = codebook_reference(w, spyre.codebook(code), subtile or 32)
    want = x.astype(np.float64) @ weight.astype(np.float16).T.astype(
        np.float64)
    np.testing.assert_allclose(y.astype(np.float64), want,
                               atol=1e-2 * np.abs(want).max(), rtol=1e-2)


def test_quantize_in_mlir_runs_on_the_host():
    # spyre.quantize in a program runs on the host (the library, called by
    # the reference's generated code); its parts dequantize, in MLIR, to the
    # OCP MX algorithm's values written out above.
    x = (np.random.default_rng(12).standard_normal((8, 256)) *
         2.0 ** np.arange(-4, 4)[:, None]).astype(np.float32)
    text = """func.func @f(%w: tensor<8x256xf32>) -> (tensor<8x128xi8>, tensor<8x256xf32>) {
  %d, %s = spyre.quantize %w {quant = #spyre.quant<format = e2m1fn, scaling = mx>}
      : tensor<8x256xf32> -> tensor<8x128xi8>, tensor<8x8xf8E8M0FNU>
  %v = spyre.dequantize %d, %s {quant = #spyre.quant<format = e2m1fn, scaling = mx>}
      : tensor<8x128xi8>, tensor<8x8xf8E8M0FNU> -> tensor<8x256xf32>
  return %d, %v : tensor<8x128xi8>, tensor<8x256xf32>
}
"""
    (d, v), stats = spyre.run(text, [x], check=True)
    assert stats["check_ok"]
    expected, _ = mxfp4_reference(x)
    np.testing.assert_array_equal(v, expected)
    q = spyre.quantize(x, "e2m1fn")
    np.testing.assert_array_equal(d.view(np.uint8), q.data)


def torch_quantize_per_tensor(x, scale, zero):
    """PyTorch's quantize_per_tensor to qint8: the quotient in float32,
    rounded half to even, offset and clamped."""
    quotient = x.astype(np.float32) / np.float32(scale)
    return np.clip(np.rint(quotient) + zero, -128, 127).astype(np.int8)


def test_given_scales_are_pytorchs_quantize_per_tensor():
    rng = np.random.default_rng(21)
    x = (rng.standard_normal((16, 64)) * 0.8).astype(np.float32)
    scale = np.float32(0.0125)
    # A tie, a quotient that is 3.4999999 in float64 but 3.5 in float32,
    # and both ends of the range.
    x[0, :4] = [0.03125, 0.04375, 1000 * scale, -1000 * scale]
    q = spyre.quantize(x, "int8", scale="tensor", zero_point=True,
                       scales={"scale": np.float32([[scale]]),
                               "zero": np.int8([[3]])})
    expected = torch_quantize_per_tensor(x, scale, 3)
    np.testing.assert_array_equal(q.data, expected)
    assert list(q.data[0, :4]) == [5, 7, 127, -128]
    np.testing.assert_array_equal(q.scale, [[scale]])
    with pytest.raises(ValueError, match="the zero tensor is missing"):
        spyre.quantize(x, "int8", scale="tensor", zero_point=True,
                       scales={"scale": np.float32([[scale]])})
    with pytest.raises(ValueError, match="it may give scale, zero and"):
        spyre.quantize(x, "int8", scale="tensor", zero_point=True,
                       scales={"scale": np.float32([[scale]]),
                               "zero": np.int8([[3]]),
                               "mask": np.int8([[3]])})


TORCH_QUANTIZE = """func.func @q(%x: tensor<16x64xf32>) -> tensor<16x64xi8> {
  %scale = arith.constant 1.250000e-02 : f64
  %zp = arith.constant 3 : i64
  %e = tensor.empty() : tensor<16x64xi8>
  %q = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<16x64xf32>) outs(%e : tensor<16x64xi8>) {
  ^bb0(%in: f32, %out: i8):
    %0 = arith.sitofp %zp : i64 to f32
    %1 = arith.truncf %scale : f64 to f32
    %2 = arith.divf %in, %1 : f32
    %3 = math.roundeven %2 : f32
    %4 = arith.addf %3, %0 : f32
    %lo = arith.constant -1.280000e+02 : f32
    %hi = arith.constant 1.270000e+02 : f32
    %5 = arith.maximumf %4, %lo : f32
    %6 = arith.minimumf %5, %hi : f32
    %7 = arith.fptosi %6 : f32 to i8
    linalg.yield %7 : i8
  } -> tensor<16x64xi8>
  return %q : tensor<16x64xi8>
}
"""


def test_torch_quantize_per_tensor_in_mlir_against_numpy():
    # torch-mlir's lowering of aten.quantize_per_tensor, raised to
    # spyre.quantize with the scale and zero given, on values that reach
    # the clamp and the ties.
    rng = np.random.default_rng(22)
    x = (rng.standard_normal((16, 64)) * 1.2).astype(np.float32)
    x[0, :3] = [0.03125, 0.04375, -0.03125]
    (q,), stats = spyre.run(TORCH_QUANTIZE, [x], check=True)
    assert stats["check_ok"]
    np.testing.assert_array_equal(q, torch_quantize_per_tensor(x, 0.0125, 3))
    assert (q == 127).any() and (q == -128).any()


def test_mx_fake_quant_linear_on_the_device_against_numpy():
    # MXFP4 fake quantization as MLIR writes it (scaling_truncf, then
    # scaling_extf, the E8M0 scales given per block of 32) before a linear
    # layer: raised to a quantize with the scales given and the device's
    # scaled matmul; NumPy rounds each quotient to the e2m1 grid.
    rng = np.random.default_rng(23)
    x = rng.standard_normal((8, 256)).astype(np.float16)
    w = rng.standard_normal((64, 256)).astype(np.float32)
    s = rng.integers(124, 128, (64, 8), dtype=np.uint8)
    text = """func.func @f(%x: tensor<8x256xf16>, %w: tensor<64x256xf32>, %s: tensor<64x8xf8E8M0FNU>) -> tensor<8x64xf16> {
  %e0 = tensor.empty() : tensor<64x256xf16>
  %wq = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1 floordiv 32)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%w, %s : tensor<64x256xf32>, tensor<64x8xf8E8M0FNU>) outs(%e0 : tensor<64x256xf16>) {
  ^bb0(%v: f32, %e: f8E8M0FNU, %o: f16):
    %q = arith.scaling_truncf %v, %e : f32, f8E8M0FNU to f4E2M1FN
    %d = arith.scaling_extf %q, %e : f4E2M1FN, f8E8M0FNU to f32
    %h = arith.truncf %d : f32 to f16
    linalg.yield %h : f16
  } -> tensor<64x256xf16>
  %e = tensor.empty() : tensor<8x64xf16>
  %zero = arith.constant 0.0 : f16
  %f = linalg.fill ins(%zero : f16) outs(%e : tensor<8x64xf16>) -> tensor<8x64xf16>
  %y = linalg.matmul_transpose_b ins(%x, %wq : tensor<8x256xf16>, tensor<64x256xf16>) outs(%f : tensor<8x64xf16>) -> tensor<8x64xf16>
  return %y : tensor<8x64xf16>
}
"""
    compiled = spyre.compile(text)
    assert "_scaledbatchmatmul" in compiled.ir
    (y,), stats = spyre.run(text, [x, w, s], check=True)
    assert stats["check_ok"]
    scale = 2.0 ** (s.astype(np.float64) - 127).repeat(32, axis=1)
    wq = round_to_grid(w.astype(np.float64) / scale, FP4) * scale
    want = x.astype(np.float64) @ wq.astype(np.float16).astype(np.float64).T
    np.testing.assert_allclose(y.astype(np.float64), want, rtol=2e-2,
                               atol=2e-2 * np.abs(want).max())


FP8_CASTS = """func.func @quantize(%x: tensor<64x256xf16>) -> (tensor<64x256xf8E4M3FN>, tensor<64x1xf32>) {
  %d, %s = spyre.quantize %x {quant = #spyre.quant<format = e4m3fn, scaling = channel>}
      : tensor<64x256xf16> -> tensor<64x256xf8E4M3FN>, tensor<64x1xf32>
  return %d, %s : tensor<64x256xf8E4M3FN>, tensor<64x1xf32>
}
func.func @dequantize(%d: tensor<64x256xf8E4M3FN>, %s: tensor<64x1xf32>) -> tensor<64x256xf16> {
  %x = spyre.dequantize %d, %s {quant = #spyre.quant<format = e4m3fn, scaling = channel>}
      : tensor<64x256xf8E4M3FN>, tensor<64x1xf32> -> tensor<64x256xf16>
  return %x : tensor<64x256xf16>
}
"""


def test_fp8_channel_casts_run_on_the_device_against_numpy():
    # Values DLFloat16 holds exactly (multiples of 1/64 up to 4), so the
    # device sees what NumPy sees; one row all zeros (scale 0, codes 0).
    rng = np.random.default_rng(7)
    x = (rng.integers(-256, 257, size=(64, 256)) / 64).astype(np.float16)
    x[5] = 0
    (codes, scale), stats = spyre.run(FP8_CASTS, [x], function="quantize",
                                      check=True)
    assert stats["check_ok"] and not stats["host_segments"]
    assert codes.dtype == np.uint8
    amax = np.abs(x.astype(np.float32)).max(axis=1, keepdims=True)
    np.testing.assert_array_equal(scale, amax / np.float32(448))
    values = E4M3FN[codes]
    safe = np.where(scale > 0, scale, 1).astype(np.float64)
    want = round_to_grid(x / safe, E4M3FN)
    # qfp8ch reads DL16: rounding twice puts a few codes one step away.
    step = np.abs(want) / 8 + 2.0**-9
    assert np.all(np.abs(values - want) <= step)
    assert np.mean(values != want) < 0.02
    assert np.all(codes[5] == 0)
    # fp8todl16 times the scale, against the same grid.
    (back,), stats = spyre.run(FP8_CASTS, [codes, scale], function="dequantize",
                               check=True)
    assert stats["check_ok"] and not stats["host_segments"]
    np.testing.assert_allclose(back, values * scale, rtol=2**-9, atol=0)


def test_fp8_without_saturation_overflows_as_a_cast_does():
    # MXFP8 with the scales given as 1 (E8M0 127): saturating (OCP MX's
    # conversion) 465 becomes 448; saturate=False rounds as MLIR's truncf
    # does, to NaN (e4m3fn has no infinity) - 464 still ties down to 448 -
    # and to infinity for e5m2 (61440 ties up to 65536, past its 57344).
    x = np.zeros((1, 32), np.float32)
    x[0, :5] = [464.0, 465.0, -1000.0, 3.0, np.inf]
    ones = {"scale": np.full((1, 1), 127, np.uint8)}
    sat = spyre.quantize(x, "e4m3fn", scale="mx", scales=ones)
    cast = spyre.quantize(x, "e4m3fn", scale="mx", scales=ones,
                          saturate=False)
    np.testing.assert_array_equal(spyre.dequantize(sat)[0, :4],
                                  [448.0, 448.0, -448.0, 3.0])
    back = spyre.dequantize(cast)[0, :5]
    assert back[0] == 448.0 and back[3] == 3.0
    assert np.isnan(back[1]) and np.isnan(back[2]) and np.isnan(back[4])
    y = np.zeros((1, 32), np.float32)
    y[0, :3] = [61439.0, 61440.0, -1e6]
    e5 = spyre.dequantize(spyre.quantize(y, "e5m2", scale="mx", scales=ones,
                                         saturate=False))[0, :3]
    np.testing.assert_array_equal(e5, [57344.0, np.inf, -np.inf])
    with pytest.raises(ValueError, match="saturate = false is for float"):
        spyre.quantize(x, "int8", scale="channel", saturate=False)
