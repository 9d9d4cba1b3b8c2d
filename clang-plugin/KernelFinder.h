// Finds the __global__ functions defined in a CUDA file's main source.
#pragma once

#include "clang-plugin/CudaParseSetup.h"

#include <llvm/Support/Error.h>

#include <string>
#include <vector>

namespace kopt::frontend {

struct KernelParam {
  std::string Name;
  std::string Type;
};

struct KernelSummary {
  std::string Name;        // Qualified: ns::kernel.
  std::string MangledName; // Empty for templates (no single symbol).
  bool IsTemplate = false;
  unsigned Line = 0, Column = 0;
  std::vector<KernelParam> Params;
};

// Parses File with Setup; clang's diagnostics go to stderr in clang's usual
// file:line:col form. Fails when the file does not parse.
llvm::Expected<std::vector<KernelSummary>> findKernels(const std::string &File,
                                                       const CudaParseSetup &Setup);

} // namespace kopt::frontend
