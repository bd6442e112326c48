//===- Npy.h - Read and write NumPy .npy files ------------------*- C++ -*-===//
//
// The NumPy .npy format (what `np.save` writes and `np.load` reads, format
// versions 1.0, 2.0 and 3.0) for the host tensors spyre-run reads with
// `--input=@x.npy` and writes with `--output=@out.npy`. Element bytes are
// copied as they are, never converted; only bool bytes are normalized to 0/1.
//
// Supported dtypes: '<f2' (float16), '<f4' (float32), '|b1' (bool), '|i1'
// (int8), '<i4' (int32), '<i8' (int64). A little-endian ('<') or
// not-applicable ('|') byte order is accepted for each; any byte order for the
// one-byte types. Big-endian multi-byte dtypes and fortran_order=True are
// reported as unsupported. bfloat16, the fp8 types and int4 have no numpy
// dtype and cannot be written.
//
//===----------------------------------------------------------------------===//

#ifndef SPYRE_SIM_NPY_H
#define SPYRE_SIM_NPY_H

#include "Spyre/Sim/HostTensor.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace mlir::spyre::sim {

/// The host type of a numpy dtype descriptor: the ones `npyDescr` returns,
/// spelled with '<' or '|' (e.g. "<i1", "|f4"), and the one-byte types with
/// any byte order (">b1"). std::nullopt for anything else, including
/// big-endian multi-byte descriptors (">f4").
std::optional<HostType> hostTypeForNpyDescr(llvm::StringRef descr);

/// Parses the bytes of a .npy file. `name` (e.g. the file path) starts every
/// error message: "<name>: bad magic ...", "<name>: truncated header
/// (expected N bytes, got M)", "<name>: truncated data (expected N bytes, got
/// M)", "<name>: unsupported dtype '<c8' ...", "<name>: malformed header dict:
/// ...", "<name>: big-endian dtype '>f4' is not supported ...",
/// "<name>: fortran_order=True is not supported ...". Bytes after the data are
/// an error too.
llvm::Expected<HostTensor> parseNpy(llvm::ArrayRef<uint8_t> bytes,
                                    llvm::StringRef name);

/// Reads and parses the .npy file at `path`; "cannot read <path>: <reason>"
/// if the file cannot be read.
llvm::Expected<HostTensor> readNpy(llvm::StringRef path);

/// Serializes `tensor` byte for byte as NumPy 1.24 `np.save` does: format
/// version 1.0 (2.0 only for a header too long for 1.0), keys sorted, spare
/// room for growing the first axis, header padded to a 64-byte boundary.
/// Fails with "<type> has no .npy dtype" for bfloat16, fp8 and int4, and if
/// the data size does not match the shape.
llvm::Expected<std::vector<uint8_t>> serializeNpy(const HostTensor &tensor);

/// Serializes `tensor` to the file at `path` (created or truncated); errors
/// read "cannot write <path>: <reason>". Nothing is written if the tensor
/// cannot be serialized.
llvm::Error writeNpy(llvm::StringRef path, const HostTensor &tensor);

} // namespace mlir::spyre::sim

#endif // SPYRE_SIM_NPY_H
