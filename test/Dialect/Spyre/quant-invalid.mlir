// RUN: spyre-opt %s -split-input-file -verify-diagnostics

// expected-error @+2 {{unknown quantized format 'fp5'; expected one of e4m3fn, e5m2, e4m3fnuz, e5m2fnuz, e3m2fnuz, e2m3fnuz, e2m1fnuz, e3m2fn, e2m3fn, e2m1fn, int8, int4, uint8, uint4, int2}}
// expected-error @+1 {{failed to parse Spyre_QuantAttr parameter 'format'}}
func.func private @bad_format() attributes {q = #spyre.quant<format = fp5, scaling = mx>}

// -----

// E8M0 is a scale format only.
// expected-error @+2 {{unknown quantized format 'e8m0'}}
// expected-error @+1 {{failed to parse Spyre_QuantAttr parameter 'format'}}
func.func private @e8m0_data() attributes {q = #spyre.quant<format = e8m0, scaling = mx>}

// -----

// expected-error @+2 {{unknown scaling 'block'; expected one of none, tensor, channel, tile, matrix, mx}}
// expected-error @+1 {{failed to parse Spyre_QuantAttr parameter 'scaling'}}
func.func private @bad_scaling() attributes {q = #spyre.quant<format = int8, scaling = block>}

// -----

// expected-error @+1 {{MX scaling uses blocks of 32 values (tile = 16)}}
func.func private @mx_tile() attributes {q = #spyre.quant<format = e2m1fn, scaling = mx, tile = 16>}

// -----

// expected-error @+1 {{int4 is not an MX element format}}
func.func private @mx_int4() attributes {q = #spyre.quant<format = int4, scaling = mx>}

// -----

// expected-error @+1 {{uint4 holds no negative values: give it zero points (zero_point=True)}}
func.func private @uint4_symmetric() attributes {q = #spyre.quant<format = uint4, scaling = tile>}

// -----

// expected-error @+1 {{a zero point type needs zero points (zero_point=True)}}
func.func private @zero_type_alone() attributes {q = #spyre.quant<format = int4, scaling = tile, zero_type = float16>}

// -----

// expected-error @+1 {{float zero points are float32, float16 or bfloat16}}
func.func private @zero_type_e8m0() attributes {q = #spyre.quant<format = uint4, scaling = tile, zero_point = true, zero_type = float8_e8m0fnu>}

// -----

func.func @float_zero_packed(%a: tensor<4x512xf16>, %d: tensor<32x256xi8>, %s: tensor<32x4xf16>, %z: tensor<32x2xi8>) -> tensor<4x32xf16> {
  // expected-error @+1 {{B's zero must be 'tensor<32x4xf16>' for B 'tensor<32x512xf16>', got 'tensor<32x2xi8>'}}
  %c = spyre.scaled_matmul %a, %d, %s, %z {quant = #spyre.quant<format = uint4, scaling = tile, tile = 128, scale_type = float16, zero_point = true, zero_type = float16>}
      : (tensor<4x512xf16>, tensor<32x256xi8>, tensor<32x4xf16>, tensor<32x2xi8>) -> tensor<4x32xf16>
  return %c : tensor<4x32xf16>
}

// -----

// expected-error @+1 {{zero points are for integer formats, not e4m3fn}}
func.func private @float_zero() attributes {q = #spyre.quant<format = e4m3fn, scaling = tile, zero_point = true>}

// -----

// expected-error @+1 {{sparsity is 0, 25 or 50 percent (got 75)}}
func.func private @sparsity() attributes {q = #spyre.quant<format = e4m3fn, scaling = tile, sparsity = 75>}

// -----

// expected-error @+1 {{matrix tiles need two different dims (axis and axis2 are both 1)}}
func.func private @matrix_same_dim() attributes {q = #spyre.quant<format = int8, scaling = matrix, axis = 1, axis2 = 1>}

// -----

// expected-error @+1 {{int8 needs a scale (only float formats cast unscaled)}}
func.func private @int_unscaled() attributes {q = #spyre.quant<format = int8, scaling = none>}

// -----

// The parts must be those the scheme gives the tensor.
func.func @wrong_count(%w: tensor<64x256xf32>) {
  // expected-error @+1 {{'spyre.quantize' op expects 2 results (data, scale) for #spyre.quant<format = e2m1fn, scaling = mx>, got 1}}
  %d = spyre.quantize %w {quant = #spyre.quant<format = e2m1fn, scaling = mx>} : tensor<64x256xf32> -> tensor<64x128xi8>
  return
}

// -----

func.func @unpacked_data(%w: tensor<64x256xf32>) {
  // expected-error @+1 {{'spyre.quantize' op result #0 (data) must be 'tensor<64x128xi8>' for 'tensor<64x256xf32>', got 'tensor<64x256xi8>'}}
  %d, %s = spyre.quantize %w {quant = #spyre.quant<format = e2m1fn, scaling = mx>} : tensor<64x256xf32> -> tensor<64x256xi8>, tensor<64x8xf8E8M0FNU>
  return
}

// -----

func.func @wrong_scale_type(%d: tensor<64x128xi8>, %s: tensor<64x8xi8>) {
  // expected-error @+1 {{'spyre.dequantize' op operand #1 (scale) must be 'tensor<64x8xf8E8M0FNU>' for 'tensor<64x256xf16>', got 'tensor<64x8xi8>'}}
  %r = spyre.dequantize %d, %s {quant = #spyre.quant<format = e2m1fn, scaling = mx>} : tensor<64x128xi8>, tensor<64x8xi8> -> tensor<64x256xf16>
  return
}

// -----

// Shape-dependent checks happen at the op.
func.func @axis_out_of_range(%w: tensor<64xf32>) {
  // expected-error @+1 {{'spyre.quantize' op axis 1 is out of range for a rank-1 tensor}}
  %d, %s = spyre.quantize %w {quant = #spyre.quant<format = e4m3fn, scaling = tile, axis = 1>} : tensor<64xf32> -> tensor<64xf8E4M3FN>, tensor<2xf32>
  return
}

// -----

func.func @sparse_dim(%w: tensor<4x66xf32>) {
  // expected-error @+1 {{the sparse dim 1 (size 66) is not a multiple of the sparse group (4)}}
  %d, %s, %m = spyre.quantize %w {quant = #spyre.quant<format = e4m3fn, scaling = tile, sparsity = 50>} : tensor<4x66xf32> -> tensor<4x33xf8E4M3FN>, tensor<4x3xf32>, tensor<4x9xi8>
  return
}

// -----

func.func @integer_input(%w: tensor<4x64xi32>) {
  // expected-error @+1 {{'spyre.quantize' op quantizes f32, f16 or bf16 tensors, not 'i32'}}
  %d, %s = spyre.quantize %w {quant = #spyre.quant<format = int8, scaling = tile>} : tensor<4x64xi32> -> tensor<4x64xi8>, tensor<4x2xf32>
  return
}

// -----

func.func @missing_attr(%w: tensor<4x64xf32>) {
  // expected-error @+1 {{'spyre.quantize' op requires attribute 'quant'}}
  %d = spyre.quantize %w : tensor<4x64xf32> -> tensor<4x64xf32>
  return
}

// -----

func.func @scaled_virtual(%a: tensor<8x64xf16>, %d: tensor<16x64xf32>, %s: tensor<16x1xf32>) -> tensor<8x16xf16> {
  // expected-error @+1 {{reads stored data: mode 'virtual' holds the dequantized values themselves (use spyre.matmul)}}
  %c = spyre.scaled_matmul %a, %d, %s {quant = #spyre.quant<format = int8, scaling = channel, mode = virtual>}
      : (tensor<8x64xf16>, tensor<16x64xf32>, tensor<16x1xf32>) -> tensor<8x16xf16>
  return %c : tensor<8x16xf16>
}

// -----

func.func @scaled_matrix(%a: tensor<8x64xf16>, %d: tensor<16x64xi8>, %s: tensor<1x2xf32>) -> tensor<8x16xf16> {
  // expected-error @+1 {{scales B by mx, tile, channel or tensor scales, not 'matrix'}}
  %c = spyre.scaled_matmul %a, %d, %s {quant = #spyre.quant<format = int8, scaling = matrix>}
      : (tensor<8x64xf16>, tensor<16x64xi8>, tensor<1x2xf32>) -> tensor<8x16xf16>
  return %c : tensor<8x16xf16>
}

// -----

// Packed fp4 data holds two values a byte: [16, 64] values are [16, 32] bytes.
func.func @scaled_unpacked(%a: tensor<8x64xf16>, %d: tensor<16x64xi8>, %s: tensor<16x2xf8E8M0FNU>) -> tensor<8x16xf16> {
  // expected-error @+1 {{B's data must be 'tensor<16x32xi8>' for B 'tensor<16x64xf16>', got 'tensor<16x64xi8>'}}
  %c = spyre.scaled_matmul %a, %d, %s {quant = #spyre.quant<format = e2m1fn, scaling = mx>}
      : (tensor<8x64xf16>, tensor<16x64xi8>, tensor<16x2xf8E8M0FNU>) -> tensor<8x16xf16>
  return %c : tensor<8x16xf16>
}

// -----

func.func @scaled_f32(%a: tensor<8x64xf32>, %d: tensor<16x64xi8>, %s: tensor<16x1xf32>) -> tensor<8x16xf32> {
  // expected-error @+1 {{the PT unit multiplies DL16 (f16 or bf16) A, not 'f32'}}
  %c = spyre.scaled_matmul %a, %d, %s {quant = #spyre.quant<format = int8, scaling = channel>}
      : (tensor<8x64xf32>, tensor<16x64xi8>, tensor<16x1xf32>) -> tensor<8x16xf32>
  return %c : tensor<8x16xf32>
}

// -----

func.func @scaled_axis(%a: tensor<8x64xf16>, %d: tensor<16x64xi8>, %s: tensor<1x64xf32>) -> tensor<8x16xf16> {
  // expected-error @+1 {{needs B quantized along K, its last dim (axis = -1), got axis = 0}}
  %c = spyre.scaled_matmul %a, %d, %s {quant = #spyre.quant<format = int8, scaling = channel, axis = 0>}
      : (tensor<8x64xf16>, tensor<16x64xi8>, tensor<1x64xf32>) -> tensor<8x16xf16>
  return %c : tensor<8x16xf16>
}

// -----

func.func @scaled_missing_zero(%a: tensor<8x64xf16>, %d: tensor<16x64xi8>, %s: tensor<16x1xf32>) -> tensor<8x16xf16> {
  // expected-error @+1 {{expects B's parts (data, scale, zero) for #spyre.quant<format = int8, scaling = channel, zero_point = true>, got 2 operands after A}}
  %c = spyre.scaled_matmul %a, %d, %s {quant = #spyre.quant<format = int8, scaling = channel, zero_point = true>}
      : (tensor<8x64xf16>, tensor<16x64xi8>, tensor<16x1xf32>) -> tensor<8x16xf16>
  return %c : tensor<8x16xf16>
}

// -----

// A codebook is named by its code, its compute type being the format.
// expected-error @+2 {{'cb41fi_e2m3fnuz' is a codebook: give its compute type as the format and the code as codebook = "cb41fi_e2m3fnuz"}}
// expected-error @+1 {{failed to parse Spyre_QuantAttr parameter 'format'}}
func.func private @codebook_as_format() attributes {q = #spyre.quant<format = cb41fi_e2m3fnuz, scaling = mx>}

// -----

// expected-error @+1 {{codebook 'cb41fi_e2m3fnuz' holds e2m3fnuz values, but format is e4m3fn (the compute type is the format)}}
func.func private @codebook_format() attributes {q = #spyre.quant<format = e4m3fn, scaling = mx, codebook = "cb41fi_e2m3fnuz">}

// -----

// expected-error @+1 {{codebook 'cb42f13_e2m3fnuz': 2 meta bits select 4 mappings, the desc makes 2}}
func.func private @codebook_mappings_count() attributes {q = #spyre.quant<format = e2m3fnuz, scaling = mx, codebook = "cb42f13_e2m3fnuz">}

// -----

// expected-error @+1 {{codebook 'cb41_e2m3fnuz' is generic: give its 2 mappings of 16 e2m3fnuz values}}
func.func private @generic_without_mappings() attributes {q = #spyre.quant<format = e2m3fnuz, scaling = mx, codebook = "cb41_e2m3fnuz">}

// -----

// expected-error @+1 {{codebook 'cb40_e2m3fnuz': value 9 (mapping 0, index 1) is not a e2m3fnuz value}}
func.func private @generic_bad_value() attributes {q = #spyre.quant<format = e2m3fnuz, scaling = mx, codebook = "cb40_e2m3fnuz", mappings = [0.0, 9.0, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0, 0.0, -0.5, -1.0, -1.5, -2.0, -3.0, -4.0, -6.0]>}

// -----

// expected-error @+1 {{mappings are for codebooks (codebook = "cb...")}}
func.func private @mappings_alone() attributes {q = #spyre.quant<format = e2m3fnuz, scaling = mx, mappings = [0.0]>}

// -----

// expected-error @+1 {{a subtile of 5 does not divide the tile of 32}}
func.func private @codebook_subtile() attributes {q = #spyre.quant<format = e2m3fnuz, scaling = mx, codebook = "cb41fi_e2m3fnuz", subtile = 5>}

// -----

// The meta companion comes after the scale, shaped per subtile.
func.func @codebook_meta(%d: tensor<16x32xi8>, %s: tensor<16x2xf8E8M0FNU>, %m: tensor<16x4xi8>) -> tensor<16x64xf16> {
  // expected-error @+1 {{operand #2 (meta) must be 'tensor<16x2xi8>' for 'tensor<16x64xf16>', got 'tensor<16x4xi8>'}}
  %w = spyre.dequantize %d, %s, %m {quant = #spyre.quant<format = e2m3fnuz, scaling = mx, codebook = "cb41fi_e2m3fnuz", subtile = 8>}
      : tensor<16x32xi8>, tensor<16x2xf8E8M0FNU>, tensor<16x4xi8> -> tensor<16x64xf16>
  return %w : tensor<16x64xf16>
}

// -----

func.func @scaled_codebook_straddling_meta(%a: tensor<8x64xf16>, %d: tensor<16x32xi8>, %s: tensor<16x2xf8E8M0FNU>, %m: tensor<16x4xi8>) -> tensor<8x16xf16> {
  // expected-error @+1 {{reads a codebook's meta a byte at a time: 3 meta bits a subtile straddle bytes (the meta of a tile must fit one byte, or fill whole bytes with meta_bits dividing 8)}}
  %c = spyre.scaled_matmul %a, %d, %s, %m {quant = #spyre.quant<format = e2m3fnuz, scaling = mx, codebook = "cb43f0123i0123_e2m3fnuz", subtile = 8>}
      : (tensor<8x64xf16>, tensor<16x32xi8>, tensor<16x2xf8E8M0FNU>, tensor<16x4xi8>) -> tensor<8x16xf16>
  return %c : tensor<8x16xf16>
}

// -----

func.func @scaled_codebook_without_meta(%a: tensor<8x64xf16>, %d: tensor<16x32xi8>, %s: tensor<16x2xf8E8M0FNU>) -> tensor<8x16xf16> {
  // expected-error @+1 {{expects B's parts (data, scale, meta) for}}
  %c = spyre.scaled_matmul %a, %d, %s {quant = #spyre.quant<format = e2m3fnuz, scaling = mx, codebook = "cb41fi_e2m3fnuz">}
      : (tensor<8x64xf16>, tensor<16x32xi8>, tensor<16x2xf8E8M0FNU>) -> tensor<8x16xf16>
  return %c : tensor<8x16xf16>
}

// -----

func.func @given_too_few(%x: tensor<16x64xf32>, %s: tensor<1x1xf32>) -> tensor<16x64xi8> {
  // expected-error @+1 {{'spyre.quantize' op expects 2 given scales (scale, zero) for #spyre.quant<format = int8, scaling = tensor, zero_point = true> with given scales, got 1}}
  %q = spyre.quantize %x scales(%s : tensor<1x1xf32>) {quant = #spyre.quant<format = int8, scaling = tensor, zero_point = true>}
      : tensor<16x64xf32> -> tensor<16x64xi8>
  return %q : tensor<16x64xi8>
}

// -----

func.func @given_wrong_type(%x: tensor<16x64xf32>, %s: tensor<1x1xf16>, %z: tensor<1x1xi8>) -> tensor<16x64xi8> {
  // expected-error @+1 {{'spyre.quantize' op given scale #0 (scale) must be 'tensor<1x1xf32>' for 'tensor<16x64xf32>', got 'tensor<1x1xf16>'}}
  %q = spyre.quantize %x scales(%s, %z : tensor<1x1xf16>, tensor<1x1xi8>) {quant = #spyre.quant<format = int8, scaling = tensor, zero_point = true>}
      : tensor<16x64xf32> -> tensor<16x64xi8>
  return %q : tensor<16x64xi8>
}

// -----

func.func @given_and_returned(%x: tensor<16x64xf32>, %s: tensor<16x2xf8E8M0FNU>) -> (tensor<16x64xf8E4M3FN>, tensor<16x2xf8E8M0FNU>) {
  // expected-error @+1 {{'spyre.quantize' op expects 1 results (data) for #spyre.quant<format = e4m3fn, scaling = mx> with given scales, got 2}}
  %q, %t = spyre.quantize %x scales(%s : tensor<16x2xf8E8M0FNU>) {quant = #spyre.quant<format = e4m3fn, scaling = mx>}
      : tensor<16x64xf32> -> tensor<16x64xf8E4M3FN>, tensor<16x2xf8E8M0FNU>
  return %q, %t : tensor<16x64xf8E4M3FN>, tensor<16x2xf8E8M0FNU>
}

// -----

func.func @nothing_to_give(%x: tensor<16x64xf32>, %s: tensor<1x1xf32>) -> tensor<16x64xf8E4M3FN> {
  // expected-error @+1 {{'spyre.quantize' op #spyre.quant<format = e4m3fn, scaling = none> has no scales to give}}
  %q = spyre.quantize %x scales(%s : tensor<1x1xf32>) {quant = #spyre.quant<format = e4m3fn, scaling = none>}
      : tensor<16x64xf32> -> tensor<16x64xf8E4M3FN>
  return %q : tensor<16x64xf8E4M3FN>
}

// -----

// expected-error @+1 {{e2m1fn values do not overflow to NaN or infinity: saturate = false is for float formats that have them}}
func.func private @saturate_fp4() attributes {q = #spyre.quant<format = e2m1fn, scaling = mx, saturate = false>}

// -----

// expected-error @+1 {{int8 values do not overflow to NaN or infinity: saturate = false is for float formats that have them}}
func.func private @saturate_int8() attributes {q = #spyre.quant<format = int8, scaling = channel, saturate = false>}
