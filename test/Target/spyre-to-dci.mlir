// RUN: spyre-opt %s --spyre-pipeline | spyre-translate --spyre-to-dci | FileCheck %s
// RUN: rm -rf %t.dir
// RUN: spyre-opt %s --spyre-pipeline | spyre-translate --spyre-to-dci --spyre-output-dir=%t.dir | FileCheck %s --check-prefix=FILES
// RUN: FileCheck %s --check-prefix=FILE < %t.dir/dci_dci_0_argument_0.json

// DCI descriptors of every host-visible tensor, innermost first, exactly as
// the runtime (torch-spyre's generate_dci) writes them: one entry per device
// dim in size_/stride_src_/stride_dst_, every descriptor named DCI-Tensor-0,
// nothing but the runtime's fields inside; which tensor it moves is written
// beside it.

// The facts sheet's padded example, f16 [1000, 200] (200 = 3 sticks + 8):
// a main nest over the 3 full stick columns, then a remainder nest of 8
// elements per row starting 192 elements into the host row and 192000
// elements into the device tensor (3 stick columns of 1000 rows).
// CHECK-LABEL: "buffer": 0,
// CHECK-NEXT: "dci": {
// CHECK-NEXT: "dataformat_dst_": "SEN169_FP16",
// CHECK-NEXT: "dataformat_src_": "IEEE_FP16",
// CHECK-NEXT: "dci_dsName_": "DCI-Tensor-0",
// CHECK-NEXT: "dcsi_": [
// CHECK-NEXT: {
// CHECK-NEXT: "offset_dst_": 0,
// CHECK-NEXT: "offset_src_": 0,
// CHECK-NEXT: "size_": [
// CHECK-NEXT: 64,
// CHECK-NEXT: 1000,
// CHECK-NEXT: 3
// CHECK-NEXT: ],
// CHECK-NEXT: "stride_dst_": [
// CHECK-NEXT: 1,
// CHECK-NEXT: 64,
// CHECK-NEXT: 64000
// CHECK-NEXT: ],
// CHECK-NEXT: "stride_src_": [
// CHECK-NEXT: 1,
// CHECK-NEXT: 200,
// CHECK-NEXT: 64
// CHECK-NEXT: ]
// CHECK-NEXT: },
// CHECK-NEXT: {
// CHECK-NEXT: "offset_dst_": 192000,
// CHECK-NEXT: "offset_src_": 192,
// CHECK-NEXT: "size_": [
// CHECK-NEXT: 8,
// CHECK-NEXT: 1000,
// CHECK-NEXT: 1
// CHECK-NEXT: ],
// CHECK: "input_shape_": [
// CHECK-NEXT: 200,
// CHECK-NEXT: 1000
// CHECK-NEXT: ],
// CHECK-NEXT: "isHostToSen_": true,
// CHECK-NEXT: "output_shape_": [
// CHECK-NEXT: 64,
// CHECK-NEXT: 1000,
// CHECK-NEXT: 4
// CHECK-NEXT: ]
// CHECK-NEXT: },
// CHECK-NEXT: "file": "dci_dci_0_argument_0.json",
// CHECK-NEXT: "function": "dci",
// CHECK-NEXT: "tensor": "argument 0"

// A permuted layout (dim_order [1, 0]) of f16 [256, 128]: sticks run along
// host dim 0 (host stride 128), device dims [4, 128, 64]; innermost first:
// 64 elements of a stick step 128 host elements, the 128 columns step 1,
// the 4 stick rows step 8192.
// CHECK-LABEL: "buffer": 1,
// CHECK: "dci_dsName_": "DCI-Tensor-0",
// CHECK-NEXT: "dcsi_": [
// CHECK-NEXT: {
// CHECK-NEXT: "offset_dst_": 0,
// CHECK-NEXT: "offset_src_": 0,
// CHECK-NEXT: "size_": [
// CHECK-NEXT: 64,
// CHECK-NEXT: 128,
// CHECK-NEXT: 4
// CHECK-NEXT: ],
// CHECK-NEXT: "stride_dst_": [
// CHECK-NEXT: 1,
// CHECK-NEXT: 64,
// CHECK-NEXT: 8192
// CHECK-NEXT: ],
// CHECK-NEXT: "stride_src_": [
// CHECK-NEXT: 128,
// CHECK-NEXT: 1,
// CHECK-NEXT: 8192
// CHECK-NEXT: ]
// CHECK-NEXT: }
// CHECK-NEXT: ],

// The result goes back to the host: source and destination swap.
// CHECK-LABEL: "buffer": 2,
// CHECK: "dataformat_dst_": "IEEE_FP16",
// CHECK-NEXT: "dataformat_src_": "SEN169_FP16",
// CHECK-NEXT: "dci_dsName_": "DCI-Tensor-0",
// CHECK: "isHostToSen_": false,
// CHECK: "tensor": "result 0"
// CHECK-NOT: spyre_

// FILES: dci_dci_0_argument_0.json
// FILES-NEXT: dci_dci_1_argument_1.json
// FILES-NEXT: dci_dci_2_result_0.json
// FILES-NEXT: dci_units_3_argument_0.json
// FILES-NEXT: dci_units_4_result_0.json
// The file holds the bare descriptor.
// FILE: {
// FILE-NEXT: "dataformat_dst_": "SEN169_FP16",
// FILE: "dci_dsName_": "DCI-Tensor-0",
// FILE-NOT: "tensor"
// FILE-NOT: spyre_

func.func @dci(%x: tensor<1000x200xf16>,
               %y: tensor<256x128xf16> {spyre.dim_order = array<i64: 1, 0>})
    -> tensor<1000x200xf16> {
  %e = tensor.empty() : tensor<1000x200xf16>
  %0 = linalg.exp ins(%x : tensor<1000x200xf16>) outs(%e : tensor<1000x200xf16>) -> tensor<1000x200xf16>
  return %0 : tensor<1000x200xf16>
}

// Size-1 and synthetic dims keep their entries. f16 [2, 1, 100] has device
// dims [1, 2, 2, 64] (the size-1 host dim first, stride -1); 100 = one full
// stick and 36: main nest [64, 2, 1, 1] innermost first, remainder
// [36, 2, 1, 1] at host offset 64, device offset 128. The -1 dim steps the
// host by 1.
// CHECK: "dcsi_": [
// CHECK-NEXT: {
// CHECK-NEXT: "offset_dst_": 0,
// CHECK-NEXT: "offset_src_": 0,
// CHECK-NEXT: "size_": [
// CHECK-NEXT: 64,
// CHECK-NEXT: 2,
// CHECK-NEXT: 1,
// CHECK-NEXT: 1
// CHECK-NEXT: ],
// CHECK-NEXT: "stride_dst_": [
// CHECK-NEXT: 1,
// CHECK-NEXT: 64,
// CHECK-NEXT: 128,
// CHECK-NEXT: 256
// CHECK-NEXT: ],
// CHECK-NEXT: "stride_src_": [
// CHECK-NEXT: 1,
// CHECK-NEXT: 100,
// CHECK-NEXT: 64,
// CHECK-NEXT: 1
// CHECK-NEXT: ]
// CHECK-NEXT: },
// CHECK-NEXT: {
// CHECK-NEXT: "offset_dst_": 128,
// CHECK-NEXT: "offset_src_": 64,
// CHECK-NEXT: "size_": [
// CHECK-NEXT: 36,
// CHECK-NEXT: 2,
// CHECK-NEXT: 1,
// CHECK-NEXT: 1
// CHECK-NEXT: ],
// The row sums [2, 1] come back from a sparse layout [1, 2, 64] (stride map
// [-1, 1, -1]): one value per stick; the synthetic stick dim and the
// size-1 dim are size-1 entries.
// CHECK: "file": "dci_units_3_argument_0.json",
// CHECK: "dcsi_": [
// CHECK-NEXT: {
// CHECK-NEXT: "offset_dst_": 0,
// CHECK-NEXT: "offset_src_": 0,
// CHECK-NEXT: "size_": [
// CHECK-NEXT: 1,
// CHECK-NEXT: 2,
// CHECK-NEXT: 1
// CHECK-NEXT: ],
// CHECK-NEXT: "stride_dst_": [
// CHECK-NEXT: 1,
// CHECK-NEXT: 1,
// CHECK-NEXT: 1
// CHECK-NEXT: ],
// CHECK-NEXT: "stride_src_": [
// CHECK-NEXT: 1,
// CHECK-NEXT: 64,
// CHECK-NEXT: 128
// CHECK-NEXT: ]
// CHECK-NEXT: }
// CHECK-NEXT: ],
// CHECK: "file": "dci_units_4_result_0.json",
func.func @units(%x: tensor<2x1x100xf16>) -> tensor<2x1xf16> {
  %c0 = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<2x1xf16>
  %f = linalg.fill ins(%c0 : f16) outs(%e : tensor<2x1xf16>) -> tensor<2x1xf16>
  %r = linalg.reduce ins(%x : tensor<2x1x100xf16>) outs(%f : tensor<2x1xf16>) dimensions = [2]
    (%a: f16, %b: f16) { %s = arith.addf %a, %b : f16
      linalg.yield %s : f16 }
  return %r : tensor<2x1xf16>
}

// An f32 argument added to a dl16tofp32 result is uploaded in that lane
// order, and the sum is downloaded from it: the descriptors say so beside
// them (element_arrangement, as torch-spyre's SpyreTensorLayout carries it);
// the f16 argument is in standard order (no key).
// CHECK-NOT: element_arrangement
// CHECK: "file": "dci_widen_5_argument_0.json",
// CHECK: "element_arrangement": "DL16_TO_FP32",
// CHECK-NEXT: "file": "dci_widen_6_argument_1.json",
// CHECK: "element_arrangement": "DL16_TO_FP32",
// CHECK-NEXT: "file": "dci_widen_7_result_0.json",
func.func @widen(%a: tensor<64x128xf16>, %c: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %e = tensor.empty() : tensor<64x128xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<64x128xf16>) outs(%e : tensor<64x128xf32>) {
  ^bb0(%i: f16, %o: f32):
    %f = arith.extf %i : f16 to f32
    linalg.yield %f : f32
  } -> tensor<64x128xf32>
  %s = linalg.add ins(%x, %c : tensor<64x128xf32>, tensor<64x128xf32>) outs(%e : tensor<64x128xf32>) -> tensor<64x128xf32>
  return %s : tensor<64x128xf32>
}
