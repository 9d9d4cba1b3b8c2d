#include "clang-plugin/analysis/KernelAnalysis.h"

#include "clang-plugin/analysis/LaunchSiteFinder.h"
#include "clang-plugin/model/KernelFeatures.h"

#include <clang/AST/Decl.h>

namespace kopt::frontend {

void analyzeKernel(const clang::FunctionDecl &Kernel, const clang::FunctionDecl *Instance,
                   clang::ASTContext &Ctx, const LaunchSiteIndex &Launches,
                   KernelSummary &Summary) {
  if (auto It = Launches.find(Kernel.getCanonicalDecl()); It != Launches.end())
    Summary.LaunchSites = It->second;
  Summary.Instantiations = findInstantiations(Kernel, Ctx);
  Summary.Features = analyzeKernelFeatures(Instance ? *Instance : Kernel, Ctx);
}

} // namespace kopt::frontend
