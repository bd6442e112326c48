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

// Float zero points (GPTQ-style): one f16 zero per scale, not packed.
func.func @uint4_tile_float_zero(%x: tensor<8x512xf16>, %p0: tensor<256x256xi8>, %p1: tensor<256x4xf16>, %p2: tensor<256x4xf16>) -> tensor<8x256xf16> {
  %w = spyre.dequantize %p0, %p1, %p2 {quant = #spyre.quant<format = uint4, scaling = tile, tile = 128, scale_type = float16, zero_point = true, zero_type = float16>}
      : tensor<256x256xi8>, tensor<256x4xf16>, tensor<256x4xf16> -> tensor<256x512xf16>
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
// a 2-bit mapping per 8 values, E8M0 scales per 32) read by the device's
// scaled matmul: the indices, scales and meta bytes (a tile's four 2-bit
// mappings in one) travel as stored.
func.func @codebook_linear(%x: tensor<8x128xf16>, %d: tensor<64x64xi8>, %s: tensor<64x4xf8E8M0FNU>, %m: tensor<64x4xi8>) -> tensor<8x64xf16> {
  %w = spyre.dequantize %d, %s, %m {quant = #spyre.quant<format = e2m3fnuz, scaling = mx, codebook = "cb42f1346_e2m3fnuz", subtile = 8>}
      : tensor<64x64xi8>, tensor<64x4xf8E8M0FNU>, tensor<64x4xi8> -> tensor<64x128xf16>
  %e = tensor.empty() : tensor<8x64xf16>
  %z = arith.constant 0.0 : f16
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<8x64xf16>) -> tensor<8x64xf16>
  %y = linalg.matmul_transpose_b ins(%x, %w : tensor<8x128xf16>, tensor<64x128xf16>) outs(%f : tensor<8x64xf16>) -> tensor<8x64xf16>
  return %y : tensor<8x64xf16>
}

// Its meta in two bytes a tile (eight subtiles of 4 values, 2 bits each):
// each byte covers 16 values.
func.func @codebook_two_meta_bytes(%x: tensor<8x256xf16>, %d: tensor<64x128xi8>, %s: tensor<64x8xf8E8M0FNU>, %m: tensor<64x16xi8>) -> tensor<8x64xf16> {
  %w = spyre.dequantize %d, %s, %m {quant = #spyre.quant<format = e2m3fnuz, scaling = mx, codebook = "cb42f1346_e2m3fnuz", subtile = 4>}
      : tensor<64x128xi8>, tensor<64x8xf8E8M0FNU>, tensor<64x16xi8> -> tensor<64x256xf16>
  %e = tensor.empty() : tensor<8x64xf16>
  %z = arith.constant 0.0 : f16
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<8x64xf16>) -> tensor<8x64xf16>
  %y = linalg.matmul_transpose_b ins(%x, %w : tensor<8x256xf16>, tensor<64x256xf16>) outs(%f : tensor<8x64xf16>) -> tensor<8x64xf16>
  return %y : tensor<8x64xf16>
}

// A generic codebook (its two mappings given) in actual mode: an index a
// byte, f32 scales and a meta byte per tile of 32.
func.func @codebook_actual_tile(%x: tensor<8x128xf16>, %d: tensor<64x128xi8>, %s: tensor<64x4xf32>, %m: tensor<64x4xi8>) -> tensor<8x64xf16> {
  %w = spyre.dequantize %d, %s, %m {quant = #spyre.quant<format = e2m3fnuz, scaling = tile, mode = actual, codebook = "cb41_e2m3fnuz_mine", mappings = [0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0, 0.0, -0.5, -1.0, -1.5, -2.0, -3.0, -4.0, -6.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 0.0, -1.0, -2.0, -3.0, -4.0, -5.0, -6.0, -7.0]>}
      : tensor<64x128xi8>, tensor<64x4xf32>, tensor<64x4xi8> -> tensor<64x128xf16>
  %e = tensor.empty() : tensor<8x64xf16>
  %z = arith.constant 0.0 : f16
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<8x64xf16>) -> tensor<8x64xf16>
  %y = linalg.matmul_transpose_b ins(%x, %w : tensor<8x128xf16>, tensor<64x128xf16>) outs(%f : tensor<8x64xf16>) -> tensor<8x64xf16>
  return %y : tensor<8x64xf16>
}

// Per-channel f16 scales and a mapping per channel.
func.func @codebook_channel(%x: tensor<8x256xf16>, %d: tensor<64x128xi8>, %s: tensor<64x1xf16>, %m: tensor<64x1xi8>) -> tensor<8x64xf16> {
  %w = spyre.dequantize %d, %s, %m {quant = #spyre.quant<format = e2m3fnuz, scaling = channel, scale_type = float16, codebook = "cb41fi_e2m3fnuz">}
      : tensor<64x128xi8>, tensor<64x1xf16>, tensor<64x1xi8> -> tensor<64x256xf16>
  %e = tensor.empty() : tensor<8x64xf16>
  %z = arith.constant 0.0 : f16
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<8x64xf16>) -> tensor<8x64xf16>
  %y = linalg.matmul_transpose_b ins(%x, %w : tensor<8x256xf16>, tensor<64x256xf16>) outs(%f : tensor<8x64xf16>) -> tensor<8x64xf16>
  return %y : tensor<8x64xf16>
}

// 3-bit mappings, four a tile, straddle bytes: the scaled matmul does not
// read them, the host dequantizes and the device multiplies.
func.func @codebook_straddling_meta(%x: tensor<8x128xf16>, %d: tensor<64x64xi8>, %s: tensor<64x4xf8E8M0FNU>, %m: tensor<64x8xi8>) -> tensor<8x64xf16> {
  %w = spyre.dequantize %d, %s, %m {quant = #spyre.quant<format = e2m3fnuz, scaling = mx, codebook = "cb43f0123i0123_e2m3fnuz", subtile = 8>}
      : tensor<64x64xi8>, tensor<64x4xf8E8M0FNU>, tensor<64x8xi8> -> tensor<64x128xf16>
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

// torch-mlir's aten.quantize_per_tensor (scale 0.0125, zero point 3,
// qint8): raised to spyre.quantize with the scale and zero given (on the
// host); the reference runs the generic as written.
func.func @torch_quantize_per_tensor(%x: tensor<16x64xf32>) -> tensor<16x64xi8> {
  %scale = arith.constant 1.250000e-02 : f64
  %zp = arith.constant 3 : i64
  %e = tensor.empty() : tensor<16x64xi8>
  %q = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<16x64xf32>) outs(%e : tensor<16x64xi8>) {
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
  } -> tensor<16x64xi8>
  return %q : tensor<16x64xi8>
}

// A linear layer whose constant weight is quantized and dequantized as
// torch-mlir lowers aten.quantize_per_tensor, int_repr and aten.dequantize
// (the zero point subtracted in i32): the quantize folds at compile time
// and the device multiplies the int8 codes (one scaled matmul).
func.func @torch_qdq_weight(%x: tensor<8x64xf16>) -> tensor<8x32xf16> {
  %w = arith.constant dense_resource<__qdq_weight> : tensor<32x64xf32>
  %scale = arith.constant 1.250000e-02 : f64
  %zp = arith.constant -2 : i64
  %e = tensor.empty() : tensor<32x64xi8>
  %q = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%w : tensor<32x64xf32>) outs(%e : tensor<32x64xi8>) {
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
  } -> tensor<32x64xi8>
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
  %e2 = tensor.empty() : tensor<64x32xf16>
  %t = linalg.transpose ins(%d : tensor<32x64xf16>) outs(%e2 : tensor<64x32xf16>) permutation = [1, 0]
  %e3 = tensor.empty() : tensor<8x32xf16>
  %z = arith.constant 0.0 : f16
  %f = linalg.fill ins(%z : f16) outs(%e3 : tensor<8x32xf16>) -> tensor<8x32xf16>
  %y = linalg.matmul ins(%x, %t : tensor<8x64xf16>, tensor<64x32xf16>) outs(%f : tensor<8x32xf16>) -> tensor<8x32xf16>
  return %y : tensor<8x32xf16>
}


// An MXFP4 fake-quantized weight (scaling_truncf and scaling_extf in one
// body, E8M0 scales given per block of 32): raised to spyre.quantize with
// the scales given (on the host) and a scaled matmul reading the packed
// data on the device.
func.func @mx_fake_quant_linear(%x: tensor<8x256xf16>, %w: tensor<64x256xf32>, %s: tensor<64x8xf8E8M0FNU>) -> tensor<8x64xf16> {
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

// The same to MXFP8 (e4m3fn): the cast overflows to NaN where OCP's
// conversion saturates, so the quantize keeps the cast's overflow
// (`saturate = false`); the scaled matmul reads the fp8 codes.
func.func @mxfp8_fake_quant_linear(%x: tensor<8x256xf16>, %w: tensor<64x256xf32>, %s: tensor<64x8xf8E8M0FNU>) -> tensor<8x64xf16> {
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

{-#
  dialect_resources: {
    builtin: {
      __qdq_weight: "0x040000007F4B8C3F786AECBF9C28133FF5232B3DB37B4A3F3DEE6C3E5E558C3FE5069C3CEF959EBE3153B23E44BE843EFA3D5BBE87F117BE1E03DD3EAA5DD83E92BC97BE5EEC61BEF2C28ABF90F6803FE8CD09BEE3674D3FD53E803EDD4B953FA0196C3F0490433EFD71633F61F011BFE152413FA06463BF6AE2523EA690233F4B66093EBC9161BED277F7BEC89D52BEEC73213F3BD5083FB70D21BEE2623FBF4D0DCF3E5DB35EBF2114A3BE41BDE1BEC154E43EAFF7103EBCE18D3E0F5E273E9842D0BE8B7FA43E34F4583FEEBCB4BCE5A3C23EB8B59ABD72FC1D3F71CACC3E9F86063F3312563E94E77B3F13E45DBEC74F4DBEC3D1B5BE10B0BB3E8D33BFBE1C00C6BEF37ADF3E777F323FD770B03EF60FCEBF5B7A12BF53E324BF467939BF4E887ABE5B968B3F9DDD3CBECFEDE1BEA8ADD63E17FF293D004B943D40F2D2BED8A16CBA657D853ED1C992BF995477BFA896263F4A7C013F1BA59BBE0DB41CBFECFFE3BD515837BFA2F450BEE99B7D3F364AA23D5424333F2EC708BE0BF8623E13DD543F34334DBF907D55BE00CCC0BDCE3F2D3EA9A46E3F0A98D23EA60A66BF387C26BE7D4309BF662A0DBFBC819B3FB54523BFBF3D113E94B6DBBE263F043FB650593E4B959C3D39303BBDD9C02E3FEE1B0FBFC250DFBEBD822BBF80FC4C3F005E34BE42581FBF46BD80BE10F9BF3F111084BD2C90023F63E78E3E1977F3BB89CCD4BE18644DBE8BC659BE23ACA9BF12ECC63F0B0E0E3F92E48E3D1CE0F9BD2994F2BEA5DC113FCF9BE5BD873B933E881E55BF3689683E859F993FAEF231BE04BFF53E01ACAD3CDCC1293FD7F4233F8B80173D97E7ABBE882E303E9A4DCD3CE5D1BDBEF53A8C3E41CF843EF38D08BF0FFF88BDF157E03F7AEEFA3E6C4D703DE3D9C03F5DE68BBEEF38BEBFFF7392BF9B6569BF20C71F3EE4F7153FADABA6BFD09B2B3FA4943CBFB78D1D3E1F848E3ECDCF843EB361943B8A1ED23D8D132FBFBCEF2A3E8079163F8E440E3FC7AAC83F7062263F9228DF3E81837F3FAC27143E092046BF7005ACBFD014443FCE7FAE3E1225023FB2844CBEF9DC533E2191903FDEB84D3EFB572BBF968A84BEC4C0543F036B27BFF840C6BFFF2CB0BF39A94DBFDD92F53E3C68593DB2A2E8BEA06545BFF0118CBD721CC4BD053DADBE24AF16BE0F73EABEC97C8A3FF6C7B5BF4A25963D0DD01BBFB70AD93E027310BE32E2603E6E4EA33E0D4EFC3D4C39183F22BB55BF532E123FAB8406BE2FDE693E62156F3F7AB52C3F2F5D983F70D8ACBFCCD212BF9E18143F13AC2DBFBC5EE0BD352A833F9A5A063FF2CD13BFCA688B3E7F3CC63E8F95253D1F0177BD22F2AD3D997A66BF5E759B3D7E8414BF61CF713EFFDA833E0F2209BF6B36BC3E759C5A3E63E9CEBCC3F7DE3EAB2E40BE30962EBED52A3F3DC48B11BDD46F2F3FAA51B6BF44C13EBEA6BF9ABF18A9A1BE58AE0E3EB9B459BC0848103FA21A303E9343D5BFE6EB31BFA27F683F6AD8683FEFA5003DDB0876BF62B9A23F665AA5BFD9BF193E3B7889BDE7CFDA3DFE923EBFAF1291BE1DEE193FB6FEADBEEB7960BFFA0A6EBD2B80763B5B8D07BE26C406BF38CD8B3EB5FE02BECF4942BF76FEA23DC8A98FBDECD6103D67B789BF9EC103BFCD2B653E38CA023F8DF5243E6AB8503DF2F9C93E86460D3F883E833F91B07F3E8AD1BDBE331B853ECC2999BF49DA463CD8A592BE8C96FDBC3D448F3E90898C3CD72262BFCB6C67BEAA9FFBBEC315ADBCA8A9553EB2F415BF5C4BDE3E03A6463FBA582BBE34A2DD3ED3C964BF0134A8BEDF1C133F901188BF68679DBE95900ABFC7B02F3FF6372F3FF147C1BE864A913DAE1BC9BF95CD013FFDE6533E6F024B3F5AD4B7BFF966523EF8415CBEC507C9BFF392D6BED9E753BDF3FAF43E13B8E93DB779A0BE0CE4863E16958CBDDEADC9BEC7AE1DBF6086AF3D7A6BB93DC0FC8C3F3B738CBEB8A5753FDD9E543E3647343F59CE0BBF44EC06BFA7CA3FBEB31E093F83E3D43D18A5E63E0320423E50CA1D3F0114F23DD1BCA1BE5FEA9D3E50445D3DB245863F3D44C4BD21F8853DC5463CBE1D94313F4B57063F8704C83EF37D3FBFFAF068BFDFBC223E5ECFDD3E6F34633FC4E889BF6545D1BDDED381BF5E9113BF63D807BE7CEB133FD4C6A1BEC79FDCBEF88044BE722D413FC88AB93F4FDA6CBF7B0928BE163084BE2787333F2FD6853EF1A76C3F79761BBFAA63073C50F28BBEDC6828BF3231C2BD69F035BF7BDBA63F1C31803ED3201CBF962DBABE0511853FC2E092BEAD3AD53E744CB33EF5D7273F0EFCC23E1D1801BE54B5B5BE2F6188BF0C39EABCBC6FAA3DB74D5DBE6880B0BD90763ABFF1BEA63F3FE999BE74091FBFD766B7BE5E04CFBD55E9E33EBC6BBABFB0709E3E3B30BDBE5B3EDCBD43481C3F7087EB3E3A56D0BE8EE663BDA0EC8F3F355F513FC3BF053F599AE43BF857143F7A07763E8B7DA7BE0B2519BF9DE9A13EA3776D3E5B183A3FA32593BE6D17583F9AD65DBEBF98413F6D31A93E4CF2AFBEA7DB10BFC9128FBD54D81FBE0B0A113F823CD3BECA7262BFCDF212BC48F6933F043E7C3FA9DCBDBEC12B26BE3037463E7BA0CABE1F6814BE400527BE3EBE20BF77ECBCBED8E993BE4B73123E1A3735BF6D67853D6B5D16BFF98EF7BE8C302CBF282D1A40BF88413FF5184F3FA8BBFA3E43A30EBE7BB72D3D5F92333E2A608A3EECA4B73E29F56A3FAE1CE3BF11AEA9BEDFF2D03E786A5ABEF563BDBD6C6D653F5E7AEE3DD817893F4DD2CBBC1F31133ECB8623BF517F98BFD00280BE961C1C3D904D53BED0DB4EBF6B4DCA3E9A06333D0E94D73BACB3EEBE5F7C7D3F1A32633FE3063E3EA7DB8CBD3E251C3EAC65823F06F3D73FD818023C83CD82BE30218BBF6CFCD63FC28529BF0E4A063F3B1D9A3E41334D3F7F0B04BF01DA78BFA5E7B83DF3947D3E88D9303F586581BF05108BBEABE320BE67C44FBFF73EC6BDCA6FF63E390B9EBC14E65CBFCB4C563E7C4B043F9592A53E2575F33E18B97DBFFB6F8E3E2F48B93EAAA865BEF3D800BD9C8EECBE1E4E3E3F60F135BEF0BD10BF18ACE83D3FA38C3DC564CE3E49ACFFBEE835CFBE77986D3E4E1AAC3F6181903E7F1051BF0F72D33D288EEEBE4E1B8EBFD792D1BEF805B0BE498F813EB38B4B3FAB8F2F3F03D3F93E3F0B84BE2A31C43DE12EB4BC1429593FB4A1C7BE4D2BA8BE3A9E663F14A0B23E331589BE5CA3CF3D6FEABC3D2283ED3DD990F73EF16A643E509EDCBD93589ABE447F84BF87F484BE1DD0303F11B40E3E2F54C7BE968412BEA70803BF80F2353E7FD29A3FA77D8B3F9F7D393FF0AAF23E9D0A07BE24C63DBF5D10413C6C6087BEB762013FA612D03D2EDAADBEB58B8E3EE882E13F86B809BF85A8303F3129BB3E86F24EBD75E5E4BE99BEAB3C0B59103EEF6DF13EE569DD3E2C384E3E3E41CDBEC3AE433EBAEC8ABEF9491EBF55220C3FD9EFC7BEB2C135BF276F713DB36F93BFCF4103BDB0658D3E30DD7BBEE8CE183E7872A63FC77F5C3F49C5103F6F2ABB3ED4859CBEC975A2BD94AD2BBE5628A53C9DCD963DD948F7BE69A9783F97781FBF8A4B613E6A6A1F3F152C82BC4B38CDBE5E43A43C2736953FD056C03E3BEF31BE40BAB33E684CF1BD7F1E90BF1B21163ECE37203F1D7B313F9B5D20BDD30859BF5F36383FD96BBEBD609DE23EF1B62D3FA30A503E9E8219BDAAA7C1BE4ECE85BE78228B3C20468FBE03325D3E6DA396BFCB811CBFC7D3BDBCF41BD8BE1430A8BE8F8430BF5515CB3E7DE5783FB6AB1CBF31952E3FA4CD61BFC306993D0B2A9BBF4F05903E2AF10D3BC70A963D9819383F47F9AF3E661AEDBC2D6801BF4A0E833C679BDCBEDEBA89BE14215F3F1B7F023F86E51F3E196CB83E7D2F62BF47543B3D1D5C84BF928FD6BE5C824E3E8230523EBE0DCC3E149C8E3D780EAD3BB6BBE5BCECD9503FAB78403F733767BF5697403DF92A3E3F32D13EBE01F2C73D0A44CBBE632442BFBBC3223D17BD93BEC98E12BE02EE6ABF6C903FBF6F310BBEB355A7BE7A34883E43D332BF38CBB53E9A7D893EAE23A3BC5A379E3EE7F804BED9164CBE617BD0BD18C958BF5708E7BD6DCDC53ED92B87BF1134A23EC7E5F3BEE3F19EBE70F733BD211D4F3D55F7373F901C3EBED3796D3FDC9E96BD1A56463E07EA9D3ECBD1FCBE363D43BFE14FC4BCAC02A93E488EDC3E975B98BE18AA793F9EC618BE6298F3BE50C5213F70272D3FB2A21EBF009DE73E74C14BBF1126DBBBE1B1AA3FD7F3403FEC89D13E7F6CC23EA206FFBE16854C3ED9538B3ECA0D1DBFBDA5053E0A7CAD3EA018113E37738B3EE039F5BDEA8827BFE11C203DE7B690BFF259D0BEDC4C2D3FE6F88B3F8B8C893EA98BB5BF69D8533F537DB43E8C0AAFBD3CA2F43E48BAB63EE4322FBF5C243FBF705F273F87D6ABBFFE90C83E0CC5633E80F91E3FC4278A3FB655563FB024783F7BEC073FD8EEAF3E34EF2E3FC3D9153D92A500BF450B4ABB3EFE69BFEE4F92BE9DDFA33F8D36B53E179F7FBD5863A2BEA97782BF011890BEA9E6D9BE65A01A3D6F0DAE3DA4AB9EBB18098EBF1655673F5F23983E932C163DA37F27BE2E3D963E686E463F5274C83E7A292BBF6AE339BF922DB2BF3E2BC43D3B59E43EF8C83E3FA5A2BE3DD312003F76200ABF0D87A33EEB148DBD6131CABEFF8A80BFADA4313F27CAACBF8F17C03E1271F6BED61BBA3EAA7DAABE2573E63ED64007BE26EE20BFDAF49FBE4F2378BF0EC8253E41251F3F47887E3E1293793D403E453F3FC933BF082FA93EDF0B493B0EE491BEFC7BA73EED6830BF7695A9BD09014D3E207833BFEC3412BECD89A03EE7AC113FA34011BF3F9E093F233B37BED67E5C3DBA86A9BEE4BEEE3E0B95D9BE71B02B3EC5BC663EF6E7E63EFB2D20BF62A1EC3E0AFC903C50675E3F709D55BEF9BBAFBEE9E016BD09D742BEA79FD6BD9BA743BFA853A0BFC98662BF22BDB7BEE160813E546544BE9EB114BF76DFC9BD1862033DDC63D33FF514433F5311DC3D56BA60BF3FA4E2BD257840BE73E7A73E6754A23F404935BDE6F697BF9C4C99BD256A81BF9933FF3EC4A1283FD7F9493E561165BF4E4CE1BD11AD393FF8C21ABF2409B7BE72F21A3E8EC9973E69AF3C3DF2784F3E4445FD3D4AD8B2BE82414DBD8AC12D3E45C227BFEF5FEE3DA2DE6E3D3AB88D3E4CA9553EAC2521BFD74B41BF9CA6193E8E13B9BDFB16773D711EADBE904644BFB765243E0955A2BD988BBC3E908C273FDFB3273FF3B3173FDA7B13BF4735A2BF4C8CBDBE69573ABFFA3E4BBFA797C73EFF4C78BFA1150B3F7713273F71C4CB3F1C481E3FB861A03FF749C7BE3EC0D3BE3402153F50FE4ABF19F42D3FABE42CBEA17297BF48798D3F540B2DBFBC2FBF3F17B463BF8B0703BFA6CAFD3D1C1C783BF9AA73BF0863773DB081DC3D447E893E51D077BFF9F1BBBEE5CF8ABDBD3CF53E4589C33D0BE858BE5A4284BEA82C5F3FE826FDBE1D8F333E8AFBA6BFEB1E823F9F238B3ECB8987BF1C25B83EEA47543F1287F93EFD0B2C3D3C17013F69CBE5BE7E081FBE048B5EBE20542E3DA8FF20BFDDC5523FBA129FBD536C26BF20E708BE6F675D3E4FAFC63C182F283F41695EBEFC26EEBE4068983E71A8433F172915BF4B8274BF0F76C7BE7AE348BD770C1FBFDC14BF3DDBB505BFDDC5073F489737BF00BC0DBFA689163DE002CC3E72BC0B3F5D55D7BEC378673B2881A13E7DDA583F4F150BBF32AC41BFB9AD8F3E031E24BE91844C3F9FD6AB3B4F433D3E2947F6BE8B4E213EB64A393F96A822BEACC239BFFD28053F0B0B49BEC7CDB83C5A0FE1BE22C50D3FC0CCEABE10249ABE7CCEF3BBEC1B08BE0FC6ADBFF5248A3E8F4A36BF795D113EEB927CBE0401B2BD057EE8BE597F26BF3652953DA2E0ED3DDD88173FC1609E3EFE42DEBE76C32F3F3C92A73FA6F7D43EC4D803BEBE4118BF6EED1C3D746D60BFB0FEEB3EB29079BE2EA6B8BE5BC80D3E65BD42BFC5B987BF85FE8EBEA873363FF7C306BFE431013F59658FBFAA6068BD5785933E2DC8863F057F89BFCE806BBDE0FD0FBF8434283E514EB3BE2DD72C3DA9D1F1BE14FAB3BEC482613ECECD5F3F6940D83D9A665A3DC24198BEA0F66C3FAF5997BF77409BBF4536F9BE940B7A3EC91D0C3FC10CA43EA76FDC3E7049A03D46FD99BE7E9127BFFB507E3EB44616BFBD096D3E8A10D93EDC46C7BEBA3B93BE6187B2BE5648C73EB37F963D0DB2D6BECD4B0F3E7990613FF51A183E888B633D756284BE2E5113BF46BD8DBC68F2A43C12D650BE13C62F3FC79222BEC644EABD3E21C53D21C5983E803A8BBF1FCC0D3E58A23A3F8BB32EBFB16A5B3EE73FA4BE77B01BBF17660F3EF9F29EBD8ACEA0BF0828BCBECF84EF3E00A6BBBED782EBBE3C1B72BEA6D18FBEE943DA3E3D9605BFE7E935BF74E7763ECA52133FE996CD3EA004F83EC330CDBEA8DF63BFC014DDBEB447DEBC28E482BF2B3F45BE7287AA3ED1B3D8BE9A8D953F3E54DE3EC70F3CBFF41A2FBF16DEDCBE7A93D13E04F1873E4336B0BED2E9B73DEC6FED3EAA79993E18E276BF280028BFDAE60DBFE8CB84BF5758FF3E2948C9BE91CCCCBEC10602BF93422C3E4F9AA63E7076C73EE356393F575C10BF5463743FE919BB3F7854A6BE348865BEFB6EB23EA8FC393F83302DBEBC26FABE521F9D3F07FF9CBE55E9D1BF493A9F3E8EFE153F5651813F253F863FA519EB3F0CD8ACBED16D17BF10595FBF9002823F609D87BE40FC80BFE5069EBFC61E923DE7FE85BE348B3B3E2C6804BFB9D0E3BE703D8D3E790B00BE5276AE3E8582A6BD4FF733BEF567583E451F4DBE6F68CF3DAE66863E8FFE9EBED9309ABD97DB663DCEC2CA3E95390B3EDB05113EE50C8B3E342244BEBE44543EA22CE4BECE398CBFBC64743E108496BF6658CABD14B1683F4369D93E316F1DBFA952DD3E593D0A3E458D01BFAA0287BD53A4A6BEBAF145BE5352443EA0A46EBF18FCFE3E68C1983FC809CDBD2D0B16BFB16F7EBE15F2393F32079CBE54648F3EE8DBAD3F9828DEBEFE846E3D1120AFBE3F2163BE3BE08F3D86E7E3BE50F38A3EA685D83DF85D323F941DD23EAA526B3EE9D1653F8D2CE8BDF2E8C23E66C5C1BE96355C3F7354D9BE5670173F40DFD4BE42CB153ED87D1DBF8D5DDFBE16EC0ABF387E923E6981AE3E1098F53E52EF893E3D43B6BDE860DE3E4D6C773FC4C53ABED105CDBE11FAC33EE917A23FEB22BD3AEF4511BEB3FF0BBFA779C0BE303E01BF87C404BF91E22F3F58DA503F1CD3F63DC001FE3D71970D3F84C4A03D063E093E4342DA3EC17E413DE4F4563F70620040CE47993D6217793E1FCED5BEF8F942BE9B68053E4553A83E601C0BBD5FF921BFEBA19E3E237B73BEC9F5A43EEF9953BD5AC2453B2E51093D57B397BF2868513F2FDCECBEF30D973E90F2D13E916183BE21DB3ABFE42BD93E67E8FABE9D24F83C53C9B33E544654BE5C8F72BF23E1A8BE45D3BD3E5F38D3BE4E02183FCBB158BFC20002BF75847BBFFCF501BFB240763F9F1CCA3EE51FDEBD713AA6BE5C0A3B3F103BF0BC4ED70CBF4409773F3EFE3EBF41E3193EF80BD73E77621C3F810B9B3F3AB5083FD45AC4BE76B4373FD130573E765B33BF20F61DBF582BEBBEE82CA2BFDF448F3E4BA7B63EA9AB9F3EBB5FF3BE5E8F6BBCA5C53A3F0C56783E841491BD8C3ADBBE2CBA36BC37C9463F8B2BE63C6E25B13FE328BB3F6FA6E13E5AE175BFA0BD10BE576A463FD3D4A4BE60E9CCBE93B5CD3CC3D9CE3FDF658BBEA2E193BFE9183A3E20CE7D3EC4ADE83EEE375B3DB12E5C3EC7468BBE666F153F89D5ECBB035DA23E8DBBDEBE004A573F5F4D1D3EBB4780BE1FAA093D6B5B27BFF4C0B5BED30E003F9FDFBC3EF4F7013F737FDC3EBF3925BE79D1883D6EA9913F6AB977BDF6A86ABFA6ADE9BB503580BEF62887BD71A8BF3BE5D41FBFC9B6793EC448E1BD32DEAE3E2411DDBEB3DE1BBFC9418DBE9BAE783FAB408DBF1237223F345F5DBD91382A3F579D85BEACAB513EE0E1423E2B349F3F370BD5BDDC22E43DC7B7FABE47B2163E6819F5BEBC08D1BDCFBD473E25ED993E4DBC13BFF1A010BF77492A3F569FB2BEE7DA983DA4FE4FBEECF179BFBFDBC5BD6C25D9BDC951833F6FDA95BF63D1B2BE8C10AC3E4CDFB4BE4232A9BFAA19AD3EBFDF8A3DCD3D0ABF52F120BF0516E3BEAE5BA33DDA7911BED60DDCBE6E652B3E5A1A163F1FC0CBBE05DC643F86D9B0BCF73FA23EF6AE553E5888823E57F8C53DD555B2BF84DB1CBF321CF43E82F02BBF2288863CBD047BBF977CD6BEC2BB5C3F7C51BB3D564E12BF244ADFBE9BB688BF97A75A3EB3E754BE0B73BD3EFC87CF3E5DC27BBE13DE23BFC2ED4ABF1A98A1BE27038ABDD7023E3FCEE125BF34CC403E8F6734BF1DF5DABE8939C13E159C643EE21ACEBEDD11F2BE9B41123FE78A46BEA70E8ABEB75537BF9C26B43FF5B1813FEF016B3EE4E89F3FA228613E1D688BBE9E65843E59F0483F9B2B39BF64702F3F96BA283F03B1593FD6E97D3ECB49203FEDA588BFECF48ABD7D70153F6D029A3E95340A3E47AE44BF1A81FEBD401987BF39B32ABE3D5E353EC9F7A8BE75E8883EAC6C7DBC67C5033FC4ED68BEE6CA79BF6D3C45BF11C4F1BEE10D82BC2896333D876DE9BEB6B2603DEFB7CEBE3C01C03E04B94DBF1AA2303F6FEC283E6CE472BEDF3B24BF7EC4AB3ECB6FB2BE9D7ACC3E8F258E3FEB82F93D41932A3EC191B33E1B5093BEF1E2983F6566B1BDFAC0EB3E4019823E5AB694BEFE8E603F0F60953EA412A2BE6B9F9EBE449488BF5CB10DBFDD63163F8FBD183F35F8EBBEAD4CF03EC9812E3F8146103F1F4F593F330584BF7CC1653E4C19EEBE2FC5013F4FA8ADBED80C273E79DA1F3F38D956BFD73995BEB812A6BEC9DB8D3DBCC059BF35250D3FB84E9D3FEDFEBCBD3793C23E4984C2BF22B227BF9DB3E73E4F606A3E55D5E53ED324583FE294D23D2EE8D0BD6C7173BE573ECE3D26619DBFDECB6A3F0442A2BF7C2C6CBF3D46813DA4B8143FF9D6B03E4038693FC55B7EBE8C8ABFBE9861AE3E7EBA29BF9B9D073E416AA03E228B3B3E13509BBF12C20BBE8E469CBFAF62033FCB8D86BE29F5173FB873493F51FB4EBFF0640B3F36A9713EAA86643FE5D441BFCBA043BF46F9F1BE8F648DBFE3F8963D5089DEBE9B0BE93DC1D34C3EAA90FE3E62774CBF63EADC3EBFB1DA3E6C531ABF1E62C2BE459661BFDC42383F18144A3F4D7B05BF99BCA0BDC3DA663E9218CE3EECEC73BD787E783F2AFE13BFC7F0FD3EC5F41E3DEB8F203EA37AEABEC6A286BF93FDA7BE45A8873E0A3704BF18D683BFB31CF4BDB00E02BD3D021EBF8312B4BDC073693E9546D93DFD8B073F925E303FCDCA1EBD103C00BFCCB587BFC357143F9C953F3E483B153FE17502BF245E623DAA3B01BF3C8A0EBF2DD963BFEC7F20BE9A20873EEDCEE23EAD24F83DDA5542BE8136973F96B3663FF555163F55E48B3D0CF33C3FDF11F3BEC62648BFDD23B53E788CA63DA51E1B3FABCBFABE41791E3E826624BFAD2367BE942E843E4B3B76BD771715BF493063BFAF8B80BE8C2E12BF9ABE61BFF668013DC57410BFA7B33D3FEC239C3F8D2C263FEC5CD33F21383FBF7AB585BF6159D4BD822689BFA68A8B3D6D7B023F6B02E63E2AC9103F230410BE653D6ABDCFD2043E6B7051BD1A040A3F3BEB84BEEADB2FBD9336DDBE4BCA0E3FC06E673D975D7F3D29EC9DBEC8168ABFCE2494BE713AA8BF7B1874BD5CD141BFBECB3D3F9D19CEBEEC0A7ABDD4C5A1BE632B34BF276371BF375AC3BF2FE8D2BE3F959EBF3853253FAF574CBF6195C6BE3EAB30BD65A1F2BD288F2B3F79D289BD11D2A2BE675DC7BD9D2C643F2217E13E59D498BFAE6010BEB98411BFCCB94DBC2438B43EA06F92BCB4E6AC3EDAAF7B3F4B1988BF492F40BD1A65503C88247E3E8E5C1C3D651C083FADB0F2BC12B6783E217071BF6B4BCC3D4EEF3CBFFFC6A83EBFBA843F284642BDDB4A7C3ED6E3DD3E7047503FFD2CEC3E29113B3F0859A3BE4B4C3CBD86E25EBF93F2A83F5C1934BFFB960C3FB56FCC3DA08F993D560432BFCA8798BC9855653DB633803E452448BED4AC193E5DF110BFC55B3A3F02F9C2BE93320A40839F35BE32F7BFBE9507FB3DDEDF84BD7D792A3F8E163F3FE5F2B3BE33E2C0BE5A54D8BE78F99D3E0F061D3FF2EDD93E9BB15DBDBC415F3DC6D6DB3E9835473FE281633C20F33C3F77B926BE72591F3ECF21363FE1E9F3BE098C7DBF2F1320BFE6E350BD8ADD14BFC7BF2ABDFB65593FEEEA37BE1E75523FB56D0C3F66F519BFEA951B3F45E50B3F11891D3FC95B203E8C81463E833B99BE47E6FABE069D0E3BCDB2EA3E6F8AA4BE8D2A813FDB4765BE16B4723EAC8B41BF9E2C793FA355F73E9770533F590F2ABF90126B3FA2DFAF3ECCBB9BBE0F7431BE6A3A54BFC9B81FBDDD391A3F0B8DE2BE531B983E4D3C26BFB1CBC2BF16542DBD2D96723F57EB473F2594ADBE226E503F3D1F2E3F50668F3EEC7C22BE93CC233F796DE8BB876142BEC3162C3F0A32BEBE5FB7E43E415C6D3FA82EBEBEE1B90E3EEC9EB43ED0AF82BFAEED88BE1ADA9BBE5EDF98BE8184FFBEC5244A3F0D3406BFAFB543BDE170BD3E17B2723F7D1972BFFA3345BF2CAD1FBFDED132BED10F113F6DD796BDD7BDC53D0ED76C3F76A93BBE62C8E43DF7E3983FA924F63ED930B4BE41D6BFBE38FB2E3F1B1C2BBF2B9C03BFB5E0FE3EE9AB513F3FA0823F8C6D11BF10A2A83E114DFCBF5A12F9BEB93CE43FD774763F0DD2E93E794C06BF0C7338BF92AB323F88DB72BDFDADE6BEFC83F23E5E85E53EC61AC3BE758865BE4C14AF3F9B3B0CBF5A61263F1EADC2BEC8D3F1BE76D515BF2A92FDBCF682EE3C6088F83EFEC5CEBEC2EB923E526197BE0BCACBBE3D8DD73E45EF9E3E513B5FBFFAFC043EE7C287BF01471BBF7C50803FDCC7513FFF36B3BD6BFCC53E74E3483F4579873F8994863FAE63E1BE0FA846BC48DCA43D3157B8BF4DBEE1BE772A7C3EF127FCBD50A9B6BE371B33BF10E0AFBED8115DBC3CE440BEEF112F3FBB83FA3E01B645BFF6AD0F3FA3C28E3CB353EA3ECEFFC9BE92B9093F8D3CDBBE349B1C3F409D92BCABD31EBE866E4ABFB96477BF58AE043F43DC2BBFDA5534BF8E43733EDA3E423C1F4AB23E0C6A49BF45FDA2BF426B0BBF05D0183F3205B0BCB983853EE8079F3E0164CA3DEBCFCC3DD01100BE8B12053EB7F5453ECBD8C7BEF860B73E0A7091BACEBD4DBD344DC1BD47F0063F6F6FB1BDD2A1363F61AC19BF7E83B03EDE6C6CBF182F013D4DF299BE0C258CBEBCCF1EBF4E207FBCD62CA63EA3958CBF001DA0BDB5B2DD3D7187B93ED87B583E029B25BFE491173F316905BF4128963E1163E53D404AB3BE6BAD0BBF42B706BED9895A3F52A2C13EFB92B2BEF961DC3E5D837D3F7A97A43FA49383BF89BBDC3E7D18FD3EE7A8F7BECFD48EBFACD3403FFE438EBEDDEC77BF7BFA23BFAE6EDF3EE901A73FCB5E0E3F69AA03BF9C3C423F56578FBFDB40183F17D80D3F7E8A893F9B9C163F20542F3F89CF953D361247BE4709D63C7177943F3C3BA9BED5F4B6BC70B087BE2E83D43E82DE993E88CB9D3F5899A83F2D9B313F9B2C0D3F3A4681BDDA3760BF"
    }
  }
#-}

// IREE's grouped int4 weights ([N, G, T] codes, an f16 scale and f16 zero
// point per group of 128, `(uitofp(extui q) - zp) * s`) read by a
// matrix-vector contraction over G and T, as IREE's quantized-matmul tests
// write it: a scaled matmul over the codes packed two a byte.
func.func @iree_grouped_int4(%q: tensor<256x4x128xi4>, %x: tensor<1x1x4x128xf16>, %s: tensor<256x4x1xf16>, %z: tensor<256x4x1xf16>) -> tensor<1x1x256xf16> {
  %cst = arith.constant 0.000000e+00 : f16
  %0 = tensor.empty() : tensor<1x1x256xf16>
  %1 = tensor.empty() : tensor<256x4x128xf16>
  %2 = linalg.fill ins(%cst : f16) outs(%0 : tensor<1x1x256xf16>) -> tensor<1x1x256xf16>
  %3 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%q, %s, %z : tensor<256x4x128xi4>, tensor<256x4x1xf16>, tensor<256x4x1xf16>) outs(%1 : tensor<256x4x128xf16>) {
  ^bb0(%in: i4, %in_0: f16, %in_1: f16, %out: f16):
    %5 = arith.extui %in : i4 to i32
    %6 = arith.uitofp %5 : i32 to f16
    %7 = arith.subf %6, %in_1 : f16
    %8 = arith.mulf %7, %in_0 : f16
    linalg.yield %8 : f16
  } -> tensor<256x4x128xf16>
  %4 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%x, %3 : tensor<1x1x4x128xf16>, tensor<256x4x128xf16>) outs(%2 : tensor<1x1x256xf16>) {
  ^bb0(%in: f16, %in_0: f16, %out: f16):
    %5 = arith.mulf %in, %in_0 : f16
    %6 = arith.addf %5, %out : f16
    linalg.yield %6 : f16
  } -> tensor<1x1x256xf16>
  return %4 : tensor<1x1x256xf16>
}

// The same with i8 codes (IREE's `extui` of i8: unsigned bytes, uint8): the
// scaled matmul reads the bytes as they are, no host op packs them.
func.func @iree_grouped_uint8(%q: tensor<256x4x128xi8>, %x: tensor<1x1x4x128xf16>, %s: tensor<256x4x1xf16>, %z: tensor<256x4x1xf16>) -> tensor<1x1x256xf16> {
  %cst = arith.constant 0.000000e+00 : f16
  %0 = tensor.empty() : tensor<1x1x256xf16>
  %1 = tensor.empty() : tensor<256x4x128xf16>
  %2 = linalg.fill ins(%cst : f16) outs(%0 : tensor<1x1x256xf16>) -> tensor<1x1x256xf16>
  %3 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%q, %s, %z : tensor<256x4x128xi8>, tensor<256x4x1xf16>, tensor<256x4x1xf16>) outs(%1 : tensor<256x4x128xf16>) {
  ^bb0(%in: i8, %in_0: f16, %in_1: f16, %out: f16):
    %5 = arith.extui %in : i8 to i32
    %6 = arith.uitofp %5 : i32 to f16
    %7 = arith.subf %6, %in_1 : f16
    %8 = arith.mulf %7, %in_0 : f16
    linalg.yield %8 : f16
  } -> tensor<256x4x128xf16>
  %4 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%x, %3 : tensor<1x1x4x128xf16>, tensor<256x4x128xf16>) outs(%2 : tensor<1x1x256xf16>) {
  ^bb0(%in: f16, %in_0: f16, %out: f16):
    %5 = arith.mulf %in, %in_0 : f16
    %6 = arith.addf %5, %out : f16
    linalg.yield %6 : f16
  } -> tensor<1x1x256xf16>
  return %4 : tensor<1x1x256xf16>
}

// The same in f32, as IREE's fuse-dequantization-matmul tests write it: on
// the host by default (the PT unit does not multiply f32), a scaled matmul
// with --f32-matmul=f16.
func.func @iree_grouped_int4_f32(%q: tensor<256x4x128xi4>, %x: tensor<1x1x4x128xf32>, %s: tensor<256x4x1xf32>, %z: tensor<256x4x1xf32>) -> tensor<1x1x256xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<1x1x256xf32>
  %1 = tensor.empty() : tensor<256x4x128xf32>
  %2 = linalg.fill ins(%cst : f32) outs(%0 : tensor<1x1x256xf32>) -> tensor<1x1x256xf32>
  %3 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%q, %s, %z : tensor<256x4x128xi4>, tensor<256x4x1xf32>, tensor<256x4x1xf32>) outs(%1 : tensor<256x4x128xf32>) {
  ^bb0(%in: i4, %in_0: f32, %in_1: f32, %out: f32):
    %5 = arith.extui %in : i4 to i32
    %6 = arith.uitofp %5 : i32 to f32
    %7 = arith.subf %6, %in_1 : f32
    %8 = arith.mulf %7, %in_0 : f32
    linalg.yield %8 : f32
  } -> tensor<256x4x128xf32>
  %4 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%x, %3 : tensor<1x1x4x128xf32>, tensor<256x4x128xf32>) outs(%2 : tensor<1x1x256xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %5 = arith.mulf %in, %in_0 : f32
    %6 = arith.addf %5, %out : f32
    linalg.yield %6 : f32
  } -> tensor<1x1x256xf32>
  return %4 : tensor<1x1x256xf32>
}

// A constant i4 weight: packed at compile time into a device constant (no
// host op), its scales and zero points per group of 128 given.
func.func @iree_int4_constant(%x: tensor<8x256xf16>, %s: tensor<64x2xf16>, %z: tensor<64x2xf16>) -> tensor<8x64xf16> {
  %q = arith.constant dense<-3> : tensor<64x2x128xi4>
  %e0 = tensor.empty() : tensor<64x2x128xf16>
  %w = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%q, %s, %z : tensor<64x2x128xi4>, tensor<64x2xf16>, tensor<64x2xf16>) outs(%e0 : tensor<64x2x128xf16>) {
  ^bb0(%in: i4, %sc: f16, %zp: f16, %o: f16):
    %0 = arith.extui %in : i4 to i32
    %1 = arith.uitofp %0 : i32 to f16
    %2 = arith.subf %1, %zp : f16
    %3 = arith.mulf %2, %sc : f16
    linalg.yield %3 : f16
  } -> tensor<64x2x128xf16>
  %wf = tensor.collapse_shape %w [[0], [1, 2]] : tensor<64x2x128xf16> into tensor<64x256xf16>
  %cst = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<8x64xf16>
  %f = linalg.fill ins(%cst : f16) outs(%e : tensor<8x64xf16>) -> tensor<8x64xf16>
  %y = linalg.matmul_transpose_b ins(%x, %wf : tensor<8x256xf16>, tensor<64x256xf16>) outs(%f : tensor<8x64xf16>) -> tensor<8x64xf16>
  return %y : tensor<8x64xf16>
}

// Signed int4 codes with one bf16 scale a row, read by a matmul with its
// weight transposed through the indexing maps.
func.func @iree_int4_channel(%q: tensor<128x512xi4>, %x: tensor<8x512xbf16>, %s: tensor<128xbf16>) -> tensor<8x128xbf16> {
  %cst = arith.constant 0.000000e+00 : bf16
  %1 = tensor.empty() : tensor<128x512xbf16>
  %3 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%q, %s : tensor<128x512xi4>, tensor<128xbf16>) outs(%1 : tensor<128x512xbf16>) {
  ^bb0(%in: i4, %in_0: bf16, %out: bf16):
    %5 = arith.extsi %in : i4 to i32
    %6 = arith.sitofp %5 : i32 to bf16
    %8 = arith.mulf %in_0, %6 : bf16
    linalg.yield %8 : bf16
  } -> tensor<128x512xbf16>
  %e = tensor.empty() : tensor<8x128xbf16>
  %f = linalg.fill ins(%cst : bf16) outs(%e : tensor<8x128xbf16>) -> tensor<8x128xbf16>
  %y = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%x, %3 : tensor<8x512xbf16>, tensor<128x512xbf16>) outs(%f : tensor<8x128xbf16>) -> tensor<8x128xbf16>
  return %y : tensor<8x128xbf16>
}

// int4 codes in the device's SENINT4 format (256 a stick, two a byte) whose
// stick moves to the other dim: the argument and the result are pinned to
// row-major layouts, so the transpose is a restickify, which the SFP runs
// as unpack, move, repack (pairs along the new stick dim), never as a copy
// of bytes.
func.func @int4_restickify(%x: tensor<256x512xi4> {spyre.dim_order = [0, 1]}) -> (tensor<512x256xi4> {spyre.dim_order = [0, 1]}) {
  %e = tensor.empty() : tensor<512x256xi4>
  %t = linalg.transpose ins(%x : tensor<256x512xi4>) outs(%e : tensor<512x256xi4>) permutation = [1, 0]
  return %t : tensor<512x256xi4>
}
