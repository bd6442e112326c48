// RUN: spyre-opt %s -split-input-file --spyre-lower-to-kernels --spyre-form-bundles | FileCheck %s

// Kernels join a bundle while its segments - the pool, when the function
// has one, and the distinct io buffers of all its kernels - stay within
// bundle_segments (6 by default, torch-spyre's limit). Every kernel of a
// bundle binds the bundle's segments, and its DDR accesses are rebased onto
// them (segment i starts at i * 16 GiB = i * 17179869184).

!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
#d = #spyre.division<splits = [4, 1], order = [0, 1]>

// Kernel 0 binds io 0, io 1, io 5; kernel 1 adds io 2 and io 6 (5 in all);
// kernel 2 would add io 3 and io 7 (7 in all), so it starts bundle 1.
// CHECK-LABEL: func.func @chain
// CHECK: spyre.kernel "0_add"
// CHECK-SAME: accesses = [#spyre.access<mem = <io 0>, base = 0,
// CHECK-SAME: #spyre.access<mem = <io 1>, base = 17179869184,
// CHECK-SAME: #spyre.access<mem = <io 5>, base = 34359738368,
// CHECK-SAME: segments = [#spyre.mem<io 0>, #spyre.mem<io 1>, #spyre.mem<io 5>, #spyre.mem<io 2>, #spyre.mem<io 6>], spyre.bundle = 0 : i64
// CHECK: spyre.kernel "1_add"
// CHECK-SAME: accesses = [#spyre.access<mem = <io 5>, base = 34359738368,
// CHECK-SAME: #spyre.access<mem = <io 2>, base = 51539607552,
// CHECK-SAME: #spyre.access<mem = <io 6>, base = 68719476736,
// CHECK-SAME: segments = [#spyre.mem<io 0>, #spyre.mem<io 1>, #spyre.mem<io 5>, #spyre.mem<io 2>, #spyre.mem<io 6>], spyre.bundle = 0 : i64
// CHECK: spyre.kernel "2_add"
// CHECK-SAME: accesses = [#spyre.access<mem = <io 6>, base = 0,
// CHECK-SAME: #spyre.access<mem = <io 3>, base = 17179869184,
// CHECK-SAME: #spyre.access<mem = <io 7>, base = 34359738368,
// CHECK-SAME: segments = [#spyre.mem<io 6>, #spyre.mem<io 3>, #spyre.mem<io 7>], spyre.bundle = 1 : i64
func.func @chain(%a: !t {spyre.mem = #spyre.mem<io 0>}, %b: !t {spyre.mem = #spyre.mem<io 1>}, %c: !t {spyre.mem = #spyre.mem<io 2>}, %d: !t {spyre.mem = #spyre.mem<io 3>}) -> (!t {spyre.mem = #spyre.mem<io 7>}) attributes {spyre.pool_bytes = 0 : i64} {
  %0 = spyre.add %a, %b {spyre.division = #d, spyre.tiles = array<i64: 32, 256>, spyre.mem = #spyre.mem<io 5>} : (!t, !t) -> !t
  %1 = spyre.add %0, %c {spyre.division = #d, spyre.tiles = array<i64: 32, 256>, spyre.mem = #spyre.mem<io 6>} : (!t, !t) -> !t
  %2 = spyre.add %1, %d {spyre.division = #d, spyre.tiles = array<i64: 32, 256>, spyre.mem = #spyre.mem<io 7>} : (!t, !t) -> !t
  return %2 : !t
}

// -----

// With a pool, segment 0 is the pool in every bundle and keeps its
// addresses; the bundle has room for 5 io buffers.
!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
#d = #spyre.division<splits = [4, 1], order = [0, 1]>

// CHECK-LABEL: func.func @pool
// CHECK: spyre.kernel "0_exp"
// CHECK-SAME: accesses = [#spyre.access<mem = <io 0>, base = 17179869184,
// CHECK-SAME: #spyre.access<mem = <pool 0>, base = 0,
// CHECK-SAME: segments = [#spyre.mem<pool 0>, #spyre.mem<io 0>, #spyre.mem<io 1>, #spyre.mem<io 2>], spyre.bundle = 0 : i64
// CHECK: spyre.kernel "1_add"
// CHECK-SAME: accesses = [#spyre.access<mem = <pool 0>, base = 0,
// CHECK-SAME: #spyre.access<mem = <io 1>, base = 34359738368,
// CHECK-SAME: #spyre.access<mem = <pool 65536>, base = 65536,
// CHECK-SAME: segments = [#spyre.mem<pool 0>, #spyre.mem<io 0>, #spyre.mem<io 1>, #spyre.mem<io 2>], spyre.bundle = 0 : i64
// CHECK: spyre.kernel "2_exp"
// CHECK-SAME: accesses = [#spyre.access<mem = <pool 65536>, base = 65536,
// CHECK-SAME: #spyre.access<mem = <io 2>, base = 51539607552,
// CHECK-SAME: segments = [#spyre.mem<pool 0>, #spyre.mem<io 0>, #spyre.mem<io 1>, #spyre.mem<io 2>], spyre.bundle = 0 : i64
func.func @pool(%a: !t {spyre.mem = #spyre.mem<io 0>}, %b: !t {spyre.mem = #spyre.mem<io 1>}) -> (!t {spyre.mem = #spyre.mem<io 2>}) attributes {spyre.pool_bytes = 131072 : i64} {
  %0 = spyre.exp %a {spyre.division = #d, spyre.tiles = array<i64: 32, 256>, spyre.mem = #spyre.mem<pool 0>} : (!t) -> !t
  %1 = spyre.add %0, %b {spyre.division = #d, spyre.tiles = array<i64: 32, 256>, spyre.mem = #spyre.mem<pool 65536>} : (!t, !t) -> !t
  %2 = spyre.exp %1 {spyre.division = #d, spyre.tiles = array<i64: 32, 256>, spyre.mem = #spyre.mem<io 2>} : (!t) -> !t
  return %2 : !t
}

// -----

// Host code between kernels ends a bundle (the runtime runs it on the CPU
// between two launches), even when the next kernel's buffers would fit; a
// smaller bundle_segments cuts sooner.
!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
#d = #spyre.division<splits = [4, 1], order = [0, 1]>

module attributes {spyre.target = #spyre.target<bundle_segments = 3>} {
// CHECK-LABEL: func.func @host_between
// CHECK: spyre.kernel "0_exp"
// CHECK-SAME: segments = [#spyre.mem<io 0>, #spyre.mem<io 1>], spyre.bundle = 0 : i64
// CHECK: call @host
// CHECK: spyre.kernel "1_exp"
// CHECK-SAME: segments = [#spyre.mem<io 2>, #spyre.mem<io 3>, #spyre.mem<io 4>], spyre.bundle = 1 : i64
// CHECK: spyre.kernel "2_add"
// CHECK-SAME: segments = [#spyre.mem<io 2>, #spyre.mem<io 3>, #spyre.mem<io 4>], spyre.bundle = 1 : i64
// CHECK: spyre.kernel "3_exp"
// CHECK-SAME: segments = [#spyre.mem<io 4>, #spyre.mem<io 5>], spyre.bundle = 2 : i64
func.func @host_between(%a: !t {spyre.mem = #spyre.mem<io 0>}) -> (!t {spyre.mem = #spyre.mem<io 5>}) attributes {spyre.pool_bytes = 0 : i64} {
  %0 = spyre.exp %a {spyre.division = #d, spyre.tiles = array<i64: 32, 256>, spyre.mem = #spyre.mem<io 1>} : (!t) -> !t
  %h = spyre.from_device %0 : !t -> tensor<128x256xf16>
  %c = call @host(%h) : (tensor<128x256xf16>) -> tensor<128x256xf16>
  %2 = spyre.to_device %c {spyre.mem = #spyre.mem<io 2>} : tensor<128x256xf16> -> !t
  %3 = spyre.exp %2 {spyre.division = #d, spyre.tiles = array<i64: 32, 256>, spyre.mem = #spyre.mem<io 3>} : (!t) -> !t
  %4 = spyre.add %3, %2 {spyre.division = #d, spyre.tiles = array<i64: 32, 256>, spyre.mem = #spyre.mem<io 4>} : (!t, !t) -> !t
  %5 = spyre.exp %4 {spyre.division = #d, spyre.tiles = array<i64: 32, 256>, spyre.mem = #spyre.mem<io 5>} : (!t) -> !t
  return %5 : !t
}
func.func private @host(tensor<128x256xf16>) -> tensor<128x256xf16>
}
