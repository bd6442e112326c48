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

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* mlirGetDialectHandle__spyre__() */
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Spyre, spyre);

/* Registers the spyre dialect and the dialects its passes use. */
MLIR_CAPI_EXPORTED void mlirSpyreRegisterDialects(MlirDialectRegistry registry);

/* Registers everything spyre-opt, spyre-run and Python accept: every upstream
 * dialect and extension (so torch-mlir or StableHLO output parses), spyre's,
 * and what the reference lowering needs. */
MLIR_CAPI_EXPORTED void
mlirSpyreRegisterToolDialects(MlirDialectRegistry registry);

/* Registers every spyre pass and pipeline with the global pass registry, so
 * mlirParsePassPipeline understands them. */
MLIR_CAPI_EXPORTED void mlirSpyreRegisterAllPasses(void);

/* Whether `attr` is a #spyre.layout (false for a null attribute). */
MLIR_CAPI_EXPORTED bool mlirAttributeIsASpyreLayout(MlirAttribute attr);

/* The value the layout queries return for a null attribute, an attribute
 * that is not a #spyre.layout, or a position outside [0, device rank). It is
 * never a device size or a stride_map entry (those are >= -1). */
#define MLIR_SPYRE_INVALID_QUERY INT64_MIN

/* Device rank of a #spyre.layout; -1 for a null or other attribute. */
MLIR_CAPI_EXPORTED intptr_t
mlirSpyreLayoutAttrGetDeviceRank(MlirAttribute attr);
/* device_size[pos] and stride_map[pos] of a #spyre.layout, or
 * MLIR_SPYRE_INVALID_QUERY. */
MLIR_CAPI_EXPORTED int64_t mlirSpyreLayoutAttrGetDeviceSize(MlirAttribute attr,
                                                            intptr_t pos);
MLIR_CAPI_EXPORTED int64_t mlirSpyreLayoutAttrGetStrideMap(MlirAttribute attr,
                                                           intptr_t pos);

/* The reference stack's default layout of a ranked tensor type, or a null
 * attribute if the type is null or cannot have one (not a ranked tensor,
 * dynamic shape, unsupported element type). */
MLIR_CAPI_EXPORTED MlirAttribute
mlirSpyreLayoutAttrGetDefault(MlirType tensorType);

/* The emitters of spyre-translate, on a module in kernel form (what
 * --spyre-pipeline produces): the SuperDSC document ({"bundles": [...],
 * "sdscs": {...}}), the bundles (a JSON object: file name -> bundle.mlir
 * text, one per bundle) and the DCI descriptors (a JSON array), written through
 * `callback`. Failure, with diagnostics on the module's context, when the
 * module is null or not in kernel form. */
MLIR_CAPI_EXPORTED MlirLogicalResult mlirSpyreEmitSuperDsc(
    MlirOperation module, MlirStringCallback callback, void *userData);
MLIR_CAPI_EXPORTED MlirLogicalResult mlirSpyreEmitBundle(
    MlirOperation module, MlirStringCallback callback, void *userData);
MLIR_CAPI_EXPORTED MlirLogicalResult mlirSpyreEmitDci(
    MlirOperation module, MlirStringCallback callback, void *userData);

#ifdef __cplusplus
}
#endif

#include "Spyre/Transforms/Passes.capi.h.inc"

#endif /* SPYRE_C_DIALECTS_H */
