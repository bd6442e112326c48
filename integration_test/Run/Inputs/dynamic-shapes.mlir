// Programs written for any size (IREE's and torch-mlir's dynamic dims):
// spyre-run and spyre.run specialize them to the inputs' shapes (or
// --dynamic-size), checked by integration_test/Run/dynamic-shapes.test.

func.func @add(%a: tensor<?x?xf16>, %b: tensor<?x?xf16>) -> tensor<?x?xf16> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %a, %c0 : tensor<?x?xf16>
  %n = tensor.dim %a, %c1 : tensor<?x?xf16>
  %e = tensor.empty(%m, %n) : tensor<?x?xf16>
  %r = linalg.add ins(%a, %b : tensor<?x?xf16>, tensor<?x?xf16>) outs(%e : tensor<?x?xf16>) -> tensor<?x?xf16>
  return %r : tensor<?x?xf16>
}

// A static K beside dynamic M and N.
func.func @matmul(%a: tensor<?x256xf16>, %b: tensor<256x?xf16>) -> tensor<?x?xf16> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f16
  %m = tensor.dim %a, %c0 : tensor<?x256xf16>
  %n = tensor.dim %b, %c1 : tensor<256x?xf16>
  %e = tensor.empty(%m, %n) : tensor<?x?xf16>
  %f = linalg.fill ins(%zero : f16) outs(%e : tensor<?x?xf16>) -> tensor<?x?xf16>
  %r = linalg.matmul ins(%a, %b : tensor<?x256xf16>, tensor<256x?xf16>) outs(%f : tensor<?x?xf16>) -> tensor<?x?xf16>
  return %r : tensor<?x?xf16>
}

// A gather (canonicalization does not size it: the driver does).
func.func @gather(%s: tensor<?x?xf32>, %i: tensor<2x1xindex>) -> tensor<2x?xf32> {
  %r = tensor.gather %s[%i] gather_dims([0]) : (tensor<?x?xf32>, tensor<2x1xindex>) -> tensor<2x?xf32>
  return %r : tensor<2x?xf32>
}

// A result whose size is data: no argument shape fixes it.
func.func @data_dependent(%a: tensor<?xf32>, %n: tensor<index>) -> tensor<?xf32> {
  %s = tensor.extract %n[] : tensor<index>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty(%s) : tensor<?xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  return %f : tensor<?xf32>
}

// A dynamic argument cast to a static shape (IREE's early data tiling
// tests): the program holds only at that size.
func.func @cast_to_static(%a: tensor<?x3xf32>) -> tensor<5x3xf32> {
  %c = tensor.cast %a : tensor<?x3xf32> to tensor<5x3xf32>
  return %c : tensor<5x3xf32>
}
