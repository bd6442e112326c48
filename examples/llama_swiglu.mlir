// A Llama-style SwiGLU MLP with an intermediate size that is not a multiple
// of 64 (1000), in torch-mlir's linalg form:
//
//   gate = x @ Wg                [64, 1000]
//   up   = x @ Wu                [64, 1000]
//   h    = silu(gate) * up       silu(g) = g / (1 + exp(-g))
//   y    = h @ Wd                [64, 512]   (K = 1000: B's K rows padded)

#id = affine_map<(d0, d1) -> (d0, d1)>

func.func @llama_swiglu(%x: tensor<64x512xf16>,
                        %wg: tensor<512x1000xf16>,
                        %wu: tensor<512x1000xf16>,
                        %wd: tensor<1000x512xf16>) -> tensor<64x512xf16> {
  %zero = arith.constant 0.0 : f16
  %one = arith.constant 1.0 : f16
  %eh = tensor.empty() : tensor<64x1000xf16>
  %acc = linalg.fill ins(%zero : f16) outs(%eh : tensor<64x1000xf16>) -> tensor<64x1000xf16>
  %gate = linalg.matmul ins(%x, %wg : tensor<64x512xf16>, tensor<512x1000xf16>)
                        outs(%acc : tensor<64x1000xf16>) -> tensor<64x1000xf16>
  %up = linalg.matmul ins(%x, %wu : tensor<64x512xf16>, tensor<512x1000xf16>)
                      outs(%acc : tensor<64x1000xf16>) -> tensor<64x1000xf16>
  %h = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%gate, %up : tensor<64x1000xf16>, tensor<64x1000xf16>) outs(%eh : tensor<64x1000xf16>) {
  ^bb0(%g: f16, %u: f16, %o: f16):
    %neg = arith.negf %g : f16
    %e = math.exp %neg : f16
    %den = arith.addf %e, %one : f16
    %silu = arith.divf %g, %den : f16
    %r = arith.mulf %silu, %u : f16
    linalg.yield %r : f16
  } -> tensor<64x1000xf16>
  %ey = tensor.empty() : tensor<64x512xf16>
  %yacc = linalg.fill ins(%zero : f16) outs(%ey : tensor<64x512xf16>) -> tensor<64x512xf16>
  %y = linalg.matmul ins(%h, %wd : tensor<64x1000xf16>, tensor<1000x512xf16>)
                     outs(%yacc : tensor<64x512xf16>) -> tensor<64x512xf16>
  return %y : tensor<64x512xf16>
}
