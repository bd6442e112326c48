//===- Quant.h - Quantized, scaled and sparse tensors -----------*- C++ -*-===//
//
// TensorCast's tensor (../shared/spec/tcast_tensor_scales_metadata.md) as
// plain C++ over LLVM Support: the element formats and their bit-exact
// codecs, the scaling schemes (tensor, channel, tile along any dim, 2-D
// tiles, multiscale, zero points), structured 1-D sparsity, the shapes of
// every companion tensor (scale, zero, tenscale, meta, mask) uncompressed and
// compressed, and quantize / dequantize on host arrays in the three cast
// modes. docs/quantization.md describes every choice and its source.
//
//===----------------------------------------------------------------------===//

#ifndef SPYRE_QUANT_QUANT_H
#define SPYRE_QUANT_QUANT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
struct fltSemantics;
} // namespace llvm

namespace mlir::spyre::quant {

//===----------------------------------------------------------------------===//
// Formats
//===----------------------------------------------------------------------===//

enum class Format : uint8_t {
#define SPYRE_QUANT_FORMAT(Enum, ...) Enum,
#include "Spyre/Quant/Formats.def"
};

enum class FormatKind : uint8_t { Float, Int, UInt, Exponent };

struct FormatInfo {
  Format format;
  llvm::StringRef name;
  FormatKind kind;
  unsigned bits;
  /// The values' semantics (Float and Exponent kinds).
  const llvm::fltSemantics *semantics;
  llvm::StringRef actualDtype;
  bool negZeroIsNaN;
  /// Largest finite value and smallest (most negative) value.
  double maxValue;
  double lowest;
  /// Exponent of the largest normal value (OCP's emax_elem).
  int emax;
  bool hasNaN;
  bool hasInfinity;

  bool isInteger() const {
    return kind == FormatKind::Int || kind == FormatKind::UInt;
  }
};

const FormatInfo &getFormatInfo(Format format);
std::optional<Format> parseFormat(llvm::StringRef name);
/// Every format, in table order.
llvm::ArrayRef<Format> allFormats();
/// "e4m3fn, e5m2, ..." for diagnostics.
std::string formatNames();

/// Encodes `value` in `format`: round to nearest, ties to even; finite values
/// beyond the range saturate to the largest magnitude; infinities stay
/// infinite where the format has them and saturate otherwise; NaN becomes the
/// format's NaN, or 0 where it has none (integers, OCP FP6/FP4: the scale of
/// a block with a NaN is NaN). Integers are returned as two's complement
/// in the low `bits`. E8M0 takes the exponent of the power of two nearest
/// `value` (in [2^-127, 2^127]). Without `saturate`, a float format with
/// NaN or infinities takes them as a cast does (MLIR's `arith.truncf`,
/// APFloat's conversion): values that round beyond the largest become
/// infinite, or NaN where the format has no infinity.
uint32_t encode(Format format, double value, bool saturate = true);
/// The value of an encoding (the low `bits` of `code`).
double decode(Format format, uint32_t code);

//===----------------------------------------------------------------------===//
// Quantization schemes
//===----------------------------------------------------------------------===//

/// Values per OCP MX block, which share one E8M0 scale (OCP MX v1.0, 5.2).
constexpr int64_t kMxBlockSize = 32;

/// How the scales are found (TensorCast's scale specs).
enum class Scaling : uint8_t {
  None,    ///< unscaled cast (float formats only)
  Tensor,  ///< one scale for the tensor
  Channel, ///< one scale per slice: the tile spans the whole `axis`
  Tile,    ///< 1-D tiles of `tile` elements along `axis`
  Matrix,  ///< 2-D tiles: `tile` along `axis`, `tile2` along `axis2`
  MX,      ///< OCP MX: blocks of kMxBlockSize along `axis`, E8M0 scales
};

enum class CastMode : uint8_t { Virtual, Actual, Compressed };

/// A codebook (TensorCast's Codebook, ROCm/tensorcast docs/codebook.md):
/// each data value is an `indexBits`-bit index into one of 2^metaBits lookup
/// tables ("mappings") of 2^indexBits values of a compute format, the table
/// chosen per tile or per subtile by the meta companion. The values are
/// scaled like the compute format's own (QuantSpec::format).
struct Codebook {
  /// The string code, `cb<index_bits><meta_bits>[<desc>]_<cspec>[_<label>]`.
  std::string code;
  unsigned indexBits = 4;
  unsigned metaBits = 0;
  /// 2^metaBits mappings of 2^indexBits values each, row-major: index k of
  /// mapping m is `mappings[m << indexBits | k]`. Empty for a generic
  /// codebook until its mappings are given.
  std::vector<double> mappings;

  int64_t numMappings() const { return int64_t{1} << metaBits; }
  int64_t numEntries() const { return int64_t{1} << indexBits; }
};

/// Parses a codebook code. `desc` clauses build an implicit codebook's
/// mappings from the compute type's number line (f: the fp<index_bits>
/// pattern, i: the int<index_bits> pattern, each with position offsets and
/// an `e` exponent offset; p<interval>: progressive; s<interval>: static
/// interval); without a desc the codebook is generic and needs
/// setMappings. Returns the codebook and its compute format.
llvm::Expected<std::pair<Codebook, Format>> parseCodebook(llvm::StringRef code);
/// Gives a generic codebook its mappings: 2^metaBits * 2^indexBits values,
/// each exactly representable in `compute`.
llvm::Error setMappings(Codebook &codebook, Format compute,
                        llvm::ArrayRef<double> values);

/// The data type of the scales.
enum class ScaleType : uint8_t { Float32, Float16, BFloat16, E4M3FN, E8M0 };

struct QuantSpec {
  Format format = Format::E4M3FN;
  Scaling scaling = Scaling::Tile;
  CastMode mode = CastMode::Compressed;
  /// The scaled (and packed, and sparse) dim; negative counts from the end.
  int64_t axis = -1;
  int64_t tile = 32;
  /// Matrix tiles only.
  int64_t axis2 = -2;
  int64_t tile2 = 32;
  /// Defaults to E8M0 for MX, Float32 otherwise.
  std::optional<ScaleType> scaleType;
  /// A tensor scale (`tenscale`) combined with the tile scales.
  bool multiscale = false;
  /// Asymmetric integers: a zero point per scale.
  bool zeroPoint = false;
  /// Float zero points (the seed's "float or int zero point offset"): each
  /// stored as a float of this type (float32, float16 or bfloat16), one per
  /// scale and never packed, and not rounded to an integer, as GPTQ/AWQ
  /// style int4 weights and IREE's `(uitofp(q) - zp) * s` carry them.
  /// Unset: integer zero points, codes of the data's own format.
  std::optional<ScaleType> zeroType;
  /// Structured 1-D sparsity along `axis`: 0 (dense), 25 or 50 percent of
  /// each group of `sparseGroup` consecutive values pruned.
  unsigned sparsityPercent = 0;
  int64_t sparseGroup = 4;
  /// Codebook data: indices into `codebook`'s mappings of values of
  /// `format` (its compute type), with a meta companion selecting the
  /// mapping per tile, or per `subtile` values along `axis` when non-zero.
  std::optional<Codebook> codebook;
  int64_t subtile = 0;
  /// Values beyond the format's range saturate (OCP MX's conversion, the
  /// default) or, for float formats with NaN or infinities, overflow to
  /// them as a cast does (MLIR's `scaling_truncf` to fp8: fake quantization
  /// written with it keeps its NaNs).
  bool saturate = true;
};

llvm::StringRef stringifyScaling(Scaling scaling);
std::optional<Scaling> parseScaling(llvm::StringRef name);
llvm::StringRef stringifyCastMode(CastMode mode);
std::optional<CastMode> parseCastMode(llvm::StringRef name);
llvm::StringRef stringifyScaleType(ScaleType type);
std::optional<ScaleType> parseScaleType(llvm::StringRef name);

/// One companion tensor's shape and dtype, uncompressed and compressed.
/// dtypes are torch spellings ("float32", "uint8", "bool",
/// "float8_e4m3fn"); `storage` is the numpy dtype a host buffer holds them in.
struct Companion {
  bool present = false;
  llvm::SmallVector<int64_t> shape;
  std::string dtype;
  llvm::SmallVector<int64_t> compressedShape;
  std::string compressedDtype;
};

struct QuantShapes {
  Companion data, scale, zero, tenscale, meta, mask;
  /// Every companion with its name, in the order the parts are stored and
  /// passed (data, scale, zero, tenscale, meta, mask), present or not.
  std::array<std::pair<llvm::StringRef, const Companion *>, 6>
  companions() const {
    return {{{"data", &data},
             {"scale", &scale},
             {"zero", &zero},
             {"tenscale", &tenscale},
             {"meta", &meta},
             {"mask", &mask}}};
  }
  /// The spec with defaults and negative axes resolved.
  QuantSpec spec;
  /// Per dim: how many data elements one scale covers (the dim's size when
  /// the whole dim shares it, 1 when unscaled along it).
  llvm::SmallVector<int64_t> tileShape;
  /// Bytes of the compressed data, scale, zero, tenscale and mask together
  /// and per data value, in bits.
  int64_t compressedBytes = 0;
  double bitsPerValue = 0;
};

/// Checks `spec` against a tensor of `shape` and derives every companion's
/// shapes: the scale's is the data's with each scaled dim divided (ceil) by
/// its tile; compressed, 4-bit values pack 2 per byte and 2-bit values 4 per
/// byte along `axis` (only `axis` for matrix tiles), pruned values are
/// omitted, the mask packs 8 per byte along `axis`.
llvm::Expected<QuantShapes> computeShapes(llvm::ArrayRef<int64_t> shape,
                                          const QuantSpec &spec);

/// A host buffer: row-major elements of `shape` in the numpy dtype `storage`
/// (float32, float16, uint16 for bfloat16 bits, uint8, int8, bool).
struct Buffer {
  llvm::SmallVector<int64_t> shape;
  std::string dtype;   ///< what the elements mean (torch spelling)
  std::string storage; ///< numpy dtype of `bytes`
  std::vector<uint8_t> bytes;
};

struct QuantizedTensor {
  QuantShapes shapes;
  llvm::SmallVector<int64_t> shape;
  Buffer data;
  std::optional<Buffer> scale, zero, tenscale, meta, mask;

  /// The parts present, in spyre.quantize's result order (data, scale,
  /// zero, tenscale, meta, mask); without the ones GivenScales holds when
  /// the scales were given.
  llvm::SmallVector<const Buffer *> storedParts(bool scalesGiven) const {
    llvm::SmallVector<const Buffer *> parts = {&data};
    for (const std::optional<Buffer> *part :
         {&scale, &zero, &tenscale, &meta, &mask})
      if (*part && (!scalesGiven || part == &meta || part == &mask))
        parts.push_back(&**part);
    return parts;
  }
};

/// The numpy dtype a host buffer holds elements of `dtype` (a torch
/// spelling) in: float32, float16, int8 and bool as themselves, bfloat16 as
/// uint16 bits, every other one-byte type as uint8.
llvm::StringRef storageDtype(llvm::StringRef dtype);

/// Scales a program chose itself (PyTorch's `quantize_per_tensor` takes its
/// scale and zero point; MLIR's `arith.scaling_truncf` its E8M0 scales): the
/// scale, zero and tenscale companions the scheme has, stored as `quantize`
/// stores them (zero points packed in compressed mode).
struct GivenScales {
  std::optional<Buffer> scale, zero, tenscale;

  /// The companion named `name` ("scale", "zero" or "tenscale"; null for
  /// the others, which a program cannot give).
  std::optional<Buffer> *slot(llvm::StringRef name) {
    return name == "scale"      ? &scale
           : name == "zero"     ? &zero
           : name == "tenscale" ? &tenscale
                                : nullptr;
  }
  static bool holds(llvm::StringRef name) {
    return GivenScales().slot(name) != nullptr;
  }
};

/// Quantizes a row-major float32 tensor of `shape`. With `given`, the scales
/// are not found but read from it, and each value's quotient by its scale is
/// rounded to float32 before it is rounded to the format (as a program that
/// divides in f32 and then rounds does); sparsity and codebook meta are still
/// chosen from the values.
llvm::Expected<QuantizedTensor> quantize(llvm::ArrayRef<float> values,
                                         llvm::ArrayRef<int64_t> shape,
                                         const QuantSpec &spec,
                                         const GivenScales *given = nullptr);

/// The float32 values a quantized tensor stands for, read back from its
/// stored buffers (unpacked, pruned zeros reinstated, scales applied).
llvm::Expected<std::vector<float>> dequantize(const QuantizedTensor &tensor);

/// How the companions line up on `stickBytes`-byte sticks along the packed
/// dim: data values per stick and scales per stick (e.g. 256 MXFP4 values
/// and 8 scales on a 128-byte stick). Fails when a stick would hold a
/// partial scale tile.
struct StickFit {
  int64_t valuesPerStick;
  int64_t scalesPerStick;
};
llvm::Expected<StickFit> fitOnSticks(const QuantShapes &shapes,
                                     int64_t stickBytes);

} // namespace mlir::spyre::quant

#endif // SPYRE_QUANT_QUANT_H
