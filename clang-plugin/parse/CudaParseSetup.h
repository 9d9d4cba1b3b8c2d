// The clang command line that parses a CUDA translation unit the way nvcc would
// see it. Clang 19 parses CUDA 13's headers given two additions that kopt ships
// (empty texture_*_functions.h shims) and CUDA's cccl include directory.
#pragma once

#include <string>
#include <vector>

namespace kopt::frontend {

struct CudaParseSetup {
  std::string ClangResourceDir; // Holds include/ with clang's CUDA wrappers.
  std::string ShimIncludeDir;
  std::string CudaPath;               // The toolkit root, e.g. /usr/local/cuda.
  std::string GpuArch = "sm_90";      // Device-side target for __CUDA_ARCH__.
  std::vector<std::string> UserFlags; // -I/-D/-U/-isystem/-include/-std from the user's compile.

  // The arguments that follow the driver name in a clang invocation.
  std::vector<std::string> clangArgs() const;
};

// Whether clang (19) can parse for this GPU architecture ("sm_90": yes,
// "sm_100": no; clang 19 knows architectures up to sm_90a).
bool clangKnowsGpuArch(const std::string &Arch);
// What kopt parses for where clang knows none of a compile's architectures.
inline constexpr const char *NewestClangGpuArch = "sm_90";

// Keeps the flags of an nvcc command line that change how a TU parses
// (-I, -D, -U, -isystem, -include, -std), in clang's spelling.
std::vector<std::string> parseRelevantFlags(const std::vector<std::string> &NvccFlags);

} // namespace kopt::frontend
