#!/usr/bin/env python3
"""Quantized weights: a Llama-2-7B MLP at decode sizes, in one run.

    /usr/bin/python3 bench/quantized.py [--build build] [--quick] [--json F]

The MLP (hidden 4096, intermediate 11008: gate and up projections, SiLU,
their product, the down projection; weights stored [out, in] as PyTorch
stores them) at batch 1, 4 and 8, with its three weights held six ways:
f16, MXFP4 (e2m1fn data packed two to a byte, an E8M0 scale per 32), int8
with a float32 scale and an int8 zero point per output channel, fp8
e4m3fn with a float32 scale per output channel, and GPTQ-style uint4
(packed two to a byte, an f16 scale and an f16 float zero point per group
of 128 along the input dim), and a TensorCast codebook (4-bit indices into
one of four mappings chosen per 8 values, an E8M0 scale per 32). The
quantized programs
dequantize with `spyre.dequantize` before each matmul, which the compiler
turns into a scaled matmul reading the stored parts.

For each: the modelled time (`spyre-run --model-only`), the speed-up over
the f16 weights at the same batch, the DDR traffic, and the weights' bytes
in device memory per weight value (from the compiled signature's layouts:
whole sticks, padding included). Ratios only; every figure is modelled.
"""

import argparse
import json
import os
import re
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))
import programs  # noqa: E402

HIDDEN, INTERMEDIATE = 4096, 11008
# The weight-bound decode MLP should gain close to the weight bytes saved.
MXFP4_SPEEDUP_TARGET = 2.5  # over f16 weights, batch 1
INT8_SPEEDUP_TARGET = 1.6

SCHEMES = {
    # name: (quant attribute or None, parts(rows, cols) -> [(shape, type)])
    "f16": (None, lambda r, c: [([r, c], "f16")]),
    "mxfp4": ("#spyre.quant<format = e2m1fn, scaling = mx>",
              lambda r, c: [([r, c // 2], "i8"),
                            ([r, c // 32], "f8E8M0FNU")]),
    "int8-channel-zero": (
        "#spyre.quant<format = int8, scaling = channel, zero_point = true>",
        lambda r, c: [([r, c], "i8"), ([r, 1], "f32"), ([r, 1], "i8")]),
    "fp8-channel": ("#spyre.quant<format = e4m3fn, scaling = channel>",
                    lambda r, c: [([r, c], "f8E4M3FN"), ([r, 1], "f32")]),
    "uint4-g128-fzero": (
        "#spyre.quant<format = uint4, scaling = tile, tile = 128, "
        "scale_type = float16, zero_point = true, zero_type = float16>",
        lambda r, c: [([r, c // 2], "i8"), ([r, c // 128], "f16"),
                      ([r, c // 128], "f16")]),
    # TensorCast's cb42f1346 codebook over e2m3fnuz: 4-bit indices into one
    # of four 16-entry mappings, chosen per 8 values (a tile's four 2-bit
    # choices in one meta byte), and an E8M0 scale per 32.
    "codebook-cb42-mx": (
        "#spyre.quant<format = e2m3fnuz, scaling = mx, "
        "codebook = \"cb42f1346_e2m3fnuz\", subtile = 8>",
        lambda r, c: [([r, c // 2], "i8"), ([r, c // 32], "f8E8M0FNU"),
                      ([r, c // 32], "i8")]),
}


def tensor(shape, element):
    return f"tensor<{'x'.join(str(d) for d in shape)}x{element}>"


def mlp(batch, scheme):
    quant, parts = SCHEMES[scheme]
    x = tensor([batch, HIDDEN], "f16")
    args = [f"%x: {x}"]
    body = []
    weights = {}
    for name, rows, cols in (("g", INTERMEDIATE, HIDDEN),
                             ("u", INTERMEDIATE, HIDDEN),
                             ("d", HIDDEN, INTERMEDIATE)):
        names = []
        for i, (shape, element) in enumerate(parts(rows, cols)):
            arg = f"%{name}{i}"
            args.append(f"{arg}: {tensor(shape, element)}")
            names.append((arg, tensor(shape, element)))
        w = tensor([rows, cols], "f16")
        if quant is None:
            weights[name] = names[0][0]
            continue
        body.append(
            f"  %{name} = spyre.dequantize "
            f"{', '.join(a for a, _ in names)} {{quant = {quant}}} : "
            f"{', '.join(t for _, t in names)} -> {w}")
        weights[name] = f"%{name}"
    h = tensor([batch, INTERMEDIATE], "f16")
    y = tensor([batch, HIDDEN], "f16")
    wi = tensor([INTERMEDIATE, HIDDEN], "f16")
    wd = tensor([HIDDEN, INTERMEDIATE], "f16")
    ew = ("affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>"
          ", affine_map<(d0, d1) -> (d0, d1)>")
    body.append(f"""  %zero = arith.constant 0.0 : f16
  %one = arith.constant 1.0 : f16
  %eh = tensor.empty() : {h}
  %zh = linalg.fill ins(%zero : f16) outs(%eh : {h}) -> {h}
  %gate = linalg.matmul_transpose_b ins(%x, {weights['g']} : {x}, {wi}) outs(%zh : {h}) -> {h}
  %up = linalg.matmul_transpose_b ins(%x, {weights['u']} : {x}, {wi}) outs(%zh : {h}) -> {h}
  %act = linalg.generic {{indexing_maps = [{ew}], iterator_types = ["parallel", "parallel"]}} ins(%gate, %up : {h}, {h}) outs(%eh : {h}) {{
  ^bb0(%a: f16, %b: f16, %o: f16):
    %n = arith.negf %a : f16
    %e = math.exp %n : f16
    %den = arith.addf %e, %one : f16
    %s = arith.divf %a, %den : f16
    %p = arith.mulf %s, %b : f16
    linalg.yield %p : f16
  }} -> {h}
  %ey = tensor.empty() : {y}
  %zy = linalg.fill ins(%zero : f16) outs(%ey : {y}) -> {y}
  %out = linalg.matmul_transpose_b ins(%act, {weights['d']} : {h}, {wd}) outs(%zy : {y}) -> {y}
  return %out : {y}""")
    return (f"func.func @mlp({', '.join(args)}) -> {y} {{\n" +
            "\n".join(body) + "\n}\n")


LAYOUT = re.compile(r"tensor<([0-9x]+)x(\w+), #spyre\.layout<device_size = "
                    r"\[([0-9, ]+)\]")
BYTES = {"f16": 2, "bf16": 2, "f32": 4, "i8": 1, "f8E4M3FN": 1,
         "f8E8M0FNU": 1}


def weight_device_bytes(kernel_form):
    """Device bytes of every argument but the first (the weights' parts),
    from the laid-out signature of @mlp."""
    signature = kernel_form[kernel_form.index("func.func @mlp"):]
    signature = signature[:signature.index("->")]
    layouts = LAYOUT.findall(signature)
    total = 0
    for _, element, device in layouts[1:]:
        count = 1
        for d in device.split(","):
            count *= int(d)
        total += count * BYTES[element]
    return total


def measure(bin_dir, tmp, batch, scheme):
    """programs.measure's figures (spyre-opt --spyre-pipeline, then
    spyre-run --model-only), and from the kernel form it leaves beside the
    source: the scaled matmuls and the weights' device bits per value."""
    name = f"mlp-b{batch}-{scheme}"
    row = programs.measure(bin_dir, tmp, name, mlp(batch, scheme),
                           pipeline="arg-layouts=auto")
    with open(os.path.join(tmp, name + ".kernels.mlir")) as f:
        form = f.read()
    weights = 2 * INTERMEDIATE * HIDDEN + HIDDEN * INTERMEDIATE
    row.update(batch=batch, scheme=scheme,
               scaled_matmuls=form.count("spyre.scaled_matmul"),
               weight_bits=8.0 * weight_device_bytes(form) / weights)
    return row


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--quick", action="store_true", help="batch 1 only")
    parser.add_argument("--json")
    args = parser.parse_args()
    bin_dir = os.path.join(args.build, "bin")
    batches = [1] if args.quick else [1, 4, 8]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for batch in batches:
            for scheme in SCHEMES:
                rows.append(measure(bin_dir, tmp, batch, scheme))
    base = {r["batch"]: r["modelled_us"] for r in rows if r["scheme"] == "f16"}
    for r in rows:
        r["speedup"] = base[r["batch"]] / r["modelled_us"]
    header = (f"{'batch':>5} | {'weights':<18} | {'scaled mm':>9} | "
              f"{'modelled us':>11} | {'vs f16':>7} | {'DDR MB':>8} | "
              f"{'bits/weight':>11} | {'program util':>12}")
    print(f"Llama-2-7B MLP ({HIDDEN} -> {INTERMEDIATE} -> {HIDDEN}), "
          "spyre-run --model-only, 32 modelled cores")
    print(header)
    print("-" * len(header))
    for r in rows:
        print(f"{r['batch']:>5} | {r['scheme']:<18} | "
              f"{r['scaled_matmuls']:>9} | {r['modelled_us']:>11.1f} | "
              f"{r['speedup']:>6.2f}x | {r['ddr_mb']:>8.1f} | "
              f"{r['weight_bits']:>11.3f} | {r['utilisation'] * 100:>11.1f}%")
    print()
    for scheme, target in (("mxfp4", MXFP4_SPEEDUP_TARGET),
                           ("int8-channel-zero", INT8_SPEEDUP_TARGET)):
        got = [r["speedup"] for r in rows
               if r["scheme"] == scheme and r["batch"] == 1][0]
        print(f"target: {scheme} weights >= {target}x faster than f16 at "
              f"batch 1: {got:.2f}x ({'met' if got >= target else 'NOT met'})")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"rows": rows}, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
