// RUN: not spyre-translate --spyre-to-superdsc %s 2>&1 | FileCheck %s --check-prefix=SDSC
// RUN: not spyre-translate --spyre-to-dci %s 2>&1 | FileCheck %s --check-prefix=DCI
// RUN: touch %t.file
// RUN: spyre-opt %S/Inputs/example_a.mlir --spyre-pipeline > %t.kernels.mlir
// RUN: not spyre-translate --spyre-to-superdsc %t.kernels.mlir --spyre-output-dir=%t.file 2>&1 | FileCheck %s --check-prefix=DIR
// RUN: not spyre-translate --spyre-to-superdsc %S/Inputs/host-spyre-op.mlir 2>&1 | FileCheck %s --check-prefix=HOST
// RUN: not spyre-translate --spyre-to-superdsc --spyre-to-dci %t.kernels.mlir 2>&1 | FileCheck %s --check-prefix=BOTH
// RUN: spyre-opt %spyre_src_root/examples/softmax.mlir --spyre-pipeline > %t.softmax.mlir
// RUN: awk '/spyre.bundle = 0/{n++; if(n==2) sub(/spyre.bundle = 0/,"spyre.bundle = 1")} {print}' %t.softmax.mlir \
// RUN:   | not spyre-translate --spyre-to-superdsc 2>&1 | FileCheck %s --check-prefix=SPLIT-BUNDLE
// RUN: awk '/spyre.bundle = 0/{n++; if(n==2) sub(/#spyre.mem<io 1>\]/,"#spyre.mem<io 1>, #spyre.mem<io 2>]")} {print}' %t.softmax.mlir \
// RUN:   | not spyre-translate --spyre-to-superdsc 2>&1 | FileCheck %s --check-prefix=BINDING

// Emission needs the kernel form; bad inputs are errors with a location.

// SDSC: translate-invalid.mlir:[[# @LINE + 3]]:8: error: 'spyre.exp' op is not in kernel form; run --spyre-lower-to-kernels (or --spyre-pipeline) first
// DCI: translate-invalid.mlir:[[# @LINE + 1]]:1: error: argument 0 of @not_lowered has no host-visible buffer; run --spyre-plan-memory first
func.func @not_lowered(%a: tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>) -> tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>> {
  %0 = spyre.exp %a : (tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>) -> tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
  return %0 : tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
}

// DIR: error: cannot write into {{.*}}.file: it is not a directory

// A spyre op outside a kernel is not in kernel form on host tensors too
// (never laid out), even when other functions are compiled.
// HOST: host-spyre-op.mlir:10:8: error: 'spyre.add' op is not in kernel form; run --spyre-lower-to-kernels (or --spyre-pipeline) first

// mlir-translate would chain two translations (parsing the first's JSON as
// MLIR); spyre-translate asks for one.
// BOTH: spyre-translate: error: choose one translation, --spyre-to-superdsc or --spyre-to-dci (given: --spyre-to-superdsc --spyre-to-dci); both read the kernel form, so run spyre-translate once per translation
// BOTH-NOT: -:1:1

// A bundle's kernels run one after another and share one segment binding:
// kernel 1 of the softmax moved to bundle 1 cuts bundle 0 in two; kernel 1
// binding one more buffer than the rest of its bundle is a different
// binding.
// SPLIT-BUNDLE: <stdin>:{{[0-9]+}}:{{[0-9]+}}: error: 'spyre.kernel' op runs in bundle 0, which earlier kernels ended; a bundle's kernels run one after another
// SPLIT-BUNDLE-NEXT: spyre.kernel "2_sub"
// BINDING: <stdin>:{{[0-9]+}}:{{[0-9]+}}: error: 'spyre.kernel' op binds the segments [#spyre.mem<io 0>, #spyre.mem<io 1>, #spyre.mem<io 2>], but bundle 0 binds [#spyre.mem<io 0>, #spyre.mem<io 1>]; its kernels share one binding (run --spyre-form-bundles)
// BINDING-NEXT: spyre.kernel "1_max"
