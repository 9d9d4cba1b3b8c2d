// Describes a clang parameter as a KernelParam.
#pragma once

#include "clang-plugin/analysis/KernelParam.h"

#include <vector>

namespace clang {
class ASTContext;
class FunctionDecl;
class ParmVarDecl;
} // namespace clang

namespace kopt::frontend {

KernelParam describeParam(const clang::ParmVarDecl &P, const clang::ASTContext &Ctx);

// The template parameters of a kernel template (none for a plain kernel): an
// integral non-type parameter is Integer, the others Other.
std::vector<KernelParam> describeTemplateParams(const clang::FunctionDecl &Kernel,
                                                const clang::ASTContext &Ctx);

} // namespace kopt::frontend
