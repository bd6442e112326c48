// RUN: spyre-opt %s --spyre-convert-linalg=f32-matmul=f16 -verify-diagnostics | FileCheck %s
// RUN: spyre-opt %s --spyre-pipeline=f32-matmul=f16 2>&1 | FileCheck %s --check-prefix=PIPELINE
// RUN: not spyre-opt %s --spyre-convert-linalg=f32-matmul=f64 2>&1 | FileCheck %s --check-prefix=BAD

// With f32-matmul=f16 an f32 matmul runs on the device in the PT unit's
// format: operands converted to f16, the product converted back, and the
// f32 init added in f32.
// CHECK-LABEL: func.func @float32_matmul
// CHECK-SAME: (%[[A:.+]]: tensor<8x64xf32>, %[[B:.+]]: tensor<64x8xf32>, %[[C:.+]]: tensor<8x8xf32>)
// CHECK-DAG: %[[A16:.+]] = spyre.convert %[[A]] : tensor<8x64xf32> -> tensor<8x64xf16>
// CHECK-DAG: %[[B16:.+]] = spyre.convert %[[B]] : tensor<64x8xf32> -> tensor<64x8xf16>
// CHECK: %[[P:.+]] = spyre.matmul %[[A16]], %[[B16]] : tensor<8x64xf16>, tensor<64x8xf16> -> tensor<8x8xf16>
// CHECK: %[[P32:.+]] = spyre.convert %[[P]] : tensor<8x8xf16> -> tensor<8x8xf32>
// CHECK: spyre.add %[[P32]], %[[C]]
// CHECK-NOT: linalg.matmul
// PIPELINE: remark: f32 matmul computed in f16 on the device (f32-matmul=f16)
// PIPELINE-NOT: __host
// BAD: for the --f32-matmul option: Cannot find option named 'f64'!
func.func @float32_matmul(%a: tensor<8x64xf32>, %b: tensor<64x8xf32>, %c: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-remark @+1 {{f32 matmul computed in f16 on the device (f32-matmul=f16)}}
  %r = linalg.matmul ins(%a, %b : tensor<8x64xf32>, tensor<64x8xf32>) outs(%c : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}
