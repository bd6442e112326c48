//===- LayoutAttrFuzzer.cpp - The layout attribute's parser and verifier --===//
//
// libFuzzer target over the spyre dialect's attribute and type syntax. The
// input is MLIR text: a type (`tensor<4x64xf16, #spyre.layout<...>>`) or an
// attribute (`#spyre.layout<...>`, `#spyre.target<...>`, ...). Parse errors
// are expected and swallowed; what must hold:
//  - no crash, hang or sanitizer report on any text;
//  - a tensor type the verifier accepted binds its layout (the verifier and
//    the layout algebra agree) and keeps every layout invariant
//    (LayoutInvariants.h);
//  - anything of the spyre dialect that parsed prints to text that parses
//    back to the same (uniqued) attribute or type.
//
//===----------------------------------------------------------------------===//

#include "LayoutInvariants.h"

#include "Spyre/Dialect/Spyre/IR/Spyre.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

using namespace mlir;

namespace {

bool isSpyre(Attribute attr) {
  return attr && attr.getDialect().getNamespace() == "spyre";
}

template <typename T>
[[noreturn]] void roundTripFailed(T value, const std::string &text,
                                  const char *what) {
  llvm::errs() << "round trip failed (" << what << "): " << value
               << "\n  printed as: " << text << "\n";
  llvm::errs().flush();
  std::abort();
}

void checkType(Type type, MLIRContext &context) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !isSpyre(tensor.getEncoding()))
    return;
  std::string text;
  llvm::raw_string_ostream(text) << type;
  size_t read = 0;
  Type again = parseType(text, &context, &read);
  if (again != type || read != text.size())
    roundTripFailed(type, text, "type");
  if (!isa<mlir::spyre::LayoutAttr>(tensor.getEncoding()))
    return;
  llvm::Expected<mlir::spyre::BoundLayout> bound =
      mlir::spyre::bindLayout(tensor);
  if (!bound) {
    llvm::errs() << "verified type " << type
                 << " does not bind: " << llvm::toString(bound.takeError())
                 << "\n";
    std::abort();
  }
  FailureOr<mlir::spyre::HostType> hostType =
      mlir::spyre::getHostType(tensor.getElementType());
  if (succeeded(hostType))
    mlir::spyre::fuzz::checkInvariants(*bound, *hostType);
}

void checkAttribute(Attribute attr, MLIRContext &context) {
  if (!isSpyre(attr))
    return;
  std::string text;
  llvm::raw_string_ostream(text) << attr;
  size_t read = 0;
  Attribute again = parseAttribute(text, &context, Type(), &read);
  if (again != attr || read != text.size())
    roundTripFailed(attr, text, "attribute");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // A fresh context per input: nothing uniqued by one input affects the next.
  MLIRContext context(MLIRContext::Threading::DISABLED);
  context.getOrLoadDialect<mlir::spyre::SpyreDialect>();
  ScopedDiagnosticHandler quiet(&context,
                                [](Diagnostic &) { return success(); });
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  // The parsers want a terminated buffer.
  std::string owned = text.str();
  if (!owned.empty() && owned.front() == '#') {
    if (Attribute attr = parseAttribute(owned, &context))
      checkAttribute(attr, context);
  } else if (Type type = parseType(owned, &context)) {
    checkType(type, context);
  }
  return 0;
}
