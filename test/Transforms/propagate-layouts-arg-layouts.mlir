// RUN: spyre-opt %s --spyre-propagate-layouts -split-input-file -verify-diagnostics | FileCheck %s
// RUN: spyre-opt %s --spyre-propagate-layouts=arg-layouts=default -split-input-file | FileCheck %s --check-prefix=DEFAULT
// RUN: not spyre-opt %s --spyre-propagate-layouts=arg-layouts=any 2>&1 | FileCheck %s --check-prefix=BAD

// arg-layouts=auto (the default): an argument without a layout attribute
// gets the layout its readers want, at no cost, since the host stickifies it
// during the upload. A weight stored [out, in] (as PyTorch stores it) and
// read transposed arrives with its stick on dim 0: no restickify.
// CHECK-LABEL: func.func @linear_weight_out_in
// CHECK-SAME: %{{.+}}: tensor<96x128xf16, #spyre.layout<device_size = [2, 128, 64], stride_map = [8192, 1, 128]>>
// CHECK-NOT: spyre.restickify
// CHECK: spyre.matmul
// With arg-layouts=default the weight comes in the default layout and is
// restickified on every call.
// DEFAULT-LABEL: func.func @linear_weight_out_in
// DEFAULT-SAME: %{{.+}}: tensor<96x128xf16, #spyre.layout<device_size = [2, 96, 64], stride_map = [64, 128, 1]>>
// DEFAULT: spyre.restickify
// BAD: for the --arg-layouts option: Cannot find option named 'any'!
func.func @linear_weight_out_in(%x: tensor<64x128xf16>, %w: tensor<96x128xf16>) -> tensor<64x96xf16> {
  %wt = spyre.transpose %w permutation = [1, 0] : tensor<96x128xf16> -> tensor<128x96xf16>
  %y = spyre.matmul %x, %wt : tensor<64x128xf16>, tensor<128x96xf16> -> tensor<64x96xf16>
  return %y : tensor<64x96xf16>
}

// -----

// An attribute fixes the layout: the caller's choice stands.
// CHECK-LABEL: func.func @attribute_fixes_it
// CHECK-SAME: %{{.+}}: tensor<96x128xf16, #spyre.layout<device_size = [2, 96, 64], stride_map = [64, 128, 1]>>
// CHECK: spyre.restickify
func.func @attribute_fixes_it(%x: tensor<64x128xf16>, %w: tensor<96x128xf16> {spyre.dim_order = [0, 1]}) -> tensor<64x96xf16> {
  %wt = spyre.transpose %w permutation = [1, 0] : tensor<96x128xf16> -> tensor<128x96xf16>
  %y = spyre.matmul %x, %wt : tensor<64x128xf16>, tensor<128x96xf16> -> tensor<64x96xf16>
  return %y : tensor<64x96xf16>
}

// -----

// A layout change must pay for itself: the row statistics of a norm would
// avoid a small restickify with the stick on the rows, but the argument
// keeps the default layout (the count of moved elements does not see what
// the change costs its kernels).
// CHECK-LABEL: func.func @row_statistics_keep_default
// CHECK-SAME: %{{.+}}: tensor<32x4096xf16, #spyre.layout<device_size = [64, 32, 64], stride_map = [64, 4096, 1]>>
func.func @row_statistics_keep_default(%x: tensor<32x4096xf16>) -> tensor<32x4096xf16> {
  %sq = spyre.mul %x, %x : (tensor<32x4096xf16>, tensor<32x4096xf16>) -> tensor<32x4096xf16>
  %s = spyre.sum %sq dim = 1 : tensor<32x4096xf16> -> tensor<32xf16>
  %r = spyre.rsqrt %s : (tensor<32xf16>) -> tensor<32xf16>
  %y = spyre.mul %x, %r {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>]} : (tensor<32x4096xf16>, tensor<32xf16>) -> tensor<32x4096xf16>
  return %y : tensor<32x4096xf16>
}

// -----

// An argument the device reads only through a reshape (torch-mlir's
// [batch, heads, ...] read as [batch * heads, ...] by a batch matmul) is
// laid out as the reshaped tensor would be, seen at its own shape: batch
// right outside heads (device [.., 2, 12, 64]), so that the reshape's view
// merges them into one device dim of 24, as a block of the batch dim can
// cut. The default layout puts the heads outside the rows and the batch
// inside them: two device dims apart.
// CHECK-LABEL: func.func @merged_batch
// CHECK-SAME: %{{.+}}: tensor<2x12x64x64xf16, #spyre.layout<device_size = [64, 1, 2, 12, 64], stride_map = [64, 64, 49152, 4096, 1]>>
// CHECK-SAME: %{{.+}}: tensor<2x12x64x64xf16, #spyre.layout<device_size = [64, 1, 2, 12, 64], stride_map = [1, 4096, 49152, 4096, 64]>>
// CHECK: spyre.reshape %{{.+}} -> tensor<24x64x64xf16, #spyre.layout<device_size = [64, 1, 24, 64], stride_map = [64, 64, 4096, 1]>>
// CHECK: spyre.reshape %{{.+}} -> tensor<24x64x64xf16, #spyre.layout<device_size = [64, 1, 24, 64], stride_map = [1, 4096, 4096, 64]>>
// CHECK-NOT: spyre.restickify
// DEFAULT-LABEL: func.func @merged_batch
// DEFAULT-SAME: %{{.+}}: tensor<2x12x64x64xf16, #spyre.layout<device_size = [12, 64, 1, 2, 64], stride_map = [4096, 64, 64, 49152, 1]>>
func.func @merged_batch(%q: tensor<2x12x64x64xf16>, %k: tensor<2x12x64x64xf16>) -> tensor<24x64x64xf16> {
  %0 = spyre.reshape %q : tensor<2x12x64x64xf16> -> tensor<24x64x64xf16>
  %1 = spyre.reshape %k : tensor<2x12x64x64xf16> -> tensor<24x64x64xf16>
  %s = spyre.batch_matmul %0, %1 {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>]} : tensor<24x64x64xf16>, tensor<24x64x64xf16> -> tensor<24x64x64xf16>
  return %s : tensor<24x64x64xf16>
}

// -----

// torch-mlir's head split at batch 2: a [batch * seq, heads * dim]
// projection read as [batch, seq, heads, dim], transposed to [batch, heads,
// seq, dim] and merged to [batch * heads, seq, dim] for a batch matmul. The
// argument is laid out as the merged tensor would be, seen back through the
// chain of views: batch right outside heads (device [64, 1, 2, 4, 64],
// stride 16384 = 4 x 4096 after the transpose), so the batch matmul reads
// one device dim of 8. The default puts all heads outermost ([4, 128, 64]):
// the 8 would be two device dims apart.
// CHECK-LABEL: func.func @head_split_batch
// CHECK-SAME: %{{.+}}: tensor<128x256xf16, #spyre.layout<device_size = [64, 1, 2, 4, 64], stride_map = [256, 64, 16384, 64, 1]>>
// CHECK: spyre.transpose {{.*}} -> tensor<2x4x64x64xf16, #spyre.layout<device_size = [64, 1, 2, 4, 64], stride_map = [64, 64, 16384, 4096, 1]>>
// CHECK: spyre.reshape {{.*}} -> tensor<8x64x64xf16, #spyre.layout<device_size = [64, 1, 8, 64], stride_map = [64, 64, 4096, 1]>>
// CHECK-NOT: spyre.restickify
// DEFAULT-LABEL: func.func @head_split_batch
// DEFAULT-SAME: %{{.+}}: tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
func.func @head_split_batch(%q: tensor<128x256xf16>, %k: tensor<8x64x64xf16>) -> tensor<8x64x64xf16> {
  %0 = spyre.reshape %q : tensor<128x256xf16> -> tensor<2x64x4x64xf16>
  %1 = spyre.transpose %0 permutation = [0, 2, 1, 3] : tensor<2x64x4x64xf16> -> tensor<2x4x64x64xf16>
  %2 = spyre.reshape %1 : tensor<2x4x64x64xf16> -> tensor<8x64x64xf16>
  %s = spyre.batch_matmul %2, %k : tensor<8x64x64xf16>, tensor<8x64x64xf16> -> tensor<8x64x64xf16>
  return %s : tensor<8x64x64xf16>
}
