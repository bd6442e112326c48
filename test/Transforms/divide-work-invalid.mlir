// RUN: spyre-opt %s --spyre-divide-work -split-input-file -verify-diagnostics
// RUN: not spyre-opt %s --spyre-divide-work=cores=40 -split-input-file 2>&1 | FileCheck %s --check-prefix=CORES
// RUN: not spyre-opt %s --spyre-divide-work=policy=fastest -split-input-file 2>&1 | FileCheck %s --check-prefix=POLICY

// Option errors are one line each, without an IR location or dump.
// CORES: error: --spyre-divide-work: cores=40 is out of range 1..32 (the target's cores; 0 uses them all)
// CORES-NOT: see current operation
// POLICY: for the --policy option: Cannot find option named 'fastest'!
// POLICY-NOT: see current operation

// Every limit is checked and reported with the op and the numbers.

!A = tensor<512x4096xf16, #spyre.layout<device_size = [64, 512, 64], stride_map = [64, 4096, 1]>>
!B = tensor<4096x4096xf16, #spyre.layout<device_size = [64, 4096, 64], stride_map = [64, 4096, 1]>>

func.func @hint_not_dividing(%a: !A, %b: !B) -> !A {
  // expected-error @+1 {{'spyre.matmul' op 'spyre.work_division' [3, 1, 1] is invalid: dim 0 of size 512 is not evenly divisible by split 3}}
  %0 = spyre.matmul %a, %b {spyre.work_division = array<i64: 3, 1, 1>} : !A, !B -> !A
  return %0 : !A
}

// -----

!A = tensor<512x4096xf16, #spyre.layout<device_size = [64, 512, 64], stride_map = [64, 4096, 1]>>
!B = tensor<4096x4096xf16, #spyre.layout<device_size = [64, 4096, 64], stride_map = [64, 4096, 1]>>

func.func @hint_in_sticks(%a: !A, %b: !B) -> !A {
  // expected-error @+1 {{'spyre.work_division' [1, 128, 1] is invalid: dim 1 (4096 elements, 64 sticks) is not evenly divisible by split 128}}
  %0 = spyre.matmul %a, %b {spyre.work_division = array<i64: 1, 128, 1>} : !A, !B -> !A
  return %0 : !A
}

// -----

!A = tensor<512x4096xf16, #spyre.layout<device_size = [64, 512, 64], stride_map = [64, 4096, 1]>>
!B = tensor<4096x4096xf16, #spyre.layout<device_size = [64, 4096, 64], stride_map = [64, 4096, 1]>>

func.func @hint_too_many_cores(%a: !A, %b: !B) -> !A {
  // expected-error @+1 {{'spyre.work_division' [8, 8, 1] is invalid: uses 64 cores, more than the 32 available}}
  %0 = spyre.matmul %a, %b {spyre.work_division = array<i64: 8, 8, 1>} : !A, !B -> !A
  return %0 : !A
}

// -----

!big = tensor<32x8192x17408xf16, #spyre.layout<device_size = [8192, 272, 32, 64], stride_map = [17408, 64, 142606336, 1]>>

func.func @hint_breaks_span(%a: !big) -> !big {
  // expected-error @+1 {{'spyre.work_division' [32, 1, 1] is invalid: operand #0 would span 9126805504 bytes per core with splits [32, 1, 1], more than the per-core limit of 268435456 bytes}}
  %0 = spyre.exp %a {spyre.work_division = array<i64: 32, 1, 1>} : (!big) -> !big
  return %0 : !big
}

// -----

// A scratchpad smaller than the smallest tile.
module attributes {spyre.target = #spyre.target<lx_bytes = 256>} {
func.func @lx_overflow(%a: tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>) -> tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>> {
  // expected-error @+1 {{'spyre.exp' op cannot be divided across 32 cores: the smallest tile [1, 64] needs 512 bytes of LX per core, only 204 are available}}
  %0 = spyre.exp %a : (tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>) -> tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
  return %0 : tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
}
}

// -----

// A span smaller than one row of sticks: no split or chunking helps.
module attributes {spyre.target = #spyre.target<span_bytes = 64>} {
func.func @span_impossible(%a: tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>) -> tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>> {
  // expected-error @+1 {{cannot be divided across 32 cores: operand #0 would span}}
  %0 = spyre.exp %a : (tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>) -> tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
  return %0 : tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
}
}

// -----

// Loop trip counts beyond the hardware's: 4096 rows on one core cannot be
// walked in at most 2 tiles within a small LX.
module attributes {spyre.target = #spyre.target<cores = 1, lx_bytes = 65536, max_loop_count = 2>} {
func.func @loop_limit(%a: tensor<4096x64xf16, #spyre.layout<device_size = [1, 4096, 64], stride_map = [64, 64, 1]>>) -> tensor<4096x64xf16, #spyre.layout<device_size = [1, 4096, 64], stride_map = [64, 64, 1]>> {
  // expected-error @+1 {{cannot be divided across 1 cores: no tile of the per-core slice [4096, 64] both fits the 52428 bytes of LX and keeps every loop and DMA trip count within the limit of 2}}
  %0 = spyre.exp %a : (tensor<4096x64xf16, #spyre.layout<device_size = [1, 4096, 64], stride_map = [64, 64, 1]>>) -> tensor<4096x64xf16, #spyre.layout<device_size = [1, 4096, 64], stride_map = [64, 64, 1]>>
  return %0 : tensor<4096x64xf16, #spyre.layout<device_size = [1, 4096, 64], stride_map = [64, 64, 1]>>
}
}
