// Bad-input corpus: verifier errors (ops, attributes, kernels).
// Run by corpus.test through run_corpus.py; see run_corpus.py for the
// header lines. Every case must be rejected with a located error.

// TOOL: spyre-opt
// EXPECT: 'spyre.to_device' op result element type 'f32' differs from input element type 'f16'
// EXPECT-LOC: @+2
func.func @to_device_element_type(%h: tensor<4x64xf16>) {
  %d = spyre.to_device %h : tensor<4x64xf16> -> tensor<4x64xf32, #spyre.layout<device_size = [2, 4, 32], stride_map = [32, 64, 1]>>
  return
}

// -----

// TOOL: spyre-opt
// EXPECT: 'spyre.from_device' op result shape [8, 64] differs from input shape [4, 64]
// EXPECT-LOC: @+2
func.func @from_device_shape(%d: tensor<4x64xf16, #spyre.layout<device_size = [1, 4, 64], stride_map = [64, 64, 1]>>) {
  %h = spyre.from_device %d : tensor<4x64xf16, #spyre.layout<device_size = [1, 4, 64], stride_map = [64, 64, 1]>> -> tensor<8x64xf16>
  return
}

// -----

// TOOL: spyre-opt
// EXPECT: 'spyre.restickify' op result element type 'f32' differs from input element type 'f16'
// EXPECT-LOC: @+2
func.func @restickify_element_type(%d: tensor<128x64xf16, #spyre.layout<device_size = [1, 128, 64], stride_map = [64, 64, 1]>>) {
  %t = spyre.restickify %d : tensor<128x64xf16, #spyre.layout<device_size = [1, 128, 64], stride_map = [64, 64, 1]>> -> tensor<128x64xf32, #spyre.layout<device_size = [2, 128, 32], stride_map = [32, 64, 1]>>
  return
}

// -----

// TOOL: spyre-opt
// EXPECT: 'spyre.restickify' op result #0 must be ranked tensor with a #spyre.layout encoding
// EXPECT-LOC: @+2
func.func @restickify_to_host(%d: tensor<4x64xf16, #spyre.layout<device_size = [1, 4, 64], stride_map = [64, 64, 1]>>) {
  %t = spyre.restickify %d : tensor<4x64xf16, #spyre.layout<device_size = [1, 4, 64], stride_map = [64, 64, 1]>> -> tensor<4x64xf16>
  return
}

// -----

// Device tensors sticked on different dims cannot be added.
// TOOL: spyre-opt
// EXPECT: 'spyre.add' op operands must be sticked on the result's stick dim
// EXPECT-LOC: @+2
func.func @conflicting_sticks(%a: tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>, %b: tensor<128x256xf16, #spyre.layout<device_size = [2, 256, 64], stride_map = [16384, 1, 256]>>) {
  %0 = spyre.add %a, %b : (tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>, tensor<128x256xf16, #spyre.layout<device_size = [2, 256, 64], stride_map = [16384, 1, 256]>>) -> tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
  return
}

// -----

// TOOL: spyre-opt
// EXPECT: 'spyre.add' op mixes host and device tensors: input #1 has no #spyre.layout but the result has one
// EXPECT-LOC: @+2
func.func @mixed_host_device(%a: tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>, %b: tensor<128x256xf16>) {
  %0 = spyre.add %a, %b : (tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>, tensor<128x256xf16>) -> tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
  return
}

// -----

// A reduction along the stick gives a sparse result, not a dense one.
// TOOL: spyre-opt
// EXPECT: 'spyre.sum' op a reduction keeps its input's stick dim, or gives a sparse result when it reduces along the stick
// EXPECT-LOC: @+2
func.func @reduction_dense_result(%a: tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>) {
  %0 = spyre.sum %a dim = 1 : tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>> -> tensor<128xf16, #spyre.layout<device_size = [2, 64], stride_map = [64, 1]>>
  return
}

// -----

// TOOL: spyre-opt
// EXPECT: 'spyre.sum' op dim -1 is not a dim of the rank-2 input
// EXPECT-LOC: @+2
func.func @negative_reduction_dim(%a: tensor<4x64xf16>) {
  %0 = spyre.sum %a dim = -1 : tensor<4x64xf16> -> tensor<4xf16>
  return
}

// -----

// TOOL: spyre-opt
// EXPECT: 'spyre.mean' op result element type
// EXPECT-LOC: @+2
func.func @mean_element_type(%a: tensor<4x64xf16>) {
  %0 = spyre.mean %a dim = 1 : tensor<4x64xf16> -> tensor<4xf32>
  return
}

// -----

// TOOL: spyre-opt
// EXPECT: 'spyre.transpose' op result must be the permuted input
// EXPECT-LOC: @+2
func.func @transpose_result(%a: tensor<4x64xf16>) {
  %0 = spyre.transpose %a permutation = [1, 0] : tensor<4x64xf16> -> tensor<4x64xf16>
  return
}

// -----

// TOOL: spyre-opt
// EXPECT: 'spyre.transpose' op permutation has 3 entries
// EXPECT-LOC: @+2
func.func @transpose_rank(%a: tensor<4x64xf16>) {
  %0 = spyre.transpose %a permutation = [1, 0, 2] : tensor<4x64xf16> -> tensor<64x4xf16>
  return
}

// -----

// TOOL: spyre-opt
// EXPECT: 'spyre.reshape' op reshape from
// EXPECT-LOC: @+2
func.func @reshape_count(%a: tensor<4x64xf16>) {
  %0 = spyre.reshape %a : tensor<4x64xf16> -> tensor<8x64xf16>
  return
}

// -----

// TOOL: spyre-opt
// EXPECT: 'spyre.reshape' op reshape changes the element type
// EXPECT-LOC: @+2
func.func @reshape_element_type(%a: tensor<4x64xf16>) {
  %0 = spyre.reshape %a : tensor<4x64xf16> -> tensor<256xf32>
  return
}

// -----

// TOOL: spyre-opt
// EXPECT: 'spyre.pad' op the padded tensor must keep the input's shape
// EXPECT-LOC: @+2
func.func @pad_shape(%a: tensor<4x64xf16, #spyre.layout<device_size = [1, 4, 64], stride_map = [64, 64, 1]>>) {
  %0 = spyre.pad %a value = 0.0 : tensor<4x64xf16, #spyre.layout<device_size = [1, 4, 64], stride_map = [64, 64, 1]>> -> tensor<8x64xf16, #spyre.layout<device_size = [1, 8, 64], stride_map = [64, 64, 1]>>
  return
}

// -----

// TOOL: spyre-opt
// EXPECT: 'spyre.pad' op operand #0 must be ranked tensor with a #spyre.layout encoding
// EXPECT-LOC: @+2
func.func @pad_host(%a: tensor<4x64xf16>) {
  %0 = spyre.pad %a value = 0.0 : tensor<4x64xf16> -> tensor<4x64xf16>
  return
}

// -----

// TOOL: spyre-opt
// EXPECT: 'spyre.constant' op value of type
// EXPECT-LOC: @+2
func.func @constant_type() {
  %0 = spyre.constant dense<1.0> : tensor<4x64xf32> -> tensor<4x64xf16>
  return
}

// -----

// TOOL: spyre-opt
// EXPECT: 'spyre.matmul' op A and B must have one element type
// EXPECT-LOC: @+2
func.func @matmul_mixed(%a: tensor<4x64xf16>, %b: tensor<64x8xf32>) {
  %0 = spyre.matmul %a, %b : tensor<4x64xf16>, tensor<64x8xf32> -> tensor<4x8xf16>
  return
}

// -----

// Without indexing_maps the message is about ranks, not implicit maps.
// TOOL: spyre-opt
// EXPECT: 'spyre.batch_matmul' op needs rank-3 operands and result ([b, m, k] x [b, k, n] -> [b, m, n]) unless indexing_maps say otherwise; input #0 has rank 2
// EXPECT-NOT: indexing map of input #0
// EXPECT-LOC: @+2
func.func @batch_matmul_rank(%a: tensor<4x64xf16>, %b: tensor<64x8xf16>) {
  %0 = spyre.batch_matmul %a, %b : tensor<4x64xf16>, tensor<64x8xf16> -> tensor<4x8xf16>
  return
}

// -----

// TOOL: spyre-opt
// EXPECT: 'spyre.clip' op result must have the input's shape and element type
// EXPECT-LOC: @+2
func.func @clip_result(%a: tensor<4x64xf16>) {
  %0 = spyre.clip %a min = 0.0 max = 1.0 : tensor<4x64xf16> -> tensor<4x64xf32>
  return
}

// -----

// TOOL: spyre-opt
// EXPECT: 'spyre.convert' op result must have the input's shape
// EXPECT-LOC: @+2
func.func @convert_shape(%a: tensor<4x64xf16>) {
  %0 = spyre.convert %a : tensor<4x64xf16> -> tensor<8x64xf32>
  return
}

// -----

// TOOL: spyre-opt
// EXPECT: 'spyre.exp' op expects 1 input, got 2
// EXPECT-LOC: @+2
func.func @unary_arity(%a: tensor<4x64xf16>) {
  %0 = spyre.exp %a, %a : (tensor<4x64xf16>, tensor<4x64xf16>) -> tensor<4x64xf16>
  return
}

// -----

// TOOL: spyre-opt
// EXPECT: 'spyre.where' op input #2 has element type 'f32' but 'f16' is expected
// EXPECT-LOC: @+2
func.func @where_branches(%c: tensor<4x64xi1>, %a: tensor<4x64xf16>, %b: tensor<4x64xf32>) {
  %0 = spyre.where %c, %a, %b : (tensor<4x64xi1>, tensor<4x64xf16>, tensor<4x64xf32>) -> tensor<4x64xf16>
  return
}

// -----

// TOOL: spyre-opt
// EXPECT: 'spyre.add' op
// EXPECT: must have a static shape
// EXPECT-LOC: @+2
func.func @dynamic_compute(%a: tensor<?x64xf16>, %b: tensor<?x64xf16>) {
  %0 = spyre.add %a, %b : (tensor<?x64xf16>, tensor<?x64xf16>) -> tensor<?x64xf16>
  return
}

// -----

// TOOL: spyre-opt
// EXPECT: 'spyre.tiles' entry 0 for op dim 0 must be positive
// EXPECT-LOC: @+2
func.func @zero_tile(%a: tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>) {
  %0 = spyre.abs %a {spyre.tiles = array<i64: 0, 64>} : (tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>) -> tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
  return
}

// -----

// TOOL: spyre-opt
// EXPECT: 'spyre.work_division' only applies to spyre compute ops, restickify and pad
// EXPECT-LOC: @+2
func.func @hint_on_return(%a: tensor<4x64xf16>) -> tensor<4x64xf16> {
  return {spyre.work_division = array<i64: 2>} %a : tensor<4x64xf16>
}

// -----

// TOOL: spyre-opt
// EXPECT: 'spyre.pool_bytes' must be a non-negative integer on a function
// EXPECT-LOC: @+1
module attributes {spyre.pool_bytes = 0 : i64} {}

// -----

// TOOL: spyre-opt
// EXPECT: 'spyre.mem' annotates the device tensor an op defines; this op does not define exactly one
// EXPECT-LOC: @+2
func.func @mem_on_host_op(%a: tensor<4x64xf16>) {
  %0 = spyre.abs %a {spyre.mem = #spyre.mem<pool 0>} : (tensor<4x64xf16>) -> tensor<4x64xf16>
  return
}

// -----

// TOOL: spyre-opt
// EXPECT: result #0 'spyre.layout': #spyre.layout does not fit tensor<8x64xf16>
// EXPECT-LOC: @+1
func.func private @result_layout_does_not_fit() -> (tensor<8x64xf16> {spyre.layout = #spyre.layout<device_size = [1, 4, 64], stride_map = [64, 64, 1]>})

// -----

// TOOL: spyre-opt
// EXPECT: argument #0 'spyre.dim_order'
// EXPECT-LOC: @+1
func.func private @sparse_marker_not_last(%a: tensor<4x64xf16> {spyre.dim_order = array<i64: -1, 0, 1>})

// -----

// TOOL: spyre-opt
// EXPECT: #spyre.layout does not fit tensor<128x256xi8>
// EXPECT-LOC: @+1
func.func private @int8_stick(%a: tensor<128x256xi8, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>)

// -----

// TOOL: spyre-opt
// EXPECT: #spyre.layout does not fit tensor<128x256xf16>: device format IEEE_FP32 does not match element type 'f16'
// EXPECT-LOC: @+1
func.func private @format_mismatch(%a: tensor<128x256xf16, #spyre.layout<device_size = [8, 128, 32], stride_map = [32, 256, 1], format = IEEE_FP32>>)

//===----------------------------------------------------------------------===//
// spyre.kernel
//===----------------------------------------------------------------------===//

// -----

!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
#io0 = #spyre.access<mem = #spyre.mem<io 0>, base = 0, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [0]>
#io1 = #spyre.access<mem = #spyre.mem<io 1>, base = 17179869184, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [65536]>
#mb = #spyre.kdim<"mb", size = 128, tile = 128>
#out = #spyre.kdim<"out", size = 256, granule = 64, tile = 256>

// TOOL: spyre-opt
// EXPECT: 'spyre.kernel' op body takes 2 arguments for 1 inputs
// EXPECT-LOC: @+2
func.func @body_arity(%a: !t) -> !t {
  %0 = spyre.kernel "0_abs"(%a) : (!t) -> !t attributes {accesses = [#io0, #io1], dims = [#mb, #out], lx_bytes = 131072 : i64, order = array<i64: 0, 1>, segments = [#spyre.mem<io 0>, #spyre.mem<io 1>]} {
  ^bb0(%x: !t, %y: !t):
    %1 = spyre.abs %x : (!t) -> !t
    spyre.yield %1 : !t
  }
  return %0 : !t
}

// -----

!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
#io0 = #spyre.access<mem = #spyre.mem<io 0>, base = 0, core_offsets = [0, 0, 0, 0, 0, 0, 0, 0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [0]>
#io1 = #spyre.access<mem = #spyre.mem<io 1>, base = 17179869184, core_offsets = [0, 0, 0, 0, 0, 0, 0, 0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [65536]>
#mb = #spyre.kdim<"mb", size = 128, split = 8, tile = 16>
#out = #spyre.kdim<"out", size = 256, granule = 64, tile = 256>

// A kernel divided for more cores than the module's target has.
module attributes {spyre.target = #spyre.target<cores = 4>} {
// TOOL: spyre-opt
// EXPECT: 'spyre.kernel' op runs on 8 cores, the target has 4
// EXPECT-LOC: @+2
func.func @too_many_cores(%a: !t) -> !t {
  %0 = spyre.kernel "0_abs"(%a) : (!t) -> !t attributes {accesses = [#io0, #io1], dims = [#mb, #out], lx_bytes = 131072 : i64, order = array<i64: 0, 1>, segments = [#spyre.mem<io 0>, #spyre.mem<io 1>]} {
  ^bb0(%x: !t):
    %1 = spyre.abs %x : (!t) -> !t
    spyre.yield %1 : !t
  }
  return %0 : !t
}
}

// -----

!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
#io0 = #spyre.access<mem = #spyre.mem<io 0>, base = 0, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [0]>
#io1 = #spyre.access<mem = #spyre.mem<io 1>, base = 17179869184, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [65536]>
#mb = #spyre.kdim<"mb", size = 128, tile = 128>
#out = #spyre.kdim<"out", size = 256, granule = 64, tile = 256>

// TOOL: spyre-opt
// EXPECT: 'spyre.kernel' op segments hold DDR buffers, not #spyre.mem<lx 0>
// EXPECT-LOC: @+2
func.func @lx_segment(%a: !t) -> !t {
  %0 = spyre.kernel "0_abs"(%a) : (!t) -> !t attributes {accesses = [#io0, #io1], dims = [#mb, #out], lx_bytes = 131072 : i64, order = array<i64: 0, 1>, segments = [#spyre.mem<io 0>, #spyre.mem<lx 0>]} {
  ^bb0(%x: !t):
    %1 = spyre.abs %x : (!t) -> !t
    spyre.yield %1 : !t
  }
  return %0 : !t
}

// -----

!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
#io0 = #spyre.access<mem = #spyre.mem<io 0>, base = 0, core_offsets = [0], tile_steps = [0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [0]>
#io1 = #spyre.access<mem = #spyre.mem<io 1>, base = 17179869184, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [65536]>
#mb = #spyre.kdim<"mb", size = 128, tile = 128>
#out = #spyre.kdim<"out", size = 256, granule = 64, tile = 256>

// TOOL: spyre-opt
// EXPECT: 'spyre.kernel' op access of operand #0: tile_steps and chunk_steps need one entry per dim (2)
// EXPECT-LOC: @+2
func.func @tile_steps_count(%a: !t) -> !t {
  %0 = spyre.kernel "0_abs"(%a) : (!t) -> !t attributes {accesses = [#io0, #io1], dims = [#mb, #out], lx_bytes = 131072 : i64, order = array<i64: 0, 1>, segments = [#spyre.mem<io 0>, #spyre.mem<io 1>]} {
  ^bb0(%x: !t):
    %1 = spyre.abs %x : (!t) -> !t
    spyre.yield %1 : !t
  }
  return %0 : !t
}

// -----

!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
#io0 = #spyre.access<mem = #spyre.mem<io 0>, base = 0, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384], lx_strides = [16384, 128], lx_offsets = [0]>
#io1 = #spyre.access<mem = #spyre.mem<io 1>, base = 17179869184, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [65536]>
#mb = #spyre.kdim<"mb", size = 128, tile = 128>
#out = #spyre.kdim<"out", size = 256, granule = 64, tile = 256>

// TOOL: spyre-opt
// EXPECT: 'spyre.kernel' op access of operand #0: ddr_strides need one entry per box dim
// EXPECT-LOC: @+2
func.func @ddr_strides_count(%a: !t) -> !t {
  %0 = spyre.kernel "0_abs"(%a) : (!t) -> !t attributes {accesses = [#io0, #io1], dims = [#mb, #out], lx_bytes = 131072 : i64, order = array<i64: 0, 1>, segments = [#spyre.mem<io 0>, #spyre.mem<io 1>]} {
  ^bb0(%x: !t):
    %1 = spyre.abs %x : (!t) -> !t
    spyre.yield %1 : !t
  }
  return %0 : !t
}

// -----

!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
#io0 = #spyre.access<mem = #spyre.mem<io 0>, base = 0, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [0]>
#io1 = #spyre.access<mem = #spyre.mem<io 1>, base = 17179869184, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [65536, 131072, 196608]>
#mb = #spyre.kdim<"mb", size = 128, tile = 128>
#out = #spyre.kdim<"out", size = 256, granule = 64, tile = 256>

// An input may keep a buffer per tile; the result streams through two.
// TOOL: spyre-opt
// EXPECT: 'spyre.kernel' op access of the result: the result in DDR needs one or two LX staging buffers
// EXPECT-LOC: @+2
func.func @three_result_buffers(%a: !t) -> !t {
  %0 = spyre.kernel "0_abs"(%a) : (!t) -> !t attributes {accesses = [#io0, #io1], dims = [#mb, #out], lx_bytes = 131072 : i64, order = array<i64: 0, 1>, segments = [#spyre.mem<io 0>, #spyre.mem<io 1>]} {
  ^bb0(%x: !t):
    %1 = spyre.abs %x : (!t) -> !t
    spyre.yield %1 : !t
  }
  return %0 : !t
}

// -----

!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
#io0 = #spyre.access<mem = #spyre.mem<io 0>, base = 0, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [0]>
#io1 = #spyre.access<mem = #spyre.mem<io 1>, base = 51539607552, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [65536]>
#mb = #spyre.kdim<"mb", size = 128, tile = 128>
#out = #spyre.kdim<"out", size = 256, granule = 64, tile = 256>

// TOOL: spyre-opt
// EXPECT: 'spyre.kernel' op access of the result: base 51539607552 lies in segment 3, the kernel binds 2
// EXPECT-LOC: @+2
func.func @base_past_segments(%a: !t) -> !t {
  %0 = spyre.kernel "0_abs"(%a) : (!t) -> !t attributes {accesses = [#io0, #io1], dims = [#mb, #out], lx_bytes = 131072 : i64, order = array<i64: 0, 1>, segments = [#spyre.mem<io 0>, #spyre.mem<io 1>]} {
  ^bb0(%x: !t):
    %1 = spyre.abs %x : (!t) -> !t
    spyre.yield %1 : !t
  }
  return %0 : !t
}

// -----

!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
!u = tensor<128x256xf32, #spyre.layout<device_size = [8, 128, 32], stride_map = [32, 256, 1]>>
#io0 = #spyre.access<mem = #spyre.mem<io 0>, base = 0, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [0]>
#io1 = #spyre.access<mem = #spyre.mem<io 1>, base = 17179869184, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [65536]>
#mb = #spyre.kdim<"mb", size = 128, tile = 128>
#out = #spyre.kdim<"out", size = 256, granule = 64, tile = 256>

// TOOL: spyre-opt
// EXPECT: 'spyre.kernel' op body yields
// EXPECT: but the kernel returns
// EXPECT-LOC: @+2
func.func @yield_type(%a: !t) -> !u {
  %0 = spyre.kernel "0_abs"(%a) : (!t) -> !u attributes {accesses = [#io0, #io1], dims = [#mb, #out], lx_bytes = 131072 : i64, order = array<i64: 0, 1>, segments = [#spyre.mem<io 0>, #spyre.mem<io 1>]} {
  ^bb0(%x: !t):
    %1 = spyre.abs %x : (!t) -> !t
    spyre.yield %1 : !t
  }
  return %0 : !u
}

// -----

!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
#io0 = #spyre.access<mem = #spyre.mem<io 0>, base = 0, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [0]>
#io1 = #spyre.access<mem = #spyre.mem<io 1>, base = 17179869184, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [65536]>
#mb = #spyre.kdim<"mb", size = 128, tile = 128>
#out = #spyre.kdim<"out", size = 256, granule = 64, tile = 256>

// The verifier runs in spyre-translate too.
// TOOL: spyre-translate --spyre-to-superdsc
// EXPECT: 'spyre.kernel' op dim 1 ("out") must be marked parallel
// EXPECT-LOC: @+2
func.func @dim_kind(%a: !t) -> !t {
  %0 = spyre.kernel "0_abs"(%a) : (!t) -> !t attributes {accesses = [#io0, #io1], dims = [#mb, #spyre.kdim<"out", size = 256, granule = 64, tile = 256, reduction = true>], lx_bytes = 131072 : i64, order = array<i64: 0, 1>, segments = [#spyre.mem<io 0>, #spyre.mem<io 1>]} {
  ^bb0(%x: !t):
    %1 = spyre.abs %x : (!t) -> !t
    spyre.yield %1 : !t
  }
  return %0 : !t
}

// -----

// TOOL: spyre-opt
// EXPECT: #spyre.kdim "out": tile 32 must be a multiple of the granule 64
// EXPECT-LOC: @+1
func.func private @tile_not_granule() attributes {test = #spyre.kdim<"out", size = 256, granule = 64, tile = 32>}

// -----

!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
#io0 = #spyre.access<mem = #spyre.mem<io 0>, base = 0, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [0]>
#io1 = #spyre.access<mem = #spyre.mem<io 1>, base = -17179869184, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [65536]>
#mb = #spyre.kdim<"mb", size = 128, tile = 128>
#out = #spyre.kdim<"out", size = 256, granule = 64, tile = 256>

// A kernel access with a negative base.
// TOOL: spyre-opt
// EXPECT: 'spyre.kernel' op access of the result: base -17179869184 must not be negative
// EXPECT-LOC: @+2
func.func @abs(%a: !t {spyre.mem = #spyre.mem<io 0>}) -> (!t {spyre.mem = #spyre.mem<io 1>}) attributes {spyre.pool_bytes = 0 : i64} {
  %0 = spyre.kernel "0_abs"(%a) : (!t) -> !t attributes {accesses = [#io0, #io1], dims = [#mb, #out], lx_bytes = 131072 : i64, order = array<i64: 0, 1>, segments = [#spyre.mem<io 0>, #spyre.mem<io 1>], spyre.mem = #spyre.mem<io 1>} {
  ^bb0(%x: !t):
    %1 = spyre.abs %x : (!t) -> !t
    spyre.yield %1 : !t
  }
  return %0 : !t
}

// -----

// #spyre.kdim with size = INT64_MAX: no signed overflow rounding it up.
// TOOL: spyre-opt
// EXPECT: #spyre.kdim "mb": size 9223372036854775807 is too large (rounding it up to whole 64-element granules overflows 64 bits)
// EXPECT-NOT: -9223372036854775744
// EXPECT-LOC: @+1
func.func private @huge() attributes {test = #spyre.kdim<"mb", size = 9223372036854775807, granule = 64, tile = 64>}

// -----

// spyre.dim_order entries beyond 32 bits are not truncated (4294967297 is
// not 1).
// TOOL: spyre-opt --spyre-assign-default-layouts
// EXPECT: argument #0 'spyre.dim_order': dim_order [4294967297, 0] must be a permutation of the 2 host dims [0, 2), optionally followed by -1 for a sparse layout
// EXPECT-LOC: @+1
func.func private @f(%a: tensor<4x64xf16> {spyre.dim_order = array<i64: 4294967297, 0>})

// -----

!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
#io0 = #spyre.access<mem = #spyre.mem<io 0>, base = 0, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [0]>
#io1 = #spyre.access<mem = #spyre.mem<io 1>, base = 17179869184, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [65536]>
#mb = #spyre.kdim<"mb", size = 128, tile = 128>
#out = #spyre.kdim<"out", size = 256, granule = 64, tile = 256>

// A negative spyre.kernel lx_bytes (not printed as unsigned).
// TOOL: spyre-opt
// EXPECT: 'spyre.kernel' op lx_bytes = -1 must not be negative
// EXPECT-NOT: 18446744073709551615
// EXPECT-LOC: @+2
func.func @abs(%a: !t {spyre.mem = #spyre.mem<io 0>}) -> (!t {spyre.mem = #spyre.mem<io 1>}) attributes {spyre.pool_bytes = 0 : i64} {
  %0 = spyre.kernel "0_abs"(%a) : (!t) -> !t attributes {accesses = [#io0, #io1], dims = [#mb, #out], lx_bytes = -1 : i64, order = array<i64: 0, 1>, segments = [#spyre.mem<io 0>, #spyre.mem<io 1>], spyre.mem = #spyre.mem<io 1>} {
  ^bb0(%x: !t):
    %1 = spyre.abs %x : (!t) -> !t
    spyre.yield %1 : !t
  }
  return %0 : !t
}

// -----

// TOOL: spyre-opt
// EXPECT: #spyre.target bundle_segments = 0 is outside its range [1, 1024]
// EXPECT-LOC: @+1
module attributes {spyre.target = #spyre.target<bundle_segments = 0>} {}

// -----

// TOOL: spyre-opt
// EXPECT: #spyre.target lx_resident_ops holds ""; expected op names (strings)
// EXPECT-LOC: @+1
module attributes {spyre.target = #spyre.target<lx_resident_ops = ["max", ""]>} {}

// -----

// TOOL: spyre-opt
// EXPECT: 'spyre.bundle' must be a non-negative i64 on a spyre.kernel
// EXPECT-LOC: @+1
func.func @f() attributes {spyre.bundle = -1 : i64} {
  return
}

// -----

// TOOL: spyre-opt
// EXPECT: 'spyre.extract_slice' op the box [0, 200) of dim 0 lies outside the input's 128 elements
// EXPECT-LOC: @+2
func.func @box_outside(%a: tensor<128x64xf16>) -> tensor<200x64xf16> {
  %0 = spyre.extract_slice %a offsets = [0, 0] : tensor<128x64xf16> -> tensor<200x64xf16>
  return %0 : tensor<200x64xf16>
}

// -----

// TOOL: spyre-opt
// EXPECT: 'spyre.insert_slice' op needs 2 offsets, got 3
// EXPECT-LOC: @+2
func.func @insert_offsets(%a: tensor<64x64xf16>, %d: tensor<128x64xf16>) -> tensor<128x64xf16> {
  %0 = spyre.insert_slice %a into %d offsets = [0, 0, 0] : tensor<64x64xf16> into tensor<128x64xf16> -> tensor<128x64xf16>
  return %0 : tensor<128x64xf16>
}

// -----

// TOOL: spyre-opt
// EXPECT: 'spyre.insert_slice' op the source must have the destination's rank and element type
// EXPECT-LOC: @+2
func.func @insert_types(%a: tensor<64x64xf32>, %d: tensor<128x64xf16>) -> tensor<128x64xf16> {
  %0 = spyre.insert_slice %a into %d offsets = [0, 0] : tensor<64x64xf32> into tensor<128x64xf16> -> tensor<128x64xf16>
  return %0 : tensor<128x64xf16>
}
