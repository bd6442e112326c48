//===- Driver.cpp - Sessions, compilation, inputs and checking ------------===//

#include "Spyre/Driver/Driver.h"
#include "Spyre/Dialect/Spyre/IR/Spyre.h"
#include "Spyre/Layout/Numerics.h"
#include "Spyre/Quant/Quant.h"
#include "Spyre/Sim/Npy.h"
#include "Spyre/Sim/Reference.h"
#include "Spyre/Sim/Simulator.h"

#include "mlir/Conversion/TosaToArith/TosaToArith.h"
#include "mlir/Conversion/TosaToLinalg/TosaToLinalg.h"
#include "mlir/Conversion/TosaToTensor/TosaToTensor.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Verifier.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <random>

using namespace mlir;
using namespace mlir::spyre;
using namespace mlir::spyre::driver;
using sim::HostTensor;

#ifndef SPYRE_VERSION
#define SPYRE_VERSION "unknown"
#endif

StringRef mlir::spyre::driver::getVersion() { return SPYRE_VERSION; }

void mlir::spyre::driver::registerVersionPrinter() {
  llvm::cl::AddExtraVersionPrinter([](llvm::raw_ostream &os) {
    os << "spyre-mlir version " << getVersion() << " (LLVM/MLIR "
       << LLVM_VERSION_STRING << ")\n";
  });
}

void mlir::spyre::driver::registerToolDialects(DialectRegistry &registry) {
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  registerSpyreDialects(registry);
  sim::registerReferenceDialects(registry);
}

void CompileOptions::applyTo(SpyrePipelineOptions &options) const {
  options.cores = static_cast<int>(cores);
  options.policy = policy;
  options.lxResidency = lxResidency;
  options.fuseRowBlocks = fuseRowBlocks;
  options.splitProjections = splitProjections;
  options.hostFallback = hostFallback;
  options.f32Matmul = f32Matmul;
  options.beamWidth = static_cast<int>(beamWidth);
  options.exactLimit = static_cast<int>(exactLimit);
}

//===----------------------------------------------------------------------===//
// Command-line flags
//===----------------------------------------------------------------------===//

namespace {
enum class Switch { Off, On };

/// An on/off flag, on by default: what each value does.
llvm::cl::opt<Switch> onOffFlag(StringRef name, StringRef description,
                                StringRef on, StringRef off,
                                llvm::cl::OptionCategory &category) {
  return llvm::cl::opt<Switch>(
      name, llvm::cl::desc(description),
      llvm::cl::values(clEnumValN(Switch::On, "on", on),
                       clEnumValN(Switch::Off, "off", off)),
      llvm::cl::init(Switch::On), llvm::cl::cat(category));
}
} // namespace

struct CompileFlags::Impl {
  llvm::cl::opt<int> cores;
  llvm::cl::opt<kernel::Policy> policy;
  llvm::cl::opt<Switch> hostFallback;
  llvm::cl::opt<F32Matmul> f32Matmul;
  llvm::cl::opt<Switch> fuseRowBlocks;
  llvm::cl::opt<Switch> splitProjections;

  explicit Impl(llvm::cl::OptionCategory &category)
      : cores("cores",
              llvm::cl::desc("Cores to compile for (default: the target's)"),
              llvm::cl::init(0), llvm::cl::cat(category)),
        policy(
            "policy", llvm::cl::desc("Work division policy"),
            llvm::cl::values(clEnumValN(kernel::Policy::Model, "model",
                                        "minimise the modelled time (default)"),
                             clEnumValN(kernel::Policy::Greedy, "greedy",
                                        "the reference stack's policy")),
            llvm::cl::init(kernel::Policy::Model), llvm::cl::cat(category)),
        hostFallback(onOffFlag(
            "host-fallback",
            "Run what the device cannot (f32 matmuls, gathers, convolutions, "
            "loops, ...) on the host, in host segments between the kernels",
            "run it on the host (default)",
            "every op left on the host is an error at its location", category)),
        f32Matmul(
            "f32-matmul", llvm::cl::desc("Where matmuls on f32 tensors run"),
            llvm::cl::values(
                clEnumValN(F32Matmul::Host, "host",
                           "on the host, exactly (default)"),
                clEnumValN(F32Matmul::F16, "f16",
                           "on the device, operands converted to f16, with a "
                           "remark")),
            llvm::cl::init(F32Matmul::Host), llvm::cl::cat(category)),
        fuseRowBlocks(onOffFlag(
            "fuse-row-blocks",
            "Run row-wise pipelines (softmax, LayerNorm, RMSNorm, ...) whose "
            "tensors do not fit LX in row blocks, their intermediates kept in "
            "LX",
            "fuse (default)", "one kernel per op over whole tensors",
            category)),
        splitProjections(onOffFlag(
            "split-projections",
            "Split a matmul read only in column blocks of whole sticks "
            "(GPT-2's c_attn split into Q, K and V) into one matmul per block",
            "split (default)", "keep the matmul whole", category)) {}
};

CompileFlags::CompileFlags(llvm::cl::OptionCategory &category)
    : impl(std::make_unique<Impl>(category)) {}
CompileFlags::~CompileFlags() = default;

CompileOptions CompileFlags::options() const {
  CompileOptions options;
  options.cores = impl->cores;
  options.policy = impl->policy;
  options.hostFallback = impl->hostFallback == Switch::On;
  options.f32Matmul = impl->f32Matmul;
  options.fuseRowBlocks = impl->fuseRowBlocks == Switch::On;
  options.splitProjections = impl->splitProjections == Switch::On;
  return options;
}

int64_t CompileFlags::cores() const { return impl->cores; }

std::optional<std::string> CompileFlags::problem(ModuleOp module) const {
  int64_t targetCores = getTarget(module).getCores();
  if (impl->cores < 0 || impl->cores > targetCores)
    return llvm::formatv("--cores={0} is out of range 1..{1} (the target's "
                         "cores)",
                         impl->cores.getValue(), targetCores)
        .str();
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Session
//===----------------------------------------------------------------------===//

namespace {
/// Renders a diagnostic the way SourceMgrDiagnosticHandler prints it.
struct RenderingHandler : SourceMgrDiagnosticHandler {
  using SourceMgrDiagnosticHandler::SourceMgrDiagnosticHandler;
  void render(Diagnostic &diag) { emitDiagnostic(diag); }
};
} // namespace

Session::Session(DiagnosticMode mode, llvm::raw_ostream &os) : mode(mode) {
  DialectRegistry registry;
  registerToolDialects(registry);
  context = std::make_unique<MLIRContext>(registry);
  if (mode == DiagnosticMode::Print) {
    handler = std::make_unique<SourceMgrDiagnosticHandler>(sourceMgr,
                                                           context.get(), os);
    return;
  }
  // Collect: render each diagnostic as the tools print it, keep it apart.
  capture = std::make_unique<llvm::raw_string_ostream>(printed);
  auto rendering =
      std::make_unique<RenderingHandler>(sourceMgr, context.get(), *capture);
  RenderingHandler *renderer = rendering.get();
  handler = std::move(rendering);
  context->getDiagEngine().registerHandler([this, renderer](Diagnostic &diag) {
    printed.clear();
    renderer->render(diag);
    messages.push_back({diag.getSeverity(), printed});
    return success();
  });
}

Session::~Session() = default;

OwningOpRef<ModuleOp> Session::parseFile(StringRef path,
                                         std::string *openError) {
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> file = openInputFile(path, &error);
  if (!file) {
    if (openError)
      *openError = error;
    else
      emitError(UnknownLoc::get(context.get())) << error;
    return nullptr;
  }
  return parse(std::move(file));
}

OwningOpRef<ModuleOp> Session::parseString(StringRef text,
                                           StringRef bufferName) {
  return parse(llvm::MemoryBuffer::getMemBufferCopy(text, bufferName));
}

namespace {
struct LegacySpelling {
  StringRef from, to;
};
const LegacySpelling kLegacySpellings[] = {
    {"linalg.matmul_transpose_b",
     "linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, "
     "affine_map<(d0, d1, d2) -> (d1, d2)>, "
     "affine_map<(d0, d1, d2) -> (d0, d1)>]"},
    {"linalg.matmul_transpose_a",
     "linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, "
     "affine_map<(d0, d1, d2) -> (d2, d1)>, "
     "affine_map<(d0, d1, d2) -> (d0, d1)>]"},
    {"linalg.batch_matmul_transpose_b",
     "linalg.batch_matmul indexing_maps = ["
     "affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, "
     "affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, "
     "affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>]"},
    {"linalg.batch_matmul_transpose_a",
     "linalg.batch_matmul indexing_maps = ["
     "affine_map<(d0, d1, d2, d3) -> (d0, d3, d1)>, "
     "affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, "
     "affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>]"},
    {"tensor.pack", "linalg.pack"},
    {"tensor.unpack", "linalg.unpack"},
};

/// If `text[i]` starts a string or a `//` comment, the index just past it
/// (a string ends at its closing quote, or unterminated at the end of its
/// line; a comment before its newline); otherwise `i`. The tools' text
/// scanners skip both.
size_t skipStringOrComment(StringRef text, size_t i) {
  size_t n = text.size();
  if (text[i] == '"') {
    size_t j = i + 1;
    while (j < n && text[j] != '"' && text[j] != '\n')
      j += text[j] == '\\' ? 2 : 1;
    return std::min(n, j + 1);
  }
  if (text[i] == '/' && i + 1 < n && text[i + 1] == '/')
    return std::min(n, text.find('\n', i));
  return i;
}

bool isIdentifierChar(char c) {
  return llvm::isAlnum(c) || c == '_' || c == '.' || c == '$';
}

/// `linalg.init_tensor [2, 3]` (static sizes only) at `text[i]`: the length
/// of the spelling up to and including `]`, or 0.
size_t matchInitTensor(StringRef text, size_t i) {
  StringRef name = "linalg.init_tensor";
  if (!text.substr(i).starts_with(name))
    return 0;
  size_t j = i + name.size();
  while (j < text.size() && text[j] == ' ')
    ++j;
  if (j >= text.size() || text[j] != '[')
    return 0;
  size_t close = text.find(']', j);
  if (close == StringRef::npos)
    return 0;
  for (char c : text.slice(j + 1, close))
    if (!llvm::isDigit(c) && c != ',' && c != ' ')
      return 0;
  return close + 1 - i;
}
/// `linalg.elemwise_unary` / `linalg.elemwise_binary` (removed upstream;
/// byteir's and older test IR) at `text[i]`, with its optional attribute
/// dictionary: the length of that spelling, and in `kind` the function it
/// applies (`fun = #linalg.unary_fn<log>`; exp and add by default). Other
/// attributes (unit markers such as `{__root__}`) are dropped. 0 when it is
/// not one, or its dictionary is not understood.
size_t matchElemwise(StringRef text, size_t i, std::string &kind) {
  StringRef rest = text.substr(i);
  bool unary = rest.starts_with("linalg.elemwise_unary");
  if (!unary && !rest.starts_with("linalg.elemwise_binary"))
    return 0;
  size_t j = i + (unary ? StringRef("linalg.elemwise_unary").size()
                        : StringRef("linalg.elemwise_binary").size());
  if (j < text.size() && isIdentifierChar(text[j]))
    return 0;
  kind = unary ? "exp" : "add";
  size_t k = j;
  while (k < text.size() && text[k] == ' ')
    ++k;
  if (k >= text.size() || text[k] != '{')
    return j - i;
  size_t close = text.find('}', k);
  if (close == StringRef::npos)
    return 0;
  StringRef dict = text.slice(k + 1, close);
  StringRef fn = unary ? "#linalg.unary_fn<" : "#linalg.binary_fn<";
  if (size_t at = dict.find(fn); at != StringRef::npos) {
    size_t end = dict.find('>', at);
    if (end == StringRef::npos)
      return 0;
    kind = dict.slice(at + fn.size(), end).str();
  } else if (dict.contains("fun")) {
    return 0;
  }
  // A cast other than the default (signed) changes integer semantics.
  if (dict.contains("type_fn") && !dict.contains("cast_signed"))
    return 0;
  return close + 1 - i;
}
/// For an elementwise op whose `ins(...)` at `text[k...]` holds scalar
/// operands (`ins(%x, %c : tensor<4x8xf32>, f32)`, which the removed
/// elemwise ops broadcast): the `indexing_maps = [...]` linalg.elementwise
/// needs for them - identities of the output's rank, `() -> ()` for the
/// scalars; "" when every operand is shaped or the text is not understood.
std::string scalarOperandMaps(StringRef text, size_t k);

/// The end of the bracketed group opening at `open` with `text[open]`
/// (`(` or `{`): one past its closing bracket, or npos.
size_t matchGroupEnd(StringRef text, size_t open) {
  char opening = text[open], closing = opening == '(' ? ')' : '}';
  int depth = 0;
  for (size_t k = open; k < text.size(); ++k) {
    if (text[k] == opening)
      ++depth;
    else if (text[k] == closing && --depth == 0)
      return k + 1;
  }
  return StringRef::npos;
}

/// `keyword(...)` (keyword ending in its opening bracket) at `text[k]`,
/// after white space: its contents, with `k` moved past it.
std::optional<StringRef> matchKeywordGroup(StringRef text, size_t &k,
                                           StringRef keyword) {
  while (k < text.size() && llvm::isSpace(text[k]))
    ++k;
  if (!text.substr(k).starts_with(keyword))
    return std::nullopt;
  size_t open = k + keyword.size() - 1;
  size_t end = matchGroupEnd(text, open);
  if (end == StringRef::npos)
    return std::nullopt;
  k = end;
  return text.slice(open + 1, end - 1);
}

std::string scalarOperandMaps(StringRef text, size_t k) {
  std::optional<StringRef> ins = matchKeywordGroup(text, k, "ins(");
  std::optional<StringRef> outs =
      ins ? matchKeywordGroup(text, k, "outs(") : std::nullopt;
  if (!outs)
    return "";
  // The operand types, split at the top-level commas.
  auto types = [](StringRef list) {
    SmallVector<StringRef> result;
    StringRef typeList = list.split(':').second;
    int depth = 0;
    size_t start = 0;
    for (size_t c = 0; c < typeList.size(); ++c) {
      if (typeList[c] == '<' || typeList[c] == '(')
        ++depth;
      else if (typeList[c] == '>' || typeList[c] == ')')
        --depth;
      else if (typeList[c] == ',' && depth == 0) {
        result.push_back(typeList.slice(start, c).trim());
        start = c + 1;
      }
    }
    result.push_back(typeList.substr(start).trim());
    return result;
  };
  SmallVector<StringRef> inTypes = types(*ins), outTypes = types(*outs);
  auto shaped = [](StringRef type) {
    return type.starts_with("tensor<") || type.starts_with("memref<");
  };
  if (outTypes.size() != 1 || !shaped(outTypes[0]) ||
      llvm::all_of(inTypes, shaped))
    return "";
  // The output's rank: its dims before the element type.
  StringRef body = outTypes[0].drop_front(7).split(',').first;
  int64_t rank = static_cast<int64_t>(body.count('x'));
  std::string dims;
  for (int64_t d = 0; d < rank; ++d)
    dims += (d ? ", d" : "d") + std::to_string(d);
  std::string identity = "affine_map<(" + dims + ") -> (" + dims + ")>";
  std::string maps = "indexing_maps = [";
  for (StringRef type : inTypes)
    maps +=
        (shaped(type) ? identity : "affine_map<(" + dims + ") -> ()>") + ", ";
  return maps + identity + "] ";
}

/// `linalg.map ins(...) outs(%o : tensor<...xT>) (%a: T, %b: T) {` as older
/// MLIR releases wrote it: the mapper's arguments are the inputs only. MLIR
/// 22's mapper also takes the init's element (which a map ignores). Returns
/// the length of the text up to the mapper's arguments and, in `upgraded`,
/// that text with the init's argument added; 0 when nothing matches.
size_t matchOldMap(StringRef text, size_t i, std::string &upgraded) {
  StringRef keyword = "linalg.map";
  if (!text.substr(i).starts_with(keyword))
    return 0;
  size_t j = i + keyword.size();
  if (j < text.size() && isIdentifierChar(text[j]))
    return 0;
  auto skipSpace = [&](size_t k) {
    while (k < text.size() && llvm::isSpace(text[k]))
      ++k;
    return k;
  };
  size_t k = j;
  std::optional<StringRef> ins = matchKeywordGroup(text, k, "ins(");
  std::optional<StringRef> outs =
      ins ? matchKeywordGroup(text, k, "outs(") : std::nullopt;
  if (!outs)
    return 0;
  size_t inputs = ins->split(':').first.count('%');
  size_t outsEnd = k;
  StringRef outType = outs->split(':').second.trim();
  if (!outType.consume_front("tensor<") || !outType.consume_back(">"))
    return 0;
  StringRef element = outType.rsplit('x').second;
  if (element.empty())
    element = outType;
  k = skipSpace(outsEnd);
  // An attribute dictionary may come first.
  if (k < text.size() && text[k] == '{') {
    size_t end = matchGroupEnd(text, k);
    if (end == StringRef::npos)
      return 0;
    k = skipSpace(end);
  }
  if (k >= text.size() || text[k] != '(')
    return 0;
  size_t argsEnd = matchGroupEnd(text, k);
  if (argsEnd == StringRef::npos)
    return 0;
  StringRef args = text.slice(k + 1, argsEnd - 1);
  if (inputs == 0 || args.count('%') != inputs)
    return 0;
  upgraded =
      (text.slice(i, argsEnd - 1) + ", %__map_init: " + element + ")").str();
  return argsEnd - i;
}
} // namespace

std::unique_ptr<llvm::MemoryBuffer>
mlir::spyre::driver::upgradeLegacySpellings(const llvm::MemoryBuffer &buffer) {
  StringRef text = buffer.getBuffer();
  // Cheap exit for the common case.
  if (!text.contains("_transpose_") && !text.contains("tensor.pack") &&
      !text.contains("tensor.unpack") && !text.contains("init_tensor") &&
      !text.contains("linalg.elemwise_") && !text.contains("linalg.map"))
    return nullptr;
  std::string out;
  out.reserve(text.size());
  bool changed = false;
  for (size_t i = 0, n = text.size(); i < n;) {
    char c = text[i];
    if (size_t end = skipStringOrComment(text, i); end != i) {
      out.append(text.data() + i, end - i); // copied as they are
      i = end;
      continue;
    }
    if (i == 0 || !isIdentifierChar(text[i - 1])) {
      bool replaced = false;
      for (const LegacySpelling &spelling : kLegacySpellings) {
        size_t end = i + spelling.from.size();
        if (text.substr(i).starts_with(spelling.from) &&
            (end >= n || !isIdentifierChar(text[end]))) {
          out += spelling.to;
          i = end;
          replaced = changed = true;
          break;
        }
      }
      if (!replaced)
        if (size_t length = matchInitTensor(text, i)) {
          out += "tensor.empty()";
          i += length;
          replaced = changed = true;
        }
      std::string kind;
      if (!replaced)
        if (size_t length = matchElemwise(text, i, kind)) {
          out +=
              "linalg.elementwise kind=#linalg.elementwise_kind<" + kind + "> ";
          out += scalarOperandMaps(text, i + length);
          i += length;
          replaced = changed = true;
        }
      std::string map;
      if (!replaced)
        if (size_t length = matchOldMap(text, i, map)) {
          out += map;
          i += length;
          replaced = changed = true;
        }
      if (replaced)
        continue;
    }
    out += c;
    ++i;
  }
  if (!changed)
    return nullptr;
  return llvm::MemoryBuffer::getMemBufferCopy(out,
                                              buffer.getBufferIdentifier());
}

std::string NestingError::str(StringRef name) const {
  return llvm::formatv("{0}:{1}:{2}: error: {3}", name, line, column, message)
      .str();
}

std::optional<NestingError>
mlir::spyre::driver::checkNestingDepth(StringRef buffer) {
  int depth = 0, line = 1, column = 0;
  for (size_t i = 0, n = buffer.size(); i < n; ++i) {
    char c = buffer[i];
    ++column;
    if (c == '\n') {
      ++line;
      column = 0;
      continue;
    }
    if (size_t end = skipStringOrComment(buffer, i); end != i) {
      i = end - 1; // strings and comments hold no brackets
      continue;
    }
    char next = i + 1 < n ? buffer[i + 1] : 0;
    char previous = i > 0 ? buffer[i - 1] : 0;
    bool open = c == '(' || c == '[' || c == '{' || (c == '<' && next != '=');
    bool close = c == ')' || c == ']' || c == '}' ||
                 (c == '>' && previous != '-' && next != '=');
    if (open && ++depth > kMaxNestingDepth)
      return NestingError{
          static_cast<unsigned>(line), static_cast<unsigned>(column),
          llvm::formatv("the input nests brackets more than {0} deep; "
                        "spyre's tools read at most {0} levels",
                        kMaxNestingDepth)
              .str()};
    if (close && depth > 0)
      --depth;
  }
  return std::nullopt;
}

OwningOpRef<ModuleOp>
Session::parse(std::unique_ptr<llvm::MemoryBuffer> buffer) {
  if (std::optional<NestingError> deep =
          checkNestingDepth(buffer->getBuffer())) {
    sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBufferCopy(buffer->getBuffer(),
                                             buffer->getBufferIdentifier()),
        llvm::SMLoc());
    emitError(FileLineColLoc::get(context.get(), buffer->getBufferIdentifier(),
                                  deep->line, deep->column))
        << deep->message;
    return nullptr;
  }
  if (std::unique_ptr<llvm::MemoryBuffer> upgraded =
          upgradeLegacySpellings(*buffer))
    buffer = std::move(upgraded);
  // The parser reads a source manager of one buffer; diagnostics are
  // rendered from the session's, which keeps a copy of every buffer.
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(buffer->getBuffer(),
                                           buffer->getBufferIdentifier()),
      llvm::SMLoc());
  llvm::SourceMgr single;
  single.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  // Verified here rather than by the parser: the implicit body of a named
  // linalg op (linalg.add on ui8 builds arith.addi on unsigned integers) has
  // no location of its own, so its errors are reported at the op.
  ParserConfig config(context.get(), /*verifyAfterParse=*/false);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(single, config);
  if (!module)
    return nullptr;
  // Verifies quietly: the op, not its body, gets the diagnostic.
  auto isValid = [&](Operation &inner) {
    ScopedDiagnosticHandler quiet(context.get(),
                                  [](Diagnostic &) { return success(); });
    return succeeded(mlir::verify(&inner, /*verifyRecursively=*/false));
  };
  bool bad = false;
  module->walk([&](linalg::LinalgOp op) {
    for (Operation &inner : op->getRegion(0).getOps())
      if (isa<UnknownLoc>(inner.getLoc()) && !isValid(inner)) {
        emitError(op->getLoc())
            << "'" << op->getName() << "' on "
            << getElementTypeOrSelf(op->getOperand(0).getType())
            << " has an invalid body: its '" << inner.getName()
            << "' does not take these element types";
        bad = true;
        return;
      }
  });
  if (bad || failed(mlir::verify(*module)))
    return nullptr;
  if (failed(lowerTosa(*module)))
    return nullptr;
  return module;
}

LogicalResult Session::lowerTosa(ModuleOp module) {
  // TOSA (what TFLite and torch-mlir's TOSA path emit, often mixed with
  // linalg) is lowered to linalg, tensor and arith by upstream's passes, so
  // the compiler and the reference read the same program.
  bool hasTosa = false;
  module.walk([&](Operation *op) {
    hasTosa = op->getName().getDialectNamespace() == "tosa";
    return hasTosa ? WalkResult::interrupt() : WalkResult::advance();
  });
  if (!hasTosa)
    return success();
  PassManager pm(context.get());
  // (No TOSA profile validation: the programs are checked by running them.)
  tosa::addTosaToLinalgPasses(pm, TosaToLinalgOptions(),
                              TosaToLinalgNamedOptions(), std::nullopt);
  pm.addNestedPass<func::FuncOp>(createTosaToTensorPass());
  pm.addNestedPass<func::FuncOp>(createTosaToArithPass());
  if (failed(pm.run(module)))
    return emitError(module.getLoc())
           << "the TOSA ops of this module do not lower to linalg (upstream's "
              "tosa-to-linalg, tosa-to-tensor, tosa-to-arith)";
  return success();
}

/// How often a compilation is retried with more ops on the host.
static constexpr int kMaxHostRetries = 8;

FailureOr<OwningOpRef<ModuleOp>> Session::compile(ModuleOp module,
                                                  const CompileOptions &options,
                                                  bool &wasCompiled,
                                                  TimingScope *timing) {
  OwningOpRef<ModuleOp> lowered = module.clone();
  wasCompiled = !containsKernels(*lowered);
  if (!wasCompiled)
    return lowered;
  if (!options.function.empty()) {
    // The other public functions become private: the pipeline inlines the
    // ones the function calls and its symbol DCE drops the rest.
    for (auto function : lowered->getOps<FunctionOpInterface>())
      if (function.getName() != options.function && function.isPublic() &&
          !function.isExternal())
        SymbolTable::setSymbolVisibility(function,
                                         SymbolTable::Visibility::Private);
  }
  SpyrePipelineOptions pipeline;
  options.applyTo(pipeline);
  // An op whose device form no division fits LX (--spyre-divide-work:
  // "cannot be divided across N cores") goes back to the host, with a
  // remark saying why, and the program is compiled again: with host
  // fallback on, a legal program is never rejected for it.
  OwningOpRef<ModuleOp> source = lowered->clone();
  for (int attempt = 0;; ++attempt) {
    PassManager pm(context.get());
    if (timing)
      pm.enableTiming(*timing);
    buildSpyrePipeline(pm, pipeline);
    struct Undividable {
      Location loc;
      std::string why;
    };
    SmallVector<Undividable> undividable;
    // The attempt's diagnostics, said once the attempt stands (a retry
    // drops them: its own say the same and more).
    std::vector<Diagnostic> said;
    LogicalResult result = failure();
    {
      ScopedDiagnosticHandler handler(
          context.get(), [&](Diagnostic &diag) -> LogicalResult {
            std::string text = diag.str();
            if (options.hostFallback &&
                diag.getSeverity() == DiagnosticSeverity::Error &&
                StringRef(text).contains("cannot be divided across"))
              undividable.push_back({diag.getLocation(), text});
            said.push_back(std::move(diag));
            return success();
          });
      result = pm.run(*lowered);
    }
    auto sayAll = [&] {
      for (Diagnostic &diag : said)
        context->getDiagEngine().emit(std::move(diag));
    };
    if (succeeded(result)) {
      sayAll();
      return lowered;
    }
    // Mark the structured ops the failing device ops came from.
    bool marked = false;
    if (attempt < kMaxHostRetries && !undividable.empty())
      source->walk([&](Operation *op) {
        if (!isa<linalg::LinalgOp, linalg::SoftmaxOp>(op) ||
            op->hasAttr(SpyreDialect::kOnHostAttrName))
          return;
        for (const Undividable &u : undividable)
          if (op->getLoc() == u.loc) {
            op->setAttr(
                SpyreDialect::kOnHostAttrName,
                StringAttr::get(context.get(), "no division of its device form "
                                               "fits (" +
                                                   u.why + ")"));
            marked = true;
            return;
          }
      });
    if (!marked) {
      sayAll();
      return failure();
    }
    lowered = source->clone();
  }
}

std::string Session::getErrorText() const {
  std::string text;
  for (const Message &message : messages)
    if (message.severity == DiagnosticSeverity::Error ||
        message.severity == DiagnosticSeverity::Note)
      text += message.text;
  return text;
}

//===----------------------------------------------------------------------===//
// Inputs
//===----------------------------------------------------------------------===//

/// Makes every memref argument of `function` (contiguous, in the default
/// memory space) a tensor argument: the body works on a fresh buffer that
/// starts as a copy of it, and the buffer's final contents are returned
/// after the function's own results.
static LogicalResult memrefArgumentsAsTensors(func::FuncOp function,
                                              std::string &why) {
  MLIRContext *context = function.getContext();
  Block &entry = function.getBody().front();
  for (auto [i, type] : llvm::enumerate(function.getArgumentTypes())) {
    auto memref = dyn_cast<MemRefType>(type);
    if (!memref)
      continue;
    if (!memref.getLayout().isIdentity() || memref.getMemorySpace()) {
      why = llvm::formatv("argument {0} of @{1} is a memref with a layout or "
                          "memory space ({2}); spyre-run passes contiguous "
                          "memrefs of the default memory space",
                          i, function.getSymName(), type)
                .str();
      return failure();
    }
  }
  for (auto [i, type] : llvm::enumerate(function.getResultTypes()))
    if (isa<UnrankedMemRefType>(type) ||
        (isa<MemRefType>(type) && cast<MemRefType>(type).getMemorySpace())) {
      why = llvm::formatv("result {0} of @{1} is a memref spyre-run cannot "
                          "return ({2}); it returns ranked memrefs of the "
                          "default memory space",
                          i, function.getSymName(), type)
                .str();
      return failure();
    }
  context->getOrLoadDialect<tensor::TensorDialect>();
  context->getOrLoadDialect<memref::MemRefDialect>();
  context->getOrLoadDialect<bufferization::BufferizationDialect>();
  // A returned memref: a copy of its contents at the return, as a tensor.
  SmallVector<Type> resultTypes;
  for (Type type : function.getResultTypes()) {
    auto memref = dyn_cast<MemRefType>(type);
    resultTypes.push_back(
        memref
            ? RankedTensorType::get(memref.getShape(), memref.getElementType())
            : type);
  }
  function.walk([&](func::ReturnOp ret) {
    OpBuilder b(ret);
    for (OpOperand &operand : ret->getOpOperands()) {
      auto memref = dyn_cast<MemRefType>(operand.get().getType());
      if (!memref)
        continue;
      Location loc = ret.getLoc();
      SmallVector<Value> sizes;
      for (auto [d, size] : llvm::enumerate(memref.getShape()))
        if (ShapedType::isDynamic(size))
          sizes.push_back(memref::DimOp::create(b, loc, operand.get(),
                                                static_cast<int64_t>(d)));
      auto contiguous =
          MemRefType::get(memref.getShape(), memref.getElementType());
      Value copy = memref::AllocOp::create(b, loc, contiguous, sizes);
      memref::CopyOp::create(b, loc, operand.get(), copy);
      operand.set(bufferization::ToTensorOp::create(
          b, loc, resultTypes[operand.getOperandNumber()], copy,
          /*restrict=*/true, /*writable=*/false));
    }
  });
  // Each buffer lives from the first top-level op that uses the argument
  // (or a view of it) to the last, where its contents become a tensor: host
  // segments exchange tensors, so the code on a buffer stays in one segment
  // unless device ops come between its uses.
  Operation *terminator = entry.getTerminator();
  SmallVector<Value> finals;
  for (BlockArgument argument : entry.getArguments()) {
    auto memref = dyn_cast<MemRefType>(argument.getType());
    if (!memref)
      continue;
    Operation *first = terminator, *last = terminator;
    bool used = false;
    SmallVector<Value> worklist = {argument};
    while (!worklist.empty()) {
      for (Operation *user : worklist.pop_back_val().getUsers()) {
        Operation *top = entry.findAncestorOpInBlock(*user);
        if (!used || top->isBeforeInBlock(first))
          first = top;
        if (!used || last->isBeforeInBlock(top))
          last = top;
        used = true;
        for (Value result : user->getResults())
          if (isa<BaseMemRefType>(result.getType()))
            worklist.push_back(result);
      }
    }
    Location loc = argument.getLoc();
    auto tensorType =
        RankedTensorType::get(memref.getShape(), memref.getElementType());
    argument.setType(tensorType);
    OpBuilder builder(first);
    SmallVector<Value> sizes;
    for (auto [d, size] : llvm::enumerate(memref.getShape()))
      if (ShapedType::isDynamic(size))
        sizes.push_back(tensor::DimOp::create(builder, loc, argument,
                                              static_cast<int64_t>(d)));
    Value buffer = memref::AllocOp::create(builder, loc, memref, sizes);
    Value source = bufferization::ToBufferOp::create(
        builder, loc, memref, argument, /*readOnly=*/true);
    memref::CopyOp::create(builder, loc, source, buffer);
    argument.replaceUsesWithIf(buffer, [&](OpOperand &use) {
      return !isa<tensor::DimOp, bufferization::ToBufferOp>(use.getOwner());
    });
    if (last->hasTrait<OpTrait::IsTerminator>())
      builder.setInsertionPoint(last);
    else
      builder.setInsertionPointAfter(last);
    resultTypes.push_back(tensorType);
    finals.push_back(bufferization::ToTensorOp::create(
        builder, loc, tensorType, buffer, /*restrict=*/true,
        /*writable=*/false));
  }
  function.walk([&](func::ReturnOp ret) {
    SmallVector<Value> operands(ret.getOperands());
    llvm::append_range(operands, finals);
    ret->setOperands(operands);
  });
  SmallVector<Type> argTypes(entry.getArgumentTypes());
  function.setFunctionType(FunctionType::get(context, argTypes, resultTypes));
  return success();
}

/// Before `function`'s signature changes for spyre-run: its callers keep
/// calling it as written, a copy of it under a fresh name.
static LogicalResult detachFromCallers(func::FuncOp function,
                                       std::string &why) {
  auto module = function->getParentOfType<ModuleOp>();
  if (!module || SymbolTable::symbolKnownUseEmpty(function, module))
    return success();
  SymbolTable symbols(module);
  auto callee = function.clone();
  callee.setPrivate();
  callee.setSymName((function.getSymName() + "__called").str());
  // Renamed further if the name is taken.
  symbols.insert(callee, std::next(Block::iterator(function)));
  if (failed(SymbolTable::replaceAllSymbolUses(
          function, callee.getSymNameAttr(), module))) {
    why = llvm::formatv("@{0} is used in ways spyre-run cannot redirect",
                        function.getSymName())
              .str();
    return failure();
  }
  return success();
}

LogicalResult mlir::spyre::driver::argumentsAsTensors(func::FuncOp function,
                                                      std::string &why) {
  auto isScalar = [](Type type) {
    return isa<IntegerType, IndexType, FloatType>(type);
  };
  if (function.isExternal() ||
      (llvm::none_of(function.getArgumentTypes(),
                     [&](Type type) {
                       return isScalar(type) || isa<MemRefType>(type);
                     }) &&
       llvm::none_of(function.getResultTypes(), [&](Type type) {
         return isScalar(type) || isa<BaseMemRefType>(type);
       })))
    return success();
  if (failed(detachFromCallers(function, why)) ||
      failed(memrefArgumentsAsTensors(function, why)))
    return failure();
  MLIRContext *context = function.getContext();
  context->getOrLoadDialect<tensor::TensorDialect>();
  Block &entry = function.getBody().front();
  SmallVector<Type> types;
  for (BlockArgument argument : entry.getArguments()) {
    Type type = argument.getType();
    if (!isScalar(type)) {
      types.push_back(type);
      continue;
    }
    auto tensorType = RankedTensorType::get({}, type);
    argument.setType(tensorType);
    // One extract right before each top-level op that reads the scalar (in
    // its body, say), so the read stays with its user: host code reading a
    // scalar then forms one host segment with the extract.
    llvm::MapVector<Operation *, SmallVector<OpOperand *>> users;
    for (OpOperand &use : argument.getUses())
      users[entry.findAncestorOpInBlock(*use.getOwner())].push_back(&use);
    for (auto &[user, uses] : users) {
      OpBuilder builder(user);
      Value scalar = tensor::ExtractOp::create(builder, argument.getLoc(),
                                               argument, ValueRange());
      for (OpOperand *use : uses)
        use->set(scalar);
    }
    types.push_back(tensorType);
  }
  // Scalar results come back as 0-d tensors too.
  SmallVector<Type> results;
  for (Type type : function.getResultTypes())
    results.push_back(isScalar(type) ? RankedTensorType::get({}, type) : type);
  function.walk([&](func::ReturnOp ret) {
    OpBuilder builder(ret);
    for (OpOperand &operand : ret->getOpOperands())
      if (isScalar(operand.get().getType()))
        operand.set(tensor::FromElementsOp::create(
            builder, ret.getLoc(), results[operand.getOperandNumber()],
            ValueRange{operand.get()}));
  });
  function.setFunctionType(FunctionType::get(context, types, results));
  return success();
}

LogicalResult
mlir::spyre::driver::specializeShapes(func::FuncOp function,
                                      ArrayRef<SmallVector<int64_t>> shapes,
                                      std::string &why, bool *sizesWrong) {
  MLIRContext *context = function.getContext();
  if (sizesWrong)
    *sizesWrong = false;
  if (function.isExternal() || shapes.size() != function.getNumArguments()) {
    why = "no shapes to specialize it to";
    return failure();
  }
  if (failed(detachFromCallers(function, why)))
    return failure();
  // The casts below may be the program's first tensor ops.
  context->getOrLoadDialect<tensor::TensorDialect>();
  Block &entry = function.getBody().front();
  OpBuilder builder = OpBuilder::atBlockBegin(&entry);
  SmallVector<Type> argTypes;
  for (auto [i, arg] : llvm::enumerate(entry.getArguments())) {
    auto type = dyn_cast<RankedTensorType>(arg.getType());
    if (!type || type.hasStaticShape()) {
      argTypes.push_back(arg.getType());
      continue;
    }
    ArrayRef<int64_t> shape = shapes[i];
    bool fits = static_cast<int64_t>(shape.size()) == type.getRank();
    for (auto [d, size] : llvm::enumerate(shape))
      fits &= size >= 0 && (type.isDynamicDim(d) || type.getDimSize(d) == size);
    if (!fits) {
      why = llvm::formatv("argument {0} ({1}) cannot take the shape [{2}]", i,
                          type, llvm::make_range(shape.begin(), shape.end()))
                .str();
      if (sizesWrong)
        *sizesWrong = true;
      return failure();
    }
    auto staticType =
        RankedTensorType::get(shape, type.getElementType(), type.getEncoding());
    arg.setType(staticType);
    Value dynamic =
        tensor::CastOp::create(builder, function.getLoc(), type, arg);
    Operation *cast = dynamic.getDefiningOp();
    arg.replaceUsesWithIf(
        dynamic, [&](OpOperand &use) { return use.getOwner() != cast; });
    argTypes.push_back(staticType);
  }
  function.setFunctionType(
      FunctionType::get(context, argTypes, function.getResultTypes()));
  PassManager pm(context, func::FuncOp::getOperationName());
  pm.addPass(createCanonicalizerPass());
  if (failed(pm.run(function))) {
    why = "propagating the shapes failed";
    return failure();
  }
  // Gathers, which canonicalization leaves as they are: the result type
  // their operands imply (a cast back keeps the users' types until the
  // next round folds them).
  bool refined = false;
  function.walk([&](tensor::GatherOp gather) {
    // Its operands as the casts of the arguments above give them.
    for (OpOperand &operand : gather->getOpOperands())
      if (auto cast = operand.get().getDefiningOp<tensor::CastOp>())
        if (cast.getSource().getType().hasStaticShape())
          operand.set(cast.getSource());
    if (gather.getResultType().hasStaticShape() ||
        !gather.getSourceType().hasStaticShape() ||
        !gather.getIndicesType().hasStaticShape())
      return;
    RankedTensorType inferred = tensor::GatherOp::inferResultType(
        gather.getSourceType(), gather.getIndicesType(), gather.getGatherDims(),
        /*rankReduced=*/false);
    if (inferred.getRank() != gather.getResultType().getRank())
      inferred = tensor::GatherOp::inferResultType(
          gather.getSourceType(), gather.getIndicesType(),
          gather.getGatherDims(), /*rankReduced=*/true);
    if (!inferred.hasStaticShape() ||
        failed(verifyCompatibleShape(inferred, gather.getResultType())))
      return;
    OpBuilder after(gather);
    after.setInsertionPointAfter(gather);
    Type dynamic = gather.getResultType();
    gather.getResult().setType(inferred);
    Value cast =
        tensor::CastOp::create(after, gather.getLoc(), dynamic, gather);
    gather.getResult().replaceUsesWithIf(cast, [&](OpOperand &use) {
      return use.getOwner() != cast.getDefiningOp();
    });
    refined = true;
  });
  // Buffers (memref arguments' copies): a tensor made from a buffer whose
  // size is now known has that size.
  function.walk([&](bufferization::ToTensorOp toTensor) {
    auto cast = toTensor.getBuffer().getDefiningOp<memref::CastOp>();
    auto source =
        cast ? dyn_cast<MemRefType>(cast.getSource().getType()) : MemRefType();
    auto type = dyn_cast<RankedTensorType>(toTensor.getType());
    if (!source || !source.hasStaticShape() || !type || type.hasStaticShape())
      return;
    OpBuilder after(toTensor);
    auto staticType =
        RankedTensorType::get(source.getShape(), source.getElementType());
    Value exact = bufferization::ToTensorOp::create(
        after, toTensor.getLoc(), staticType, cast.getSource(),
        toTensor.getRestrict(), toTensor.getWritable());
    Value back = tensor::CastOp::create(after, toTensor.getLoc(), type, exact);
    toTensor.replaceAllUsesWith(back);
    toTensor.erase();
    refined = true;
  });
  if (refined && failed(pm.run(function))) {
    why = "propagating the shapes failed";
    return failure();
  }
  // A cast to a static shape the specialized sizes contradict (a dynamic
  // argument cast to [5, 3] given 16 rows): the program does not hold at
  // these sizes. Only casts in the function's own body: one in a nested
  // region (an scf.if's branch) may be guarded by a check of the sizes.
  std::string contradiction;
  function.walk([&](tensor::CastOp cast) {
    if (cast->getParentOp() != function)
      return;
    // Through the casts before it (the specialized argument's own).
    Value source = cast.getSource();
    while (auto before = source.getDefiningOp<tensor::CastOp>())
      source = before.getSource();
    auto from = dyn_cast<RankedTensorType>(source.getType());
    auto to = dyn_cast<RankedTensorType>(cast.getType());
    if (!contradiction.empty() || !from || !to ||
        succeeded(verifyCompatibleShape(from, to)))
      return;
    std::string location;
    llvm::raw_string_ostream os(location);
    if (auto file = dyn_cast<FileLineColLoc>(cast.getLoc()))
      os << file.getFilename().getValue() << ":" << file.getLine() << ":"
         << file.getColumn();
    else
      cast.getLoc().print(os);
    contradiction = llvm::formatv("the tensor.cast at {0} needs {1}, and the "
                                  "specialized sizes give {2}",
                                  location, to, from)
                        .str();
  });
  if (!contradiction.empty()) {
    why = contradiction;
    if (sizesWrong)
      *sizesWrong = true;
    return failure();
  }
  // Results: the static values the casts back to the declared types hide.
  SmallVector<Type> resultTypes;
  for (Block &block : function.getBody())
    if (auto ret = dyn_cast<func::ReturnOp>(block.getTerminator())) {
      resultTypes.clear();
      for (OpOperand &operand : ret->getOpOperands()) {
        Value value = operand.get();
        if (auto cast = value.getDefiningOp<tensor::CastOp>())
          if (auto source =
                  dyn_cast<RankedTensorType>(cast.getSource().getType());
              source && source.hasStaticShape())
            operand.set(value = cast.getSource());
        resultTypes.push_back(value.getType());
      }
    }
  function.setFunctionType(FunctionType::get(context, argTypes, resultTypes));
  return success();
}

bool mlir::spyre::driver::hasDynamicArguments(func::FuncOp function) {
  return llvm::any_of(function.getArgumentTypes(), [](Type type) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    return tensor && !tensor.hasStaticShape();
  });
}

SmallVector<SmallVector<int64_t>>
mlir::spyre::driver::argumentShapes(func::FuncOp function, int64_t size) {
  SmallVector<SmallVector<int64_t>> shapes;
  for (Type type : function.getArgumentTypes()) {
    SmallVector<int64_t> &shape = shapes.emplace_back();
    if (auto tensor = dyn_cast<RankedTensorType>(type))
      for (int64_t dim : tensor.getShape())
        shape.push_back(ShapedType::isDynamic(dim) ? size : dim);
  }
  return shapes;
}

std::optional<std::string>
mlir::spyre::driver::argumentProblem(Type type, bool generated) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return llvm::formatv(
               "is not a tensor ({0}); spyre-run passes tensors, memrefs and "
               "scalars",
               sim::describeType(type))
        .str();
  if (!generated)
    return std::nullopt;
  if (!tensor.hasStaticShape())
    return llvm::formatv(
               "has a dynamic shape ({0}); --random-inputs needs static shapes",
               sim::describeType(type))
        .str();
  FailureOr<HostType> host = getHostType(tensor.getElementType());
  // Every host type with a value codec: numpy's, and the raw-bit ones
  // (bf16, fp8, int4) spyre-run exchanges through their codecs.
  if (failed(host))
    return llvm::formatv("has element type {0} ({1}), which --random-inputs "
                         "cannot generate (supported: f16, bf16, f32, f64, "
                         "f8E4M3FN, f8E5M2, f8E4M3FNUZ, f8E5M2FNUZ, "
                         "f8E8M0FNU, f4E2M1FN, i1, i4, i8, i16, i32, i64, "
                         "index)",
                         tensor.getElementType(), sim::describeType(type))
        .str();
  return std::nullopt;
}

/// The terms each result element of `op` sums: the product of its static
/// reduction loops' ranges (1 without any).
static int64_t reductionTerms(linalg::LinalgOp op) {
  int64_t terms = 1;
  for (auto [range, iterator] :
       llvm::zip_equal(op.getStaticLoopRanges(), op.getIteratorTypesArray()))
    if (iterator == utils::IteratorType::reduction &&
        !ShapedType::isDynamic(range))
      terms *= range;
  return terms;
}

/// The number of elements each argument is summed over when a contraction
/// reduces it (1 when none does): its values are drawn 1/sqrt of that apart
/// so that products stay O(1).
static SmallVector<int64_t> contractionFanIn(func::FuncOp function) {
  SmallVector<int64_t> fanIn(function.getNumArguments(), 1);
  function.walk([&](linalg::LinalgOp op) {
    if (!linalg::isaContractionOpInterface(op))
      return;
    int64_t reduced = reductionTerms(op);
    for (OpOperand *operand : op.getDpsInputOperands()) {
      // Through views (transposes, reshapes, broadcasts) to the argument.
      Value value = operand->get();
      while (Operation *def = value.getDefiningOp()) {
        bool view = isa<linalg::TransposeOp, linalg::BroadcastOp>(def) ||
                    def->getName().getDialectNamespace() == "tensor";
        if (def->getNumOperands() == 0 || !view)
          break;
        value = def->getOperand(0);
      }
      if (auto arg = dyn_cast<BlockArgument>(value))
        if (arg.getOwner()->getParentOp() == function.getOperation())
          fanIn[arg.getArgNumber()] =
              std::max(fanIn[arg.getArgNumber()], reduced);
    }
  });
  return fanIn;
}

/// For each integer argument read as an index (through arith.index_cast
/// into a tensor.extract, as embedding lookups are written): the extent of
/// the dim it indexes (the smallest, if several); 0 for the others.
/// Where the values of an index come from: through integer casts, from a
/// linalg body's argument to its operand, and through elementwise generics
/// that only cast (what tosa.cast lowers to) and reshapes.
static Value indexSource(Value value) {
  for (int step = 0; step < 16; ++step) {
    Operation *def = value.getDefiningOp();
    if (isa_and_nonnull<arith::IndexCastOp, arith::IndexCastUIOp,
                        arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp>(def)) {
      value = def->getOperand(0);
      continue;
    }
    if (isa_and_nonnull<tensor::CollapseShapeOp, tensor::ExpandShapeOp,
                        tensor::CastOp>(def)) {
      value = def->getOperand(0);
      continue;
    }
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      auto linalgOp = dyn_cast<linalg::LinalgOp>(arg.getOwner()->getParentOp());
      if (!linalgOp || arg.getArgNumber() >= linalgOp.getNumDpsInputs())
        return value;
      value = linalgOp.getDpsInputOperand(arg.getArgNumber())->get();
      continue;
    }
    // An elementwise generic of one input whose body yields a cast of it.
    auto generic = dyn_cast_or_null<linalg::GenericOp>(def);
    if (!generic || generic.getNumDpsInputs() != 1 ||
        generic.getNumParallelLoops() != generic.getNumLoops() ||
        !llvm::all_of(generic.getIndexingMapsArray(),
                      [](AffineMap map) { return map.isIdentity(); }))
      return value;
    auto yield = cast<linalg::YieldOp>(generic.getBody()->getTerminator());
    Value yielded = yield.getOperand(0);
    while (Operation *inner = yielded.getDefiningOp()) {
      if (!isa<arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp,
               arith::IndexCastOp, arith::IndexCastUIOp>(inner))
        break;
      yielded = inner->getOperand(0);
    }
    if (yielded != generic.getBody()->getArgument(0))
      return value;
    value = generic.getDpsInputOperand(0)->get();
  }
  return value;
}

static SmallVector<int64_t> indexBounds(func::FuncOp function) {
  SmallVector<int64_t> bounds(function.getNumArguments(), 0);
  function.walk([&](tensor::ExtractOp extract) {
    ArrayRef<int64_t> shape = extract.getTensor().getType().getShape();
    for (auto [dim, index] : llvm::enumerate(extract.getIndices())) {
      Value value = indexSource(index);
      auto input = dyn_cast<BlockArgument>(value);
      if (!input ||
          input.getOwner()->getParentOp() != function.getOperation() ||
          ShapedType::isDynamic(shape[dim]))
        continue;
      int64_t &bound = bounds[input.getArgNumber()];
      bound = bound ? std::min(bound, shape[dim]) : shape[dim];
    }
  });
  // tensor.gather reads its indices as positions along the gathered dims.
  function.walk([&](tensor::GatherOp gather) {
    auto input = dyn_cast<BlockArgument>(indexSource(gather.getIndices()));
    if (!input || input.getOwner()->getParentOp() != function.getOperation())
      return;
    ArrayRef<int64_t> shape = gather.getSourceType().getShape();
    for (int64_t dim : gather.getGatherDims()) {
      if (ShapedType::isDynamic(shape[dim]))
        continue;
      int64_t &bound = bounds[input.getArgNumber()];
      bound = bound ? std::min(bound, shape[dim]) : shape[dim];
    }
  });
  return bounds;
}

std::vector<HostTensor>
mlir::spyre::driver::inputsAsStored(func::FuncOp function,
                                    ArrayRef<HostTensor> inputs,
                                    Sen169Numerics numerics) {
  std::vector<HostTensor> stored(inputs.begin(), inputs.end());
  if (numerics != Sen169Numerics::DLFloat16)
    return stored;
  ScopedSen169Numerics scope(numerics);
  for (auto [tensor, type] : llvm::zip(stored, function.getArgumentTypes())) {
    if (!isDeviceTensor(type) ||
        (tensor.type != HostType::Float16 && tensor.type != HostType::BFloat16))
      continue;
    unsigned bytes = tensor.elementBytes();
    for (int64_t i = 0, n = tensor.numElements(); i < n; ++i) {
      uint8_t *p = tensor.data.data() + i * bytes;
      deviceBitsToHost(tensor.type, hostToDeviceBits(tensor.type, p, 0), p);
    }
  }
  return stored;
}

HostTensor mlir::spyre::driver::toExchangeType(const HostTensor &tensor) {
  if (tensor.type != HostType::BFloat16)
    return tensor;
  HostTensor wide(HostType::Float32, tensor.shape);
  for (int64_t i = 0, n = tensor.numElements(); i < n; ++i)
    storeHostElement(
        HostType::Float32, wide.data.data() + i * 4,
        loadHostElement(HostType::BFloat16, tensor.data.data() + i * 2));
  return wide;
}

HostTensor mlir::spyre::driver::fromExchangeType(HostTensor tensor,
                                                 Type argType) {
  auto ranked = dyn_cast<RankedTensorType>(argType);
  if (!ranked || !ranked.getElementType().isBF16() ||
      tensor.type != HostType::Float32)
    return tensor;
  HostTensor narrow(HostType::BFloat16, tensor.shape);
  for (int64_t i = 0, n = tensor.numElements(); i < n; ++i)
    storeHostElement(
        HostType::BFloat16, narrow.data.data() + i * 2,
        loadHostElement(HostType::Float32, tensor.data.data() + i * 4));
  return narrow;
}

/// Per argument: the largest scale to draw when it is the float scale of a
/// `spyre.dequantize` (0 otherwise), so that the weight it scales stays near
/// 1/sqrt(the quantized dim), like the other inputs of a contraction: the
/// format's largest value times the scale is that.
static SmallVector<double> quantScaleBounds(func::FuncOp function) {
  SmallVector<double> bounds(function.getNumArguments(), 0.0);
  function.walk([&](DequantizeOp op) {
    ValueRange parts = op.getParts();
    auto arg = parts.size() > 1 ? dyn_cast<BlockArgument>(parts[1]) : nullptr;
    if (!arg || arg.getOwner()->getParentOp() != function.getOperation())
      return;
    RankedTensorType weight = op.getResult().getType();
    spyre::quant::QuantSpec spec = op.getQuant().getSpec();
    int64_t axis = spec.axis < 0 ? spec.axis + weight.getRank() : spec.axis;
    if (axis < 0 || axis >= weight.getRank())
      return;
    double maxValue = spyre::quant::getFormatInfo(spec.format).maxValue;
    double bound =
        1.0 / (std::max(maxValue, 1.0) *
               std::sqrt(static_cast<double>(weight.getDimSize(axis))));
    // Not below the scale type's smallest normal value (an e4m3fn scale
    // would round to zero, and every weight with it).
    if (auto floatType =
            dyn_cast<FloatType>(getElementTypeOrSelf(arg.getType())))
      bound = std::max(bound, 2 * APFloat::getSmallestNormalized(
                                      floatType.getFloatSemantics())
                                      .convertToDouble());
    bounds[arg.getArgNumber()] = bound;
  });
  return bounds;
}

std::vector<HostTensor> mlir::spyre::driver::randomInputs(func::FuncOp function,
                                                          unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  SmallVector<int64_t> fanIn = contractionFanIn(function);
  SmallVector<int64_t> bounds = indexBounds(function);
  SmallVector<double> scaleBounds = quantScaleBounds(function);
  std::vector<HostTensor> inputs;
  for (auto [index, type] : llvm::enumerate(function.getArgumentTypes())) {
    auto tensor = cast<RankedTensorType>(type);
    HostType host = *getHostType(tensor.getElementType());
    HostTensor values(host, tensor.getShape());
    // Integers are drawn from a wider range than [-1, 1).
    double scale = host == HostType::Int4   ? 7
                   : host == HostType::Int8 ? 100
                   : host == HostType::Int16 || host == HostType::Int32 ||
                           host == HostType::Int64 || host == HostType::Index
                       ? 1000
                       : 1.0 / std::sqrt(static_cast<double>(fanIn[index]));
    bool boolean = host == HostType::Bool;
    // Indices are drawn from the extent of the dim they index.
    std::uniform_int_distribution<int64_t> indices(
        0, std::max<int64_t>(bounds[index], 1) - 1);
    for (int64_t i = 0, n = values.numElements(); i < n; ++i) {
      float v = uniform(rng);
      double drawn = boolean ? v > 0 : v * scale;
      if (bounds[index])
        drawn = static_cast<double>(indices(rng));
      // E8M0 holds powers of two only (MX scales): 2^-6 .. 2^-2, so that
      // the values they scale stay in the range the others are drawn in.
      if (host == HostType::Float8E8M0FNU)
        drawn = std::ldexp(1.0, -2 - static_cast<int>((v + 1.0f) * 2.0f));
      // A float scale of a dequantize: positive, up to its bound.
      else if (scaleBounds[index] > 0)
        drawn = (0.5 + 0.5 * std::abs(v)) * scaleBounds[index];
      storeHostElement(host, values.data.data() + i * values.elementBytes(),
                       drawn);
    }
    inputs.push_back(std::move(values));
  }
  return inputs;
}

void mlir::spyre::driver::drawElidedConstants(func::FuncOp function,
                                              unsigned seed,
                                              int64_t maxElements) {
  std::mt19937 rng(seed ^ 0x5eedc0deu);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  // Replaced after the walk, which must not see its own replacements.
  SmallVector<std::tuple<Operation *, StringAttr, DenseResourceElementsAttr>>
      elided;
  sim::forEachElidedConstant(function, [&](Operation *op, StringAttr name,
                                           DenseResourceElementsAttr resource) {
    elided.emplace_back(op, name, resource);
  });
  for (auto [op, name, resource] : elided) {
    auto type = dyn_cast<RankedTensorType>(resource.getType());
    if (!type || !type.hasStaticShape() || type.getNumElements() > maxElements)
      continue;
    Type element = type.getElementType();
    // A constant operand a contraction reduces over is drawn like an input:
    // scaled by 1/sqrt of the elements it is summed over.
    double scale = 1.0;
    for (OpOperand &use : op->getResult(0).getUses())
      if (auto linalgOp = dyn_cast<linalg::LinalgOp>(use.getOwner()))
        if (linalgOp.getNumReductionLoops() > 0 && linalgOp.isDpsInput(&use)) {
          SmallVector<int64_t> ranges = linalgOp.getStaticLoopRanges();
          int64_t k = 1;
          for (auto [d, it] : llvm::enumerate(linalgOp.getIteratorTypesArray()))
            if (it == utils::IteratorType::reduction &&
                !ShapedType::isDynamic(ranges[d]))
              k *= ranges[d];
          scale = std::min(scale, 1.0 / std::sqrt(static_cast<double>(k)));
        }
    DenseElementsAttr values;
    int64_t n = type.getNumElements();
    if (auto floatType = dyn_cast<FloatType>(element)) {
      SmallVector<APFloat> drawn;
      drawn.reserve(n);
      for (int64_t i = 0; i < n; ++i) {
        APFloat v(uniform(rng) * scale);
        bool losesInfo;
        v.convert(floatType.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                  &losesInfo);
        drawn.push_back(v);
      }
      values = DenseElementsAttr::get(type, drawn);
    } else if (auto intType = dyn_cast<IntegerType>(element)) {
      // Masks at random; other integers are zeros: they are mostly indices
      // (embedding lookups), which must stay in bounds.
      unsigned width = intType.getWidth();
      std::uniform_int_distribution<int> bit(0, 1);
      SmallVector<APInt> drawn;
      drawn.reserve(n);
      for (int64_t i = 0; i < n; ++i)
        drawn.push_back(APInt(width, width == 1 ? bit(rng) : 0));
      values = DenseElementsAttr::get(type, drawn);
    } else {
      continue;
    }
    emitRemark(op->getLoc())
        << "the constant's dense_resource blob '"
        << resource.getRawHandle().getKey()
        << "' has no data (elided when the program was printed): its "
           "values are drawn at random, like the inputs (--random-inputs)";
    op->setAttr(name, values);
  }
}

//===----------------------------------------------------------------------===//
// Checking
//===----------------------------------------------------------------------===//

Tolerance mlir::spyre::driver::defaultTolerance(HostType type, bool movement,
                                                double referenceMagnitude) {
  if (movement)
    return {0, 0};
  double scale = std::max(referenceMagnitude, 1e-3);
  switch (type) {
  case HostType::Float16:
    return {1e-2 * scale, 1e-2};
  case HostType::BFloat16:
    return {4e-2 * scale, 4e-2};
  case HostType::Float32:
    return {1e-4 * scale, 1e-4};
  // Rounded to 8 bits or fewer: one step of the format (a value computed on
  // the device in DLFloat16 may round to the neighbouring code).
  case HostType::Float8E4M3FN:
  case HostType::Float8E4M3FNUZ:
    return {0.125 * scale, 0.125};
  case HostType::Float8E5M2:
  case HostType::Float8E5M2FNUZ:
    return {0.25 * scale, 0.25};
  default:
    return {0, 0};
  }
}

ResultCheck mlir::spyre::driver::compareResult(
    const HostTensor &got, const HostTensor &want, bool movement,
    std::optional<Tolerance> given, bool allowNonfinite,
    std::optional<HostType> computedIn, Sen169Numerics numerics,
    int64_t reductionLength) {
  ResultCheck check;
  check.elements = got.numElements();
  if (got.shape != want.shape || got.type != want.type) {
    check.shapeMismatch = true;
    return check;
  }
  auto value = [](const HostTensor &t, int64_t i) {
    return loadHostElement(t.type, t.data.data() + i * t.elementBytes());
  };
  // The output's scale: the root mean square of its finite values.
  double squares = 0;
  int64_t finite = 0;
  for (int64_t e = 0; e < check.elements; ++e) {
    double b = value(want, e);
    if (std::isfinite(b)) {
      squares += b * b;
      ++finite;
    }
  }
  double magnitude = finite ? std::sqrt(squares / finite) : 0.0;
  check.tolerance =
      given ? *given : defaultTolerance(got.type, movement, magnitude);
  if (!given && movement && got.type == HostType::Float16 &&
      numerics == Sen169Numerics::DLFloat16)
    check.tolerance = {0, std::ldexp(1.0, -10)};
  if (!given && computedIn) {
    Tolerance looser = defaultTolerance(*computedIn, movement, magnitude);
    if (looser.rtol > check.tolerance.rtol)
      check.tolerance = looser;
  }
  double roundings =
      static_cast<double>(reductionLength) * std::ldexp(1.0, -24);
  if (!given && !movement && got.type == HostType::Float32 &&
      roundings > check.tolerance.rtol)
    check.tolerance = {roundings * std::max(magnitude, 1e-3), roundings};
  for (int64_t e = 0; e < check.elements; ++e) {
    double a = value(got, e), b = value(want, e);
    bool bad;
    if (!std::isfinite(a) || !std::isfinite(b)) {
      bool same = (std::isnan(a) && std::isnan(b)) || a == b;
      bad = !(allowNonfinite && same);
      check.nonfinite += bad;
    } else {
      double diff = std::fabs(a - b);
      check.maxError = std::max(check.maxError, diff);
      bad = diff > check.tolerance.atol + check.tolerance.rtol * std::fabs(b);
    }
    if (!bad)
      continue;
    if (check.firstMismatch < 0) {
      check.firstMismatch = e;
      check.got = a;
      check.want = b;
    }
    ++check.mismatches;
  }
  return check;
}

std::string mlir::spyre::driver::formatResultCheck(unsigned index,
                                                   const ResultCheck &check) {
  if (check.shapeMismatch)
    return llvm::formatv("check result {0}: shape or type differs from the "
                         "reference",
                         index)
        .str();
  if (check.ok())
    return llvm::formatv("check result {0}: ok, max abs error {1:e} (atol "
                         "{2:e}, rtol {3:e})",
                         index, check.maxError, check.tolerance.atol,
                         check.tolerance.rtol)
        .str();
  std::string nonfinite =
      check.nonfinite
          ? llvm::formatv(" ({0} non-finite)", check.nonfinite).str()
          : "";
  return llvm::formatv(
             "check result {0}: MISMATCH: {1} of {2} elements{3} beyond atol "
             "{4:e} + rtol {5:e} * |reference| (first at flat index {6}: got "
             "{7}, reference {8}); max abs error {9:e}",
             index, check.mismatches, check.elements, nonfinite,
             check.tolerance.atol, check.tolerance.rtol, check.firstMismatch,
             check.got, check.want, check.maxError)
      .str();
}

std::optional<HostType>
mlir::spyre::driver::leastPrecision(func::FuncOp function) {
  std::optional<HostType> least;
  auto rank = [](HostType t) {
    switch (t) {
    case HostType::Float8E5M2:
      return -2;
    case HostType::Float8E4M3FN:
      return -1;
    case HostType::BFloat16:
      return 0;
    case HostType::Float16:
      return 1;
    default:
      return 2;
    }
  };
  function.walk([&](KernelOp kernel) {
    kernel.getPayload()->walk([&](Operation *op) {
      for (Type type : op->getResultTypes()) {
        Type element = getElementTypeOrSelf(type);
        // Rounding to fp8 (qfp8ch) happens in a conversion; other kernels
        // only move fp8 codes.
        bool roundsToFp8 = isa<ConvertOp>(op) && isDeviceFp8(element);
        if (!element.isF16() && !element.isBF16() && !element.isF32() &&
            !roundsToFp8)
          continue;
        FailureOr<HostType> host = getHostType(element);
        if (succeeded(host) && (!least || rank(*host) < rank(*least)))
          least = *host;
      }
    });
  });
  return least;
}

int64_t mlir::spyre::driver::longestReduction(func::FuncOp function) {
  int64_t longest = 1;
  function.walk([&](linalg::LinalgOp op) {
    longest = std::max(longest, reductionTerms(op));
  });
  return longest;
}

bool mlir::spyre::driver::onlyMovesData(func::FuncOp function) {
  bool movement = true;
  function.walk([&](KernelOp kernel) {
    movement &=
        cast<KernelPayloadOpInterface>(kernel.getPayload()).isDataMovement();
  });
  // Host segments compute.
  function.walk([&](func::CallOp call) {
    auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
        call, call.getCalleeAttr());
    if (!callee || callee->hasAttr(SpyreDialect::kHostSegmentAttrName))
      movement = false;
  });
  return movement;
}
