// Fills in what the analyses find about a kernel: its launch sites, the
// instantiations of a template, and its static features.
#pragma once

#include "clang-plugin/analysis/LaunchSiteFinder.h"
#include "clang-plugin/model/KernelSummary.h"

namespace clang {
class ASTContext;
class FunctionDecl;
} // namespace clang

namespace kopt::frontend {

// Kernel is the definition that Summary describes (a template's pattern for a
// template); Launches is the TU's findLaunchSites. Instance, for a template,
// is the instantiation whose features Summary states: its body has concrete
// types and constants where the pattern's is dependent, and the same source
// locations, so features read from it point into the pattern's text. Null:
// the features are the pattern's.
void analyzeKernel(const clang::FunctionDecl &Kernel, const clang::FunctionDecl *Instance,
                   clang::ASTContext &Ctx, const LaunchSiteIndex &Launches, KernelSummary &Summary);

} // namespace kopt::frontend
