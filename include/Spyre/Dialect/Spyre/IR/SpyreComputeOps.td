//===- SpyreComputeOps.td - spyre compute operations -------*- tablegen -*-===//
//
// The reference op set (spyre_facts.md section 6). Every op implements
// ComputeOpInterface; ops of one class share their C++ (indexing maps, stick
// rule, verification) through the class's extraClassDeclaration, so adding an
// op is one `def` here plus its semantics where numbers are computed.
//
//===----------------------------------------------------------------------===//

#ifndef SPYRE_DIALECT_SPYRE_IR_SPYRECOMPUTEOPS_TD
#define SPYRE_DIALECT_SPYRE_IR_SPYRECOMPUTEOPS_TD

include "Spyre/Dialect/Spyre/IR/SpyreBase.td"
include "Spyre/Dialect/Spyre/IR/SpyreInterfaces.td"
include "mlir/IR/CommonAttrConstraints.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

class Spyre_ComputeOp<string mnemonic, string opFunc, list<Trait> traits = []>
    : Spyre_Op<mnemonic, !listconcat(traits, [Pure,
                                              Spyre_ComputeOpInterface])> {
  string spyreOpFunc = opFunc;
}

//===----------------------------------------------------------------------===//
// Pointwise
//===----------------------------------------------------------------------===//

class Spyre_PointwiseOp<string mnemonic, string opFunc, int numInputs,
                        string elementRule = "Same", list<Trait> traits = []>
    : Spyre_ComputeOp<mnemonic, opFunc, traits> {
  let description = [{
    Elementwise `}] # opFunc # [{` on the SFP. The operation dims are the
    result's dims. Inputs of the result's rank default to the identity map;
    rank-0 inputs are scalars; other inputs need explicit `indexing_maps`
    (one per input, then the result), e.g. a bias broadcast along rows:
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
  int spyreNumInputs = numInputs;
  let extraClassDeclaration = [{
    static constexpr unsigned kNumInputs = }] # numInputs # [{;
    ::llvm::StringRef getOpFuncName() { return "}] # opFunc # [{"; }
    ::mlir::spyre::StickRule getStickRule() {
      return ::mlir::spyre::StickRule::Pointwise;
    }
    ::llvm::SmallVector<::mlir::AffineMap> getIndexingMapsArray() {
      return ::mlir::spyre::detail::getPointwiseIndexingMaps(
          getOperation(), getIndexingMapsAttr());
    }
  }];
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::verify() {
      return ::mlir::spyre::detail::verifyPointwiseOp(
          getOperation(), kNumInputs,
          ::mlir::spyre::ElementRule::}] # elementRule # [{);
    }
  }];
}

class Spyre_UnaryOp<string mnemonic, string opFunc>
    : Spyre_PointwiseOp<mnemonic, opFunc, 1>;
class Spyre_BinaryOp<string mnemonic, string opFunc>
    : Spyre_PointwiseOp<mnemonic, opFunc, 2>;
class Spyre_CompareOp<string mnemonic, string opFunc>
    : Spyre_PointwiseOp<mnemonic, opFunc, 2, "Compare">;

def Spyre_AbsOp : Spyre_UnaryOp<"abs", "abs">;
def Spyre_NegOp : Spyre_UnaryOp<"neg", "neg">;
def Spyre_ExpOp : Spyre_UnaryOp<"exp", "exp">;
def Spyre_LogOp : Spyre_UnaryOp<"log", "log">;
def Spyre_SqrtOp : Spyre_UnaryOp<"sqrt", "sqrt">;
def Spyre_RsqrtOp : Spyre_UnaryOp<"rsqrt", "rsqrt">;
def Spyre_ReciprocalOp : Spyre_UnaryOp<"reciprocal", "reciprocal">;
def Spyre_ReluOp : Spyre_UnaryOp<"relu", "relufwd">;
def Spyre_GeluOp : Spyre_UnaryOp<"gelu", "gelufwd">;
def Spyre_SiluOp : Spyre_UnaryOp<"silu", "silu">;
def Spyre_SigmoidOp : Spyre_UnaryOp<"sigmoid", "sigmoid">;
def Spyre_TanhOp : Spyre_UnaryOp<"tanh", "tanh">;
def Spyre_SoftplusOp : Spyre_UnaryOp<"softplus", "softplus">;
def Spyre_FloorOp : Spyre_UnaryOp<"floor", "floor">;
def Spyre_IdentityOp : Spyre_UnaryOp<"identity", "identity">;

def Spyre_AddOp : Spyre_BinaryOp<"add", "add">;
def Spyre_SubOp : Spyre_BinaryOp<"sub", "sub">;
def Spyre_MulOp : Spyre_BinaryOp<"mul", "mul">;
def Spyre_DivOp : Spyre_BinaryOp<"div", "realdiv">;
def Spyre_MaximumOp : Spyre_BinaryOp<"maximum", "maximum">;
def Spyre_MinimumOp : Spyre_BinaryOp<"minimum", "minimum">;

def Spyre_EqualOp : Spyre_CompareOp<"equal", "equal">;
def Spyre_NotEqualOp : Spyre_CompareOp<"not_equal", "notequal">;
def Spyre_GreaterThanOp : Spyre_CompareOp<"greater_than", "greaterthan">;
def Spyre_GreaterEqualOp : Spyre_CompareOp<"greater_equal", "greaterequal">;
def Spyre_LessThanOp : Spyre_CompareOp<"less_than", "lesserthan">;
def Spyre_LessEqualOp : Spyre_CompareOp<"less_equal", "lesserequal">;

def Spyre_WhereOp : Spyre_PointwiseOp<"where", "where3", 3, "Select">;

def Spyre_ClipOp : Spyre_ComputeOp<"clip", "clip"> {
  let summary = "Clamp to [min, max] on the SFP";
  let arguments = (ins AnyRankedTensor:$input, F64Attr:$min, F64Attr:$max);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$input `min` `=` $min `max` `=` $max attr-dict `:` "
                       "type($input) `->` type($result)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::llvm::StringRef getOpFuncName() { return "clip"; }
    ::mlir::spyre::StickRule getStickRule() {
      return ::mlir::spyre::StickRule::Pointwise;
    }
    ::llvm::SmallVector<::mlir::AffineMap> getIndexingMapsArray() {
      return ::mlir::spyre::detail::getPointwiseIndexingMaps(getOperation(),
                                                             nullptr);
    }
  }];
}

def Spyre_ConvertOp : Spyre_ComputeOp<"convert", ""> {
  let summary = "Convert between device data formats";
  let description = [{
    f16 -> f32 (`dl16tofp32`), f32 -> f16 (`fp32todl16`), fp8 -> f16
    (`fp8todl16`) and f16 -> fp8 (`qfp8ch`, unit scale) on the SFP.
  }];
  let arguments = (ins AnyRankedTensor:$input);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::llvm::StringRef getOpFuncName();
    ::mlir::spyre::StickRule getStickRule() {
      return ::mlir::spyre::StickRule::Pointwise;
    }
    ::llvm::SmallVector<::mlir::AffineMap> getIndexingMapsArray() {
      return ::mlir::spyre::detail::getPointwiseIndexingMaps(getOperation(),
                                                             nullptr);
    }
  }];
}

//===----------------------------------------------------------------------===//
// Reductions over one dim
//===----------------------------------------------------------------------===//

class Spyre_ReductionOp<string mnemonic, string opFunc>
    : Spyre_ComputeOp<mnemonic, opFunc> {
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
  let extraClassDeclaration = [{
    ::llvm::StringRef getOpFuncName() { return "}] # opFunc # [{"; }
    ::mlir::spyre::StickRule getStickRule() {
      return ::mlir::spyre::StickRule::Reduction;
    }
    ::llvm::SmallVector<::mlir::AffineMap> getIndexingMapsArray() {
      return ::mlir::spyre::detail::getReductionIndexingMaps(getOperation(),
                                                             getDim());
    }
    /// The value padding along the reduced dim must hold.
    double getNeutralValue();
  }];
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::verify() {
      return ::mlir::spyre::detail::verifyReductionOp(getOperation(),
                                                      getDim());
    }
  }];
}

def Spyre_SumOp : Spyre_ReductionOp<"sum", "sum">;
def Spyre_MaxOp : Spyre_ReductionOp<"max", "max">;
def Spyre_MinOp : Spyre_ReductionOp<"min", "min">;
def Spyre_MeanOp : Spyre_ReductionOp<"mean", "mean">;

//===----------------------------------------------------------------------===//
// Matmul
//===----------------------------------------------------------------------===//

class Spyre_MatmulBase<string mnemonic> : Spyre_ComputeOp<mnemonic,
                                                          "batchmatmul"> {
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
}

def Spyre_MatmulOp : Spyre_MatmulBase<"matmul"> {
  let summary = "C[m, n] = sum_k A[m, k] * B[k, n]";
  let extraClassDeclaration = [{
    ::llvm::StringRef getOpFuncName();
    ::mlir::spyre::StickRule getStickRule() {
      return ::mlir::spyre::StickRule::Matmul;
    }
    ::mlir::spyre::ExecutionUnit getExecutionUnit() {
      return ::mlir::spyre::ExecutionUnit::PT;
    }
    ::llvm::SmallVector<::mlir::AffineMap> getIndexingMapsArray() {
      return ::mlir::spyre::detail::getMatmulIndexingMaps(
          getOperation(), getIndexingMapsAttr(), /*batched=*/false);
    }
  }];
}

def Spyre_BatchMatmulOp : Spyre_MatmulBase<"batch_matmul"> {
  let summary = "C[b, m, n] = sum_k A[b, m, k] * B[b, k, n]";
  let extraClassDeclaration = [{
    ::llvm::StringRef getOpFuncName();
    ::mlir::spyre::StickRule getStickRule() {
      return ::mlir::spyre::StickRule::Matmul;
    }
    ::mlir::spyre::ExecutionUnit getExecutionUnit() {
      return ::mlir::spyre::ExecutionUnit::PT;
    }
    ::llvm::SmallVector<::mlir::AffineMap> getIndexingMapsArray() {
      return ::mlir::spyre::detail::getMatmulIndexingMaps(
          getOperation(), getIndexingMapsAttr(), /*batched=*/true);
    }
  }];
}

//===----------------------------------------------------------------------===//
// The layer-norm family
//===----------------------------------------------------------------------===//

def Spyre_Exx2Op : Spyre_ComputeOp<"exx2", "exx2"> {
  let summary = "Row statistics: scale * sum(x) and scale * sum(x * x)";
  let description = [{
    For each row of the innermost dim (of size N), the two values
    `[scale * sum(x), scale * sum(x * x)]` - with `scale = 1/N`, E[x] and
    E[x^2] - in a trailing dim of size 2 (on the device: two values per
    stick, the EXX2 arrangement). Operation dims: the input's dims plus `s`
    (the statistic, size 2); the innermost input dim is reduced.

    Layout rule (norm): the input is sticked on the normalized (innermost)
    dim, the result on the statistic dim.
  }];
  let arguments = (ins AnyRankedTensor:$input, F64Attr:$scale);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$input `scale` `=` $scale attr-dict `:` type($input) "
                       "`->` type($result)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::llvm::StringRef getOpFuncName() { return "exx2"; }
    ::mlir::spyre::StickRule getStickRule() {
      return ::mlir::spyre::StickRule::Norm;
    }
    ::llvm::SmallVector<::mlir::AffineMap> getIndexingMapsArray();
  }];
}

def Spyre_LayerNormScaleOp : Spyre_ComputeOp<"layernormscale",
                                             "layernormscale"> {
  let summary = "(E[x], E[x^2]) -> (mean, 1 / sqrt(E[x^2] - E[x]^2 + eps))";
  let description = [{
    Pointwise over `exx2` statistics (innermost dim of size 2): the first
    value is kept (the mean), the second becomes the reciprocal standard
    deviation.
  }];
  let arguments = (ins AnyRankedTensor:$input, F64Attr:$eps);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$input `eps` `=` $eps attr-dict `:` type($input) "
                       "`->` type($result)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::llvm::StringRef getOpFuncName() { return "layernormscale"; }
    ::mlir::spyre::StickRule getStickRule() {
      return ::mlir::spyre::StickRule::Norm;
    }
    ::llvm::SmallVector<::mlir::AffineMap> getIndexingMapsArray() {
      return ::mlir::spyre::detail::getPointwiseIndexingMaps(getOperation(),
                                                             nullptr);
    }
  }];
}

def Spyre_LayerNormNormOp : Spyre_ComputeOp<"layernormnorm",
                                            "layernormnorm"> {
  let summary = "(x - mean) * rstd * w + b";
  let description = [{
    Normalizes `x` along its innermost dim with the `layernormscale` result
    `stats` (`[..., 0]` the mean, `[..., 1]` the reciprocal standard
    deviation of each row) and applies the weight and bias (both of the
    innermost dim's size). Operation dims: x's dims plus the statistic `s`,
    which the result does not have.

    Layout rule (norm): x, w, b and the result sticked on the normalized
    dim, the statistics on theirs.
  }];
  let arguments = (ins AnyRankedTensor:$input, AnyRankedTensor:$stats,
                       AnyRankedTensor:$weight, AnyRankedTensor:$bias);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$input `,` $stats `,` $weight `,` $bias attr-dict `:` "
                       "functional-type(operands, $result)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::llvm::StringRef getOpFuncName() { return "layernormnorm"; }
    ::mlir::spyre::StickRule getStickRule() {
      return ::mlir::spyre::StickRule::Norm;
    }
    ::llvm::SmallVector<::mlir::AffineMap> getIndexingMapsArray();
  }];
}

#endif // SPYRE_DIALECT_SPYRE_IR_SPYRECOMPUTEOPS_TD
