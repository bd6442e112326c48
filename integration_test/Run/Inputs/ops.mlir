// Per-op cases for ../ops.test: each function is compiled with the
// spyre pipeline, simulated, and checked against upstream MLIR's lowering.
// Shapes: aligned ([64, 128]: whole sticks) and unaligned ([37, 200]).

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>

func.func @add_aligned(%a: tensor<64x128xf16>, %b: tensor<64x128xf16>) -> tensor<64x128xf16> {
  %e = tensor.empty() : tensor<64x128xf16>
  %0 = linalg.add ins(%a, %b : tensor<64x128xf16>, tensor<64x128xf16>) outs(%e : tensor<64x128xf16>) -> tensor<64x128xf16>
  return %0 : tensor<64x128xf16>
}

func.func @sub_unaligned(%a: tensor<37x200xf16>, %b: tensor<37x200xf16>) -> tensor<37x200xf16> {
  %e = tensor.empty() : tensor<37x200xf16>
  %0 = linalg.sub ins(%a, %b : tensor<37x200xf16>, tensor<37x200xf16>) outs(%e : tensor<37x200xf16>) -> tensor<37x200xf16>
  return %0 : tensor<37x200xf16>
}

func.func @mul_max_min(%a: tensor<37x200xf16>, %b: tensor<37x200xf16>) -> (tensor<37x200xf16>, tensor<37x200xf16>, tensor<37x200xf16>) {
  %e = tensor.empty() : tensor<37x200xf16>
  %0 = linalg.mul ins(%a, %b : tensor<37x200xf16>, tensor<37x200xf16>) outs(%e : tensor<37x200xf16>) -> tensor<37x200xf16>
  %1 = linalg.max ins(%a, %b : tensor<37x200xf16>, tensor<37x200xf16>) outs(%e : tensor<37x200xf16>) -> tensor<37x200xf16>
  %2 = linalg.min ins(%a, %b : tensor<37x200xf16>, tensor<37x200xf16>) outs(%e : tensor<37x200xf16>) -> tensor<37x200xf16>
  return %0, %1, %2 : tensor<37x200xf16>, tensor<37x200xf16>, tensor<37x200xf16>
}

// Division by |b| + 1 (never 0).
func.func @div(%a: tensor<64x128xf16>, %b: tensor<64x128xf16>) -> tensor<64x128xf16> {
  %e = tensor.empty() : tensor<64x128xf16>
  %0 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<64x128xf16>, tensor<64x128xf16>) outs(%e : tensor<64x128xf16>) {
  ^bb0(%x: f16, %y: f16, %o: f16):
    %one = arith.constant 1.0 : f16
    %ay = math.absf %y : f16
    %d = arith.addf %ay, %one : f16
    %q = arith.divf %x, %d : f16
    linalg.yield %q : f16
  } -> tensor<64x128xf16>
  return %0 : tensor<64x128xf16>
}

// exp, tanh, neg, abs, floor on one input.
func.func @unary(%a: tensor<37x200xf16>) -> (tensor<37x200xf16>, tensor<37x200xf16>, tensor<37x200xf16>, tensor<37x200xf16>, tensor<37x200xf16>) {
  %e = tensor.empty() : tensor<37x200xf16>
  %0 = linalg.exp ins(%a : tensor<37x200xf16>) outs(%e : tensor<37x200xf16>) -> tensor<37x200xf16>
  %1 = linalg.tanh ins(%a : tensor<37x200xf16>) outs(%e : tensor<37x200xf16>) -> tensor<37x200xf16>
  %2 = linalg.negf ins(%a : tensor<37x200xf16>) outs(%e : tensor<37x200xf16>) -> tensor<37x200xf16>
  %3 = linalg.abs ins(%a : tensor<37x200xf16>) outs(%e : tensor<37x200xf16>) -> tensor<37x200xf16>
  %4 = linalg.floor ins(%a : tensor<37x200xf16>) outs(%e : tensor<37x200xf16>) -> tensor<37x200xf16>
  return %0, %1, %2, %3, %4 : tensor<37x200xf16>, tensor<37x200xf16>, tensor<37x200xf16>, tensor<37x200xf16>, tensor<37x200xf16>
}

// sqrt, rsqrt, log, reciprocal of |x| + 1; sigmoid; relu.
func.func @math(%a: tensor<64x128xf16>) -> tensor<64x128xf16> {
  %e = tensor.empty() : tensor<64x128xf16>
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<64x128xf16>) outs(%e : tensor<64x128xf16>) {
  ^bb0(%x: f16, %o: f16):
    %one = arith.constant 1.0 : f16
    %zero = arith.constant 0.0 : f16
    %ax = math.absf %x : f16
    %p = arith.addf %ax, %one : f16
    %s = math.sqrt %p : f16
    %r = math.rsqrt %p : f16
    %l = math.log %p : f16
    %i = arith.divf %one, %p : f16
    %nx = arith.negf %x : f16
    %ex = math.exp %nx : f16
    %d = arith.addf %ex, %one : f16
    %sig = arith.divf %one, %d : f16
    %relu = arith.maximumf %x, %zero : f16
    %t0 = arith.addf %s, %r : f16
    %t1 = arith.addf %t0, %l : f16
    %t2 = arith.addf %t1, %i : f16
    %t3 = arith.addf %t2, %sig : f16
    %t4 = arith.addf %t3, %relu : f16
    linalg.yield %t4 : f16
  } -> tensor<64x128xf16>
  return %0 : tensor<64x128xf16>
}

// x > b ? x : b * 2, and clip(x, -0.5, 0.25).
func.func @select_clip(%a: tensor<37x200xf16>, %b: tensor<37x200xf16>) -> (tensor<37x200xf16>, tensor<37x200xf16>) {
  %e = tensor.empty() : tensor<37x200xf16>
  %0 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<37x200xf16>, tensor<37x200xf16>) outs(%e : tensor<37x200xf16>) {
  ^bb0(%x: f16, %y: f16, %o: f16):
    %two = arith.constant 2.0 : f16
    %c = arith.cmpf ogt, %x, %y : f16
    %y2 = arith.mulf %y, %two : f16
    %s = arith.select %c, %x, %y2 : f16
    linalg.yield %s : f16
  } -> tensor<37x200xf16>
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<37x200xf16>) outs(%e : tensor<37x200xf16>) {
  ^bb0(%x: f16, %o: f16):
    %lo = arith.constant -0.5 : f16
    %hi = arith.constant 0.25 : f16
    %m = arith.maximumf %x, %lo : f16
    %c = arith.minimumf %m, %hi : f16
    linalg.yield %c : f16
  } -> tensor<37x200xf16>
  return %0, %1 : tensor<37x200xf16>, tensor<37x200xf16>
}

// A row broadcast (bias) and a scalar.
func.func @broadcast(%a: tensor<37x200xf16>, %b: tensor<200xf16>) -> tensor<37x200xf16> {
  %e = tensor.empty() : tensor<37x200xf16>
  %0 = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<37x200xf16>, tensor<200xf16>) outs(%e : tensor<37x200xf16>) {
  ^bb0(%x: f16, %y: f16, %o: f16):
    %half = arith.constant 0.5 : f16
    %s = arith.addf %x, %y : f16
    %m = arith.mulf %s, %half : f16
    linalg.yield %m : f16
  } -> tensor<37x200xf16>
  return %0 : tensor<37x200xf16>
}

// f16 -> f32 -> f16 and an f32 add.
func.func @convert(%a: tensor<37x200xf16>, %b: tensor<37x200xf32>) -> (tensor<37x200xf32>, tensor<37x200xf16>) {
  %e32 = tensor.empty() : tensor<37x200xf32>
  %e16 = tensor.empty() : tensor<37x200xf16>
  %0 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<37x200xf16>, tensor<37x200xf32>) outs(%e32 : tensor<37x200xf32>) {
  ^bb0(%x: f16, %y: f32, %o: f32):
    %w = arith.extf %x : f16 to f32
    %s = arith.addf %w, %y : f32
    linalg.yield %s : f32
  } -> tensor<37x200xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%b : tensor<37x200xf32>) outs(%e16 : tensor<37x200xf16>) {
  ^bb0(%y: f32, %o: f16):
    %n = arith.truncf %y : f32 to f16
    linalg.yield %n : f16
  } -> tensor<37x200xf16>
  return %0, %1 : tensor<37x200xf32>, tensor<37x200xf16>
}

// Sums along the (unaligned) stick and across rows; max and min.
func.func @reductions(%a: tensor<37x200xf16>) -> (tensor<37xf16>, tensor<200xf16>, tensor<37xf16>, tensor<200xf16>) {
  %zero = arith.constant 0.0 : f16
  %ninf = arith.constant 0xFC00 : f16
  %pinf = arith.constant 0x7C00 : f16
  %e37 = tensor.empty() : tensor<37xf16>
  %e200 = tensor.empty() : tensor<200xf16>
  %z37 = linalg.fill ins(%zero : f16) outs(%e37 : tensor<37xf16>) -> tensor<37xf16>
  %z200 = linalg.fill ins(%zero : f16) outs(%e200 : tensor<200xf16>) -> tensor<200xf16>
  %n37 = linalg.fill ins(%ninf : f16) outs(%e37 : tensor<37xf16>) -> tensor<37xf16>
  %p200 = linalg.fill ins(%pinf : f16) outs(%e200 : tensor<200xf16>) -> tensor<200xf16>
  %0 = linalg.reduce ins(%a : tensor<37x200xf16>) outs(%z37 : tensor<37xf16>) dimensions = [1]
    (%in: f16, %acc: f16) {
      %s = arith.addf %in, %acc : f16
      linalg.yield %s : f16
    }
  %1 = linalg.reduce ins(%a : tensor<37x200xf16>) outs(%z200 : tensor<200xf16>) dimensions = [0]
    (%in: f16, %acc: f16) {
      %s = arith.addf %in, %acc : f16
      linalg.yield %s : f16
    }
  %2 = linalg.reduce ins(%a : tensor<37x200xf16>) outs(%n37 : tensor<37xf16>) dimensions = [1]
    (%in: f16, %acc: f16) {
      %m = arith.maximumf %in, %acc : f16
      linalg.yield %m : f16
    }
  %3 = linalg.reduce ins(%a : tensor<37x200xf16>) outs(%p200 : tensor<200xf16>) dimensions = [0]
    (%in: f16, %acc: f16) {
      %m = arith.minimumf %in, %acc : f16
      linalg.yield %m : f16
    }
  return %0, %1, %2, %3 : tensor<37xf16>, tensor<200xf16>, tensor<37xf16>, tensor<200xf16>
}

// Inits that are fills of non-neutral constants (added to the result once),
// and a constant returned as it is: all on the device, nothing on the host.
func.func @fill_inits(%a: tensor<37x200xf16>, %b: tensor<200x100xf16>) -> (tensor<37xf16>, tensor<37x100xf16>, tensor<37x100xf16>) {
  %five = arith.constant 5.0 : f16
  %one = arith.constant 1.0 : f16
  %e37 = tensor.empty() : tensor<37xf16>
  %e = tensor.empty() : tensor<37x100xf16>
  %i37 = linalg.fill ins(%five : f16) outs(%e37 : tensor<37xf16>) -> tensor<37xf16>
  %ones = linalg.fill ins(%one : f16) outs(%e : tensor<37x100xf16>) -> tensor<37x100xf16>
  %0 = linalg.reduce ins(%a : tensor<37x200xf16>) outs(%i37 : tensor<37xf16>) dimensions = [1]
    (%in: f16, %acc: f16) {
      %s = arith.addf %in, %acc : f16
      linalg.yield %s : f16
    }
  %1 = linalg.matmul ins(%a, %b : tensor<37x200xf16>, tensor<200x100xf16>) outs(%ones : tensor<37x100xf16>) -> tensor<37x100xf16>
  %2 = arith.constant dense<2.0> : tensor<37x100xf16>
  return %0, %1, %2 : tensor<37xf16>, tensor<37x100xf16>, tensor<37x100xf16>
}

// Matmuls: aligned, with K (200) and N (100) not whole sticks, batched.
func.func @matmul_aligned(%a: tensor<64x128xf16>, %b: tensor<128x256xf16>) -> tensor<64x256xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<64x256xf16>
  %z = linalg.fill ins(%zero : f16) outs(%e : tensor<64x256xf16>) -> tensor<64x256xf16>
  %0 = linalg.matmul ins(%a, %b : tensor<64x128xf16>, tensor<128x256xf16>) outs(%z : tensor<64x256xf16>) -> tensor<64x256xf16>
  return %0 : tensor<64x256xf16>
}

func.func @matmul_unaligned(%a: tensor<37x200xf16>, %b: tensor<200x100xf16>) -> tensor<37x100xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<37x100xf16>
  %z = linalg.fill ins(%zero : f16) outs(%e : tensor<37x100xf16>) -> tensor<37x100xf16>
  %0 = linalg.matmul ins(%a, %b : tensor<37x200xf16>, tensor<200x100xf16>) outs(%z : tensor<37x100xf16>) -> tensor<37x100xf16>
  return %0 : tensor<37x100xf16>
}

func.func @batch_matmul(%a: tensor<4x32x96xf16>, %b: tensor<4x96x64xf16>) -> tensor<4x32x64xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<4x32x64xf16>
  %z = linalg.fill ins(%zero : f16) outs(%e : tensor<4x32x64xf16>) -> tensor<4x32x64xf16>
  %0 = linalg.batch_matmul ins(%a, %b : tensor<4x32x96xf16>, tensor<4x96x64xf16>) outs(%z : tensor<4x32x64xf16>) -> tensor<4x32x64xf16>
  return %0 : tensor<4x32x64xf16>
}

// A transposed operand: the compiler restickifies it.
func.func @transpose_add(%a: tensor<128x64xf16>, %b: tensor<64x128xf16>) -> tensor<64x128xf16> {
  %e = tensor.empty() : tensor<64x128xf16>
  %t = linalg.transpose ins(%a : tensor<128x64xf16>) outs(%e : tensor<64x128xf16>) permutation = [1, 0]
  %0 = linalg.add ins(%t, %b : tensor<64x128xf16>, tensor<64x128xf16>) outs(%e : tensor<64x128xf16>) -> tensor<64x128xf16>
  return %0 : tensor<64x128xf16>
}

func.func @softmax(%a: tensor<37x200xf16>) -> tensor<37x200xf16> {
  %e = tensor.empty() : tensor<37x200xf16>
  %0 = linalg.softmax dimension(1) ins(%a : tensor<37x200xf16>) outs(%e : tensor<37x200xf16>) -> tensor<37x200xf16>
  return %0 : tensor<37x200xf16>
}

// Pure data movement, checked exactly: host -> device -> host round trips
// through the DMA (f16 and f32, padded), and a transpose the compiler turns
// into a restickify.
func.func @round_trip(%a: tensor<37x200xf16>, %b: tensor<5x3x70xf32>) -> (tensor<37x200xf16>, tensor<5x3x70xf32>) {
  return %a, %b : tensor<37x200xf16>, tensor<5x3x70xf32>
}

// The result is fixed to the default layout (stick on its last dim), so the
// transposed view must be restickified on the device.
func.func @transpose_only(%a: tensor<100x37xf16>) -> (tensor<37x100xf16> {spyre.dim_order = array<i64: 0, 1>}) {
  %e = tensor.empty() : tensor<37x100xf16>
  %t = linalg.transpose ins(%a : tensor<100x37xf16>) outs(%e : tensor<37x100xf16>) permutation = [1, 0]
  return %t : tensor<37x100xf16>
}
