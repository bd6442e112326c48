// RUN: spyre-opt %s --spyre-lower-to-kernels -split-input-file -verify-diagnostics

!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>

func.func @not_planned(%a: !t {spyre.mem = #spyre.mem<io 0>}) -> !t {
  // expected-error @+1 {{'spyre.exp' op needs 'spyre.division' and 'spyre.tiles'; run --spyre-divide-work and --spyre-plan-memory first}}
  %0 = spyre.exp %a {spyre.division = #spyre.division<splits = [4, 1], order = [0, 1]>} : (!t) -> !t
  return %0 : !t
}

// -----

!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>

func.func @no_memory(%a: !t) -> !t {
  // expected-error @+1 {{'spyre.exp' op reads or writes a tensor with no 'spyre.mem'; run --spyre-plan-memory first}}
  %0 = spyre.exp %a {spyre.division = #spyre.division<splits = [4, 1], order = [0, 1]>, spyre.tiles = array<i64: 32, 256>, spyre.mem = #spyre.mem<io 1>} : (!t) -> !t
  return %0 : !t
}

// -----

!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>

func.func @bad_tile(%a: !t {spyre.mem = #spyre.mem<io 0>}) -> !t {
  // expected-error @+1 {{'spyre.exp' op tile 96 of dim 1 must be a multiple of 64 dividing the per-core slice 256}}
  %0 = spyre.exp %a {spyre.division = #spyre.division<splits = [4, 1], order = [0, 1]>, spyre.tiles = array<i64: 32, 96>, spyre.mem = #spyre.mem<io 1>} : (!t) -> !t
  return %0 : !t
}

// -----

// Each io buffer of a kernel needs its own 16 GiB segment: a DDR of 32 GiB
// holds two.
module attributes {spyre.target = #spyre.target<ddr_bytes = 34359738368>} {
func.func @segments(%a: tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>> {spyre.mem = #spyre.mem<io 0>}, %b: tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>> {spyre.mem = #spyre.mem<io 1>}) -> tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>> {
  // expected-error @+1 {{'spyre.add' op needs 3 DDR address segments (the pool and one per host-visible tensor), the DDR holds 2}}
  %0 = spyre.add %a, %b {spyre.division = #spyre.division<splits = [4, 1], order = [0, 1]>, spyre.tiles = array<i64: 32, 256>, spyre.mem = #spyre.mem<io 2>} : (tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>, tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>) -> tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
  return %0 : tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
}
}

// -----

!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>

// A tensor kept in LX by rows cannot be read by columns.
func.func @resident_mismatch(%a: !t {spyre.mem = #spyre.mem<io 0>}) -> !t {
  %0 = spyre.exp %a {spyre.division = #spyre.division<splits = [4, 1], order = [0, 1]>, spyre.tiles = array<i64: 32, 256>, spyre.mem = #spyre.mem<lx 0>} : (!t) -> !t
  // expected-error @+1 {{'spyre.neg' op operand #0 stays in LX (#spyre.mem<lx 0>) but its producer does not leave each core the slice this op needs}}
  %1 = spyre.neg %0 {spyre.division = #spyre.division<splits = [1, 4], order = [0, 1]>, spyre.tiles = array<i64: 128, 64>, spyre.mem = #spyre.mem<io 1>} : (!t) -> !t
  return %1 : !t
}

// -----

!h = tensor<512x3072xf16, #spyre.layout<device_size = [48, 512, 64], stride_map = [64, 3072, 1]>>
!w = tensor<3072x64xf16, #spyre.layout<device_size = [1, 3072, 64], stride_map = [64, 64, 1]>>
!o = tensor<512x64xf16, #spyre.layout<device_size = [1, 512, 64], stride_map = [64, 64, 1]>>

// K split four ways after M in the order: the partners' parts would go along
// N, one stick, which cannot be cut four ways.
func.func @unscatterable_result(%h: !h {spyre.mem = #spyre.mem<io 0>}, %w: !w {spyre.mem = #spyre.mem<io 1>}) -> !o {
  // expected-error @+1 {{'spyre.matmul' op keeps its result in LX, but its split reduction cannot scatter the result over the partners}}
  %0 = spyre.matmul %h, %w {spyre.division = #spyre.division<splits = [8, 1, 4], order = [0, 2, 1]>, spyre.tiles = array<i64: 64, 64, 64>, spyre.mem = #spyre.mem<lx 0>} : !h, !w -> !o
  %1 = spyre.neg %0 {spyre.division = #spyre.division<splits = [32, 1], order = [0, 1]>, spyre.tiles = array<i64: 16, 64>, spyre.mem = #spyre.mem<io 2>} : (!o) -> !o
  return %1 : !o
}

// -----

!hq = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
!hq3 = tensor<128x4x64xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
!hqh = tensor<4x128x64xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [8192, 64, 1]>>
!hkt = tensor<4x128x64xf16, #spyre.layout<device_size = [64, 2, 4, 64], stride_map = [1, 4096, 8192, 64]>>
!hsc = tensor<4x128x128xf16, #spyre.layout<device_size = [128, 2, 4, 64], stride_map = [128, 64, 16384, 1]>>

// Through views too: a Q kept in LX by 4 x 4 slices, rows fastest, cannot
// be read with the heads fastest.
func.func @resident_view_mismatch(%x: !hq {spyre.mem = #spyre.mem<io 0>}, %k: !hkt {spyre.mem = #spyre.mem<io 1>}) -> !hsc {
  %0 = spyre.exp %x {spyre.division = #spyre.division<splits = [4, 4], order = [0, 1]>, spyre.tiles = array<i64: 32, 64>, spyre.mem = #spyre.mem<lx 0>} : (!hq) -> !hq
  %1 = spyre.reshape %0 : !hq -> !hq3
  %2 = spyre.transpose %1 permutation = [1, 0, 2] : !hq3 -> !hqh
  // expected-error @+1 {{'spyre.batch_matmul' op operand #0 stays in LX (#spyre.mem<lx 0>) but its producer does not leave each core the slice this op needs}}
  %3 = spyre.batch_matmul %2, %k {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], spyre.division = #spyre.division<splits = [4, 4, 1, 1], order = [0, 1, 2, 3]>, spyre.tiles = array<i64: 1, 32, 128, 64>, spyre.mem = #spyre.mem<io 2>} : !hqh, !hkt -> !hsc
  return %3 : !hsc
}

// -----

!bq = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
!bq3 = tensor<128x4x64xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
!bqh = tensor<4x128x64xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [8192, 64, 1]>>
!bq1 = tensor<1x128x64xf16, #spyre.layout<device_size = [1, 128, 64], stride_map = [-1, 64, 1]>>
!bkt = tensor<1x128x64xf16, #spyre.layout<device_size = [64, 2, 1, 64], stride_map = [1, 4096, -1, 64]>>
!bsc = tensor<1x128x128xf16, #spyre.layout<device_size = [128, 2, 1, 64], stride_map = [128, 64, -1, 1]>>

// And through a view's box: a Q kept in LX by 2 row x 2 head slices does
// not hold head 1's rows 96.. on core 3, which reads them.
func.func @resident_box_outside(%x: !bq {spyre.mem = #spyre.mem<io 0>}, %k: !bkt {spyre.mem = #spyre.mem<io 1>}) -> !bsc {
  %0 = spyre.exp %x {spyre.division = #spyre.division<splits = [2, 2], order = [0, 1]>, spyre.tiles = array<i64: 64, 128>, spyre.mem = #spyre.mem<lx 0>} : (!bq) -> !bq
  %1 = spyre.reshape %0 : !bq -> !bq3
  %2 = spyre.transpose %1 permutation = [1, 0, 2] : !bq3 -> !bqh
  %3 = spyre.extract_slice %2 offsets = [1, 0, 0] : !bqh -> !bq1
  // expected-error @+1 {{'spyre.batch_matmul' op operand #0 stays in LX (#spyre.mem<lx 0>) but its producer does not leave each core the slice this op needs}}
  %4 = spyre.batch_matmul %3, %k {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], spyre.division = #spyre.division<splits = [1, 4, 1, 1], order = [1, 0, 2, 3]>, spyre.tiles = array<i64: 1, 32, 128, 64>, spyre.mem = #spyre.mem<io 2>} : !bq1, !bkt -> !bsc
  return %4 : !bsc
}
