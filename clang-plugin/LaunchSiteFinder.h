// Finds the launches of a kernel in the main file of its translation unit,
// and the instantiations of a kernel template that the translation unit uses.
#pragma once

#include "clang-plugin/LaunchSite.h"

#include <vector>

namespace clang {
class ASTContext;
class FunctionDecl;
} // namespace clang

namespace kopt::frontend {

// Every kernel<<<...>>>(...) of Kernel in the main file, in file order. For a
// template, Kernel is its pattern and the launches of all its instantiations count.
std::vector<LaunchSite> findLaunchSites(const clang::FunctionDecl &Kernel, clang::ASTContext &Ctx);

// The instantiations of Kernel's template (empty unless Kernel is a template's
// pattern), in the order clang created them.
std::vector<KernelInstantiation> findInstantiations(const clang::FunctionDecl &Kernel,
                                                    clang::ASTContext &Ctx);

} // namespace kopt::frontend
