// RUN: spyre-opt %s -split-input-file -verify-diagnostics

// Bad work-division, memory and kernel attributes, and malformed kernels.

!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>

//===----------------------------------------------------------------------===//
// #spyre.division, spyre.work_division, spyre.tiles
//===----------------------------------------------------------------------===//

func.func @order_not_permutation(%a: !t) -> !t {
  // expected-error @+1 {{#spyre.division order [0, 0] must be a permutation of the 2 op dims}}
  %0 = spyre.abs %a {spyre.division = #spyre.division<splits = [2, 1], order = [0, 0]>} : (!t) -> !t
  return %0 : !t
}

// -----

!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>

func.func @zero_split(%a: !t) -> !t {
  // expected-error @+1 {{#spyre.division split 0 of dim 1 must be positive}}
  %0 = spyre.abs %a {spyre.division = #spyre.division<splits = [2, 0], order = [0, 1]>} : (!t) -> !t
  return %0 : !t
}

// -----

!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>

func.func @chunk_count(%a: !t) -> !t {
  // expected-error @+1 {{#spyre.division has 2 splits but 1 chunks}}
  %0 = spyre.abs %a {spyre.division = #spyre.division<splits = [2, 1], order = [0, 1], chunks = [2]>} : (!t) -> !t
  return %0 : !t
}

// -----

!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>

func.func @division_rank(%a: !t) -> !t {
  // expected-error @+1 {{'spyre.division' has 3 entries but the op has 2 dims}}
  %0 = spyre.abs %a {spyre.division = #spyre.division<splits = [2, 1, 1], order = [0, 1, 2]>} : (!t) -> !t
  return %0 : !t
}

// -----

!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>

module attributes {spyre.target = #spyre.target<cores = 4>} {
func.func @too_many_cores(%a: !t) -> !t {
  // expected-error @+1 {{'spyre.division' uses 8 cores, the target has 4}}
  %0 = spyre.abs %a {spyre.division = #spyre.division<splits = [8, 1], order = [0, 1]>} : (!t) -> !t
  return %0 : !t
}
}

// -----

!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>

func.func @division_on_view(%a: !t) -> tensor<256x128xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [8192, 1, 128]>> {
  // expected-error @+1 {{'spyre.division' only applies to spyre compute ops, restickify and pad}}
  %0 = spyre.transpose %a permutation = [1, 0] {spyre.division = #spyre.division<splits = [1, 1], order = [0, 1]>} : !t -> tensor<256x128xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [8192, 1, 128]>>
  return %0 : tensor<256x128xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [8192, 1, 128]>>
}

// -----

!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>

func.func @hint_not_array(%a: !t) -> !t {
  // expected-error @+1 {{'spyre.work_division' must be an array<i64: ...>, one value per op dim}}
  %0 = spyre.abs %a {spyre.work_division = [2, 1]} : (!t) -> !t
  return %0 : !t
}

// -----

!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>

func.func @hint_zero(%a: !t) -> !t {
  // expected-error @+1 {{'spyre.work_division' entry 0 for op dim 0 must be positive}}
  %0 = spyre.abs %a {spyre.work_division = array<i64: 0, 1>} : (!t) -> !t
  return %0 : !t
}

// -----

!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>

func.func @tiles_rank(%a: !t) -> !t {
  // expected-error @+1 {{'spyre.tiles' has 1 entries but the op has 2 dims}}
  %0 = spyre.abs %a {spyre.tiles = array<i64: 32>} : (!t) -> !t
  return %0 : !t
}

// -----

!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>

func.func @keep_inputs_not_unit(%a: !t) -> !t {
  // expected-error @+1 {{'spyre.keep_inputs' must be a unit attribute}}
  %0 = spyre.abs %a {spyre.tiles = array<i64: 32, 256>, spyre.keep_inputs = 1 : i64} : (!t) -> !t
  return %0 : !t
}

// -----

!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>

func.func @keep_inputs_without_tiles(%a: !t) -> !t {
  // expected-error @+1 {{'spyre.keep_inputs' qualifies 'spyre.tiles', which the op does not have}}
  %0 = spyre.abs %a {spyre.keep_inputs} : (!t) -> !t
  return %0 : !t
}

// -----

!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>

func.func @division_wrong_kind(%a: !t) -> !t {
  // expected-error @+1 {{'spyre.division' must be a #spyre.division attribute}}
  %0 = spyre.abs %a {spyre.division = array<i64: 2, 1>} : (!t) -> !t
  return %0 : !t
}

// -----

!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>

//===----------------------------------------------------------------------===//
// #spyre.mem, spyre.pool_bytes
//===----------------------------------------------------------------------===//

// expected-error @+1 {{#spyre.mem pool offset must not be negative, got -128}}
func.func private @negative_offset() attributes {spyre.mem_test = #spyre.mem<pool -128>}

// -----

!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>

// expected-error @+1 {{argument #0 'spyre.mem': function arguments and results live in host-visible buffers, #spyre.mem<io N>}}
func.func private @argument_in_pool(%a: !t {spyre.mem = #spyre.mem<pool 0>})

// -----

// expected-error @+1 {{argument #0 'spyre.mem': only device tensors live in device memory, got 'tensor<4xf16>'}}
func.func private @host_argument(%a: tensor<4xf16> {spyre.mem = #spyre.mem<io 0>})

// -----

!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>

func.func @mem_not_mem(%a: !t) -> !t {
  // expected-error @+1 {{'spyre.mem' must be a #spyre.mem attribute}}
  %0 = spyre.abs %a {spyre.mem = 3 : i64} : (!t) -> !t
  return %0 : !t
}

// -----

// expected-error @+1 {{'spyre.pool_bytes' must be a non-negative integer on a function}}
func.func private @negative_pool() attributes {spyre.pool_bytes = -1 : i64}

// -----

//===----------------------------------------------------------------------===//
// #spyre.kdim
//===----------------------------------------------------------------------===//

// expected-error @+1 {{#spyre.kdim "mb": tile 48 must be a multiple of the granule 1 and at most the per-core slice 32}}
func.func private @tile_too_big() attributes {test = #spyre.kdim<"mb", size = 128, split = 4, tile = 48>}

// -----

!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>

// expected-error @+1 {{#spyre.kdim "out": 256 elements do not divide into 1 chunks of 3 slices of whole 64-element granules}}
func.func private @uneven() attributes {test = #spyre.kdim<"out", size = 256, granule = 64, split = 3, tile = 64>}

// -----

// expected-error @+1 {{#spyre.kdim "mb": size, granule, split, chunks and tile must be positive}}
func.func private @zero_size() attributes {test = #spyre.kdim<"mb", size = 0, tile = 1>}

// -----

!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>

//===----------------------------------------------------------------------===//
// spyre.kernel
//===----------------------------------------------------------------------===//

#io0 = #spyre.access<mem = #spyre.mem<io 0>, base = 0, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [0]>
#io1 = #spyre.access<mem = #spyre.mem<io 1>, base = 17179869184, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [65536]>
#mb = #spyre.kdim<"mb", size = 128, tile = 128>
#out = #spyre.kdim<"out", size = 256, granule = 64, tile = 256>

func.func @body_two_ops(%a: !t) -> !t {
  // expected-error @+1 {{body must be one spyre compute op, restickify or pad followed by spyre.yield of its result}}
  %0 = spyre.kernel "0_abs"(%a) : (!t) -> !t attributes {accesses = [#io0, #io1], dims = [#mb, #out], lx_bytes = 131072 : i64, order = array<i64: 0, 1>, segments = [#spyre.mem<io 0>, #spyre.mem<io 1>]} {
  ^bb0(%x: !t):
    %1 = spyre.abs %x : (!t) -> !t
    %2 = spyre.neg %1 : (!t) -> !t
    spyre.yield %2 : !t
  }
  return %0 : !t
}

// -----

!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>

#io0 = #spyre.access<mem = #spyre.mem<io 0>, base = 0, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [0]>
#io1 = #spyre.access<mem = #spyre.mem<io 1>, base = 17179869184, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [65536]>
#mb = #spyre.kdim<"mb", size = 128, tile = 128>

func.func @dims_count(%a: !t) -> !t {
  // expected-error @+1 {{has 1 dims but its spyre.abs has 2}}
  %0 = spyre.kernel "0_abs"(%a) : (!t) -> !t attributes {accesses = [#io0, #io1], dims = [#mb], lx_bytes = 131072 : i64, order = array<i64: 0>, segments = [#spyre.mem<io 0>, #spyre.mem<io 1>]} {
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
#mb = #spyre.kdim<"mb", size = 64, tile = 64>
#out = #spyre.kdim<"out", size = 256, granule = 64, tile = 256>

func.func @dim_size(%a: !t) -> !t {
  // expected-error @+1 {{dim 0 ("mb") has size 64 but the op's extent is 128}}
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
#io1 = #spyre.access<mem = #spyre.mem<io 1>, base = 17179869184, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [65536]>
#mb = #spyre.kdim<"mb", size = 128, tile = 128, reduction = true>
#out = #spyre.kdim<"out", size = 256, granule = 64, tile = 256>

func.func @dim_kind(%a: !t) -> !t {
  // expected-error @+1 {{dim 0 ("mb") must be marked parallel}}
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
#mb = #spyre.kdim<"mb", size = 128, tile = 128>
#out = #spyre.kdim<"out", size = 256, granule = 64, tile = 256>

func.func @access_count(%a: !t) -> !t {
  // expected-error @+1 {{has 1 accesses for 1 inputs and a result}}
  %0 = spyre.kernel "0_abs"(%a) : (!t) -> !t attributes {accesses = [#io0], dims = [#mb, #out], lx_bytes = 131072 : i64, order = array<i64: 0, 1>, segments = [#spyre.mem<io 0>, #spyre.mem<io 1>]} {
  ^bb0(%x: !t):
    %1 = spyre.abs %x : (!t) -> !t
    spyre.yield %1 : !t
  }
  return %0 : !t
}

// -----

!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>

#io0 = #spyre.access<mem = #spyre.mem<io 0>, base = 0, core_offsets = [0, 8192], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [0]>
#io1 = #spyre.access<mem = #spyre.mem<io 1>, base = 17179869184, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [65536]>
#mb = #spyre.kdim<"mb", size = 128, tile = 128>
#out = #spyre.kdim<"out", size = 256, granule = 64, tile = 256>

func.func @core_offsets_count(%a: !t) -> !t {
  // expected-error @+1 {{access of operand #0: 1 cores need 1 core_offsets, got 2}}
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
#io1 = #spyre.access<mem = #spyre.mem<io 1>, base = 17179869184, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [65536]>
#mb = #spyre.kdim<"mb", size = 128, tile = 128>
#out = #spyre.kdim<"out", size = 256, granule = 64, tile = 256>

func.func @segment_mismatch(%a: !t) -> !t {
  // expected-error @+1 {{access of the result: its tensor lives in #spyre.mem<io 1> but segment 1 is bound to #spyre.mem<io 2>}}
  %0 = spyre.kernel "0_abs"(%a) : (!t) -> !t attributes {accesses = [#io0, #io1], dims = [#mb, #out], lx_bytes = 131072 : i64, order = array<i64: 0, 1>, segments = [#spyre.mem<io 0>, #spyre.mem<io 2>]} {
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

func.func @lx_too_big(%a: !t) -> !t {
  // expected-error @+1 {{needs 4194304 bytes of LX per core, the target has 1677721 usable}}
  %0 = spyre.kernel "0_abs"(%a) : (!t) -> !t attributes {accesses = [#io0, #io1], dims = [#mb, #out], lx_bytes = 4194304 : i64, order = array<i64: 0, 1>, segments = [#spyre.mem<io 0>, #spyre.mem<io 1>]} {
  ^bb0(%x: !t):
    %1 = spyre.abs %x : (!t) -> !t
    spyre.yield %1 : !t
  }
  return %0 : !t
}

// -----

!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>

#io0 = #spyre.access<mem = #spyre.mem<io 0>, base = 0, core_offsets = [0], tile_steps = [0, 0], box = [4], ddr_strides = [16384], lx_strides = [16384], lx_offsets = [0]>
#io1 = #spyre.access<mem = #spyre.mem<io 1>, base = 17179869184, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [65536]>
#mb = #spyre.kdim<"mb", size = 128, tile = 128>
#out = #spyre.kdim<"out", size = 256, granule = 64, tile = 256>

func.func @box_rank(%a: !t) -> !t {
  // expected-error @+1 {{access of operand #0: box and lx_strides need one entry per device dim but the stick (2)}}
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
#lx = #spyre.access<mem = #spyre.mem<lx 0>, base = 0, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], lx_strides = [16384, 128]>
#mb = #spyre.kdim<"mb", size = 128, tile = 128>
#out = #spyre.kdim<"out", size = 256, granule = 64, tile = 256>

func.func @resident_with_offsets(%a: !t) -> !t {
  // expected-error @+1 {{access of the result: an LX-resident tensor has no DDR strides, staging buffers or core offsets}}
  %0 = spyre.kernel "0_abs"(%a) : (!t) -> !t attributes {accesses = [#io0, #lx], dims = [#mb, #out], lx_bytes = 65536 : i64, order = array<i64: 0, 1>, segments = [#spyre.mem<io 0>]} {
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

func.func @args_out_of_order(%a: !t, %b: !t) -> !t {
  // expected-error @+1 {{the body op must take the block arguments in order}}
  %0 = spyre.kernel "0_sub"(%a, %b) : (!t, !t) -> !t attributes {accesses = [#io0, #io1, #io1], dims = [#mb, #out], lx_bytes = 131072 : i64, order = array<i64: 0, 1>, segments = [#spyre.mem<io 0>, #spyre.mem<io 1>]} {
  ^bb0(%x: !t, %y: !t):
    %1 = spyre.sub %y, %x : (!t, !t) -> !t
    spyre.yield %1 : !t
  }
  return %0 : !t
}

// -----

//===----------------------------------------------------------------------===//
// Numbers out of range: every user number is checked before it is used, and
// arithmetic on them never overflows.
//===----------------------------------------------------------------------===//

// expected-error @+1 {{#spyre.kdim "mb": size 9223372036854775807 is too large (rounding it up to whole 64-element granules overflows 64 bits)}}
func.func private @kdim_size_overflow() attributes {test = #spyre.kdim<"mb", size = 9223372036854775807, granule = 64, tile = 64>}

// -----

// expected-error @+1 {{#spyre.kdim "mb": 4611686018427387904 elements do not divide into 4611686018427387904 chunks of 4611686018427387904 slices of whole 4-element granules}}
func.func private @kdim_parts_overflow() attributes {test = #spyre.kdim<"mb", size = 4611686018427387904, granule = 4, split = 4611686018427387904, chunks = 4611686018427387904, tile = 4>}

// -----

!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>

func.func @division_cores_overflow(%a: !t) -> !t {
  // expected-error @+1 {{'spyre.division' splits [4294967296, 4294967296] use more cores than the target's 32}}
  %0 = spyre.abs %a {spyre.division = #spyre.division<splits = [4294967296, 4294967296], order = [0, 1]>} : (!t) -> !t
  return %0 : !t
}

// -----

// expected-error @+1 {{'spyre.pool_bytes' = 9223372036854775807 does not fit the one DDR address segment the pool lives in (17179869184 bytes)}}
func.func private @pool_too_big() attributes {spyre.pool_bytes = 9223372036854775807 : i64}

// -----

!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>

#io0 = #spyre.access<mem = #spyre.mem<io 0>, base = 0, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [0]>
#io1 = #spyre.access<mem = #spyre.mem<io 1>, base = -17179869184, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [65536]>
#mb = #spyre.kdim<"mb", size = 128, tile = 128>
#out = #spyre.kdim<"out", size = 256, granule = 64, tile = 256>

func.func @negative_base(%a: !t) -> !t {
  // expected-error @+1 {{access of the result: base -17179869184 must not be negative}}
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
#io1 = #spyre.access<mem = #spyre.mem<io 1>, base = 17179869184, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [65536]>
#mb = #spyre.kdim<"mb", size = 128, tile = 128>
#out = #spyre.kdim<"out", size = 256, granule = 64, tile = 256>

func.func @negative_lx_bytes(%a: !t) -> !t {
  // expected-error @+1 {{lx_bytes = -1 must not be negative}}
  %0 = spyre.kernel "0_abs"(%a) : (!t) -> !t attributes {accesses = [#io0, #io1], dims = [#mb, #out], lx_bytes = -1 : i64, order = array<i64: 0, 1>, segments = [#spyre.mem<io 0>, #spyre.mem<io 1>]} {
  ^bb0(%x: !t):
    %1 = spyre.abs %x : (!t) -> !t
    spyre.yield %1 : !t
  }
  return %0 : !t
}

// -----

!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>

#io0 = #spyre.access<mem = #spyre.mem<io 0>, base = 0, core_offsets = [0], tile_steps = [0, 0], box = [-4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [0]>
#io1 = #spyre.access<mem = #spyre.mem<io 1>, base = 17179869184, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [65536]>
#mb = #spyre.kdim<"mb", size = 128, tile = 128>
#out = #spyre.kdim<"out", size = 256, granule = 64, tile = 256>

func.func @negative_box(%a: !t) -> !t {
  // expected-error @+1 {{access of operand #0: box entries must be positive, got [-4, 128]}}
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
#io1 = #spyre.access<mem = #spyre.mem<io 1>, base = 17179869184, core_offsets = [0], tile_steps = [0, 0], box = [0, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [65536]>
#mb = #spyre.kdim<"mb", size = 128, tile = 128>
#out = #spyre.kdim<"out", size = 256, granule = 64, tile = 256>

func.func @empty_box(%a: !t) -> !t {
  // expected-error @+1 {{access of the result: box entries must be positive, got [0, 128]}}
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
#io1 = #spyre.access<mem = #spyre.mem<io 1>, base = 17179869184, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [99999999999]>
#mb = #spyre.kdim<"mb", size = 128, tile = 128>
#out = #spyre.kdim<"out", size = 256, granule = 64, tile = 256>

func.func @lx_staging_far_past_lx(%a: !t) -> !t {
  // expected-error @+1 {{access of the result: its LX staging buffer at byte 99999999999 spans LX bytes [99999999999, 100000065535), outside the target's 1677721 usable LX bytes per core}}
  %0 = spyre.kernel "0_abs"(%a) : (!t) -> !t attributes {accesses = [#io0, #io1], dims = [#mb, #out], lx_bytes = 131072 : i64, order = array<i64: 0, 1>, segments = [#spyre.mem<io 0>, #spyre.mem<io 1>]} {
  ^bb0(%x: !t):
    %1 = spyre.abs %x : (!t) -> !t
    spyre.yield %1 : !t
  }
  return %0 : !t
}

// -----

!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
#mb = #spyre.kdim<"mb", size = 128, split = 4, tile = 32>
#out = #spyre.kdim<"out", size = 256, granule = 64, tile = 256>

// A staging buffer placed at the end of the scratchpad: its 128 sticks do
// not fit (formerly a simulator fault, integration_test/Run/faults.mlir).
module attributes {spyre.target = #spyre.target<cores = 4>} {
func.func @lx_staging_past_lx(%a: !t {spyre.mem = #spyre.mem<io 0>}, %b: !t {spyre.mem = #spyre.mem<io 1>}) -> (!t {spyre.mem = #spyre.mem<io 2>}) attributes {spyre.pool_bytes = 0 : i64} {
  // expected-error @+1 {{access of operand #0: its LX staging buffer at byte 1677696 spans LX bytes [1677696, 1694080), outside the target's 1677721 usable LX bytes per core}}
  %0 = spyre.kernel "0_add"(%a, %b) : (!t, !t) -> !t attributes {
      accesses = [#spyre.access<mem = #spyre.mem<io 0>, base = 0, core_offsets = [0, 4096, 8192, 12288], tile_steps = [4096, 0], box = [4, 32], ddr_strides = [16384, 128], lx_strides = [4096, 128], lx_offsets = [1677696]>,
                  #spyre.access<mem = #spyre.mem<io 1>, base = 17179869184, core_offsets = [0, 4096, 8192, 12288], tile_steps = [4096, 0], box = [4, 32], ddr_strides = [16384, 128], lx_strides = [4096, 128], lx_offsets = [16384]>,
                  #spyre.access<mem = #spyre.mem<io 2>, base = 34359738368, core_offsets = [0, 4096, 8192, 12288], tile_steps = [4096, 0], box = [4, 32], ddr_strides = [16384, 128], lx_strides = [4096, 128], lx_offsets = [32768]>],
      dims = [#mb, #out], lx_bytes = 49152 : i64, order = array<i64: 0, 1>, segments = [#spyre.mem<io 0>, #spyre.mem<io 1>, #spyre.mem<io 2>], spyre.mem = #spyre.mem<io 2>} {
  ^bb0(%x: !t, %y: !t):
    %1 = spyre.add %x, %y : (!t, !t) -> !t
    spyre.yield %1 : !t
  }
  return %0 : !t
}
}

// -----

!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>

#io0 = #spyre.access<mem = #spyre.mem<io 0>, base = 0, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [0]>
#lx = #spyre.access<mem = #spyre.mem<lx 2000000>, base = 2000000, tile_steps = [0, 0], box = [4, 128], lx_strides = [16384, 128]>
#mb = #spyre.kdim<"mb", size = 128, tile = 128>
#out = #spyre.kdim<"out", size = 256, granule = 64, tile = 256>

func.func @resident_past_lx(%a: !t) -> !t {
  // expected-error @+1 {{access of the result: the LX-resident tensor at LX byte 2000000 lies past the target's 1677721 usable LX bytes}}
  %0 = spyre.kernel "0_abs"(%a) : (!t) -> !t attributes {accesses = [#io0, #lx], dims = [#mb, #out], lx_bytes = 65536 : i64, order = array<i64: 0, 1>, segments = [#spyre.mem<io 0>]} {
  ^bb0(%x: !t):
    %1 = spyre.abs %x : (!t) -> !t
    spyre.yield %1 : !t
  }
  return %0 : !t
}

// -----

!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
#mb = #spyre.kdim<"mb", size = 128, split = 4, chunks = 2, tile = 16>
#out = #spyre.kdim<"out", size = 256, granule = 64, tile = 256>

// A kernel cut into chunks must say how far each chunk moves its accesses.
module attributes {spyre.target = #spyre.target<cores = 4>} {
func.func @chunks_without_steps(%a: !t) -> !t {
  // expected-error @+1 {{access of operand #0: a kernel cut into 2 chunks needs chunk_steps, one per dim}}
  %0 = spyre.kernel "0_abs"(%a) : (!t) -> !t attributes {
      accesses = [#spyre.access<mem = #spyre.mem<io 0>, base = 0, core_offsets = [0, 2048, 4096, 6144], tile_steps = [2048, 0], box = [4, 16], ddr_strides = [16384, 128], lx_strides = [2048, 128], lx_offsets = [0]>,
                  #spyre.access<mem = #spyre.mem<io 1>, base = 17179869184, core_offsets = [0, 2048, 4096, 6144], tile_steps = [2048, 0], chunk_steps = [8192, 0], box = [4, 16], ddr_strides = [16384, 128], lx_strides = [2048, 128], lx_offsets = [8192]>],
      dims = [#mb, #out], lx_bytes = 16384 : i64, order = array<i64: 0, 1>, segments = [#spyre.mem<io 0>, #spyre.mem<io 1>]} {
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
#io1 = #spyre.access<mem = #spyre.mem<io 1>, base = 65536, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [65536]>
#mb = #spyre.kdim<"mb", size = 128, tile = 128>
#out = #spyre.kdim<"out", size = 256, granule = 64, tile = 256>

// With 64 KiB segments, a tensor at byte 65536 is in segment 1, and a
// tensor at byte 128 of its segment runs past it.
module attributes {spyre.target = #spyre.target<segment_bytes = 65536>} {
func.func @tensor_past_segment(%a: !t) -> !t {
  // expected-error @+1 {{access of the result: the tensor's 65536 bytes at byte 128 of segment 1 run past the segment's 65536 bytes}}
  %0 = spyre.kernel "0_abs"(%a) : (!t) -> !t attributes {accesses = [#io0, #spyre.access<mem = #spyre.mem<io 1>, base = 65664, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [65536]>], dims = [#mb, #out], lx_bytes = 131072 : i64, order = array<i64: 0, 1>, segments = [#spyre.mem<io 0>, #spyre.mem<io 1>]} {
  ^bb0(%x: !t):
    %1 = spyre.abs %x : (!t) -> !t
    spyre.yield %1 : !t
  }
  return %0 : !t
}
}

// -----

//===----------------------------------------------------------------------===//
// Where tensors live: accesses, function arguments and results agree with
// the spyre.mem --spyre-plan-memory recorded.
//===----------------------------------------------------------------------===//

!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>

#io0 = #spyre.access<mem = #spyre.mem<io 0>, base = 0, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [0]>
#io1 = #spyre.access<mem = #spyre.mem<io 1>, base = 17179869184, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [65536]>
#mb = #spyre.kdim<"mb", size = 128, tile = 128>
#out = #spyre.kdim<"out", size = 256, granule = 64, tile = 256>

func.func @access_names_another_buffer(%a: !t {spyre.mem = #spyre.mem<io 1>}) -> !t {
  // expected-error @+1 {{access of operand #0: its tensor lives in #spyre.mem<io 1> but the access names #spyre.mem<io 0>}}
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
#io1 = #spyre.access<mem = #spyre.mem<io 1>, base = 17179869184, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [65536]>
#mb = #spyre.kdim<"mb", size = 128, tile = 128>
#out = #spyre.kdim<"out", size = 256, granule = 64, tile = 256>

func.func @kernel_result_elsewhere(%a: !t {spyre.mem = #spyre.mem<io 0>}) -> !t {
  // expected-error @+1 {{access of the result: its tensor lives in #spyre.mem<io 2> but the access names #spyre.mem<io 1>}}
  %0 = spyre.kernel "0_abs"(%a) : (!t) -> !t attributes {accesses = [#io0, #io1], dims = [#mb, #out], lx_bytes = 131072 : i64, order = array<i64: 0, 1>, segments = [#spyre.mem<io 0>, #spyre.mem<io 1>], spyre.mem = #spyre.mem<io 2>} {
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

// The result is annotated io 0, the argument's buffer, but the tensor
// returned lives in io 1.
// expected-error @+1 {{result #0 'spyre.mem': @result_elsewhere returns a tensor that lives in #spyre.mem<io 1>, not in #spyre.mem<io 0>}}
func.func @result_elsewhere(%a: !t {spyre.mem = #spyre.mem<io 0>}) -> (!t {spyre.mem = #spyre.mem<io 0>}) attributes {spyre.pool_bytes = 0 : i64} {
  %0 = spyre.kernel "0_abs"(%a) : (!t) -> !t attributes {accesses = [#io0, #io1], dims = [#mb, #out], lx_bytes = 131072 : i64, order = array<i64: 0, 1>, segments = [#spyre.mem<io 0>, #spyre.mem<io 1>], spyre.mem = #spyre.mem<io 1>} {
  ^bb0(%x: !t):
    %1 = spyre.abs %x : (!t) -> !t
    spyre.yield %1 : !t
  }
  return %0 : !t
}

// -----

!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>

// expected-error @+1 {{argument #1 'spyre.mem': #spyre.mem<io 0> already holds argument #0}}
func.func private @arguments_share_a_buffer(%a: !t {spyre.mem = #spyre.mem<io 0>}, %b: !t {spyre.mem = #spyre.mem<io 0>})

// -----

!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>

func.func @op_in_argument_buffer(%a: !t {spyre.mem = #spyre.mem<io 0>}) -> !t {
  // expected-error @+1 {{'spyre.mem': #spyre.mem<io 0> already holds argument #0 of @op_in_argument_buffer}}
  %0 = spyre.abs %a {spyre.mem = #spyre.mem<io 0>} : (!t) -> !t
  return %0 : !t
}

// -----

module attributes {spyre.target = #spyre.target<ddr_bytes = 1024>} {
// expected-error @+1 {{'spyre.pool_bytes' = 4096 does not fit the target's DDR (1024 bytes)}}
func.func private @pool_past_ddr() attributes {spyre.pool_bytes = 4096 : i64}
}

// -----

// K split four ways after M in the order, its result kept in LX: the
// partners' parts would go along N, one stick, which cannot be cut four ways.
!h = tensor<512x3072xf16, #spyre.layout<device_size = [48, 512, 64], stride_map = [64, 3072, 1]>>
!w = tensor<3072x64xf16, #spyre.layout<device_size = [1, 3072, 64], stride_map = [64, 64, 1]>>
!o = tensor<512x64xf16, #spyre.layout<device_size = [1, 512, 64], stride_map = [64, 64, 1]>>
func.func @unscatterable_result(%h: !h, %w: !w) -> !o {
  // expected-error @+1 {{'spyre.kernel' op keeps the result of its split reduction in LX, but the partners cannot scatter it}}
  %0 = spyre.kernel "0_batchmatmul"(%h, %w) : (!h, !w) -> !o attributes {accesses = [#spyre.access<mem = <io 0>, base = 0, core_offsets = [0, 8192, 16384, 24576, 32768, 40960, 49152, 57344, 786432, 794624, 802816, 811008, 819200, 827392, 835584, 843776, 1572864, 1581056, 1589248, 1597440, 1605632, 1613824, 1622016, 1630208, 2359296, 2367488, 2375680, 2383872, 2392064, 2400256, 2408448, 2416640], tile_steps = [8192, 0, 65536], box = [1, 64], ddr_strides = [65536, 128], lx_strides = [8192, 128], lx_offsets = [0, 8192]>, #spyre.access<mem = <io 1>, base = 17179869184, core_offsets = [0, 0, 0, 0, 0, 0, 0, 0, 98304, 98304, 98304, 98304, 98304, 98304, 98304, 98304, 196608, 196608, 196608, 196608, 196608, 196608, 196608, 196608, 294912, 294912, 294912, 294912, 294912, 294912, 294912, 294912], tile_steps = [0, 0, 8192], box = [1, 64], ddr_strides = [393216, 128], lx_strides = [8192, 128], lx_offsets = [16384, 24576]>, #spyre.access<mem = <lx 1048576>, base = 1048576, tile_steps = [8192, 0, 0], box = [1, 64], lx_strides = [8192, 128]>], dims = [#spyre.kdim<"mb", size = 512, split = 8, tile = 64>, #spyre.kdim<"out", size = 64, granule = 64, tile = 64>, #spyre.kdim<"in", size = 3072, granule = 64, split = 4, tile = 64, reduction = true>], lx_bytes = 49152 : i64, order = array<i64: 0, 2, 1>, segments = [#spyre.mem<io 0>, #spyre.mem<io 1>]} {
  ^bb0(%a: !h, %b: !w):
    %1 = spyre.matmul %a, %b : !h, !w -> !o
    spyre.yield %1 : !o
  }
  return %0 : !o
}
