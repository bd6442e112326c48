"""SpyreTensorLayout.to_device / from_device against independent numpy
references (spyre_reference.py), bit-exact round trips, strided and
preallocated buffers, and the errors of invalid arrays."""

import concurrent.futures

import numpy as np
import pytest

import spyre
from spyre import SpyreTensorLayout
from spyre_reference import (assert_bits_equal, bits, reference_to_device,
                             spec_default_dim_order)

RNG = np.random.default_rng(20240611)


def random_array(shape, dtype):
    """Random values of every bit pattern (NaNs and infinities included for
    floating-point types)."""
    dtype = np.dtype(dtype)
    n = int(np.prod(shape, dtype=np.int64))
    if dtype == np.bool_:
        return RNG.integers(0, 2, size=shape).astype(np.bool_)
    raw = RNG.integers(0, 256, size=n * dtype.itemsize, dtype=np.uint8)
    return raw.view(dtype).reshape(shape)


#
# The RFC's loop nest, checked element by element.
#

def test_loop_nest_identity():
    x = random_array((1024, 256), np.float16)
    stl = SpyreTensorLayout([1024, 256], np.float16)
    device = stl.to_device(x)
    assert device.shape == (4, 1024, 64)
    assert device.dtype == np.float16
    i, j, k = np.indices((4, 1024, 64))
    flat_device = bits(device).ravel()
    flat_host = bits(x).ravel()
    np.testing.assert_array_equal(flat_device[i * 65536 + j * 64 + k],
                                  flat_host[j * 256 + i * 64 + k])


#
# Default layouts against the numpy reference.
#

# (host size, dtype, dim_order, pad value)
REFERENCE_CASES = [
    ([1024, 256], np.float16, None, 0),
    ([1000, 200], np.float16, None, 0),
    ([1000, 200], np.float16, None, -np.inf),
    ([5, 100, 150], np.float16, None, 3.5),
    ([5, 100, 150], np.float16, [1, 0, 2], 0),
    ([5, 100, 150], np.float16, [2, 0, 1], 1),
    ([128, 256, 512], np.float16, None, 0),
    ([50, 10, 200], np.float16, None, 0),
    ([50, 10, 200], np.float32, None, -1),
    ([33, 70], np.float32, [1, 0], 0),
    ([300], np.float16, None, 0),
    ([300], np.float32, None, 2),
    ([64], np.float16, None, 0),
    ([1], np.float16, None, 0),
    ([3, 7, 33], np.int8, [2, 0, 1], -128),
    ([129, 5], np.int8, [1, 0], 5),
    # 16-bit transposes move as 8x8 register tiles: sizes around the tile
    # and the 64-column block, with edges on both sides.
    ([100, 37], np.float16, [1, 0], 0),
    ([65, 129], np.float16, [1, 0], -1),
    ([8, 8], np.float16, [1, 0], 0),
    ([7, 200], np.float16, [1, 0], 2),
    ([3, 130, 70], np.float16, [0, 2, 1], 0),
    ([2, 3, 4, 5, 6, 70], np.int32, None, -7),
    ([2, 3, 4, 5, 6, 70], np.float16, [5, 4, 3, 2, 1, 0], 0),
    ([4, 1, 130], np.float16, None, 0),     # size-1 dim
    ([512, 1], np.float16, None, 0),        # size-1 stick candidate
    ([1, 1], np.float32, None, 9),          # all dims size 1
    ([10, 70], np.float16, [0, 1, -1], 0),  # sparse
    ([6, 5, 40], np.float32, [1, 2, 0, -1], -1),  # sparse, permuted
]


@pytest.mark.parametrize("size,dtype,dim_order,pad", REFERENCE_CASES)
def test_to_device_matches_numpy_reference(size, dtype, dim_order, pad):
    x = random_array(size, dtype)
    stl = SpyreTensorLayout(size, dtype, dim_order)
    expected = reference_to_device(x, stl.elems_per_stick, dim_order,
                                   pad=np.array(pad).astype(dtype))
    assert list(expected.shape) == stl.device_size
    device = stl.to_device(x, pad_value=pad)
    assert_bits_equal(device, expected)
    # Round trip, bit-exact (NaN payloads included).
    assert_bits_equal(stl.from_device(device, size), x)
    assert_bits_equal(stl.from_device(device), x)


def test_spec_default_dim_order_agrees():
    for size in ([4, 1, 130], [512, 1], [1, 1], [3, 5, 1, 1, 2], [7]):
        assert spyre.default_dim_order(size) == spec_default_dim_order(size)


def test_rank0():
    stl = SpyreTensorLayout([], np.float32)
    x = np.array(2.5, np.float32)
    device = stl.to_device(x, pad_value=-1)
    expected = np.full((1, 32), -1, np.float32)
    expected[0, 0] = 2.5
    assert_bits_equal(device, expected)
    back = stl.from_device(device)
    assert back.shape == () and back == x


#
# Formats numpy does not have, and converting transfers.
#

@pytest.mark.parametrize("name,pad,pad_bits", [
    ("float8_e4m3fn", 0, 0x00),
    ("float8_e4m3fn", 1.0, 0x38),   # 0 0111 000
    ("float8_e5m2", 1.0, 0x3C),     # 0 01111 00
    ("float8_e5m2", -np.inf, 0xFC),
])
def test_fp8_raw_bits(name, pad, pad_bits):
    x = random_array((33, 300), np.uint8)
    stl = SpyreTensorLayout([33, 300], name)
    assert stl.elems_per_stick == 128
    device = stl.to_device(x, pad_value=pad)
    assert device.dtype == np.uint8
    assert_bits_equal(device, reference_to_device(x, 128, pad=pad_bits))
    assert_bits_equal(stl.from_device(device), x)


def test_int4_packed():
    x = RNG.integers(-8, 8, size=(7, 600)).astype(np.int8)
    stl = SpyreTensorLayout([7, 600], "int4")
    assert stl.device_size == [3, 7, 256]
    device = stl.to_device(x, pad_value=-3)
    assert device.dtype == np.uint8 and device.shape == (3, 7, 128)
    nibbles = reference_to_device((x & 0xF).astype(np.uint8), 256,
                                  pad=np.uint8(-3 & 0xF))
    packed = nibbles[..., 0::2] | (nibbles[..., 1::2] << 4)
    assert_bits_equal(device, packed)
    assert_bits_equal(stl.from_device(device), x)


def test_int4_out_of_range():
    x = np.zeros((2, 5), np.int8)
    x[0, 3] = 8
    stl = SpyreTensorLayout([2, 5], "int4")
    with pytest.raises(ValueError) as info:
        stl.to_device(x)
    assert str(info.value) == ("int4 host value at element offset 3 is "
                               "outside [-8, 7]")


def test_bool_host():
    x = RNG.integers(0, 2, size=(100, 70)).astype(np.bool_)
    stl = SpyreTensorLayout([100, 70], np.bool_)
    device = stl.to_device(x)
    assert device.dtype == np.float16
    assert_bits_equal(device, reference_to_device(x.astype(np.float16), 64))
    back = stl.from_device(device, dtype=np.bool_)
    assert_bits_equal(back, x)
    # The natural host type of SEN169_FP16 is float16.
    assert_bits_equal(stl.from_device(device), x.astype(np.float16))
    # Any non-zero device value (NaN, -tiny) reads back as True, +-0 as False.
    special = np.array([0.0, -0.0, np.nan, -6e-8, np.inf, 1.0], np.float16)
    dev = np.zeros((1, 64), np.float16)
    dev[0, :6] = special
    small = SpyreTensorLayout([6], np.bool_)
    np.testing.assert_array_equal(small.from_device(dev, dtype="bool"),
                                  [False, False, True, True, True, True])


def test_int64_host_is_narrowed():
    x = np.array([[0, -1, 2**31 - 1, -2**31, 2**32 + 5, -2**40 - 3]],
                 np.int64)
    stl = SpyreTensorLayout([1, 6], np.int64)
    device = stl.to_device(x)
    assert device.dtype == np.int32
    np.testing.assert_array_equal(device[0, 0, :6],
                                  x.astype(np.uint64).astype(np.uint32)
                                  .view(np.int32)[0])
    back = stl.from_device(device, dtype=np.int64)
    assert back.dtype == np.int64
    np.testing.assert_array_equal(back, [[0, -1, 2**31 - 1, -2**31, 5, -3]])
    assert stl.from_device(device).dtype == np.int32


def all_bit_patterns_without_nan_16(exponent_mask, mantissa_mask):
    pats = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16)
    nan = ((pats & exponent_mask) == exponent_mask) & \
          ((pats & mantissa_mask) != 0)
    return pats[~nan]


def test_bfloat16_to_device_rounds_like_numpy():
    # Every non-NaN bf16 value: bf16 -> f32 is exact, f32 -> f16 is numpy's
    # round-to-nearest-even, so the reference needs one rounding like the DMA.
    pats = all_bit_patterns_without_nan_16(0x7F80, 0x007F)
    pats = pats[: (len(pats) // 64) * 64].reshape(-1, 64)
    stl = SpyreTensorLayout(list(pats.shape), "bfloat16")
    device = stl.to_device(pats)
    with np.errstate(over="ignore"):
        expected = (pats.astype(np.uint32) << 16).view(np.float32) \
            .astype(np.float16)
    assert_bits_equal(device, reference_to_device(expected, 64))


def test_bfloat16_from_device_rounds_to_nearest_even():
    pats = all_bit_patterns_without_nan_16(0x7C00, 0x03FF)
    pats = pats[: (len(pats) // 64) * 64].reshape(-1, 64)
    values = pats.view(np.float16)
    stl = SpyreTensorLayout(list(values.shape), "bfloat16")
    device = reference_to_device(values, 64)
    back = stl.from_device(device, dtype="bfloat16")
    assert back.dtype == np.uint16
    f32 = values.astype(np.float32).view(np.uint32)
    expected = ((f32 + 0x7FFF + ((f32 >> 16) & 1)) >> 16).astype(np.uint16)
    assert_bits_equal(back, expected)
    # uint16 is accepted as the bfloat16 dtype too.
    assert_bits_equal(stl.from_device(device, dtype=np.uint16), expected)
    # Round trips are exact for bf16 values representable in f16 (not for
    # those that overflow it, like 65536 = bf16(65504)).
    as_f32 = (expected.astype(np.uint32) << 16).view(np.float32)
    with np.errstate(over="ignore"):
        exact = as_f32.astype(np.float16).astype(np.float32) == as_f32
    round_trip = stl.from_device(stl.to_device(expected), dtype="bfloat16")
    assert exact.mean() > 0.99
    np.testing.assert_array_equal(round_trip[exact], expected[exact])


#
# Broadcast dims of explicit layouts.
#

def test_broadcast_dim():
    x = random_array((256,), np.float16)
    stl = SpyreTensorLayout(device_size=[3, 4, 64], stride_map=[0, 64, 1],
                            dtype=np.float16, size=[256])
    device = stl.to_device(x)
    assert_bits_equal(device, np.broadcast_to(x.reshape(4, 64), (3, 4, 64)))
    assert_bits_equal(stl.from_device(device), x)
    with pytest.raises(ValueError, match="broadcast dim"):
        stl.dim_map


def test_direct_form_binds_to_the_array():
    x = random_array((1000, 200), np.float16)
    stl = SpyreTensorLayout(device_size=[4, 1000, 64], stride_map=[64, 200, 1],
                            dtype=np.float16)
    device = stl.to_device(x)
    assert_bits_equal(device, reference_to_device(x, 64))
    assert_bits_equal(stl.from_device(device, [1000, 200]), x)
    with pytest.raises(ValueError) as info:
        stl.to_device(np.zeros((1000, 300), np.float16))
    assert str(info.value) == (
        "host dim 0 (size 1000) is not mapped by any device dim: no "
        "stride_map entry steps along it")
    with pytest.raises(ValueError, match="from_device needs the host size"):
        stl.from_device(device)


#
# Strided host arrays.
#

def strided_views():
    base = random_array((200, 700), np.float16)
    yield "transposed", base.T[:300]
    yield "step slices", base[::2, 1::3][:, :150]
    yield "negative strides", base[::-1, ::-2][:, :150]
    yield "broadcast", np.broadcast_to(base[0, :150], (100, 150))
    yield "fortran", np.asfortranarray(base[:100, :150])
    raw = np.zeros(100 * 303 + 64, np.uint8)
    odd = np.ndarray((100, 150), np.float16, buffer=raw, offset=1,
                     strides=(303, 2))
    odd[...] = base[:100, :150]
    yield "odd strides", odd
    yield "size-1 dims", base[:100, None, :150][:, :, ::1]


@pytest.mark.parametrize("name,view", list(strided_views()),
                         ids=[n for n, _ in strided_views()])
def test_strided_input(name, view):
    stl = SpyreTensorLayout(list(view.shape), np.float16)
    expected = reference_to_device(np.array(view), 64)
    assert_bits_equal(stl.to_device(view), expected)
    assert_bits_equal(stl.to_device(view, 0, out=np.empty_like(expected)),
                      expected)


def test_layout_of_a_strided_host_view():
    # The layout of the transposed view [256, 1024] (strides [1, 256]) of a
    # [1024, 256] buffer: the view itself and a contiguous copy of it hold
    # the same logical tensor, hence the same device tensor.
    base = random_array((1024, 256), np.float16)
    view = base.T
    stl = SpyreTensorLayout([256, 1024], np.float16, strides=[1, 256])
    expected = reference_to_device(np.array(view), 64)
    assert_bits_equal(stl.to_device(view), expected)
    assert_bits_equal(stl.to_device(np.ascontiguousarray(view)), expected)
    back = stl.from_device(expected)
    assert back.flags.c_contiguous
    assert_bits_equal(back, np.array(view))


def test_non_native_byte_order():
    x = random_array((10, 100), np.float32)
    swapped = x.astype(x.dtype.newbyteorder(">"))
    stl = SpyreTensorLayout([10, 100], np.float32)
    assert_bits_equal(stl.to_device(swapped), reference_to_device(x, 32))


#
# Preallocated buffers.
#

def test_to_device_out():
    x = random_array((1000, 200), np.float16)
    stl = SpyreTensorLayout([1000, 200], np.float16)
    out = np.empty((4, 1000, 64), np.float16)
    out.view(np.uint16)[...] = 0x7B7B  # garbage: padding must be rewritten
    result = stl.to_device(x, pad_value=-2, out=out)
    assert result is out
    assert_bits_equal(out, reference_to_device(x, 64, pad=np.float16(-2)))


def test_int4_out_overwrites_every_nibble():
    x = RNG.integers(-8, 8, size=(3, 300)).astype(np.int8)
    stl = SpyreTensorLayout([3, 300], "int4")
    out = np.full((2, 3, 128), 0xA5, np.uint8)
    stl.to_device(x, out=out)
    assert_bits_equal(out, stl.to_device(x))


def test_to_device_out_errors():
    x = np.zeros((1000, 200), np.float16)
    stl = SpyreTensorLayout([1000, 200], np.float16)
    with pytest.raises(ValueError, match="out= must be a float16 array of "
                       "shape \\[4, 1000, 64\\] in the device's byte order, "
                       "not a float32 array"):
        stl.to_device(x, out=np.empty((4, 1000, 64), np.float32))
    with pytest.raises(ValueError, match="out= must be a float16 array"):
        stl.to_device(x, out=np.empty((4, 1000, 63), np.float16))
    # Device bytes have the device's byte order: a byte-swapped buffer is not
    # one.
    with pytest.raises(ValueError, match="not a float16 \\(byte-swapped\\)"):
        stl.to_device(x, out=np.empty((4, 1000, 64),
                                      np.dtype(np.float16).newbyteorder(">")))
    with pytest.raises(ValueError, match="C-contiguous"):
        stl.to_device(x, out=np.empty((4, 1000, 128), np.float16)[..., ::2])
    ro = np.empty((4, 1000, 64), np.float16)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="writeable"):
        stl.to_device(x, out=ro)
    buf = np.zeros(4 * 1000 * 64, np.float16)
    with pytest.raises(ValueError, match="overlaps"):
        stl.to_device(buf[:200000].reshape(1000, 200),
                      out=buf.reshape(4, 1000, 64))


def test_from_device_out():
    x = random_array((1000, 200), np.float16)
    stl = SpyreTensorLayout([1000, 200], np.float16)
    device = stl.to_device(x)
    out = np.empty((1000, 200), np.float16)
    assert stl.from_device(device, out=out) is out
    assert_bits_equal(out, x)
    # A strided out= is written in place.
    big = np.zeros((1000, 400), np.float16)
    stl.from_device(device, [1000, 200], out=big[:, ::2])
    assert_bits_equal(big[:, ::2], x)
    assert not big[:, 1::2].any()
    # Strides the library cannot use go through a temporary.
    rev = np.zeros((1000, 200), np.float16)
    stl.from_device(device, out=rev[::-1])
    assert_bits_equal(rev[::-1], x)
    # The host type follows out= when dtype= is not given.
    bool_stl = SpyreTensorLayout([1000, 200], np.bool_)
    b = np.empty((1000, 200), np.bool_)
    bool_stl.from_device(bool_stl.to_device(x != 0), out=b)
    np.testing.assert_array_equal(b, x != 0)
    # A big-endian out= gets the values, byte-swapped as its dtype says.
    swapped = np.zeros((1000, 200), np.dtype(np.float16).newbyteorder(">"))
    assert stl.from_device(device, out=swapped) is swapped
    np.testing.assert_array_equal(swapped.astype(np.float16), x)


def test_from_device_errors():
    stl = SpyreTensorLayout([1000, 200], np.float16)
    device = np.zeros((4, 1000, 64), np.float16)
    with pytest.raises(ValueError) as info:
        stl.from_device(np.zeros((4, 1000, 64), np.float32))
    assert str(info.value) == (
        "the device array must be a float16 array of shape [4, 1000, 64] "
        "(a SEN169_FP16 tensor of device_size [4, 1000, 64]), not a float32 "
        "array of shape [4, 1000, 64]")
    with pytest.raises(ValueError, match="the device array must be"):
        stl.from_device(device[:3])
    with pytest.raises(ValueError) as info:
        stl.from_device(device, [1000, 201])
    assert str(info.value) == ("size [1000, 201] does not match the "
                               "layout's host size [1000, 200]")
    with pytest.raises(ValueError) as info:
        stl.from_device(device, dtype=np.float32)
    assert str(info.value) == ("host elements of type float32 are stored as "
                               "IEEE_FP32, but the layout's device format is "
                               "SEN169_FP16")
    with pytest.raises(ValueError, match="out= must be a float16 array"):
        stl.from_device(device, out=np.empty((1000, 200), np.float32),
                        dtype=np.float16)
    with pytest.raises(ValueError, match="does not match"):
        stl.from_device(device, out=np.empty((1000, 100), np.float16))
    # A non-contiguous device array is fine (copied).
    wide = np.zeros((4, 1000, 128), np.float16)
    assert stl.from_device(wide[..., ::2]).shape == (1000, 200)


#
# Errors of to_device.
#

def test_to_device_wrong_shape():
    stl = SpyreTensorLayout([1024, 256], np.float16)
    with pytest.raises(ValueError) as info:
        stl.to_device(np.zeros((1024, 255), np.float16))
    assert str(info.value) == ("array of shape [1024, 255] does not match the "
                               "layout's host size [1024, 256]")
    with pytest.raises(ValueError, match="does not match the layout's host"):
        stl.to_device(np.zeros((1024, 256, 1), np.float16))
    with pytest.raises(ValueError, match="does not match the layout's host"):
        stl.to_device(np.zeros(1024 * 256, np.float16))


def test_to_device_wrong_dtype():
    stl = SpyreTensorLayout([4, 100], np.float16)
    # Another device format: the library's message.
    with pytest.raises(ValueError) as info:
        stl.to_device(np.zeros((4, 100), np.float32))
    assert str(info.value) == ("host elements of type float32 are stored as "
                               "IEEE_FP32, but the layout's device format is "
                               "SEN169_FP16")
    with pytest.raises(ValueError) as info:
        stl.to_device(np.zeros((4, 100), np.int8))
    assert str(info.value) == ("host elements of type int8 are stored as "
                               "SENINT8, but the layout's device format is "
                               "SEN169_FP16")
    # Not a host type, or another host type of the same format.
    with pytest.raises(ValueError) as info:
        stl.to_device(np.zeros((4, 100), np.float64))
    assert str(info.value) == ("array dtype float64 does not match the "
                               "layout's host dtype float16 (expected a "
                               "float16 array)")
    with pytest.raises(ValueError, match="array dtype bool does not match"):
        stl.to_device(np.zeros((4, 100), np.bool_))
    bf16 = SpyreTensorLayout([4, 100], "bfloat16")
    with pytest.raises(ValueError, match="expected a uint16 array"):
        bf16.to_device(np.zeros((4, 100), np.float16))
    fp8 = SpyreTensorLayout([4, 100], "float8_e5m2")
    with pytest.raises(ValueError, match="expected a uint8 array"):
        fp8.to_device(np.zeros((4, 100), np.uint16))
    with pytest.raises(ValueError) as info:
        fp8.to_device(np.zeros((4, 100), np.int8))
    assert str(info.value) == ("host elements of type int8 are stored as "
                               "SENINT8, but the layout's device format is "
                               "SEN152_FP8")


@pytest.mark.parametrize("dtype,pad,message", [
    ("float8_e4m3fn", -np.inf,
     "pad value: value -inf is not representable in SEN143_FP8"),
    ("float8_e4m3fn", 1000.0,
     "pad value: value 1000 is not representable in SEN143_FP8"),
    (np.float16, 1e9,
     "pad value: value 1e+09 is not representable in SEN169_FP16"),
    (np.int8, 1.5, "pad value: value 1.5 is not representable in SENINT8 "
                   "(integers in [-128, 127])"),
    (np.int8, 128, "pad value: value 128 is not representable in SENINT8 "
                   "(integers in [-128, 127])"),
    ("int4", 8, "pad value: value 8 is not representable in SENINT4 "
                "(integers in [-8, 7])"),
    (np.int32, np.nan, "pad value: value nan is not representable in "
                       "IEEE_INT32 (integers in [-2147483648, 2147483647])"),
])
def test_pad_value_not_representable(dtype, pad, message):
    stl = SpyreTensorLayout([3, 5], dtype)
    host = np.zeros((3, 5), {"float8_e4m3fn": np.uint8, "int4": np.int8}
                    .get(dtype, dtype))
    with pytest.raises(ValueError) as info:
        stl.to_device(host, pad_value=pad)
    assert str(info.value) == message


#
# Threads: the GIL is released around the copy; concurrent calls must not
# interfere.
#

def test_concurrent_calls():
    stl = SpyreTensorLayout([1000, 200], np.float16)
    arrays = [random_array((1000, 200), np.float16) for _ in range(8)]
    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        devices = list(pool.map(stl.to_device, arrays))
        backs = list(pool.map(stl.from_device, devices))
    for x, d, b in zip(arrays, devices, backs):
        assert_bits_equal(d, reference_to_device(x, 64))
        assert_bits_equal(b, x)


#
# Buffers: alignment and zero-copy strided input.
#

@pytest.mark.parametrize("dtype,device_dtype,shape", [
    (np.float16, np.float16, (5, 100, 64)),
    (np.float32, np.float32, (10, 100, 32)),
    (np.int32, np.int32, (10, 100, 32)),
    (np.int8, np.int8, (3, 100, 128)),
    ("float8_e4m3fn", np.uint8, (3, 100, 128)),
    ("int4", np.uint8, (2, 100, 128)),
])
def test_empty_device(dtype, device_dtype, shape):
    stl = SpyreTensorLayout([100, 300], dtype)
    dev = stl.empty_device()
    assert dev.dtype == device_dtype and dev.shape == shape
    assert dev.flags.c_contiguous and dev.flags.writeable
    assert dev.ctypes.data % 128 == 0
    assert dev.nbytes == stl.device_bytes
    # Arrays the module allocates are stick-aligned too.
    host = np.zeros((100, 300), {"float8_e4m3fn": np.uint8,
                                 "int4": np.int8}.get(dtype, dtype))
    assert stl.to_device(host).ctypes.data % 128 == 0
    assert stl.from_device(stl.to_device(host)).ctypes.data % 128 == 0


def test_strided_input_is_read_in_place():
    import tracemalloc
    base = random_array((2048, 1024), np.float16)
    view = base[::2, ::2]          # 1 MiB of data, strided
    stl = SpyreTensorLayout(list(view.shape), np.float16)
    out = stl.empty_device()
    stl.to_device(view, out=out)   # warm up
    tracemalloc.start()
    try:
        stl.to_device(view, out=out)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < view.nbytes // 4, peak   # no copy of the view
    assert_bits_equal(out, reference_to_device(np.array(view), 64))


def test_torch_style_dtype_names():
    class FakeTorchDtype:
        def __str__(self):
            return "torch.bfloat16"
    stl = SpyreTensorLayout([8, 8], FakeTorchDtype())
    assert stl.host_dtype == "bfloat16"
