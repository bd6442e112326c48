// RUN: spyre-opt %s --spyre-insert-padding -split-input-file | FileCheck %s

#a1000 = #spyre.layout<device_size = [16, 64, 64], stride_map = [64, 1000, 1]>
#b1000 = #spyre.layout<device_size = [8, 1000, 64], stride_map = [64, 512, 1]>
#c = #spyre.layout<device_size = [8, 64, 64], stride_map = [64, 512, 1]>

// K = 1000 is not a whole number of sticks: as torch-spyre pads K, B is
// copied into the first 1000 rows of a 1024-row buffer filled with zeros,
// and the matmul reads the first 1000 rows of that buffer in place (a view:
// the extract_slice keeps the buffer's layout). A is left alone (the
// hardware masks its last stick).
// CHECK-LABEL: func.func @matmul_partial_k
// CHECK-SAME: (%[[A:.+]]: tensor<64x1000xf16, {{.*}}>, %[[B:.+]]: tensor<1000x512xf16, {{.*}}>)
// CHECK: %[[ZERO:.+]] = spyre.constant dense<0.000000e+00> : tensor<f16> -> tensor<f16, #spyre.layout<device_size = [1, 64], stride_map = [-1, -1]>>
// CHECK: %[[FILL:.+]] = spyre.identity %[[ZERO]] : (tensor<f16, {{.*}}>) -> tensor<1024x512xf16, #spyre.layout<device_size = [8, 1024, 64], stride_map = [64, 512, 1]>>
// CHECK: %[[BUF:.+]] = spyre.insert_slice %[[B]] into %[[FILL]] offsets = [0, 0] {fill = 0.000000e+00 : f64} : tensor<1000x512xf16, #spyre.layout<device_size = [8, 1000, 64], stride_map = [64, 512, 1]>> into tensor<1024x512xf16, {{.*}}> -> tensor<1024x512xf16, #spyre.layout<device_size = [8, 1024, 64], stride_map = [64, 512, 1]>>
// CHECK: %[[P:.+]] = spyre.extract_slice %[[BUF]] offsets = [0, 0] : tensor<1024x512xf16, {{.*}}> -> tensor<1000x512xf16, #spyre.layout<device_size = [8, 1024, 64], stride_map = [64, 512, 1]>>
// CHECK: spyre.matmul %[[A]], %[[P]]
func.func @matmul_partial_k(%a: tensor<64x1000xf16, #a1000>, %b: tensor<1000x512xf16, #b1000>) -> tensor<64x512xf16, #c> {
  %r = spyre.matmul %a, %b : tensor<64x1000xf16, #a1000>, tensor<1000x512xf16, #b1000> -> tensor<64x512xf16, #c>
  return %r : tensor<64x512xf16, #c>
}

// -----

#a = #spyre.layout<device_size = [16, 64, 64], stride_map = [64, 1024, 1]>
#b = #spyre.layout<device_size = [8, 1024, 64], stride_map = [64, 512, 1]>
#c = #spyre.layout<device_size = [8, 64, 64], stride_map = [64, 512, 1]>

// K = 1024: nothing to pad.
// CHECK-LABEL: func.func @matmul_whole_k
// CHECK-NOT: spyre.insert_slice
func.func @matmul_whole_k(%a: tensor<64x1024xf16, #a>, %b: tensor<1024x512xf16, #b>) -> tensor<64x512xf16, #c> {
  %r = spyre.matmul %a, %b : tensor<64x1024xf16, #a>, tensor<1024x512xf16, #b> -> tensor<64x512xf16, #c>
  return %r : tensor<64x512xf16, #c>
}

// -----

#x = #spyre.layout<device_size = [16, 8, 64], stride_map = [64, 1000, 1]>
#s = #spyre.layout<device_size = [1, 8, 64], stride_map = [-1, 1, -1]>

// Reductions along the padded stick (1000 of 1024) mask the padding with
// their neutral element.
// CHECK-LABEL: func.func @masked_reductions
// CHECK: spyre.max %{{.*}} dim = 1 {padding_value = 0xFFF0000000000000 : f64}
// CHECK: spyre.min %{{.*}} dim = 1 {padding_value = 0x7FF0000000000000 : f64}
// CHECK: spyre.sum %{{.*}} dim = 1 {padding_value = 0.000000e+00 : f64}
// CHECK: spyre.mean %{{.*}} dim = 1 {padding_value = 0.000000e+00 : f64}
func.func @masked_reductions(%x: tensor<8x1000xf16, #x>) -> (tensor<8xf16, #s>, tensor<8xf16, #s>, tensor<8xf16, #s>, tensor<8xf16, #s>) {
  %0 = spyre.max %x dim = 1 : tensor<8x1000xf16, #x> -> tensor<8xf16, #s>
  %1 = spyre.min %x dim = 1 : tensor<8x1000xf16, #x> -> tensor<8xf16, #s>
  %2 = spyre.sum %x dim = 1 : tensor<8x1000xf16, #x> -> tensor<8xf16, #s>
  %3 = spyre.mean %x dim = 1 : tensor<8x1000xf16, #x> -> tensor<8xf16, #s>
  return %0, %1, %2, %3 : tensor<8xf16, #s>, tensor<8xf16, #s>, tensor<8xf16, #s>, tensor<8xf16, #s>
}

// -----

#x = #spyre.layout<device_size = [16, 8, 64], stride_map = [64, 1024, 1]>
#s = #spyre.layout<device_size = [1, 8, 64], stride_map = [-1, 1, -1]>
#rows = #spyre.layout<device_size = [16, 64], stride_map = [64, 1]>

// No padding along the reduced dim: no mask. (Across rows too.)
// CHECK-LABEL: func.func @unpadded_reductions
// CHECK-NOT: padding_value
func.func @unpadded_reductions(%x: tensor<8x1024xf16, #x>) -> (tensor<8xf16, #s>, tensor<1024xf16, #rows>) {
  %0 = spyre.max %x dim = 1 : tensor<8x1024xf16, #x> -> tensor<8xf16, #s>
  %1 = spyre.sum %x dim = 0 : tensor<8x1024xf16, #x> -> tensor<1024xf16, #rows>
  return %0, %1 : tensor<8xf16, #s>, tensor<1024xf16, #rows>
}

// -----

// Host tensors are not touched.
// CHECK-LABEL: func.func @host
// CHECK-NOT: spyre.insert_slice
// CHECK-NOT: padding_value
func.func @host(%a: tensor<8x1000xf16>, %b: tensor<1000x8xf16>) -> (tensor<8x8xf16>, tensor<8xf16>) {
  %m = spyre.matmul %a, %b : tensor<8x1000xf16>, tensor<1000x8xf16> -> tensor<8x8xf16>
  %r = spyre.max %a dim = 1 : tensor<8x1000xf16> -> tensor<8xf16>
  return %m, %r : tensor<8x8xf16>, tensor<8xf16>
}

// -----

#x200 = #spyre.layout<device_size = [4, 8, 64], stride_map = [64, 200, 1]>
#x256 = #spyre.layout<device_size = [4, 8, 64], stride_map = [64, 256, 1]>
#rows = #spyre.layout<device_size = [1, 8, 64], stride_map = [-1, 1, -1], arrangement = exx2>

// exx2 sums along the normalized dim like a reduction: a partial last stick
// (200 of 256) is masked with 0; a whole one is not.
// CHECK-LABEL: func.func @exx2_padding
// CHECK: spyre.exx2 %{{.*}} scale = 5.000000e-03 {padding_value = 0.000000e+00 : f64}
// CHECK: spyre.exx2 %{{.*}} scale = 3.906250e-03 :
func.func @exx2_padding(%a: tensor<8x200xf16, #x200>, %b: tensor<8x256xf16, #x256>) -> (tensor<8xf16, #rows>, tensor<8xf16, #rows>) {
  %0 = spyre.exx2 %a scale = 0.005 : tensor<8x200xf16, #x200> -> tensor<8xf16, #rows>
  %1 = spyre.exx2 %b scale = 0.00390625 : tensor<8x256xf16, #x256> -> tensor<8xf16, #rows>
  return %0, %1 : tensor<8xf16, #rows>, tensor<8xf16, #rows>
}
