// RUN: spyre-opt %s --spyre-lower-to-kernels | FileCheck %s

// Kernels are numbered across the module in program order, like the
// SuperDSCs they become (a chunked kernel takes one number per launch).

// Every number below is worked out by hand from the layouts (row-major
// sticks of 128 bytes over device_size[:-1]); the reference's example A
// (f16 [128, 256] add on 4 cores) gives the per-core offsets 0, 4096, 8192,
// 12288 and the segments 0, 16 GiB, 32 GiB.

!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
!A = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
!B = tensor<256x512xf16, #spyre.layout<device_size = [8, 256, 64], stride_map = [64, 512, 1]>>
!C = tensor<128x512xf16, #spyre.layout<device_size = [8, 128, 64], stride_map = [64, 512, 1]>>

// CHECK-LABEL: func.func @example_a
// CHECK: %[[K:.+]] = spyre.kernel "0_add"(%arg0, %arg1)
// Operand 0: segment 0; 32 rows (one stick each) per core; a tile of 32 rows
// and all 4 stick columns; one buffer (a single tile per core).
// CHECK-SAME: accesses = [#spyre.access<mem = <io 0>, base = 0, core_offsets = [0, 4096, 8192, 12288], tile_steps = [4096, 0], box = [4, 32], ddr_strides = [16384, 128], lx_strides = [4096, 128], lx_offsets = [0]>
// CHECK-SAME: #spyre.access<mem = <io 1>, base = 17179869184, core_offsets = [0, 4096, 8192, 12288], tile_steps = [4096, 0], box = [4, 32], ddr_strides = [16384, 128], lx_strides = [4096, 128], lx_offsets = [16384]>
// CHECK-SAME: #spyre.access<mem = <io 2>, base = 34359738368, core_offsets = [0, 4096, 8192, 12288], tile_steps = [4096, 0], box = [4, 32], ddr_strides = [16384, 128], lx_strides = [4096, 128], lx_offsets = [32768]>]
// CHECK-SAME: dims = [#spyre.kdim<"mb", size = 128, split = 4, tile = 32>, #spyre.kdim<"out", size = 256, granule = 64, tile = 256>]
// CHECK-SAME: lx_bytes = 49152 : i64, order = array<i64: 0, 1>
// CHECK-SAME: segments = [#spyre.mem<io 0>, #spyre.mem<io 1>, #spyre.mem<io 2>], spyre.mem = #spyre.mem<io 2>}
// CHECK-NEXT: ^bb0(%[[X:.+]]: tensor<{{.*}}>, %[[Y:.+]]: tensor<{{.*}}>):
// CHECK-NEXT: %[[S:.+]] = spyre.add %[[X]], %[[Y]] :
// CHECK-NOT: spyre.division
// CHECK-NEXT: spyre.yield %[[S]]
// CHECK: return %[[K]]
func.func @example_a(%a: !t {spyre.mem = #spyre.mem<io 0>}, %b: !t {spyre.mem = #spyre.mem<io 1>}) -> (!t {spyre.mem = #spyre.mem<io 2>}) attributes {spyre.pool_bytes = 0 : i64} {
  %0 = spyre.add %a, %b {spyre.division = #spyre.division<splits = [4, 1], order = [0, 1]>, spyre.tiles = array<i64: 32, 256>, spyre.mem = #spyre.mem<io 2>} : (!t, !t) -> !t
  return %0 : !t
}

// C[128, 512] = A[128, 256] @ B[256, 512] with n and k split in two, k
// fastest: core c has k = c % 2, n = c / 2. A moves 2 stick columns per k
// slice (2 * 128 sticks), B 128 rows per k slice and 4 stick columns of 256
// rows per n slice, C 4 stick columns of 128 rows per n slice; a tile step
// moves as far as a slice (the tiles are whole slices). The combine buffer
// for the partner's partial C tile (512 sticks) adds 65536 bytes.
// CHECK-LABEL: func.func @k_split
// CHECK: spyre.kernel "1_batchmatmul"
// CHECK-SAME: #spyre.access<mem = <io 0>, base = 17179869184, core_offsets = [0, 32768, 0, 32768], tile_steps = [0, 0, 32768], box = [2, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [0]>
// CHECK-SAME: #spyre.access<mem = <io 1>, base = 34359738368, core_offsets = [0, 16384, 131072, 147456], tile_steps = [0, 131072, 16384], box = [4, 128], ddr_strides = [32768, 128], lx_strides = [16384, 128], lx_offsets = [32768]>
// CHECK-SAME: #spyre.access<mem = <pool 0>, base = 0, core_offsets = [0, 0, 65536, 65536], tile_steps = [0, 65536, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [98304]>]
// CHECK-SAME: dims = [#spyre.kdim<"mb", size = 128, tile = 128>, #spyre.kdim<"out", size = 512, granule = 64, split = 2, tile = 256>, #spyre.kdim<"in", size = 256, granule = 64, split = 2, tile = 128, reduction = true>]
// CHECK-SAME: lx_bytes = 229376 : i64, order = array<i64: 2, 0, 1>
// CHECK-SAME: segments = [#spyre.mem<pool 0>, #spyre.mem<io 0>, #spyre.mem<io 1>]
// CHECK: spyre.kernel "2_exp"
func.func @k_split(%a: !A {spyre.mem = #spyre.mem<io 0>}, %b: !B {spyre.mem = #spyre.mem<io 1>}) -> (!C {spyre.mem = #spyre.mem<io 2>}) attributes {spyre.pool_bytes = 131072 : i64} {
  %0 = spyre.matmul %a, %b {spyre.division = #spyre.division<splits = [1, 2, 2], order = [2, 0, 1]>, spyre.tiles = array<i64: 128, 256, 128>, spyre.mem = #spyre.mem<pool 0>} : !A, !B -> !C
  %1 = spyre.exp %0 {spyre.division = #spyre.division<splits = [4, 1], order = [0, 1]>, spyre.tiles = array<i64: 32, 512>, spyre.mem = #spyre.mem<io 2>} : (!C) -> !C
  return %1 : !C
}

// An LX-resident intermediate: no DDR strides, staging or core offsets;
// its LX strides lay out the core's whole slice (4 stick columns of 32
// rows) and a 16-row tile steps 16 sticks. The consumer walks 32-row tiles
// of the same slices.
// CHECK-LABEL: func.func @resident
// CHECK: spyre.kernel "3_exp"
// CHECK-SAME: #spyre.access<mem = <lx 1048576>, base = 1048576, tile_steps = [2048, 0], box = [4, 16], lx_strides = [4096, 128]>]
// CHECK-SAME: lx_bytes = 16384
// CHECK: spyre.kernel "4_neg"
// CHECK-SAME: accesses = [#spyre.access<mem = <lx 1048576>, base = 1048576, tile_steps = [4096, 0], box = [4, 32], lx_strides = [4096, 128]>
// CHECK-SAME: segments = [#spyre.mem<io 1>]
func.func @resident(%a: !t {spyre.mem = #spyre.mem<io 0>}) -> (!t {spyre.mem = #spyre.mem<io 1>}) attributes {spyre.pool_bytes = 0 : i64} {
  %0 = spyre.exp %a {spyre.division = #spyre.division<splits = [4, 1], order = [0, 1]>, spyre.tiles = array<i64: 16, 256>, spyre.mem = #spyre.mem<lx 1048576>} : (!t) -> !t
  %1 = spyre.neg %0 {spyre.division = #spyre.division<splits = [4, 1], order = [0, 1]>, spyre.tiles = array<i64: 32, 256>, spyre.mem = #spyre.mem<io 1>} : (!t) -> !t
  return %1 : !t
}

// Chunks: two launches of 64 rows, each split in two; a chunk steps 64 rows
// (8192 bytes), a core 32 rows.
// CHECK-LABEL: func.func @chunks
// CHECK: spyre.kernel "5_neg"
// CHECK: #spyre.access<mem = <io 1>, base = 17179869184, core_offsets = [0, 4096], tile_steps = [4096, 0], chunk_steps = [8192, 0], box = [4, 32], ddr_strides = [16384, 128], lx_strides = [4096, 128], lx_offsets = [16384]>
// CHECK-SAME: #spyre.kdim<"mb", size = 128, split = 2, chunks = 2, tile = 32>
func.func @chunks(%a: !t {spyre.mem = #spyre.mem<io 0>}) -> (!t {spyre.mem = #spyre.mem<io 1>}) attributes {spyre.pool_bytes = 0 : i64} {
  %0 = spyre.neg %a {spyre.division = #spyre.division<splits = [2, 1], order = [0, 1], chunks = [2, 1]>, spyre.tiles = array<i64: 32, 256>, spyre.mem = #spyre.mem<io 1>} : (!t) -> !t
  return %0 : !t
}

// The two launches above took numbers 5 and 6.
// CHECK-LABEL: func.func @after_chunks
// CHECK: spyre.kernel "7_exp"
func.func @after_chunks(%a: !t {spyre.mem = #spyre.mem<io 0>}) -> (!t {spyre.mem = #spyre.mem<io 1>}) attributes {spyre.pool_bytes = 0 : i64} {
  %0 = spyre.exp %a {spyre.division = #spyre.division<splits = [4, 1], order = [0, 1]>, spyre.tiles = array<i64: 32, 256>, spyre.mem = #spyre.mem<io 1>} : (!t) -> !t
  return %0 : !t
}
