/*===- spyre-capi-test.c - Exercise the spyre C API -----------------------===*\
|* Parses a module with the spyre dialect, queries a layout, builds a default *|
|* layout, runs --spyre-assign-default-layouts and the whole --spyre-pipeline *|
|* on the model given as argv[1] through the C pass API, prints and re-parses *|
|* the kernel form and emits SuperDSC, bundle and DCI from it, and checks the *|
|* API's preconditions. The output is checked by spyre-capi.test.             *|
\*===----------------------------------------------------------------------===*/

#include "Spyre-c/Dialects.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void printToStdout(MlirStringRef text, void *userData) {
  (void)userData;
  fwrite(text.data, 1, text.length, stdout);
}

/* A growing string a callback appends to. */
struct Text {
  char *data;
  size_t length;
};

static void appendText(MlirStringRef text, void *userData) {
  struct Text *out = (struct Text *)userData;
  out->data = realloc(out->data, out->length + text.length + 1);
  memcpy(out->data + out->length, text.data, text.length);
  out->length += text.length;
  out->data[out->length] = 0;
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
  // CHECK: default: #spyre.layout<device_size = [4, 1000, 64], stride_map =
  // [64, 200, 1]>
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
  MlirLogicalResult parsed =
      mlirParsePassPipeline(opm,
                            mlirStringRefCreateFromCString(
                                "builtin.module(spyre-assign-default-layouts)"),
                            printToStdout, NULL);
  if (mlirLogicalResultIsFailure(parsed))
    return 3;
  MlirLogicalResult ran =
      mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module));
  if (mlirLogicalResultIsFailure(ran))
    return 4;
  // CHECK: func.func @f(%{{.*}}: tensor<1024x256xf16, #spyre.layout<device_size
  // = [4, 1024, 64], stride_map = [64, 256, 1]>>)
  mlirOperationPrint(mlirModuleGetOperation(module), printToStdout, NULL);
  printf("\n");
  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(module);
  return 0;
}

/* Reads a whole file. */
static char *readFile(const char *path) {
  FILE *file = fopen(path, "rb");
  if (!file)
    return NULL;
  fseek(file, 0, SEEK_END);
  long size = ftell(file);
  fseek(file, 0, SEEK_SET);
  char *text = malloc((size_t)size + 1);
  if (text && fread(text, 1, (size_t)size, file) != (size_t)size) {
    free(text);
    text = NULL;
  }
  if (text)
    text[size] = 0;
  fclose(file);
  return text;
}

/* The whole compiler from C: --spyre-pipeline on a real model, then the
 * kernel form printed, parsed back and given to the emitters. */
static int testPipeline(MlirContext ctx, const char *path) {
  char *source = readFile(path);
  if (!source)
    return 10;
  MlirModule module =
      mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(source));
  free(source);
  if (mlirModuleIsNull(module))
    return 11;
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  MlirOpPassManager opm = mlirPassManagerGetAsOpPassManager(pm);
  if (mlirLogicalResultIsFailure(
          mlirParsePassPipeline(opm,
                                mlirStringRefCreateFromCString(
                                    "builtin.module(spyre-pipeline{cores=4})"),
                                printToStdout, NULL)))
    return 12;
  if (mlirLogicalResultIsFailure(
          mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module))))
    return 13;
  mlirPassManagerDestroy(pm);
  MlirOperation op = mlirModuleGetOperation(module);
  if (!mlirOperationVerify(op))
    return 14;
  // CHECK: pipeline: ok
  printf("pipeline: ok\n");

  // The kernel form prints and parses back through the C API.
  struct Text printed = {NULL, 0};
  mlirOperationPrint(op, appendText, &printed);
  MlirModule reparsed = mlirModuleCreateParse(
      ctx, mlirStringRefCreate(printed.data, printed.length));
  free(printed.data);
  if (mlirModuleIsNull(reparsed))
    return 15;
  // CHECK: reparsed: ok
  printf("reparsed: %s\n",
         mlirOperationVerify(mlirModuleGetOperation(reparsed)) ? "ok" : "bad");

  // CHECK: superdsc: {
  // CHECK-NEXT: "bundles": [
  // CHECK-NEXT: {
  // CHECK-NEXT: "file": "bundle_0.mlir",
  printf("superdsc: ");
  if (mlirLogicalResultIsFailure(mlirSpyreEmitSuperDsc(
          mlirModuleGetOperation(reparsed), printToStdout, NULL)))
    return 16;
  // CHECK: bundle: {
  // CHECK-NEXT: "bundle_0.mlir": "module {\n\tfunc.func @sdsc_bundle()
  // {\n\t\tsdscbundle.sdsc_execute () {sdsc_filename=\"sdsc_0.json\"}
  printf("bundle: ");
  if (mlirLogicalResultIsFailure(mlirSpyreEmitBundle(
          mlirModuleGetOperation(reparsed), printToStdout, NULL)))
    return 17;
  // CHECK: dci: [
  // CHECK: "dci_dsName_": "DCI-Tensor-0"
  printf("dci: ");
  if (mlirLogicalResultIsFailure(mlirSpyreEmitDci(
          mlirModuleGetOperation(reparsed), printToStdout, NULL)))
    return 18;
  mlirModuleDestroy(reparsed);
  mlirModuleDestroy(module);
  return 0;
}

/* Preconditions: null and foreign arguments give the documented values. */
static int testPreconditions(MlirContext ctx) {
  MlirAttribute null = mlirAttributeGetNull();
  MlirAttribute unit = mlirUnitAttrGet(ctx);
  MlirAttribute layout = mlirAttributeParseGet(
      ctx, mlirStringRefCreateFromCString(
               "#spyre.layout<device_size = [4, 1024, 64], "
               "stride_map = [64, 256, 1]>"));
  // CHECK: null: 0 -1 1 1
  printf("null: %d %ld %d %d\n", mlirAttributeIsASpyreLayout(null),
         (long)mlirSpyreLayoutAttrGetDeviceRank(null),
         mlirSpyreLayoutAttrGetDeviceSize(null, 0) == MLIR_SPYRE_INVALID_QUERY,
         mlirSpyreLayoutAttrGetStrideMap(null, 0) == MLIR_SPYRE_INVALID_QUERY);
  // CHECK: foreign: 0 -1 1
  printf("foreign: %d %ld %d\n", mlirAttributeIsASpyreLayout(unit),
         (long)mlirSpyreLayoutAttrGetDeviceRank(unit),
         mlirSpyreLayoutAttrGetDeviceSize(unit, 0) == MLIR_SPYRE_INVALID_QUERY);
  // CHECK: range: 1 1 1 64
  printf(
      "range: %d %d %d %ld\n",
      mlirSpyreLayoutAttrGetDeviceSize(layout, 3) == MLIR_SPYRE_INVALID_QUERY,
      mlirSpyreLayoutAttrGetDeviceSize(layout, -1) == MLIR_SPYRE_INVALID_QUERY,
      mlirSpyreLayoutAttrGetStrideMap(layout, 99) == MLIR_SPYRE_INVALID_QUERY,
      (long)mlirSpyreLayoutAttrGetDeviceSize(layout, 2));
  // CHECK: default of null: null
  printf("default of null: %s\n",
         mlirAttributeIsNull(mlirSpyreLayoutAttrGetDefault((MlirType){NULL}))
             ? "null"
             : "set");
  // CHECK: emit null: failure
  printf("emit null: %s\n", mlirLogicalResultIsFailure(mlirSpyreEmitDci(
                                (MlirOperation){NULL}, printToStdout, NULL))
                                ? "failure"
                                : "success");
  return 0;
}

int main(int argc, char **argv) {
  MlirContext ctx = mlirContextCreate();
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirSpyreRegisterToolDialects(registry);
  mlirContextAppendDialectRegistry(ctx, registry);
  mlirDialectRegistryDestroy(registry);
  mlirDialectHandleLoadDialect(mlirGetDialectHandle__spyre__(), ctx);
  mlirSpyreRegisterAllPasses();

  int status = testLayoutAttribute(ctx);
  if (!status)
    status = testPass(ctx);
  if (!status && argc > 1)
    status = testPipeline(ctx, argv[1]);
  if (!status)
    status = testPreconditions(ctx);
  mlirContextDestroy(ctx);
  if (status)
    fprintf(stderr, "spyre-capi-test failed with status %d\n", status);
  // CHECK: done
  printf("done\n");
  return status;
}
