// Programs in the forms torch-mlir, IREE and StableHLO-to-linalg emit (same
// op spellings, indexing maps, reshapes and casts), one function per
// pattern. Each is compiled, simulated and compared with upstream MLIR's
// lowering of the same program (spyre-run --check); what the device cannot
// run goes through the host fallback. test/python/test_frontends.py checks
// several of them against NumPy as well.
//
// torch-mlir exports carry ml_program globals; every tool parses them.
ml_program.global private mutable @global_seed(dense<0> : tensor<i64>) : tensor<i64>

// The issue's reshape that splits an outer dim (a view of the same bytes).
func.func @expand_outer_dim(%x: tensor<4x64xf16>) -> tensor<2x2x64xf16> {
  %r = tensor.expand_shape %x [[0, 1], [2]] output_shape [2, 2, 64] : tensor<4x64xf16> into tensor<2x2x64xf16>
  return %r : tensor<2x2x64xf16>
}
#map_id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map_mask = affine_map<(d0, d1, d2, d3) -> (d0, 0, 0, d3)>
#map_red4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
#map_scalar4 = affine_map<(d0, d1, d2, d3) -> ()>
// torch-mlir style: head split, transposes, bmm, scale, mask, decomposed softmax, bmm, head merge
func.func @attention_bmm(%q: tensor<128x256xf16>, %k: tensor<128x256xf16>, %v: tensor<128x256xf16>, %mask: tensor<2x1x1x64xf16>) -> tensor<128x256xf16> {
  %cst0 = arith.constant 0.000000e+00 : f16
  %ninf = arith.constant 0xFC00 : f16
  %scale = arith.constant 1.250000e-01 : f16
  %q4 = tensor.expand_shape %q [[0, 1], [2, 3]] output_shape [2, 64, 4, 64] : tensor<128x256xf16> into tensor<2x64x4x64xf16>
  %k4 = tensor.expand_shape %k [[0, 1], [2, 3]] output_shape [2, 64, 4, 64] : tensor<128x256xf16> into tensor<2x64x4x64xf16>
  %v4 = tensor.expand_shape %v [[0, 1], [2, 3]] output_shape [2, 64, 4, 64] : tensor<128x256xf16> into tensor<2x64x4x64xf16>
  %e0 = tensor.empty() : tensor<2x4x64x64xf16>
  %qt = linalg.transpose ins(%q4 : tensor<2x64x4x64xf16>) outs(%e0 : tensor<2x4x64x64xf16>) permutation = [0, 2, 1, 3]
  %kt = linalg.transpose ins(%k4 : tensor<2x64x4x64xf16>) outs(%e0 : tensor<2x4x64x64xf16>) permutation = [0, 2, 3, 1]
  %vt = linalg.transpose ins(%v4 : tensor<2x64x4x64xf16>) outs(%e0 : tensor<2x4x64x64xf16>) permutation = [0, 2, 1, 3]
  %q3 = tensor.collapse_shape %qt [[0, 1], [2], [3]] : tensor<2x4x64x64xf16> into tensor<8x64x64xf16>
  %k3 = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<2x4x64x64xf16> into tensor<8x64x64xf16>
  %v3 = tensor.collapse_shape %vt [[0, 1], [2], [3]] : tensor<2x4x64x64xf16> into tensor<8x64x64xf16>
  %e1 = tensor.empty() : tensor<8x64x64xf16>
  %z1 = linalg.fill ins(%cst0 : f16) outs(%e1 : tensor<8x64x64xf16>) -> tensor<8x64x64xf16>
  %s = linalg.batch_matmul ins(%q3, %k3 : tensor<8x64x64xf16>, tensor<8x64x64xf16>) outs(%z1 : tensor<8x64x64xf16>) -> tensor<8x64x64xf16>
  %s4 = tensor.expand_shape %s [[0, 1], [2], [3]] output_shape [2, 4, 64, 64] : tensor<8x64x64xf16> into tensor<2x4x64x64xf16>
  %scaled = linalg.generic {indexing_maps = [#map_id4, #map_scalar4, #map_id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s4, %scale : tensor<2x4x64x64xf16>, f16) outs(%e0 : tensor<2x4x64x64xf16>) {
  ^bb0(%in: f16, %c: f16, %out: f16):
    %m = arith.mulf %in, %c : f16
    linalg.yield %m : f16
  } -> tensor<2x4x64x64xf16>
  %masked = linalg.generic {indexing_maps = [#map_id4, #map_mask, #map_id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%scaled, %mask : tensor<2x4x64x64xf16>, tensor<2x1x1x64xf16>) outs(%e0 : tensor<2x4x64x64xf16>) {
  ^bb0(%in: f16, %mk: f16, %out: f16):
    %a = arith.addf %in, %mk : f16
    linalg.yield %a : f16
  } -> tensor<2x4x64x64xf16>
  %e2 = tensor.empty() : tensor<2x4x64x1xf16>
  %mx0 = linalg.fill ins(%ninf : f16) outs(%e2 : tensor<2x4x64x1xf16>) -> tensor<2x4x64x1xf16>
  %mx = linalg.generic {indexing_maps = [#map_id4, #map_red4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%masked : tensor<2x4x64x64xf16>) outs(%mx0 : tensor<2x4x64x1xf16>) {
  ^bb0(%in: f16, %out: f16):
    %m = arith.maximumf %in, %out : f16
    linalg.yield %m : f16
  } -> tensor<2x4x64x1xf16>
  %ex = linalg.generic {indexing_maps = [#map_id4, #map_red4, #map_id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%masked, %mx : tensor<2x4x64x64xf16>, tensor<2x4x64x1xf16>) outs(%e0 : tensor<2x4x64x64xf16>) {
  ^bb0(%in: f16, %m: f16, %out: f16):
    %d = arith.subf %in, %m : f16
    %x = math.exp %d : f16
    linalg.yield %x : f16
  } -> tensor<2x4x64x64xf16>
  %sm0 = linalg.fill ins(%cst0 : f16) outs(%e2 : tensor<2x4x64x1xf16>) -> tensor<2x4x64x1xf16>
  %sm = linalg.generic {indexing_maps = [#map_id4, #map_red4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%ex : tensor<2x4x64x64xf16>) outs(%sm0 : tensor<2x4x64x1xf16>) {
  ^bb0(%in: f16, %out: f16):
    %a = arith.addf %in, %out : f16
    linalg.yield %a : f16
  } -> tensor<2x4x64x1xf16>
  %p = linalg.generic {indexing_maps = [#map_id4, #map_red4, #map_id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%ex, %sm : tensor<2x4x64x64xf16>, tensor<2x4x64x1xf16>) outs(%e0 : tensor<2x4x64x64xf16>) {
  ^bb0(%in: f16, %s1: f16, %out: f16):
    %d = arith.divf %in, %s1 : f16
    linalg.yield %d : f16
  } -> tensor<2x4x64x64xf16>
  %p3 = tensor.collapse_shape %p [[0, 1], [2], [3]] : tensor<2x4x64x64xf16> into tensor<8x64x64xf16>
  %o = linalg.batch_matmul ins(%p3, %v3 : tensor<8x64x64xf16>, tensor<8x64x64xf16>) outs(%z1 : tensor<8x64x64xf16>) -> tensor<8x64x64xf16>
  %o4 = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [2, 4, 64, 64] : tensor<8x64x64xf16> into tensor<2x4x64x64xf16>
  %e3 = tensor.empty() : tensor<2x64x4x64xf16>
  %ot = linalg.transpose ins(%o4 : tensor<2x4x64x64xf16>) outs(%e3 : tensor<2x64x4x64xf16>) permutation = [0, 2, 1, 3]
  %r = tensor.collapse_shape %ot [[0, 1], [2, 3]] : tensor<2x64x4x64xf16> into tensor<128x256xf16>
  return %r : tensor<128x256xf16>
}
func.func @attention_generic(%q: tensor<2x4x64x64xf16>, %k: tensor<2x4x64x64xf16>) -> tensor<2x4x64x64xf16> {
  %cst = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<2x4x64x64xf16>
  %z = linalg.fill ins(%cst : f16) outs(%e : tensor<2x4x64x64xf16>) -> tensor<2x4x64x64xf16>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x4x64x64xf16>, tensor<2x4x64x64xf16>) outs(%z : tensor<2x4x64x64xf16>) {
  ^bb0(%a: f16, %b: f16, %c: f16):
    %m = arith.mulf %a, %b : f16
    %s1 = arith.addf %c, %m : f16
    linalg.yield %s1 : f16
  } -> tensor<2x4x64x64xf16>
  return %s : tensor<2x4x64x64xf16>
}
// torch-mlir's SDPA: [batch, heads, ...] operands, both contractions as
// generic ops over five loops, linalg.softmax between (one group on the
// merged batch dim).
func.func @sdpa_merged_heads(%q: tensor<2x12x64x64xf16>, %k: tensor<2x12x64x64xf16>, %v: tensor<2x12x64x64xf16>) -> tensor<2x12x64x64xf16> {
  %z = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<2x12x64x64xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<2x12x64x64xf16>) -> tensor<2x12x64x64xf16>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, d) -> (b, h, m, d)>, affine_map<(b, h, m, n, d) -> (b, h, n, d)>, affine_map<(b, h, m, n, d) -> (b, h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x12x64x64xf16>, tensor<2x12x64x64xf16>) outs(%f : tensor<2x12x64x64xf16>) {
  ^bb0(%a: f16, %b: f16, %o: f16):
    %p = arith.mulf %a, %b : f16
    %r = arith.addf %o, %p : f16
    linalg.yield %r : f16
  } -> tensor<2x12x64x64xf16>
  %e2 = tensor.empty() : tensor<2x12x64x64xf16>
  %p = linalg.softmax dimension(3) ins(%s : tensor<2x12x64x64xf16>) outs(%e2 : tensor<2x12x64x64xf16>) -> tensor<2x12x64x64xf16>
  %e3 = tensor.empty() : tensor<2x12x64x64xf16>
  %f3 = linalg.fill ins(%z : f16) outs(%e3 : tensor<2x12x64x64xf16>) -> tensor<2x12x64x64xf16>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, d) -> (b, h, m, n)>, affine_map<(b, h, m, n, d) -> (b, h, n, d)>, affine_map<(b, h, m, n, d) -> (b, h, m, d)>], iterator_types = ["parallel", "parallel", "parallel", "reduction", "parallel"]} ins(%p, %v : tensor<2x12x64x64xf16>, tensor<2x12x64x64xf16>) outs(%f3 : tensor<2x12x64x64xf16>) {
  ^bb0(%a: f16, %b: f16, %oo: f16):
    %pp = arith.mulf %a, %b : f16
    %r = arith.addf %oo, %pp : f16
    linalg.yield %r : f16
  } -> tensor<2x12x64x64xf16>
  return %o : tensor<2x12x64x64xf16>
}
// The same through collapse_shape, linalg.batch_matmul and a decomposed
// softmax, with a [batch, 1, 1, keys] padding mask (broadcast per head).
#sdpa_id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#sdpa_mask4 = affine_map<(d0, d1, d2, d3) -> (d0, 0, 0, d3)>
#sdpa_row4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
func.func @sdpa_padding_mask(%q: tensor<2x12x64x64xf16>, %k: tensor<2x12x64x64xf16>, %v: tensor<2x12x64x64xf16>, %mask: tensor<2x1x1x64xf16>) -> tensor<2x12x64x64xf16> {
  %z = arith.constant 0.0 : f16
  %ninf = arith.constant -65504.0 : f16
  %scale = arith.constant 0.125 : f16
  %qc = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<2x12x64x64xf16> into tensor<24x64x64xf16>
  %kc = tensor.collapse_shape %k [[0, 1], [2], [3]] : tensor<2x12x64x64xf16> into tensor<24x64x64xf16>
  %vc = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<2x12x64x64xf16> into tensor<24x64x64xf16>
  %et = tensor.empty() : tensor<24x64x64xf16>
  %kt = linalg.transpose ins(%kc : tensor<24x64x64xf16>) outs(%et : tensor<24x64x64xf16>) permutation = [0, 2, 1]
  %es = tensor.empty() : tensor<24x64x64xf16>
  %fs = linalg.fill ins(%z : f16) outs(%es : tensor<24x64x64xf16>) -> tensor<24x64x64xf16>
  %s = linalg.batch_matmul ins(%qc, %kt : tensor<24x64x64xf16>, tensor<24x64x64xf16>) outs(%fs : tensor<24x64x64xf16>) -> tensor<24x64x64xf16>
  %s4 = tensor.expand_shape %s [[0, 1], [2], [3]] output_shape [2, 12, 64, 64] : tensor<24x64x64xf16> into tensor<2x12x64x64xf16>
  %e4 = tensor.empty() : tensor<2x12x64x64xf16>
  %a = linalg.generic {indexing_maps = [#sdpa_id4, #sdpa_mask4, #sdpa_id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s4, %mask : tensor<2x12x64x64xf16>, tensor<2x1x1x64xf16>) outs(%e4 : tensor<2x12x64x64xf16>) {
  ^bb0(%x: f16, %m: f16, %o: f16):
    %y = arith.mulf %x, %scale : f16
    %w = arith.addf %y, %m : f16
    linalg.yield %w : f16
  } -> tensor<2x12x64x64xf16>
  %er = tensor.empty() : tensor<2x12x64x1xf16>
  %fr = linalg.fill ins(%ninf : f16) outs(%er : tensor<2x12x64x1xf16>) -> tensor<2x12x64x1xf16>
  %mx = linalg.generic {indexing_maps = [#sdpa_id4, #sdpa_row4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%a : tensor<2x12x64x64xf16>) outs(%fr : tensor<2x12x64x1xf16>) {
  ^bb0(%x: f16, %o: f16):
    %y = arith.maximumf %x, %o : f16
    linalg.yield %y : f16
  } -> tensor<2x12x64x1xf16>
  %ex = linalg.generic {indexing_maps = [#sdpa_id4, #sdpa_row4, #sdpa_id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%a, %mx : tensor<2x12x64x64xf16>, tensor<2x12x64x1xf16>) outs(%e4 : tensor<2x12x64x64xf16>) {
  ^bb0(%x: f16, %m: f16, %o: f16):
    %y = arith.subf %x, %m : f16
    %w = math.exp %y : f16
    linalg.yield %w : f16
  } -> tensor<2x12x64x64xf16>
  %fz = linalg.fill ins(%z : f16) outs(%er : tensor<2x12x64x1xf16>) -> tensor<2x12x64x1xf16>
  %sm = linalg.generic {indexing_maps = [#sdpa_id4, #sdpa_row4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%ex : tensor<2x12x64x64xf16>) outs(%fz : tensor<2x12x64x1xf16>) {
  ^bb0(%x: f16, %o: f16):
    %y = arith.addf %x, %o : f16
    linalg.yield %y : f16
  } -> tensor<2x12x64x1xf16>
  %p = linalg.generic {indexing_maps = [#sdpa_id4, #sdpa_row4, #sdpa_id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%ex, %sm : tensor<2x12x64x64xf16>, tensor<2x12x64x1xf16>) outs(%e4 : tensor<2x12x64x64xf16>) {
  ^bb0(%x: f16, %m: f16, %o: f16):
    %y = arith.divf %x, %m : f16
    linalg.yield %y : f16
  } -> tensor<2x12x64x64xf16>
  %pc = tensor.collapse_shape %p [[0, 1], [2], [3]] : tensor<2x12x64x64xf16> into tensor<24x64x64xf16>
  %eo = tensor.empty() : tensor<24x64x64xf16>
  %fo = linalg.fill ins(%z : f16) outs(%eo : tensor<24x64x64xf16>) -> tensor<24x64x64xf16>
  %o = linalg.batch_matmul ins(%pc, %vc : tensor<24x64x64xf16>, tensor<24x64x64xf16>) outs(%fo : tensor<24x64x64xf16>) -> tensor<24x64x64xf16>
  %o4 = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [2, 12, 64, 64] : tensor<24x64x64xf16> into tensor<2x12x64x64xf16>
  return %o4 : tensor<2x12x64x64xf16>
}
// torch-mlir's attention at batch 2 from its projections: [batch * seq,
// heads * dim] outputs split into heads, transposed and merged to
// [batch * heads, ...] for the batch matmuls.
func.func @attention_projected_batch2(%x: tensor<128x256xf16>, %wq: tensor<256x256xf16>, %wk: tensor<256x256xf16>, %wv: tensor<256x256xf16>, %mask: tensor<2x1x1x64xf16>) -> tensor<128x256xf16> {
  %c0 = arith.constant 0.0 : f16
  %etq = tensor.empty() : tensor<256x256xf16>
  %wqt = linalg.transpose ins(%wq : tensor<256x256xf16>) outs(%etq : tensor<256x256xf16>) permutation = [1, 0]
  %eoq = tensor.empty() : tensor<128x256xf16>
  %fq = linalg.fill ins(%c0 : f16) outs(%eoq : tensor<128x256xf16>) -> tensor<128x256xf16>
  %q = linalg.matmul ins(%x, %wqt : tensor<128x256xf16>, tensor<256x256xf16>) outs(%fq : tensor<128x256xf16>) -> tensor<128x256xf16>
  %etk = tensor.empty() : tensor<256x256xf16>
  %wkt = linalg.transpose ins(%wk : tensor<256x256xf16>) outs(%etk : tensor<256x256xf16>) permutation = [1, 0]
  %eok = tensor.empty() : tensor<128x256xf16>
  %fk = linalg.fill ins(%c0 : f16) outs(%eok : tensor<128x256xf16>) -> tensor<128x256xf16>
  %k = linalg.matmul ins(%x, %wkt : tensor<128x256xf16>, tensor<256x256xf16>) outs(%fk : tensor<128x256xf16>) -> tensor<128x256xf16>
  %etv = tensor.empty() : tensor<256x256xf16>
  %wvt = linalg.transpose ins(%wv : tensor<256x256xf16>) outs(%etv : tensor<256x256xf16>) permutation = [1, 0]
  %eov = tensor.empty() : tensor<128x256xf16>
  %fv = linalg.fill ins(%c0 : f16) outs(%eov : tensor<128x256xf16>) -> tensor<128x256xf16>
  %v = linalg.matmul ins(%x, %wvt : tensor<128x256xf16>, tensor<256x256xf16>) outs(%fv : tensor<128x256xf16>) -> tensor<128x256xf16>
  %cst0 = arith.constant 0.000000e+00 : f16
  %ninf = arith.constant 0xFC00 : f16
  %scale = arith.constant 1.250000e-01 : f16
  %q4 = tensor.expand_shape %q [[0, 1], [2, 3]] output_shape [2, 64, 4, 64] : tensor<128x256xf16> into tensor<2x64x4x64xf16>
  %k4 = tensor.expand_shape %k [[0, 1], [2, 3]] output_shape [2, 64, 4, 64] : tensor<128x256xf16> into tensor<2x64x4x64xf16>
  %v4 = tensor.expand_shape %v [[0, 1], [2, 3]] output_shape [2, 64, 4, 64] : tensor<128x256xf16> into tensor<2x64x4x64xf16>
  %e0 = tensor.empty() : tensor<2x4x64x64xf16>
  %ek = tensor.empty() : tensor<2x4x64x64xf16>
  %qt = linalg.transpose ins(%q4 : tensor<2x64x4x64xf16>) outs(%e0 : tensor<2x4x64x64xf16>) permutation = [0, 2, 1, 3]
  %kt = linalg.transpose ins(%k4 : tensor<2x64x4x64xf16>) outs(%ek : tensor<2x4x64x64xf16>) permutation = [0, 2, 3, 1]
  %vt = linalg.transpose ins(%v4 : tensor<2x64x4x64xf16>) outs(%e0 : tensor<2x4x64x64xf16>) permutation = [0, 2, 1, 3]
  %q3 = tensor.collapse_shape %qt [[0, 1], [2], [3]] : tensor<2x4x64x64xf16> into tensor<8x64x64xf16>
  %k3 = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<2x4x64x64xf16> into tensor<8x64x64xf16>
  %v3 = tensor.collapse_shape %vt [[0, 1], [2], [3]] : tensor<2x4x64x64xf16> into tensor<8x64x64xf16>
  %e1 = tensor.empty() : tensor<8x64x64xf16>
  %z1 = linalg.fill ins(%cst0 : f16) outs(%e1 : tensor<8x64x64xf16>) -> tensor<8x64x64xf16>
  %s = linalg.batch_matmul ins(%q3, %k3 : tensor<8x64x64xf16>, tensor<8x64x64xf16>) outs(%z1 : tensor<8x64x64xf16>) -> tensor<8x64x64xf16>
  %s4 = tensor.expand_shape %s [[0, 1], [2], [3]] output_shape [2, 4, 64, 64] : tensor<8x64x64xf16> into tensor<2x4x64x64xf16>
  %es = tensor.empty() : tensor<2x4x64x64xf16>
  %scaled = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> ()>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s4, %scale : tensor<2x4x64x64xf16>, f16) outs(%es : tensor<2x4x64x64xf16>) {
  ^bb0(%in: f16, %c: f16, %out: f16):
    %m = arith.mulf %in, %c : f16
    linalg.yield %m : f16
  } -> tensor<2x4x64x64xf16>
  %masked = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, 0, 0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%scaled, %mask : tensor<2x4x64x64xf16>, tensor<2x1x1x64xf16>) outs(%es : tensor<2x4x64x64xf16>) {
  ^bb0(%in: f16, %mk: f16, %out: f16):
    %a = arith.addf %in, %mk : f16
    linalg.yield %a : f16
  } -> tensor<2x4x64x64xf16>
  %e2 = tensor.empty() : tensor<2x4x64x1xf16>
  %mx0 = linalg.fill ins(%ninf : f16) outs(%e2 : tensor<2x4x64x1xf16>) -> tensor<2x4x64x1xf16>
  %mx = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%masked : tensor<2x4x64x64xf16>) outs(%mx0 : tensor<2x4x64x1xf16>) {
  ^bb0(%in: f16, %out: f16):
    %m = arith.maximumf %in, %out : f16
    linalg.yield %m : f16
  } -> tensor<2x4x64x1xf16>
  %ex = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%masked, %mx : tensor<2x4x64x64xf16>, tensor<2x4x64x1xf16>) outs(%es : tensor<2x4x64x64xf16>) {
  ^bb0(%in: f16, %m: f16, %out: f16):
    %dd = arith.subf %in, %m : f16
    %xe = math.exp %dd : f16
    linalg.yield %xe : f16
  } -> tensor<2x4x64x64xf16>
  %sm0 = linalg.fill ins(%cst0 : f16) outs(%e2 : tensor<2x4x64x1xf16>) -> tensor<2x4x64x1xf16>
  %sm = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%ex : tensor<2x4x64x64xf16>) outs(%sm0 : tensor<2x4x64x1xf16>) {
  ^bb0(%in: f16, %out: f16):
    %a = arith.addf %in, %out : f16
    linalg.yield %a : f16
  } -> tensor<2x4x64x1xf16>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%ex, %sm : tensor<2x4x64x64xf16>, tensor<2x4x64x1xf16>) outs(%es : tensor<2x4x64x64xf16>) {
  ^bb0(%in: f16, %s1: f16, %out: f16):
    %dv = arith.divf %in, %s1 : f16
    linalg.yield %dv : f16
  } -> tensor<2x4x64x64xf16>
  %p3 = tensor.collapse_shape %p [[0, 1], [2], [3]] : tensor<2x4x64x64xf16> into tensor<8x64x64xf16>
  %eo = tensor.empty() : tensor<8x64x64xf16>
  %zo = linalg.fill ins(%cst0 : f16) outs(%eo : tensor<8x64x64xf16>) -> tensor<8x64x64xf16>
  %o = linalg.batch_matmul ins(%p3, %v3 : tensor<8x64x64xf16>, tensor<8x64x64xf16>) outs(%zo : tensor<8x64x64xf16>) -> tensor<8x64x64xf16>
  %o4 = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [2, 4, 64, 64] : tensor<8x64x64xf16> into tensor<2x4x64x64xf16>
  %e3 = tensor.empty() : tensor<2x64x4x64xf16>
  %ot = linalg.transpose ins(%o4 : tensor<2x4x64x64xf16>) outs(%e3 : tensor<2x64x4x64xf16>) permutation = [0, 2, 1, 3]
  %r = tensor.collapse_shape %ot [[0, 1], [2, 3]] : tensor<2x64x4x64xf16> into tensor<128x256xf16>
  return %r : tensor<128x256xf16>
}
func.func @matmul_transpose_b_maps(%a: tensor<64x128xf16>, %w: tensor<96x128xf16>) -> tensor<64x96xf16> {
  %cst = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<64x96xf16>
  %z = linalg.fill ins(%cst : f16) outs(%e : tensor<64x96xf16>) -> tensor<64x96xf16>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%a, %w : tensor<64x128xf16>, tensor<96x128xf16>) outs(%z : tensor<64x96xf16>) -> tensor<64x96xf16>
  return %r : tensor<64x96xf16>
}
func.func @matmul_transpose_a_maps(%a: tensor<128x64xf16>, %b: tensor<128x96xf16>) -> tensor<64x96xf16> {
  %cst = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<64x96xf16>
  %z = linalg.fill ins(%cst : f16) outs(%e : tensor<64x96xf16>) -> tensor<64x96xf16>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>] ins(%a, %b : tensor<128x64xf16>, tensor<128x96xf16>) outs(%z : tensor<64x96xf16>) -> tensor<64x96xf16>
  return %r : tensor<64x96xf16>
}
func.func @linear_weights_out_in(%x: tensor<64x128xf16>, %w: tensor<96x128xf16>, %bias: tensor<96xf16>) -> tensor<64x96xf16> {
  %cst = arith.constant 0.0 : f16
  %e0 = tensor.empty() : tensor<128x96xf16>
  %wt = linalg.transpose ins(%w : tensor<96x128xf16>) outs(%e0 : tensor<128x96xf16>) permutation = [1, 0]
  %e = tensor.empty() : tensor<64x96xf16>
  %z = linalg.fill ins(%cst : f16) outs(%e : tensor<64x96xf16>) -> tensor<64x96xf16>
  %mm = linalg.matmul ins(%x, %wt : tensor<64x128xf16>, tensor<128x96xf16>) outs(%z : tensor<64x96xf16>) -> tensor<64x96xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm, %bias : tensor<64x96xf16>, tensor<96xf16>) outs(%e : tensor<64x96xf16>) {
  ^bb0(%a: f16, %b: f16, %o: f16):
    %s = arith.addf %a, %b : f16
    linalg.yield %s : f16
  } -> tensor<64x96xf16>
  return %r : tensor<64x96xf16>
}
func.func @batch_matmul_transpose_b(%a: tensor<4x64x128xf16>, %b: tensor<4x96x128xf16>) -> tensor<4x64x96xf16> {
  %cst = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<4x64x96xf16>
  %z = linalg.fill ins(%cst : f16) outs(%e : tensor<4x64x96xf16>) -> tensor<4x64x96xf16>
  %r = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>] ins(%a, %b : tensor<4x64x128xf16>, tensor<4x96x128xf16>) outs(%z : tensor<4x64x96xf16>) -> tensor<4x64x96xf16>
  return %r : tensor<4x64x96xf16>
}
func.func @gelu_erf(%x: tensor<64x128xf16>) -> tensor<64x128xf16> {
  %half = arith.constant 5.000000e-01 : f16
  %one = arith.constant 1.000000e+00 : f16
  %rsqrt2 = arith.constant 7.070310e-01 : f16
  %e = tensor.empty() : tensor<64x128xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<64x128xf16>) outs(%e : tensor<64x128xf16>) {
  ^bb0(%a: f16, %o: f16):
    %0 = arith.mulf %a, %rsqrt2 : f16
    %1 = math.erf %0 : f16
    %2 = arith.addf %1, %one : f16
    %3 = arith.mulf %2, %half : f16
    %4 = arith.mulf %a, %3 : f16
    linalg.yield %4 : f16
  } -> tensor<64x128xf16>
  return %r : tensor<64x128xf16>
}
// torch-mlir's exact GELU (buildUnitNormalCdf) on bf16.
func.func @gelu_torch_mlir(%x: tensor<64x128xbf16>) -> tensor<64x128xbf16> {
  %e = tensor.empty() : tensor<64x128xbf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<64x128xbf16>) outs(%e : tensor<64x128xbf16>) {
  ^bb0(%a: bf16, %o: bf16):
    %zero = arith.constant 0.000000e+00 : bf16
    %one = arith.constant 1.000000e+00 : bf16
    %two = arith.constant 2.000000e+00 : bf16
    %0 = arith.subf %a, %zero : bf16
    %1 = math.sqrt %two : bf16
    %2 = arith.divf %0, %1 : bf16
    %3 = math.erf %2 : bf16
    %4 = arith.addf %one, %3 : bf16
    %half = arith.constant 5.000000e-01 : bf16
    %5 = arith.mulf %half, %4 : bf16
    %6 = arith.mulf %a, %5 : bf16
    linalg.yield %6 : bf16
  } -> tensor<64x128xbf16>
  return %r : tensor<64x128xbf16>
}
// erf alone, and an f32 exact GELU: erf from device ops, in f32.
func.func @erf_alone(%x: tensor<64x128xf16>) -> tensor<64x128xf16> {
  %e = tensor.empty() : tensor<64x128xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<64x128xf16>) outs(%e : tensor<64x128xf16>) {
  ^bb0(%a: f16, %o: f16):
    %0 = math.erf %a : f16
    linalg.yield %0 : f16
  } -> tensor<64x128xf16>
  return %r : tensor<64x128xf16>
}
func.func @gelu_f32(%x: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %half = arith.constant 5.000000e-01 : f32
  %one = arith.constant 1.000000e+00 : f32
  %sqrt2 = arith.constant 1.41421354 : f32
  %e = tensor.empty() : tensor<64x128xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<64x128xf32>) outs(%e : tensor<64x128xf32>) {
  ^bb0(%a: f32, %o: f32):
    %0 = arith.divf %a, %sqrt2 : f32
    %1 = math.erf %0 : f32
    %2 = arith.addf %1, %one : f32
    %3 = arith.mulf %2, %half : f32
    %4 = arith.mulf %a, %3 : f32
    linalg.yield %4 : f32
  } -> tensor<64x128xf32>
  return %r : tensor<64x128xf32>
}
func.func @rmsnorm_powf(%x: tensor<64x256xf16>, %w: tensor<256xf16>) -> tensor<64x256xf16> {
  %two = arith.constant 2.000000e+00 : f16
  %mhalf = arith.constant -5.000000e-01 : f16
  %n = arith.constant 2.560000e+02 : f16
  %eps = arith.constant 9.999990e-06 : f16
  %cst = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<64x256xf16>
  %sq = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<64x256xf16>) outs(%e : tensor<64x256xf16>) {
  ^bb0(%a: f16, %o: f16):
    %0 = math.powf %a, %two : f16
    linalg.yield %0 : f16
  } -> tensor<64x256xf16>
  %er = tensor.empty() : tensor<64x1xf16>
  %z = linalg.fill ins(%cst : f16) outs(%er : tensor<64x1xf16>) -> tensor<64x1xf16>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]} ins(%sq : tensor<64x256xf16>) outs(%z : tensor<64x1xf16>) {
  ^bb0(%a: f16, %o: f16):
    %0 = arith.addf %a, %o : f16
    linalg.yield %0 : f16
  } -> tensor<64x1xf16>
  %inv = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%sum : tensor<64x1xf16>) outs(%er : tensor<64x1xf16>) {
  ^bb0(%a: f16, %o: f16):
    %0 = arith.divf %a, %n : f16
    %1 = arith.addf %0, %eps : f16
    %2 = math.powf %1, %mhalf : f16
    linalg.yield %2 : f16
  } -> tensor<64x1xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %inv, %w : tensor<64x256xf16>, tensor<64x1xf16>, tensor<256xf16>) outs(%e : tensor<64x256xf16>) {
  ^bb0(%a: f16, %s: f16, %g: f16, %o: f16):
    %0 = arith.mulf %a, %s : f16
    %1 = arith.mulf %0, %g : f16
    linalg.yield %1 : f16
  } -> tensor<64x256xf16>
  return %r : tensor<64x256xf16>
}
func.func @sqrt_pow_half(%x: tensor<64x128xf16>) -> tensor<64x128xf16> {
  %h = arith.constant 5.000000e-01 : f16
  %e = tensor.empty() : tensor<64x128xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<64x128xf16>) outs(%e : tensor<64x128xf16>) {
  ^bb0(%a: f16, %o: f16):
    %ab = math.absf %a : f16
    %0 = math.powf %ab, %h : f16
    %1 = math.sqrt %ab : f16
    %2 = arith.addf %0, %1 : f16
    linalg.yield %2 : f16
  } -> tensor<64x128xf16>
  return %r : tensor<64x128xf16>
}
func.func @relu_cmp_select(%x: tensor<64x128xf16>) -> tensor<64x128xf16> {
  %z = arith.constant 0.000000e+00 : f16
  %e = tensor.empty() : tensor<64x128xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<64x128xf16>) outs(%e : tensor<64x128xf16>) {
  ^bb0(%a: f16, %o: f16):
    %c = arith.cmpf ugt, %a, %z : f16
    %s = arith.select %c, %a, %z : f16
    linalg.yield %s : f16
  } -> tensor<64x128xf16>
  return %r : tensor<64x128xf16>
}
func.func @max_cmp_select(%x: tensor<64x128xf16>, %y: tensor<64x128xf16>) -> tensor<64x128xf16> {
  %e = tensor.empty() : tensor<64x128xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %y : tensor<64x128xf16>, tensor<64x128xf16>) outs(%e : tensor<64x128xf16>) {
  ^bb0(%a: f16, %b: f16, %o: f16):
    %c = arith.cmpf ogt, %a, %b : f16
    %s = arith.select %c, %a, %b : f16
    %m = arith.maximumf %s, %b : f16
    linalg.yield %m : f16
  } -> tensor<64x128xf16>
  return %r : tensor<64x128xf16>
}
func.func @sigmoid_silu(%x: tensor<64x128xf16>) -> (tensor<64x128xf16>, tensor<64x128xf16>) {
  %one = arith.constant 1.000000e+00 : f16
  %e = tensor.empty() : tensor<64x128xf16>
  %sig = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<64x128xf16>) outs(%e : tensor<64x128xf16>) {
  ^bb0(%a: f16, %o: f16):
    %n = arith.negf %a : f16
    %x1 = math.exp %n : f16
    %d = arith.addf %x1, %one : f16
    %r = arith.divf %one, %d : f16
    linalg.yield %r : f16
  } -> tensor<64x128xf16>
  %silu = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<64x128xf16>) outs(%e : tensor<64x128xf16>) {
  ^bb0(%a: f16, %o: f16):
    %n = arith.negf %a : f16
    %x1 = math.exp %n : f16
    %d = arith.addf %x1, %one : f16
    %r = arith.divf %a, %d : f16
    linalg.yield %r : f16
  } -> tensor<64x128xf16>
  return %sig, %silu : tensor<64x128xf16>, tensor<64x128xf16>
}
func.func @log_abs(%x: tensor<64x128xf16>) -> tensor<64x128xf16> {
  %one = arith.constant 1.000000e+00 : f16
  %e = tensor.empty() : tensor<64x128xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<64x128xf16>) outs(%e : tensor<64x128xf16>) {
  ^bb0(%a: f16, %o: f16):
    %ab = math.absf %a : f16
    %p = arith.addf %ab, %one : f16
    %l = math.log %p : f16
    linalg.yield %l : f16
  } -> tensor<64x128xf16>
  return %r : tensor<64x128xf16>
}
func.func @casts_f32_io(%x: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %e16 = tensor.empty() : tensor<64x128xf16>
  %h = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<64x128xf32>) outs(%e16 : tensor<64x128xf16>) {
  ^bb0(%a: f32, %o: f16):
    %t = arith.truncf %a : f32 to f16
    %m = arith.mulf %t, %t : f16
    linalg.yield %m : f16
  } -> tensor<64x128xf16>
  %e32 = tensor.empty() : tensor<64x128xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%h : tensor<64x128xf16>) outs(%e32 : tensor<64x128xf32>) {
  ^bb0(%a: f16, %o: f32):
    %t = arith.extf %a : f16 to f32
    linalg.yield %t : f32
  } -> tensor<64x128xf32>
  return %r : tensor<64x128xf32>
}
func.func @sitofp(%x: tensor<64x128xi32>) -> tensor<64x128xf16> {
  %e = tensor.empty() : tensor<64x128xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<64x128xi32>) outs(%e : tensor<64x128xf16>) {
  ^bb0(%a: i32, %o: f16):
    %t = arith.sitofp %a : i32 to f16
    linalg.yield %t : f16
  } -> tensor<64x128xf16>
  return %r : tensor<64x128xf16>
}
func.func @generalized_fill(%x: tensor<64x128xf16>) -> tensor<64x128xf16> {
  %c = arith.constant 3.000000e+00 : f16
  %e = tensor.empty() : tensor<64x128xf16>
  %f = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%c : f16) outs(%e : tensor<64x128xf16>) {
  ^bb0(%a: f16, %o: f16):
    linalg.yield %a : f16
  } -> tensor<64x128xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %f : tensor<64x128xf16>, tensor<64x128xf16>) outs(%e : tensor<64x128xf16>) {
  ^bb0(%a: f16, %b: f16, %o: f16):
    %m = arith.mulf %a, %b : f16
    linalg.yield %m : f16
  } -> tensor<64x128xf16>
  return %r : tensor<64x128xf16>
}
func.func @zero_d(%x: tensor<64x128xf16>, %s: tensor<f16>) -> tensor<64x128xf16> {
  %e = tensor.empty() : tensor<64x128xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %s : tensor<64x128xf16>, tensor<f16>) outs(%e : tensor<64x128xf16>) {
  ^bb0(%a: f16, %b: f16, %o: f16):
    %m = arith.mulf %a, %b : f16
    linalg.yield %m : f16
  } -> tensor<64x128xf16>
  return %r : tensor<64x128xf16>
}
func.func @f64_constant(%x: tensor<64x128xf16>) -> tensor<64x128xf16> {
  %c = arith.constant 1.4142135623730951 : f64
  %e = tensor.empty() : tensor<64x128xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<64x128xf16>) outs(%e : tensor<64x128xf16>) {
  ^bb0(%a: f16, %o: f16):
    %t = arith.truncf %c : f64 to f16
    %m = arith.mulf %a, %t : f16
    linalg.yield %m : f16
  } -> tensor<64x128xf16>
  return %r : tensor<64x128xf16>
}
func.func @linear3d_generic(%x: tensor<2x64x128xf16>, %w: tensor<128x96xf16>) -> tensor<2x64x96xf16> {
  %cst = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<2x64x96xf16>
  %z = linalg.fill ins(%cst : f16) outs(%e : tensor<2x64x96xf16>) -> tensor<2x64x96xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(b, s, n, k) -> (b, s, k)>, affine_map<(b, s, n, k) -> (k, n)>, affine_map<(b, s, n, k) -> (b, s, n)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%x, %w : tensor<2x64x128xf16>, tensor<128x96xf16>) outs(%z : tensor<2x64x96xf16>) {
  ^bb0(%a: f16, %b: f16, %c: f16):
    %m = arith.mulf %a, %b : f16
    %s1 = arith.addf %c, %m : f16
    linalg.yield %s1 : f16
  } -> tensor<2x64x96xf16>
  return %r : tensor<2x64x96xf16>
}
func.func @linear3d_wt(%x: tensor<2x64x128xf16>, %w: tensor<96x128xf16>) -> tensor<2x64x96xf16> {
  %cst = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<2x64x96xf16>
  %z = linalg.fill ins(%cst : f16) outs(%e : tensor<2x64x96xf16>) -> tensor<2x64x96xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(b, s, n, k) -> (b, s, k)>, affine_map<(b, s, n, k) -> (n, k)>, affine_map<(b, s, n, k) -> (b, s, n)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%x, %w : tensor<2x64x128xf16>, tensor<96x128xf16>) outs(%z : tensor<2x64x96xf16>) {
  ^bb0(%a: f16, %b: f16, %c: f16):
    %m = arith.mulf %a, %b : f16
    %s1 = arith.addf %c, %m : f16
    linalg.yield %s1 : f16
  } -> tensor<2x64x96xf16>
  return %r : tensor<2x64x96xf16>
}
func.func @attn_pv_generic(%p: tensor<2x4x64x64xf16>, %v: tensor<2x4x64x64xf16>) -> tensor<2x4x64x64xf16> {
  %cst = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<2x4x64x64xf16>
  %z = linalg.fill ins(%cst : f16) outs(%e : tensor<2x4x64x64xf16>) -> tensor<2x4x64x64xf16>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<2x4x64x64xf16>, tensor<2x4x64x64xf16>) outs(%z : tensor<2x4x64x64xf16>) {
  ^bb0(%a: f16, %b: f16, %c: f16):
    %m = arith.mulf %a, %b : f16
    %s1 = arith.addf %c, %m : f16
    linalg.yield %s1 : f16
  } -> tensor<2x4x64x64xf16>
  return %s : tensor<2x4x64x64xf16>
}
func.func @attn_transposed_k_in_map(%q: tensor<2x64x4x64xf16>, %k: tensor<2x64x4x64xf16>) -> tensor<2x4x64x64xf16> {
  %cst = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<2x4x64x64xf16>
  %z = linalg.fill ins(%cst : f16) outs(%e : tensor<2x4x64x64xf16>) -> tensor<2x4x64x64xf16>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, i, h, d)>, affine_map<(b, h, i, j, d) -> (b, j, h, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x64x4x64xf16>, tensor<2x64x4x64xf16>) outs(%z : tensor<2x4x64x64xf16>) {
  ^bb0(%a: f16, %b: f16, %c: f16):
    %m = arith.mulf %a, %b : f16
    %s1 = arith.addf %c, %m : f16
    linalg.yield %s1 : f16
  } -> tensor<2x4x64x64xf16>
  return %s : tensor<2x4x64x64xf16>
}
func.func @extract_slice(%x: tensor<128x256xf16>) -> tensor<64x128xf16> {
  %s = tensor.extract_slice %x[64, 128] [64, 128] [1, 1] : tensor<128x256xf16> to tensor<64x128xf16>
  return %s : tensor<64x128xf16>
}
func.func @insert_slice(%x: tensor<128x256xf16>, %y: tensor<64x128xf16>) -> tensor<128x256xf16> {
  %s = tensor.insert_slice %y into %x[0, 128] [64, 128] [1, 1] : tensor<64x128xf16> into tensor<128x256xf16>
  return %s : tensor<128x256xf16>
}
func.func @concat(%x: tensor<64x128xf16>, %y: tensor<64x128xf16>) -> tensor<64x256xf16> {
  %c = tensor.concat dim(1) %x, %y : (tensor<64x128xf16>, tensor<64x128xf16>) -> tensor<64x256xf16>
  return %c : tensor<64x256xf16>
}
func.func @concat_rows(%x: tensor<64x128xf16>, %y: tensor<64x128xf16>) -> tensor<128x128xf16> {
  %c = tensor.concat dim(0) %x, %y : (tensor<64x128xf16>, tensor<64x128xf16>) -> tensor<128x128xf16>
  return %c : tensor<128x128xf16>
}
func.func @pad(%x: tensor<60x100xf16>) -> tensor<64x128xf16> {
  %z = arith.constant 0.0 : f16
  %p = tensor.pad %x low[0, 0] high[4, 28] {
  ^bb0(%i: index, %j: index):
    tensor.yield %z : f16
  } : tensor<60x100xf16> to tensor<64x128xf16>
  return %p : tensor<64x128xf16>
}
func.func @broadcast(%x: tensor<128xf16>) -> tensor<64x128xf16> {
  %e = tensor.empty() : tensor<64x128xf16>
  %b = linalg.broadcast ins(%x : tensor<128xf16>) outs(%e : tensor<64x128xf16>) dimensions = [0]
  return %b : tensor<64x128xf16>
}
func.func @transpose(%x: tensor<64x128xf16>) -> tensor<128x64xf16> {
  %e = tensor.empty() : tensor<128x64xf16>
  %t = linalg.transpose ins(%x : tensor<64x128xf16>) outs(%e : tensor<128x64xf16>) permutation = [1, 0]
  return %t : tensor<128x64xf16>
}
func.func @collapse_expand_groups(%x: tensor<2x3x4x64xf16>) -> tensor<6x2x2x64xf16> {
  %c = tensor.collapse_shape %x [[0, 1], [2, 3]] : tensor<2x3x4x64xf16> into tensor<6x256xf16>
  %e = tensor.expand_shape %c [[0], [1, 2, 3]] output_shape [6, 2, 2, 64] : tensor<6x256xf16> into tensor<6x2x2x64xf16>
  return %e : tensor<6x2x2x64xf16>
}
func.func @slice_then_add(%x: tensor<128x256xf16>, %y: tensor<64x256xf16>) -> tensor<64x256xf16> {
  %s = tensor.extract_slice %x[64, 0] [64, 256] [1, 1] : tensor<128x256xf16> to tensor<64x256xf16>
  %e = tensor.empty() : tensor<64x256xf16>
  %r = linalg.add ins(%s, %y : tensor<64x256xf16>, tensor<64x256xf16>) outs(%e : tensor<64x256xf16>) -> tensor<64x256xf16>
  return %r : tensor<64x256xf16>
}
func.func @sum_dim0(%x: tensor<64x128xf16>) -> tensor<128xf16> {
  %z = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<128xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<128xf16>) -> tensor<128xf16>
  %r = linalg.reduce ins(%x : tensor<64x128xf16>) outs(%f : tensor<128xf16>) dimensions = [0]
    (%a: f16, %b: f16) {
      %s = arith.addf %a, %b : f16
      linalg.yield %s : f16
    }
  return %r : tensor<128xf16>
}
func.func @sum_two_dims(%x: tensor<4x64x128xf16>) -> tensor<64xf16> {
  %z = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<64xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<64xf16>) -> tensor<64xf16>
  %r = linalg.reduce ins(%x : tensor<4x64x128xf16>) outs(%f : tensor<64xf16>) dimensions = [0, 2]
    (%a: f16, %b: f16) {
      %s = arith.addf %a, %b : f16
      linalg.yield %s : f16
    }
  return %r : tensor<64xf16>
}
func.func @max_keepdim(%x: tensor<64x128xf16>) -> tensor<64x1xf16> {
  %ninf = arith.constant 0xFC00 : f16
  %e = tensor.empty() : tensor<64x1xf16>
  %f = linalg.fill ins(%ninf : f16) outs(%e : tensor<64x1xf16>) -> tensor<64x1xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<64x128xf16>) outs(%f : tensor<64x1xf16>) {
  ^bb0(%a: f16, %o: f16):
    %m = arith.maximumf %a, %o : f16
    linalg.yield %m : f16
  } -> tensor<64x1xf16>
  return %r : tensor<64x1xf16>
}
func.func @min_dim1(%x: tensor<64x128xf16>) -> tensor<64xf16> {
  %inf = arith.constant 0x7C00 : f16
  %e = tensor.empty() : tensor<64xf16>
  %f = linalg.fill ins(%inf : f16) outs(%e : tensor<64xf16>) -> tensor<64xf16>
  %r = linalg.reduce ins(%x : tensor<64x128xf16>) outs(%f : tensor<64xf16>) dimensions = [1]
    (%a: f16, %b: f16) {
      %s = arith.minimumf %a, %b : f16
      linalg.yield %s : f16
    }
  return %r : tensor<64xf16>
}
func.func @mean_keepdim(%x: tensor<64x128xf16>) -> tensor<64x1xf16> {
  %z = arith.constant 0.0 : f16
  %n = arith.constant 128.0 : f16
  %e = tensor.empty() : tensor<64x1xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<64x1xf16>) -> tensor<64x1xf16>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<64x128xf16>) outs(%f : tensor<64x1xf16>) {
  ^bb0(%a: f16, %o: f16):
    %m = arith.addf %a, %o : f16
    linalg.yield %m : f16
  } -> tensor<64x1xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<64x1xf16>) outs(%e : tensor<64x1xf16>) {
  ^bb0(%a: f16, %o: f16):
    %m = arith.divf %a, %n : f16
    linalg.yield %m : f16
  } -> tensor<64x1xf16>
  return %r : tensor<64x1xf16>
}
func.func @argmax(%x: tensor<64x128xf16>) -> (tensor<64xf16>, tensor<64xi64>) {
  %ninf = arith.constant 0xFC00 : f16
  %c0 = arith.constant 0 : i64
  %e = tensor.empty() : tensor<64xf16>
  %ei = tensor.empty() : tensor<64xi64>
  %f = linalg.fill ins(%ninf : f16) outs(%e : tensor<64xf16>) -> tensor<64xf16>
  %fi = linalg.fill ins(%c0 : i64) outs(%ei : tensor<64xi64>) -> tensor<64xi64>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<64x128xf16>) outs(%f, %fi : tensor<64xf16>, tensor<64xi64>) {
  ^bb0(%a: f16, %m: f16, %i: i64):
    %idx = linalg.index 1 : index
    %ii = arith.index_cast %idx : index to i64
    %gt = arith.cmpf ogt, %a, %m : f16
    %nm = arith.select %gt, %a, %m : f16
    %ni = arith.select %gt, %ii, %i : i64
    linalg.yield %nm, %ni : f16, i64
  } -> (tensor<64xf16>, tensor<64xi64>)
  return %r#0, %r#1 : tensor<64xf16>, tensor<64xi64>
}
func.func @bf16_io(%x: tensor<64x128xbf16>, %y: tensor<64x128xbf16>) -> tensor<64x128xbf16> {
  %e = tensor.empty() : tensor<64x128xbf16>
  %r = linalg.add ins(%x, %y : tensor<64x128xbf16>, tensor<64x128xbf16>) outs(%e : tensor<64x128xbf16>) -> tensor<64x128xbf16>
  return %r : tensor<64x128xbf16>
}
func.func @bf16_matmul(%x: tensor<64x128xbf16>, %y: tensor<128x64xbf16>) -> tensor<64x64xbf16> {
  %z = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<64x64xbf16>
  %f = linalg.fill ins(%z : bf16) outs(%e : tensor<64x64xbf16>) -> tensor<64x64xbf16>
  %r = linalg.matmul ins(%x, %y : tensor<64x128xbf16>, tensor<128x64xbf16>) outs(%f : tensor<64x64xbf16>) -> tensor<64x64xbf16>
  return %r : tensor<64x64xbf16>
}
func.func @mask_i1(%x: tensor<64x128xf16>, %m: tensor<64x128xi1>) -> tensor<64x128xf16> {
  %ninf = arith.constant -1.0e4 : f16
  %e = tensor.empty() : tensor<64x128xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %m : tensor<64x128xf16>, tensor<64x128xi1>) outs(%e : tensor<64x128xf16>) {
  ^bb0(%a: f16, %b: i1, %o: f16):
    %s = arith.select %b, %a, %ninf : f16
    linalg.yield %s : f16
  } -> tensor<64x128xf16>
  return %r : tensor<64x128xf16>
}
func.func @multi_public_a(%x: tensor<64x128xf16>) -> tensor<64x128xf16> {
  %r = call @helper(%x) : (tensor<64x128xf16>) -> tensor<64x128xf16>
  return %r : tensor<64x128xf16>
}
func.func private @helper(%x: tensor<64x128xf16>) -> tensor<64x128xf16> {
  %e = tensor.empty() : tensor<64x128xf16>
  %r = linalg.exp ins(%x : tensor<64x128xf16>) outs(%e : tensor<64x128xf16>) -> tensor<64x128xf16>
  return %r : tensor<64x128xf16>
}
func.func @split_heads(%x: tensor<256x768xf16>) -> tensor<2x128x12x64xf16> {
  %r = tensor.expand_shape %x [[0, 1], [2, 3]] output_shape [2, 128, 12, 64] : tensor<256x768xf16> into tensor<2x128x12x64xf16>
  return %r : tensor<2x128x12x64xf16>
}
func.func @merge_heads(%x: tensor<2x128x12x64xf16>) -> tensor<256x768xf16> {
  %r = tensor.collapse_shape %x [[0, 1], [2, 3]] : tensor<2x128x12x64xf16> into tensor<256x768xf16>
  return %r : tensor<256x768xf16>
}
func.func @batch(%x: tensor<24x128x128xf16>) -> tensor<2x12x128x128xf16> {
  %r = tensor.expand_shape %x [[0, 1], [2], [3]] output_shape [2, 12, 128, 128] : tensor<24x128x128xf16> into tensor<2x12x128x128xf16>
  return %r : tensor<2x12x128x128xf16>
}
func.func @small_inner(%x: tensor<4x64xf16>) -> tensor<4x2x32xf16> {
  %r = tensor.expand_shape %x [[0], [1, 2]] output_shape [4, 2, 32] : tensor<4x64xf16> into tensor<4x2x32xf16>
  return %r : tensor<4x2x32xf16>
}
func.func @padded(%x: tensor<4x50xf16>) -> tensor<200xf16> {
  %r = tensor.collapse_shape %x [[0, 1]] : tensor<4x50xf16> into tensor<200xf16>
  return %r : tensor<200xf16>
}
// A public function calling another public function (tpp-mlir's ResNet
// block is written this way): run alone, its callee comes along.
func.func @public_callee(%x: tensor<64x128xf16>) -> tensor<64x128xf16> {
  %e = tensor.empty() : tensor<64x128xf16>
  %r = linalg.exp ins(%x : tensor<64x128xf16>) outs(%e : tensor<64x128xf16>) -> tensor<64x128xf16>
  return %r : tensor<64x128xf16>
}
func.func @calls_public(%x: tensor<64x128xf16>) -> tensor<64x128xf16> {
  %r = call @public_callee(%x) : (tensor<64x128xf16>) -> tensor<64x128xf16>
  %e = tensor.empty() : tensor<64x128xf16>
  %s = linalg.add ins(%r, %x : tensor<64x128xf16>, tensor<64x128xf16>) outs(%e : tensor<64x128xf16>) -> tensor<64x128xf16>
  return %s : tensor<64x128xf16>
}
// A reshape whose innermost dim is narrower than a stick and that no dense
// layout makes a view (the stick would straddle dims): it stays on the
// host (it was a compile error: the only view was a sparse layout, which a
// dense value cannot become).
func.func @reshape_without_view(%d: tensor<6x16xf32>) -> tensor<3x8x2x2xf32> {
  %c = tensor.collapse_shape %d [[0, 1]] : tensor<6x16xf32> into tensor<96xf32>
  %e = tensor.expand_shape %c [[0, 1, 2, 3]] output_shape [3, 8, 2, 2] : tensor<96xf32> into tensor<3x8x2x2xf32>
  return %e : tensor<3x8x2x2xf32>
}
// linalg.pack and unpack (tpp-mlir's blocked GEMM operands) and an
// embedding lookup with tensor.gather: host segments, lowered for the host
// where upstream cannot bufferize them.
func.func @pack_blocks(%a: tensor<128x256xf16>) -> tensor<4x8x32x32xf16> {
  %e = tensor.empty() : tensor<4x8x32x32xf16>
  %p = linalg.pack %a inner_dims_pos = [0, 1] inner_tiles = [32, 32] into %e : tensor<128x256xf16> -> tensor<4x8x32x32xf16>
  return %p : tensor<4x8x32x32xf16>
}
func.func @unpack_blocks(%a: tensor<4x8x32x32xf16>) -> tensor<128x256xf16> {
  %e = tensor.empty() : tensor<128x256xf16>
  %u = linalg.unpack %a inner_dims_pos = [0, 1] inner_tiles = [32, 32] into %e : tensor<4x8x32x32xf16> -> tensor<128x256xf16>
  return %u : tensor<128x256xf16>
}
func.func @gather_rows(%table: tensor<64x128xf16>, %ids: tensor<16x1xi64>) -> tensor<16x128xf16> {
  %g = tensor.gather %table[%ids] gather_dims([0]) : (tensor<64x128xf16>, tensor<16x1xi64>) -> tensor<16x1x128xf16>
  %c = tensor.collapse_shape %g [[0, 1], [2]] : tensor<16x1x128xf16> into tensor<16x128xf16>
  return %c : tensor<16x128xf16>
}
// A rank-7 tensor: device tensors have at most 6 dims, so the op runs on the
// host (it was a compile error).
func.func @rank7_exp(%a: tensor<1x2x1x2x1x2x64xf16>) -> tensor<1x2x1x2x1x2x64xf16> {
  %e = tensor.empty() : tensor<1x2x1x2x1x2x64xf16>
  %0 = linalg.exp ins(%a : tensor<1x2x1x2x1x2x64xf16>) outs(%e : tensor<1x2x1x2x1x2x64xf16>) -> tensor<1x2x1x2x1x2x64xf16>
  return %0 : tensor<1x2x1x2x1x2x64xf16>
}
// Boxes on the device: q, k and v split from one fused projection (GPT-2's
// c_attn), a rank-reducing slice, and a box starting inside a stick of the
// innermost dim, which stays on the host.
func.func @split_qkv(%qkv: tensor<64x576xf16>) -> tensor<64x192xf16> {
  %q = tensor.extract_slice %qkv[0, 0] [64, 192] [1, 1] : tensor<64x576xf16> to tensor<64x192xf16>
  %k = tensor.extract_slice %qkv[0, 192] [64, 192] [1, 1] : tensor<64x576xf16> to tensor<64x192xf16>
  %v = tensor.extract_slice %qkv[0, 384] [64, 192] [1, 1] : tensor<64x576xf16> to tensor<64x192xf16>
  %e = tensor.empty() : tensor<64x192xf16>
  %qk = linalg.mul ins(%q, %k : tensor<64x192xf16>, tensor<64x192xf16>) outs(%e : tensor<64x192xf16>) -> tensor<64x192xf16>
  %r = linalg.add ins(%qk, %v : tensor<64x192xf16>, tensor<64x192xf16>) outs(%e : tensor<64x192xf16>) -> tensor<64x192xf16>
  return %r : tensor<64x192xf16>
}
func.func @slice_rank_reducing(%x: tensor<4x64x128xf16>) -> tensor<64x128xf16> {
  %s = tensor.extract_slice %x[2, 0, 0] [1, 64, 128] [1, 1, 1] : tensor<4x64x128xf16> to tensor<64x128xf16>
  return %s : tensor<64x128xf16>
}
func.func @slice_in_stick(%x: tensor<64x128xf16>) -> tensor<60x100xf16> {
  %s = tensor.extract_slice %x[3, 5] [60, 100] [1, 1] : tensor<64x128xf16> to tensor<60x100xf16>
  return %s : tensor<60x100xf16>
}
// A box of an intermediate: the exp's result is read through DDR
// addresses, so it does not stay in LX.
func.func @exp_then_slice(%x: tensor<64x256xf16>) -> tensor<32x128xf16> {
  %e = tensor.empty() : tensor<64x256xf16>
  %y = linalg.exp ins(%x : tensor<64x256xf16>) outs(%e : tensor<64x256xf16>) -> tensor<64x256xf16>
  %s = tensor.extract_slice %y[16, 64] [32, 128] [1, 1] : tensor<64x256xf16> to tensor<32x128xf16>
  %e2 = tensor.empty() : tensor<32x128xf16>
  %r = linalg.exp ins(%s : tensor<32x128xf16>) outs(%e2 : tensor<32x128xf16>) -> tensor<32x128xf16>
  return %r : tensor<32x128xf16>
}
// Blocks of rows whose bytes are one contiguous range of the tensor's (one
// stick column): views, read and returned in place at the block's offset.
func.func @row_block_view(%x: tensor<256x64xf16>) -> tensor<64x64xf16> {
  %s = tensor.extract_slice %x[128, 0] [64, 64] [1, 1] : tensor<256x64xf16> to tensor<64x64xf16>
  %e = tensor.empty() : tensor<64x64xf16>
  %y = linalg.exp ins(%s : tensor<64x64xf16>) outs(%e : tensor<64x64xf16>) -> tensor<64x64xf16>
  return %y : tensor<64x64xf16>
}
func.func @row_block_result(%x: tensor<256x64xf16>) -> (tensor<64x64xf16>, tensor<32x64xf16>) {
  %e = tensor.empty() : tensor<256x64xf16>
  %y = linalg.exp ins(%x : tensor<256x64xf16>) outs(%e : tensor<256x64xf16>) -> tensor<256x64xf16>
  %s = tensor.extract_slice %y[128, 0] [64, 64] [1, 1] : tensor<256x64xf16> to tensor<64x64xf16>
  %t = tensor.extract_slice %s[32, 0] [32, 64] [1, 1] : tensor<64x64xf16> to tensor<32x64xf16>
  return %s, %t : tensor<64x64xf16>, tensor<32x64xf16>
}
// A block of rows whose rows are not the outermost device dim ([256, 128]:
// the stick columns come first) is a strided view: read in place by its
// one reader, no copy.
func.func @row_block_strided(%x: tensor<256x128xf16>) -> tensor<64x128xf16> {
  %s = tensor.extract_slice %x[64, 0] [64, 128] [1, 1] : tensor<256x128xf16> to tensor<64x128xf16>
  %e = tensor.empty() : tensor<64x128xf16>
  %y = linalg.exp ins(%s : tensor<64x128xf16>) outs(%e : tensor<64x128xf16>) -> tensor<64x128xf16>
  return %y : tensor<64x128xf16>
}
// Written boxes: a pad with 1.0 whose box starts on a whole stick and ends
// inside one (the rest of that stick is padding), an insert into a kernel's
// result (in place), two inserts into one argument (each into a copy), a
// concatenation read afterwards, f32 rows, and a concatenation whose first
// input ends inside a stick (on the host).
func.func @pad_with_one(%x: tensor<60x100xf16>) -> tensor<70x192xf16> {
  %z = arith.constant 1.0 : f16
  %p = tensor.pad %x low[3, 64] high[7, 28] {
  ^bb0(%i: index, %j: index):
    tensor.yield %z : f16
  } : tensor<60x100xf16> to tensor<70x192xf16>
  return %p : tensor<70x192xf16>
}
func.func @insert_into_exp(%x: tensor<128x256xf16>, %y: tensor<64x128xf16>) -> tensor<128x256xf16> {
  %e = tensor.empty() : tensor<128x256xf16>
  %a = linalg.exp ins(%x : tensor<128x256xf16>) outs(%e : tensor<128x256xf16>) -> tensor<128x256xf16>
  %s = tensor.insert_slice %y into %a[32, 64] [64, 128] [1, 1] : tensor<64x128xf16> into tensor<128x256xf16>
  return %s : tensor<128x256xf16>
}
func.func @insert_into_argument_twice(%x: tensor<128x256xf16>, %y: tensor<64x128xf16>) -> (tensor<128x256xf16>, tensor<128x256xf16>) {
  %s = tensor.insert_slice %y into %x[32, 64] [64, 128] [1, 1] : tensor<64x128xf16> into tensor<128x256xf16>
  %t = tensor.insert_slice %y into %x[0, 0] [64, 128] [1, 1] : tensor<64x128xf16> into tensor<128x256xf16>
  return %s, %t : tensor<128x256xf16>, tensor<128x256xf16>
}
func.func @concat3_then_slice(%a: tensor<4x64x64xf16>, %b: tensor<4x64x128xf16>, %c: tensor<4x64x64xf16>) -> (tensor<4x64x256xf16>, tensor<4x64x64xf16>) {
  %r = tensor.concat dim(2) %a, %b, %c : (tensor<4x64x64xf16>, tensor<4x64x128xf16>, tensor<4x64x64xf16>) -> tensor<4x64x256xf16>
  %s = tensor.extract_slice %r[0, 0, 64] [4, 64, 64] [1, 1, 1] : tensor<4x64x256xf16> to tensor<4x64x64xf16>
  %e = tensor.empty() : tensor<4x64x64xf16>
  %t = linalg.exp ins(%s : tensor<4x64x64xf16>) outs(%e : tensor<4x64x64xf16>) -> tensor<4x64x64xf16>
  return %r, %t : tensor<4x64x256xf16>, tensor<4x64x64xf16>
}
func.func @concat_f32_rows(%a: tensor<8x32xf32>, %b: tensor<8x32xf32>) -> tensor<16x32xf32> {
  %r = tensor.concat dim(0) %a, %b : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<16x32xf32>
  return %r : tensor<16x32xf32>
}
func.func @concat_in_stick(%a: tensor<8x100xf16>, %b: tensor<8x28xf16>) -> tensor<8x128xf16> {
  %r = tensor.concat dim(1) %a, %b : (tensor<8x100xf16>, tensor<8x28xf16>) -> tensor<8x128xf16>
  return %r : tensor<8x128xf16>
}
// bf16 operands accumulated into f32 (IREE's ROCm matmul tests): bf16 is
// DL16 on the device, so its result converts like f16's (dl16tofp32).
func.func @matmul_bf16_to_f32(%a: tensor<64x128xbf16>, %b: tensor<128x64xbf16>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<64x128xbf16>, tensor<128x64xbf16>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}
// A result materialized into an output argument (tpp-mlir's and IREE's
// destination-passing style): as a value it is the result itself.
func.func @materialize_into_argument(%x: tensor<64x128xf16>, %out: tensor<64x128xf16>) -> tensor<64x128xf16> {
  %e = tensor.empty() : tensor<64x128xf16>
  %r = linalg.exp ins(%x : tensor<64x128xf16>) outs(%e : tensor<64x128xf16>) -> tensor<64x128xf16>
  %m = bufferization.materialize_in_destination %r in %out : (tensor<64x128xf16>, tensor<64x128xf16>) -> tensor<64x128xf16>
  return %m : tensor<64x128xf16>
}
// A pad of a tensor with a unit dim (torch-mlir's VGG16 and ResNet-50
// exports): the box keeps every dim (it was a compile error), and a box
// one element wide in the innermost dim stays on the host.
func.func @pad_unit_dim(%a: tensor<1x64x7x7xf32>) -> tensor<1x64x8x8xf32> {
  %z = arith.constant 0.0 : f32
  %p = tensor.pad %a low[0, 0, 0, 0] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %z : f32
  } : tensor<1x64x7x7xf32> to tensor<1x64x8x8xf32>
  return %p : tensor<1x64x8x8xf32>
}
func.func @slice_one_wide(%a: tensor<3x1xi64>) -> tensor<1x1xi64> {
  %s = tensor.extract_slice %a[0, 0] [1, 1] [1, 1] : tensor<3x1xi64> to tensor<1x1xi64>
  return %s : tensor<1x1xi64>
}
// int4 weights dequantized by a scale (IREE's i4 matvec tests): random
// int4 inputs are drawn from [-7, 7]; the cast runs on the host.
func.func @int4_dequant(%a: tensor<64x128xi4>, %s: tensor<64x128xf16>) -> tensor<64x128xf16> {
  %e = tensor.empty() : tensor<64x128xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a, %s : tensor<64x128xi4>, tensor<64x128xf16>) outs(%e : tensor<64x128xf16>) {
  ^bb0(%x: i4, %y: f16, %o: f16):
    %f = arith.sitofp %x : i4 to f16
    %m = arith.mulf %f, %y : f16
    linalg.yield %m : f16
  } -> tensor<64x128xf16>
  return %r : tensor<64x128xf16>
}
