/*===- spyre-capi-test.c - Exercise the spyre C API -----------------------===*\
|* Parses a module with the spyre dialect, queries a layout, builds a default *|
|* layout, and runs --spyre-assign-default-layouts through the C pass API.    *|
|* The output is checked by spyre-capi.test.                                  *|
\*===----------------------------------------------------------------------===*/

#include "Spyre-c/Dialects.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"

#include <stdio.h>
#include <stdlib.h>

static void printToStdout(MlirStringRef text, void *userData) {
  (void)userData;
  fwrite(text.data, 1, text.length, stdout);
}

static int testLayoutAttribute(MlirContext ctx) {
  MlirAttribute layout = mlirAttributeParseGet(
      ctx, mlirStringRefCreateFromCString(
               "#spyre.layout<device_size = [100, 3, 5, 64], "
               "stride_map = [150, 64, 15000, 1]>"));
  if (mlirAttributeIsNull(layout) || !mlirAttributeIsASpyreLayout(layout))
    return 1;
  // CHECK: device rank 4: 100 3 5 64 / 150 64 15000 1
  printf("device rank %ld:", (long)mlirSpyreLayoutAttrGetDeviceRank(layout));
  for (intptr_t i = 0; i < mlirSpyreLayoutAttrGetDeviceRank(layout); ++i)
    printf(" %ld", (long)mlirSpyreLayoutAttrGetDeviceSize(layout, i));
  printf(" /");
  for (intptr_t i = 0; i < mlirSpyreLayoutAttrGetDeviceRank(layout); ++i)
    printf(" %ld", (long)mlirSpyreLayoutAttrGetStrideMap(layout, i));
  printf("\n");

  int64_t shape[] = {1000, 200};
  MlirType f16 = mlirF16TypeGet(ctx);
  MlirType tensor =
      mlirRankedTensorTypeGet(2, shape, f16, mlirAttributeGetNull());
  MlirAttribute defaultLayout = mlirSpyreLayoutAttrGetDefault(tensor);
  // CHECK: default: #spyre.layout<device_size = [4, 1000, 64], stride_map = [64, 200, 1]>
  printf("default: ");
  mlirAttributePrint(defaultLayout, printToStdout, NULL);
  printf("\n");

  int64_t dynamicShape[] = {-9223372036854775807LL - 1, 4};
  MlirType dynamic =
      mlirRankedTensorTypeGet(2, dynamicShape, f16, mlirAttributeGetNull());
  // CHECK: dynamic: null
  printf("dynamic: %s\n",
         mlirAttributeIsNull(mlirSpyreLayoutAttrGetDefault(dynamic)) ? "null"
                                                                     : "set");
  return 0;
}

static int testPass(MlirContext ctx) {
  const char *source =
      "func.func @f(%a: tensor<1024x256xf16>) -> tensor<1024x256xf16> {\n"
      "  return %a : tensor<1024x256xf16>\n"
      "}\n";
  MlirModule module =
      mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(source));
  if (mlirModuleIsNull(module))
    return 2;
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  MlirOpPassManager opm = mlirPassManagerGetAsOpPassManager(pm);
  MlirLogicalResult parsed = mlirParsePassPipeline(
      opm,
      mlirStringRefCreateFromCString(
          "builtin.module(spyre-assign-default-layouts)"),
      printToStdout, NULL);
  if (mlirLogicalResultIsFailure(parsed))
    return 3;
  MlirLogicalResult ran =
      mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module));
  if (mlirLogicalResultIsFailure(ran))
    return 4;
  // CHECK: func.func @f(%{{.*}}: tensor<1024x256xf16, #spyre.layout<device_size = [4, 1024, 64], stride_map = [64, 256, 1]>>)
  mlirOperationPrint(mlirModuleGetOperation(module), printToStdout, NULL);
  printf("\n");
  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(module);
  return 0;
}

int main(void) {
  MlirContext ctx = mlirContextCreate();
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirSpyreRegisterDialects(registry);
  mlirContextAppendDialectRegistry(ctx, registry);
  mlirDialectRegistryDestroy(registry);
  mlirDialectHandleLoadDialect(mlirGetDialectHandle__spyre__(), ctx);
  mlirContextLoadAllAvailableDialects(ctx);
  mlirSpyreRegisterAllPasses();

  int status = testLayoutAttribute(ctx);
  if (!status)
    status = testPass(ctx);
  mlirContextDestroy(ctx);
  if (status)
    fprintf(stderr, "spyre-capi-test failed with status %d\n", status);
  // CHECK: done
  printf("done\n");
  return status;
}
