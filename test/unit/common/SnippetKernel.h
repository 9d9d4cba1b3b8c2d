// Kernels for unit tests, parsed by kopt's front end without CUDA's headers
// (test/fuzz's snippet arguments): a prelude declares the builtins they use.
#pragma once

#include "clang-plugin/parse/KernelFinder.h"
#include "test/fuzz/PragmaMutator.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace kopt::snippets {

inline const char *const SnippetPrelude = R"(
struct uint3 { unsigned x, y, z; };
struct dim3 { unsigned x, y, z; };
extern const __device__ uint3 threadIdx;
extern const __device__ uint3 blockIdx;
extern const __device__ dim3 blockDim;
extern const __device__ dim3 gridDim;
)";

// The one kernel of Code (after the prelude), parsed with Args; a test
// failure where there is not exactly one.
inline frontend::KernelSummary
snippetKernel(const std::string &Code,
              const std::vector<std::string> &Args = fuzz::snippetClangArgs()) {
  std::string Diagnostics;
  llvm::raw_string_ostream OS(Diagnostics);
  auto Kernels = frontend::findKernelsInCode(SnippetPrelude + Code, "/t/k.cu", Args, OS);
  if (!Kernels || Kernels->size() != 1) {
    ADD_FAILURE() << (Kernels ? "not one kernel" : llvm::toString(Kernels.takeError())) << "\n"
                  << Diagnostics;
    return {};
  }
  return Kernels->front();
}

} // namespace kopt::snippets
