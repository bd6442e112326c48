// RUN: spyre-translate --spyre-to-superdsc %s -split-input-file -verify-diagnostics
// RUN: spyre-translate --spyre-to-dci %s -split-input-file -verify-diagnostics
// RUN: spyre-translate --spyre-to-superdsc %S/Inputs/empty.mlir | FileCheck %s --check-prefix=EMPTY-SDSC
// RUN: spyre-translate --spyre-to-dci %S/Inputs/empty.mlir | FileCheck %s --check-prefix=EMPTY-DCI

// Emission needs the kernel form. A program that was never compiled (plain
// linalg, or --spyre-convert-linalg output on host tensors) is an error with
// a location, not a silently empty bundle, and does not need the spyre
// dialect to be mentioned to be diagnosed.

// expected-error @+1 {{@add is not in kernel form (it has no spyre.kernel and no device tensors); compile it with spyre-opt --spyre-pipeline first}}
func.func @add(%a: tensor<4x64xf16>, %b: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %e = tensor.empty() : tensor<4x64xf16>
  %0 = linalg.add ins(%a, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  return %0 : tensor<4x64xf16>
}

// -----

// expected-error @+1 {{@converted is not in kernel form (it has no spyre.kernel and no device tensors); compile it with spyre-opt --spyre-pipeline first}}
func.func @converted(%a: tensor<4x64xf16>, %b: tensor<4x64xf16>) -> tensor<4x64xf16> {
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
// EMPTY-SDSC: "bundle": []
// EMPTY-SDSC: "sdscs": {}
// EMPTY-DCI: []
