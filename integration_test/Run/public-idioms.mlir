// Forms found in other projects' public linalg programs (IREE's e2e tests,
// tpp-mlir), each checked against upstream MLIR's lowering of it.
// RUN: spyre-run %s --function=batch_reduce --random-inputs=1 --check | FileCheck %s --check-prefix=BRGEMM
// RUN: spyre-run %s --function=matvec --random-inputs=1 --check 2>&1 | FileCheck %s --check-prefix=MATVEC
// RUN: spyre-run %s --function=tensor_math --random-inputs=1 --check | FileCheck %s --check-prefix=MATH
// RUN: spyre-run %s --function=fp8_matmul --random-inputs=1 --check | FileCheck %s --check-prefix=FP8
// RUN: spyre-run %s --function=fp8_round --random-inputs=1 --check 2>&1 | FileCheck %s --check-prefix=FP8-ROUND
// RUN: spyre-run %s --function=fnuz_matmul --random-inputs=1 --check 2>&1 | FileCheck %s --check-prefix=FNUZ
// RUN: spyre-run %s --function=vnni_matmul --random-inputs=1 --check | FileCheck %s --check-prefix=VNNI
// RUN: spyre-run %s --function=unblock --random-inputs=1 --check | FileCheck %s --check-prefix=UNBLOCK
// RUN: spyre-run %s --function=f64_sum --random-inputs=1 --check 2>&1 | FileCheck %s --check-prefix=F64
// RUN: spyre-run %s --function=bias_mlp --random-inputs=1 --check --f32-matmul=f16 2>&1 | FileCheck %s --check-prefix=BIAS-MLP

// tpp-mlir's batch-reduce GEMM: both K loops merged, one device matmul.
// BRGEMM: @batch_reduce: {{[0-9]+}} kernels
// BRGEMM: check result 0: ok
func.func @batch_reduce(%a: tensor<4x32x32xf16>, %b: tensor<4x32x32xf16>, %c: tensor<32x32xf16>) -> tensor<32x32xf16> {
  %r = linalg.batch_reduce_matmul ins(%a, %b : tensor<4x32x32xf16>, tensor<4x32x32xf16>) outs(%c : tensor<32x32xf16>) -> tensor<32x32xf16>
  return %r : tensor<32x32xf16>
}

// IREE's matmul_NxKxf16_times_Kx1: a matrix-vector product runs on the host.
// MATVEC: remark: 'linalg.matmul' stays on the host: its N is 1
// MATVEC: check result 0: ok
func.func @matvec(%a: tensor<16x16xf16>, %b: tensor<16x1xf16>, %acc: tensor<16x1xf16>) -> tensor<16x1xf16> {
  %r = linalg.matmul ins(%a, %b : tensor<16x16xf16>, tensor<16x1xf16>) outs(%acc : tensor<16x1xf16>) -> tensor<16x1xf16>
  return %r : tensor<16x1xf16>
}

// Elementwise math on whole tensors (IREE's simple_abs): two device kernels (no fusion).
// MATH: @tensor_math: 2 kernels
// MATH: check result 0: ok
func.func @tensor_math(%x: tensor<64x64xf16>, %y: tensor<64x64xf16>) -> tensor<64x64xf16> {
  %a = math.absf %x : tensor<64x64xf16>
  %r = arith.addf %a, %y : tensor<64x64xf16>
  return %r : tensor<64x64xf16>
}

// tpp-mlir's blocked matmul (6 loops, [2, 2, 32, 32] blocks): the merged
// product is split back into blocks through the host, where no device
// layout makes that reshape a view.
// RUN: spyre-run %s --function=blocked --random-inputs=1 --check 2>&1 | FileCheck %s --check-prefix=BLOCKED
// BLOCKED: remark: 'spyre.reshape' runs on the host
// BLOCKED: check result 0: ok
#blk_a = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d2, d3, d5)>
#blk_b = affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d5, d4)>
#blk_c = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3, d4)>
func.func @blocked(%A: tensor<2x2x32x32xf16>, %B: tensor<2x2x32x32xf16>, %C: tensor<2x2x32x32xf16>) -> tensor<2x2x32x32xf16> {
  %r = linalg.generic {indexing_maps = [#blk_a, #blk_b, #blk_c],
      iterator_types = ["parallel", "parallel", "reduction", "parallel", "parallel", "reduction"]}
      ins(%A, %B : tensor<2x2x32x32xf16>, tensor<2x2x32x32xf16>) outs(%C : tensor<2x2x32x32xf16>) {
  ^bb0(%x: f16, %y: f16, %acc: f16):
    %m = arith.mulf %x, %y : f16
    %s = arith.addf %acc, %m : f16
    linalg.yield %s : f16
  } -> tensor<2x2x32x32xf16>
  return %r : tensor<2x2x32x32xf16>
}

// IREE's integer division on random inputs divides by zero: the host code's
// arithmetic fault is an error, not the end of the process.
// RUN: not spyre-run %s --function=divide --random-inputs=1 --check 2>&1 | FileCheck %s --check-prefix=SIGFPE
// SIGFPE: error: host segment @divide__host0: {{.*}}stopped with an arithmetic fault (SIGFPE) on the host
func.func @divide(%a: tensor<1024xi32>, %b: tensor<1024xi32>, %init: tensor<1024xi32>) -> tensor<1024xi32> {
  %r = linalg.div_unsigned ins(%a, %b : tensor<1024xi32>, tensor<1024xi32>) outs(%init : tensor<1024xi32>) -> tensor<1024xi32>
  return %r : tensor<1024xi32>
}

// An index computed from an input (an embedding lookup through casts the
// random draw does not follow) that lands far outside the table: the host
// code's memory fault is an error, not the end of the process.
// RUN: not spyre-run %s --function=wild_index --random-inputs=1 --check 2>&1 | FileCheck %s --check-prefix=SIGSEGV
// SIGSEGV: error: host segment @wild_index__host0: {{.*}}stopped with a memory fault (SIGSEGV or SIGBUS) on the host (an index out of range?
func.func @wild_index(%table: tensor<4x64xf32>, %ids: tensor<8xi32>) -> tensor<8x64xf32> {
  %e = tensor.empty() : tensor<8x64xf32>
  %far = arith.constant 1000000007 : index
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%ids : tensor<8xi32>) outs(%e : tensor<8x64xf32>) {
  ^bb0(%id: i32, %o: f32):
    %i = arith.index_cast %id : i32 to index
    %k = arith.muli %i, %far : index
    %j = linalg.index 1 : index
    %v = tensor.extract %table[%k, %j] : tensor<4x64xf32>
    linalg.yield %v : f32
  } -> tensor<8x64xf32>
  return %r : tensor<8x64xf32>
}

// graph-compiler's microkernel tests read slices of uninitialized buffers
// inside a loop: the program has no defined result, and the reference says
// which op reads what (instead of a mismatch of garbage on both sides).
// RUN: not spyre-run %s --function=empty_slice_read --random-inputs=1 --check 2>&1 | FileCheck %s --check-prefix=UNDEFINED
// UNDEFINED: error: {{.*}}'linalg.batch_reduce_matmul' at {{.*}}public-idioms.mlir":[[# @LINE + 9]]:{{[0-9]+}}) reads its input operand, a tensor.empty (or a view of one), whose contents are undefined
func.func @empty_slice_read(%c: tensor<2x32x32xf32>) -> tensor<2x32x32xf32> {
  %a = tensor.empty() : tensor<2x4x32x32xf32>
  %b = tensor.empty() : tensor<4x32x32xf32>
  %r = scf.forall (%i) in (2) shared_outs(%o = %c) -> (tensor<2x32x32xf32>) {
    %ai = tensor.extract_slice %a[%i, 0, 0, 0] [1, 4, 32, 32] [1, 1, 1, 1] : tensor<2x4x32x32xf32> to tensor<4x32x32xf32>
    %oi = tensor.extract_slice %o[%i, 0, 0] [1, 32, 32] [1, 1, 1] : tensor<2x32x32xf32> to tensor<32x32xf32>
    %z = arith.constant 0.0 : f32
    %f = linalg.fill ins(%z : f32) outs(%oi : tensor<32x32xf32>) -> tensor<32x32xf32>
    %m = linalg.batch_reduce_matmul ins(%ai, %b : tensor<4x32x32xf32>, tensor<4x32x32xf32>) outs(%f : tensor<32x32xf32>) -> tensor<32x32xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %m into %o[%i, 0, 0] [1, 32, 32] [1, 1, 1] : tensor<32x32xf32> into tensor<2x32x32xf32>
    }
  }
  return %r : tensor<2x32x32xf32>
}

// graph-compiler's fused MLP reads each thread's slice of an scf.forall's
// shared output before writing it, the shared output being an empty: as
// undefined (not a mismatch of whatever the buffers held).
// RUN: not spyre-run %s --function=shared_empty_read --random-inputs=1 --check 2>&1 | FileCheck %s --check-prefix=SHARED
// SHARED: error: {{.*}}'linalg.copy' at {{.*}}public-idioms.mlir":[[# @LINE + 6]]:{{[0-9]+}}) reads its input operand, a tensor.empty (or a view of one), whose contents are undefined
func.func @shared_empty_read(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %e = tensor.empty() : tensor<64x64xf32>
  %r = scf.forall (%i) in (2) shared_outs(%o = %e) -> (tensor<64x64xf32>) {
    %j = affine.apply affine_map<(d0) -> (d0 * 32)>(%i)
    %oi = tensor.extract_slice %o[0, %j] [64, 32] [1, 1] : tensor<64x64xf32> to tensor<64x32xf32>
    %copy = linalg.copy ins(%oi : tensor<64x32xf32>) outs(%oi : tensor<64x32xf32>) -> tensor<64x32xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %copy into %o[0, %j] [64, 32] [1, 1] : tensor<64x32xf32> into tensor<64x64xf32>
    }
  }
  return %r : tensor<64x64xf32>
}

// IREE's ROCm fp8 matmuls: fp8 operands widened in the body. The reference
// reads each fp8 encoding through a table of its values (LLVM has no fp8
// type).
// FP8: check result 0: ok
func.func @fp8_matmul(%a: tensor<1x32x128xf8E4M3FN>, %b: tensor<64x128xf8E5M2>) -> tensor<1x32x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x32x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x32x64xf32>) -> tensor<1x32x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%a, %b : tensor<1x32x128xf8E4M3FN>, tensor<64x128xf8E5M2>) outs(%f : tensor<1x32x64xf32>) {
  ^bb0(%x: f8E4M3FN, %y: f8E5M2, %acc: f32):
    %xf = arith.extf %x : f8E4M3FN to f32
    %yf = arith.extf %y : f8E5M2 to f32
    %p = arith.mulf %xf, %yf : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<1x32x64xf32>
  return %r : tensor<1x32x64xf32>
}

// Rounding to fp8 runs on the host, rounding as APFloat does (nearest, ties
// to even, NaN beyond 448: test_quant.py checks the codes).
// FP8-ROUND: remark: 'linalg.generic' stays on the host
// FP8-ROUND: check result 0: ok
func.func @fp8_round(%a: tensor<4x64xf32>) -> tensor<4x64xf8E4M3FN> {
  %e = tensor.empty() : tensor<4x64xf8E4M3FN>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x64xf32>) outs(%e : tensor<4x64xf8E4M3FN>) {
  ^bb0(%x: f32, %o: f8E4M3FN):
    %t = arith.truncf %x : f32 to f8E4M3FN
    linalg.yield %t : f8E4M3FN
  } -> tensor<4x64xf8E4M3FN>
  return %r : tensor<4x64xf8E4M3FN>
}

// IREE's gfx942 fp8 matmuls use the fnuz formats, which the device does not
// compute on: the contraction runs on the host, its arguments drawn and
// checked like the others.
// FNUZ: remark: 'linalg.generic' stays on the host
// FNUZ: check result 0: ok
func.func @fnuz_matmul(%a: tensor<16x64xf8E4M3FNUZ>, %b: tensor<32x64xf8E5M2FNUZ>) -> tensor<16x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x32xf32>) -> tensor<16x32xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<16x64xf8E4M3FNUZ>, tensor<32x64xf8E5M2FNUZ>) outs(%f : tensor<16x32xf32>) {
  ^bb0(%x: f8E4M3FNUZ, %y: f8E5M2FNUZ, %acc: f32):
    %xf = arith.extf %x : f8E4M3FNUZ to f32
    %yf = arith.extf %y : f8E5M2FNUZ to f32
    %p = arith.mulf %xf, %yf : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<16x32xf32>
  return %r : tensor<16x32xf32>
}

// f64 (byteir's and fuseflow's tests) stays on the host too, copies and
// transposes included: no device tensor holds it.
// F64: remark: 'linalg.add' stays on the host: operand #0 holds f64, which no device tensor holds
// F64: remark: 'linalg.transpose' stays on the host
// F64: check result 0: ok
// F64: check result 1: ok
func.func @f64_sum(%a: tensor<8x16xf64>, %b: tensor<8x16xf64>) -> (tensor<8x16xf64>, tensor<16x8xf64>) {
  %e = tensor.empty() : tensor<8x16xf64>
  %r = linalg.add ins(%a, %b : tensor<8x16xf64>, tensor<8x16xf64>) outs(%e : tensor<8x16xf64>) -> tensor<8x16xf64>
  %et = tensor.empty() : tensor<16x8xf64>
  %t = linalg.transpose ins(%r : tensor<8x16xf64>) outs(%et : tensor<16x8xf64>) permutation = [1, 0]
  return %r, %t : tensor<8x16xf64>, tensor<16x8xf64>
}

// graph-compiler's and tpp-mlir's VNNI-packed matmul: K read from A as
// d3 * 32 + d4 * 2 + d5, B in blocks [N/32, K/32, 16, 32, 2], C written as
// d1 * 32 + d2. The combinations are views: one device matmul.
// VNNI: @vnni_matmul: {{[0-9]+}} kernels
// VNNI: check result 0: ok
func.func @vnni_matmul(%a: tensor<128x512xbf16>, %b: tensor<8x16x16x32x2xbf16>) -> tensor<128x256xbf16> {
  %z = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<128x256xbf16>
  %f = linalg.fill ins(%z : bf16) outs(%e : tensor<128x256xbf16>) -> tensor<128x256xbf16>
  %r = linalg.generic {indexing_maps = [affine_map<(m, nb, n, kb, k, v) -> (m, kb * 32 + k * 2 + v)>,
                                        affine_map<(m, nb, n, kb, k, v) -> (nb, kb, k, n, v)>,
                                        affine_map<(m, nb, n, kb, k, v) -> (m, nb * 32 + n)>],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%a, %b : tensor<128x512xbf16>, tensor<8x16x16x32x2xbf16>) outs(%f : tensor<128x256xbf16>) {
  ^bb0(%x: bf16, %y: bf16, %o: bf16):
    %p = arith.mulf %x, %y : bf16
    %s = arith.addf %o, %p : bf16
    linalg.yield %s : bf16
  } -> tensor<128x256xbf16>
  return %r : tensor<128x256xbf16>
}

// tpp-mlir's relayout out of blocks [M/32, N/32, 32, 32] -> [M, N], written
// as a copy into a C indexed by m1 * 32 + m2: a transpose and a reshape.
// UNBLOCK: @unblock: {{[0-9]+}} kernels
// UNBLOCK: check result 0: ok, max abs error 0.000000e+00
func.func @unblock(%x: tensor<4x8x32x32xf16>) -> tensor<128x256xf16> {
  %e = tensor.empty() : tensor<128x256xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(m1, n1, m2, n2) -> (m1, n1, m2, n2)>,
                                        affine_map<(m1, n1, m2, n2) -> (m1 * 32 + m2, n1 * 32 + n2)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<4x8x32x32xf16>) outs(%e : tensor<128x256xf16>) {
  ^bb0(%v: f16, %o: f16):
    linalg.yield %v : f16
  } -> tensor<128x256xf16>
  return %r : tensor<128x256xf16>
}

// tpp-mlir's one-layer MLP (mlp-fp32-1layer-512): the matmul accumulates
// into the bias broadcast along the rows, then a ReLU. Computed in f16 on
// the device, the matmul's f32 result is in the lanes' DL16_TO_FP32 order,
// and so are the bias and its broadcast copy (uploaded in that order): the
// three combine lane by lane.
// BIAS-MLP: remark: f32 matmul computed in f16 on the device (f32-matmul=f16)
// BIAS-MLP: @bias_mlp: {{[0-9]+}} kernels
// BIAS-MLP: check result 0: ok
#bias_row = affine_map<(d0, d1) -> (0, d1)>
#bias_all = affine_map<(d0, d1) -> (d0, d1)>
func.func @bias_mlp(%x: tensor<128x256xf32>, %w: tensor<256x512xf32>, %b: tensor<1x512xf32>) -> tensor<128x512xf32> {
  %e = tensor.empty() : tensor<128x512xf32>
  %bias = linalg.generic {indexing_maps = [#bias_row, #bias_all], iterator_types = ["parallel", "parallel"]} ins(%b : tensor<1x512xf32>) outs(%e : tensor<128x512xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<128x512xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<128x256xf32>, tensor<256x512xf32>) outs(%bias : tensor<128x512xf32>) -> tensor<128x512xf32>
  %zero = arith.constant 0.0 : f32
  %r = linalg.generic {indexing_maps = [#bias_all], iterator_types = ["parallel", "parallel"]} outs(%mm : tensor<128x512xf32>) {
  ^bb0(%v: f32):
    %m = arith.maximumf %v, %zero : f32
    linalg.yield %m : f32
  } -> tensor<128x512xf32>
  return %r : tensor<128x512xf32>
}
