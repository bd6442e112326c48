// RUN: spyre-opt %s --spyre-divide-work --spyre-plan-memory --spyre-lower-to-kernels --spyre-form-bundles \
// RUN:   | spyre-translate --spyre-to-superdsc | FileCheck %s
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: spyre-opt %s --spyre-divide-work --spyre-plan-memory --spyre-lower-to-kernels --spyre-form-bundles \
// RUN:   | spyre-translate --spyre-to-superdsc --spyre-output-dir=%t.dir | FileCheck %s --check-prefix=FILES
// RUN: FileCheck %s --check-prefix=BUNDLE < %t.dir/bundle_0.mlir
// RUN: FileCheck %s --check-prefix=BUNDLE1 < %t.dir/bundle_1.mlir
// RUN: FileCheck %s --check-prefix=FILE1 < %t.dir/sdsc_1.json

// Matmul SuperDSCs with and without a K split (the splits are given as
// hints), then a chain whose intermediate stays in LX.

!A = tensor<256x256xf16, #spyre.layout<device_size = [4, 256, 64], stride_map = [64, 256, 1]>>
!B = tensor<256x512xf16, #spyre.layout<device_size = [8, 256, 64], stride_map = [64, 512, 1]>>
!C = tensor<256x512xf16, #spyre.layout<device_size = [8, 256, 64], stride_map = [64, 512, 1]>>

// FILES: sdsc_0.json
// FILES-NEXT: sdsc_1.json
// FILES-NEXT: sdsc_2.json
// FILES-NEXT: sdsc_3.json
// FILES-NEXT: bundle_0.mlir
// FILES-NEXT: bundle_1.mlir

// One bundle per function here (a bundle never spans functions): each is
// the reference's bundle.mlir, one `@sdsc_bundle` running its SuperDSCs.
// BUNDLE: module {
// BUNDLE-NEXT: func.func @sdsc_bundle() {
// BUNDLE-NEXT: sdscbundle.sdsc_execute () {sdsc_filename="sdsc_0.json"}
// BUNDLE-NEXT: sdscbundle.sdsc_execute () {sdsc_filename="sdsc_1.json"}
// BUNDLE-NEXT: return
// BUNDLE-NEXT: }
// BUNDLE-NEXT: }
// BUNDLE1: module {
// BUNDLE1-NEXT: func.func @sdsc_bundle() {
// BUNDLE1-NEXT: sdscbundle.sdsc_execute () {sdsc_filename="sdsc_2.json"}
// BUNDLE1-NEXT: sdscbundle.sdsc_execute () {sdsc_filename="sdsc_3.json"}
// BUNDLE1-NEXT: return

// FILE1: "1_batchmatmul": {

// No K split: 4 cores on N; the output slices start 2 stick columns
// (2 * 256 sticks, 65536 bytes) apart.
// CHECK-LABEL: "sdsc_0.json": {
// CHECK-NEXT: "0_batchmatmul": {
// CHECK: "coreIdToWkSlice_": {
// CHECK-NEXT: "0": {
// CHECK-NEXT: "in": 0,
// CHECK-NEXT: "mb": 0,
// CHECK-NEXT: "out": 0
// CHECK-NEXT: },
// CHECK-NEXT: "1": {
// CHECK-NEXT: "in": 0,
// CHECK-NEXT: "mb": 0,
// CHECK-NEXT: "out": 1
// CHECK: "exUnit": "pt",
// CHECK: "inputLabeledDs": [
// CHECK-NEXT: "Tensor0-idx0",
// CHECK-NEXT: "Tensor1-idx1"
// CHECK-NEXT: ],
// CHECK: "dsType_": "INPUT",
// CHECK: "dsType_": "KERNEL",
// CHECK: "dsType_": "OUTPUT",
// CHECK: "name_": "allocate-Tensor2_hbm",
// CHECK: "data_": {
// CHECK-NEXT: "[0, 0, 0]": "34359738368",
// CHECK-NEXT: "[1, 0, 0]": "34359803904",
// CHECK: "numWkSlicesPerDim_": {
// CHECK-NEXT: "in": 1,
// CHECK-NEXT: "mb": 1,
// CHECK-NEXT: "out": 4

// K split in 4: k varies fastest in the core id, the four partners share
// the output's address, and A moves one stick column (256 sticks) per k.
// The kernel binds A, B and its own result to segments 0, 1 and 2.
// CHECK-LABEL: "sdsc_1.json": {
// CHECK-NEXT: "1_batchmatmul": {
// CHECK: "coreIdToWkSlice_": {
// CHECK-NEXT: "0": {
// CHECK-NEXT: "in": 0,
// CHECK: "1": {
// CHECK-NEXT: "in": 1,
// CHECK-NEXT: "mb": 0,
// CHECK-NEXT: "out": 0
// CHECK: "4": {
// CHECK-NEXT: "in": 0,
// CHECK-NEXT: "mb": 0,
// CHECK-NEXT: "out": 1
// CHECK: "name_": "allocate-Tensor0_hbm",
// CHECK: "data_": {
// CHECK-NEXT: "[0, 0, 0]": "0",
// CHECK-NEXT: "[1, 0, 0]": "32768",
// The result is the function's second (io 3): the bundle of both matmuls
// binds io 0..3, so it lives in segment 3, at 3 * 16 GiB.
// CHECK: "name_": "allocate-Tensor2_hbm",
// CHECK: "data_": {
// CHECK-NEXT: "[0, 0, 0]": "51539607552",
// CHECK-NEXT: "[1, 0, 0]": "51539607552",
// CHECK-NEXT: "[10, 0, 0]": "51539738624",
// CHECK: "numWkSlicesPerDim_": {
// CHECK-NEXT: "in": 4,
// CHECK-NEXT: "mb": 1,
// CHECK-NEXT: "out": 4
func.func @matmuls(%a: !A, %b: !B) -> (!C, !C) {
  %0 = spyre.matmul %a, %b {spyre.work_division = array<i64: 1, 4, 1>} : !A, !B -> !C
  %1 = spyre.matmul %a, %b {spyre.work_division = array<i64: 1, 4, 4>} : !A, !B -> !C
  return %0, %1 : !C, !C
}

// The exp result never leaves LX: component lx, the same LX address on
// every core, no hbm in its memOrg_.
// CHECK-LABEL: "sdsc_2.json": {
// CHECK-NEXT: "2_exp": {
// CHECK: "labeledDs_": [
// CHECK: "ldsIdx_": 1,
// CHECK-NEXT: "memOrg_": {
// CHECK-NEXT: "lx": {
// CHECK-NEXT: "isPresent": 1
// CHECK-NEXT: }
// CHECK-NEXT: },
// CHECK: "component_": "lx",
// CHECK: "name_": "allocate-Tensor1_lx",
// CHECK: "data_": {
// CHECK-NEXT: "[0, 0, 0]": "[[$ADDR:[0-9]+]]",
// CHECK-NEXT: "[1, 0, 0]": "[[$ADDR]]",
// CHECK-LABEL: "sdsc_3.json": {
// CHECK-NEXT: "3_neg": {
// CHECK: "component_": "lx",
// CHECK: "name_": "allocate-Tensor0_lx",
// CHECK: "[0, 0, 0]": "[[$ADDR]]",
func.func @resident(%a: !C) -> !C {
  %0 = spyre.exp %a : (!C) -> !C
  %1 = spyre.neg %0 : (!C) -> !C
  return %1 : !C
}
