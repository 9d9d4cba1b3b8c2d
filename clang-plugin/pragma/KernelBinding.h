// Checks a parsed '#pragma kopt optimize' against the kernel it applies to:
// args and buffers name parameters the kernel has (args scalar ones, buffers
// pointers), expressions name scalar parameters or integral template
// parameters and have integer values where integers are needed, args values do
// not depend on themselves, range(...) is given for inputs of numeric elements
// and tol(...) for written buffers, instantiation(...) is given only for a
// template. Needs no clang: the front end passes the parameters.
#pragma once

#include "clang-plugin/model/KernelParam.h"
#include "clang-plugin/model/PragmaClauses.h"
#include "clang-plugin/pragma/PragmaDiagnostic.h"

#include <llvm/ADT/ArrayRef.h>

#include <vector>

namespace kopt::frontend {

std::vector<PragmaDiagnostic> checkAgainstKernel(const PragmaClauses &Clauses,
                                                 llvm::StringRef KernelName,
                                                 llvm::ArrayRef<KernelParam> Params,
                                                 llvm::ArrayRef<KernelParam> TemplateParams = {});

} // namespace kopt::frontend
