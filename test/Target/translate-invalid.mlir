// RUN: not spyre-translate --spyre-to-superdsc %s 2>&1 | FileCheck %s --check-prefix=SDSC
// RUN: not spyre-translate --spyre-to-dci %s 2>&1 | FileCheck %s --check-prefix=DCI
// RUN: touch %t.file
// RUN: spyre-opt %S/Inputs/example_a.mlir --spyre-pipeline > %t.kernels.mlir
// RUN: not spyre-translate --spyre-to-superdsc %t.kernels.mlir -o %t.file/ 2>&1 | FileCheck %s --check-prefix=DIR

// Emission needs the kernel form; bad inputs are errors with a location.

// SDSC: translate-invalid.mlir:[[# @LINE + 3]]:8: error: 'spyre.exp' op is not in kernel form; run --spyre-lower-to-kernels (or --spyre-pipeline) first
// DCI: translate-invalid.mlir:[[# @LINE + 1]]:1: error: argument 0 of @not_lowered has no host-visible buffer; run --spyre-plan-memory first
func.func @not_lowered(%a: tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>) -> tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>> {
  %0 = spyre.exp %a : (tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>) -> tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
  return %0 : tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
}

// DIR: error: cannot write into {{.*}}.file/: it is not a directory
