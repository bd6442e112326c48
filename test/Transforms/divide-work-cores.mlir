// RUN: spyre-opt %s --spyre-divide-work=cores=4 | FileCheck %s --check-prefix=CORES4
// RUN: spyre-opt %s --spyre-divide-work=cores=1 | FileCheck %s --check-prefix=CORES1

// The `cores` option caps the cores every op may use.

!a = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
!big = tensor<32x8192x17408xf16, #spyre.layout<device_size = [8192, 272, 32, 64], stride_map = [17408, 64, 142606336, 1]>>

// CORES4-LABEL: func.func @pointwise
// CORES4: spyre.division = #spyre.division<splits = [4, 1], order = [0, 1]>
// CORES1-LABEL: func.func @pointwise
// CORES1: spyre.division = #spyre.division<splits = [1, 1], order = [0, 1]>
func.func @pointwise(%a: !a, %b: !a) -> !a {
  %0 = spyre.add %a, %b : (!a, !a) -> !a
  return %0 : !a
}

// Fewer cores, more chunks: each core must stay within its 256 MiB span.
// CORES4-LABEL: func.func @span
// CORES4: splits = [1, 4, 1], order = [0, 1, 2], chunks = [1, 16, 1]
// CORES1-LABEL: func.func @span
// CORES1: splits = [1, 1, 1], order = [0, 1, 2], chunks = [1, 64, 1]
func.func @span(%a: !big, %b: !big) -> !big {
  %0 = spyre.add %a, %b : (!big, !big) -> !big
  return %0 : !big
}
