// RUN: spyre-opt %s --spyre-canonicalize-shapes -split-input-file | FileCheck %s

// Size-1 dims leave the op; the boundary keeps the original shapes.
// CHECK-LABEL: func.func @pointwise
// CHECK-SAME: (%[[A:.+]]: tensor<512x1xf16>, %[[B:.+]]: tensor<512x1xf16>) -> tensor<512x1xf16>
// CHECK-DAG: %[[SA:.+]] = spyre.reshape %[[A]] : tensor<512x1xf16> -> tensor<512xf16>
// CHECK-DAG: %[[SB:.+]] = spyre.reshape %[[B]] : tensor<512x1xf16> -> tensor<512xf16>
// CHECK: %[[S:.+]] = spyre.add %[[SA]], %[[SB]] : (tensor<512xf16>, tensor<512xf16>) -> tensor<512xf16>
// CHECK: %[[E:.+]] = spyre.exp %[[S]] : (tensor<512xf16>) -> tensor<512xf16>
// CHECK: %[[R:.+]] = spyre.reshape %[[E]] : tensor<512xf16> -> tensor<512x1xf16>
// CHECK: return %[[R]]
func.func @pointwise(%a: tensor<512x1xf16>, %b: tensor<512x1xf16>) -> tensor<512x1xf16> {
  %s = spyre.add %a, %b : (tensor<512x1xf16>, tensor<512x1xf16>) -> tensor<512x1xf16>
  %e = spyre.exp %s : (tensor<512x1xf16>) -> tensor<512x1xf16>
  return %e : tensor<512x1xf16>
}

// -----

// Maps lose the unit op dims; a broadcast of a [1, 64] row becomes a map.
// CHECK-DAG: #[[$ID:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[$COL:.+]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @broadcast
// CHECK: %[[R:.+]] = spyre.reshape %{{.*}} : tensor<1x64xf16> -> tensor<64xf16>
// CHECK: spyre.add %{{.*}}, %[[R]] {indexing_maps = [#[[$ID]], #[[$COL]], #[[$ID]]]} : (tensor<8x64xf16>, tensor<64xf16>) -> tensor<8x64xf16>
func.func @broadcast(%a: tensor<1x8x64xf16>, %b: tensor<1x64xf16>) -> tensor<1x8x64xf16> {
  %s = spyre.add %a, %b {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>]}
      : (tensor<1x8x64xf16>, tensor<1x64xf16>) -> tensor<1x8x64xf16>
  return %s : tensor<1x8x64xf16>
}

// -----

// Reductions: the reduced dim is renumbered; reducing a size-1 dim is a
// reshape.
// CHECK-LABEL: func.func @reductions
// CHECK: spyre.sum %{{.*}} dim = 1 : tensor<8x64xf16> -> tensor<8xf16>
// CHECK-NOT: spyre.max
// CHECK: return
func.func @reductions(%a: tensor<8x1x64xf16>) -> (tensor<8x1xf16>, tensor<8x64xf16>) {
  %s = spyre.sum %a dim = 2 : tensor<8x1x64xf16> -> tensor<8x1xf16>
  %m = spyre.max %a dim = 1 : tensor<8x1x64xf16> -> tensor<8x64xf16>
  return %s, %m : tensor<8x1xf16>, tensor<8x64xf16>
}

// -----

// Transposes that only move size-1 dims vanish; constants are squeezed.
// CHECK-LABEL: func.func @views_and_constants
// CHECK-NOT: spyre.transpose
// CHECK: spyre.constant dense<2.000000e+00> : tensor<64xf16> -> tensor<64xf16>
func.func @views_and_constants(%a: tensor<1x64xf16>) -> tensor<64x1xf16> {
  %t = spyre.transpose %a permutation = [1, 0] : tensor<1x64xf16> -> tensor<64x1xf16>
  %c = spyre.constant dense<2.0> : tensor<64x1xf16> -> tensor<64x1xf16>
  %m = spyre.mul %t, %c : (tensor<64x1xf16>, tensor<64x1xf16>) -> tensor<64x1xf16>
  return %m : tensor<64x1xf16>
}

// -----

// Nothing to do without size-1 dims.
// CHECK-LABEL: func.func @canonical
// CHECK-NOT: spyre.reshape
func.func @canonical(%a: tensor<8x64xf16>) -> tensor<8x64xf16> {
  %e = spyre.exp %a : (tensor<8x64xf16>) -> tensor<8x64xf16>
  return %e : tensor<8x64xf16>
}

// -----

// torch-mlir's attention: the contraction runs on [batch * heads, ...], the
// softmax between on [batch, heads, ...] through reshapes that split the
// batch dim. The softmax's ops are rebuilt on the merged dims, so the
// reshapes cancel and the whole chain has one shape (one layout, one row
// group).
// CHECK-LABEL: func.func @merge_split_dims
// CHECK-SAME: (%[[S:.+]]: tensor<24x64x64xf16>)
// CHECK-NOT: spyre.reshape
// CHECK: %[[M:.+]] = spyre.max %[[S]] dim = 2 : tensor<24x64x64xf16> -> tensor<24x64xf16>
// CHECK: %[[D:.+]] = spyre.sub %[[S]], %[[M]] {{.*}} : (tensor<24x64x64xf16>, tensor<24x64xf16>) -> tensor<24x64x64xf16>
// CHECK: %[[E:.+]] = spyre.exp %[[D]] : (tensor<24x64x64xf16>) -> tensor<24x64x64xf16>
// CHECK-NOT: spyre.reshape
// CHECK: return %[[E]]
func.func @merge_split_dims(%s: tensor<24x64x64xf16>) -> tensor<24x64x64xf16> {
  %0 = spyre.reshape %s : tensor<24x64x64xf16> -> tensor<2x12x64x64xf16>
  %m = spyre.max %0 dim = 3 : tensor<2x12x64x64xf16> -> tensor<2x12x64xf16>
  %d = spyre.sub %0, %m {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>]} : (tensor<2x12x64x64xf16>, tensor<2x12x64xf16>) -> tensor<2x12x64x64xf16>
  %e = spyre.exp %d : (tensor<2x12x64x64xf16>) -> tensor<2x12x64x64xf16>
  %r = spyre.reshape %e : tensor<2x12x64x64xf16> -> tensor<24x64x64xf16>
  return %r : tensor<24x64x64xf16>
}

// -----

// A padding mask indexed by the batch but not the heads (torch-mlir's
// [b, 1, 1, k], squeezed to [b, k]) is broadcast over the heads first (2 x
// 12 x 64 elements, a 64th of the scores), so that the add reads it on the
// merged dims too.
// CHECK-LABEL: func.func @mask_broadcast_per_head
// CHECK-SAME: (%[[S:.+]]: tensor<24x64x64xf16>, %[[MASK:.+]]: tensor<2x64xf16>)
// CHECK: %[[B:.+]] = spyre.identity %[[MASK]] {indexing_maps = [#{{[a-z0-9]+}}, #{{[a-z0-9]+}}]} : (tensor<2x64xf16>) -> tensor<2x12x64xf16>
// CHECK: %[[M:.+]] = spyre.reshape %[[B]] : tensor<2x12x64xf16> -> tensor<24x64xf16>
// CHECK: %[[A:.+]] = spyre.add %[[S]], %[[M]] {{.*}} : (tensor<24x64x64xf16>, tensor<24x64xf16>) -> tensor<24x64x64xf16>
// CHECK: spyre.exp %[[A]] : (tensor<24x64x64xf16>) -> tensor<24x64x64xf16>
func.func @mask_broadcast_per_head(%s: tensor<24x64x64xf16>, %mask: tensor<2x64xf16>) -> tensor<2x12x64x64xf16> {
  %0 = spyre.reshape %s : tensor<24x64x64xf16> -> tensor<2x12x64x64xf16>
  %a = spyre.add %0, %mask {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>]} : (tensor<2x12x64x64xf16>, tensor<2x64xf16>) -> tensor<2x12x64x64xf16>
  %e = spyre.exp %a : (tensor<2x12x64x64xf16>) -> tensor<2x12x64x64xf16>
  return %e : tensor<2x12x64x64xf16>
}

// -----

// A [b, q, k] mask per query would be copied once per head, as large as the
// scores themselves: the add stays split (and the pattern, failing, leaves
// no op behind for the driver to loop on).
// CHECK-LABEL: func.func @large_mask_keeps_split
// CHECK-NOT: spyre.identity
// CHECK: %[[A:.+]] = spyre.add %{{.+}}, %{{.+}} {{.*}} : (tensor<2x12x64x64xf16>, tensor<2x64x64xf16>) -> tensor<2x12x64x64xf16>
// CHECK: spyre.exp %[[A]] : (tensor<2x12x64x64xf16>) -> tensor<2x12x64x64xf16>
func.func @large_mask_keeps_split(%s: tensor<24x64x64xf16>, %mask: tensor<2x64x64xf16>) -> tensor<2x12x64x64xf16> {
  %0 = spyre.reshape %s : tensor<24x64x64xf16> -> tensor<2x12x64x64xf16>
  %a = spyre.add %0, %mask {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>]} : (tensor<2x12x64x64xf16>, tensor<2x64x64xf16>) -> tensor<2x12x64x64xf16>
  %e = spyre.exp %a : (tensor<2x12x64x64xf16>) -> tensor<2x12x64x64xf16>
  return %e : tensor<2x12x64x64xf16>
}
