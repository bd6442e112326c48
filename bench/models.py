#!/usr/bin/env python3
"""Generates one decoder/encoder layer of BERT-base, GPT-2 or Llama-2-7B in
the linalg form torch-mlir emits, at a given sequence length.

    /usr/bin/python3 bench/models.py --model llama --seq 2048 > layer.mlir

Batch 1, f16. Weights are stored as PyTorch stores them and read through
the matmul's indexing map: nn.Linear's [out, in] (`x @ w^T`; BERT, Llama),
GPT-2's Conv1D [in, out] (`x @ w`). GPT-2 projects Q, K and V with one
Conv1D (`c_attn`, [768, 2304]) and splits its output three ways along the
columns, as Hugging Face's GPT-2 does (`--separate-qkv`: three
projections instead). Attention splits heads with
expand_shape + transpose, multiplies with batch_matmul (K read transposed
through its map), scales, adds a mask (an argument), and takes
linalg.softmax. BERT is post-LayerNorm with the exact GELU (erf, as
torch-mlir writes `aten.gelu`), GPT-2 pre-LayerNorm with the tanh GELU
(`gelu_new`) and a causal mask, Llama RMSNorm
(written with powf, as exported) and SwiGLU (silu written out). Llama's
rotary embedding is left out (it slices and concatenates halves of each
head; those run on the host).
"""

import argparse
import sys

MODELS = {
    # name: (hidden, heads, ffn, norm, activation)
    # BERT's GELU is the exact one (erf), GPT-2's the tanh approximation.
    "bert": (768, 12, 3072, "layernorm", "gelu"),
    "gpt2": (768, 12, 3072, "layernorm", "gelu_tanh"),
    "llama": (4096, 32, 11008, "rmsnorm", "swiglu"),
}


class Writer:
    def __init__(self):
        self.lines = []
        self.count = 0

    def emit(self, line):
        self.lines.append("  " + line)

    def fresh(self, hint):
        self.count += 1
        return f"%{hint}{self.count}"


def t(*shape):
    return "tensor<" + "x".join(str(s) for s in shape) + "xf16>"


def generate(model, s, weight_dim_order=False, layers=1, separate_qkv=False):
    """One layer, or `layers` of them one after another in one function (a
    whole model as torch-mlir exports it: each layer's weights its own
    arguments, prefixed l0_, l1_, ...)."""
    d, h, f, norm, act = MODELS[model]
    dh = d // h
    w = Writer()
    e = w.emit
    params = [f"%x: {t(s, d)}", f"%mask: {t(s, s)}"]

    prefix = [""]

    def param(name, *shape):
        params.append(f"%{prefix[0]}{name}: {t(*shape)}")
        return f"%{prefix[0]}{name}"

    def empty(*shape):
        v = w.fresh("e")
        e(f"{v} = tensor.empty() : {t(*shape)}")
        return v

    def zeros(*shape):
        v = w.fresh("z")
        e(f"{v} = linalg.fill ins(%zero : f16) outs({empty(*shape)} : "
          f"{t(*shape)}) -> {t(*shape)}")
        return v

    # GPT-2's Conv1D keeps its weight [in, out]; nn.Linear [out, in].
    conv1d = model == "gpt2"

    def linear(x, k, n, name, bias):
        wt = param(f"w_{name}", *((k, n) if conv1d else (n, k)))
        if weight_dim_order and not conv1d:  # a user's annotation by hand
            params[-1] += " {spyre.dim_order = [1, 0]}"
        y = w.fresh(name)
        wmap, wtype = ("#kn", t(k, n)) if conv1d else ("#nk", t(n, k))
        e(f"{y} = linalg.matmul indexing_maps = [#mk, {wmap}, #mn] "
          f"ins({x}, {wt} : {t(s, k)}, {wtype}) outs({zeros(s, n)} : "
          f"{t(s, n)}) -> {t(s, n)}")
        if not bias:
            return y
        b = param(f"b_{name}", n)
        z = w.fresh(name + "b")
        e(f"{z} = linalg.generic {{indexing_maps = [#id, #col, #id], "
          f"iterator_types = [\"parallel\", \"parallel\"]}} ins({y}, {b} : "
          f"{t(s, n)}, {t(n)}) outs({empty(s, n)} : {t(s, n)}) {{")
        e("^bb0(%a: f16, %c: f16, %o: f16):")
        e("  %r = arith.addf %a, %c : f16")
        e("  linalg.yield %r : f16")
        e(f"}} -> {t(s, n)}")
        return z

    def add(a, b):
        y = w.fresh("add")
        e(f"{y} = linalg.add ins({a}, {b} : {t(s, d)}, {t(s, d)}) "
          f"outs({empty(s, d)} : {t(s, d)}) -> {t(s, d)}")
        return y

    def row_sum(x, body_square):
        acc = w.fresh("racc")
        e(f"{acc} = linalg.fill ins(%zero : f16) outs({empty(s, 1)} : "
          f"{t(s, 1)}) -> {t(s, 1)}")
        y = w.fresh("rsum")
        e(f"{y} = linalg.generic {{indexing_maps = [#id, #row0], "
          f"iterator_types = [\"parallel\", \"reduction\"]}} ins({x} : "
          f"{t(s, d)}) outs({acc} : {t(s, 1)}) {{")
        e("^bb0(%v: f16, %a: f16):")
        if body_square:
            e("  %q = math.powf %v, %two : f16")
            e("  %r = arith.addf %q, %a : f16")
        else:
            e("  %r = arith.addf %v, %a : f16")
        e("  linalg.yield %r : f16")
        e(f"}} -> {t(s, 1)}")
        return y

    def layernorm(x, name):
        g, b = param(f"g_{name}", d), param(f"b_{name}", d)
        mean = row_sum(x, False)
        c = w.fresh("centred")
        e(f"{c} = linalg.generic {{indexing_maps = [#id, #row0, #id], "
          f"iterator_types = [\"parallel\", \"parallel\"]}} ins({x}, {mean} : "
          f"{t(s, d)}, {t(s, 1)}) outs({empty(s, d)} : {t(s, d)}) {{")
        e("^bb0(%v: f16, %m: f16, %o: f16):")
        e("  %mu = arith.divf %m, %dim : f16")
        e("  %r = arith.subf %v, %mu : f16")
        e("  linalg.yield %r : f16")
        e(f"}} -> {t(s, d)}")
        var = row_sum(c, True)
        y = w.fresh(name)
        e(f"{y} = linalg.generic {{indexing_maps = [#id, #row0, #col, #col, "
          f"#id], iterator_types = [\"parallel\", \"parallel\"]}} ins({c}, "
          f"{var}, {g}, {b} : {t(s, d)}, {t(s, 1)}, {t(d)}, {t(d)}) "
          f"outs({empty(s, d)} : {t(s, d)}) {{")
        e("^bb0(%v: f16, %q: f16, %gv: f16, %bv: f16, %o: f16):")
        e("  %va = arith.divf %q, %dim : f16")
        e("  %ve = arith.addf %va, %eps : f16")
        e("  %rs = math.rsqrt %ve : f16")
        e("  %n = arith.mulf %v, %rs : f16")
        e("  %sc = arith.mulf %n, %gv : f16")
        e("  %r = arith.addf %sc, %bv : f16")
        e("  linalg.yield %r : f16")
        e(f"}} -> {t(s, d)}")
        return y

    def rmsnorm(x, name):
        g = param(f"g_{name}", d)
        ss = row_sum(x, True)
        y = w.fresh(name)
        e(f"{y} = linalg.generic {{indexing_maps = [#id, #row0, #col, #id], "
          f"iterator_types = [\"parallel\", \"parallel\"]}} ins({x}, {ss}, "
          f"{g} : {t(s, d)}, {t(s, 1)}, {t(d)}) outs({empty(s, d)} : "
          f"{t(s, d)}) {{")
        e("^bb0(%v: f16, %q: f16, %gv: f16, %o: f16):")
        e("  %ms = arith.divf %q, %dim : f16")
        e("  %me = arith.addf %ms, %eps : f16")
        e("  %rs = math.powf %me, %mhalf : f16")
        e("  %n = arith.mulf %v, %rs : f16")
        e("  %r = arith.mulf %n, %gv : f16")
        e("  linalg.yield %r : f16")
        e(f"}} -> {t(s, d)}")
        return y

    def heads(x, name):
        x3 = w.fresh(name + "s")
        e(f"{x3} = tensor.expand_shape {x} [[0], [1, 2]] output_shape "
          f"[{s}, {h}, {dh}] : {t(s, d)} into {t(s, h, dh)}")
        xh = w.fresh(name + "h")
        e(f"{xh} = linalg.transpose ins({x3} : {t(s, h, dh)}) outs("
          f"{empty(h, s, dh)} : {t(h, s, dh)}) permutation = [1, 0, 2]")
        return xh

    def columns(x, n, offset, name):
        y = w.fresh(name)
        e(f"{y} = tensor.extract_slice {x}[0, {offset}] [{s}, {d}] [1, 1] "
          f": {t(s, n)} to {t(s, d)}")
        return y

    def attention(x, bias):
        if model == "gpt2" and not separate_qkv:
            # c_attn, then .split(768, dim=2).
            qkv = linear(x, d, 3 * d, "qkv", bias)
            q = heads(columns(qkv, 3 * d, 0, "q"), "q")
            k = heads(columns(qkv, 3 * d, d, "k"), "k")
            v = heads(columns(qkv, 3 * d, 2 * d, "v"), "v")
        else:
            q = heads(linear(x, d, d, "q", bias), "q")
            k = heads(linear(x, d, d, "k", bias), "k")
            v = heads(linear(x, d, d, "v", bias), "v")
        sc = w.fresh("scores")
        e(f"{sc} = linalg.batch_matmul indexing_maps = [#bmk, #bnk, #bmn] "
          f"ins({q}, {k} : {t(h, s, dh)}, {t(h, s, dh)}) outs("
          f"{zeros(h, s, s)} : {t(h, s, s)}) -> {t(h, s, s)}")
        masked = w.fresh("masked")
        e(f"{masked} = linalg.generic {{indexing_maps = [#id3, #hid, #id3], "
          f"iterator_types = [\"parallel\", \"parallel\", \"parallel\"]}} "
          f"ins({sc}, %mask : {t(h, s, s)}, {t(s, s)}) outs({empty(h, s, s)} "
          f": {t(h, s, s)}) {{")
        e("^bb0(%a: f16, %m: f16, %o: f16):")
        e("  %sa = arith.mulf %a, %scale : f16")
        e("  %r = arith.addf %sa, %m : f16")
        e("  linalg.yield %r : f16")
        e(f"}} -> {t(h, s, s)}")
        p = w.fresh("probs")
        e(f"{p} = linalg.softmax dimension(2) ins({masked} : {t(h, s, s)}) "
          f"outs({empty(h, s, s)} : {t(h, s, s)}) -> {t(h, s, s)}")
        ctx = w.fresh("ctx")
        e(f"{ctx} = linalg.batch_matmul ins({p}, {v} : {t(h, s, s)}, "
          f"{t(h, s, dh)}) outs({zeros(h, s, dh)} : {t(h, s, dh)}) -> "
          f"{t(h, s, dh)}")
        ct = w.fresh("ctxt")
        e(f"{ct} = linalg.transpose ins({ctx} : {t(h, s, dh)}) outs("
          f"{empty(s, h, dh)} : {t(s, h, dh)}) permutation = [1, 0, 2]")
        merged = w.fresh("merged")
        e(f"{merged} = tensor.collapse_shape {ct} [[0], [1, 2]] : "
          f"{t(s, h, dh)} into {t(s, d)}")
        return linear(merged, d, d, "o", bias)

    def gelu(x):
        y = w.fresh("gelu")
        e(f"{y} = linalg.generic {{indexing_maps = [#id, #id], iterator_types"
          f" = [\"parallel\", \"parallel\"]}} ins({x} : {t(s, f)}) outs("
          f"{empty(s, f)} : {t(s, f)}) {{")
        e("^bb0(%v: f16, %o: f16):")
        if act == "gelu":  # torch-mlir's x * (0.5 * (1 + erf(x / sqrt 2)))
            e("  %z = arith.mulf %v, %rsqrt2 : f16")
            e("  %er = math.erf %z : f16")
            e("  %op = arith.addf %one, %er : f16")
            e("  %cdf = arith.mulf %half, %op : f16")
            e("  %r = arith.mulf %v, %cdf : f16")
            e("  linalg.yield %r : f16")
            e(f"}} -> {t(s, f)}")
            return y
        e("  %v3 = math.powf %v, %three : f16")
        e("  %c = arith.mulf %v3, %k1 : f16")
        e("  %in = arith.addf %v, %c : f16")
        e("  %sc = arith.mulf %in, %k0 : f16")
        e("  %th = math.tanh %sc : f16")
        e("  %op = arith.addf %th, %one : f16")
        e("  %hv = arith.mulf %v, %half : f16")
        e("  %r = arith.mulf %hv, %op : f16")
        e("  linalg.yield %r : f16")
        e(f"}} -> {t(s, f)}")
        return y

    def swiglu(x):
        gate = linear(x, d, f, "gate", False)
        up = linear(x, d, f, "up", False)
        y = w.fresh("swiglu")
        e(f"{y} = linalg.generic {{indexing_maps = [#id, #id, #id], "
          f"iterator_types = [\"parallel\", \"parallel\"]}} ins({gate}, {up} "
          f": {t(s, f)}, {t(s, f)}) outs({empty(s, f)} : {t(s, f)}) {{")
        e("^bb0(%g: f16, %u: f16, %o: f16):")
        e("  %n = arith.negf %g : f16")
        e("  %ex = math.exp %n : f16")
        e("  %den = arith.addf %ex, %one : f16")
        e("  %si = arith.divf %g, %den : f16")
        e("  %r = arith.mulf %si, %u : f16")
        e("  linalg.yield %r : f16")
        e(f"}} -> {t(s, f)}")
        return linear(y, f, d, "down", False)

    out = "%x"
    for layer in range(layers):
        x = out
        prefix[0] = f"l{layer}_" if layers > 1 else ""
        if model == "bert":  # post-LN
            a = layernorm(add(x, attention(x, True)), "ln1")
            up = gelu(linear(a, d, f, "up", True))
            out = layernorm(add(a, linear(up, f, d, "down", True)), "ln2")
        elif model == "gpt2":  # pre-LN
            r1 = add(x, attention(layernorm(x, "ln1"), True))
            up = gelu(linear(layernorm(r1, "ln2"), d, f, "up", True))
            out = add(r1, linear(up, f, d, "down", True))
        else:  # llama: pre-RMSNorm, SwiGLU
            r1 = add(x, attention(rmsnorm(x, "rms1"), False))
            out = add(r1, swiglu(rmsnorm(r1, "rms2")))

    head = [
        "#id = affine_map<(d0, d1) -> (d0, d1)>",
        "#row0 = affine_map<(d0, d1) -> (d0, 0)>",
        "#col = affine_map<(d0, d1) -> (d1)>",
        "#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>",
        "#hid = affine_map<(d0, d1, d2) -> (d1, d2)>",
        "#mk = affine_map<(m, n, k) -> (m, k)>",
        "#nk = affine_map<(m, n, k) -> (n, k)>",
        "#kn = affine_map<(m, n, k) -> (k, n)>",
        "#mn = affine_map<(m, n, k) -> (m, n)>",
        "#bmk = affine_map<(b, m, n, k) -> (b, m, k)>",
        "#bnk = affine_map<(b, m, n, k) -> (b, n, k)>",
        "#bmn = affine_map<(b, m, n, k) -> (b, m, n)>",
        f"func.func @{model}_layer(" + ", ".join(params) + f") -> {t(s, d)} {{",
    ]
    consts = []
    for name, value in (("zero", 0.0), ("one", 1.0), ("half", 0.5),
                        ("two", 2.0), ("three", 3.0), ("mhalf", -0.5),
                        ("k0", 0.7978845608), ("k1", 0.044715),
                        ("rsqrt2", 0.7071067812),
                        ("scale", 1.0 / dh ** 0.5), ("eps", 1e-5),
                        ("dim", float(d))):
        consts.append(f"  %{name} = arith.constant {value:.8e} : f16")
    tail = [f"  return {out} : {t(s, d)}", "}"]
    return "\n".join(head + consts + w.lines + tail) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", choices=sorted(MODELS), default="llama")
    parser.add_argument("--seq", type=int, default=128)
    parser.add_argument("--weight-dim-order", action="store_true",
                        help="annotate every nn.Linear weight with "
                        "spyre.dim_order = [1, 0] (its transposed layout, "
                        "chosen by hand)")
    parser.add_argument("--layers", type=int, default=1,
                        help="layers one after another in one function")
    parser.add_argument("--separate-qkv", action="store_true",
                        help="GPT-2 with three projections for Q, K and V "
                        "instead of c_attn's one, split three ways")
    args = parser.parse_args()
    sys.stdout.write(generate(args.model, args.seq, args.weight_dim_order,
                              args.layers, args.separate_qkv))


if __name__ == "__main__":
    main()
