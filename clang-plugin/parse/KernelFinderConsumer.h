// The AST consumer behind findKernels, for a compiler instance that someone
// else runs: kopt's own ToolInvocation (KernelFinder.cpp) and clang++ loading
// kopt's plugin (plugin/) share it, so both check '#pragma kopt' the same way.
#pragma once

#include "clang-plugin/parse/KernelFinder.h"

#include <memory>
#include <vector>

namespace clang {
class ASTConsumer;
class CompilerInstance;
} // namespace clang

namespace kopt::frontend {

// How much a consumer finds out about each kernel.
enum class KernelDetail {
  Declaration, // Name, symbol, position, parameters and pragma clauses.
  Analyzed,    // Also launch sites, instantiations, static features and the unit.
};

// Installs the '#pragma kopt' handlers on CI's preprocessor (call before the
// TU is preprocessed, as CreateASTConsumer is). After the parse, the consumer
// checks each pragma against the declaration that follows it (problems are
// clang diagnostics of CI) and appends the main file's kernels to Sink.
std::unique_ptr<clang::ASTConsumer> createKernelFinderConsumer(clang::CompilerInstance &CI,
                                                               std::vector<KernelSummary> &Sink,
                                                               KernelDetail Detail);

} // namespace kopt::frontend
