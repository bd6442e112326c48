// RUN: spyre-opt %s -split-input-file --spyre-plan-memory | FileCheck %s

// Only the outputs of the target's lx_resident_ops may stay in LX between
// kernels. The default is torch-spyre's set (max, amax, sum, exp, sub, mul,
// mean, add, rsqrt): a neg's output goes through the DDR pool even though
// its consumer reads the same slices, an exp's stays in LX.
!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
#rows = #spyre.division<splits = [4, 1], order = [0, 1]>

// CHECK-LABEL: func.func @default_set
// CHECK: spyre.neg {{.*}}spyre.mem = #spyre.mem<pool 0>
// CHECK: spyre.exp {{.*}}spyre.mem = #spyre.mem<lx
// CHECK: spyre.add {{.*}}spyre.mem = #spyre.mem<io 1>
func.func @default_set(%a: !t) -> !t {
  %0 = spyre.neg %a {spyre.division = #rows} : (!t) -> !t
  %1 = spyre.exp %0 {spyre.division = #rows} : (!t) -> !t
  %2 = spyre.add %1, %0 {spyre.division = #rows} : (!t, !t) -> !t
  return %2 : !t
}

// -----

// A target that names its own set: now the neg's output stays in LX and
// the exp's goes through the pool.
!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
#rows = #spyre.division<splits = [4, 1], order = [0, 1]>

module attributes {spyre.target = #spyre.target<lx_resident_ops = ["neg"]>} {
// CHECK-LABEL: func.func @own_set
// CHECK: spyre.neg {{.*}}spyre.mem = #spyre.mem<lx
// CHECK: spyre.exp {{.*}}spyre.mem = #spyre.mem<pool 0>
func.func @own_set(%a: !t) -> !t {
  %0 = spyre.neg %a {spyre.division = #rows} : (!t) -> !t
  %1 = spyre.exp %0 {spyre.division = #rows} : (!t) -> !t
  %2 = spyre.add %1, %0 {spyre.division = #rows} : (!t, !t) -> !t
  return %2 : !t
}
}

// -----

// Ops of a row block (--spyre-fuse-row-blocks) keep their outputs in LX
// whatever they are: the block's copy in (an extract_slice, `identity`) and
// its neg stay in LX, and the insert_slice reads its source from LX and
// writes its box of the io buffer.
!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
!b = tensor<64x256xf16, #spyre.layout<device_size = [4, 64, 64], stride_map = [64, 256, 1]>>
#rows = #spyre.division<splits = [4, 1], order = [0, 1]>

// CHECK-LABEL: func.func @row_block
// CHECK: spyre.empty {spyre.mem = #spyre.mem<io 1>}
// CHECK: spyre.extract_slice {{.*}}spyre.mem = #spyre.mem<lx
// CHECK: spyre.neg {{.*}}spyre.mem = #spyre.mem<lx
// CHECK: spyre.insert_slice %{{.*}} into %{{.*}} offsets = [0, 0] {spyre.division
// Without the group attribute the same neg goes through the pool.
// CHECK: spyre.extract_slice {{.*}}spyre.mem = #spyre.mem<pool
// CHECK: spyre.neg {{.*}}spyre.mem = #spyre.mem<pool
func.func @row_block(%a: !t) -> (!t, !b) {
  %buf = spyre.empty : !t
  %0 = spyre.extract_slice %a offsets = [0, 0] {spyre.division = #rows, spyre.fusion_group = 0 : i64} : !t -> !b
  %1 = spyre.neg %0 {spyre.division = #rows, spyre.fusion_group = 0 : i64} : (!b) -> !b
  %2 = spyre.insert_slice %1 into %buf offsets = [0, 0] {spyre.division = #rows, spyre.fusion_group = 0 : i64} : !b into !t -> !t
  %3 = spyre.extract_slice %a offsets = [64, 0] {spyre.division = #rows} : !t -> !b
  %4 = spyre.neg %3 {spyre.division = #rows} : (!b) -> !b
  %5 = spyre.exp %4 {spyre.division = #rows} : (!b) -> !b
  return %2, %5 : !t, !b
}

// -----

// A matmul in a group with its epilogue (--spyre-fuse-row-blocks) keeps its
// output in LX for the bias add; the same matmul outside a group writes it
// to the pool (torch-spyre's set has no matmul).
!a = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
!w = tensor<256x256xf16, #spyre.layout<device_size = [4, 256, 64], stride_map = [64, 256, 1]>>
#mm = #spyre.division<splits = [4, 1, 1], order = [0, 1, 2]>
#rows = #spyre.division<splits = [4, 1], order = [0, 1]>

// CHECK-LABEL: func.func @epilogue
// CHECK: spyre.matmul {{.*}}spyre.mem = #spyre.mem<lx
// CHECK: spyre.add
// CHECK: spyre.matmul {{.*}}spyre.mem = #spyre.mem<pool
func.func @epilogue(%x: !a, %w: !w) -> (!a, !a) {
  %0 = spyre.matmul %x, %w {spyre.division = #mm, spyre.fusion_group = 0 : i64} : !a, !w -> !a
  %1 = spyre.add %0, %x {spyre.division = #rows, spyre.fusion_group = 0 : i64} : (!a, !a) -> !a
  %2 = spyre.matmul %x, %w {spyre.division = #mm} : !a, !w -> !a
  %3 = spyre.add %2, %x {spyre.division = #rows} : (!a, !a) -> !a
  return %1, %3 : !a, !a
}
