//===- Compute.cpp - What a payload computes on a staged tile -------------===//

#include "Compute.h"

#include "Spyre/Layout/Numerics.h"
#include "Spyre/Quant/Quant.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::spyre;
using namespace mlir::spyre::sim;

FailureOr<Semantics> mlir::spyre::sim::semanticsOf(Operation *op,
                                                   std::string &reason) {
  Semantics s;
  if (auto elementwise = dyn_cast<ElementwiseOpInterface>(op)) {
    s.kind = Kind::Elementwise;
    s.scalar = elementwise.getScalarSemantics();
  } else if (isa<RestickifyOp, ExtractSliceOp>(op)) {
    s.kind = Kind::Copy;
  } else if (auto insert = dyn_cast<InsertSliceOp>(op)) {
    // Lanes past the box's end in its last stick get the fill.
    s.kind = Kind::Copy;
    if (std::optional<APFloat> fill = insert.getFill())
      s.padValue = fill->convertToDouble();
  } else if (auto pad = dyn_cast<PadOp>(op)) {
    s.kind = Kind::Copy;
    s.padValue = pad.getValue().convertToDouble();
  } else if (auto reduction = dyn_cast<ReductionOpInterface>(op)) {
    s.kind = Kind::Reduce;
    s.reduction = reduction;
    s.combiner = reduction.getCombinerKind();
    s.reducedDim = static_cast<int>(reduction.getReducedDim());
    s.mask = reduction.getMaskValue();
  } else if (isa<MatmulOp, BatchMatmulOp>(op)) {
    s.kind = Kind::Matmul;
  } else if (auto scaled = dyn_cast<ScaledMatmulOp>(op)) {
    s.kind = Kind::ScaledMatmul;
    QuantAttr quant = scaled.getQuant();
    Semantics::QuantizedB &b = s.quantized;
    b.perData = scaled.getValuesPerDataElement();
    // 4-bit codes: two a byte (compressed), or, for integers in actual
    // mode, one a byte of which the low bits count.
    const quant::FormatInfo &info = quant::getFormatInfo(quant.getFormat());
    quant::QuantSpec spec = quant.getSpec();
    if (spec.codebook) {
      b.codebook = true;
      b.entries = spec.codebook->numEntries();
      for (double v : spec.codebook->mappings)
        b.codeValues.push_back(static_cast<float>(v));
      if (scaled.getMeta()) {
        b.metaBits = spec.codebook->metaBits;
        b.metaPer = scaled.getValuesPerMetaElement();
        // After A and the other parts: meta is the last part read.
        b.metaOperand = static_cast<int>(scaled.getParts().size());
      }
    } else if (b.perData > 1 || (info.bits < 8 && info.isInteger()) ||
               info.kind == quant::FormatKind::UInt)
      for (uint32_t code = 0; code < (1u << info.bits); ++code)
        b.codeValues.push_back(
            static_cast<float>(quant::decode(quant.getFormat(), code)));
    // A channel's (or the tensor's) one scale and zero cover all of k.
    b.tile = scaled.getValuesPerScale();
    // A mapping per subtile, or per scale (a channel: one for all of k).
    if (b.metaBits > 0)
      b.metaGroup = spec.subtile ? spec.subtile : b.tile;
    b.e8m0 = spec.scaleType.value_or(quant.getScaling() == quant::Scaling::MX
                                         ? quant::ScaleType::E8M0
                                         : quant::ScaleType::Float32) ==
             quant::ScaleType::E8M0;
    b.hasZero = static_cast<bool>(scaled.getZero());
    // Float zero points are read as the floats they are; integer ones are
    // codes of the data's format (packed like it).
    b.floatZero = b.hasZero && quant.getZeroType().has_value();
    b.packedZero = b.hasZero && !b.floatZero && b.perData > 1;
    if (quant.getScaling() == quant::Scaling::MX &&
        quant.getFormat() == quant::Format::Int8)
      b.unit = 1.0f / 64.0f;
  } else if (auto exx2 = dyn_cast<Exx2Op>(op)) {
    s.kind = Kind::Exx2;
    s.a = exx2.getScale().convertToDouble();
    s.reducedDim = static_cast<int>(exx2.getInput().getType().getRank() - 1);
    if (std::optional<APFloat> mask = exx2.getPaddingValue())
      s.mask = mask->convertToDouble();
  } else if (auto scale = dyn_cast<LayerNormScaleOp>(op)) {
    s.kind = Kind::LnScale;
    s.a = scale.getEps().convertToDouble();
  } else if (isa<LayerNormNormOp>(op)) {
    s.kind = Kind::LnNorm;
  } else {
    reason = "the simulator does not implement " +
             op->getName().getStringRef().str();
    return failure();
  }
  return s;
}

float mlir::spyre::sim::combine(CombinerKind kind, float a, float b) {
  switch (kind) {
  case CombinerKind::Max:
    return mlir::spyre::detail::maximum(a, b);
  case CombinerKind::Min:
    return mlir::spyre::detail::minimum(a, b);
  case CombinerKind::Sum:
    break;
  }
  return a + b;
}

namespace {

/// c[n] += x[k] * b[k][n] for k in [0, kt) in order, n in [0, nt): one
/// output row of a matmul tile (each element adds its k terms in order).
/// Built for AVX2 too; the running sums are rounded after every add (no
/// fused multiply-add), so both versions give the same bits.
__attribute__((target_clones("avx2", "default"))) static void
matmulRow(float *__restrict c, const float *__restrict x, int64_t xStride,
          const float *__restrict b, int64_t kt, int64_t nt) {
  int64_t k = 0;
  for (; k + 4 <= kt; k += 4) {
    float x0 = x[k * xStride], x1 = x[(k + 1) * xStride];
    float x2 = x[(k + 2) * xStride], x3 = x[(k + 3) * xStride];
    const float *b0 = b + k * nt, *b1 = b0 + nt, *b2 = b1 + nt, *b3 = b2 + nt;
    for (int64_t n = 0; n < nt; ++n)
      c[n] = (((c[n] + x0 * b0[n]) + x1 * b1[n]) + x2 * b2[n]) + x3 * b3[n];
  }
  for (; k < kt; ++k) {
    float xk = x[k * xStride];
    const float *row = b + k * nt;
    for (int64_t n = 0; n < nt; ++n)
      c[n] += xk * row[n];
  }
}

/// Calls f(index of each array) for every point of `extents`; `strides[k]`
/// gives array k's stride per dim.
template <typename F>
static void forEachPoint(ArrayRef<int64_t> extents,
                         ArrayRef<ArrayRef<int64_t>> strides, F f) {
  size_t n = extents.size(), k = strides.size();
  for (int64_t e : extents)
    if (e <= 0)
      return;
  SmallVector<int64_t, 6> at(n, 0);
  SmallVector<int64_t, 6> index(k, 0);
  if (n == 0) {
    f(ArrayRef<int64_t>(index));
    return;
  }
  while (true) {
    for (int64_t x = 0; x < extents[n - 1]; ++x) {
      f(ArrayRef<int64_t>(index));
      for (size_t a = 0; a < k; ++a)
        index[a] += strides[a][n - 1];
    }
    for (size_t a = 0; a < k; ++a)
      index[a] -= strides[a][n - 1] * extents[n - 1];
    int d = static_cast<int>(n) - 2;
    for (; d >= 0; --d) {
      for (size_t a = 0; a < k; ++a)
        index[a] += strides[a][d];
      if (++at[d] < extents[d])
        break;
      for (size_t a = 0; a < k; ++a)
        index[a] -= strides[a][d] * extents[d];
      at[d] = 0;
    }
    if (d < 0)
      return;
  }
}

} // namespace

void TileCompute::compute(bool firstReduction,
                          std::vector<std::vector<float>> &in,
                          std::vector<float> &acc) const {
  const Operand &out = operands.back();
  SmallVector<int64_t, 6> extents(tile.begin(), tile.end());
  auto strides = [&](unsigned i) {
    return ArrayRef<int64_t>(operands[i].denseStride);
  };
  float init = semantics.kind == Kind::Reduce
                   ? static_cast<float>(semantics.reduction.getNeutralValue())
                   : 0.0f;
  if (firstReduction)
    acc.assign(out.denseSize * out.slots, init);
  unsigned r = operands.size() - 1;
  switch (semantics.kind) {
  case Kind::Elementwise: {
    unsigned n = operands.size() - 1;
    SmallVector<ArrayRef<int64_t>, 4> all;
    for (unsigned k = 0; k <= n; ++k)
      all.push_back(strides(k));
    SmallVector<float, 4> x(n);
    const ScalarSemantics &f = semantics.scalar;
    forEachPoint(extents, all, [&](ArrayRef<int64_t> i) {
      for (unsigned k = 0; k < n; ++k)
        x[k] = in[k][i[k]];
      acc[i[n]] = f(x.data());
    });
    return;
  }
  case Kind::Copy:
    forEachPoint(extents, {strides(0), strides(r)},
                 [&](ArrayRef<int64_t> i) { acc[i[1]] = in[0][i[0]]; });
    return;
  case Kind::Reduce: {
    CombinerKind combiner = semantics.combiner;
    forEachPoint(extents, {strides(0), strides(r)}, [&](ArrayRef<int64_t> i) {
      float &a = acc[i[1]];
      a = combine(combiner, a, in[0][i[0]]);
    });
    return;
  }
  case Kind::Matmul: {
    // (batch..., m, n, k). For each output row, C[m, :] += A[m, k] * B[k, :]
    // over k in order: every element still adds its k terms in order (as a
    // dot product would), and the inner loop over n vectorizes.
    int64_t mD = problem.mDim, nD = problem.nDim, kD = problem.kDim;
    int64_t mt = extents[mD], nt = extents[nD], kt = extents[kD];
    const Operand &A = operands[0], &B = operands[1];
    SmallVector<int64_t, 6> batch(extents.begin(), extents.end());
    batch[mD] = batch[nD] = batch[kD] = 1;
    std::vector<float> bt(static_cast<size_t>(kt * nt));
    int64_t sAm = A.denseStride[mD], sAk = A.denseStride[kD];
    int64_t sBk = B.denseStride[kD], sBn = B.denseStride[nD];
    int64_t sCm = out.denseStride[mD], sCn = out.denseStride[nD];
    forEachPoint(batch, {strides(0), strides(1), strides(r)},
                 [&](ArrayRef<int64_t> i) {
                   const float *a = in[0].data() + i[0];
                   const float *b = in[1].data() + i[1];
                   for (int64_t k = 0; k < kt; ++k)
                     for (int64_t n = 0; n < nt; ++n)
                       bt[k * nt + n] = b[k * sBk + n * sBn];
                   for (int64_t m = 0; m < mt; ++m) {
                     float *c = acc.data() + i[2] + m * sCm;
                     if (sCn == 1) {
                       matmulRow(c, a + m * sAm, sAk, bt.data(), kt, nt);
                       continue;
                     }
                     for (int64_t k = 0; k < kt; ++k) {
                       float x = a[m * sAm + k * sAk];
                       const float *row = bt.data() + k * nt;
                       for (int64_t n = 0; n < nt; ++n)
                         c[n * sCn] += x * row[n];
                     }
                   }
                 });
    return;
  }
  case Kind::ScaledMatmul: {
    // (m, n, k). B's tile is dequantized in LX, as DL16 for the PT: each
    // (n, k) reads its data element (a byte holds two 4-bit codes, low
    // first, for even and odd k), its tile's scale (an E8M0 byte is
    // 2^(byte - 127)) and zero; then C += A @ B as the matmul does. Tiles
    // along k start at whole data and zero sticks, so k's parity and its
    // tile's parity are the local ones.
    const Semantics::QuantizedB &q = semantics.quantized;
    int64_t mD = problem.mDim, nD = problem.nDim, kD = problem.kDim;
    int64_t mt = extents[mD], nt = extents[nD], kt = extents[kD];
    const Operand &A = operands[0], &D = operands[1], &S = operands[2];
    std::vector<float> bt(static_cast<size_t>(kt * nt));
    const float *table = sen169ToFloatTable();
    auto byteOf = [](float v) {
      return static_cast<uint8_t>(static_cast<int32_t>(v));
    };
    for (int64_t k = 0; k < kt; ++k)
      for (int64_t n = 0; n < nt; ++n) {
        float raw = in[1][k * D.denseStride[kD] + n * D.denseStride[nD]];
        float value = raw;
        if (q.codebook) {
          // The index (a nibble, low first for even k, when packed) into
          // the mapping the element's meta bits pick.
          uint8_t byte = byteOf(raw);
          int64_t index = q.perData > 1 ? (k % 2 == 0 ? byte & 0xF : byte >> 4)
                                        : byte & (q.entries - 1);
          int64_t mapping = 0;
          if (q.metaOperand >= 0) {
            const Operand &M = operands[q.metaOperand];
            uint8_t bits = byteOf(in[q.metaOperand][k * M.denseStride[kD] +
                                                    n * M.denseStride[nD]]);
            int64_t shift = (k % q.metaPer) / q.metaGroup * q.metaBits;
            mapping = (bits >> shift) & ((1 << q.metaBits) - 1);
          }
          value = q.codeValues[mapping * q.entries + index];
        } else if (q.perData > 1) {
          uint8_t byte = byteOf(raw);
          value = q.codeValues[k % 2 == 0 ? byte & 0xF : byte >> 4];
        } else if (!q.codeValues.empty()) {
          value = q.codeValues[byteOf(raw) & (q.codeValues.size() - 1)];
        }
        float scale = in[2][k * S.denseStride[kD] + n * S.denseStride[nD]];
        if (q.e8m0) {
          uint8_t byte = byteOf(scale);
          scale = byte == 0xFF ? std::numeric_limits<float>::quiet_NaN()
                               : std::ldexp(1.0f, int(byte) - 127);
        }
        if (q.hasZero) {
          const Operand &Z = operands[3];
          float zero = in[3][k * Z.denseStride[kD] + n * Z.denseStride[nD]];
          if (q.packedZero) {
            uint8_t byte = byteOf(zero);
            zero = q.codeValues[(k / q.tile) % 2 == 0 ? byte & 0xF : byte >> 4];
          } else if (!q.codeValues.empty() && !q.floatZero) {
            zero = q.codeValues[byteOf(zero) & (q.codeValues.size() - 1)];
          }
          value -= zero;
        }
        bt[k * nt + n] = table[floatToSen169(value * q.unit * scale)];
      }
    int64_t sAm = A.denseStride[mD], sAk = A.denseStride[kD];
    int64_t sCm = out.denseStride[mD], sCn = out.denseStride[nD];
    for (int64_t m = 0; m < mt; ++m) {
      float *c = acc.data() + m * sCm;
      const float *a = in[0].data() + m * sAm;
      if (sCn == 1) {
        matmulRow(c, a, sAk, bt.data(), kt, nt);
        continue;
      }
      for (int64_t k = 0; k < kt; ++k) {
        float x = a[k * sAk];
        const float *row = bt.data() + k * nt;
        for (int64_t n = 0; n < nt; ++n)
          c[n * sCn] += x * row[n];
      }
    }
    return;
  }
  case Kind::Exx2: {
    // Lane 0 of each row's stick sums x, lane 1 sums x * x (the exx2
    // arrangement); finalize scales both.
    int64_t second = out.denseSize;
    forEachPoint(extents, {strides(0), strides(r)}, [&](ArrayRef<int64_t> i) {
      float x = in[0][i[0]];
      acc[i[1]] += x;
      acc[i[1] + second] += x * x;
    });
    return;
  }
  case Kind::LnScale: {
    int64_t secondIn = operands[0].denseSize, secondOut = out.denseSize;
    float eps = static_cast<float>(semantics.a);
    forEachPoint(extents, {strides(0), strides(r)}, [&](ArrayRef<int64_t> i) {
      float mean = in[0][i[0]], square = in[0][i[0] + secondIn];
      acc[i[1]] = mean;
      acc[i[1] + secondOut] = 1.0f / std::sqrt(square - mean * mean + eps);
    });
    return;
  }
  case Kind::LnNorm: {
    // x, mean (exx2's: lane 0 the mean), norm (layernormscale's: lane 1 the
    // reciprocal standard deviation), weight, bias.
    int64_t rstdAt = operands[2].denseSize;
    forEachPoint(extents,
                 {strides(0), strides(1), strides(2), strides(3), strides(4),
                  strides(r)},
                 [&](ArrayRef<int64_t> i) {
                   float mean = in[1][i[1]], rstd = in[2][i[2] + rstdAt];
                   acc[i[5]] =
                       (in[0][i[0]] - mean) * rstd * in[3][i[3]] + in[4][i[4]];
                 });
    return;
  }
  }
}

void TileCompute::finalize(std::vector<float> &acc,
                           ArrayRef<int64_t> size) const {
  if (semantics.kind == Kind::Reduce) {
    double scale =
        semantics.reduction.getResultScale(size[semantics.reducedDim]);
    if (scale != 1.0)
      for (float &v : acc)
        v *= static_cast<float>(scale);
  }
  if (semantics.kind == Kind::Exx2) {
    float scale = static_cast<float>(semantics.a);
    for (float &v : acc)
      v *= scale;
  }
}
