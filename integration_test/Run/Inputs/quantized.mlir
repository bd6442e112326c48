// Weight-only quantized matmuls (x @ dequantize(W)^T with W stored [N, K] and
// quantized along K), checked by integration_test/Run/quantized.test.
// Every scheme the scaled matmul reads becomes one; the last function's
// The matrix_on_host scheme (2-D tiles) is dequantized on the host instead;
// the last two are Llama-style MLPs (gate and up projections, SiLU, their
// product, the down projection) with MXFP4 and with per-channel int8
// weights and zero points.

func.func @mxfp4(%x: tensor<8x512xf16>, %p0: tensor<256x256xi8>, %p1: tensor<256x16xf8E8M0FNU>) -> tensor<8x256xf16> {
  %w = spyre.dequantize %p0, %p1 {quant = #spyre.quant<format = e2m1fn, scaling = mx>}
      : tensor<256x256xi8>, tensor<256x16xf8E8M0FNU> -> tensor<256x512xf16>
  %e = tensor.empty() : tensor<8x256xf16>
  %z = arith.constant 0.0 : f16
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<8x256xf16>) -> tensor<8x256xf16>
  %y = linalg.matmul_transpose_b ins(%x, %w : tensor<8x512xf16>, tensor<256x512xf16>) outs(%f : tensor<8x256xf16>) -> tensor<8x256xf16>
  return %y : tensor<8x256xf16>
}

func.func @mxfp8(%x: tensor<8x512xf16>, %p0: tensor<256x512xf8E4M3FN>, %p1: tensor<256x16xf8E8M0FNU>) -> tensor<8x256xf16> {
  %w = spyre.dequantize %p0, %p1 {quant = #spyre.quant<format = e4m3fn, scaling = mx>}
      : tensor<256x512xf8E4M3FN>, tensor<256x16xf8E8M0FNU> -> tensor<256x512xf16>
  %e = tensor.empty() : tensor<8x256xf16>
  %z = arith.constant 0.0 : f16
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<8x256xf16>) -> tensor<8x256xf16>
  %y = linalg.matmul_transpose_b ins(%x, %w : tensor<8x512xf16>, tensor<256x512xf16>) outs(%f : tensor<8x256xf16>) -> tensor<8x256xf16>
  return %y : tensor<8x256xf16>
}

func.func @mxint8(%x: tensor<8x512xf16>, %p0: tensor<256x512xi8>, %p1: tensor<256x16xf8E8M0FNU>) -> tensor<8x256xf16> {
  %w = spyre.dequantize %p0, %p1 {quant = #spyre.quant<format = int8, scaling = mx>}
      : tensor<256x512xi8>, tensor<256x16xf8E8M0FNU> -> tensor<256x512xf16>
  %e = tensor.empty() : tensor<8x256xf16>
  %z = arith.constant 0.0 : f16
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<8x256xf16>) -> tensor<8x256xf16>
  %y = linalg.matmul_transpose_b ins(%x, %w : tensor<8x512xf16>, tensor<256x512xf16>) outs(%f : tensor<8x256xf16>) -> tensor<8x256xf16>
  return %y : tensor<8x256xf16>
}

func.func @int8_channel_zero(%x: tensor<8x512xf16>, %p0: tensor<256x512xi8>, %p1: tensor<256x1xf32>, %p2: tensor<256x1xi8>) -> tensor<8x256xf16> {
  %w = spyre.dequantize %p0, %p1, %p2 {quant = #spyre.quant<format = int8, scaling = channel, zero_point = true>}
      : tensor<256x512xi8>, tensor<256x1xf32>, tensor<256x1xi8> -> tensor<256x512xf16>
  %e = tensor.empty() : tensor<8x256xf16>
  %z = arith.constant 0.0 : f16
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<8x256xf16>) -> tensor<8x256xf16>
  %y = linalg.matmul_transpose_b ins(%x, %w : tensor<8x512xf16>, tensor<256x512xf16>) outs(%f : tensor<8x256xf16>) -> tensor<8x256xf16>
  return %y : tensor<8x256xf16>
}

func.func @uint4_tile_zero(%x: tensor<8x512xf16>, %p0: tensor<256x256xi8>, %p1: tensor<256x4xf16>, %p2: tensor<256x2xi8>) -> tensor<8x256xf16> {
  %w = spyre.dequantize %p0, %p1, %p2 {quant = #spyre.quant<format = uint4, scaling = tile, tile = 128, scale_type = float16, zero_point = true>}
      : tensor<256x256xi8>, tensor<256x4xf16>, tensor<256x2xi8> -> tensor<256x512xf16>
  %e = tensor.empty() : tensor<8x256xf16>
  %z = arith.constant 0.0 : f16
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<8x256xf16>) -> tensor<8x256xf16>
  %y = linalg.matmul_transpose_b ins(%x, %w : tensor<8x512xf16>, tensor<256x512xf16>) outs(%f : tensor<8x256xf16>) -> tensor<8x256xf16>
  return %y : tensor<8x256xf16>
}

func.func @int4_tile(%x: tensor<8x512xf16>, %p0: tensor<256x256xi8>, %p1: tensor<256x8xbf16>) -> tensor<8x256xf16> {
  %w = spyre.dequantize %p0, %p1 {quant = #spyre.quant<format = int4, scaling = tile, tile = 64, scale_type = bfloat16>}
      : tensor<256x256xi8>, tensor<256x8xbf16> -> tensor<256x512xf16>
  %e = tensor.empty() : tensor<8x256xf16>
  %z = arith.constant 0.0 : f16
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<8x256xf16>) -> tensor<8x256xf16>
  %y = linalg.matmul_transpose_b ins(%x, %w : tensor<8x512xf16>, tensor<256x512xf16>) outs(%f : tensor<8x256xf16>) -> tensor<8x256xf16>
  return %y : tensor<8x256xf16>
}

func.func @fp8_channel(%x: tensor<8x512xf16>, %p0: tensor<256x512xf8E4M3FN>, %p1: tensor<256x1xf32>) -> tensor<8x256xf16> {
  %w = spyre.dequantize %p0, %p1 {quant = #spyre.quant<format = e4m3fn, scaling = channel>}
      : tensor<256x512xf8E4M3FN>, tensor<256x1xf32> -> tensor<256x512xf16>
  %e = tensor.empty() : tensor<8x256xf16>
  %z = arith.constant 0.0 : f16
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<8x256xf16>) -> tensor<8x256xf16>
  %y = linalg.matmul_transpose_b ins(%x, %w : tensor<8x512xf16>, tensor<256x512xf16>) outs(%f : tensor<8x256xf16>) -> tensor<8x256xf16>
  return %y : tensor<8x256xf16>
}

func.func @fp4_actual(%x: tensor<8x512xf16>, %p0: tensor<256x512xf8E4M3FN>, %p1: tensor<256x16xf8E8M0FNU>) -> tensor<8x256xf16> {
  %w = spyre.dequantize %p0, %p1 {quant = #spyre.quant<format = e2m1fn, scaling = mx, mode = actual>}
      : tensor<256x512xf8E4M3FN>, tensor<256x16xf8E8M0FNU> -> tensor<256x512xf16>
  %e = tensor.empty() : tensor<8x256xf16>
  %z = arith.constant 0.0 : f16
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<8x256xf16>) -> tensor<8x256xf16>
  %y = linalg.matmul_transpose_b ins(%x, %w : tensor<8x512xf16>, tensor<256x512xf16>) outs(%f : tensor<8x256xf16>) -> tensor<8x256xf16>
  return %y : tensor<8x256xf16>
}

func.func @matrix_on_host(%x: tensor<8x512xf16>, %p0: tensor<256x512xi8>, %p1: tensor<8x16xf32>) -> tensor<8x256xf16> {
  %w = spyre.dequantize %p0, %p1 {quant = #spyre.quant<format = int8, scaling = matrix>}
      : tensor<256x512xi8>, tensor<8x16xf32> -> tensor<256x512xf16>
  %e = tensor.empty() : tensor<8x256xf16>
  %z = arith.constant 0.0 : f16
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<8x256xf16>) -> tensor<8x256xf16>
  %y = linalg.matmul_transpose_b ins(%x, %w : tensor<8x512xf16>, tensor<256x512xf16>) outs(%f : tensor<8x256xf16>) -> tensor<8x256xf16>
  return %y : tensor<8x256xf16>
}

func.func @mlp_mxfp4(%x: tensor<4x256xf16>, %g0: tensor<512x128xi8>, %g1: tensor<512x8xf8E8M0FNU>, %u0: tensor<512x128xi8>, %u1: tensor<512x8xf8E8M0FNU>, %d0: tensor<256x256xi8>, %d1: tensor<256x16xf8E8M0FNU>) -> tensor<4x256xf16> {
  %g = spyre.dequantize %g0, %g1 {quant = #spyre.quant<format = e2m1fn, scaling = mx>} : tensor<512x128xi8>, tensor<512x8xf8E8M0FNU> -> tensor<512x256xf16>
  %u = spyre.dequantize %u0, %u1 {quant = #spyre.quant<format = e2m1fn, scaling = mx>} : tensor<512x128xi8>, tensor<512x8xf8E8M0FNU> -> tensor<512x256xf16>
  %d = spyre.dequantize %d0, %d1 {quant = #spyre.quant<format = e2m1fn, scaling = mx>} : tensor<256x256xi8>, tensor<256x16xf8E8M0FNU> -> tensor<256x512xf16>
  %zero = arith.constant 0.0 : f16
  %one = arith.constant 1.0 : f16
  %eh = tensor.empty() : tensor<4x512xf16>
  %zh = linalg.fill ins(%zero : f16) outs(%eh : tensor<4x512xf16>) -> tensor<4x512xf16>
  %gate = linalg.matmul_transpose_b ins(%x, %g : tensor<4x256xf16>, tensor<512x256xf16>) outs(%zh : tensor<4x512xf16>) -> tensor<4x512xf16>
  %up = linalg.matmul_transpose_b ins(%x, %u : tensor<4x256xf16>, tensor<512x256xf16>) outs(%zh : tensor<4x512xf16>) -> tensor<4x512xf16>
  %act = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%gate, %up : tensor<4x512xf16>, tensor<4x512xf16>) outs(%eh : tensor<4x512xf16>) {
  ^bb0(%a: f16, %b: f16, %o: f16):
    %n = arith.negf %a : f16
    %e = math.exp %n : f16
    %den = arith.addf %e, %one : f16
    %s = arith.divf %a, %den : f16
    %p = arith.mulf %s, %b : f16
    linalg.yield %p : f16
  } -> tensor<4x512xf16>
  %ey = tensor.empty() : tensor<4x256xf16>
  %zy = linalg.fill ins(%zero : f16) outs(%ey : tensor<4x256xf16>) -> tensor<4x256xf16>
  %out = linalg.matmul_transpose_b ins(%act, %d : tensor<4x512xf16>, tensor<256x512xf16>) outs(%zy : tensor<4x256xf16>) -> tensor<4x256xf16>
  return %out : tensor<4x256xf16>
}

func.func @mlp_int8_zero(%x: tensor<4x256xf16>, %g0: tensor<512x256xi8>, %g1: tensor<512x1xf32>, %g2: tensor<512x1xi8>, %u0: tensor<512x256xi8>, %u1: tensor<512x1xf32>, %u2: tensor<512x1xi8>, %d0: tensor<256x512xi8>, %d1: tensor<256x1xf32>, %d2: tensor<256x1xi8>) -> tensor<4x256xf16> {
  %g = spyre.dequantize %g0, %g1, %g2 {quant = #spyre.quant<format = int8, scaling = channel, zero_point = true>} : tensor<512x256xi8>, tensor<512x1xf32>, tensor<512x1xi8> -> tensor<512x256xf16>
  %u = spyre.dequantize %u0, %u1, %u2 {quant = #spyre.quant<format = int8, scaling = channel, zero_point = true>} : tensor<512x256xi8>, tensor<512x1xf32>, tensor<512x1xi8> -> tensor<512x256xf16>
  %d = spyre.dequantize %d0, %d1, %d2 {quant = #spyre.quant<format = int8, scaling = channel, zero_point = true>} : tensor<256x512xi8>, tensor<256x1xf32>, tensor<256x1xi8> -> tensor<256x512xf16>
  %zero = arith.constant 0.0 : f16
  %one = arith.constant 1.0 : f16
  %eh = tensor.empty() : tensor<4x512xf16>
  %zh = linalg.fill ins(%zero : f16) outs(%eh : tensor<4x512xf16>) -> tensor<4x512xf16>
  %gate = linalg.matmul_transpose_b ins(%x, %g : tensor<4x256xf16>, tensor<512x256xf16>) outs(%zh : tensor<4x512xf16>) -> tensor<4x512xf16>
  %up = linalg.matmul_transpose_b ins(%x, %u : tensor<4x256xf16>, tensor<512x256xf16>) outs(%zh : tensor<4x512xf16>) -> tensor<4x512xf16>
  %act = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%gate, %up : tensor<4x512xf16>, tensor<4x512xf16>) outs(%eh : tensor<4x512xf16>) {
  ^bb0(%a: f16, %b: f16, %o: f16):
    %n = arith.negf %a : f16
    %e = math.exp %n : f16
    %den = arith.addf %e, %one : f16
    %s = arith.divf %a, %den : f16
    %p = arith.mulf %s, %b : f16
    linalg.yield %p : f16
  } -> tensor<4x512xf16>
  %ey = tensor.empty() : tensor<4x256xf16>
  %zy = linalg.fill ins(%zero : f16) outs(%ey : tensor<4x256xf16>) -> tensor<4x256xf16>
  %out = linalg.matmul_transpose_b ins(%act, %d : tensor<4x512xf16>, tensor<256x512xf16>) outs(%zy : tensor<4x256xf16>) -> tensor<4x256xf16>
  return %out : tensor<4x256xf16>
}

// torch-mlir's linear layer: the dequantized weight transposed, then a
// plain matmul.
func.func @linear_transposed(%x: tensor<8x512xf16>, %wd: tensor<256x256xi8>, %ws: tensor<256x16xf8E8M0FNU>) -> tensor<8x256xf16> {
  %w = spyre.dequantize %wd, %ws {quant = #spyre.quant<format = e2m1fn, scaling = mx>}
      : tensor<256x256xi8>, tensor<256x16xf8E8M0FNU> -> tensor<256x512xf16>
  %te = tensor.empty() : tensor<512x256xf16>
  %wt = linalg.transpose ins(%w : tensor<256x512xf16>) outs(%te : tensor<512x256xf16>) permutation = [1, 0]
  %e = tensor.empty() : tensor<8x256xf16>
  %z = arith.constant 0.0 : f16
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<8x256xf16>) -> tensor<8x256xf16>
  %y = linalg.matmul ins(%x, %wt : tensor<8x512xf16>, tensor<512x256xf16>) outs(%f : tensor<8x256xf16>) -> tensor<8x256xf16>
  return %y : tensor<8x256xf16>
}

// Packed uint4 codes with one scale and zero point per output channel: the
// zero's byte holds it in its low bits.
func.func @uint4_channel_zero(%x: tensor<8x512xf16>, %p0: tensor<256x256xi8>, %p1: tensor<256x1xf32>, %p2: tensor<256x1xi8>) -> tensor<8x256xf16> {
  %w = spyre.dequantize %p0, %p1, %p2 {quant = #spyre.quant<format = uint4, scaling = channel, zero_point = true>}
      : tensor<256x256xi8>, tensor<256x1xf32>, tensor<256x1xi8> -> tensor<256x512xf16>
  %e = tensor.empty() : tensor<8x256xf16>
  %z = arith.constant 0.0 : f16
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<8x256xf16>) -> tensor<8x256xf16>
  %y = linalg.matmul_transpose_b ins(%x, %w : tensor<8x512xf16>, tensor<256x512xf16>) outs(%f : tensor<8x256xf16>) -> tensor<8x256xf16>
  return %y : tensor<8x256xf16>
}

// int4 in actual mode: one code a byte, of which the low four bits count.
func.func @int4_actual(%x: tensor<8x512xf16>, %p0: tensor<256x512xi8>, %p1: tensor<256x4xf32>) -> tensor<8x256xf16> {
  %w = spyre.dequantize %p0, %p1 {quant = #spyre.quant<format = int4, scaling = tile, tile = 128, mode = actual>}
      : tensor<256x512xi8>, tensor<256x4xf32> -> tensor<256x512xf16>
  %e = tensor.empty() : tensor<8x256xf16>
  %z = arith.constant 0.0 : f16
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<8x256xf16>) -> tensor<8x256xf16>
  %y = linalg.matmul_transpose_b ins(%x, %w : tensor<8x512xf16>, tensor<256x512xf16>) outs(%f : tensor<8x256xf16>) -> tensor<8x256xf16>
  return %y : tensor<8x256xf16>
}

// e4m3fn scales per tile of 64.
func.func @int8_e4m3_scales(%x: tensor<8x512xf16>, %p0: tensor<256x512xi8>, %p1: tensor<256x8xf8E4M3FN>) -> tensor<8x256xf16> {
  %w = spyre.dequantize %p0, %p1 {quant = #spyre.quant<format = int8, scaling = tile, tile = 64, scale_type = float8_e4m3fn>}
      : tensor<256x512xi8>, tensor<256x8xf8E4M3FN> -> tensor<256x512xf16>
  %e = tensor.empty() : tensor<8x256xf16>
  %z = arith.constant 0.0 : f16
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<8x256xf16>) -> tensor<8x256xf16>
  %y = linalg.matmul_transpose_b ins(%x, %w : tensor<8x512xf16>, tensor<256x512xf16>) outs(%f : tensor<8x256xf16>) -> tensor<8x256xf16>
  return %y : tensor<8x256xf16>
}

// K = 500: the last MX block holds 20 values, the last stick of codes 122
// of 256, the last stick of A 52 of 64.
func.func @mxfp4_partial_tile(%x: tensor<8x500xf16>, %p0: tensor<256x250xi8>, %p1: tensor<256x16xf8E8M0FNU>) -> tensor<8x256xf16> {
  %w = spyre.dequantize %p0, %p1 {quant = #spyre.quant<format = e2m1fn, scaling = mx>}
      : tensor<256x250xi8>, tensor<256x16xf8E8M0FNU> -> tensor<256x500xf16>
  %e = tensor.empty() : tensor<8x256xf16>
  %z = arith.constant 0.0 : f16
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<8x256xf16>) -> tensor<8x256xf16>
  %y = linalg.matmul_transpose_b ins(%x, %w : tensor<8x500xf16>, tensor<256x500xf16>) outs(%f : tensor<8x256xf16>) -> tensor<8x256xf16>
  return %y : tensor<8x256xf16>
}

// int8 dequantized with arith ops, as torch-mlir writes aten.dequantize of a
// per-channel quantized weight (an f16 model): raised to the int8 scheme,
// then a scaled matmul; the reference runs the generic as written.
func.func @torch_per_channel(%x: tensor<8x512xf16>, %q: tensor<256x512xi8>, %s: tensor<256xf16>, %z: tensor<256xi8>) -> tensor<8x256xf16> {
  %e0 = tensor.empty() : tensor<256x512xf16>
  %w = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%q, %s, %z : tensor<256x512xi8>, tensor<256xf16>, tensor<256xi8>) outs(%e0 : tensor<256x512xf16>) {
  ^bb0(%a: i8, %b: f16, %c: i8, %o: f16):
    %0 = arith.sitofp %a : i8 to f16
    %1 = arith.sitofp %c : i8 to f16
    %2 = arith.subf %0, %1 : f16
    %3 = arith.mulf %2, %b : f16
    linalg.yield %3 : f16
  } -> tensor<256x512xf16>
  %e = tensor.empty() : tensor<8x256xf16>
  %zero = arith.constant 0.0 : f16
  %f = linalg.fill ins(%zero : f16) outs(%e : tensor<8x256xf16>) -> tensor<8x256xf16>
  %y = linalg.matmul_transpose_b ins(%x, %w : tensor<8x512xf16>, tensor<256x512xf16>) outs(%f : tensor<8x256xf16>) -> tensor<8x256xf16>
  return %y : tensor<8x256xf16>
}

// Per-tensor: scale and zero point constants, computed in f32, rounded to f16.
func.func @torch_per_tensor(%x: tensor<8x512xf16>, %q: tensor<256x512xi8>) -> tensor<8x256xf16> {
  %scale = arith.constant 0.0125 : f32
  %zp = arith.constant 3 : i64
  %e0 = tensor.empty() : tensor<256x512xf16>
  %w = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%q : tensor<256x512xi8>) outs(%e0 : tensor<256x512xf16>) {
  ^bb0(%a: i8, %o: f16):
    %0 = arith.sitofp %a : i8 to f32
    %1 = arith.sitofp %zp : i64 to f32
    %2 = arith.subf %0, %1 : f32
    %3 = arith.mulf %2, %scale : f32
    %4 = arith.truncf %3 : f32 to f16
    linalg.yield %4 : f16
  } -> tensor<256x512xf16>
  %e = tensor.empty() : tensor<8x256xf16>
  %zero = arith.constant 0.0 : f16
  %f = linalg.fill ins(%zero : f16) outs(%e : tensor<8x256xf16>) -> tensor<8x256xf16>
  %y = linalg.matmul_transpose_b ins(%x, %w : tensor<8x512xf16>, tensor<256x512xf16>) outs(%f : tensor<8x256xf16>) -> tensor<8x256xf16>
  return %y : tensor<8x256xf16>
}

// fp8 weights with one scale for the tensor (torch's _scaled_mm scale_b).
func.func @fp8_tensor(%x: tensor<8x512xf16>, %p0: tensor<256x512xf8E4M3FN>, %p1: tensor<1x1xf32>) -> tensor<8x256xf16> {
  %w = spyre.dequantize %p0, %p1 {quant = #spyre.quant<format = e4m3fn, scaling = tensor>}
      : tensor<256x512xf8E4M3FN>, tensor<1x1xf32> -> tensor<256x512xf16>
  %e = tensor.empty() : tensor<8x256xf16>
  %z = arith.constant 0.0 : f16
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<8x256xf16>) -> tensor<8x256xf16>
  %y = linalg.matmul_transpose_b ins(%x, %w : tensor<8x512xf16>, tensor<256x512xf16>) outs(%f : tensor<8x256xf16>) -> tensor<8x256xf16>
  return %y : tensor<8x256xf16>
}

// MX operands as MLIR writes them: fp4 codes and E8M0 scales read with
// arith.scaling_extf inside the contraction. It runs on the host (fp4 is a
// host type); --random-inputs draws fp4 values and E8M0 powers of two.
func.func @scaling_extf_on_host(%a: tensor<16x4x32xf4E2M1FN>, %b: tensor<32x4x32xf4E2M1FN>, %sa: tensor<16x4xf8E8M0FNU>, %sb: tensor<32x4xf8E8M0FNU>) -> tensor<16x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x32xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<16x32xf32>) -> tensor<16x32xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n, ko, kb) -> (m, ko, kb)>, affine_map<(m, n, ko, kb) -> (n, ko, kb)>, affine_map<(m, n, ko, kb) -> (m, ko)>, affine_map<(m, n, ko, kb) -> (n, ko)>, affine_map<(m, n, ko, kb) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%a, %b, %sa, %sb : tensor<16x4x32xf4E2M1FN>, tensor<32x4x32xf4E2M1FN>, tensor<16x4xf8E8M0FNU>, tensor<32x4xf8E8M0FNU>) outs(%c : tensor<16x32xf32>) {
  ^bb0(%x: f4E2M1FN, %y: f4E2M1FN, %s: f8E8M0FNU, %t: f8E8M0FNU, %acc: f32):
    %0 = arith.scaling_extf %x, %s : f4E2M1FN, f8E8M0FNU to f32
    %1 = arith.scaling_extf %y, %t : f4E2M1FN, f8E8M0FNU to f32
    %2 = arith.mulf %0, %1 : f32
    %3 = arith.addf %acc, %2 : f32
    linalg.yield %3 : f32
  } -> tensor<16x32xf32>
  return %r : tensor<16x32xf32>
}

// A codebook weight (TensorCast's cb42f1346 over e2m3fnuz: 4-bit indices,
// a 2-bit mapping per 8 values, E8M0 scales per 32): dequantized on the
// host, multiplied on the device.
func.func @codebook_linear(%x: tensor<8x128xf16>, %d: tensor<64x64xi8>, %s: tensor<64x4xf8E8M0FNU>, %m: tensor<64x4xi8>) -> tensor<8x64xf16> {
  %w = spyre.dequantize %d, %s, %m {quant = #spyre.quant<format = e2m3fnuz, scaling = mx, codebook = "cb42f1346_e2m3fnuz", subtile = 8>}
      : tensor<64x64xi8>, tensor<64x4xf8E8M0FNU>, tensor<64x4xi8> -> tensor<64x128xf16>
  %e = tensor.empty() : tensor<8x64xf16>
  %z = arith.constant 0.0 : f16
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<8x64xf16>) -> tensor<8x64xf16>
  %y = linalg.matmul_transpose_b ins(%x, %w : tensor<8x128xf16>, tensor<64x128xf16>) outs(%f : tensor<8x64xf16>) -> tensor<8x64xf16>
  return %y : tensor<8x64xf16>
}

// Quantization in the program: spyre.quantize runs on the host (the
// library, called by the generated code), the device reads the parts.
func.func @quantize_then_matmul(%x: tensor<8x256xf16>, %w: tensor<64x256xf32>) -> tensor<8x64xf16> {
  %d, %s = spyre.quantize %w {quant = #spyre.quant<format = e2m1fn, scaling = mx>}
      : tensor<64x256xf32> -> tensor<64x128xi8>, tensor<64x8xf8E8M0FNU>
  %q = spyre.dequantize %d, %s {quant = #spyre.quant<format = e2m1fn, scaling = mx>}
      : tensor<64x128xi8>, tensor<64x8xf8E8M0FNU> -> tensor<64x256xf16>
  %e = tensor.empty() : tensor<8x64xf16>
  %z = arith.constant 0.0 : f16
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<8x64xf16>) -> tensor<8x64xf16>
  %y = linalg.matmul_transpose_b ins(%x, %q : tensor<8x256xf16>, tensor<64x256xf16>) outs(%f : tensor<8x64xf16>) -> tensor<8x64xf16>
  return %y : tensor<8x64xf16>
}

// fp8 casts on the device (--spyre-lower-quant-casts): per-channel and
// per-tensor quantization (amax, scale, divide, clamp, qfp8ch) and
// dequantization (fp8todl16 times the scale), checked against the library
// (the reference's quantize) and the format definitions (its dequantize).
func.func @fp8_quantize_channel(%w: tensor<64x256xf16>) -> (tensor<64x256xf8E4M3FN>, tensor<64x1xf32>) {
  %d, %s = spyre.quantize %w {quant = #spyre.quant<format = e4m3fn, scaling = channel>}
      : tensor<64x256xf16> -> tensor<64x256xf8E4M3FN>, tensor<64x1xf32>
  return %d, %s : tensor<64x256xf8E4M3FN>, tensor<64x1xf32>
}
func.func @fp8_quantize_tensor(%w: tensor<64x256xf32>) -> (tensor<64x256xf8E5M2>, tensor<1x1xf16>) {
  %d, %s = spyre.quantize %w {quant = #spyre.quant<format = e5m2, scaling = tensor, scale_type = float16>}
      : tensor<64x256xf32> -> tensor<64x256xf8E5M2>, tensor<1x1xf16>
  return %d, %s : tensor<64x256xf8E5M2>, tensor<1x1xf16>
}
func.func @fp8_dequantize_channel(%d: tensor<64x256xf8E4M3FN>, %s: tensor<64x1xf32>) -> tensor<64x256xf16> {
  %w = spyre.dequantize %d, %s {quant = #spyre.quant<format = e4m3fn, scaling = channel>}
      : tensor<64x256xf8E4M3FN>, tensor<64x1xf32> -> tensor<64x256xf16>
  return %w : tensor<64x256xf16>
}
func.func @fp8_round_trip(%w: tensor<64x256xf16>) -> tensor<64x256xf16> {
  %d, %s = spyre.quantize %w {quant = #spyre.quant<format = e4m3fn, scaling = channel, axis = 0, scale_type = float16>}
      : tensor<64x256xf16> -> tensor<64x256xf8E4M3FN>, tensor<1x256xf16>
  %r = spyre.dequantize %d, %s {quant = #spyre.quant<format = e4m3fn, scaling = channel, axis = 0, scale_type = float16>}
      : tensor<64x256xf8E4M3FN>, tensor<1x256xf16> -> tensor<64x256xf16>
  return %r : tensor<64x256xf16>
}
// 1x128 tiles (fp8 activation recipes) and 128-row tiles of a weight.
func.func @fp8_quantize_tile(%w: tensor<64x256xf16>) -> (tensor<64x256xf8E4M3FN>, tensor<64x2xf32>) {
  %d, %s = spyre.quantize %w {quant = #spyre.quant<format = e4m3fn, scaling = tile, tile = 128>}
      : tensor<64x256xf16> -> tensor<64x256xf8E4M3FN>, tensor<64x2xf32>
  return %d, %s : tensor<64x256xf8E4M3FN>, tensor<64x2xf32>
}
func.func @fp8_dequantize_tile(%d: tensor<256x128xf8E4M3FN>, %s: tensor<2x128xf32>) -> tensor<256x128xbf16> {
  %w = spyre.dequantize %d, %s {quant = #spyre.quant<format = e4m3fn, scaling = tile, tile = 128, axis = 0>}
      : tensor<256x128xf8E4M3FN>, tensor<2x128xf32> -> tensor<256x128xbf16>
  return %w : tensor<256x128xbf16>
}
// Dynamic fp8 activations as PyTorch writes them (x / scale, clamped to
// +-448, `.to(float8_e4m3fn)`: arith.truncf), then an fp8 x fp8 matmul
// (batchmatmulfp8) and both scales applied to the product.
func.func @torch_fp8_linear(%x: tensor<64x256xf16>, %sx: tensor<64x1xf16>, %w: tensor<256x128xf8E4M3FN>, %sw: tensor<128xf16>) -> tensor<64x128xf16> {
  %e8 = tensor.empty() : tensor<64x256xf8E4M3FN>
  %q = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %sx : tensor<64x256xf16>, tensor<64x1xf16>) outs(%e8 : tensor<64x256xf8E4M3FN>) {
  ^bb0(%a: f16, %sc: f16, %o: f8E4M3FN):
    %lo = arith.constant -448.0 : f16
    %hi = arith.constant 448.0 : f16
    %0 = arith.divf %a, %sc : f16
    %1 = arith.maximumf %0, %lo : f16
    %2 = arith.minimumf %1, %hi : f16
    %3 = arith.truncf %2 : f16 to f8E4M3FN
    linalg.yield %3 : f8E4M3FN
  } -> tensor<64x256xf8E4M3FN>
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<64x128xf16>
  %z = linalg.fill ins(%zero : f16) outs(%e : tensor<64x128xf16>) -> tensor<64x128xf16>
  %mm = linalg.matmul ins(%q, %w : tensor<64x256xf8E4M3FN>, tensor<256x128xf8E4M3FN>) outs(%z : tensor<64x128xf16>) -> tensor<64x128xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm, %sx, %sw : tensor<64x128xf16>, tensor<64x1xf16>, tensor<128xf16>) outs(%e : tensor<64x128xf16>) {
  ^bb0(%m: f16, %a: f16, %b: f16, %o: f16):
    %0 = arith.mulf %m, %a : f16
    %1 = arith.mulf %0, %b : f16
    linalg.yield %1 : f16
  } -> tensor<64x128xf16>
  return %r : tensor<64x128xf16>
}
