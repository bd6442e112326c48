// A scratchpad too small for any tile of the matmul's device form: with
// host fallback on, the matmul goes back to the host (a remark says why)
// and the program runs; integration_test/Run/host-fallback.test.
module attributes {spyre.target = #spyre.target<lx_bytes = 1024>} {
func.func @mm(%a: tensor<128x256xf16>, %b: tensor<256x128xf16>) -> tensor<128x128xf16> {
  %e = tensor.empty() : tensor<128x128xf16>
  %0 = linalg.matmul ins(%a, %b : tensor<128x256xf16>, tensor<256x128xf16>) outs(%e : tensor<128x128xf16>) -> tensor<128x128xf16>
  return %0 : tensor<128x128xf16>
}
}
