"""Independent numpy references for the spyre pytest suite (nothing here
uses the spyre module).

Run the suite with:
    PYTHONPATH=/work/main/build/python /usr/bin/python3 -m pytest -q test/python
"""

import math

import numpy as np


def spec_default_dim_order(size):
    """The default dim_order, written from the spec (spyre_facts.md, section
    2): [0, ..., n-1], size-1 dims moved between the other dims and the stick
    so they never become the stick or the tile-row dim."""
    n = len(size)
    non_unit = [i for i in range(n) if size[i] != 1]
    unit = [i for i in range(n) if size[i] == 1]
    if not non_unit:
        return list(range(n))
    return non_unit[:-1] + unit + non_unit[-1:]


def reference_to_device(x, eps, dim_order=None, pad=0):
    """Independent numpy stickify of a host array `x` into the generic stick
    layout of the spec:

        Device dims = [o1, ..., o(n-2), ceil(size[o(n-1)] / eps), o0, eps]

    (rank 1: [ceil(n / eps), eps]; a trailing -1 in dim_order: the sparse
    layout [o1, ..., o(n-1), 1, o0, eps] holding one value per stick). The
    stick dim is padded with `pad` to a multiple of eps, split into (sticks,
    eps), and the axes are transposed into device order.
    """
    x = np.asarray(x)
    n = x.ndim
    order = list(spec_default_dim_order(x.shape) if dim_order is None
                 else dim_order)
    if order and order[-1] == -1:
        host = order[:-1]
        y = np.transpose(x, host[1:] + host[:1])
        dev = np.full(y.shape[:-1] + (1, y.shape[-1], eps), pad, dtype=x.dtype)
        dev[..., 0, :, 0] = y
        return dev
    stick = order[-1]
    sticks = math.ceil(x.shape[stick] / eps)
    padded_shape = list(x.shape)
    padded_shape[stick] = sticks * eps
    padded = np.full(padded_shape, pad, dtype=x.dtype)
    padded[tuple(slice(0, s) for s in x.shape)] = x
    split_shape = (list(x.shape[:stick]) + [sticks, eps] +
                   list(x.shape[stick + 1:]))
    split = padded.reshape(split_shape)

    def axis(h):  # axis of host dim h in `split`
        return h if h < stick else h + 1

    if n == 1:
        perm = [0, 1]
    else:
        perm = ([axis(h) for h in order[1:-1]] + [stick, axis(order[0])] +
                [stick + 1])
    return np.ascontiguousarray(np.transpose(split, perm))


def bits(a):
    """The raw bits of an array, for bit-exact comparisons (NaNs included)."""
    a = np.ascontiguousarray(a)
    if a.dtype == np.bool_:
        return a.view(np.uint8)
    return a.view({1: np.uint8, 2: np.uint16, 4: np.uint32,
                   8: np.uint64}[a.dtype.itemsize])


def assert_bits_equal(a, b):
    assert a.dtype == b.dtype, (a.dtype, b.dtype)
    assert a.shape == b.shape, (a.shape, b.shape)
    np.testing.assert_array_equal(bits(a), bits(b))


def dl16(x):
    """Rounds values to DLFloat16 as the device stores f16 (written from
    the format's definition, docs/numerics.md): 9 fraction bits, to nearest
    with ties away from zero, no subnormals (to 2^-31), one special value per
    sign beyond 2^32 * (1 + 510/512). Returns float64."""
    x = np.asarray(x, dtype=np.float64)
    sign = np.where(np.signbit(x), -1.0, 1.0)
    m, e = np.frexp(np.abs(x))  # |x| = m * 2^e, m in [0.5, 1)
    # 10 significant bits: m * 2^10 in [512, 1024), ties away from zero.
    q = np.floor(m * 1024.0 + 0.5)
    r = np.ldexp(q, e - 10)
    largest = math.ldexp(1.0 + 510.0 / 512.0, 32)
    smallest = math.ldexp(1.0 + 1.0 / 512.0, -31)
    r = np.where(r > largest, np.inf, r)
    r = np.where((r > 0) & (r < smallest),
                 np.where(2 * np.abs(x) >= smallest, smallest, 0.0), r)
    r = np.where(np.isnan(x), np.nan, r)
    return sign * r
