// Softmax over a vocabulary-sized row that is not a whole number of sticks
// (1000 = 15 sticks + 40): the row max and sum reduce along a padded stick,
// so the padding must hold -inf and 0 respectively.

func.func @softmax(%x: tensor<64x1000xf16>) -> tensor<64x1000xf16> {
  %e = tensor.empty() : tensor<64x1000xf16>
  %y = linalg.softmax dimension(1) ins(%x : tensor<64x1000xf16>)
                                   outs(%e : tensor<64x1000xf16>) -> tensor<64x1000xf16>
  return %y : tensor<64x1000xf16>
}
