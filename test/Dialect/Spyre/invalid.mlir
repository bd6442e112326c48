// RUN: spyre-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// Malformed #spyre.layout attributes
//===----------------------------------------------------------------------===//

// expected-error @+1 {{struct is missing required parameter: stride_map}}
func.func private @missing_stride_map(%a: tensor<1024x256xf16, #spyre.layout<device_size = [4, 1024, 64]>>)

// -----

// expected-error @+1 {{duplicate or unknown struct parameter name: strides}}
func.func private @unknown_parameter(%a: tensor<1024x256xf16, #spyre.layout<device_size = [4, 1024, 64], strides = [64, 256, 1]>>)

// -----

// expected-error @+2 {{expected '['}}
// expected-error @+1 {{failed to parse Spyre_LayoutAttr parameter 'device_size'}}
func.func private @not_a_list(%a: tensor<1024x256xf16, #spyre.layout<device_size = 4, stride_map = [64, 256, 1]>>)

// -----

// expected-error @+2 {{expected integer value}}
// expected-error @+1 {{failed to parse Spyre_LayoutAttr parameter 'device_size'}}
func.func private @not_an_integer(%a: tensor<1024x256xf16, #spyre.layout<device_size = [4, x, 64], stride_map = [64, 256, 1]>>)

// -----

// expected-error @+2 {{failed to parse Spyre_LayoutAttr parameter 'format'}}
// expected-error @+1 {{unknown device data format 'FP64'; expected one of SEN169_FP16, IEEE_FP32, IEEE_INT32, SENINT8, SEN143_FP8, SEN152_FP8, SENINT4}}
func.func private @unknown_format(%a: tensor<1024x256xf16, #spyre.layout<device_size = [4, 1024, 64], stride_map = [64, 256, 1], format = FP64>>)

// -----

// expected-error @+2 {{failed to parse Spyre_LayoutAttr parameter 'arrangement'}}
// expected-error @+1 {{unknown element arrangement 'zigzag'; expected one of standard, dl16_to_fp32, qfp8ch, exx2}}
func.func private @unknown_arrangement(%a: tensor<1024x256xf16, #spyre.layout<device_size = [4, 1024, 64], stride_map = [64, 256, 1], arrangement = zigzag>>)

// -----

// expected-error @+1 {{device_size has 3 entries but stride_map has 2; they must match}}
func.func private @length_mismatch(%a: tensor<1024x256xf16, #spyre.layout<device_size = [4, 1024, 64], stride_map = [64, 1]>>)

// -----

// expected-error @+1 {{device_size must have at least one dim (the stick)}}
func.func private @empty(%a: tensor<1024x256xf16, #spyre.layout<device_size = [], stride_map = []>>)

// -----

// expected-error @+1 {{device rank 9 exceeds the maximum of 8}}
func.func private @device_rank(%a: tensor<64xf16, #spyre.layout<device_size = [1, 1, 1, 1, 1, 1, 1, 1, 64], stride_map = [-1, -1, -1, -1, -1, -1, -1, -1, 1]>>)

// -----

// expected-error @+1 {{device_size[0] = 0 must be positive}}
func.func private @zero_device_size(%a: tensor<1024x256xf16, #spyre.layout<device_size = [0, 1024, 64], stride_map = [64, 256, 1]>>)

// -----

// expected-error @+1 {{device_size[1] = -4 must be positive}}
func.func private @negative_device_size(%a: tensor<1024x256xf16, #spyre.layout<device_size = [4, -4, 64], stride_map = [64, 256, 1]>>)

// -----

// expected-error @+1 {{stride_map[1] = -2 is invalid: entries are host strides >= 0, or -1 for a synthetic dim}}
func.func private @stride_below_minus_one(%a: tensor<1024x256xf16, #spyre.layout<device_size = [4, 1024, 64], stride_map = [64, -2, 1]>>)

// -----

// expected-error @+1 {{stick dim device_size[2] = 100 holds no whole 128-byte stick of any device format (it holds 64 16-bit, 32 32-bit, 128 8-bit or 256 4-bit elements)}}
func.func private @stick_of_no_format(%a: tensor<1024x256xf16, #spyre.layout<device_size = [4, 1024, 100], stride_map = [64, 256, 1]>>)

// -----

// expected-error @+1 {{stick_bytes = 6 must be a positive multiple of 4}}
func.func private @bad_stick_bytes(%a: tensor<1024x256xf16, #spyre.layout<device_size = [4, 1024, 64], stride_map = [64, 256, 1], stick_bytes = 6>>)

// -----

// expected-error @+1 {{device tensor of sizes [1099511627776, 1099511627776, 64] is too large (its byte size overflows 64 bits)}}
func.func private @overflow(%a: tensor<64xf16, #spyre.layout<device_size = [1099511627776, 1099511627776, 64], stride_map = [-1, -1, 1]>>)

//===----------------------------------------------------------------------===//
// Layouts that do not fit their tensor type
//===----------------------------------------------------------------------===//

// -----

// f32 sticks hold 32 elements.
// expected-error @+1 {{#spyre.layout does not fit tensor<1024x256xf32>: stick dim device_size[2] = 64 must be 32: one 128-byte stick of IEEE_FP32 holds 32 elements}}
func.func private @stick_size_vs_format(%a: tensor<1024x256xf32, #spyre.layout<device_size = [4, 1024, 64], stride_map = [64, 256, 1]>>)

// -----

// expected-error @+1 {{#spyre.layout does not fit tensor<1024x256xf32>: device format SEN169_FP16 does not match element type 'f32', which is stored as IEEE_FP32}}
func.func private @format_vs_element_type(%a: tensor<1024x256xf32, #spyre.layout<device_size = [4, 1024, 64], stride_map = [64, 256, 1], format = SEN169_FP16>>)

// -----

// expected-error @+1 {{#spyre.layout does not fit tensor<1024x256xf64>: element type 'f64' has no Spyre device format}}
func.func private @unsupported_element_type(%a: tensor<1024x256xf64, #spyre.layout<device_size = [4, 1024, 64], stride_map = [64, 256, 1]>>)

// -----

// expected-error @+1 {{#spyre.layout does not fit tensor<64xui8>: element type 'ui8' has no Spyre device format}}
func.func private @unsigned_element_type(%a: tensor<64xui8, #spyre.layout<device_size = [1, 128], stride_map = [128, 1]>>)

// -----

// expected-error @+1 {{#spyre.layout needs a static shape, but dim 0 of the tensor is dynamic}}
func.func private @dynamic_shape(%a: tensor<?x256xf16, #spyre.layout<device_size = [4, 1024, 64], stride_map = [64, 256, 1]>>)

// -----

// expected-error @+1 {{#spyre.layout does not fit tensor<0x256xf16>: host size[0] = 0 must be positive (tensor sizes [0, 256])}}
func.func private @empty_tensor(%a: tensor<0x256xf16, #spyre.layout<device_size = [4, 1, 64], stride_map = [64, 256, 1]>>)

// -----

// expected-error @+1 {{#spyre.layout does not fit tensor<1x1x1x1x1x1x64xf16>: host rank 7 exceeds the maximum of 6}}
func.func private @host_rank(%a: tensor<1x1x1x1x1x1x64xf16, #spyre.layout<device_size = [1, 64], stride_map = [64, 1]>>)

// -----

// Two device slots on one host element: dim 0 steps 32 elements into a dim
// whose stick already covers 64.
// expected-error @+1 {{#spyre.layout does not fit tensor<1024x256xf16>: device dims 2 and 0 both map host dim 1 (size 256) at step 32: two device slots would hold one host element}}
func.func private @two_slots_one_element(%a: tensor<1024x256xf16, #spyre.layout<device_size = [4, 1024, 64], stride_map = [32, 256, 1]>>)

// -----

// expected-error @+1 {{#spyre.layout does not fit tensor<1024x256xf16>: host dim 1 (size 256): device dim 2 covers 64 elements but the next device dim 0 steps by 128, leaving host elements without a device slot}}
func.func private @gap(%a: tensor<1024x256xf16, #spyre.layout<device_size = [2, 1024, 64], stride_map = [128, 256, 1]>>)

// -----

// expected-error @+1 {{#spyre.layout does not fit tensor<1024x256xf16>: layout too small: its device dims cover 192 of the 256 elements of host dim 1}}
func.func private @too_small_stick_dim(%a: tensor<1024x256xf16, #spyre.layout<device_size = [3, 1024, 64], stride_map = [64, 256, 1]>>)

// -----

// expected-error @+1 {{#spyre.layout does not fit tensor<1024x256xf16>: layout too small: its device dims cover 512 of the 1024 elements of host dim 0}}
func.func private @too_small_row_dim(%a: tensor<1024x256xf16, #spyre.layout<device_size = [4, 512, 64], stride_map = [64, 256, 1]>>)

// -----

// expected-error @+1 {{#spyre.layout does not fit tensor<1024x256xf16>: stride_map[1] = 257 does not step along any host dim of a tensor with sizes [1024, 256] and strides [256, 1] (an entry must be k * host_stride[h] with k < size[h])}}
func.func private @stride_of_no_dim(%a: tensor<1024x256xf16, #spyre.layout<device_size = [4, 1024, 64], stride_map = [64, 257, 1]>>)

// -----

// expected-error @+1 {{#spyre.layout does not fit tensor<1024x256xf16>: host dim 0 (size 1024) is not mapped by any device dim: no stride_map entry steps along it}}
func.func private @unmapped_host_dim(%a: tensor<1024x256xf16, #spyre.layout<device_size = [4, 64], stride_map = [64, 1]>>)

// -----

// expected-error @+1 {{#spyre.layout does not fit tensor<1024x256xf16>: host dim 1 (size 256) has no device dim stepping by its host stride 1; its elements between multiples of 2 have no device slot}}
func.func private @no_innermost_piece(%a: tensor<1024x256xf16, #spyre.layout<device_size = [4, 1024, 64], stride_map = [64, 256, 2]>>)

// -----

// The layout is also checked where types are built by operations.
func.func @op_result(%h: tensor<1024x256xf16>) {
  // expected-error @+1 {{#spyre.layout does not fit tensor<1024x256xf16>: layout too small}}
  %d = spyre.to_device %h : tensor<1024x256xf16> -> tensor<1024x256xf16, #spyre.layout<device_size = [3, 1024, 64], stride_map = [64, 256, 1]>>
  return
}

//===----------------------------------------------------------------------===//
// Operations
//===----------------------------------------------------------------------===//

// -----

func.func @to_device_without_layout(%h: tensor<4x64xf16>) {
  // expected-error @+1 {{'spyre.to_device' op result #0 must be ranked tensor with a #spyre.layout encoding, but got 'tensor<4x64xf16>'}}
  %d = spyre.to_device %h : tensor<4x64xf16> -> tensor<4x64xf16>
  return
}

// -----

func.func @to_device_of_device_tensor(%d: tensor<4x64xf16, #spyre.layout<device_size = [1, 4, 64], stride_map = [64, 64, 1]>>) {
  // expected-error @+1 {{'spyre.to_device' op operand #0 must be ranked tensor without a #spyre.layout encoding}}
  %e = spyre.to_device %d : tensor<4x64xf16, #spyre.layout<device_size = [1, 4, 64], stride_map = [64, 64, 1]>> -> tensor<4x64xf16, #spyre.layout<device_size = [1, 4, 64], stride_map = [64, 64, 1]>>
  return
}

// -----

func.func @to_device_shape(%h: tensor<8x64xf16>) {
  // expected-error @+1 {{'spyre.to_device' op result shape [4, 64] differs from input shape [8, 64]; only the layout may change}}
  %d = spyre.to_device %h : tensor<8x64xf16> -> tensor<4x64xf16, #spyre.layout<device_size = [1, 4, 64], stride_map = [64, 64, 1]>>
  return
}

// -----

func.func @from_device_element_type(%d: tensor<4x64xf16, #spyre.layout<device_size = [1, 4, 64], stride_map = [64, 64, 1]>>) {
  // expected-error @+1 {{'spyre.from_device' op result element type 'f32' differs from input element type 'f16'; the device format is given by the layout}}
  %h = spyre.from_device %d : tensor<4x64xf16, #spyre.layout<device_size = [1, 4, 64], stride_map = [64, 64, 1]>> -> tensor<4x64xf32>
  return
}

// -----

func.func @from_device_to_device_tensor(%d: tensor<4x64xf16, #spyre.layout<device_size = [1, 4, 64], stride_map = [64, 64, 1]>>) {
  // expected-error @+1 {{'spyre.from_device' op result #0 must be ranked tensor without a #spyre.layout encoding}}
  %h = spyre.from_device %d : tensor<4x64xf16, #spyre.layout<device_size = [1, 4, 64], stride_map = [64, 64, 1]>> -> tensor<4x64xf16, #spyre.layout<device_size = [1, 4, 64], stride_map = [64, 64, 1]>>
  return
}

// -----

func.func @restickify_host_tensor(%h: tensor<4x64xf16>) {
  // expected-error @+1 {{'spyre.restickify' op operand #0 must be ranked tensor with a #spyre.layout encoding, but got 'tensor<4x64xf16>'}}
  %d = spyre.restickify %h : tensor<4x64xf16> -> tensor<4x64xf16, #spyre.layout<device_size = [1, 4, 64], stride_map = [64, 64, 1]>>
  return
}

// -----

func.func @restickify_shape(%d: tensor<4x64xf16, #spyre.layout<device_size = [1, 4, 64], stride_map = [64, 64, 1]>>) {
  // expected-error @+1 {{'spyre.restickify' op result shape [64, 4] differs from input shape [4, 64]; only the layout may change}}
  %t = spyre.restickify %d : tensor<4x64xf16, #spyre.layout<device_size = [1, 4, 64], stride_map = [64, 64, 1]>> -> tensor<64x4xf16, #spyre.layout<device_size = [1, 64, 64], stride_map = [64, 4, 1]>>
  return
}

//===----------------------------------------------------------------------===//
// Function argument / result attributes and dialect attributes
//===----------------------------------------------------------------------===//

// -----

// expected-error @+1 {{argument #0 'spyre.layout': must be a #spyre.layout attribute}}
func.func private @layout_not_a_layout(%a: tensor<4x64xf16> {spyre.layout = [1, 0]})

// -----

// expected-error @+1 {{argument #0 'spyre.layout': only ranked tensors have a device layout, got 'memref<4x64xf16>'}}
func.func private @layout_on_memref(%a: memref<4x64xf16> {spyre.layout = #spyre.layout<device_size = [1, 4, 64], stride_map = [64, 64, 1]>})

// -----

// expected-error @+1 {{argument #0 'spyre.layout': #spyre.layout does not fit tensor<8x64xf16>: layout too small: its device dims cover 4 of the 8 elements of host dim 0}}
func.func private @layout_does_not_fit(%a: tensor<8x64xf16> {spyre.layout = #spyre.layout<device_size = [1, 4, 64], stride_map = [64, 64, 1]>})

// -----

// expected-error @+1 {{argument #0 'spyre.dim_order': dim_order [0, 0] must be a permutation of the 2 host dims [0, 2), optionally followed by -1 for a sparse layout}}
func.func private @dim_order_not_a_permutation(%a: tensor<4x64xf16> {spyre.dim_order = array<i64: 0, 0>})

// -----

// Entries beyond 32 bits are not truncated (4294967297 is not 1).
// expected-error @+1 {{argument #0 'spyre.dim_order': dim_order [4294967297, 0] must be a permutation of the 2 host dims [0, 2), optionally followed by -1 for a sparse layout}}
func.func private @dim_order_beyond_32_bits(%a: tensor<4x64xf16> {spyre.dim_order = array<i64: 4294967297, 0>})

// -----

// expected-error @+1 {{result #0 'spyre.dim_order': dim_order [1, -4294967296] must be a permutation of the 2 host dims [0, 2), optionally followed by -1 for a sparse layout}}
func.func private @dim_order_beyond_32_bits_result() -> (tensor<4x64xf16> {spyre.dim_order = [1, -4294967296]})

// -----

// expected-error @+1 {{argument #0 'spyre.dim_order': must be an array of host dims, e.g. array<i64: 1, 0>}}
func.func private @dim_order_not_an_array(%a: tensor<4x64xf16> {spyre.dim_order = "1,0"})

// -----

// expected-error @+1 {{argument #0 'spyre.layout': give either 'spyre.layout' or 'spyre.dim_order', not both}}
func.func private @layout_and_dim_order(%a: tensor<4x64xf16> {spyre.layout = #spyre.layout<device_size = [1, 4, 64], stride_map = [64, 64, 1]>, spyre.dim_order = array<i64: 1, 0>})

// -----

// expected-error @+1 {{argument #0 'spyre.dim_order': the type already carries a layout; drop the attribute}}
func.func private @attribute_on_laid_out(%a: tensor<4x64xf16, #spyre.layout<device_size = [1, 4, 64], stride_map = [64, 64, 1]>> {spyre.dim_order = array<i64: 1, 0>})

// -----

// expected-error @+1 {{unknown spyre dialect attribute 'spyre.stick' on argument #0}}
func.func private @unknown_argument_attribute(%a: tensor<4x64xf16> {spyre.stick = 1})

// -----

// expected-error @+1 {{result #0 'spyre.dim_order': dim_order [2] must be a permutation of the 1 host dims [0, 1), optionally followed by -1 for a sparse layout}}
func.func private @bad_result_attribute() -> (tensor<64xf16> {spyre.dim_order = array<i64: 2>})

// -----

// expected-error @+1 {{'spyre.layout' is a function argument or result attribute, not an operation attribute}}
func.func @layout_on_an_operation() attributes {spyre.layout = #spyre.layout<device_size = [1, 64], stride_map = [-1, 1]>} {
  return
}

// -----

// expected-error @+1 {{unknown spyre dialect attribute 'spyre.cores'}}
func.func @unknown_operation_attribute() attributes {spyre.cores = 4} {
  return
}

//===----------------------------------------------------------------------===//
// Compute ops
//===----------------------------------------------------------------------===//

// -----

func.func @wrong_arity(%a: tensor<4x64xf16>) {
  // expected-error @+1 {{'spyre.add' op expects 2 inputs, got 1}}
  %0 = spyre.add %a : (tensor<4x64xf16>) -> tensor<4x64xf16>
  return
}

// -----

func.func @rank_mismatch_without_maps(%a: tensor<4x64xf16>, %b: tensor<64xf16>) {
  // expected-error @+1 {{'spyre.add' op input #1 has rank 1 but the result has rank 2; give indexing_maps to say how it broadcasts}}
  %0 = spyre.add %a, %b : (tensor<4x64xf16>, tensor<64xf16>) -> tensor<4x64xf16>
  return
}

// -----

func.func @extent_mismatch(%a: tensor<4x64xf16>, %b: tensor<4x32xf16>) {
  // expected-error @+1 {{'spyre.add' op op dim d1 has extent 64 in input #0 but 32 in input #1}}
  %0 = spyre.add %a, %b : (tensor<4x64xf16>, tensor<4x32xf16>) -> tensor<4x64xf16>
  return
}

// -----

func.func @not_a_projected_permutation(%a: tensor<4x64xf16>, %b: tensor<4x64xf16>) {
  // expected-error @+1 {{'spyre.add' op indexing map of input #1 must be a projected permutation, got affine_map<(d0, d1) -> (d0 + d1, d1)>}}
  %0 = spyre.add %a, %b {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0 + d1, d1)>, affine_map<(d0, d1) -> (d0, d1)>]} : (tensor<4x64xf16>, tensor<4x64xf16>) -> tensor<4x64xf16>
  return
}

// -----

func.func @too_few_maps(%a: tensor<4x64xf16>, %b: tensor<4x64xf16>) {
  // expected-error @+1 {{'spyre.add' op expects 3 indexing maps (inputs, then the result), got 2}}
  %0 = spyre.add %a, %b {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>]} : (tensor<4x64xf16>, tensor<4x64xf16>) -> tensor<4x64xf16>
  return
}

// -----

func.func @permuted_result_map(%a: tensor<4x64xf16>, %b: tensor<64x4xf16>) {
  // expected-error @+1 {{'spyre.add' op the result's indexing map must be the identity (the op dims are the result's dims), got affine_map<(d0, d1) -> (d1, d0)>}}
  %0 = spyre.add %a, %b {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>]} : (tensor<4x64xf16>, tensor<64x4xf16>) -> tensor<64x4xf16>
  return
}

// -----

func.func @mixed_element_types(%a: tensor<4x64xf16>, %b: tensor<4x64xf32>) {
  // expected-error @+1 {{'spyre.add' op input #1 has element type 'f32' but 'f16' is expected}}
  %0 = spyre.add %a, %b : (tensor<4x64xf16>, tensor<4x64xf32>) -> tensor<4x64xf16>
  return
}

// -----

func.func @comparison_result(%a: tensor<4x64xf16>, %b: tensor<4x64xf16>) {
  // expected-error @+1 {{'spyre.greater_than' op a comparison produces i1, not 'f16'}}
  %0 = spyre.greater_than %a, %b : (tensor<4x64xf16>, tensor<4x64xf16>) -> tensor<4x64xf16>
  return
}

// -----

func.func @where_condition(%a: tensor<4x64xf16>, %b: tensor<4x64xf16>) {
  // expected-error @+1 {{'spyre.where' op input #0 has element type 'f16' but 'i1' is expected}}
  %0 = spyre.where %a, %a, %b : (tensor<4x64xf16>, tensor<4x64xf16>, tensor<4x64xf16>) -> tensor<4x64xf16>
  return
}

// -----

func.func @clip_bounds(%a: tensor<4x64xf16>) {
  // expected-error @+1 {{'spyre.clip' op min 2.000000e+00 exceeds max 1.000000e+00}}
  %0 = spyre.clip %a min = 2.0 max = 1.0 : tensor<4x64xf16> -> tensor<4x64xf16>
  return
}

// -----

func.func @unsupported_conversion(%a: tensor<4x64xf16>) {
  // expected-error @+1 {{'spyre.convert' op unsupported conversion from 'f16' to 'i32'; the device converts f16 or bf16 <-> f32, f16 <-> bf16, fp8 -> f16 and f16 -> fp8}}
  %0 = spyre.convert %a : tensor<4x64xf16> -> tensor<4x64xi32>
  return
}

// -----

func.func @reduction_dim(%a: tensor<4x64xf16>) {
  // expected-error @+1 {{'spyre.sum' op dim 2 is not a dim of the rank-2 input}}
  %0 = spyre.sum %a dim = 2 : tensor<4x64xf16> -> tensor<4xf16>
  return
}

// -----

func.func @reduction_shape(%a: tensor<4x64xf16>) {
  // expected-error @+1 {{'spyre.max' op result shape [64] must be the input shape without dim 1, i.e. [4]}}
  %0 = spyre.max %a dim = 1 : tensor<4x64xf16> -> tensor<64xf16>
  return
}

// -----

func.func @matmul_element_types(%a: tensor<4x64xf32>, %b: tensor<64x8xf32>) {
  // expected-error @+1 {{'spyre.matmul' op the PT unit multiplies DL16 or fp8 operands, not 'f32'}}
  %0 = spyre.matmul %a, %b : tensor<4x64xf32>, tensor<64x8xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @matmul_shapes(%a: tensor<4x64xf16>, %b: tensor<32x8xf16>) {
  // expected-error @+1 {{'spyre.matmul' op op dim d2 has extent 64 in input #0 but 32 in input #1}}
  %0 = spyre.matmul %a, %b : tensor<4x64xf16>, tensor<32x8xf16> -> tensor<4x8xf16>
  return
}

// -----

// Without indexing_maps the operands are matrices (or batches of them): the
// error is about their ranks, not about maps the user never wrote.
func.func @batch_matmul_rank(%a: tensor<4x64xf16>, %b: tensor<64x8xf16>) {
  // expected-error @+1 {{'spyre.batch_matmul' op needs rank-3 operands and result ([b, m, k] x [b, k, n] -> [b, m, n]) unless indexing_maps say otherwise; input #0 has rank 2}}
  %0 = spyre.batch_matmul %a, %b : tensor<4x64xf16>, tensor<64x8xf16> -> tensor<4x8xf16>
  return
}

// -----

func.func @matmul_rank(%a: tensor<4x64xf16>, %b: tensor<2x64x8xf16>) {
  // expected-error @+1 {{'spyre.matmul' op needs rank-2 operands and result ([m, k] x [k, n] -> [m, n]) unless indexing_maps say otherwise; input #1 has rank 3}}
  %0 = spyre.matmul %a, %b : tensor<4x64xf16>, tensor<2x64x8xf16> -> tensor<4x8xf16>
  return
}

// -----

func.func @transpose_permutation(%a: tensor<4x64xf16>) {
  // expected-error @+1 {{'spyre.transpose' op permutation [0, 0] is not a permutation of [0, 2)}}
  %0 = spyre.transpose %a permutation = [0, 0] : tensor<4x64xf16> -> tensor<4x64xf16>
  return
}

// -----

func.func @transpose_shape(%a: tensor<4x64xf16>) {
  // expected-error @+1 {{'spyre.transpose' op result must be the permuted input, 'tensor<64x4xf16>', not 'tensor<4x64xf16>'}}
  %0 = spyre.transpose %a permutation = [1, 0] : tensor<4x64xf16> -> tensor<4x64xf16>
  return
}

// -----

func.func @reshape_count(%a: tensor<4x64xf16>) {
  // expected-error @+1 {{'spyre.reshape' op reshape from 256 to 128 elements}}
  %0 = spyre.reshape %a : tensor<4x64xf16> -> tensor<128xf16>
  return
}

// -----

func.func @constant_type() {
  // expected-error @+1 {{'spyre.constant' op value of type 'tensor<2xf16>' does not match the result 'tensor<3xf16>'}}
  %0 = spyre.constant dense<[1.0, 2.0]> : tensor<2xf16> -> tensor<3xf16>
  return
}

// -----

func.func @pad_value(%d: tensor<100x64xf16, #spyre.layout<device_size = [1, 100, 64], stride_map = [64, 64, 1]>>) {
  // expected-error @+1 {{'spyre.pad' op padding value: value 1e+09 is not representable in SEN169_FP16}}
  %0 = spyre.pad %d value = 1.0e9 : tensor<100x64xf16, #spyre.layout<device_size = [1, 100, 64], stride_map = [64, 64, 1]>> -> tensor<100x64xf16, #spyre.layout<device_size = [1, 128, 64], stride_map = [64, 64, 1]>>
  return
}

//===----------------------------------------------------------------------===//
// Stick rules of laid-out compute ops
//===----------------------------------------------------------------------===//

// -----

#rows = #spyre.layout<device_size = [1, 64, 64], stride_map = [64, 64, 1]>
#cols = #spyre.layout<device_size = [1, 64, 64], stride_map = [4096, 1, 64]>

func.func @pointwise_sticks(%a: tensor<64x64xf16, #rows>, %b: tensor<64x64xf16, #cols>) {
  // expected-error @+1 {{'spyre.add' op operands must be sticked on the result's stick dim (inputs broadcast along it are exempt), but they are not:, input #0 on d1, input #1 on d0, result on d1}}
  %0 = spyre.add %a, %b : (tensor<64x64xf16, #rows>, tensor<64x64xf16, #cols>) -> tensor<64x64xf16, #rows>
  return
}

// -----

#rows = #spyre.layout<device_size = [1, 64, 64], stride_map = [64, 64, 1]>
#cols = #spyre.layout<device_size = [1, 64, 64], stride_map = [4096, 1, 64]>

func.func @matmul_sticks(%a: tensor<64x64xf16, #cols>, %b: tensor<64x64xf16, #rows>) {
  // expected-error @+1 {{'spyre.matmul' op matmul needs A sticked on k (d2) and B and C sticked on n (d1), but A is on d0, B on d1 and C on d1}}
  %0 = spyre.matmul %a, %b : tensor<64x64xf16, #cols>, tensor<64x64xf16, #rows> -> tensor<64x64xf16, #rows>
  return
}

// -----

#rows = #spyre.layout<device_size = [1, 64, 64], stride_map = [64, 64, 1]>
#dense = #spyre.layout<device_size = [1, 64], stride_map = [64, 1]>

func.func @stick_reduction_must_be_sparse(%a: tensor<64x64xf16, #rows>) {
  // expected-error @+1 {{'spyre.sum' op a reduction keeps its input's stick dim, or gives a sparse result when it reduces along the stick; input #0 is sticked on d1 so the result must be sparse, but it is d0}}
  %0 = spyre.sum %a dim = 1 : tensor<64x64xf16, #rows> -> tensor<64xf16, #dense>
  return
}

// -----

#rows = #spyre.layout<device_size = [1, 64, 64], stride_map = [64, 64, 1]>

func.func @mixed_host_and_device(%a: tensor<64x64xf16, #rows>, %b: tensor<64x64xf16>) {
  // expected-error @+1 {{'spyre.add' op mixes host and device tensors: input #1 has no #spyre.layout but the result has one}}
  %0 = spyre.add %a, %b : (tensor<64x64xf16, #rows>, tensor<64x64xf16>) -> tensor<64x64xf16, #rows>
  return
}

// -----

#f32 = #spyre.layout<device_size = [2, 64, 32], stride_map = [32, 64, 1]>

func.func @fp32_opfunc(%a: tensor<64x64xf32, #f32>) {
  // expected-error @+1 {{'spyre.tanh' op runs 'tanh', which the device does not compute on IEEE_FP32 data}}
  %0 = spyre.tanh %a : (tensor<64x64xf32, #f32>) -> tensor<64x64xf32, #f32>
  return
}

// -----

func.func @exx2_shape(%x: tensor<128x768xf16>) {
  // expected-error @+1 {{'spyre.exx2' op result must be 'tensor<128xf16>': one row of statistics per row of the input}}
  %s = spyre.exx2 %x scale = 1.0 : tensor<128x768xf16> -> tensor<128x2xf16>
  return
}

// -----

func.func @layernormscale_shape(%s: tensor<128xf16>) {
  // expected-error @+1 {{'spyre.layernormscale' op result must have the input's shape and element type}}
  %n = spyre.layernormscale %s eps = 1.0e-05 : tensor<128xf16> -> tensor<64xf16>
  return
}

// -----

func.func @layernormnorm_weight(%x: tensor<128x768xf16>, %m: tensor<128xf16>, %w: tensor<64xf16>, %b: tensor<768xf16>) {
  // expected-error @+1 {{'spyre.layernormnorm' op weight must have shape [768], not [64]}}
  %y = spyre.layernormnorm %x, %m, %m, %w, %b : (tensor<128x768xf16>, tensor<128xf16>, tensor<128xf16>, tensor<64xf16>, tensor<768xf16>) -> tensor<128x768xf16>
  return
}

// -----

func.func @layernormnorm_stats(%x: tensor<128x768xf16>, %m: tensor<128xf16>, %n: tensor<128x2xf16>, %w: tensor<768xf16>) {
  // expected-error @+1 {{'spyre.layernormnorm' op norm must have shape [128] (the input's without its innermost dim), not [128, 2]}}
  %y = spyre.layernormnorm %x, %m, %n, %w, %w : (tensor<128x768xf16>, tensor<128xf16>, tensor<128x2xf16>, tensor<768xf16>, tensor<768xf16>) -> tensor<128x768xf16>
  return
}

// -----

#cols = #spyre.layout<device_size = [2, 768, 64], stride_map = [49152, 1, 768]>
#stats = #spyre.layout<device_size = [1, 128, 64], stride_map = [-1, 1, -1], arrangement = exx2>

func.func @norm_sticks(%x: tensor<128x768xf16, #cols>) {
  // expected-error @+1 {{'spyre.exx2' op the data must be sticked on the normalized (innermost) dim and the per-row statistics sparse, but they are not:, input #0 on d0, result on sparse}}
  %s = spyre.exx2 %x scale = 1.0 : tensor<128x768xf16, #cols> -> tensor<128xf16, #stats>
  return
}

// -----

#rows = #spyre.layout<device_size = [12, 128, 64], stride_map = [64, 768, 1]>
#plain = #spyre.layout<device_size = [1, 128, 64], stride_map = [-1, 1, -1]>

func.func @exx2_arrangement(%x: tensor<128x768xf16, #rows>) {
  // expected-error @+1 {{'spyre.exx2' op the result has element arrangement standard, but it must be exx2}}
  %s = spyre.exx2 %x scale = 1.0 : tensor<128x768xf16, #rows> -> tensor<128xf16, #plain>
  return
}

// -----

#stats = #spyre.layout<device_size = [1, 128, 64], stride_map = [-1, 1, -1], arrangement = exx2>

func.func @statistics_elsewhere(%s: tensor<128xf16, #stats>) {
  // expected-error @+1 {{'spyre.exp' op input #0 has element arrangement exx2, which only the layer-norm family reads (two statistics per stick)}}
  %e = spyre.exp %s : (tensor<128xf16, #stats>) -> tensor<128xf16, #stats>
  return
}

// -----

// expected-error @+1 {{element arrangement exx2 holds two values in each stick of a synthetic stick dim, but stride_map[2] = 1 (it must be -1)}}
func.func @exx2_dense(%x: tensor<128x2xf16, #spyre.layout<device_size = [1, 128, 64], stride_map = [64, 2, 1], arrangement = exx2>>) {
  return
}

// -----

// expected-error @+1 {{element arrangement dl16_to_fp32 orders the IEEE_FP32 lanes a DL16 -> f32 conversion writes, but the format is SEN169_FP16}}
func.func @dl16_to_fp32_on_f16(%x: tensor<64x128xf16, #spyre.layout<device_size = [2, 64, 64], stride_map = [64, 128, 1], arrangement = dl16_to_fp32>>) {
  return
}

// -----

#h = #spyre.layout<device_size = [2, 64, 64], stride_map = [64, 128, 1]>
#f = #spyre.layout<device_size = [4, 64, 32], stride_map = [32, 128, 1]>

func.func @dl16tofp32_order(%x: tensor<64x128xf16, #h>) {
  // expected-error @+1 {{'spyre.convert' op the result has element arrangement standard, but it must be dl16_to_fp32}}
  %w = spyre.convert %x : tensor<64x128xf16, #h> -> tensor<64x128xf32, #f>
  return
}

// -----

#f = #spyre.layout<device_size = [4, 64, 32], stride_map = [32, 128, 1]>
#d = #spyre.layout<device_size = [4, 64, 32], stride_map = [32, 128, 1], arrangement = dl16_to_fp32>

func.func @mixed_lanes(%a: tensor<64x128xf32, #d>, %b: tensor<64x128xf32, #f>) {
  // expected-error @+1 {{'spyre.add' op input #0 has element arrangement dl16_to_fp32 but input #1 has standard; inputs combined lane by lane need one element order}}
  %s = spyre.add %a, %b : (tensor<64x128xf32, #d>, tensor<64x128xf32, #f>) -> tensor<64x128xf32, #d>
  return
}

// -----

#f = #spyre.layout<device_size = [4, 64, 32], stride_map = [32, 128, 1]>
#d = #spyre.layout<device_size = [4, 64, 32], stride_map = [32, 128, 1], arrangement = dl16_to_fp32>

func.func @lost_order(%a: tensor<64x128xf32, #d>) {
  // expected-error @+1 {{'spyre.exp' op the result has element arrangement standard, but its inputs' lanes are in dl16_to_fp32 order, which a lane-by-lane op keeps}}
  %e = spyre.exp %a : (tensor<64x128xf32, #d>) -> tensor<64x128xf32, #f>
  return
}

// -----

// A tensor type whose element type does not parse still has its encoding
// verified by the parser; the layout verifier must not touch the missing
// element type (found by spyre-fuzz-layout-attr: it crashed).
// expected-error @below {{expected non-function type}}
func.func @missing_element_type(%a: tensor<200x, #spyre.layout<device_size = [4, 128], stride_map = [128, 1]>>) {
  return
}

// -----

func.func @extract_slice_outside(%a: tensor<128x192xf16>) {
  // expected-error @+1 {{'spyre.extract_slice' op the box [160, 224) of dim 1 lies outside the input's 192 elements}}
  %0 = spyre.extract_slice %a offsets = [0, 160] : tensor<128x192xf16> -> tensor<128x64xf16>
  return
}

// -----

func.func @extract_slice_rank(%a: tensor<128x192xf16>) {
  // expected-error @+1 {{'spyre.extract_slice' op the box must have the input's rank and element type}}
  %0 = spyre.extract_slice %a offsets = [0, 64] : tensor<128x192xf16> -> tensor<64xf16>
  return
}

// -----

func.func @extract_slice_offsets(%a: tensor<128x192xf16>) {
  // expected-error @+1 {{'spyre.extract_slice' op needs 2 offsets, got 1}}
  %0 = spyre.extract_slice %a offsets = [64] : tensor<128x192xf16> -> tensor<128x64xf16>
  return
}

// -----

#big = #spyre.layout<device_size = [3, 128, 64], stride_map = [64, 192, 1]>
#box = #spyre.layout<device_size = [1, 128, 64], stride_map = [64, 64, 1]>

// The box would start inside a stick: no device layout places it.
func.func @extract_slice_in_stick(%a: tensor<128x192xf16, #big>) {
  // expected-error @+1 {{'spyre.extract_slice' op the box is not one of device positions: offset 32 of dim 1 is not a multiple of 64, the elements one device position (a stick) holds}}
  %0 = spyre.extract_slice %a offsets = [0, 32] : tensor<128x192xf16, #big> -> tensor<128x64xf16, #box>
  return
}

// -----

func.func @insert_slice_outside(%a: tensor<64x128xf16>, %d: tensor<64x200xf16>) {
  // expected-error @+1 {{'spyre.insert_slice' op the box [128, 256) of dim 1 lies outside the destination's 200 elements}}
  %0 = spyre.insert_slice %a into %d offsets = [0, 128] : tensor<64x128xf16> into tensor<64x200xf16> -> tensor<64x200xf16>
  return
}

// -----

func.func @insert_slice_result(%a: tensor<64x128xf16>, %d: tensor<64x256xf16>) {
  // expected-error @+1 {{'spyre.insert_slice' op the result must have the destination's type}}
  %0 = spyre.insert_slice %a into %d offsets = [0, 128] : tensor<64x128xf16> into tensor<64x256xf16> -> tensor<64x128xf16>
  return
}

// -----

#src = #spyre.layout<device_size = [2, 60, 64], stride_map = [64, 100, 1]>
#dest = #spyre.layout<device_size = [2, 64, 64], stride_map = [64, 128, 1]>

// Without a fill, the rest of the box's last stick would be overwritten.
func.func @insert_slice_ends_in_stick(%a: tensor<60x100xf16, #src>, %d: tensor<64x128xf16, #dest>) {
  // expected-error @+1 {{'spyre.insert_slice' op the box does not end on a device position: offset 100 of dim 1 is not a multiple of 64, the elements one device position (a stick) holds (give a fill value when the destination holds it there)}}
  %0 = spyre.insert_slice %a into %d offsets = [0, 0] : tensor<60x100xf16, #src> into tensor<64x128xf16, #dest> -> tensor<64x128xf16, #dest>
  return
}

// -----

func.func @on_host_not_a_string(%a: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %e = tensor.empty() : tensor<4x64xf16>
  // expected-error @+1 {{'spyre.on_host' must be a string: why the op stays on the host}}
  %0 = linalg.exp {spyre.on_host = 1 : i64} ins(%a : tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  return %0 : tensor<4x64xf16>
}
