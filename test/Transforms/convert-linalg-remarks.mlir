// What stays on the host also goes through MLIR's remark engine, so the
// standard remark options work: a YAML file of missed remarks here, or
// remarks printed with their category.
// RUN: spyre-opt %s --spyre-convert-linalg --remarks-filter=spyre --remark-format=yaml --remarks-output-file=%t.yaml -o /dev/null
// RUN: FileCheck %s --check-prefix=YAML < %t.yaml
// RUN: spyre-opt %s --spyre-convert-linalg --remarks-filter=spyre -o /dev/null 2>&1 | FileCheck %s --check-prefix=PRINT

// YAML: --- !Missed
// YAML-NEXT: Pass: 'spyre:convert-linalg'
// YAML-NEXT: Name: StaysOnHost
// YAML-NEXT: DebugLoc: { File: '{{.*}}convert-linalg-remarks.mlir',
// YAML-NEXT: Line: [[# @LINE + 9]], Column: 8 }
// YAML-NEXT: Function: sin
// YAML-NEXT: Args:
// YAML-NEXT: - Remark: '''linalg.generic'' stays on the host: its body uses ''math.sin'', which has no Spyre op'

// PRINT: convert-linalg-remarks.mlir:[[# @LINE + 4]]:8: remark: [Missed] StaysOnHost | Category:spyre:convert-linalg | Function=sin | Remark="'linalg.generic' stays on the host: its body uses 'math.sin', which has no Spyre op"

func.func @sin(%x: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %e = tensor.empty() : tensor<4x64xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) {
  ^bb0(%a: f16, %o: f16):
    %t = math.sin %a : f16
    linalg.yield %t : f16
  } -> tensor<4x64xf16>
  return %r : tensor<4x64xf16>
}
