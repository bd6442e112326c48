// TOSA as TFLite and torch-mlir's TOSA path write it, alone or mixed with
// linalg: spyre-run, spyre-compile and Python lower it with upstream's
// tosa-to-linalg, tosa-to-tensor and tosa-to-arith, then compile the
// linalg program for the device.

func.func @tosa_softmax(%x: tensor<16x128xf16>) -> tensor<16x128xf16> {
  %m = tosa.reduce_max %x {axis = 1 : i32} : (tensor<16x128xf16>) -> tensor<16x1xf16>
  %d = tosa.sub %x, %m : (tensor<16x128xf16>, tensor<16x1xf16>) -> tensor<16x128xf16>
  %e = tosa.exp %d : (tensor<16x128xf16>) -> tensor<16x128xf16>
  %s = tosa.reduce_sum %e {axis = 1 : i32} : (tensor<16x128xf16>) -> tensor<16x1xf16>
  %r = tosa.reciprocal %s : (tensor<16x1xf16>) -> tensor<16x1xf16>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %y = tosa.mul %e, %r, %shift : (tensor<16x128xf16>, tensor<16x1xf16>, tensor<1xi8>) -> tensor<16x128xf16>
  return %y : tensor<16x128xf16>
}

// A linear layer: TOSA's batched matmul, a reshape, a bias add in linalg.
func.func @tosa_linear(%x: tensor<1x32x256xf16>, %w: tensor<1x256x128xf16>, %b: tensor<32x128xf16>) -> tensor<32x128xf16> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %y = tosa.matmul %x, %w, %zp, %zp : (tensor<1x32x256xf16>, tensor<1x256x128xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x32x128xf16>
  %shape = tosa.const_shape {values = dense<[32, 128]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %r = tosa.reshape %y, %shape : (tensor<1x32x128xf16>, !tosa.shape<2>) -> tensor<32x128xf16>
  %e = tensor.empty() : tensor<32x128xf16>
  %a = linalg.add ins(%r, %b : tensor<32x128xf16>, tensor<32x128xf16>) outs(%e : tensor<32x128xf16>) -> tensor<32x128xf16>
  return %a : tensor<32x128xf16>
}
