// Describes a clang parameter as a KernelParam.
#pragma once

#include "clang-plugin/model/KernelParam.h"

#include <vector>

namespace clang {
class ASTContext;
class FunctionDecl;
class ParmVarDecl;
} // namespace clang

namespace kopt::frontend {

// Instance: the same parameter in the template instantiation the evaluator
// runs, whose array extents and type are known where the template's are dependent.
KernelParam describeParam(const clang::ParmVarDecl &P, const clang::ASTContext &Ctx,
                          const clang::ParmVarDecl *Instance = nullptr);

// The template parameters of a kernel template (none for a plain kernel): an
// integral non-type parameter is Integer, the others Other.
std::vector<KernelParam> describeTemplateParams(const clang::FunctionDecl &Kernel,
                                                const clang::ASTContext &Ctx);

} // namespace kopt::frontend
