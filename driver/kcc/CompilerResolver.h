// Which compiler a kcc call stands in for. Two forms:
//   kcc <nvcc arguments>                  the real nvcc, found by NvccLocator
//   kcc <path to nvcc|clang++> <args>     the compiler-launcher form that CMake's
//                                         CMAKE_CUDA_COMPILER_LAUNCHER produces
#pragma once

#include "driver/nvcc/NvccLocator.h"

#include <string>
#include <vector>

namespace kopt::driver {

struct ResolvedCompiler {
  std::string Path;
  bool IsNvcc = true; // kcc understands nvcc's command line only.
  bool LauncherForm = false;
  std::vector<std::string> Args; // The compiler's arguments (argv[1...]).
};

llvm::Expected<ResolvedCompiler> resolveCompiler(const std::vector<std::string> &Args,
                                                 const NvccSearchEnvironment &Env);

} // namespace kopt::driver
