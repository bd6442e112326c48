// RUN: spyre-opt %s --spyre-plan-memory -split-input-file -verify-diagnostics

!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>

func.func @not_divided(%a: !t) -> !t {
  // expected-error @+1 {{'spyre.exp' op has no 'spyre.division'; run --spyre-divide-work first}}
  %0 = spyre.exp %a : (!t) -> !t
  return %0 : !t
}

// -----

!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>

func.func @uneven_division(%a: !t) -> !t {
  // expected-error @+1 {{'spyre.division' cuts dim 1 (4 granules of 64) into 3 uneven parts}}
  %0 = spyre.exp %a {spyre.division = #spyre.division<splits = [1, 3], order = [0, 1]>} : (!t) -> !t
  return %0 : !t
}

// -----

// A division that does not fit this target's LX (on one core, 128 rows of
// 4 sticks cannot be staged in 128 bytes).
module attributes {spyre.target = #spyre.target<lx_bytes = 256, lx_reserved = 0.5>} {
func.func @lx_overflow(%a: tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>) -> tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>> {
  // expected-error @+1 {{'spyre.exp' op does not fit the cores' LX: the smallest tile [1, 64] needs 512 bytes of LX per core, only 128 are available}}
  %0 = spyre.exp %a {spyre.division = #spyre.division<splits = [1, 1], order = [0, 1]>} : (tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>) -> tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
  return %0 : tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
}
}

// -----

// Intermediates that cannot fit one DDR segment.
module attributes {spyre.target = #spyre.target<segment_bytes = 65536>} {
// expected-error @+1 {{the DDR intermediate pool needs 131072 bytes, more than one address segment (65536 bytes)}}
func.func @pool_overflow(%a: tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>) -> tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>> {
  %0 = spyre.exp %a {spyre.division = #spyre.division<splits = [4, 1], order = [0, 1]>} : (tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>) -> tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
  %1 = spyre.neg %0 {spyre.division = #spyre.division<splits = [1, 4], order = [0, 1]>} : (tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>) -> tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
  %2 = spyre.add %1, %0 {spyre.division = #spyre.division<splits = [4, 1], order = [0, 1]>} : (tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>, tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>) -> tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
  return %2 : tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
}
}

// -----

!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
!u = tensor<256x128xf16, #spyre.layout<device_size = [2, 256, 64], stride_map = [64, 128, 1]>>

func.func @moving_transpose(%a: !t) -> !u {
  // expected-error @+1 {{'spyre.transpose' op moves data between layouts; only views may remain (run --spyre-propagate-layouts)}}
  %0 = spyre.transpose %a permutation = [1, 0] : !t -> !u
  return %0 : !u
}

// -----

// Each kernel binds a host-visible tensor to one DDR address segment: an
// argument larger than a segment cannot be addressed.
!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>

module attributes {spyre.target = #spyre.target<segment_bytes = 32768>} {
// expected-error @+1 {{argument 0 of @argument_past_segment (65536 bytes on the device) does not fit one DDR address segment (32768 bytes, the #spyre.target's segment_bytes)}}
func.func @argument_past_segment(%a: !t) -> !t {
  %0 = spyre.exp %a {spyre.division = #spyre.division<splits = [4, 1], order = [0, 1]>} : (!t) -> !t
  return %0 : !t
}
}

// -----

// The same for a constant the host uploads.
!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>

module attributes {spyre.target = #spyre.target<segment_bytes = 32768>} {
func.func @constant_past_segment() -> !t {
  // expected-error @+1 {{'spyre.constant' op result (65536 bytes on the device) does not fit one DDR address segment (32768 bytes, the #spyre.target's segment_bytes)}}
  %0 = spyre.constant dense<1.0> : tensor<128x256xf16> -> !t
  return %0 : !t
}
}

// -----

// An in-place write whose destination something else reads (what
// --spyre-divide-work would have copied first).
!dest = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
!box = tensor<64x128xf16, #spyre.layout<device_size = [2, 64, 64], stride_map = [64, 128, 1]>>

func.func @shared_destination(%x: !dest, %y: !box) -> (!dest, !dest) {
  %d = spyre.exp %x {spyre.division = #spyre.division<splits = [1, 1], order = [0, 1]>} : (!dest) -> !dest
  // expected-error @+1 {{'spyre.insert_slice' op writes into its destination's buffer in place, but the destination is read elsewhere or is not a kernel's result (--spyre-divide-work copies it first)}}
  %s = spyre.insert_slice %y into %d offsets = [32, 64] {spyre.division = #spyre.division<splits = [1, 1], order = [0, 1]>} : !box into !dest -> !dest
  return %s, %d : !dest, !dest
}
