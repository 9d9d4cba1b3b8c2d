#include "clang-plugin/KernelAnalysis.h"

#include "clang-plugin/KernelFeatures.h"
#include "clang-plugin/LaunchSiteFinder.h"

#include <clang/AST/Decl.h>

namespace kopt::frontend {

void analyzeKernel(const clang::FunctionDecl &Kernel, clang::ASTContext &Ctx,
                   const LaunchSiteIndex &Launches, KernelSummary &Summary) {
  if (auto It = Launches.find(Kernel.getCanonicalDecl()); It != Launches.end())
    Summary.LaunchSites = It->second;
  Summary.Instantiations = findInstantiations(Kernel, Ctx);
  Summary.Features = analyzeKernelFeatures(Kernel, Ctx);
}

} // namespace kopt::frontend
