// RUN: spyre-opt %s -spyre-assign-default-layouts -split-input-file -verify-diagnostics | FileCheck %s

// The seeds' default layouts; bodies keep computing on host tensors through
// transfers at the boundary.
// CHECK-LABEL: func.func @defaults
// CHECK-SAME: (%[[A:.+]]: tensor<5x100x150xf16, #spyre.layout<device_size = [100, 3, 5, 64], stride_map = [150, 64, 15000, 1]>>,
// CHECK-SAME: %[[B:.+]]: tensor<1000x200xf16, #spyre.layout<device_size = [4, 1000, 64], stride_map = [64, 200, 1]>>)
// CHECK-SAME: -> tensor<5x100x150xf16, #spyre.layout<device_size = [100, 3, 5, 64], stride_map = [150, 64, 15000, 1]>>
// CHECK: %[[HA:.+]] = spyre.from_device %[[A]] : {{.*}} -> tensor<5x100x150xf16>
// CHECK: %[[HB:.+]] = spyre.from_device %[[B]] : {{.*}} -> tensor<1000x200xf16>
// CHECK: %[[E:.+]] = math.exp %[[HA]] : tensor<5x100x150xf16>
// CHECK: %[[D:.+]] = spyre.to_device %[[E]] : tensor<5x100x150xf16> -> tensor<5x100x150xf16, #spyre.layout<device_size = [100, 3, 5, 64], stride_map = [150, 64, 15000, 1]>>
// CHECK: return %[[D]]
func.func @defaults(%a: tensor<5x100x150xf16>, %b: tensor<1000x200xf16>) -> tensor<5x100x150xf16> {
  %e = math.exp %a : tensor<5x100x150xf16>
  return %e : tensor<5x100x150xf16>
}

// -----

// spyre.dim_order and spyre.layout are honoured and consumed; laid-out and
// non-tensor arguments are left alone.
// CHECK-LABEL: func.func @attributes
// CHECK-SAME: %{{.+}}: tensor<5x100x150xf16, #spyre.layout<device_size = [5, 3, 100, 64], stride_map = [15000, 64, 150, 1]>>,
// CHECK-SAME: %{{.+}}: tensor<1024x256xf16, #spyre.layout<device_size = [16, 256, 64], stride_map = [16384, 1, 256]>>,
// CHECK-SAME: %{{.+}}: tensor<1000x200xf16, #spyre.layout<device_size = [4, 2000, 64], stride_map = [64, 200, 1]>>,
// CHECK-SAME: %{{.+}}: tensor<8x64xf16, #spyre.layout<device_size = [1, 8, 64], stride_map = [64, 64, 1]>>,
// CHECK-SAME: %{{.+}}: i32, %{{.+}}: memref<4xf16>)
// CHECK-NOT: spyre.dim_order
// CHECK-NOT: spyre.layout =
func.func @attributes(
    %a: tensor<5x100x150xf16> {spyre.dim_order = array<i64: 1, 0, 2>},
    %b: tensor<1024x256xf16> {spyre.dim_order = [1, 0]},
    %c: tensor<1000x200xf16> {spyre.layout = #spyre.layout<device_size = [4, 2000, 64], stride_map = [64, 200, 1]>},
    %d: tensor<8x64xf16, #spyre.layout<device_size = [1, 8, 64], stride_map = [64, 64, 1]>>,
    %i: i32, %m: memref<4xf16>) {
  return
}

// -----

// Every element type with a device format, sparse layouts, rank 0 and
// size-1 dims.
// CHECK-LABEL: func.func @kinds
// CHECK-SAME: tensor<100x100xf32, #spyre.layout<device_size = [4, 100, 32], stride_map = [32, 100, 1]>>
// CHECK-SAME: tensor<3x300xi8, #spyre.layout<device_size = [3, 3, 128], stride_map = [128, 300, 1]>>
// CHECK-SAME: tensor<10xi64, #spyre.layout<device_size = [1, 32], stride_map = [32, 1]>>
// CHECK-SAME: tensor<5x100xf16, #spyre.layout<device_size = [5, 1, 100, 64], stride_map = [100, -1, 1, -1]>>
// CHECK-SAME: tensor<f16, #spyre.layout<device_size = [1, 64], stride_map = [-1, -1]>>
// CHECK-SAME: tensor<512x1xf16, #spyre.layout<device_size = [8, 1, 64], stride_map = [64, -1, 1]>>
// CHECK-SAME: tensor<1x100x150xbf16, #spyre.layout<device_size = [1, 3, 100, 64], stride_map = [-1, 64, 150, 1]>>
func.func @kinds(%f32: tensor<100x100xf32>, %i8: tensor<3x300xi8>, %i64: tensor<10xi64>,
                 %sparse: tensor<5x100xf16> {spyre.dim_order = array<i64: 1, 0, -1>},
                 %scalar: tensor<f16>, %unit: tensor<512x1xf16>, %lead: tensor<1x100x150xbf16>) {
  return
}

// -----

// Declarations and their call sites are updated together.
// CHECK-LABEL: func.func private @external
// CHECK-SAME: (tensor<64x64xf16, #spyre.layout<device_size = [1, 64, 64], stride_map = [64, 64, 1]>>) -> tensor<64x64xf16, #spyre.layout<device_size = [1, 64, 64], stride_map = [64, 64, 1]>>
func.func private @external(tensor<64x64xf16>) -> tensor<64x64xf16>

// CHECK-LABEL: func.func @caller
// CHECK: %[[IN:.+]] = spyre.from_device
// CHECK: %[[ARG:.+]] = spyre.to_device %[[IN]]
// CHECK: %[[OUT:.+]] = call @external(%[[ARG]]) : (tensor<64x64xf16, #spyre.layout<{{.*}}>>) -> tensor<64x64xf16, #spyre.layout<{{.*}}>>
// CHECK: %[[HOST:.+]] = spyre.from_device %[[OUT]]
// CHECK: %[[NEG:.+]] = arith.negf %[[HOST]]
func.func @caller(%x: tensor<64x64xf16>) -> tensor<64x64xf16> {
  %y = func.call @external(%x) : (tensor<64x64xf16>) -> tensor<64x64xf16>
  %z = arith.negf %y : tensor<64x64xf16>
  return %z : tensor<64x64xf16>
}

// -----

// The stick size comes from the module's target.
// CHECK-LABEL: func.func @wide_sticks
// CHECK-SAME: tensor<1000x200xf16, #spyre.layout<device_size = [2, 1000, 128], stride_map = [128, 200, 1], stick_bytes = 256>>
// CHECK-SAME: tensor<100xf32, #spyre.layout<device_size = [2, 64], stride_map = [64, 1], stick_bytes = 256>>
module attributes {spyre.target = #spyre.target<stick_bytes = 256>} {
  func.func @wide_sticks(%a: tensor<1000x200xf16>, %b: tensor<100xf32>) {
    return
  }
}

// -----

// expected-error @+1 {{argument #0 of @dynamic: cannot assign a layout to 'tensor<?x64xf16>': dynamic dims have no device layout}}
func.func @dynamic(%a: tensor<?x64xf16>) {
  return
}

// -----

// expected-error @+1 {{argument #0 of @unsupported: cannot assign a layout to 'tensor<4x4xf64>': element type 'f64' has no Spyre device format}}
func.func @unsupported(%a: tensor<4x4xf64>) {
  return
}

// -----

// expected-error @+1 {{result #0 of @result_error: cannot assign a layout to 'tensor<4x4xcomplex<f32>>': element type 'complex<f32>' has no Spyre device format}}
func.func @result_error() -> tensor<4x4xcomplex<f32>> {
  %c = tensor.empty() : tensor<4x4xcomplex<f32>>
  return %c : tensor<4x4xcomplex<f32>>
}

// -----

// expected-error @+1 {{argument #0 of @foreign: has encoding "sparse", which is not a #spyre.layout; cannot assign a layout}}
func.func @foreign(%a: tensor<4x4xf16, "sparse">) {
  return
}

// -----

module attributes {spyre.target = #spyre.target<stick_bytes = 256>} {
  // expected-error @+1 {{argument #0 of @stale_layout: its 'spyre.layout' is built for 128-byte sticks, but the target's sticks have 256 bytes}}
  func.func @stale_layout(%a: tensor<1000x200xf16> {spyre.layout = #spyre.layout<device_size = [4, 1000, 64], stride_map = [64, 200, 1]>}) {
    return
  }
}
