// RUN: spyre-opt %s | FileCheck %s
// RUN: spyre-opt %s --mlir-print-op-generic | spyre-opt | FileCheck %s
// RUN: spyre-opt %s --emit-bytecode | spyre-opt | FileCheck %s

// MXFP4: packed bytes [R, C/2] and one E8M0 scale per 32 values. Defaults
// (mode = compressed, axis = -1, tile = 32) are not printed.
// CHECK-LABEL: func.func @mxfp4
// CHECK: %[[D:.*]]:2 = spyre.quantize %{{.*}} {quant = #spyre.quant<format = e2m1fn, scaling = mx>} : tensor<64x256xf32> -> tensor<64x128xi8>, tensor<64x8xf8E8M0FNU>
// CHECK: spyre.dequantize %[[D]]#0, %[[D]]#1 {quant = #spyre.quant<format = e2m1fn, scaling = mx>} : tensor<64x128xi8>, tensor<64x8xf8E8M0FNU> -> tensor<64x256xf16>
func.func @mxfp4(%w: tensor<64x256xf32>) -> tensor<64x256xf16> {
  %d, %s = spyre.quantize %w {quant = #spyre.quant<format = e2m1fn, scaling = mx, mode = compressed, tile = 32>}
      : tensor<64x256xf32> -> tensor<64x128xi8>, tensor<64x8xf8E8M0FNU>
  %r = spyre.dequantize %d, %s {quant = #spyre.quant<format = e2m1fn, scaling = mx>}
      : tensor<64x128xi8>, tensor<64x8xf8E8M0FNU> -> tensor<64x256xf16>
  return %r : tensor<64x256xf16>
}

// Per-channel int8 with zero points: a scale and an int8 zero per row.
// CHECK-LABEL: func.func @int8_channel
// CHECK: spyre.quantize %{{.*}} {quant = #spyre.quant<format = int8, scaling = channel, zero_point = true>} : tensor<4x100xf32> -> tensor<4x100xi8>, tensor<4x1xf32>, tensor<4x1xi8>
func.func @int8_channel(%w: tensor<4x100xf32>) -> (tensor<4x100xi8>, tensor<4x1xf32>, tensor<4x1xi8>) {
  %d, %s, %z = spyre.quantize %w {quant = #spyre.quant<format = int8, scaling = channel, zero_point = true>}
      : tensor<4x100xf32> -> tensor<4x100xi8>, tensor<4x1xf32>, tensor<4x1xi8>
  return %d, %s, %z : tensor<4x100xi8>, tensor<4x1xf32>, tensor<4x1xi8>
}

// Actual mode: fp4 values held in fp8 (e4m3fnuz for the fnuz formats);
// 2-D tiles divide both dims (partial tiles at the edge count).
// CHECK-LABEL: func.func @actual_matrix
// CHECK: spyre.quantize %{{.*}} {quant = #spyre.quant<format = e2m1fnuz, scaling = matrix, mode = actual, tile = 16, axis2 = 0, tile2 = 8, scale_type = float16>} : tensor<20x40xbf16> -> tensor<20x40xf8E4M3FNUZ>, tensor<3x3xf16>
func.func @actual_matrix(%w: tensor<20x40xbf16>) -> (tensor<20x40xf8E4M3FNUZ>, tensor<3x3xf16>) {
  %d, %s = spyre.quantize %w {quant = #spyre.quant<format = e2m1fnuz, scaling = matrix, mode = actual, tile = 16, axis2 = 0, tile2 = 8, scale_type = float16>}
      : tensor<20x40xbf16> -> tensor<20x40xf8E4M3FNUZ>, tensor<3x3xf16>
  return %d, %s : tensor<20x40xf8E4M3FNUZ>, tensor<3x3xf16>
}

// Multiscale with 50% sparsity: pruned values omitted (64 -> 32 fp4 values,
// 16 bytes), a float32 tenscale, the mask packed 8 per byte.
// CHECK-LABEL: func.func @sparse_multiscale
// CHECK: -> tensor<8x16xi8>, tensor<8x4xf8E4M3FN>, tensor<f32>, tensor<8x8xi8>
func.func @sparse_multiscale(%w: tensor<8x64xf16>) -> tensor<8x64xf16> {
  %d, %s, %t, %m = spyre.quantize %w {quant = #spyre.quant<format = e2m1fn, scaling = tile, tile = 16, scale_type = float8_e4m3fn, multiscale = true, sparsity = 50>}
      : tensor<8x64xf16> -> tensor<8x16xi8>, tensor<8x4xf8E4M3FN>, tensor<f32>, tensor<8x8xi8>
  %r = spyre.dequantize %d, %s, %t, %m {quant = #spyre.quant<format = e2m1fn, scaling = tile, tile = 16, scale_type = float8_e4m3fn, multiscale = true, sparsity = 50>}
      : tensor<8x16xi8>, tensor<8x4xf8E4M3FN>, tensor<f32>, tensor<8x8xi8> -> tensor<8x64xf16>
  return %r : tensor<8x64xf16>
}

// Virtual mode: the data is the fake-quantized tensor itself.
// CHECK-LABEL: func.func @virtual
// CHECK: spyre.quantize %{{.*}} {quant = #spyre.quant<format = e4m3fn, scaling = tensor, mode = virtual>} : tensor<3x5xf32> -> tensor<3x5xf32>, tensor<1x1xf32>
func.func @virtual(%w: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %d, %s = spyre.quantize %w {quant = #spyre.quant<format = e4m3fn, scaling = tensor, mode = virtual>}
      : tensor<3x5xf32> -> tensor<3x5xf32>, tensor<1x1xf32>
  return %d : tensor<3x5xf32>
}

// The scaled matmul reads B's stored parts: MXFP4 [N, K] = [64, 256] packed
// to [64, 128] bytes with [64, 8] E8M0 scales.
// CHECK-LABEL: func.func @scaled_mxfp4
// CHECK: spyre.scaled_matmul %{{.*}}, %{{.*}}, %{{.*}} {quant = #spyre.quant<format = e2m1fn, scaling = mx>} : (tensor<8x256xf16>, tensor<64x128xi8>, tensor<64x8xf8E8M0FNU>) -> tensor<8x64xf16>
func.func @scaled_mxfp4(%a: tensor<8x256xf16>, %d: tensor<64x128xi8>, %s: tensor<64x8xf8E8M0FNU>) -> tensor<8x64xf16> {
  %c = spyre.scaled_matmul %a, %d, %s {quant = #spyre.quant<format = e2m1fn, scaling = mx>}
      : (tensor<8x256xf16>, tensor<64x128xi8>, tensor<64x8xf8E8M0FNU>) -> tensor<8x64xf16>
  return %c : tensor<8x64xf16>
}

// Per-channel int8 with zero points: the fourth operand.
// CHECK-LABEL: func.func @scaled_int8_zero
// CHECK: spyre.scaled_matmul %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {quant = #spyre.quant<format = int8, scaling = channel, zero_point = true>} : (tensor<4x128xbf16>, tensor<32x128xi8>, tensor<32x1xf32>, tensor<32x1xi8>) -> tensor<4x32xbf16>
func.func @scaled_int8_zero(%a: tensor<4x128xbf16>, %d: tensor<32x128xi8>, %s: tensor<32x1xf32>, %z: tensor<32x1xi8>) -> tensor<4x32xbf16> {
  %c = spyre.scaled_matmul %a, %d, %s, %z {quant = #spyre.quant<format = int8, scaling = channel, zero_point = true>}
      : (tensor<4x128xbf16>, tensor<32x128xi8>, tensor<32x1xf32>, tensor<32x1xi8>) -> tensor<4x32xbf16>
  return %c : tensor<4x32xbf16>
}

// Float zero points (GPTQ-style uint4): one float16 zero per scale, shaped
// like the scales and never packed; the codes still pack two a byte.
// CHECK-LABEL: func.func @scaled_uint4_float_zero
// CHECK: spyre.scaled_matmul %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {quant = #spyre.quant<format = uint4, scaling = tile, tile = 128, scale_type = float16, zero_point = true, zero_type = float16>} : (tensor<4x512xf16>, tensor<32x256xi8>, tensor<32x4xf16>, tensor<32x4xf16>) -> tensor<4x32xf16>
func.func @scaled_uint4_float_zero(%a: tensor<4x512xf16>, %d: tensor<32x256xi8>, %s: tensor<32x4xf16>, %z: tensor<32x4xf16>) -> tensor<4x32xf16> {
  %c = spyre.scaled_matmul %a, %d, %s, %z {quant = #spyre.quant<format = uint4, scaling = tile, tile = 128, scale_type = float16, zero_point = true, zero_type = float16>}
      : (tensor<4x512xf16>, tensor<32x256xi8>, tensor<32x4xf16>, tensor<32x4xf16>) -> tensor<4x32xf16>
  return %c : tensor<4x32xf16>
}

// MXFP8 whose values overflow as a cast does (MLIR's scaling_truncf):
// saturate = false; the default (saturating) is not printed.
// CHECK-LABEL: func.func @quantize_not_saturating
// CHECK: spyre.quantize %{{.*}} scales(%{{.*}} : tensor<16x2xf8E8M0FNU>) {quant = #spyre.quant<format = e4m3fn, scaling = mx, saturate = false>}
// CHECK: spyre.dequantize %{{.*}}, %{{.*}} {quant = #spyre.quant<format = e4m3fn, scaling = mx>}
func.func @quantize_not_saturating(%x: tensor<16x64xf32>, %s: tensor<16x2xf8E8M0FNU>) -> (tensor<16x64xf8E4M3FN>, tensor<16x64xf16>) {
  %d = spyre.quantize %x scales(%s : tensor<16x2xf8E8M0FNU>) {quant = #spyre.quant<format = e4m3fn, scaling = mx, saturate = false>}
      : tensor<16x64xf32> -> tensor<16x64xf8E4M3FN>
  %w = spyre.dequantize %d, %s {quant = #spyre.quant<format = e4m3fn, scaling = mx, saturate = true>}
      : tensor<16x64xf8E4M3FN>, tensor<16x2xf8E8M0FNU> -> tensor<16x64xf16>
  return %d, %w : tensor<16x64xf8E4M3FN>, tensor<16x64xf16>
}

// A codebook weight: indices, scales, then the meta that picks each
// tile's or subtile's mapping.
// CHECK-LABEL: func.func @scaled_codebook
// CHECK: spyre.scaled_matmul %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {quant = #spyre.quant<format = e2m3fnuz, scaling = mx, codebook = "cb42f1346_e2m3fnuz", subtile = 8>} : (tensor<8x64xf16>, tensor<16x32xi8>, tensor<16x2xf8E8M0FNU>, tensor<16x2xi8>) -> tensor<8x16xf16>
func.func @scaled_codebook(%a: tensor<8x64xf16>, %d: tensor<16x32xi8>, %s: tensor<16x2xf8E8M0FNU>, %m: tensor<16x2xi8>) -> tensor<8x16xf16> {
  %c = spyre.scaled_matmul %a, %d, %s, %m {quant = #spyre.quant<format = e2m3fnuz, scaling = mx, codebook = "cb42f1346_e2m3fnuz", subtile = 8>}
      : (tensor<8x64xf16>, tensor<16x32xi8>, tensor<16x2xf8E8M0FNU>, tensor<16x2xi8>) -> tensor<8x16xf16>
  return %c : tensor<8x16xf16>
}

// Codebooks: 4-bit indices packed two per byte, E8M0 scales, and a 2-bit
// meta per 8 values packed into one byte per tile of 32; a generic
// codebook carries its mappings.
// CHECK-LABEL: func.func @codebook
// CHECK: spyre.dequantize %{{.*}}, %{{.*}}, %{{.*}} {quant = #spyre.quant<format = e2m3fnuz, scaling = mx, codebook = "cb42f1346_e2m3fnuz", subtile = 8>} : tensor<16x32xi8>, tensor<16x2xf8E8M0FNU>, tensor<16x2xi8> -> tensor<16x64xf16>
// CHECK: spyre.dequantize %{{.*}}, %{{.*}}, %{{.*}} {quant = #spyre.quant<format = e2m3fnuz, scaling = tile, mode = actual, codebook = "cb41_e2m3fnuz_mine", mappings = [0.000000e+00, 5.000000e-01
func.func @codebook(%d: tensor<16x32xi8>, %s: tensor<16x2xf8E8M0FNU>, %m: tensor<16x2xi8>, %a: tensor<16x64xi8>, %f: tensor<16x2xf32>, %g: tensor<16x2xi8>) -> (tensor<16x64xf16>, tensor<16x64xf32>) {
  %w = spyre.dequantize %d, %s, %m {quant = #spyre.quant<format = e2m3fnuz, scaling = mx, codebook = "cb42f1346_e2m3fnuz", subtile = 8>}
      : tensor<16x32xi8>, tensor<16x2xf8E8M0FNU>, tensor<16x2xi8> -> tensor<16x64xf16>
  %v = spyre.dequantize %a, %f, %g {quant = #spyre.quant<format = e2m3fnuz, scaling = tile, mode = actual, codebook = "cb41_e2m3fnuz_mine", mappings = [0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0, 0.0, -0.5, -1.0, -1.5, -2.0, -3.0, -4.0, -6.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 0.0, -1.0, -2.0, -3.0, -4.0, -5.0, -6.0, -7.0]>}
      : tensor<16x64xi8>, tensor<16x2xf32>, tensor<16x2xi8> -> tensor<16x64xf32>
  return %w, %v : tensor<16x64xf16>, tensor<16x64xf32>
}

// Scales the program gives (PyTorch's quantize_per_tensor; E8M0 scales of
// MXFP8): the op returns the data alone, and the meta of a codebook, which
// it still chooses.
// CHECK-LABEL: func.func @given_scales
// CHECK: spyre.quantize %{{.*}} scales(%{{.*}}, %{{.*}} : tensor<1x1xf32>, tensor<1x1xi8>) {quant = #spyre.quant<format = int8, scaling = tensor, zero_point = true>} : tensor<16x64xf32> -> tensor<16x64xi8>
// CHECK: spyre.quantize %{{.*}} scales(%{{.*}} : tensor<16x2xf8E8M0FNU>) {quant = #spyre.quant<format = e4m3fn, scaling = mx>} : tensor<16x64xbf16> -> tensor<16x64xf8E4M3FN>
// CHECK: spyre.quantize %{{.*}} scales(%{{.*}} : tensor<16x2xf8E8M0FNU>) {quant = #spyre.quant<format = e2m3fnuz, scaling = mx, codebook = "cb41fi_e2m3fnuz">} : tensor<16x64xf32> -> tensor<16x32xi8>, tensor<16x2xi8>
func.func @given_scales(%x: tensor<16x64xf32>, %y: tensor<16x64xbf16>, %s: tensor<1x1xf32>, %z: tensor<1x1xi8>, %e: tensor<16x2xf8E8M0FNU>) -> (tensor<16x64xi8>, tensor<16x64xf8E4M3FN>, tensor<16x32xi8>, tensor<16x2xi8>) {
  %q = spyre.quantize %x scales(%s, %z : tensor<1x1xf32>, tensor<1x1xi8>)
      {quant = #spyre.quant<format = int8, scaling = tensor, zero_point = true>}
      : tensor<16x64xf32> -> tensor<16x64xi8>
  %m = spyre.quantize %y scales(%e : tensor<16x2xf8E8M0FNU>)
      {quant = #spyre.quant<format = e4m3fn, scaling = mx>}
      : tensor<16x64xbf16> -> tensor<16x64xf8E4M3FN>
  %c, %meta = spyre.quantize %x scales(%e : tensor<16x2xf8E8M0FNU>)
      {quant = #spyre.quant<format = e2m3fnuz, scaling = mx, codebook = "cb41fi_e2m3fnuz">}
      : tensor<16x64xf32> -> tensor<16x32xi8>, tensor<16x2xi8>
  return %q, %m, %c, %meta : tensor<16x64xi8>, tensor<16x64xf8E4M3FN>, tensor<16x32xi8>, tensor<16x2xi8>
}
