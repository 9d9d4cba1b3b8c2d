#include "memory/cache/OnceWarnings.h"

#include "memory/cache/CacheLayout.h"
#include "support/BuildIdentity.h"
#include "support/SaidOnce.h"

#include <llvm/ADT/SmallString.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>

#include <cstdlib>

namespace kopt::memory {

namespace {
std::optional<std::string> thisBuild() { return buildIdentity(std::getenv("KOPT_BUILD_ID")); }
} // namespace

bool firstInBuild(llvm::StringRef CacheDir, llvm::StringRef Warning) {
  std::optional<std::string> Build = thisBuild();
  return !Build || firstToSay(saidDir(CacheDir), "build " + *Build + ": " + Warning.str());
}

bool firstForEntry(llvm::StringRef CacheDir, llvm::StringRef Warning) {
  return firstToSay(saidDir(CacheDir), "entry: " + Warning.str());
}

std::optional<llvm::sys::TimePoint<>> buildStart(llvm::StringRef CacheDir) {
  std::optional<std::string> Build = thisBuild();
  if (!Build)
    return std::nullopt;
  // Made by the build's first compile (said once); its time is the build's start.
  std::string Marker = "build " + *Build + " began";
  firstToSay(saidDir(CacheDir), Marker);
  llvm::SmallString<256> Path(saidDir(CacheDir));
  llvm::sys::path::append(Path, saidMarkerName(Marker));
  llvm::sys::fs::file_status Status;
  if (llvm::sys::fs::status(Path, Status))
    return std::nullopt;
  return Status.getLastModificationTime();
}

} // namespace kopt::memory
