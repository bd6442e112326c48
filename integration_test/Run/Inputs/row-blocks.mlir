// Row-wise pipelines whose tensors do not fit one core's LX, run in row
// blocks (--spyre-fuse-row-blocks); see integration_test/Run/row-blocks.test.

func.func @softmax(%x: tensor<512x1024xf16>) -> tensor<512x1024xf16> {
  %e = tensor.empty() : tensor<512x1024xf16>
  %y = linalg.softmax dimension(1) ins(%x : tensor<512x1024xf16>)
                                   outs(%e : tensor<512x1024xf16>) -> tensor<512x1024xf16>
  return %y : tensor<512x1024xf16>
}

func.func @layernorm(%x: tensor<512x1024xf16>, %w: tensor<1024xf16>, %b: tensor<1024xf16>) -> (tensor<512x1024xf16>, tensor<512xf16>) {
  %c0 = arith.constant 0.0 : f16
  %eps = arith.constant 1.0e-5 : f16
  %n = arith.constant 1024.0 : f16
  %e1 = tensor.empty() : tensor<512xf16>
  %z = linalg.fill ins(%c0 : f16) outs(%e1 : tensor<512xf16>) -> tensor<512xf16>
  %s = linalg.generic {indexing_maps = [affine_map<(i,j)->(i,j)>, affine_map<(i,j)->(i)>], iterator_types = ["parallel","reduction"]} ins(%x : tensor<512x1024xf16>) outs(%z : tensor<512xf16>) {
  ^bb0(%a: f16, %acc: f16):
    %r = arith.addf %a, %acc : f16
    linalg.yield %r : f16
  } -> tensor<512xf16>
  %e2 = tensor.empty() : tensor<512x1024xf16>
  %c = linalg.generic {indexing_maps = [affine_map<(i,j)->(i,j)>, affine_map<(i,j)->(i)>, affine_map<(i,j)->(i,j)>], iterator_types = ["parallel","parallel"]} ins(%x, %s : tensor<512x1024xf16>, tensor<512xf16>) outs(%e2 : tensor<512x1024xf16>) {
  ^bb0(%a: f16, %m: f16, %o: f16):
    %mean = arith.divf %m, %n : f16
    %r = arith.subf %a, %mean : f16
    linalg.yield %r : f16
  } -> tensor<512x1024xf16>
  %v = linalg.generic {indexing_maps = [affine_map<(i,j)->(i,j)>, affine_map<(i,j)->(i)>], iterator_types = ["parallel","reduction"]} ins(%c : tensor<512x1024xf16>) outs(%z : tensor<512xf16>) {
  ^bb0(%a: f16, %acc: f16):
    %sq = arith.mulf %a, %a : f16
    %r = arith.addf %sq, %acc : f16
    linalg.yield %r : f16
  } -> tensor<512xf16>
  %y = linalg.generic {indexing_maps = [affine_map<(i,j)->(i,j)>, affine_map<(i,j)->(i)>, affine_map<(i,j)->(j)>, affine_map<(i,j)->(j)>, affine_map<(i,j)->(i,j)>], iterator_types = ["parallel","parallel"]} ins(%c, %v, %w, %b : tensor<512x1024xf16>, tensor<512xf16>, tensor<1024xf16>, tensor<1024xf16>) outs(%e2 : tensor<512x1024xf16>) {
  ^bb0(%a: f16, %var: f16, %ww: f16, %bb: f16, %o: f16):
    %vm = arith.divf %var, %n : f16
    %ve = arith.addf %vm, %eps : f16
    %rs = math.rsqrt %ve : f16
    %t = arith.mulf %a, %rs : f16
    %t2 = arith.mulf %t, %ww : f16
    %r = arith.addf %t2, %bb : f16
    linalg.yield %r : f16
  } -> tensor<512x1024xf16>
  return %y, %v : tensor<512x1024xf16>, tensor<512xf16>
}

// The score path of attention: scale, a mask every head reads, softmax over
// the keys. Batch 1 and 8 heads cannot be cut into blocks for 8 cores, so the
// blocks run along the queries; the mask is cut along its rows with them.
#s4 = affine_map<(b, h, i, j) -> (b, h, i, j)>
#m2 = affine_map<(b, h, i, j) -> (i, j)>
func.func @scores(%s: tensor<1x8x512x512xf16>, %mask: tensor<512x512xf16>) -> tensor<1x8x512x512xf16> {
  %scale = arith.constant 0.125 : f16
  %e = tensor.empty() : tensor<1x8x512x512xf16>
  %m = linalg.generic {indexing_maps = [#s4, #m2, #s4], iterator_types = ["parallel","parallel","parallel","parallel"]} ins(%s, %mask : tensor<1x8x512x512xf16>, tensor<512x512xf16>) outs(%e : tensor<1x8x512x512xf16>) {
  ^bb0(%a: f16, %b: f16, %o: f16):
    %t = arith.mulf %a, %scale : f16
    %r = arith.addf %t, %b : f16
    linalg.yield %r : f16
  } -> tensor<1x8x512x512xf16>
  %y = linalg.softmax dimension(3) ins(%m : tensor<1x8x512x512xf16>) outs(%e : tensor<1x8x512x512xf16>) -> tensor<1x8x512x512xf16>
  return %y : tensor<1x8x512x512xf16>
}

// Attention with 12 heads on 32 cores: blocks of 6 heads whose queries the
// cores share, both batch matmuls inside the block.
func.func @attention(%q: tensor<12x512x64xf16>, %k: tensor<12x512x64xf16>, %v: tensor<12x512x64xf16>) -> tensor<12x512x64xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<12x512x512xf16>
  %z = linalg.fill ins(%zero : f16) outs(%e : tensor<12x512x512xf16>) -> tensor<12x512x512xf16>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>] ins(%q, %k : tensor<12x512x64xf16>, tensor<12x512x64xf16>) outs(%z : tensor<12x512x512xf16>) -> tensor<12x512x512xf16>
  %p = linalg.softmax dimension(2) ins(%s : tensor<12x512x512xf16>) outs(%e : tensor<12x512x512xf16>) -> tensor<12x512x512xf16>
  %e2 = tensor.empty() : tensor<12x512x64xf16>
  %z2 = linalg.fill ins(%zero : f16) outs(%e2 : tensor<12x512x64xf16>) -> tensor<12x512x64xf16>
  %o = linalg.batch_matmul ins(%p, %v : tensor<12x512x512xf16>, tensor<12x512x64xf16>) outs(%z2 : tensor<12x512x64xf16>) -> tensor<12x512x64xf16>
  return %o : tensor<12x512x64xf16>
}

// Attention with a mask every head adds, 12 heads x 512 on 2 cores: one
// head's tensors do not fit half the cores' LX together, but the ones live
// at once do (the scores, their exp and the probabilities never all live),
// so the blocks are single heads sized by that peak; the mask, read whole by
// every block, is copied once before the blocks (`spyre.identity`) and read
// from LX by all twelve.
func.func @masked_attention(%q: tensor<12x512x64xf16>, %k: tensor<12x512x64xf16>, %v: tensor<12x512x64xf16>, %mask: tensor<512x512xf16>) -> tensor<12x512x64xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<12x512x512xf16>
  %z = linalg.fill ins(%zero : f16) outs(%e : tensor<12x512x512xf16>) -> tensor<12x512x512xf16>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>] ins(%q, %k : tensor<12x512x64xf16>, tensor<12x512x64xf16>) outs(%z : tensor<12x512x512xf16>) -> tensor<12x512x512xf16>
  %m = linalg.generic {indexing_maps = [affine_map<(h, i, j) -> (h, i, j)>, affine_map<(h, i, j) -> (i, j)>, affine_map<(h, i, j) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %mask : tensor<12x512x512xf16>, tensor<512x512xf16>) outs(%e : tensor<12x512x512xf16>) {
  ^bb0(%a: f16, %b: f16, %o: f16):
    %r = arith.addf %a, %b : f16
    linalg.yield %r : f16
  } -> tensor<12x512x512xf16>
  %p = linalg.softmax dimension(2) ins(%m : tensor<12x512x512xf16>) outs(%e : tensor<12x512x512xf16>) -> tensor<12x512x512xf16>
  %e2 = tensor.empty() : tensor<12x512x64xf16>
  %z2 = linalg.fill ins(%zero : f16) outs(%e2 : tensor<12x512x64xf16>) -> tensor<12x512x64xf16>
  %o = linalg.batch_matmul ins(%p, %v : tensor<12x512x512xf16>, tensor<12x512x64xf16>) outs(%z2 : tensor<12x512x64xf16>) -> tensor<12x512x64xf16>
  return %o : tensor<12x512x64xf16>
}

// GPT-2's up-projection with its bias and tanh GELU (gelu_new, as exported:
// powf, tanh) at 64 rows: on 2 cores the chain's tensors exceed half their
// LX together (eleven of 384 KiB), two or three live at once do not, so the
// chain runs whole as the matmul's epilogue and the matmul's output never
// leaves LX.
func.func @gelu_tanh_up(%x: tensor<64x768xf16>, %w: tensor<3072x768xf16>, %b: tensor<3072xf16>) -> tensor<64x3072xf16> {
  %zero = arith.constant 0.0 : f16
  %e0 = tensor.empty() : tensor<64x3072xf16>
  %f = linalg.fill ins(%zero : f16) outs(%e0 : tensor<64x3072xf16>) -> tensor<64x3072xf16>
  %mm = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%x, %w : tensor<64x768xf16>, tensor<3072x768xf16>) outs(%f : tensor<64x3072xf16>) -> tensor<64x3072xf16>
  %e1 = tensor.empty() : tensor<64x3072xf16>
  %biased = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm, %b : tensor<64x3072xf16>, tensor<3072xf16>) outs(%e1 : tensor<64x3072xf16>) {
  ^bb0(%v: f16, %bv: f16, %o: f16):
    %s = arith.addf %v, %bv : f16
    linalg.yield %s : f16
  } -> tensor<64x3072xf16>
  %three = arith.constant 3.0 : f16
  %k1 = arith.constant 0.044715 : f16
  %k0 = arith.constant 0.7978846 : f16
  %one = arith.constant 1.0 : f16
  %half = arith.constant 0.5 : f16
  %e2 = tensor.empty() : tensor<64x3072xf16>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%biased : tensor<64x3072xf16>) outs(%e2 : tensor<64x3072xf16>) {
  ^bb0(%v: f16, %o: f16):
    %v3 = math.powf %v, %three : f16
    %c = arith.mulf %v3, %k1 : f16
    %in = arith.addf %v, %c : f16
    %sc = arith.mulf %in, %k0 : f16
    %th = math.tanh %sc : f16
    %op = arith.addf %th, %one : f16
    %hv = arith.mulf %v, %half : f16
    %r = arith.mulf %hv, %op : f16
    linalg.yield %r : f16
  } -> tensor<64x3072xf16>
  return %y : tensor<64x3072xf16>
}

// Softmax over 512x768 fits the 32 cores' LX whole: it runs as one group,
// each op's rows split across the cores alike, x copied into LX once for
// both its readers (max and sub).
func.func @softmax_whole(%x: tensor<512x768xf16>) -> tensor<512x768xf16> {
  %e = tensor.empty() : tensor<512x768xf16>
  %y = linalg.softmax dimension(1) ins(%x : tensor<512x768xf16>) outs(%e : tensor<512x768xf16>) -> tensor<512x768xf16>
  return %y : tensor<512x768xf16>
}

// Attention after three projections and the head split (BERT's form).
func.func @attention_head_split(%x: tensor<512x64xf16>, %wq: tensor<64x768xf16>, %wk: tensor<64x768xf16>, %wv: tensor<64x768xf16>) -> tensor<12x512x64xf16> {
  %zero = arith.constant 0.0 : f16
  %ep = tensor.empty() : tensor<512x768xf16>
  %zp = linalg.fill ins(%zero : f16) outs(%ep : tensor<512x768xf16>) -> tensor<512x768xf16>
  %q = linalg.matmul ins(%x, %wq : tensor<512x64xf16>, tensor<64x768xf16>) outs(%zp : tensor<512x768xf16>) -> tensor<512x768xf16>
  %k = linalg.matmul ins(%x, %wk : tensor<512x64xf16>, tensor<64x768xf16>) outs(%zp : tensor<512x768xf16>) -> tensor<512x768xf16>
  %v = linalg.matmul ins(%x, %wv : tensor<512x64xf16>, tensor<64x768xf16>) outs(%zp : tensor<512x768xf16>) -> tensor<512x768xf16>
  %eh = tensor.empty() : tensor<12x512x64xf16>
  %qs = tensor.expand_shape %q [[0], [1, 2]] output_shape [512, 12, 64] : tensor<512x768xf16> into tensor<512x12x64xf16>
  %qh = linalg.transpose ins(%qs : tensor<512x12x64xf16>) outs(%eh : tensor<12x512x64xf16>) permutation = [1, 0, 2]
  %ks = tensor.expand_shape %k [[0], [1, 2]] output_shape [512, 12, 64] : tensor<512x768xf16> into tensor<512x12x64xf16>
  %kh = linalg.transpose ins(%ks : tensor<512x12x64xf16>) outs(%eh : tensor<12x512x64xf16>) permutation = [1, 0, 2]
  %vs = tensor.expand_shape %v [[0], [1, 2]] output_shape [512, 12, 64] : tensor<512x768xf16> into tensor<512x12x64xf16>
  %vh = linalg.transpose ins(%vs : tensor<512x12x64xf16>) outs(%eh : tensor<12x512x64xf16>) permutation = [1, 0, 2]
  %e = tensor.empty() : tensor<12x512x512xf16>
  %z = linalg.fill ins(%zero : f16) outs(%e : tensor<12x512x512xf16>) -> tensor<12x512x512xf16>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>] ins(%qh, %kh : tensor<12x512x64xf16>, tensor<12x512x64xf16>) outs(%z : tensor<12x512x512xf16>) -> tensor<12x512x512xf16>
  %p = linalg.softmax dimension(2) ins(%s : tensor<12x512x512xf16>) outs(%e : tensor<12x512x512xf16>) -> tensor<12x512x512xf16>
  %z2 = linalg.fill ins(%zero : f16) outs(%eh : tensor<12x512x64xf16>) -> tensor<12x512x64xf16>
  %o = linalg.batch_matmul ins(%p, %vh : tensor<12x512x512xf16>, tensor<12x512x64xf16>) outs(%z2 : tensor<12x512x64xf16>) -> tensor<12x512x64xf16>
  return %o : tensor<12x512x64xf16>
}
#id = affine_map<(d0, d1) -> (d0, d1)>
#row0 = affine_map<(d0, d1) -> (d0, 0)>
#col = affine_map<(d0, d1) -> (d1)>
#mk = affine_map<(m, n, k) -> (m, k)>
#nk = affine_map<(m, n, k) -> (n, k)>
#mn = affine_map<(m, n, k) -> (m, n)>

// A projection, its bias, the residual add and the LayerNorm after them
// (BERT's post-LN): the row group of the residual add and the LayerNorm
// joins the projection's epilogue group, the projection's rows split as
// the group's, so the residual sum stays in LX for the LayerNorm instead of
// going to DDR and coming back.
func.func @post_ln(%ctx: tensor<512x768xf16>, %x: tensor<512x768xf16>, %w_o: tensor<768x768xf16>, %b_o: tensor<768xf16>, %g_ln1: tensor<768xf16>, %b_ln1: tensor<768xf16>) -> tensor<512x768xf16> {
  %zero = arith.constant 0.0 : f16
  %dim = arith.constant 768.0 : f16
  %two = arith.constant 2.0 : f16
  %eps = arith.constant 1.0e-05 : f16
  %e40 = tensor.empty() : tensor<512x768xf16>
  %z39 = linalg.fill ins(%zero : f16) outs(%e40 : tensor<512x768xf16>) -> tensor<512x768xf16>
  %o38 = linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%ctx, %w_o : tensor<512x768xf16>, tensor<768x768xf16>) outs(%z39 : tensor<512x768xf16>) -> tensor<512x768xf16>
  %e42 = tensor.empty() : tensor<512x768xf16>
  %ob41 = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%o38, %b_o : tensor<512x768xf16>, tensor<768xf16>) outs(%e42 : tensor<512x768xf16>) {
  ^bb0(%a: f16, %c: f16, %o: f16):
    %r = arith.addf %a, %c : f16
    linalg.yield %r : f16
  } -> tensor<512x768xf16>
  %e44 = tensor.empty() : tensor<512x768xf16>
  %add43 = linalg.add ins(%x, %ob41 : tensor<512x768xf16>, tensor<512x768xf16>) outs(%e44 : tensor<512x768xf16>) -> tensor<512x768xf16>
  %e46 = tensor.empty() : tensor<512x1xf16>
  %racc45 = linalg.fill ins(%zero : f16) outs(%e46 : tensor<512x1xf16>) -> tensor<512x1xf16>
  %rsum47 = linalg.generic {indexing_maps = [#id, #row0], iterator_types = ["parallel", "reduction"]} ins(%add43 : tensor<512x768xf16>) outs(%racc45 : tensor<512x1xf16>) {
  ^bb0(%v: f16, %a: f16):
    %r = arith.addf %v, %a : f16
    linalg.yield %r : f16
  } -> tensor<512x1xf16>
  %e49 = tensor.empty() : tensor<512x768xf16>
  %centred48 = linalg.generic {indexing_maps = [#id, #row0, #id], iterator_types = ["parallel", "parallel"]} ins(%add43, %rsum47 : tensor<512x768xf16>, tensor<512x1xf16>) outs(%e49 : tensor<512x768xf16>) {
  ^bb0(%v: f16, %m: f16, %o: f16):
    %mu = arith.divf %m, %dim : f16
    %r = arith.subf %v, %mu : f16
    linalg.yield %r : f16
  } -> tensor<512x768xf16>
  %e51 = tensor.empty() : tensor<512x1xf16>
  %racc50 = linalg.fill ins(%zero : f16) outs(%e51 : tensor<512x1xf16>) -> tensor<512x1xf16>
  %rsum52 = linalg.generic {indexing_maps = [#id, #row0], iterator_types = ["parallel", "reduction"]} ins(%centred48 : tensor<512x768xf16>) outs(%racc50 : tensor<512x1xf16>) {
  ^bb0(%v: f16, %a: f16):
    %q = math.powf %v, %two : f16
    %r = arith.addf %q, %a : f16
    linalg.yield %r : f16
  } -> tensor<512x1xf16>
  %e54 = tensor.empty() : tensor<512x768xf16>
  %ln153 = linalg.generic {indexing_maps = [#id, #row0, #col, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%centred48, %rsum52, %g_ln1, %b_ln1 : tensor<512x768xf16>, tensor<512x1xf16>, tensor<768xf16>, tensor<768xf16>) outs(%e54 : tensor<512x768xf16>) {
  ^bb0(%v: f16, %q: f16, %gv: f16, %bv: f16, %o: f16):
    %va = arith.divf %q, %dim : f16
    %ve = arith.addf %va, %eps : f16
    %rs = math.rsqrt %ve : f16
    %n = arith.mulf %v, %rs : f16
    %sc = arith.mulf %n, %gv : f16
    %r = arith.addf %sc, %bv : f16
    linalg.yield %r : f16
  } -> tensor<512x768xf16>
  %e57 = tensor.empty() : tensor<512x3072xf16>
  %z56 = linalg.fill ins(%zero : f16) outs(%e57 : tensor<512x3072xf16>) -> tensor<512x3072xf16>
  return %ln153 : tensor<512x768xf16>
}
func.func @swiglu(%x: tensor<512x256xf16>, %wg: tensor<256x8192xf16>, %wu: tensor<256x8192xf16>) -> tensor<512x8192xf16> {
  %z = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<512x8192xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<512x8192xf16>) -> tensor<512x8192xf16>
  %g = linalg.matmul ins(%x, %wg : tensor<512x256xf16>, tensor<256x8192xf16>) outs(%f : tensor<512x8192xf16>) -> tensor<512x8192xf16>
  %u = linalg.matmul ins(%x, %wu : tensor<512x256xf16>, tensor<256x8192xf16>) outs(%f : tensor<512x8192xf16>) -> tensor<512x8192xf16>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%g, %u : tensor<512x8192xf16>, tensor<512x8192xf16>) outs(%e : tensor<512x8192xf16>) {
  ^bb0(%a: f16, %b: f16, %o: f16):
    %n = arith.negf %a : f16
    %ex = math.exp %n : f16
    %one = arith.constant 1.0 : f16
    %d = arith.addf %ex, %one : f16
    %s = arith.divf %a, %d : f16
    %r = arith.mulf %s, %b : f16
    linalg.yield %r : f16
  } -> tensor<512x8192xf16>
  return %y : tensor<512x8192xf16>
}

// Llama's second RMSNorm after the output projection and the residual add
// (512x4096 f16; both the residual and the normalized tensor returned).
func.func @proj_residual_rmsnorm(%a: tensor<512x4096xf16>, %w: tensor<4096x4096xf16>, %x: tensor<512x4096xf16>, %g: tensor<4096xf16>) -> (tensor<512x4096xf16>, tensor<512x4096xf16>) {
  %zero = arith.constant 0.0 : f16
  %two = arith.constant 2.0 : f16
  %dim = arith.constant 4096.0 : f16
  %eps = arith.constant 1.0e-05 : f16
  %mhalf = arith.constant -0.5 : f16
  %e = tensor.empty() : tensor<512x4096xf16>
  %z = linalg.fill ins(%zero : f16) outs(%e : tensor<512x4096xf16>) -> tensor<512x4096xf16>
  %o = linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%a, %w : tensor<512x4096xf16>, tensor<4096x4096xf16>) outs(%z : tensor<512x4096xf16>) -> tensor<512x4096xf16>
  %r = linalg.add ins(%x, %o : tensor<512x4096xf16>, tensor<512x4096xf16>) outs(%e : tensor<512x4096xf16>) -> tensor<512x4096xf16>
  %e1 = tensor.empty() : tensor<512x1xf16>
  %acc = linalg.fill ins(%zero : f16) outs(%e1 : tensor<512x1xf16>) -> tensor<512x1xf16>
  %ss = linalg.generic {indexing_maps = [#id, #row0], iterator_types = ["parallel", "reduction"]} ins(%r : tensor<512x4096xf16>) outs(%acc : tensor<512x1xf16>) {
  ^bb0(%v: f16, %s: f16):
    %q = math.powf %v, %two : f16
    %t = arith.addf %q, %s : f16
    linalg.yield %t : f16
  } -> tensor<512x1xf16>
  %y = linalg.generic {indexing_maps = [#id, #row0, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%r, %ss, %g : tensor<512x4096xf16>, tensor<512x1xf16>, tensor<4096xf16>) outs(%e : tensor<512x4096xf16>) {
  ^bb0(%v: f16, %q: f16, %gv: f16, %o2: f16):
    %ms = arith.divf %q, %dim : f16
    %me = arith.addf %ms, %eps : f16
    %rs = math.powf %me, %mhalf : f16
    %n = arith.mulf %v, %rs : f16
    %res = arith.mulf %n, %gv : f16
    linalg.yield %res : f16
  } -> tensor<512x4096xf16>
  return %r, %y : tensor<512x4096xf16>, tensor<512x4096xf16>
}

// A softmax over the last dim of [heads, rows, cols], heads fewer than the
// cores: whole, its rows split across the cores.
func.func @softmax_heads(%x: tensor<10x256x256xf16>) -> tensor<10x256x256xf16> {
  %e = tensor.empty() : tensor<10x256x256xf16>
  %r = linalg.softmax dimension(2) ins(%x : tensor<10x256x256xf16>) outs(%e : tensor<10x256x256xf16>) -> tensor<10x256x256xf16>
  return %r : tensor<10x256x256xf16>
}
