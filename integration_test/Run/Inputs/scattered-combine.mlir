// Split reductions whose result stays in LX for its epilogue: the partners'
// combine scatters each result tile over them (kernel::resultDivision).

// [64, 8192] x [8192, 256] on 32 cores: m2.n4.k4, K the fastest digit, so
// partner p of a 32-row block keeps its rows 8p .. 8p + 7 (a part of every
// 32-row tile): the add and the exp take 8 rows by 64 columns per core.
func.func @rows(%a: tensor<64x8192xf16>, %w: tensor<256x8192xf16>, %x: tensor<64x256xf16>) -> tensor<64x256xf16> {
  %z = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<64x256xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<64x256xf16>) -> tensor<64x256xf16>
  %m = linalg.matmul indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (j, k)>, affine_map<(i, j, k) -> (i, j)>]
       ins(%a, %w : tensor<64x8192xf16>, tensor<256x8192xf16>) outs(%f : tensor<64x256xf16>) -> tensor<64x256xf16>
  %s = linalg.add ins(%m, %x : tensor<64x256xf16>, tensor<64x256xf16>) outs(%e : tensor<64x256xf16>) -> tensor<64x256xf16>
  %t = linalg.exp ins(%s : tensor<64x256xf16>) outs(%e : tensor<64x256xf16>) -> tensor<64x256xf16>
  return %t : tensor<64x256xf16>
}

// A feed-forward block: the first projection's output stays in LX split by
// its columns (m8.n4), so the second splits its K the same way (m8.k4, M
// the fastest digit); its partners' parts go along N (each 64 x 192), where
// the bias and the residual add take them.
func.func @columns(%x: tensor<512x768xf16>, %w1: tensor<3072x768xf16>, %w2: tensor<768x3072xf16>, %b: tensor<768xf16>) -> tensor<512x768xf16> {
  %z = arith.constant 0.0 : f16
  %e1 = tensor.empty() : tensor<512x3072xf16>
  %f1 = linalg.fill ins(%z : f16) outs(%e1 : tensor<512x3072xf16>) -> tensor<512x3072xf16>
  %h = linalg.matmul indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (j, k)>, affine_map<(i, j, k) -> (i, j)>]
       ins(%x, %w1 : tensor<512x768xf16>, tensor<3072x768xf16>) outs(%f1 : tensor<512x3072xf16>) -> tensor<512x3072xf16>
  %g = linalg.exp ins(%h : tensor<512x3072xf16>) outs(%e1 : tensor<512x3072xf16>) -> tensor<512x3072xf16>
  %e = tensor.empty() : tensor<512x768xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<512x768xf16>) -> tensor<512x768xf16>
  %m = linalg.matmul indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (j, k)>, affine_map<(i, j, k) -> (i, j)>]
       ins(%g, %w2 : tensor<512x3072xf16>, tensor<768x3072xf16>) outs(%f : tensor<512x768xf16>) -> tensor<512x768xf16>
  %e2 = tensor.empty() : tensor<512x768xf16>
  %bb = linalg.broadcast ins(%b : tensor<768xf16>) outs(%e2 : tensor<512x768xf16>) dimensions = [0]
  %s = linalg.add ins(%m, %bb : tensor<512x768xf16>, tensor<512x768xf16>) outs(%e2 : tensor<512x768xf16>) -> tensor<512x768xf16>
  %r = linalg.add ins(%s, %x : tensor<512x768xf16>, tensor<512x768xf16>) outs(%e2 : tensor<512x768xf16>) -> tensor<512x768xf16>
  return %r : tensor<512x768xf16>
}
