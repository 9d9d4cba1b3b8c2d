// Finds the launches of a kernel in the main file of its translation unit,
// and the instantiations of a kernel template that the translation unit uses.
#pragma once

#include "clang-plugin/model/LaunchSite.h"

#include <llvm/ADT/DenseMap.h>

#include <string>
#include <vector>

namespace clang {
class ASTContext;
class FunctionDecl;
} // namespace clang

namespace kopt::frontend {

// Every kernel<<<...>>>(...) in the main file, found in one pass, by the
// launched kernel's canonical declaration (for a template, its pattern's: the
// launches of all its instantiations count), each list in file order.
using LaunchSiteIndex = llvm::DenseMap<const clang::FunctionDecl *, std::vector<LaunchSite>>;
LaunchSiteIndex findLaunchSites(clang::ASTContext &Ctx);

// The device-side symbol of a kernel or kernel instantiation (not the host stub's).
std::string kernelSymbol(const clang::FunctionDecl &Kernel, clang::ASTContext &Ctx);

// The instantiations of Kernel's template (empty unless Kernel is a template's
// pattern), in the order clang created them.
std::vector<KernelInstantiation> findInstantiations(const clang::FunctionDecl &Kernel,
                                                    clang::ASTContext &Ctx);

} // namespace kopt::frontend
