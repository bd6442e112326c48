// RUN: spyre-opt %s --spyre-pipeline=kernels=false | FileCheck %s
// Options are accepted (and documented in --help).
// RUN: spyre-opt %s --spyre-pipeline="beam-width=8 exact-limit=0 kernels=false" | FileCheck %s
// RUN: spyre-opt --help | FileCheck %s --check-prefix=HELP

// RUN: spyre-opt %s --spyre-pipeline="cores=8 policy=greedy lx-residency=false" | FileCheck %s --check-prefix=KERNELS

// HELP: --spyre-pipeline
// HELP: --beam-width=
// HELP: --cores=
// HELP: --exact-limit=
// HELP: --kernels
// HELP: --lx-residency
// HELP: --policy=

// The whole pipeline ends in kernels: nothing but kernels on the device,
// every tensor placed, the pool sized.
// KERNELS-LABEL: func.func @block
// KERNELS-SAME: {spyre.mem = #spyre.mem<io 0>}
// KERNELS-SAME: spyre.pool_bytes =
// KERNELS-NOT: spyre.division
// KERNELS: spyre.kernel "0_batchmatmul"
// KERNELS-SAME: #spyre.kdim<"mb", size = 128, split = 2
// KERNELS-SAME: #spyre.kdim<"out", size = 256, granule = 64, split = 4
// KERNELS: spyre.kernel "1_greaterthan"
// KERNELS-NOT: mem = <lx
// KERNELS: return

// linalg in, laid-out spyre ops out: no linalg, no transfers inside.
// CHECK-LABEL: func.func @block
// CHECK-SAME: -> tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
// CHECK-NOT: linalg.
// CHECK-NOT: spyre.to_device
// CHECK-NOT: spyre.from_device
// CHECK: %[[M:.+]] = spyre.matmul
// CHECK: %[[G:.+]] = spyre.greater_than %[[M]]
// CHECK: %[[W:.+]] = spyre.where %[[G]], %[[M]]
// CHECK: %[[R:.+]] = spyre.relu %[[M]]
// CHECK: %[[Y:.+]] = spyre.maximum %[[R]], %[[W]]
// CHECK: return %[[Y]]
func.func @block(%x: tensor<128x64xf16>, %w: tensor<64x256xf16>) -> tensor<128x256xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<128x256xf16>
  %z = linalg.fill ins(%zero : f16) outs(%e : tensor<128x256xf16>) -> tensor<128x256xf16>
  %m = linalg.matmul ins(%x, %w : tensor<128x64xf16>, tensor<64x256xf16>) outs(%z : tensor<128x256xf16>) -> tensor<128x256xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%m : tensor<128x256xf16>) outs(%e : tensor<128x256xf16>) {
  ^bb0(%v: f16, %o: f16):
    %c = arith.cmpf ogt, %v, %zero : f16
    %s = arith.select %c, %v, %zero : f16
    linalg.yield %s : f16
  } -> tensor<128x256xf16>
  %relu = linalg.max ins(%m, %z : tensor<128x256xf16>, tensor<128x256xf16>) outs(%e : tensor<128x256xf16>) -> tensor<128x256xf16>
  %y = linalg.max ins(%relu, %r : tensor<128x256xf16>, tensor<128x256xf16>) outs(%e : tensor<128x256xf16>) -> tensor<128x256xf16>
  return %y : tensor<128x256xf16>
}
