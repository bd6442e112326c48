// LayerNorm over the hidden dim (torch.nn.LayerNorm(768), eps 1e-5) as
// torch-mlir decomposes it into linalg generics:
//
//   mean = sum(x, -1) / 768
//   c    = x - mean
//   var  = sum(c * c, -1) / 768
//   y    = c * rsqrt(var + eps) * w + b

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>

func.func @layernorm(%x: tensor<128x768xf16>, %w: tensor<768xf16>,
                     %b: tensor<768xf16>) -> tensor<128x768xf16> {
  %zero = arith.constant 0.0 : f16
  %inv_n = arith.constant 0.0013020833 : f16
  %eps = arith.constant 1.0e-05 : f16
  %er = tensor.empty() : tensor<128xf16>
  %racc = linalg.fill ins(%zero : f16) outs(%er : tensor<128xf16>) -> tensor<128xf16>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<128x768xf16>) outs(%racc : tensor<128xf16>) {
  ^bb0(%v: f16, %acc: f16):
    %s = arith.addf %v, %acc : f16
    linalg.yield %s : f16
  } -> tensor<128xf16>
  %e = tensor.empty() : tensor<128x768xf16>
  %c = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum : tensor<128x768xf16>, tensor<128xf16>) outs(%e : tensor<128x768xf16>) {
  ^bb0(%v: f16, %s: f16, %o: f16):
    %mean = arith.mulf %s, %inv_n : f16
    %d = arith.subf %v, %mean : f16
    linalg.yield %d : f16
  } -> tensor<128x768xf16>
  %sq = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%c : tensor<128x768xf16>) outs(%racc : tensor<128xf16>) {
  ^bb0(%v: f16, %acc: f16):
    %p = arith.mulf %v, %v : f16
    %s = arith.addf %p, %acc : f16
    linalg.yield %s : f16
  } -> tensor<128xf16>
  %y = linalg.generic {indexing_maps = [#id, #row, #col, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c, %sq, %w, %b : tensor<128x768xf16>, tensor<128xf16>, tensor<768xf16>, tensor<768xf16>)
      outs(%e : tensor<128x768xf16>) {
  ^bb0(%v: f16, %s: f16, %wv: f16, %bv: f16, %o: f16):
    %var = arith.mulf %s, %inv_n : f16
    %ve = arith.addf %var, %eps : f16
    %r = math.rsqrt %ve : f16
    %n = arith.mulf %v, %r : f16
    %sc = arith.mulf %n, %wv : f16
    %sh = arith.addf %sc, %bv : f16
    linalg.yield %sh : f16
  } -> tensor<128x768xf16>
  return %y : tensor<128x768xf16>
}
