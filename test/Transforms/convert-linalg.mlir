// RUN: spyre-opt %s --spyre-convert-linalg -split-input-file -verify-diagnostics | FileCheck %s
// RUN: spyre-opt %s --spyre-convert-linalg -split-input-file --mlir-print-debuginfo --mlir-print-local-scope 2>/dev/null | FileCheck %s --check-prefix=LOC
// The pass works within one function: it runs nested, on each function.
// RUN: spyre-opt %s --pass-pipeline='builtin.module(func.func(spyre-convert-linalg))' -split-input-file -verify-diagnostics | FileCheck %s
// RUN: spyre-opt %s --spyre-convert-linalg=split-projections=false -split-input-file | FileCheck %s --check-prefix=WHOLE

// A matmul with a zero-filled init: the fill disappears.
// CHECK-LABEL: func.func @matmul
// CHECK-SAME: (%[[A:.+]]: tensor<128x256xf16>, %[[B:.+]]: tensor<256x64xf16>)
// CHECK-NOT: linalg.
// CHECK: %[[C:.+]] = spyre.matmul %[[A]], %[[B]] : tensor<128x256xf16>, tensor<256x64xf16> -> tensor<128x64xf16>
// CHECK: return %[[C]]
func.func @matmul(%a: tensor<128x256xf16>, %b: tensor<256x64xf16>) -> tensor<128x64xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<128x64xf16>
  %z = linalg.fill ins(%zero : f16) outs(%e : tensor<128x64xf16>) -> tensor<128x64xf16>
  %c = linalg.matmul ins(%a, %b : tensor<128x256xf16>, tensor<256x64xf16>) outs(%z : tensor<128x64xf16>) -> tensor<128x64xf16>
  return %c : tensor<128x64xf16>
}

// -----

// A transposed B given by indexing maps; a non-zero init is added.
// CHECK-LABEL: func.func @matmul_transposed_b
// CHECK-SAME: (%[[A:.+]]: tensor<128x256xf16>, %[[B:.+]]: tensor<64x256xf16>, %[[C:.+]]: tensor<128x64xf16>)
// CHECK: %[[P:.+]] = spyre.matmul %[[A]], %[[B]] {indexing_maps = [#[[MA:.+]], #[[MB:.+]], #[[MC:.+]]]} : tensor<128x256xf16>, tensor<64x256xf16> -> tensor<128x64xf16>
// CHECK: %[[S:.+]] = spyre.add %[[P]], %[[C]] : (tensor<128x64xf16>, tensor<128x64xf16>) -> tensor<128x64xf16>
// CHECK: return %[[S]]
func.func @matmul_transposed_b(%a: tensor<128x256xf16>, %b: tensor<64x256xf16>, %c: tensor<128x64xf16>) -> tensor<128x64xf16> {
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : tensor<128x256xf16>, tensor<64x256xf16>) outs(%c : tensor<128x64xf16>) -> tensor<128x64xf16>
  return %r : tensor<128x64xf16>
}

// -----

// CHECK-LABEL: func.func @batch_matmul
// CHECK: spyre.batch_matmul %{{.*}}, %{{.*}} : tensor<4x32x64xf16>, tensor<4x64x16xf16> -> tensor<4x32x16xf16>
func.func @batch_matmul(%a: tensor<4x32x64xf16>, %b: tensor<4x64x16xf16>) -> tensor<4x32x16xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<4x32x16xf16>
  %z = linalg.fill ins(%zero : f16) outs(%e : tensor<4x32x16xf16>) -> tensor<4x32x16xf16>
  %c = linalg.batch_matmul ins(%a, %b : tensor<4x32x64xf16>, tensor<4x64x16xf16>) outs(%z : tensor<4x32x16xf16>) -> tensor<4x32x16xf16>
  return %c : tensor<4x32x16xf16>
}

// -----

// f16 operands accumulated into f32: the product is converted.
// CHECK-LABEL: func.func @matmul_f32_result
// CHECK: %[[P:.+]] = spyre.matmul {{.*}} -> tensor<8x16xf16>
// CHECK: spyre.convert %[[P]] : tensor<8x16xf16> -> tensor<8x16xf32>
func.func @matmul_f32_result(%a: tensor<8x64xf16>, %b: tensor<64x16xf16>) -> tensor<8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %c = linalg.matmul ins(%a, %b : tensor<8x64xf16>, tensor<64x16xf16>) outs(%z : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %c : tensor<8x16xf32>
}

// -----

// Elementwise named ops convert through their bodies.
// CHECK-LABEL: func.func @named_elementwise
// CHECK-SAME: (%[[A:.+]]: tensor<8x64xf16>, %[[B:.+]]: tensor<8x64xf16>)
// CHECK: %[[S:.+]] = spyre.add %[[A]], %[[B]]
// CHECK: %[[E:.+]] = spyre.exp %[[S]]
// CHECK: %[[M:.+]] = spyre.maximum %[[E]], %[[B]]
// CHECK: %[[R:.+]] = spyre.reciprocal %[[M]]
// CHECK: return %[[R]]
func.func @named_elementwise(%a: tensor<8x64xf16>, %b: tensor<8x64xf16>) -> tensor<8x64xf16> {
  %e = tensor.empty() : tensor<8x64xf16>
  %s = linalg.add ins(%a, %b : tensor<8x64xf16>, tensor<8x64xf16>) outs(%e : tensor<8x64xf16>) -> tensor<8x64xf16>
  %x = linalg.exp ins(%s : tensor<8x64xf16>) outs(%e : tensor<8x64xf16>) -> tensor<8x64xf16>
  %m = linalg.max ins(%x, %b : tensor<8x64xf16>, tensor<8x64xf16>) outs(%e : tensor<8x64xf16>) -> tensor<8x64xf16>
  %r = linalg.reciprocal ins(%m : tensor<8x64xf16>) outs(%e : tensor<8x64xf16>) -> tensor<8x64xf16>
  return %r : tensor<8x64xf16>
}

// -----

// CHECK-LABEL: func.func @linalg_elementwise
// CHECK: spyre.sub
// CHECK: spyre.tanh
func.func @linalg_elementwise(%a: tensor<8x64xf16>, %b: tensor<8x64xf16>) -> tensor<8x64xf16> {
  %e = tensor.empty() : tensor<8x64xf16>
  %s = linalg.elementwise kind=#linalg.elementwise_kind<sub> ins(%a, %b : tensor<8x64xf16>, tensor<8x64xf16>) outs(%e : tensor<8x64xf16>) -> tensor<8x64xf16>
  %t = linalg.elementwise kind=#linalg.elementwise_kind<tanh> ins(%s : tensor<8x64xf16>) outs(%e : tensor<8x64xf16>) -> tensor<8x64xf16>
  return %t : tensor<8x64xf16>
}

// -----

// A generic body: every op becomes a spyre op over the iteration space; the
// bias broadcast is an indexing map, constants are scalars.
// CHECK-LABEL: func.func @gelu_tanh
// CHECK-SAME: (%[[X:.+]]: tensor<4x64xf16>, %[[B:.+]]: tensor<64xf16>)
// CHECK: %[[V:.+]] = spyre.add %[[X]], %[[B]] {indexing_maps = [#[[ID:.+]], #[[COL:.+]], #[[ID]]]}
// CHECK: spyre.tanh
// CHECK: %[[HALF:.+]] = spyre.constant dense<5.000000e-01> : tensor<f16> -> tensor<f16>
// CHECK: %[[H:.+]] = spyre.mul %[[V]], %[[HALF]] : (tensor<4x64xf16>, tensor<f16>) -> tensor<4x64xf16>
// CHECK-NOT: linalg.
func.func @gelu_tanh(%x: tensor<4x64xf16>, %b: tensor<64xf16>) -> tensor<4x64xf16> {
  %e = tensor.empty() : tensor<4x64xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x, %b : tensor<4x64xf16>, tensor<64xf16>) outs(%e : tensor<4x64xf16>) {
  ^bb0(%v0: f16, %bv: f16, %o: f16):
    %half = arith.constant 0.5 : f16
    %one = arith.constant 1.0 : f16
    %k = arith.constant 0.7978845608 : f16
    %v = arith.addf %v0, %bv : f16
    %in = arith.mulf %k, %v : f16
    %t = math.tanh %in : f16
    %p = arith.addf %one, %t : f16
    %h = arith.mulf %half, %v : f16
    %r = arith.mulf %h, %p : f16
    linalg.yield %r : f16
  } -> tensor<4x64xf16>
  return %r : tensor<4x64xf16>
}

// -----

// A generic writing its result transposed: computed in op-dim order, then a
// transpose view.
// CHECK-LABEL: func.func @transposed_output
// CHECK: %[[N:.+]] = spyre.neg %{{.*}} : (tensor<4x64xf16>) -> tensor<4x64xf16>
// CHECK: spyre.transpose %[[N]] permutation = [1, 0] : tensor<4x64xf16> -> tensor<64x4xf16>
func.func @transposed_output(%x: tensor<4x64xf16>) -> tensor<64x4xf16> {
  %e = tensor.empty() : tensor<64x4xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x64xf16>) outs(%e : tensor<64x4xf16>) {
  ^bb0(%v: f16, %o: f16):
    %n = arith.negf %v : f16
    linalg.yield %n : f16
  } -> tensor<64x4xf16>
  return %r : tensor<64x4xf16>
}

// -----

// Comparisons and select.
// CHECK-LABEL: func.func @where
// CHECK: %[[G:.+]] = spyre.greater_than {{.*}} -> tensor<4x64xi1>
// CHECK: spyre.where %[[G]], {{.*}} : (tensor<4x64xi1>, tensor<4x64xf16>, tensor<4x64xf16>) -> tensor<4x64xf16>
func.func @where(%a: tensor<4x64xf16>, %b: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %e = tensor.empty() : tensor<4x64xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) {
  ^bb0(%x: f16, %y: f16, %o: f16):
    %c = arith.cmpf ogt, %x, %y : f16
    %s = arith.select %c, %x, %y : f16
    linalg.yield %s : f16
  } -> tensor<4x64xf16>
  return %r : tensor<4x64xf16>
}

// -----

// A sum of squares as a reduction generic: the square elementwise, then the
// reduction; the zero init is neutral.
// CHECK-LABEL: func.func @sum_of_squares
// CHECK-SAME: (%[[X:.+]]: tensor<32x4096xf16>)
// CHECK: %[[SQ:.+]] = spyre.mul %[[X]], %[[X]]
// CHECK: %[[S:.+]] = spyre.sum %[[SQ]] dim = 1 : tensor<32x4096xf16> -> tensor<32xf16>
// CHECK: return %[[S]]
func.func @sum_of_squares(%x: tensor<32x4096xf16>) -> tensor<32xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<32xf16>
  %z = linalg.fill ins(%zero : f16) outs(%e : tensor<32xf16>) -> tensor<32xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<32x4096xf16>) outs(%z : tensor<32xf16>) {
  ^bb0(%v: f16, %acc: f16):
    %p = arith.mulf %v, %v : f16
    %s = arith.addf %p, %acc : f16
    linalg.yield %s : f16
  } -> tensor<32xf16>
  return %r : tensor<32xf16>
}

// -----

// linalg.reduce with max over two dims: one reduction per dim, highest
// first; -inf is max's neutral element.
// CHECK-LABEL: func.func @reduce_max
// CHECK: %[[R2:.+]] = spyre.max %{{.*}} dim = 2 : tensor<4x8x64xf16> -> tensor<4x8xf16>
// CHECK: %[[R1:.+]] = spyre.max %[[R2]] dim = 1 : tensor<4x8xf16> -> tensor<4xf16>
// CHECK: return %[[R1]]
func.func @reduce_max(%x: tensor<4x8x64xf16>) -> tensor<4xf16> {
  %ninf = arith.constant 0xFC00 : f16
  %e = tensor.empty() : tensor<4xf16>
  %i = linalg.fill ins(%ninf : f16) outs(%e : tensor<4xf16>) -> tensor<4xf16>
  %r = linalg.reduce ins(%x : tensor<4x8x64xf16>) outs(%i : tensor<4xf16>) dimensions = [1, 2]
    (%in: f16, %init: f16) {
      %m = arith.maximumf %in, %init : f16
      linalg.yield %m : f16
    }
  return %r : tensor<4xf16>
}

// -----

// A non-neutral init is combined after the reduction.
// CHECK-LABEL: func.func @sum_into_init
// CHECK-SAME: (%[[X:.+]]: tensor<8x64xf16>, %[[I:.+]]: tensor<8xf16>)
// CHECK: %[[S:.+]] = spyre.sum %[[X]] dim = 1
// CHECK: %[[R:.+]] = spyre.add %[[S]], %[[I]]
// CHECK: return %[[R]]
func.func @sum_into_init(%x: tensor<8x64xf16>, %i: tensor<8xf16>) -> tensor<8xf16> {
  %r = linalg.reduce ins(%x : tensor<8x64xf16>) outs(%i : tensor<8xf16>) dimensions = [1]
    (%in: f16, %init: f16) {
      %s = arith.addf %in, %init : f16
      linalg.yield %s : f16
    }
  return %r : tensor<8xf16>
}

// -----

// Softmax: max, sub, exp, sum, reciprocal, mul.
// CHECK-LABEL: func.func @softmax
// CHECK-SAME: (%[[X:.+]]: tensor<8x1000xf16>)
// CHECK: %[[MAX:.+]] = spyre.max %[[X]] dim = 1 : tensor<8x1000xf16> -> tensor<8xf16>
// CHECK: %[[SUB:.+]] = spyre.sub %[[X]], %[[MAX]] {indexing_maps = [#[[ID:.+]], #[[ROW:.+]], #[[ID]]]}
// CHECK: %[[EXP:.+]] = spyre.exp %[[SUB]]
// CHECK: %[[SUM:.+]] = spyre.sum %[[EXP]] dim = 1
// CHECK: %[[INV:.+]] = spyre.reciprocal %[[SUM]] : (tensor<8xf16>) -> tensor<8xf16>
// CHECK: %[[Y:.+]] = spyre.mul %[[EXP]], %[[INV]] {indexing_maps = [#[[ID]], #[[ROW]], #[[ID]]]}
// CHECK: return %[[Y]]
func.func @softmax(%x: tensor<8x1000xf16>) -> tensor<8x1000xf16> {
  %e = tensor.empty() : tensor<8x1000xf16>
  %y = linalg.softmax dimension(1) ins(%x : tensor<8x1000xf16>) outs(%e : tensor<8x1000xf16>) -> tensor<8x1000xf16>
  return %y : tensor<8x1000xf16>
}

// -----

// Transposes are views; broadcasts fold into the consumer's map.
// CHECK-LABEL: func.func @views
// CHECK-SAME: (%[[X:.+]]: tensor<64x8xf16>, %[[B:.+]]: tensor<64xf16>)
// CHECK: %[[T:.+]] = spyre.transpose %[[X]] permutation = [1, 0] : tensor<64x8xf16> -> tensor<8x64xf16>
// CHECK-NOT: linalg.broadcast
// CHECK: %[[S:.+]] = spyre.add %[[T]], %[[B]] {indexing_maps = [#[[ID:.+]], #[[COL:.+]], #[[ID]]]}
// CHECK: return %[[S]]
func.func @views(%x: tensor<64x8xf16>, %b: tensor<64xf16>) -> tensor<8x64xf16> {
  %e = tensor.empty() : tensor<8x64xf16>
  %t = linalg.transpose ins(%x : tensor<64x8xf16>) outs(%e : tensor<8x64xf16>) permutation = [1, 0]
  %bb = linalg.broadcast ins(%b : tensor<64xf16>) outs(%e : tensor<8x64xf16>) dimensions = [0]
  %s = linalg.add ins(%t, %bb : tensor<8x64xf16>, tensor<8x64xf16>) outs(%e : tensor<8x64xf16>) -> tensor<8x64xf16>
  return %s : tensor<8x64xf16>
}

// -----

// Reshapes become spyre reshapes; size-1 dims read at constant 0 are
// reshaped away.
// CHECK-LABEL: func.func @reshapes
// CHECK: %[[R:.+]] = spyre.reshape %{{.*}} : tensor<8x64xf16> -> tensor<8x4x16xf16>
// CHECK: spyre.reshape %{{.*}} : tensor<8x4x16xf16> -> tensor<512xf16>
// CHECK: spyre.reshape %{{.*}} : tensor<8x1xf16> -> tensor<8xf16>
func.func @reshapes(%x: tensor<8x64xf16>, %m: tensor<8x1xf16>) -> (tensor<512xf16>, tensor<8x64xf16>) {
  %a = tensor.expand_shape %x [[0], [1, 2]] output_shape [8, 4, 16] : tensor<8x64xf16> into tensor<8x4x16xf16>
  %b = tensor.collapse_shape %a [[0, 1, 2]] : tensor<8x4x16xf16> into tensor<512xf16>
  %e = tensor.empty() : tensor<8x64xf16>
  %c = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x, %m : tensor<8x64xf16>, tensor<8x1xf16>) outs(%e : tensor<8x64xf16>) {
  ^bb0(%v: f16, %s: f16, %o: f16):
    %d = arith.subf %v, %s : f16
    linalg.yield %d : f16
  } -> tensor<8x64xf16>
  return %b, %c : tensor<512xf16>, tensor<8x64xf16>
}

// -----

// Splats read elementwise (fills, splat constants) are scalars; other dense
// constants are device constants.
// CHECK-LABEL: func.func @constants
// CHECK: %[[TWO:.+]] = spyre.constant dense<2.000000e+00> : tensor<f16> -> tensor<f16>
// CHECK: %[[M:.+]] = spyre.mul %{{.*}}, %[[TWO]] : (tensor<2x2xf16>, tensor<f16>) -> tensor<2x2xf16>
// CHECK: %[[W:.+]] = spyre.constant dense<{{\[\[}}1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]> : tensor<2x2xf16> -> tensor<2x2xf16>
// CHECK: spyre.add %[[M]], %[[W]]
func.func @constants(%x: tensor<2x2xf16>) -> tensor<2x2xf16> {
  %c = arith.constant dense<2.0> : tensor<2x2xf16>
  %w = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf16>
  %e = tensor.empty() : tensor<2x2xf16>
  %r = linalg.mul ins(%x, %c : tensor<2x2xf16>, tensor<2x2xf16>) outs(%e : tensor<2x2xf16>) -> tensor<2x2xf16>
  %s = linalg.add ins(%r, %w : tensor<2x2xf16>, tensor<2x2xf16>) outs(%e : tensor<2x2xf16>) -> tensor<2x2xf16>
  return %s : tensor<2x2xf16>
}

// -----

// Static boxes with unit strides are device copies when they start on a
// whole stick of the innermost dim; a rank-reducing slice is the box and a
// view dropping its unit dims. Strided and dynamic boxes stay on the host.
// CHECK-LABEL: func.func @boxes
func.func @boxes(%x: tensor<4x64x256xf16>, %i: index) -> (tensor<2x64x128xf16>, tensor<64x256xf16>, tensor<2x64x64xf16>, tensor<?x64x256xf16>) {
  // CHECK: %[[A:.*]] = spyre.extract_slice %arg0 offsets = [1, 0, 128] : tensor<4x64x256xf16> -> tensor<2x64x128xf16>
  %a = tensor.extract_slice %x[1, 0, 128] [2, 64, 128] [1, 1, 1] : tensor<4x64x256xf16> to tensor<2x64x128xf16>
  // CHECK: %[[B0:.*]] = spyre.extract_slice %arg0 offsets = [3, 0, 0] : tensor<4x64x256xf16> -> tensor<1x64x256xf16>
  // CHECK: %[[B:.*]] = spyre.reshape %[[B0]] : tensor<1x64x256xf16> -> tensor<64x256xf16>
  %b = tensor.extract_slice %x[3, 0, 0] [1, 64, 256] [1, 1, 1] : tensor<4x64x256xf16> to tensor<64x256xf16>
  // expected-remark @+1 {{'tensor.extract_slice' stays on the host: it has dynamic offsets or sizes, or strides other than 1}}
  %c = tensor.extract_slice %x[0, 0, 0] [2, 64, 64] [2, 1, 1] : tensor<4x64x256xf16> to tensor<2x64x64xf16>
  // expected-remark @+1 {{'tensor.extract_slice' stays on the host: it has dynamic offsets or sizes, or strides other than 1}}
  %d = tensor.extract_slice %x[0, 0, 0] [%i, 64, 256] [1, 1, 1] : tensor<4x64x256xf16> to tensor<?x64x256xf16>
  // CHECK: return %[[A]], %[[B]]
  return %a, %b, %c, %d : tensor<2x64x128xf16>, tensor<64x256xf16>, tensor<2x64x64xf16>, tensor<?x64x256xf16>
}

// -----

// Written boxes: an insert into a tensor.empty writes into a fresh
// spyre.empty; a concatenation writes each input into its box of one; a
// pad fills the padded shape on the device and writes the input into it,
// its last stick's rest covered by the fill. Boxes that start or end inside
// a stick of the innermost dim stay on the host.
// CHECK-LABEL: func.func @written_boxes
func.func @written_boxes(%a: tensor<64x128xf16>, %b: tensor<64x64xf16>, %p: tensor<60x100xf16>, %r: tensor<64x100xf16>) -> (tensor<64x256xf16>, tensor<64x192xf16>, tensor<64x128xf16>, tensor<64x256xf16>, tensor<64x164xf16>) {
  %e = tensor.empty() : tensor<64x256xf16>
  // CHECK: %[[E:.*]] = spyre.empty : tensor<64x256xf16>
  // CHECK: %[[I:.*]] = spyre.insert_slice %arg0 into %[[E]] offsets = [0, 128] : tensor<64x128xf16> into tensor<64x256xf16> -> tensor<64x256xf16>
  %i = tensor.insert_slice %a into %e[0, 128] [64, 128] [1, 1] : tensor<64x128xf16> into tensor<64x256xf16>
  // CHECK: %[[C0:.*]] = spyre.empty : tensor<64x192xf16>
  // CHECK: %[[C1:.*]] = spyre.insert_slice %arg0 into %[[C0]] offsets = [0, 0]
  // CHECK: %[[C:.*]] = spyre.insert_slice %arg1 into %[[C1]] offsets = [0, 128]
  %c = tensor.concat dim(1) %a, %b : (tensor<64x128xf16>, tensor<64x64xf16>) -> tensor<64x192xf16>
  %z = arith.constant 2.0 : f16
  // CHECK: %[[V:.*]] = spyre.constant dense<2.000000e+00> : tensor<f16> -> tensor<f16>
  // CHECK: %[[F:.*]] = spyre.identity %[[V]] : (tensor<f16>) -> tensor<64x128xf16>
  // CHECK: %[[P:.*]] = spyre.insert_slice %arg2 into %[[F]] offsets = [4, 0] {fill = 2.000000e+00 : f64}
  %q = tensor.pad %p low[4, 0] high[0, 28] {
  ^bb0(%x: index, %y: index):
    tensor.yield %z : f16
  } : tensor<60x100xf16> to tensor<64x128xf16>
  // expected-remark @+1 {{'tensor.insert_slice' stays on the host: the box ends at element 100 of the innermost dim, inside a stick of 64 elements}}
  %h = tensor.insert_slice %p into %e[0, 0] [60, 100] [1, 1] : tensor<60x100xf16> into tensor<64x256xf16>
  // expected-remark @+1 {{'tensor.concat' stays on the host: input at element 0: the box ends at element 100 of the innermost dim, inside a stick of 64 elements}}
  %k = tensor.concat dim(1) %r, %b : (tensor<64x100xf16>, tensor<64x64xf16>) -> tensor<64x164xf16>
  // CHECK: return %[[I]], %[[C]], %[[P]]
  return %i, %c, %q, %h, %k : tensor<64x256xf16>, tensor<64x192xf16>, tensor<64x128xf16>, tensor<64x256xf16>, tensor<64x164xf16>
}

// -----

// A reduction in f64 (fuseflow's GPT-3 layer norm) stays on the host: the
// device has no f64.
func.func @sum_f64(%x: tensor<4x64xf64>) -> tensor<4xf64> {
  %z = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<4xf64>
  %f = linalg.fill ins(%z : f64) outs(%e : tensor<4xf64>) -> tensor<4xf64>
  // expected-remark @+1 {{'linalg.generic' stays on the host: operand #0 holds f64, which no device tensor holds}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x64xf64>) outs(%f : tensor<4xf64>) {
  ^bb0(%v: f64, %acc: f64):
    %s = arith.addf %v, %acc : f64
    linalg.yield %s : f64
  } -> tensor<4xf64>
  return %r : tensor<4xf64>
}

// -----

// What the device cannot do stays on the host, with a remark.
func.func @sin(%x: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %e = tensor.empty() : tensor<4x64xf16>
  // expected-remark @+1 {{'linalg.generic' stays on the host: its body uses 'math.sin', which has no Spyre op}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) {
  ^bb0(%v: f16, %o: f16):
    %y = math.sin %v : f16
    linalg.yield %y : f16
  } -> tensor<4x64xf16>
  return %r : tensor<4x64xf16>
}

// -----

// erf has no device instruction: it is computed from device ops in f32
// (Abramowitz and Stegun 7.1.26), here of a transposed read.
// CHECK-LABEL: func.func @erf
// CHECK-SAME: (%[[X:.+]]: tensor<64x4xf16>)
// CHECK: %[[T:.+]] = spyre.identity %[[X]] {indexing_maps = [#{{.+}}, #{{.+}}]} : (tensor<64x4xf16>) -> tensor<4x64xf16>
// CHECK: %[[W:.+]] = spyre.convert %[[T]] : tensor<4x64xf16> -> tensor<4x64xf32>
// CHECK: %[[A:.+]] = spyre.abs %[[W]] : (tensor<4x64xf32>) -> tensor<4x64xf32>
// CHECK: spyre.reciprocal
// CHECK: %[[SQ:.+]] = spyre.mul %[[W]], %[[W]]
// CHECK: spyre.exp
// CHECK: %[[Y:.+]] = spyre.sub
// CHECK: %[[D:.+]] = spyre.add %[[A]]
// CHECK: %[[S:.+]] = spyre.div %[[W]], %[[D]]
// CHECK: %[[E:.+]] = spyre.mul %[[Y]], %[[S]] : (tensor<4x64xf32>, tensor<4x64xf32>) -> tensor<4x64xf32>
// CHECK: %[[R:.+]] = spyre.convert %[[E]] : tensor<4x64xf32> -> tensor<4x64xf16>
// CHECK: return %[[R]]
func.func @erf(%x: tensor<64x4xf16>) -> tensor<4x64xf16> {
  %e = tensor.empty() : tensor<4x64xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<64x4xf16>) outs(%e : tensor<4x64xf16>) {
  ^bb0(%v: f16, %o: f16):
    %y = math.erf %v : f16
    linalg.yield %y : f16
  } -> tensor<4x64xf16>
  return %r : tensor<4x64xf16>
}

// -----

// The exact GELU as torch-mlir writes it (x * (0.5 * (1 + erf((x - 0) /
// sqrt(2))))) is the device's gelufwd: erf alone is not.
// CHECK-LABEL: func.func @gelu_torch_mlir
// CHECK-SAME: (%[[X:.+]]: tensor<4x64xf16>)
// CHECK-NEXT: %[[G:.+]] = spyre.gelu %[[X]] : (tensor<4x64xf16>) -> tensor<4x64xf16>
// CHECK-NEXT: return %[[G]]
// LOC-LABEL: func.func @gelu_torch_mlir
// LOC: spyre.gelu {{.*}} loc("{{.*}}convert-linalg.mlir":[[# @LINE + 17]]:10)
func.func @gelu_torch_mlir(%x: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %e = tensor.empty() : tensor<4x64xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) {
  ^bb0(%v: f16, %o: f16):
    %zero = arith.constant 0.0 : f16
    %one = arith.constant 1.0 : f16
    %two = arith.constant 2.0 : f16
    %half = arith.constant 0.5 : f16
    %centred = arith.subf %v, %zero : f16
    %sqrt2 = math.sqrt %two : f16
    %z = arith.divf %centred, %sqrt2 : f16
    %erf = math.erf %z : f16
    %p = arith.addf %one, %erf : f16
    %cdf = arith.mulf %half, %p : f16
    %g = arith.mulf %v, %cdf : f16
    linalg.yield %g : f16
  } -> tensor<4x64xf16>
  return %r : tensor<4x64xf16>
}

// -----

// StableHLO's and JAX's association, 0.5 * x * (1 + erf(x * 0.7071)), on
// bf16.
// CHECK-LABEL: func.func @gelu_stablehlo
// CHECK-NEXT: %[[G:.+]] = spyre.gelu %{{.+}} : (tensor<4x64xbf16>) -> tensor<4x64xbf16>
// CHECK-NEXT: return %[[G]]
func.func @gelu_stablehlo(%x: tensor<4x64xbf16>) -> tensor<4x64xbf16> {
  %e = tensor.empty() : tensor<4x64xbf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x64xbf16>) outs(%e : tensor<4x64xbf16>) {
  ^bb0(%v: bf16, %o: bf16):
    %half = arith.constant 0.5 : bf16
    %one = arith.constant 1.0 : bf16
    %c = arith.constant 0.70703125 : bf16
    %h = arith.mulf %half, %v : bf16
    %z = arith.mulf %v, %c : bf16
    %erf = math.erf %z : bf16
    %p = arith.addf %erf, %one : bf16
    %g = arith.mulf %h, %p : bf16
    linalg.yield %g : bf16
  } -> tensor<4x64xbf16>
  return %r : tensor<4x64xbf16>
}

// -----

// The rest of the body around a GELU converts as usual (a bias added
// before, a scale after), and the erf argument may be used elsewhere.
// CHECK-LABEL: func.func @gelu_in_a_body
// CHECK-SAME: (%[[X:.+]]: tensor<4x64xf16>, %[[B:.+]]: tensor<64xf16>)
// CHECK: %[[SUM:.+]] = spyre.add %[[X]], %[[B]]
// CHECK: %[[Z:.+]] = spyre.mul %[[SUM]]
// CHECK: %[[G:.+]] = spyre.gelu %[[SUM]]
// CHECK: %[[R:.+]] = spyre.add %[[G]], %[[Z]]
// CHECK: return %[[R]]
func.func @gelu_in_a_body(%x: tensor<4x64xf16>, %b: tensor<64xf16>) -> tensor<4x64xf16> {
  %e = tensor.empty() : tensor<4x64xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x, %b : tensor<4x64xf16>, tensor<64xf16>) outs(%e : tensor<4x64xf16>) {
  ^bb0(%v: f16, %bias: f16, %o: f16):
    %half = arith.constant 0.5 : f16
    %one = arith.constant 1.0 : f16
    %c = arith.constant 0.70703125 : f16
    %s = arith.addf %v, %bias : f16
    %z = arith.mulf %s, %c : f16
    %erf = math.erf %z : f16
    %p = arith.addf %erf, %one : f16
    %q = arith.mulf %s, %p : f16
    %g = arith.mulf %q, %half : f16
    %out = arith.addf %g, %z : f16
    linalg.yield %out : f16
  } -> tensor<4x64xf16>
  return %r : tensor<4x64xf16>
}

// -----

// Not a GELU (the erf is used twice; another constant): erf is computed
// from device ops.
// CHECK-LABEL: func.func @erf_twice
// CHECK-NOT: spyre.gelu
// CHECK: spyre.exp
// CHECK-NOT: spyre.gelu
// CHECK: return
func.func @erf_twice(%x: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %e = tensor.empty() : tensor<4x64xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) {
  ^bb0(%v: f16, %o: f16):
    %half = arith.constant 0.5 : f16
    %one = arith.constant 1.0 : f16
    %c = arith.constant 0.70703125 : f16
    %z = arith.mulf %v, %c : f16
    %erf = math.erf %z : f16
    %p = arith.addf %erf, %one : f16
    %q = arith.mulf %v, %p : f16
    %g = arith.mulf %q, %half : f16
    %out = arith.addf %g, %erf : f16
    linalg.yield %out : f16
  } -> tensor<4x64xf16>
  return %r : tensor<4x64xf16>
}

// -----

// CHECK-LABEL: func.func @gelu_scaled_wrong
// CHECK-NOT: spyre.gelu
// CHECK: spyre.exp
// CHECK-NOT: spyre.gelu
// CHECK: return
func.func @gelu_scaled_wrong(%x: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %e = tensor.empty() : tensor<4x64xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) {
  ^bb0(%v: f16, %o: f16):
    %half = arith.constant 0.5 : f16
    %one = arith.constant 1.0 : f16
    %c = arith.constant 0.75 : f16
    %z = arith.mulf %v, %c : f16
    %erf = math.erf %z : f16
    %p = arith.addf %erf, %one : f16
    %q = arith.mulf %v, %p : f16
    %g = arith.mulf %q, %half : f16
    linalg.yield %g : f16
  } -> tensor<4x64xf16>
  return %r : tensor<4x64xf16>
}

// -----

// On f32 the device has no gelu: the GELU is computed as written, its erf
// from device ops.
// CHECK-LABEL: func.func @gelu_f32
// CHECK-NOT: spyre.gelu
// CHECK-NOT: spyre.convert
// CHECK: spyre.exp
// CHECK-NOT: spyre.gelu
// CHECK: return
func.func @gelu_f32(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %e = tensor.empty() : tensor<4x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x64xf32>) outs(%e : tensor<4x64xf32>) {
  ^bb0(%v: f32, %o: f32):
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %c = arith.constant 0.707106769 : f32
    %z = arith.mulf %v, %c : f32
    %erf = math.erf %z : f32
    %p = arith.addf %erf, %one : f32
    %q = arith.mulf %v, %p : f32
    %g = arith.mulf %q, %half : f32
    linalg.yield %g : f32
  } -> tensor<4x64xf32>
  return %r : tensor<4x64xf32>
}

// -----

// Rounding to fp8 (`.to(torch.float8_e4m3fn)`: arith.truncf) is the
// device's qfp8ch conversion; the rest of the body computes in f16.
// CHECK-LABEL: func.func @truncf_to_fp8
// CHECK: %[[MIN:.+]] = spyre.minimum
// CHECK: %[[Q:.+]] = spyre.convert %[[MIN]] : tensor<4x64xf16> -> tensor<4x64xf8E4M3FN>
// CHECK: return %[[Q]]
func.func @truncf_to_fp8(%x: tensor<4x64xf16>) -> tensor<4x64xf8E4M3FN> {
  %e = tensor.empty() : tensor<4x64xf8E4M3FN>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x64xf16>) outs(%e : tensor<4x64xf8E4M3FN>) {
  ^bb0(%v: f16, %o: f8E4M3FN):
    %lo = arith.constant -448.0 : f16
    %hi = arith.constant 448.0 : f16
    %0 = arith.maximumf %v, %lo : f16
    %1 = arith.minimumf %0, %hi : f16
    %2 = arith.truncf %1 : f16 to f8E4M3FN
    linalg.yield %2 : f8E4M3FN
  } -> tensor<4x64xf8E4M3FN>
  return %r : tensor<4x64xf8E4M3FN>
}

// -----

// Other narrow types stay on the host: the device computes on nothing
// narrower than 16 bits, and converts only to fp8.
func.func @truncf_to_fp4(%x: tensor<4x64xf16>) -> tensor<4x64xf4E2M1FN> {
  %e = tensor.empty() : tensor<4x64xf4E2M1FN>
  // expected-remark @+1 {{'linalg.generic' stays on the host: its body computes on f4E2M1FN; the device computes on f16, bf16 and f32}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x64xf16>) outs(%e : tensor<4x64xf4E2M1FN>) {
  ^bb0(%v: f16, %o: f4E2M1FN):
    %0 = arith.truncf %v : f16 to f4E2M1FN
    linalg.yield %0 : f4E2M1FN
  } -> tensor<4x64xf4E2M1FN>
  return %r : tensor<4x64xf4E2M1FN>
}

// -----

func.func @integers(%a: tensor<4x64xi32>, %b: tensor<4x64xi32>) -> tensor<4x64xi32> {
  %e = tensor.empty() : tensor<4x64xi32>
  // expected-remark @+1 {{'linalg.add' stays on the host: its body computes on i32; the device computes on f16, bf16 and f32}}
  %r = linalg.add ins(%a, %b : tensor<4x64xi32>, tensor<4x64xi32>) outs(%e : tensor<4x64xi32>) -> tensor<4x64xi32>
  return %r : tensor<4x64xi32>
}

// -----

func.func @product_reduction(%x: tensor<4x64xf16>) -> tensor<4xf16> {
  %one = arith.constant 1.0 : f16
  %e = tensor.empty() : tensor<4xf16>
  %i = linalg.fill ins(%one : f16) outs(%e : tensor<4xf16>) -> tensor<4xf16>
  // expected-remark @+1 {{'linalg.reduce' stays on the host: its reduction does not combine with add, maximumf or minimumf}}
  %r = linalg.reduce ins(%x : tensor<4x64xf16>) outs(%i : tensor<4xf16>) dimensions = [1]
    (%in: f16, %init: f16) {
      %m = arith.mulf %in, %init : f16
      linalg.yield %m : f16
    }
  return %r : tensor<4xf16>
}

// -----

func.func @dynamic(%x: tensor<?x64xf16>) -> tensor<?x64xf16> {
  // expected-remark @+1 {{'linalg.exp' stays on the host: its iteration space is dynamic}}
  %r = linalg.exp ins(%x : tensor<?x64xf16>) outs(%x : tensor<?x64xf16>) -> tensor<?x64xf16>
  return %r : tensor<?x64xf16>
}

// -----

func.func @float32_matmul(%a: tensor<8x64xf32>, %b: tensor<64x8xf32>, %c: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-remark @+1 {{'linalg.matmul' stays on the host: the PT unit does not multiply f32 (--spyre-convert-linalg=f32-matmul=f16 computes it in f16 on the device)}}
  %r = linalg.matmul ins(%a, %b : tensor<8x64xf32>, tensor<64x8xf32>) outs(%c : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}

// -----

// Inits that are fills of non-neutral constants are added once, as scalars:
// nothing of them stays on the host.
// CHECK-LABEL: func.func @fill_inits
// CHECK-SAME: (%[[A:.+]]: tensor<128x256xf16>, %[[B:.+]]: tensor<256x64xf16>)
// CHECK-NOT: linalg.
// CHECK-NOT: arith.
// CHECK-DAG: %[[S:.+]] = spyre.sum %[[A]] dim = 1 : tensor<128x256xf16> -> tensor<128xf16>
// CHECK-DAG: %[[FIVE:.+]] = spyre.constant dense<5.000000e+00> : tensor<f16> -> tensor<f16>
// CHECK: %[[R:.+]] = spyre.add %[[S]], %[[FIVE]] : (tensor<128xf16>, tensor<f16>) -> tensor<128xf16>
// CHECK-DAG: %[[P:.+]] = spyre.matmul %[[A]], %[[B]]
// CHECK-DAG: %[[ONE:.+]] = spyre.constant dense<1.000000e+00> : tensor<f16> -> tensor<f16>
// CHECK: %[[M:.+]] = spyre.add %[[P]], %[[ONE]] : (tensor<128x64xf16>, tensor<f16>) -> tensor<128x64xf16>
// CHECK: return %[[R]], %[[M]]
func.func @fill_inits(%a: tensor<128x256xf16>, %b: tensor<256x64xf16>) -> (tensor<128xf16>, tensor<128x64xf16>) {
  %five = arith.constant 5.0 : f16
  %one = arith.constant 1.0 : f16
  %e = tensor.empty() : tensor<128xf16>
  %i = linalg.fill ins(%five : f16) outs(%e : tensor<128xf16>) -> tensor<128xf16>
  %r = linalg.reduce ins(%a : tensor<128x256xf16>) outs(%i : tensor<128xf16>) dimensions = [1]
    (%x: f16, %acc: f16) {
      %s = arith.addf %x, %acc : f16
      linalg.yield %s : f16
    }
  %e2 = tensor.empty() : tensor<128x64xf16>
  %ones = linalg.fill ins(%one : f16) outs(%e2 : tensor<128x64xf16>) -> tensor<128x64xf16>
  %m = linalg.matmul ins(%a, %b : tensor<128x256xf16>, tensor<256x64xf16>) outs(%ones : tensor<128x64xf16>) -> tensor<128x64xf16>
  return %r, %m : tensor<128xf16>, tensor<128x64xf16>
}

// -----

// A fill or a constant returned as it is becomes a spyre.constant.
// CHECK-LABEL: func.func @returned_constants
// CHECK-DAG: %[[F:.+]] = spyre.constant dense<3.000000e+00> : tensor<4x64xf16> -> tensor<4x64xf16>
// CHECK-DAG: %[[C:.+]] = spyre.constant dense<2.000000e+00> : tensor<4x64xf32> -> tensor<4x64xf32>
// CHECK: return %[[F]], %[[C]]
func.func @returned_constants() -> (tensor<4x64xf16>, tensor<4x64xf32>) {
  %three = arith.constant 3.0 : f16
  %e = tensor.empty() : tensor<4x64xf16>
  %f = linalg.fill ins(%three : f16) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  %c = arith.constant dense<2.0> : tensor<4x64xf32>
  return %f, %c : tensor<4x64xf16>, tensor<4x64xf32>
}

// -----

// Whatever else stays on the host says why, so that later errors about it
// (the simulator's) can point at a remark.
func.func private @callee(%a: tensor<4x64xf16>) -> tensor<4x64xf16>

func.func @host_leftovers(%a: tensor<128x256xf16>, %s: f16, %b: tensor<4x64xf16>) -> (tensor<64x248xf16>, tensor<4x64xf16>, tensor<4x64xf16>, tensor<4x64xi32>) {
  // expected-remark @+1 {{'tensor.extract_slice' stays on the host: the box starts at element 8 of the innermost dim, inside a stick of 64 elements}}
  %slice = tensor.extract_slice %a[0, 8] [64, 248] [1, 1] : tensor<128x256xf16> to tensor<64x248xf16>
  // expected-remark @+1 {{'func.call' stays on the host: calls are not compiled for the device; inline @callee first (--inline)}}
  %call = func.call @callee(%b) : (tensor<4x64xf16>) -> tensor<4x64xf16>
  %e = tensor.empty() : tensor<4x64xf16>
  // expected-remark @+1 {{'linalg.fill' stays on the host: it fills with a value that is not a float constant}}
  %fill = linalg.fill ins(%s : f16) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  %sum = linalg.add ins(%b, %fill : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  // expected-remark @+1 {{'arith.constant' stays on the host: device constants hold f16, bf16 or f32 elements, not i32}}
  %ints = arith.constant dense<7> : tensor<4x64xi32>
  return %slice, %call, %sum, %ints : tensor<64x248xf16>, tensor<4x64xf16>, tensor<4x64xf16>, tensor<4x64xi32>
}

// -----

// Ops built from a named op's implicit body (no location of its own) take
// the named op's location; a generic's body ops keep theirs.
// LOC-LABEL: func.func @locations
// LOC: spyre.add {{.*}} loc("{{.*}}convert-linalg.mlir":[[# @LINE + 6]]:8)
// LOC: spyre.exp {{.*}} loc("{{.*}}convert-linalg.mlir":[[# @LINE + 6]]:8)
// LOC: spyre.neg {{.*}} loc("{{.*}}convert-linalg.mlir":[[# @LINE + 10]]:10)
// LOC: spyre.sum {{.*}} loc("{{.*}}convert-linalg.mlir":[[# @LINE + 13]]:8)
func.func @locations(%a: tensor<8x64xf16>, %b: tensor<8x64xf16>) -> (tensor<8x64xf16>, tensor<8xf16>) {
  %e = tensor.empty() : tensor<8x64xf16>
  %s = linalg.add ins(%a, %b : tensor<8x64xf16>, tensor<8x64xf16>) outs(%e : tensor<8x64xf16>) -> tensor<8x64xf16>
  %x = linalg.exp ins(%s : tensor<8x64xf16>) outs(%e : tensor<8x64xf16>) -> tensor<8x64xf16>
  %n = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x64xf16>) outs(%e : tensor<8x64xf16>) {
  ^bb0(%v: f16, %o: f16):
    %y = arith.negf %v : f16
    linalg.yield %y : f16
  } -> tensor<8x64xf16>
  %z = tensor.empty() : tensor<8xf16>
  %r = linalg.reduce ins(%n : tensor<8x64xf16>) outs(%z : tensor<8xf16>) dimensions = [1]
    (%in: f16, %acc: f16) {
      %t = arith.addf %in, %acc : f16
      linalg.yield %t : f16
    }
  return %n, %r : tensor<8x64xf16>, tensor<8xf16>
}

// -----

// Only the comparisons whose NaN semantics the device ops share convert:
// ordered ones, and une (true on NaN, as `!=`). maxnumf ignores NaN where
// spyre.maximum propagates it (arith.maximumf), so it stays on the host.
// CHECK-LABEL: func.func @nan_semantics
// CHECK: spyre.greater_than
// CHECK: spyre.not_equal
func.func @nan_semantics(%x: tensor<4x64xf16>, %y: tensor<4x64xf16>) -> (tensor<4x64xi1>, tensor<4x64xi1>, tensor<4x64xi1>, tensor<4x64xf16>) {
  %e = tensor.empty() : tensor<4x64xi1>
  %ogt = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                         iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xi1>) {
  ^bb0(%a: f16, %b: f16, %o: i1):
    %c = arith.cmpf ogt, %a, %b : f16
    linalg.yield %c : i1
  } -> tensor<4x64xi1>
  %une = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                         iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xi1>) {
  ^bb0(%a: f16, %b: f16, %o: i1):
    %c = arith.cmpf une, %a, %b : f16
    linalg.yield %c : i1
  } -> tensor<4x64xi1>
  // expected-remark @+1 {{'linalg.generic' stays on the host: its body uses 'arith.cmpf', which has no Spyre op}}
  %ugt = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                         iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xi1>) {
  ^bb0(%a: f16, %b: f16, %o: i1):
    %c = arith.cmpf ugt, %a, %b : f16
    linalg.yield %c : i1
  } -> tensor<4x64xi1>
  %f = tensor.empty() : tensor<4x64xf16>
  // expected-remark @+1 {{'linalg.generic' stays on the host: its body uses 'arith.maxnumf', which has no Spyre op}}
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : tensor<4x64xf16>, tensor<4x64xf16>) outs(%f : tensor<4x64xf16>) {
  ^bb0(%a: f16, %b: f16, %o: f16):
    %c = arith.maxnumf %a, %b : f16
    linalg.yield %c : f16
  } -> tensor<4x64xf16>
  return %ogt, %une, %ugt, %m : tensor<4x64xi1>, tensor<4x64xi1>, tensor<4x64xi1>, tensor<4x64xf16>
}

// -----

// f32 operations the device does not compute in f32 stay on the host,
// decided before anything is converted.
func.func @f32_tanh(%x: tensor<4x32xf32>) -> tensor<4x32xf32> {
  %e = tensor.empty() : tensor<4x32xf32>
  // expected-remark @+1 {{'linalg.generic' stays on the host: the device does not compute 'tanh' on f32}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x32xf32>) outs(%e : tensor<4x32xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = math.tanh %a : f32
    linalg.yield %t : f32
  } -> tensor<4x32xf32>
  return %r : tensor<4x32xf32>
}

// -----

// Attention's score contraction as front ends write it: five loops, two
// batch dims (B, H), K read transposed through its map. The batch dims are
// merged into one (a reshape), the product split back.
// CHECK-LABEL: func.func @attention_scores_two_batch_dims
// CHECK: %[[Q:.+]] = spyre.reshape %{{.*}} : tensor<2x4x64x32xf16> -> tensor<8x64x32xf16>
// CHECK: %[[K:.+]] = spyre.reshape %{{.*}} : tensor<2x4x64x32xf16> -> tensor<8x64x32xf16>
// CHECK: %[[S:.+]] = spyre.batch_matmul %[[Q]], %[[K]] {indexing_maps = [{{.+}}]} : tensor<8x64x32xf16>, tensor<8x64x32xf16> -> tensor<8x64x64xf16>
// CHECK: spyre.reshape %[[S]] : tensor<8x64x64xf16> -> tensor<2x4x64x64xf16>
// CHECK-NOT: linalg.generic
func.func @attention_scores_two_batch_dims(%q: tensor<2x4x64x32xf16>, %k: tensor<2x4x64x32xf16>) -> tensor<2x4x64x64xf16> {
  %cst = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<2x4x64x64xf16>
  %z = linalg.fill ins(%cst : f16) outs(%e : tensor<2x4x64x64xf16>) -> tensor<2x4x64x64xf16>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x4x64x32xf16>, tensor<2x4x64x32xf16>) outs(%z : tensor<2x4x64x64xf16>) {
  ^bb0(%a: f16, %b: f16, %c: f16):
    %m = arith.mulf %a, %b : f16
    %s1 = arith.addf %c, %m : f16
    linalg.yield %s1 : f16
  } -> tensor<2x4x64x64xf16>
  return %s : tensor<2x4x64x64xf16>
}

// -----

// Batch dims that are not adjacent in an operand ([B, S, H, D] read as
// (b, h)): a transpose view brings them together first.
// CHECK-LABEL: func.func @batch_dims_apart
// CHECK: spyre.transpose %{{.*}} permutation = [0, 2, 1, 3] : tensor<2x64x4x32xf16> -> tensor<2x4x64x32xf16>
// CHECK: spyre.batch_matmul
// CHECK-NOT: linalg.generic
func.func @batch_dims_apart(%q: tensor<2x64x4x32xf16>, %k: tensor<2x4x64x32xf16>) -> tensor<2x4x64x64xf16> {
  %cst = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<2x4x64x64xf16>
  %z = linalg.fill ins(%cst : f16) outs(%e : tensor<2x4x64x64xf16>) -> tensor<2x4x64x64xf16>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, i, h, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x64x4x32xf16>, tensor<2x4x64x32xf16>) outs(%z : tensor<2x4x64x64xf16>) {
  ^bb0(%a: f16, %b: f16, %c: f16):
    %m = arith.mulf %a, %b : f16
    %s1 = arith.addf %c, %m : f16
    linalg.yield %s1 : f16
  } -> tensor<2x4x64x64xf16>
  return %s : tensor<2x4x64x64xf16>
}

// -----

// Idioms front ends write: powf with constant exponents (RMSNorm's x^2 and
// (..)^-0.5, x^0.5), relu as cmpf ugt + select, an f64 literal truncated
// to f16, sigmoid and silu written out.
// CHECK-LABEL: func.func @idioms
// CHECK: %[[SQ:.+]] = spyre.mul %[[X:.+]], %[[X]] : (tensor<8x64xf16>, tensor<8x64xf16>)
// CHECK: spyre.rsqrt %[[SQ]]
// CHECK: spyre.sqrt %[[SQ]]
// CHECK: spyre.relu %[[X]]
// CHECK: spyre.constant dense<1.414060e+00> : tensor<f16>
// CHECK: spyre.sigmoid %[[X]]
// CHECK: spyre.silu %[[X]]
// CHECK-NOT: linalg.generic
func.func @idioms(%x: tensor<8x64xf16>) -> (tensor<8x64xf16>, tensor<8x64xf16>, tensor<8x64xf16>, tensor<8x64xf16>, tensor<8x64xf16>, tensor<8x64xf16>, tensor<8x64xf16>) {
  %two = arith.constant 2.0 : f16
  %mhalf = arith.constant -0.5 : f16
  %half = arith.constant 0.5 : f16
  %zero = arith.constant 0.0 : f16
  %one = arith.constant 1.0 : f16
  %c64 = arith.constant 1.4142135623730951 : f64
  %e = tensor.empty() : tensor<8x64xf16>
  %sq = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<8x64xf16>) outs(%e : tensor<8x64xf16>) {
  ^bb0(%a: f16, %o: f16):
    %0 = math.powf %a, %two : f16
    linalg.yield %0 : f16
  } -> tensor<8x64xf16>
  %rs = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%sq : tensor<8x64xf16>) outs(%e : tensor<8x64xf16>) {
  ^bb0(%a: f16, %o: f16):
    %0 = math.powf %a, %mhalf : f16
    linalg.yield %0 : f16
  } -> tensor<8x64xf16>
  %sr = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%sq : tensor<8x64xf16>) outs(%e : tensor<8x64xf16>) {
  ^bb0(%a: f16, %o: f16):
    %0 = math.powf %a, %half : f16
    linalg.yield %0 : f16
  } -> tensor<8x64xf16>
  %relu = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<8x64xf16>) outs(%e : tensor<8x64xf16>) {
  ^bb0(%a: f16, %o: f16):
    %c = arith.cmpf ugt, %a, %zero : f16
    %s = arith.select %c, %a, %zero : f16
    linalg.yield %s : f16
  } -> tensor<8x64xf16>
  %scaled = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<8x64xf16>) outs(%e : tensor<8x64xf16>) {
  ^bb0(%a: f16, %o: f16):
    %t = arith.truncf %c64 : f64 to f16
    %m = arith.mulf %a, %t : f16
    linalg.yield %m : f16
  } -> tensor<8x64xf16>
  %sig = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<8x64xf16>) outs(%e : tensor<8x64xf16>) {
  ^bb0(%a: f16, %o: f16):
    %n = arith.negf %a : f16
    %x1 = math.exp %n : f16
    %d = arith.addf %x1, %one : f16
    %r = arith.divf %one, %d : f16
    linalg.yield %r : f16
  } -> tensor<8x64xf16>
  %silu = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<8x64xf16>) outs(%e : tensor<8x64xf16>) {
  ^bb0(%a: f16, %o: f16):
    %n = arith.negf %a : f16
    %x1 = math.exp %n : f16
    %d = arith.addf %one, %x1 : f16
    %r = arith.divf %a, %d : f16
    linalg.yield %r : f16
  } -> tensor<8x64xf16>
  return %sq, %rs, %sr, %relu, %scaled, %sig, %silu : tensor<8x64xf16>, tensor<8x64xf16>, tensor<8x64xf16>, tensor<8x64xf16>, tensor<8x64xf16>, tensor<8x64xf16>, tensor<8x64xf16>
}

// -----

// The relu idiom needs the unordered compare against a constant: an
// ordered one, or one against a variable, keeps its compare and select (both
// device ops) so that NaN goes where the program says.
// CHECK-LABEL: func.func @ordered_select_stays
// CHECK: spyre.greater_than
// CHECK: spyre.where
// CHECK-NOT: spyre.relu
func.func @ordered_select_stays(%x: tensor<8x64xf16>) -> tensor<8x64xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<8x64xf16>
  %relu = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<8x64xf16>) outs(%e : tensor<8x64xf16>) {
  ^bb0(%a: f16, %o: f16):
    %c = arith.cmpf ogt, %a, %zero : f16
    %s = arith.select %c, %a, %zero : f16
    linalg.yield %s : f16
  } -> tensor<8x64xf16>
  return %relu : tensor<8x64xf16>
}

// -----

// A batch-reduce matmul (two K loops: the batch and k) merges its K loops
// into one and runs as one matmul.
// CHECK-LABEL: func.func @batch_reduce_matmul
// CHECK: spyre.transpose
// CHECK: spyre.matmul
// CHECK-NOT: linalg.batch_reduce_matmul
func.func @batch_reduce_matmul(%a: tensor<4x32x64xf16>, %b: tensor<4x64x48xf16>) -> tensor<32x48xf16> {
  %z = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<32x48xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<32x48xf16>) -> tensor<32x48xf16>
  %r = linalg.batch_reduce_matmul ins(%a, %b : tensor<4x32x64xf16>, tensor<4x64x48xf16>) outs(%f : tensor<32x48xf16>) -> tensor<32x48xf16>
  return %r : tensor<32x48xf16>
}

// -----

// A matrix-vector product (N = 1) stays on the host, saying why.
// CHECK-LABEL: func.func @unit_n_matmul
// CHECK: linalg.matmul
func.func @unit_n_matmul(%a: tensor<16x64xf16>, %b: tensor<64x1xf16>) -> tensor<16x1xf16> {
  %z = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<16x1xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<16x1xf16>) -> tensor<16x1xf16>
  // expected-remark @+1 {{'linalg.matmul' stays on the host: its N is 1 (a matrix-vector or outer product)}}
  %r = linalg.matmul ins(%a, %b : tensor<16x64xf16>, tensor<64x1xf16>) outs(%f : tensor<16x1xf16>) -> tensor<16x1xf16>
  return %r : tensor<16x1xf16>
}

// -----

// An output written through expressions (tpp-mlir's relayout from blocks):
// each one enumerates its dim exactly (n1 * 2 + n2 with n2 < 2, over 3 * 2),
// so the output is read expanded, [3, 2, 8, 2], the generic is a transpose
// of the iteration space, and the result is collapsed back (it was once
// converted into a plain reshape, which is not the same thing).
// CHECK-LABEL: func.func @from_blocks
// CHECK-SAME: (%[[X:.*]]: tensor<3x8x2x2xf32>
// CHECK: %[[T:.*]] = spyre.transpose %[[X]] permutation = [0, 2, 1, 3] : tensor<3x8x2x2xf32> -> tensor<3x2x8x2xf32>
// CHECK: %[[R:.*]] = spyre.reshape %[[T]] : tensor<3x2x8x2xf32> -> tensor<6x16xf32>
// CHECK: return %[[R]]
func.func @from_blocks(%x: tensor<3x8x2x2xf32>, %c: tensor<6x16xf32>) -> tensor<6x16xf32> {
  %r = linalg.generic {iterator_types = ["parallel", "parallel", "parallel", "parallel"],
      indexing_maps = [affine_map<(n1, c1, n2, c2) -> (n1, c1, n2, c2)>, affine_map<(n1, c1, n2, c2) -> (n1 * 2 + n2, c1 * 2 + c2)>]}
      ins(%x : tensor<3x8x2x2xf32>) outs(%c : tensor<6x16xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  } -> tensor<6x16xf32>
  return %r : tensor<6x16xf32>
}

// -----

// A combination that does not enumerate its dim exactly (n2 < 2 but a
// coefficient of 3: gaps) is no expansion: the generic stays on the host.
// CHECK-LABEL: func.func @with_gaps
// CHECK: linalg.generic
func.func @with_gaps(%x: tensor<3x8x2x2xf32>, %c: tensor<9x16xf32>) -> tensor<9x16xf32> {
  // expected-remark @+1 {{'linalg.generic' stays on the host: its output map is not a projected permutation}}
  %r = linalg.generic {iterator_types = ["parallel", "parallel", "parallel", "parallel"],
      indexing_maps = [affine_map<(n1, c1, n2, c2) -> (n1, c1, n2, c2)>, affine_map<(n1, c1, n2, c2) -> (n1 * 3 + n2, c1 * 2 + c2)>]}
      ins(%x : tensor<3x8x2x2xf32>) outs(%c : tensor<9x16xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  } -> tensor<9x16xf32>
  return %r : tensor<9x16xf32>
}

// -----

// A VNNI-packed contraction (graph-compiler's and tpp-mlir's form): K is read
// from A as d3 * 32 + d4 * 2 + d5 and from B in blocks [N/32, K/32, 16, 32,
// 2]; C as d1 * 32 + d2. A is viewed as [64, 8, 16, 2], C filled expanded,
// and the generic is a matmul with B transposed through its map.
// CHECK-LABEL: func.func @vnni_contraction
// CHECK-SAME: (%[[A:.*]]: tensor<64x256xbf16>, %[[B:.*]]: tensor<4x8x16x32x2xbf16>)
// CHECK-NOT: linalg.generic
// CHECK: %[[BT:.*]] = spyre.transpose %[[B]] permutation = [0, 3, 1, 2, 4]
// CHECK: %[[BK:.*]] = spyre.reshape %[[BT]] : tensor<4x32x8x16x2xbf16> -> tensor<128x256xbf16>
// CHECK: %[[M:.*]] = spyre.matmul %{{.*}}, %[[BK]]
// CHECK-SAME: -> tensor<64x128xbf16>
// CHECK-NOT: spyre.add
// CHECK: return
func.func @vnni_contraction(%a: tensor<64x256xbf16>, %b: tensor<4x8x16x32x2xbf16>) -> tensor<64x128xbf16> {
  %z = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<64x128xbf16>
  %f = linalg.fill ins(%z : bf16) outs(%e : tensor<64x128xbf16>) -> tensor<64x128xbf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d3 * 32 + d4 * 2 + d5)>,
                                        affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d3, d4, d2, d5)>,
                                        affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1 * 32 + d2)>],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%a, %b : tensor<64x256xbf16>, tensor<4x8x16x32x2xbf16>) outs(%f : tensor<64x128xbf16>) {
  ^bb0(%x: bf16, %y: bf16, %o: bf16):
    %m = arith.mulf %x, %y : bf16
    %s = arith.addf %o, %m : bf16
    linalg.yield %s : bf16
  } -> tensor<64x128xbf16>
  return %r : tensor<64x128xbf16>
}

// -----

// A scalar read from a 0-d tensor outside the body (torch-mlir's form of a
// scalar tensor operand: an alpha, a scale) becomes a broadcast input, so
// the op runs on the device with the 0-d tensor as its operand.
// CHECK-LABEL: func.func @captured_scalar
// CHECK-SAME: (%[[A:.+]]: tensor<64x128xf16>, %[[T:.+]]: tensor<f16>)
// CHECK: %[[M:.+]] = spyre.mul %[[A]], %[[T]] : (tensor<64x128xf16>, tensor<f16>) -> tensor<64x128xf16>
// CHECK: return %[[M]]
func.func @captured_scalar(%a: tensor<64x128xf16>, %t: tensor<f16>) -> tensor<64x128xf16> {
  %s = tensor.extract %t[] : tensor<f16>
  %e = tensor.empty() : tensor<64x128xf16>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<64x128xf16>) outs(%e : tensor<64x128xf16>) {
  ^bb0(%x: f16, %o: f16):
    %m = arith.mulf %x, %s : f16
    linalg.yield %m : f16
  } -> tensor<64x128xf16>
  return %0 : tensor<64x128xf16>
}

// -----

// A matmul whose B is a dequantized weight stored [N, K] (PyTorch's [out,
// in]) and quantized along K reads the stored parts: a scaled matmul, so
// that the weight travels quantized. The dequantize is left dead.
// CHECK-LABEL: func.func @dequantized_weight
// CHECK-SAME: (%[[X:.+]]: tensor<8x256xf16>, %[[D:.+]]: tensor<64x128xi8>, %[[S:.+]]: tensor<64x8xf8E8M0FNU>)
// CHECK-NOT: spyre.dequantize
// CHECK: %[[C:.+]] = spyre.scaled_matmul %[[X]], %[[D]], %[[S]] {quant = #spyre.quant<format = e2m1fn, scaling = mx>} : (tensor<8x256xf16>, tensor<64x128xi8>, tensor<64x8xf8E8M0FNU>) -> tensor<8x64xf16>
// CHECK: return %[[C]]
func.func @dequantized_weight(%x: tensor<8x256xf16>, %d: tensor<64x128xi8>, %s: tensor<64x8xf8E8M0FNU>) -> tensor<8x64xf16> {
  %w = spyre.dequantize %d, %s {quant = #spyre.quant<format = e2m1fn, scaling = mx>}
      : tensor<64x128xi8>, tensor<64x8xf8E8M0FNU> -> tensor<64x256xf16>
  %e = tensor.empty() : tensor<8x64xf16>
  %z = arith.constant 0.0 : f16
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<8x64xf16>) -> tensor<8x64xf16>
  %y = linalg.matmul_transpose_b ins(%x, %w : tensor<8x256xf16>, tensor<64x256xf16>) outs(%f : tensor<8x64xf16>) -> tensor<8x64xf16>
  return %y : tensor<8x64xf16>
}

// -----

// A codebook weight (4-bit indices, E8M0 scales, a 2-bit mapping per 8
// values, a tile's four in one meta byte): the scaled matmul reads all three
// parts. With 3-bit mappings (four a tile straddle two bytes) it does not:
// the dequantize stays and the device multiplies its result.
// CHECK-LABEL: func.func @dequantized_codebook
// CHECK-SAME: (%[[X:.+]]: tensor<8x128xf16>, %[[D:.+]]: tensor<64x64xi8>, %[[S:.+]]: tensor<64x4xf8E8M0FNU>, %[[M:.+]]: tensor<64x4xi8>, %[[M3:.+]]: tensor<64x8xi8>)
// CHECK-DAG: %[[W3:.+]] = spyre.dequantize %[[D]], %[[S]], %[[M3]]
// CHECK-DAG: spyre.scaled_matmul %[[X]], %[[D]], %[[S]], %[[M]] {quant = #spyre.quant<format = e2m3fnuz, scaling = mx, codebook = "cb42f1346_e2m3fnuz", subtile = 8>}
// CHECK: spyre.matmul %[[X]], %[[W3]]
func.func @dequantized_codebook(%x: tensor<8x128xf16>, %d: tensor<64x64xi8>, %s: tensor<64x4xf8E8M0FNU>, %m: tensor<64x4xi8>, %m3: tensor<64x8xi8>) -> (tensor<8x64xf16>, tensor<8x64xf16>) {
  %w = spyre.dequantize %d, %s, %m {quant = #spyre.quant<format = e2m3fnuz, scaling = mx, codebook = "cb42f1346_e2m3fnuz", subtile = 8>}
      : tensor<64x64xi8>, tensor<64x4xf8E8M0FNU>, tensor<64x4xi8> -> tensor<64x128xf16>
  %w3 = spyre.dequantize %d, %s, %m3 {quant = #spyre.quant<format = e2m3fnuz, scaling = mx, codebook = "cb43f0123i0123_e2m3fnuz", subtile = 8>}
      : tensor<64x64xi8>, tensor<64x4xf8E8M0FNU>, tensor<64x8xi8> -> tensor<64x128xf16>
  %e = tensor.empty() : tensor<8x64xf16>
  %z = arith.constant 0.0 : f16
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<8x64xf16>) -> tensor<8x64xf16>
  %y = linalg.matmul_transpose_b ins(%x, %w : tensor<8x128xf16>, tensor<64x128xf16>) outs(%f : tensor<8x64xf16>) -> tensor<8x64xf16>
  %y3 = linalg.matmul_transpose_b ins(%x, %w3 : tensor<8x128xf16>, tensor<64x128xf16>) outs(%f : tensor<8x64xf16>) -> tensor<8x64xf16>
  return %y, %y3 : tensor<8x64xf16>, tensor<8x64xf16>
}

// -----

// A weight stored [K, N] (quantized along N) is not the scaled matmul's: the
// dequantize stays (on the host) and the device multiplies its result.
// CHECK-LABEL: func.func @dequantized_kn_weight
// CHECK: %[[W:.+]] = spyre.dequantize
// CHECK: spyre.matmul %{{.+}}, %[[W]]
// CHECK-NOT: spyre.scaled_matmul
func.func @dequantized_kn_weight(%x: tensor<8x256xf16>, %d: tensor<256x64xi8>, %s: tensor<256x1xf32>) -> tensor<8x64xf16> {
  %w = spyre.dequantize %d, %s {quant = #spyre.quant<format = int8, scaling = channel>}
      : tensor<256x64xi8>, tensor<256x1xf32> -> tensor<256x64xf16>
  %e = tensor.empty() : tensor<8x64xf16>
  %z = arith.constant 0.0 : f16
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<8x64xf16>) -> tensor<8x64xf16>
  %y = linalg.matmul ins(%x, %w : tensor<8x256xf16>, tensor<256x64xf16>) outs(%f : tensor<8x64xf16>) -> tensor<8x64xf16>
  return %y : tensor<8x64xf16>
}

// -----

// torch-mlir's linear layer transposes the weight and multiplies: the
// scaled matmul reads the weight through the transpose.
// CHECK-LABEL: func.func @dequantized_transposed_weight
// CHECK-NOT: spyre.transpose
// CHECK: spyre.scaled_matmul %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}} {quant = #spyre.quant<format = int8, scaling = channel, zero_point = true>}
// CHECK-NOT: spyre.matmul
func.func @dequantized_transposed_weight(%x: tensor<8x256xf16>, %d: tensor<64x256xi8>, %s: tensor<64x1xf32>, %z: tensor<64x1xi8>) -> tensor<8x64xf16> {
  %w = spyre.dequantize %d, %s, %z {quant = #spyre.quant<format = int8, scaling = channel, zero_point = true>}
      : tensor<64x256xi8>, tensor<64x1xf32>, tensor<64x1xi8> -> tensor<64x256xf16>
  %te = tensor.empty() : tensor<256x64xf16>
  %wt = linalg.transpose ins(%w : tensor<64x256xf16>) outs(%te : tensor<256x64xf16>) permutation = [1, 0]
  %e = tensor.empty() : tensor<8x64xf16>
  %zero = arith.constant 0.0 : f16
  %f = linalg.fill ins(%zero : f16) outs(%e : tensor<8x64xf16>) -> tensor<8x64xf16>
  %y = linalg.matmul ins(%x, %wt : tensor<8x256xf16>, tensor<256x64xf16>) outs(%f : tensor<8x64xf16>) -> tensor<8x64xf16>
  return %y : tensor<8x64xf16>
}

// -----

// E8M0 scales are bytes on the device (SENINT8): a pad's fill value would be
// written as an integer, so the pad stays on the host.
// CHECK-LABEL: func.func @pad_e8m0
// CHECK: tensor.pad
func.func @pad_e8m0(%s: tensor<4x100xf8E8M0FNU>) -> tensor<4x128xf8E8M0FNU> {
  %one = arith.constant 1.0 : f8E8M0FNU
  // expected-remark @+1 {{'tensor.pad' stays on the host: its element type f8E8M0FNU is not held in a float format on the device}}
  %p = tensor.pad %s low[0, 0] high[0, 28] {
  ^bb0(%i: index, %j: index):
    tensor.yield %one : f8E8M0FNU
  } : tensor<4x100xf8E8M0FNU> to tensor<4x128xf8E8M0FNU>
  return %p : tensor<4x128xf8E8M0FNU>
}

// -----

// The remark names the reason: f64 is a host type.
// CHECK-LABEL: func.func @transpose_f64
// CHECK: linalg.transpose
func.func @transpose_f64(%x: tensor<4x64xf64>) -> tensor<64x4xf64> {
  %e = tensor.empty() : tensor<64x4xf64>
  // expected-remark @+1 {{'linalg.transpose' stays on the host: its element type f64 is a host type: it travels to and from the device, but no device op computes on it or lays it out}}
  %t = linalg.transpose ins(%x : tensor<4x64xf64>) outs(%e : tensor<64x4xf64>) permutation = [1, 0]
  return %t : tensor<64x4xf64>
}

// -----

// int8 dequantized with arith ops (torch-mlir's aten.dequantize of a
// per-channel quantized tensor): the int8 scheme's spyre.dequantize, here
// read by a scaled matmul; the [N] companions become the scheme's [N, 1].
// CHECK-LABEL: func.func @dequantize_idiom_channel
// CHECK-SAME: (%[[X:.+]]: tensor<8x256xf16>, %[[Q:.+]]: tensor<64x256xi8>, %[[S:.+]]: tensor<64xf16>, %[[Z:.+]]: tensor<64xi8>)
// CHECK-DAG: %[[S2:.+]] = spyre.reshape %[[S]] : tensor<64xf16> -> tensor<64x1xf16>
// CHECK-DAG: %[[Z2:.+]] = spyre.reshape %[[Z]] : tensor<64xi8> -> tensor<64x1xi8>
// CHECK: spyre.scaled_matmul %[[X]], %[[Q]], %[[S2]], %[[Z2]] {quant = #spyre.quant<format = int8, scaling = channel, scale_type = float16, zero_point = true>}
// CHECK-NOT: linalg.generic
func.func @dequantize_idiom_channel(%x: tensor<8x256xf16>, %q: tensor<64x256xi8>, %s: tensor<64xf16>, %z: tensor<64xi8>) -> tensor<8x64xf16> {
  %e0 = tensor.empty() : tensor<64x256xf16>
  %w = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%q, %s, %z : tensor<64x256xi8>, tensor<64xf16>, tensor<64xi8>) outs(%e0 : tensor<64x256xf16>) {
  ^bb0(%a: i8, %b: f16, %c: i8, %o: f16):
    %0 = arith.sitofp %a : i8 to f16
    %1 = arith.sitofp %c : i8 to f16
    %2 = arith.subf %0, %1 : f16
    %3 = arith.mulf %b, %2 : f16
    linalg.yield %3 : f16
  } -> tensor<64x256xf16>
  %e = tensor.empty() : tensor<8x64xf16>
  %zero = arith.constant 0.0 : f16
  %f = linalg.fill ins(%zero : f16) outs(%e : tensor<8x64xf16>) -> tensor<8x64xf16>
  %y = linalg.matmul_transpose_b ins(%x, %w : tensor<8x256xf16>, tensor<64x256xf16>) outs(%f : tensor<8x64xf16>) -> tensor<8x64xf16>
  return %y : tensor<8x64xf16>
}

// -----

// A zero point outside int8's range is not the int8 scheme's, and a
// dequantization no matmul reads is left as written: the generics stay (on
// the host, their bodies computing on integers).
// CHECK-LABEL: func.func @dequantize_idiom_wide_zero
// CHECK: linalg.generic
// CHECK-NOT: spyre.dequantize
// CHECK: spyre.matmul
func.func @dequantize_idiom_wide_zero(%x: tensor<8x64xf16>, %q: tensor<64x256xi8>) -> tensor<8x256xf16> {
  %scale = arith.constant 0.5 : f16
  %zp = arith.constant 300 : i32
  %e0 = tensor.empty() : tensor<64x256xf16>
  // expected-remark @+1 {{'linalg.generic' stays on the host}}
  %w = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%q : tensor<64x256xi8>) outs(%e0 : tensor<64x256xf16>) {
  ^bb0(%a: i8, %o: f16):
    %0 = arith.sitofp %a : i8 to f16
    %1 = arith.sitofp %zp : i32 to f16
    %2 = arith.subf %0, %1 : f16
    %3 = arith.mulf %2, %scale : f16
    linalg.yield %3 : f16
  } -> tensor<64x256xf16>
  %e = tensor.empty() : tensor<8x256xf16>
  %zero = arith.constant 0.0 : f16
  %f = linalg.fill ins(%zero : f16) outs(%e : tensor<8x256xf16>) -> tensor<8x256xf16>
  %y = linalg.matmul ins(%x, %w : tensor<8x64xf16>, tensor<64x256xf16>) outs(%f : tensor<8x256xf16>) -> tensor<8x256xf16>
  return %y : tensor<8x256xf16>
}

// -----

// CHECK-LABEL: func.func @dequantize_idiom_unread
// CHECK: linalg.generic
// CHECK-NOT: spyre.dequantize
func.func @dequantize_idiom_unread(%q: tensor<64x256xi8>, %s: tensor<64xf16>) -> tensor<64x256xf16> {
  %e0 = tensor.empty() : tensor<64x256xf16>
  // expected-remark @+1 {{'linalg.generic' stays on the host}}
  %w = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%q, %s : tensor<64x256xi8>, tensor<64xf16>) outs(%e0 : tensor<64x256xf16>) {
  ^bb0(%a: i8, %b: f16, %o: f16):
    %0 = arith.sitofp %a : i8 to f16
    %1 = arith.mulf %0, %b : f16
    linalg.yield %1 : f16
  } -> tensor<64x256xf16>
  return %w : tensor<64x256xf16>
}

// -----

// IREE's grouped int4 dequantization ([N, G, T] codes, a scale and a float
// zero point per group, `(uitofp(extui q) - zp) * s`) read by a contraction
// over G and T: uint4 tiles of T with float16 zero points, the codes packed
// two a byte on the host (a constant-position read: the pack stays there),
// and a scaled matmul that reads the packed codes.
// CHECK-LABEL: func.func @grouped_int4_dequantize
// CHECK-SAME: (%[[Q:.+]]: tensor<64x4x64xi4>, %[[X:.+]]: tensor<1x1x4x64xf16>, %[[S:.+]]: tensor<64x4x1xf16>, %[[Z:.+]]: tensor<64x4x1xf16>)
// CHECK-DAG: %[[S2:.+]] = spyre.reshape %[[S]] : tensor<64x4x1xf16> -> tensor<64x4xf16>
// CHECK-DAG: %[[Z2:.+]] = spyre.reshape %[[Z]] : tensor<64x4x1xf16> -> tensor<64x4xf16>
// CHECK: %[[P:.+]] = linalg.generic
// CHECK: arith.extui %{{.*}} : i4 to i8
// CHECK: arith.shli
// CHECK: arith.ori
// CHECK: -> tensor<64x128xi8>
// CHECK: %[[X2:.+]] = spyre.reshape %[[X]] : tensor<1x1x4x64xf16> -> tensor<1x256xf16>
// CHECK: spyre.scaled_matmul %[[X2]], %[[P]], %[[S2]], %[[Z2]] {quant = #spyre.quant<format = uint4, scaling = tile, tile = 64, scale_type = float16, zero_point = true, zero_type = float16>} : (tensor<1x256xf16>, tensor<64x128xi8>, tensor<64x4xf16>, tensor<64x4xf16>) -> tensor<1x64xf16>
// CHECK-NOT: spyre.dequantize
func.func @grouped_int4_dequantize(%q: tensor<64x4x64xi4>, %x: tensor<1x1x4x64xf16>, %s: tensor<64x4x1xf16>, %z: tensor<64x4x1xf16>) -> tensor<1x1x64xf16> {
  %cst = arith.constant 0.000000e+00 : f16
  %0 = tensor.empty() : tensor<1x1x64xf16>
  %1 = tensor.empty() : tensor<64x4x64xf16>
  %2 = linalg.fill ins(%cst : f16) outs(%0 : tensor<1x1x64xf16>) -> tensor<1x1x64xf16>
  // expected-remark @+3 {{'tensor.collapse_shape' stays on the host}}
  // expected-remark @+2 {{'tensor.expand_shape' stays on the host}}
  // expected-remark @+1 {{'linalg.generic' stays on the host}}
  %3 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%q, %s, %z : tensor<64x4x64xi4>, tensor<64x4x1xf16>, tensor<64x4x1xf16>) outs(%1 : tensor<64x4x64xf16>) {
  ^bb0(%in: i4, %in_0: f16, %in_1: f16, %out: f16):
    %5 = arith.extui %in : i4 to i32
    %6 = arith.uitofp %5 : i32 to f16
    %7 = arith.subf %6, %in_1 : f16
    %8 = arith.mulf %7, %in_0 : f16
    linalg.yield %8 : f16
  } -> tensor<64x4x64xf16>
  %4 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%x, %3 : tensor<1x1x4x64xf16>, tensor<64x4x64xf16>) outs(%2 : tensor<1x1x64xf16>) {
  ^bb0(%in: f16, %in_0: f16, %out: f16):
    %5 = arith.mulf %in, %in_0 : f16
    %6 = arith.addf %5, %out : f16
    linalg.yield %6 : f16
  } -> tensor<1x1x64xf16>
  return %4 : tensor<1x1x64xf16>
}

// -----

// IREE's i8 form (`uitofp(extui q)` of i8 codes): uint8 bytes, read by the
// scaled matmul as they are (a view to [N, K], no host pack).
// CHECK-LABEL: func.func @grouped_uint8_dequantize
// CHECK-SAME: (%[[Q:.+]]: tensor<64x4x64xi8>, %[[X:.+]]: tensor<1x1x4x64xf16>, %[[S:.+]]: tensor<64x4x1xf16>, %[[Z:.+]]: tensor<64x4x1xf16>)
// CHECK-NOT: linalg.generic
// CHECK-DAG: %[[Q2:.+]] = spyre.reshape %[[Q]] : tensor<64x4x64xi8> -> tensor<64x256xi8>
// CHECK-DAG: %[[S2:.+]] = spyre.reshape %[[S]] : tensor<64x4x1xf16> -> tensor<64x4xf16>
// CHECK-DAG: %[[Z2:.+]] = spyre.reshape %[[Z]] : tensor<64x4x1xf16> -> tensor<64x4xf16>
// CHECK: spyre.scaled_matmul %{{.*}}, %[[Q2]], %[[S2]], %[[Z2]] {quant = #spyre.quant<format = uint8, scaling = tile, tile = 64, scale_type = float16, zero_point = true, zero_type = float16>} : (tensor<1x256xf16>, tensor<64x256xi8>, tensor<64x4xf16>, tensor<64x4xf16>) -> tensor<1x64xf16>
// CHECK-NOT: spyre.dequantize
func.func @grouped_uint8_dequantize(%q: tensor<64x4x64xi8>, %x: tensor<1x1x4x64xf16>, %s: tensor<64x4x1xf16>, %z: tensor<64x4x1xf16>) -> tensor<1x1x64xf16> {
  %cst = arith.constant 0.000000e+00 : f16
  %0 = tensor.empty() : tensor<1x1x64xf16>
  %1 = tensor.empty() : tensor<64x4x64xf16>
  %2 = linalg.fill ins(%cst : f16) outs(%0 : tensor<1x1x64xf16>) -> tensor<1x1x64xf16>
  %3 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%q, %s, %z : tensor<64x4x64xi8>, tensor<64x4x1xf16>, tensor<64x4x1xf16>) outs(%1 : tensor<64x4x64xf16>) {
  ^bb0(%in: i8, %in_0: f16, %in_1: f16, %out: f16):
    %5 = arith.extui %in : i8 to i32
    %6 = arith.uitofp %5 : i32 to f16
    %7 = arith.subf %6, %in_1 : f16
    %8 = arith.mulf %7, %in_0 : f16
    linalg.yield %8 : f16
  } -> tensor<64x4x64xf16>
  %4 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%x, %3 : tensor<1x1x4x64xf16>, tensor<64x4x64xf16>) outs(%2 : tensor<1x1x64xf16>) {
  ^bb0(%in: f16, %in_0: f16, %out: f16):
    %5 = arith.mulf %in, %in_0 : f16
    %6 = arith.addf %5, %out : f16
    linalg.yield %6 : f16
  } -> tensor<1x1x64xf16>
  return %4 : tensor<1x1x64xf16>
}

// -----

// Signed codes without zero points, one group a row (`sitofp(extsi q)`,
// the product the other way round): int4 with a scale per channel.
// CHECK-LABEL: func.func @int4_channel_dequantize
// CHECK: spyre.scaled_matmul %{{.*}}, %{{.*}}, %{{.*}} {quant = #spyre.quant<format = int4, scaling = channel, scale_type = float16>} : (tensor<8x256xf16>, tensor<64x128xi8>, tensor<64x1xf16>) -> tensor<8x64xf16>

func.func @int4_channel_dequantize(%q: tensor<64x256xi4>, %x: tensor<8x256xf16>, %s: tensor<64xf16>) -> tensor<8x64xf16> {
  %cst = arith.constant 0.000000e+00 : f16
  %1 = tensor.empty() : tensor<64x256xf16>
  // expected-remark @+2 {{'tensor.expand_shape' stays on the host}}
  // expected-remark @+1 {{'linalg.generic' stays on the host}}
  %3 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%q, %s : tensor<64x256xi4>, tensor<64xf16>) outs(%1 : tensor<64x256xf16>) {
  ^bb0(%in: i4, %in_0: f16, %out: f16):
    %5 = arith.extsi %in : i4 to i32
    %6 = arith.sitofp %5 : i32 to f16
    %8 = arith.mulf %in_0, %6 : f16
    linalg.yield %8 : f16
  } -> tensor<64x256xf16>
  %e = tensor.empty() : tensor<8x64xf16>
  %f = linalg.fill ins(%cst : f16) outs(%e : tensor<8x64xf16>) -> tensor<8x64xf16>
  %y = linalg.matmul_transpose_b ins(%x, %3 : tensor<8x256xf16>, tensor<64x256xf16>) outs(%f : tensor<8x64xf16>) -> tensor<8x64xf16>
  return %y : tensor<8x64xf16>
}

// -----

// A constant i4 weight is packed at compile time: the device constant holds
// the bytes (codes 1, 2 -> 0x21 = 33; 15, 0 -> 0x0f = 15), no host op.
// CHECK-LABEL: func.func @constant_int4_weight
// CHECK: %[[P:.+]] = arith.constant dense<{{\[\[}}33, 15, 33, 15], [33, 15, 33, 15]]> : tensor<2x4xi8>
// CHECK: spyre.scaled_matmul %{{.*}}, %[[P]], %{{.*}}, %{{.*}} {quant = #spyre.quant<format = uint4, scaling = channel, scale_type = float16, zero_point = true, zero_type = float16>}
// CHECK-NOT: linalg.generic
func.func @constant_int4_weight(%x: tensor<4x8xf16>, %s: tensor<2xf16>, %z: tensor<2xf16>) -> tensor<4x2xf16> {
  %q = arith.constant dense<[[1, 2, -1, 0, 1, 2, -1, 0], [1, 2, -1, 0, 1, 2, -1, 0]]> : tensor<2x8xi4>
  %e0 = tensor.empty() : tensor<2x8xf16>
  %w = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%q, %s, %z : tensor<2x8xi4>, tensor<2xf16>, tensor<2xf16>) outs(%e0 : tensor<2x8xf16>) {
  ^bb0(%in: i4, %sc: f16, %zp: f16, %o: f16):
    %0 = arith.extui %in : i4 to i32
    %1 = arith.uitofp %0 : i32 to f16
    %2 = arith.subf %1, %zp : f16
    %3 = arith.mulf %2, %sc : f16
    linalg.yield %3 : f16
  } -> tensor<2x8xf16>
  %cst = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<4x2xf16>
  %f = linalg.fill ins(%cst : f16) outs(%e : tensor<4x2xf16>) -> tensor<4x2xf16>
  %y = linalg.matmul_transpose_b ins(%x, %w : tensor<4x8xf16>, tensor<2x8xf16>) outs(%f : tensor<4x2xf16>) -> tensor<4x2xf16>
  return %y : tensor<4x2xf16>
}

// -----

// Unsigned codes without zero points are not a uint4 scheme (it needs
// them): the dequantization is left as written, on the host.
// CHECK-LABEL: func.func @uint4_without_zero
// CHECK-NOT: spyre.scaled_matmul
func.func @uint4_without_zero(%q: tensor<64x256xi4>, %x: tensor<8x256xf16>, %s: tensor<64xf16>) -> tensor<8x64xf16> {
  %cst = arith.constant 0.000000e+00 : f16
  %1 = tensor.empty() : tensor<64x256xf16>
  // expected-remark @+1 {{'linalg.generic' stays on the host}}
  %3 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%q, %s : tensor<64x256xi4>, tensor<64xf16>) outs(%1 : tensor<64x256xf16>) {
  ^bb0(%in: i4, %in_0: f16, %out: f16):
    %5 = arith.extui %in : i4 to i32
    %6 = arith.uitofp %5 : i32 to f16
    %8 = arith.mulf %in_0, %6 : f16
    linalg.yield %8 : f16
  } -> tensor<64x256xf16>
  %e = tensor.empty() : tensor<8x64xf16>
  %f = linalg.fill ins(%cst : f16) outs(%e : tensor<8x64xf16>) -> tensor<8x64xf16>
  %y = linalg.matmul_transpose_b ins(%x, %3 : tensor<8x256xf16>, tensor<64x256xf16>) outs(%f : tensor<8x64xf16>) -> tensor<8x64xf16>
  return %y : tensor<8x64xf16>
}

// -----

// torch-mlir's current aten.dequantize subtracts the zero point in i32
// before converting: the same int8 scheme.
// CHECK-LABEL: func.func @dequantize_idiom_integer_zero
// CHECK-DAG: %[[S:.+]] = spyre.constant dense<1.250000e-02> : tensor<1x1xf32>
// CHECK-DAG: %[[Z:.+]] = arith.constant dense<-2> : tensor<1x1xi8>
// CHECK: spyre.scaled_matmul %{{.*}}, %{{.*}}, %[[S]], %[[Z]] {quant = #spyre.quant<format = int8, scaling = tensor, zero_point = true>}
func.func @dequantize_idiom_integer_zero(%x: tensor<8x64xf16>, %q: tensor<32x64xi8>) -> tensor<8x32xf16> {
  %scale = arith.constant 1.250000e-02 : f64
  %zp = arith.constant -2 : i64
  %e1 = tensor.empty() : tensor<32x64xf16>
  %d = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%q : tensor<32x64xi8>) outs(%e1 : tensor<32x64xf16>) {
  ^bb0(%in: i8, %out: f16):
    %0 = arith.extsi %in : i8 to i32
    %1 = arith.trunci %zp : i64 to i32
    %2 = arith.subi %0, %1 : i32
    %3 = arith.sitofp %2 : i32 to f32
    %4 = arith.truncf %scale : f64 to f32
    %5 = arith.mulf %3, %4 : f32
    %6 = arith.truncf %5 : f32 to f16
    linalg.yield %6 : f16
  } -> tensor<32x64xf16>
  %e = tensor.empty() : tensor<8x32xf16>
  %zero = arith.constant 0.0 : f16
  %f = linalg.fill ins(%zero : f16) outs(%e : tensor<8x32xf16>) -> tensor<8x32xf16>
  %y = linalg.matmul_transpose_b ins(%x, %d : tensor<8x64xf16>, tensor<32x64xf16>) outs(%f : tensor<8x32xf16>) -> tensor<8x32xf16>
  return %y : tensor<8x32xf16>
}

// -----

// int8 quantized with arith ops as torch-mlir lowers
// aten.quantize_per_tensor (scale and zero point f64 / i64 constants
// converted in the body): the int8 scheme's spyre.quantize with the scale
// and zero given, rounded to their stored types.
// CHECK-LABEL: func.func @quantize_idiom_per_tensor
// CHECK-DAG: %[[S:.+]] = arith.constant dense<1.250000e-02> : tensor<1x1x1xf32>
// CHECK-DAG: %[[Z:.+]] = arith.constant dense<3> : tensor<1x1x1xi8>
// CHECK: spyre.quantize %{{.*}} scales(%[[S]], %[[Z]] : tensor<1x1x1xf32>, tensor<1x1x1xi8>) {quant = #spyre.quant<format = int8, scaling = tensor, zero_point = true>} : tensor<4x16x64xf32> -> tensor<4x16x64xi8>
// CHECK-NOT: linalg.generic
func.func @quantize_idiom_per_tensor(%x: tensor<4x16x64xf32>) -> tensor<4x16x64xi8> {
  %scale = arith.constant 1.250000e-02 : f64
  %zp = arith.constant 3 : i64
  %e = tensor.empty() : tensor<4x16x64xi8>
  %q = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<4x16x64xf32>) outs(%e : tensor<4x16x64xi8>) {
  ^bb0(%in: f32, %out: i8):
    %0 = arith.sitofp %zp : i64 to f32
    %1 = arith.truncf %scale : f64 to f32
    %2 = arith.divf %in, %1 : f32
    %3 = math.roundeven %2 : f32
    %4 = arith.addf %3, %0 : f32
    %lo = arith.constant -1.280000e+02 : f32
    %hi = arith.constant 1.270000e+02 : f32
    %5 = arith.maximumf %4, %lo : f32
    %6 = arith.minimumf %5, %hi : f32
    %7 = arith.fptosi %6 : f32 to i8
    linalg.yield %7 : i8
  } -> tensor<4x16x64xi8>
  return %q : tensor<4x16x64xi8>
}

// -----

// Near misses stay as written (on the host): rounding half away from zero
// (math.round, torch-mlir's older form), a clamp to [-127, 127], and a
// quotient in f16.
// CHECK-LABEL: func.func @quantize_idiom_near_misses
// CHECK-NOT: spyre.quantize
// CHECK-COUNT-3: linalg.generic
// CHECK-NOT: spyre.quantize
func.func @quantize_idiom_near_misses(%x: tensor<16x64xf32>, %h: tensor<16x64xf16>) -> (tensor<16x64xi8>, tensor<16x64xi8>, tensor<16x64xi8>) {
  %s = arith.constant 1.250000e-02 : f32
  %zp = arith.constant 3.0 : f32
  %lo = arith.constant -1.280000e+02 : f32
  %lo127 = arith.constant -1.270000e+02 : f32
  %hi = arith.constant 1.270000e+02 : f32
  %e = tensor.empty() : tensor<16x64xi8>
  // expected-remark @+1 {{'linalg.generic' stays on the host}}
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<16x64xf32>) outs(%e : tensor<16x64xi8>) {
  ^bb0(%in: f32, %out: i8):
    %2 = arith.divf %in, %s : f32
    %3 = math.round %2 : f32
    %4 = arith.addf %3, %zp : f32
    %5 = arith.maximumf %4, %lo : f32
    %6 = arith.minimumf %5, %hi : f32
    %7 = arith.fptosi %6 : f32 to i8
    linalg.yield %7 : i8
  } -> tensor<16x64xi8>
  // expected-remark @+1 {{'linalg.generic' stays on the host}}
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<16x64xf32>) outs(%e : tensor<16x64xi8>) {
  ^bb0(%in: f32, %out: i8):
    %2 = arith.divf %in, %s : f32
    %3 = math.roundeven %2 : f32
    %4 = arith.addf %3, %zp : f32
    %5 = arith.maximumf %4, %lo127 : f32
    %6 = arith.minimumf %5, %hi : f32
    %7 = arith.fptosi %6 : f32 to i8
    linalg.yield %7 : i8
  } -> tensor<16x64xi8>
  %s16 = arith.constant 1.250000e-02 : f16
  %zp16 = arith.constant 3.0 : f16
  %lo16 = arith.constant -1.280000e+02 : f16
  %hi16 = arith.constant 1.270000e+02 : f16
  // expected-remark @+1 {{'linalg.generic' stays on the host}}
  %c = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%h : tensor<16x64xf16>) outs(%e : tensor<16x64xi8>) {
  ^bb0(%in: f16, %out: i8):
    %2 = arith.divf %in, %s16 : f16
    %3 = math.roundeven %2 : f16
    %4 = arith.addf %3, %zp16 : f16
    %5 = arith.maximumf %4, %lo16 : f16
    %6 = arith.minimumf %5, %hi16 : f16
    %7 = arith.fptosi %6 : f16 to i8
    linalg.yield %7 : i8
  } -> tensor<16x64xi8>
  return %a, %b, %c : tensor<16x64xi8>, tensor<16x64xi8>, tensor<16x64xi8>
}

// -----

// MX fake quantization (scaling_truncf to FP4 and scaling_extf back in one
// body, E8M0 scales read per block of 32) read by a matmul: spyre.quantize
// of the MXFP4 scheme with the scales given, which the matmul then reads
// packed (a scaled matmul).
// CHECK-LABEL: func.func @mx_fake_quant
// CHECK-SAME: (%[[X:.+]]: tensor<8x256xf16>, %[[W:.+]]: tensor<64x256xf32>, %[[S:.+]]: tensor<64x8xf8E8M0FNU>)
// CHECK: %[[D:.+]] = spyre.quantize %[[W]] scales(%[[S]] : tensor<64x8xf8E8M0FNU>) {quant = #spyre.quant<format = e2m1fn, scaling = mx>} : tensor<64x256xf32> -> tensor<64x128xi8>
// CHECK: spyre.scaled_matmul %[[X]], %[[D]], %[[S]] {quant = #spyre.quant<format = e2m1fn, scaling = mx>}
// CHECK-NOT: linalg.generic
func.func @mx_fake_quant(%x: tensor<8x256xf16>, %w: tensor<64x256xf32>, %s: tensor<64x8xf8E8M0FNU>) -> tensor<8x64xf16> {
  %e0 = tensor.empty() : tensor<64x256xf16>
  %wq = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1 floordiv 32)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%w, %s : tensor<64x256xf32>, tensor<64x8xf8E8M0FNU>) outs(%e0 : tensor<64x256xf16>) {
  ^bb0(%v: f32, %e: f8E8M0FNU, %o: f16):
    %q = arith.scaling_truncf %v, %e : f32, f8E8M0FNU to f4E2M1FN
    %d = arith.scaling_extf %q, %e : f4E2M1FN, f8E8M0FNU to f32
    %h = arith.truncf %d : f32 to f16
    linalg.yield %h : f16
  } -> tensor<64x256xf16>
  %e = tensor.empty() : tensor<8x64xf16>
  %zero = arith.constant 0.0 : f16
  %f = linalg.fill ins(%zero : f16) outs(%e : tensor<8x64xf16>) -> tensor<8x64xf16>
  %y = linalg.matmul_transpose_b ins(%x, %wq : tensor<8x256xf16>, tensor<64x256xf16>) outs(%f : tensor<8x64xf16>) -> tensor<8x64xf16>
  return %y : tensor<8x64xf16>
}

// -----

// MX fake quantization to FP8 (e4m3fn): the truncation overflows to NaN
// where OCP's conversion saturates, so the quantize keeps the cast's
// overflow (saturate = false); the matmul reads the fp8 codes.
// CHECK-LABEL: func.func @mxfp8_fake_quant
// CHECK-SAME: (%[[X:.+]]: tensor<8x256xf16>, %[[W:.+]]: tensor<64x256xf32>, %[[S:.+]]: tensor<64x8xf8E8M0FNU>)
// CHECK: %[[D:.+]] = spyre.quantize %[[W]] scales(%[[S]] : tensor<64x8xf8E8M0FNU>) {quant = #spyre.quant<format = e4m3fn, scaling = mx, saturate = false>} : tensor<64x256xf32> -> tensor<64x256xf8E4M3FN>
// CHECK: spyre.scaled_matmul %[[X]], %[[D]], %[[S]] {quant = #spyre.quant<format = e4m3fn, scaling = mx, saturate = false>}
// CHECK-NOT: linalg.generic
func.func @mxfp8_fake_quant(%x: tensor<8x256xf16>, %w: tensor<64x256xf32>, %s: tensor<64x8xf8E8M0FNU>) -> tensor<8x64xf16> {
  %e0 = tensor.empty() : tensor<64x256xf16>
  %wq = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1 floordiv 32)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%w, %s : tensor<64x256xf32>, tensor<64x8xf8E8M0FNU>) outs(%e0 : tensor<64x256xf16>) {
  ^bb0(%v: f32, %e: f8E8M0FNU, %o: f16):
    %q = arith.scaling_truncf %v, %e : f32, f8E8M0FNU to f8E4M3FN
    %d = arith.scaling_extf %q, %e : f8E4M3FN, f8E8M0FNU to f32
    %h = arith.truncf %d : f32 to f16
    linalg.yield %h : f16
  } -> tensor<64x256xf16>
  %e = tensor.empty() : tensor<8x64xf16>
  %zero = arith.constant 0.0 : f16
  %f = linalg.fill ins(%zero : f16) outs(%e : tensor<8x64xf16>) -> tensor<8x64xf16>
  %y = linalg.matmul_transpose_b ins(%x, %wq : tensor<8x256xf16>, tensor<64x256xf16>) outs(%f : tensor<8x64xf16>) -> tensor<8x64xf16>
  return %y : tensor<8x64xf16>
}

// -----

// Not MX fake quantization: to fp8 e4m3fnuz (not an OCP MX element type),
// and scales per block of 16.
// CHECK-LABEL: func.func @mx_fake_quant_near_misses
// CHECK-NOT: spyre.quantize
// CHECK-COUNT-2: linalg.generic
func.func @mx_fake_quant_near_misses(%w: tensor<64x256xf32>, %s: tensor<64x8xf8E8M0FNU>, %s16: tensor<64x16xf8E8M0FNU>, %x: tensor<8x256xf32>) -> (tensor<8x64xf32>, tensor<8x64xf32>) {
  %e0 = tensor.empty() : tensor<64x256xf32>
  // expected-remark @+1 {{'linalg.generic' stays on the host}}
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1 floordiv 32)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%w, %s : tensor<64x256xf32>, tensor<64x8xf8E8M0FNU>) outs(%e0 : tensor<64x256xf32>) {
  ^bb0(%v: f32, %e: f8E8M0FNU, %o: f32):
    %q = arith.scaling_truncf %v, %e : f32, f8E8M0FNU to f8E4M3FNUZ
    %d = arith.scaling_extf %q, %e : f8E4M3FNUZ, f8E8M0FNU to f32
    linalg.yield %d : f32
  } -> tensor<64x256xf32>
  // expected-remark @+1 {{'linalg.generic' stays on the host}}
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1 floordiv 16)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%w, %s16 : tensor<64x256xf32>, tensor<64x16xf8E8M0FNU>) outs(%e0 : tensor<64x256xf32>) {
  ^bb0(%v: f32, %e: f8E8M0FNU, %o: f32):
    %q = arith.scaling_truncf %v, %e : f32, f8E8M0FNU to f4E2M1FN
    %d = arith.scaling_extf %q, %e : f4E2M1FN, f8E8M0FNU to f32
    linalg.yield %d : f32
  } -> tensor<64x256xf32>
  %e = tensor.empty() : tensor<8x64xf32>
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x64xf32>) -> tensor<8x64xf32>
  // expected-remark @+1 {{stays on the host}}
  %ya = linalg.matmul_transpose_b ins(%x, %a : tensor<8x256xf32>, tensor<64x256xf32>) outs(%f : tensor<8x64xf32>) -> tensor<8x64xf32>
  // expected-remark @+1 {{stays on the host}}
  %yb = linalg.matmul_transpose_b ins(%x, %b : tensor<8x256xf32>, tensor<64x256xf32>) outs(%f : tensor<8x64xf32>) -> tensor<8x64xf32>
  return %ya, %yb : tensor<8x64xf32>, tensor<8x64xf32>
}

// -----

// A product rounded to f16 and widened again is not the dequantize's one
// rounding: left as written.
// CHECK-LABEL: func.func @dequantize_idiom_widened
// CHECK: linalg.generic
// CHECK-NOT: spyre.dequantize
func.func @dequantize_idiom_widened(%x: tensor<8x256xf32>, %q: tensor<64x256xi8>, %s: tensor<64xf16>) -> tensor<8x64xf32> {
  %e0 = tensor.empty() : tensor<64x256xf32>
  // expected-remark @+1 {{'linalg.generic' stays on the host}}
  %w = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%q, %s : tensor<64x256xi8>, tensor<64xf16>) outs(%e0 : tensor<64x256xf32>) {
  ^bb0(%a: i8, %b: f16, %o: f32):
    %0 = arith.sitofp %a : i8 to f16
    %1 = arith.mulf %0, %b : f16
    %2 = arith.extf %1 : f16 to f32
    linalg.yield %2 : f32
  } -> tensor<64x256xf32>
  %e = tensor.empty() : tensor<8x64xf32>
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x64xf32>) -> tensor<8x64xf32>
  // expected-remark @+1 {{stays on the host}}
  %y = linalg.matmul_transpose_b ins(%x, %w : tensor<8x256xf32>, tensor<64x256xf32>) outs(%f : tensor<8x64xf32>) -> tensor<8x64xf32>
  return %y : tensor<8x64xf32>
}

// -----

// A reshape of host data that host code reads (a table reshaped for a
// gather on the host) stays a host reshape: as a device view its data would
// go to the device and straight back. One that a device op reads is the
// device's.
// CHECK-LABEL: func.func @host_reshape_for_host_gather
// CHECK-NOT: spyre.reshape
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0, 1], [2]] output_shape [1, 64, 128]
// CHECK: tensor.collapse_shape
// CHECK-NOT: spyre.reshape
// CHECK: tensor.extract
// CHECK: spyre.reshape %{{.*}} : tensor<64x128xf16> -> tensor<8x8x128xf16>
// CHECK: spyre.exp
func.func @host_reshape_for_host_gather(%table: tensor<64x128xf32>, %ids: tensor<16xi64>, %x: tensor<64x128xf16>) -> (tensor<16x128xf32>, tensor<8x8x128xf16>) {
  // expected-remark @+1 {{'tensor.expand_shape' stays on the host: its data comes from the host and only host code reads it (as a device view it would go to the device and back)}}
  %t = tensor.expand_shape %table [[0, 1], [2]] output_shape [1, 64, 128] : tensor<64x128xf32> into tensor<1x64x128xf32>
  // expected-remark @+1 {{'tensor.collapse_shape' stays on the host: its data comes from the host}}
  %c = tensor.collapse_shape %t [[0, 1], [2]] : tensor<1x64x128xf32> into tensor<64x128xf32>
  %e = tensor.empty() : tensor<16x128xf32>
  // expected-remark @+1 {{'linalg.generic' stays on the host: its body computes on index}}
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%ids : tensor<16xi64>) outs(%e : tensor<16x128xf32>) {
  ^bb0(%id: i64, %o: f32):
    %i = arith.index_cast %id : i64 to index
    %j = linalg.index 1 : index
    %v = tensor.extract %c[%i, %j] : tensor<64x128xf32>
    linalg.yield %v : f32
  } -> tensor<16x128xf32>
  %x3 = tensor.expand_shape %x [[0, 1], [2]] output_shape [8, 8, 128] : tensor<64x128xf16> into tensor<8x8x128xf16>
  %f = tensor.empty() : tensor<8x8x128xf16>
  %y = linalg.exp ins(%x3 : tensor<8x8x128xf16>) outs(%f : tensor<8x8x128xf16>) -> tensor<8x8x128xf16>
  return %r, %y : tensor<16x128xf32>, tensor<8x8x128xf16>
}

// -----

// An op marked for the host (by hand, or by spyre-run when no division of
// its device form fits LX) is converted by no pattern; its remark gives the
// reason it carries.
// CHECK-LABEL: func.func @marked_for_host
// CHECK: linalg.exp {spyre.on_host = "kept on the host by hand"}
// CHECK: spyre.exp
func.func @marked_for_host(%a: tensor<4x64xf16>) -> (tensor<4x64xf16>, tensor<4x64xf16>) {
  %e = tensor.empty() : tensor<4x64xf16>
  // expected-remark @+1 {{'linalg.exp' stays on the host: kept on the host by hand}}
  %0 = linalg.exp {spyre.on_host = "kept on the host by hand"} ins(%a : tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  %1 = linalg.exp ins(%a : tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  return %0, %1 : tensor<4x64xf16>, tensor<4x64xf16>
}

// -----

// A sparse operand (upstream's sparse_tensor encoding): the device holds
// dense tensors only, so the op stays on the host (where upstream's
// sparsifier compiles it); the dense op after it converts.
#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
// CHECK-LABEL: func.func @sparse_operand
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<64x128xf16, #sparse>, tensor<128x64xf16>)
// CHECK: spyre.exp
func.func @sparse_operand(%a: tensor<64x128xf16, #CSR>, %b: tensor<128x64xf16>) -> tensor<64x64xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<64x64xf16>
  %f = linalg.fill ins(%zero : f16) outs(%e : tensor<64x64xf16>) -> tensor<64x64xf16>
  // expected-remark @+1 {{'linalg.matmul' stays on the host: its tensor tensor<64x128xf16, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>> carries an encoding the device does not hold}}
  %p = linalg.matmul ins(%a, %b : tensor<64x128xf16, #CSR>, tensor<128x64xf16>) outs(%f : tensor<64x64xf16>) -> tensor<64x64xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%p : tensor<64x64xf16>) outs(%e : tensor<64x64xf16>) {
  ^bb0(%x: f16, %o: f16):
    %y = math.exp %x : f16
    linalg.yield %y : f16
  } -> tensor<64x64xf16>
  return %r : tensor<64x64xf16>
}

// -----

// A matmul read only in column blocks of whole sticks (after its bias add:
// GPT-2's c_attn split into Q, K and V) becomes one matmul per block over
// that block's columns of the weight, the bias add per block too.
// CHECK-LABEL: func.func @split_projection
// CHECK-SAME: (%[[X:.*]]: tensor<128x256xf16>, %[[W:.*]]: tensor<256x384xf16>, %[[B:.*]]: tensor<384xf16>)
// CHECK: %[[W0:.*]] = spyre.extract_slice %[[W]] offsets = [0, 0] : tensor<256x384xf16> -> tensor<256x128xf16>
// CHECK: %[[M0:.*]] = spyre.matmul %[[X]], %[[W0]] : tensor<128x256xf16>, tensor<256x128xf16> -> tensor<128x128xf16>
// CHECK: %[[B0:.*]] = spyre.extract_slice %[[B]] offsets = [0] : tensor<384xf16> -> tensor<128xf16>
// CHECK: %[[Q:.*]] = spyre.add %[[M0]], %[[B0]]
// CHECK: %[[W1:.*]] = spyre.extract_slice %[[W]] offsets = [0, 128] : tensor<256x384xf16> -> tensor<256x256xf16>
// CHECK: %[[M1:.*]] = spyre.matmul %[[X]], %[[W1]] : tensor<128x256xf16>, tensor<256x256xf16> -> tensor<128x256xf16>
// CHECK: %[[B1:.*]] = spyre.extract_slice %[[B]] offsets = [128] : tensor<384xf16> -> tensor<256xf16>
// CHECK: %[[KV:.*]] = spyre.add %[[M1]], %[[B1]]
// CHECK: return %[[Q]], %[[KV]]
// WHOLE-LABEL: func.func @split_projection
// WHOLE: spyre.matmul {{.*}} -> tensor<128x384xf16>
// WHOLE-NOT: spyre.matmul
// WHOLE: return
#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @split_projection(%x: tensor<128x256xf16>, %w: tensor<256x384xf16>, %b: tensor<384xf16>) -> (tensor<128x128xf16>, tensor<128x256xf16>) {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<128x384xf16>
  %z = linalg.fill ins(%zero : f16) outs(%e : tensor<128x384xf16>) -> tensor<128x384xf16>
  %m = linalg.matmul indexing_maps = [#mk, #kn, #mn] ins(%x, %w : tensor<128x256xf16>, tensor<256x384xf16>) outs(%z : tensor<128x384xf16>) -> tensor<128x384xf16>
  %a = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%m, %b : tensor<128x384xf16>, tensor<384xf16>) outs(%e : tensor<128x384xf16>) {
  ^bb0(%p: f16, %q: f16, %o: f16):
    %r = arith.addf %p, %q : f16
    linalg.yield %r : f16
  } -> tensor<128x384xf16>
  %q = tensor.extract_slice %a[0, 0] [128, 128] [1, 1] : tensor<128x384xf16> to tensor<128x128xf16>
  %kv = tensor.extract_slice %a[0, 128] [128, 256] [1, 1] : tensor<128x384xf16> to tensor<128x256xf16>
  return %q, %kv : tensor<128x128xf16>, tensor<128x256xf16>
}

// -----

// The weight stored [out, in] (PyTorch's nn.Linear): its rows are sliced.
// CHECK-LABEL: func.func @split_out_in_weight
// CHECK: %[[W0:.*]] = spyre.extract_slice %arg1 offsets = [0, 0] : tensor<128x256xf16> -> tensor<64x256xf16>
// CHECK: spyre.matmul %arg0, %[[W0]] {{.*}}-> tensor<128x64xf16>
// CHECK: %[[W1:.*]] = spyre.extract_slice %arg1 offsets = [64, 0] : tensor<128x256xf16> -> tensor<64x256xf16>
// CHECK: spyre.matmul %arg0, %[[W1]] {{.*}}-> tensor<128x64xf16>
#mk = affine_map<(m, n, k) -> (m, k)>
#nk = affine_map<(m, n, k) -> (n, k)>
#mn = affine_map<(m, n, k) -> (m, n)>
func.func @split_out_in_weight(%x: tensor<128x256xf16>, %w: tensor<128x256xf16>) -> (tensor<128x64xf16>, tensor<128x64xf16>) {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<128x128xf16>
  %z = linalg.fill ins(%zero : f16) outs(%e : tensor<128x128xf16>) -> tensor<128x128xf16>
  %m = linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%x, %w : tensor<128x256xf16>, tensor<128x256xf16>) outs(%z : tensor<128x128xf16>) -> tensor<128x128xf16>
  %g = tensor.extract_slice %m[0, 0] [128, 64] [1, 1] : tensor<128x128xf16> to tensor<128x64xf16>
  %u = tensor.extract_slice %m[0, 64] [128, 64] [1, 1] : tensor<128x128xf16> to tensor<128x64xf16>
  return %g, %u : tensor<128x64xf16>, tensor<128x64xf16>
}

// -----

// Not split: a block that is not whole sticks (32 of 64 f16 columns), and a
// result also read whole.
// CHECK-LABEL: func.func @not_split
// CHECK-COUNT-2: spyre.matmul
// CHECK-NOT: spyre.matmul
// CHECK: return
#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
func.func @not_split(%x: tensor<128x256xf16>, %w: tensor<256x128xf16>) -> (tensor<128x32xf16>, tensor<128x64xf16>, tensor<128x128xf16>) {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<128x128xf16>
  %z = linalg.fill ins(%zero : f16) outs(%e : tensor<128x128xf16>) -> tensor<128x128xf16>
  %m = linalg.matmul indexing_maps = [#mk, #kn, #mn] ins(%x, %w : tensor<128x256xf16>, tensor<256x128xf16>) outs(%z : tensor<128x128xf16>) -> tensor<128x128xf16>
  // expected-remark @+1 {{'tensor.extract_slice' stays on the host: the box starts at element 32 of the innermost dim, inside a stick of 64 elements}}
  %h = tensor.extract_slice %m[0, 32] [128, 32] [1, 1] : tensor<128x128xf16> to tensor<128x32xf16>
  %n = linalg.matmul indexing_maps = [#mk, #kn, #mn] ins(%x, %w : tensor<128x256xf16>, tensor<256x128xf16>) outs(%z : tensor<128x128xf16>) -> tensor<128x128xf16>
  %s = tensor.extract_slice %n[0, 64] [128, 64] [1, 1] : tensor<128x128xf16> to tensor<128x64xf16>
  return %h, %s, %n : tensor<128x32xf16>, tensor<128x64xf16>, tensor<128x128xf16>
}

// -----

// The same value read as A and B keeps A whole; an epilogue of another
// element type (f16 products scaled in f32) is split with the matmul, whose
// blocks keep the matmul's type; a scalar operand is read as it was.
// CHECK-LABEL: func.func @split_square
// CHECK: %[[B0:.*]] = spyre.extract_slice %arg0 offsets = [0, 0] : tensor<128x128xf16> -> tensor<128x64xf16>
// CHECK: spyre.matmul %arg0, %[[B0]] : tensor<128x128xf16>, tensor<128x64xf16> -> tensor<128x64xf16>
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<128x64xf32>)
// CHECK: %[[B1:.*]] = spyre.extract_slice %arg0 offsets = [0, 64] : tensor<128x128xf16> -> tensor<128x64xf16>
// CHECK: spyre.matmul %arg0, %[[B1]] : tensor<128x128xf16>, tensor<128x64xf16> -> tensor<128x64xf16>
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<128x64xf32>)
#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#none = affine_map<(d0, d1) -> ()>
func.func @split_square(%x: tensor<128x128xf16>, %s: f32) -> (tensor<128x64xf32>, tensor<128x64xf32>) {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<128x128xf16>
  %z = linalg.fill ins(%zero : f16) outs(%e : tensor<128x128xf16>) -> tensor<128x128xf16>
  %m = linalg.matmul indexing_maps = [#mk, #kn, #mn] ins(%x, %x : tensor<128x128xf16>, tensor<128x128xf16>) outs(%z : tensor<128x128xf16>) -> tensor<128x128xf16>
  %e32 = tensor.empty() : tensor<128x128xf32>
  // expected-remark @+1 {{'linalg.generic' stays on the host: operand #1 is not a ranked tensor}}
  %a = linalg.generic {indexing_maps = [#id, #none, #id], iterator_types = ["parallel", "parallel"]} ins(%m, %s : tensor<128x128xf16>, f32) outs(%e32 : tensor<128x128xf32>) {
  ^bb0(%p: f16, %q: f32, %o: f32):
    %w = arith.extf %p : f16 to f32
    %r = arith.mulf %w, %q : f32
    linalg.yield %r : f32
  } -> tensor<128x128xf32>
  %l = tensor.extract_slice %a[0, 0] [128, 64] [1, 1] : tensor<128x128xf32> to tensor<128x64xf32>
  %h = tensor.extract_slice %a[0, 64] [128, 64] [1, 1] : tensor<128x128xf32> to tensor<128x64xf32>
  return %l, %h : tensor<128x64xf32>, tensor<128x64xf32>
}

// -----

// Not split: an epilogue that reads its indices (a column mask) or reads
// the product transposed.
// CHECK-LABEL: func.func @not_split_epilogues
// CHECK-COUNT-2: spyre.matmul {{.*}} -> tensor<128x128xf16>
// CHECK-NOT: spyre.matmul
#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
func.func @not_split_epilogues(%x: tensor<128x128xf16>, %w: tensor<128x128xf16>) -> (tensor<128x64xf16>, tensor<128x64xf16>) {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<128x128xf16>
  %z = linalg.fill ins(%zero : f16) outs(%e : tensor<128x128xf16>) -> tensor<128x128xf16>
  %m = linalg.matmul indexing_maps = [#mk, #kn, #mn] ins(%x, %w : tensor<128x128xf16>, tensor<128x128xf16>) outs(%z : tensor<128x128xf16>) -> tensor<128x128xf16>
  // expected-remark @+1 {{stays on the host}}
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<128x128xf16>) outs(%e : tensor<128x128xf16>) {
  ^bb0(%p: f16, %o: f16):
    %j = linalg.index 1 : index
    %c = arith.constant 64 : index
    %lt = arith.cmpi ult, %j, %c : index
    %r = arith.select %lt, %p, %zero : f16
    linalg.yield %r : f16
  } -> tensor<128x128xf16>
  %l = tensor.extract_slice %a[0, 0] [128, 64] [1, 1] : tensor<128x128xf16> to tensor<128x64xf16>
  %n = linalg.matmul indexing_maps = [#mk, #kn, #mn] ins(%x, %w : tensor<128x128xf16>, tensor<128x128xf16>) outs(%z : tensor<128x128xf16>) -> tensor<128x128xf16>
  %t = linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel"]} ins(%n : tensor<128x128xf16>) outs(%e : tensor<128x128xf16>) {
  ^bb0(%p: f16, %o: f16):
    linalg.yield %p : f16
  } -> tensor<128x128xf16>
  %h = tensor.extract_slice %t[0, 64] [128, 64] [1, 1] : tensor<128x128xf16> to tensor<128x64xf16>
  return %l, %h : tensor<128x64xf16>, tensor<128x64xf16>
}
