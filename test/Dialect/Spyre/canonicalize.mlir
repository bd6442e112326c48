// RUN: spyre-opt %s -canonicalize -split-input-file | FileCheck %s
// Laid-out IR survives canonicalize + cse with its encodings intact.
// RUN: spyre-opt %s -canonicalize -cse -split-input-file | FileCheck %s

#rows = #spyre.layout<device_size = [4, 1024, 64], stride_map = [64, 256, 1]>
#cols = #spyre.layout<device_size = [16, 256, 64], stride_map = [16384, 1, 256]>
#wide = #spyre.layout<device_size = [4, 2048, 64], stride_map = [64, 256, 1]>

// Restickifying to the layout a value already has is a no-op.
// CHECK-LABEL: func.func @restickify_same_layout
// CHECK-SAME: (%[[D:.+]]: tensor<1024x256xf16, #spyre.layout<device_size = [4, 1024, 64], stride_map = [64, 256, 1]>>)
// CHECK-NOT: spyre.restickify
// CHECK: return %[[D]]
func.func @restickify_same_layout(%d: tensor<1024x256xf16, #rows>) -> tensor<1024x256xf16, #rows> {
  %r = spyre.restickify %d : tensor<1024x256xf16, #rows> -> tensor<1024x256xf16, #rows>
  return %r : tensor<1024x256xf16, #rows>
}

// -----

#rows = #spyre.layout<device_size = [4, 1024, 64], stride_map = [64, 256, 1]>
#cols = #spyre.layout<device_size = [16, 256, 64], stride_map = [16384, 1, 256]>
#wide = #spyre.layout<device_size = [4, 2048, 64], stride_map = [64, 256, 1]>

// A chain of restickifies composes into one from the first source.
// CHECK-LABEL: func.func @restickify_chain
// CHECK-SAME: (%[[D:.+]]: tensor<1024x256xf16, #spyre.layout<device_size = [4, 1024, 64], stride_map = [64, 256, 1]>>)
// CHECK: %[[R:.+]] = spyre.restickify %[[D]] : tensor<1024x256xf16, #spyre.layout<device_size = [4, 1024, 64], stride_map = [64, 256, 1]>> -> tensor<1024x256xf16, #spyre.layout<device_size = [4, 2048, 64], stride_map = [64, 256, 1]>>
// CHECK-NOT: spyre.restickify
// CHECK: return %[[R]]
func.func @restickify_chain(%d: tensor<1024x256xf16, #rows>) -> tensor<1024x256xf16, #wide> {
  %a = spyre.restickify %d : tensor<1024x256xf16, #rows> -> tensor<1024x256xf16, #cols>
  %b = spyre.restickify %a : tensor<1024x256xf16, #cols> -> tensor<1024x256xf16, #wide>
  return %b : tensor<1024x256xf16, #wide>
}

// -----

#rows = #spyre.layout<device_size = [4, 1024, 64], stride_map = [64, 256, 1]>
#cols = #spyre.layout<device_size = [16, 256, 64], stride_map = [16384, 1, 256]>

// A chain that comes back to the source layout vanishes.
// CHECK-LABEL: func.func @restickify_round_trip
// CHECK-SAME: (%[[D:.+]]: tensor<1024x256xf16
// CHECK-NOT: spyre.restickify
// CHECK: return %[[D]]
func.func @restickify_round_trip(%d: tensor<1024x256xf16, #rows>) -> tensor<1024x256xf16, #rows> {
  %a = spyre.restickify %d : tensor<1024x256xf16, #rows> -> tensor<1024x256xf16, #cols>
  %b = spyre.restickify %a : tensor<1024x256xf16, #cols> -> tensor<1024x256xf16, #rows>
  return %b : tensor<1024x256xf16, #rows>
}

// -----

#rows = #spyre.layout<device_size = [4, 1024, 64], stride_map = [64, 256, 1]>

// from_device of to_device cancels.
// CHECK-LABEL: func.func @host_round_trip
// CHECK-SAME: (%[[H:.+]]: tensor<1024x256xf16>)
// CHECK-NOT: = spyre.
// CHECK: return %[[H]]
func.func @host_round_trip(%h: tensor<1024x256xf16>) -> tensor<1024x256xf16> {
  %d = spyre.to_device %h : tensor<1024x256xf16> -> tensor<1024x256xf16, #rows>
  %r = spyre.from_device %d : tensor<1024x256xf16, #rows> -> tensor<1024x256xf16>
  return %r : tensor<1024x256xf16>
}

// -----

#rows = #spyre.layout<device_size = [4, 1024, 64], stride_map = [64, 256, 1]>

// So does to_device of from_device into the same layout.
// CHECK-LABEL: func.func @device_round_trip
// CHECK-SAME: (%[[D:.+]]: tensor<1024x256xf16
// CHECK-NOT: = spyre.
// CHECK: return %[[D]]
func.func @device_round_trip(%d: tensor<1024x256xf16, #rows>) -> tensor<1024x256xf16, #rows> {
  %h = spyre.from_device %d : tensor<1024x256xf16, #rows> -> tensor<1024x256xf16>
  %e = spyre.to_device %h : tensor<1024x256xf16> -> tensor<1024x256xf16, #rows>
  return %e : tensor<1024x256xf16, #rows>
}

// -----

#rows = #spyre.layout<device_size = [4, 1024, 64], stride_map = [64, 256, 1]>
#cols = #spyre.layout<device_size = [16, 256, 64], stride_map = [16384, 1, 256]>

// Into another layout, the host round trip becomes a device restickify.
// CHECK-LABEL: func.func @device_round_trip_relayout
// CHECK-SAME: (%[[D:.+]]: tensor<1024x256xf16
// CHECK-NOT: spyre.from_device
// CHECK-NOT: spyre.to_device
// CHECK: %[[R:.+]] = spyre.restickify %[[D]]
// CHECK-SAME: -> tensor<1024x256xf16, #spyre.layout<device_size = [16, 256, 64], stride_map = [16384, 1, 256]>>
// CHECK: return %[[R]]
func.func @device_round_trip_relayout(%d: tensor<1024x256xf16, #rows>) -> tensor<1024x256xf16, #cols> {
  %h = spyre.from_device %d : tensor<1024x256xf16, #rows> -> tensor<1024x256xf16>
  %e = spyre.to_device %h : tensor<1024x256xf16> -> tensor<1024x256xf16, #cols>
  return %e : tensor<1024x256xf16, #cols>
}

// -----

#rows = #spyre.layout<device_size = [4, 1024, 64], stride_map = [64, 256, 1]>
#cols = #spyre.layout<device_size = [16, 256, 64], stride_map = [16384, 1, 256]>

// Reading back a restickified value reads the same host tensor as reading
// its source.
// CHECK-LABEL: func.func @from_device_through_restickify
// CHECK-SAME: (%[[D:.+]]: tensor<1024x256xf16
// CHECK-NOT: spyre.restickify
// CHECK: %[[H:.+]] = spyre.from_device %[[D]] : tensor<1024x256xf16, #spyre.layout<device_size = [4, 1024, 64], stride_map = [64, 256, 1]>> -> tensor<1024x256xf16>
// CHECK: return %[[H]]
func.func @from_device_through_restickify(%d: tensor<1024x256xf16, #rows>) -> tensor<1024x256xf16> {
  %a = spyre.restickify %d : tensor<1024x256xf16, #rows> -> tensor<1024x256xf16, #cols>
  %h = spyre.from_device %a : tensor<1024x256xf16, #cols> -> tensor<1024x256xf16>
  return %h : tensor<1024x256xf16>
}

// -----

#rows = #spyre.layout<device_size = [4, 1024, 64], stride_map = [64, 256, 1]>

// Transfers have no side effects: unused ones disappear.
// CHECK-LABEL: func.func @dead_transfers
// CHECK-NOT: = spyre.
// CHECK: return
func.func @dead_transfers(%h: tensor<1024x256xf16>) {
  %d = spyre.to_device %h : tensor<1024x256xf16> -> tensor<1024x256xf16, #rows>
  %r = spyre.from_device %d : tensor<1024x256xf16, #rows> -> tensor<1024x256xf16>
  return
}

// -----

#rows = #spyre.layout<device_size = [4, 1024, 64], stride_map = [64, 256, 1]>

// Different values are not merged; identical transfers are (with -cse).
// CHECK-LABEL: func.func @distinct_values
// CHECK-COUNT-2: spyre.to_device
func.func @distinct_values(%a: tensor<1024x256xf16>, %b: tensor<1024x256xf16>) -> (tensor<1024x256xf16, #rows>, tensor<1024x256xf16, #rows>) {
  %da = spyre.to_device %a : tensor<1024x256xf16> -> tensor<1024x256xf16, #rows>
  %db = spyre.to_device %b : tensor<1024x256xf16> -> tensor<1024x256xf16, #rows>
  return %da, %db : tensor<1024x256xf16, #rows>, tensor<1024x256xf16, #rows>
}

// -----

// A quantize of a constant folds to its codes, computed as PyTorch's
// quantize_per_tensor computes them (worked by hand, scale 0.0125, zero
// point 3): 0.03125 / 0.0125 is a tie (2.5 -> 2), 0.04375 / 0.0125 is
// 3.4999999 in double but 3.5 in f32, the quotient's type (-> 4), and 400
// and -400 clamp.
// CHECK-LABEL: func.func @quantize_constant
// CHECK: arith.constant dense<{{\[\[}}3, 5, 7, -77], [127, -128, 4, 3]]> : tensor<2x4xi8>
// CHECK-NOT: spyre.quantize
func.func @quantize_constant() -> tensor<2x4xi8> {
  %x = arith.constant dense<[[0.0, 0.03125, 0.04375, -1.0], [5.0, -5.0, 0.0125, 0.00625]]> : tensor<2x4xf32>
  %s = arith.constant dense<0.0125> : tensor<1x1xf32>
  %z = arith.constant dense<3> : tensor<1x1xi8>
  %q = spyre.quantize %x scales(%s, %z : tensor<1x1xf32>, tensor<1x1xi8>) {quant = #spyre.quant<format = int8, scaling = tensor, zero_point = true>} : tensor<2x4xf32> -> tensor<2x4xi8>
  return %q : tensor<2x4xi8>
}

// -----

// Without given scales the fold returns every part: MXFP8 of one block of
// 32 whose largest magnitude is 6.0 takes the scale 2^(2 - 8) (E8M0 121),
// and 6.0 / 2^-6 = 384 is exact in e4m3fn.
// CHECK-LABEL: func.func @quantize_constant_found_scales
// CHECK-DAG: arith.constant dense<{{\[\[}}3.840000e+02, 0.000000e+00, {{.*}}]]> : tensor<1x32xf8E4M3FN>
// CHECK-DAG: arith.constant dense<1.562500e-02> : tensor<1x1xf8E8M0FNU>
// CHECK-NOT: spyre.quantize
func.func @quantize_constant_found_scales() -> (tensor<1x32xf8E4M3FN>, tensor<1x1xf8E8M0FNU>) {
  %x = arith.constant dense<[[6.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]]> : tensor<1x32xf32>
  %d, %s = spyre.quantize %x {quant = #spyre.quant<format = e4m3fn, scaling = mx>} : tensor<1x32xf32> -> tensor<1x32xf8E4M3FN>, tensor<1x1xf8E8M0FNU>
  return %d, %s : tensor<1x32xf8E4M3FN>, tensor<1x1xf8E8M0FNU>
}
