// RUN: spyre-opt %s --spyre-propagate-layouts=arg-layouts=default -split-input-file -verify-diagnostics | FileCheck %s

// The reference stack's classical cost cases, with its rule for arguments:
// every argument in the default layout of its shape (arg-layouts=default;
// propagate-layouts-arg-layouts.mlir has the compiler's own choice).

// A transposed operand added to a plain one costs exactly one restickify of
// that operand (here both [256, 256], so either choice costs the same; the
// transposed one is restickified).
// CHECK-LABEL: func.func @transposed_plus_plain
// CHECK-SAME: (%[[A:.+]]: tensor<256x256xf16, #spyre.layout<device_size = [4, 256, 64], stride_map = [64, 256, 1]>>, %[[B:.+]]: tensor<256x256xf16, #spyre.layout<device_size = [4, 256, 64], stride_map = [64, 256, 1]>>)
// CHECK-COUNT-1: spyre.restickify
// CHECK-NOT: spyre.restickify
// CHECK: spyre.add
func.func @transposed_plus_plain(%a: tensor<256x256xf16>, %b: tensor<256x256xf16>) -> tensor<256x256xf16> {
  %bt = spyre.transpose %b permutation = [1, 0] : tensor<256x256xf16> -> tensor<256x256xf16>
  %c = spyre.add %a, %bt : (tensor<256x256xf16>, tensor<256x256xf16>) -> tensor<256x256xf16>
  return %c : tensor<256x256xf16>
}

// -----

// Padding makes the cheaper choice unique: b^T (stored [100, 256]: 4 x 100
// sticks) is cheaper to restickify than a ([256, 100]: 2 x 256 sticks).
// The transposed operand is restickified (moving the same bytes as b).
// CHECK-LABEL: func.func @transposed_smaller_operand
// CHECK-SAME: (%[[A:.+]]: tensor<256x100xf16, {{.*}}>, %[[B:.+]]: tensor<100x256xf16, {{.*}}>)
// CHECK: %[[BT:.+]] = spyre.transpose %[[B]]
// CHECK: %[[R:.+]] = spyre.restickify %[[BT]] : tensor<256x100xf16, #spyre.layout<device_size = [4, 100, 64], stride_map = [6400, 1, 100]>> -> tensor<256x100xf16, #spyre.layout<device_size = [2, 256, 64], stride_map = [64, 100, 1]>>
// CHECK-NOT: spyre.restickify
// CHECK: spyre.add %[[A]], %[[R]]
func.func @transposed_smaller_operand(%a: tensor<256x100xf16>, %b: tensor<100x256xf16>) -> tensor<256x100xf16> {
  %bt = spyre.transpose %b permutation = [1, 0] : tensor<100x256xf16> -> tensor<256x100xf16>
  %c = spyre.add %a, %bt : (tensor<256x100xf16>, tensor<256x100xf16>) -> tensor<256x100xf16>
  return %c : tensor<256x100xf16>
}

// -----

// Two transposed operands plus one plain one: restickify the plain one.
// CHECK-LABEL: func.func @majority
// CHECK-SAME: (%[[A:.+]]: tensor<128x128xf16, {{.*}}>, %[[B:.+]]: tensor<128x128xf16, {{.*}}>, %[[C:.+]]: tensor<128x128xf16, {{.*}}>)
// CHECK: %[[RA:.+]] = spyre.restickify %[[A]]
// CHECK-NOT: spyre.restickify
// CHECK: spyre.add %[[RA]]
// CHECK: return
func.func @majority(%a: tensor<128x128xf16>, %b: tensor<128x128xf16>, %c: tensor<128x128xf16>) -> tensor<128x128xf16> {
  %bt = spyre.transpose %b permutation = [1, 0] : tensor<128x128xf16> -> tensor<128x128xf16>
  %ct = spyre.transpose %c permutation = [1, 0] : tensor<128x128xf16> -> tensor<128x128xf16>
  %s = spyre.add %a, %bt : (tensor<128x128xf16>, tensor<128x128xf16>) -> tensor<128x128xf16>
  %r = spyre.add %s, %ct : (tensor<128x128xf16>, tensor<128x128xf16>) -> tensor<128x128xf16>
  return %r : tensor<128x128xf16>
}

// -----

// Matmul with default-laid-out operands costs nothing: A is sticked on K, B
// and C on N already.
// CHECK-LABEL: func.func @matmul_default
// CHECK-NOT: spyre.restickify
// CHECK: spyre.matmul {{.*}} -> tensor<128x64xf16, #spyre.layout<device_size = [1, 128, 64], stride_map = [64, 64, 1]>>
func.func @matmul_default(%a: tensor<128x256xf16>, %b: tensor<256x64xf16>) -> tensor<128x64xf16> {
  %c = spyre.matmul %a, %b : tensor<128x256xf16>, tensor<256x64xf16> -> tensor<128x64xf16>
  return %c : tensor<128x64xf16>
}

// -----

// A transposed A (stored [K, M], sticked on M) costs one restickify of A.
// CHECK-LABEL: func.func @matmul_transposed_a
// CHECK-SAME: (%[[AT:.+]]: tensor<256x128xf16, {{.*}}>, %[[B:.+]]: tensor<256x64xf16, {{.*}}>)
// CHECK: %[[A:.+]] = spyre.transpose %[[AT]]
// CHECK: %[[RA:.+]] = spyre.restickify %[[A]] : tensor<128x256xf16, #spyre.layout<device_size = [2, 256, 64], stride_map = [16384, 1, 256]>> -> tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
// CHECK-NOT: spyre.restickify
// CHECK: spyre.matmul %[[RA]], %[[B]]
func.func @matmul_transposed_a(%at: tensor<256x128xf16>, %b: tensor<256x64xf16>) -> tensor<128x64xf16> {
  %a = spyre.transpose %at permutation = [1, 0] : tensor<256x128xf16> -> tensor<128x256xf16>
  %c = spyre.matmul %a, %b : tensor<128x256xf16>, tensor<256x64xf16> -> tensor<128x64xf16>
  return %c : tensor<128x64xf16>
}

// -----

// Both transposed: both are restickified.
// CHECK-LABEL: func.func @matmul_both_transposed
// CHECK-COUNT-2: spyre.restickify
// CHECK-NOT: spyre.restickify
// CHECK: spyre.matmul
func.func @matmul_both_transposed(%at: tensor<256x128xf16>, %bt: tensor<64x256xf16>) -> tensor<128x64xf16> {
  %a = spyre.transpose %at permutation = [1, 0] : tensor<256x128xf16> -> tensor<128x256xf16>
  %b = spyre.transpose %bt permutation = [1, 0] : tensor<64x256xf16> -> tensor<256x64xf16>
  %c = spyre.matmul %a, %b : tensor<128x256xf16>, tensor<256x64xf16> -> tensor<128x64xf16>
  return %c : tensor<128x64xf16>
}

// -----

// A reduction along the stick gives a sparse result; a pointwise op reading
// it broadcast along the stick needs nothing more.
// CHECK-LABEL: func.func @softmax_like
// CHECK-NOT: spyre.restickify
// CHECK: spyre.max %{{.*}} dim = 1 : {{.*}} -> tensor<64xf16, #spyre.layout<device_size = [1, 64, 64], stride_map = [-1, 1, -1]>>
// CHECK: spyre.sub
func.func @softmax_like(%x: tensor<64x128xf16>) -> tensor<64x128xf16> {
  %m = spyre.max %x dim = 1 : tensor<64x128xf16> -> tensor<64xf16>
  %s = spyre.sub %x, %m {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>]} : (tensor<64x128xf16>, tensor<64xf16>) -> tensor<64x128xf16>
  return %s : tensor<64x128xf16>
}

// -----

// A reduction across rows keeps the input's stick ("nonstick").
// CHECK-LABEL: func.func @nonstick_reduction
// CHECK: spyre.sum %{{.*}} dim = 0 : tensor<64x128xf16, {{.*}}> -> tensor<128xf16, #spyre.layout<device_size = [2, 64], stride_map = [64, 1]>>
func.func @nonstick_reduction(%x: tensor<64x128xf16>) -> tensor<128xf16> {
  %s = spyre.sum %x dim = 0 : tensor<64x128xf16> -> tensor<128xf16>
  return %s : tensor<128xf16>
}

// -----

// Arguments keep their spyre.layout / spyre.dim_order; a result with a fixed
// layout gets it (here through a restickify).
// CHECK-LABEL: func.func @fixed_boundary
// CHECK-SAME: (%[[A:.+]]: tensor<128x128xf16, #spyre.layout<device_size = [2, 128, 64], stride_map = [8192, 1, 128]>>)
// CHECK-SAME: -> tensor<128x128xf16, #spyre.layout<device_size = [2, 128, 64], stride_map = [64, 128, 1]>>
// CHECK: %[[E:.+]] = spyre.exp %[[A]] : {{.*}} -> tensor<128x128xf16, #spyre.layout<device_size = [2, 128, 64], stride_map = [8192, 1, 128]>>
// CHECK: %[[R:.+]] = spyre.restickify %[[E]]
// CHECK: return %[[R]]
func.func @fixed_boundary(%a: tensor<128x128xf16> {spyre.dim_order = array<i64: 1, 0>})
    -> (tensor<128x128xf16> {spyre.dim_order = array<i64: 0, 1>}) {
  %e = spyre.exp %a : (tensor<128x128xf16>) -> tensor<128x128xf16>
  return %e : tensor<128x128xf16>
}

// -----

// Host ops stay on the host: their results are uploaded, spyre results they
// read are brought back.
// CHECK-LABEL: func.func @host_boundary
// CHECK: %[[E:.+]] = spyre.exp
// CHECK: %[[H:.+]] = spyre.from_device %[[E]]
// CHECK: %[[G:.+]] = linalg.generic {{.*}} ins(%[[H]] :
// CHECK: %[[D:.+]] = spyre.to_device %[[G]]
// CHECK: spyre.neg %[[D]]
func.func @host_boundary(%a: tensor<8x64xf16>) -> tensor<8x64xf16> {
  %e = spyre.exp %a : (tensor<8x64xf16>) -> tensor<8x64xf16>
  %init = tensor.empty() : tensor<8x64xf16>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%e : tensor<8x64xf16>) outs(%init : tensor<8x64xf16>) {
  ^bb0(%v: f16, %o: f16):
    %y = math.sin %v : f16
    linalg.yield %y : f16
  } -> tensor<8x64xf16>
  %n = spyre.neg %g : (tensor<8x64xf16>) -> tensor<8x64xf16>
  return %n : tensor<8x64xf16>
}

// -----

// Callers follow the new signature.
// CHECK-LABEL: func.func @callee
// CHECK-SAME: -> tensor<8x64xf16, #spyre.layout
func.func @callee(%a: tensor<8x64xf16>) -> tensor<8x64xf16> {
  %e = spyre.exp %a : (tensor<8x64xf16>) -> tensor<8x64xf16>
  return %e : tensor<8x64xf16>
}
// CHECK-LABEL: func.func @caller
// CHECK: %[[R:.+]] = call @callee(%{{.*}}) : (tensor<8x64xf16, #spyre.layout{{.*}}>) -> tensor<8x64xf16, #spyre.layout
// CHECK: spyre.neg
func.func @caller(%a: tensor<8x64xf16>) -> tensor<8x64xf16> {
  %r = call @callee(%a) : (tensor<8x64xf16>) -> tensor<8x64xf16>
  %n = spyre.neg %r : (tensor<8x64xf16>) -> tensor<8x64xf16>
  return %n : tensor<8x64xf16>
}

// -----

// The stick size comes from the target.
// CHECK-LABEL: func.func @wide_sticks
// CHECK: spyre.exp {{.*}} -> tensor<8x256xf16, #spyre.layout<device_size = [2, 8, 128], stride_map = [128, 256, 1], stick_bytes = 256>>
module attributes {spyre.target = #spyre.target<stick_bytes = 256>} {
  func.func @wide_sticks(%a: tensor<8x256xf16>) -> tensor<8x256xf16> {
    %e = spyre.exp %a : (tensor<8x256xf16>) -> tensor<8x256xf16>
    return %e : tensor<8x256xf16>
  }
}

// -----

// Infeasible: a sparse argument (one value per stick) where a matmul needs
// a dense stick.
func.func @sparse_argument(%s: tensor<64x64xf16> {spyre.dim_order = array<i64: 0, 1, -1>}, %w: tensor<64x64xf16>) -> tensor<64x64xf16> {
  // expected-error @+1 {{'spyre.matmul' op cannot restickify input #0: it is sparse (one value per stick) but the op needs it sticked on host dim 1; sparse and dense layouts cannot be converted into one another}}
  %p = spyre.matmul %s, %w : tensor<64x64xf16>, tensor<64x64xf16> -> tensor<64x64xf16>
  return %p : tensor<64x64xf16>
}

// -----

// A reduction whose result must be dense restickifies its input instead of
// going sparse.
// CHECK-LABEL: func.func @dense_reduction_result
// CHECK: %[[R:.+]] = spyre.restickify
// CHECK: spyre.max %[[R]] dim = 1 {{.*}} -> tensor<64xf16, #spyre.layout<device_size = [1, 64], stride_map = [64, 1]>>
func.func @dense_reduction_result(%x: tensor<64x128xf16>) -> (tensor<64xf16> {spyre.dim_order = array<i64: 0>}) {
  %m = spyre.max %x dim = 1 : tensor<64x128xf16> -> tensor<64xf16>
  return %m : tensor<64xf16>
}

// -----

// expected-error @+1 {{argument #0 of @dynamic: cannot assign a layout to 'tensor<?x64xf16>': dynamic dims have no device layout}}
func.func @dynamic(%a: tensor<?x64xf16>) {
  return
}

// -----

// The norm rule: x sticked on the normalized dim, the per-row statistics
// sparse with the exx2 arrangement (two statistics per stick, as torch-spyre
// lays out exx2's result); a transposed x is restickified.
// CHECK-LABEL: func.func @layer_norm_family
// CHECK: %[[R:.+]] = spyre.restickify
// CHECK: %[[X:.+]] = spyre.transpose %[[R]] {{.*}} -> tensor<128x768xf16, #spyre.layout<device_size = [12, 128, 64], stride_map = [64, 768, 1]>>
// CHECK: %[[M:.+]] = spyre.exx2 %[[X]] {{.*}} -> tensor<128xf16, #spyre.layout<device_size = [1, 128, 64], stride_map = [-1, 1, -1], arrangement = exx2>>
// CHECK: %[[N:.+]] = spyre.layernormscale %[[M]] {{.*}} -> tensor<128xf16, #spyre.layout<device_size = [1, 128, 64], stride_map = [-1, 1, -1], arrangement = exx2>>
// CHECK: spyre.layernormnorm %[[X]], %[[M]], %[[N]], {{.*}} -> tensor<128x768xf16, #spyre.layout<device_size = [12, 128, 64], stride_map = [64, 768, 1]>>
// CHECK-NOT: spyre.restickify
func.func @layer_norm_family(%xt: tensor<768x128xf16>, %w: tensor<768xf16>, %b: tensor<768xf16>) -> tensor<128x768xf16> {
  %x = spyre.transpose %xt permutation = [1, 0] : tensor<768x128xf16> -> tensor<128x768xf16>
  %m = spyre.exx2 %x scale = 0.0013020833333333333 : tensor<128x768xf16> -> tensor<128xf16>
  %n = spyre.layernormscale %m eps = 1.0e-05 : tensor<128xf16> -> tensor<128xf16>
  %y = spyre.layernormnorm %x, %m, %n, %w, %b : (tensor<128x768xf16>, tensor<128xf16>, tensor<128xf16>, tensor<768xf16>, tensor<768xf16>) -> tensor<128x768xf16>
  return %y : tensor<128x768xf16>
}

// -----

// A from_device already in the input is the host read of its operand: the
// pass does not wrap it in a second one (found by spyre-fuzz-pipeline: the
// inner from_device then read a host tensor and failed to verify). The
// function result is the device value, as for every result.
!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
// CHECK-LABEL: func.func @existing_from_device
// CHECK: %[[E:.+]] = spyre.exp
// CHECK-NEXT: spyre.from_device %[[E]]
// CHECK-NOT: spyre.from_device
// CHECK: return %[[E]]
func.func @existing_from_device(%a: !t) -> tensor<128x256xf16> {
  %0 = spyre.exp %a : (!t) -> !t
  %1 = spyre.from_device %0 : !t -> tensor<128x256xf16>
  return %1 : tensor<128x256xf16>
}

// -----

// A reshape that splits an outer dim is a view: the row dim of [4, 64]
// (4 rows of 64 elements) is read as two device dims of 2, at host strides
// 128 and 64, over the same bytes (regression: this was rejected as a
// reshape that moves data).
// CHECK-LABEL: func.func @split_outer_dim
// CHECK-SAME: tensor<4x64xf16, #spyre.layout<device_size = [1, 4, 64], stride_map = [64, 64, 1]>>
// CHECK: spyre.reshape %{{.*}} -> tensor<2x2x64xf16, #spyre.layout<device_size = [1, 2, 2, 64], stride_map = [64, 128, 64, 1]>>
// CHECK-NOT: spyre.restickify
func.func @split_outer_dim(%x: tensor<4x64xf16>) -> tensor<2x2x64xf16> {
  %r = spyre.reshape %x : tensor<4x64xf16> -> tensor<2x2x64xf16>
  return %r : tensor<2x2x64xf16>
}

// -----

// The head split [B*S, D] -> [B, S, H, Dh] of attention: the row dim splits
// into B and S, the stick-count dim becomes H. A view.
// CHECK-LABEL: func.func @head_split
// CHECK-SAME: tensor<256x768xf16, #spyre.layout<device_size = [12, 256, 64], stride_map = [64, 768, 1]>>
// CHECK: spyre.reshape %{{.*}} -> tensor<2x128x12x64xf16, #spyre.layout<device_size = [12, 2, 128, 64], stride_map = [64, 98304, 768, 1]>>
// CHECK-NOT: spyre.restickify
func.func @head_split(%x: tensor<256x768xf16>) -> tensor<2x128x12x64xf16> {
  %r = spyre.reshape %x : tensor<256x768xf16> -> tensor<2x128x12x64xf16>
  return %r : tensor<2x128x12x64xf16>
}

// -----

// dl16tofp32 writes its f32 lanes in the hardware's DL16_TO_FP32 order:
// lane-by-lane ops keep it (exp, add), an f32 argument added to it is
// uploaded in that order (its layout was free), a sum along the stick (one
// value per row) and the conversion back to f16 are in standard order.
// CHECK-LABEL: func.func @dl16_to_fp32
// CHECK-SAME: %[[C:[a-z0-9]+]]: tensor<64x128xf32, #spyre.layout<device_size = [4, 64, 32], stride_map = [32, 128, 1], arrangement = dl16_to_fp32>>
// CHECK: %[[W:.+]] = spyre.convert %{{.*}} -> tensor<64x128xf32, #spyre.layout<device_size = [4, 64, 32], stride_map = [32, 128, 1], arrangement = dl16_to_fp32>>
// CHECK: %[[E:.+]] = spyre.exp %[[W]] {{.*}} -> tensor<64x128xf32, #spyre.layout<device_size = [4, 64, 32], stride_map = [32, 128, 1], arrangement = dl16_to_fp32>>
// CHECK: %[[S:.+]] = spyre.add %[[E]], %[[C]] {{.*}} -> tensor<64x128xf32, #spyre.layout<device_size = [4, 64, 32], stride_map = [32, 128, 1], arrangement = dl16_to_fp32>>
// CHECK: spyre.sum %[[S]] dim = 1 {{.*}} -> tensor<64xf32, #spyre.layout<device_size = [1, 64, 32], stride_map = [-1, 1, -1]>>
// CHECK: spyre.convert %[[S]] {{.*}} -> tensor<64x128xf16, #spyre.layout<device_size = [2, 64, 64], stride_map = [64, 128, 1]>>
func.func @dl16_to_fp32(%x: tensor<64x128xf16>, %c: tensor<64x128xf32>) -> (tensor<64xf32>, tensor<64x128xf16>) {
  %w = spyre.convert %x : tensor<64x128xf16> -> tensor<64x128xf32>
  %e = spyre.exp %w : (tensor<64x128xf32>) -> tensor<64x128xf32>
  %s = spyre.add %e, %c : (tensor<64x128xf32>, tensor<64x128xf32>) -> tensor<64x128xf32>
  %r = spyre.sum %s dim = 1 : tensor<64x128xf32> -> tensor<64xf32>
  %h = spyre.convert %s : tensor<64x128xf32> -> tensor<64x128xf16>
  return %r, %h : tensor<64xf32>, tensor<64x128xf16>
}

// -----

// Values whose lane order is free follow a converted value they are
// combined with: an argument read through a reshape (the view follows too)
// and a fill (one value repeated in every lane).
// CHECK-LABEL: func.func @dl16_to_fp32_free
// CHECK-SAME: tensor<1x64x128xf32, #spyre.layout<{{.*}}, arrangement = dl16_to_fp32>>
// CHECK: spyre.reshape {{.*}} -> tensor<64x128xf32, #spyre.layout<{{.*}}, arrangement = dl16_to_fp32>>
// CHECK: spyre.add {{.*}} -> tensor<64x128xf32, #spyre.layout<{{.*}}, arrangement = dl16_to_fp32>>
// CHECK: spyre.identity {{.*}} -> tensor<64x128xf32, #spyre.layout<{{.*}}, arrangement = dl16_to_fp32>>
// CHECK: spyre.mul {{.*}} -> tensor<64x128xf32, #spyre.layout<{{.*}}, arrangement = dl16_to_fp32>>
func.func @dl16_to_fp32_free(%x: tensor<64x128xf16>, %c: tensor<1x64x128xf32>) -> tensor<64x128xf32> {
  %w = spyre.convert %x : tensor<64x128xf16> -> tensor<64x128xf32>
  %r = spyre.reshape %c : tensor<1x64x128xf32> -> tensor<64x128xf32>
  %s = spyre.add %w, %r : (tensor<64x128xf32>, tensor<64x128xf32>) -> tensor<64x128xf32>
  %z = spyre.constant dense<2.0> : tensor<f32> -> tensor<f32>
  %f = spyre.identity %z : (tensor<f32>) -> tensor<64x128xf32>
  %m = spyre.mul %s, %f : (tensor<64x128xf32>, tensor<64x128xf32>) -> tensor<64x128xf32>
  return %m : tensor<64x128xf32>
}

// -----

// A bias broadcast along the rows by a copy (tpp-mlir's MLP: the matmul
// accumulates into the broadcast bias) is in its input's order: the
// argument and its view follow the converted matmul result, and so does
// the copy.
// CHECK-LABEL: func.func @dl16_to_fp32_broadcast_bias
// CHECK-SAME: tensor<1x128xf32, #spyre.layout<{{.*}}, arrangement = dl16_to_fp32>>
// CHECK: spyre.reshape {{.*}} -> tensor<128xf32, #spyre.layout<{{.*}}, arrangement = dl16_to_fp32>>
// CHECK: spyre.identity {{.*}} -> tensor<64x128xf32, #spyre.layout<{{.*}}, arrangement = dl16_to_fp32>>
// CHECK: spyre.add {{.*}} -> tensor<64x128xf32, #spyre.layout<{{.*}}, arrangement = dl16_to_fp32>>
#row = affine_map<(d0, d1) -> (d1)>
#all = affine_map<(d0, d1) -> (d0, d1)>
func.func @dl16_to_fp32_broadcast_bias(%x: tensor<64x128xf16>, %b: tensor<1x128xf32>) -> tensor<64x128xf32> {
  %w = spyre.convert %x : tensor<64x128xf16> -> tensor<64x128xf32>
  %r = spyre.reshape %b : tensor<1x128xf32> -> tensor<128xf32>
  %f = spyre.identity %r {indexing_maps = [#row, #all]} : (tensor<128xf32>) -> tensor<64x128xf32>
  %s = spyre.add %w, %f : (tensor<64x128xf32>, tensor<64x128xf32>) -> tensor<64x128xf32>
  return %s : tensor<64x128xf32>
}

// -----

// A value the host computes is uploaded in its default layout (the stick
// on its innermost dim) when no other layout saves a restickify: every
// layout costs the upload nothing, but a stick on the dim of 2 would pad
// each stick of 32 to hold 2 elements (found on IREE's horizontally fused
// contractions: 32x the bytes in every later kernel).
// CHECK-LABEL: func.func @upload_default
// CHECK: spyre.to_device %{{.*}} : tensor<2x10x64xf32> -> tensor<2x10x64xf32, #spyre.layout<device_size = [10, 2, 2, 32], stride_map = [64, 32, 640, 1]>>
func.func @upload_default(%a: tensor<2x10x64xf32>) -> tensor<2x10x64xf32> {
  %h = arith.addf %a, %a : tensor<2x10x64xf32>
  %e = spyre.exp %h : (tensor<2x10x64xf32>) -> tensor<2x10x64xf32>
  return %e : tensor<2x10x64xf32>
}

// -----

// A block of rows one kernel reads whose rows are not the outermost device
// dim (f16 [256, 128]: device dims [2, 256, 64], the stick columns first)
// is not one range of bytes: it becomes a strided view, laid out with the
// input's device dims (rows past 64 are padding) and read in place. A block
// two kernels read stays a copy (each would read DDR again).
// CHECK-LABEL: func.func @strided_row_block
// CHECK: %[[V:.*]] = spyre.extract_slice %arg0 offsets = [64, 0] : {{.*}} -> tensor<64x128xf16, #spyre.layout<device_size = [2, 256, 64], stride_map = [64, 128, 1]>>
// CHECK: spyre.exp %[[V]]
// CHECK: %[[C:.*]] = spyre.extract_slice %arg0 offsets = [128, 0] : {{.*}} -> tensor<64x128xf16, #spyre.layout<device_size = [2, 64, 64], stride_map = [64, 128, 1]>>
// CHECK: spyre.neg %[[C]]
// CHECK: spyre.abs %[[C]]
func.func @strided_row_block(%x: tensor<256x128xf16>) -> (tensor<64x128xf16>, tensor<64x128xf16>, tensor<64x128xf16>) {
  %v = spyre.extract_slice %x offsets = [64, 0] : tensor<256x128xf16> -> tensor<64x128xf16>
  %e = spyre.exp %v : (tensor<64x128xf16>) -> tensor<64x128xf16>
  %c = spyre.extract_slice %x offsets = [128, 0] : tensor<256x128xf16> -> tensor<64x128xf16>
  %n = spyre.neg %c : (tensor<64x128xf16>) -> tensor<64x128xf16>
  %a = spyre.abs %c : (tensor<64x128xf16>) -> tensor<64x128xf16>
  return %e, %n, %a : tensor<64x128xf16>, tensor<64x128xf16>, tensor<64x128xf16>
}

// -----

// A block of whole sticks along the stick's dim (a column block of f16
// [128, 384]: device dims [6, 128, 64]), as torch's split of a fused
// projection's output gives, is a strided view too: the input's device
// dims, the stick columns past the block padding, read in place from the
// block's first stick. Read through a reshape and a transpose (Q split into
// heads), the views after it take the padded layout seen through them.
// A block that does not start on a stick is no view of the input: it is
// sliced from a restickified copy.
// CHECK-LABEL: func.func @stick_column_block
// CHECK: %[[K:.*]] = spyre.extract_slice %arg0 offsets = [0, 128] : {{.*}} -> tensor<128x128xf16, #spyre.layout<device_size = [6, 128, 64], stride_map = [64, 128, 1]>>
// CHECK: spyre.exp %[[K]]
// CHECK: %[[Q:.*]] = spyre.extract_slice %arg0 offsets = [0, 256] : {{.*}} -> tensor<128x128xf16, #spyre.layout<device_size = [6, 128, 64], stride_map = [64, 128, 1]>>
// CHECK: %[[R:.*]] = spyre.reshape %[[Q]] : {{.*}} -> tensor<128x2x64xf16, #spyre.layout<device_size = [6, 128, 64], stride_map = [64, 128, 1]>>
// CHECK: %[[T:.*]] = spyre.transpose %[[R]] permutation = [1, 0, 2] : {{.*}} -> tensor<2x128x64xf16, #spyre.layout<device_size = [6, 128, 64], stride_map = [8192, 64, 1]>>
// CHECK: spyre.exp %[[T]]
// CHECK: %[[RS:.*]] = spyre.restickify %arg0
// CHECK: spyre.extract_slice %[[RS]] offsets = [0, 32]
func.func @stick_column_block(%x: tensor<128x384xf16>) -> (tensor<128x128xf16>, tensor<2x128x64xf16>, tensor<128x64xf16>) {
  %k = spyre.extract_slice %x offsets = [0, 128] : tensor<128x384xf16> -> tensor<128x128xf16>
  %e = spyre.exp %k : (tensor<128x128xf16>) -> tensor<128x128xf16>
  %q = spyre.extract_slice %x offsets = [0, 256] : tensor<128x384xf16> -> tensor<128x128xf16>
  %r = spyre.reshape %q : tensor<128x128xf16> -> tensor<128x2x64xf16>
  %t = spyre.transpose %r permutation = [1, 0, 2] : tensor<128x2x64xf16> -> tensor<2x128x64xf16>
  %h = spyre.exp %t : (tensor<2x128x64xf16>) -> tensor<2x128x64xf16>
  %c = spyre.extract_slice %x offsets = [0, 32] : tensor<128x384xf16> -> tensor<128x64xf16>
  %n = spyre.neg %c : (tensor<128x64xf16>) -> tensor<128x64xf16>
  return %e, %h, %n : tensor<128x128xf16>, tensor<2x128x64xf16>, tensor<128x64xf16>
}

// -----

// A value read only through a reshape that merges its dims (a padding mask
// broadcast over the heads, read per head as [batch * heads, keys]) is laid
// out as the merged tensor would be, seen at its own shape: batch right
// outside heads, so that the reshape's view has one device dim of 24 a
// block of heads can cut. (Its own default puts the heads outermost and the
// batch inside: [12, 1, 2, 64].)
// CHECK-LABEL: func.func @result_read_merged
// CHECK: spyre.identity %{{.+}} -> tensor<2x12x64xf16, #spyre.layout<device_size = [1, 2, 12, 64], stride_map = [64, 768, 64, 1]>>
// CHECK: spyre.reshape %{{.+}} -> tensor<24x64xf16, #spyre.layout<device_size = [1, 24, 64], stride_map = [64, 64, 1]>>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#b3 = affine_map<(d0, d1, d2) -> (d0, d2)>
func.func @result_read_merged(%m: tensor<2x64xf16>, %s: tensor<24x64x64xf16>) -> tensor<24x64x64xf16> {
  %b = spyre.identity %m {indexing_maps = [#b3, #id3]} : (tensor<2x64xf16>) -> tensor<2x12x64xf16>
  %r = spyre.reshape %b : tensor<2x12x64xf16> -> tensor<24x64xf16>
  %a = spyre.add %s, %r {indexing_maps = [#id3, #b3, #id3]} : (tensor<24x64x64xf16>, tensor<24x64xf16>) -> tensor<24x64x64xf16>
  return %a : tensor<24x64x64xf16>
}
