// Checks a parsed '#pragma kopt optimize' against the kernel it applies to:
// args and buffers name parameters the kernel has (args scalar ones, buffers
// pointers), expressions name integer parameters, args values do not depend
// on themselves. Needs no clang: the front end passes the parameters.
#pragma once

#include "clang-plugin/analysis/KernelParam.h"
#include "clang-plugin/pragma/PragmaClauses.h"
#include "clang-plugin/pragma/PragmaDiagnostic.h"

#include <llvm/ADT/ArrayRef.h>

#include <vector>

namespace kopt::frontend {

std::vector<PragmaDiagnostic> checkAgainstKernel(const PragmaClauses &Clauses,
                                                 llvm::StringRef KernelName,
                                                 llvm::ArrayRef<KernelParam> Params);

} // namespace kopt::frontend
