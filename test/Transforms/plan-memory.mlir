// RUN: spyre-opt %s --spyre-plan-memory | FileCheck %s
// RUN: spyre-opt %s --spyre-plan-memory=lx-residency=false | FileCheck %s --check-prefix=DDR
// RUN: spyre-opt %s --spyre-plan-memory --spyre-lower-to-kernels | FileCheck %s --check-prefix=KERNELS
// RUN: spyre-opt --help | FileCheck %s --check-prefix=HELP

// HELP: --spyre-plan-memory
// HELP: --lx-residency

// The divisions are given so the plan is checked on its own.

!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
!s = tensor<f16, #spyre.layout<device_size = [1, 64], stride_map = [-1, -1]>>
!tt = tensor<256x128xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [8192, 1, 128]>>
#rows = #spyre.division<splits = [4, 1], order = [0, 1]>
#cols = #spyre.division<splits = [1, 4], order = [0, 1]>

// Host-visible buffers are numbered arguments first, then in program order
// (the constant, the result). Intermediates whose producer and consumers
// give each core the same slice stay in LX (%[[A]] with 4 row slices, %[[E]]
// with 4 column slices); the others share the DDR pool, reusing dead space
// (%[[N]] reuses %[[M]]'s offset). LX residents sit at the top of the usable
// LX (1677721 bytes, floored to sticks), 32 KiB per core each.
// CHECK-LABEL: func.func @chain
// CHECK-SAME: {spyre.mem = #spyre.mem<io 0>}
// CHECK-SAME: {spyre.mem = #spyre.mem<io 1>}
// CHECK-SAME: -> ({{.*}} {spyre.mem = #spyre.mem<io 3>})
// CHECK-SAME: attributes {spyre.pool_bytes = 65536 : i64}
// CHECK: spyre.constant {{.*}} {spyre.mem = #spyre.mem<io 2>}
// CHECK: %[[A:.+]] = spyre.add {{.*}}spyre.mem = #spyre.mem<lx 1661312>, spyre.tiles = array<i64: 32, 256>
// CHECK: %[[M:.+]] = spyre.mul {{.*}}spyre.mem = #spyre.mem<pool 0>
// CHECK: %[[E:.+]] = spyre.exp {{.*}}spyre.mem = #spyre.mem<lx 1644928>
// CHECK: %[[N:.+]] = spyre.neg {{.*}}spyre.mem = #spyre.mem<pool 0>
// CHECK: spyre.add {{.*}}spyre.mem = #spyre.mem<io 3>

// Without LX residency every intermediate is in the pool; first fit over
// live ranges (%[[A2]] lives to the end, %[[M2]] dies after the exp).
// DDR-LABEL: func.func @chain
// DDR-SAME: attributes {spyre.pool_bytes = 196608 : i64}
// DDR: %[[A2:.+]] = spyre.add {{.*}}spyre.mem = #spyre.mem<pool 0>
// DDR: %[[M2:.+]] = spyre.mul {{.*}}spyre.mem = #spyre.mem<pool 65536>
// DDR: spyre.exp {{.*}}spyre.mem = #spyre.mem<pool 131072>
// DDR: spyre.neg {{.*}}spyre.mem = #spyre.mem<pool 65536>
// DDR-NOT: #spyre.mem<lx
func.func @chain(%a: !t, %b: !t) -> !t {
  %c = spyre.constant dense<2.0> : tensor<f16> -> !s
  %0 = spyre.add %a, %b {spyre.division = #rows} : (!t, !t) -> !t
  %1 = spyre.mul %0, %c {spyre.division = #rows} : (!t, !s) -> !t
  %2 = spyre.exp %1 {spyre.division = #cols} : (!t) -> !t
  %3 = spyre.neg %2 {spyre.division = #cols} : (!t) -> !t
  %4 = spyre.add %3, %0 {spyre.division = #rows} : (!t, !t) -> !t
  return %4 : !t
}

// A kernel needs no staging buffer for a tensor in LX: the plan counts each
// kernel's staging with the residents it reads or writes left out. On one
// core, [1024, 256] f16 is 512 KiB; both ops run in tiles [1024, 128] (two
// steps, double-buffered: 256 KiB per buffer). Staging every tensor takes
// 3 x 2 x 256 KiB = 1.5 MiB, and %0 (512 KiB) would not fit above it in the
// usable 1677696 bytes; with %0 in LX each op stages only its other two
// tensors (1 MiB), and %0 sits at 1677696 - 524288 = 1153408.
// CHECK-LABEL: func.func @staging_of_residents
// CHECK: spyre.add {{.*}}spyre.mem = #spyre.mem<lx 1153408>, spyre.tiles = array<i64: 1024, 128>
// CHECK: spyre.mul {{.*}}spyre.tiles = array<i64: 1024, 128>
!big = tensor<1024x256xf16, #spyre.layout<device_size = [4, 1024, 64], stride_map = [64, 256, 1]>>
#one = #spyre.division<splits = [1, 1], order = [0, 1]>
func.func @staging_of_residents(%a: !big, %b: !big) -> !big {
  %0 = spyre.add %a, %b {spyre.division = #one} : (!big, !big) -> !big
  %1 = spyre.mul %0, %b {spyre.division = #one} : (!big, !big) -> !big
  return %1 : !big
}

// When a kernel's tiles leave no room for a tensor it does not even stage,
// it is tiled again, within 2% of its fastest, to make room. [2048, 256] f16
// on one core (1 MiB a tensor): both ops first take tiles [2048, 64]
// (four steps, double-buffered 256 KiB buffers: 1.5 MiB of staging for
// three tensors, 1 MiB for the two left when %0 is in LX), which leave no
// room for %0's 1 MiB. Tiles [1024, 64] stage the two in 512 KiB: %0 sits
// at 1677696 - 1048576 = 629120 and both ops run in those tiles.
// CHECK-LABEL: func.func @retiled_for_residents
// CHECK: spyre.add {{.*}}spyre.mem = #spyre.mem<lx 629120>, spyre.tiles = array<i64: 1024, 64>
// CHECK: spyre.mul {{.*}}spyre.tiles = array<i64: 1024, 64>
// DDR-LABEL: func.func @retiled_for_residents
// DDR: spyre.add {{.*}}spyre.mem = #spyre.mem<pool 0>, spyre.tiles = array<i64: 2048, 64>
!huge = tensor<2048x256xf16, #spyre.layout<device_size = [4, 2048, 64], stride_map = [64, 256, 1]>>
func.func @retiled_for_residents(%a: !huge, %b: !huge) -> !huge {
  %0 = spyre.add %a, %b {spyre.division = #one} : (!huge, !huge) -> !huge
  %1 = spyre.mul %0, %b {spyre.division = #one} : (!huge, !huge) -> !huge
  return %1 : !huge
}

// A returned view makes its root host-visible; the view itself has no
// buffer of its own.
// CHECK-LABEL: func.func @view
// CHECK-SAME: -> ({{.*}} {spyre.mem = #spyre.mem<io 1>})
// CHECK-SAME: attributes {spyre.pool_bytes = 0 : i64}
// CHECK: spyre.exp {{.*}}spyre.mem = #spyre.mem<io 1>
// CHECK: spyre.transpose
// CHECK-NOT: spyre.mem
// CHECK: return
func.func @view(%a: !t) -> !tt {
  %0 = spyre.exp %a {spyre.division = #rows} : (!t) -> !t
  %1 = spyre.transpose %0 permutation = [1, 0] : !t -> !tt
  return %1 : !tt
}

// Tensors read by host code are host-visible too.
// CHECK-LABEL: func.func @to_host
// CHECK: spyre.exp {{.*}}spyre.mem = #spyre.mem<io 1>
// CHECK: spyre.from_device
func.func @to_host(%a: !t) -> tensor<128x256xf16> {
  %0 = spyre.exp %a {spyre.division = #rows} : (!t) -> !t
  %1 = spyre.from_device %0 : !t -> tensor<128x256xf16>
  return %1 : tensor<128x256xf16>
}

// An insert whose source a kernel made only for it, typed as the
// destination's block with the destination's strides, copies nothing: the
// source is the destination's buffer at the box (no buffer of its own), and
// the kernel writes there. Both exps and the empty buffer share the result
// io buffer; no insert is a kernel. Lowered, the second exp's result starts
// 64 rows (64 x 128 bytes) into it.
// CHECK-LABEL: func.func @in_place_insert
// CHECK-SAME: -> ({{.*}} {spyre.mem = #spyre.mem<io 2>})
// CHECK: spyre.empty {spyre.mem = #spyre.mem<io 2>}
// CHECK: spyre.exp %arg0 {spyre.division = {{[^}]*}}>, spyre.tiles = array<i64: 32, 256>} :
// CHECK: spyre.insert_slice %{{[0-9]+}} into %{{[0-9]+}} offsets = [0, 0] :
// CHECK: spyre.exp %arg1 {spyre.division = {{[^}]*}}>, spyre.tiles = array<i64: 32, 256>} :
// CHECK: spyre.insert_slice %{{[0-9]+}} into %{{[0-9]+}} offsets = [64, 0] :
// KERNELS-LABEL: func.func @in_place_insert
// KERNELS: spyre.kernel "{{[0-9]+}}_exp"(%arg0) {{.*}}#spyre.access<mem = <io 2>, base = 17179869184,
// KERNELS: spyre.kernel "{{[0-9]+}}_exp"(%arg1) {{.*}}#spyre.access<mem = <io 2>, base = 17179877376,
// KERNELS-NOT: spyre.kernel
// KERNELS: spyre.insert_slice
// KERNELS-NOT: spyre.kernel
// KERNELS: return
!full = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
!blk = tensor<64x256xf16, #spyre.layout<device_size = [4, 64, 64], stride_map = [64, 256, 1]>>
!strided = tensor<64x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
#half = #spyre.division<splits = [2, 1], order = [0, 1]>
func.func @in_place_insert(%x: !blk, %y: !blk) -> !full {
  %buf = spyre.empty : !full
  %a = spyre.exp %x {spyre.division = #half} : (!blk) -> !strided
  %b0 = spyre.insert_slice %a into %buf offsets = [0, 0] : !strided into !full -> !full
  %c = spyre.exp %y {spyre.division = #half} : (!blk) -> !strided
  %b1 = spyre.insert_slice %c into %b0 offsets = [64, 0] : !strided into !full -> !full
  return %b1 : !full
}

// A [2048, 4096] x [4096, 4096] projection on 32 cores by rows: each core's
// 64 x 4096 x 4096 slice stores its output in tiles of N (64 x 256, while
// the next is computed) instead of all 512 KiB after the last K step, and
// A's slice stays in LX across those tiles (spyre.keep_inputs: a buffer per
// K tile, loaded during the first tile of N): every tensor moves once.
// Lowered, A has four staging buffers, B and the result two.
// CHECK-LABEL: func.func @projection_keeps_a
// CHECK: spyre.matmul {{.*}}spyre.keep_inputs, spyre.mem = #spyre.mem<io 2>, spyre.tiles = array<i64: 64, 256, 1024>}
// DDR-LABEL: func.func @projection_keeps_a
// DDR: spyre.keep_inputs
// KERNELS-LABEL: func.func @projection_keeps_a
// KERNELS: spyre.kernel "{{[0-9]+}}_batchmatmul"
// KERNELS-SAME: #spyre.access<mem = <io 0>, {{[^>]*}}box = [16, 64], {{[^>]*}}lx_offsets = [{{[0-9]+}}, {{[0-9]+}}, {{[0-9]+}}, {{[0-9]+}}]>
// KERNELS-SAME: #spyre.access<mem = <io 1>, {{[^>]*}}lx_offsets = [{{[0-9]+}}, {{[0-9]+}}]>
// KERNELS-SAME: #spyre.access<mem = <io 2>, {{[^>]*}}lx_offsets = [{{[0-9]+}}, {{[0-9]+}}]>
!pa = tensor<2048x4096xf16, #spyre.layout<device_size = [64, 2048, 64], stride_map = [64, 4096, 1]>>
!pw = tensor<4096x4096xf16, #spyre.layout<device_size = [64, 4096, 64], stride_map = [64, 4096, 1]>>
#m32 = #spyre.division<splits = [32, 1, 1], order = [0, 1, 2]>
func.func @projection_keeps_a(%a: !pa, %w: !pw) -> !pa {
  %0 = spyre.matmul %a, %w {spyre.division = #m32} : !pa, !pw -> !pa
  return %0 : !pa
}

// A matmul whose K is split four ways keeps its result in LX for a reader
// that takes each partner's part of it: the combine scatters every result
// tile over the partners (m8.k4 with K fastest: partner p of row block r
// keeps rows 16 * (4 r + p) ..., a 16 x 768 slice; kernel::resultDivision).
// A reader with the group's slices (m8.n4, not the parts) reads it from DDR.
// Lowered, the result lives row-major in its 16 x 768 part (12 sticks of 16
// rows) and the kernel's LX holds two result tiles for the combine besides.
// CHECK-LABEL: func.func @split_k_scatters_its_result
// CHECK: spyre.matmul {{.*}}spyre.mem = #spyre.mem<lx [[M:[0-9]+]]>
// CHECK: spyre.add {{.*}}spyre.mem = #spyre.mem<io
// CHECK: spyre.matmul {{.*}}spyre.mem = #spyre.mem<pool
// KERNELS-LABEL: func.func @split_k_scatters_its_result
// KERNELS: spyre.kernel "{{[0-9]+}}_batchmatmul"
// KERNELS-SAME: #spyre.access<mem = <lx {{[0-9]+}}>, base = {{[0-9]+}}, tile_steps = [{{[0-9, ]+}}], box = [12, 64], lx_strides = [2048, 128]>]
// KERNELS-SAME: split = 4, tile = {{[0-9]+}}, reduction = true
// KERNELS: spyre.kernel "{{[0-9]+}}_add"
// KERNELS-SAME: #spyre.access<mem = <lx {{[0-9]+}}>, base = {{[0-9]+}}, tile_steps = [{{[0-9, ]+}}], box = [12, 16], lx_strides = [2048, 128]>
!kh = tensor<512x3072xf16, #spyre.layout<device_size = [48, 512, 64], stride_map = [64, 3072, 1]>>
!kw = tensor<3072x768xf16, #spyre.layout<device_size = [12, 3072, 64], stride_map = [64, 768, 1]>>
!ko = tensor<512x768xf16, #spyre.layout<device_size = [12, 512, 64], stride_map = [64, 768, 1]>>
#m8k4 = #spyre.division<splits = [8, 1, 4], order = [2, 0, 1]>
#m32r = #spyre.division<splits = [32, 1], order = [0, 1]>
#m8n4 = #spyre.division<splits = [8, 4], order = [0, 1]>
func.func @split_k_scatters_its_result(%h: !kh, %w: !kw, %x: !ko) -> (!ko, !ko) {
  %0 = spyre.matmul %h, %w {spyre.division = #m8k4, spyre.fusion_group = 0 : i64} : !kh, !kw -> !ko
  %1 = spyre.add %0, %x {spyre.division = #m32r, spyre.fusion_group = 0 : i64} : (!ko, !ko) -> !ko
  %2 = spyre.matmul %h, %w {spyre.division = #m8k4, spyre.fusion_group = 1 : i64} : !kh, !kw -> !ko
  %3 = spyre.add %2, %x {spyre.division = #m8n4, spyre.fusion_group = 1 : i64} : (!ko, !ko) -> !ko
  return %1, %3 : !ko, !ko
}

// A result read through views (the head split's reshape and transpose: the
// same device bytes under other host dims) stays in LX when each core's
// slice is the same device box on both sides. Q's bias add [128, 256] by
// 4 row x 4 column slices (rows fastest in the core id) leaves core c rows
// 32 * (c % 4) and head c / 4; the batch matmul over [4 heads, 128, 128, 64]
// with its rows fastest (order [1, 0, 2, 3]) reads exactly that. With its
// heads fastest, core 1 would read head 1 of rows 0-31, which core 4 holds:
// the second Q goes through the pool.
// CHECK-LABEL: func.func @head_split_view
// CHECK: spyre.add {{.*}}spyre.mem = #spyre.mem<lx [[Q:[0-9]+]]>
// CHECK: spyre.batch_matmul
// CHECK: spyre.add {{.*}}spyre.mem = #spyre.mem<pool 0>
// KERNELS-LABEL: func.func @head_split_view
// KERNELS: spyre.kernel "{{[0-9]+}}_add"
// KERNELS-SAME: #spyre.access<mem = <lx [[Q:[0-9]+]]>, base = [[Q]], tile_steps = [4096, 4096], box = [1, 32], lx_strides = [4096, 128]>]
// KERNELS: spyre.kernel "{{[0-9]+}}_batchmatmul"
// KERNELS-SAME: accesses = [#spyre.access<mem = <lx [[Q]]>, base = [[Q]], tile_steps = [4096, 4096, 0, 0], box = [1, 32], lx_strides = [4096, 128]>
// KERNELS: spyre.kernel "{{[0-9]+}}_add"
// KERNELS-NOT: mem = <lx
// KERNELS: spyre.kernel "{{[0-9]+}}_batchmatmul"
// KERNELS-SAME: accesses = [#spyre.access<mem = <pool 0>
!hq = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
!hq3 = tensor<128x4x64xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
!hqh = tensor<4x128x64xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [8192, 64, 1]>>
!hkt = tensor<4x128x64xf16, #spyre.layout<device_size = [64, 2, 4, 64], stride_map = [1, 4096, 8192, 64]>>
!hsc = tensor<4x128x128xf16, #spyre.layout<device_size = [128, 2, 4, 64], stride_map = [128, 64, 16384, 1]>>
!hb = tensor<256xf16, #spyre.layout<device_size = [4, 64], stride_map = [64, 1]>>
#hm4n4 = #spyre.division<splits = [4, 4], order = [0, 1]>
#rowsFastest = #spyre.division<splits = [4, 4, 1, 1], order = [1, 0, 2, 3]>
#headsFastest = #spyre.division<splits = [4, 4, 1, 1], order = [0, 1, 2, 3]>
#bias = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>]
#qkt = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>]
func.func @head_split_view(%x: !hq, %b: !hb, %k: !hkt) -> (!hsc, !hsc) {
  %0 = spyre.add %x, %b {indexing_maps = #bias, spyre.division = #hm4n4} : (!hq, !hb) -> !hq
  %1 = spyre.reshape %0 : !hq -> !hq3
  %2 = spyre.transpose %1 permutation = [1, 0, 2] : !hq3 -> !hqh
  %3 = spyre.batch_matmul %2, %k {indexing_maps = #qkt, spyre.division = #rowsFastest} : !hqh, !hkt -> !hsc
  %4 = spyre.add %x, %b {indexing_maps = #bias, spyre.division = #hm4n4} : (!hq, !hb) -> !hq
  %5 = spyre.reshape %4 : !hq -> !hq3
  %6 = spyre.transpose %5 permutation = [1, 0, 2] : !hq3 -> !hqh
  %7 = spyre.batch_matmul %6, %k {indexing_maps = #qkt, spyre.division = #headsFastest} : !hqh, !hkt -> !hsc
  return %3, %7 : !hsc, !hsc
}

// A box of a result kept in LX (one head's block of Q, through the head
// split's views and an extract) is read from each core's slice of it when
// every core's part of the box lies inside its slice, at one offset on every
// core. Q's add [128, 256] by 4 row slices leaves core c rows 32c..32c+31 of
// all 4 heads, row-major over [4 heads, 32 rows] sticks: head 1's block,
// read with its rows split the same way, starts 32 sticks (4096 bytes) in.
// Divided by 2 rows x 2 heads instead, core 3 holds rows 64.. of heads 2
// and 3, not head 1's rows 96..: that Q goes through the pool.
// CHECK-LABEL: func.func @head_block_box
// CHECK: spyre.add {{.*}}spyre.mem = #spyre.mem<lx {{[0-9]+}}>
// CHECK: spyre.batch_matmul
// CHECK: spyre.add {{.*}}spyre.mem = #spyre.mem<pool 0>
// KERNELS-LABEL: func.func @head_block_box
// KERNELS: spyre.kernel "{{[0-9]+}}_add"
// KERNELS-SAME: #spyre.access<mem = <lx [[#BQ:]]>,
// KERNELS-SAME: base = [[#BQ]], tile_steps = [{{[0-9, ]+}}], box = [4, 32], lx_strides = [4096, 128]>]
// KERNELS: spyre.kernel "{{[0-9]+}}_batchmatmul"
// KERNELS-SAME: accesses = [#spyre.access<mem = <lx [[#BQ]]>, base = [[#BQ+4096]], tile_steps = [{{[0-9, ]+}}], box = [1, 32], lx_strides = [4096, 128]>
// KERNELS: spyre.kernel "{{[0-9]+}}_add"
// KERNELS-NOT: mem = <lx
// KERNELS: spyre.kernel "{{[0-9]+}}_batchmatmul"
// KERNELS-SAME: accesses = [#spyre.access<mem = <pool 0>
!bq = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
!bq3 = tensor<128x4x64xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
!bqh = tensor<4x128x64xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [8192, 64, 1]>>
!bq1 = tensor<1x128x64xf16, #spyre.layout<device_size = [1, 128, 64], stride_map = [-1, 64, 1]>>
!bkt = tensor<1x128x64xf16, #spyre.layout<device_size = [64, 2, 1, 64], stride_map = [1, 4096, -1, 64]>>
!bsc = tensor<1x128x128xf16, #spyre.layout<device_size = [128, 2, 1, 64], stride_map = [128, 64, -1, 1]>>
!bb = tensor<256xf16, #spyre.layout<device_size = [4, 64], stride_map = [64, 1]>>
func.func @head_block_box(%x: !bq, %b: !bq, %bias: !bb, %k: !bkt) -> (!bsc, !bsc) {
  %0 = spyre.add %x, %bias {indexing_maps = #bias, spyre.division = #spyre.division<splits = [4, 1], order = [0, 1]>} : (!bq, !bb) -> !bq
  %1 = spyre.reshape %0 : !bq -> !bq3
  %2 = spyre.transpose %1 permutation = [1, 0, 2] : !bq3 -> !bqh
  %3 = spyre.extract_slice %2 offsets = [1, 0, 0] : !bqh -> !bq1
  %4 = spyre.batch_matmul %3, %k {indexing_maps = #qkt, spyre.division = #spyre.division<splits = [1, 4, 1, 1], order = [1, 0, 2, 3]>} : !bq1, !bkt -> !bsc
  %5 = spyre.add %b, %bias {indexing_maps = #bias, spyre.division = #spyre.division<splits = [2, 2], order = [0, 1]>} : (!bq, !bb) -> !bq
  %6 = spyre.reshape %5 : !bq -> !bq3
  %7 = spyre.transpose %6 permutation = [1, 0, 2] : !bq3 -> !bqh
  %8 = spyre.extract_slice %7 offsets = [1, 0, 0] : !bqh -> !bq1
  %9 = spyre.batch_matmul %8, %k {indexing_maps = #qkt, spyre.division = #spyre.division<splits = [1, 4, 1, 1], order = [1, 0, 2, 3]>} : !bq1, !bkt -> !bsc
  return %4, %9 : !bsc, !bsc
}
