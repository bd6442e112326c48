// RUN: spyre-opt %s --spyre-pipeline=cores=1 | spyre-translate --spyre-to-superdsc | FileCheck %s

// torch-spyre's layer_norm: exx2 -> layernormscale -> layernormnorm, with
// the statistics per row (one synthetic stick per row holding E[x] and
// E[x^2] in its first two lanes, the EXX2 arrangement). The reference
// generator (superdsc.py) marks a stick a tensor lacks because the op
// reduces it with scale_ -2:
//  - exx2 reduces the stick (out, 768) of x: its per-row result has
//    scale_ [1, -2] over (mb, out);
//  - layernormscale reads both lanes of its input's stick: its input is
//    [1, -2] (rows, synthetic stick), its result [1, 1];
//  - layernormnorm reads mean and norm per row along x's stick: [1, -2];
//    weight and bias lack the rows: [-1, 1].
func.func @layer_norm(%x: tensor<128x768xf16>, %w: tensor<768xf16>, %b: tensor<768xf16>) -> tensor<128x768xf16> {
  %m = spyre.exx2 %x scale = 0.0013020833333333333 : tensor<128x768xf16> -> tensor<128xf16>
  %n = spyre.layernormscale %m eps = 1.0e-05 : tensor<128xf16> -> tensor<128xf16>
  %y = spyre.layernormnorm %x, %m, %n, %w, %b : (tensor<128x768xf16>, tensor<128xf16>, tensor<128xf16>, tensor<768xf16>, tensor<768xf16>) -> tensor<128x768xf16>
  return %y : tensor<128x768xf16>
}

// CHECK: "{{[0-9]+}}_exx2"
// CHECK: "N_": {
// CHECK-NEXT: "mb_": 128,
// CHECK-NEXT: "name_": "n",
// CHECK-NEXT: "out_": 768
// CHECK: "constantInfo_"
// CHECK: "name_": "exx2scale"
// CHECK: "dsName_": "Tensor0"
// CHECK: "scale_": [
// CHECK-NEXT: 1,
// CHECK-NEXT: 1
// CHECK-NEXT: ]
// CHECK: "dsName_": "Tensor1"
// CHECK: "scale_": [
// CHECK-NEXT: 1,
// CHECK-NEXT: -2
// CHECK-NEXT: ]

// CHECK: "{{[0-9]+}}_layernormscale"
// CHECK: "dsName_": "Tensor0"
// CHECK: "scale_": [
// CHECK-NEXT: 1,
// CHECK-NEXT: -2
// CHECK-NEXT: ]
// CHECK: "dsName_": "Tensor1"
// CHECK: "scale_": [
// CHECK-NEXT: 1,
// CHECK-NEXT: 1
// CHECK-NEXT: ]

// CHECK: "{{[0-9]+}}_layernormnorm"
// CHECK: "N_": {
// CHECK-NEXT: "mb_": 128,
// CHECK-NEXT: "name_": "n",
// CHECK-NEXT: "out_": 768
// CHECK: "dsName_": "Tensor0"
// CHECK: "scale_": [
// CHECK-NEXT: 1,
// CHECK-NEXT: 1
// CHECK-NEXT: ]
// CHECK: "dsName_": "Tensor1"
// CHECK: "scale_": [
// CHECK-NEXT: 1,
// CHECK-NEXT: -2
// CHECK-NEXT: ]
// CHECK: "dsName_": "Tensor2"
// CHECK: "scale_": [
// CHECK-NEXT: 1,
// CHECK-NEXT: -2
// CHECK-NEXT: ]
// CHECK: "dsName_": "Tensor3"
// CHECK: "scale_": [
// CHECK-NEXT: -1,
// CHECK-NEXT: 1
// CHECK-NEXT: ]

// A normalized dim of 200 ends inside its fourth stick: exx2 masks the 56
// lanes past it (coordinateMasking_ [[200, 256 - 200]] with the mask value
// 0 as a constant), as the reference masks a padded stick it reduces.
func.func @layer_norm_200(%x: tensor<8x200xf16>) -> tensor<8xf16> {
  %m = spyre.exx2 %x scale = 0.005 : tensor<8x200xf16> -> tensor<8xf16>
  return %m : tensor<8xf16>
}

// CHECK: "{{[0-9]+}}_exx2"
// CHECK: "name_": "samv-maskvalue"
// CHECK: "coordinateMasking_": {
// CHECK-NEXT: "out": [
// CHECK-NEXT: [
// CHECK-NEXT: 200,
// CHECK-NEXT: 56
// CHECK-NEXT: ]
