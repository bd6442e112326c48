// RUN: spyre-opt %s -split-input-file -verify-diagnostics
// RUN: echo "module {}" | not spyre-opt --spyre-fuse-row-blocks=cores=99 2>&1 | FileCheck %s --check-prefix=CORES

// CORES: error: --spyre-fuse-row-blocks: cores=99 is out of range 1..32

// 'spyre.fusion_group' belongs on the ops kernels run.
// expected-error @below {{'spyre.fusion_group' must be a non-negative i64 on a kernel payload op}}
func.func @not_a_payload() attributes {spyre.fusion_group = 0 : i64} {
  return
}

// -----

!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
func.func @negative(%a: !t) -> !t {
  // expected-error @below {{'spyre.fusion_group' must be a non-negative i64 on a kernel payload op}}
  %0 = spyre.neg %a {spyre.fusion_group = -1 : i64} : (!t) -> !t
  return %0 : !t
}
