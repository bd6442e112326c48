// A GPT-2 style MLP block, y = gelu(x @ w1 + b1) @ w2 + b2, in the linalg form
// torch-mlir emits (f16, batch*sequence = 128 rows, hidden 768, 4x expansion).
// gelu is the tanh approximation:
//   0.5 * v * (1 + tanh(0.7978845608 * (v + 0.044715 * v^3)))
//
// The weight w2 is stored transposed by the caller (stick on its first dim),
// which the `spyre.dim_order` attribute records.

#rows = affine_map<(d0, d1) -> (d0, d1)>
#bias = affine_map<(d0, d1) -> (d1)>

func.func @gpt2_mlp(%x: tensor<128x768xf16>,
                     %w1: tensor<768x3072xf16>,
                     %b1: tensor<3072xf16>,
                     %w2: tensor<3072x768xf16> {spyre.dim_order = array<i64: 1, 0>},
                     %b2: tensor<768xf16>) -> tensor<128x768xf16> {
  %zero = arith.constant 0.0 : f16
  %half = arith.constant 0.5 : f16
  %one = arith.constant 1.0 : f16
  %k0 = arith.constant 0.7978845608 : f16
  %k1 = arith.constant 0.044715 : f16

  %e1 = tensor.empty() : tensor<128x3072xf16>
  %acc1 = linalg.fill ins(%zero : f16) outs(%e1 : tensor<128x3072xf16>) -> tensor<128x3072xf16>
  %h = linalg.matmul ins(%x, %w1 : tensor<128x768xf16>, tensor<768x3072xf16>)
                     outs(%acc1 : tensor<128x3072xf16>) -> tensor<128x3072xf16>
  %g = linalg.generic {indexing_maps = [#rows, #bias, #rows],
                       iterator_types = ["parallel", "parallel"]}
      ins(%h, %b1 : tensor<128x3072xf16>, tensor<3072xf16>)
      outs(%e1 : tensor<128x3072xf16>) {
  ^bb0(%v0: f16, %b: f16, %out: f16):
    %v = arith.addf %v0, %b : f16
    %v2 = arith.mulf %v, %v : f16
    %v3 = arith.mulf %v2, %v : f16
    %c = arith.mulf %k1, %v3 : f16
    %inner = arith.addf %v, %c : f16
    %scaled = arith.mulf %k0, %inner : f16
    %t = math.tanh %scaled : f16
    %onept = arith.addf %one, %t : f16
    %hv = arith.mulf %half, %v : f16
    %r = arith.mulf %hv, %onept : f16
    linalg.yield %r : f16
  } -> tensor<128x3072xf16>

  %e2 = tensor.empty() : tensor<128x768xf16>
  %acc2 = linalg.fill ins(%zero : f16) outs(%e2 : tensor<128x768xf16>) -> tensor<128x768xf16>
  %y = linalg.matmul ins(%g, %w2 : tensor<128x3072xf16>, tensor<3072x768xf16>)
                     outs(%acc2 : tensor<128x768xf16>) -> tensor<128x768xf16>
  %out = linalg.generic {indexing_maps = [#rows, #bias, #rows],
                         iterator_types = ["parallel", "parallel"]}
      ins(%y, %b2 : tensor<128x768xf16>, tensor<768xf16>)
      outs(%e2 : tensor<128x768xf16>) {
  ^bb0(%a: f16, %b: f16, %o: f16):
    %s = arith.addf %a, %b : f16
    linalg.yield %s : f16
  } -> tensor<128x768xf16>
  return %out : tensor<128x768xf16>
}
