// Functions whose arguments spyre-run cannot pass or generate
// (integration_test/Run/bad-inputs.test).

// A scalar argument is a 0-d tensor: its input holds one value.
func.func @scale(%a: tensor<4x64xf16>, %s: f16) -> tensor<4x64xf16> {
  return %a : tensor<4x64xf16>
}

// A vector argument: no tensor form.
func.func @vec(%a: tensor<4x64xf16>, %s: vector<4xf16>) -> tensor<4x64xf16> {
  return %a : tensor<4x64xf16>
}

// A dynamic shape: --random-inputs takes --dynamic-size for it.
func.func @dyn(%a: tensor<?x64xf16>) -> tensor<?x64xf16> {
  return %a : tensor<?x64xf16>
}

// An element type without a .npy dtype spyre-run reads or writes.
func.func @f6(%a: tensor<4x64xf6E2M3FN>) -> tensor<4x64xf6E2M3FN> {
  return %a : tensor<4x64xf6E2M3FN>
}
// A weight whose data was elided when the program was printed (torch-mlir
// and fuseflow dumps): it runs with values only when --random-inputs draws
// it, and with --model-only.
func.func @elided(%x: tensor<64x128xf16>) -> tensor<64x128xf16> {
  %w = arith.constant dense_resource<__elided__> : tensor<64x128xf16>
  %e = tensor.empty() : tensor<64x128xf16>
  %r = linalg.add ins(%x, %w : tensor<64x128xf16>, tensor<64x128xf16>) outs(%e : tensor<64x128xf16>) -> tensor<64x128xf16>
  return %r : tensor<64x128xf16>
}
// A matmul accumulating into a tensor.empty without a fill (test IR of
// several projects): the contents are undefined, so reading them as zeros
// (as the device's kernels do) is a valid reading, and the reference does.
func.func @uninitialized_accumulator(%a: tensor<64x128xf16>, %b: tensor<128x64xf16>) -> tensor<64x64xf16> {
  %e = tensor.empty() : tensor<64x64xf16>
  %r = linalg.matmul ins(%a, %b : tensor<64x128xf16>, tensor<128x64xf16>) outs(%e : tensor<64x64xf16>) -> tensor<64x64xf16>
  return %r : tensor<64x64xf16>
}
// A tensor.empty read as an input: the device path says so too.
func.func @empty_as_input() -> tensor<64x64xf32> {
  %c = arith.constant 1.0 : f32
  %a = tensor.empty() : tensor<64x64xf32>
  %e = tensor.empty() : tensor<64x64xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.maximumf %x, %c : f32
    linalg.yield %m : f32
  } -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}
