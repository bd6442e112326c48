// RUN: spyre-opt %s --spyre-pipeline | spyre-translate --spyre-to-dci | FileCheck %s
// RUN: rm -rf %t.dir
// RUN: spyre-opt %s --spyre-pipeline | spyre-translate --spyre-to-dci --spyre-output-dir=%t.dir | FileCheck %s --check-prefix=FILES
// RUN: FileCheck %s --check-prefix=FILE < %t.dir/dci_dci_1_argument_1.json

// DCI descriptors of every host-visible tensor, innermost first.

// The facts sheet's padded example, f16 [1000, 200] (200 = 3 sticks + 8):
// a main nest over the 3 full stick columns, then a remainder nest of 8
// elements per row starting 192 elements into the host row and 192000
// elements into the device tensor (3 stick columns of 1000 rows).
// CHECK: "dataformat_dst_": "SEN169_FP16",
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
// CHECK-NEXT: ],
// CHECK-NEXT: "spyre_": {
// CHECK-NEXT: "buffer": 0,
// CHECK-NEXT: "function": "dci",
// CHECK-NEXT: "tensor": "argument 0"

// A permuted layout (dim_order [1, 0]) of f16 [256, 128]: sticks run along
// host dim 0 (host stride 128), device dims [4, 128, 64]; innermost first:
// 64 elements of a stick step 128 host elements, the 128 columns step 1,
// the 4 stick rows step 8192.
// CHECK: "dci_dsName_": "DCI-Tensor-1",
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
// CHECK: "dataformat_dst_": "IEEE_FP16",
// CHECK-NEXT: "dataformat_src_": "SEN169_FP16",
// CHECK: "isHostToSen_": false,
// CHECK: "tensor": "result 0"

// FILES: dci_dci_0_argument_0.json
// FILES-NEXT: dci_dci_1_argument_1.json
// FILES-NEXT: dci_dci_2_result_0.json
// FILE: "dci_dsName_": "DCI-Tensor-1",

func.func @dci(%x: tensor<1000x200xf16>,
               %y: tensor<256x128xf16> {spyre.dim_order = array<i64: 1, 0>})
    -> tensor<1000x200xf16> {
  %e = tensor.empty() : tensor<1000x200xf16>
  %0 = linalg.exp ins(%x : tensor<1000x200xf16>) outs(%e : tensor<1000x200xf16>) -> tensor<1000x200xf16>
  return %0 : tensor<1000x200xf16>
}
