// RUN: spyre-opt %s | FileCheck %s
// Round trip through the generic form too.
// RUN: spyre-opt %s --mlir-print-op-generic | spyre-opt | FileCheck %s
// And through bytecode.
// RUN: spyre-opt %s --emit-bytecode | spyre-opt | FileCheck %s

// The seeds' default layout of f16 [5, 100, 150]; the format defaults from
// the element type and is not printed.
// CHECK-LABEL: func.func @default_layout
// CHECK-SAME: tensor<5x100x150xf16, #spyre.layout<device_size = [100, 3, 5, 64], stride_map = [150, 64, 15000, 1]>>
func.func @default_layout(%arg0: tensor<5x100x150xf16, #spyre.layout<device_size = [100, 3, 5, 64], stride_map = [150, 64, 15000, 1]>>) {
  return
}

// An explicit format and a non-standard arrangement are kept.
// CHECK-LABEL: func.func @explicit_format
// CHECK-SAME: #spyre.layout<device_size = [8, 1024, 32], stride_map = [32, 256, 1], format = IEEE_FP32, arrangement = dl16_to_fp32>
func.func @explicit_format(%arg0: tensor<1024x256xf32, #spyre.layout<device_size = [8, 1024, 32], stride_map = [32, 256, 1], format = IEEE_FP32, arrangement = dl16_to_fp32>>) {
  return
}

// Parameters may come in any order.
// CHECK-LABEL: func.func @any_order
// CHECK-SAME: #spyre.layout<device_size = [8, 64], stride_map = [64, 1]>
func.func @any_order(%arg0: tensor<512xf16, #spyre.layout<stride_map = [64, 1], device_size = [8, 64]>>) {
  return
}

// Every element type with a device format.
// CHECK-LABEL: func.func @formats
// CHECK-SAME: tensor<100x100xf32, #spyre.layout<device_size = [4, 100, 32], stride_map = [32, 100, 1]>>
// CHECK-SAME: tensor<100x100xbf16, #spyre.layout<device_size = [2, 100, 64], stride_map = [64, 100, 1]>>
// CHECK-SAME: tensor<100xi1, #spyre.layout<device_size = [2, 64], stride_map = [64, 1]>>
// CHECK-SAME: tensor<3x300xi8, #spyre.layout<device_size = [3, 3, 128], stride_map = [128, 300, 1]>>
// CHECK-SAME: tensor<10xi32, #spyre.layout<device_size = [1, 32], stride_map = [32, 1]>>
// CHECK-SAME: tensor<10xi64, #spyre.layout<device_size = [1, 32], stride_map = [32, 1]>>
// CHECK-SAME: tensor<200xf8E4M3FN, #spyre.layout<device_size = [2, 128], stride_map = [128, 1]>>
// CHECK-SAME: tensor<200xf8E5M2, #spyre.layout<device_size = [2, 128], stride_map = [128, 1]>>
// CHECK-SAME: tensor<2x300xi4, #spyre.layout<device_size = [2, 2, 256], stride_map = [256, 300, 1]>>
func.func @formats(
    %f32: tensor<100x100xf32, #spyre.layout<device_size = [4, 100, 32], stride_map = [32, 100, 1]>>,
    %bf16: tensor<100x100xbf16, #spyre.layout<device_size = [2, 100, 64], stride_map = [64, 100, 1]>>,
    %i1: tensor<100xi1, #spyre.layout<device_size = [2, 64], stride_map = [64, 1]>>,
    %i8: tensor<3x300xi8, #spyre.layout<device_size = [3, 3, 128], stride_map = [128, 300, 1]>>,
    %i32: tensor<10xi32, #spyre.layout<device_size = [1, 32], stride_map = [32, 1]>>,
    %i64: tensor<10xi64, #spyre.layout<device_size = [1, 32], stride_map = [32, 1]>>,
    %e4m3: tensor<200xf8E4M3FN, #spyre.layout<device_size = [2, 128], stride_map = [128, 1]>>,
    %e5m2: tensor<200xf8E5M2, #spyre.layout<device_size = [2, 128], stride_map = [128, 1]>>,
    %i4: tensor<2x300xi4, #spyre.layout<device_size = [2, 2, 256], stride_map = [256, 300, 1]>>) {
  return
}

// Sparse (one value per stick), rank 0, size-1 dims, broadcast dims, and a
// device space larger than the tensor (padding beyond the stick).
// CHECK-LABEL: func.func @special_layouts
// CHECK-SAME: tensor<5x100xf16, #spyre.layout<device_size = [5, 1, 100, 64], stride_map = [100, -1, 1, -1]>>
// CHECK-SAME: tensor<f16, #spyre.layout<device_size = [1, 64], stride_map = [-1, -1]>>
// CHECK-SAME: tensor<512x1xf16, #spyre.layout<device_size = [8, 1, 64], stride_map = [64, -1, 1]>>
// CHECK-SAME: tensor<128xf16, #spyre.layout<device_size = [3, 2, 64], stride_map = [0, 64, 1]>>
// CHECK-SAME: tensor<100x200x500xf16, #spyre.layout<device_size = [256, 8, 128, 64], stride_map = [500, 64, 100000, 1]>>
func.func @special_layouts(
    %sparse: tensor<5x100xf16, #spyre.layout<device_size = [5, 1, 100, 64], stride_map = [100, -1, 1, -1]>>,
    %scalar: tensor<f16, #spyre.layout<device_size = [1, 64], stride_map = [-1, -1]>>,
    %unit: tensor<512x1xf16, #spyre.layout<device_size = [8, 1, 64], stride_map = [64, -1, 1]>>,
    %broadcast: tensor<128xf16, #spyre.layout<device_size = [3, 2, 64], stride_map = [0, 64, 1]>>,
    %padded: tensor<100x200x500xf16, #spyre.layout<device_size = [256, 8, 128, 64], stride_map = [500, 64, 100000, 1]>>) {
  return
}

// CHECK-LABEL: func.func @transfers
// CHECK-SAME: (%[[H:.+]]: tensor<1024x256xf16>)
func.func @transfers(%h: tensor<1024x256xf16>) -> tensor<1024x256xf16> {
  // CHECK: %[[D:.+]] = spyre.to_device %[[H]] : tensor<1024x256xf16> -> tensor<1024x256xf16, #spyre.layout<device_size = [4, 1024, 64], stride_map = [64, 256, 1]>>
  %d = spyre.to_device %h : tensor<1024x256xf16> -> tensor<1024x256xf16, #spyre.layout<device_size = [4, 1024, 64], stride_map = [64, 256, 1]>>
  // CHECK: %[[T:.+]] = spyre.restickify %[[D]] : tensor<1024x256xf16, #spyre.layout<device_size = [4, 1024, 64], stride_map = [64, 256, 1]>> -> tensor<1024x256xf16, #spyre.layout<device_size = [16, 256, 64], stride_map = [16384, 1, 256]>>
  %t = spyre.restickify %d : tensor<1024x256xf16, #spyre.layout<device_size = [4, 1024, 64], stride_map = [64, 256, 1]>> -> tensor<1024x256xf16, #spyre.layout<device_size = [16, 256, 64], stride_map = [16384, 1, 256]>>
  // CHECK: %[[R:.+]] = spyre.from_device %[[T]] : tensor<1024x256xf16, #spyre.layout<device_size = [16, 256, 64], stride_map = [16384, 1, 256]>> -> tensor<1024x256xf16>
  %r = spyre.from_device %t : tensor<1024x256xf16, #spyre.layout<device_size = [16, 256, 64], stride_map = [16384, 1, 256]>> -> tensor<1024x256xf16>
  // CHECK: return %[[R]]
  return %r : tensor<1024x256xf16>
}

// Function argument attributes consumed by --spyre-assign-default-layouts.
// CHECK-LABEL: func.func @argument_attributes
// CHECK-SAME: spyre.dim_order = array<i64: 1, 0>
// CHECK-SAME: spyre.layout = #spyre.layout<device_size = [4, 1000, 64], stride_map = [64, 200, 1]>
func.func @argument_attributes(
    %a: tensor<1024x256xf16> {spyre.dim_order = array<i64: 1, 0>},
    %b: tensor<1000x200xf16> {spyre.layout = #spyre.layout<device_size = [4, 1000, 64], stride_map = [64, 200, 1]>})
    -> (tensor<8x8xf16> {spyre.dim_order = [1, 0]}) {
  %c = tensor.empty() : tensor<8x8xf16>
  return %c : tensor<8x8xf16>
}
