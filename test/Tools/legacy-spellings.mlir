// Op spellings older MLIR releases wrote (and front ends' exports still
// hold) are read in their current form by every tool.
// RUN: spyre-opt %s | FileCheck %s
// RUN: spyre-run %s --function=mm_t_b --random-inputs=1 --check | FileCheck %s --check-prefix=RUN-CHECK
// RUN: spyre-run %s --function=pack --random-inputs=2 --check | FileCheck %s --check-prefix=PACK
// RUN: spyre-run %s --function=elemwise --random-inputs=3 --check | FileCheck %s --check-prefix=ELEMWISE
// RUN: spyre-run %s --function=old_map --random-inputs=4 --check | FileCheck %s --check-prefix=MAP
// RUN: spyre-run %s --function=elemwise_scalar --random-inputs=5 --check | FileCheck %s --check-prefix=SCALAR

// A comment naming linalg.matmul_transpose_b stays as it is.
// CHECK: #[[$A:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK: #[[$B:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK: #[[$C:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @mm_t_b
// CHECK: tensor.empty() : tensor<64x96xf16>
// CHECK: linalg.matmul indexing_maps = [#[[$A]], #[[$B]], #[[$C]]] {note = "linalg.matmul_transpose_b"} ins(%{{.*}}, %{{.*}} : tensor<64x128xf16>, tensor<96x128xf16>)
func.func @mm_t_b(%a: tensor<64x128xf16>, %b: tensor<96x128xf16>) -> tensor<64x96xf16> {
  %z = arith.constant 0.0 : f16
  %e = linalg.init_tensor [64, 96] : tensor<64x96xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<64x96xf16>) -> tensor<64x96xf16>
  %r = linalg.matmul_transpose_b ins(%a, %b : tensor<64x128xf16>, tensor<96x128xf16>) outs(%f : tensor<64x96xf16>) {note = "linalg.matmul_transpose_b"} -> tensor<64x96xf16>
  return %r : tensor<64x96xf16>
}

// CHECK-LABEL: func.func @mm_t_a
// CHECK: linalg.matmul indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}] ins(%{{.*}}, %{{.*}} : tensor<128x64xf32>, tensor<128x96xf32>)
func.func @mm_t_a(%a: tensor<128x64xf32>, %b: tensor<128x96xf32>, %c: tensor<64x96xf32>) -> tensor<64x96xf32> {
  %r = linalg.matmul_transpose_a ins(%a, %b : tensor<128x64xf32>, tensor<128x96xf32>) outs(%c : tensor<64x96xf32>) -> tensor<64x96xf32>
  return %r : tensor<64x96xf32>
}

// CHECK-LABEL: func.func @bmm_t_b
// CHECK: linalg.batch_matmul indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}] ins(
func.func @bmm_t_b(%a: tensor<2x64x32xf16>, %b: tensor<2x48x32xf16>, %c: tensor<2x64x48xf16>) -> tensor<2x64x48xf16> {
  %r = linalg.batch_matmul_transpose_b ins(%a, %b : tensor<2x64x32xf16>, tensor<2x48x32xf16>) outs(%c : tensor<2x64x48xf16>) -> tensor<2x64x48xf16>
  return %r : tensor<2x64x48xf16>
}

// CHECK-LABEL: func.func @pack
// CHECK: linalg.pack %{{.*}} inner_dims_pos = [0, 1] inner_tiles = [8, 16]
// CHECK: linalg.unpack
func.func @pack(%a: tensor<32x64xf32>) -> tensor<32x64xf32> {
  %e = tensor.empty() : tensor<4x4x8x16xf32>
  %p = tensor.pack %a inner_dims_pos = [0, 1] inner_tiles = [8, 16] into %e : tensor<32x64xf32> -> tensor<4x4x8x16xf32>
  %u0 = tensor.empty() : tensor<32x64xf32>
  %u = tensor.unpack %p inner_dims_pos = [0, 1] inner_tiles = [8, 16] into %u0 : tensor<4x4x8x16xf32> -> tensor<32x64xf32>
  return %u : tensor<32x64xf32>
}

// RUN-CHECK: check result 0: ok
// PACK: check result 0: ok, max abs error 0.000000e+00

// linalg.elemwise_unary / elemwise_binary (removed upstream; byteir's test
// IR): linalg.elementwise of their function (exp and add by default, else
// `fun`), their unit-attribute markers dropped. A cast other than the
// signed default is left alone (and fails to parse, naming the op).
// CHECK-LABEL: func.func @elemwise
// CHECK: linalg.elementwise kind=#linalg.elementwise_kind<exp> ins(%arg0 : tensor<4x64xf32>)
// CHECK: linalg.elementwise kind=#linalg.elementwise_kind<log> ins(
// CHECK: linalg.elementwise kind=#linalg.elementwise_kind<add> ins(
// CHECK: linalg.elementwise kind=#linalg.elementwise_kind<mul> ins(
// ELEMWISE: check result 0: ok
func.func @elemwise(%a: tensor<4x64xf32>, %b: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %e = tensor.empty() : tensor<4x64xf32>
  %0 = linalg.elemwise_unary {__root__} ins(%a : tensor<4x64xf32>) outs(%e : tensor<4x64xf32>) -> tensor<4x64xf32>
  %1 = linalg.elemwise_unary {fun = #linalg.unary_fn<log>} ins(%0 : tensor<4x64xf32>) outs(%e : tensor<4x64xf32>) -> tensor<4x64xf32>
  %2 = linalg.elemwise_binary ins(%1, %b : tensor<4x64xf32>, tensor<4x64xf32>) outs(%e : tensor<4x64xf32>) -> tensor<4x64xf32>
  %3 = linalg.elemwise_binary {__a__, fun = #linalg.binary_fn<mul>, cast = #linalg.type_fn<cast_signed>} ins(%2, %b : tensor<4x64xf32>, tensor<4x64xf32>) outs(%e : tensor<4x64xf32>) -> tensor<4x64xf32>
  return %3 : tensor<4x64xf32>
}

// A scalar operand of elemwise_binary (a relu's zero, as graph-compiler's
// tests write it) is broadcast: linalg.elementwise reads it through a map to
// no dims.
// CHECK-LABEL: func.func @elemwise_scalar
// CHECK: linalg.elementwise kind=#linalg.elementwise_kind<max_signed> indexing_maps = [#{{[a-z0-9]+}}, #{{[a-z0-9]+}}, #{{[a-z0-9]+}}] ins(%arg0, %{{.*}} : tensor<4x64xf32>, f32)
// SCALAR: check result 0: ok
func.func @elemwise_scalar(%a: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %e = tensor.empty() : tensor<4x64xf32>
  %zero = arith.constant 0.0 : f32
  %0 = linalg.elemwise_binary { fun = #linalg.binary_fn<max_signed> }
    ins(%a, %zero : tensor<4x64xf32>, f32)
    outs(%e : tensor<4x64xf32>) -> tensor<4x64xf32>
  return %0 : tensor<4x64xf32>
}

// linalg.map as older releases wrote it: the mapper takes the inputs only
// (here after an attribute dictionary). It gains the init's element; a map
// in the current form is left alone.
// CHECK-LABEL: func.func @old_map
// (The printer writes a mapper of one op over the inputs in short form.)
// CHECK: linalg.map { arith.addf } ins(%{{.*}}, %{{.*}} : tensor<16x32xf32>, tensor<16x32xf32>) outs(%{{.*}} : tensor<16x32xf32>) {tag}
// CHECK: linalg.map { arith.negf } ins(%{{.*}} : tensor<16x32xf32>) outs(%{{.*}} : tensor<16x32xf32>)
// MAP: check result 0: ok
func.func @old_map(%a: tensor<16x32xf32>, %b: tensor<16x32xf32>) -> tensor<16x32xf32> {
  %e = tensor.empty() : tensor<16x32xf32>
  %s = linalg.map
      ins(%a, %b : tensor<16x32xf32>, tensor<16x32xf32>)
      outs(%e : tensor<16x32xf32>) {tag}
      (%x: f32, %y: f32) {
        %t = arith.addf %x, %y : f32
        linalg.yield %t : f32
      }
  %n = linalg.map ins(%s : tensor<16x32xf32>) outs(%e : tensor<16x32xf32>)
      (%z: f32, %unused: f32) {
        %m = arith.negf %z : f32
        linalg.yield %m : f32
      }
  return %n : tensor<16x32xf32>
}
