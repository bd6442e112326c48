// Sparse tensors (upstream's sparse_tensor dialect), checked by
// integration_test/Run/sparse.test. The device holds dense tensors only:
// every op on a sparse tensor runs on the host, sparsified and bufferized by
// upstream's sparsifier, and what follows on dense tensors on the device.

#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
#SV = #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed) }>

// A CSR matrix times a dense one (host), then a ReLU of the dense product
// (device).
func.func @csr_matmul_relu(%a: tensor<64x128xf16, #CSR>, %b: tensor<128x64xf16>) -> tensor<64x64xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<64x64xf16>
  %f = linalg.fill ins(%zero : f16) outs(%e : tensor<64x64xf16>) -> tensor<64x64xf16>
  %p = linalg.matmul ins(%a, %b : tensor<64x128xf16, #CSR>, tensor<128x64xf16>) outs(%f : tensor<64x64xf16>) -> tensor<64x64xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%p : tensor<64x64xf16>) outs(%e : tensor<64x64xf16>) {
  ^bb0(%x: f16, %o: f16):
    %m = arith.maximumf %x, %zero : f16
    linalg.yield %m : f16
  } -> tensor<64x64xf16>
  return %r : tensor<64x64xf16>
}

// A sparse vector times a dense one, summed.
func.func @sparse_dot(%a: tensor<1024xf32, #SV>, %b: tensor<1024xf32>, %x: tensor<f32>) -> tensor<f32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> ()>], iterator_types = ["reduction"]} ins(%a, %b : tensor<1024xf32, #SV>, tensor<1024xf32>) outs(%x : tensor<f32>) {
  ^bb0(%u: f32, %v: f32, %o: f32):
    %m = arith.mulf %u, %v : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %0 : tensor<f32>
}

// The union of two sparse vectors with sparse_tensor.binary (overlap: the
// sum; left only: twice the value; right only: its negation), a helper
// taking its size as an index argument, and the stored values and
// coordinates printed.
func.func @union(%a: tensor<?xf64, #SV>, %b: tensor<?xf64, #SV>, %n: index) -> tensor<?xf64, #SV> {
  %init = bufferization.alloc_tensor(%n) : tensor<?xf64, #SV>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%a, %b : tensor<?xf64, #SV>, tensor<?xf64, #SV>) outs(%init : tensor<?xf64, #SV>) {
  ^bb0(%u: f64, %v: f64, %o: f64):
    %y = sparse_tensor.binary %u, %v : f64, f64 to f64
      overlap = {
        ^bb0(%l: f64, %r: f64):
          %s = arith.addf %l, %r : f64
          sparse_tensor.yield %s : f64
      }
      left = {
        ^bb0(%l: f64):
          %two = arith.constant 2.0 : f64
          %d = arith.mulf %l, %two : f64
          sparse_tensor.yield %d : f64
      }
      right = {
        ^bb0(%r: f64):
          %neg = arith.negf %r : f64
          sparse_tensor.yield %neg : f64
      }
    linalg.yield %y : f64
  } -> tensor<?xf64, #SV>
  return %r : tensor<?xf64, #SV>
}

func.func @print_union() {
  %c0 = arith.constant 0 : index
  %n = arith.constant 8 : index
  %pad = arith.constant -1.0 : f64
  %ipad = arith.constant -1 : index
  %da = arith.constant sparse<[[1], [3], [6]], [1.0, 2.0, 3.0]> : tensor<8xf64>
  %db = arith.constant sparse<[[3], [5]], [10.0, 20.0]> : tensor<8xf64>
  %a = sparse_tensor.convert %da : tensor<8xf64> to tensor<?xf64, #SV>
  %b = sparse_tensor.convert %db : tensor<8xf64> to tensor<?xf64, #SV>
  %u = call @union(%a, %b, %n) : (tensor<?xf64, #SV>, tensor<?xf64, #SV>, index) -> tensor<?xf64, #SV>
  %values = sparse_tensor.values %u : tensor<?xf64, #SV> to memref<?xf64>
  %v = vector.transfer_read %values[%c0], %pad : memref<?xf64>, vector<4xf64>
  vector.print %v : vector<4xf64>
  %coords = sparse_tensor.coordinates %u {level = 0 : index} : tensor<?xf64, #SV> to memref<?xindex>
  %c = vector.transfer_read %coords[%c0], %ipad : memref<?xindex>, vector<4xindex>
  vector.print %c : vector<4xindex>
  %entries = sparse_tensor.number_of_entries %u : tensor<?xf64, #SV>
  vector.print %entries : index
  return
}
