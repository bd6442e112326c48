// RUN: spyre-opt %s --spyre-pipeline -split-input-file -verify-diagnostics
//
// Bad options are rejected before any pass runs, in one line naming the
// option as given (no IR location, no IR dump):
// RUN: not spyre-opt %s --spyre-pipeline=beam-width=0 2>&1 | FileCheck %s --check-prefix=BEAM
// RUN: not spyre-opt %s --spyre-pipeline=exact-limit=-5 2>&1 | FileCheck %s --check-prefix=EXACT
// RUN: not spyre-opt %s --spyre-pipeline=cores=99 2>&1 | FileCheck %s --check-prefix=CORES
// RUN: not spyre-opt %s --spyre-pipeline=cores=-1 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// RUN: not spyre-opt %s --spyre-pipeline=policy=fastest 2>&1 | FileCheck %s --check-prefix=POLICY
// RUN: not spyre-opt %s --spyre-propagate-layouts=beam-width=-1 2>&1 | FileCheck %s --check-prefix=PROPAGATE
// RUN: not spyre-opt %s --spyre-propagate-layouts=exact-limit=-1 2>&1 | FileCheck %s --check-prefix=PROPAGATE-EXACT

// BEAM: error: --spyre-pipeline: beam-width=0 must be at least 1
// BEAM-NOT: see current operation
// EXACT: error: --spyre-pipeline: exact-limit=-5 must not be negative (0: beam search only)
// EXACT-NOT: see current operation
// CORES: error: --spyre-pipeline: cores=99 is out of range 1..32 (the target's cores; 0 uses them all)
// CORES-NOT: see current operation
// NEGATIVE: error: --spyre-pipeline: cores=-1 is out of range 1..32
// POLICY: for the --policy option: Cannot find option named 'fastest'!
// POLICY-NOT: see current operation
// PROPAGATE: error: --spyre-propagate-layouts: beam-width=-1 must be at least 1
// PROPAGATE-EXACT: error: --spyre-propagate-layouts: exact-limit=-1 must not be negative

// An op built from a named linalg op reports at the named op's line.
module attributes {spyre.target = #spyre.target<lx_bytes = 128>} {
func.func @tiny_lx(%a: tensor<128x256xf16>) -> tensor<128x256xf16> {
  %e = tensor.empty() : tensor<128x256xf16>
  // expected-error @+1 {{'spyre.exp' op cannot be divided across 32 cores: the smallest tile [1, 64] needs 512 bytes of LX per core, only 102 are available}}
  %0 = linalg.exp ins(%a : tensor<128x256xf16>) outs(%e : tensor<128x256xf16>) -> tensor<128x256xf16>
  return %0 : tensor<128x256xf16>
}
}

// -----

// The pipeline's own output is not compiled again.
!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
#io0 = #spyre.access<mem = #spyre.mem<io 0>, base = 0, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [0]>
#io1 = #spyre.access<mem = #spyre.mem<io 1>, base = 17179869184, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [65536]>
#mb = #spyre.kdim<"mb", size = 128, tile = 128>
#out = #spyre.kdim<"out", size = 256, granule = 64, tile = 256>

// expected-error @+1 {{@abs is already in kernel form (it holds spyre.kernel ops); --spyre-pipeline compiles linalg: give its output to spyre-translate or spyre-run as it is}}
func.func @abs(%a: !t {spyre.mem = #spyre.mem<io 0>}) -> (!t {spyre.mem = #spyre.mem<io 1>}) attributes {spyre.pool_bytes = 0 : i64} {
  %0 = spyre.kernel "0_abs"(%a) : (!t) -> !t attributes {accesses = [#io0, #io1], dims = [#mb, #out], lx_bytes = 131072 : i64, order = array<i64: 0, 1>, segments = [#spyre.mem<io 0>, #spyre.mem<io 1>], spyre.mem = #spyre.mem<io 1>} {
  ^bb0(%x: !t):
    %1 = spyre.abs %x : (!t) -> !t
    spyre.yield %1 : !t
  }
  return %0 : !t
}

// -----

// A function in a nested module is an error at the module, not left
// uncompiled with exit 0.
module {
  // expected-error @+1 {{a nested module holds @f; --spyre-pipeline compiles the functions of one module}}
  module @inner {
    func.func @f(%a: tensor<64x128xf16>) -> tensor<64x128xf16> {
      return %a : tensor<64x128xf16>
    }
  }
}

// -----

// The caller fixed %c's layout (standard element order); the converted
// value is in dl16tofp32's order, and the device adds lanes positionally.
func.func @fixed_order(%a: tensor<64x128xf16>, %c: tensor<64x128xf32> {spyre.layout = #spyre.layout<device_size = [4, 64, 32], stride_map = [32, 128, 1]>}) -> tensor<64x128xf32> {
  %e = tensor.empty() : tensor<64x128xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<64x128xf16>) outs(%e : tensor<64x128xf32>) {
  ^bb0(%i: f16, %o: f32):
    %f = arith.extf %i : f16 to f32
    linalg.yield %f : f32
  } -> tensor<64x128xf32>
  // expected-error @+1 {{'spyre.add' op input #0 has element arrangement dl16_to_fp32 but input #1 has standard; inputs combined lane by lane need one element order}}
  %s = linalg.add ins(%x, %c : tensor<64x128xf32>, tensor<64x128xf32>) outs(%e : tensor<64x128xf32>) -> tensor<64x128xf32>
  return %s : tensor<64x128xf32>
}

// -----

// An expand_shape whose output_shape contradicts its result type (upstream's
// verifier accepts it) is reported at the op before anything compiles it.
func.func @contradicts(%x: tensor<512x32xf16>) -> tensor<1x512x32xf16> {
  // expected-error @+1 {{'tensor.expand_shape' states output_shape [1, 32, 512], which contradicts its result type 'tensor<1x512x32xf16>'}}
  %r = tensor.expand_shape %x [[0, 1], [2]] output_shape [1, 32, 512] : tensor<512x32xf16> into tensor<1x512x32xf16>
  return %r : tensor<1x512x32xf16>
}
