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
#include "llvm/Support/FileSystem.h"

#include <string>
#include <vector>

int main(int argc, char **argv) {
  mlir::spyre::registerSpyreTranslations();

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
