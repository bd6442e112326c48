// The reference's example A: a + b, f16 [128, 256].
func.func @add(%a: tensor<128x256xf16>, %b: tensor<128x256xf16>) -> tensor<128x256xf16> {
  %e = tensor.empty() : tensor<128x256xf16>
  %0 = linalg.add ins(%a, %b : tensor<128x256xf16>, tensor<128x256xf16>) outs(%e : tensor<128x256xf16>) -> tensor<128x256xf16>
  return %0 : tensor<128x256xf16>
}
