// Which compiler a kcc call stands in for. Two forms:
//   kcc <nvcc arguments>                  the real nvcc, found by NvccLocator
//   kcc <path to nvcc|clang++> <args>     the compiler-launcher form that CMake's
//                                         CMAKE_CUDA_COMPILER_LAUNCHER produces
// Either may start with compiler launchers that kcc then runs the compiler
// through (kcc ccache nvcc ...): ccache, sccache, buildcache, distcc, icecc,
// by file name. kcc comes first so that the launcher caches the rewritten TU
// (a new variant is a new compile), not the original source.
#pragma once

#include "driver/nvcc/NvccLocator.h"

#include <string>
#include <vector>

namespace kopt::driver {

struct ResolvedCompiler {
  std::vector<std::string> Launchers; // Paths, in order; usually none.
  std::string Path;
  bool IsNvcc = true; // kcc understands nvcc's command line only.
  bool LauncherForm = false;
  std::vector<std::string> Args; // The compiler's arguments (argv[1...]).

  // The launchers, the compiler and CompilerArgs: the command to run.
  std::vector<std::string> commandLine(const std::vector<std::string> &CompilerArgs) const;
};

llvm::Expected<ResolvedCompiler> resolveCompiler(const std::vector<std::string> &Args,
                                                 const NvccSearchEnvironment &Env);

} // namespace kopt::driver
