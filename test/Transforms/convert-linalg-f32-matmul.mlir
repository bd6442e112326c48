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
// PIPELINE-LABEL: func.func @float32_matmul
// PIPELINE-NOT: __host
// PIPELINE-LABEL: func.func @grouped_int4_f32
// PIPELINE: call @grouped_int4_f32__host0
// PIPELINE: spyre.kernel "{{[0-9]+}}_scaledbatchmatmul"
// BAD: for the --f32-matmul option: Cannot find option named 'f64'!
func.func @float32_matmul(%a: tensor<8x64xf32>, %b: tensor<64x8xf32>, %c: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-remark @+1 {{f32 matmul computed in f16 on the device (f32-matmul=f16)}}
  %r = linalg.matmul ins(%a, %b : tensor<8x64xf32>, tensor<64x8xf32>) outs(%c : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}

// IREE's f32 grouped int4 matmul: the dequantization is raised (uint4 tiles
// with f32 scales and zero points, the codes packed on the host) and the
// contraction becomes a scaled matmul reading the stored parts, with A
// converted to f16 and the f16 product converted back.
// CHECK-LABEL: func.func @grouped_int4_f32
// CHECK: %[[X:.+]] = spyre.convert %{{.*}} : tensor<1x256xf32> -> tensor<1x256xf16>
// CHECK: %[[P:.+]] = spyre.scaled_matmul %[[X]], %{{.*}}, %{{.*}}, %{{.*}} {quant = #spyre.quant<format = uint4, scaling = tile, tile = 128, scale_type = float32, zero_point = true, zero_type = float32>} : (tensor<1x256xf16>, tensor<64x128xi8>, tensor<64x2xf32>, tensor<64x2xf32>) -> tensor<1x64xf16>
// CHECK: %[[R:.+]] = spyre.reshape %[[P]] : tensor<1x64xf16> -> tensor<1x1x64xf16>
// CHECK: spyre.convert %[[R]] : tensor<1x1x64xf16> -> tensor<1x1x64xf32>
func.func @grouped_int4_f32(%q: tensor<64x2x128xi4>, %x: tensor<1x1x2x128xf32>, %s: tensor<64x2x1xf32>, %z: tensor<64x2x1xf32>) -> tensor<1x1x64xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<1x1x64xf32>
  %1 = tensor.empty() : tensor<64x2x128xf32>
  %2 = linalg.fill ins(%cst : f32) outs(%0 : tensor<1x1x64xf32>) -> tensor<1x1x64xf32>
  // expected-remark @+3 {{'tensor.collapse_shape' stays on the host}}
  // expected-remark @+2 {{'tensor.expand_shape' stays on the host}}
  // expected-remark @+1 {{'linalg.generic' stays on the host}}
  %3 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%q, %s, %z : tensor<64x2x128xi4>, tensor<64x2x1xf32>, tensor<64x2x1xf32>) outs(%1 : tensor<64x2x128xf32>) {
  ^bb0(%in: i4, %in_0: f32, %in_1: f32, %out: f32):
    %5 = arith.extui %in : i4 to i32
    %6 = arith.uitofp %5 : i32 to f32
    %7 = arith.subf %6, %in_1 : f32
    %8 = arith.mulf %7, %in_0 : f32
    linalg.yield %8 : f32
  } -> tensor<64x2x128xf32>
  // expected-remark @+1 {{f32 matmul computed in f16 on the device (f32-matmul=f16)}}
  %4 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%x, %3 : tensor<1x1x2x128xf32>, tensor<64x2x128xf32>) outs(%2 : tensor<1x1x64xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %5 = arith.mulf %in, %in_0 : f32
    %6 = arith.addf %5, %out : f32
    linalg.yield %6 : f32
  } -> tensor<1x1x64xf32>
  return %4 : tensor<1x1x64xf32>
}
