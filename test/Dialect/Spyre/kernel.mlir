// RUN: spyre-opt %s | FileCheck %s
// RUN: spyre-opt %s | spyre-opt | FileCheck %s
// RUN: spyre-opt %s --mlir-print-op-generic | spyre-opt | FileCheck %s

// The kernel form and the attributes of work division and memory planning
// round-trip.

!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>

module attributes {spyre.target = #spyre.target<cores = 4>} {

// CHECK-LABEL: func.func @add
// CHECK-SAME: {spyre.mem = #spyre.mem<io 0>}
// CHECK-SAME: -> ({{.*}} {spyre.mem = #spyre.mem<io 2>})
// CHECK-SAME: attributes {spyre.pool_bytes = 0 : i64}
// CHECK: spyre.kernel "0_add"(%arg0, %arg1)
// CHECK-SAME: accesses = [#spyre.access<mem = <io 0>, base = 0, core_offsets = [0, 4096, 8192, 12288], tile_steps = [1024, 16384], box = [1, 8], ddr_strides = [16384, 128], lx_strides = [1024, 128], lx_offsets = [0, 1024]>
// CHECK-SAME: dims = [#spyre.kdim<"mb", size = 128, split = 4, tile = 8>, #spyre.kdim<"out", size = 256, granule = 64, tile = 64>]
// CHECK-SAME: lx_bytes = 6144 : i64, order = array<i64: 0, 1>
// CHECK-SAME: segments = [#spyre.mem<io 0>, #spyre.mem<io 1>, #spyre.mem<io 2>]
// CHECK-NEXT: ^bb0(%[[X:.+]]: tensor<{{.*}}>, %[[Y:.+]]: tensor<{{.*}}>):
// CHECK-NEXT: %[[S:.+]] = spyre.add %[[X]], %[[Y]]
// CHECK-NEXT: spyre.yield %[[S]]
func.func @add(%a: !t {spyre.mem = #spyre.mem<io 0>}, %b: !t {spyre.mem = #spyre.mem<io 1>}) -> (!t {spyre.mem = #spyre.mem<io 2>}) attributes {spyre.pool_bytes = 0 : i64} {
  %0 = spyre.kernel "0_add"(%a, %b) : (!t, !t) -> !t attributes {
      accesses = [#spyre.access<mem = #spyre.mem<io 0>, base = 0, core_offsets = [0, 4096, 8192, 12288], tile_steps = [1024, 16384], box = [1, 8], ddr_strides = [16384, 128], lx_strides = [1024, 128], lx_offsets = [0, 1024]>,
                  #spyre.access<mem = #spyre.mem<io 1>, base = 17179869184, core_offsets = [0, 4096, 8192, 12288], tile_steps = [1024, 16384], box = [1, 8], ddr_strides = [16384, 128], lx_strides = [1024, 128], lx_offsets = [2048, 3072]>,
                  #spyre.access<mem = #spyre.mem<io 2>, base = 34359738368, core_offsets = [0, 4096, 8192, 12288], tile_steps = [1024, 16384], box = [1, 8], ddr_strides = [16384, 128], lx_strides = [1024, 128], lx_offsets = [4096, 5120]>],
      dims = [#spyre.kdim<"mb", size = 128, split = 4, tile = 8>, #spyre.kdim<"out", size = 256, granule = 64, tile = 64>],
      lx_bytes = 6144 : i64, order = array<i64: 0, 1>,
      segments = [#spyre.mem<io 0>, #spyre.mem<io 1>, #spyre.mem<io 2>],
      spyre.mem = #spyre.mem<io 2>} {
  ^bb0(%x: !t, %y: !t):
    %1 = spyre.add %x, %y : (!t, !t) -> !t
    spyre.yield %1 : !t
  }
  return %0 : !t
}

// An LX-resident intermediate (no DDR strides, staging buffers or core
// offsets), a pool tensor, chunks and a split reduction dim. (The function's
// result carries no spyre.mem: the tensor returned lives in the pool here,
// and a result's buffer must be the one its tensor lives in.)
// CHECK-LABEL: func.func @forms
// CHECK: #spyre.access<mem = <lx 1048576>, base = 1048576, tile_steps = [0, 0], box = [32, 1], lx_strides = [128, 128]>
// CHECK: #spyre.kdim<"mb", size = 128, split = 2, chunks = 2, tile = 32>
// CHECK: spyre.neg
// CHECK-SAME: spyre.division = #spyre.division<splits = [2, 1], order = [0, 1], chunks = [2, 1]>
// CHECK-SAME: spyre.keep_inputs
// CHECK-SAME: spyre.mem = #spyre.mem<pool 0>
// CHECK-SAME: spyre.tiles = array<i64: 32, 256>
// CHECK-SAME: spyre.work_division = array<i64: 2, 1>
func.func @forms(%a: !t {spyre.mem = #spyre.mem<io 0>}) -> !t attributes {spyre.pool_bytes = 65536 : i64} {
  %0 = spyre.kernel "0_abs"(%a) : (!t) -> !t attributes {
      accesses = [#spyre.access<mem = #spyre.mem<io 0>, base = 17179869184, core_offsets = [0, 4096], chunk_steps = [8192, 0], tile_steps = [0, 0], box = [4, 32], ddr_strides = [16384, 128], lx_strides = [4096, 128], lx_offsets = [0]>,
                  #spyre.access<mem = #spyre.mem<lx 1048576>, base = 1048576, tile_steps = [0, 0], box = [32, 1], lx_strides = [128, 128]>],
      dims = [#spyre.kdim<"mb", size = 128, split = 2, chunks = 2, tile = 32>, #spyre.kdim<"out", size = 256, granule = 64, tile = 256>],
      lx_bytes = 16384 : i64, order = array<i64: 0, 1>,
      segments = [#spyre.mem<pool 0>, #spyre.mem<io 0>], spyre.mem = #spyre.mem<lx 1048576>} {
  ^bb0(%x: !t):
    %1 = spyre.abs %x : (!t) -> !t
    spyre.yield %1 : !t
  }
  %2 = spyre.neg %0 {spyre.division = #spyre.division<splits = [2, 1], order = [0, 1], chunks = [2, 1]>,
                     spyre.work_division = array<i64: 2, 1>, spyre.tiles = array<i64: 32, 256>,
                     spyre.keep_inputs, spyre.mem = #spyre.mem<pool 0>} : (!t) -> !t
  return %2 : !t
}

}
