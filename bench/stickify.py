#!/usr/bin/env python3
"""Stickify / unstickify throughput of the `spyre` module against memcpy and
NumPy.

    PYTHONPATH=build/python /usr/bin/python3 bench/stickify.py [--json FILE]

For every case, in one run and on the same host tensor, this measures:

  memcpy        ctypes.memmove of the host tensor's bytes between two
                preallocated buffers (the floor: what a plain copy costs)
  stickify      layout.to_device(x, out=device)          (preallocated)
  unstickify    layout.from_device(device, out=host)     (preallocated)
  st np.empty   stickify into a device buffer aligned like np.empty's (16
                bytes, not 64): sticks then straddle cache lines, so no
                streaming stores
  st 1t ...     stickify/unstickify with threads=1 (the defaults use every
                hardware thread for transfers of 8 MiB or more; memcpy and
                NumPy are single-threaded)
  numpy stick   the same conversion in NumPy, its best case: slice into a
                preallocated padded buffer (only when the stick dim needs
                padding), reshape, transpose, np.copyto into a preallocated
                output
  numpy recipe  the issue's recipe as written: np.pad, reshape, transpose,
                copy (allocating, as everyday NumPy code does); the target
                ratio is measured against this one
  numpy unstick the inverse, the same way

Device buffers come from layout.empty_device() (stick-aligned, 128 bytes, as
device tensors are); host and memcpy buffers are 128-byte aligned too, and
NumPy gets the same buffers.

Throughput is host tensor bytes / time (GB/s, 1e9 bytes). Each measurement
is warmed up first and repeated; the tables show the median time, the JSON
file both the median and the best. Two tables: "cold", the measurements
interleaved round by round (each runs after the others have swept the
caches), and "hot", each measurement repeated back to back. Before timing,
spyre's results are checked bit for bit against NumPy's, so both sides do
the same work. Timings are reported, never asserted.
"""

import argparse
import ctypes
import json
import math
import os
import platform
import statistics
import sys
import time

import numpy as np

import spyre

CASES = [
    # (name, host size, dtype, dim_order)
    ("f16 [4096,4096] default", [4096, 4096], np.float16, None),
    ("f16 [4096,4096] dim_order [1,0]", [4096, 4096], np.float16, [1, 0]),
    ("f32 [1000,1000] default", [1000, 1000], np.float32, None),
]

TARGET_VS_MEMCPY = 0.8
TARGET_VS_NUMPY = 3.0


class NumpyStickify:
    """The generic stick layout in NumPy, with preallocated buffers.

    Device dims = [o1, ..., o(n-2), ceil(size[o(n-1)] / eps), o0, eps]
    """

    def __init__(self, size, dtype, dim_order, eps, pad=0):
        n = len(size)
        order = list(range(n)) if dim_order is None else list(dim_order)
        stick = order[-1]
        sticks = math.ceil(size[stick] / eps)
        self.padded_shape = list(size)
        self.padded_shape[stick] = sticks * eps
        self.needs_padding = self.padded_shape != list(size)
        self.padded = (np.full(self.padded_shape, pad, dtype)
                       if self.needs_padding else None)
        self.data = tuple(slice(0, s) for s in size)
        self.pad_region = tuple(
            slice(size[stick], None) if d == stick else slice(None)
            for d in range(n))
        self.pad = pad
        self.split_shape = (list(size[:stick]) + [sticks, eps] +
                            list(size[stick + 1:]))

        def axis(h):
            return h if h < stick else h + 1

        if n == 1:
            self.perm = [0, 1]
        else:
            self.perm = ([axis(h) for h in order[1:-1]] +
                         [stick, axis(order[0])] + [stick + 1])
        self.inverse = list(np.argsort(self.perm))
        self.device_shape = [self.split_shape[p] for p in self.perm]

    def to_device(self, x, out):
        if self.needs_padding:
            self.padded[self.data] = x
            self.padded[self.pad_region] = self.pad
            src = self.padded
        else:
            src = x
        np.copyto(out, src.reshape(self.split_shape).transpose(self.perm))
        return out

    def to_device_literal(self, x):
        """The recipe as written: pad, reshape, transpose, copy (each call
        allocates its results, as everyday NumPy code does)."""
        widths = [(0, p - s) for p, s in zip(self.padded_shape, x.shape)]
        padded = np.pad(x, widths, constant_values=self.pad)
        return padded.reshape(self.split_shape).transpose(self.perm).copy()

    def from_device(self, device, out):
        if self.needs_padding:
            np.copyto(self.padded.reshape(self.split_shape),
                      device.transpose(self.inverse))
            np.copyto(out, self.padded[self.data])
        else:
            np.copyto(out.reshape(self.split_shape),
                      device.transpose(self.inverse))
        return out


def aligned_empty(shape, dtype, align=128):
    """An uninitialised C-contiguous array whose data is `align`-aligned."""
    dtype = np.dtype(dtype)
    nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    raw = np.empty(nbytes + align, np.uint8)
    start = (-raw.ctypes.data) % align
    return raw[start:start + nbytes].view(dtype).reshape(shape)


def same_bits(a, b):
    return (a.shape == b.shape and a.dtype == b.dtype and
            np.array_equal(a.view(np.uint8), b.view(np.uint8)))


def run_case(name, size, dtype, dim_order, reps, warmup, rng):
    dtype = np.dtype(dtype)
    x = aligned_empty(size, dtype)
    x[...] = rng.standard_normal(size)
    layout = spyre.SpyreTensorLayout(size, dtype, dim_order)
    ref = NumpyStickify(size, dtype, dim_order, layout.elems_per_stick)
    assert ref.device_shape == layout.device_size, (ref.device_shape,
                                                    layout.device_size)
    nbytes = x.nbytes

    device = layout.empty_device()
    device_np = layout.empty_device()
    host = aligned_empty(size, dtype)
    host_np = aligned_empty(size, dtype)
    copy_src = aligned_empty([nbytes], np.uint8)
    copy_src[...] = x.view(np.uint8).ravel()
    copy_dst = aligned_empty([nbytes], np.uint8)
    # A device buffer as np.empty gives it: 16-byte aligned at best; force
    # "16 mod 64" so the measurement does not depend on malloc's luck.
    raw = np.empty(layout.device_bytes + 128, np.uint8)
    start = (-raw.ctypes.data) % 64 + 16
    device_unaligned = raw[start:start + layout.device_bytes].view(
        dtype).reshape(layout.device_size)

    # Apples to apples: both sides produce the same bits.
    layout.to_device(x, out=device)
    ref.to_device(x, device_np)
    if not same_bits(device, device_np):
        raise SystemExit(f"{name}: spyre stickify differs from numpy")
    layout.from_device(device, out=host)
    ref.from_device(device_np, host_np)
    if not (same_bits(host, x) and same_bits(host_np, x)):
        raise SystemExit(f"{name}: unstickify does not round-trip")
    layout.to_device(x, out=device_unaligned)
    if not same_bits(device_unaligned, device):
        raise SystemExit(f"{name}: stickify depends on the buffer alignment")

    src_ptr, dst_ptr = copy_src.ctypes.data, copy_dst.ctypes.data
    fns = {
        "memcpy": lambda: ctypes.memmove(dst_ptr, src_ptr, nbytes),
        "stickify": lambda: layout.to_device(x, out=device),
        "stickify_1t": lambda: layout.to_device(x, out=device, threads=1),
        "stickify_unaligned": lambda: layout.to_device(
            x, out=device_unaligned),
        "numpy_stickify": lambda: ref.to_device(x, device_np),
        "numpy_stickify_literal": lambda: ref.to_device_literal(x),
        "unstickify": lambda: layout.from_device(device, out=host),
        "unstickify_1t": lambda: layout.from_device(device, out=host,
                                                    threads=1),
        "numpy_unstickify": lambda: ref.from_device(device_np, host_np),
    }
    result = {"case": name, "size": size, "dtype": dtype.name,
              "dim_order": dim_order, "device_size": layout.device_size,
              "host_bytes": nbytes, "device_bytes": layout.device_bytes,
              "modes": {}}
    for mode in MODES:
        result["modes"][mode] = measure(fns, nbytes, reps, warmup,
                                        interleaved=(mode == "cold"))
    return result


# cold: the measurements are interleaved round by round, so each one runs
#       after the others have streamed ~200 MB through the caches (and slow
#       phases of a shared machine hit every column alike).
# hot:  each measurement repeats back to back (its buffers stay in whatever
#       cache level holds them).
MODES = ("cold", "hot")


def measure(fns, nbytes, reps, warmup, interleaved):
    samples = {k: [] for k in fns}

    def once(key):
        t0 = time.perf_counter()
        fns[key]()
        samples[key].append(time.perf_counter() - t0)

    if interleaved:
        for fn in fns.values():
            for _ in range(warmup):
                fn()
        for _ in range(reps):
            for key in fns:
                once(key)
    else:
        for key, fn in fns.items():
            for _ in range(warmup):
                fn()
            for _ in range(reps):
                once(key)
    out = {"median_s": {}, "best_s": {}, "gbps": {}, "gbps_best": {}}
    for key, times in samples.items():
        med, best = statistics.median(times), min(times)
        out["median_s"][key] = med
        out["best_s"][key] = best
        out["gbps"][key] = nbytes / med / 1e9
        out["gbps_best"][key] = nbytes / best / 1e9
    out["ratios"] = ratios(out["gbps"])
    out["ratios_best"] = ratios(out["gbps_best"])
    return out


def ratios(g):
    return {
        "stickify/memcpy": g["stickify"] / g["memcpy"],
        "stickify/numpy": g["stickify"] / g["numpy_stickify"],
        "unstickify/memcpy": g["unstickify"] / g["memcpy"],
        "unstickify/numpy": g["unstickify"] / g["numpy_unstickify"],
        "stickify_unaligned/memcpy": g["stickify_unaligned"] / g["memcpy"],
        "stickify/numpy_literal": g["stickify"] / g["numpy_stickify_literal"],
        "stickify_1t/memcpy": g["stickify_1t"] / g["memcpy"],
        "stickify_1t/numpy": g["stickify_1t"] / g["numpy_stickify"],
        "unstickify_1t/memcpy": g["unstickify_1t"] / g["memcpy"],
    }


COLUMNS = [("case", 32), ("memcpy", 7), ("stick", 7), ("np stick", 8),
           ("unstick", 7), ("np unst", 7), ("st/memcpy", 9), ("st/np", 6),
           ("un/memcpy", 9), ("un/np", 6), ("st np.empty", 11),
           ("st 1t", 6), ("st1t/memcpy", 11), ("st1t/np", 7),
           ("un1t/memcpy", 11), ("np recipe", 9), ("st/recipe", 9)]


def format_row(cells):
    return " | ".join(f"{c:<{w}}" if i == 0 else f"{c:>{w}}"
                      for i, (c, (_, w)) in enumerate(zip(cells, COLUMNS)))


def print_table(results, mode, key, title):
    print(title)
    header = format_row([c for c, _ in COLUMNS])
    print(header)
    print("-" * len(header))
    for r in results:
        m = r["modes"][mode]
        g = m[key]
        q = m["ratios" if key == "gbps" else "ratios_best"]
        cells = ([r["case"]] +
                 [f"{g[k]:.2f}" for k in ("memcpy", "stickify",
                                          "numpy_stickify", "unstickify",
                                          "numpy_unstickify")] +
                 [f"{q[k]:.2f}x" for k in ("stickify/memcpy",
                                           "stickify/numpy",
                                           "unstickify/memcpy",
                                           "unstickify/numpy")] +
                 [f"{g['stickify_unaligned']:.2f}",
                  f"{g['stickify_1t']:.2f}"] +
                 [f"{q[k]:.2f}x" for k in ("stickify_1t/memcpy",
                                           "stickify_1t/numpy",
                                           "unstickify_1t/memcpy")] +
                 [f"{g['numpy_stickify_literal']:.2f}",
                  f"{q['stickify/numpy_literal']:.2f}x"])
        print(format_row(cells))
    print()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", metavar="FILE",
                        help="also write the figures to FILE")
    parser.add_argument("--reps", type=int, default=21,
                        help="timed repetitions per measurement (default 21)")
    parser.add_argument("--warmup", type=int, default=3,
                        help="untimed warm-up runs (default 3)")
    args = parser.parse_args(argv)

    rng = np.random.default_rng(0)
    results = [run_case(name, size, dtype, order, args.reps, args.warmup, rng)
               for name, size, dtype, order in CASES]

    print(f"spyre stickify benchmark: median of {args.reps} reps after "
          f"{args.warmup} warm-ups; GB/s = host tensor bytes / time / 1e9")
    print(f"python {platform.python_version()}, numpy {np.__version__}, "
          f"{platform.machine()}, {os.cpu_count()} cpus")
    print("st = spyre stickify (to_device, out=), un = spyre unstickify "
          "(from_device, out=), np = NumPy;")
    print("st np.empty = stickify into a device buffer that is only "
          "16-byte aligned")
    print(f"stick/unstick use every hardware thread ({os.cpu_count()}) for "
          "transfers >= 8 MiB; '1t' columns are the same call with threads=1;")
    print("memcpy and NumPy are single-threaded; 'np stick' is NumPy's best "
          "case (preallocated buffers, np.copyto),")
    print("'np recipe' the issue's recipe as written: np.pad, reshape, "
          "transpose, copy (allocating)")
    print()
    print_table(results, "cold", "gbps",
                "cold caches (measurements interleaved), GB/s:")
    print_table(results, "hot", "gbps",
                "hot caches (each measurement back to back), GB/s:")
    print(f"targets (default layouts): stickify >= {TARGET_VS_MEMCPY}x memcpy "
          f"and >= {TARGET_VS_NUMPY}x numpy")
    for r in results:
        if r["dim_order"] is not None:
            continue
        for mode in MODES:
            q = r["modes"][mode]["ratios"]
            vs_memcpy = q["stickify/memcpy"] >= TARGET_VS_MEMCPY
            vs_numpy = q["stickify/numpy_literal"] >= TARGET_VS_NUMPY
            print(f"  {r['case']:<24} {mode:>4}: "
                  f"{q['stickify/memcpy']:.2f}x memcpy "
                  f"({'met' if vs_memcpy else 'NOT met'}), "
                  f"{q['stickify/numpy_literal']:.2f}x numpy recipe "
                  f"({'met' if vs_numpy else 'NOT met'}), "
                  f"{q['stickify/numpy']:.2f}x numpy best case; one thread: "
                  f"{q['stickify_1t/memcpy']:.2f}x memcpy, "
                  f"{q['stickify_1t/numpy']:.2f}x numpy")

    if args.json:
        with open(args.json, "w") as f:
            json.dump({"reps": args.reps, "warmup": args.warmup,
                       "python": platform.python_version(),
                       "numpy": np.__version__,
                       "targets": {"stickify/memcpy": TARGET_VS_MEMCPY,
                                   "stickify/numpy": TARGET_VS_NUMPY},
                       "results": results}, f, indent=2)
        print(f"\nwrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
