// RUN: spyre-opt %s -split-input-file --spyre-lower-to-kernels --spyre-form-bundles -verify-diagnostics

// A kernel that alone binds more segments than a bundle may is an error at
// its location.
!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
#d = #spyre.division<splits = [4, 1], order = [0, 1]>

module attributes {spyre.target = #spyre.target<bundle_segments = 2>} {
func.func @too_many(%a: !t {spyre.mem = #spyre.mem<io 0>}, %b: !t {spyre.mem = #spyre.mem<io 1>}) -> (!t {spyre.mem = #spyre.mem<io 2>}) attributes {spyre.pool_bytes = 0 : i64} {
  // expected-error @below {{'spyre.kernel' op binds 3 DDR address segments (the pool and one per host-visible tensor); a bundle binds at most 2 (#spyre.target bundle_segments = 2, 8 segments in the DDR)}}
  %0 = spyre.add %a, %b {spyre.division = #d, spyre.tiles = array<i64: 32, 256>, spyre.mem = #spyre.mem<io 2>} : (!t, !t) -> !t
  return %0 : !t
}
}

// -----

// 'spyre.bundle' belongs on kernels.
// expected-error @below {{'spyre.bundle' must be a non-negative i64 on a spyre.kernel}}
func.func @not_a_kernel() attributes {spyre.bundle = 0 : i64} {
  return
}
