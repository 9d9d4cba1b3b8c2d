// Finds the real nvcc that kcc stands in for. Order: KOPT_NVCC, then the CUDA
// toolkit's bin/ (CUDA_PATH, CUDA_HOME, the toolkit kopt was built against),
// then PATH. Never kcc itself: a kcc installed as "nvcc" early in PATH must
// not call itself forever.
#pragma once

#include <llvm/Support/Error.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace kopt::driver {

struct NvccSearchEnvironment {
  std::function<std::optional<std::string>(const char *)> GetEnv;
  std::string SelfPath;        // The running kcc, symbolic links resolved.
  std::string BuildToolkitBin; // The CUDA bin/ kopt was built against.

  // The process's environment, the running binary and the build's toolkit.
  static NvccSearchEnvironment current();

  // Whether Path is the running kcc, directly or through a link.
  bool isSelf(const std::string &Path) const;
  // PATH's directories in order, empty entries dropped.
  std::vector<std::string> pathDirectories() const;
};

// A file that can be executed (not a directory).
bool isExecutableFile(const std::string &Path);

llvm::Expected<std::string> locateRealNvcc(const NvccSearchEnvironment &Env);

} // namespace kopt::driver
