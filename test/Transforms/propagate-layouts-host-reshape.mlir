// RUN: spyre-opt %s --spyre-propagate-layouts 2>&1 | FileCheck %s

// A reshape no device layout makes a view (here the product of a blocked
// matmul, split back into its [2, 32, 2, 32] blocks) is copied through the
// host - a transfer out, the reshape, a transfer back - instead of failing;
// the solver takes it only when nothing on the device works.
// CHECK: remark: 'spyre.reshape' runs on the host: no layout of its input is a view of its result the device could use
// CHECK: spyre.matmul
// CHECK: %[[H:.*]] = spyre.from_device %{{.*}} : tensor<64x64xf16, #spyre.layout<{{.*}}>> -> tensor<64x64xf16>
// CHECK: %[[R:.*]] = tensor.reshape %[[H]](%{{.*}}) : (tensor<64x64xf16>, tensor<4xi64>) -> tensor<2x32x2x32xf16>
// CHECK: spyre.to_device %[[R]] : tensor<2x32x2x32xf16> -> tensor<2x32x2x32xf16, #spyre.layout<
// CHECK-NOT: spyre.reshape %{{.*}} : tensor<64x64xf16

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @main(%arg0: tensor<2x2x32x32xf16>, %arg1: tensor<2x2x32x32xf16>, %arg2: tensor<2x2x32x32xf16>) -> tensor<2x2x32x32xf16> {
  %0 = spyre.transpose %arg0 permutation = [0, 2, 1, 3] : tensor<2x2x32x32xf16> -> tensor<2x32x2x32xf16>
  %1 = spyre.reshape %0 : tensor<2x32x2x32xf16> -> tensor<64x64xf16>
  %2 = spyre.transpose %arg1 permutation = [0, 3, 1, 2] : tensor<2x2x32x32xf16> -> tensor<2x32x2x32xf16>
  %3 = spyre.reshape %2 : tensor<2x32x2x32xf16> -> tensor<64x64xf16>
  %4 = spyre.matmul %1, %3 {indexing_maps = [#map, #map1, #map2]} : tensor<64x64xf16>, tensor<64x64xf16> -> tensor<64x64xf16>
  %5 = spyre.reshape %4 : tensor<64x64xf16> -> tensor<2x32x2x32xf16>
  %6 = spyre.transpose %5 permutation = [0, 2, 1, 3] : tensor<2x32x2x32xf16> -> tensor<2x2x32x32xf16>
  %7 = spyre.add %6, %arg2 : (tensor<2x2x32x32xf16>, tensor<2x2x32x32xf16>) -> tensor<2x2x32x32xf16>
  return %7 : tensor<2x2x32x32xf16>
}


// An argument reshaped on the host is downloaded once, by the round trip.
// CHECK-LABEL: func.func @arg_reshape
// CHECK: %[[H:.*]] = spyre.from_device %arg0 : tensor<3x8x2x2xf32, #spyre.layout<{{.*}}>> -> tensor<3x8x2x2xf32>
// CHECK-NEXT: arith.constant dense<[6, 16]> : tensor<2xi64>
// CHECK-NEXT: tensor.reshape %[[H]]
// CHECK-NOT: spyre.from_device
func.func @arg_reshape(%x: tensor<3x8x2x2xf32>, %y: tensor<6x16xf32>) -> tensor<6x16xf32> {
  %r = spyre.reshape %x : tensor<3x8x2x2xf32> -> tensor<6x16xf32>
  %a = spyre.add %r, %y : (tensor<6x16xf32>, tensor<6x16xf32>) -> tensor<6x16xf32>
  return %a : tensor<6x16xf32>
}
