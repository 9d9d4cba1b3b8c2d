#include "clang-plugin/KernelAnalysis.h"

#include "clang-plugin/KernelFeatures.h"
#include "clang-plugin/LaunchSiteFinder.h"

namespace kopt::frontend {

void analyzeKernel(const clang::FunctionDecl &Kernel, clang::ASTContext &Ctx,
                   KernelSummary &Summary) {
  Summary.LaunchSites = findLaunchSites(Kernel, Ctx);
  Summary.Instantiations = findInstantiations(Kernel, Ctx);
  Summary.Features = analyzeKernelFeatures(Kernel, Ctx);
}

} // namespace kopt::frontend
