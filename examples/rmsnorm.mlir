// RMSNorm (Llama, hidden 4096, eps 1e-6) in linalg form:
//
//   ms = sum(x * x, -1) / 4096
//   y  = x * rsqrt(ms + eps) * w

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>

func.func @rmsnorm(%x: tensor<32x4096xf16>, %w: tensor<4096xf16>) -> tensor<32x4096xf16> {
  %zero = arith.constant 0.0 : f16
  %inv_n = arith.constant 2.44140625e-04 : f16
  %eps = arith.constant 1.0e-06 : f16
  %er = tensor.empty() : tensor<32xf16>
  %racc = linalg.fill ins(%zero : f16) outs(%er : tensor<32xf16>) -> tensor<32xf16>
  %ss = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<32x4096xf16>) outs(%racc : tensor<32xf16>) {
  ^bb0(%v: f16, %acc: f16):
    %p = arith.mulf %v, %v : f16
    %s = arith.addf %p, %acc : f16
    linalg.yield %s : f16
  } -> tensor<32xf16>
  %e = tensor.empty() : tensor<32x4096xf16>
  %y = linalg.generic {indexing_maps = [#id, #row, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %ss, %w : tensor<32x4096xf16>, tensor<32xf16>, tensor<4096xf16>)
      outs(%e : tensor<32x4096xf16>) {
  ^bb0(%v: f16, %s: f16, %wv: f16, %o: f16):
    %ms = arith.mulf %s, %inv_n : f16
    %me = arith.addf %ms, %eps : f16
    %r = math.rsqrt %me : f16
    %n = arith.mulf %v, %r : f16
    %sc = arith.mulf %n, %wv : f16
    linalg.yield %sc : f16
  } -> tensor<32x4096xf16>
  return %y : tensor<32x4096xf16>
}
