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
                  f32_matmul="host", fuse_row_blocks=True,
                  split_projections=True) -> Artifact
        Runs --spyre-pipeline on linalg-on-tensors text (as torch-mlir
        emits it) and emits the SuperDSC JSON and the DCI descriptors.
        What the device cannot run stays on the host (host segments) unless
        host_fallback=False; f32_matmul="f16" runs f32 matmuls on the
        device in f16; fuse_row_blocks=False runs softmax, norms and other
        row-wise pipelines op by op, not in row blocks through LX;
        split_projections=False keeps a matmul read only in column blocks
        (GPT-2's c_attn) whole instead of one matmul per block.
        Artifact fields: source (the text), ir (the kernel form), superdsc
        ({"bundles": [...], "sdscs": {...}}), bundles ({file name:
        bundle.mlir text}, one per bundle of kernels sharing a segment
        binding), dci (list of descriptors), cores.
    spyre.run(program, inputs, *, function=None, cores=32, check=False,
              trace=False, host_fallback=True, f32_matmul="host",
              fuse_row_blocks=True, split_projections=True,
              dynamic_size=16) -> (outputs, stats)
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

    def __init__(self, source, ir, superdsc, bundles, dci, cores, remarks=()):
        self.source = source
        self.ir = ir
        self.superdsc = superdsc
        self.bundles = bundles
        self.dci = dci
        self.cores = cores
        self.remarks = list(remarks)

    def __repr__(self):
        return (f"<spyre.Artifact: {len(self.superdsc['sdscs'])} SuperDSCs "
                f"in {len(self.bundles)} bundles, "
                f"{len(self.dci)} DCI descriptors, {self.cores} cores>")


def _compiler():
    from . import _spyre_compiler  # the compiler and simulator extension
    return _spyre_compiler


def compile(mlir_text, cores=32, policy="model", host_fallback=True,  # noqa: A001
            f32_matmul="host", fuse_row_blocks=True, split_projections=True):
    """Compiles linalg-on-tensors MLIR text for `cores` modelled cores.

    What the device cannot run stays on the host in host segments unless
    `host_fallback` is False (then it is an error); `f32_matmul="f16"`
    multiplies f32 matrices on the device in f16; `fuse_row_blocks=False`
    runs row-wise pipelines (softmax, norms) op by op instead of in row
    blocks through LX; `split_projections=False` keeps a matmul read only in
    column blocks of whole sticks (GPT-2's c_attn) whole instead of one
    matmul per block. The compiler's remarks and
    warnings (ops that stay on the host, ...) are issued as
    `CompileWarning`s and kept in `Artifact.remarks`."""
    result = _compiler().compile(mlir_text, cores=cores, policy=policy,
                                 host_fallback=host_fallback,
                                 f32_matmul=f32_matmul,
                                 fuse_row_blocks=fuse_row_blocks,
                                 split_projections=split_projections)
    remarks = _warn(result["messages"])
    return Artifact(mlir_text, result["ir"], _json.loads(result["superdsc"]),
                    result["bundles"], _json.loads(result["dci"]), cores,
                    remarks)


def run(program, inputs, *, function=None, cores=32, policy="model",
        check=False, trace=False, allow_nonfinite=False, atol=None,
        rtol=None, host_fallback=True, f32_matmul="host", model_only=False,
        numerics="dl16", fuse_row_blocks=True, split_projections=True,
        dynamic_size=16):
    """Simulates `program` (text or Artifact) on numpy `inputs`.

    A function with dynamic argument dims runs specialized to the inputs'
    shapes; with model_only=True and no inputs, every dynamic dim is
    `dynamic_size`.

    Scalar arguments take NumPy scalars (or 0-d arrays) and scalar results
    come back as 0-d arrays. Memref arguments take arrays like tensors (the
    caller's arrays are not written); what the function writes into them
    comes back after its own results, one array per memref argument.

    bf16 arguments take float32 arrays and bf16 results come back as
    float32 (numpy has no bfloat16); the conversion is the transfer's.
    One-byte types numpy has none for (fp8, E8M0, packed codes) pass as
    their raw bytes both ways: uint8 (or int8) arrays in, uint8 arrays out.

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
        model_only=model_only, numerics=numerics,
        fuse_row_blocks=fuse_row_blocks, split_projections=split_projections,
        dynamic_size=dynamic_size)
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


# ---------------------------------------------------------------------------
# Quantized tensors (TensorCast): spyre.quantize / spyre.dequantize
# ---------------------------------------------------------------------------

__all__ += ["QuantizedTensor", "quant_shapes", "quantize", "dequantize",
            "codebook"]

_QUANT_DTYPES = (
    "e4m3fn", "e5m2", "e4m3fnuz", "e5m2fnuz", "e3m2fnuz", "e2m3fnuz",
    "e2m1fnuz", "e3m2fn", "e2m3fn", "e2m1fn", "int8", "uint8", "int4", "uint4",
    "int2",
)


def _quant_spec(dtype, axis, tile, mode, scale, scale_dtype, axis2, tile2,
                multiscale, zero_point, sparsity, subtile=None,
                codebook=None, saturate=True):
    if scale is not None and not isinstance(scale, str):
        raise ValueError("scale must be a name (mx, tensor, channel, tile, "
                         "matrix) or None")
    if codebook is not None:
        import numpy as np

        codebook = [float(v) for v in
                    np.asarray(codebook, dtype=np.float64).reshape(-1)]
    return dict(dtype=str(dtype), axis=int(axis), tile=int(tile),
                mode=str(mode), scale=scale, scale_dtype=scale_dtype,
                axis2=int(axis2), tile2=int(tile2),
                multiscale=bool(multiscale),
                zero_point=(zero_point if isinstance(zero_point, str)
                            else bool(zero_point)),
                sparsity=None if sparsity is None else int(sparsity),
                subtile=0 if subtile is None else int(subtile),
                codebook=codebook, saturate=bool(saturate))


class QuantizedTensor:
    """A tensor with its scales and metadata (TensorCast's tcast.Tensor).

    Attributes (numpy arrays, None when the scheme has no such companion):
        data      the quantized values: float32 fake-quantized values
                  (mode "virtual"), the actual dtype's raw values
                  ("actual": fp8 bits as uint8, ints as int8/uint8) or the
                  packed bytes ("compressed": 4-bit values two per byte,
                  2-bit four per byte, low bits first, pruned values left out)
        scale     one scale per tile (float32, float16, bfloat16 as uint16
                  bits, float8_e4m3fn or float8_e8m0fnu as uint8 bits)
        zero      zero points (asymmetric integers; packed when compressed)
        tenscale  the tensor scale of multiscale (0-d float32)
        meta      codebook metadata: the mapping of each tile or subtile
                  (uint8; compressed, each tile's meta bits packed into
                  (meta_bits * subtiles + 7) // 8 bytes, low bits first)
        mask      the sparsity mask (bool; packed 8 per byte when compressed)
    shape, dtype, mode: the original shape, the quantized dtype, the cast mode.
    shapes: per companion {shape, dtype, compressed_shape, compressed_dtype}.
    bits_per_value: bytes of the compressed tensor and its companions, in
        bits per value (MXFP4: 4.25).
    """

    def __init__(self, shape, spec, parts):
        self.shape = tuple(shape)
        self._spec = spec
        self.dtype = spec["dtype"]
        self.mode = spec["mode"]
        for name in ("data", "scale", "zero", "tenscale", "meta", "mask"):
            setattr(self, name, parts[name])
        self.shapes = parts["shapes"]
        self.bits_per_value = parts["bits_per_value"]

    def dequantize(self):
        return dequantize(self)

    def layouts(self, stick_bytes=DEFAULT_STICK_BYTES):
        """The Spyre layout of each stored companion (None for 0-d ones).

        Every companion puts its stick on the scaled (and packed) dim, so that
        a stick of data and the scales that belong to it line up (a 128-byte
        stick of MXFP4 data holds 256 values and 8 scales); one-byte types
        numpy lacks are laid out as their int8 bits."""
        axis = self._spec["axis"] % max(len(self.shape), 1)
        out = {}
        for name in ("data", "scale", "zero", "meta", "mask"):
            array = getattr(self, name)
            if array is None or array.ndim == 0:
                out[name] = None
                continue
            order = [d for d in range(array.ndim) if d != axis] + [axis]
            dtype = array.dtype
            if dtype.itemsize == 1 and dtype.kind == "u":
                dtype = "int8"
            out[name] = SpyreTensorLayout(list(array.shape), dtype, order,
                                          stick_bytes=stick_bytes)
        return out

    def __repr__(self):
        return (f"QuantizedTensor(shape={self.shape}, dtype={self.dtype!r}, "
                f"mode={self.mode!r}, bits_per_value="
                f"{self.bits_per_value:.4g})")


def quant_shapes(shape, dtype, axis=-1, tile=32, mode="compressed",
                 scale="mx", *, scale_dtype=None, axis2=-2, tile2=32,
                 multiscale=False, zero_point=False, sparsity=None,
                 subtile=None, codebook=None,
                 stick_bytes=DEFAULT_STICK_BYTES):
    """The shapes and dtypes of every companion of a quantized tensor of
    `shape`, without data: {name: {shape, dtype, compressed_shape,
    compressed_dtype} or None, "bits_per_value", "compressed_bytes",
    "tile_shape", "sticks": {values_per_stick, scales_per_stick} (or why the
    tiles do not fit the sticks)}. Arguments as for quantize()."""
    from ._spyre import _quant_shapes

    spec = _quant_spec(dtype, axis, tile, mode, scale, scale_dtype, axis2,
                       tile2, multiscale, zero_point, sparsity, subtile,
                       codebook)
    return _quant_shapes([int(d) for d in shape], int(stick_bytes), **spec)


def quantize(array, dtype, axis=-1, tile=32, mode="compressed", scale="mx",
             *, scale_dtype=None, axis2=-2, tile2=32, multiscale=False,
             zero_point=False, sparsity=None, subtile=None, codebook=None,
             scales=None, saturate=True):
    """Quantizes a float array (read as float32) to a QuantizedTensor.

    dtype: e4m3fn, e5m2, e4m3fnuz, e5m2fnuz (fp8); e3m2fnuz, e2m3fnuz,
        e3m2fn, e2m3fn (fp6); e2m1fnuz, e2m1fn (fp4); int8, uint8, int4,
        uint4, int2.
    scale: "mx" (OCP MX: blocks of 32 along `axis`, E8M0 scales; MXFP8,
        MXFP6, MXFP4 and MXINT8), "tile" (tiles of `tile` along `axis`),
        "matrix" (`tile` along `axis` by `tile2` along `axis2`), "channel"
        (one scale per slice along `axis`), "tensor", or None (unscaled;
        float dtypes only).
    mode: "virtual" (quantize-dequantize, float32 out), "actual" (the
        smallest standard dtype holding the values; fp6/fp4 in fp8) or
        "compressed" (packed, pruned values omitted).
    scale_dtype: float32 (default; float8_e8m0fnu for mx), float16,
        bfloat16, float8_e4m3fn, float8_e8m0fnu.
    multiscale: also a float32 tensor scale (tenscale).
    zero_point: asymmetric integers with a zero point per scale (uint4
        needs them): True for integer zero points (codes of `dtype`, packed
        like the data), or a float dtype name ("float32", "float16",
        "bfloat16") for float zero points of that type, one per scale and
        not rounded to an integer (GPTQ-style int4 weights).
    sparsity: None, 25 or 50: structured 1-D sparsity along `axis`, the
        largest magnitudes of each group of 4 kept.
    Codebooks: dtype "cb<index_bits><meta_bits>[<desc>]_<compute>[_<label>]"
        (TensorCast's codes, e.g. "cb42f1346_e2m3fnuz"; see codebook()):
        the data are indices into the mapping the meta selects per tile,
        or per `subtile` values along `axis`; a generic codebook (no desc)
        takes its mappings as `codebook` (2^meta_bits x 2^index_bits values
        of the compute type).
    scales: scales chosen by the caller instead of found, a dict of the
        scheme's "scale", "zero" and "tenscale" arrays as quantize returns
        them (PyTorch's quantize_per_tensor: scale="tensor",
        zero_point=True, scales={"scale": np.float32([[s]]),
        "zero": np.int8([[z]])}); each
        value's quotient by its scale is rounded to float32 first.
    saturate: values beyond the format's range saturate (True, OCP MX's
        conversion) or, for fp8 (False), overflow to NaN (e4m3fn) or
        infinity (e5m2) as a cast does (MLIR's truncf / scaling_truncf).
    Bad arguments raise ValueError with the library's message.
    """
    import numpy as np

    from ._spyre import _quantize

    spec = _quant_spec(dtype, axis, tile, mode, scale, scale_dtype, axis2,
                       tile2, multiscale, zero_point, sparsity, subtile,
                       codebook, saturate)
    values = np.ascontiguousarray(np.asarray(array, dtype=np.float32))
    return QuantizedTensor(values.shape, spec,
                           _quantize(values, given=scales, **spec))


def dequantize(q):
    """The float32 values a QuantizedTensor stands for, read back from its
    stored arrays (unpacked, pruned zeros reinstated, scales applied)."""
    from ._spyre import _dequantize

    if not isinstance(q, QuantizedTensor):
        raise ValueError("dequantize takes a QuantizedTensor (from "
                         "spyre.quantize)")
    return _dequantize(list(q.shape), q.data, q.scale, q.zero, q.tenscale,
                       q.meta, q.mask, **q._spec)


def codebook(code, mappings=None):
    """A TensorCast codebook: {"index_bits", "meta_bits", "compute",
    "mappings"} with the mappings as a float64 array of 2^meta_bits rows of
    2^index_bits values (index 0 is 0.0, 1 .. 2^(n-1)-1 the pattern's
    positive values ascending, 2^(n-1) + k the negative of k). Implicit
    codebooks build them from their desc; a generic one takes `mappings`."""
    import numpy as np

    from ._spyre import _codebook

    if mappings is not None:
        mappings = [float(v) for v in
                    np.asarray(mappings, dtype=np.float64).reshape(-1)]
    out = _codebook(str(code), mappings)
    out["mappings"] = np.asarray(out["mappings"], dtype=np.float64).reshape(
        1 << out["meta_bits"], 1 << out["index_bits"])
    return out
