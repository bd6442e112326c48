"""Spyre tensor layouts (spyre-mlir's layout algebra, from Python).

    >>> import numpy as np, spyre
    >>> stl = spyre.SpyreTensorLayout([5, 100, 150], np.float16)
    >>> stl
    SpyreTensorLayout(device_size=[100, 3, 5, 64], stride_map =[150, 64, 15000, 1], device_dtype=DataFormats.SEN169_FP16)
    >>> dev = stl.to_device(np.ones((5, 100, 150), np.float16))
    >>> dev.shape
    (100, 3, 5, 64)
    >>> host = stl.from_device(dev)

Constructors
    SpyreTensorLayout(size, dtype, dim_order=None, *, strides=None,
                      stick_bytes=128)
        The generic stick layout (SpyreTensorLayout::getDefault) of a host
        tensor of `size` with row-major strides (or `strides`, in elements).
        A trailing -1 in dim_order asks for a sparse layout.
    SpyreTensorLayout(*, device_size, stride_map, dtype,
                      element_arrangement=None, size=None, strides=None,
                      stick_bytes=128)
        The direct form (SpyreTensorLayout::get). Give `size` to bind it to a
        host tensor up front; without it the layout knows no host tensor, so
        `dim_map`, `dim_order`, `dma()` and `restickify()` need a size
        (ValueError otherwise) and `to_device()` binds it to the array's
        shape.

    `dtype` is a host element type: a numpy dtype (np.float16, np.float32,
    np.bool_, np.int8, np.int32, np.int64), a DataFormats value (its natural
    host type) or a name: float16, bfloat16, float32, int8, int32, int64,
    float8_e4m3fn, float8_e5m2, bool, int4.

Host buffers
    numpy lacks some host types; their buffers hold raw values: bfloat16 as
    uint16 bits, float8_e4m3fn / float8_e5m2 as uint8 bits, int4 as int8
    values in [-8, 7]. A host array passed to to_device() must have the
    layout's host dtype and exactly the layout's host size (when the layout
    knows it). Any strides are accepted (arrays whose strides are negative,
    zero or not a multiple of the item size are copied first).

Device buffers
    numpy arrays of shape `device_size`: float16 (SEN169_FP16), float32
    (IEEE_FP32), int32 (IEEE_INT32), int8 (SENINT8), uint8 (the fp8 formats).
    SENINT4 tensors are uint8 arrays of shape device_size[:-1] +
    [device_size[-1] // 2] holding two values per byte, low nibble first.

from_device() returns the natural host dtype of the device format (float16,
float32, int32, int8, uint8 fp8 bits, int8 int4 values) unless dtype= (or an
out= array) asks for another host type of the same format (bool, bfloat16,
int64).

Every error the C++ library reports is raised as ValueError with exactly the
library's message (the text the MLIR verifier prints).
"""

from ._spyre import (  # noqa: F401
    DEFAULT_STICK_BYTES,
    MAX_HOST_RANK,
    DataFormats,
    DmaNest,
    ElementArrangement,
    SpyreTensorLayout,
    default_dim_order,
    device_format,
    elems_per_stick,
    restickify,
)

__all__ = [
    "DEFAULT_STICK_BYTES",
    "MAX_HOST_RANK",
    "DataFormats",
    "DmaNest",
    "ElementArrangement",
    "SpyreTensorLayout",
    "default_dim_order",
    "device_format",
    "elems_per_stick",
    "restickify",
]

__version__ = "0.1.0"
