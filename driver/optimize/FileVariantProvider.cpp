#include "clang-plugin/units/KernelVariantJson.h"
#include "driver/optimize/VariantProvider.h"

#include <llvm/Support/MemoryBuffer.h>

namespace kopt::driver {

llvm::Expected<std::unique_ptr<FileVariantProvider>>
FileVariantProvider::load(const std::vector<std::string> &Paths) {
  auto Provider = std::make_unique<FileVariantProvider>();
  for (const std::string &Path : Paths) {
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Text = llvm::MemoryBuffer::getFile(Path);
    if (!Text)
      return llvm::createStringError(Text.getError(), "cannot read variant file %s: %s",
                                     Path.c_str(), Text.getError().message().c_str());
    llvm::Expected<std::vector<frontend::KernelVariant>> Variants =
        frontend::kernelVariantsFromJson((*Text)->getBuffer());
    if (!Variants)
      return llvm::createStringError("%s: %s", Path.c_str(),
                                     llvm::toString(Variants.takeError()).c_str());
    for (frontend::KernelVariant &V : *Variants) {
      for (const Entry &E : Provider->Entries)
        if (E.Variant.KernelName == V.KernelName)
          return llvm::createStringError(
              "%s: a second variant for kernel '%s' (the first is in %s)", Path.c_str(),
              V.KernelName.c_str(), E.Path.c_str());
      Provider->Entries.push_back({std::move(V), Path});
    }
  }
  return Provider;
}

llvm::Expected<std::optional<ProvidedVariant>>
FileVariantProvider::variantFor(const frontend::KernelSummary &Kernel, const TuContext &) {
  for (Entry &E : Entries)
    if (E.Variant.KernelName == Kernel.Name) {
      E.Used = true;
      return ProvidedVariant{E.Variant, "variant from " + E.Path};
    }
  return std::nullopt;
}

std::vector<std::string> FileVariantProvider::unusedKernels() const {
  std::vector<std::string> Names;
  for (const Entry &E : Entries)
    if (!E.Used)
      Names.push_back(E.Variant.KernelName);
  return Names;
}

} // namespace kopt::driver
