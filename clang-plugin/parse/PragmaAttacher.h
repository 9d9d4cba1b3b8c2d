// After parsing: pairs each '#pragma kopt optimize' with the declaration that
// follows it, which must be a __global__ function definition, and checks the
// clauses against that kernel's parameters. Problems are clang diagnostics.
#pragma once

#include "clang-plugin/model/PragmaClauses.h"
#include "clang-plugin/pragma/PragmaHandler.h"

#include <llvm/ADT/DenseMap.h>

#include <optional>
#include <string>

namespace clang {
class ASTContext;
class FunctionDecl;
} // namespace clang

namespace kopt::frontend {

// The kernels with a valid pragma, by their definition (for a template: the
// templated function). Line and Column of the clauses are set.
llvm::DenseMap<const clang::FunctionDecl *, PragmaClauses>
attachPragmas(clang::ASTContext &Ctx, const std::vector<PragmaOccurrence> &Occurrences);

// The instantiation of a kernel template that types the template's dependent
// parameters (IdxT n) for the pragma's checks and the workload: the one Named
// (the pragma's instantiation(...) arguments) gives, else the first the
// translation unit uses. Null for a plain kernel, or where none matches.
const clang::FunctionDecl *evaluatedInstance(const clang::FunctionDecl &Kernel,
                                             const std::optional<std::string> &Named,
                                             clang::ASTContext &Ctx);

} // namespace kopt::frontend
