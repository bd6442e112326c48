// A BERT-style self-attention block (one sequence of 128 tokens, hidden 768,
// 12 heads of 64), in the linalg form torch-mlir emits:
//
//   q, k, v = x @ Wq + bq, x @ Wk + bk, x @ Wv + bv      [128, 768]
//   split heads: [128, 768] -> [128, 12, 64] -> [12, 128, 64]
//   scores = q @ k^T / sqrt(64)                          [12, 128, 128]
//   p = softmax(scores, dim = -1)
//   ctx = p @ v, merge heads -> [128, 768]
//   out = ctx @ Wo + bo
//
// The transposes and reshapes are views; k^T reaches the batch matmul
// through its indexing map.

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#bias = affine_map<(d0, d1) -> (d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#qk_a = affine_map<(b, m, n, k) -> (b, m, k)>
#qk_b = affine_map<(b, m, n, k) -> (b, n, k)>
#qk_c = affine_map<(b, m, n, k) -> (b, m, n)>

func.func @attention_block(%x: tensor<128x768xf16>,
                           %wq: tensor<768x768xf16>, %bq: tensor<768xf16>,
                           %wk: tensor<768x768xf16>, %bk: tensor<768xf16>,
                           %wv: tensor<768x768xf16>, %bv: tensor<768xf16>,
                           %wo: tensor<768x768xf16>, %bo: tensor<768xf16>)
    -> tensor<128x768xf16> {
  %zero = arith.constant 0.0 : f16
  %scale = arith.constant 0.125 : f16
  %e2 = tensor.empty() : tensor<128x768xf16>
  %acc = linalg.fill ins(%zero : f16) outs(%e2 : tensor<128x768xf16>) -> tensor<128x768xf16>

  // Projections with bias.
  %q0 = linalg.matmul ins(%x, %wq : tensor<128x768xf16>, tensor<768x768xf16>)
                      outs(%acc : tensor<128x768xf16>) -> tensor<128x768xf16>
  %q = linalg.generic {indexing_maps = [#id2, #bias, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%q0, %bq : tensor<128x768xf16>, tensor<768xf16>) outs(%e2 : tensor<128x768xf16>) {
  ^bb0(%a: f16, %b: f16, %o: f16):
    %s = arith.addf %a, %b : f16
    linalg.yield %s : f16
  } -> tensor<128x768xf16>
  %k0 = linalg.matmul ins(%x, %wk : tensor<128x768xf16>, tensor<768x768xf16>)
                      outs(%acc : tensor<128x768xf16>) -> tensor<128x768xf16>
  %k = linalg.generic {indexing_maps = [#id2, #bias, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%k0, %bk : tensor<128x768xf16>, tensor<768xf16>) outs(%e2 : tensor<128x768xf16>) {
  ^bb0(%a: f16, %b: f16, %o: f16):
    %s = arith.addf %a, %b : f16
    linalg.yield %s : f16
  } -> tensor<128x768xf16>
  %v0 = linalg.matmul ins(%x, %wv : tensor<128x768xf16>, tensor<768x768xf16>)
                      outs(%acc : tensor<128x768xf16>) -> tensor<128x768xf16>
  %v = linalg.generic {indexing_maps = [#id2, #bias, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%v0, %bv : tensor<128x768xf16>, tensor<768xf16>) outs(%e2 : tensor<128x768xf16>) {
  ^bb0(%a: f16, %b: f16, %o: f16):
    %s = arith.addf %a, %b : f16
    linalg.yield %s : f16
  } -> tensor<128x768xf16>

  // Split heads: [128, 768] -> [128, 12, 64] -> [12, 128, 64].
  %q3 = tensor.expand_shape %q [[0], [1, 2]] output_shape [128, 12, 64] : tensor<128x768xf16> into tensor<128x12x64xf16>
  %k3 = tensor.expand_shape %k [[0], [1, 2]] output_shape [128, 12, 64] : tensor<128x768xf16> into tensor<128x12x64xf16>
  %v3 = tensor.expand_shape %v [[0], [1, 2]] output_shape [128, 12, 64] : tensor<128x768xf16> into tensor<128x12x64xf16>
  %eh = tensor.empty() : tensor<12x128x64xf16>
  %qh = linalg.transpose ins(%q3 : tensor<128x12x64xf16>) outs(%eh : tensor<12x128x64xf16>) permutation = [1, 0, 2]
  %kh = linalg.transpose ins(%k3 : tensor<128x12x64xf16>) outs(%eh : tensor<12x128x64xf16>) permutation = [1, 0, 2]
  %vh = linalg.transpose ins(%v3 : tensor<128x12x64xf16>) outs(%eh : tensor<12x128x64xf16>) permutation = [1, 0, 2]

  // scores = q @ k^T, scaled.
  %es = tensor.empty() : tensor<12x128x128xf16>
  %sacc = linalg.fill ins(%zero : f16) outs(%es : tensor<12x128x128xf16>) -> tensor<12x128x128xf16>
  %scores0 = linalg.batch_matmul indexing_maps = [#qk_a, #qk_b, #qk_c]
      ins(%qh, %kh : tensor<12x128x64xf16>, tensor<12x128x64xf16>)
      outs(%sacc : tensor<12x128x128xf16>) -> tensor<12x128x128xf16>
  %scores = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%scores0 : tensor<12x128x128xf16>) outs(%es : tensor<12x128x128xf16>) {
  ^bb0(%a: f16, %o: f16):
    %s = arith.mulf %a, %scale : f16
    linalg.yield %s : f16
  } -> tensor<12x128x128xf16>
  %p = linalg.softmax dimension(2) ins(%scores : tensor<12x128x128xf16>)
                                   outs(%es : tensor<12x128x128xf16>) -> tensor<12x128x128xf16>

  // ctx = p @ v, merge heads.
  %ec = tensor.empty() : tensor<12x128x64xf16>
  %cacc = linalg.fill ins(%zero : f16) outs(%ec : tensor<12x128x64xf16>) -> tensor<12x128x64xf16>
  %ctx = linalg.batch_matmul ins(%p, %vh : tensor<12x128x128xf16>, tensor<12x128x64xf16>)
                             outs(%cacc : tensor<12x128x64xf16>) -> tensor<12x128x64xf16>
  %et = tensor.empty() : tensor<128x12x64xf16>
  %ctxt = linalg.transpose ins(%ctx : tensor<12x128x64xf16>) outs(%et : tensor<128x12x64xf16>) permutation = [1, 0, 2]
  %merged = tensor.collapse_shape %ctxt [[0], [1, 2]] : tensor<128x12x64xf16> into tensor<128x768xf16>

  // Output projection.
  %o0 = linalg.matmul ins(%merged, %wo : tensor<128x768xf16>, tensor<768x768xf16>)
                      outs(%acc : tensor<128x768xf16>) -> tensor<128x768xf16>
  %out = linalg.generic {indexing_maps = [#id2, #bias, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%o0, %bo : tensor<128x768xf16>, tensor<768xf16>) outs(%e2 : tensor<128x768xf16>) {
  ^bb0(%a: f16, %b: f16, %o: f16):
    %s = arith.addf %a, %b : f16
    linalg.yield %s : f16
  } -> tensor<128x768xf16>
  return %out : tensor<128x768xf16>
}
