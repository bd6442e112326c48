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

// -----

// K padding as torch-spyre writes it: B [1000, 512] is copied into a
// zero-filled [1024, 512] buffer and the matmul runs with N_.in_ = 1024
// (K rounded up to whole 64-element sticks). Three SuperDSCs:
//  0. the fill: identity of the zero stick over the whole buffer
//     (mb 1024 rows, out 512);
//  1. the copy: 1000 rows iterated, written into a buffer of 1024 rows, so
//     the output carries backGapCore_ mb 1024 - 1000 = 24; the input is
//     dense (no gap);
//  2. the matmul reads the buffer's first K rows in place: in_ = 1024.
func.func @kpad(%a: tensor<64x1000xf16>, %b: tensor<1000x512xf16>) -> tensor<64x512xf16> {
  %e = tensor.empty() : tensor<64x512xf16>
  %z = arith.constant 0.0 : f16
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<64x512xf16>) -> tensor<64x512xf16>
  %r = linalg.matmul ins(%a, %b : tensor<64x1000xf16>, tensor<1000x512xf16>) outs(%f : tensor<64x512xf16>) -> tensor<64x512xf16>
  return %r : tensor<64x512xf16>
}

// CHECK: // -----
// CHECK: "0_identity"
// CHECK: "N_": {
// CHECK-NEXT: "mb_": 1024,
// CHECK-NEXT: "name_": "n",
// CHECK-NEXT: "out_": 512
// CHECK-NOT: "backGapCore_"
// CHECK: "1_identity"
// CHECK: "N_": {
// CHECK-NEXT: "mb_": 1000,
// CHECK-NEXT: "name_": "n",
// CHECK-NEXT: "out_": 512
// CHECK-NOT: "backGapCore_"
// CHECK: "name_": "allocate-Tensor0_hbm"
// CHECK: "backGapCore_": {
// CHECK-NEXT:   "mb": {
// CHECK-NEXT:     "-1": "24"
// CHECK-NEXT:   }
// CHECK-NEXT: },
// CHECK: "name_": "allocate-Tensor1_hbm"
// CHECK: "2_batchmatmul"
// CHECK: "N_": {
// CHECK-NEXT: "in_": 1024,
// CHECK-NEXT: "mb_": 64,
// CHECK-NEXT: "name_": "n",
// CHECK-NEXT: "out_": 512
// CHECK-NOT: "backGapCore_"

// -----

// A block of rows whose bytes are one contiguous range of the input's (rows
// [128, 192) of f16 [256, 64], device dims [1, 256, 64]) is a view, not a
// copy: the exp is the only kernel and reads the block at its first stick,
// 128 rows x 128 bytes = 16384 bytes into the input.
func.func @row_block(%x: tensor<256x64xf16>) -> tensor<64x64xf16> {
  %s = tensor.extract_slice %x[128, 0] [64, 64] [1, 1] : tensor<256x64xf16> to tensor<64x64xf16>
  %e = tensor.empty() : tensor<64x64xf16>
  %y = linalg.exp ins(%s : tensor<64x64xf16>) outs(%e : tensor<64x64xf16>) -> tensor<64x64xf16>
  return %y : tensor<64x64xf16>
}

// CHECK: // -----
// CHECK-NOT: "{{[0-9]+}}_identity"
// CHECK: "{{[0-9]+}}_exp"
// CHECK: "name_": "allocate-Tensor0_hbm"
// CHECK: "startAddressCoreCorelet_"
// CHECK-NEXT: "data_": {
// CHECK-NEXT: "[0, 0, 0]": "16384"
// CHECK-NOT: "{{[0-9]+}}_identity"

// -----

// A strided block of rows (as --spyre-fuse-row-blocks reads one): rows
// [64, 128) of f16 [256, 128], whose device dims [2, 256, 64] put the stick
// columns outermost, so the block is not one range of bytes. Laid out with
// the input's device dims (rows past 64 are its padding), it is a view all
// the same: the exp reads it from its first stick, 64 rows x 128 bytes =
// 8192 bytes in, with the input's strides: of the 256 rows on the device
// it iterates 64, the gap 192 (torch-spyre's backGapCore_ for a view of a
// larger tensor).
!whole = tensor<256x128xf16, #spyre.layout<device_size = [2, 256, 64], stride_map = [64, 128, 1]>>
!rows = tensor<64x128xf16, #spyre.layout<device_size = [2, 256, 64], stride_map = [64, 128, 1]>>
!dense = tensor<64x128xf16, #spyre.layout<device_size = [2, 64, 64], stride_map = [64, 128, 1]>>
func.func @strided_rows(%x: !whole) -> !dense {
  %v = spyre.extract_slice %x offsets = [64, 0] : !whole -> !rows
  %r = spyre.exp %v : (!rows) -> !dense
  return %r : !dense
}

// CHECK: // -----
// CHECK-NOT: "{{[0-9]+}}_identity"
// CHECK: "0_exp"
// CHECK: "backGapCore_": {
// CHECK-NEXT:   "mb": {
// CHECK-NEXT:     "-1": "192"
// CHECK-NEXT:   }
// CHECK-NEXT: },
// CHECK: "name_": "allocate-Tensor0_hbm"
// CHECK: "startAddressCoreCorelet_"
// CHECK-NEXT: "data_": {
// CHECK-NEXT: "[0, 0, 0]": "8192"
// CHECK-NOT: "{{[0-9]+}}_identity"
