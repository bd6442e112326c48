// A compiled function next to a spyre op on host tensors (the output of
// --spyre-convert-linalg that was never laid out): translate-invalid.mlir.
!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>

func.func @identity(%a: !t {spyre.mem = #spyre.mem<io 0>}) -> (!t {spyre.mem = #spyre.mem<io 0>}) attributes {spyre.pool_bytes = 0 : i64} {
  return %a : !t
}

func.func @host(%a: tensor<4x64xf16>, %b: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %0 = spyre.add %a, %b : (tensor<4x64xf16>, tensor<4x64xf16>) -> tensor<4x64xf16>
  return %0 : tensor<4x64xf16>
}
