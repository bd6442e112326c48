// RUN: spyre-opt %s | FileCheck %s
// RUN: spyre-opt %s --mlir-print-op-generic | spyre-opt | FileCheck %s

#id = affine_map<(d0, d1) -> (d0, d1)>
#bias = affine_map<(d0, d1) -> (d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>

// CHECK-LABEL: func.func @pointwise
func.func @pointwise(%a: tensor<64x128xf16>, %b: tensor<64x128xf16>, %c: tensor<128xf16>, %bt: tensor<128x64xf16>) {
  // CHECK: spyre.abs %{{.*}} : (tensor<64x128xf16>) -> tensor<64x128xf16>
  %0 = spyre.abs %a : (tensor<64x128xf16>) -> tensor<64x128xf16>
  // CHECK: spyre.neg
  %1 = spyre.neg %a : (tensor<64x128xf16>) -> tensor<64x128xf16>
  // CHECK: spyre.exp
  %2 = spyre.exp %a : (tensor<64x128xf16>) -> tensor<64x128xf16>
  // CHECK: spyre.log
  %3 = spyre.log %a : (tensor<64x128xf16>) -> tensor<64x128xf16>
  // CHECK: spyre.sqrt
  %4 = spyre.sqrt %a : (tensor<64x128xf16>) -> tensor<64x128xf16>
  // CHECK: spyre.rsqrt
  %5 = spyre.rsqrt %a : (tensor<64x128xf16>) -> tensor<64x128xf16>
  // CHECK: spyre.reciprocal
  %6 = spyre.reciprocal %a : (tensor<64x128xf16>) -> tensor<64x128xf16>
  // CHECK: spyre.relu
  %7 = spyre.relu %a : (tensor<64x128xf16>) -> tensor<64x128xf16>
  // CHECK: spyre.gelu
  %8 = spyre.gelu %a : (tensor<64x128xf16>) -> tensor<64x128xf16>
  // CHECK: spyre.silu
  %9 = spyre.silu %a : (tensor<64x128xf16>) -> tensor<64x128xf16>
  // CHECK: spyre.sigmoid
  %10 = spyre.sigmoid %a : (tensor<64x128xf16>) -> tensor<64x128xf16>
  // CHECK: spyre.tanh
  %11 = spyre.tanh %a : (tensor<64x128xf16>) -> tensor<64x128xf16>
  // CHECK: spyre.softplus
  %12 = spyre.softplus %a : (tensor<64x128xf16>) -> tensor<64x128xf16>
  // CHECK: spyre.floor
  %13 = spyre.floor %a : (tensor<64x128xf16>) -> tensor<64x128xf16>
  // CHECK: spyre.identity
  %14 = spyre.identity %a : (tensor<64x128xf16>) -> tensor<64x128xf16>
  // CHECK: spyre.clip %{{.*}} min = -1.000000e+00 max = 1.000000e+00 : tensor<64x128xf16> -> tensor<64x128xf16>
  %15 = spyre.clip %a min = -1.0 max = 1.0 : tensor<64x128xf16> -> tensor<64x128xf16>
  // CHECK: spyre.add %{{.*}}, %{{.*}} : (tensor<64x128xf16>, tensor<64x128xf16>) -> tensor<64x128xf16>
  %16 = spyre.add %a, %b : (tensor<64x128xf16>, tensor<64x128xf16>) -> tensor<64x128xf16>
  // CHECK: spyre.sub
  %17 = spyre.sub %a, %b : (tensor<64x128xf16>, tensor<64x128xf16>) -> tensor<64x128xf16>
  // CHECK: spyre.mul
  %18 = spyre.mul %a, %b : (tensor<64x128xf16>, tensor<64x128xf16>) -> tensor<64x128xf16>
  // CHECK: spyre.div
  %19 = spyre.div %a, %b : (tensor<64x128xf16>, tensor<64x128xf16>) -> tensor<64x128xf16>
  // CHECK: spyre.maximum
  %20 = spyre.maximum %a, %b : (tensor<64x128xf16>, tensor<64x128xf16>) -> tensor<64x128xf16>
  // CHECK: spyre.minimum
  %21 = spyre.minimum %a, %b : (tensor<64x128xf16>, tensor<64x128xf16>) -> tensor<64x128xf16>
  // CHECK: spyre.equal {{.*}} -> tensor<64x128xi1>
  %22 = spyre.equal %a, %b : (tensor<64x128xf16>, tensor<64x128xf16>) -> tensor<64x128xi1>
  // CHECK: spyre.not_equal
  %23 = spyre.not_equal %a, %b : (tensor<64x128xf16>, tensor<64x128xf16>) -> tensor<64x128xi1>
  // CHECK: spyre.greater_than
  %24 = spyre.greater_than %a, %b : (tensor<64x128xf16>, tensor<64x128xf16>) -> tensor<64x128xi1>
  // CHECK: spyre.greater_equal
  %25 = spyre.greater_equal %a, %b : (tensor<64x128xf16>, tensor<64x128xf16>) -> tensor<64x128xi1>
  // CHECK: spyre.less_than
  %26 = spyre.less_than %a, %b : (tensor<64x128xf16>, tensor<64x128xf16>) -> tensor<64x128xi1>
  // CHECK: spyre.less_equal
  %27 = spyre.less_equal %a, %b : (tensor<64x128xf16>, tensor<64x128xf16>) -> tensor<64x128xi1>
  // CHECK: spyre.where
  %28 = spyre.where %22, %a, %b : (tensor<64x128xi1>, tensor<64x128xf16>, tensor<64x128xf16>) -> tensor<64x128xf16>
  // Broadcast and transposed operands through indexing maps.
  // CHECK: spyre.add %{{.*}}, %{{.*}} {indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}]} : (tensor<64x128xf16>, tensor<128xf16>) -> tensor<64x128xf16>
  %29 = spyre.add %a, %c {indexing_maps = [#id, #bias, #id]} : (tensor<64x128xf16>, tensor<128xf16>) -> tensor<64x128xf16>
  // CHECK: spyre.sub {{.*}} : (tensor<64x128xf16>, tensor<128x64xf16>) -> tensor<64x128xf16>
  %30 = spyre.sub %a, %bt {indexing_maps = [#id, #tr, #id]} : (tensor<64x128xf16>, tensor<128x64xf16>) -> tensor<64x128xf16>
  // Scalars (rank 0) need no map.
  // CHECK: %[[HALF:.+]] = spyre.constant dense<5.000000e-01> : tensor<f16> -> tensor<f16>
  %half = spyre.constant dense<0.5> : tensor<f16> -> tensor<f16>
  // CHECK: spyre.mul %{{.*}}, %[[HALF]] : (tensor<64x128xf16>, tensor<f16>) -> tensor<64x128xf16>
  %31 = spyre.mul %a, %half : (tensor<64x128xf16>, tensor<f16>) -> tensor<64x128xf16>
  return
}

// CHECK-LABEL: func.func @conversions
func.func @conversions(%h: tensor<64x64xf16>, %f: tensor<64x64xf32>, %q: tensor<64x64xf8E4M3FN>) {
  // CHECK: spyre.convert %{{.*}} : tensor<64x64xf16> -> tensor<64x64xf32>
  %0 = spyre.convert %h : tensor<64x64xf16> -> tensor<64x64xf32>
  // CHECK: spyre.convert %{{.*}} : tensor<64x64xf32> -> tensor<64x64xf16>
  %1 = spyre.convert %f : tensor<64x64xf32> -> tensor<64x64xf16>
  // CHECK: spyre.convert %{{.*}} : tensor<64x64xf8E4M3FN> -> tensor<64x64xf16>
  %2 = spyre.convert %q : tensor<64x64xf8E4M3FN> -> tensor<64x64xf16>
  // CHECK: spyre.convert %{{.*}} : tensor<64x64xf16> -> tensor<64x64xf8E4M3FN>
  %3 = spyre.convert %h : tensor<64x64xf16> -> tensor<64x64xf8E4M3FN>
  return
}

// CHECK-LABEL: func.func @reductions
func.func @reductions(%a: tensor<64x128xf16>) {
  // CHECK: spyre.sum %{{.*}} dim = 1 : tensor<64x128xf16> -> tensor<64xf16>
  %0 = spyre.sum %a dim = 1 : tensor<64x128xf16> -> tensor<64xf16>
  // CHECK: spyre.max %{{.*}} dim = 0 {padding_value = 0xFFF0000000000000 : f64} : tensor<64x128xf16> -> tensor<128xf16>
  %1 = spyre.max %a dim = 0 {padding_value = 0xFFF0000000000000 : f64} : tensor<64x128xf16> -> tensor<128xf16>
  // CHECK: spyre.min
  %2 = spyre.min %a dim = 1 : tensor<64x128xf16> -> tensor<64xf16>
  // CHECK: spyre.mean
  %3 = spyre.mean %a dim = 1 : tensor<64x128xf16> -> tensor<64xf16>
  return
}

// CHECK-LABEL: func.func @matmuls
func.func @matmuls(%a: tensor<64x128xf16>, %b: tensor<128x256xf16>, %bt: tensor<256x128xf16>,
                   %ba: tensor<4x64x128xf16>, %bb: tensor<4x128x32xf16>) {
  // CHECK: spyre.matmul %{{.*}}, %{{.*}} : tensor<64x128xf16>, tensor<128x256xf16> -> tensor<64x256xf16>
  %0 = spyre.matmul %a, %b : tensor<64x128xf16>, tensor<128x256xf16> -> tensor<64x256xf16>
  // A transposed B through its map (d0 = m, d1 = n, d2 = k).
  // CHECK: spyre.matmul {{.*}} {indexing_maps = [{{.*}}]} : tensor<64x128xf16>, tensor<256x128xf16> -> tensor<64x256xf16>
  %1 = spyre.matmul %a, %bt {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]} : tensor<64x128xf16>, tensor<256x128xf16> -> tensor<64x256xf16>
  // CHECK: spyre.batch_matmul %{{.*}}, %{{.*}} : tensor<4x64x128xf16>, tensor<4x128x32xf16> -> tensor<4x64x32xf16>
  %2 = spyre.batch_matmul %ba, %bb : tensor<4x64x128xf16>, tensor<4x128x32xf16> -> tensor<4x64x32xf16>
  return
}

// CHECK-LABEL: func.func @views_and_padding
func.func @views_and_padding(%a: tensor<64x128xf16>, %d: tensor<100x64xf16, #spyre.layout<device_size = [1, 100, 64], stride_map = [64, 64, 1]>>) {
  // CHECK: spyre.transpose %{{.*}} permutation = [1, 0] : tensor<64x128xf16> -> tensor<128x64xf16>
  %0 = spyre.transpose %a permutation = [1, 0] : tensor<64x128xf16> -> tensor<128x64xf16>
  // CHECK: spyre.reshape %{{.*}} : tensor<64x128xf16> -> tensor<8192xf16>
  %1 = spyre.reshape %a : tensor<64x128xf16> -> tensor<8192xf16>
  // K rows of a matmul B padded to whole sticks.
  // CHECK: spyre.pad %{{.*}} value = 0.000000e+00 : {{.*}} -> tensor<100x64xf16, #spyre.layout<device_size = [1, 128, 64], stride_map = [64, 64, 1]>>
  %2 = spyre.pad %d value = 0.0 : tensor<100x64xf16, #spyre.layout<device_size = [1, 100, 64], stride_map = [64, 64, 1]>> -> tensor<100x64xf16, #spyre.layout<device_size = [1, 128, 64], stride_map = [64, 64, 1]>>
  return
}

// Laid-out compute ops that follow their stick rules.
// CHECK-LABEL: func.func @laid_out
func.func @laid_out(%a: tensor<64x128xf16, #spyre.layout<device_size = [2, 64, 64], stride_map = [64, 128, 1]>>,
                    %b: tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>) {
  // CHECK: spyre.matmul
  %0 = spyre.matmul %a, %b : tensor<64x128xf16, #spyre.layout<device_size = [2, 64, 64], stride_map = [64, 128, 1]>>, tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>> -> tensor<64x256xf16, #spyre.layout<device_size = [4, 64, 64], stride_map = [64, 256, 1]>>
  // A reduction along the stick is sparse.
  // CHECK: spyre.sum {{.*}} -> tensor<64xf16, #spyre.layout<device_size = [1, 64, 64], stride_map = [-1, 1, -1]>>
  %1 = spyre.sum %a dim = 1 : tensor<64x128xf16, #spyre.layout<device_size = [2, 64, 64], stride_map = [64, 128, 1]>> -> tensor<64xf16, #spyre.layout<device_size = [1, 64, 64], stride_map = [-1, 1, -1]>>
  return
}

// The layer-norm family, as torch-spyre decomposes layer_norm: per-row
// statistics (the input's shape without the normalized dim), host tensors
// and then laid out (the statistics per-row with the exx2 arrangement).
// CHECK-LABEL: func.func @layer_norm_family
func.func @layer_norm_family(%x: tensor<128x768xf16>, %w: tensor<768xf16>, %b: tensor<768xf16>) -> tensor<128x768xf16> {
  // CHECK: %[[M:.+]] = spyre.exx2 %{{.*}} scale = 0.0013020833{{[0-9]*}} : tensor<128x768xf16> -> tensor<128xf16>
  %m = spyre.exx2 %x scale = 0.0013020833333333333 : tensor<128x768xf16> -> tensor<128xf16>
  // CHECK: %[[N:.+]] = spyre.layernormscale %[[M]] eps = 1.000000e-05 : tensor<128xf16> -> tensor<128xf16>
  %n = spyre.layernormscale %m eps = 1.0e-05 : tensor<128xf16> -> tensor<128xf16>
  // CHECK: spyre.layernormnorm %{{.*}}, %[[M]], %[[N]], %{{.*}}, %{{.*}} : (tensor<128x768xf16>, tensor<128xf16>, tensor<128xf16>, tensor<768xf16>, tensor<768xf16>) -> tensor<128x768xf16>
  %y = spyre.layernormnorm %x, %m, %n, %w, %b : (tensor<128x768xf16>, tensor<128xf16>, tensor<128xf16>, tensor<768xf16>, tensor<768xf16>) -> tensor<128x768xf16>
  return %y : tensor<128x768xf16>
}

#lnx = #spyre.layout<device_size = [12, 128, 64], stride_map = [64, 768, 1]>
#lnrow = #spyre.layout<device_size = [1, 128, 64], stride_map = [-1, 1, -1], arrangement = exx2>
#lnw = #spyre.layout<device_size = [12, 64], stride_map = [64, 1]>
// CHECK-LABEL: func.func @layer_norm_family_laid_out
func.func @layer_norm_family_laid_out(%x: tensor<128x768xf16, #lnx>, %w: tensor<768xf16, #lnw>, %b: tensor<768xf16, #lnw>) -> tensor<128x768xf16, #lnx> {
  // CHECK: spyre.exx2 {{.*}} -> tensor<128xf16, #spyre.layout<device_size = [1, 128, 64], stride_map = [-1, 1, -1], arrangement = exx2>>
  %m = spyre.exx2 %x scale = 0.0013020833333333333 : tensor<128x768xf16, #lnx> -> tensor<128xf16, #lnrow>
  %n = spyre.layernormscale %m eps = 1.0e-05 : tensor<128xf16, #lnrow> -> tensor<128xf16, #lnrow>
  %y = spyre.layernormnorm %x, %m, %n, %w, %b : (tensor<128x768xf16, #lnx>, tensor<128xf16, #lnrow>, tensor<128xf16, #lnrow>, tensor<768xf16, #lnw>, tensor<768xf16, #lnw>) -> tensor<128x768xf16, #lnx>
  return %y : tensor<128x768xf16, #lnx>
}

// A box of a tensor: host tensors, then laid out with the box starting on
// the third stick of the stick dim and on row 5.
#big = #spyre.layout<device_size = [3, 128, 64], stride_map = [64, 192, 1]>
#box = #spyre.layout<device_size = [1, 2, 64], stride_map = [64, 64, 1]>

// CHECK-LABEL: func.func @extract_slice
func.func @extract_slice(%a: tensor<128x192xf16>, %b: tensor<128x192xf16, #big>) {
  // CHECK: spyre.extract_slice %{{.*}} offsets = [0, 64] : tensor<128x192xf16> -> tensor<128x64xf16>
  %0 = spyre.extract_slice %a offsets = [0, 64] : tensor<128x192xf16> -> tensor<128x64xf16>
  // CHECK: spyre.extract_slice %{{.*}} offsets = [5, 128] : tensor<128x192xf16, #{{.*}}> -> tensor<2x64xf16, #{{.*}}>
  %1 = spyre.extract_slice %b offsets = [5, 128] : tensor<128x192xf16, #big> -> tensor<2x64xf16, #box>
  return
}

// Boxes written in place: into a fresh buffer, then a laid-out pad whose box
// ends inside a stick (the fill covers the rest of it).
#pdest = #spyre.layout<device_size = [2, 64, 64], stride_map = [64, 128, 1]>
#psrc = #spyre.layout<device_size = [2, 60, 64], stride_map = [64, 100, 1]>

// CHECK-LABEL: func.func @insert_slice
func.func @insert_slice(%a: tensor<64x128xf16>, %b: tensor<64x128xf16>, %p: tensor<60x100xf16, #psrc>, %d: tensor<64x128xf16, #pdest>) {
  // CHECK: %[[E:.*]] = spyre.empty : tensor<64x256xf16>
  %e = spyre.empty : tensor<64x256xf16>
  // CHECK: %[[R0:.*]] = spyre.insert_slice %{{.*}} into %[[E]] offsets = [0, 0] : tensor<64x128xf16> into tensor<64x256xf16> -> tensor<64x256xf16>
  %0 = spyre.insert_slice %a into %e offsets = [0, 0] : tensor<64x128xf16> into tensor<64x256xf16> -> tensor<64x256xf16>
  // CHECK: spyre.insert_slice %{{.*}} into %[[R0]] offsets = [0, 128]
  %1 = spyre.insert_slice %b into %0 offsets = [0, 128] : tensor<64x128xf16> into tensor<64x256xf16> -> tensor<64x256xf16>
  // CHECK: spyre.insert_slice %{{.*}} into %{{.*}} offsets = [0, 0] {fill = 1.000000e+00 : f64}
  %2 = spyre.insert_slice %p into %d offsets = [0, 0] {fill = 1.0 : f64} : tensor<60x100xf16, #psrc> into tensor<64x128xf16, #pdest> -> tensor<64x128xf16, #pdest>
  return
}
