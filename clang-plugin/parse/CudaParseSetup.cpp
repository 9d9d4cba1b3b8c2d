#include "clang-plugin/parse/CudaParseSetup.h"

#include <clang/Basic/Cuda.h>
#include <llvm/ADT/StringRef.h>

#include <string_view>

namespace kopt::frontend {

std::vector<std::string> CudaParseSetup::clangArgs() const {
  std::vector<std::string> Args = {
      "-xcuda",
      "--cuda-host-only", // Kernel bodies are in the host-side AST too; one pass suffices.
      "--cuda-gpu-arch=" + GpuArch,
      "--cuda-path=" + CudaPath,
      "-resource-dir=" + ClangResourceDir,
      "-isystem",
      ShimIncludeDir,
      "-isystem",
      CudaPath + "/include/cccl",
      "-Wno-unknown-cuda-version", // CUDA 13 is newer than clang 19 knows; it parses fine.
      "-Wno-register", // C++17 removed 'register'; nvcc accepts it (as a warning), so must we.
      "-fsyntax-only",
  };
  if (!FallbackIncludeDir.empty())
    Args.insert(Args.end(), {"-idirafter", FallbackIncludeDir});
  if (RelocatableDeviceCode)
    Args.push_back("-fgpu-rdc");
  if (OpenMP)
    Args.push_back("-fopenmp");
  Args.insert(Args.end(), UserFlags.begin(), UserFlags.end());
  return Args;
}

bool clangKnowsGpuArch(const std::string &Arch) {
  return clang::StringToOffloadArch(Arch) != clang::OffloadArch::UNKNOWN;
}

std::vector<std::string> parseRelevantFlags(const std::vector<std::string> &NvccFlags) {
  static constexpr std::string_view Joined[] = {"-I", "-D", "-U"};
  static constexpr std::string_view Separate[] = {"-I", "-D", "-U", "-isystem", "-include"};
  std::vector<std::string> Out;
  for (size_t I = 0; I < NvccFlags.size(); ++I) {
    std::string_view Flag = NvccFlags[I];
    bool Taken = false;
    for (std::string_view S : Separate)
      if (Flag == S && I + 1 < NvccFlags.size()) {
        Out.emplace_back(Flag);
        Out.push_back(NvccFlags[++I]);
        Taken = true;
        break;
      }
    if (Taken)
      continue;
    for (std::string_view J : Joined)
      if (Flag.size() > J.size() && Flag.starts_with(J)) {
        Out.emplace_back(Flag);
        Taken = true;
        break;
      }
    if (!Taken && (Flag.starts_with("-std=") || Flag.starts_with("--std=")))
      Out.push_back("-std=" + std::string(Flag.substr(Flag.find('=') + 1)));
  }
  return Out;
}

} // namespace kopt::frontend
