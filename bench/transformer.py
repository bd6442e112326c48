#!/usr/bin/env python3
"""Generates transformer-encoder stacks in the linalg form torch-mlir emits.

    /usr/bin/python3 bench/transformer.py --layers 8 > model.mlir

Each layer: LayerNorm, self-attention (q/k/v projections with bias, head
split, q @ k^T scaled, softmax, p @ v, head merge, output projection),
residual add, LayerNorm, GELU MLP, residual add. Used by the compile-time
benchmark; the shapes are static and small (compile time depends on the op
count, not on the sizes).
"""

import argparse
import sys


def layer(i, x, s, d, h, f):
    dh = d // h
    t = f"tensor<{s}x{d}xf16>"
    lines = []
    emit = lines.append
    p = f"l{i}_"

    def ln(src, w, b, out):
        emit(f"  %{out}_sum = linalg.generic {{indexing_maps = [#id, #row], "
             f"iterator_types = [\"parallel\", \"reduction\"]}} ins(%{src} : {t}) "
             f"outs(%racc : tensor<{s}xf16>) {{")
        emit("  ^bb0(%v: f16, %acc: f16):")
        emit("    %r = arith.addf %v, %acc : f16")
        emit("    linalg.yield %r : f16")
        emit(f"  }} -> tensor<{s}xf16>")
        emit(f"  %{out}_c = linalg.generic {{indexing_maps = [#id, #row, #id], "
             f"iterator_types = [\"parallel\", \"parallel\"]}} "
             f"ins(%{src}, %{out}_sum : {t}, tensor<{s}xf16>) outs(%e{d} : {t}) {{")
        emit("  ^bb0(%v: f16, %m: f16, %o: f16):")
        emit("    %mean = arith.mulf %m, %inv_d : f16")
        emit("    %r = arith.subf %v, %mean : f16")
        emit("    linalg.yield %r : f16")
        emit(f"  }} -> {t}")
        emit(f"  %{out}_var = linalg.generic {{indexing_maps = [#id, #row], "
             f"iterator_types = [\"parallel\", \"reduction\"]}} ins(%{out}_c : {t}) "
             f"outs(%racc : tensor<{s}xf16>) {{")
        emit("  ^bb0(%v: f16, %acc: f16):")
        emit("    %q = arith.mulf %v, %v : f16")
        emit("    %r = arith.addf %q, %acc : f16")
        emit("    linalg.yield %r : f16")
        emit(f"  }} -> tensor<{s}xf16>")
        emit(f"  %{out} = linalg.generic {{indexing_maps = [#id, #row, #col, #col, #id], "
             f"iterator_types = [\"parallel\", \"parallel\"]}} "
             f"ins(%{out}_c, %{out}_var, %{w}, %{b} : {t}, tensor<{s}xf16>, "
             f"tensor<{d}xf16>, tensor<{d}xf16>) outs(%e{d} : {t}) {{")
        emit("  ^bb0(%v: f16, %q: f16, %wv: f16, %bv: f16, %o: f16):")
        emit("    %var = arith.mulf %q, %inv_d : f16")
        emit("    %ve = arith.addf %var, %eps : f16")
        emit("    %rs = math.rsqrt %ve : f16")
        emit("    %n = arith.mulf %v, %rs : f16")
        emit("    %sc = arith.mulf %n, %wv : f16")
        emit("    %r = arith.addf %sc, %bv : f16")
        emit("    linalg.yield %r : f16")
        emit(f"  }} -> {t}")

    def linear(src, w, b, out, k, n):
        emit(f"  %{out}_mm = linalg.matmul ins(%{src}, %{w} : tensor<{s}x{k}xf16>, "
             f"tensor<{k}x{n}xf16>) outs(%acc{n} : tensor<{s}x{n}xf16>) -> tensor<{s}x{n}xf16>")
        emit(f"  %{out} = linalg.generic {{indexing_maps = [#id, #col, #id], "
             f"iterator_types = [\"parallel\", \"parallel\"]}} "
             f"ins(%{out}_mm, %{b} : tensor<{s}x{n}xf16>, tensor<{n}xf16>) "
             f"outs(%e{n} : tensor<{s}x{n}xf16>) {{")
        emit("  ^bb0(%a: f16, %bb: f16, %o: f16):")
        emit("    %r = arith.addf %a, %bb : f16")
        emit("    linalg.yield %r : f16")
        emit(f"  }} -> tensor<{s}x{n}xf16>")

    ln(x, f"{p}ln1w", f"{p}ln1b", f"{p}ln1")
    for name in ("q", "k", "v"):
        linear(f"{p}ln1", f"{p}w{name}", f"{p}b{name}", f"{p}{name}", d, d)
        emit(f"  %{p}{name}3 = tensor.expand_shape %{p}{name} [[0], [1, 2]] "
             f"output_shape [{s}, {h}, {dh}] : {t} into tensor<{s}x{h}x{dh}xf16>")
        emit(f"  %{p}{name}h = linalg.transpose ins(%{p}{name}3 : tensor<{s}x{h}x{dh}xf16>) "
             f"outs(%eh : tensor<{h}x{s}x{dh}xf16>) permutation = [1, 0, 2]")
    emit(f"  %{p}sc0 = linalg.batch_matmul indexing_maps = [#qk_a, #qk_b, #qk_c] "
         f"ins(%{p}qh, %{p}kh : tensor<{h}x{s}x{dh}xf16>, tensor<{h}x{s}x{dh}xf16>) "
         f"outs(%sacc : tensor<{h}x{s}x{s}xf16>) -> tensor<{h}x{s}x{s}xf16>")
    emit(f"  %{p}sc = linalg.generic {{indexing_maps = [#id3, #id3], iterator_types = "
         f"[\"parallel\", \"parallel\", \"parallel\"]}} ins(%{p}sc0 : tensor<{h}x{s}x{s}xf16>) "
         f"outs(%es : tensor<{h}x{s}x{s}xf16>) {{")
    emit("  ^bb0(%a: f16, %o: f16):")
    emit("    %r = arith.mulf %a, %scale : f16")
    emit("    linalg.yield %r : f16")
    emit(f"  }} -> tensor<{h}x{s}x{s}xf16>")
    emit(f"  %{p}pr = linalg.softmax dimension(2) ins(%{p}sc : tensor<{h}x{s}x{s}xf16>) "
         f"outs(%es : tensor<{h}x{s}x{s}xf16>) -> tensor<{h}x{s}x{s}xf16>")
    emit(f"  %{p}ctx = linalg.batch_matmul ins(%{p}pr, %{p}vh : tensor<{h}x{s}x{s}xf16>, "
         f"tensor<{h}x{s}x{dh}xf16>) outs(%cacc : tensor<{h}x{s}x{dh}xf16>) -> tensor<{h}x{s}x{dh}xf16>")
    emit(f"  %{p}ctxt = linalg.transpose ins(%{p}ctx : tensor<{h}x{s}x{dh}xf16>) "
         f"outs(%et : tensor<{s}x{h}x{dh}xf16>) permutation = [1, 0, 2]")
    emit(f"  %{p}mg = tensor.collapse_shape %{p}ctxt [[0], [1, 2]] : "
         f"tensor<{s}x{h}x{dh}xf16> into {t}")
    linear(f"{p}mg", f"{p}wo", f"{p}bo", f"{p}attn", d, d)
    emit(f"  %{p}r1 = linalg.add ins(%{x}, %{p}attn : {t}, {t}) outs(%e{d} : {t}) -> {t}")
    ln(f"{p}r1", f"{p}ln2w", f"{p}ln2b", f"{p}ln2")
    linear(f"{p}ln2", f"{p}w1", f"{p}b1", f"{p}up", d, f)
    emit(f"  %{p}g = linalg.generic {{indexing_maps = [#id, #id], iterator_types = "
         f"[\"parallel\", \"parallel\"]}} ins(%{p}up : tensor<{s}x{f}xf16>) "
         f"outs(%e{f} : tensor<{s}x{f}xf16>) {{")
    emit("  ^bb0(%v: f16, %o: f16):")
    emit("    %v2 = arith.mulf %v, %v : f16")
    emit("    %v3 = arith.mulf %v2, %v : f16")
    emit("    %c = arith.mulf %k1, %v3 : f16")
    emit("    %in = arith.addf %v, %c : f16")
    emit("    %sc = arith.mulf %k0, %in : f16")
    emit("    %th = math.tanh %sc : f16")
    emit("    %op = arith.addf %one, %th : f16")
    emit("    %hv = arith.mulf %half, %v : f16")
    emit("    %r = arith.mulf %hv, %op : f16")
    emit("    linalg.yield %r : f16")
    emit(f"  }} -> tensor<{s}x{f}xf16>")
    linear(f"{p}g", f"{p}w2", f"{p}b2", f"{p}down", f, d)
    emit(f"  %{p}out = linalg.add ins(%{p}r1, %{p}down : {t}, {t}) outs(%e{d} : {t}) -> {t}")
    return lines, f"{p}out"


def generate(layers, s=128, d=256, h=4, f=1024):
    dh = d // h
    params = []
    for i in range(layers):
        p = f"l{i}_"
        for w in ("ln1w", "ln1b", "ln2w", "ln2b"):
            params.append(f"%{p}{w}: tensor<{d}xf16>")
        for w in ("wq", "wk", "wv", "wo"):
            params.append(f"%{p}{w}: tensor<{d}x{d}xf16>")
        for b in ("bq", "bk", "bv", "bo", "b2"):
            params.append(f"%{p}{b}: tensor<{d}xf16>")
        params.append(f"%{p}w1: tensor<{d}x{f}xf16>")
        params.append(f"%{p}b1: tensor<{f}xf16>")
        params.append(f"%{p}w2: tensor<{f}x{d}xf16>")
    out = []
    out.append("#id = affine_map<(d0, d1) -> (d0, d1)>")
    out.append("#row = affine_map<(d0, d1) -> (d0)>")
    out.append("#col = affine_map<(d0, d1) -> (d1)>")
    out.append("#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>")
    out.append("#qk_a = affine_map<(b, m, n, k) -> (b, m, k)>")
    out.append("#qk_b = affine_map<(b, m, n, k) -> (b, n, k)>")
    out.append("#qk_c = affine_map<(b, m, n, k) -> (b, m, n)>")
    out.append(f"func.func @encoder(%x: tensor<{s}x{d}xf16>, " +
               ", ".join(params) + f") -> tensor<{s}x{d}xf16> {{")
    for name, value in (("zero", "0.0"), ("one", "1.0"), ("half", "0.5"),
                        ("k0", "0.7978845608"), ("k1", "0.044715"),
                        ("scale", "0.125"), ("eps", "1.0e-05"),
                        ("inv_d", repr(1.0 / d))):
        out.append(f"  %{name} = arith.constant {value} : f16")
    for n in sorted({d, f}):
        out.append(f"  %e{n} = tensor.empty() : tensor<{s}x{n}xf16>")
        out.append(f"  %acc{n} = linalg.fill ins(%zero : f16) outs(%e{n} : "
                   f"tensor<{s}x{n}xf16>) -> tensor<{s}x{n}xf16>")
    out.append(f"  %er = tensor.empty() : tensor<{s}xf16>")
    out.append(f"  %racc = linalg.fill ins(%zero : f16) outs(%er : tensor<{s}xf16>) "
               f"-> tensor<{s}xf16>")
    out.append(f"  %eh = tensor.empty() : tensor<{h}x{s}x{dh}xf16>")
    out.append(f"  %es = tensor.empty() : tensor<{h}x{s}x{s}xf16>")
    out.append(f"  %sacc = linalg.fill ins(%zero : f16) outs(%es : "
               f"tensor<{h}x{s}x{s}xf16>) -> tensor<{h}x{s}x{s}xf16>")
    out.append(f"  %cacc = linalg.fill ins(%zero : f16) outs(%eh : "
               f"tensor<{h}x{s}x{dh}xf16>) -> tensor<{h}x{s}x{dh}xf16>")
    out.append(f"  %et = tensor.empty() : tensor<{s}x{h}x{dh}xf16>")
    x = "x"
    for i in range(layers):
        lines, x = layer(i, x, s, d, h, f)
        out.extend(lines)
    out.append(f"  return %{x} : tensor<{s}x{d}xf16>")
    out.append("}")
    return "\n".join(out) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layers", type=int, default=1)
    args = parser.parse_args()
    sys.stdout.write(generate(args.layers))


if __name__ == "__main__":
    main()
