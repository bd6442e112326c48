//===- NpyTest.cpp - Reading and writing NumPy .npy files -----------------===//
//
// The k* byte arrays below are files NumPy 1.24 wrote (np.save, or
// np.lib.format.write_array for versions 2.0 and 3.0), copied byte for byte;
// none was produced by the code under test. Element bytes are spelled as the
// little-endian host stores them.
//
//===----------------------------------------------------------------------===//

#include "Spyre/Sim/Npy.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include "gtest/gtest.h"

#include <cstring>
#include <string>

using namespace mlir::spyre;
using namespace mlir::spyre::sim;
using llvm::ArrayRef;
using llvm::StringRef;

namespace {

//===----------------------------------------------------------------------===//
// Files written by NumPy
//===----------------------------------------------------------------------===//

// np.save of <f4 (2, 3) [[-1.5, -0.5, 0.5], [1.5, 2.5, 3.5]]
const char k_f32_2x3[] =
    "\223NUMPY\001\000\166\000"
    "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }"
    "                                                          "
    "\n"
    "\000\000\300\277\000\000\000\277\000\000\000\077\000\000\300\077\000"
    "\000\040\100\000\000\140\100";

// np.save of <f2 (3,) [1.0, -2.0, 0.5]
const char k_f16_3[] =
    "\223NUMPY\001\000\166\000"
    "{'descr': '<f2', 'fortran_order': False, 'shape': (3,), }"
    "                                                            "
    "\n"
    "\000\074\000\300\000\070";

// np.save of |b1 (2, 2) [[True, False], [False, True]]
const char k_bool_2x2[] =
    "\223NUMPY\001\000\166\000"
    "{'descr': '|b1', 'fortran_order': False, 'shape': (2, 2), }"
    "                                                          "
    "\n"
    "\001\000\000\001";

// np.save of |i1 (4,) [-128, -1, 0, 127]
const char k_i8_4[] =
    "\223NUMPY\001\000\166\000"
    "{'descr': '|i1', 'fortran_order': False, 'shape': (4,), }"
    "                                                            "
    "\n"
    "\200\377\000\177";

// np.save of <i4 (2, 1, 2) [[[1, -2]], [[65536, -2147483648]]]
const char k_i32_2x1x2[] =
    "\223NUMPY\001\000\166\000"
    "{'descr': '<i4', 'fortran_order': False, 'shape': (2, 1, 2), }"
    "                                                       "
    "\n"
    "\001\000\000\000\376\377\377\377\000\000\001\000\000\000\000\200";

// np.save of <i8 () -5
const char k_i64_scalar[] =
    "\223NUMPY\001\000\166\000"
    "{'descr': '<i8', 'fortran_order': False, 'shape': (), }"
    "                                                              "
    "\n"
    "\373\377\377\377\377\377\377\377";

// np.save of <f2 (0, 2) []
const char k_f16_empty_0x2[] =
    "\223NUMPY\001\000\166\000"
    "{'descr': '<f2', 'fortran_order': False, 'shape': (0, 2), }"
    "                                                          "
    "\n";

// np.save of np.arange(12, dtype=np.int8).reshape(12, 1)
const char k_i8_12x1[] =
    "\223NUMPY\001\000\166\000"
    "{'descr': '|i1', 'fortran_order': False, 'shape': (12, 1), }"
    "                                                         "
    "\n"
    "\000\001\002\003\004\005\006\007\010\011\012\013";

// np.save of |b1 (1,) * 16 all True (a header longer than 128 bytes)
const char k_bool_rank16[] =
    "\223NUMPY\001\000\266\000"
    "{'descr': '|b1', 'fortran_order': False, 'shape': (1, 1, 1, 1, 1, 1,"
    " 1, 1, 1, 1, 1, 1, 1, 1, 1, 1), }"
    "                                                                    "
    "            "
    "\n"
    "\001";

// np.lib.format.write_array of <f4 (2,) [1.0, 2.0], version=(2, 0)
const char k_f32_v2[] =
    "\223NUMPY\002\000\164\000\000\000"
    "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }"
    "                                                          "
    "\n"
    "\000\000\200\077\000\000\000\100";

// np.lib.format.write_array of <i4 (2, 1) [[7], [8]], version=(3, 0)
const char k_i32_v3[] =
    "\223NUMPY\003\000\164\000\000\000"
    "{'descr': '<i4', 'fortran_order': False, 'shape': (2, 1), }"
    "                                                        "
    "\n"
    "\007\000\000\000\010\000\000\000";

// np.save of np.asfortranarray of <i4 (2, 3) [[0, 1, 2], [3, 4, 5]]
const char k_fortran_i32_2x3[] =
    "\223NUMPY\001\000\166\000"
    "{'descr': '<i4', 'fortran_order': True, 'shape': (2, 3), }"
    "                                                           "
    "\n"
    "\000\000\000\000\003\000\000\000\001\000\000\000\004\000\000\000\002"
    "\000\000\000\005\000\000\000";

// np.save of >f4 (2,) [1.0, 2.0]
const char k_bigendian_f4[] =
    "\223NUMPY\001\000\166\000"
    "{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }"
    "                                                            "
    "\n"
    "\077\200\000\000\100\000\000\000";

// np.save of >i8 (1,) [3]
const char k_bigendian_i8[] =
    "\223NUMPY\001\000\166\000"
    "{'descr': '>i8', 'fortran_order': False, 'shape': (1,), }"
    "                                                            "
    "\n"
    "\000\000\000\000\000\000\000\003";

// np.save of <c8 (1,) [(1+2j)]
const char k_c8[] =
    "\223NUMPY\001\000\166\000"
    "{'descr': '<c8', 'fortran_order': False, 'shape': (1,), }"
    "                                                            "
    "\n"
    "\000\000\200\077\000\000\000\100";

// np.save of <f8 (1,) [1.0]
const char k_f8[] =
    "\223NUMPY\001\000\166\000"
    "{'descr': '<f8', 'fortran_order': False, 'shape': (1,), }"
    "                                                            "
    "\n"
    "\000\000\000\000\000\000\360\077";

// np.save of |u1 (2,) [1, 2]
const char k_u1[] =
    "\223NUMPY\001\000\166\000"
    "{'descr': '|u1', 'fortran_order': False, 'shape': (2,), }"
    "                                                            "
    "\n"
    "\001\002";

// np.save of [("a", "<f4"), ("b", "<i4")] (1,) zeros
const char k_structured[] =
    "\223NUMPY\001\000\166\000"
    "{'descr': [('a', '<f4'), ('b', '<i4')], 'fortran_order': False,"
    " 'shape': (1,), }"
    "                                     "
    "\n"
    "\000\000\000\000\000\000\000\000";

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// The bytes of a string literal, without its terminating NUL.
template <size_t N> ArrayRef<uint8_t> bytesOf(const char (&text)[N]) {
  return ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(text), N - 1);
}

std::vector<uint8_t> vectorOf(ArrayRef<uint8_t> bytes) {
  return std::vector<uint8_t>(bytes.begin(), bytes.end());
}

/// The in-memory bytes of `values` (this host is little-endian).
template <typename T> std::vector<uint8_t> rawBytes(std::vector<T> values) {
  std::vector<uint8_t> bytes(values.size() * sizeof(T));
  if (!bytes.empty())
    std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

/// A .npy file with the given header text (padded with spaces and a newline
/// to `align`) and data bytes.
std::vector<uint8_t> makeNpy(StringRef header, ArrayRef<uint8_t> data,
                             unsigned major = 1, size_t align = 64) {
  size_t prefix = major == 1 ? 10 : 12;
  size_t length = header.size() + 1;
  length += (align - (prefix + length) % align) % align;
  std::vector<uint8_t> bytes = {
      0x93, 'N', 'U', 'M', 'P', 'Y', static_cast<uint8_t>(major), 0};
  for (size_t i = 0; i != prefix - 8; ++i)
    bytes.push_back(static_cast<uint8_t>(length >> (8 * i)));
  bytes.insert(bytes.end(), header.begin(), header.end());
  bytes.insert(bytes.end(), length - header.size() - 1, ' ');
  bytes.push_back('\n');
  bytes.insert(bytes.end(), data.begin(), data.end());
  return bytes;
}

/// The message of a failed parse, or "" (and a test failure) on success.
std::string errorOf(llvm::Expected<HostTensor> result) {
  if (result) {
    ADD_FAILURE() << "expected an error";
    return "";
  }
  return llvm::toString(result.takeError());
}

std::string errorOf(llvm::Error error) {
  if (!error) {
    ADD_FAILURE() << "expected an error";
    return "";
  }
  return llvm::toString(std::move(error));
}

std::string parseError(ArrayRef<uint8_t> bytes) {
  return errorOf(parseNpy(bytes, "t.npy"));
}

/// Parses `bytes`, failing the test on an error.
HostTensor parseOk(ArrayRef<uint8_t> bytes) {
  llvm::Expected<HostTensor> tensor = parseNpy(bytes, "t.npy");
  if (!tensor) {
    ADD_FAILURE() << llvm::toString(tensor.takeError());
    return HostTensor();
  }
  return std::move(*tensor);
}

std::vector<uint8_t> serializeOk(const HostTensor &tensor) {
  llvm::Expected<std::vector<uint8_t>> bytes = serializeNpy(tensor);
  if (!bytes) {
    ADD_FAILURE() << llvm::toString(bytes.takeError());
    return {};
  }
  return std::move(*bytes);
}

HostTensor makeTensor(HostType type, ArrayRef<int64_t> shape,
                      std::vector<uint8_t> data) {
  HostTensor tensor(type, shape);
  EXPECT_EQ(tensor.data.size(), data.size());
  tensor.data = std::move(data);
  return tensor;
}

void expectTensor(const HostTensor &tensor, HostType type,
                  ArrayRef<int64_t> shape, const std::vector<uint8_t> &data) {
  EXPECT_EQ(tensor.type, type) << stringifyHostType(tensor.type).str();
  EXPECT_EQ(ArrayRef<int64_t>(tensor.shape), shape);
  EXPECT_EQ(tensor.data, data);
}

/// A temporary file, removed when this goes out of scope.
class TempFile {
public:
  TempFile() {
    std::error_code error =
        llvm::sys::fs::createTemporaryFile("spyre-npy-test", "npy", path);
    EXPECT_FALSE(error) << error.message();
  }
  ~TempFile() { llvm::sys::fs::remove(path); }
  std::string str() const { return std::string(path.str()); }

private:
  llvm::SmallString<128> path;
};

const HostType kNpyTypes[] = {
    HostType::Float16, HostType::Float32, HostType::Bool, HostType::Int8,
    HostType::Int16,   HostType::Int32,   HostType::Int64};

//===----------------------------------------------------------------------===//
// Dtype descriptors
//===----------------------------------------------------------------------===//

TEST(NpyDescr, ForEveryHostType) {
  EXPECT_EQ(npyDescr(HostType::Float16), StringRef("<f2"));
  EXPECT_EQ(npyDescr(HostType::Float32), StringRef("<f4"));
  EXPECT_EQ(npyDescr(HostType::Bool), StringRef("|b1"));
  EXPECT_EQ(npyDescr(HostType::Int8), StringRef("|i1"));
  EXPECT_EQ(npyDescr(HostType::Int16), StringRef("<i2"));
  EXPECT_EQ(npyDescr(HostType::Int32), StringRef("<i4"));
  EXPECT_EQ(npyDescr(HostType::Int64), StringRef("<i8"));
  // numpy has no index type: index tensors are written as int64.
  EXPECT_EQ(npyDescr(HostType::Index), StringRef("<i8"));
  EXPECT_EQ(npyDescr(HostType::BFloat16), std::nullopt);
  EXPECT_EQ(npyDescr(HostType::Float8E4M3FN), std::nullopt);
  EXPECT_EQ(npyDescr(HostType::Float8E5M2), std::nullopt);
  EXPECT_EQ(npyDescr(HostType::Int4), std::nullopt);
}

TEST(NpyDescr, BackToHostType) {
  for (HostType type : kNpyTypes)
    EXPECT_EQ(hostTypeForNpyDescr(*npyDescr(type)), type);
  EXPECT_EQ(hostTypeForNpyDescr("<i1"), HostType::Int8);
  EXPECT_EQ(hostTypeForNpyDescr(">i1"), HostType::Int8);
  EXPECT_EQ(hostTypeForNpyDescr("<b1"), HostType::Bool);
  EXPECT_EQ(hostTypeForNpyDescr("|f4"), HostType::Float32);
  EXPECT_EQ(hostTypeForNpyDescr(">f4"), std::nullopt);
  EXPECT_EQ(hostTypeForNpyDescr(">i8"), std::nullopt);
  EXPECT_EQ(hostTypeForNpyDescr(">i2"), std::nullopt);
  EXPECT_EQ(hostTypeForNpyDescr("=f4"), std::nullopt);
  EXPECT_EQ(hostTypeForNpyDescr("<c8"), std::nullopt);
  EXPECT_EQ(hostTypeForNpyDescr("<f8"), std::nullopt);
  EXPECT_EQ(hostTypeForNpyDescr("|u1"), std::nullopt);
  EXPECT_EQ(hostTypeForNpyDescr("<f2 "), std::nullopt);
  EXPECT_EQ(hostTypeForNpyDescr(""), std::nullopt);
}

//===----------------------------------------------------------------------===//
// Parsing files NumPy wrote
//===----------------------------------------------------------------------===//

TEST(NpyParse, NumpyFloat32) {
  expectTensor(parseOk(bytesOf(k_f32_2x3)), HostType::Float32, {2, 3},
               rawBytes<float>({-1.5f, -0.5f, 0.5f, 1.5f, 2.5f, 3.5f}));
}

TEST(NpyParse, NumpyFloat16) {
  // 1.0, -2.0 and 0.5 in binary16.
  expectTensor(parseOk(bytesOf(k_f16_3)), HostType::Float16, {3},
               rawBytes<uint16_t>({0x3c00, 0xc000, 0x3800}));
}

TEST(NpyParse, NumpyBool) {
  expectTensor(parseOk(bytesOf(k_bool_2x2)), HostType::Bool, {2, 2},
               {1, 0, 0, 1});
}

TEST(NpyParse, NumpyInt8) {
  expectTensor(parseOk(bytesOf(k_i8_4)), HostType::Int8, {4},
               rawBytes<int8_t>({-128, -1, 0, 127}));
  std::vector<uint8_t> iota(12);
  for (size_t i = 0; i != iota.size(); ++i)
    iota[i] = i;
  expectTensor(parseOk(bytesOf(k_i8_12x1)), HostType::Int8, {12, 1}, iota);
}

TEST(NpyParse, NumpyInt32) {
  expectTensor(parseOk(bytesOf(k_i32_2x1x2)), HostType::Int32, {2, 1, 2},
               rawBytes<int32_t>({1, -2, 65536, INT32_MIN}));
}

TEST(NpyParse, NumpyInt64Scalar) {
  expectTensor(parseOk(bytesOf(k_i64_scalar)), HostType::Int64, {},
               rawBytes<int64_t>({-5}));
}

TEST(NpyParse, NumpyEmpty) {
  expectTensor(parseOk(bytesOf(k_f16_empty_0x2)), HostType::Float16, {0, 2},
               {});
}

TEST(NpyParse, NumpyLongHeader) {
  std::vector<int64_t> shape(16, 1);
  expectTensor(parseOk(bytesOf(k_bool_rank16)), HostType::Bool, shape, {1});
}

TEST(NpyParse, NumpyVersion2) {
  expectTensor(parseOk(bytesOf(k_f32_v2)), HostType::Float32, {2},
               rawBytes<float>({1.0f, 2.0f}));
}

TEST(NpyParse, NumpyVersion3) {
  expectTensor(parseOk(bytesOf(k_i32_v3)), HostType::Int32, {2, 1},
               rawBytes<int32_t>({7, 8}));
}

//===----------------------------------------------------------------------===//
// Headers NumPy accepts but does not write
//===----------------------------------------------------------------------===//

TEST(NpyParse, OtherHeaderSpellings) {
  std::vector<uint8_t> data = rawBytes<int32_t>({1, 2, 3});
  for (StringRef header : {
           // Another key order, no trailing comma, double quotes.
           StringRef("{\"shape\": (3,), \"descr\": \"<i4\", "
                     "\"fortran_order\": False}"),
           // No spaces at all.
           StringRef("{'descr':'<i4','fortran_order':False,'shape':(3,)}"),
           // Generous white space.
           StringRef(" { 'descr' : '<i4' ,\t'fortran_order' : False , "
                     "'shape' : ( 3 , ) , } "),
           // Python 2 long integers.
           StringRef("{'descr': '<i4', 'fortran_order': False, "
                     "'shape': (3L,), }"),
           // '|' byte order.
           StringRef("{'descr': '|i4', 'fortran_order': False, "
                     "'shape': (3,), }"),
       }) {
    SCOPED_TRACE(header.str());
    expectTensor(parseOk(makeNpy(header, data)), HostType::Int32, {3}, data);
  }
}

TEST(NpyParse, OldSixteenByteAlignment) {
  std::vector<uint8_t> bytes =
      makeNpy("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }",
              rawBytes<float>({4.0f}), /*major=*/1, /*align=*/16);
  EXPECT_EQ(bytes.size(), 80u + 4u);
  expectTensor(parseOk(bytes), HostType::Float32, {1}, rawBytes<float>({4.0f}));
}

TEST(NpyParse, LittleEndianInt8AndBigEndianBool) {
  expectTensor(parseOk(makeNpy("{'descr': '<i1', 'fortran_order': False, "
                               "'shape': (2,), }",
                               {0xff, 0x01})),
               HostType::Int8, {2}, {0xff, 0x01});
  expectTensor(parseOk(makeNpy("{'descr': '>b1', 'fortran_order': False, "
                               "'shape': (2,), }",
                               {0x00, 0x01})),
               HostType::Bool, {2}, {0x00, 0x01});
}

TEST(NpyParse, BoolBytesAreNormalized) {
  expectTensor(parseOk(makeNpy("{'descr': '|b1', 'fortran_order': False, "
                               "'shape': (3,), }",
                               {0x00, 0x02, 0xff})),
               HostType::Bool, {3}, {0, 1, 1});
}

TEST(NpyParse, LargerRanks) {
  std::vector<uint8_t> data(2 * 3 * 1 * 2 * 2 * 1);
  expectTensor(parseOk(makeNpy("{'descr': '|i1', 'fortran_order': False, "
                               "'shape': (2, 3, 1, 2, 2, 1), }",
                               data)),
               HostType::Int8, {2, 3, 1, 2, 2, 1}, data);
}

//===----------------------------------------------------------------------===//
// Serializing
//===----------------------------------------------------------------------===//

TEST(NpySerialize, SameBytesAsNumpy) {
  for (ArrayRef<uint8_t> file :
       {bytesOf(k_f32_2x3), bytesOf(k_f16_3), bytesOf(k_bool_2x2),
        bytesOf(k_i8_4), bytesOf(k_i8_12x1), bytesOf(k_i32_2x1x2),
        bytesOf(k_i64_scalar), bytesOf(k_f16_empty_0x2),
        bytesOf(k_bool_rank16)}) {
    HostTensor tensor = parseOk(file);
    EXPECT_EQ(serializeOk(tensor), vectorOf(file))
        << "shape rank " << tensor.rank() << ", "
        << stringifyHostType(tensor.type).str();
  }
}

TEST(NpySerialize, HeaderLayout) {
  // Version 1.0; the growth room after the dict shrinks as the first
  // dimension gets longer; the data starts at a multiple of 64.
  for (std::vector<int64_t> shape :
       {std::vector<int64_t>{0}, {7, 0}, {INT64_MAX, 0}, {0, INT64_MAX}}) {
    HostTensor tensor(HostType::Int8, shape);
    std::vector<uint8_t> bytes = serializeOk(tensor);
    ASSERT_GE(bytes.size(), 10u);
    EXPECT_EQ(bytes[6], 1);
    EXPECT_EQ(bytes[7], 0);
    size_t headerLength = bytes[8] | bytes[9] << 8;
    EXPECT_EQ(bytes.size(), 10 + headerLength);
    EXPECT_EQ(bytes.size() % 64, 0u);
    EXPECT_EQ(bytes.back(), '\n');
    expectTensor(parseOk(bytes), HostType::Int8, shape, {});
  }
}

TEST(NpySerialize, NormalizesBool) {
  HostTensor tensor = makeTensor(HostType::Bool, {3}, {0, 2, 0xff});
  std::vector<uint8_t> bytes = serializeOk(tensor);
  ASSERT_EQ(bytes.size(), 128u + 3u);
  EXPECT_EQ(std::vector<uint8_t>(bytes.end() - 3, bytes.end()),
            std::vector<uint8_t>({0, 1, 1}));
}

TEST(NpySerialize, TypesWithoutNpyDtype) {
  for (auto [type, name] : {std::pair(HostType::BFloat16, "bfloat16"),
                            std::pair(HostType::Float8E4M3FN, "float8_e4m3fn"),
                            std::pair(HostType::Float8E5M2, "float8_e5m2"),
                            std::pair(HostType::Int4, "int4")}) {
    HostTensor tensor(type, {2});
    llvm::Expected<std::vector<uint8_t>> bytes = serializeNpy(tensor);
    ASSERT_FALSE(bytes);
    EXPECT_EQ(llvm::toString(bytes.takeError()),
              std::string(stringifyHostType(type)) + " has no .npy dtype");
    EXPECT_EQ(stringifyHostType(type), name);
  }
}

TEST(NpySerialize, InvalidShape) {
  HostTensor tensor;
  tensor.type = HostType::Int32;
  tensor.shape = {2, -1};
  llvm::Expected<std::vector<uint8_t>> bytes = serializeNpy(tensor);
  ASSERT_FALSE(bytes);
  EXPECT_EQ(llvm::toString(bytes.takeError()),
            "shape (2, -1) has a negative dimension or is too large");
  tensor.shape = {INT64_MAX, 0};
  bytes = serializeNpy(tensor);
  ASSERT_FALSE(bytes);
  EXPECT_EQ(llvm::toString(bytes.takeError()),
            "shape (9223372036854775807, 0) has a negative dimension or is too "
            "large");
}

TEST(NpySerialize, DataSizeMismatch) {
  HostTensor tensor(HostType::Float32, {2, 3});
  tensor.data.pop_back();
  llvm::Expected<std::vector<uint8_t>> bytes = serializeNpy(tensor);
  ASSERT_FALSE(bytes);
  EXPECT_EQ(llvm::toString(bytes.takeError()),
            "tensor data has 23 bytes, but shape (2, 3) of float32 needs 24");
}

//===----------------------------------------------------------------------===//
// Round trips
//===----------------------------------------------------------------------===//

/// Tensors of every .npy type and ranks 0 to 4, including empty ones.
std::vector<HostTensor> roundTripTensors() {
  std::vector<std::vector<int64_t>> shapes = {
      {}, {5}, {2, 3}, {2, 1, 3}, {2, 3, 1, 2}, {0}, {3, 0, 2}, {1, 1, 1, 1}};
  std::vector<HostTensor> tensors;
  for (HostType type : kNpyTypes) {
    for (const std::vector<int64_t> &shape : shapes) {
      HostTensor tensor(type, shape);
      for (size_t i = 0; i != tensor.data.size(); ++i)
        tensor.data[i] =
            type == HostType::Bool ? i % 3 == 0 : (i * 37 + 11) & 0xff;
      tensors.push_back(std::move(tensor));
    }
  }
  return tensors;
}

TEST(NpyRoundTrip, InMemory) {
  for (const HostTensor &tensor : roundTripTensors()) {
    std::vector<uint8_t> bytes = serializeOk(tensor);
    expectTensor(parseOk(bytes), tensor.type, tensor.shape, tensor.data);
  }
}

TEST(NpyRoundTrip, ThroughFiles) {
  TempFile file;
  for (const HostTensor &tensor : roundTripTensors()) {
    ASSERT_FALSE(errorToBool(writeNpy(file.str(), tensor)));
    llvm::Expected<HostTensor> read = readNpy(file.str());
    ASSERT_TRUE(bool(read)) << llvm::toString(read.takeError());
    expectTensor(*read, tensor.type, tensor.shape, tensor.data);
  }
}

TEST(NpyRoundTrip, FileHoldsSerializedBytes) {
  TempFile file;
  HostTensor tensor = parseOk(bytesOf(k_f32_2x3));
  ASSERT_FALSE(errorToBool(writeNpy(file.str(), tensor)));
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(file.str());
  ASSERT_TRUE(bool(buffer));
  EXPECT_EQ((*buffer)->getBuffer(),
            StringRef(k_f32_2x3, sizeof(k_f32_2x3) - 1));
}

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

TEST(NpyErrors, BadMagic) {
  const char kBadMagic[] =
      "t.npy: bad magic (not a .npy file; a .npy file starts with the bytes "
      "\\x93NUMPY)";
  EXPECT_EQ(parseError(bytesOf("hello, world")), kBadMagic);
  EXPECT_EQ(parseError(bytesOf("\223NUMPX\001\000")), kBadMagic);
  EXPECT_EQ(parseError(bytesOf("x")), kBadMagic);
  EXPECT_EQ(parseError(bytesOf("PK\003\004\024\000\000\000")),
            "t.npy: bad magic (this is a zip archive such as a .npz file, not "
            "a .npy file)");
  EXPECT_EQ(parseError({}), "t.npy: bad magic (the file is empty)");
}

TEST(NpyErrors, UnsupportedVersion) {
  std::vector<uint8_t> bytes = vectorOf(bytesOf(k_f32_2x3));
  bytes[6] = 4;
  EXPECT_EQ(parseError(bytes), "t.npy: unsupported .npy format version 4.0 "
                               "(supported: 1.0, 2.0, 3.0)");
  bytes[6] = 1;
  bytes[7] = 1;
  EXPECT_EQ(parseError(bytes), "t.npy: unsupported .npy format version 1.1 "
                               "(supported: 1.0, 2.0, 3.0)");
}

TEST(NpyErrors, TruncatedHeader) {
  ArrayRef<uint8_t> file = bytesOf(k_f32_2x3);
  EXPECT_EQ(parseError(file.take_front(3)),
            "t.npy: truncated header (expected 8 bytes, got 3)");
  EXPECT_EQ(parseError(file.take_front(9)),
            "t.npy: truncated header (expected 10 bytes, got 9)");
  EXPECT_EQ(parseError(file.take_front(50)),
            "t.npy: truncated header (expected 128 bytes, got 50)");
  EXPECT_EQ(parseError(bytesOf(k_f32_v2).take_front(11)),
            "t.npy: truncated header (expected 12 bytes, got 11)");
  EXPECT_EQ(parseError(bytesOf(k_f32_v2).take_front(127)),
            "t.npy: truncated header (expected 128 bytes, got 127)");
}

TEST(NpyErrors, TruncatedData) {
  EXPECT_EQ(parseError(bytesOf(k_f32_2x3).drop_back()),
            "t.npy: truncated data (expected 24 bytes, got 23)");
  EXPECT_EQ(parseError(bytesOf(k_i64_scalar).take_front(128)),
            "t.npy: truncated data (expected 8 bytes, got 0)");
}

TEST(NpyErrors, TrailingData) {
  std::vector<uint8_t> bytes = vectorOf(bytesOf(k_i8_4));
  bytes.push_back(0);
  EXPECT_EQ(parseError(bytes),
            "t.npy: trailing bytes after the data (expected 4 bytes, got 5)");
}

TEST(NpyErrors, UnsupportedDtype) {
  const char kSupported[] =
      "supported: '<f2', '<f4', '|b1', '|i1', '<i2', '<i4', '<i8'";
  EXPECT_EQ(parseError(bytesOf(k_c8)),
            std::string("t.npy: unsupported dtype '<c8' (") + kSupported + ")");
  EXPECT_EQ(parseError(bytesOf(k_f8)),
            std::string("t.npy: unsupported dtype '<f8' (") + kSupported + ")");
  EXPECT_EQ(parseError(bytesOf(k_u1)),
            std::string("t.npy: unsupported dtype '|u1' (") + kSupported + ")");
  EXPECT_EQ(parseError(bytesOf(k_structured)),
            std::string("t.npy: unsupported dtype [('a', '<f4'), ('b', "
                        "'<i4')] (structured dtypes are not supported; ") +
                kSupported + ")");
  EXPECT_EQ(parseError(makeNpy("{'descr': '>c8', 'fortran_order': False, "
                               "'shape': (1,), }",
                               std::vector<uint8_t>(8))),
            std::string("t.npy: unsupported dtype '>c8' (") + kSupported + ")");
}

TEST(NpyErrors, BigEndian) {
  EXPECT_EQ(parseError(bytesOf(k_bigendian_f4)),
            "t.npy: big-endian dtype '>f4' is not supported (save a "
            "little-endian array, e.g. a.astype('<f4'))");
  EXPECT_EQ(parseError(bytesOf(k_bigendian_i8)),
            "t.npy: big-endian dtype '>i8' is not supported (save a "
            "little-endian array, e.g. a.astype('<i8'))");
}

TEST(NpyErrors, FortranOrder) {
  EXPECT_EQ(parseError(bytesOf(k_fortran_i32_2x3)),
            "t.npy: fortran_order=True is not supported (save a C-ordered "
            "array, e.g. np.ascontiguousarray(a))");
}

TEST(NpyErrors, MalformedHeaderDict) {
  struct Case {
    const char *header;
    const char *problem;
  };
  const Case cases[] = {
      {"'descr': '<f4'", "expected '{' at the start"},
      {"{'descr': '<f4', 'shape': (1,), }", "missing key 'fortran_order'"},
      {"{'fortran_order': False, 'shape': (1,), }", "missing key 'descr'"},
      {"{'descr': '<f4', 'fortran_order': False}", "missing key 'shape'"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (1,), 'x': 1}",
       "unexpected key 'x' (expected 'descr', 'fortran_order' and 'shape')"},
      {"{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, "
       "'shape': (1,)}",
       "duplicate key 'descr'"},
      {"{'descr': <f4, 'fortran_order': False, 'shape': (1,)}",
       "the value of 'descr' is not a string"},
      {"{'descr': '<f4', 'fortran_order': false, 'shape': (1,)}",
       "the value of 'fortran_order' is not True or False"},
      {"{'descr': '<f4', 'fortran_order': Falsehood, 'shape': (1,)}",
       "the value of 'fortran_order' is not True or False"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': [1]}",
       "the value of 'shape' is not a tuple of integers"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (1.5,)}",
       "the value of 'shape' is not a tuple of integers"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (,)}",
       "the value of 'shape' is not a tuple of integers"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (1)}",
       "the value of 'shape' is not a tuple of integers (a one-dimensional "
       "shape is written '(1,)')"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (2, -1)}",
       "negative dimension in 'shape'"},
      {"{'descr': '<f4', 'fortran_order': False, "
       "'shape': (99999999999999999999,)}",
       "the value of 'shape' is not a tuple of integers"},
      {"{'descr': '<f4', 'fortran_order': False, "
       "'shape': (9999999999999999999,)}",
       "dimension 9999999999999999999 in 'shape' is too large"},
      {"{'descr': '<f4' 'fortran_order': False, 'shape': (1,)}",
       "expected ',' or '}' after the value of 'descr'"},
      {"{'descr' '<f4', 'fortran_order': False, 'shape': (1,)}",
       "expected ':' after key 'descr'"},
      {"{descr: '<f4', 'fortran_order': False, 'shape': (1,)}",
       "expected a quoted key or '}'"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (1,)",
       "expected ',' or '}' after the value of 'shape'"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (1,)} x",
       "unexpected text after '}'"},
      {"{'descr': [('a', '<f4'), 'fortran_order': False, 'shape': (1,)}",
       "unterminated list as the value of 'descr'"},
      {"", "expected '{' at the start"},
  };
  for (const Case &c : cases)
    EXPECT_EQ(parseError(makeNpy(c.header, {})),
              std::string("t.npy: malformed header dict: ") + c.problem +
                  " (header: " + c.header + ")");
}

TEST(NpyErrors, MalformedHeaderDictShownShortened) {
  std::string header = "{'descr': '<f4', 'junk': '" + std::string(300, 'j');
  std::string error = parseError(makeNpy(header, {}));
  EXPECT_EQ(error, "t.npy: malformed header dict: unexpected key 'junk' "
                   "(expected 'descr', 'fortran_order' and 'shape') "
                   "(header: " +
                       header.substr(0, 200) + "...)");
}

TEST(NpyErrors, ShapeTooLarge) {
  EXPECT_EQ(parseError(makeNpy("{'descr': '<f4', 'fortran_order': False, "
                               "'shape': (4611686018427387904, 2), }",
                               {})),
            "t.npy: shape (4611686018427387904, 2) is too large");
  // As in numpy, empty arrays are too large if their nonzero dimensions are.
  EXPECT_EQ(parseError(makeNpy("{'descr': '<f2', 'fortran_order': False, "
                               "'shape': (9223372036854775807, 0), }",
                               {})),
            "t.npy: shape (9223372036854775807, 0) is too large");
  expectTensor(parseOk(makeNpy("{'descr': '|i1', 'fortran_order': False, "
                               "'shape': (9223372036854775807, 0), }",
                               {})),
               HostType::Int8, {INT64_MAX, 0}, {});
}

TEST(NpyErrors, MissingFile) {
  std::string path;
  {
    TempFile file;
    path = file.str();
  }
  ASSERT_FALSE(llvm::sys::fs::exists(path));
  EXPECT_EQ(errorOf(readNpy(path)),
            "cannot read " + path + ": No such file or directory");
}

TEST(NpyErrors, ReadErrorsNameThePath) {
  TempFile file;
  std::vector<uint8_t> bytes = vectorOf(bytesOf(k_bigendian_f4));
  {
    std::error_code error;
    llvm::raw_fd_ostream os(file.str(), error);
    ASSERT_FALSE(error) << error.message();
    os.write(reinterpret_cast<const char *>(bytes.data()), bytes.size());
  }
  EXPECT_EQ(errorOf(readNpy(file.str())),
            file.str() + ": big-endian dtype '>f4' is not supported (save a "
                         "little-endian array, e.g. a.astype('<f4'))");
}

TEST(NpyErrors, WriteWithoutNpyDtype) {
  std::string path;
  {
    TempFile file;
    path = file.str();
  }
  EXPECT_EQ(errorOf(writeNpy(path, HostTensor(HostType::BFloat16, {2}))),
            "cannot write " + path + ": bfloat16 has no .npy dtype");
  // Nothing was created.
  EXPECT_FALSE(llvm::sys::fs::exists(path));
}

TEST(NpyErrors, WriteToImpossiblePath) {
  TempFile file;
  // A path under a regular file.
  std::string path = file.str() + "/x.npy";
  EXPECT_EQ(errorOf(writeNpy(path, HostTensor(HostType::Float32, {2}))),
            "cannot write " + path + ": Not a directory");
}

} // namespace
