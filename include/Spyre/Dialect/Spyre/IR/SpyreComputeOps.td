//===- SpyreComputeOps.td - spyre compute operations -------*- tablegen -*-===//
//
// The reference op set (spyre_facts.md section 6). Every fact of an op is
// stated here, once, and reaches passes, emitters and the simulator through
// the interfaces of SpyreInterfaces.td:
//
//  - its OpFunc, execution unit, stick rule and indexing maps;
//  - the device formats it computes on (`formats`);
//  - for elementwise ops, its scalar semantics (a C++ expression over the
//    inputs `x[i]` and parameters `p[i]`, in f32) and the linalg body op it
//    is converted from (a C++ predicate over `op`);
//  - for reductions, its combiner, neutral value and scale;
//  - the constants the backend reads.
//
// A new elementwise op is one `def` here: conversion, layout propagation,
// division, emission and simulation pick it up through the interfaces.
//
//===----------------------------------------------------------------------===//

#ifndef SPYRE_DIALECT_SPYRE_IR_SPYRECOMPUTEOPS_TD
#define SPYRE_DIALECT_SPYRE_IR_SPYRECOMPUTEOPS_TD

include "Spyre/Dialect/Spyre/IR/SpyreBase.td"
include "Spyre/Dialect/Spyre/IR/SpyreInterfaces.td"
include "mlir/IR/CommonAttrConstraints.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

/// Device formats besides DL16 the SFP computes on (the reference stack's
/// SPYRE_FP32_OPS run on IEEE_FP32 too).
defvar DL16 = ["SEN169_FP16"];
defvar DL16AndFP32 = ["SEN169_FP16", "IEEE_FP32"];
defvar AllFormats = ["SEN169_FP16", "IEEE_FP32", "IEEE_INT32", "SENINT8",
                     "SEN143_FP8", "SEN152_FP8", "SENINT4"];

/// The facts every kernel payload states, as the interface methods of
/// KernelPayloadOpInterface (and ComputeOpInterface's stick rule).
/// `opFunc` empty: the op defines getOpFuncName itself (in `spyreDecl`).
class Spyre_PayloadFacts<string opFunc, list<string> formats, string unit,
                         bit movement> {
  /// SuperDSC constants: a C++ expression of type
  /// SmallVector<std::pair<std::string, double>>.
  code spyreConstants = "{}";
  /// More declarations of one op.
  code spyreDecl = "";
  code spyreFactsDecl =
      !if(!empty(opFunc), "::llvm::StringRef getOpFuncName();",
          "::llvm::StringRef getOpFuncName() { return \"" # opFunc #
          "\"; }") # [{
    static bool supportsDataFormat(::mlir::spyre::DataFormat format) {
      return }] # !interleave(!foreach(f, formats,
                    "format == ::mlir::spyre::DataFormat::" # f), " || ") # [{;
    }
    ::mlir::spyre::ExecutionUnit getExecutionUnit() {
      return ::mlir::spyre::ExecutionUnit::}] # unit # [{;
    }
    ::llvm::SmallVector<std::pair<std::string, double>>
    getSuperDscConstants() {
      return }] # spyreConstants # [{;
    }
    bool isDataMovement() { return }] # !if(movement, "true", "false") # [{; }
  }];
}

class Spyre_ComputeOp<string mnemonic, string opFunc, list<Trait> traits = [],
                      list<string> formats = DL16, string stickRule =
                      "Pointwise", string unit = "SFP", bit movement = 0>
    : Spyre_Op<mnemonic, !listconcat(traits,
                                     [Pure, Spyre_KernelPayloadOpInterface,
                                      Spyre_ComputeOpInterface])>,
      Spyre_PayloadFacts<opFunc, formats, unit, movement> {
  let extraClassDeclaration = spyreFactsDecl # [{
    ::mlir::spyre::StickRule getStickRule() {
      return ::mlir::spyre::StickRule::}] # stickRule # [{;
    }
  }] # spyreDecl;
}

//===----------------------------------------------------------------------===//
// Pointwise
//===----------------------------------------------------------------------===//

/// `semantics`: the result at one point, a C++ float expression over the
/// inputs `x[0..numInputs)`; `scalarOp`: a C++ predicate over the body op
/// `op` it is converted from ("false": none converts to it one for one).
class Spyre_PointwiseOp<string mnemonic, string opFunc, int numInputs,
                        code semantics, code scalarOp,
                        list<string> formats = DL16,
                        string elementRule = "Same", bit movement = 0>
    : Spyre_ComputeOp<mnemonic, opFunc, [Spyre_ElementwiseOpInterface],
                      formats, "Pointwise", "SFP", movement> {
  let description = [{
    Elementwise `}] # opFunc # [{` on the SFP: `}] # semantics # [{` at every
    point of the result. The operation dims are the result's dims. Inputs of
    the result's rank default to the identity map; rank-0 inputs are
    scalars; other inputs need explicit `indexing_maps` (one per input, then
    the result), e.g. a bias broadcast along rows:
    `indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
    affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>]`.

    Layout rule: every input that has the result's stick dim is sticked on
    it too; inputs broadcast along the stick dim, and scalars, are exempt.
  }];
  let arguments = (ins Variadic<AnyRankedTensor>:$inputs,
                       OptionalAttr<AffineMapArrayAttr>:$indexing_maps);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat =
      "$inputs attr-dict `:` functional-type($inputs, $result)";
  let hasVerifier = 1;
  let spyreDecl = [{
    static constexpr unsigned kNumInputs = }] # numInputs # [{;
    ::llvm::SmallVector<::mlir::AffineMap> getIndexingMapsArray() {
      return ::mlir::spyre::detail::getPointwiseIndexingMaps(
          getOperation(), getIndexingMapsAttr());
    }
    static float evaluate(const float *x, const float *p) {
      return }] # semantics # [{;
    }
    ::mlir::spyre::ScalarSemantics getScalarSemantics() {
      return {&evaluate, {}};
    }
    static bool matchesScalarOp(::mlir::Operation *op);
    static ::mlir::Operation *
    buildElementwise(::mlir::OpBuilder &builder, ::mlir::Location loc,
                     ::mlir::Type resultType, ::mlir::ValueRange inputs,
                     ::mlir::ArrayAttr maps);
  }];
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::verify() {
      return ::mlir::spyre::detail::verifyPointwiseOp(
          getOperation(), kNumInputs,
          ::mlir::spyre::ElementRule::}] # elementRule # [{);
    }
    ::mlir::Operation *$cppClass::buildElementwise(
        ::mlir::OpBuilder &builder, ::mlir::Location loc,
        ::mlir::Type resultType, ::mlir::ValueRange inputs,
        ::mlir::ArrayAttr maps) {
      return $cppClass::create(builder, loc, resultType, inputs, maps)
          .getOperation();
    }
    bool $cppClass::matchesScalarOp(::mlir::Operation *op) {
      return }] # scalarOp # [{;
    }
  }];
}

class Spyre_UnaryOp<string mnemonic, string opFunc, code semantics,
                    code scalarOp, list<string> formats = DL16>
    : Spyre_PointwiseOp<mnemonic, opFunc, 1, semantics, scalarOp, formats>;
class Spyre_BinaryOp<string mnemonic, string opFunc, code semantics,
                     code scalarOp, list<string> formats = DL16>
    : Spyre_PointwiseOp<mnemonic, opFunc, 2, semantics, scalarOp, formats>;
/// Comparisons produce i1 (1.0 / 0.0 on the device). `predicate`: the
/// arith.cmpf predicate with the same NaN semantics as the C++ operator.
class Spyre_CompareOp<string mnemonic, string opFunc, string cppOperator,
                      string predicate>
    : Spyre_PointwiseOp<mnemonic, opFunc, 2,
                        "x[0] " # cppOperator # " x[1] ? 1.0f : 0.0f",
                        "::mlir::spyre::detail::isCmpF(op, "
                        "::mlir::arith::CmpFPredicate::" # predicate # ")",
                        DL16, "Compare">;

/// Body ops by name: `isa<...>(op)`.
class Spyre_Isa<string cppClass> {
  code pred = "::llvm::isa<" # cppClass # ">(op)";
}

def Spyre_AbsOp : Spyre_UnaryOp<"abs", "abs", "std::fabs(x[0])",
    Spyre_Isa<"::mlir::math::AbsFOp">.pred, DL16AndFP32>;
def Spyre_NegOp : Spyre_UnaryOp<"neg", "neg", "-x[0]",
    Spyre_Isa<"::mlir::arith::NegFOp">.pred, DL16AndFP32>;
def Spyre_ExpOp : Spyre_UnaryOp<"exp", "exp", "std::exp(x[0])",
    Spyre_Isa<"::mlir::math::ExpOp">.pred, DL16AndFP32>;
def Spyre_LogOp : Spyre_UnaryOp<"log", "log", "std::log(x[0])",
    Spyre_Isa<"::mlir::math::LogOp">.pred>;
def Spyre_SqrtOp : Spyre_UnaryOp<"sqrt", "sqrt", "std::sqrt(x[0])",
    Spyre_Isa<"::mlir::math::SqrtOp">.pred, DL16AndFP32>;
def Spyre_RsqrtOp : Spyre_UnaryOp<"rsqrt", "rsqrt", "1.0f / std::sqrt(x[0])",
    Spyre_Isa<"::mlir::math::RsqrtOp">.pred, DL16AndFP32>;
def Spyre_ReciprocalOp : Spyre_UnaryOp<"reciprocal", "reciprocal",
    "1.0f / x[0]", "false", DL16AndFP32>;
def Spyre_ReluOp : Spyre_UnaryOp<"relu", "relufwd",
    "::mlir::spyre::detail::relu(x[0])", "false", DL16AndFP32>;
def Spyre_GeluOp : Spyre_UnaryOp<"gelu", "gelufwd",
    "::mlir::spyre::detail::gelu(x[0])", "false">;
def Spyre_SiluOp : Spyre_UnaryOp<"silu", "silu",
    "x[0] * ::mlir::spyre::detail::sigmoid(x[0])", "false">;
def Spyre_SigmoidOp : Spyre_UnaryOp<"sigmoid", "sigmoid",
    "::mlir::spyre::detail::sigmoid(x[0])", "false", DL16AndFP32>;
def Spyre_TanhOp : Spyre_UnaryOp<"tanh", "tanh", "std::tanh(x[0])",
    Spyre_Isa<"::mlir::math::TanhOp">.pred>;
def Spyre_SoftplusOp : Spyre_UnaryOp<"softplus", "softplus",
    "x[0] > 20.0f ? x[0] : std::log1p(std::exp(x[0]))", "false"> {
  let spyreConstants = [{ {{"softplusBeta", 1.0}, {"softplusThresh", 20.0}} }];
}
def Spyre_FloorOp : Spyre_UnaryOp<"floor", "floor", "std::floor(x[0])",
    Spyre_Isa<"::mlir::math::FloorOp">.pred, DL16AndFP32>;
def Spyre_IdentityOp : Spyre_PointwiseOp<"identity", "identity", 1, "x[0]",
    "false", AllFormats, "Same", /*movement=*/1>;

def Spyre_AddOp : Spyre_BinaryOp<"add", "add", "x[0] + x[1]",
    Spyre_Isa<"::mlir::arith::AddFOp">.pred, DL16AndFP32>;
def Spyre_SubOp : Spyre_BinaryOp<"sub", "sub", "x[0] - x[1]",
    Spyre_Isa<"::mlir::arith::SubFOp">.pred, DL16AndFP32>;
def Spyre_MulOp : Spyre_BinaryOp<"mul", "mul", "x[0] * x[1]",
    Spyre_Isa<"::mlir::arith::MulFOp">.pred, DL16AndFP32>;
def Spyre_DivOp : Spyre_BinaryOp<"div", "realdiv", "x[0] / x[1]",
    Spyre_Isa<"::mlir::arith::DivFOp">.pred, DL16AndFP32>;
// IEEE 754-2019 maximum / minimum: NaN if either input is NaN, as
// arith.maximumf / minimumf (maxnumf / minnumf ignore NaN: they stay on the
// host).
def Spyre_MaximumOp : Spyre_BinaryOp<"maximum", "maximum",
    "::mlir::spyre::detail::maximum(x[0], x[1])",
    Spyre_Isa<"::mlir::arith::MaximumFOp">.pred, DL16AndFP32>;
def Spyre_MinimumOp : Spyre_BinaryOp<"minimum", "minimum",
    "::mlir::spyre::detail::minimum(x[0], x[1])",
    Spyre_Isa<"::mlir::arith::MinimumFOp">.pred, DL16AndFP32>;

// Ordered comparisons are false on NaN, as C++'s; `!=` is true on NaN, as
// arith.cmpf une. The other predicates stay on the host.
def Spyre_EqualOp : Spyre_CompareOp<"equal", "equal", "==", "OEQ">;
def Spyre_NotEqualOp : Spyre_CompareOp<"not_equal", "notequal", "!=", "UNE">;
def Spyre_GreaterThanOp : Spyre_CompareOp<"greater_than", "greaterthan", ">",
                                          "OGT">;
def Spyre_GreaterEqualOp : Spyre_CompareOp<"greater_equal", "greaterequal",
                                           ">=", "OGE">;
def Spyre_LessThanOp : Spyre_CompareOp<"less_than", "lesserthan", "<", "OLT">;
def Spyre_LessEqualOp : Spyre_CompareOp<"less_equal", "lesserequal", "<=",
                                        "OLE">;

def Spyre_WhereOp : Spyre_PointwiseOp<"where", "where3", 3,
    "x[0] != 0.0f ? x[1] : x[2]", Spyre_Isa<"::mlir::arith::SelectOp">.pred,
    DL16AndFP32, "Select">;

def Spyre_ClipOp : Spyre_ComputeOp<"clip", "clip",
                                   [Spyre_ElementwiseOpInterface]> {
  let summary = "Clamp to [min, max] on the SFP";
  let arguments = (ins AnyRankedTensor:$input, F64Attr:$min, F64Attr:$max);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$input `min` `=` $min `max` `=` $max attr-dict `:` "
                       "type($input) `->` type($result)";
  let hasVerifier = 1;
  let spyreConstants = [{ {{"clipMin", getMin().convertToDouble()},
                           {"clipMax", getMax().convertToDouble()}} }];
  let spyreDecl = [{
    ::llvm::SmallVector<::mlir::AffineMap> getIndexingMapsArray() {
      return ::mlir::spyre::detail::getPointwiseIndexingMaps(getOperation(),
                                                             nullptr);
    }
    static float evaluate(const float *x, const float *p) {
      return std::min(std::max(x[0], p[0]), p[1]);
    }
    ::mlir::spyre::ScalarSemantics getScalarSemantics() {
      return {&evaluate, {static_cast<float>(getMin().convertToDouble()),
                          static_cast<float>(getMax().convertToDouble())}};
    }
    static bool matchesScalarOp(::mlir::Operation *) { return false; }
    static ::mlir::Operation *buildElementwise(::mlir::OpBuilder &,
        ::mlir::Location, ::mlir::Type, ::mlir::ValueRange,
        ::mlir::ArrayAttr) {
      return nullptr; // the bounds are attributes
    }
  }];
}

def Spyre_ConvertOp : Spyre_ComputeOp<"convert", "",
    [Spyre_ElementwiseOpInterface],
    ["SEN169_FP16", "IEEE_FP32", "SEN143_FP8", "SEN152_FP8"]> {
  let summary = "Convert between device data formats";
  let description = [{
    f16 -> f32 (`dl16tofp32`), f32 -> f16 (`fp32todl16`), fp8 -> f16
    (`fp8todl16`) and f16 -> fp8 (`qfp8ch`, unit scale) on the SFP. bf16 is
    stored as DL16 (its transfer converts it), so it converts like f16, and
    f16 <-> bf16 is a copy (`identity`).

    On the device, `dl16tofp32` writes its f32 lanes in the order the
    hardware produces them (torch-spyre's `DL16_TO_FP32` arrangement): its
    result has element arrangement `dl16_to_fp32`, which the ops reading it
    lane by lane keep, and every other conversion's result is standard.
  }];
  let arguments = (ins AnyRankedTensor:$input);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let spyreDecl = [{
    ::llvm::SmallVector<::mlir::AffineMap> getIndexingMapsArray() {
      return ::mlir::spyre::detail::getPointwiseIndexingMaps(getOperation(),
                                                             nullptr);
    }
    /// The store rounds to the result's format.
    static float evaluate(const float *x, const float *) { return x[0]; }
    ::mlir::spyre::ScalarSemantics getScalarSemantics() {
      return {&evaluate, {}};
    }
    static bool matchesScalarOp(::mlir::Operation *op);
    static ::mlir::Operation *
    buildElementwise(::mlir::OpBuilder &builder, ::mlir::Location loc,
                     ::mlir::Type resultType, ::mlir::ValueRange inputs,
                     ::mlir::ArrayAttr maps);
    /// dl16tofp32 writes the DL16_TO_FP32 order; other conversions the
    /// standard one. The input may be in any order but exx2.
    std::optional<::mlir::spyre::ElementArrangement>
    getRequiredArrangement(unsigned operand);
  }];
}

def Spyre_ExtractSliceOp : Spyre_ComputeOp<"extract_slice", "identity", [],
    AllFormats, "Pointwise", "SFP", /*movement=*/1> {
  let summary = "A box of a tensor (static offsets, unit strides), copied";
  let description = [{
    `result[i] = input[offsets + i]`: the box of the input at `offsets` with
    the result's shape. The kernel reads the box as a view of the input's
    buffer (its per-core start addresses move by the box's offset, and the
    input's device dims longer than the box carry a `backGapCore_` in the
    SuperDSC, as torch-spyre writes views of larger buffers) and copies it
    into the result.

    The box must be a box of device positions: along every dim, the offset
    is a multiple of the elements one position of that dim's outermost
    device dim spans (whole sticks along the stick dim).

    A box at offset 0 whose result has the input's layout is a view: every
    element keeps its device bytes, so no kernel runs and the result reads
    the input's buffer in place (how a matmul reads the first K rows of a
    zero-padded `[K_pad, N]` buffer, as `--spyre-insert-padding` builds it).
    So is a block of rows along one dim whose layout is the input's
    restricted to them, when that dim's device dim comes first (the
    outermost, or after dims of one position): the block's bytes are a
    contiguous range of the input's, starting at the box's first byte,
    which a kernel reading the block adds to its addresses (a row block of
    attention heads, as `--spyre-fuse-row-blocks` cuts them).

    ```mlir
    %q = spyre.extract_slice %qkv offsets = [0, 768]
        : tensor<128x2304xf16> -> tensor<128x768xf16>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$input, DenseI64ArrayAttr:$offsets);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$input `offsets` `=` $offsets attr-dict `:` "
                       "type($input) `->` type($result)";
  let hasVerifier = 1;
  let spyreDecl = [{
    /// A copy: one parallel op dim per result dim.
    ::llvm::SmallVector<::mlir::AffineMap> getIndexingMapsArray() {
      return ::mlir::spyre::detail::getCopyIndexingMaps(getOperation());
    }
    /// The op dims are the box's (the result's) dims, not the input's.
    ::llvm::SmallVector<int64_t> getStaticLoopRanges() {
      return ::llvm::to_vector(getType().getShape());
    }
    /// Whether the box starts on a whole stick when `dim` is the stick dim
    /// (`elemsPerStick` elements per stick).
    bool isStickAligned(unsigned dim, int64_t elemsPerStick) {
      return getOffsets()[dim] % elemsPerStick == 0;
    }
    /// Bytes from the input's first device byte to the box's, when both
    /// sides are laid out and the box is one of device positions.
    ::mlir::FailureOr<int64_t> getWindowBytes();
    /// The one host dim the box cuts (a block of rows along it, every
    /// other dim whole), or nullopt.
    std::optional<unsigned> getCutDim();
    /// Whether the op moves no data: the box starts at the origin and the
    /// result has the input's layout (every element at the same bytes), or
    /// it is a block of rows that lies in one contiguous range of the
    /// input's bytes, or a strided block of rows laid out with the input's
    /// device dims (`getRowBlockType` with `strided`).
    bool isView();
  }];
}

def Spyre_InsertSliceOp : Spyre_ComputeOp<"insert_slice", "identity", [],
    AllFormats, "Pointwise", "SFP", /*movement=*/1> {
  let summary = "A tensor with one box replaced, written in place";
  let description = [{
    `result = dest` with the box at `offsets` (the source's shape) replaced
    by `source`. The kernel copies the source into the box of the
    destination's buffer: the result is that buffer (the destination is not
    read, and no other op may read it afterwards; `--spyre-divide-work`
    copies a destination that is read elsewhere first). The box is written
    as a view, with its start addresses moved to the box's first stick and
    `backGapCore_` on the result, as torch-spyre writes `cat` and
    `constant_pad_nd` into slices of an empty buffer.

    The box must be one of device positions at both ends along every dim,
    except that its end may fall inside a stick when `fill` is given: the
    rest of that stick is then written with `fill`, which the destination
    must already hold there (a pad's value).

    ```mlir
    %buf = spyre.empty : tensor<64x256xf16>
    %0 = spyre.insert_slice %a into %buf offsets = [0, 0]
        : tensor<64x128xf16> into tensor<64x256xf16>
    %1 = spyre.insert_slice %b into %0 offsets = [0, 128]
        : tensor<64x128xf16> into tensor<64x256xf16>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$source, AnyRankedTensor:$dest,
                       DenseI64ArrayAttr:$offsets,
                       OptionalAttr<F64Attr>:$fill);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$source `into` $dest `offsets` `=` $offsets "
                       "attr-dict `:` type($source) `into` type($dest) `->` "
                       "type($result)";
  let hasVerifier = 1;
  let spyreDecl = [{
    /// A copy: one parallel op dim per dim of the box (the source).
    ::llvm::SmallVector<::mlir::AffineMap> getIndexingMapsArray() {
      ::mlir::AffineMap id = ::mlir::AffineMap::getMultiDimIdentityMap(
          getSource().getType().getRank(), getContext());
      return {id, id, id};
    }
    ::llvm::SmallVector<int64_t> getStaticLoopRanges() {
      return ::llvm::to_vector(getSource().getType().getShape());
    }
    /// Whether the box may take its stick on `dim`: it starts on a whole
    /// stick and ends on one, at the end of the dim, or with a `fill`.
    bool isStickAligned(unsigned dim, int64_t elemsPerStick);
    /// Bytes from the destination's first device byte to the box's.
    ::mlir::FailureOr<int64_t> getWindowBytes();
    /// The one host dim the box cuts (a block of rows along it, every
    /// other dim whole), or nullopt.
    std::optional<unsigned> getCutDim();
  }];
}

def Spyre_EmptyOp : Spyre_Op<"empty", [MemoryEffects<[MemAlloc]>]> {
  let summary = "An uninitialized device buffer";
  let description = [{
    A buffer whose elements are all written by `spyre.insert_slice` before
    they are read (a concatenation's result). Never merged with another
    (it allocates), never uploaded.
  }];
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

//===----------------------------------------------------------------------===//
// Reductions over one dim
//===----------------------------------------------------------------------===//

/// `combiner`: Sum, Max or Min; `neutral`: a C++ double expression;
/// `scalarOp`: a predicate over the combiner op of a linalg body.
class Spyre_ReductionOp<string mnemonic, string opFunc, string combiner,
                        code neutral, code scalarOp, code scale = "1.0">
    : Spyre_ComputeOp<mnemonic, opFunc, [Spyre_ReductionOpInterface],
                      DL16AndFP32, "Reduction"> {
  let description = [{
    `}] # opFunc # [{` over input dim `dim` on the SFP; the result drops that
    dim. The operation dims are the input's dims, `dim` a reduction.

    Layout rule: the input's stick dim survives in the result (a "nonstick"
    reduction); a reduction along the stick itself yields a sparse result
    (one value per stick). Padding along the reduced dim is masked with
    `padding_value` (the reduction's neutral element), which
    `--spyre-insert-padding` sets where the reduced dim is padded.
  }];
  let arguments = (ins AnyRankedTensor:$input, I64Attr:$dim,
                       OptionalAttr<F64Attr>:$padding_value);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$input `dim` `=` $dim attr-dict `:` type($input) "
                       "`->` type($result)";
  let hasVerifier = 1;
  let spyreDecl = [{
    ::llvm::SmallVector<::mlir::AffineMap> getIndexingMapsArray() {
      return ::mlir::spyre::detail::getReductionIndexingMaps(getOperation(),
                                                             getDim());
    }
    int64_t getReducedDim() { return getDim(); }
    ::mlir::spyre::CombinerKind getCombinerKind() {
      return ::mlir::spyre::CombinerKind::}] # combiner # [{;
    }
    double getNeutralValue() { return }] # neutral # [{; }
    double getResultScale(int64_t count) { return }] # scale # [{; }
    std::optional<double> getMaskValue() {
      if (auto value = getPaddingValueAttr())
        return value.getValueAsDouble();
      return std::nullopt;
    }
    void setMaskValue(double value) {
      setPaddingValueAttr(::mlir::FloatAttr::get(
          ::mlir::Float64Type::get(getContext()), value));
    }
    static bool matchesCombiner(::mlir::Operation *op);
    static ::mlir::Operation *
    buildReduction(::mlir::OpBuilder &builder, ::mlir::Location loc,
                   ::mlir::Type resultType, ::mlir::Value input, int64_t dim,
                   ::mlir::FloatAttr maskValue);
  }];
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::verify() {
      return ::mlir::spyre::detail::verifyReductionOp(getOperation(),
                                                      getDim());
    }
    ::mlir::Operation *$cppClass::buildReduction(
        ::mlir::OpBuilder &builder, ::mlir::Location loc,
        ::mlir::Type resultType, ::mlir::Value input, int64_t dim,
        ::mlir::FloatAttr maskValue) {
      return $cppClass::create(builder, loc, resultType, input, dim,
                               maskValue)
          .getOperation();
    }
    bool $cppClass::matchesCombiner(::mlir::Operation *op) {
      return }] # scalarOp # [{;
    }
  }];
}

def Spyre_SumOp : Spyre_ReductionOp<"sum", "sum", "Sum", "0.0",
    Spyre_Isa<"::mlir::arith::AddFOp">.pred>;
def Spyre_MaxOp : Spyre_ReductionOp<"max", "max", "Max",
    "-std::numeric_limits<double>::infinity()",
    Spyre_Isa<"::mlir::arith::MaximumFOp">.pred>;
def Spyre_MinOp : Spyre_ReductionOp<"min", "min", "Min",
    "std::numeric_limits<double>::infinity()",
    Spyre_Isa<"::mlir::arith::MinimumFOp">.pred>;
def Spyre_MeanOp : Spyre_ReductionOp<"mean", "mean", "Sum", "0.0", "false",
    "1.0 / static_cast<double>(count)"> {
  let spyreConstants = [{ {{"scaling_factor",
      1.0 / static_cast<double>(getInput().getType().getDimSize(getDim()))}} }];
}

//===----------------------------------------------------------------------===//
// Matmul
//===----------------------------------------------------------------------===//

class Spyre_MatmulBase<string mnemonic, bit batched>
    : Spyre_ComputeOp<mnemonic, "", [],
                      ["SEN169_FP16", "SEN143_FP8", "SEN152_FP8"], "Matmul",
                      "PT"> {
  let description = [{
    C = A @ B on the PT unit (DL16; fp8 operands use `batchmatmulfp8`).
    Operation dims: (m, n, k) for `spyre.matmul`, (b, m, n, k) for
    `spyre.batch_matmul`. Optional `indexing_maps` (A, B, C) express
    transposed or broadcast operands as linalg.matmul does.

    Layout rule: A sticked on k, B and C sticked on n.
  }];
  let arguments = (ins AnyRankedTensor:$lhs, AnyRankedTensor:$rhs,
                       OptionalAttr<AffineMapArrayAttr>:$indexing_maps);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($lhs) `,` "
                       "type($rhs) `->` type($result)";
  let hasVerifier = 1;
  let spyreDecl = [{
    ::llvm::SmallVector<::mlir::AffineMap> getIndexingMapsArray() {
      return ::mlir::spyre::detail::getMatmulIndexingMaps(
          getOperation(), getIndexingMapsAttr(), /*batched=*/}] #
          !if(batched, "true", "false") # [{);
    }
  }];
  let extraClassDefinition = [{
    ::llvm::StringRef $cppClass::getOpFuncName() {
      return ::mlir::spyre::detail::getMatmulOpFunc(getOperation());
    }
    ::llvm::LogicalResult $cppClass::verify() {
      return ::mlir::spyre::detail::verifyMatmul(getOperation(), }] #
          !if(batched, "4", "3") # [{, getIndexingMapsAttr());
    }
  }];
}

def Spyre_MatmulOp : Spyre_MatmulBase<"matmul", 0> {
  let summary = "C[m, n] = sum_k A[m, k] * B[k, n]";
}

def Spyre_BatchMatmulOp : Spyre_MatmulBase<"batch_matmul", 1> {
  let summary = "C[b, m, n] = sum_k A[b, m, k] * B[b, k, n]";
}

def Spyre_ScaledMatmulOp : Spyre_ComputeOp<"scaled_matmul", "", [],
    ["SEN169_FP16", "SENINT8", "SEN143_FP8", "SEN152_FP8", "IEEE_FP32"],
    "ScaledMatmul", "PT"> {
  let summary = "C = A @ B with B quantized: its stored data and scales";
  let description = [{
    `C[m, n] = sum_k A[m, k] * w(n, k)`, where `w` is the weight
    `spyre.dequantize` would read back from `data` and its companions under
    `quant`: the scaled matmul of a weight-only quantized linear layer. A
    and C are DL16 (f16 or bf16); B stays quantized in DDR and in the
    transfers: each core stages its tile's data and scales into LX and
    dequantizes them there before the PT unit multiplies, so the bytes
    moved are the stored ones (4.25 bits a value for MXFP4).

    The weight is stored `[N, K]` (PyTorch's `[out, in]`), quantized along
    K (`axis = -1`): the packing dim, the scaled dim and the stick dim
    coincide, so each stick of data and the scales that belong to it line
    up (a 128-byte stick holds 256 packed fp4 values, covered by 8 MX
    scales). Schemes: `mx` (fp4 `e2m1fn` packed, fp8 `e4m3fn` / `e5m2`,
    `int8` = MXINT8), `tile` and `channel` (`int8`, packed `int4`, or
    `uint4` with zero points; fp8), and TensorCast codebooks (4-bit indices
    into 16-entry mappings, a mapping chosen per tile or subtile by the
    `meta` part; mx, tile or channel scales), compressed or actual mode, no
    sparsity or tensor scale. Operands: A, then B's parts in the order
    `spyre.dequantize` takes them - data, scale, zero (when the scheme has
    zero points), meta (a codebook with more than one mapping). Operation
    dims (m, n, k); the parts are indexed by (n, k floordiv q) with q the
    values a stored element covers along k: 2 for packed 4-bit data, the
    tile for scales (`channel` scales are indexed by n alone), the subtile
    for a codebook's meta bytes in actual mode, and in compressed mode the
    values of the tiles or subtiles whose meta bits one byte packs (so the
    meta must pack whole into bytes: at most 8 bits a tile, or a multiple
    of 8 with `meta_bits` dividing 8).

    This op is not in torch-spyre's op set (its PT unit multiplies DL16
    and fp8): SuperDSC writes it as `scaledbatchmatmul`, and the simulator
    models the dequantization in LX (docs/quantization.md).
  }];
  let arguments = (ins AnyRankedTensor:$lhs,
                       Variadic<AnyRankedTensor>:$parts,
                       Spyre_QuantAttr:$quant);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$lhs `,` $parts attr-dict "
                       "`:` functional-type(operands, results)";
  let hasVerifier = 1;
  let spyreDecl = [{
    ::llvm::SmallVector<::mlir::AffineMap> getIndexingMapsArray();
    /// Op-dim elements one stored data element covers along k.
    int64_t getValuesPerDataElement();
    /// Op-dim elements of k one scale covers: the MX block, the tile, or
    /// all of K (channel and tensor scales).
    int64_t getValuesPerScale();
    /// Op-dim elements of k one byte of a codebook's meta covers; 0 when
    /// its bits do not pack whole into bytes.
    int64_t getValuesPerMetaElement();
    /// B's parts by name; null when the scheme has no such part.
    ::mlir::Value getData() { return getParts().front(); }
    ::mlir::Value getScale();
    ::mlir::Value getZero();
    ::mlir::Value getMeta();
  }];
  let extraClassDefinition = [{
    ::llvm::StringRef $cppClass::getOpFuncName() {
      return "scaledbatchmatmul";
    }
  }];
}

//===----------------------------------------------------------------------===//
// The layer-norm family
//===----------------------------------------------------------------------===//

def Spyre_Exx2Op : Spyre_ComputeOp<"exx2", "exx2", [], DL16AndFP32, "Norm"> {
  let summary = "Row statistics: scale * sum(x) and scale * sum(x * x)";
  let description = [{
    For each row of the innermost dim (of size N), the two statistics
    `scale * sum(x)` and `scale * sum(x * x)` (with `scale = 1/N`: E[x] and
    E[x^2]). The result has the input's shape without its innermost dim and,
    on the device, torch-spyre's per-row layout with the `exx2` element
    arrangement: one synthetic stick per row holding the two statistics in
    its first two lanes. Its elements (what a transfer to the host reads,
    lane 0) are E[x]; E[x^2] rides along in lane 1 for
    `spyre.layernormscale`. Operation dims: the input's dims, the innermost
    reduced.

    Layout rule (norm): the input is sticked on the normalized (innermost)
    dim; the result is per-row (sparse) with arrangement `exx2`.

    When the normalized dim ends inside a stick, `padding_value` (set to 0
    by `--spyre-insert-padding`) masks the rest of that stick, as for
    reductions.

    ```mlir
    %m = spyre.exx2 %x scale = 0.0013020833333333333
        : tensor<128x768xf16> -> tensor<128xf16>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$input, F64Attr:$scale,
                       OptionalAttr<F64Attr>:$padding_value);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$input `scale` `=` $scale attr-dict `:` type($input) "
                       "`->` type($result)";
  let hasVerifier = 1;
  let spyreConstants = [{ {{"exx2scale", getScale().convertToDouble()},
                           {"useZeroMean", 0.0}} }];
  let spyreDecl = [{
    ::llvm::SmallVector<::mlir::AffineMap> getIndexingMapsArray();
    /// The result holds both statistics of a row in its stick.
    std::optional<::mlir::spyre::ElementArrangement>
    getRequiredArrangement(unsigned operand) {
      if (operand == 1)
        return ::mlir::spyre::ElementArrangement::EXX2;
      return std::nullopt;
    }
  }];
}

def Spyre_LayerNormScaleOp : Spyre_ComputeOp<"layernormscale",
    "layernormscale", [], DL16AndFP32, "Pointwise"> {
  let summary = "(E[x], E[x^2]) -> (mean, 1 / sqrt(E[x^2] - E[x]^2 + eps))";
  let description = [{
    Pointwise over the per-row statistics `spyre.exx2` produces: of the two
    values in each row's stick, the first is kept (the mean) and the second
    becomes the reciprocal standard deviation. Input and result have the
    same shape and, on the device, the `exx2` arrangement; the result's
    elements (lane 0) are the means. The backend reads the input's two
    lanes as a reduced stick (`scale_` -2, as torch-spyre writes it).

    ```mlir
    %n = spyre.layernormscale %m eps = 1.0e-05 : tensor<128xf16> -> tensor<128xf16>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$input, F64Attr:$eps);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$input `eps` `=` $eps attr-dict `:` type($input) "
                       "`->` type($result)";
  let hasVerifier = 1;
  let spyreConstants = [{ {{"eps", getEps().convertToDouble()}} }];
  let spyreDecl = [{
    ::llvm::SmallVector<::mlir::AffineMap> getIndexingMapsArray() {
      return ::mlir::spyre::detail::getPointwiseIndexingMaps(getOperation(),
                                                             nullptr);
    }
    /// Statistics in, statistics out.
    std::optional<::mlir::spyre::ElementArrangement>
    getRequiredArrangement(unsigned) {
      return ::mlir::spyre::ElementArrangement::EXX2;
    }
  }];
}

def Spyre_LayerNormNormOp : Spyre_ComputeOp<"layernormnorm", "layernormnorm",
    [], DL16AndFP32, "Norm"> {
  let summary = "(x - mean) * rstd * w + b";
  let description = [{
    Normalizes `x` along its innermost dim, as torch-spyre's `layernormnorm`
    (x, mean, norm_mean, weight, bias): `mean` is the `spyre.exx2` result
    (its first lane, E[x], is the mean), `norm` the `spyre.layernormscale`
    result (its second lane is the reciprocal standard deviation); both have
    x's shape without its innermost dim. Weight and bias have the innermost
    dim's size. Operation dims: x's dims.

    Layout rule (norm): x, weight, bias and the result sticked on the
    normalized dim; `mean` and `norm` per-row with arrangement `exx2`.
  }];
  let arguments = (ins AnyRankedTensor:$input, AnyRankedTensor:$mean,
                       AnyRankedTensor:$norm, AnyRankedTensor:$weight,
                       AnyRankedTensor:$bias);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$input `,` $mean `,` $norm `,` $weight `,` $bias "
                       "attr-dict `:` functional-type(operands, $result)";
  let hasVerifier = 1;
  let spyreDecl = [{
    ::llvm::SmallVector<::mlir::AffineMap> getIndexingMapsArray();
    /// `mean` and `norm` are statistics; the data is in the standard order.
    std::optional<::mlir::spyre::ElementArrangement>
    getRequiredArrangement(unsigned operand) {
      if (operand == 1 || operand == 2)
        return ::mlir::spyre::ElementArrangement::EXX2;
      return ::mlir::spyre::ElementArrangement::Standard;
    }
  }];
}

#endif // SPYRE_DIALECT_SPYRE_IR_SPYRECOMPUTEOPS_TD
