"""Front-end forms against an independent NumPy reference.

The programs are integration_test/Run/Inputs/frontends.mlir (written in the
forms torch-mlir, IREE and StableHLO-to-linalg emit); the expected values
here are computed with NumPy from the same inputs, not by MLIR."""

import math
import os

import numpy as np
import pytest

import spyre
from spyre_reference import dl16

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
with open(os.path.join(ROOT, "integration_test", "Run", "Inputs",
                       "frontends.mlir")) as f:
    PROGRAM = f.read()


def rand(shape, scale=1.0, seed=0, dtype=np.float16):
    rng = np.random.default_rng(seed)
    return (rng.uniform(-1, 1, shape) * scale).astype(dtype)


def f32(x):
    return np.asarray(x, dtype=np.float32)


def run(name, inputs, cores=32):
    outputs, stats = spyre.run(PROGRAM, inputs, function=name, cores=cores)
    return outputs, stats


def close(got, want, tol=2e-2):
    got, want = f32(got), f32(want)
    scale = max(float(np.sqrt(np.mean(want * want))), 1e-3)
    np.testing.assert_allclose(got, want, atol=tol * scale, rtol=tol)


def softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def test_attention_with_head_split_mask_and_softmax():
    q, k, v = (rand((128, 256), 0.125, s) for s in (1, 2, 3))
    mask = np.where(rand((2, 1, 1, 64), seed=4) > 0.5, -1e4, 0).astype(np.float16)
    (out,), stats = run("attention_bmm", [q, k, v, mask])

    def heads(x):
        return f32(x).reshape(2, 64, 4, 64).transpose(0, 2, 1, 3)

    scores = heads(q) @ heads(k).transpose(0, 1, 3, 2) * 0.125 + f32(mask)
    want = (softmax(scores) @ heads(v)).transpose(0, 2, 1, 3).reshape(128, 256)
    close(out, want)
    assert not stats.get("host_segments"), "attention ran on the host"


def test_attention_as_a_five_loop_generic():
    q, k = rand((2, 4, 64, 64), 0.125, 5), rand((2, 4, 64, 64), 0.125, 6)
    (out,), _ = run("attention_generic", [q, k])
    close(out, f32(q) @ f32(k).transpose(0, 1, 3, 2))


def test_transposed_operand_read_through_its_map():
    q, k = rand((2, 64, 4, 64), 0.125, 7), rand((2, 64, 4, 64), 0.125, 8)
    (out,), _ = run("attn_transposed_k_in_map", [q, k])
    qh, kh = f32(q).transpose(0, 2, 1, 3), f32(k).transpose(0, 2, 1, 3)
    close(out, qh @ kh.transpose(0, 1, 3, 2))


def test_linear_with_weights_stored_out_in():
    x, w, b = rand((64, 128), 0.1, 9), rand((96, 128), 0.1, 10), rand((96,), seed=11)
    (out,), _ = run("linear_weights_out_in", [x, w, b])
    close(out, f32(x) @ f32(w).T + f32(b))


def test_rmsnorm_written_with_powf():
    x, w = rand((64, 256), seed=12), rand((256,), seed=13)
    (out,), _ = run("rmsnorm_powf", [x, w])
    xf = f32(x)
    want = xf / np.sqrt((xf * xf).mean(-1, keepdims=True) + 1e-5) * f32(w)
    close(out, want)


def test_sigmoid_silu_relu_and_erf_gelu():
    x = rand((64, 128), 4.0, 14)
    xf = f32(x)
    (sig, silu), _ = run("sigmoid_silu", [x])
    close(sig, 1 / (1 + np.exp(-xf)))
    close(silu, xf / (1 + np.exp(-xf)))
    (relu,), _ = run("relu_cmp_select", [x])
    # f16 arguments reach the device as DLFloat16 (one fraction bit less).
    np.testing.assert_array_equal(relu, np.maximum(dl16(x), 0).astype(np.float16))
    (gelu,), stats = run("gelu_erf", [x])
    erf = np.vectorize(math.erf)
    close(gelu, xf * 0.5 * (1 + erf(xf * 0.70703125)))
    # The exact GELU is the device's gelufwd.
    assert not stats["host_segments"]


def test_reshapes_are_exact():
    x = rand((4, 64), seed=15)
    (out,), _ = run("expand_outer_dim", [x])
    # Views move no data; the values are those the device stores (DL16).
    stored = lambda v: dl16(v).astype(np.float16)  # noqa: E731
    np.testing.assert_array_equal(out, stored(x).reshape(2, 2, 64))
    y = rand((256, 768), seed=16)
    (heads,), _ = run("split_heads", [y])
    np.testing.assert_array_equal(heads, stored(y).reshape(2, 128, 12, 64))
    z = rand((2, 128, 12, 64), seed=17)
    (merged,), _ = run("merge_heads", [z])
    np.testing.assert_array_equal(merged, stored(z).reshape(256, 768))
    # With IEEE binary16 numerics the bits come back unchanged.
    (exact,), _ = spyre.run(PROGRAM, [x], function="expand_outer_dim",
                            numerics="ieee-f16")
    np.testing.assert_array_equal(exact, x.reshape(2, 2, 64))


def test_reductions_over_several_dims_and_argmax():
    x = rand((4, 64, 128), seed=18)
    (out,), _ = run("sum_two_dims", [x])
    close(out, f32(x).sum(axis=(0, 2)))
    y = rand((64, 128), seed=19)
    (mean,), _ = run("mean_keepdim", [y])
    close(mean, f32(y).mean(axis=1, keepdims=True))
    (values, indices), _ = run("argmax", [y])
    np.testing.assert_array_equal(values, y.max(axis=1))
    np.testing.assert_array_equal(indices, y.argmax(axis=1))


def test_bf16_travels_as_float32():
    a, b = rand((64, 128), 0.1, 20, np.float32), rand((128, 64), 0.1, 21, np.float32)
    (out,), _ = run("bf16_matmul", [a, b])
    assert out.dtype == np.float32
    close(out, a @ b, tol=4e-2)


def test_data_movement_is_exact():
    x = rand((128, 256), seed=22)
    # Boxes, concatenation and padding are copied on the device: their
    # values are DL16's.
    def device(v):
        return dl16(v).astype(np.float16)
    (out,), _ = run("extract_slice", [x])
    np.testing.assert_array_equal(out, device(x[64:, 128:]))
    a, b = rand((64, 128), seed=23), rand((64, 128), seed=24)
    (cat,), _ = run("concat", [a, b])
    np.testing.assert_array_equal(cat, device(np.concatenate([a, b], axis=1)))
    p = rand((60, 100), seed=25)
    (padded,), _ = run("pad", [p])
    np.testing.assert_array_equal(padded, device(np.pad(p, ((0, 4), (0, 28)))))
    (ones,), _ = run("pad_with_one", [p])
    np.testing.assert_array_equal(
        ones, device(np.pad(p, ((3, 7), (64, 28)), constant_values=1.0)))
    v = rand((128,), seed=26)
    (bcast,), _ = run("broadcast", [v])
    # The broadcast runs on the device: its values are DL16's.
    np.testing.assert_array_equal(
        bcast, np.broadcast_to(dl16(v).astype(np.float16), (64, 128)))


@pytest.mark.parametrize("f32_matmul", ["host", "f16"])
def test_f32_matmul_on_host_or_in_f16(f32_matmul):
    text = """
    func.func @mm(%a: tensor<32x64xf32>, %b: tensor<64x96xf32>) -> tensor<32x96xf32> {
      %z = arith.constant 0.0 : f32
      %e = tensor.empty() : tensor<32x96xf32>
      %f = linalg.fill ins(%z : f32) outs(%e : tensor<32x96xf32>) -> tensor<32x96xf32>
      %r = linalg.matmul ins(%a, %b : tensor<32x64xf32>, tensor<64x96xf32>) outs(%f : tensor<32x96xf32>) -> tensor<32x96xf32>
      return %r : tensor<32x96xf32>
    }"""
    a, b = rand((32, 64), 0.1, 27, np.float32), rand((64, 96), 0.1, 28, np.float32)
    (out,), stats = spyre.run(text, [a, b], f32_matmul=f32_matmul, check=True)
    assert stats["check_ok"], stats["check"]
    if f32_matmul == "host":
        np.testing.assert_allclose(out, a @ b, rtol=1e-5, atol=1e-6)
        assert stats["host_segments"]
    else:
        close(out, a @ b)
        assert not stats["host_segments"]
    with pytest.raises(ValueError, match="f32_matmul"):
        spyre.run(text, [a, b], f32_matmul="f64")


def test_host_fallback_off_names_the_op():
    x = rand((64, 128), seed=29)
    with pytest.raises(ValueError, match="'linalg.generic' runs on the host"):
        spyre.run(PROGRAM, [x], function="argmax", host_fallback=False)


def test_pack_unpack_and_gather_against_numpy():
    a = rand((128, 256), seed=30)
    (packed,), _ = run("pack_blocks", [a])
    np.testing.assert_array_equal(
        packed, a.reshape(4, 32, 8, 32).transpose(0, 2, 1, 3))
    (unpacked,), _ = run("unpack_blocks", [packed])
    np.testing.assert_array_equal(unpacked, a)
    table = rand((64, 128), seed=31)
    ids = np.random.default_rng(32).integers(0, 64, (16, 1))
    (rows,), _ = run("gather_rows", [table, ids])
    # The gather runs on the host; its rows pass through the device for the
    # reshape that follows, as DL16.
    np.testing.assert_array_equal(
        rows, dl16(table[ids[:, 0]]).astype(np.float16))


def test_public_callee_comes_along():
    x = rand((64, 128), seed=33)
    (out,), _ = run("calls_public", [x])
    close(out, np.exp(f32(x)) + f32(x))


def test_int16_and_index_tensors_on_the_host():
    """i16 and index tensors (quantized inputs, position arithmetic) have no
    device format: they stay on the host, pass in and out as int16 and
    int64 arrays, and feed device kernels through host conversions."""
    with open(os.path.join(ROOT, "integration_test", "Run", "Inputs",
                           "host-fallback.mlir")) as f:
        program = f.read()
    q = np.arange(-256, 256, dtype=np.int16).reshape(8, 64)
    s = np.full((8, 64), 7, dtype=np.int16)
    with pytest.warns(spyre.CompileWarning):
        (x, d), _ = spyre.run(program, [q, s], function="i16_io")
    assert d.dtype == np.int16 and x.dtype == np.float16
    np.testing.assert_array_equal(d, q - s)
    close(x, np.exp(q.astype(np.float32) * np.float32(0.001)))
    p = np.arange(16, dtype=np.int64) * 3
    with pytest.warns(spyre.CompileWarning):
        (r,), _ = spyre.run(program, [p], function="index_io")
    assert r.dtype == np.int64
    np.testing.assert_array_equal(r, p + np.arange(16))
    # An int32 array is not an index tensor.
    with pytest.raises(ValueError, match="expects index elements"):
        spyre.run(program, [p.astype(np.int32)], function="index_io")


def test_sparse_matmul_on_the_host_against_numpy():
    """A CSR operand (upstream's sparse_tensor encoding) passes in as a
    dense array, is converted and multiplied on the host by the sparsifier's
    code; the ReLU after it runs on the device."""
    with open(os.path.join(ROOT, "integration_test", "Run", "Inputs",
                           "sparse.mlir")) as f:
        program = f.read()
    rng = np.random.default_rng(41)
    a = rng.standard_normal((64, 128)).astype(np.float16)
    a[rng.random((64, 128)) < 0.9] = 0  # 90% zeros
    b = (rng.standard_normal((128, 64)) / 4).astype(np.float16)
    with pytest.warns(spyre.CompileWarning):
        (out,), stats = spyre.run(program, [a, b], function="csr_matmul_relu")
    assert stats["host_segments"]
    close(out, np.maximum(f32(a) @ f32(b), 0))


def test_scalar_arguments_as_numpy_scalars():
    """A function taking scalars (as front ends export a scale or a count)
    runs with NumPy scalars; they travel as 0-d tensors."""
    with open(os.path.join(ROOT, "integration_test", "Run", "Inputs",
                           "scalar-args.mlir")) as f:
        program = f.read()
    a = rand((8, 64), scale=0.5)
    with pytest.warns(spyre.CompileWarning):
        (r,), _ = spyre.run(program, [a, np.float16(0.5), np.int32(3)],
                            function="scalar_args", check=True)
    want = np.exp(a.astype(np.float32)) * 0.5 + 3
    close(r, want)


def test_memref_arguments_return_what_the_function_writes():
    """A function on buffers (as tests for mlir-runner write them) takes
    NumPy arrays; each buffer's contents after the call come back after the
    function's own results, and the caller's arrays are not written."""
    with open(os.path.join(ROOT, "integration_test", "Run", "Inputs",
                           "memref-args.mlir")) as f:
        program = f.read()
    a, b = rand((8, 16), scale=0.5), rand((16, 4), scale=0.5)
    a, b = a.astype(np.float32), b.astype(np.float32)
    c = np.ones((8, 4), np.float32)
    with pytest.warns(spyre.CompileWarning):
        results, _ = spyre.run(program, [a, b, c], function="matmul_into",
                               check=True)
    assert len(results) == 3
    np.testing.assert_array_equal(results[0], a)
    np.testing.assert_allclose(results[2], 1 + a @ b, rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(c, np.ones((8, 4), np.float32))


def test_tosa_softmax_against_numpy():
    # TOSA (TFLite's and torch-mlir's TOSA path) is lowered to linalg by
    # upstream's passes and compiled for the device; NumPy computes softmax.
    text = """func.func @f(%x: tensor<16x128xf16>) -> tensor<16x128xf16> {
  %m = tosa.reduce_max %x {axis = 1 : i32} : (tensor<16x128xf16>) -> tensor<16x1xf16>
  %d = tosa.sub %x, %m : (tensor<16x128xf16>, tensor<16x1xf16>) -> tensor<16x128xf16>
  %e = tosa.exp %d : (tensor<16x128xf16>) -> tensor<16x128xf16>
  %s = tosa.reduce_sum %e {axis = 1 : i32} : (tensor<16x128xf16>) -> tensor<16x1xf16>
  %r = tosa.reciprocal %s : (tensor<16x1xf16>) -> tensor<16x1xf16>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %y = tosa.mul %e, %r, %shift : (tensor<16x128xf16>, tensor<16x1xf16>, tensor<1xi8>) -> tensor<16x128xf16>
  return %y : tensor<16x128xf16>
}
"""
    x = np.random.default_rng(8).standard_normal((16, 128)).astype(np.float16)
    assert "spyre.exp" in spyre.compile(text).ir
    (y,), _ = spyre.run(text, [x])
    z = np.exp(x.astype(np.float64) - x.max(axis=1, keepdims=True))
    want = z / z.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(y.astype(np.float64), want, rtol=2e-2,
                               atol=2e-3)
