/*===- Dialects.h - C API of spyre-mlir ---------------------------*- C -*-===*\
|*                                                                            *|
|* The spyre dialect, its layout attribute and its passes for C clients and   *|
|* language bindings. Link libSpyreCAPI.so, which also carries MLIR's core C  *|
|* API (mlirContextCreate, mlirOperationCreateParse, the pass manager, ...).  *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef SPYRE_C_DIALECTS_H
#define SPYRE_C_DIALECTS_H

#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"

#ifdef __cplusplus
extern "C" {
#endif

/* mlirGetDialectHandle__spyre__() */
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Spyre, spyre);

/* Registers the spyre dialect and the dialects its passes use. */
MLIR_CAPI_EXPORTED void mlirSpyreRegisterDialects(MlirDialectRegistry registry);

/* Registers every spyre pass and pipeline with the global pass registry, so
 * mlirParsePassPipeline understands them. */
MLIR_CAPI_EXPORTED void mlirSpyreRegisterAllPasses(void);

/* Whether `attr` is a #spyre.layout. */
MLIR_CAPI_EXPORTED bool mlirAttributeIsASpyreLayout(MlirAttribute attr);

/* Device rank, device_size and stride_map entries of a #spyre.layout. */
MLIR_CAPI_EXPORTED intptr_t mlirSpyreLayoutAttrGetDeviceRank(MlirAttribute attr);
MLIR_CAPI_EXPORTED int64_t mlirSpyreLayoutAttrGetDeviceSize(MlirAttribute attr,
                                                            intptr_t pos);
MLIR_CAPI_EXPORTED int64_t mlirSpyreLayoutAttrGetStrideMap(MlirAttribute attr,
                                                           intptr_t pos);

/* The reference stack's default layout of a ranked tensor type, or a null
 * attribute if the type cannot have one (dynamic shape, unsupported element
 * type). */
MLIR_CAPI_EXPORTED MlirAttribute
mlirSpyreLayoutAttrGetDefault(MlirType tensorType);

#ifdef __cplusplus
}
#endif

#include "Spyre/Transforms/Passes.capi.h.inc"

#endif /* SPYRE_C_DIALECTS_H */
