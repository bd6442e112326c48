// A function taking scalars, run by spyre-run and Python (which pass them
// as 0-d tensors); integration_test/Run/host-fallback.test.
// Scalar arguments (a scale, an exponent) travel as 0-d tensors: .npy
// arrays of shape () or NumPy scalars.
func.func @scalar_args(%a: tensor<8x64xf16>, %s: f16, %n: i32) -> tensor<8x64xf16> {
  %e = tensor.empty() : tensor<8x64xf16>
  %x = linalg.exp ins(%a : tensor<8x64xf16>) outs(%e : tensor<8x64xf16>) -> tensor<8x64xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x64xf16>) outs(%e : tensor<8x64xf16>) {
  ^bb0(%v: f16, %o: f16):
    %c = arith.sitofp %n : i32 to f16
    %m = arith.mulf %v, %s : f16
    %t = arith.addf %m, %c : f16
    linalg.yield %t : f16
  } -> tensor<8x64xf16>
  return %r : tensor<8x64xf16>
}

// A scalar result comes back as a 0-d tensor (.npy of shape ()).
func.func @scalar_result(%a: tensor<8x64xf16>, %s: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %v = tensor.extract %a[%c3, %c0] : tensor<8x64xf16>
  %w = arith.extf %v : f16 to f32
  %r = arith.mulf %w, %s : f32
  return %r : f32
}
