//===- Artifacts.cpp - Emission, the manifest and safe output files -------===//

#include "Spyre/Dialect/Spyre/IR/Spyre.h"
#include "Spyre/Driver/Driver.h"
#include "Spyre/Sim/Simulator.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace mlir::spyre;
using namespace mlir::spyre::driver;

FailureOr<Artifacts> mlir::spyre::driver::emitArtifacts(ModuleOp kernels) {
  Artifacts artifacts;
  FailureOr<std::vector<EmittedFile>> sdsc = emitSuperDsc(kernels);
  if (failed(sdsc))
    return failure();
  FailureOr<std::vector<EmittedBundle>> bundles = emitBundles(kernels);
  if (failed(bundles))
    return failure();
  FailureOr<std::vector<EmittedFile>> dci = emitDci(kernels);
  if (failed(dci))
    return failure();
  artifacts.superdsc = std::move(*sdsc);
  artifacts.bundles = std::move(*bundles);
  artifacts.dci = std::move(*dci);
  return artifacts;
}

static constexpr llvm::StringLiteral kManifestSchema = "spyre-manifest";
static constexpr int64_t kManifestVersion = 2;

/// The DCI file describing `tensor` ("argument 0", "result 1") of
/// `function`, or "".
static std::string dciFileOf(const Artifacts &artifacts, StringRef function,
                             StringRef tensor) {
  for (const EmittedFile &file : artifacts.dci)
    if (file.metadata.getString("function") == function &&
        file.metadata.getString("tensor") == tensor)
      return file.name;
  return "";
}

static llvm::json::Object describeTensor(Type type, StringRef dci) {
  auto tensor = cast<RankedTensorType>(type);
  llvm::json::Array shape;
  for (int64_t size : tensor.getShape())
    shape.push_back(size);
  FailureOr<HostType> host = getHostType(tensor.getElementType());
  llvm::json::Object object{
      {"shape", std::move(shape)},
      {"dtype", succeeded(host) ? stringifyHostType(*host).str()
                                : sim::describeType(tensor.getElementType())}};
  if (LayoutAttr layout = getLayoutAttr(type)) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << layout;
    object["layout"] = text;
  }
  if (!dci.empty())
    object["dci"] = dci.str();
  return object;
}

llvm::json::Value mlir::spyre::driver::buildManifest(func::FuncOp function,
                                                     const Artifacts &artifacts,
                                                     StringRef kernelsFile,
                                                     StringRef sourceFile) {
  llvm::json::Array inputs, outputs, sdsc, bundles, dci;
  StringRef name = function.getName();
  for (auto [i, type] : llvm::enumerate(function.getArgumentTypes()))
    inputs.push_back(describeTensor(
        type, dciFileOf(artifacts, name, "argument " + std::to_string(i))));
  for (auto [i, type] : llvm::enumerate(function.getResultTypes()))
    outputs.push_back(describeTensor(
        type, dciFileOf(artifacts, name, "result " + std::to_string(i))));
  for (const EmittedFile &file : artifacts.superdsc)
    sdsc.push_back(file.name);
  for (const EmittedBundle &bundle : artifacts.bundles)
    bundles.push_back(bundle.name);
  for (const EmittedFile &file : artifacts.dci)
    dci.push_back(file.name);
  llvm::json::Object manifest{
      {"schema", kManifestSchema},    {"version", kManifestVersion},
      {"spyre_mlir", getVersion()},   {"function", name.str()},
      {"kernels", kernelsFile.str()}, {"bundles", std::move(bundles)},
      {"superdsc", std::move(sdsc)},  {"dci", std::move(dci)},
      {"inputs", std::move(inputs)},  {"outputs", std::move(outputs)}};
  if (!sourceFile.empty())
    manifest["source"] = sourceFile.str();
  if (auto module = function->getParentOfType<ModuleOp>())
    manifest["host_segments"] = listHostSegments(module);
  return manifest;
}

llvm::Expected<std::optional<ManifestFiles>>
mlir::spyre::driver::readManifest(StringRef path) {
  if (!path.ends_with(".json"))
    return std::nullopt;
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return llvm::createStringError(buffer.getError(),
                                   "cannot read " + path + ": " +
                                       buffer.getError().message());
  llvm::Expected<llvm::json::Value> value =
      llvm::json::parse((*buffer)->getBuffer());
  if (!value) {
    llvm::consumeError(value.takeError());
    return std::nullopt;
  }
  const llvm::json::Object *object = value->getAsObject();
  if (!object || object->getString("schema") != kManifestSchema)
    return std::nullopt;
  std::optional<int64_t> version = object->getInteger("version");
  if (version != kManifestVersion)
    return llvm::createStringError(
        llvm::formatv("{0}: manifest version {1} is not supported (this is "
                      "version {2})",
                      path, version ? *version : -1, kManifestVersion)
            .str());
  std::optional<StringRef> kernels = object->getString("kernels");
  if (!kernels || kernels->empty())
    return llvm::createStringError(path + ": the manifest names no kernels");
  StringRef dir = llvm::sys::path::parent_path(path);
  auto resolve = [&](StringRef file) {
    SmallString<256> full(dir);
    llvm::sys::path::append(full, file);
    return std::string(full);
  };
  ManifestFiles files;
  files.kernels = resolve(*kernels);
  if (std::optional<StringRef> source = object->getString("source"))
    files.source = resolve(*source);
  if (std::optional<StringRef> function = object->getString("function"))
    files.function = function->str();
  return files;
}
