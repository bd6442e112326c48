// Functions on buffers, as tests written for mlir-runner pass them: spyre-run
// and Python take memref arguments like tensors and return each one's
// contents after the call, after the function's own results;
// integration_test/Run/memref-args.test.

// The output is an argument the function writes.
func.func @matmul_into(%a: memref<8x16xf32>, %b: memref<16x4xf32>, %c: memref<8x4xf32>) {
  linalg.matmul ins(%a, %b : memref<8x16xf32>, memref<16x4xf32>) outs(%c : memref<8x4xf32>)
  return
}

// A helper other code calls: run by itself, its callers keep theirs.
func.func @scale_in_place(%x: memref<4x8xf32>, %s: f32) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} outs(%x : memref<4x8xf32>) {
  ^bb0(%v: f32):
    %m = arith.mulf %v, %s : f32
    linalg.yield %m : f32
  }
  return
}

// Tensors and buffers together: a tensor result and a written buffer.
func.func @mixed(%t: tensor<4x8xf32>, %x: memref<4x8xf32>) -> tensor<4x8xf32> {
  %two = arith.constant 2.0 : f32
  call @scale_in_place(%x, %two) : (memref<4x8xf32>, f32) -> ()
  %e = tensor.empty() : tensor<4x8xf32>
  %r = linalg.exp ins(%t : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// Sizes the inputs give.
func.func @dynamic_add(%a: memref<?x?xf32>, %b: memref<?x?xf32>) {
  linalg.add ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%b : memref<?x?xf32>)
  return
}

// A buffer returned (an output argument, as tpp-mlir's tests write them):
// its contents at the return, and the argument's after the call.
func.func @returns_buffer(%x: memref<2x4xf32>) -> memref<2x4xf32> {
  %one = arith.constant 1.0 : f32
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} outs(%x : memref<2x4xf32>) {
  ^bb0(%v: f32):
    %a = arith.addf %v, %one : f32
    linalg.yield %a : f32
  }
  return %x : memref<2x4xf32>
}
