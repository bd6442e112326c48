// RUN: spyre-opt %s -split-input-file --spyre-pipeline=cores=1 | spyre-translate -split-input-file --spyre-to-superdsc | FileCheck %s

// A box of a larger tensor is read as a view, the way torch-spyre writes
// views of larger buffers (superdsc.py): the start address moves to the
// box's first stick, and every device dim longer than the launch iterates
// carries backGapCore_ (the extra elements; "-1": all cores, in DDR).
//
// The input [128, 192] f16 has device_size [3, 128, 64]: three stick
// columns of 128 rows. The box [5:7, 128:192] starts at stick column 2,
// row 5: (2 * 128 + 5) sticks of 128 bytes = 33408 bytes. Rows: 128 on the
// device, 2 iterated (gap 126); columns: 3 * 64 = 192 on the device, 64
// iterated (gap 128). The result is dense: no gap.
func.func @box(%x: tensor<128x192xf16>) -> tensor<2x64xf16> {
  %r = tensor.extract_slice %x[5, 128] [2, 64] [1, 1] : tensor<128x192xf16> to tensor<2x64xf16>
  return %r : tensor<2x64xf16>
}

// CHECK: "0_identity"
// CHECK: "backGapCore_": {
// CHECK-NEXT:   "mb": {
// CHECK-NEXT:     "-1": "126"
// CHECK-NEXT:   },
// CHECK-NEXT:   "out": {
// CHECK-NEXT:     "-1": "128"
// CHECK-NEXT:   }
// CHECK-NEXT: },
// CHECK: "name_": "allocate-Tensor0_hbm"
// CHECK: "startAddressCoreCorelet_"
// CHECK: "[0, 0, 0]": "33408"
// CHECK-NOT: "backGapCore_"
// CHECK: "name_": "allocate-Tensor1_hbm"
// CHECK-NOT: "backGapCore_"

// -----

// A concatenation writes each input into its box of one buffer (torch-spyre's
// aten.cat: copies into slice views of an empty output). The output
// [64, 192] f16 has device_size [3, 64, 64] and lives in its own segment
// (base 2^34 = 17179869184). Each SuperDSC has two tensors: the input and
// the output view (the buffer written in place is not an operand). Kernel
// 0 writes columns [0, 128): start 0 bytes into the output, gap 192 - 128
// = 64 on `out`. Kernel 1 writes columns [128, 192): stick column 2 of 64
// rows, 2 * 64 * 128 = 16384 bytes in, gap 192 - 64 = 128.
func.func @cat(%a: tensor<64x128xf16>, %b: tensor<64x64xf16>) -> tensor<64x192xf16> {
  %r = tensor.concat dim(1) %a, %b : (tensor<64x128xf16>, tensor<64x64xf16>) -> tensor<64x192xf16>
  return %r : tensor<64x192xf16>
}

// CHECK: // -----
// CHECK: "0_identity"
// CHECK: "inputLabeledDs": [
// CHECK-NEXT: "Tensor0-idx0"
// CHECK-NEXT: ],
// CHECK: "outputLabeledDs": [
// CHECK-NEXT: "Tensor1-idx1"
// CHECK-NOT: "backGapCore_"
// CHECK: "name_": "allocate-Tensor0_hbm"
// CHECK: "backGapCore_": {
// CHECK-NEXT:   "out": {
// CHECK-NEXT:     "-1": "64"
// CHECK-NEXT:   }
// CHECK-NEXT: },
// CHECK: "name_": "allocate-Tensor1_hbm"
// CHECK: "[0, 0, 0]": "17179869184"
// CHECK-NOT: allocate-Tensor2
// CHECK: "1_identity"
// CHECK: "backGapCore_": {
// CHECK-NEXT:   "out": {
// CHECK-NEXT:     "-1": "128"
// CHECK-NEXT:   }
// CHECK-NEXT: },
// CHECK: "name_": "allocate-Tensor1_hbm"
// CHECK: "[0, 0, 0]": "17179885568"
// CHECK-NOT: allocate-Tensor2
