// Describes a clang parameter as a KernelParam.
#pragma once

#include "clang-plugin/analysis/KernelParam.h"

namespace clang {
class ASTContext;
class ParmVarDecl;
} // namespace clang

namespace kopt::frontend {

KernelParam describeParam(const clang::ParmVarDecl &P, const clang::ASTContext &Ctx);

} // namespace kopt::frontend
