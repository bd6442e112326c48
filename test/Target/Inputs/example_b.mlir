// The reference's example B: C[256, 512] = A[256, 256] @ B[256, 512], laid
// out by default, with its cost model's split (N in four) as a hint.
!A = tensor<256x256xf16, #spyre.layout<device_size = [4, 256, 64], stride_map = [64, 256, 1]>>
!B = tensor<256x512xf16, #spyre.layout<device_size = [8, 256, 64], stride_map = [64, 512, 1]>>
!C = tensor<256x512xf16, #spyre.layout<device_size = [8, 256, 64], stride_map = [64, 512, 1]>>
func.func @matmul(%a: !A, %b: !B) -> !C {
  %0 = spyre.matmul %a, %b {spyre.work_division = array<i64: 1, 4, 1>} : !A, !B -> !C
  return %0 : !C
}
