//===- spyre-translate.cpp - Emit SuperDSC and DCI ------------------------===//
//
// mlir-translate with the spyre translations:
//
//   spyre-translate --spyre-to-superdsc kernels.mlir          # JSON on stdout
//   spyre-translate --spyre-to-superdsc kernels.mlir -o sdsc.json
//   spyre-translate --spyre-to-dci kernels.mlir --spyre-output-dir=out/
//
// `--spyre-output-dir=DIR` writes one file per SuperDSC / DCI object (plus
// `bundle.mlir`) into DIR and lists them; `-o FILE` receives the single JSON
// document. spyre-compile writes every artifact at once.
//
//===----------------------------------------------------------------------===//

#include "Spyre/Driver/Driver.h"
#include "Spyre/Support/OutputFiles.h"
#include "Spyre/Target/Emitters.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/ToolUtilities.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace cl = llvm::cl;

static int fail(const llvm::Twine &message) {
  llvm::errs() << "spyre-translate: error: " << message << "\n";
  return 1;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  mlir::spyre::registerSpyreTranslations(
      mlir::spyre::driver::registerToolDialects);
  mlir::spyre::driver::registerVersionPrinter();

  // mlir-translate chains the translations it is given, feeding the output
  // of one to the next as MLIR: the second would try to parse JSON and
  // blame "-:1:1". Each emitter reads the kernel form, so ask for one.
  std::vector<std::string> translations;
  bool informational = false; // --help, --version: no translation needed
  bool misspelled = false;    // --spyre-to-json: the parser suggests one
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg(argv[i]);
    if (arg == "--")
      break;
    if (!arg.consume_front("-"))
      continue;
    arg.consume_front("-");
    if (arg == "spyre-to-superdsc" || arg == "spyre-to-dci")
      translations.push_back(("--" + arg).str());
    else if (arg.starts_with("spyre-to"))
      misspelled = true;
    if (arg.starts_with("help") || arg == "version" || arg == "print-options")
      informational = true;
  }
  if (translations.empty() && !informational && !misspelled)
    return fail("choose a translation: --spyre-to-superdsc (the SuperDSC "
                "JSON) or --spyre-to-dci (the DMA descriptors)");
  if (translations.size() > 1) {
    llvm::errs() << "spyre-translate: error: choose one translation, "
                    "--spyre-to-superdsc or --spyre-to-dci (given:";
    for (const std::string &flag : translations)
      llvm::errs() << " " << flag;
    llvm::errs() << "); both read the kernel form, so run spyre-translate "
                    "once per translation (or spyre-compile for both)\n";
    return 1;
  }

  // mlir-translate's own options, with one difference: the output is
  // written only when the translation succeeded, never over the input, and
  // a write that fails (a full disk) is an error, not a crash.
  static cl::OptionCategory category("spyre-translate options");
  static cl::opt<std::string> inputFilename(cl::Positional,
                                            cl::desc("<input file>"),
                                            cl::init("-"), cl::cat(category));
  static cl::opt<std::string> outputFilename(
      "o",
      cl::desc("Output filename (written only when the translation "
               "succeeds; never an input)"),
      cl::value_desc("filename"), cl::init("-"), cl::cat(category));
  static cl::opt<std::string> splitInputFile(
      "split-input-file", cl::ValueOptional,
      cl::callback([](const std::string &value) {
        if (value.empty())
          splitInputFile = mlir::kDefaultSplitMarker;
      }),
      cl::desc("Split the input file into chunks separated by the given "
               "marker (default //-----) and process each independently"),
      cl::init(""), cl::cat(category));
  static cl::opt<bool> verifyDiagnostics(
      "verify-diagnostics",
      cl::desc("Check that emitted diagnostics match expected-* lines on the "
               "corresponding line"),
      cl::init(false), cl::cat(category));
  static cl::opt<const mlir::Translation *, false, mlir::TranslationParser>
      translation("", cl::desc("Translation to perform"), cl::Required,
                  cl::cat(category));
  mlir::registerAsmPrinterCLOptions();
  mlir::registerMLIRContextCLOptions();
  mlir::registerTranslationCLOptions();
  cl::ParseCommandLineOptions(
      argc, argv, "spyre-mlir translation driver: SuperDSC and DCI emission\n");

  std::string errorMessage;
  std::unique_ptr<llvm::MemoryBuffer> input =
      mlir::openInputFile(inputFilename, &errorMessage);
  if (!input)
    return fail(errorMessage);

  if (std::optional<mlir::spyre::driver::NestingError> deep =
          mlir::spyre::driver::checkNestingDepth(input->getBuffer())) {
    llvm::errs() << deep->str(inputFilename) << "\n";
    return 1;
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  auto processBuffer = [&](std::unique_ptr<llvm::MemoryBuffer> buffer,
                           llvm::raw_ostream &out) -> llvm::LogicalResult {
    mlir::MLIRContext context;
    context.printOpOnDiagnostic(!verifyDiagnostics);
    auto sourceMgr = std::make_shared<llvm::SourceMgr>();
    sourceMgr->AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
    if (verifyDiagnostics) {
      mlir::SourceMgrDiagnosticVerifierHandler handler(*sourceMgr, &context);
      (void)(*translation)(sourceMgr, out, &context);
      return handler.verify();
    }
    mlir::SourceMgrDiagnosticHandler handler(*sourceMgr, &context);
    return (*translation)(sourceMgr, out, &context);
  };
  if (mlir::failed(mlir::splitAndProcessBuffer(
          std::move(input), processBuffer, os, splitInputFile,
          splitInputFile.empty() ? "" : mlir::kDefaultSplitMarker)))
    return 1;

  std::vector<std::string> read = {inputFilename.getValue()};
  mlir::spyre::OutputFiles files(read);
  if (llvm::Error error = files.add(outputFilename, std::move(text)))
    return fail(llvm::toString(std::move(error)));
  if (llvm::Error error = files.commit())
    return fail(llvm::toString(std::move(error)));
  return 0;
}
