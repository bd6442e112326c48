// Bad-input corpus: spyre-translate (--spyre-to-superdsc, --spyre-to-dci) on
// inputs it must reject.
// Run by corpus.test through run_corpus.py; see run_corpus.py for the
// header lines.

// Emission needs the kernel form: laid-out, divided ops are not enough.
// TOOL: spyre-translate --spyre-to-superdsc
// EXPECT: 'spyre.add' op is not in kernel form; run --spyre-lower-to-kernels (or --spyre-pipeline) first
// EXPECT-LOC: @+2
func.func @divided(%a: tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>, %b: tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>) -> tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>> {
  %0 = spyre.add %a, %b {spyre.division = #spyre.division<splits = [32, 1], order = [0, 1]>} : (tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>, tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>) -> tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
  return %0 : tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
}

// -----

// A restickify left outside a kernel.
// TOOL: spyre-translate --spyre-to-superdsc
// EXPECT: 'spyre.restickify' op is not in kernel form
// EXPECT-LOC: @+2
func.func @restickify(%a: tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>) -> tensor<128x256xf16, #spyre.layout<device_size = [2, 256, 64], stride_map = [16384, 1, 256]>> {
  %0 = spyre.restickify %a : tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>> -> tensor<128x256xf16, #spyre.layout<device_size = [2, 256, 64], stride_map = [16384, 1, 256]>>
  return %0 : tensor<128x256xf16, #spyre.layout<device_size = [2, 256, 64], stride_map = [16384, 1, 256]>>
}

// -----

!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
#io0 = #spyre.access<mem = #spyre.mem<io 0>, base = 0, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [0]>
#io1 = #spyre.access<mem = #spyre.mem<io 1>, base = 17179869184, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [65536]>
#mb = #spyre.kdim<"mb", size = 128, tile = 128>
#out = #spyre.kdim<"out", size = 256, granule = 64, tile = 256>

// Two translations: mlir-translate would chain them and parse the first's
// JSON as MLIR ("-:1:1: error: expected operation name in quotes").
// TOOL: spyre-translate --spyre-to-superdsc --spyre-to-dci
// EXPECT: spyre-translate: error: choose one translation, --spyre-to-superdsc or --spyre-to-dci (given: --spyre-to-superdsc --spyre-to-dci)
// EXPECT-NOT: -:1:1:
// NO-LOC: an option error
func.func @abs(%a: !t {spyre.mem = #spyre.mem<io 0>}) -> (!t {spyre.mem = #spyre.mem<io 1>}) attributes {spyre.pool_bytes = 0 : i64} {
  %0 = spyre.kernel "0_abs"(%a) : (!t) -> !t attributes {accesses = [#io0, #io1], dims = [#mb, #out], lx_bytes = 131072 : i64, order = array<i64: 0, 1>, segments = [#spyre.mem<io 0>, #spyre.mem<io 1>], spyre.mem = #spyre.mem<io 1>} {
  ^bb0(%x: !t):
    %1 = spyre.abs %x : (!t) -> !t
    spyre.yield %1 : !t
  }
  return %0 : !t
}

// -----

// TOOL: spyre-translate --spyre-to-dci
// EXPECT: result 0 of @pool_result has no host-visible buffer; run --spyre-plan-memory first
// EXPECT-LOC: @+1
func.func @pool_result(%a: tensor<4x64xf16, #spyre.layout<device_size = [1, 4, 64], stride_map = [64, 64, 1]>> {spyre.mem = #spyre.mem<io 0>}) -> tensor<4x64xf16, #spyre.layout<device_size = [1, 4, 64], stride_map = [64, 64, 1]>> {
  %0 = spyre.exp %a {spyre.mem = #spyre.mem<pool 0>} : (tensor<4x64xf16, #spyre.layout<device_size = [1, 4, 64], stride_map = [64, 64, 1]>>) -> tensor<4x64xf16, #spyre.layout<device_size = [1, 4, 64], stride_map = [64, 64, 1]>>
  return %0 : tensor<4x64xf16, #spyre.layout<device_size = [1, 4, 64], stride_map = [64, 64, 1]>>
}

// -----

// TOOL: spyre-translate --spyre-to-dci
// EXPECT: to_device of @upload has no host-visible buffer; run --spyre-plan-memory first
// EXPECT-LOC: @+1
func.func @upload(%a: tensor<4x64xf16>) -> tensor<4x64xf16, #spyre.layout<device_size = [1, 4, 64], stride_map = [64, 64, 1]>> {
  %d = spyre.to_device %a : tensor<4x64xf16> -> tensor<4x64xf16, #spyre.layout<device_size = [1, 4, 64], stride_map = [64, 64, 1]>>
  return %d : tensor<4x64xf16, #spyre.layout<device_size = [1, 4, 64], stride_map = [64, 64, 1]>>
}

// -----

// TOOL: spyre-translate --spyre-to-dci
// EXPECT: result #0 'spyre.mem': function arguments and results live in host-visible buffers, #spyre.mem<io N>
// EXPECT-LOC: @+1
func.func @result_in_pool(%a: tensor<4x64xf16, #spyre.layout<device_size = [1, 4, 64], stride_map = [64, 64, 1]>> {spyre.mem = #spyre.mem<io 0>}) -> (tensor<4x64xf16, #spyre.layout<device_size = [1, 4, 64], stride_map = [64, 64, 1]>> {spyre.mem = #spyre.mem<pool 0>}) {
  return %a : tensor<4x64xf16, #spyre.layout<device_size = [1, 4, 64], stride_map = [64, 64, 1]>>
}

// -----

// JSON is not MLIR.
// TOOL: spyre-translate --spyre-to-superdsc
// EXPECT: expected operation name in quotes
// EXPECT-LOC: @+1:1
{"bundles": [], "sdscs": {}}

// -----

// TOOL: spyre-translate
// EXPECT: spyre-translate: error: choose a translation: --spyre-to-superdsc (the SuperDSC JSON) or --spyre-to-dci (the DMA descriptors)
// NO-LOC: a command-line error
module {}

// -----

// TOOL: spyre-translate --spyre-to-json
// EXPECT: Unknown command line argument '--spyre-to-json'
// EXPECT: Did you mean '--spyre-to-dci'?
// NO-LOC: a command-line error
module {}

// -----

// TOOL: spyre-translate --spyre-to-dci %{dir}/missing.mlir
// NO-INPUT
// EXPECT: cannot open input file
// EXPECT: missing.mlir': No such file or directory
// NO-LOC: no input to point into
module {}

// -----

// --spyre-output-dir below a regular file.
// WRITE: plain ''
// TOOL: spyre-translate --spyre-to-dci --spyre-output-dir=%{dir}/plain/out/
// EXPECT: cannot create directory
// EXPECT: plain/out/: Not a directory
// EXPECT-LOC: @+1:1
module {}

// -----

!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
#io0 = #spyre.access<mem = #spyre.mem<io 0>, base = 0, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [0]>
#io1 = #spyre.access<mem = #spyre.mem<io 1>, base = 17179869184, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [65536]>
#mb = #spyre.kdim<"mb", size = 128, tile = 128>
#out = #spyre.kdim<"out", size = 256, granule = 64, tile = 256>

// --spyre-output-dir naming an existing regular file.
// WRITE: plain 'not a directory'
// TOOL: spyre-translate --spyre-to-superdsc --spyre-output-dir=%{dir}/plain/
// EXPECT: cannot write into
// EXPECT: plain/: it is not a directory
// NO-LOC: a file-system error, reported at the implicit module (0:0)
func.func @abs(%a: !t {spyre.mem = #spyre.mem<io 0>}) -> (!t {spyre.mem = #spyre.mem<io 1>}) attributes {spyre.pool_bytes = 0 : i64} {
  %0 = spyre.kernel "0_abs"(%a) : (!t) -> !t attributes {accesses = [#io0, #io1], dims = [#mb, #out], lx_bytes = 131072 : i64, order = array<i64: 0, 1>, segments = [#spyre.mem<io 0>, #spyre.mem<io 1>], spyre.mem = #spyre.mem<io 1>} {
  ^bb0(%x: !t):
    %1 = spyre.abs %x : (!t) -> !t
    spyre.yield %1 : !t
  }
  return %0 : !t
}

// -----

!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
#io0 = #spyre.access<mem = #spyre.mem<io 0>, base = 0, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [0]>
#io1 = #spyre.access<mem = #spyre.mem<io 1>, base = 17179869184, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [65536]>
#mb = #spyre.kdim<"mb", size = 128, tile = 128>
#out = #spyre.kdim<"out", size = 256, granule = 64, tile = 256>

// The kernel verifier runs before emission.
// TOOL: spyre-translate --spyre-to-superdsc
// EXPECT: 'spyre.kernel' op order [1, 1] must be a permutation of the 2 dims
// EXPECT-LOC: @+2
func.func @abs(%a: !t {spyre.mem = #spyre.mem<io 0>}) -> (!t {spyre.mem = #spyre.mem<io 1>}) attributes {spyre.pool_bytes = 0 : i64} {
  %0 = spyre.kernel "0_abs"(%a) : (!t) -> !t attributes {accesses = [#io0, #io1], dims = [#mb, #out], lx_bytes = 131072 : i64, order = array<i64: 1, 1>, segments = [#spyre.mem<io 0>, #spyre.mem<io 1>], spyre.mem = #spyre.mem<io 1>} {
  ^bb0(%x: !t):
    %1 = spyre.abs %x : (!t) -> !t
    spyre.yield %1 : !t
  }
  return %0 : !t
}

// -----

!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
#io0 = #spyre.access<mem = #spyre.mem<io 0>, base = 0, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [0]>
#io1 = #spyre.access<mem = #spyre.mem<io 1>, base = 17179869184, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [65536]>
#mb = #spyre.kdim<"mb", size = 128, tile = 128>
#out = #spyre.kdim<"out", size = 256, granule = 64, tile = 256>

// TOOL: spyre-translate --spyre-to-dci
// EXPECT: 'spyre.kernel' op order must list all 2 dims
// EXPECT-LOC: @+2
func.func @abs(%a: !t {spyre.mem = #spyre.mem<io 0>}) -> (!t {spyre.mem = #spyre.mem<io 1>}) attributes {spyre.pool_bytes = 0 : i64} {
  %0 = spyre.kernel "0_abs"(%a) : (!t) -> !t attributes {accesses = [#io0, #io1], dims = [#mb, #out], lx_bytes = 131072 : i64, order = array<i64: 0>, segments = [#spyre.mem<io 0>, #spyre.mem<io 1>], spyre.mem = #spyre.mem<io 1>} {
  ^bb0(%x: !t):
    %1 = spyre.abs %x : (!t) -> !t
    spyre.yield %1 : !t
  }
  return %0 : !t
}

// -----

!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
#io0 = #spyre.access<mem = #spyre.mem<io 0>, base = 0, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [0]>
#io1 = #spyre.access<mem = #spyre.mem<io 1>, base = 17179869184, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [65536]>
#mb = #spyre.kdim<"mb", size = 128, tile = 128>
#out = #spyre.kdim<"out", size = 256, granule = 64, tile = 256>

// TOOL: spyre-translate --spyre-to-superdsc
// EXPECT: 'spyre.kernel' op access of operand #0: base 0 lies in segment 0, the kernel binds 0
// EXPECT-LOC: @+2
func.func @abs(%a: !t {spyre.mem = #spyre.mem<io 0>}) -> (!t {spyre.mem = #spyre.mem<io 1>}) attributes {spyre.pool_bytes = 0 : i64} {
  %0 = spyre.kernel "0_abs"(%a) : (!t) -> !t attributes {accesses = [#io0, #io1], dims = [#mb, #out], lx_bytes = 131072 : i64, order = array<i64: 0, 1>, segments = [], spyre.mem = #spyre.mem<io 1>} {
  ^bb0(%x: !t):
    %1 = spyre.abs %x : (!t) -> !t
    spyre.yield %1 : !t
  }
  return %0 : !t
}

// -----

!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
#io0 = #spyre.access<mem = #spyre.mem<io 0>, base = 0, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [0]>
#io1 = #spyre.access<mem = #spyre.mem<io 1>, base = 17179869184, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [65536]>
#mb = #spyre.kdim<"mb", size = 128, tile = 128>
#out = #spyre.kdim<"out", size = 256, granule = 64, tile = 256>

// TOOL: spyre-translate --spyre-to-superdsc
// EXPECT: 'spyre.kernel' op access of the result: its tensor lives in #spyre.mem<io 1> but segment 1 is bound to #spyre.mem<pool 0>
// EXPECT-LOC: @+2
func.func @abs(%a: !t {spyre.mem = #spyre.mem<io 0>}) -> (!t {spyre.mem = #spyre.mem<io 1>}) attributes {spyre.pool_bytes = 0 : i64} {
  %0 = spyre.kernel "0_abs"(%a) : (!t) -> !t attributes {accesses = [#io0, #io1], dims = [#mb, #out], lx_bytes = 131072 : i64, order = array<i64: 0, 1>, segments = [#spyre.mem<io 0>, #spyre.mem<pool 0>], spyre.mem = #spyre.mem<io 1>} {
  ^bb0(%x: !t):
    %1 = spyre.abs %x : (!t) -> !t
    spyre.yield %1 : !t
  }
  return %0 : !t
}

// -----

!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
#io0 = #spyre.access<mem = #spyre.mem<io 0>, base = 0, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [0]>
#io1 = #spyre.access<mem = #spyre.mem<io 1>, base = 17179869184, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [65536]>
#mb = #spyre.kdim<"mb", size = 128, tile = 128>
#out = #spyre.kdim<"out", size = 256, granule = 64, tile = 256>

// TOOL: spyre-translate --spyre-to-dci
// EXPECT: 'spyre.kernel' op needs a name
// EXPECT-LOC: @+2
func.func @abs(%a: !t {spyre.mem = #spyre.mem<io 0>}) -> (!t {spyre.mem = #spyre.mem<io 1>}) attributes {spyre.pool_bytes = 0 : i64} {
  %0 = spyre.kernel ""(%a) : (!t) -> !t attributes {accesses = [#io0, #io1], dims = [#mb, #out], lx_bytes = 131072 : i64, order = array<i64: 0, 1>, segments = [#spyre.mem<io 0>, #spyre.mem<io 1>], spyre.mem = #spyre.mem<io 1>} {
  ^bb0(%x: !t):
    %1 = spyre.abs %x : (!t) -> !t
    spyre.yield %1 : !t
  }
  return %0 : !t
}

// -----

!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
#io0 = #spyre.access<mem = #spyre.mem<io 0>, base = 0, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [0]>
#io1 = #spyre.access<mem = #spyre.mem<io 1>, base = 17179869184, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [65536]>
#mb = #spyre.kdim<"mb", size = 128, split = 2, tile = 64>
#out = #spyre.kdim<"out", size = 256, granule = 64, tile = 256>

// A split that the per-core offsets do not follow.
// TOOL: spyre-translate --spyre-to-superdsc
// EXPECT: 'spyre.kernel' op access of operand #0: 2 cores need 2 core_offsets, got 1
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

!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
#io0 = #spyre.access<mem = #spyre.mem<io 0>, base = 0, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [0]>
#io1 = #spyre.access<mem = #spyre.mem<io 1>, base = 17179869184, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [65536]>
#mb = #spyre.kdim<"mb", size = 128, tile = 128>
#out = #spyre.kdim<"out", size = 256, granule = 64, tile = 256>

// TOOL: spyre-translate --spyre-to-superdsc
// EXPECT: 'spyre.kernel' op has 1 dims but its spyre.abs has 2
// EXPECT-LOC: @+2
func.func @abs(%a: !t {spyre.mem = #spyre.mem<io 0>}) -> (!t {spyre.mem = #spyre.mem<io 1>}) attributes {spyre.pool_bytes = 0 : i64} {
  %0 = spyre.kernel "0_abs"(%a) : (!t) -> !t attributes {accesses = [#io0, #io1], dims = [#mb], lx_bytes = 131072 : i64, order = array<i64: 0, 1>, segments = [#spyre.mem<io 0>, #spyre.mem<io 1>], spyre.mem = #spyre.mem<io 1>} {
  ^bb0(%x: !t):
    %1 = spyre.abs %x : (!t) -> !t
    spyre.yield %1 : !t
  }
  return %0 : !t
}

// -----

!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
#io0 = #spyre.access<mem = #spyre.mem<io 0>, base = 0, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [0]>
#io1 = #spyre.access<mem = #spyre.mem<io 1>, base = 17179869184, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [65536]>
#mb = #spyre.kdim<"mb", size = 128, tile = 128>
#out = #spyre.kdim<"out", size = 256, granule = 64, tile = 256>

// The LX the kernel claims is more than the target has.
module attributes {spyre.target = #spyre.target<lx_bytes = 131072>} {
// TOOL: spyre-translate --spyre-to-superdsc
// EXPECT: 'spyre.kernel' op needs 131072 bytes of LX per core, the target has 104857 usable
// EXPECT-LOC: @+2
func.func @abs(%a: !t {spyre.mem = #spyre.mem<io 0>}) -> (!t {spyre.mem = #spyre.mem<io 1>}) attributes {spyre.pool_bytes = 0 : i64} {
  %0 = spyre.kernel "0_abs"(%a) : (!t) -> !t attributes {accesses = [#io0, #io1], dims = [#mb, #out], lx_bytes = 131072 : i64, order = array<i64: 0, 1>, segments = [#spyre.mem<io 0>, #spyre.mem<io 1>], spyre.mem = #spyre.mem<io 1>} {
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
#io1 = #spyre.access<mem = #spyre.mem<lx 0>, base = 17179869184, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [65536]>
#mb = #spyre.kdim<"mb", size = 128, tile = 128>
#out = #spyre.kdim<"out", size = 256, granule = 64, tile = 256>

// An LX-resident result cannot also have staging buffers.
// TOOL: spyre-translate --spyre-to-dci
// EXPECT: 'spyre.kernel' op access of the result: an LX-resident tensor has no DDR strides, staging buffers or core offsets
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

!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
#io0 = #spyre.access<mem = #spyre.mem<io 0>, base = 0, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [0]>
#io1 = #spyre.access<mem = #spyre.mem<io 1>, base = 17179869184, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [65536]>
#mb = #spyre.kdim<"mb", size = 128, tile = 128>
#out = #spyre.kdim<"out", size = 256, granule = 64, tile = 256>

// The body must be a compute op.
// TOOL: spyre-translate --spyre-to-superdsc
// EXPECT: 'spyre.kernel' op body must be one spyre compute op, restickify or pad followed by spyre.yield of its result
// EXPECT-LOC: @+2
func.func @abs(%a: !t {spyre.mem = #spyre.mem<io 0>}) -> (!t {spyre.mem = #spyre.mem<io 1>}) attributes {spyre.pool_bytes = 0 : i64} {
  %0 = spyre.kernel "0_abs"(%a) : (!t) -> !t attributes {accesses = [#io0, #io1], dims = [#mb, #out], lx_bytes = 131072 : i64, order = array<i64: 0, 1>, segments = [#spyre.mem<io 0>, #spyre.mem<io 1>], spyre.mem = #spyre.mem<io 1>} {
  ^bb0(%x: !t):
    spyre.yield %x : !t
  }
  return %0 : !t
}

// -----

// A program that was never compiled (plain linalg, no mention of the spyre
// dialect) is not in kernel form: a located error, not a crash.
// TOOL: spyre-translate --spyre-to-superdsc
// EXPECT: @add is not in kernel form (it holds 'tensor.empty'); compile it with spyre-opt --spyre-pipeline first
// EXPECT-LOC: @+1
func.func @add(%a: tensor<4x64xf16>, %b: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %e = tensor.empty() : tensor<4x64xf16>
  %0 = linalg.add ins(%a, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  return %0 : tensor<4x64xf16>
}

// -----

// spyre ops on host tensors (--spyre-convert-linalg output) are not in
// kernel form either: not an empty bundle.
// TOOL: spyre-translate --spyre-to-superdsc
// EXPECT: 'spyre.add' op is not in kernel form; run --spyre-lower-to-kernels (or --spyre-pipeline) first
// EXPECT-LOC: @+2
func.func @add(%a: tensor<4x64xf16>, %b: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %0 = spyre.add %a, %b : (tensor<4x64xf16>, tensor<4x64xf16>) -> tensor<4x64xf16>
  return %0 : tensor<4x64xf16>
}

// -----

// The DCIs of a program that was never compiled: an error, not `[]`.
// TOOL: spyre-translate --spyre-to-dci
// EXPECT: @add is not in kernel form (it holds 'tensor.empty'); compile it with spyre-opt --spyre-pipeline first
// EXPECT-LOC: @+1
func.func @add(%a: tensor<4x64xf16>, %b: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %e = tensor.empty() : tensor<4x64xf16>
  %0 = linalg.add ins(%a, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  return %0 : tensor<4x64xf16>
}

// -----

!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
#io0 = #spyre.access<mem = #spyre.mem<io 0>, base = 0, core_offsets = [0], tile_steps = [0, 0], box = [-4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [0]>
#io1 = #spyre.access<mem = #spyre.mem<io 1>, base = 17179869184, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [65536]>
#mb = #spyre.kdim<"mb", size = 128, tile = 128>
#out = #spyre.kdim<"out", size = 256, granule = 64, tile = 256>

// A kernel access with a non-positive box.
// TOOL: spyre-translate --spyre-to-superdsc
// EXPECT: 'spyre.kernel' op access of operand #0: box entries must be positive, got [-4, 128]
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

!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
#io0 = #spyre.access<mem = #spyre.mem<io 0>, base = 0, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [0]>
#io1 = #spyre.access<mem = #spyre.mem<io 1>, base = 17179869184, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [99999999999]>
#mb = #spyre.kdim<"mb", size = 128, tile = 128>
#out = #spyre.kdim<"out", size = 256, granule = 64, tile = 256>

// A staging buffer past the LX.
// TOOL: spyre-translate --spyre-to-superdsc
// EXPECT: 'spyre.kernel' op access of the result: its LX staging buffer at byte 99999999999 spans LX bytes [99999999999, 100000065535), outside the target's 1677721 usable LX bytes per core
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

!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
#io0 = #spyre.access<mem = #spyre.mem<io 0>, base = 0, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [0]>
#io1 = #spyre.access<mem = #spyre.mem<io 1>, base = 17179869184, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [65536]>
#mb = #spyre.kdim<"mb", size = 128, tile = 128>
#out = #spyre.kdim<"out", size = 256, granule = 64, tile = 256>

// An argument and a different result bound to the same io buffer: the
// result annotation must name the buffer the returned tensor lives in.
// TOOL: spyre-translate --spyre-to-dci
// EXPECT: result #0 'spyre.mem': @abs returns a tensor that lives in #spyre.mem<io 1>, not in #spyre.mem<io 0>
// EXPECT-LOC: @+1
func.func @abs(%a: !t {spyre.mem = #spyre.mem<io 0>}) -> (!t {spyre.mem = #spyre.mem<io 0>}) attributes {spyre.pool_bytes = 0 : i64} {
  %0 = spyre.kernel "0_abs"(%a) : (!t) -> !t attributes {accesses = [#io0, #io1], dims = [#mb, #out], lx_bytes = 131072 : i64, order = array<i64: 0, 1>, segments = [#spyre.mem<io 0>, #spyre.mem<io 1>], spyre.mem = #spyre.mem<io 1>} {
  ^bb0(%x: !t):
    %1 = spyre.abs %x : (!t) -> !t
    spyre.yield %1 : !t
  }
  return %0 : !t
}

// -----

// spyre-translate --spyre-output-dir errors are one line, without the module.
// WRITE: plain b""
// TOOL: spyre-translate --spyre-to-dci --spyre-output-dir=%{dir}/plain/out/
// EXPECT: Not a directory
// EXPECT-NOT: see current operation
// NO-LOC: file-system error
!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
#io0 = #spyre.access<mem = #spyre.mem<io 0>, base = 0, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [0]>
#io1 = #spyre.access<mem = #spyre.mem<io 1>, base = 17179869184, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [65536]>
#mb = #spyre.kdim<"mb", size = 128, tile = 128>
#out = #spyre.kdim<"out", size = 256, granule = 64, tile = 256>

func.func @abs(%a: !t {spyre.mem = #spyre.mem<io 0>}) -> (!t {spyre.mem = #spyre.mem<io 1>}) attributes {spyre.pool_bytes = 0 : i64} {
  %0 = spyre.kernel "0_abs"(%a) : (!t) -> !t attributes {accesses = [#io0, #io1], dims = [#mb, #out], lx_bytes = 131072 : i64, order = array<i64: 0, 1>, segments = [#spyre.mem<io 0>, #spyre.mem<io 1>], spyre.mem = #spyre.mem<io 1>} {
  ^bb0(%x: !t):
    %1 = spyre.abs %x : (!t) -> !t
    spyre.yield %1 : !t
  }
  return %0 : !t
}
