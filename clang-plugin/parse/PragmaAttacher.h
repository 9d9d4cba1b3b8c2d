// After parsing: pairs each '#pragma kopt optimize' with the declaration that
// follows it, which must be a __global__ function definition, and checks the
// clauses against that kernel's parameters. Problems are clang diagnostics.
#pragma once

#include "clang-plugin/model/PragmaClauses.h"
#include "clang-plugin/pragma/PragmaHandler.h"

#include <llvm/ADT/DenseMap.h>

namespace clang {
class ASTContext;
class FunctionDecl;
} // namespace clang

namespace kopt::frontend {

// The kernels with a valid pragma, by their definition (for a template: the
// templated function). Line and Column of the clauses are set.
llvm::DenseMap<const clang::FunctionDecl *, PragmaClauses>
attachPragmas(clang::ASTContext &Ctx, const std::vector<PragmaOccurrence> &Occurrences);

} // namespace kopt::frontend
