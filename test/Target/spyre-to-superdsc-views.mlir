// RUN: spyre-opt %s --spyre-pipeline=cores=1 | spyre-translate --spyre-to-superdsc | FileCheck %s

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
