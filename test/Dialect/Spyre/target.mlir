// RUN: spyre-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// Parameters equal to their default are elided when printed.
// CHECK: module attributes {spyre.target = #spyre.target<cores = 8, lx_reserved = 0.25, clock_ghz = 1.5>}
module attributes {spyre.target = #spyre.target<cores = 8, lx_reserved = 0.25, clock_ghz = 1.5, stick_bytes = 128>} {
}

// -----

// CHECK: module attributes {spyre.target = #spyre.target<>}
module attributes {spyre.target = #spyre.target<>} {
}

// -----

// Every parameter can be overridden.
// CHECK: #spyre.target<cores = 16, corelets = 1, stick_bytes = 256, lx_bytes = 4194304, lx_reserved = 0.1, ddr_gbps = 400.0, ddr_bytes = 1024, segment_bytes = 512, span_bytes = 1024, clock_ghz = 2.0, pt_macs_per_cycle = 100, pt_rows = 4, pt_fill_passes = 2, sfp_sticks_per_cycle = 2, dma_bytes_per_cycle = 32, ring_bytes_per_cycle = 64, tile_overhead_cycles = 10, max_loop_count = 1000, bundle_segments = 5>
module attributes {spyre.target = #spyre.target<cores = 16, corelets = 1, stick_bytes = 256, lx_bytes = 4194304, lx_reserved = 0.1, ddr_gbps = 400.0, ddr_bytes = 1024, segment_bytes = 512, span_bytes = 1024, clock_ghz = 2.0, pt_macs_per_cycle = 100, pt_rows = 4, pt_fill_passes = 2, sfp_sticks_per_cycle = 2, dma_bytes_per_cycle = 32, ring_bytes_per_cycle = 64, tile_overhead_cycles = 10, max_loop_count = 1000, bundle_segments = 5>} {
}

// -----

// With 256-byte sticks an f16 layout holds 128 elements per stick.
// CHECK-LABEL: func.func @wide_sticks
module attributes {spyre.target = #spyre.target<stick_bytes = 256>} {
  // CHECK-SAME: #spyre.layout<device_size = [2, 1000, 128], stride_map = [128, 200, 1], stick_bytes = 256>
  func.func @wide_sticks(%a: tensor<1000x200xf16, #spyre.layout<device_size = [2, 1000, 128], stride_map = [128, 200, 1], stick_bytes = 256>>) {
    return
  }
}

// -----

module attributes {spyre.target = #spyre.target<stick_bytes = 256>} {
  // expected-error @+1 {{'func.func' op uses a layout built for 128-byte sticks, but the module's #spyre.target has 256-byte sticks}}
  func.func @narrow_sticks(%a: tensor<1000x200xf16, #spyre.layout<device_size = [4, 1000, 64], stride_map = [64, 200, 1]>>) {
    return
  }
}

// -----

// expected-error @+1 {{#spyre.target cores = 0 is outside its range [1, 1024]}}
module attributes {spyre.target = #spyre.target<cores = 0>} {}

// -----

// expected-error @+1 {{#spyre.target lx_reserved = 1.5 is outside its range [0, 1)}}
module attributes {spyre.target = #spyre.target<lx_reserved = 1.5>} {}

// -----

// expected-error @+1 {{#spyre.target stick_bytes = 130 must be a multiple of 4}}
module attributes {spyre.target = #spyre.target<stick_bytes = 130>} {}

// -----

// expected-error @+1 {{#spyre.target lx_bytes = 1000 must be a whole number of 128-byte sticks}}
module attributes {spyre.target = #spyre.target<lx_bytes = 1000>} {}

// -----

// expected-error @+1 {{'spyre.target' must be a #spyre.target attribute}}
module attributes {spyre.target = 32} {}

// -----

module {
  // expected-error @+1 {{'spyre.target' may only be attached to a module}}
  func.func @f() attributes {spyre.target = #spyre.target<>} {
    return
  }
}

// -----

// expected-error @+1 {{duplicate or unknown struct parameter name: cores}}
module attributes {spyre.target = #spyre.target<cores = 8, cores = 4>} {}

// -----

// Numbers past their documented range would overflow the model's
// arithmetic (a PT array of 2^63 MACs per cycle times two corelets).
// expected-error @+1 {{#spyre.target pt_macs_per_cycle = 9223372036854775807 is outside its range [1, 1048576]}}
module attributes {spyre.target = #spyre.target<pt_macs_per_cycle = 9223372036854775807, corelets = 2>} {}

// -----

// expected-error @+1 {{#spyre.target corelets = 9223372036854775807 is outside its range [1, 64]}}
module attributes {spyre.target = #spyre.target<corelets = 9223372036854775807>} {}

// -----

// The LX-resident op set is a list of op names; the default set prints as
// nothing.
// CHECK: #spyre.target<lx_resident_ops = ["max", "batchmatmul"]>
module attributes {spyre.target = #spyre.target<lx_resident_ops = ["max", "batchmatmul"]>} {}

// -----

// expected-error @+1 {{#spyre.target lx_resident_ops holds 1 : i64; expected op names (strings)}}
module attributes {spyre.target = #spyre.target<lx_resident_ops = [1]>} {}

// -----

// A bundle binds at least one segment.
// expected-error @+1 {{#spyre.target bundle_segments = 0 is outside its range [1, 1024]}}
module attributes {spyre.target = #spyre.target<bundle_segments = 0>} {}

// -----

// A subnormal clock would make every modelled time infinite.
// expected-error @+1 {{#spyre.target clock_ghz = 5e-324 is outside its range [0.001, 1000.0]}}
module attributes {spyre.target = #spyre.target<clock_ghz = 4.9406564584124654e-324>} {}

// -----

// expected-error @+1 {{#spyre.target ring_bytes_per_cycle = 4611686018427387904 is outside its range [1, 1048576]}}
module attributes {spyre.target = #spyre.target<ring_bytes_per_cycle = 4611686018427387904>} {}
