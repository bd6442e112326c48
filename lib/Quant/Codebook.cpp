//===- Codebook.cpp - TensorCast codebooks --------------------------------===//
//
// Parses TensorCast's codebook codes and builds the mappings of implicit
// codebooks from the compute type's number line (ROCm/tensorcast
// docs/codebook.md). docs/quantization.md states each reading of that text.
//
//===----------------------------------------------------------------------===//

#include "Spyre/Quant/Quant.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>

using namespace mlir::spyre::quant;

namespace {

llvm::Error fail(const llvm::Twine &message) {
  return llvm::createStringError(message);
}

/// A value as a diagnostic prints it (shortest of %g).
std::string str(double value) {
  return llvm::formatv("{0}", llvm::format("%g", value)).str();
}

/// The compute type's number line: every encoding, negatives first. A
/// positive value with code c sits at index 2^(bits-1) + c.
struct NumberLine {
  Format format;
  unsigned bits;
  int64_t half;
  /// The index of the largest finite value.
  int64_t top;

  explicit NumberLine(Format f) : format(f) {
    const FormatInfo &info = getFormatInfo(f);
    bits = info.bits;
    half = int64_t{1} << (bits - 1);
    top = half + encode(f, info.maxValue);
  }

  /// The index of `value` (> 0), if the compute type holds it exactly.
  std::optional<int64_t> indexOf(double value) const {
    uint32_t code = encode(format, value);
    if (decode(format, code) != value || value <= 0)
      return std::nullopt;
    return half + code;
  }
  double valueAt(int64_t index) const {
    return decode(format, static_cast<uint32_t>(index - half));
  }
};

/// The positive values of fp<n> (e2m0, e2m1, e2m2) or int<n>, scaled so
/// that the largest lies in [1, 2) ("scaled to (-2, 2)").
std::vector<double> basePattern(char kind, unsigned indexBits) {
  std::vector<double> values;
  int64_t count = (int64_t{1} << (indexBits - 1)) - 1;
  if (kind == 'i') {
    // int<n>: k / 2^(n-2); the largest, (2^(n-1) - 1) / 2^(n-2), is < 2.
    for (int64_t k = 1; k <= count; ++k)
      values.push_back(
          std::ldexp(static_cast<double>(k), -static_cast<int>(indexBits) + 2));
    return values;
  }
  // fp<n> with a 2-bit exponent (bias 1) and n - 3 mantissa bits, over 4.
  unsigned m = indexBits - 3;
  int64_t steps = int64_t{1} << m;
  for (int64_t k = 1; k < steps; ++k) // subnormals
    values.push_back(std::ldexp(static_cast<double>(k) / steps, -2));
  for (int e = 1; e <= 3; ++e)
    for (int64_t k = 0; k < steps; ++k)
      values.push_back(
          std::ldexp(1.0 + static_cast<double>(k) / steps, e - 1 - 2));
  return values;
}

/// Reads a clause's digits as single-digit numbers.
std::vector<int64_t> digitsOf(llvm::StringRef digits) {
  std::vector<int64_t> out;
  for (char c : digits)
    out.push_back(c - '0');
  return out;
}

/// Appends the patterns (positive indices, ascending) of one clause.
llvm::Error addClause(llvm::StringRef clause, unsigned indexBits,
                      const NumberLine &line, llvm::StringRef computeName,
                      std::vector<std::vector<int64_t>> &patterns) {
  char kind = clause.front();
  llvm::StringRef rest = clause.drop_front();
  int64_t numPositive = (int64_t{1} << (indexBits - 1)) - 1;
  if (kind == 'f' || kind == 'i') {
    if (indexBits < 3 || indexBits > 5)
      return fail(llvm::formatv("the '{0}' pattern needs 3, 4 or 5 index "
                                "bits, not {1}",
                                kind, indexBits));
    auto [offsetText, eText] = rest.split('e');
    bool hasE = rest.contains('e');
    std::vector<int64_t> pattern;
    int emax = getFormatInfo(line.format).emax;
    for (double v : basePattern(kind, indexBits)) {
      std::optional<int64_t> index = line.indexOf(std::ldexp(v, emax));
      if (!index)
        return fail(llvm::formatv("the '{0}' pattern's value {1} is not a "
                                  "{2} value",
                                  kind, str(std::ldexp(v, emax)), computeName));
      pattern.push_back(*index);
    }
    std::vector<int64_t> offsets;
    if (offsetText.empty())
      offsets.push_back(line.top - pattern.back()); // the pattern as it is
    else
      offsets = digitsOf(offsetText);
    std::vector<int64_t> eOffsets = {0};
    if (hasE)
      eOffsets = eText.empty() ? std::vector<int64_t>{0, 1} : digitsOf(eText);
    for (int64_t o : offsets)
      for (int64_t e : eOffsets) {
        std::vector<int64_t> shifted;
        int64_t by = line.top - pattern.back() - o;
        for (int64_t index : pattern) {
          shifted.push_back(index + by);
          if (e == 0 || index + by <= line.half || index + by > line.top)
            continue; // (out-of-range indices are reported by the caller)
          // The exponent offset: the value over 2^e, exactly.
          double lowered = std::ldexp(line.valueAt(index + by), -e);
          std::optional<int64_t> at = line.indexOf(lowered);
          if (!at)
            return fail(llvm::formatv("the 'e' modifier makes {0}, which is "
                                      "no {1} value",
                                      str(lowered), computeName));
          shifted.back() = *at;
        }
        patterns.push_back(std::move(shifted));
      }
    return llvm::Error::success();
  }
  // p<interval>[<offsets>] and s<interval>[<offsets>]; "p" alone is p10.
  int64_t interval = rest.empty() ? 1 : rest.front() - '0';
  std::vector<int64_t> offsets =
      rest.size() <= 1 ? std::vector<int64_t>{0} : digitsOf(rest.drop_front());
  if (interval == 0)
    return fail(
        llvm::formatv("the '{0}' pattern's interval must not be 0", kind));
  for (int64_t o : offsets) {
    std::vector<int64_t> pattern;
    int64_t decrement = 0;
    for (int64_t i = 0; i < numPositive; ++i) {
      pattern.push_back(line.top - o - decrement);
      decrement += kind == 'p' ? interval * (i + 1) : interval;
    }
    std::reverse(pattern.begin(), pattern.end());
    patterns.push_back(std::move(pattern));
  }
  return llvm::Error::success();
}

} // namespace

llvm::Expected<std::pair<Codebook, Format>>
mlir::spyre::quant::parseCodebook(llvm::StringRef code) {
  std::string lower = code.lower();
  llvm::StringRef text = lower;
  auto bad = [&](const llvm::Twine &why) {
    return fail("codebook '" + code + "': " + why +
                " (the form is cb<index_bits><meta_bits>[<desc>]_<compute>"
                "[_<label>])");
  };
  if (!text.consume_front("cb") || text.size() < 2 || !llvm::isDigit(text[0]) ||
      !llvm::isDigit(text[1]))
    return bad("it does not start with cb and two digits");
  Codebook book;
  book.code = code.str();
  book.indexBits = text[0] - '0';
  book.metaBits = text[1] - '0';
  if (book.indexBits < 2 || book.indexBits > 6)
    return bad(llvm::formatv("{0} index bits (2 to 6)", book.indexBits).str());
  if (book.metaBits > 8)
    return bad(llvm::formatv("{0} meta bits (0 to 8)", book.metaBits).str());
  auto [desc, tail] = text.drop_front(2).split('_');
  llvm::StringRef computeName = tail.split('_').first;
  if (computeName.empty())
    return bad("no compute type");
  std::optional<Format> compute = parseFormat(computeName);
  if (!compute || getFormatInfo(*compute).kind != FormatKind::Float)
    return bad(("the compute type '" + computeName +
                "' is not a float format (" + formatNames() + ")")
                   .str());
  if (desc.empty())
    return std::make_pair(book, *compute); // generic: mappings come later

  // Implicit: split the desc into clauses, each a letter then digits / 'e'.
  NumberLine line(*compute);
  std::vector<std::vector<int64_t>> patterns;
  while (!desc.empty()) {
    char kind = desc.front();
    if (kind != 'f' && kind != 'i' && kind != 'p' && kind != 's')
      return bad(("'" + llvm::Twine(kind) + "' starts no clause (f, i, p or s)")
                     .str());
    size_t end = desc.find_first_of("fips", 1);
    llvm::StringRef clause = desc.take_front(end);
    desc = desc.drop_front(clause.size());
    llvm::StringRef body = clause.drop_front();
    bool eAllowed = kind == 'f' || kind == 'i';
    for (char c : body)
      if (!llvm::isDigit(c) && !(c == 'e' && eAllowed))
        return bad(
            ("clause '" + clause + "' holds '" + llvm::Twine(c) + "'").str());
    if (body.count('e') > 1)
      return bad(("clause '" + clause + "' has two 'e' modifiers").str());
    if (llvm::Error e =
            addClause(clause, book.indexBits, line, computeName, patterns))
      return bad(llvm::toString(std::move(e)));
  }
  if (static_cast<int64_t>(patterns.size()) != book.numMappings())
    return bad(llvm::formatv("{0} meta bits select {1} mappings, the desc "
                             "makes {2}",
                             book.metaBits, book.numMappings(), patterns.size())
                   .str());
  // Each pattern becomes a mapping: 0, the pattern ascending, then the
  // negatives in the same order (index 2^(n-1) is -0, read as 0).
  int64_t half = book.numEntries() / 2;
  for (const std::vector<int64_t> &pattern : patterns) {
    std::vector<double> mapping(book.numEntries(), 0.0);
    for (auto [k, index] : llvm::enumerate(pattern)) {
      if (index <= line.half || index > line.top)
        return bad(llvm::formatv("a shifted pattern leaves {0}'s positive "
                                 "values (index {1}, of {2}..{3})",
                                 computeName, index, line.half + 1, line.top)
                       .str());
      double value = line.valueAt(index);
      mapping[k + 1] = value;
      mapping[half + k + 1] = -value;
    }
    book.mappings.insert(book.mappings.end(), mapping.begin(), mapping.end());
  }
  return std::make_pair(book, *compute);
}

llvm::Error mlir::spyre::quant::setMappings(Codebook &book, Format compute,
                                            llvm::ArrayRef<double> values) {
  int64_t expected = book.numMappings() * book.numEntries();
  if (static_cast<int64_t>(values.size()) != expected)
    return fail(llvm::formatv("codebook '{0}' has {1} mappings of {2} values "
                              "({3} values), {4} given",
                              book.code, book.numMappings(), book.numEntries(),
                              expected, values.size()));
  for (auto [i, value] : llvm::enumerate(values))
    if (!std::isfinite(value) ||
        decode(compute, encode(compute, value)) != value)
      return fail(llvm::formatv("codebook '{0}': value {1} (mapping {2}, "
                                "index {3}) is not a {4} value",
                                book.code, str(value), i / book.numEntries(),
                                i % book.numEntries(),
                                getFormatInfo(compute).name));
  book.mappings.assign(values.begin(), values.end());
  return llvm::Error::success();
}
