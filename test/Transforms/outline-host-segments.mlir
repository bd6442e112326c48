// RUN: spyre-opt %s -split-input-file --spyre-outline-host-segments | FileCheck %s
// RUN: not spyre-opt %s -split-input-file --spyre-outline-host-segments=allow=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=OFF

// A run of host ops between device ops becomes one private function, called
// where the run was; the tensor.empty and the constant it reads are copied
// in, not cut at.
// CHECK-LABEL: func.func @mixed
// CHECK-SAME: (%[[A:.+]]: tensor<4x64xf16>)
// CHECK: %[[C:.+]] = call @mixed__host0(%[[A]]) : (tensor<4x64xf16>) -> tensor<4x64xf16>
// CHECK: %[[D:.+]] = spyre.exp %[[C]]
// CHECK: return %[[D]]
// CHECK: func.func private @mixed__host0(%[[ARG:.+]]: tensor<4x64xf16>) -> tensor<4x64xf16> attributes {spyre.host_segment}
// CHECK-DAG: %[[E:.+]] = tensor.empty() : tensor<4x64xf16>
// CHECK-DAG: %[[TWO:.+]] = arith.constant 2.000000e+00 : f16
// CHECK: %[[G:.+]] = linalg.generic {{.*}} ins(%[[ARG]] : tensor<4x64xf16>) outs(%[[E]] : tensor<4x64xf16>)
// CHECK: math.sin
// CHECK: arith.mulf %{{.+}}, %[[TWO]]
// CHECK: return %[[G]]
func.func @mixed(%a: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %two = arith.constant 2.0 : f16
  %e = tensor.empty() : tensor<4x64xf16>
  // OFF: outline-host-segments.mlir:[[# @LINE + 1]]:8: error: 'linalg.generic' runs on the host, and host fallback is off
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) {
  ^bb0(%x: f16, %o: f16):
    %t = math.sin %x : f16
    %m = arith.mulf %t, %two : f16
    linalg.yield %m : f16
  } -> tensor<4x64xf16>
  %d = spyre.exp %g : (tensor<4x64xf16>) -> tensor<4x64xf16>
  return %d : tensor<4x64xf16>
}

// -----

// Two runs cut by a device op are two segments; a value of the first that
// the second reads is passed through the function.
// CHECK-LABEL: func.func @two
// CHECK: %[[S:.+]]:2 = call @two__host0(%{{.+}}) : (tensor<4x64xf32>) -> (tensor<4x64xf32>, tensor<4x64xf32>)
// CHECK: %[[X:.+]] = spyre.exp %[[S]]#0
// CHECK: %[[T:.+]] = call @two__host1(%[[X]], %[[S]]#1)
// CHECK: return %[[T]]
// CHECK: func.func private @two__host0
// CHECK: func.func private @two__host1
func.func @two(%a: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %e = tensor.empty() : tensor<4x64xf32>
  %p = linalg.exp ins(%a : tensor<4x64xf32>) outs(%e : tensor<4x64xf32>) -> tensor<4x64xf32>
  %q = linalg.log ins(%a : tensor<4x64xf32>) outs(%e : tensor<4x64xf32>) -> tensor<4x64xf32>
  %x = spyre.exp %p : (tensor<4x64xf32>) -> tensor<4x64xf32>
  %r = linalg.add ins(%x, %q : tensor<4x64xf32>, tensor<4x64xf32>) outs(%e : tensor<4x64xf32>) -> tensor<4x64xf32>
  return %r : tensor<4x64xf32>
}

// -----

// A function with nothing on the host is left as it is.
// CHECK-LABEL: func.func @device_only
// CHECK-NOT: call
// CHECK-NOT: host_segment
func.func @device_only(%a: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %d = spyre.exp %a : (tensor<4x64xf16>) -> tensor<4x64xf16>
  return %d : tensor<4x64xf16>
}

// -----

// A function returning nothing keeps its return when the host code it held
// is outlined (a `return` of nothing is no dead constant).
// CHECK-LABEL: func.func @returns_nothing
// CHECK: call @returns_nothing__host0
// CHECK-NEXT: return
func.func @returns_nothing(%a: tensor<4x2xf32>) {
  %c = arith.constant dense<1.0> : tensor<2x16xf32>
  %e = tensor.empty() : tensor<2x16xf32>
  %r = linalg.exp ins(%c : tensor<2x16xf32>) outs(%e : tensor<2x16xf32>) -> tensor<2x16xf32>
  return
}

// -----

// A scalar one segment computes and a later one reads (a time from
// rtclock) leaves as a 0-d tensor and is read back with tensor.extract; the
// function body keeps no extract of it.
// CHECK-LABEL: func.func @scalar_between
// CHECK: %[[T:.*]] = call @scalar_between__host0() : () -> tensor<f64>
// CHECK: spyre.exp
// CHECK: %[[R:.*]] = call @scalar_between__host1(%[[T]], %{{.*}}) : (tensor<f64>, tensor<4x64xf32>) -> tensor<4x64xf32>
// CHECK-NOT: tensor.extract
// CHECK: return %[[R]]
// CHECK-LABEL: func.func private @scalar_between__host0() -> tensor<f64>
// CHECK: %[[S:.*]] = call @rtclock() : () -> f64
// CHECK: %[[W:.*]] = tensor.from_elements %[[S]] : tensor<f64>
// CHECK: return %[[W]] : tensor<f64>
// CHECK-LABEL: func.func private @scalar_between__host1(%{{.*}}: tensor<f64>, %{{.*}}: tensor<4x64xf32>) -> tensor<4x64xf32>
// CHECK: tensor.extract %{{.*}}[] : tensor<f64>
func.func private @rtclock() -> f64
func.func @scalar_between(%a: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %t0 = call @rtclock() : () -> f64
  %x = spyre.exp %a : (tensor<4x64xf32>) -> tensor<4x64xf32>
  %t1 = call @rtclock() : () -> f64
  %dt = arith.subf %t1, %t0 : f64
  %f = arith.truncf %dt : f64 to f32
  %e = tensor.empty() : tensor<4x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x64xf32>) outs(%e : tensor<4x64xf32>) {
  ^bb0(%v: f32, %o: f32):
    %s = arith.addf %v, %f : f32
    linalg.yield %s : f32
  } -> tensor<4x64xf32>
  return %r : tensor<4x64xf32>
}

// -----

// Code on a buffer stays in one segment: the buffer's materialization moves
// down to its first use, the tensor made of it up to its last, and a device
// op the program wrote between them (needing nothing made there) moves
// before them. One segment; the exp runs first.
// CHECK-LABEL: func.func @buffer_code
// CHECK-SAME: (%[[A:.+]]: tensor<4x64xf16>, %[[B:.+]]: tensor<4x64xf16>)
// CHECK: %[[X:.+]] = spyre.exp %[[B]]
// CHECK: %[[S:.+]] = call @buffer_code__host0(%[[A]]) : (tensor<4x64xf16>) -> tensor<4x64xf16>
// CHECK: return %[[S]], %[[X]]
// CHECK: func.func private @buffer_code__host0
// CHECK: bufferization.to_buffer
// CHECK: memref.alloc
// CHECK: memref.copy
// CHECK: memref.store
// CHECK: bufferization.to_tensor
func.func @buffer_code(%a: tensor<4x64xf16>, %b: tensor<4x64xf16>) -> (tensor<4x64xf16>, tensor<4x64xf16>) {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f16
  %m = bufferization.to_buffer %a read_only : tensor<4x64xf16> to memref<4x64xf16>
  %buf = memref.alloc() : memref<4x64xf16>
  memref.copy %m, %buf : memref<4x64xf16> to memref<4x64xf16>
  %x = spyre.exp %b : (tensor<4x64xf16>) -> tensor<4x64xf16>
  memref.store %one, %buf[%c0, %c0] : memref<4x64xf16>
  %t = bufferization.to_tensor %buf restrict : memref<4x64xf16> to tensor<4x64xf16>
  return %t, %x : tensor<4x64xf16>, tensor<4x64xf16>
}

// -----

// A scalar argument of the function (a helper's size: only host code calls
// a function with scalar arguments) goes into the segment as it is.
// CHECK-LABEL: func.func @scalar_size
// CHECK-SAME: (%[[N:.+]]: index)
// CHECK: %[[R:.+]] = call @scalar_size__host0(%[[N]]) : (index) -> tensor<?xf32>
// CHECK: return %[[R]]
// CHECK: func.func private @scalar_size__host0(%[[ARG:.+]]: index) -> tensor<?xf32>
// CHECK: tensor.empty(%[[ARG]]) : tensor<?xf32>
// CHECK: linalg.fill
func.func @scalar_size(%n: index) -> tensor<?xf32> {
  %e = tensor.empty(%n) : tensor<?xf32>
  %c = arith.constant 1.0 : f32
  %f = linalg.fill ins(%c : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  return %f : tensor<?xf32>
}
