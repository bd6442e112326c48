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
#include "Spyre/Target/Emitters.h"

#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

int main(int argc, char **argv) {
  mlir::spyre::registerSpyreTranslations(
      mlir::spyre::driver::registerToolDialects);
  mlir::spyre::driver::registerVersionPrinter();

  // mlir-translate chains the translations it is given, feeding the output
  // of one to the next as MLIR: the second would try to parse JSON and
  // blame "-:1:1". Each emitter reads the kernel form, so ask for one.
  std::vector<std::string> translations;
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg(argv[i]);
    if (arg == "--")
      break;
    if (!arg.consume_front("-"))
      continue;
    arg.consume_front("-");
    if (arg == "spyre-to-superdsc" || arg == "spyre-to-dci")
      translations.push_back(("--" + arg).str());
  }
  if (translations.size() > 1) {
    llvm::errs() << "spyre-translate: error: choose one translation, "
                    "--spyre-to-superdsc or --spyre-to-dci (given:";
    for (const std::string &flag : translations)
      llvm::errs() << " " << flag;
    llvm::errs() << "); both read the kernel form, so run spyre-translate "
                    "once per translation (or spyre-compile for both)\n";
    return 1;
  }
  return mlir::failed(mlir::mlirTranslateMain(
             argc, argv,
             "spyre-mlir translation driver: SuperDSC and DCI emission\n"))
             ? 1
             : 0;
}
