#include "memory/cache/GpuLock.h"

#include <llvm/ADT/SmallString.h>
#include <llvm/Support/Path.h>

#include <cctype>
#include <cstdlib>
#include <optional>
#include <thread>

namespace kopt::memory {

std::string GpuLock::pathFor(llvm::StringRef GpuId) {
  llvm::SmallString<256> Path;
  if (const char *Dir = std::getenv("KOPT_GPU_LOCK_DIR"); Dir && *Dir)
    Path = Dir;
  else
    llvm::sys::path::system_temp_directory(/*ErasedOnReboot=*/true, Path);
  // A UUID is hex and dashes; anything else a caller passes stays a file name.
  std::string Name = "kopt-gpu-";
  for (char C : GpuId)
    Name += std::isalnum(static_cast<unsigned char>(C)) || C == '-' || C == '.' ? C : '_';
  llvm::sys::path::append(Path, Name + ".lock");
  return std::string(Path);
}

llvm::Expected<GpuLock> GpuLock::acquire(llvm::StringRef Path, llvm::function_ref<void()> OnWait) {
  llvm::Expected<std::optional<FileLock>> Free = FileLock::tryAcquire(Path);
  if (!Free)
    return Free.takeError();
  if (*Free)
    return GpuLock(std::move(**Free), 0);
  if (OnWait)
    OnWait();
  llvm::Expected<FileLock> Lock = FileLock::acquire(Path);
  if (!Lock)
    return Lock.takeError();
  return GpuLock(std::move(*Lock), 0);
}

llvm::Expected<GpuLock> GpuLock::acquireAny(llvm::ArrayRef<std::string> Paths,
                                            llvm::function_ref<void()> OnWait,
                                            std::chrono::milliseconds Poll) {
  if (Paths.empty())
    return llvm::createStringError("no GPU to lock");
  if (Paths.size() == 1) // One GPU: flock itself waits, and wakes at once.
    return acquire(Paths.front(), OnWait);
  for (bool Waited = false;; Waited = true) {
    for (size_t I = 0; I < Paths.size(); ++I) {
      llvm::Expected<std::optional<FileLock>> Free = FileLock::tryAcquire(Paths[I]);
      if (!Free)
        return Free.takeError();
      if (*Free)
        return GpuLock(std::move(**Free), I);
    }
    if (!Waited && OnWait)
      OnWait();
    std::this_thread::sleep_for(Poll);
  }
}

} // namespace kopt::memory
