#include "driver/NvccLocator.h"

#include "kopt/Version.h"
#include "support/InstallLayout.h"

#include <llvm/ADT/SmallVector.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>

#include <cstdlib>

namespace kopt::driver {

namespace {
bool isSelf(const std::string &Candidate, const std::string &SelfPath) {
  bool Same = false;
  return !llvm::sys::fs::equivalent(Candidate, SelfPath, Same) && Same;
}

bool isUsableNvcc(const std::string &Candidate, const std::string &SelfPath) {
  return llvm::sys::fs::can_execute(Candidate) && !llvm::sys::fs::is_directory(Candidate) &&
         !isSelf(Candidate, SelfPath);
}

std::string inDir(llvm::StringRef Dir) {
  llvm::SmallString<256> Path(Dir);
  llvm::sys::path::append(Path, "nvcc");
  return std::string(Path);
}
} // namespace

NvccSearchEnvironment NvccSearchEnvironment::current() {
  NvccSearchEnvironment Env;
  Env.GetEnv = [](const char *Name) -> std::optional<std::string> {
    const char *Value = std::getenv(Name);
    if (!Value || !*Value)
      return std::nullopt;
    return std::string(Value);
  };
  Env.SelfPath = runningBinaryPath();
  Env.BuildToolkitBin = BuildCudaToolkitBinDir;
  return Env;
}

llvm::Expected<std::string> locateRealNvcc(const NvccSearchEnvironment &Env) {
  if (std::optional<std::string> Explicit = Env.GetEnv("KOPT_NVCC")) {
    if (isSelf(*Explicit, Env.SelfPath))
      return llvm::createStringError("KOPT_NVCC=%s names kcc itself; point it at the real nvcc",
                                     Explicit->c_str());
    if (!llvm::sys::fs::can_execute(*Explicit) || llvm::sys::fs::is_directory(*Explicit))
      return llvm::createStringError("KOPT_NVCC=%s is not an executable file", Explicit->c_str());
    return *Explicit;
  }

  for (const char *Var : {"CUDA_PATH", "CUDA_HOME"})
    if (std::optional<std::string> Root = Env.GetEnv(Var)) {
      llvm::SmallString<256> Bin(*Root);
      llvm::sys::path::append(Bin, "bin");
      std::string Candidate = inDir(Bin);
      if (isUsableNvcc(Candidate, Env.SelfPath))
        return Candidate;
    }
  if (!Env.BuildToolkitBin.empty()) {
    std::string Candidate = inDir(Env.BuildToolkitBin);
    if (isUsableNvcc(Candidate, Env.SelfPath))
      return Candidate;
  }

  if (std::optional<std::string> Path = Env.GetEnv("PATH")) {
    llvm::SmallVector<llvm::StringRef, 16> Dirs;
    llvm::StringRef(*Path).split(Dirs, ':', -1, /*KeepEmpty=*/false);
    for (llvm::StringRef Dir : Dirs) {
      std::string Candidate = inDir(Dir);
      if (isUsableNvcc(Candidate, Env.SelfPath))
        return Candidate;
    }
  }
  return llvm::createStringError(
      "cannot find the real nvcc: set KOPT_NVCC, or CUDA_PATH to the CUDA toolkit, "
      "or put nvcc on PATH");
}

} // namespace kopt::driver
