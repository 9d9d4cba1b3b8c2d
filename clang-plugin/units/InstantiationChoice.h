// Which instantiation of a kernel template kopt optimizes: the one the pragma's
// instantiation(...) clause names, else the one the file launches (first launch in
// file order), else the only one the file uses. The workload, the code the evaluator
// runs and the cache key are that instantiation's.
#pragma once

#include "clang-plugin/model/KernelSummary.h"

#include <llvm/Support/Error.h>

#include <optional>

namespace kopt::frontend {

// std::nullopt for a kernel that is not a template. Fails for a template whose
// clause names no instantiation the file uses, or that the file neither launches
// nor uses just once (the message says how to name one).
llvm::Expected<std::optional<KernelInstantiation>> chosenInstantiation(const KernelSummary &K);

} // namespace kopt::frontend
