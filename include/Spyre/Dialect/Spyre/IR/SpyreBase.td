//===- SpyreBase.td - The spyre dialect --------------------*- tablegen -*-===//
//
// The `spyre` dialect models accelerators whose memory is organised in sticks
// (128-byte aligned, 128-byte contiguous blocks) and whose tensors live in
// tiled device layouts. Its core is the `#spyre.layout` tensor encoding.
//
//===----------------------------------------------------------------------===//

#ifndef SPYRE_DIALECT_SPYRE_IR_SPYREBASE_TD
#define SPYRE_DIALECT_SPYRE_IR_SPYREBASE_TD

include "mlir/IR/OpBase.td"

def Spyre_Dialect : Dialect {
  let name = "spyre";
  let cppNamespace = "::mlir::spyre";
  let summary = "Tiled, stick-organised tensors for Spyre-like accelerators";
  let description = [{
    The `spyre` dialect describes how tensors are laid out on an accelerator
    whose memory is organised in *sticks* (128 contiguous, 128-byte aligned
    bytes; 64 f16 elements) and whose tensors are stored in tiled, padded,
    row-major device layouts.

    A device layout is the `#spyre.layout` attribute, used as the encoding of
    a ranked tensor type:

    ```mlir
    tensor<5x100x150xf16, #spyre.layout<device_size = [100, 3, 5, 64],
                                        stride_map = [150, 64, 15000, 1]>>
    ```

    `device_size` gives the padded extent of every device dim (the last one is
    the stick); `stride_map` gives, per device dim, the number of host
    elements advanced by a +1 step along it (`-1` for synthetic or size-1
    dims, `0` for broadcast dims), so that
    `host_offset = dot(device_coordinate, stride_map)`.
    A layout is verified against its tensor type wherever the type is built:
    every host element must have exactly one device slot.

    Machine numbers (cores, stick bytes, scratchpad size, bandwidths) come
    from one `#spyre.target` attribute attached to the module as
    `spyre.target`; without one, the reference machine's defaults apply.

    Function arguments and results may carry `spyre.layout` (a
    `#spyre.layout`) or `spyre.dim_order` (an array of host dims, stick last)
    attributes that `--spyre-assign-default-layouts` turns into encodings.
  }];
  let useDefaultAttributePrinterParser = 1;
  let hasConstantMaterializer = 1;
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
  let hasRegionResultAttrVerify = 1;
  let extraClassDeclaration = [{
    void registerAttributes();

    /// Layouts bound to their tensor types (see spyre::bindLayout).
    std::mutex bindCacheMutex;
    ::llvm::DenseMap<::mlir::Type, std::unique_ptr<::mlir::spyre::BoundLayout>>
        bindCache;

    /// Module attribute holding the `#spyre.target`.
    static constexpr ::llvm::StringLiteral kTargetAttrName = "spyre.target";
    /// Function argument/result attribute fixing a `#spyre.layout`.
    static constexpr ::llvm::StringLiteral kLayoutAttrName = "spyre.layout";
    /// Function argument/result attribute asking for a dim_order.
    static constexpr ::llvm::StringLiteral kDimOrderAttrName =
        "spyre.dim_order";
    /// Op attribute: the chosen #spyre.division.
    static constexpr ::llvm::StringLiteral kDivisionAttrName =
        "spyre.division";
    /// Op attribute: the user's splits, one per op dim.
    static constexpr ::llvm::StringLiteral kWorkDivisionAttrName =
        "spyre.work_division";
    /// Op attribute: the per-core tile of every op dim.
    static constexpr ::llvm::StringLiteral kTilesAttrName = "spyre.tiles";
    /// Op attribute (unit), beside spyre.tiles: the inputs keep the tiles
    /// they need across the loops they do not depend on (a matmul's A over
    /// K, kept across the tiles of N) instead of streaming them again.
    static constexpr ::llvm::StringLiteral kKeepInputsAttrName =
        "spyre.keep_inputs";
    /// Op / function argument / result attribute: a #spyre.mem.
    static constexpr ::llvm::StringLiteral kMemAttrName = "spyre.mem";
    /// Function attribute: the function is a host segment of another
    /// (--spyre-outline-host-segments): it runs on the CPU.
    static constexpr ::llvm::StringLiteral kHostSegmentAttrName =
        "spyre.host_segment";
    /// Function attribute: bytes of the DDR intermediate pool.
    static constexpr ::llvm::StringLiteral kPoolBytesAttrName =
        "spyre.pool_bytes";
    /// spyre.kernel attribute: the bundle the kernel runs in
    /// (--spyre-form-bundles); the kernels of one bundle share its segment
    /// binding.
    static constexpr ::llvm::StringLiteral kBundleAttrName = "spyre.bundle";
    /// Op attribute: the row-block fusion group the op belongs to
    /// (--spyre-fuse-row-blocks); the intermediates of a group may stay in
    /// LX whatever op produces them.
    static constexpr ::llvm::StringLiteral kFusionGroupAttrName =
        "spyre.fusion_group";
    /// Op attribute (a string: why): the op stays on the host;
    /// --spyre-convert-linalg leaves it as it is and remarks why. The
    /// drivers set it on ops whose device form no division fits, and
    /// compile again.
    static constexpr ::llvm::StringLiteral kOnHostAttrName = "spyre.on_host";
  }];
}

class Spyre_Op<string mnemonic, list<Trait> traits = []>
    : Op<Spyre_Dialect, mnemonic, traits>;

#endif // SPYRE_DIALECT_SPYRE_IR_SPYREBASE_TD
