"""spyre.SpyreTensorLayout: construction, properties, repr, equality, DMA
nests, restickify, and the errors of invalid arguments.

The expected values are the worked examples of the seed documents
(../shared/reference/spyre_facts.md, ../shared/spec/*.md); the expected error
texts are the C++ library's messages (lib/Layout/*.cpp), verbatim.
"""

import numpy as np
import pytest

import spyre
from spyre import DataFormats, SpyreTensorLayout

# (host size, dim_order, device_size, stride_map), f16: the spec's examples.
SEED_EXAMPLES = [
    ([1024, 256], None, [4, 1024, 64], [64, 256, 1]),
    ([1000, 200], None, [4, 1000, 64], [64, 200, 1]),
    ([5, 100, 150], None, [100, 3, 5, 64], [150, 64, 15000, 1]),
    ([5, 100, 150], [1, 0, 2], [5, 3, 100, 64], [15000, 64, 150, 1]),
    ([128, 256, 512], None, [256, 8, 128, 64], [512, 64, 131072, 1]),
    ([50, 10, 200], None, [10, 4, 50, 64], [200, 64, 2000, 1]),
]


@pytest.mark.parametrize("size,dim_order,device_size,stride_map",
                         SEED_EXAMPLES)
def test_seed_examples(size, dim_order, device_size, stride_map):
    stl = SpyreTensorLayout(size, np.float16, dim_order)
    assert stl.device_size == device_size
    assert stl.stride_map == stride_map
    assert stl.device_dtype == DataFormats.SEN169_FP16
    assert stl.elems_per_stick == 64
    # The same layout through the keyword and the explicit-default spellings.
    if dim_order is None:
        assert SpyreTensorLayout(size, "float16",
                                 spyre.default_dim_order(size)) == stl
    assert SpyreTensorLayout(size=size, dtype=np.dtype("float16"),
                             dim_order=dim_order) == stl


def test_repr_matches_reference_stack():
    stl = SpyreTensorLayout((5, 100, 150), np.float16)
    expected = ("SpyreTensorLayout(device_size=[100, 3, 5, 64], "
                "stride_map =[150, 64, 15000, 1], "
                "device_dtype=DataFormats.SEN169_FP16)")
    assert repr(stl) == expected
    assert str(stl) == expected
    assert repr(SpyreTensorLayout((5, 100, 150), np.float16, [1, 0, 2])) == (
        "SpyreTensorLayout(device_size=[5, 3, 100, 64], "
        "stride_map =[15000, 64, 150, 1], "
        "device_dtype=DataFormats.SEN169_FP16)")


def test_device_dtype_prints_as_dataformats():
    stl = SpyreTensorLayout([8, 8], np.float32)
    assert str(stl.device_dtype) == "DataFormats.IEEE_FP32"
    assert stl.device_dtype is DataFormats.IEEE_FP32
    assert "device_dtype=DataFormats.IEEE_FP32" in repr(stl)


@pytest.mark.parametrize("size,dim_order,dim_map", [
    ([1024, 256], None, [1, 0, 1]),
    ([128, 256, 512], None, [1, 2, 0, 2]),
    ([5, 100, 150], [1, 0, 2], [0, 2, 1, 2]),
    ([5, 100, 150], None, [1, 2, 0, 2]),
])
def test_dim_map(size, dim_order, dim_map):
    assert SpyreTensorLayout(size, np.float16, dim_order).dim_map == dim_map


def test_dim_order_round_trips():
    for size, order in [([5, 100, 150], [1, 0, 2]), ([7, 9, 11], [2, 0, 1]),
                        ([1024, 256], [1, 0]), ([300], [0])]:
        assert SpyreTensorLayout(size, np.float16, order).dim_order == order


@pytest.mark.parametrize("dtype,fmt,eps", [
    (np.float16, DataFormats.SEN169_FP16, 64),
    ("bfloat16", DataFormats.SEN169_FP16, 64),
    (np.bool_, DataFormats.SEN169_FP16, 64),
    (bool, DataFormats.SEN169_FP16, 64),
    (np.float32, DataFormats.IEEE_FP32, 32),
    ("float32", DataFormats.IEEE_FP32, 32),
    (np.int32, DataFormats.IEEE_INT32, 32),
    (np.int64, DataFormats.IEEE_INT32, 32),
    (np.int8, DataFormats.SENINT8, 128),
    ("float8_e4m3fn", DataFormats.SEN143_FP8, 128),
    ("float8_e5m2", DataFormats.SEN152_FP8, 128),
    ("int4", DataFormats.SENINT4, 256),
    (DataFormats.IEEE_FP32, DataFormats.IEEE_FP32, 32),
])
def test_dtypes(dtype, fmt, eps):
    stl = SpyreTensorLayout([3, 1000], dtype)
    assert stl.device_dtype == fmt
    assert stl.elems_per_stick == eps
    assert stl.device_size == [-(-1000 // eps), 3, eps]
    assert stl.stride_map == [eps, 1000, 1]
    assert stl.num_sticks == 3 * -(-1000 // eps)
    assert stl.device_bytes == 128 * stl.num_sticks
    assert stl.stick_bytes == 128
    assert spyre.elems_per_stick(dtype) == eps
    assert spyre.device_format(dtype) == fmt


def test_properties():
    stl = SpyreTensorLayout([1000, 200], np.float16)
    assert stl.num_sticks == 4 * 1000
    assert stl.device_bytes == 4 * 1000 * 128
    assert stl.element_arrangement == spyre.ElementArrangement.STANDARD
    assert stl.device_strides == [64000, 64, 1]
    assert stl.size == [1000, 200]
    assert stl.strides == [200, 1]
    assert stl.host_dtype == "float16"
    assert isinstance(stl.device_size, list)
    assert isinstance(stl.stride_map, list)


def test_stick_bytes():
    stl = SpyreTensorLayout([1024, 256], np.float16, stick_bytes=256)
    assert stl.device_size == [2, 1024, 128]
    assert stl.stride_map == [128, 256, 1]
    assert stl.stick_bytes == 256
    assert stl.device_bytes == 2 * 1024 * 256


def test_rank0_rank1_and_size1_dims():
    stl = SpyreTensorLayout([], np.float16)
    assert (stl.device_size, stl.stride_map) == ([1, 64], [-1, -1])
    stl = SpyreTensorLayout([300], np.float16)
    assert (stl.device_size, stl.stride_map) == ([5, 64], [64, 1])
    # [512, 1] and [512] get equivalent layouts: the size-1 dim never becomes
    # the stick or the tile-row dim.
    assert spyre.default_dim_order([512, 1]) == [1, 0]
    stl = SpyreTensorLayout([512, 1], np.float16)
    assert stl.device_size == [8, 1, 64]
    assert spyre.default_dim_order([3, 1, 5]) == [0, 1, 2]
    assert spyre.default_dim_order([3, 5, 1]) == [0, 2, 1]
    assert spyre.default_dim_order([1, 1]) == [0, 1]
    assert spyre.default_dim_order([4, 5, 6]) == [0, 1, 2]


def test_sparse_layout():
    stl = SpyreTensorLayout([100, 300], np.float16, [0, 1, -1])
    assert stl.device_size == [300, 1, 100, 64]
    assert stl.stride_map == [1, -1, 300, -1]


def test_strided_host_view():
    # A transposed view of a [1024, 256] buffer: sizes [256, 1024], strides
    # [1, 256] (in elements).
    stl = SpyreTensorLayout([256, 1024], np.float16, strides=[1, 256])
    assert stl.device_size == [16, 256, 64]
    assert stl.stride_map == [64 * 256, 1, 256]
    assert stl.strides == [1, 256]


#
# The direct form.
#

def test_direct_form_equals_default():
    direct = SpyreTensorLayout(device_size=[100, 3, 5, 64],
                               stride_map=[150, 64, 15000, 1],
                               dtype=np.float16)
    default = SpyreTensorLayout([5, 100, 150], np.float16)
    assert direct == default
    assert hash(direct) == hash(default)
    assert repr(direct) == repr(default)
    assert direct.size is None


def test_direct_form_dim_map_needs_a_size():
    direct = SpyreTensorLayout(device_size=[4, 1024, 64],
                               stride_map=[64, 256, 1], dtype="float16")
    with pytest.raises(ValueError, match="dim_map needs the host size"):
        direct.dim_map
    with pytest.raises(ValueError, match="dma\\(\\) needs the host size"):
        direct.dma()
    with_size = SpyreTensorLayout(device_size=[4, 1024, 64],
                                  stride_map=[64, 256, 1], dtype="float16",
                                  size=[1024, 256])
    assert with_size.dim_map == [1, 0, 1]
    assert with_size.size == [1024, 256]
    assert [str(n) for n in direct.dma([1024, 256])] == [
        "((4, 1024, 64), (65536, 64, 1), (64, 256, 1))"]


def test_direct_form_arrangement():
    # exx2: the per-row statistics of a [1024, 256] tensor, two per stick.
    stl = SpyreTensorLayout(device_size=[1, 1024, 64], stride_map=[-1, 1, -1],
                            dtype=np.float16, element_arrangement="exx2")
    assert stl.element_arrangement == spyre.ElementArrangement.EXX2
    assert repr(stl) == (
        "SpyreTensorLayout(device_size=[1, 1024, 64], "
        "stride_map =[-1, 1, -1], device_dtype=DataFormats.SEN169_FP16, "
        "element_arrangement=ElementArrangement.EXX2)")
    with pytest.raises(ValueError, match="synthetic stick"):
        SpyreTensorLayout(device_size=[4, 1024, 64], stride_map=[64, 256, 1],
                          dtype=np.float16, element_arrangement="exx2")
    plain = SpyreTensorLayout([1024], np.float16)
    assert stl != plain
    assert not (stl == plain)


#
# Equality and hashing.
#

def test_equality_and_hash():
    a = SpyreTensorLayout([1024, 256], np.float16)
    b = SpyreTensorLayout((1024, 256), "float16")
    c = SpyreTensorLayout([1024, 256], np.float16, [1, 0])
    d = SpyreTensorLayout([1024, 256], np.int8)
    assert a == b and hash(a) == hash(b)
    assert a != c and a != d
    assert not (a != b)
    # bf16 and bool hosts share the device format: same layout value.
    assert a == SpyreTensorLayout([1024, 256], "bfloat16")
    assert a == SpyreTensorLayout([1024, 256], np.bool_)
    assert len({a, b, c, d}) == 3
    assert {a: 1}[b] == 1
    assert a != "not a layout"
    assert (a == 3) is False


#
# DMA nests.
#

def test_dma_rfc_example():
    nests = SpyreTensorLayout([1024, 256], np.float16).dma()
    assert len(nests) == 1
    n = nests[0]
    assert str(n) == "((4, 1024, 64), (65536, 64, 1), (64, 256, 1))"
    assert n.ranges == [4, 1024, 64]
    assert n.device_strides == [65536, 64, 1]
    assert n.host_strides == [64, 256, 1]
    assert (n.device_offset, n.host_offset) == (0, 0)
    assert n.num_elements == 1024 * 256
    assert n.to_dict() == {"ranges": [4, 1024, 64],
                           "device_strides": [65536, 64, 1],
                           "host_strides": [64, 256, 1],
                           "device_offset": 0, "host_offset": 0}
    assert repr(n) == ("DmaNest(((4, 1024, 64), (65536, 64, 1), "
                       "(64, 256, 1)), device_offset=0, host_offset=0)")


def test_dma_remainder_nest():
    # [1000, 200] f16: a main nest over the 3 full sticks of every row, and a
    # remainder nest over the 8 elements of the partial stick, starting at
    # host offset 192 and device offset 192000 (= 3 * 1000 * 64).
    nests = SpyreTensorLayout([1000, 200], np.float16).dma()
    assert len(nests) == 2
    main, rest = nests
    assert main.ranges == [3, 1000, 64]
    assert main.device_strides == [64000, 64, 1]
    assert main.host_strides == [64, 200, 1]
    assert (main.device_offset, main.host_offset) == (0, 0)
    assert rest.ranges[-2:] == [1000, 8]
    assert rest.device_strides[-2:] == [64, 1]
    assert rest.host_strides[-2:] == [200, 1]
    assert all(r == 1 for r in rest.ranges[:-2])
    assert rest.host_offset == 192
    assert rest.device_offset == 192000
    assert sum(n.num_elements for n in nests) == 1000 * 200


def test_dma_nests_cover_every_host_element_once():
    stl = SpyreTensorLayout([5, 100, 150], np.float16)
    host_hits = np.zeros(5 * 100 * 150, np.int64)
    device_hits = np.zeros(int(np.prod(stl.device_size)), np.int64)
    for nest in stl.dma():
        idx = np.indices(nest.ranges).reshape(len(nest.ranges), -1)
        host = nest.host_offset + np.dot(nest.host_strides, idx)
        dev = nest.device_offset + np.dot(nest.device_strides, idx)
        np.add.at(host_hits, host, 1)
        np.add.at(device_hits, dev, 1)
    assert (host_hits == 1).all()
    assert device_hits.max() == 1
    assert device_hits.sum() == 5 * 100 * 150


def test_dma_directions_and_sizes():
    stl = SpyreTensorLayout([1024, 256], np.float16)
    assert stl.dma(direction="device_to_host") == stl.dma()
    assert stl.dma([1024, 256]) == stl.dma()
    # The layout also serves a smaller tensor with the same strides: the
    # padding grows.
    nests = stl.dma([1000, 256], strides=[256, 1])
    assert sum(n.num_elements for n in nests) == 1000 * 256
    with pytest.raises(ValueError, match="direction must be"):
        stl.dma(direction="sideways")
    assert hash(stl.dma()[0]) == hash(stl.dma()[0])


#
# restickify
#

def test_restickify():
    stl = SpyreTensorLayout([1024, 256], np.float16)
    target, cost = spyre.restickify(stl, [1024, 256], 0)
    assert target == SpyreTensorLayout([1024, 256], np.float16, [1, 0])
    assert target.device_size == [16, 256, 64]
    assert target.stride_map == [64 * 256, 1, 256]
    assert cost == 4 * 1024 * 64
    assert stl.restickify(0) == (target, cost)
    assert spyre.restickify(stl, None, 0) == (target, cost)
    same, cost = stl.restickify(1)
    assert same == stl
    # 3-D: the stick moves from dim 2 to dim 0, the other dims stay.
    stl = SpyreTensorLayout([5, 100, 150], np.float16)
    target, cost = stl.restickify(0)
    assert target == SpyreTensorLayout([5, 100, 150], np.float16, [2, 1, 0])
    assert cost == 100 * 3 * 5 * 64


#
# Errors: ValueError with the C++ library's message.
#

def raises(fn, message):
    with pytest.raises(ValueError) as info:
        fn()
    assert str(info.value) == message
    return info


def test_error_bad_dim_order():
    raises(lambda: SpyreTensorLayout([5, 100, 150], np.float16, [0, 0, 1]),
           "dim_order [0, 0, 1] must be a permutation of the 3 host dims "
           "[0, 3), optionally followed by -1 for a sparse layout")
    raises(lambda: SpyreTensorLayout([5, 100, 150], np.float16, [0, 1]),
           "dim_order [0, 1] must be a permutation of the 3 host dims "
           "[0, 3), optionally followed by -1 for a sparse layout")
    raises(lambda: SpyreTensorLayout([5, 100], np.float16, [0, 2]),
           "dim_order [0, 2] must be a permutation of the 2 host dims "
           "[0, 2), optionally followed by -1 for a sparse layout")
    raises(lambda: SpyreTensorLayout([], np.float16, [0]),
           "dim_order [0] given for a rank-0 tensor; it must be empty")


def test_error_lengths():
    raises(lambda: SpyreTensorLayout(device_size=[4, 1024, 64],
                                     stride_map=[64, 1], dtype=np.float16),
           "device_size has 3 entries but stride_map has 2; they must match")
    raises(lambda: SpyreTensorLayout([2, 3], np.float16, strides=[1]),
           "host sizes [2, 3] and host strides [1] have different lengths")
    raises(lambda: SpyreTensorLayout(device_size=[], stride_map=[],
                                     dtype=np.float16),
           "device_size must have at least one dim (the stick)")


def test_error_stick_size():
    raises(lambda: SpyreTensorLayout(device_size=[4, 1024, 32],
                                     stride_map=[64, 256, 1],
                                     dtype=np.float16),
           "stick dim device_size[2] = 32 must be 64: one 128-byte stick of "
           "SEN169_FP16 holds 64 elements")
    raises(lambda: SpyreTensorLayout(device_size=[4, 1024, 64],
                                     stride_map=[64, 256, 1],
                                     dtype=np.float32),
           "stick dim device_size[2] = 64 must be 32: one 128-byte stick of "
           "IEEE_FP32 holds 32 elements")
    raises(lambda: SpyreTensorLayout([8, 8], np.float16, stick_bytes=3),
           "a 3-byte stick does not hold a whole number of SEN169_FP16 "
           "elements")


def test_error_sizes():
    raises(lambda: SpyreTensorLayout([0, 5], np.float16),
           "host size[0] = 0 must be positive (tensor sizes [0, 5])")
    raises(lambda: SpyreTensorLayout([4, -2], np.float16),
           "host size[1] = -2 must be positive (tensor sizes [4, -2])")
    raises(lambda: SpyreTensorLayout(device_size=[-4, 1024, 64],
                                     stride_map=[64, 256, 1],
                                     dtype=np.float16),
           "device_size[0] = -4 must be positive")
    raises(lambda: SpyreTensorLayout([4, 4], np.float16, strides=[-4, 1]),
           "host stride[0] = -4 must not be negative")
    raises(lambda: SpyreTensorLayout(device_size=[4, 1024, 64],
                                     stride_map=[-2, 256, 1],
                                     dtype=np.float16),
           "stride_map[0] = -2 is invalid: entries are host strides >= 0, "
           "or -1 for a synthetic dim")


def test_error_rank():
    raises(lambda: SpyreTensorLayout([2] * 7, np.float16),
           "host rank 7 exceeds the maximum of 6")
    raises(lambda: SpyreTensorLayout(device_size=[1] * 8 + [64],
                                     stride_map=[-1] * 9, dtype=np.float16),
           "device rank 9 exceeds the maximum of 8")
    SpyreTensorLayout([2] * 6, np.float16)  # the maximum is fine


def test_error_layout_does_not_fit_size():
    raises(lambda: SpyreTensorLayout(device_size=[4, 1024, 64],
                                     stride_map=[64, 256, 1],
                                     dtype=np.float16, size=[1100, 256]),
           "layout too small: its device dims cover 1024 of the 1100 "
           "elements of host dim 0")
    raises(lambda: SpyreTensorLayout(device_size=[4, 1024, 64],
                                     stride_map=[64, 256, 1],
                                     dtype=np.float16, size=[1024, 300]),
           "host dim 0 (size 1024) is not mapped by any device dim: no "
           "stride_map entry steps along it")
    stl = SpyreTensorLayout([1024, 256], np.float16)
    raises(lambda: stl.dma([1000, 200]),
           "stride_map[1] = 256 does not step along any host dim of a tensor "
           "with sizes [1000, 200] and strides [200, 1] (an entry must be "
           "k * host_stride[h] with k < size[h])")


def test_error_unknown_dtype():
    raises(lambda: SpyreTensorLayout([8, 8], "float13"),
           "unknown dtype 'float13': expected one of float16, bfloat16, "
           "float32, int8, int32, int64, float8_e4m3fn, float8_e5m2, bool, "
           "int4")
    raises(lambda: SpyreTensorLayout([8, 8], np.float64),
           "unsupported dtype float64: expected one of float16, bfloat16, "
           "float32, int8, int32, int64, float8_e4m3fn, float8_e5m2, bool, "
           "int4")
    with pytest.raises(ValueError, match="unknown element arrangement"):
        SpyreTensorLayout(device_size=[4, 1024, 64], stride_map=[64, 256, 1],
                          dtype=np.float16, element_arrangement="diagonal")


def test_error_restickify():
    stl = SpyreTensorLayout([1024, 256], np.float16)
    raises(lambda: stl.restickify(5),
           "cannot restickify to host dim 5: the tensor has rank 2")
    sparse = SpyreTensorLayout([100, 300], np.float16, [0, 1, -1])
    raises(lambda: sparse.restickify(0),
           "cannot restickify a sparse layout (its stick holds one value); "
           "relayout it through a dense layout first")


def test_wrong_argument_types_raise_type_error():
    with pytest.raises(TypeError):
        SpyreTensorLayout("abc", np.float16)
    with pytest.raises(TypeError):
        SpyreTensorLayout(device_size=[4, 1024, 64], dtype=np.float16)
    with pytest.raises(TypeError):
        SpyreTensorLayout([1.5, 2], np.float16)
