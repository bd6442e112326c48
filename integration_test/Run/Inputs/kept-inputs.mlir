// A projection whose A slice stays in LX across the tiles of N (kept-inputs.test).
func.func @proj(%a: tensor<128x4096xf16>, %w: tensor<4096x4096xf16>) -> tensor<128x4096xf16> {
  %z = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<128x4096xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<128x4096xf16>) -> tensor<128x4096xf16>
  %r = linalg.matmul ins(%a, %w : tensor<128x4096xf16>, tensor<4096x4096xf16>) outs(%f : tensor<128x4096xf16>) -> tensor<128x4096xf16>
  return %r : tensor<128x4096xf16>
}
