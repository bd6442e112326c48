//===- spyre-translate.cpp - Emit SuperDSC and DCI ------------------------===//
//
// mlir-translate with the spyre translations:
//
//   spyre-translate --spyre-to-superdsc kernels.mlir            # JSON on stdout
//   spyre-translate --spyre-to-superdsc kernels.mlir -o out/    # one file each
//   spyre-translate --spyre-to-dci kernels.mlir -o out/
//
// `-o` naming a directory (an existing one, or a path ending in '/') writes
// one file per SuperDSC / DCI object plus `bundle.mlir` there and lists the
// files on stdout; any other `-o` is a file receiving the single JSON
// document.
//
//===----------------------------------------------------------------------===//

#include "Spyre/Target/Emitters.h"

#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

int main(int argc, char **argv) {
  mlir::spyre::registerSpyreTranslations();

  // mlir-translate chains the translations it is given, feeding the output
  // of one to the next as MLIR: the second would try to parse JSON and
  // blame "-:1:1". Each emitter reads the kernel form, so give one.
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
                    "once per translation\n";
    return 1;
  }

  // `-o DIR` -> `--spyre-output-dir=DIR -o -`.
  std::vector<std::string> args(argv, argv + argc);
  for (size_t i = 1; i < args.size(); ++i) {
    std::string path;
    size_t consumed = 0;
    if ((args[i] == "-o" || args[i] == "--o") && i + 1 < args.size()) {
      path = args[i + 1];
      consumed = 2;
    } else if (args[i].rfind("-o=", 0) == 0 || args[i].rfind("--o=", 0) == 0) {
      path = args[i].substr(args[i].find('=') + 1);
      consumed = 1;
    }
    if (!consumed || path.empty() || path == "-")
      continue;
    if (path.back() != '/' && !llvm::sys::fs::is_directory(path))
      continue;
    args.erase(args.begin() + i, args.begin() + i + consumed);
    args.insert(args.begin() + i, "--spyre-output-dir=" + path);
    break;
  }
  std::vector<char *> rewritten;
  for (std::string &arg : args)
    rewritten.push_back(arg.data());
  return mlir::failed(mlir::mlirTranslateMain(
             static_cast<int>(rewritten.size()), rewritten.data(),
             "spyre-mlir translation driver: SuperDSC and DCI emission\n"))
             ? 1
             : 0;
}
