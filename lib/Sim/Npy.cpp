//===- Npy.cpp - Read and write NumPy .npy files --------------------------===//
//
// A .npy file is the magic "\x93NUMPY", a major and a minor version byte, the
// header length (2 bytes little-endian in version 1.0, 4 bytes in 2.0 and
// 3.0), then the header: a Python dict literal such as
//   {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
// padded with spaces and a newline, then the raw elements. The header is
// parsed as the small subset of Python literals numpy writes.
//
//===----------------------------------------------------------------------===//

#include "Spyre/Sim/Npy.h"
#include "Spyre/Support/HostMemory.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstring>
#include <string>

using namespace mlir::spyre;
using namespace mlir::spyre::sim;
using llvm::ArrayRef;
using llvm::StringRef;
using llvm::Twine;

namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicLen = 6;
/// numpy's ARRAY_ALIGN: the data starts at a multiple of this.
constexpr size_t kArrayAlign = 64;
/// numpy's GROWTH_AXIS_MAX_DIGITS: the header leaves room for the first
/// dimension to grow to this many digits.
constexpr size_t kGrowthAxisMaxDigits = 21;
/// Longest header text shown in a "malformed header dict" message.
constexpr size_t kMaxShownHeader = 200;

llvm::Error makeError(const Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// The Python repr of a shape tuple: "()", "(3,)", "(2, 3)".
std::string formatShape(ArrayRef<int64_t> shape) {
  std::string text = "(";
  llvm::raw_string_ostream os(text);
  llvm::interleave(shape, os, ", ");
  if (shape.size() == 1)
    os << ',';
  os << ')';
  return text;
}

/// The number of bytes `shape` of `elementBytes`-byte elements occupies, or
/// std::nullopt if a dimension is negative or, as numpy checks it, the
/// product of the nonzero dimensions and the element size overflows.
std::optional<uint64_t> dataBytes(ArrayRef<int64_t> shape,
                                  unsigned elementBytes) {
  int64_t bytes = elementBytes;
  bool empty = false;
  for (int64_t dim : shape) {
    if (dim < 0)
      return std::nullopt;
    if (dim == 0)
      empty = true;
    else if (llvm::MulOverflow(bytes, dim, bytes))
      return std::nullopt;
  }
  return empty ? 0 : static_cast<uint64_t>(bytes);
}

/// The header dict of a .npy file.
struct NpyHeader {
  /// The dtype descriptor; the raw list text if `structured`.
  std::string descr;
  bool structured = false;
  bool fortranOrder = false;
  llvm::SmallVector<int64_t, 6> shape;
};

/// Parses the Python dict literal numpy writes as the header: string keys,
/// string or list (structured dtype) 'descr', bool 'fortran_order', tuple of
/// integers 'shape'. Errors describe what is wrong, without a prefix.
class HeaderParser {
public:
  explicit HeaderParser(StringRef text) : rest(text) {}

  llvm::Expected<NpyHeader> parse() {
    NpyHeader header;
    bool seenDescr = false, seenFortranOrder = false, seenShape = false;
    if (!consume('{'))
      return makeError("expected '{' at the start");
    while (!consume('}')) {
      std::string key;
      if (!parseString(key))
        return makeError("expected a quoted key or '}'");
      if (!consume(':'))
        return makeError("expected ':' after key '" + key + "'");
      skipSpace();
      if (key == "descr") {
        if (seenDescr)
          return duplicateKey(key);
        seenDescr = true;
        if (rest.starts_with("[")) {
          if (!parseBracketed(header.descr))
            return makeError("unterminated list as the value of 'descr'");
          header.structured = true;
        } else if (!parseString(header.descr)) {
          return makeError("the value of 'descr' is not a string");
        }
      } else if (key == "fortran_order") {
        if (seenFortranOrder)
          return duplicateKey(key);
        seenFortranOrder = true;
        if (consumeWord("True"))
          header.fortranOrder = true;
        else if (consumeWord("False"))
          header.fortranOrder = false;
        else
          return makeError("the value of 'fortran_order' is not True or False");
      } else if (key == "shape") {
        if (seenShape)
          return duplicateKey(key);
        seenShape = true;
        if (llvm::Error error = parseShape(header.shape))
          return error;
      } else {
        return makeError("unexpected key '" + key +
                         "' (expected 'descr', 'fortran_order' and 'shape')");
      }
      if (consume(','))
        continue;
      if (consume('}'))
        break;
      return makeError("expected ',' or '}' after the value of '" + key + "'");
    }
    skipSpace();
    if (!rest.empty())
      return makeError("unexpected text after '}'");
    if (!seenDescr)
      return missingKey("descr");
    if (!seenFortranOrder)
      return missingKey("fortran_order");
    if (!seenShape)
      return missingKey("shape");
    return header;
  }

private:
  static llvm::Error duplicateKey(StringRef key) {
    return makeError("duplicate key '" + key + "'");
  }
  static llvm::Error missingKey(StringRef key) {
    return makeError("missing key '" + key + "'");
  }

  void skipSpace() { rest = rest.ltrim(" \t\r\n"); }

  /// Skips white space, then `c` if it comes next.
  bool consume(char c) {
    skipSpace();
    return rest.consume_front(StringRef(&c, 1));
  }

  /// `word` if it comes next and is not the start of a longer identifier.
  bool consumeWord(StringRef word) {
    if (!rest.starts_with(word))
      return false;
    StringRef after = rest.drop_front(word.size());
    if (!after.empty() &&
        (llvm::isAlnum(after.front()) || after.front() == '_'))
      return false;
    rest = after;
    return true;
  }

  /// A '...' or "..." literal without escapes (numpy writes none).
  bool parseString(std::string &out) {
    skipSpace();
    if (rest.empty() || (rest.front() != '\'' && rest.front() != '"'))
      return false;
    char quote = rest.front();
    size_t end = rest.find(quote, 1);
    if (end == StringRef::npos)
      return false;
    StringRef body = rest.slice(1, end);
    if (body.contains('\\'))
      return false;
    out = body.str();
    rest = rest.drop_front(end + 1);
    return true;
  }

  /// The text of a bracketed list (a structured dtype), quotes respected.
  bool parseBracketed(std::string &out) {
    int depth = 0;
    char quote = 0;
    for (size_t i = 0, e = rest.size(); i != e; ++i) {
      char c = rest[i];
      if (quote) {
        if (c == quote)
          quote = 0;
      } else if (c == '\'' || c == '"') {
        quote = c;
      } else if (c == '[' || c == '(') {
        ++depth;
      } else if ((c == ']' || c == ')') && --depth == 0) {
        out = rest.take_front(i + 1).str();
        rest = rest.drop_front(i + 1);
        return true;
      }
    }
    return false;
  }

  /// A tuple of non-negative integers: "()", "(3,)", "(2, 3)"; Python 2's
  /// "3L" spelling is accepted.
  llvm::Error parseShape(llvm::SmallVectorImpl<int64_t> &shape) {
    auto notATuple = [] {
      return makeError("the value of 'shape' is not a tuple of integers");
    };
    if (!consume('('))
      return notATuple();
    bool trailingComma = false;
    while (!consume(')')) {
      if (rest.starts_with("-"))
        return makeError("negative dimension in 'shape'");
      unsigned long long dim;
      if (rest.empty() || !llvm::isDigit(rest.front()) ||
          rest.consumeInteger(10, dim))
        return notATuple();
      if (dim > static_cast<unsigned long long>(INT64_MAX))
        return makeError("dimension " + Twine(dim) +
                         " in 'shape' is too large");
      shape.push_back(static_cast<int64_t>(dim));
      rest.consume_front("L");
      trailingComma = consume(',');
      if (trailingComma)
        continue;
      if (consume(')'))
        break;
      return notATuple();
    }
    if (shape.size() == 1 && !trailingComma)
      return makeError("the value of 'shape' is not a tuple of integers "
                       "(a one-dimensional shape is written '(" +
                       Twine(shape.front()) + ",)')");
    return llvm::Error::success();
  }

  StringRef rest;
};

/// The dtype descriptors whose byte order is the only thing wrong.
bool isBigEndianOfSupported(StringRef descr) {
  return descr.size() > 1 && descr.front() == '>' &&
         hostTypeForNpyDescr(("<" + descr.drop_front()).str()).has_value();
}

} // namespace

std::optional<HostType> mlir::spyre::sim::hostTypeForNpyDescr(StringRef descr) {
  if (descr.size() != 3)
    return std::nullopt;
  char order = descr.front();
  StringRef kind = descr.drop_front();
  std::optional<HostType> type;
  if (kind == "f2")
    type = HostType::Float16;
  else if (kind == "f4")
    type = HostType::Float32;
  else if (kind == "b1")
    type = HostType::Bool;
  else if (kind == "i1")
    type = HostType::Int8;
  else if (kind == "i2")
    type = HostType::Int16;
  else if (kind == "i4")
    type = HostType::Int32;
  else if (kind == "i8")
    type = HostType::Int64;
  if (!type)
    return std::nullopt;
  if (order == '<' || order == '|')
    return type;
  if (order == '>' && hostElementBytes(*type) == 1)
    return type;
  return std::nullopt;
}

llvm::Expected<HostTensor> mlir::spyre::sim::parseNpy(ArrayRef<uint8_t> bytes,
                                                      StringRef name) {
  auto fail = [&](const Twine &what) { return makeError(name + ": " + what); };
  auto truncatedHeader = [&](uint64_t expected) {
    return fail("truncated header (expected " + Twine(expected) +
                " bytes, got " + Twine(bytes.size()) + ")");
  };

  // Magic and version.
  if (bytes.empty())
    return fail("bad magic (the file is empty)");
  if (std::memcmp(bytes.data(), kMagic, std::min(bytes.size(), kMagicLen))) {
    if (bytes.size() >= 4 && std::memcmp(bytes.data(), "PK\x03\x04", 4) == 0)
      return fail("bad magic (this is a zip archive such as a .npz file, not "
                  "a .npy file)");
    return fail("bad magic (not a .npy file; a .npy file starts with the "
                "bytes \\x93NUMPY)");
  }
  if (bytes.size() < kMagicLen + 2)
    return truncatedHeader(kMagicLen + 2);
  unsigned major = bytes[kMagicLen], minor = bytes[kMagicLen + 1];
  if (major < 1 || major > 3 || minor != 0)
    return fail("unsupported .npy format version " + Twine(major) + "." +
                Twine(minor) + " (supported: 1.0, 2.0, 3.0)");

  // Header.
  size_t preamble = kMagicLen + 2 + (major == 1 ? 2 : 4);
  if (bytes.size() < preamble)
    return truncatedHeader(preamble);
  const uint8_t *lengthBytes = bytes.data() + kMagicLen + 2;
  uint64_t headerLength = major == 1
                              ? llvm::support::endian::read16le(lengthBytes)
                              : llvm::support::endian::read32le(lengthBytes);
  uint64_t dataOffset = preamble + headerLength;
  if (bytes.size() < dataOffset)
    return truncatedHeader(dataOffset);
  StringRef headerText(reinterpret_cast<const char *>(bytes.data()) + preamble,
                       headerLength);
  llvm::Expected<NpyHeader> header = HeaderParser(headerText).parse();
  if (!header) {
    StringRef shown = headerText.trim();
    return fail(
        "malformed header dict: " + Twine(llvm::toString(header.takeError())) +
        " (header: " + shown.take_front(kMaxShownHeader) +
        (shown.size() > kMaxShownHeader ? "..." : "") + ")");
  }

  // Dtype and order.
  const char *supported =
      "supported: '<f2', '<f4', '|b1', '|i1', '<i2', '<i4', '<i8'";
  if (header->structured)
    return fail("unsupported dtype " + Twine(header->descr) +
                " (structured dtypes are not supported; " + supported + ")");
  std::optional<HostType> type = hostTypeForNpyDescr(header->descr);
  if (!type) {
    if (isBigEndianOfSupported(header->descr))
      return fail("big-endian dtype '" + Twine(header->descr) +
                  "' is not supported (save a little-endian array, e.g. "
                  "a.astype('<" +
                  StringRef(header->descr).drop_front() + "'))");
    return fail("unsupported dtype '" + Twine(header->descr) + "' (" +
                supported + ")");
  }
  if (header->fortranOrder)
    return fail("fortran_order=True is not supported (save a C-ordered "
                "array, e.g. np.ascontiguousarray(a))");

  // Data.
  std::optional<uint64_t> expected =
      dataBytes(header->shape, hostElementBytes(*type));
  if (!expected)
    return fail("shape " + formatShape(header->shape) + " is too large");
  uint64_t got = bytes.size() - dataOffset;
  if (got < *expected)
    return fail("truncated data (expected " + Twine(*expected) +
                " bytes, got " + Twine(got) + ")");
  if (got > *expected)
    return fail("trailing bytes after the data (expected " + Twine(*expected) +
                " bytes, got " + Twine(got) + ")");

  HostTensor tensor;
  tensor.type = *type;
  tensor.shape = std::move(header->shape);
  tensor.data.assign(bytes.begin() + dataOffset, bytes.end());
  if (tensor.type == HostType::Bool)
    for (uint8_t &byte : tensor.data)
      byte = byte != 0;
  return tensor;
}

/// The size of the whole .npy file `prefix` starts, once enough of it is
/// there (0: read more, up to `need`), or the error its first bytes already
/// show. Only the preamble and header are looked at.
static llvm::Expected<uint64_t> npyFileSize(ArrayRef<uint8_t> prefix,
                                            StringRef name, uint64_t &need) {
  need = 0;
  if (prefix.size() >= kMagicLen &&
      std::memcmp(prefix.data(), kMagic, kMagicLen) == 0 &&
      prefix.size() >= kMagicLen + 2) {
    unsigned major = prefix[kMagicLen];
    size_t preamble = kMagicLen + 2 + (major == 1 ? 2 : 4);
    if (prefix.size() < preamble) {
      need = preamble;
      return 0;
    }
    const uint8_t *lengthBytes = prefix.data() + kMagicLen + 2;
    uint64_t headerLength = major == 1
                                ? llvm::support::endian::read16le(lengthBytes)
                                : llvm::support::endian::read32le(lengthBytes);
    if (prefix.size() < preamble + headerLength) {
      need = preamble + headerLength;
      return 0;
    }
  }
  // The header is complete (or the prefix is broken): parse it as a file
  // with no data, and read the expected size from the "truncated data"
  // error, or report the header's error.
  llvm::Expected<HostTensor> parsed = parseNpy(prefix, name);
  if (parsed)
    return prefix.size();
  std::string message = llvm::toString(parsed.takeError());
  StringRef text(message);
  size_t at = text.find("truncated data (expected ");
  if (at == StringRef::npos)
    return makeError(message);
  uint64_t dataBytesExpected = 0;
  text.drop_front(at + strlen("truncated data (expected "))
      .consumeInteger(10, dataBytesExpected);
  // The data starts where the prefix ends.
  return prefix.size() + dataBytesExpected;
}

llvm::Expected<HostTensor> mlir::spyre::sim::readNpy(StringRef path) {
  // Read the header first: a stream that is not a .npy file (/dev/zero) is
  // refused after a few bytes, and the data size is checked against the
  // host's memory before anything that large is read.
  int fd = -1;
  if (std::error_code error = llvm::sys::fs::openFileForRead(path, fd))
    return makeError("cannot read " + path + ": " + error.message());
  llvm::scope_exit closeFd(
      [&] { llvm::sys::Process::SafelyCloseFileDescriptor(fd); });
  std::vector<uint8_t> bytes;
  auto readTo = [&](uint64_t size) -> llvm::Error {
    while (bytes.size() < size) {
      size_t old = bytes.size();
      size_t chunk = std::min<uint64_t>(size - old, uint64_t(1) << 26);
      bytes.resize(old + chunk);
      llvm::Expected<size_t> got = llvm::sys::fs::readNativeFile(
          llvm::sys::fs::convertFDToNativeFile(fd),
          llvm::MutableArrayRef<char>(
              reinterpret_cast<char *>(bytes.data() + old), chunk));
      if (!got)
        return got.takeError();
      bytes.resize(old + *got);
      if (*got == 0)
        break; // end of file
    }
    return llvm::Error::success();
  };
  uint64_t need = kMagicLen + 2 + 4;
  uint64_t total = 0;
  for (int round = 0; round < 4; ++round) {
    if (llvm::Error error = readTo(need))
      return makeError("cannot read " + path + ": " +
                       llvm::toString(std::move(error)));
    bool complete = bytes.size() >= need;
    llvm::Expected<uint64_t> size = npyFileSize(bytes, path, need);
    if (!size)
      return size.takeError();
    if (*size) {
      total = *size;
      break;
    }
    if (!complete)
      break; // the file ends inside its header
  }
  if (!total)
    return parseNpy(bytes, path); // the header itself is cut short
  uint64_t available = hostMemoryBytes();
  if (total > available / 2)
    return makeError(llvm::formatv(
        "{0}: the array needs {1} of memory to read; this machine has {2}",
        path, formatBytes(total), formatBytes(available)));
  // The whole of a regular file (its trailing bytes, if any, are counted in
  // the error); one byte more than expected from a stream, to notice them.
  uint64_t toRead = total + 1;
  llvm::sys::fs::file_status status;
  if (!llvm::sys::fs::status(path, status) &&
      llvm::sys::fs::is_regular_file(status) && status.getSize() > total &&
      status.getSize() <= available / 2)
    toRead = status.getSize();
  if (llvm::Error error = readTo(toRead))
    return makeError("cannot read " + path + ": " +
                     llvm::toString(std::move(error)));
  return parseNpy(bytes, path);
}

llvm::Expected<std::vector<uint8_t>>
mlir::spyre::sim::serializeNpy(const HostTensor &tensor) {
  std::optional<StringRef> descr = npyDescr(tensor.type);
  if (!descr)
    return makeError(stringifyHostType(tensor.type) + " has no .npy dtype");
  std::optional<uint64_t> expected =
      dataBytes(tensor.shape, hostElementBytes(tensor.type));
  if (!expected)
    return makeError("shape " + formatShape(tensor.shape) +
                     " has a negative dimension or is too large");
  if (tensor.data.size() != *expected)
    return makeError("tensor data has " + Twine(tensor.data.size()) +
                     " bytes, but shape " + formatShape(tensor.shape) + " of " +
                     stringifyHostType(tensor.type) + " needs " +
                     Twine(*expected));

  // As numpy's _write_array_header: sorted keys, each followed by ", ", then
  // room for the first dimension to grow.
  std::string header =
      ("{'descr': '" + *descr + "', 'fortran_order': False, 'shape': " +
       formatShape(tensor.shape) + ", }")
          .str();
  if (!tensor.shape.empty()) {
    size_t digits = std::to_string(tensor.shape.front()).size();
    if (digits < kGrowthAxisMaxDigits)
      header.append(kGrowthAxisMaxDigits - digits, ' ');
  }

  // As numpy's _wrap_header: pad with 1 to kArrayAlign spaces and a newline
  // so the data starts aligned; version 2.0 only if 1.0 cannot hold it.
  auto paddedLength = [&](size_t lengthBytes) {
    size_t withNewline = header.size() + 1;
    size_t prefix = kMagicLen + 2 + lengthBytes;
    return withNewline + kArrayAlign - (prefix + withNewline) % kArrayAlign;
  };
  unsigned major = paddedLength(2) <= UINT16_MAX ? 1 : 2;
  size_t lengthBytes = major == 1 ? 2 : 4;
  size_t headerLength = paddedLength(lengthBytes);

  std::vector<uint8_t> bytes;
  bytes.reserve(kMagicLen + 2 + lengthBytes + headerLength + *expected);
  bytes.insert(bytes.end(), kMagic, kMagic + kMagicLen);
  bytes.push_back(major);
  bytes.push_back(0);
  uint8_t length[4];
  if (major == 1)
    llvm::support::endian::write16le(length, headerLength);
  else
    llvm::support::endian::write32le(length, headerLength);
  bytes.insert(bytes.end(), length, length + lengthBytes);
  bytes.insert(bytes.end(), header.begin(), header.end());
  bytes.insert(bytes.end(), headerLength - header.size() - 1, ' ');
  bytes.push_back('\n');
  size_t dataOffset = bytes.size();
  bytes.insert(bytes.end(), tensor.data.begin(), tensor.data.end());
  if (tensor.type == HostType::Bool)
    for (size_t i = dataOffset, e = bytes.size(); i != e; ++i)
      bytes[i] = bytes[i] != 0;
  return bytes;
}

llvm::Error mlir::spyre::sim::writeNpy(StringRef path,
                                       const HostTensor &tensor) {
  llvm::Expected<std::vector<uint8_t>> bytes = serializeNpy(tensor);
  if (!bytes)
    return makeError("cannot write " + path + ": " +
                     llvm::toString(bytes.takeError()));
  std::error_code error;
  llvm::raw_fd_ostream os(path, error, llvm::sys::fs::OF_None);
  if (error)
    return makeError("cannot write " + path + ": " + error.message());
  os.write(reinterpret_cast<const char *>(bytes->data()), bytes->size());
  os.close();
  if (os.has_error()) {
    error = os.error();
    os.clear_error();
    return makeError("cannot write " + path + ": " + error.message());
  }
  return llvm::Error::success();
}
