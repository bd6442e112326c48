// A core whose transfers reach further than the target's per-core span is
// reported (here the span is set to 8 KiB; example A's cores reach 52 KiB).
// RUN: not spyre-run %s --random-inputs=0 2>&1 | FileCheck %s

// CHECK: spyre-run: error: kernel 0_add: core 0 reaches 53248 bytes of operand #0 (DDR [0, 53248)), more than the per-core span of 8192

!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
module attributes {spyre.target = #spyre.target<cores = 4, span_bytes = 8192>} {
func.func @add(%a: !t {spyre.mem = #spyre.mem<io 0>}, %b: !t {spyre.mem = #spyre.mem<io 1>}) -> (!t {spyre.mem = #spyre.mem<io 2>}) attributes {spyre.pool_bytes = 0 : i64} {
  %0 = spyre.kernel "0_add"(%a, %b) : (!t, !t) -> !t attributes {
      accesses = [#spyre.access<mem = #spyre.mem<io 0>, base = 0, core_offsets = [0, 4096, 8192, 12288], tile_steps = [4096, 0], box = [4, 32], ddr_strides = [16384, 128], lx_strides = [4096, 128], lx_offsets = [0]>,
                  #spyre.access<mem = #spyre.mem<io 1>, base = 17179869184, core_offsets = [0, 4096, 8192, 12288], tile_steps = [4096, 0], box = [4, 32], ddr_strides = [16384, 128], lx_strides = [4096, 128], lx_offsets = [16384]>,
                  #spyre.access<mem = #spyre.mem<io 2>, base = 34359738368, core_offsets = [0, 4096, 8192, 12288], tile_steps = [4096, 0], box = [4, 32], ddr_strides = [16384, 128], lx_strides = [4096, 128], lx_offsets = [32768]>],
      dims = [#spyre.kdim<"mb", size = 128, split = 4, tile = 32>, #spyre.kdim<"out", size = 256, granule = 64, tile = 256>],
      lx_bytes = 49152 : i64, order = array<i64: 0, 1>, segments = [#spyre.mem<io 0>, #spyre.mem<io 1>, #spyre.mem<io 2>], spyre.mem = #spyre.mem<io 2>} {
  ^bb0(%x: !t, %y: !t):
    %1 = spyre.add %x, %y : (!t, !t) -> !t
    spyre.yield %1 : !t
  }
  return %0 : !t
}
}
