// A matmul whose K is split four ways (m8.k4 on 32 cores): the partners'
// partial sums are combined over the ring and stored by one partner each.
!h = tensor<512x3072xf16, #spyre.layout<device_size = [48, 512, 64], stride_map = [64, 3072, 1]>>
!w = tensor<3072x768xf16, #spyre.layout<device_size = [12, 3072, 64], stride_map = [64, 768, 1]>>
!o = tensor<512x768xf16, #spyre.layout<device_size = [12, 512, 64], stride_map = [64, 768, 1]>>
func.func @split_k(%h: !h, %w: !w) -> !o {
  %0 = spyre.matmul %h, %w {spyre.work_division = array<i64: 8, 1, 4>} : !h, !w -> !o
  return %0 : !o
}
