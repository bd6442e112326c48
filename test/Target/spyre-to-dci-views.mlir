// RUN: spyre-opt %s --spyre-pipeline=cores=1 | spyre-translate --spyre-to-dci | FileCheck %s

// A result that is a view of a block of rows of a larger buffer: rows
// [128, 192) of an f16 [256, 64] tensor (device dims [1, 256, 64]: one
// stick column, so the block's bytes are one contiguous range of the
// buffer's). The kernel writes the whole buffer; the runtime reads the
// block from 128 rows x 64 elements = 8192 elements into it.
func.func @row_block_result(%x: tensor<256x64xf16>) -> tensor<64x64xf16> {
  %e = tensor.empty() : tensor<256x64xf16>
  %y = linalg.exp ins(%x : tensor<256x64xf16>) outs(%e : tensor<256x64xf16>) -> tensor<256x64xf16>
  %s = tensor.extract_slice %y[128, 0] [64, 64] [1, 1] : tensor<256x64xf16> to tensor<64x64xf16>
  return %s : tensor<64x64xf16>
}

// CHECK: "tensor": "argument 0"
// CHECK: "buffer": 1,
// CHECK-NEXT: "dci": {
// CHECK-NEXT: "dataformat_dst_": "IEEE_FP16",
// CHECK-NEXT: "dataformat_src_": "SEN169_FP16",
// CHECK-NEXT: "dci_dsName_": "DCI-Tensor-0",
// CHECK-NEXT: "dcsi_": [
// CHECK-NEXT: {
// CHECK-NEXT: "offset_dst_": 0,
// CHECK-NEXT: "offset_src_": 8192,
// CHECK-NEXT: "size_": [
// CHECK-NEXT: 64,
// CHECK-NEXT: 64,
// CHECK-NEXT: 1
// CHECK-NEXT: ],
// CHECK: "tensor": "result 0"
