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

Compiling and simulating
    spyre.compile(mlir_text, cores=32, policy="model", host_fallback=True,
                  f32_matmul="host") -> Artifact
        Runs --spyre-pipeline on linalg-on-tensors text (as torch-mlir
        emits it) and emits the SuperDSC JSON and the DCI descriptors.
        What the device cannot run stays on the host (host segments) unless
        host_fallback=False; f32_matmul="f16" runs f32 matmuls on the
        device in f16.
        Artifact fields: source (the text), ir (the kernel form), superdsc
        ({"bundle": [...], "sdscs": {...}}), bundle (bundle.mlir text), dci
        (list of descriptors), cores.
    spyre.run(program, inputs, *, function=None, cores=32, check=False,
              trace=False, host_fallback=True, f32_matmul="host")
              -> (outputs, stats)
        Simulates `program` (MLIR text, compiled first unless it is in
        kernel form, or an Artifact) on numpy `inputs` (in argument order);
        `outputs` are numpy arrays in result order. `stats` holds the
        modelled time ("seconds"), the program's roofline and utilisation
        ("program": compulsory DDR bytes, FLOPs, roofline, utilisation,
        traffic ratio; docs/simulator.md has the schema), DDR bytes,
        per-kernel rows ("kernels"), a printable "table", the
        Chrome trace ("trace") when asked for, and with check=True the
        comparison with upstream MLIR's own lowering of the linalg program
        ("check": per result max_abs_error, atol, rtol, ok; "check_ok").
    Errors (parse, verification, compilation, simulation faults, wrong
    inputs) raise ValueError with the diagnostics.
"""

import json as _json

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

__all__ += ["Artifact", "CompileWarning", "compile", "run"]

__version__ = "0.2.0"


class CompileWarning(UserWarning):
    """A remark or warning of the compiler (e.g. an op left on the host)."""


def _warn(messages):
    """Turns the compiler's remarks and warnings into Python warnings."""
    import warnings

    for severity, text in messages:
        warnings.warn(text.rstrip(), CompileWarning, stacklevel=3)
    return [text.rstrip() for _, text in messages]


class Artifact:
    """A compiled program: what spyre.compile returns."""

    def __init__(self, source, ir, superdsc, bundle, dci, cores, remarks=()):
        self.source = source
        self.ir = ir
        self.superdsc = superdsc
        self.bundle = bundle
        self.dci = dci
        self.cores = cores
        self.remarks = list(remarks)

    def __repr__(self):
        return (f"<spyre.Artifact: {len(self.superdsc['bundle'])} SuperDSCs, "
                f"{len(self.dci)} DCI descriptors, {self.cores} cores>")


def _compiler():
    from . import _spyre_compiler  # the compiler and simulator extension
    return _spyre_compiler


def compile(mlir_text, cores=32, policy="model", host_fallback=True,  # noqa: A001
            f32_matmul="host"):
    """Compiles linalg-on-tensors MLIR text for `cores` modelled cores.

    What the device cannot run stays on the host in host segments unless
    `host_fallback` is False (then it is an error); `f32_matmul="f16"`
    multiplies f32 matrices on the device in f16. The compiler's remarks and
    warnings (ops that stay on the host, ...) are issued as
    `CompileWarning`s and kept in `Artifact.remarks`."""
    result = _compiler().compile(mlir_text, cores=cores, policy=policy,
                                 host_fallback=host_fallback,
                                 f32_matmul=f32_matmul)
    remarks = _warn(result["messages"])
    return Artifact(mlir_text, result["ir"], _json.loads(result["superdsc"]),
                    result["bundle"], _json.loads(result["dci"]), cores,
                    remarks)


def run(program, inputs, *, function=None, cores=32, policy="model",
        check=False, trace=False, allow_nonfinite=False, atol=None,
        rtol=None, host_fallback=True, f32_matmul="host", model_only=False,
        numerics="dl16"):
    """Simulates `program` (text or Artifact) on numpy `inputs`.

    bf16 arguments take float32 arrays and bf16 results come back as
    float32 (numpy has no bfloat16); the conversion is the transfer's.

    numerics="dl16" (default) stores f16 on the device as DLFloat16, as the
    machine does; "ieee-f16" as IEEE binary16.

    With model_only=True nothing is computed: `inputs` may be empty, no
    outputs come back, and the statistics are the timing model's (every
    check that needs no values still runs).

    With check=True every result is compared with upstream MLIR's lowering
    of the linalg program, with the tolerances spyre-run uses (per element
    type, scaled by the output's magnitude; `atol`/`rtol` override them);
    non-finite values are mismatches unless `allow_nonfinite`."""
    if isinstance(program, Artifact):
        text, source = program.ir, program.source
    else:
        text, source = program, ""
    outputs, raw = _compiler().run(
        text, list(inputs), source=source, function=function or "",
        cores=cores, policy=policy, check=check, trace=trace,
        allow_nonfinite=allow_nonfinite, atol=atol, rtol=rtol,
        host_fallback=host_fallback, f32_matmul=f32_matmul,
        model_only=model_only, numerics=numerics)
    stats = _json.loads(raw["json"])
    stats["table"] = raw["table"]
    stats["remarks"] = _warn(raw["messages"])
    if trace:
        stats["trace"] = _json.loads(raw["trace"])
    if check:
        stats["check"] = [dict(row) for row in raw["check"]]
        stats["check_ok"] = all(row["ok"] for row in stats["check"])
        stats["reference"] = list(raw["reference"])
    return outputs, stats
