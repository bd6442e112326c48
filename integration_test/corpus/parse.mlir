// Bad-input corpus: syntax errors (the parser and attribute parsers).
// Run by corpus.test through run_corpus.py; see run_corpus.py for the
// header lines. Every case must be rejected with a located error.

// TOOL: spyre-opt
// EXPECT: duplicate or unknown struct parameter name: format
// EXPECT-LOC: @+1
func.func private @duplicate_format(%a: tensor<1024x256xf16, #spyre.layout<device_size = [4, 1024, 64], stride_map = [64, 256, 1], format = SEN169_FP16, format = IEEE_FP32>>)

// -----

// TOOL: spyre-opt
// EXPECT: struct is missing required parameter: device_size
// EXPECT-LOC: @+1
func.func private @missing_device_size(%a: tensor<1024x256xf16, #spyre.layout<stride_map = [64, 256, 1]>>)

// -----

// TOOL: spyre-opt
// EXPECT: expected '>' in tensor type
// EXPECT-LOC: @+1
func.func private @unclosed_layout(%a: tensor<1024x256xf16, #spyre.layout<device_size = [4, 1024, 64], stride_map = [64, 256, 1]>)

// -----

// TOOL: spyre-opt
// EXPECT: integer value too large
// EXPECT: failed to parse Spyre_LayoutAttr parameter 'stride_map'
// EXPECT-LOC: @+1
func.func private @stride_too_large(%a: tensor<1024x256xf16, #spyre.layout<device_size = [4, 1024, 64], stride_map = [64, 256, 99999999999999999999]>>)

// -----

// TOOL: spyre-opt
// EXPECT: expected a parameter name in struct
// EXPECT-LOC: @+1
func.func private @empty_layout(%a: tensor<1024x256xf16, #spyre.layout<>>)

// -----

// TOOL: spyre-opt
// EXPECT: expected '<'
// EXPECT-LOC: @+1
func.func private @bare_layout(%a: tensor<1024x256xf16, #spyre.layout>)

// -----

// TOOL: spyre-opt
// EXPECT: stick_bytes = 0 must be a positive multiple of 4
// EXPECT-LOC: @+1
func.func private @zero_stick_bytes(%a: tensor<1024x256xf16, #spyre.layout<device_size = [4, 1024, 64], stride_map = [64, 256, 1], stick_bytes = 0>>)

// -----

// TOOL: spyre-opt
// EXPECT: unknown attribute `layot` in dialect `spyre`
// EXPECT-LOC: @+1
func.func private @misspelt_layout(%a: tensor<1024x256xf16, #spyre.layot<device_size = [4, 1024, 64], stride_map = [64, 256, 1]>>)

// -----

// TOOL: spyre-opt
// EXPECT: failed to parse Spyre_LayoutAttr parameter 'format'
// EXPECT-LOC: @+1
func.func private @quoted_format(%a: tensor<1024x256xf16, #spyre.layout<device_size = [4, 1024, 64], stride_map = [64, 256, 1], format = "SEN169_FP16">>)

// -----

// TOOL: spyre-opt
// EXPECT: failed to parse Spyre_LayoutAttr parameter 'stride_map'
// EXPECT-LOC: @+1
func.func private @float_stride(%a: tensor<1024x256xf16, #spyre.layout<device_size = [4, 1024, 64], stride_map = [64, 256, 1.5]>>)

// -----

// TOOL: spyre-opt
// EXPECT: failed to parse Spyre_LayoutAttr parameter 'arrangement'
// EXPECT: unknown element arrangement 'EXX2'
// EXPECT-LOC: @+1
func.func private @arrangement_case(%a: tensor<1024x256xf16, #spyre.layout<device_size = [4, 1024, 64], stride_map = [64, 256, 1], arrangement = EXX2>>)

// -----

// TOOL: spyre-opt
// EXPECT: #spyre.target corelets = 0 is outside its range [1, 64]
// EXPECT-LOC: @+1
module attributes {spyre.target = #spyre.target<corelets = 0>} {}

// -----

// TOOL: spyre-opt
// EXPECT: duplicate or unknown struct parameter name: bogus
// EXPECT-LOC: @+1
module attributes {spyre.target = #spyre.target<bogus = 1>} {}

// -----

// TOOL: spyre-opt
// EXPECT: #spyre.target lx_bytes = -5 is outside its range [1, 4294967296]
// EXPECT-LOC: @+1
module attributes {spyre.target = #spyre.target<lx_bytes = -5>} {}

// -----

// TOOL: spyre-opt
// EXPECT: failed to parse Spyre_TargetAttr parameter 'cores'
// EXPECT-LOC: @+1
module attributes {spyre.target = #spyre.target<cores = "x">} {}

// -----

// TOOL: spyre-opt
// EXPECT: #spyre.target ddr_gbps = 0.0 is outside its range [0.001, 1e+06]
// EXPECT-LOC: @+1
module attributes {spyre.target = #spyre.target<ddr_gbps = 0.0>} {}

// -----

// TOOL: spyre-opt
// EXPECT: #spyre.target clock_ghz = -1.0 is outside its range [0.001, 1000.0]
// EXPECT-LOC: @+1
module attributes {spyre.target = #spyre.target<clock_ghz = -1.0>} {}

// -----

// TOOL: spyre-opt
// EXPECT: #spyre.target tile_overhead_cycles = -1 is outside its range [0, 4294967296]
// EXPECT-LOC: @+1
module attributes {spyre.target = #spyre.target<tile_overhead_cycles = -1>} {}

// -----

// TOOL: spyre-opt
// EXPECT: #spyre.target stick_bytes = 6 must be a multiple of 4
// EXPECT-LOC: @+1
module attributes {spyre.target = #spyre.target<stick_bytes = 6>} {}

// -----

// TOOL: spyre-opt
// EXPECT: #spyre.target lx_reserved = -0.1 is outside its range [0, 1)
// EXPECT-LOC: @+1
module attributes {spyre.target = #spyre.target<lx_reserved = -0.1>} {}

// -----

// TOOL: spyre-opt
// EXPECT: #spyre.target max_loop_count = 0 is outside its range [1, 4294967296]
// EXPECT-LOC: @+1
module attributes {spyre.target = #spyre.target<max_loop_count = 0>} {}

// -----

// TOOL: spyre-opt
// EXPECT: expected ::mlir::spyre::MemorySpace to be one of: io, pool, lx
// EXPECT-LOC: @+1
func.func private @bad_mem_space() attributes {spyre.mem_test = #spyre.mem<hbm 0>}

// -----

// TOOL: spyre-opt
// EXPECT: struct is missing required parameter: order
// EXPECT-LOC: @+1
func.func private @division_without_order() attributes {test = #spyre.division<splits = [4, 1]>}

// -----

// TOOL: spyre-opt
// EXPECT: #spyre.division has 2 splits but an order of 1 dims
// EXPECT-LOC: @+1
func.func private @division_order_length() attributes {test = #spyre.division<splits = [4, 1], order = [0]>}

// -----

// TOOL: spyre-opt
// EXPECT: #spyre.division split 0 of dim 1 must be positive
// EXPECT-LOC: @+1
func.func private @division_zero_split() attributes {test = #spyre.division<splits = [4, 0], order = [0, 1]>}

// -----

// TOOL: spyre-opt
// EXPECT: #spyre.division has 2 splits but 1 chunks
// EXPECT-LOC: @+1
func.func private @division_chunks_length() attributes {test = #spyre.division<splits = [4, 1], order = [0, 1], chunks = [2]>}

// -----

// TOOL: spyre-opt
// EXPECT: #spyre.mem io buffer index must not be negative, got -1
// EXPECT-LOC: @+1
func.func private @negative_io() attributes {test = #spyre.mem<io -1>}

// -----

// TOOL: spyre-opt
// EXPECT: custom op 'spyre.frobnicate' is unknown
// EXPECT-LOC: @+2
func.func @unknown_op(%a: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %0 = spyre.frobnicate %a : (tensor<4x64xf16>) -> tensor<4x64xf16>
  return %0 : tensor<4x64xf16>
}

// -----

// TOOL: spyre-opt
// EXPECT: expected 'max'
// EXPECT-LOC: @+2
func.func @clip_without_max(%a: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %0 = spyre.clip %a min = 0.0 : tensor<4x64xf16> -> tensor<4x64xf16>
  return %0 : tensor<4x64xf16>
}

// -----

// An unterminated function body.
// TOOL: spyre-opt
// EXPECT: expected operation name in quotes
func.func @unterminated(%a: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %0 = spyre.abs %a : (tensor<4x64xf16>) -> tensor<4x64xf16>
  return %0 : tensor<4x64xf16>

// -----

// TOOL: spyre-opt
// EXPECT: use of undeclared SSA value name
// EXPECT-LOC: @+2:18
func.func @undeclared(%a: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %0 = spyre.abs %b : (tensor<4x64xf16>) -> tensor<4x64xf16>
  return %0 : tensor<4x64xf16>
}

// -----

// The same parse error through spyre-run and spyre-translate: located too.
// TOOL: spyre-run --random-inputs=0
// EXPECT: custom op 'spyre.frobnicate' is unknown
// EXPECT-LOC: @+2
func.func @unknown_op(%a: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %0 = spyre.frobnicate %a : (tensor<4x64xf16>) -> tensor<4x64xf16>
  return %0 : tensor<4x64xf16>
}

// -----

// TOOL: spyre-translate --spyre-to-dci
// EXPECT: struct is missing required parameter: stride_map
// EXPECT-LOC: @+1
func.func @missing_stride_map(%a: tensor<1024x256xf16, #spyre.layout<device_size = [4, 1024, 64]>>) {
  return
}

// -----

// TOOL: spyre-translate --spyre-to-superdsc
// EXPECT: #spyre.target cores = -2 is outside its range [1, 1024]
// EXPECT-LOC: @+1
module attributes {spyre.target = #spyre.target<cores = -2>} {}
