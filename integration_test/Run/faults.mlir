// Hand-written kernels with faults: the simulator reports each one, with the
// kernel, the core and the addresses, and spyre-run exits non-zero. (A
// staging buffer past the usable LX is a verifier error now:
// test/Dialect/Spyre/kernel-invalid.mlir, @lx_staging_past_lx.)
//
// RUN: not spyre-run %s --function=out_of_bounds --random-inputs=0 2>&1 | FileCheck %s --check-prefix=BOUNDS
// RUN: not spyre-run %s --function=shared_write --random-inputs=0 2>&1 | FileCheck %s --check-prefix=SHARED
// RUN: not spyre-run %s --function=never_written --random-inputs=0 2>&1 | FileCheck %s --check-prefix=UNWRITTEN
// RUN: not spyre-run %s --function=stale --random-inputs=0 2>&1 | FileCheck %s --check-prefix=STALE
// RUN: not spyre-run %s --function=box_past_tile --random-inputs=0 2>&1 | FileCheck %s --check-prefix=BOX
// RUN: spyre-run %s --function=correct --random-inputs=0 | FileCheck %s --check-prefix=OK
// Every fault needs no values: --model-only catches each one the same way.
// RUN: not spyre-run %s --function=out_of_bounds --model-only 2>&1 | FileCheck %s --check-prefix=BOUNDS
// RUN: not spyre-run %s --function=shared_write --model-only 2>&1 | FileCheck %s --check-prefix=SHARED
// RUN: not spyre-run %s --function=never_written --model-only 2>&1 | FileCheck %s --check-prefix=UNWRITTEN
// RUN: not spyre-run %s --function=stale --model-only 2>&1 | FileCheck %s --check-prefix=STALE
// RUN: not spyre-run %s --function=box_past_tile --model-only 2>&1 | FileCheck %s --check-prefix=BOX

// BOUNDS: spyre-run: error: kernel 0_add: core 3 loads operand #1 at DDR address 17179934720, outside its bytes [17179869184, 17179934720) of segment 1
// SHARED: spyre-run: error: kernel 0_add: cores 0 and 1 both write byte 34359738368 of the result
// UNWRITTEN: spyre-run: error: kernel 1_neg: core 0 reads operand #0 (device [0, 0]) from LX byte 1048576, which was never written
// STALE: spyre-run: error: kernel 1_neg: core 0 reads operand #0 (device [0, 0]) from LX byte 16384, which holds argument 0 instead
// BOX: spyre-run: error: kernel 0_abs: core 0 stores the result (device [0, 16]) from a tile at [0, 0]: the access's box [4, 32] reaches past the tile (dim 0 at 16, the tile covers [0, 16))
// OK: @correct: 1 kernels on 4 modelled cores
// OK: result 0: [128, 256] float16

!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
#mb = #spyre.kdim<"mb", size = 128, split = 4, tile = 32>
#out = #spyre.kdim<"out", size = 256, granule = 64, tile = 256>
#segments = [#spyre.mem<io 0>, #spyre.mem<io 1>, #spyre.mem<io 2>]

module attributes {spyre.target = #spyre.target<cores = 4>} {

// The reference's example A, as lowered: each core adds 32 rows.
func.func @correct(%a: !t {spyre.mem = #spyre.mem<io 0>}, %b: !t {spyre.mem = #spyre.mem<io 1>}) -> (!t {spyre.mem = #spyre.mem<io 2>}) attributes {spyre.pool_bytes = 0 : i64} {
  %0 = spyre.kernel "0_add"(%a, %b) : (!t, !t) -> !t attributes {
      accesses = [#spyre.access<mem = #spyre.mem<io 0>, base = 0, core_offsets = [0, 4096, 8192, 12288], tile_steps = [4096, 0], box = [4, 32], ddr_strides = [16384, 128], lx_strides = [4096, 128], lx_offsets = [0]>,
                  #spyre.access<mem = #spyre.mem<io 1>, base = 17179869184, core_offsets = [0, 4096, 8192, 12288], tile_steps = [4096, 0], box = [4, 32], ddr_strides = [16384, 128], lx_strides = [4096, 128], lx_offsets = [16384]>,
                  #spyre.access<mem = #spyre.mem<io 2>, base = 34359738368, core_offsets = [0, 4096, 8192, 12288], tile_steps = [4096, 0], box = [4, 32], ddr_strides = [16384, 128], lx_strides = [4096, 128], lx_offsets = [32768]>],
      dims = [#mb, #out], lx_bytes = 49152 : i64, order = array<i64: 0, 1>, segments = #segments, spyre.mem = #spyre.mem<io 2>} {
  ^bb0(%x: !t, %y: !t):
    %1 = spyre.add %x, %y : (!t, !t) -> !t
    spyre.yield %1 : !t
  }
  return %0 : !t
}

// Core 3's offset of operand 1 is one slice too far: its first tile runs off
// the end of the tensor.
func.func @out_of_bounds(%a: !t {spyre.mem = #spyre.mem<io 0>}, %b: !t {spyre.mem = #spyre.mem<io 1>}) -> (!t {spyre.mem = #spyre.mem<io 2>}) attributes {spyre.pool_bytes = 0 : i64} {
  %0 = spyre.kernel "0_add"(%a, %b) : (!t, !t) -> !t attributes {
      accesses = [#spyre.access<mem = #spyre.mem<io 0>, base = 0, core_offsets = [0, 4096, 8192, 12288], tile_steps = [4096, 0], box = [4, 32], ddr_strides = [16384, 128], lx_strides = [4096, 128], lx_offsets = [0]>,
                  #spyre.access<mem = #spyre.mem<io 1>, base = 17179869184, core_offsets = [0, 4096, 8192, 16384], tile_steps = [4096, 0], box = [4, 32], ddr_strides = [16384, 128], lx_strides = [4096, 128], lx_offsets = [16384]>,
                  #spyre.access<mem = #spyre.mem<io 2>, base = 34359738368, core_offsets = [0, 4096, 8192, 12288], tile_steps = [4096, 0], box = [4, 32], ddr_strides = [16384, 128], lx_strides = [4096, 128], lx_offsets = [32768]>],
      dims = [#mb, #out], lx_bytes = 49152 : i64, order = array<i64: 0, 1>, segments = #segments, spyre.mem = #spyre.mem<io 2>} {
  ^bb0(%x: !t, %y: !t):
    %1 = spyre.add %x, %y : (!t, !t) -> !t
    spyre.yield %1 : !t
  }
  return %0 : !t
}

// Every core writes its result slice to the same place.
func.func @shared_write(%a: !t {spyre.mem = #spyre.mem<io 0>}, %b: !t {spyre.mem = #spyre.mem<io 1>}) -> (!t {spyre.mem = #spyre.mem<io 2>}) attributes {spyre.pool_bytes = 0 : i64} {
  %0 = spyre.kernel "0_add"(%a, %b) : (!t, !t) -> !t attributes {
      accesses = [#spyre.access<mem = #spyre.mem<io 0>, base = 0, core_offsets = [0, 4096, 8192, 12288], tile_steps = [4096, 0], box = [4, 32], ddr_strides = [16384, 128], lx_strides = [4096, 128], lx_offsets = [0]>,
                  #spyre.access<mem = #spyre.mem<io 1>, base = 17179869184, core_offsets = [0, 4096, 8192, 12288], tile_steps = [4096, 0], box = [4, 32], ddr_strides = [16384, 128], lx_strides = [4096, 128], lx_offsets = [16384]>,
                  #spyre.access<mem = #spyre.mem<io 2>, base = 34359738368, core_offsets = [0, 0, 0, 0], tile_steps = [4096, 0], box = [4, 32], ddr_strides = [16384, 128], lx_strides = [4096, 128], lx_offsets = [32768]>],
      dims = [#mb, #out], lx_bytes = 49152 : i64, order = array<i64: 0, 1>, segments = #segments, spyre.mem = #spyre.mem<io 2>} {
  ^bb0(%x: !t, %y: !t):
    %1 = spyre.add %x, %y : (!t, !t) -> !t
    spyre.yield %1 : !t
  }
  return %0 : !t
}

// The consumer reads the intermediate from LX bytes nobody wrote.
func.func @never_written(%a: !t {spyre.mem = #spyre.mem<io 0>}) -> (!t {spyre.mem = #spyre.mem<io 1>}) attributes {spyre.pool_bytes = 0 : i64} {
  %0 = spyre.kernel "0_exp"(%a) : (!t) -> !t attributes {
      accesses = [#spyre.access<mem = #spyre.mem<io 0>, base = 0, core_offsets = [0, 4096, 8192, 12288], tile_steps = [4096, 0], box = [4, 32], ddr_strides = [16384, 128], lx_strides = [4096, 128], lx_offsets = [16384]>,
                  #spyre.access<mem = #spyre.mem<lx 0>, base = 0, tile_steps = [4096, 0], box = [4, 32], lx_strides = [4096, 128]>],
      dims = [#mb, #out], lx_bytes = 16384 : i64, order = array<i64: 0, 1>, segments = [#spyre.mem<io 0>], spyre.mem = #spyre.mem<lx 0>} {
  ^bb0(%x: !t):
    %1 = spyre.exp %x : (!t) -> !t
    spyre.yield %1 : !t
  }
  %2 = spyre.kernel "1_neg"(%0) : (!t) -> !t attributes {
      accesses = [#spyre.access<mem = #spyre.mem<lx 0>, base = 1048576, tile_steps = [4096, 0], box = [4, 32], lx_strides = [4096, 128]>,
                  #spyre.access<mem = #spyre.mem<io 1>, base = 0, core_offsets = [0, 4096, 8192, 12288], tile_steps = [4096, 0], box = [4, 32], ddr_strides = [16384, 128], lx_strides = [4096, 128], lx_offsets = [32768]>],
      dims = [#mb, #out], lx_bytes = 49152 : i64, order = array<i64: 0, 1>, segments = [#spyre.mem<io 1>], spyre.mem = #spyre.mem<io 1>} {
  ^bb0(%x: !t):
    %3 = spyre.neg %x : (!t) -> !t
    spyre.yield %3 : !t
  }
  return %2 : !t
}


// The consumer reads the intermediate from the producer's staging buffer
// instead of from where the producer left it in LX: that LX holds the
// producer's input tile, not its result.
func.func @stale(%a: !t {spyre.mem = #spyre.mem<io 0>}) -> (!t {spyre.mem = #spyre.mem<io 1>}) attributes {spyre.pool_bytes = 0 : i64} {
  %0 = spyre.kernel "0_exp"(%a) : (!t) -> !t attributes {
      accesses = [#spyre.access<mem = #spyre.mem<io 0>, base = 0, core_offsets = [0, 4096, 8192, 12288], tile_steps = [4096, 0], box = [4, 32], ddr_strides = [16384, 128], lx_strides = [4096, 128], lx_offsets = [16384]>,
                  #spyre.access<mem = #spyre.mem<lx 0>, base = 0, tile_steps = [4096, 0], box = [4, 32], lx_strides = [4096, 128]>],
      dims = [#mb, #out], lx_bytes = 16384 : i64, order = array<i64: 0, 1>, segments = [#spyre.mem<io 0>], spyre.mem = #spyre.mem<lx 0>} {
  ^bb0(%x: !t):
    %1 = spyre.exp %x : (!t) -> !t
    spyre.yield %1 : !t
  }
  %2 = spyre.kernel "1_neg"(%0) : (!t) -> !t attributes {
      accesses = [#spyre.access<mem = #spyre.mem<lx 0>, base = 16384, tile_steps = [4096, 0], box = [4, 32], lx_strides = [4096, 128]>,
                  #spyre.access<mem = #spyre.mem<io 1>, base = 0, core_offsets = [0, 4096, 8192, 12288], tile_steps = [4096, 0], box = [4, 32], ddr_strides = [16384, 128], lx_strides = [4096, 128], lx_offsets = [32768]>],
      dims = [#mb, #out], lx_bytes = 49152 : i64, order = array<i64: 0, 1>, segments = [#spyre.mem<io 1>], spyre.mem = #spyre.mem<io 1>} {
  ^bb0(%x: !t):
    %3 = spyre.neg %x : (!t) -> !t
    spyre.yield %3 : !t
  }
  return %2 : !t
}

// Chunks of 16 rows per core, but the result's box still spans the 32 rows
// of an unchunked slice: the tile computed has no values for half the box.
func.func @box_past_tile(%a: !t {spyre.mem = #spyre.mem<io 0>}) -> (!t {spyre.mem = #spyre.mem<io 1>}) attributes {spyre.pool_bytes = 0 : i64} {
  %0 = spyre.kernel "0_abs"(%a) : (!t) -> !t attributes {
      accesses = [#spyre.access<mem = #spyre.mem<io 0>, base = 0, core_offsets = [0, 2048, 4096, 6144], tile_steps = [2048, 0], chunk_steps = [8192, 0], box = [4, 16], ddr_strides = [16384, 128], lx_strides = [2048, 128], lx_offsets = [0]>,
                  #spyre.access<mem = #spyre.mem<io 1>, base = 17179869184, core_offsets = [0, 2048, 4096, 6144], tile_steps = [2048, 0], chunk_steps = [8192, 0], box = [4, 32], ddr_strides = [16384, 128], lx_strides = [4096, 128], lx_offsets = [8192]>],
      dims = [#spyre.kdim<"mb", size = 128, split = 4, chunks = 2, tile = 16>, #out], lx_bytes = 24576 : i64, order = array<i64: 0, 1>, segments = [#spyre.mem<io 0>, #spyre.mem<io 1>], spyre.mem = #spyre.mem<io 1>} {
  ^bb0(%x: !t):
    %1 = spyre.abs %x : (!t) -> !t
    spyre.yield %1 : !t
  }
  return %0 : !t
}

}
