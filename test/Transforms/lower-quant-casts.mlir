// RUN: spyre-opt %s --split-input-file --spyre-lower-quant-casts --mlir-print-local-scope | FileCheck %s
// RUN: spyre-opt --help | FileCheck %s --check-prefix=HELP
// In --spyre-pipeline, after the canonicalizer has dropped the dequantizes a
// scaled matmul absorbed: the casts reach the SuperDSC as qfp8ch and
// fp8todl16 kernels.
// RUN: spyre-opt %s --split-input-file --spyre-pipeline | FileCheck %s --check-prefix=PIPELINE

// HELP: --spyre-lower-quant-casts
// HELP-SAME: Quantization casts the device has instructions for become device ops

// fp8 per channel (one f32 scale per row): the scale is the row's largest
// magnitude over 448; the row is divided by it (by the smallest f32 normal
// for an all-zero row), clamped, rounded to DL16 and converted to fp8.
// CHECK-LABEL: func.func @quantize_channel
// CHECK-SAME: (%[[W:.+]]: tensor<64x256xf16>)
// CHECK-DAG: %[[LOW:.+]] = spyre.constant dense<-4.480000e+02> : tensor<f32>
// CHECK-DAG: %[[TINY:.+]] = spyre.constant dense<1.17549435E-38> : tensor<f32>
// CHECK-DAG: %[[HIGH:.+]] = spyre.constant dense<4.480000e+02> : tensor<f32>
// CHECK: %[[X:.+]] = spyre.convert %[[W]] : tensor<64x256xf16> -> tensor<64x256xf32>
// CHECK: %[[ABS:.+]] = spyre.abs %[[X]] : (tensor<64x256xf32>) -> tensor<64x256xf32>
// CHECK: %[[AMAX:.+]] = spyre.max %[[ABS]] dim = 1 : tensor<64x256xf32> -> tensor<64xf32>
// CHECK: %[[SCALE:.+]] = spyre.div %[[AMAX]], %[[HIGH]] : (tensor<64xf32>, tensor<f32>) -> tensor<64xf32>
// CHECK: %[[SAFE:.+]] = spyre.maximum %[[SCALE]], %[[TINY]]
// CHECK: %[[Q:.+]] = spyre.div %[[X]], %[[SAFE]] {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>]}
// CHECK: %[[LO:.+]] = spyre.maximum %[[Q]], %[[LOW]]
// CHECK: %[[HI:.+]] = spyre.minimum %[[LO]], %[[HIGH]]
// CHECK: %[[DL16:.+]] = spyre.convert %[[HI]] : tensor<64x256xf32> -> tensor<64x256xf16>
// CHECK: %[[DATA:.+]] = spyre.convert %[[DL16]] : tensor<64x256xf16> -> tensor<64x256xf8E4M3FN>
// CHECK: %[[S:.+]] = spyre.reshape %[[SCALE]] : tensor<64xf32> -> tensor<64x1xf32>
// CHECK: return %[[DATA]], %[[S]]
// PIPELINE-LABEL: func.func @quantize_channel
// PIPELINE: spyre.kernel "{{[0-9]+}}_max"
// PIPELINE: spyre.kernel "{{[0-9]+}}_qfp8ch"
// PIPELINE-NOT: spyre.quantize
// PIPELINE: return
func.func @quantize_channel(%w: tensor<64x256xf16>) -> (tensor<64x256xf8E4M3FN>, tensor<64x1xf32>) {
  %d, %s = spyre.quantize %w {quant = #spyre.quant<format = e4m3fn, scaling = channel>}
      : tensor<64x256xf16> -> tensor<64x256xf8E4M3FN>, tensor<64x1xf32>
  return %d, %s : tensor<64x256xf8E4M3FN>, tensor<64x1xf32>
}

// -----

// One scale for the tensor, e5m2 (largest 57344), an f32 input and an f16
// scale: the scale is rounded to f16 before the division uses it.
// CHECK-LABEL: func.func @quantize_tensor
// CHECK-SAME: (%[[W:.+]]: tensor<64x256xf32>)
// CHECK: %[[ABS:.+]] = spyre.abs %[[W]]
// CHECK: %[[ROWS:.+]] = spyre.max %[[ABS]] dim = 1 : tensor<64x256xf32> -> tensor<64xf32>
// CHECK: %[[AMAX:.+]] = spyre.max %[[ROWS]] dim = 0 : tensor<64xf32> -> tensor<f32>
// CHECK: %[[SCALE:.+]] = spyre.div %[[AMAX]], %{{.+}} : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK: %[[STORED:.+]] = spyre.convert %[[SCALE]] : tensor<f32> -> tensor<f16>
// CHECK: %[[BACK:.+]] = spyre.convert %[[STORED]] : tensor<f16> -> tensor<f32>
// CHECK: %[[SAFE:.+]] = spyre.maximum %[[BACK]]
// CHECK: spyre.div %[[W]], %[[SAFE]] {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0, d1)>]}
// CHECK: spyre.convert %{{.+}} : tensor<64x256xf16> -> tensor<64x256xf8E5M2>
// CHECK: spyre.reshape %[[STORED]] : tensor<f16> -> tensor<1x1xf16>
func.func @quantize_tensor(%w: tensor<64x256xf32>) -> (tensor<64x256xf8E5M2>, tensor<1x1xf16>) {
  %d, %s = spyre.quantize %w {quant = #spyre.quant<format = e5m2, scaling = tensor, scale_type = float16>}
      : tensor<64x256xf32> -> tensor<64x256xf8E5M2>, tensor<1x1xf16>
  return %d, %s : tensor<64x256xf8E5M2>, tensor<1x1xf16>
}

// -----

// An f32 scale: the product is computed in f32 and rounded once, to f16.
// CHECK-LABEL: func.func @dequantize_channel
// CHECK-SAME: (%[[D:.+]]: tensor<64x256xf8E4M3FN>, %[[S:.+]]: tensor<64x1xf32>)
// CHECK: %[[SCALE:.+]] = spyre.reshape %[[S]] : tensor<64x1xf32> -> tensor<64xf32>
// CHECK: %[[CODES:.+]] = spyre.convert %[[D]] : tensor<64x256xf8E4M3FN> -> tensor<64x256xf16>
// CHECK: %[[WIDE:.+]] = spyre.convert %[[CODES]] : tensor<64x256xf16> -> tensor<64x256xf32>
// CHECK: %[[P:.+]] = spyre.mul %[[WIDE]], %[[SCALE]] {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>]}
// CHECK: %[[R:.+]] = spyre.convert %[[P]] : tensor<64x256xf32> -> tensor<64x256xf16>
// CHECK: return %[[R]]
// PIPELINE-LABEL: func.func @dequantize_channel
// PIPELINE: spyre.kernel "{{[0-9]+}}_fp8todl16"
// PIPELINE-NOT: spyre.dequantize
// PIPELINE: return
func.func @dequantize_channel(%d: tensor<64x256xf8E4M3FN>, %s: tensor<64x1xf32>) -> tensor<64x256xf16> {
  %w = spyre.dequantize %d, %s {quant = #spyre.quant<format = e4m3fn, scaling = channel>}
      : tensor<64x256xf8E4M3FN>, tensor<64x1xf32> -> tensor<64x256xf16>
  return %w : tensor<64x256xf16>
}

// -----

// 16-bit scale and result: the product in DL16; the scale runs along dim 1
// (channels along axis 0).
// CHECK-LABEL: func.func @dequantize_columns
// CHECK: %[[SCALE:.+]] = spyre.reshape %{{.+}} : tensor<1x256xbf16> -> tensor<256xbf16>
// CHECK: %[[CODES:.+]] = spyre.convert %{{.+}} : tensor<64x256xf8E5M2> -> tensor<64x256xf16>
// CHECK: %[[AS:.+]] = spyre.convert %[[CODES]] : tensor<64x256xf16> -> tensor<64x256xbf16>
// CHECK: %[[P:.+]] = spyre.mul %[[AS]], %[[SCALE]] {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>]} : (tensor<64x256xbf16>, tensor<256xbf16>) -> tensor<64x256xbf16>
// CHECK: return %[[P]]
func.func @dequantize_columns(%d: tensor<64x256xf8E5M2>, %s: tensor<1x256xbf16>) -> tensor<64x256xbf16> {
  %w = spyre.dequantize %d, %s {quant = #spyre.quant<format = e5m2, scaling = channel, axis = 0, scale_type = bfloat16>}
      : tensor<64x256xf8E5M2>, tensor<1x256xbf16> -> tensor<64x256xbf16>
  return %w : tensor<64x256xbf16>
}

// -----

// Tiles of 128 along the rows (the 1x128 activation tiles of fp8 recipes):
// the dim is viewed as [2, 128], the scale spans the tile dim.
// CHECK-LABEL: func.func @quantize_tile
// CHECK-SAME: (%[[W:.+]]: tensor<64x256xf16>)
// CHECK: %[[V:.+]] = spyre.reshape %[[W]] : tensor<64x256xf16> -> tensor<64x2x128xf16>
// CHECK: %[[X:.+]] = spyre.convert %[[V]] : tensor<64x2x128xf16> -> tensor<64x2x128xf32>
// CHECK: %[[ABS:.+]] = spyre.abs %[[X]]
// CHECK: %[[AMAX:.+]] = spyre.max %[[ABS]] dim = 2 : tensor<64x2x128xf32> -> tensor<64x2xf32>
// CHECK: %[[SCALE:.+]] = spyre.div %[[AMAX]]
// CHECK: %[[SAFE:.+]] = spyre.maximum %[[SCALE]]
// CHECK: spyre.div %[[X]], %[[SAFE]] {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>]}
// CHECK: %[[Q:.+]] = spyre.convert %{{.+}} : tensor<64x2x128xf16> -> tensor<64x2x128xf8E4M3FN>
// CHECK: %[[D:.+]] = spyre.reshape %[[Q]] : tensor<64x2x128xf8E4M3FN> -> tensor<64x256xf8E4M3FN>
// CHECK: return %[[D]], %[[SCALE]]
func.func @quantize_tile(%w: tensor<64x256xf16>) -> (tensor<64x256xf8E4M3FN>, tensor<64x2xf32>) {
  %d, %s = spyre.quantize %w {quant = #spyre.quant<format = e4m3fn, scaling = tile, tile = 128>}
      : tensor<64x256xf16> -> tensor<64x256xf8E4M3FN>, tensor<64x2xf32>
  return %d, %s : tensor<64x256xf8E4M3FN>, tensor<64x2xf32>
}

// -----

// Tiles along dim 0: the scale [2, 128] is read at (tile, column).
// CHECK-LABEL: func.func @dequantize_tile
// CHECK-SAME: (%[[D:.+]]: tensor<256x128xf8E4M3FN>, %[[S:.+]]: tensor<2x128xf32>)
// CHECK: %[[V:.+]] = spyre.reshape %[[D]] : tensor<256x128xf8E4M3FN> -> tensor<2x128x128xf8E4M3FN>
// CHECK: spyre.mul %{{.+}}, %[[S]] {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>]}
// CHECK: %[[R:.+]] = spyre.reshape %{{.+}} : tensor<2x128x128xbf16> -> tensor<256x128xbf16>
// CHECK: return %[[R]]
func.func @dequantize_tile(%d: tensor<256x128xf8E4M3FN>, %s: tensor<2x128xf32>) -> tensor<256x128xbf16> {
  %w = spyre.dequantize %d, %s {quant = #spyre.quant<format = e4m3fn, scaling = tile, tile = 128, axis = 0>}
      : tensor<256x128xf8E4M3FN>, tensor<2x128xf32> -> tensor<256x128xbf16>
  return %w : tensor<256x128xbf16>
}

// -----

// What the device has no instruction for stays: MX (E8M0 scales, packed
// fp4), integers with zero points, a partial tile at the edge (its own
// scale, which no view of whole tiles gives).
// CHECK-LABEL: func.func @stays
// CHECK: spyre.quantize %{{.+}} {quant = #spyre.quant<format = e2m1fn, scaling = mx>}
// CHECK: spyre.quantize %{{.+}} {quant = #spyre.quant<format = int8, scaling = channel, zero_point = true>}
// CHECK: spyre.quantize %{{.+}} {quant = #spyre.quant<format = e4m3fn, scaling = tile, tile = 128>}
// CHECK-NOT: spyre.convert
func.func @stays(%w: tensor<64x256xf32>, %p: tensor<64x200xf32>) -> (tensor<64x128xi8>, tensor<64x8xf8E8M0FNU>, tensor<64x256xi8>, tensor<64x1xf32>, tensor<64x1xi8>, tensor<64x200xf8E4M3FN>, tensor<64x2xf32>) {
  %a, %b = spyre.quantize %w {quant = #spyre.quant<format = e2m1fn, scaling = mx>}
      : tensor<64x256xf32> -> tensor<64x128xi8>, tensor<64x8xf8E8M0FNU>
  %c, %e, %f = spyre.quantize %w {quant = #spyre.quant<format = int8, scaling = channel, zero_point = true>}
      : tensor<64x256xf32> -> tensor<64x256xi8>, tensor<64x1xf32>, tensor<64x1xi8>
  %g, %h = spyre.quantize %p {quant = #spyre.quant<format = e4m3fn, scaling = tile, tile = 128>}
      : tensor<64x200xf32> -> tensor<64x200xf8E4M3FN>, tensor<64x2xf32>
  return %a, %b, %c, %e, %f, %g, %h : tensor<64x128xi8>, tensor<64x8xf8E8M0FNU>, tensor<64x256xi8>, tensor<64x1xf32>, tensor<64x1xi8>, tensor<64x200xf8E4M3FN>, tensor<64x2xf32>
}
