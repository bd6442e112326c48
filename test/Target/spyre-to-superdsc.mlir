// RUN: spyre-opt %s -split-input-file --spyre-pipeline=cores=1 | spyre-translate -split-input-file --spyre-to-superdsc | FileCheck %s --check-prefixes=CHECK,C1
// RUN: spyre-opt %s -split-input-file --spyre-pipeline=cores=2 | spyre-translate -split-input-file --spyre-to-superdsc | FileCheck %s --check-prefixes=CHECK,C2
// RUN: spyre-opt %s -split-input-file --spyre-pipeline=cores=32 | spyre-translate -split-input-file --spyre-to-superdsc | FileCheck %s --check-prefixes=CHECK,C32

// SuperDSC of pointwise ops and reductions from linalg, on 1, 2 and 32
// cores. Keys print sorted (JSON objects are unordered).

// f16 [128, 256] + [128, 256]: the rows are split, each core's slice starts
// 128 bytes (one stick) per row further on.
// CHECK-LABEL: "bundles": [
// CHECK-NEXT: {
// CHECK-NEXT: "file": "bundle_0.mlir",
// CHECK-NEXT: "function": "add",
// CHECK-NEXT: "sdscs": [
// CHECK-NEXT: "sdsc_0.json"
// CHECK-NEXT: ],
// CHECK-NEXT: "segments": [
// CHECK-NEXT: "#spyre.mem<io 0>",
// CHECK-NEXT: "#spyre.mem<io 1>",
// CHECK-NEXT: "#spyre.mem<io 2>"
// CHECK-NEXT: ]
// CHECK: "0_add": {
// CHECK: "coreFoldProp_": {
// C1-NEXT: "factor_": 1,
// C2-NEXT: "factor_": 2,
// C32-NEXT: "factor_": 32,
// CHECK: "coreIdToWkSlice_": {
// CHECK-NEXT: "0": {
// CHECK-NEXT: "mb": 0,
// CHECK-NEXT: "out": 0
// C2: "1": {
// C2-NEXT: "mb": 1,
// C32: "31": {
// C32-NEXT: "mb": 31,
// CHECK: "N_": {
// CHECK-NEXT: "mb_": 128,
// CHECK-NEXT: "name_": "n",
// CHECK-NEXT: "out_": 256
// CHECK: "constantInfo_": "{}",
// CHECK: "coordinateMasking_": {},
// CHECK: "dataStageParam_": {
// CHECK: "el_": {
// C1-NEXT: "mb_": 128,
// C2-NEXT: "mb_": 64,
// C32-NEXT: "mb_": 4,
// CHECK: "scheduleTree_": [
// CHECK: "name_": "allocate-Tensor0_hbm",
// CHECK: "startAddressCoreCorelet_": {
// CHECK: "data_": {
// CHECK-NEXT: "[0, 0, 0]": "0"
// C2-NEXT: "[1, 0, 0]": "8192"
// C32: "[31, 0, 0]": "15872"
// CHECK: "name_": "allocate-Tensor1_hbm",
// CHECK: "[0, 0, 0]": "17179869184"
// CHECK: "numWkSlicesPerDim_": {
// C1-NEXT: "mb": 1,
// C2-NEXT: "mb": 2,
// C32-NEXT: "mb": 32,
// CHECK-NEXT: "out": 1
func.func @add(%a: tensor<128x256xf16>, %b: tensor<128x256xf16>) -> tensor<128x256xf16> {
  %e = tensor.empty() : tensor<128x256xf16>
  %0 = linalg.add ins(%a, %b : tensor<128x256xf16>, tensor<128x256xf16>) outs(%e : tensor<128x256xf16>) -> tensor<128x256xf16>
  return %0 : tensor<128x256xf16>
}

// -----

// An unaligned stick dim (200 of 256): the iteration runs over whole
// sticks; a pointwise op needs no masking. (Within each object the keys
// print sorted: computeOp_ before coordinateMasking_.)
// CHECK-LABEL: "bundles": [
// CHECK: "0_exp": {
// CHECK: "N_": {
// CHECK-NEXT: "mb_": 32,
// CHECK-NEXT: "name_": "n",
// CHECK-NEXT: "out_": 256
// CHECK: "opFuncName": "exp",
// CHECK: "coordinateMasking_": {},
func.func @unaligned(%a: tensor<32x200xf16>) -> tensor<32x200xf16> {
  %e = tensor.empty() : tensor<32x200xf16>
  %0 = linalg.exp ins(%a : tensor<32x200xf16>) outs(%e : tensor<32x200xf16>) -> tensor<32x200xf16>
  return %0 : tensor<32x200xf16>
}

// -----

// A reduction along the (unaligned) stick: a sparse result (scale -2 for
// the reduced stick dim), the padding masked with the sum's neutral 0, and
// the output listed among the inputs.
// CHECK-LABEL: "bundles": [
// CHECK: "0_sum": {
// CHECK: "computeOp_": [
// CHECK: "inputLabeledDs": [
// CHECK-NEXT: "Tensor0-idx0",
// CHECK-NEXT: "Tensor1-idx1"
// CHECK: "opFuncName": "sum",
// CHECK: "outputLabeledDs": [
// CHECK-NEXT: "Tensor1-idx1"
// CHECK: "constantInfo_": {
// CHECK-NEXT: "0": {
// CHECK-NEXT: "dataFormat_": "SEN169_FP16",
// CHECK: "[0, 0, 0]": [
// CHECK-NEXT: 0
// CHECK: "name_": "samv-maskvalue"
// CHECK: "coordinateMasking_": {
// CHECK-NEXT: "out": [
// CHECK-NEXT: [
// CHECK-NEXT: 200,
// CHECK-NEXT: 56
// CHECK: "labeledDs_": [
// CHECK: "dsType_": "OUTPUT",
// CHECK: "scale_": [
// CHECK-NEXT: 1,
// CHECK-NEXT: 1
// CHECK: "dsType_": "OUTPUT",
// CHECK: "scale_": [
// CHECK-NEXT: 1,
// CHECK-NEXT: -2
// CHECK: "maskingConstId_": 0,
// CHECK: "primaryDsInfo_": {
// CHECK-NEXT: "OUTPUT": {
// CHECK-NEXT: "layoutDimOrder_": [
// CHECK-NEXT: "mb",
// CHECK-NEXT: "out"
func.func @rowsum(%x: tensor<128x200xf16>) -> tensor<128xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<128xf16>
  %z = linalg.fill ins(%zero : f16) outs(%e : tensor<128xf16>) -> tensor<128xf16>
  %r = linalg.reduce ins(%x : tensor<128x200xf16>) outs(%z : tensor<128xf16>) dimensions = [1]
    (%in: f16, %acc: f16) {
      %s = arith.addf %in, %acc : f16
      linalg.yield %s : f16
    }
  return %r : tensor<128xf16>
}

// -----

// A reduction over rows keeps the stick: `nonstick`. Its labels follow the
// iteration order, outputs first (Inductor's): the kept column dim is `mb`,
// the reduced row dim `out`; the result lacks `out` (scale -1). Both
// tensors list the rows before the stick (the columns).
// CHECK-LABEL: "bundles": [
// CHECK: "0_maxnonstick": {
// CHECK: "N_": {
// CHECK-NEXT: "mb_": 256,
// CHECK-NEXT: "name_": "n",
// CHECK-NEXT: "out_": 128
// CHECK: "opFuncName": "maxnonstick",
// CHECK: "labeledDs_": [
// CHECK: "scale_": [
// CHECK-NEXT: 1,
// CHECK-NEXT: 1
// CHECK: "scale_": [
// CHECK-NEXT: -1,
// CHECK-NEXT: 1
// CHECK: "primaryDsInfo_": {
// CHECK-NEXT: "OUTPUT": {
// CHECK-NEXT: "layoutDimOrder_": [
// CHECK-NEXT: "out",
// CHECK-NEXT: "mb"
// CHECK: "stickDimOrder_": [
// CHECK-NEXT: "mb"
// CHECK: "name_": "allocate-Tensor1_hbm",
func.func @colmax(%x: tensor<128x256xf16>) -> tensor<256xf16> {
  %ninf = arith.constant 0xFC00 : f16
  %e = tensor.empty() : tensor<256xf16>
  %z = linalg.fill ins(%ninf : f16) outs(%e : tensor<256xf16>) -> tensor<256xf16>
  %r = linalg.reduce ins(%x : tensor<128x256xf16>) outs(%z : tensor<256xf16>) dimensions = [0]
    (%in: f16, %acc: f16) {
      %m = arith.maximumf %in, %acc : f16
      linalg.yield %m : f16
    }
  return %r : tensor<256xf16>
}
