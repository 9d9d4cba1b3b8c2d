#include "clang-plugin/units/InstantiationChoice.h"

#include "clang-plugin/units/TemplateSpecialization.h"

#include <llvm/ADT/StringExtras.h>

namespace kopt::frontend {

namespace {
const KernelInstantiation *instantiationWithArgs(const std::vector<KernelInstantiation> &All,
                                                 llvm::StringRef Args) {
  for (const KernelInstantiation &I : All)
    if (sameTemplateArgs(I.TemplateArgs, Args))
      return &I;
  return nullptr;
}

std::string listOf(const std::vector<KernelInstantiation> &All) {
  std::vector<std::string> Names;
  for (const KernelInstantiation &I : All)
    Names.push_back("<" + I.TemplateArgs + ">");
  return Names.empty() ? "none" : llvm::join(Names, ", ");
}
} // namespace

llvm::Expected<std::optional<KernelInstantiation>> chosenInstantiation(const KernelSummary &K) {
  if (!K.IsTemplate)
    return std::nullopt;
  if (K.Pragma && K.Pragma->Instantiation) {
    if (const KernelInstantiation *I =
            instantiationWithArgs(K.Instantiations, *K.Pragma->Instantiation))
      return *I;
    return llvm::createStringError("%s: instantiation(%s) names no instantiation this file uses "
                                   "(it uses: %s)",
                                   K.Name.c_str(), K.Pragma->Instantiation->c_str(),
                                   listOf(K.Instantiations).c_str());
  }
  // A launch's arguments as written may be dependent (a template launching
  // itself); only those naming an instantiation count.
  for (const LaunchSite &Site : K.LaunchSites)
    if (const KernelInstantiation *I = instantiationWithArgs(K.Instantiations, Site.TemplateArgs))
      return *I;
  if (K.Instantiations.size() == 1)
    return K.Instantiations.front();
  return llvm::createStringError(
      "%s: a kernel template that this file does not launch; name the instantiation to "
      "optimize with the pragma's instantiation(...) clause (this file uses: %s)",
      K.Name.c_str(), listOf(K.Instantiations).c_str());
}

} // namespace kopt::frontend
