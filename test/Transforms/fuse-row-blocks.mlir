// RUN: spyre-opt %s --split-input-file --spyre-fuse-row-blocks=cores=1 | FileCheck %s
// RUN: spyre-opt %s --split-input-file --spyre-fuse-row-blocks=cores=2 | FileCheck %s --check-prefix=TWO
// RUN: spyre-opt %s --split-input-file --spyre-fuse-row-blocks | FileCheck %s --check-prefix=ATT
// RUN: spyre-opt %s --split-input-file --spyre-fuse-row-blocks=cores=8 | FileCheck %s --check-prefix=ATT8
// RUN: spyre-opt --help | FileCheck %s --check-prefix=HELP

// HELP: --spyre-fuse-row-blocks
// HELP: --cores=

!x = tensor<512x1024xf16, #spyre.layout<device_size = [16, 512, 64], stride_map = [64, 1024, 1]>>
!r = tensor<512xf16, #spyre.layout<device_size = [1, 512, 64], stride_map = [-1, 1, -1]>>

// Softmax over 512x1024 f16 (1 MiB per tensor) does not fit one core's LX
// with its intermediates: it runs in 8 blocks of 64 rows (8 x 128 KiB x 4
// tensors stays within half the usable LX). Each block copies its rows in
// and runs the six ops on them; the last writes its rows straight into the
// result's buffer (typed as that buffer's block, with its strides), so the
// insert copies nothing.
// CHECK-LABEL: func.func @softmax
// CHECK-SAME: (%[[X:.*]]: tensor<512x1024xf16
// CHECK: %[[BUF:.*]] = spyre.empty : tensor<512x1024xf16
// CHECK: %[[IN0:.*]] = spyre.extract_slice %[[X]] offsets = [0, 0] {spyre.fusion_group = 0 : i64, spyre.work_division = array<i64: 1, 1>} : {{.*}} -> tensor<64x1024xf16, #spyre.layout<device_size = [16, 64, 64], stride_map = [64, 1024, 1]>>
// CHECK: %[[M:.*]] = spyre.max %[[IN0]] dim = 1 {spyre.fusion_group = 0 : i64} : {{.*}} -> tensor<64xf16, #spyre.layout<device_size = [1, 64, 64], stride_map = [-1, 1, -1]>>
// CHECK: spyre.sub %[[IN0]], %[[M]] {{.*}}spyre.fusion_group = 0
// CHECK: spyre.exp
// CHECK: spyre.sum
// CHECK: spyre.reciprocal
// CHECK: %[[Y0:.*]] = spyre.mul {{.*}} -> tensor<64x1024xf16, #spyre.layout<device_size = [16, 512, 64], stride_map = [64, 1024, 1]>>
// CHECK: %[[OUT0:.*]] = spyre.insert_slice %[[Y0]] into %[[BUF]] offsets = [0, 0] :
// CHECK: spyre.extract_slice %[[X]] offsets = [64, 0]
// CHECK: spyre.insert_slice %{{.*}} into %[[OUT0]] offsets = [64, 0]
// CHECK-COUNT-6: spyre.extract_slice
// CHECK: %[[LAST:.*]] = spyre.insert_slice {{.*}} offsets = [448, 0]
// CHECK-NEXT: return %[[LAST]]
// On two cores the blocks are twice as tall, their rows split in two.
// TWO-LABEL: func.func @softmax
// TWO: spyre.extract_slice {{.*}}offsets = [0, 0] {spyre.fusion_group = 0 : i64, spyre.work_division = array<i64: 2, 1>} : {{.*}} -> tensor<128x1024xf16
// TWO-COUNT-3: spyre.extract_slice
// TWO-NOT: spyre.extract_slice
// TWO: return
func.func @softmax(%x: !x) -> !x {
  %0 = spyre.max %x dim = 1 : !x -> !r
  %1 = spyre.sub %x, %0 {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>]} : (!x, !r) -> !x
  %2 = spyre.exp %1 : (!x) -> !x
  %3 = spyre.sum %2 dim = 1 : !x -> !r
  %4 = spyre.reciprocal %3 : (!r) -> !r
  %5 = spyre.mul %2, %4 {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>]} : (!x, !r) -> !x
  return %5 : !x
}

// -----

!x = tensor<512x1024xf16, #spyre.layout<device_size = [16, 512, 64], stride_map = [64, 1024, 1]>>
!w = tensor<1024xf16, #spyre.layout<device_size = [16, 64], stride_map = [64, 1]>>
!r = tensor<512xf16, #spyre.layout<device_size = [1, 512, 64], stride_map = [-1, 1, -1]>>

// RMSNorm with a weight every row reads whole: the weight is read by each
// block as it is; the row statistic the caller also receives is a second
// result of the group, written block by block into its own buffer.
// CHECK-LABEL: func.func @rmsnorm_two_results
// CHECK-SAME: (%[[X:.*]]: tensor<512x1024xf16{{.*}}, %[[W:.*]]: tensor<1024xf16
// CHECK-DAG: %[[SBUF:.*]] = spyre.empty : tensor<512xf16
// CHECK-DAG: %[[YBUF:.*]] = spyre.empty : tensor<512x1024xf16
// CHECK: %[[IN:.*]] = spyre.extract_slice %[[X]] offsets = [0, 0]
// CHECK: spyre.mul %{{.*}}, %[[W]] {{.*}}spyre.fusion_group = 0
// CHECK-DAG: spyre.insert_slice %{{.*}} into %[[SBUF]] offsets = [0]
// CHECK-DAG: spyre.insert_slice %{{.*}} into %[[YBUF]] offsets = [0, 0]
// CHECK: return
func.func @rmsnorm_two_results(%x: !x, %w: !w) -> (!x, !r) {
  %0 = spyre.mul %x, %x : (!x, !x) -> !x
  %1 = spyre.mean %0 dim = 1 : !x -> !r
  %2 = spyre.rsqrt %1 : (!r) -> !r
  %3 = spyre.mul %x, %2 {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>]} : (!x, !r) -> !x
  %4 = spyre.mul %3, %w {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>]} : (!x, !w) -> !x
  return %4, %2 : !x, !r
}

// -----

!s = tensor<64x1024xf16, #spyre.layout<device_size = [16, 64, 64], stride_map = [64, 1024, 1]>>
!r = tensor<64xf16, #spyre.layout<device_size = [1, 64, 64], stride_map = [-1, 1, -1]>>

// A group whose tensors fit LX together runs whole, as one group with its
// rows split alike in every op, when that pays: here x, which max and sub
// both read, is copied into LX once (one DDR read instead of two).
// CHECK-LABEL: func.func @fits
// CHECK-SAME: (%[[X:.*]]: tensor<64x1024xf16
// CHECK-NOT: spyre.extract_slice
// CHECK: %[[C:.*]] = spyre.identity %[[X]] {spyre.fusion_group = [[G:[0-9]+]] : i64, spyre.work_division = array<i64: 1, 1>}
// CHECK: spyre.max %[[C]] dim = 1 {spyre.fusion_group = [[G]] : i64, spyre.work_division = array<i64: 1, 1>}
// CHECK: spyre.sub %[[C]], %{{.*}} {{.*}}spyre.fusion_group = [[G]] : i64
// CHECK: spyre.exp {{.*}}spyre.fusion_group = [[G]] : i64
// CHECK-NOT: spyre.extract_slice
// CHECK: return
func.func @fits(%x: !s) -> !s {
  %0 = spyre.max %x dim = 1 : !s -> !r
  %1 = spyre.sub %x, %0 {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>]} : (!s, !r) -> !s
  %2 = spyre.exp %1 : (!s) -> !s
  return %2 : !s
}

// -----

!t = tensor<1024x512xf16, #spyre.layout<device_size = [512, 16, 64], stride_map = [1, 32768, 512]>>
!c = tensor<512xf16, #spyre.layout<device_size = [8, 64], stride_map = [64, 1]>>

// Rows that are the stick dim (a transposed layout) are not cut: the
// blocks run along host dim 1 instead, whose positions are the outermost
// device dim. Each block's bytes are then one contiguous range of x's
// (64 device rows of 16 sticks): the block is a view of x, no copy (and no
// kernel attributes), and the first op of the block takes the split a copy
// would have carried over.
// CHECK-LABEL: func.func @rows_on_the_stick
// CHECK: %[[B:.*]] = spyre.extract_slice %{{.*}} offsets = [0, 0] : tensor<1024x512xf16, {{.*}} -> tensor<1024x64xf16, #spyre.layout<device_size = [64, 16, 64], stride_map = [1, 4096, 64]>>
// CHECK-NEXT: spyre.exp %[[B]] {spyre.fusion_group = {{[0-9]+}} : i64, spyre.work_division = array<i64: 1, 1>}
// CHECK: spyre.extract_slice %{{.*}} offsets = [0, 64] :
// CHECK: return
func.func @rows_on_the_stick(%x: !t) -> !t {
  %0 = spyre.exp %x : (!t) -> !t
  %1 = spyre.exp %0 : (!t) -> !t
  %2 = spyre.exp %1 : (!t) -> !t
  return %2 : !t
}

!n = tensor<1024x512xf16, #spyre.layout<device_size = [8, 1024, 64], stride_map = [64, 512, 1]>>
// CHECK-LABEL: func.func @rows_not_on_the_stick
// CHECK: spyre.extract_slice
// CHECK: return
func.func @rows_not_on_the_stick(%x: !n) -> !n {
  %0 = spyre.exp %x : (!n) -> !n
  %1 = spyre.exp %0 : (!n) -> !n
  %2 = spyre.exp %1 : (!n) -> !n
  return %2 : !n
}

// -----

!a = tensor<512x1024xf16, #spyre.layout<device_size = [16, 512, 64], stride_map = [64, 1024, 1]>>
!b = tensor<1024x1024xf16, #spyre.layout<device_size = [16, 1024, 64], stride_map = [64, 1024, 1]>>

// A matmul never joins (its weight would be read once per block); the
// elementwise chain after it does, reading the matmul's result by rows.
// CHECK-LABEL: func.func @matmul_then_chain
// CHECK: %[[MM:.*]] = spyre.matmul
// CHECK-NOT: fusion_group
// CHECK: spyre.extract_slice %[[MM]] offsets = [0, 0]
// CHECK: return
func.func @matmul_then_chain(%a: !a, %b: !b, %c: !a) -> !a {
  %0 = spyre.matmul %a, %b : !a, !b -> !a
  %1 = spyre.add %0, %c : (!a, !a) -> !a
  %2 = spyre.sigmoid %1 : (!a) -> !a
  %3 = spyre.mul %1, %2 : (!a, !a) -> !a
  return %3 : !a
}

// -----

!a = tensor<128x768xf16, #spyre.layout<device_size = [12, 128, 64], stride_map = [64, 768, 1]>>
!w = tensor<768x768xf16, #spyre.layout<device_size = [12, 768, 64], stride_map = [64, 768, 1]>>
!b = tensor<768xf16, #spyre.layout<device_size = [12, 64], stride_map = [64, 1]>>
!r = tensor<128xf16, #spyre.layout<device_size = [1, 128, 64], stride_map = [-1, 1, -1]>>

// Matmul epilogues: a matmul whose users are all elementwise ops (the bias
// add here) joins a group with them, without blocks, so that its output may
// stay in LX for them; the activation after the bias is not a user of the
// matmul and keeps its own rule. A matmul read by a reduction does not.
// CHECK-LABEL: func.func @epilogue
// CHECK: spyre.matmul {{.*}}{spyre.fusion_group = [[G:[0-9]+]] : i64}
// CHECK: spyre.add {{.*}}spyre.fusion_group = [[G]] : i64
// CHECK: spyre.gelu
// CHECK-NOT: fusion_group
// CHECK: spyre.matmul
// CHECK-NOT: fusion_group
// CHECK: spyre.sum
// CHECK: return
func.func @epilogue(%x: !a, %w: !w, %bias: !b) -> (!a, !r) {
  %0 = spyre.matmul %x, %w : !a, !w -> !a
  %1 = spyre.add %0, %bias {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>]} : (!a, !b) -> !a
  %2 = spyre.gelu %1 : (!a) -> !a
  %3 = spyre.matmul %x, %w : !a, !w -> !a
  %4 = spyre.sum %3 dim = 1 : !a -> !r
  return %2, %4 : !a, !r
}

// -----

!a = tensor<512x768xf16, #spyre.layout<device_size = [12, 512, 64], stride_map = [64, 768, 1]>>
!w = tensor<768x3072xf16, #spyre.layout<device_size = [48, 768, 64], stride_map = [64, 3072, 1]>>
!h = tensor<512x3072xf16, #spyre.layout<device_size = [48, 512, 64], stride_map = [64, 3072, 1]>>
!b = tensor<3072xf16, #spyre.layout<device_size = [48, 64], stride_map = [64, 1]>>

// An elementwise chain that is all a matmul's output feeds (GPT-2's
// up-projection, its bias and a tanh GELU, here with a sigmoid gate
// after it) has tensors that exceed half the cores' LX together (ten of
// 3 MiB), but only two or three are live at once: run whole as the
// matmul's epilogue, one fusion group without blocks, the matmul's output
// and every intermediate may stay in LX, which beats blocks of the chain
// alone (the matmul's output would go to DDR and be copied back in).
// ATT-LABEL: func.func @gelu_chain_epilogue
// ATT-NOT: spyre.extract_slice
// ATT: spyre.matmul {{.*}}{spyre.fusion_group = [[G:[0-9]+]] : i64}
// ATT-COUNT-9: fusion_group = [[G]] : i64
// ATT-NOT: spyre.extract_slice
// ATT-NOT: spyre.insert_slice
// ATT: return
func.func @gelu_chain_epilogue(%x: !a, %w: !w, %bias: !b) -> !h {
  %0 = spyre.matmul %x, %w : !a, !w -> !h
  %1 = spyre.add %0, %bias {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>]} : (!h, !b) -> !h
  %2 = spyre.mul %1, %1 : (!h, !h) -> !h
  %3 = spyre.mul %2, %1 : (!h, !h) -> !h
  %4 = spyre.add %1, %3 : (!h, !h) -> !h
  %5 = spyre.tanh %4 : (!h) -> !h
  %6 = spyre.add %5, %1 : (!h, !h) -> !h
  %7 = spyre.mul %6, %1 : (!h, !h) -> !h
  %8 = spyre.sigmoid %7 : (!h) -> !h
  %9 = spyre.mul %8, %7 : (!h, !h) -> !h
  return %9 : !h
}

// -----

// Attention with 12 heads x 512 queries. On 32 cores the tensors live at
// once (two 6 MiB score tensors, never all eight of the group's results)
// fit half the cores' LX: the attention runs whole, one group whose ops all
// split the heads 4 ways and the queries 8 ways, nothing sliced.
// ATT-LABEL: func.func @attention
// ATT-NOT: spyre.extract_slice
// ATT: %[[S:.*]] = spyre.batch_matmul %arg0, %arg1 {{.*}}spyre.fusion_group = [[G:[0-9]+]] : i64, spyre.work_division = array<i64: 4, 8, 1, 1>}
// ATT-COUNT-6: spyre.fusion_group = [[G]] : i64, spyre.work_division = array<i64: 4, 8
// ATT-NEXT: spyre.batch_matmul {{.*}}, %arg2 {spyre.fusion_group = [[G]] : i64, spyre.work_division = array<i64: 4, 8, 1, 1>}
// ATT-NOT: spyre.insert_slice
// ATT: return
// On 8 cores they do not, and the heads cannot be cut into blocks every
// core shares evenly, so each block takes 2 heads and splits them 2 ways
// and their queries 4 ways. Both batch matmuls join the block (cut along
// their batch dim, nothing is read twice): per block Q, K and V are read in
// place, the scores, the softmax and P.V stay in LX, and the result is
// written out. The heads are not the outermost device dim, so a block of
// heads is not one range of bytes: it is a strided view, laid out with the
// whole tensor's device dims (the other heads are its padding), and the
// first batch matmul takes the split a copy would have had.
// ATT8-LABEL: func.func @attention
// ATT8: spyre.empty
// ATT8: %[[Q:.*]] = spyre.extract_slice %arg0 offsets = [0, 0, 0] : {{.*}} -> tensor<2x512x64xf16, #spyre.layout<device_size = [512, 1, 12, 64], stride_map = [64, 64, 32768, 1]>>
// ATT8: %[[K:.*]] = spyre.extract_slice %arg1 offsets = [0, 0, 0] : {{.*}} -> tensor<2x512x64xf16, #spyre.layout<device_size = [64, 8, 12, 64], stride_map = [1, 4096, 32768, 64]>>
// ATT8: %[[V:.*]] = spyre.extract_slice %arg2 offsets = [0, 0, 0] :
// ATT8: %[[S:.*]] = spyre.batch_matmul %[[Q]], %[[K]] {{.*}}spyre.fusion_group = [[G:[0-9]+]] : i64, spyre.work_division = array<i64: 2, 4, 1, 1>} : {{.*}} -> tensor<2x512x512xf16
// ATT8: spyre.max %[[S]]
// ATT8: %[[P:.*]] = spyre.mul
// ATT8: %[[O:.*]] = spyre.batch_matmul %[[P]], %[[V]] {spyre.fusion_group = [[G]] : i64}
// ATT8: spyre.insert_slice %[[O]] into %{{.*}} offsets = [0, 0, 0]
// ATT8: spyre.extract_slice %arg0 offsets = [2, 0, 0]
// ATT8: spyre.extract_slice %arg1 offsets = [2, 0, 0]
// ATT8: spyre.extract_slice %arg2 offsets = [2, 0, 0]
// ATT8-COUNT-12: spyre.extract_slice
// ATT8-NOT: spyre.extract_slice
// ATT8: return
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map4 = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @attention(%arg0: tensor<12x512x64xf16, #spyre.layout<device_size = [512, 1, 12, 64], stride_map = [64, 64, 32768, 1]>>, %arg1: tensor<12x512x64xf16, #spyre.layout<device_size = [64, 8, 12, 64], stride_map = [1, 4096, 32768, 64]>>, %arg2: tensor<12x512x64xf16, #spyre.layout<device_size = [512, 1, 12, 64], stride_map = [64, 64, 32768, 1]>>) -> tensor<12x512x64xf16, #spyre.layout<device_size = [512, 1, 12, 64], stride_map = [64, 64, 32768, 1]>> {
  %0 = spyre.batch_matmul %arg0, %arg1 {indexing_maps = [#map, #map1, #map2]} : tensor<12x512x64xf16, #spyre.layout<device_size = [512, 1, 12, 64], stride_map = [64, 64, 32768, 1]>>, tensor<12x512x64xf16, #spyre.layout<device_size = [64, 8, 12, 64], stride_map = [1, 4096, 32768, 64]>> -> tensor<12x512x512xf16, #spyre.layout<device_size = [512, 8, 12, 64], stride_map = [512, 64, 262144, 1]>>
  %1 = spyre.max %0 dim = 2 : tensor<12x512x512xf16, #spyre.layout<device_size = [512, 8, 12, 64], stride_map = [512, 64, 262144, 1]>> -> tensor<12x512xf16, #spyre.layout<device_size = [512, 1, 12, 64], stride_map = [1, -1, 512, -1]>>
  %2 = spyre.sub %0, %1 {indexing_maps = [#map3, #map4, #map3]} : (tensor<12x512x512xf16, #spyre.layout<device_size = [512, 8, 12, 64], stride_map = [512, 64, 262144, 1]>>, tensor<12x512xf16, #spyre.layout<device_size = [512, 1, 12, 64], stride_map = [1, -1, 512, -1]>>) -> tensor<12x512x512xf16, #spyre.layout<device_size = [512, 8, 12, 64], stride_map = [512, 64, 262144, 1]>>
  %3 = spyre.exp %2 : (tensor<12x512x512xf16, #spyre.layout<device_size = [512, 8, 12, 64], stride_map = [512, 64, 262144, 1]>>) -> tensor<12x512x512xf16, #spyre.layout<device_size = [512, 8, 12, 64], stride_map = [512, 64, 262144, 1]>>
  %4 = spyre.sum %3 dim = 2 : tensor<12x512x512xf16, #spyre.layout<device_size = [512, 8, 12, 64], stride_map = [512, 64, 262144, 1]>> -> tensor<12x512xf16, #spyre.layout<device_size = [512, 1, 12, 64], stride_map = [1, -1, 512, -1]>>
  %5 = spyre.reciprocal %4 : (tensor<12x512xf16, #spyre.layout<device_size = [512, 1, 12, 64], stride_map = [1, -1, 512, -1]>>) -> tensor<12x512xf16, #spyre.layout<device_size = [512, 1, 12, 64], stride_map = [1, -1, 512, -1]>>
  %6 = spyre.mul %3, %5 {indexing_maps = [#map3, #map4, #map3]} : (tensor<12x512x512xf16, #spyre.layout<device_size = [512, 8, 12, 64], stride_map = [512, 64, 262144, 1]>>, tensor<12x512xf16, #spyre.layout<device_size = [512, 1, 12, 64], stride_map = [1, -1, 512, -1]>>) -> tensor<12x512x512xf16, #spyre.layout<device_size = [512, 8, 12, 64], stride_map = [512, 64, 262144, 1]>>
  %7 = spyre.batch_matmul %6, %arg2 : tensor<12x512x512xf16, #spyre.layout<device_size = [512, 8, 12, 64], stride_map = [512, 64, 262144, 1]>>, tensor<12x512x64xf16, #spyre.layout<device_size = [512, 1, 12, 64], stride_map = [64, 64, 32768, 1]>> -> tensor<12x512x64xf16, #spyre.layout<device_size = [512, 1, 12, 64], stride_map = [64, 64, 32768, 1]>>
  return %7 : tensor<12x512x64xf16, #spyre.layout<device_size = [512, 1, 12, 64], stride_map = [64, 64, 32768, 1]>>
}

// -----

// The same attention with Q, K and V head-major, as a projection and a head
// split leave them (device dims [heads, 512, 64]), K restickified for Q.K^T
// (device dims [64, 8, heads, 64]). On 32 cores it runs whole, K
// restickified whole before it.
// ATT-LABEL: func.func @attention_head_major
// ATT: spyre.restickify %arg1 :
// ATT-NOT: spyre.extract_slice
// ATT: spyre.batch_matmul %arg0, %{{.*}}spyre.fusion_group = [[G:[0-9]+]] : i64, spyre.work_division = array<i64: 4, 8, 1, 1>}
// ATT: spyre.batch_matmul %{{.*}}, %arg2 {spyre.fusion_group = [[G]] : i64
// ATT: return
// On 8 cores, in blocks of 2 heads: a block of heads of Q or V is one
// contiguous range of their bytes: a view, no copy; the first batch matmul
// takes the split (2 x 4) the copy of Q would have carried over. K's
// restickify, read only by the blocks, is done block by block on a view of
// K's heads (each block's K moved once, not restickified whole and then
// copied out), and the whole restickify is gone.
// ATT8-LABEL: func.func @attention_head_major
// ATT8-NOT: spyre.restickify %arg1
// ATT8: %[[Q:.*]] = spyre.extract_slice %arg0 offsets = [0, 0, 0] : {{.*}} -> tensor<2x512x64xf16, #spyre.layout<device_size = [2, 512, 64], stride_map = [32768, 64, 1]>>
// ATT8: %[[KB:.*]] = spyre.extract_slice %arg1 offsets = [0, 0, 0] : {{.*}} -> tensor<2x512x64xf16, #spyre.layout<device_size = [2, 512, 64], stride_map = [32768, 64, 1]>>
// ATT8: %[[K:.*]] = spyre.restickify %[[KB]] {spyre.fusion_group = [[G:[0-9]+]] : i64} : {{.*}} -> tensor<2x512x64xf16, #spyre.layout<device_size = [64, 8, 2, 64], stride_map = [1, 4096, 32768, 64]>>
// ATT8: %[[V:.*]] = spyre.extract_slice %arg2 offsets = [0, 0, 0] :
// ATT8: spyre.batch_matmul %[[Q]], %[[K]] {{{.*}}spyre.fusion_group = [[G]] : i64, spyre.work_division = array<i64: 2, 4, 1, 1>}
// ATT8: spyre.batch_matmul %{{.*}}, %[[V]] {spyre.fusion_group = [[G]] : i64}
// ATT8: spyre.extract_slice %arg0 offsets = [2, 0, 0] :
// ATT8: %[[KB2:.*]] = spyre.extract_slice %arg1 offsets = [2, 0, 0] :
// ATT8-NEXT: spyre.restickify %[[KB2]]
// ATT8-COUNT-4: spyre.restickify
// ATT8-NOT: spyre.restickify
// ATT8: return
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map4 = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @attention_head_major(%arg0: tensor<12x512x64xf16, #spyre.layout<device_size = [12, 512, 64], stride_map = [32768, 64, 1]>>, %arg1: tensor<12x512x64xf16, #spyre.layout<device_size = [12, 512, 64], stride_map = [32768, 64, 1]>>, %arg2: tensor<12x512x64xf16, #spyre.layout<device_size = [12, 512, 64], stride_map = [32768, 64, 1]>>) -> tensor<12x512x64xf16, #spyre.layout<device_size = [512, 1, 12, 64], stride_map = [64, 64, 32768, 1]>> {
  %kt = spyre.restickify %arg1 : tensor<12x512x64xf16, #spyre.layout<device_size = [12, 512, 64], stride_map = [32768, 64, 1]>> -> tensor<12x512x64xf16, #spyre.layout<device_size = [64, 8, 12, 64], stride_map = [1, 4096, 32768, 64]>>
  %0 = spyre.batch_matmul %arg0, %kt {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>]} : tensor<12x512x64xf16, #spyre.layout<device_size = [12, 512, 64], stride_map = [32768, 64, 1]>>, tensor<12x512x64xf16, #spyre.layout<device_size = [64, 8, 12, 64], stride_map = [1, 4096, 32768, 64]>> -> tensor<12x512x512xf16, #spyre.layout<device_size = [512, 8, 12, 64], stride_map = [512, 64, 262144, 1]>>
  %1 = spyre.max %0 dim = 2 : tensor<12x512x512xf16, #spyre.layout<device_size = [512, 8, 12, 64], stride_map = [512, 64, 262144, 1]>> -> tensor<12x512xf16, #spyre.layout<device_size = [512, 1, 12, 64], stride_map = [1, -1, 512, -1]>>
  %2 = spyre.sub %0, %1 {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>]} : (tensor<12x512x512xf16, #spyre.layout<device_size = [512, 8, 12, 64], stride_map = [512, 64, 262144, 1]>>, tensor<12x512xf16, #spyre.layout<device_size = [512, 1, 12, 64], stride_map = [1, -1, 512, -1]>>) -> tensor<12x512x512xf16, #spyre.layout<device_size = [512, 8, 12, 64], stride_map = [512, 64, 262144, 1]>>
  %3 = spyre.exp %2 : (tensor<12x512x512xf16, #spyre.layout<device_size = [512, 8, 12, 64], stride_map = [512, 64, 262144, 1]>>) -> tensor<12x512x512xf16, #spyre.layout<device_size = [512, 8, 12, 64], stride_map = [512, 64, 262144, 1]>>
  %4 = spyre.sum %3 dim = 2 : tensor<12x512x512xf16, #spyre.layout<device_size = [512, 8, 12, 64], stride_map = [512, 64, 262144, 1]>> -> tensor<12x512xf16, #spyre.layout<device_size = [512, 1, 12, 64], stride_map = [1, -1, 512, -1]>>
  %5 = spyre.reciprocal %4 : (tensor<12x512xf16, #spyre.layout<device_size = [512, 1, 12, 64], stride_map = [1, -1, 512, -1]>>) -> tensor<12x512xf16, #spyre.layout<device_size = [512, 1, 12, 64], stride_map = [1, -1, 512, -1]>>
  %6 = spyre.mul %3, %5 {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>]} : (tensor<12x512x512xf16, #spyre.layout<device_size = [512, 8, 12, 64], stride_map = [512, 64, 262144, 1]>>, tensor<12x512xf16, #spyre.layout<device_size = [512, 1, 12, 64], stride_map = [1, -1, 512, -1]>>) -> tensor<12x512x512xf16, #spyre.layout<device_size = [512, 8, 12, 64], stride_map = [512, 64, 262144, 1]>>
  %7 = spyre.batch_matmul %6, %arg2 : tensor<12x512x512xf16, #spyre.layout<device_size = [512, 8, 12, 64], stride_map = [512, 64, 262144, 1]>>, tensor<12x512x64xf16, #spyre.layout<device_size = [12, 512, 64], stride_map = [32768, 64, 1]>> -> tensor<12x512x64xf16, #spyre.layout<device_size = [512, 1, 12, 64], stride_map = [64, 64, 32768, 1]>>
  return %7 : tensor<12x512x64xf16, #spyre.layout<device_size = [512, 1, 12, 64], stride_map = [64, 64, 32768, 1]>>
}

// -----

// BERT's post-LN: a projection, its bias, the residual add and the
// LayerNorm. The row group of the LayerNorm joins the projection's
// epilogue group (the projection and its elementwise readers): every op's
// rows split 32 ways as the LayerNorm's, so the residual sum the LayerNorm
// reads twice is made in LX and read there (no copy of it), instead of
// going to DDR and being copied back.
// ATT-LABEL: func.func @post_ln
// ATT: spyre.matmul {{.*}}spyre.fusion_group = [[G:[0-9]+]] : i64, spyre.work_division = array<i64: 32, 1, 1>}
// ATT: %[[B:.*]] = spyre.add {{.*}}spyre.fusion_group = [[G]] : i64, spyre.work_division = array<i64: 32, 1>}
// ATT: %[[R:.*]] = spyre.add %arg1, %[[B]] {spyre.fusion_group = [[G]] : i64, spyre.work_division = array<i64: 32, 1>}
// ATT-NOT: spyre.identity
// ATT: spyre.sum %[[R]] dim = 1 {spyre.fusion_group = [[G]] : i64
// ATT: spyre.sub %[[R]], {{.*}}spyre.fusion_group = [[G]] : i64
// ATT: spyre.rsqrt {{.*}}spyre.fusion_group = [[G]] : i64
// ATT: return
func.func @post_ln(%arg0: tensor<512x768xf16, #spyre.layout<device_size = [12, 512, 64], stride_map = [64, 768, 1]>>, %arg1: tensor<512x768xf16, #spyre.layout<device_size = [12, 512, 64], stride_map = [64, 768, 1]>>, %arg2: tensor<768x768xf16, #spyre.layout<device_size = [12, 768, 64], stride_map = [49152, 1, 768]>>, %arg3: tensor<768xf16, #spyre.layout<device_size = [12, 64], stride_map = [64, 1]>>, %arg4: tensor<768xf16, #spyre.layout<device_size = [12, 64], stride_map = [64, 1]>>, %arg5: tensor<768xf16, #spyre.layout<device_size = [12, 64], stride_map = [64, 1]>>) -> tensor<512x768xf16, #spyre.layout<device_size = [12, 512, 64], stride_map = [64, 768, 1]>> {
  %0 = spyre.constant dense<1.001360e-05> : tensor<f16> -> tensor<f16, #spyre.layout<device_size = [1, 64], stride_map = [-1, -1]>>
  %1 = spyre.constant dense<7.680000e+02> : tensor<f16> -> tensor<f16, #spyre.layout<device_size = [1, 64], stride_map = [-1, -1]>>
  %2 = spyre.matmul %arg0, %arg2 {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]} : tensor<512x768xf16, #spyre.layout<device_size = [12, 512, 64], stride_map = [64, 768, 1]>>, tensor<768x768xf16, #spyre.layout<device_size = [12, 768, 64], stride_map = [49152, 1, 768]>> -> tensor<512x768xf16, #spyre.layout<device_size = [12, 512, 64], stride_map = [64, 768, 1]>>
  %3 = spyre.add %2, %arg3 {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>]} : (tensor<512x768xf16, #spyre.layout<device_size = [12, 512, 64], stride_map = [64, 768, 1]>>, tensor<768xf16, #spyre.layout<device_size = [12, 64], stride_map = [64, 1]>>) -> tensor<512x768xf16, #spyre.layout<device_size = [12, 512, 64], stride_map = [64, 768, 1]>>
  %4 = spyre.add %arg1, %3 : (tensor<512x768xf16, #spyre.layout<device_size = [12, 512, 64], stride_map = [64, 768, 1]>>, tensor<512x768xf16, #spyre.layout<device_size = [12, 512, 64], stride_map = [64, 768, 1]>>) -> tensor<512x768xf16, #spyre.layout<device_size = [12, 512, 64], stride_map = [64, 768, 1]>>
  %5 = spyre.sum %4 dim = 1 : tensor<512x768xf16, #spyre.layout<device_size = [12, 512, 64], stride_map = [64, 768, 1]>> -> tensor<512xf16, #spyre.layout<device_size = [1, 512, 64], stride_map = [-1, 1, -1]>>
  %6 = spyre.div %5, %1 : (tensor<512xf16, #spyre.layout<device_size = [1, 512, 64], stride_map = [-1, 1, -1]>>, tensor<f16, #spyre.layout<device_size = [1, 64], stride_map = [-1, -1]>>) -> tensor<512xf16, #spyre.layout<device_size = [1, 512, 64], stride_map = [-1, 1, -1]>>
  %7 = spyre.sub %4, %6 {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>]} : (tensor<512x768xf16, #spyre.layout<device_size = [12, 512, 64], stride_map = [64, 768, 1]>>, tensor<512xf16, #spyre.layout<device_size = [1, 512, 64], stride_map = [-1, 1, -1]>>) -> tensor<512x768xf16, #spyre.layout<device_size = [12, 512, 64], stride_map = [64, 768, 1]>>
  %8 = spyre.mul %7, %7 : (tensor<512x768xf16, #spyre.layout<device_size = [12, 512, 64], stride_map = [64, 768, 1]>>, tensor<512x768xf16, #spyre.layout<device_size = [12, 512, 64], stride_map = [64, 768, 1]>>) -> tensor<512x768xf16, #spyre.layout<device_size = [12, 512, 64], stride_map = [64, 768, 1]>>
  %9 = spyre.sum %8 dim = 1 : tensor<512x768xf16, #spyre.layout<device_size = [12, 512, 64], stride_map = [64, 768, 1]>> -> tensor<512xf16, #spyre.layout<device_size = [1, 512, 64], stride_map = [-1, 1, -1]>>
  %10 = spyre.div %9, %1 : (tensor<512xf16, #spyre.layout<device_size = [1, 512, 64], stride_map = [-1, 1, -1]>>, tensor<f16, #spyre.layout<device_size = [1, 64], stride_map = [-1, -1]>>) -> tensor<512xf16, #spyre.layout<device_size = [1, 512, 64], stride_map = [-1, 1, -1]>>
  %11 = spyre.add %10, %0 : (tensor<512xf16, #spyre.layout<device_size = [1, 512, 64], stride_map = [-1, 1, -1]>>, tensor<f16, #spyre.layout<device_size = [1, 64], stride_map = [-1, -1]>>) -> tensor<512xf16, #spyre.layout<device_size = [1, 512, 64], stride_map = [-1, 1, -1]>>
  %12 = spyre.rsqrt %11 : (tensor<512xf16, #spyre.layout<device_size = [1, 512, 64], stride_map = [-1, 1, -1]>>) -> tensor<512xf16, #spyre.layout<device_size = [1, 512, 64], stride_map = [-1, 1, -1]>>
  %13 = spyre.mul %7, %12 {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>]} : (tensor<512x768xf16, #spyre.layout<device_size = [12, 512, 64], stride_map = [64, 768, 1]>>, tensor<512xf16, #spyre.layout<device_size = [1, 512, 64], stride_map = [-1, 1, -1]>>) -> tensor<512x768xf16, #spyre.layout<device_size = [12, 512, 64], stride_map = [64, 768, 1]>>
  %14 = spyre.mul %13, %arg4 {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>]} : (tensor<512x768xf16, #spyre.layout<device_size = [12, 512, 64], stride_map = [64, 768, 1]>>, tensor<768xf16, #spyre.layout<device_size = [12, 64], stride_map = [64, 1]>>) -> tensor<512x768xf16, #spyre.layout<device_size = [12, 512, 64], stride_map = [64, 768, 1]>>
  %15 = spyre.add %14, %arg5 {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>]} : (tensor<512x768xf16, #spyre.layout<device_size = [12, 512, 64], stride_map = [64, 768, 1]>>, tensor<768xf16, #spyre.layout<device_size = [12, 64], stride_map = [64, 1]>>) -> tensor<512x768xf16, #spyre.layout<device_size = [12, 512, 64], stride_map = [64, 768, 1]>>
  return %15 : tensor<512x768xf16, #spyre.layout<device_size = [12, 512, 64], stride_map = [64, 768, 1]>>
}

// -----

!xa = tensor<512x4096xf16, #spyre.layout<device_size = [64, 512, 64], stride_map = [64, 4096, 1]>>
!wa = tensor<4096x11008xf16, #spyre.layout<device_size = [172, 4096, 64], stride_map = [64, 11008, 1]>>
!ha = tensor<512x11008xf16, #spyre.layout<device_size = [172, 512, 64], stride_map = [64, 11008, 1]>>

// Llama's SwiGLU at sequence 512: an elementwise chain that is all two
// matmuls' outputs feed (the gate and up projections) is costed as their
// epilogue, one group with both, against row blocks of the chain alone
// (whose four [512, 11008] tensors exceed half the cores' LX); the group
// keeps the projections' outputs in LX for the chain.
// ATT-LABEL: func.func @swiglu_epilogue
// ATT-NOT: spyre.extract_slice
// ATT: spyre.matmul {{.*}}{spyre.fusion_group = [[G:[0-9]+]] : i64}
// ATT: spyre.matmul {{.*}}{spyre.fusion_group = [[G]] : i64}
// ATT: spyre.silu {{.*}}{spyre.fusion_group = [[G]] : i64}
// ATT: spyre.mul {{.*}}{spyre.fusion_group = [[G]] : i64}
// ATT-NOT: spyre.insert_slice
// ATT: return
func.func @swiglu_epilogue(%x: !xa, %wg: !wa, %wu: !wa) -> !ha {
  %g = spyre.matmul %x, %wg : !xa, !wa -> !ha
  %u = spyre.matmul %x, %wu : !xa, !wa -> !ha
  %s = spyre.silu %g : (!ha) -> !ha
  %y = spyre.mul %s, %u : (!ha, !ha) -> !ha
  return %y : !ha
}

// -----

// A projection, the residual add and the RMSNorm after it (Llama's second
// norm), 512x4096 f16 on 32 cores. The residual add is the matmul's
// epilogue (the matmul's output stays in LX for it) and the norm runs whole
// as a group of its own, its rows split alike and the residual copied into
// LX once: the add and the square no longer join the matmul as its
// epilogue chain, which left the norm's other ops reading the residual and
// the squares from DDR (spyre-run --model-only: 363.9 -> 281.3 us).
// ATT-LABEL: func.func @proj_residual_rmsnorm
// ATT: spyre.matmul {{.*}}spyre.fusion_group = [[E:[0-9]+]]
// ATT-NEXT: spyre.add {{.*}}spyre.fusion_group = [[E]]
// ATT-NEXT: spyre.identity {{.*}}spyre.fusion_group = [[N:[0-9]+]]
// ATT-NEXT: spyre.mul {{.*}}spyre.fusion_group = [[N]]
// ATT-NEXT: spyre.sum {{.*}}spyre.fusion_group = [[N]]
// ATT-NEXT: spyre.div {{.*}}spyre.fusion_group = [[N]]
// ATT-NEXT: spyre.add {{.*}}spyre.fusion_group = [[N]]
// ATT-NEXT: spyre.rsqrt {{.*}}spyre.fusion_group = [[N]]
// ATT-NEXT: spyre.mul {{.*}}spyre.fusion_group = [[N]]
// ATT-NEXT: spyre.mul {{.*}}spyre.fusion_group = [[N]]
func.func @proj_residual_rmsnorm(%arg0: tensor<512x4096xf16, #spyre.layout<device_size = [64, 512, 64], stride_map = [64, 4096, 1]>>, %arg1: tensor<4096x4096xf16, #spyre.layout<device_size = [64, 4096, 64], stride_map = [262144, 1, 4096]>>, %arg2: tensor<512x4096xf16, #spyre.layout<device_size = [64, 512, 64], stride_map = [64, 4096, 1]>>, %arg3: tensor<4096xf16, #spyre.layout<device_size = [64, 64], stride_map = [64, 1]>>) -> (tensor<512x4096xf16, #spyre.layout<device_size = [64, 512, 64], stride_map = [64, 4096, 1]>>, tensor<512x4096xf16, #spyre.layout<device_size = [64, 512, 64], stride_map = [64, 4096, 1]>>) {
  %0 = spyre.constant dense<1.001360e-05> : tensor<f16> -> tensor<f16, #spyre.layout<device_size = [1, 64], stride_map = [-1, -1]>>
  %1 = spyre.constant dense<4.096000e+03> : tensor<f16> -> tensor<f16, #spyre.layout<device_size = [1, 64], stride_map = [-1, -1]>>
  %2 = spyre.matmul %arg0, %arg1 {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]} : tensor<512x4096xf16, #spyre.layout<device_size = [64, 512, 64], stride_map = [64, 4096, 1]>>, tensor<4096x4096xf16, #spyre.layout<device_size = [64, 4096, 64], stride_map = [262144, 1, 4096]>> -> tensor<512x4096xf16, #spyre.layout<device_size = [64, 512, 64], stride_map = [64, 4096, 1]>>
  %3 = spyre.add %arg2, %2 : (tensor<512x4096xf16, #spyre.layout<device_size = [64, 512, 64], stride_map = [64, 4096, 1]>>, tensor<512x4096xf16, #spyre.layout<device_size = [64, 512, 64], stride_map = [64, 4096, 1]>>) -> tensor<512x4096xf16, #spyre.layout<device_size = [64, 512, 64], stride_map = [64, 4096, 1]>>
  %4 = spyre.mul %3, %3 : (tensor<512x4096xf16, #spyre.layout<device_size = [64, 512, 64], stride_map = [64, 4096, 1]>>, tensor<512x4096xf16, #spyre.layout<device_size = [64, 512, 64], stride_map = [64, 4096, 1]>>) -> tensor<512x4096xf16, #spyre.layout<device_size = [64, 512, 64], stride_map = [64, 4096, 1]>>
  %5 = spyre.sum %4 dim = 1 : tensor<512x4096xf16, #spyre.layout<device_size = [64, 512, 64], stride_map = [64, 4096, 1]>> -> tensor<512xf16, #spyre.layout<device_size = [1, 512, 64], stride_map = [-1, 1, -1]>>
  %6 = spyre.div %5, %1 : (tensor<512xf16, #spyre.layout<device_size = [1, 512, 64], stride_map = [-1, 1, -1]>>, tensor<f16, #spyre.layout<device_size = [1, 64], stride_map = [-1, -1]>>) -> tensor<512xf16, #spyre.layout<device_size = [1, 512, 64], stride_map = [-1, 1, -1]>>
  %7 = spyre.add %6, %0 : (tensor<512xf16, #spyre.layout<device_size = [1, 512, 64], stride_map = [-1, 1, -1]>>, tensor<f16, #spyre.layout<device_size = [1, 64], stride_map = [-1, -1]>>) -> tensor<512xf16, #spyre.layout<device_size = [1, 512, 64], stride_map = [-1, 1, -1]>>
  %8 = spyre.rsqrt %7 : (tensor<512xf16, #spyre.layout<device_size = [1, 512, 64], stride_map = [-1, 1, -1]>>) -> tensor<512xf16, #spyre.layout<device_size = [1, 512, 64], stride_map = [-1, 1, -1]>>
  %9 = spyre.mul %3, %8 {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>]} : (tensor<512x4096xf16, #spyre.layout<device_size = [64, 512, 64], stride_map = [64, 4096, 1]>>, tensor<512xf16, #spyre.layout<device_size = [1, 512, 64], stride_map = [-1, 1, -1]>>) -> tensor<512x4096xf16, #spyre.layout<device_size = [64, 512, 64], stride_map = [64, 4096, 1]>>
  %10 = spyre.mul %9, %arg3 {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>]} : (tensor<512x4096xf16, #spyre.layout<device_size = [64, 512, 64], stride_map = [64, 4096, 1]>>, tensor<4096xf16, #spyre.layout<device_size = [64, 64], stride_map = [64, 1]>>) -> tensor<512x4096xf16, #spyre.layout<device_size = [64, 512, 64], stride_map = [64, 4096, 1]>>
  return %3, %10 : tensor<512x4096xf16, #spyre.layout<device_size = [64, 512, 64], stride_map = [64, 4096, 1]>>, tensor<512x4096xf16, #spyre.layout<device_size = [64, 512, 64], stride_map = [64, 4096, 1]>>
}

// -----

// A softmax over [10, 256, 256] on 32 cores runs whole, split across all
// the cores alike in every op, the input copied into LX once: by its rows
// (dim 1), or by 2 blocks of heads and 16 of rows (the cut along the heads
// with the rest of the cores on the rows; the two tie). Cut along the 10
// heads alone (10 cores) it does not pay. The same ops cut along another
// dim are another candidate (they were taken for the one cut already
// costed). IREE's e2e softmax at f16: 23.8 -> 14.5 us.
// ATT-LABEL: func.func @softmax_by_rows
// ATT: spyre.identity %arg0 {spyre.fusion_group = [[G:[0-9]+]] : i64, spyre.work_division = array<i64: [[S:1, 32|2, 16]], 1>}
// ATT: spyre.max {{.*}}spyre.fusion_group = [[G]] : i64, spyre.work_division = array<i64: [[S]], 1>}
// ATT: spyre.mul {{.*}}spyre.fusion_group = [[G]] : i64, spyre.work_division = array<i64: [[S]], 1>}
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#rows3 = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @softmax_by_rows(%arg0: tensor<10x256x256xf16, #spyre.layout<device_size = [256, 4, 10, 64], stride_map = [256, 64, 65536, 1]>>) -> tensor<10x256x256xf16, #spyre.layout<device_size = [256, 4, 10, 64], stride_map = [256, 64, 65536, 1]>> {
  %0 = spyre.max %arg0 dim = 2 : tensor<10x256x256xf16, #spyre.layout<device_size = [256, 4, 10, 64], stride_map = [256, 64, 65536, 1]>> -> tensor<10x256xf16, #spyre.layout<device_size = [256, 1, 10, 64], stride_map = [1, -1, 256, -1]>>
  %1 = spyre.sub %arg0, %0 {indexing_maps = [#id3, #rows3, #id3]} : (tensor<10x256x256xf16, #spyre.layout<device_size = [256, 4, 10, 64], stride_map = [256, 64, 65536, 1]>>, tensor<10x256xf16, #spyre.layout<device_size = [256, 1, 10, 64], stride_map = [1, -1, 256, -1]>>) -> tensor<10x256x256xf16, #spyre.layout<device_size = [256, 4, 10, 64], stride_map = [256, 64, 65536, 1]>>
  %2 = spyre.exp %1 : (tensor<10x256x256xf16, #spyre.layout<device_size = [256, 4, 10, 64], stride_map = [256, 64, 65536, 1]>>) -> tensor<10x256x256xf16, #spyre.layout<device_size = [256, 4, 10, 64], stride_map = [256, 64, 65536, 1]>>
  %3 = spyre.sum %2 dim = 2 : tensor<10x256x256xf16, #spyre.layout<device_size = [256, 4, 10, 64], stride_map = [256, 64, 65536, 1]>> -> tensor<10x256xf16, #spyre.layout<device_size = [256, 1, 10, 64], stride_map = [1, -1, 256, -1]>>
  %4 = spyre.reciprocal %3 : (tensor<10x256xf16, #spyre.layout<device_size = [256, 1, 10, 64], stride_map = [1, -1, 256, -1]>>) -> tensor<10x256xf16, #spyre.layout<device_size = [256, 1, 10, 64], stride_map = [1, -1, 256, -1]>>
  %5 = spyre.mul %2, %4 {indexing_maps = [#id3, #rows3, #id3]} : (tensor<10x256x256xf16, #spyre.layout<device_size = [256, 4, 10, 64], stride_map = [256, 64, 65536, 1]>>, tensor<10x256xf16, #spyre.layout<device_size = [256, 1, 10, 64], stride_map = [1, -1, 256, -1]>>) -> tensor<10x256x256xf16, #spyre.layout<device_size = [256, 4, 10, 64], stride_map = [256, 64, 65536, 1]>>
  return %5 : tensor<10x256x256xf16, #spyre.layout<device_size = [256, 4, 10, 64], stride_map = [256, 64, 65536, 1]>>
}

// -----

// torch-mlir's SDPA on [2, 12, 64, 64]: Q.K^T and P.V run on the batch and
// heads merged ([24, ...], reshapes of the arguments), V reshaped where
// P.V reads it - after the softmax began. The reshape (a view) moves up
// next to its argument, so P.V joins the group: the whole attention is one
// group, its 24 heads split across 24 of the 32 cores (not 8, the most
// that divide both), every intermediate in LX.
// ATT-LABEL: func.func @attention_merged_heads
// ATT: %[[Q:.*]] = spyre.reshape %arg0
// ATT-NEXT: %[[K:.*]] = spyre.reshape %arg1
// ATT-NEXT: %[[V:.*]] = spyre.reshape %arg2
// ATT-NEXT: spyre.batch_matmul %[[Q]], %[[K]] {{.*}}spyre.fusion_group = [[G:[0-9]+]] : i64, spyre.work_division = array<i64: 24, 1, 1, 1>}
// ATT: spyre.mul {{.*}}spyre.fusion_group = [[G]] : i64, spyre.work_division = array<i64: 24, 1, 1>}
// ATT-NEXT: spyre.batch_matmul %{{.*}}, %[[V]] {spyre.fusion_group = [[G]] : i64, spyre.work_division = array<i64: 24, 1, 1, 1>}
func.func @attention_merged_heads(%arg0: tensor<2x12x64x64xf16, #spyre.layout<device_size = [64, 1, 2, 12, 64], stride_map = [64, 64, 49152, 4096, 1]>>, %arg1: tensor<2x12x64x64xf16, #spyre.layout<device_size = [64, 1, 2, 12, 64], stride_map = [1, 4096, 49152, 4096, 64]>>, %arg2: tensor<2x12x64x64xf16, #spyre.layout<device_size = [64, 1, 2, 12, 64], stride_map = [64, 64, 49152, 4096, 1]>>) -> tensor<2x12x64x64xf16, #spyre.layout<device_size = [64, 1, 2, 12, 64], stride_map = [64, 64, 49152, 4096, 1]>> {
  %0 = spyre.reshape %arg0 : tensor<2x12x64x64xf16, #spyre.layout<device_size = [64, 1, 2, 12, 64], stride_map = [64, 64, 49152, 4096, 1]>> -> tensor<24x64x64xf16, #spyre.layout<device_size = [64, 1, 24, 64], stride_map = [64, 64, 4096, 1]>>
  %1 = spyre.reshape %arg1 : tensor<2x12x64x64xf16, #spyre.layout<device_size = [64, 1, 2, 12, 64], stride_map = [1, 4096, 49152, 4096, 64]>> -> tensor<24x64x64xf16, #spyre.layout<device_size = [64, 1, 24, 64], stride_map = [1, 4096, 4096, 64]>>
  %2 = spyre.batch_matmul %0, %1 {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>]} : tensor<24x64x64xf16, #spyre.layout<device_size = [64, 1, 24, 64], stride_map = [64, 64, 4096, 1]>>, tensor<24x64x64xf16, #spyre.layout<device_size = [64, 1, 24, 64], stride_map = [1, 4096, 4096, 64]>> -> tensor<24x64x64xf16, #spyre.layout<device_size = [64, 1, 24, 64], stride_map = [64, 64, 4096, 1]>>
  %3 = spyre.max %2 dim = 2 : tensor<24x64x64xf16, #spyre.layout<device_size = [64, 1, 24, 64], stride_map = [64, 64, 4096, 1]>> -> tensor<24x64xf16, #spyre.layout<device_size = [64, 1, 24, 64], stride_map = [1, -1, 64, -1]>>
  %4 = spyre.sub %2, %3 {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>]} : (tensor<24x64x64xf16, #spyre.layout<device_size = [64, 1, 24, 64], stride_map = [64, 64, 4096, 1]>>, tensor<24x64xf16, #spyre.layout<device_size = [64, 1, 24, 64], stride_map = [1, -1, 64, -1]>>) -> tensor<24x64x64xf16, #spyre.layout<device_size = [64, 1, 24, 64], stride_map = [64, 64, 4096, 1]>>
  %5 = spyre.exp %4 : (tensor<24x64x64xf16, #spyre.layout<device_size = [64, 1, 24, 64], stride_map = [64, 64, 4096, 1]>>) -> tensor<24x64x64xf16, #spyre.layout<device_size = [64, 1, 24, 64], stride_map = [64, 64, 4096, 1]>>
  %6 = spyre.sum %5 dim = 2 : tensor<24x64x64xf16, #spyre.layout<device_size = [64, 1, 24, 64], stride_map = [64, 64, 4096, 1]>> -> tensor<24x64xf16, #spyre.layout<device_size = [64, 1, 24, 64], stride_map = [1, -1, 64, -1]>>
  %7 = spyre.reciprocal %6 : (tensor<24x64xf16, #spyre.layout<device_size = [64, 1, 24, 64], stride_map = [1, -1, 64, -1]>>) -> tensor<24x64xf16, #spyre.layout<device_size = [64, 1, 24, 64], stride_map = [1, -1, 64, -1]>>
  %8 = spyre.mul %5, %7 {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>]} : (tensor<24x64x64xf16, #spyre.layout<device_size = [64, 1, 24, 64], stride_map = [64, 64, 4096, 1]>>, tensor<24x64xf16, #spyre.layout<device_size = [64, 1, 24, 64], stride_map = [1, -1, 64, -1]>>) -> tensor<24x64x64xf16, #spyre.layout<device_size = [64, 1, 24, 64], stride_map = [64, 64, 4096, 1]>>
  %9 = spyre.reshape %arg2 : tensor<2x12x64x64xf16, #spyre.layout<device_size = [64, 1, 2, 12, 64], stride_map = [64, 64, 49152, 4096, 1]>> -> tensor<24x64x64xf16, #spyre.layout<device_size = [64, 1, 24, 64], stride_map = [64, 64, 4096, 1]>>
  %10 = spyre.batch_matmul %8, %9 : tensor<24x64x64xf16, #spyre.layout<device_size = [64, 1, 24, 64], stride_map = [64, 64, 4096, 1]>>, tensor<24x64x64xf16, #spyre.layout<device_size = [64, 1, 24, 64], stride_map = [64, 64, 4096, 1]>> -> tensor<24x64x64xf16, #spyre.layout<device_size = [64, 1, 24, 64], stride_map = [64, 64, 4096, 1]>>
  %11 = spyre.reshape %10 : tensor<24x64x64xf16, #spyre.layout<device_size = [64, 1, 24, 64], stride_map = [64, 64, 4096, 1]>> -> tensor<2x12x64x64xf16, #spyre.layout<device_size = [64, 1, 2, 12, 64], stride_map = [64, 64, 49152, 4096, 1]>>
  return %11 : tensor<2x12x64x64xf16, #spyre.layout<device_size = [64, 1, 2, 12, 64], stride_map = [64, 64, 49152, 4096, 1]>>
}


// -----

// The same attention with torch-mlir's padding mask [2, 1, 1, 64]: the mask
// is broadcast over the heads (--spyre-canonicalize-shapes) where the add
// read it, after Q.K^T. The broadcast moves up next to its input, with the
// reshapes, so the add - and the whole attention - is one group again.
// ATT-LABEL: func.func @attention_merged_heads_mask
// ATT: spyre.reshape %arg3
// ATT-NEXT: %[[B:.*]] = spyre.identity
// ATT-NEXT: %[[M:.*]] = spyre.reshape %[[B]]
// ATT: spyre.batch_matmul {{.*}}spyre.fusion_group = [[G:[0-9]+]] : i64, spyre.work_division = array<i64: 24, 1, 1, 1>}
// ATT: spyre.add %{{.*}}, %[[M]] {{.*}}spyre.fusion_group = [[G]] : i64, spyre.work_division = array<i64: 24, 1, 1>}
// ATT: spyre.batch_matmul {{.*}}spyre.fusion_group = [[G]] : i64, spyre.work_division = array<i64: 24, 1, 1, 1>}
func.func @attention_merged_heads_mask(%arg0: tensor<2x12x64x64xf16, #spyre.layout<device_size = [64, 1, 2, 12, 64], stride_map = [64, 64, 49152, 4096, 1]>>, %arg1: tensor<2x12x64x64xf16, #spyre.layout<device_size = [64, 1, 2, 12, 64], stride_map = [1, 4096, 49152, 4096, 64]>>, %arg2: tensor<2x12x64x64xf16, #spyre.layout<device_size = [64, 1, 2, 12, 64], stride_map = [64, 64, 49152, 4096, 1]>>, %arg3: tensor<2x1x1x64xf16, #spyre.layout<device_size = [1, 1, 1, 2, 64], stride_map = [-1, -1, 64, 64, 1]>>) -> tensor<2x12x64x64xf16, #spyre.layout<device_size = [64, 1, 2, 12, 64], stride_map = [64, 64, 49152, 4096, 1]>> {
  %0 = spyre.constant dense<1.250000e-01> : tensor<f16> -> tensor<f16, #spyre.layout<device_size = [1, 64], stride_map = [-1, -1]>>
  %1 = spyre.reshape %arg0 : tensor<2x12x64x64xf16, #spyre.layout<device_size = [64, 1, 2, 12, 64], stride_map = [64, 64, 49152, 4096, 1]>> -> tensor<24x64x64xf16, #spyre.layout<device_size = [64, 1, 24, 64], stride_map = [64, 64, 4096, 1]>>
  %2 = spyre.reshape %arg1 : tensor<2x12x64x64xf16, #spyre.layout<device_size = [64, 1, 2, 12, 64], stride_map = [1, 4096, 49152, 4096, 64]>> -> tensor<24x64x64xf16, #spyre.layout<device_size = [64, 1, 24, 64], stride_map = [1, 4096, 4096, 64]>>
  %3 = spyre.reshape %arg2 : tensor<2x12x64x64xf16, #spyre.layout<device_size = [64, 1, 2, 12, 64], stride_map = [64, 64, 49152, 4096, 1]>> -> tensor<24x64x64xf16, #spyre.layout<device_size = [64, 1, 24, 64], stride_map = [64, 64, 4096, 1]>>
  %4 = spyre.transpose %2 permutation = [0, 2, 1] : tensor<24x64x64xf16, #spyre.layout<device_size = [64, 1, 24, 64], stride_map = [1, 4096, 4096, 64]>> -> tensor<24x64x64xf16, #spyre.layout<device_size = [64, 1, 24, 64], stride_map = [64, 64, 4096, 1]>>
  %5 = spyre.batch_matmul %1, %4 : tensor<24x64x64xf16, #spyre.layout<device_size = [64, 1, 24, 64], stride_map = [64, 64, 4096, 1]>>, tensor<24x64x64xf16, #spyre.layout<device_size = [64, 1, 24, 64], stride_map = [64, 64, 4096, 1]>> -> tensor<24x64x64xf16, #spyre.layout<device_size = [64, 1, 24, 64], stride_map = [64, 64, 4096, 1]>>
  %6 = spyre.reshape %arg3 : tensor<2x1x1x64xf16, #spyre.layout<device_size = [1, 1, 1, 2, 64], stride_map = [-1, -1, 64, 64, 1]>> -> tensor<2x64xf16, #spyre.layout<device_size = [1, 1, 1, 2, 64], stride_map = [-1, -1, 64, 64, 1]>>
  %7 = spyre.mul %5, %0 : (tensor<24x64x64xf16, #spyre.layout<device_size = [64, 1, 24, 64], stride_map = [64, 64, 4096, 1]>>, tensor<f16, #spyre.layout<device_size = [1, 64], stride_map = [-1, -1]>>) -> tensor<24x64x64xf16, #spyre.layout<device_size = [64, 1, 24, 64], stride_map = [64, 64, 4096, 1]>>
  %8 = spyre.identity %6 {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>]} : (tensor<2x64xf16, #spyre.layout<device_size = [1, 1, 1, 2, 64], stride_map = [-1, -1, 64, 64, 1]>>) -> tensor<2x12x64xf16, #spyre.layout<device_size = [1, 2, 12, 64], stride_map = [64, 768, 64, 1]>>
  %9 = spyre.reshape %8 : tensor<2x12x64xf16, #spyre.layout<device_size = [1, 2, 12, 64], stride_map = [64, 768, 64, 1]>> -> tensor<24x64xf16, #spyre.layout<device_size = [1, 24, 64], stride_map = [64, 64, 1]>>
  %10 = spyre.add %7, %9 {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>]} : (tensor<24x64x64xf16, #spyre.layout<device_size = [64, 1, 24, 64], stride_map = [64, 64, 4096, 1]>>, tensor<24x64xf16, #spyre.layout<device_size = [1, 24, 64], stride_map = [64, 64, 1]>>) -> tensor<24x64x64xf16, #spyre.layout<device_size = [64, 1, 24, 64], stride_map = [64, 64, 4096, 1]>>
  %11 = spyre.max %10 dim = 2 : tensor<24x64x64xf16, #spyre.layout<device_size = [64, 1, 24, 64], stride_map = [64, 64, 4096, 1]>> -> tensor<24x64xf16, #spyre.layout<device_size = [64, 1, 24, 64], stride_map = [1, -1, 64, -1]>>
  %12 = spyre.sub %10, %11 {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>]} : (tensor<24x64x64xf16, #spyre.layout<device_size = [64, 1, 24, 64], stride_map = [64, 64, 4096, 1]>>, tensor<24x64xf16, #spyre.layout<device_size = [64, 1, 24, 64], stride_map = [1, -1, 64, -1]>>) -> tensor<24x64x64xf16, #spyre.layout<device_size = [64, 1, 24, 64], stride_map = [64, 64, 4096, 1]>>
  %13 = spyre.exp %12 : (tensor<24x64x64xf16, #spyre.layout<device_size = [64, 1, 24, 64], stride_map = [64, 64, 4096, 1]>>) -> tensor<24x64x64xf16, #spyre.layout<device_size = [64, 1, 24, 64], stride_map = [64, 64, 4096, 1]>>
  %14 = spyre.sum %13 dim = 2 : tensor<24x64x64xf16, #spyre.layout<device_size = [64, 1, 24, 64], stride_map = [64, 64, 4096, 1]>> -> tensor<24x64xf16, #spyre.layout<device_size = [64, 1, 24, 64], stride_map = [1, -1, 64, -1]>>
  %15 = spyre.div %13, %14 {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>]} : (tensor<24x64x64xf16, #spyre.layout<device_size = [64, 1, 24, 64], stride_map = [64, 64, 4096, 1]>>, tensor<24x64xf16, #spyre.layout<device_size = [64, 1, 24, 64], stride_map = [1, -1, 64, -1]>>) -> tensor<24x64x64xf16, #spyre.layout<device_size = [64, 1, 24, 64], stride_map = [64, 64, 4096, 1]>>
  %16 = spyre.batch_matmul %15, %3 : tensor<24x64x64xf16, #spyre.layout<device_size = [64, 1, 24, 64], stride_map = [64, 64, 4096, 1]>>, tensor<24x64x64xf16, #spyre.layout<device_size = [64, 1, 24, 64], stride_map = [64, 64, 4096, 1]>> -> tensor<24x64x64xf16, #spyre.layout<device_size = [64, 1, 24, 64], stride_map = [64, 64, 4096, 1]>>
  %17 = spyre.reshape %16 : tensor<24x64x64xf16, #spyre.layout<device_size = [64, 1, 24, 64], stride_map = [64, 64, 4096, 1]>> -> tensor<2x12x64x64xf16, #spyre.layout<device_size = [64, 1, 2, 12, 64], stride_map = [64, 64, 49152, 4096, 1]>>
  return %17 : tensor<2x12x64x64xf16, #spyre.layout<device_size = [64, 1, 2, 12, 64], stride_map = [64, 64, 49152, 4096, 1]>>
}


// -----

// One batch of 12 heads (torch-mlir's [1, 12, 256, 64], the batch
// squeezed): its rows on the most cores that divide them would be 12 of 32;
// spread, the heads split 4 ways and each head's queries 8 ways, every core
// busy (each head's K and V read by eight). Costed against each other on
// the whole block: 14.35 -> 10.94 us.
// ATT-LABEL: func.func @attention_heads_and_queries
// ATT: spyre.batch_matmul {{.*}}spyre.fusion_group = [[G:[0-9]+]] : i64, spyre.work_division = array<i64: 4, 8, 1, 1>}
// ATT: spyre.max {{.*}}spyre.fusion_group = [[G]] : i64, spyre.work_division = array<i64: 4, 8, 1>}
// ATT: spyre.batch_matmul {{.*}}spyre.fusion_group = [[G]] : i64, spyre.work_division = array<i64: 4, 8, 1, 1>}
func.func @attention_heads_and_queries(%arg0: tensor<1x12x256x64xf16, #spyre.layout<device_size = [256, 1, 1, 12, 64], stride_map = [64, -1, 64, 16384, 1]>>, %arg1: tensor<1x12x256x64xf16, #spyre.layout<device_size = [64, 1, 4, 12, 64], stride_map = [1, -1, 4096, 16384, 64]>>, %arg2: tensor<1x12x256x64xf16, #spyre.layout<device_size = [256, 1, 1, 12, 64], stride_map = [64, -1, 64, 16384, 1]>>) -> tensor<1x12x256x64xf16, #spyre.layout<device_size = [256, 1, 12, 64], stride_map = [64, 64, 16384, 1]>> {
  %0 = spyre.reshape %arg0 : tensor<1x12x256x64xf16, #spyre.layout<device_size = [256, 1, 1, 12, 64], stride_map = [64, -1, 64, 16384, 1]>> -> tensor<12x256x64xf16, #spyre.layout<device_size = [256, 1, 1, 12, 64], stride_map = [64, -1, 64, 16384, 1]>>
  %1 = spyre.reshape %arg1 : tensor<1x12x256x64xf16, #spyre.layout<device_size = [64, 1, 4, 12, 64], stride_map = [1, -1, 4096, 16384, 64]>> -> tensor<12x256x64xf16, #spyre.layout<device_size = [64, 1, 4, 12, 64], stride_map = [1, -1, 4096, 16384, 64]>>
  %2 = spyre.batch_matmul %0, %1 {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>]} : tensor<12x256x64xf16, #spyre.layout<device_size = [256, 1, 1, 12, 64], stride_map = [64, -1, 64, 16384, 1]>>, tensor<12x256x64xf16, #spyre.layout<device_size = [64, 1, 4, 12, 64], stride_map = [1, -1, 4096, 16384, 64]>> -> tensor<12x256x256xf16, #spyre.layout<device_size = [256, 4, 12, 64], stride_map = [256, 64, 65536, 1]>>
  %3 = spyre.max %2 dim = 2 : tensor<12x256x256xf16, #spyre.layout<device_size = [256, 4, 12, 64], stride_map = [256, 64, 65536, 1]>> -> tensor<12x256xf16, #spyre.layout<device_size = [256, 1, 12, 64], stride_map = [1, -1, 256, -1]>>
  %4 = spyre.sub %2, %3 {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>]} : (tensor<12x256x256xf16, #spyre.layout<device_size = [256, 4, 12, 64], stride_map = [256, 64, 65536, 1]>>, tensor<12x256xf16, #spyre.layout<device_size = [256, 1, 12, 64], stride_map = [1, -1, 256, -1]>>) -> tensor<12x256x256xf16, #spyre.layout<device_size = [256, 4, 12, 64], stride_map = [256, 64, 65536, 1]>>
  %5 = spyre.exp %4 : (tensor<12x256x256xf16, #spyre.layout<device_size = [256, 4, 12, 64], stride_map = [256, 64, 65536, 1]>>) -> tensor<12x256x256xf16, #spyre.layout<device_size = [256, 4, 12, 64], stride_map = [256, 64, 65536, 1]>>
  %6 = spyre.sum %5 dim = 2 : tensor<12x256x256xf16, #spyre.layout<device_size = [256, 4, 12, 64], stride_map = [256, 64, 65536, 1]>> -> tensor<12x256xf16, #spyre.layout<device_size = [256, 1, 12, 64], stride_map = [1, -1, 256, -1]>>
  %7 = spyre.reciprocal %6 : (tensor<12x256xf16, #spyre.layout<device_size = [256, 1, 12, 64], stride_map = [1, -1, 256, -1]>>) -> tensor<12x256xf16, #spyre.layout<device_size = [256, 1, 12, 64], stride_map = [1, -1, 256, -1]>>
  %8 = spyre.mul %5, %7 {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>]} : (tensor<12x256x256xf16, #spyre.layout<device_size = [256, 4, 12, 64], stride_map = [256, 64, 65536, 1]>>, tensor<12x256xf16, #spyre.layout<device_size = [256, 1, 12, 64], stride_map = [1, -1, 256, -1]>>) -> tensor<12x256x256xf16, #spyre.layout<device_size = [256, 4, 12, 64], stride_map = [256, 64, 65536, 1]>>
  %9 = spyre.reshape %arg2 : tensor<1x12x256x64xf16, #spyre.layout<device_size = [256, 1, 1, 12, 64], stride_map = [64, -1, 64, 16384, 1]>> -> tensor<12x256x64xf16, #spyre.layout<device_size = [256, 1, 1, 12, 64], stride_map = [64, -1, 64, 16384, 1]>>
  %10 = spyre.batch_matmul %8, %9 : tensor<12x256x256xf16, #spyre.layout<device_size = [256, 4, 12, 64], stride_map = [256, 64, 65536, 1]>>, tensor<12x256x64xf16, #spyre.layout<device_size = [256, 1, 1, 12, 64], stride_map = [64, -1, 64, 16384, 1]>> -> tensor<12x256x64xf16, #spyre.layout<device_size = [256, 1, 12, 64], stride_map = [64, 64, 16384, 1]>>
  %11 = spyre.reshape %10 : tensor<12x256x64xf16, #spyre.layout<device_size = [256, 1, 12, 64], stride_map = [64, 64, 16384, 1]>> -> tensor<1x12x256x64xf16, #spyre.layout<device_size = [256, 1, 12, 64], stride_map = [64, 64, 16384, 1]>>
  return %11 : tensor<1x12x256x64xf16, #spyre.layout<device_size = [256, 1, 12, 64], stride_map = [64, 64, 16384, 1]>>
}


// -----

// At sequence 2048 each head's attention runs as one block, reading its
// block of Q and K through the head split's views and an extract. The Q and
// K projections and their biases split their rows as the blocks split the
// queries, so that every core keeps the rows its blocks read and the adds'
// results may stay in LX for all twelve heads; V, whose every key row each
// block reads, keeps its own division.
// ATT-LABEL: func.func @heads_read_from_lx
// ATT: spyre.matmul %arg0, %arg1 {{.*}}spyre.work_division = array<i64: 32, 1, 1>
// ATT: spyre.add {{.*}}spyre.work_division = array<i64: 32, 1>
// ATT: spyre.matmul %arg0, %arg3 {{.*}}spyre.work_division = array<i64: 32, 1, 1>
// ATT: spyre.add {{.*}}spyre.work_division = array<i64: 32, 1>
// ATT: spyre.matmul %arg0, %arg5
// ATT-NOT: work_division
// ATT-SAME: -> tensor
// ATT-NEXT: spyre.add
// ATT-NOT: work_division
// ATT-SAME: -> tensor
// ATT-COUNT-12: spyre.extract_slice %{{.*}} offsets = [{{[0-9]+}}, 0, 0] {{.*}}-> tensor<1x2048x64xf16
func.func @heads_read_from_lx(%arg0: tensor<2048x768xf16, #spyre.layout<device_size = [12, 2048, 64], stride_map = [64, 768, 1]>>, %arg1: tensor<768x768xf16, #spyre.layout<device_size = [12, 768, 64], stride_map = [49152, 1, 768]>>, %arg2: tensor<768xf16, #spyre.layout<device_size = [12, 64], stride_map = [64, 1]>>, %arg3: tensor<768x768xf16, #spyre.layout<device_size = [12, 768, 64], stride_map = [49152, 1, 768]>>, %arg4: tensor<768xf16, #spyre.layout<device_size = [12, 64], stride_map = [64, 1]>>, %arg5: tensor<768x768xf16, #spyre.layout<device_size = [12, 768, 64], stride_map = [49152, 1, 768]>>, %arg6: tensor<768xf16, #spyre.layout<device_size = [12, 64], stride_map = [64, 1]>>) -> tensor<12x2048x64xf16, #spyre.layout<device_size = [2048, 1, 12, 64], stride_map = [64, 64, 131072, 1]>> {
  %0 = spyre.constant dense<-6.000000e+04> : tensor<f16> -> tensor<f16, #spyre.layout<device_size = [1, 64], stride_map = [-1, -1]>>
  %1 = spyre.matmul %arg0, %arg1 {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]} : tensor<2048x768xf16, #spyre.layout<device_size = [12, 2048, 64], stride_map = [64, 768, 1]>>, tensor<768x768xf16, #spyre.layout<device_size = [12, 768, 64], stride_map = [49152, 1, 768]>> -> tensor<2048x768xf16, #spyre.layout<device_size = [12, 2048, 64], stride_map = [64, 768, 1]>>
  %2 = spyre.add %1, %arg2 {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>]} : (tensor<2048x768xf16, #spyre.layout<device_size = [12, 2048, 64], stride_map = [64, 768, 1]>>, tensor<768xf16, #spyre.layout<device_size = [12, 64], stride_map = [64, 1]>>) -> tensor<2048x768xf16, #spyre.layout<device_size = [12, 2048, 64], stride_map = [64, 768, 1]>>
  %3 = spyre.reshape %2 : tensor<2048x768xf16, #spyre.layout<device_size = [12, 2048, 64], stride_map = [64, 768, 1]>> -> tensor<2048x12x64xf16, #spyre.layout<device_size = [12, 2048, 64], stride_map = [64, 768, 1]>>
  %4 = spyre.transpose %3 permutation = [1, 0, 2] : tensor<2048x12x64xf16, #spyre.layout<device_size = [12, 2048, 64], stride_map = [64, 768, 1]>> -> tensor<12x2048x64xf16, #spyre.layout<device_size = [12, 2048, 64], stride_map = [131072, 64, 1]>>
  %5 = spyre.matmul %arg0, %arg3 {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]} : tensor<2048x768xf16, #spyre.layout<device_size = [12, 2048, 64], stride_map = [64, 768, 1]>>, tensor<768x768xf16, #spyre.layout<device_size = [12, 768, 64], stride_map = [49152, 1, 768]>> -> tensor<2048x768xf16, #spyre.layout<device_size = [12, 2048, 64], stride_map = [64, 768, 1]>>
  %6 = spyre.add %5, %arg4 {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>]} : (tensor<2048x768xf16, #spyre.layout<device_size = [12, 2048, 64], stride_map = [64, 768, 1]>>, tensor<768xf16, #spyre.layout<device_size = [12, 64], stride_map = [64, 1]>>) -> tensor<2048x768xf16, #spyre.layout<device_size = [12, 2048, 64], stride_map = [64, 768, 1]>>
  %7 = spyre.reshape %6 : tensor<2048x768xf16, #spyre.layout<device_size = [12, 2048, 64], stride_map = [64, 768, 1]>> -> tensor<2048x12x64xf16, #spyre.layout<device_size = [12, 2048, 64], stride_map = [64, 768, 1]>>
  %8 = spyre.transpose %7 permutation = [1, 0, 2] : tensor<2048x12x64xf16, #spyre.layout<device_size = [12, 2048, 64], stride_map = [64, 768, 1]>> -> tensor<12x2048x64xf16, #spyre.layout<device_size = [12, 2048, 64], stride_map = [131072, 64, 1]>>
  %9 = spyre.matmul %arg0, %arg5 {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]} : tensor<2048x768xf16, #spyre.layout<device_size = [12, 2048, 64], stride_map = [64, 768, 1]>>, tensor<768x768xf16, #spyre.layout<device_size = [12, 768, 64], stride_map = [49152, 1, 768]>> -> tensor<2048x768xf16, #spyre.layout<device_size = [12, 2048, 64], stride_map = [64, 768, 1]>>
  %10 = spyre.add %9, %arg6 {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>]} : (tensor<2048x768xf16, #spyre.layout<device_size = [12, 2048, 64], stride_map = [64, 768, 1]>>, tensor<768xf16, #spyre.layout<device_size = [12, 64], stride_map = [64, 1]>>) -> tensor<2048x768xf16, #spyre.layout<device_size = [12, 2048, 64], stride_map = [64, 768, 1]>>
  %11 = spyre.reshape %10 : tensor<2048x768xf16, #spyre.layout<device_size = [12, 2048, 64], stride_map = [64, 768, 1]>> -> tensor<2048x12x64xf16, #spyre.layout<device_size = [12, 2048, 64], stride_map = [64, 768, 1]>>
  %12 = spyre.transpose %11 permutation = [1, 0, 2] : tensor<2048x12x64xf16, #spyre.layout<device_size = [12, 2048, 64], stride_map = [64, 768, 1]>> -> tensor<12x2048x64xf16, #spyre.layout<device_size = [12, 2048, 64], stride_map = [131072, 64, 1]>>
  %13 = spyre.restickify %8 : tensor<12x2048x64xf16, #spyre.layout<device_size = [12, 2048, 64], stride_map = [131072, 64, 1]>> -> tensor<12x2048x64xf16, #spyre.layout<device_size = [64, 32, 12, 64], stride_map = [1, 4096, 131072, 64]>>
  %14 = spyre.batch_matmul %4, %13 {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>]} : tensor<12x2048x64xf16, #spyre.layout<device_size = [12, 2048, 64], stride_map = [131072, 64, 1]>>, tensor<12x2048x64xf16, #spyre.layout<device_size = [64, 32, 12, 64], stride_map = [1, 4096, 131072, 64]>> -> tensor<12x2048x2048xf16, #spyre.layout<device_size = [2048, 32, 12, 64], stride_map = [2048, 64, 4194304, 1]>>
  %15 = spyre.max %14 dim = 2 : tensor<12x2048x2048xf16, #spyre.layout<device_size = [2048, 32, 12, 64], stride_map = [2048, 64, 4194304, 1]>> -> tensor<12x2048xf16, #spyre.layout<device_size = [2048, 1, 12, 64], stride_map = [1, -1, 2048, -1]>>
  %16 = spyre.maximum %15, %0 : (tensor<12x2048xf16, #spyre.layout<device_size = [2048, 1, 12, 64], stride_map = [1, -1, 2048, -1]>>, tensor<f16, #spyre.layout<device_size = [1, 64], stride_map = [-1, -1]>>) -> tensor<12x2048xf16, #spyre.layout<device_size = [2048, 1, 12, 64], stride_map = [1, -1, 2048, -1]>>
  %17 = spyre.sub %14, %16 {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>]} : (tensor<12x2048x2048xf16, #spyre.layout<device_size = [2048, 32, 12, 64], stride_map = [2048, 64, 4194304, 1]>>, tensor<12x2048xf16, #spyre.layout<device_size = [2048, 1, 12, 64], stride_map = [1, -1, 2048, -1]>>) -> tensor<12x2048x2048xf16, #spyre.layout<device_size = [2048, 32, 12, 64], stride_map = [2048, 64, 4194304, 1]>>
  %18 = spyre.exp %17 : (tensor<12x2048x2048xf16, #spyre.layout<device_size = [2048, 32, 12, 64], stride_map = [2048, 64, 4194304, 1]>>) -> tensor<12x2048x2048xf16, #spyre.layout<device_size = [2048, 32, 12, 64], stride_map = [2048, 64, 4194304, 1]>>
  %19 = spyre.sum %18 dim = 2 : tensor<12x2048x2048xf16, #spyre.layout<device_size = [2048, 32, 12, 64], stride_map = [2048, 64, 4194304, 1]>> -> tensor<12x2048xf16, #spyre.layout<device_size = [2048, 1, 12, 64], stride_map = [1, -1, 2048, -1]>>
  %20 = spyre.div %18, %19 {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>]} : (tensor<12x2048x2048xf16, #spyre.layout<device_size = [2048, 32, 12, 64], stride_map = [2048, 64, 4194304, 1]>>, tensor<12x2048xf16, #spyre.layout<device_size = [2048, 1, 12, 64], stride_map = [1, -1, 2048, -1]>>) -> tensor<12x2048x2048xf16, #spyre.layout<device_size = [2048, 32, 12, 64], stride_map = [2048, 64, 4194304, 1]>>
  %21 = spyre.batch_matmul %20, %12 : tensor<12x2048x2048xf16, #spyre.layout<device_size = [2048, 32, 12, 64], stride_map = [2048, 64, 4194304, 1]>>, tensor<12x2048x64xf16, #spyre.layout<device_size = [12, 2048, 64], stride_map = [131072, 64, 1]>> -> tensor<12x2048x64xf16, #spyre.layout<device_size = [2048, 1, 12, 64], stride_map = [64, 64, 131072, 1]>>
  return %21 : tensor<12x2048x64xf16, #spyre.layout<device_size = [2048, 1, 12, 64], stride_map = [64, 64, 131072, 1]>>
}

