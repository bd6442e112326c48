// Bad-input corpus: spyre-run (inputs, .npy files, flags, functions,
// compilation and simulation failures).
// Run by corpus.test through run_corpus.py; see run_corpus.py for the
// header lines. NPY / WRITE build the .npy files in the case's scratch
// directory (%{dir}).

// NPY: a.npy <f2 4x64
// TOOL: spyre-run --input=@%{dir}/a.npy --input=@%{dir}/a.npy --input=@%{dir}/a.npy
// EXPECT: spyre-run: error: @add takes 2 inputs, 3 given (--input=@file.npy, in argument order)
func.func @add(%a: tensor<4x64xf16>, %b: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %e = tensor.empty() : tensor<4x64xf16>
  %0 = linalg.add ins(%a, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  return %0 : tensor<4x64xf16>
}

// -----

// No inputs at all.
// TOOL: spyre-run
// EXPECT: spyre-run: error: @add takes 2 inputs, 0 given
func.func @add(%a: tensor<4x64xf16>, %b: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %e = tensor.empty() : tensor<4x64xf16>
  %0 = linalg.add ins(%a, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  return %0 : tensor<4x64xf16>
}

// -----

// NPY: a.npy <f2 4x64
// NPY: b.npy <i4 4x64
// TOOL: spyre-run --input=@%{dir}/a.npy --input=@%{dir}/b.npy
// EXPECT: spyre-run: error: input 1: @add expects float16 elements (tensor<4x64xf16>), got int32
func.func @add(%a: tensor<4x64xf16>, %b: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %e = tensor.empty() : tensor<4x64xf16>
  %0 = linalg.add ins(%a, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  return %0 : tensor<4x64xf16>
}

// -----

// NPY: a.npy <f2 4x64
// NPY: b.npy |b1 4x64
// TOOL: spyre-run --input=@%{dir}/a.npy --input=@%{dir}/b.npy
// EXPECT: spyre-run: error: input 1: @add expects float16 elements (tensor<4x64xf16>), got bool
func.func @add(%a: tensor<4x64xf16>, %b: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %e = tensor.empty() : tensor<4x64xf16>
  %0 = linalg.add ins(%a, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  return %0 : tensor<4x64xf16>
}

// -----

// NPY: a.npy <f2 4x64
// NPY: b.npy <i8 4x64
// TOOL: spyre-run --input=@%{dir}/a.npy --input=@%{dir}/b.npy
// EXPECT: spyre-run: error: input 1: @add expects float16 elements (tensor<4x64xf16>), got int64
func.func @add(%a: tensor<4x64xf16>, %b: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %e = tensor.empty() : tensor<4x64xf16>
  %0 = linalg.add ins(%a, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  return %0 : tensor<4x64xf16>
}

// -----

// float64 has no device format.
// NPY: a.npy <f2 4x64
// NPY: b.npy <f8 4x64
// TOOL: spyre-run --input=@%{dir}/a.npy --input=@%{dir}/b.npy
// EXPECT: b.npy: unsupported dtype '<f8' (supported: '<f2', '<f4', '|b1', '|i1', '<i2', '<i4', '<i8')
func.func @add(%a: tensor<4x64xf16>, %b: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %e = tensor.empty() : tensor<4x64xf16>
  %0 = linalg.add ins(%a, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  return %0 : tensor<4x64xf16>
}

// -----

// NPY: a.npy <f2 4x64
// NPY: b.npy |u1 4x64
// TOOL: spyre-run --input=@%{dir}/a.npy --input=@%{dir}/b.npy
// EXPECT: b.npy: unsupported dtype '|u1'
func.func @add(%a: tensor<4x64xf16>, %b: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %e = tensor.empty() : tensor<4x64xf16>
  %0 = linalg.add ins(%a, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  return %0 : tensor<4x64xf16>
}

// -----

// NPY: a.npy <f2 4x64
// NPY: b.npy >f2 4x64
// TOOL: spyre-run --input=@%{dir}/a.npy --input=@%{dir}/b.npy
// EXPECT: b.npy: big-endian dtype '>f2' is not supported (save a little-endian array, e.g. a.astype('<f2'))
func.func @add(%a: tensor<4x64xf16>, %b: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %e = tensor.empty() : tensor<4x64xf16>
  %0 = linalg.add ins(%a, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  return %0 : tensor<4x64xf16>
}

// -----

// A structured dtype.
// NPY: a.npy <f2 4x64
// WRITE: b.npy npy_header("{'descr': [('x', '<f2')], 'fortran_order': False, 'shape': (4, 64), }") + bytes(512)
// TOOL: spyre-run --input=@%{dir}/a.npy --input=@%{dir}/b.npy
// EXPECT: b.npy: unsupported dtype [('x', '<f2')] (structured dtypes are not supported
func.func @add(%a: tensor<4x64xf16>, %b: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %e = tensor.empty() : tensor<4x64xf16>
  %0 = linalg.add ins(%a, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  return %0 : tensor<4x64xf16>
}

// -----

// An object array (pickled).
// NPY: a.npy <f2 4x64
// WRITE: b.npy npy_header("{'descr': '|O', 'fortran_order': False, 'shape': (4, 64), }") + bytes(2048)
// TOOL: spyre-run --input=@%{dir}/a.npy --input=@%{dir}/b.npy
// EXPECT: b.npy: unsupported dtype '|O'
func.func @add(%a: tensor<4x64xf16>, %b: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %e = tensor.empty() : tensor<4x64xf16>
  %0 = linalg.add ins(%a, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  return %0 : tensor<4x64xf16>
}

// -----

// NPY: a.npy <f2 4x64
// NPY: b.npy <f2 64x4
// TOOL: spyre-run --input=@%{dir}/a.npy --input=@%{dir}/b.npy
// EXPECT: spyre-run: error: input 1: @add expects shape [4, 64] (tensor<4x64xf16>), got [64, 4]
func.func @add(%a: tensor<4x64xf16>, %b: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %e = tensor.empty() : tensor<4x64xf16>
  %0 = linalg.add ins(%a, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  return %0 : tensor<4x64xf16>
}

// -----

// The right number of elements, flattened.
// NPY: a.npy <f2 4x64
// NPY: b.npy <f2 256
// TOOL: spyre-run --input=@%{dir}/a.npy --input=@%{dir}/b.npy
// EXPECT: spyre-run: error: input 1: @add expects shape [4, 64] (tensor<4x64xf16>), got [256]
func.func @add(%a: tensor<4x64xf16>, %b: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %e = tensor.empty() : tensor<4x64xf16>
  %0 = linalg.add ins(%a, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  return %0 : tensor<4x64xf16>
}

// -----

// NPY: a.npy <f2 4x64
// NPY: b.npy <f2 1x4x64
// TOOL: spyre-run --input=@%{dir}/a.npy --input=@%{dir}/b.npy
// EXPECT: spyre-run: error: input 1: @add expects shape [4, 64] (tensor<4x64xf16>), got [1, 4, 64]
func.func @add(%a: tensor<4x64xf16>, %b: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %e = tensor.empty() : tensor<4x64xf16>
  %0 = linalg.add ins(%a, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  return %0 : tensor<4x64xf16>
}

// -----

// NPY: a.npy <f2 4x64
// NPY: b.npy <f2 scalar
// TOOL: spyre-run --input=@%{dir}/a.npy --input=@%{dir}/b.npy
// EXPECT: spyre-run: error: input 1: @add expects shape [4, 64] (tensor<4x64xf16>), got []
func.func @add(%a: tensor<4x64xf16>, %b: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %e = tensor.empty() : tensor<4x64xf16>
  %0 = linalg.add ins(%a, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  return %0 : tensor<4x64xf16>
}

// -----

// NPY: a.npy <f2 4x64
// NPY: b.npy <f2 0x64
// TOOL: spyre-run --input=@%{dir}/a.npy --input=@%{dir}/b.npy
// EXPECT: spyre-run: error: input 1: @add expects shape [4, 64] (tensor<4x64xf16>), got [0, 64]
func.func @add(%a: tensor<4x64xf16>, %b: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %e = tensor.empty() : tensor<4x64xf16>
  %0 = linalg.add ins(%a, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  return %0 : tensor<4x64xf16>
}

// -----

// NPY: a.npy <f2 4x64
// WRITE: b.npy npy_header("{'descr': '<f2', 'fortran_order': False, 'shape': (99999999999, 99999999999), }")
// TOOL: spyre-run --input=@%{dir}/a.npy --input=@%{dir}/b.npy
// EXPECT: b.npy: shape (99999999999, 99999999999) is too large
func.func @add(%a: tensor<4x64xf16>, %b: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %e = tensor.empty() : tensor<4x64xf16>
  %0 = linalg.add ins(%a, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  return %0 : tensor<4x64xf16>
}

// -----

// NPY: a.npy <f2 4x64
// WRITE: b.npy npy_header("{'descr': '<f2', 'fortran_order': False, 'shape': (-4, 64), }")
// TOOL: spyre-run --input=@%{dir}/a.npy --input=@%{dir}/b.npy
// EXPECT: b.npy: malformed header dict: negative dimension in 'shape'
func.func @add(%a: tensor<4x64xf16>, %b: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %e = tensor.empty() : tensor<4x64xf16>
  %0 = linalg.add ins(%a, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  return %0 : tensor<4x64xf16>
}

// -----

// NPY: a.npy <f2 4x64
// WRITE: b.npy npy_header("{'descr': '<f2', 'fortran_order': False, 'shape': (256), }") + bytes(512)
// TOOL: spyre-run --input=@%{dir}/a.npy --input=@%{dir}/b.npy
// EXPECT: b.npy: malformed header dict: the value of 'shape' is not a tuple of integers (a one-dimensional shape is written '(256,)')
func.func @add(%a: tensor<4x64xf16>, %b: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %e = tensor.empty() : tensor<4x64xf16>
  %0 = linalg.add ins(%a, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  return %0 : tensor<4x64xf16>
}

// -----

// One byte short.
// NPY: a.npy <f2 4x64
// WRITE: b.npy npy('<f2', (4, 64))[:-1]
// TOOL: spyre-run --input=@%{dir}/a.npy --input=@%{dir}/b.npy
// EXPECT: b.npy: truncated data (expected 512 bytes, got 511)
func.func @add(%a: tensor<4x64xf16>, %b: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %e = tensor.empty() : tensor<4x64xf16>
  %0 = linalg.add ins(%a, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  return %0 : tensor<4x64xf16>
}

// -----

// NPY: a.npy <f2 4x64
// WRITE: b.npy npy('<f2', (4, 64))[:100]
// TOOL: spyre-run --input=@%{dir}/a.npy --input=@%{dir}/b.npy
// EXPECT: b.npy: truncated header (expected 128 bytes, got 100)
func.func @add(%a: tensor<4x64xf16>, %b: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %e = tensor.empty() : tensor<4x64xf16>
  %0 = linalg.add ins(%a, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  return %0 : tensor<4x64xf16>
}

// -----

// NPY: a.npy <f2 4x64
// WRITE: b.npy npy('<f2', (4, 64))[:7]
// TOOL: spyre-run --input=@%{dir}/a.npy --input=@%{dir}/b.npy
// EXPECT: b.npy: truncated header (expected 8 bytes, got 7)
func.func @add(%a: tensor<4x64xf16>, %b: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %e = tensor.empty() : tensor<4x64xf16>
  %0 = linalg.add ins(%a, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  return %0 : tensor<4x64xf16>
}

// -----

// NPY: a.npy <f2 4x64
// WRITE: b.npy b''
// TOOL: spyre-run --input=@%{dir}/a.npy --input=@%{dir}/b.npy
// EXPECT: b.npy: bad magic (the file is empty)
func.func @add(%a: tensor<4x64xf16>, %b: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %e = tensor.empty() : tensor<4x64xf16>
  %0 = linalg.add ins(%a, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  return %0 : tensor<4x64xf16>
}

// -----

// NPY: a.npy <f2 4x64
// WRITE: b.npy npy('<f2', (4, 64)) + bytes(2)
// TOOL: spyre-run --input=@%{dir}/a.npy --input=@%{dir}/b.npy
// EXPECT: b.npy: trailing bytes after the data (expected 512 bytes, got 514)
func.func @add(%a: tensor<4x64xf16>, %b: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %e = tensor.empty() : tensor<4x64xf16>
  %0 = linalg.add ins(%a, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  return %0 : tensor<4x64xf16>
}

// -----

// An .npz archive.
// NPY: a.npy <f2 4x64
// WRITE: b.npy b'PK' + bytes([3, 4]) + bytes(60)
// TOOL: spyre-run --input=@%{dir}/a.npy --input=@%{dir}/b.npy
// EXPECT: b.npy: bad magic (this is a zip archive such as a .npz file, not a .npy file)
func.func @add(%a: tensor<4x64xf16>, %b: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %e = tensor.empty() : tensor<4x64xf16>
  %0 = linalg.add ins(%a, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  return %0 : tensor<4x64xf16>
}

// -----

// A text file.
// NPY: a.npy <f2 4x64
// WRITE: b.npy '1.0 2.0 3.0'
// TOOL: spyre-run --input=@%{dir}/a.npy --input=@%{dir}/b.npy
// EXPECT: b.npy: bad magic (not a .npy file; a .npy file starts with the bytes \x93NUMPY)
func.func @add(%a: tensor<4x64xf16>, %b: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %e = tensor.empty() : tensor<4x64xf16>
  %0 = linalg.add ins(%a, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  return %0 : tensor<4x64xf16>
}

// -----

// NPY: a.npy <f2 4x64
// WRITE: b.npy npy('<f2', (4, 64), version=(4, 0))
// TOOL: spyre-run --input=@%{dir}/a.npy --input=@%{dir}/b.npy
// EXPECT: b.npy: unsupported .npy format version 4.0 (supported: 1.0, 2.0, 3.0)
func.func @add(%a: tensor<4x64xf16>, %b: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %e = tensor.empty() : tensor<4x64xf16>
  %0 = linalg.add ins(%a, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  return %0 : tensor<4x64xf16>
}

// -----

// NPY: a.npy <f2 4x64
// WRITE: b.npy npy('<f2', (4, 64), fortran=True)
// TOOL: spyre-run --input=@%{dir}/a.npy --input=@%{dir}/b.npy
// EXPECT: b.npy: fortran_order=True is not supported (save a C-ordered array, e.g. np.ascontiguousarray(a))
func.func @add(%a: tensor<4x64xf16>, %b: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %e = tensor.empty() : tensor<4x64xf16>
  %0 = linalg.add ins(%a, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  return %0 : tensor<4x64xf16>
}

// -----

// NPY: a.npy <f2 4x64
// WRITE: b.npy npy_header("{'descr': '<f2', 'shape': (4, 64), }") + bytes(512)
// TOOL: spyre-run --input=@%{dir}/a.npy --input=@%{dir}/b.npy
// EXPECT: b.npy: malformed header dict: missing key 'fortran_order'
func.func @add(%a: tensor<4x64xf16>, %b: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %e = tensor.empty() : tensor<4x64xf16>
  %0 = linalg.add ins(%a, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  return %0 : tensor<4x64xf16>
}

// -----

// NPY: a.npy <f2 4x64
// WRITE: b.npy npy_header("{'descr': '<f2', 'fortran_order': False, 'shape': (4, 64), 'extra': 1, }") + bytes(512)
// TOOL: spyre-run --input=@%{dir}/a.npy --input=@%{dir}/b.npy
// EXPECT: b.npy: malformed header dict: unexpected key 'extra' (expected 'descr', 'fortran_order' and 'shape')
func.func @add(%a: tensor<4x64xf16>, %b: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %e = tensor.empty() : tensor<4x64xf16>
  %0 = linalg.add ins(%a, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  return %0 : tensor<4x64xf16>
}

// -----

// NPY: a.npy <f2 4x64
// WRITE: b.npy npy_header("{'descr': '<f2', 'descr': '<f2', 'fortran_order': False, 'shape': (4, 64), }") + bytes(512)
// TOOL: spyre-run --input=@%{dir}/a.npy --input=@%{dir}/b.npy
// EXPECT: b.npy: malformed header dict: duplicate key 'descr'
func.func @add(%a: tensor<4x64xf16>, %b: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %e = tensor.empty() : tensor<4x64xf16>
  %0 = linalg.add ins(%a, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  return %0 : tensor<4x64xf16>
}

// -----

// NPY: a.npy <f2 4x64
// WRITE: b.npy npy_header('[4, 64]') + bytes(512)
// TOOL: spyre-run --input=@%{dir}/a.npy --input=@%{dir}/b.npy
// EXPECT: b.npy: malformed header dict: expected '{' at the start (header: [4, 64])
func.func @add(%a: tensor<4x64xf16>, %b: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %e = tensor.empty() : tensor<4x64xf16>
  %0 = linalg.add ins(%a, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  return %0 : tensor<4x64xf16>
}

// -----

// NPY: a.npy <f2 4x64
// WRITE: b.npy npy_header("{'descr': '<f2', 'fortran_order': 0, 'shape': (4, 64), }") + bytes(512)
// TOOL: spyre-run --input=@%{dir}/a.npy --input=@%{dir}/b.npy
// EXPECT: b.npy: malformed header dict: the value of 'fortran_order' is not True or False
func.func @add(%a: tensor<4x64xf16>, %b: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %e = tensor.empty() : tensor<4x64xf16>
  %0 = linalg.add ins(%a, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  return %0 : tensor<4x64xf16>
}

// -----

// A header length past the end of the file.
// NPY: a.npy <f2 4x64
// WRITE: b.npy b'\x93NUMPY' + bytes([1, 0, 255, 255]) + b'{}'
// TOOL: spyre-run --input=@%{dir}/a.npy --input=@%{dir}/b.npy
// EXPECT: b.npy: truncated header (expected 65545 bytes, got 12)
func.func @add(%a: tensor<4x64xf16>, %b: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %e = tensor.empty() : tensor<4x64xf16>
  %0 = linalg.add ins(%a, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  return %0 : tensor<4x64xf16>
}

// -----

// NPY: a.npy <f2 4x64
// TOOL: spyre-run --input=@%{dir}/a.npy --input=@%{dir}/nope.npy
// EXPECT: spyre-run: error: input 1: cannot read
// EXPECT: nope.npy: No such file or directory
func.func @add(%a: tensor<4x64xf16>, %b: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %e = tensor.empty() : tensor<4x64xf16>
  %0 = linalg.add ins(%a, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  return %0 : tensor<4x64xf16>
}

// -----

// NPY: a.npy <f2 4x64
// MKDIR: d.npy
// TOOL: spyre-run --input=@%{dir}/a.npy --input=@%{dir}/d.npy
// EXPECT: spyre-run: error: input 1: cannot read
// EXPECT: d.npy: Is a directory
func.func @add(%a: tensor<4x64xf16>, %b: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %e = tensor.empty() : tensor<4x64xf16>
  %0 = linalg.add ins(%a, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  return %0 : tensor<4x64xf16>
}

// -----

// NPY: a.npy <f2 4x64
// TOOL: spyre-run --input=@%{dir}/a.npy --input=@
// EXPECT: spyre-run: error: input 1: cannot read : No such file or directory
func.func @add(%a: tensor<4x64xf16>, %b: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %e = tensor.empty() : tensor<4x64xf16>
  %0 = linalg.add ins(%a, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  return %0 : tensor<4x64xf16>
}

// -----

// NPY: a.npy <f2 4x64
// TOOL: spyre-run --input=@%{dir}/a.npy --input=@%{dir}/a.npy --random-inputs=3
// EXPECT: spyre-run: error: give either --input or --random-inputs, not both
func.func @add(%a: tensor<4x64xf16>, %b: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %e = tensor.empty() : tensor<4x64xf16>
  %0 = linalg.add ins(%a, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  return %0 : tensor<4x64xf16>
}

// -----

// TOOL: spyre-run --random-inputs=0 --output=%{dir}/out.npy
// EXPECT: spyre-run: error: --output=
// EXPECT: out.npy: expected @file.npy
func.func @add(%a: tensor<4x64xf16>, %b: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %e = tensor.empty() : tensor<4x64xf16>
  %0 = linalg.add ins(%a, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  return %0 : tensor<4x64xf16>
}

// -----

// Results go into files, not directories.
// MKDIR: out.npy
// TOOL: spyre-run --random-inputs=0 --output=@%{dir}/out.npy
// EXPECT: spyre-run: error: cannot write
// EXPECT: out.npy: Is a directory
func.func @add(%a: tensor<4x64xf16>, %b: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %e = tensor.empty() : tensor<4x64xf16>
  %0 = linalg.add ins(%a, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  return %0 : tensor<4x64xf16>
}

// -----

// WRITE: plain b""
// TOOL: spyre-run --random-inputs=0 --output=@%{dir}/plain/out.npy
// EXPECT: spyre-run: error: cannot write
// EXPECT: plain/out.npy: Not a directory
func.func @add(%a: tensor<4x64xf16>, %b: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %e = tensor.empty() : tensor<4x64xf16>
  %0 = linalg.add ins(%a, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  return %0 : tensor<4x64xf16>
}

// -----

// WRITE: plain b""
// TOOL: spyre-run --random-inputs=0 --trace=%{dir}/plain/trace.json
// EXPECT: spyre-run: error: cannot write
// EXPECT: plain/trace.json: Not a directory
func.func @add(%a: tensor<4x64xf16>, %b: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %e = tensor.empty() : tensor<4x64xf16>
  %0 = linalg.add ins(%a, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  return %0 : tensor<4x64xf16>
}

// -----

// WRITE: plain b""
// TOOL: spyre-run --random-inputs=0 --stats-json=%{dir}/plain/stats.json
// EXPECT: spyre-run: error: cannot write
// EXPECT: plain/stats.json: Not a directory
func.func @add(%a: tensor<4x64xf16>, %b: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %e = tensor.empty() : tensor<4x64xf16>
  %0 = linalg.add ins(%a, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  return %0 : tensor<4x64xf16>
}

// -----

// WRITE: plain b""
// TOOL: spyre-run --random-inputs=0 --save-kernels=%{dir}/plain/k.mlir
// EXPECT: spyre-run: error: cannot write
// EXPECT: plain/k.mlir: Not a directory
func.func @add(%a: tensor<4x64xf16>, %b: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %e = tensor.empty() : tensor<4x64xf16>
  %0 = linalg.add ins(%a, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  return %0 : tensor<4x64xf16>
}

// -----

// TOOL: spyre-run --random-inputs=0 %s --stats-json
// EXPECT: spyre-run: for the --stats-json option: requires a value!
func.func @add(%a: tensor<4x64xf16>, %b: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %e = tensor.empty() : tensor<4x64xf16>
  %0 = linalg.add ins(%a, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  return %0 : tensor<4x64xf16>
}

// -----

// TOOL: spyre-run --random-inputs=0 --atol=tight
// EXPECT: spyre-run: for the --atol option: 'tight' value invalid for floating point argument!
func.func @add(%a: tensor<4x64xf16>, %b: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %e = tensor.empty() : tensor<4x64xf16>
  %0 = linalg.add ins(%a, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  return %0 : tensor<4x64xf16>
}

// -----

// TOOL: spyre-run --random-inputs=0 --cores=many
// EXPECT: spyre-run: for the --cores option: 'many' value invalid for integer argument!
func.func @add(%a: tensor<4x64xf16>, %b: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %e = tensor.empty() : tensor<4x64xf16>
  %0 = linalg.add ins(%a, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  return %0 : tensor<4x64xf16>
}

// -----

// TOOL: spyre-run --random-inputs=0 --bogus
// EXPECT: spyre-run: Unknown command line argument '--bogus'
func.func @add(%a: tensor<4x64xf16>, %b: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %e = tensor.empty() : tensor<4x64xf16>
  %0 = linalg.add ins(%a, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  return %0 : tensor<4x64xf16>
}

// -----

// TOOL: spyre-run --random-inputs=0 %s %s
// EXPECT: spyre-run: Too many positional arguments specified!
func.func @add(%a: tensor<4x64xf16>, %b: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %e = tensor.empty() : tensor<4x64xf16>
  %0 = linalg.add ins(%a, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  return %0 : tensor<4x64xf16>
}

// -----

// NO-INPUT
// TOOL: spyre-run --random-inputs=0 %{dir}/missing.mlir
// EXPECT: spyre-run: error: cannot open input file
// EXPECT: missing.mlir': No such file or directory
func.func @add(%a: tensor<4x64xf16>, %b: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %e = tensor.empty() : tensor<4x64xf16>
  %0 = linalg.add ins(%a, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  return %0 : tensor<4x64xf16>
}

// -----

// The options of the pipeline spyre-run compiles with: checked before any
// work, one line naming spyre-run's flag.
// TOOL: spyre-run --random-inputs=0 --cores=33
// EXPECT: spyre-run: error: --cores=33 is out of range 1..32 (the target's cores)
// EXPECT-NOT: see current operation
// EXPECT-NOT: --spyre-divide-work
func.func @add(%a: tensor<4x64xf16>, %b: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %e = tensor.empty() : tensor<4x64xf16>
  %0 = linalg.add ins(%a, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  return %0 : tensor<4x64xf16>
}

// -----

// TOOL: spyre-run --random-inputs=0 --cores=-1
// EXPECT: spyre-run: error: --cores=-1 is out of range 1..32 (the target's cores)
// EXPECT-NOT: --spyre-divide-work
func.func @add(%a: tensor<4x64xf16>, %b: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %e = tensor.empty() : tensor<4x64xf16>
  %0 = linalg.add ins(%a, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  return %0 : tensor<4x64xf16>
}

// -----

// TOOL: spyre-run --random-inputs=0 --policy=bogus
// EXPECT: spyre-run: for the --policy option: Cannot find option named 'bogus'!
// EXPECT-NOT: --spyre-divide-work
func.func @add(%a: tensor<4x64xf16>, %b: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %e = tensor.empty() : tensor<4x64xf16>
  %0 = linalg.add ins(%a, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  return %0 : tensor<4x64xf16>
}

// -----

// TOOL: spyre-run --random-inputs=0 --function=ext
// EXPECT: spyre-run: error: no function @ext with a body in
func.func @add(%a: tensor<4x64xf16>, %b: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %e = tensor.empty() : tensor<4x64xf16>
  %0 = linalg.add ins(%a, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  return %0 : tensor<4x64xf16>
}
func.func private @ext(%a: tensor<4x64xf16>) -> tensor<4x64xf16>

// -----

// Two public functions and no --function.
// TOOL: spyre-run --random-inputs=0
// EXPECT: spyre-run: error:
// EXPECT: has 2 public functions; choose one with --function=NAME
func.func @add(%a: tensor<4x64xf16>, %b: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %e = tensor.empty() : tensor<4x64xf16>
  %0 = linalg.add ins(%a, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  return %0 : tensor<4x64xf16>
}
func.func @other(%a: tensor<4x64xf16>) -> tensor<4x64xf16> {
  return %a : tensor<4x64xf16>
}

// -----

// Scalars travel as 0-d tensors; a vector has no such form.
// TOOL: spyre-run --random-inputs=0
// EXPECT: spyre-run: error: argument 1 of @scale is not a tensor (vector<4xf16>); spyre-run passes tensors, memrefs and scalars
func.func @scale(%a: tensor<4x64xf16>, %s: vector<4xf16>) -> tensor<4x64xf16> {
  return %a : tensor<4x64xf16>
}

// -----

// Memrefs pass as tensors when contiguous; a strided view has no such form.
// TOOL: spyre-run --random-inputs=0
// EXPECT: spyre-run: error: argument 0 of @strided is a memref with a layout or memory space (memref<4x64xf16, strided<[128, 1]>>); spyre-run passes contiguous memrefs of the default memory space
func.func @strided(%a: memref<4x64xf16, strided<[128, 1]>>) {
  return
}

// -----

// A memref result comes back as a tensor; an unranked one cannot.
// TOOL: spyre-run --random-inputs=0
// EXPECT: spyre-run: error: result 0 of @unranked_result is a memref spyre-run cannot return (memref<*xf16>); it returns ranked memrefs of the default memory space
func.func @unranked_result(%a: memref<4x64xf16>) -> memref<*xf16> {
  %u = memref.cast %a : memref<4x64xf16> to memref<*xf16>
  return %u : memref<*xf16>
}

// -----

// A scalar argument is a 0-d tensor: its .npy file holds one value (this
// crashed in the simulator's input check when scalars were refused).
// NPY: a.npy <f2 4x64
// NPY: s.npy <f2 4x64
// TOOL: spyre-run --input=@%{dir}/a.npy --input=@%{dir}/s.npy
// EXPECT: spyre-run: error: input 1: @scale expects shape [] (tensor<f16>), got [4, 64]
func.func @scale(%a: tensor<4x64xf16>, %s: f16) -> tensor<4x64xf16> {
  return %a : tensor<4x64xf16>
}

// -----

// Drawn inputs for a dynamic argument take --dynamic-size, checked.
// TOOL: spyre-run --random-inputs=0 --dynamic-size=-3
// EXPECT: spyre-run: error: --dynamic-size=-3: a size must not be negative
func.func @dyn(%a: tensor<?x64xf16>) -> tensor<?x64xf16> {
  return %a : tensor<?x64xf16>
}

// -----

// TOOL: spyre-run --random-inputs=0
// EXPECT: spyre-run: error: argument 0 of @f6 has element type f6E2M3FN (tensor<4x64xf6E2M3FN>), which --random-inputs cannot generate (supported: f16, bf16, f32, f64, f8E4M3FN, f8E5M2, f8E4M3FNUZ, f8E5M2FNUZ, f8E8M0FNU, f4E2M1FN, i1, i4, i8, i16, i32, i64, index)
func.func @f6(%a: tensor<4x64xf6E2M3FN>) -> tensor<4x64xf6E2M3FN> {
  return %a : tensor<4x64xf6E2M3FN>
}

// -----

// A negative seed is not "no seed".
// TOOL: spyre-run --random-inputs=-5
// EXPECT: spyre-run: error: --random-inputs=-5: the seed must not be negative
func.func @add(%a: tensor<4x64xf16>, %b: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %e = tensor.empty() : tensor<4x64xf16>
  %0 = linalg.add ins(%a, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  return %0 : tensor<4x64xf16>
}

// -----

// Tolerances are checked, not replaced by the defaults.
// TOOL: spyre-run --random-inputs=0 --check --atol=-5
// EXPECT: spyre-run: error: --atol=-5: a tolerance must be a non-negative number
func.func @add(%a: tensor<4x64xf16>, %b: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %e = tensor.empty() : tensor<4x64xf16>
  %0 = linalg.add ins(%a, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  return %0 : tensor<4x64xf16>
}

// -----

// TOOL: spyre-run --random-inputs=0 --check --rtol=nan
// EXPECT: spyre-run: error: --rtol=nan: a tolerance must be a non-negative number
func.func @add(%a: tensor<4x64xf16>, %b: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %e = tensor.empty() : tensor<4x64xf16>
  %0 = linalg.add ins(%a, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  return %0 : tensor<4x64xf16>
}

// -----

// A scratchpad too small for any tile, with host fallback off: the
// pipeline fails, located (on, the matmul runs on the host:
// Run/host-fallback.test).
// TOOL: spyre-run --random-inputs=0 --host-fallback=off
// EXPECT: 'spyre.matmul' op cannot be divided across 32 cores: the smallest tile [1, 64, 64] needs
// EXPECT: spyre-run: error: compilation failed
// EXPECT-LOC: @+4
module attributes {spyre.target = #spyre.target<lx_bytes = 1024>} {
func.func @mm(%a: tensor<128x256xf16>, %b: tensor<256x128xf16>) -> tensor<128x128xf16> {
  %e = tensor.empty() : tensor<128x128xf16>
  %0 = linalg.matmul ins(%a, %b : tensor<128x256xf16>, tensor<256x128xf16>) outs(%e : tensor<128x128xf16>) -> tensor<128x128xf16>
  return %0 : tensor<128x128xf16>
}
}

// -----

// A dynamic argument takes its input's shape, which must fit its static
// dims.
// NPY: a.npy <f2 4x32
// TOOL: spyre-run --input=@%{dir}/a.npy
// EXPECT: spyre-run: error: @dyn has dynamic shapes: argument 0 (tensor<?x64xf16>) cannot take the shape [4, 32]
// NO-LOC: an input error names the argument, not a location
func.func @dyn(%a: tensor<?x64xf16>) -> tensor<?x64xf16> {
  return %a : tensor<?x64xf16>
}

// -----

// With host fallback off, an op left on the host is an error at its
// location; the remark says why it stayed there.
// TOOL: spyre-run --random-inputs=0 --host-fallback=off
// EXPECT: remark: 'tensor.extract_slice' stays on the host: the box starts at element 8 of the innermost dim, inside a stick of 64 elements
// EXPECT: error: 'tensor.extract_slice' runs on the host, and host fallback is off
// EXPECT: spyre-run: error: compilation failed
func.func @slice(%a: tensor<128x256xf16>) -> tensor<64x248xf16> {
  %s = tensor.extract_slice %a[0, 8] [64, 248] [1, 1] : tensor<128x256xf16> to tensor<64x248xf16>
  return %s : tensor<64x248xf16>
}

// -----

// A call of a function without a body cannot be inlined: it stays on the
// host, where nothing can run it.
// TOOL: spyre-run --random-inputs=0 --function=c
// EXPECT: remark: 'func.call' stays on the host: calls are not compiled for the device; inline @h first (--inline)
// EXPECT: spyre-run: error: host segment @c__host0: the reference: @c__host0 calls @h, which has no body
func.func private @h(%a: tensor<4x64xf16>) -> tensor<4x64xf16>
func.func @c(%a: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %0 = func.call @h(%a) : (tensor<4x64xf16>) -> tensor<4x64xf16>
  return %0 : tensor<4x64xf16>
}

// -----

!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
#io0 = #spyre.access<mem = #spyre.mem<io 0>, base = 0, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [0]>
#io1 = #spyre.access<mem = #spyre.mem<io 1>, base = 17179869184, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [65536]>
#mb = #spyre.kdim<"mb", size = 128, tile = 128>
#out = #spyre.kdim<"out", size = 256, granule = 64, tile = 256>

// A file in kernel form is not compiled again.
// NPY: x.npy <f2 128x256
// TOOL: spyre-run --input=@%{dir}/x.npy --cores=4
// EXPECT: spyre-run: error: --cores applies to compilation;
// EXPECT: is in kernel form already
func.func @abs(%a: !t {spyre.mem = #spyre.mem<io 0>}) -> (!t {spyre.mem = #spyre.mem<io 1>}) attributes {spyre.pool_bytes = 0 : i64} {
  %0 = spyre.kernel "0_abs"(%a) : (!t) -> !t attributes {accesses = [#io0, #io1], dims = [#mb, #out], lx_bytes = 131072 : i64, order = array<i64: 0, 1>, segments = [#spyre.mem<io 0>, #spyre.mem<io 1>], spyre.mem = #spyre.mem<io 1>} {
  ^bb0(%x: !t):
    %1 = spyre.abs %x : (!t) -> !t
    spyre.yield %1 : !t
  }
  return %0 : !t
}

// -----

!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
#io0 = #spyre.access<mem = #spyre.mem<io 0>, base = 0, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [0]>
#io1 = #spyre.access<mem = #spyre.mem<io 1>, base = 17179869184, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [65536]>
#mb = #spyre.kdim<"mb", size = 128, tile = 128>
#out = #spyre.kdim<"out", size = 256, granule = 64, tile = 256>

// NPY: x.npy <f2 128x256
// TOOL: spyre-run --input=@%{dir}/x.npy --check
// EXPECT: spyre-run: error: --check needs the original linalg program;
// EXPECT: is in kernel form already
func.func @abs(%a: !t {spyre.mem = #spyre.mem<io 0>}) -> (!t {spyre.mem = #spyre.mem<io 1>}) attributes {spyre.pool_bytes = 0 : i64} {
  %0 = spyre.kernel "0_abs"(%a) : (!t) -> !t attributes {accesses = [#io0, #io1], dims = [#mb, #out], lx_bytes = 131072 : i64, order = array<i64: 0, 1>, segments = [#spyre.mem<io 0>, #spyre.mem<io 1>], spyre.mem = #spyre.mem<io 1>} {
  ^bb0(%x: !t):
    %1 = spyre.abs %x : (!t) -> !t
    spyre.yield %1 : !t
  }
  return %0 : !t
}

// -----

!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
#io0 = #spyre.access<mem = #spyre.mem<io 0>, base = 0, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [0]>
#io1 = #spyre.access<mem = #spyre.mem<io 1>, base = 17179869184, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [65536]>
#mb = #spyre.kdim<"mb", size = 128, tile = 128>
#out = #spyre.kdim<"out", size = 256, granule = 64, tile = 256>

// Kernel form with the wrong input shape.
// NPY: x.npy <f2 256x128
// TOOL: spyre-run --input=@%{dir}/x.npy
// EXPECT: spyre-run: error: input 0: @abs expects shape [128, 256]
// EXPECT: got [256, 128]
func.func @abs(%a: !t {spyre.mem = #spyre.mem<io 0>}) -> (!t {spyre.mem = #spyre.mem<io 1>}) attributes {spyre.pool_bytes = 0 : i64} {
  %0 = spyre.kernel "0_abs"(%a) : (!t) -> !t attributes {accesses = [#io0, #io1], dims = [#mb, #out], lx_bytes = 131072 : i64, order = array<i64: 0, 1>, segments = [#spyre.mem<io 0>, #spyre.mem<io 1>], spyre.mem = #spyre.mem<io 1>} {
  ^bb0(%x: !t):
    %1 = spyre.abs %x : (!t) -> !t
    spyre.yield %1 : !t
  }
  return %0 : !t
}

// -----

!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
#io0 = #spyre.access<mem = #spyre.mem<io 0>, base = 0, core_offsets = [1048576], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [0]>
#io1 = #spyre.access<mem = #spyre.mem<io 1>, base = 17179869184, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [65536]>
#mb = #spyre.kdim<"mb", size = 128, tile = 128>
#out = #spyre.kdim<"out", size = 256, granule = 64, tile = 256>

// A DMA outside its tensor is a fault.
// NPY: x.npy <f2 128x256
// TOOL: spyre-run --input=@%{dir}/x.npy
// EXPECT: spyre-run: error: kernel 0_abs: core 0 loads operand #0 at DDR address 1048576, outside its bytes [0, 65536) of segment 0
func.func @abs(%a: !t {spyre.mem = #spyre.mem<io 0>}) -> (!t {spyre.mem = #spyre.mem<io 1>}) attributes {spyre.pool_bytes = 0 : i64} {
  %0 = spyre.kernel "0_abs"(%a) : (!t) -> !t attributes {accesses = [#io0, #io1], dims = [#mb, #out], lx_bytes = 131072 : i64, order = array<i64: 0, 1>, segments = [#spyre.mem<io 0>, #spyre.mem<io 1>], spyre.mem = #spyre.mem<io 1>} {
  ^bb0(%x: !t):
    %1 = spyre.abs %x : (!t) -> !t
    spyre.yield %1 : !t
  }
  return %0 : !t
}

// -----

!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
#io0 = #spyre.access<mem = #spyre.mem<io 0>, base = 0, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [0]>
#io1 = #spyre.access<mem = #spyre.mem<io 1>, base = 17179869184, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [2097152]>
#mb = #spyre.kdim<"mb", size = 128, tile = 128>
#out = #spyre.kdim<"out", size = 256, granule = 64, tile = 256>

// A staging buffer past the usable LX: the kernel verifier rejects it before
// the simulator runs.
// NPY: x.npy <f2 128x256
// TOOL: spyre-run --input=@%{dir}/x.npy
// EXPECT: error: 'spyre.kernel' op access of the result: its LX staging buffer at byte 2097152 spans LX bytes [2097152, 2162688), outside the target's 1677721 usable LX bytes per core
// EXPECT-LOC: @+2
func.func @abs(%a: !t {spyre.mem = #spyre.mem<io 0>}) -> (!t {spyre.mem = #spyre.mem<io 1>}) attributes {spyre.pool_bytes = 0 : i64} {
  %0 = spyre.kernel "0_abs"(%a) : (!t) -> !t attributes {accesses = [#io0, #io1], dims = [#mb, #out], lx_bytes = 131072 : i64, order = array<i64: 0, 1>, segments = [#spyre.mem<io 0>, #spyre.mem<io 1>], spyre.mem = #spyre.mem<io 1>} {
  ^bb0(%x: !t):
    %1 = spyre.abs %x : (!t) -> !t
    spyre.yield %1 : !t
  }
  return %0 : !t
}

// -----

!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
#io0 = #spyre.access<mem = #spyre.mem<io 0>, base = 0, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [0]>
#io1 = #spyre.access<mem = #spyre.mem<io 1>, base = 17179869184, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [65536]>
#mb = #spyre.kdim<"mb", size = 128, tile = 128>
#out = #spyre.kdim<"out", size = 256, granule = 64, tile = 256>

// A kernel-form function must place its arguments.
// NPY: x.npy <f2 128x256
// TOOL: spyre-run --input=@%{dir}/x.npy
// EXPECT: spyre-run: error: argument 0 of @abs has no 'spyre.mem'; the function is not in kernel form (run --spyre-pipeline)
func.func @abs(%a: !t) -> (!t {spyre.mem = #spyre.mem<io 1>}) attributes {spyre.pool_bytes = 0 : i64} {
  %0 = spyre.kernel "0_abs"(%a) : (!t) -> !t attributes {accesses = [#io0, #io1], dims = [#mb, #out], lx_bytes = 131072 : i64, order = array<i64: 0, 1>, segments = [#spyre.mem<io 0>, #spyre.mem<io 1>], spyre.mem = #spyre.mem<io 1>} {
  ^bb0(%x: !t):
    %1 = spyre.abs %x : (!t) -> !t
    spyre.yield %1 : !t
  }
  return %0 : !t
}

// -----

!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
#io0 = #spyre.access<mem = #spyre.mem<io 0>, base = 0, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [0]>
#io1 = #spyre.access<mem = #spyre.mem<io 1>, base = 17179869184, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [65536]>
#mb = #spyre.kdim<"mb", size = 128, tile = 128>
#out = #spyre.kdim<"out", size = 256, granule = 64, tile = 256>

// The kernel verifier runs in spyre-run too.
// NPY: x.npy <f2 128x256
// TOOL: spyre-run --input=@%{dir}/x.npy
// EXPECT: 'spyre.kernel' op order [0, 0] must be a permutation of the 2 dims
// EXPECT-LOC: @+2
func.func @abs(%a: !t {spyre.mem = #spyre.mem<io 0>}) -> (!t {spyre.mem = #spyre.mem<io 1>}) attributes {spyre.pool_bytes = 0 : i64} {
  %0 = spyre.kernel "0_abs"(%a) : (!t) -> !t attributes {accesses = [#io0, #io1], dims = [#mb, #out], lx_bytes = 131072 : i64, order = array<i64: 0, 0>, segments = [#spyre.mem<io 0>, #spyre.mem<io 1>], spyre.mem = #spyre.mem<io 1>} {
  ^bb0(%x: !t):
    %1 = spyre.abs %x : (!t) -> !t
    spyre.yield %1 : !t
  }
  return %0 : !t
}

// -----

// Kernel form with chunks but no chunk_steps (--spyre-pipeline=cores=4
// output with "mb" edited to chunks = 2): the verifier rejects it before the
// simulator runs.
// NPY: x.npy <f2 128x256
// TOOL: spyre-run --input=@%{dir}/x.npy --input=@%{dir}/x.npy
// EXPECT: error: 'spyre.kernel' op access of operand #0: a kernel cut into 2 chunks needs chunk_steps, one per dim
module {
  func.func @add(%arg0: tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>> {spyre.mem = #spyre.mem<io 0>}, %arg1: tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>> {spyre.mem = #spyre.mem<io 1>}) -> (tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>> {spyre.mem = #spyre.mem<io 2>}) attributes {spyre.pool_bytes = 0 : i64} {
    %0 = spyre.kernel "0_add"(%arg0, %arg1) : (tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>, tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>) -> tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>> attributes {accesses = [#spyre.access<mem = <io 0>, base = 0, core_offsets = [0, 4096, 8192, 12288], tile_steps = [4096, 0], box = [4, 32], ddr_strides = [16384, 128], lx_strides = [4096, 128], lx_offsets = [0]>, #spyre.access<mem = <io 1>, base = 17179869184, core_offsets = [0, 4096, 8192, 12288], tile_steps = [4096, 0], box = [4, 32], ddr_strides = [16384, 128], lx_strides = [4096, 128], lx_offsets = [16384]>, #spyre.access<mem = <io 2>, base = 34359738368, core_offsets = [0, 4096, 8192, 12288], tile_steps = [4096, 0], box = [4, 32], ddr_strides = [16384, 128], lx_strides = [4096, 128], lx_offsets = [32768]>], dims = [#spyre.kdim<"mb", size = 128, split = 4, chunks = 2, tile = 16>, #spyre.kdim<"out", size = 256, granule = 64, tile = 256>], lx_bytes = 49152 : i64, order = array<i64: 0, 1>, segments = [#spyre.mem<io 0>, #spyre.mem<io 1>, #spyre.mem<io 2>], spyre.mem = #spyre.mem<io 2>} {
    ^bb0(%arg2: tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>, %arg3: tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>):
      %1 = spyre.add %arg2, %arg3 : (tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>, tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>) -> tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
      spyre.yield %1 : tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
    }
    return %0 : tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
  }
}

// -----

!t = tensor<128x256xf16, #spyre.layout<device_size = [4, 128, 64], stride_map = [64, 256, 1]>>
#io0 = #spyre.access<mem = #spyre.mem<io 0>, base = 0, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [0]>
#io1 = #spyre.access<mem = #spyre.mem<io 1>, base = 17179869184, core_offsets = [0], tile_steps = [0, 0], box = [4, 128], ddr_strides = [16384, 128], lx_strides = [16384, 128], lx_offsets = [65536]>
#mb = #spyre.kdim<"mb", size = 128, tile = 128>
#out = #spyre.kdim<"out", size = 256, granule = 64, tile = 256>

// spyre.pool_bytes = INT64_MAX: rejected before anything is allocated.
// NPY: x.npy <f2 128x256
// TOOL: spyre-run --input=@%{dir}/x.npy
// EXPECT: error: 'spyre.pool_bytes' = 9223372036854775807 does not fit the one DDR address segment the pool lives in (17179869184 bytes)
// EXPECT-LOC: @+1
func.func @abs(%a: !t {spyre.mem = #spyre.mem<io 0>}) -> (!t {spyre.mem = #spyre.mem<io 1>}) attributes {spyre.pool_bytes = 9223372036854775807 : i64} {
  %0 = spyre.kernel "0_abs"(%a) : (!t) -> !t attributes {accesses = [#io0, #io1], dims = [#mb, #out], lx_bytes = 131072 : i64, order = array<i64: 0, 1>, segments = [#spyre.mem<io 0>, #spyre.mem<io 1>], spyre.mem = #spyre.mem<io 1>} {
  ^bb0(%x: !t):
    %1 = spyre.abs %x : (!t) -> !t
    spyre.yield %1 : !t
  }
  return %0 : !t
}

// -----

// linalg.add on ui8 builds an invalid implicit body (arith.addi takes
// signless integers): the error is at the op, not at <unknown>.
// TOOL: spyre-run --random-inputs=0
// EXPECT: 'linalg.add' on 'ui8' has an invalid body: its 'arith.addi' does not take these element types
// EXPECT-LOC: @+3:8
func.func @u(%a: tensor<64x128xui8>, %b: tensor<64x128xui8>) -> tensor<64x128xui8> {
  %e = tensor.empty() : tensor<64x128xui8>
  %r = linalg.add ins(%a, %b : tensor<64x128xui8>, tensor<64x128xui8>) outs(%e : tensor<64x128xui8>) -> tensor<64x128xui8>
  return %r : tensor<64x128xui8>
}

// -----

// An index argument takes int64 (numpy has no index type), not int32.
// NPY: a.npy <i4 8
// TOOL: spyre-run --input=@%{dir}/a.npy
// EXPECT: input 0: @idx expects index elements (tensor<8xindex>), got int32
func.func @idx(%a: tensor<8xindex>) -> tensor<8xindex> {
  %e = tensor.empty() : tensor<8xindex>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<8xindex>) outs(%e : tensor<8xindex>) {
  ^bb0(%x: index, %o: index):
    %c = arith.addi %x, %x : index
    linalg.yield %c : index
  } -> tensor<8xindex>
  return %0 : tensor<8xindex>
}

// -----

// int16 arrives little-endian; a big-endian array is refused with the fix.
// NPY: a.npy >i2 4x64
// TOOL: spyre-run --input=@%{dir}/a.npy
// EXPECT: big-endian dtype '>i2' is not supported
func.func @neg(%a: tensor<4x64xi16>) -> tensor<4x64xi16> {
  %e = tensor.empty() : tensor<4x64xi16>
  %z = arith.constant dense<0> : tensor<4x64xi16>
  %0 = linalg.sub ins(%z, %a : tensor<4x64xi16>, tensor<4x64xi16>) outs(%e : tensor<4x64xi16>) -> tensor<4x64xi16>
  return %0 : tensor<4x64xi16>
}

// -----

// An int16 argument is not an int32 one.
// NPY: a.npy <i4 4x64
// TOOL: spyre-run --input=@%{dir}/a.npy
// EXPECT: input 0: @neg expects int16 elements (tensor<4x64xi16>), got int32
func.func @neg(%a: tensor<4x64xi16>) -> tensor<4x64xi16> {
  %e = tensor.empty() : tensor<4x64xi16>
  %z = arith.constant dense<0> : tensor<4x64xi16>
  %0 = linalg.sub ins(%z, %a : tensor<4x64xi16>, tensor<4x64xi16>) outs(%e : tensor<4x64xi16>) -> tensor<4x64xi16>
  return %0 : tensor<4x64xi16>
}
