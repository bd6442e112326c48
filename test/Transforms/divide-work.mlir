// RUN: spyre-opt %s --spyre-divide-work | FileCheck %s
// RUN: spyre-opt %s --spyre-divide-work=policy=greedy | FileCheck %s --check-prefix=GREEDY
// RUN: spyre-opt --help | FileCheck %s --check-prefix=HELP

// HELP: --spyre-divide-work
// HELP: --cores=
// HELP: --policy=

!a = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
!A = tensor<512x4096xf16, #spyre.layout<device_size = [64, 512, 64], stride_map = [64, 4096, 1]>>
!B = tensor<4096x4096xf16, #spyre.layout<device_size = [64, 4096, 64], stride_map = [64, 4096, 1]>>
!big = tensor<32x8192x17408xf16, #spyre.layout<device_size = [8192, 272, 32, 64], stride_map = [17408, 64, 142606336, 1]>>
!odd = tensor<127x64xf16, #spyre.layout<device_size = [1, 127, 64], stride_map = [64, 64, 1]>>
!wide = tensor<2x65536xf16, #spyre.layout<device_size = [1024, 2, 64], stride_map = [64, 65536, 1]>>
!rows = tensor<2xf16, #spyre.layout<device_size = [2, 64], stride_map = [1, -1]>>
!x = tensor<128x3072xf16, #spyre.layout<device_size = [48, 128, 64], stride_map = [64, 3072, 1]>>
!bias = tensor<3072xf16, #spyre.layout<device_size = [48, 64], stride_map = [64, 1]>>
!t = tensor<256x128xf16, #spyre.layout<device_size = [4, 256, 64], stride_map = [64, 128, 1]>>
!tt = tensor<256x128xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [8192, 1, 128]>>

// The reference's example A: 128 rows split over the cores (the stick dim
// would give each core less than one stick column when 4 <= cores).
// CHECK-LABEL: func.func @pointwise
// CHECK: spyre.add {{.*}}spyre.division = #spyre.division<splits = [32, 1], order = [0, 1]>
// GREEDY-LABEL: func.func @pointwise
// GREEDY: spyre.division = #spyre.division<splits = [32, 1], order = [0, 1]>
func.func @pointwise(%a: !a, %b: !a) -> !a {
  %0 = spyre.add %a, %b : (!a, !a) -> !a
  return %0 : !a
}

// 512x4096 @ 4096x4096: greedy is torch-spyre's planner, whose matmul cost
// model splits M 4 and N 8 ways (its choice on 32 cores); the model, which
// tries greedy's split first, finds nothing faster.
// CHECK-LABEL: func.func @matmul
// CHECK: spyre.matmul {{.*}}splits = [4, 8, 1], order = [0, 1, 2]
// GREEDY-LABEL: func.func @matmul
// GREEDY: spyre.matmul {{.*}}splits = [4, 8, 1], order = [0, 1, 2]
func.func @matmul(%a: !A, %b: !B) -> !A {
  %0 = spyre.matmul %a, %b : !A, !B -> !A
  return %0 : !A
}

// A split k varies fastest in the core id (partial-sum partners are ring
// neighbours).
// CHECK-LABEL: func.func @k_split_hint
// CHECK: spyre.division = #spyre.division<splits = [1, 1, 4], order = [2, 0, 1]>
// CHECK-SAME: spyre.work_division = array<i64: 1, 1, 4>
func.func @k_split_hint(%a: !A, %b: !B) -> !A {
  %0 = spyre.matmul %a, %b {spyre.work_division = array<i64: 1, 1, 4>} : !A, !B -> !A
  return %0 : !A
}

// f16 [32, 8192, 17408] (9.1 GB per tensor): no split of one launch keeps
// every core within the 256 MiB span, so the op runs in chunks.
// CHECK-LABEL: func.func @span
// CHECK: splits = [1, 32, 1], order = [0, 1, 2], chunks = [1, 2, 1]
// GREEDY-LABEL: func.func @span
// GREEDY: splits = [1, 32, 1], order = [0, 1, 2], chunks = [1, 2, 1]
func.func @span(%a: !big, %b: !big) -> !big {
  %0 = spyre.add %a, %b : (!big, !big) -> !big
  return %0 : !big
}

// 127 rows (prime) of one stick: nothing divides; one core.
// CHECK-LABEL: func.func @few_divisors
// CHECK: splits = [1, 1], order = [0, 1]
// GREEDY-LABEL: func.func @few_divisors
// GREEDY: splits = [1, 1], order = [0, 1]
func.func @few_divisors(%a: !odd) -> !odd {
  %0 = spyre.exp %a : (!odd) -> !odd
  return %0 : !odd
}

// A reduction along a long stick: greedy gives the cores left after the
// rows to the reduced dim; partial sums are combined over the ring.
// CHECK-LABEL: func.func @reduction
// CHECK: spyre.sum {{.*}}splits = [2, {{[0-9]+}}], order = [0, 1]
// GREEDY-LABEL: func.func @reduction
// GREEDY: splits = [2, 16], order = [0, 1]
func.func @reduction(%a: !wide) -> !rows {
  %0 = spyre.sum %a dim = 1 : !wide -> !rows
  return %0 : !rows
}

// A consumer takes its producer's division (here forced by a hint) when
// that is within 2% of its own best, so the intermediate can stay in LX; an
// independent op does not.
// CHECK-LABEL: func.func @carry_over
// CHECK: %[[S:.+]] = spyre.add {{.*}}splits = [1, 16], order = [0, 1]
// CHECK: spyre.mul %[[S]], %[[S]] {spyre.division = #spyre.division<splits = [1, 16], order = [0, 1]>}
// CHECK: spyre.mul %arg0, %arg0 {spyre.division = #spyre.division<splits = [32, 1], order = [0, 1]>}
#rows = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
func.func @carry_over(%x: !x, %b: !bias) -> (!x, !x) {
  %0 = spyre.add %x, %b {indexing_maps = [#rows, #row, #rows], spyre.work_division = array<i64: 1, 16>} : (!x, !bias) -> !x
  %1 = spyre.mul %0, %0 : (!x, !x) -> !x
  %2 = spyre.mul %x, %x : (!x, !x) -> !x
  return %1, %2 : !x, !x
}

// A matmul may take its producer's division even when the producer's
// split dim is the matmul's reduction dim (BERT's down projection reading
// the GELU output): costed with that operand read from LX, which those
// slices allow when the producer may keep its output there (the target's
// LX-resident ops, or a fusion group's) and nothing else reads it.
!h = tensor<512x3072xf16, #spyre.layout<device_size = [48, 512, 64], stride_map = [64, 3072, 1]>>
!w = tensor<3072x768xf16, #spyre.layout<device_size = [12, 3072, 64], stride_map = [64, 768, 1]>>
!o = tensor<512x768xf16, #spyre.layout<device_size = [12, 512, 64], stride_map = [64, 768, 1]>>
// CHECK-LABEL: func.func @carry_into_reduction
// CHECK: spyre.exp {{.*}}splits = [4, 8], order = [0, 1]
// CHECK: spyre.matmul {{.*}}splits = [4, 1, 8], order = [0, 2, 1]
func.func @carry_into_reduction(%h: !h, %w: !w) -> !o {
  %0 = spyre.exp %h {spyre.work_division = array<i64: 4, 8>} : (!h) -> !h
  %1 = spyre.matmul %0, %w : !h, !w -> !o
  return %1 : !o
}
// CHECK-LABEL: func.func @carry_into_reduction_group
// CHECK: spyre.matmul {{.*}}splits = [4, 1, 8], order = [0, 2, 1]
func.func @carry_into_reduction_group(%h: !h, %w: !w) -> !o {
  %0 = spyre.gelu %h {spyre.work_division = array<i64: 4, 8>, spyre.fusion_group = 0 : i64} : (!h) -> !h
  %1 = spyre.matmul %0, %w : !h, !w -> !o
  return %1 : !o
}
// A GELU outside a group writes its output to DDR, and so does an output
// the caller reads: read from DDR, the reduction split is not worth it.
// CHECK-LABEL: func.func @no_carry_through_ddr
// CHECK: spyre.matmul {{.*}}splits = [8, 4, 1], order = [0, 1, 2]
func.func @no_carry_through_ddr(%h: !h, %w: !w) -> !o {
  %0 = spyre.gelu %h {spyre.work_division = array<i64: 4, 8>} : (!h) -> !h
  %1 = spyre.matmul %0, %w : !h, !w -> !o
  return %1 : !o
}
// CHECK-LABEL: func.func @no_carry_other_reader
// CHECK: spyre.matmul {{.*}}splits = [8, 4, 1], order = [0, 1, 2]
func.func @no_carry_other_reader(%h: !h, %w: !w) -> (!o, !h) {
  %0 = spyre.exp %h {spyre.work_division = array<i64: 4, 8>} : (!h) -> !h
  %1 = spyre.matmul %0, %w : !h, !w -> !o
  return %1, %0 : !o, !h
}

// Near-ties (within 10%) of a matmul's divisions are broken by the matmul
// that reads its result through elementwise ops only they read: [512, 768] x
// [768, 3072] models the same at m4.n8 and m8.n4 (x is !o's type), but m8.n4 lets the second
// matmul take m8.k4 and read its operand from LX (a four-way combine; m4.k8
// needs eight). With another reader (here the caller) there is nothing to
// gain, and the tie stays with the first.
!w1 = tensor<768x3072xf16, #spyre.layout<device_size = [48, 768, 64], stride_map = [64, 3072, 1]>>
// CHECK-LABEL: func.func @look_ahead
// CHECK: spyre.matmul {{.*}}splits = [8, 4, 1], order = [0, 1, 2]
// CHECK: spyre.exp {{.*}}splits = [8, 4], order = [0, 1]
// CHECK: spyre.mul {{.*}}splits = [8, 4], order = [0, 1]
// CHECK: spyre.matmul {{.*}}splits = [8, 1, 4], order = [0, 2, 1]
func.func @look_ahead(%x: !o, %w1: !w1, %w2: !w) -> !o {
  %0 = spyre.matmul %x, %w1 : !o, !w1 -> !h
  %1 = spyre.exp %0 : (!h) -> !h
  %2 = spyre.mul %1, %0 : (!h, !h) -> !h
  %3 = spyre.matmul %2, %w2 : !h, !w -> !o
  return %3 : !o
}
// CHECK-LABEL: func.func @no_look_ahead_other_reader
// CHECK: spyre.matmul {{.*}}splits = [4, 8, 1], order = [0, 1, 2]
// CHECK: spyre.matmul {{.*}}splits = [8, 4, 1], order = [0, 1, 2]
func.func @no_look_ahead_other_reader(%x: !o, %w1: !w1, %w2: !w) -> (!o, !h) {
  %0 = spyre.matmul %x, %w1 : !o, !w1 -> !h
  %1 = spyre.exp %0 : (!h) -> !h
  %2 = spyre.matmul %1, %w2 : !h, !w -> !o
  return %2, %1 : !o, !h
}

// Restickify is divided like any op, in whole sticks of both layouts.
// CHECK-LABEL: func.func @restickify
// CHECK: spyre.restickify {{.*}}spyre.division = #spyre.division<splits = [{{[0-9]+}}, {{[0-9]+}}], order = [0, 1]>
func.func @restickify(%a: !t) -> !tt {
  %0 = spyre.restickify %a : !t -> !tt
  return %0 : !tt
}

// Ops on host tensors stay undivided.
// CHECK-LABEL: func.func @host
// CHECK: spyre.add %arg0, %arg1 : (tensor<8x8xf16>
// CHECK-NOT: spyre.division
func.func @host(%a: tensor<8x8xf16>, %b: tensor<8x8xf16>) -> tensor<8x8xf16> {
  %0 = spyre.add %a, %b : (tensor<8x8xf16>, tensor<8x8xf16>) -> tensor<8x8xf16>
  return %0 : tensor<8x8xf16>
}

// A box written into a buffer something else reads (here an argument,
// written twice) is written into a copy: an in-place write must own its
// destination. A fresh spyre.empty is written directly.
!dest = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
!box = tensor<64x128xf16, #spyre.layout<device_size = [2, 64, 64], stride_map = [64, 128, 1]>>
// CHECK-LABEL: func.func @insert_copies_shared_destination
// CHECK: %[[C1:.*]] = spyre.identity %arg0 {spyre.division
// CHECK: spyre.insert_slice %arg1 into %[[C1]]
// CHECK: %[[C2:.*]] = spyre.identity %arg0 {spyre.division
// CHECK: spyre.insert_slice %arg1 into %[[C2]]
// CHECK: %[[E:.*]] = spyre.empty
// CHECK-NOT: spyre.identity
// CHECK: spyre.insert_slice %arg1 into %[[E]]
func.func @insert_copies_shared_destination(%x: !dest, %y: !box) -> (!dest, !dest, !dest) {
  %s = spyre.insert_slice %y into %x offsets = [32, 64] : !box into !dest -> !dest
  %t = spyre.insert_slice %y into %x offsets = [0, 0] : !box into !dest -> !dest
  %e = spyre.empty : !dest
  %u = spyre.insert_slice %y into %e offsets = [64, 128] : !box into !dest -> !dest
  return %s, %t, %u : !dest, !dest, !dest
}

// A matmul whose every reader is in its fusion group (its bias add, as
// GPT-2's Q, K and V projections) keeps its result in LX for them: its
// store is no part of its cost. Reading the LayerNorm's output from LX
// with the norm's row split (32 rows each: 16-row tiles that leave the PT
// half idle) only looked cheaper while both sides paid that store; with it
// gone, the matmul's own split wins and reads the norm's output from DDR
// (GPT-2 s512: 185.7 -> 176.2 us).
!xe = tensor<512x768xf16, #spyre.layout<device_size = [12, 512, 64], stride_map = [64, 768, 1]>>
!wq = tensor<768x768xf16, #spyre.layout<device_size = [12, 768, 64], stride_map = [64, 768, 1]>>
!bq = tensor<768xf16, #spyre.layout<device_size = [12, 64], stride_map = [64, 1]>>
// CHECK-LABEL: func.func @epilogue_result_in_lx
// CHECK: spyre.mul {{.*}}splits = [32, 1]
// CHECK: spyre.matmul {{.*}}splits = [8, 4, 1], order = [0, 1, 2]
// CHECK: spyre.add {{.*}}splits = [8, 4]
// Outside a group the result is stored, and the row split read from LX
// stays within the preference's slack.
// CHECK-LABEL: func.func @result_stored
// CHECK: spyre.matmul {{.*}}splits = [32, 1, 1]
func.func @epilogue_result_in_lx(%x: !xe, %w: !wq, %b: !bq) -> !xe {
  %n = spyre.mul %x, %x {spyre.work_division = array<i64: 32, 1>, spyre.fusion_group = 0 : i64} : (!xe, !xe) -> !xe
  %q = spyre.matmul %n, %w {spyre.fusion_group = 1 : i64} : !xe, !wq -> !xe
  %r = spyre.add %q, %b {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], spyre.fusion_group = 1 : i64} : (!xe, !bq) -> !xe
  return %r : !xe
}
func.func @result_stored(%x: !xe, %w: !wq) -> !xe {
  %n = spyre.mul %x, %x {spyre.work_division = array<i64: 32, 1>, spyre.fusion_group = 0 : i64} : (!xe, !xe) -> !xe
  %q = spyre.matmul %n, %w : !xe, !wq -> !xe
  return %q : !xe
}

// The two in one function: the choices are remembered per op signature,
// and whether the result stays in LX is part of it (the second matmul,
// with the same types and the same preference, took the first's division).
// CHECK-LABEL: func.func @kept_and_stored
// CHECK: spyre.matmul {{.*}}splits = [8, 4, 1], order = [0, 1, 2]
// CHECK: spyre.matmul {{.*}}splits = [32, 1, 1]
func.func @kept_and_stored(%x: !xe, %w: !wq, %b: !bq) -> (!xe, !xe) {
  %n = spyre.mul %x, %x {spyre.work_division = array<i64: 32, 1>, spyre.fusion_group = 0 : i64} : (!xe, !xe) -> !xe
  %q = spyre.matmul %n, %w {spyre.fusion_group = 1 : i64} : !xe, !wq -> !xe
  %r = spyre.add %q, %b {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], spyre.fusion_group = 1 : i64} : (!xe, !bq) -> !xe
  %m = spyre.mul %x, %x {spyre.work_division = array<i64: 32, 1>, spyre.fusion_group = 0 : i64} : (!xe, !xe) -> !xe
  %s = spyre.matmul %m, %w : !xe, !wq -> !xe
  return %r, %s : !xe, !xe
}

// An op reading a result through views (the head split of Q) orders its
// slices so that each core reads the device box its producer left it, when
// some order does: the order decides which core takes which slice, not what
// a slice costs. Q's add by 4 x 4 (rows fastest) leaves core c rows
// 32 * (c % 4) of head c / 4; the batch matmul's 4 heads x 4 row slices
// take the rows fastest too, and the scale after it, whose hint fixes the
// same splits, takes its producer's order with them.
// CHECK-LABEL: func.func @ordered_like_a_viewed_producer
// CHECK: spyre.add {{.*}}spyre.division = #spyre.division<splits = [4, 4], order = [0, 1]>
// CHECK: spyre.batch_matmul {{.*}}spyre.division = #spyre.division<splits = [4, 4, 1, 1], order = [1, 0, 2, 3]>
// CHECK: spyre.mul {{.*}}spyre.division = #spyre.division<splits = [4, 4, 1], order = [1, 0, 2]>
!vq = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
!vq3 = tensor<128x4x64xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
!vqh = tensor<4x128x64xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [8192, 64, 1]>>
!vkt = tensor<4x128x64xf16, #spyre.layout<device_size = [64, 2, 4, 64], stride_map = [1, 4096, 8192, 64]>>
!vsc = tensor<4x128x128xf16, #spyre.layout<device_size = [128, 2, 4, 64], stride_map = [128, 64, 16384, 1]>>
!vb = tensor<256xf16, #spyre.layout<device_size = [4, 64], stride_map = [64, 1]>>
!vs = tensor<f16, #spyre.layout<device_size = [1, 64], stride_map = [-1, -1]>>
func.func @ordered_like_a_viewed_producer(%x: !vq, %b: !vb, %k: !vkt, %s: !vs) -> !vsc {
  %0 = spyre.add %x, %b {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], spyre.work_division = array<i64: 4, 4>} : (!vq, !vb) -> !vq
  %1 = spyre.reshape %0 : !vq -> !vq3
  %2 = spyre.transpose %1 permutation = [1, 0, 2] : !vq3 -> !vqh
  %3 = spyre.batch_matmul %2, %k {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], spyre.work_division = array<i64: 4, 4, 1, 1>} : !vqh, !vkt -> !vsc
  %4 = spyre.mul %3, %s {spyre.work_division = array<i64: 4, 4, 1>} : (!vsc, !vs) -> !vsc
  return %4 : !vsc
}

// Without a producer's slices to carry over, an op prefers a division whose
// slices of a result it reads through views are the device boxes the
// producer left the cores, costed with that operand read from LX, when it
// leaves its own result as its best would: the attention's output (here an
// exp over [12 heads, 512, 64], by 4 heads x 8 row slices, rows fastest
// like the add it reads) read by the output projection with its K split by
// heads, m8.k4, instead of m8.n4 reading it from DDR. Its sums are then
// scattered to m8.n4 all the same.
// CHECK-LABEL: func.func @reads_a_viewed_result_from_lx
// CHECK: spyre.exp {{.*}}spyre.division = #spyre.division<splits = [4, 8, 1], order = [1, 0, 2]>
// CHECK: spyre.matmul {{.*}}spyre.division = #spyre.division<splits = [8, 1, 4], order = [0, 2, 1]>
!wx = tensor<512x768xf16, #spyre.layout<device_size = [12, 512, 64], stride_map = [64, 768, 1]>>
!wx3 = tensor<512x12x64xf16, #spyre.layout<device_size = [12, 512, 64], stride_map = [64, 768, 1]>>
!wh = tensor<12x512x64xf16, #spyre.layout<device_size = [12, 512, 64], stride_map = [32768, 64, 1]>>
!ww = tensor<768x768xf16, #spyre.layout<device_size = [12, 768, 64], stride_map = [49152, 1, 768]>>
func.func @reads_a_viewed_result_from_lx(%x: !wx, %y: !wx, %w: !ww) -> !wx {
  %0 = spyre.add %x, %y {spyre.work_division = array<i64: 8, 4>} : (!wx, !wx) -> !wx
  %1 = spyre.reshape %0 : !wx -> !wx3
  %2 = spyre.transpose %1 permutation = [1, 0, 2] : !wx3 -> !wh
  %3 = spyre.exp %2 {spyre.work_division = array<i64: 4, 8, 1>} : (!wh) -> !wh
  %4 = spyre.transpose %3 permutation = [1, 0, 2] : !wh -> !wx3
  %5 = spyre.reshape %4 : !wx3 -> !wx
  %6 = spyre.matmul %5, %w {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]} : !wx, !ww -> !wx
  return %6 : !wx
}

// Not when another reader of that result already took other slices (here a
// projection split by rows only): the result goes through DDR for it
// anyway, and the second projection keeps its own best, m8.n4.
// CHECK-LABEL: func.func @viewed_result_read_elsewhere
// CHECK: spyre.matmul {{.*}}spyre.division = #spyre.division<splits = [32, 1, 1]
// CHECK: spyre.matmul {{.*}}spyre.division = #spyre.division<splits = [8, 4, 1], order = [0, 1, 2]>
func.func @viewed_result_read_elsewhere(%x: !wx, %y: !wx, %w: !ww) -> (!wx, !wx) {
  %0 = spyre.add %x, %y {spyre.work_division = array<i64: 8, 4>} : (!wx, !wx) -> !wx
  %1 = spyre.reshape %0 : !wx -> !wx3
  %2 = spyre.transpose %1 permutation = [1, 0, 2] : !wx3 -> !wh
  %3 = spyre.exp %2 {spyre.work_division = array<i64: 4, 8, 1>} : (!wh) -> !wh
  %4 = spyre.transpose %3 permutation = [1, 0, 2] : !wh -> !wx3
  %5 = spyre.reshape %4 : !wx3 -> !wx
  %6 = spyre.matmul %5, %w {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], spyre.work_division = array<i64: 32, 1, 1>} : !wx, !ww -> !wx
  %7 = spyre.matmul %5, %w {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]} : !wx, !ww -> !wx
  return %6, %7 : !wx, !wx
}

// A fusion group's first op, its splits fixed by its hint and its order
// asked for by nothing, orders its cores for a kernel outside the group
// that reads a group op's result through views: with the heads fastest
// (the default) the projection could read the group's output from LX only
// with its K fastest, which scatters its sums by rows; with the rows
// fastest, carried through the group, it takes m8.k4 and reads it there
// (GPT-2's attention, whose Q comes from c_attn's thirds: s512 166.6 ->
// 162.1 us).
// CHECK-LABEL: func.func @group_ordered_for_its_reader
// CHECK: spyre.exp {{.*}}spyre.division = #spyre.division<splits = [4, 8, 1], order = [1, 0, 2]>
// CHECK: spyre.neg {{.*}}spyre.division = #spyre.division<splits = [4, 8, 1], order = [1, 0, 2]>
// CHECK: spyre.matmul {{.*}}spyre.division = #spyre.division<splits = [8, 1, 4], order = [0, 2, 1]>
!gx = tensor<512x768xf16, #spyre.layout<device_size = [12, 512, 64], stride_map = [64, 768, 1]>>
!gx3 = tensor<512x12x64xf16, #spyre.layout<device_size = [12, 512, 64], stride_map = [64, 768, 1]>>
!gh = tensor<12x512x64xf16, #spyre.layout<device_size = [12, 512, 64], stride_map = [32768, 64, 1]>>
!gw = tensor<768x768xf16, #spyre.layout<device_size = [12, 768, 64], stride_map = [49152, 1, 768]>>
func.func @group_ordered_for_its_reader(%h: !gh, %w: !gw) -> !gx {
  %0 = spyre.exp %h {spyre.work_division = array<i64: 4, 8, 1>, spyre.fusion_group = 0 : i64} : (!gh) -> !gh
  %1 = spyre.neg %0 {spyre.work_division = array<i64: 4, 8, 1>, spyre.fusion_group = 0 : i64} : (!gh) -> !gh
  %2 = spyre.transpose %1 permutation = [1, 0, 2] : !gh -> !gx3
  %3 = spyre.reshape %2 : !gx3 -> !gx
  %4 = spyre.matmul %3, %w {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]} : !gx, !gw -> !gx
  return %4 : !gx
}
