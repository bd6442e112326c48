// RUN: spyre-translate --spyre-to-superdsc %s -split-input-file -verify-diagnostics
// RUN: spyre-translate --spyre-to-dci %s -split-input-file -verify-diagnostics
// RUN: spyre-translate --spyre-to-superdsc %S/Inputs/empty.mlir | FileCheck %s --check-prefix=EMPTY-SDSC
// RUN: spyre-translate --spyre-to-dci %S/Inputs/empty.mlir | FileCheck %s --check-prefix=EMPTY-DCI

// Emission needs the kernel form. A program that was never compiled (plain
// linalg, or --spyre-convert-linalg output on host tensors) is an error with
// a location, not a silently empty bundle, and does not need the spyre
// dialect to be mentioned to be diagnosed.

// expected-error @+1 {{@add is not in kernel form (it holds 'tensor.empty'); compile it with spyre-opt --spyre-pipeline first}}
func.func @add(%a: tensor<4x64xf16>, %b: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %e = tensor.empty() : tensor<4x64xf16>
  %0 = linalg.add ins(%a, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  return %0 : tensor<4x64xf16>
}

// -----

func.func @converted(%a: tensor<4x64xf16>, %b: tensor<4x64xf16>) -> tensor<4x64xf16> {
  // expected-error @+1 {{'spyre.add' op is not in kernel form; run --spyre-lower-to-kernels (or --spyre-pipeline) first}}
  %0 = spyre.add %a, %b : (tensor<4x64xf16>, tensor<4x64xf16>) -> tensor<4x64xf16>
  return %0 : tensor<4x64xf16>
}

// -----

// A host function next to nothing compiled: the first function with work is
// named.
func.func private @external(tensor<4xf32>) -> tensor<4xf32>

// expected-error @+1 {{@host is not in kernel form}}
func.func @host(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = func.call @external(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// An empty module (the file Inputs/empty.mlir, which never mentions the
// spyre dialect) has nothing to emit: an empty bundle, no DCIs.
// EMPTY-SDSC: "bundles": []
// EMPTY-SDSC: "sdscs": {}
// EMPTY-DCI: []

// -----

// One function compiled and one not: the second is an error, not dropped.
!t = tensor<64x128xf16, #spyre.layout<device_size = [2, 64, 64], stride_map = [64, 128, 1]>>
func.func @compiled(%a: !t) -> !t {
  return %a : !t
}
// expected-error @+1 {{@plain is not in kernel form (it holds 'tensor.empty'); compile it with spyre-opt --spyre-pipeline first}}
func.func @plain(%a: tensor<64x128xf16>) -> tensor<64x128xf16> {
  %e = tensor.empty() : tensor<64x128xf16>
  %r = linalg.exp ins(%a : tensor<64x128xf16>) outs(%e : tensor<64x128xf16>) -> tensor<64x128xf16>
  return %r : tensor<64x128xf16>
}
