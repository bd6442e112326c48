// Programs with parts the device does not run: those parts run on the host,
// in host segments between the kernels, in the same spyre-run, and the whole
// program is checked against upstream MLIR's lowering of it.

// A sine (no device op) between two device ops.
func.func @sin_between(%a: tensor<64x128xf16>, %b: tensor<64x128xf16>) -> tensor<64x128xf16> {
  %e = tensor.empty() : tensor<64x128xf16>
  %s = linalg.add ins(%a, %b : tensor<64x128xf16>, tensor<64x128xf16>) outs(%e : tensor<64x128xf16>) -> tensor<64x128xf16>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<64x128xf16>) outs(%e : tensor<64x128xf16>) {
  ^bb0(%x: f16, %o: f16):
    %t = math.sin %x : f16
    linalg.yield %t : f16
  } -> tensor<64x128xf16>
  %r = linalg.mul ins(%g, %a : tensor<64x128xf16>, tensor<64x128xf16>) outs(%e : tensor<64x128xf16>) -> tensor<64x128xf16>
  return %r : tensor<64x128xf16>
}

// An f32 matmul (the PT unit multiplies DL16) feeding a device exp.
func.func @f32_matmul(%a: tensor<32x64xf32>, %b: tensor<64x96xf32>) -> tensor<32x96xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x96xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<32x96xf32>) -> tensor<32x96xf32>
  %m = linalg.matmul ins(%a, %b : tensor<32x64xf32>, tensor<64x96xf32>) outs(%z : tensor<32x96xf32>) -> tensor<32x96xf32>
  %x = linalg.exp ins(%m : tensor<32x96xf32>) outs(%e : tensor<32x96xf32>) -> tensor<32x96xf32>
  return %x : tensor<32x96xf32>
}

// A slice, then device work on it.
func.func @slice(%a: tensor<128x256xf16>) -> tensor<64x256xf16> {
  %s = tensor.extract_slice %a[32, 0] [64, 256] [1, 1] : tensor<128x256xf16> to tensor<64x256xf16>
  %e = tensor.empty() : tensor<64x256xf16>
  %r = linalg.exp ins(%s : tensor<64x256xf16>) outs(%e : tensor<64x256xf16>) -> tensor<64x256xf16>
  return %r : tensor<64x256xf16>
}

// A loop whose body holds a linalg op: the loop runs on the host as a whole.
func.func @loop(%a: tensor<4x64xf16>, %b: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %c1 = arith.constant 1 : index
  %e = tensor.empty() : tensor<4x64xf16>
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %a) -> (tensor<4x64xf16>) {
    %n = linalg.add ins(%acc, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
    scf.yield %n : tensor<4x64xf16>
  }
  %x = linalg.negf ins(%r : tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  return %x : tensor<4x64xf16>
}

// An embedding lookup (a gather through tensor.extract) followed by a
// device layer norm's first step.
func.func @gather(%table: tensor<16x64xf16>, %ids: tensor<8xi32>) -> tensor<8x64xf16> {
  %e = tensor.empty() : tensor<8x64xf16>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%ids : tensor<8xi32>) outs(%e : tensor<8x64xf16>) {
  ^bb0(%id: i32, %o: f16):
    %row = arith.index_cast %id : i32 to index
    %col = linalg.index 1 : index
    %v = tensor.extract %table[%row, %col] : tensor<16x64xf16>
    linalg.yield %v : f16
  } -> tensor<8x64xf16>
  %x = linalg.exp ins(%g : tensor<8x64xf16>) outs(%e : tensor<8x64xf16>) -> tensor<8x64xf16>
  return %x : tensor<8x64xf16>
}

// Integer types the device has no format for stay on the host as whole
// tensors: i16 arguments and results (quantized front ends), and index
// tensors (argmax-style position arithmetic). The i16 input feeds a device
// exp through a host conversion; the i16 result is host arithmetic.
func.func @i16_io(%q: tensor<8x64xi16>, %s: tensor<8x64xi16>) -> (tensor<8x64xf16>, tensor<8x64xi16>) {
  %e = tensor.empty() : tensor<8x64xf16>
  %ei = tensor.empty() : tensor<8x64xi16>
  %f = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%q : tensor<8x64xi16>) outs(%e : tensor<8x64xf16>) {
  ^bb0(%v: i16, %o: f16):
    %c = arith.sitofp %v : i16 to f16
    %k = arith.constant 0.001 : f16
    %m = arith.mulf %c, %k : f16
    linalg.yield %m : f16
  } -> tensor<8x64xf16>
  %x = linalg.exp ins(%f : tensor<8x64xf16>) outs(%e : tensor<8x64xf16>) -> tensor<8x64xf16>
  %d = linalg.sub ins(%q, %s : tensor<8x64xi16>, tensor<8x64xi16>) outs(%ei : tensor<8x64xi16>) -> tensor<8x64xi16>
  return %x, %d : tensor<8x64xf16>, tensor<8x64xi16>
}

func.func @index_io(%p: tensor<16xindex>) -> tensor<16xindex> {
  %e = tensor.empty() : tensor<16xindex>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%p : tensor<16xindex>) outs(%e : tensor<16xindex>) {
  ^bb0(%v: index, %o: index):
    %i = linalg.index 0 : index
    %s = arith.addi %v, %i : index
    linalg.yield %s : index
  } -> tensor<16xindex>
  return %r : tensor<16xindex>
}

// A test's entry function that prints: the vector transfer and print run on
// the host (printing to stdout) after the device's kernel.
func.func @prints(%a: tensor<4x64xf16>, %b: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %e = tensor.empty() : tensor<4x64xf16>
  %s = linalg.add ins(%a, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f16
  %v = vector.transfer_read %s[%c0, %c0], %pad : tensor<4x64xf16>, vector<2x4xf16>
  %w = arith.extf %v : vector<2x4xf16> to vector<2x4xf32>
  vector.print %w : vector<2x4xf32>
  return %s : tensor<4x64xf16>
}

// A test written for mlir-runner: it times itself with rtclock and prints
// with printMemrefF32 (upstream's runner utilities, which the host segments
// call); the time crosses from one segment to the next as a 0-d tensor.
func.func private @rtclock() -> f64
func.func private @printMemrefF32(tensor<*xf32>)
func.func @timed(%a: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %t0 = call @rtclock() : () -> f64
  %e = tensor.empty() : tensor<4x64xf16>
  %r = linalg.exp ins(%a : tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  %t1 = call @rtclock() : () -> f64
  %dt = arith.subf %t1, %t0 : f64
  %zero = arith.constant 0.0 : f64
  %forward = arith.cmpf oge, %dt, %zero : f64
  vector.print %forward : i1
  %w = tensor.empty() : tensor<2x3xf32>
  %one = arith.constant 1.5 : f32
  %f = linalg.fill ins(%one : f32) outs(%w : tensor<2x3xf32>) -> tensor<2x3xf32>
  %u = tensor.cast %f : tensor<2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return %r : tensor<4x64xf16>
}

// A result that is also printed: the printed view of it needs no copy
// (printMemrefF32 only reads), which an unranked tensor could not have.
func.func @prints_result(%a: tensor<2x64xf32>) -> tensor<2x64xf32> {
  %e = tensor.empty() : tensor<2x64xf32>
  %r = linalg.exp ins(%a : tensor<2x64xf32>) outs(%e : tensor<2x64xf32>) -> tensor<2x64xf32>
  %u = tensor.cast %r : tensor<2x64xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return %r : tensor<2x64xf32>
}

// A pack whose static sizes hide behind casts to dynamic types (as IREE's
// dynamic-pack tests write it): upstream lowers packs with static shapes
// only; canonicalization gives them back.
func.func @dynamic_pack() -> tensor<2x2x2x2xi32> {
  %k = arith.constant dense<[[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11], [12, 13, 14, 15]]> : tensor<4x4xi32>
  %x = tensor.cast %k : tensor<4x4xi32> to tensor<?x?xi32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?xi32>
  %d1 = tensor.dim %x, %c1 : tensor<?x?xi32>
  %o0 = arith.ceildivui %d0, %c2 : index
  %o1 = arith.ceildivui %d1, %c2 : index
  %init = tensor.empty(%o0, %o1, %c2, %c2) : tensor<?x?x?x?xi32>
  %p = linalg.pack %x inner_dims_pos = [0, 1] inner_tiles = [%c2, %c2] into %init : tensor<?x?xi32> -> tensor<?x?x?x?xi32>
  %r = tensor.cast %p : tensor<?x?x?x?xi32> to tensor<2x2x2x2xi32>
  return %r : tensor<2x2x2x2xi32>
}
