// Describes a clang parameter as a KernelParam.
#pragma once

#include "clang-plugin/analysis/KernelParam.h"

namespace clang {
class ASTContext;
class ParmVarDecl;
} // namespace clang

namespace kopt::frontend {

// Instance: the same parameter in the template instantiation the evaluator
// runs, whose array extents are known where the template's are dependent.
KernelParam describeParam(const clang::ParmVarDecl &P, const clang::ASTContext &Ctx,
                          const clang::ParmVarDecl *Instance = nullptr);

} // namespace kopt::frontend
