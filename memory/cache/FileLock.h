// Advisory locks on files (flock): exclusive between processes and between
// open file descriptions of one process, released when the holder is destroyed
// or its process dies, so a crashed kcc never leaves a cache locked.
#pragma once

#include <llvm/ADT/STLFunctionalExtras.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>

#include <optional>
#include <string>

namespace kopt::memory {

class FileLock {
public:
  // Creates the lock file (and its directory) if needed; waits for the lock.
  static llvm::Expected<FileLock> acquire(llvm::StringRef Path);
  // As acquire, but returns nullopt at once when another holder has it.
  static llvm::Expected<std::optional<FileLock>> tryAcquire(llvm::StringRef Path);

  FileLock(FileLock &&Other) noexcept : Fd(Other.Fd) { Other.Fd = -1; }
  FileLock &operator=(FileLock &&Other) noexcept;
  FileLock(const FileLock &) = delete;
  FileLock &operator=(const FileLock &) = delete;
  ~FileLock();

private:
  explicit FileLock(int Descriptor) : Fd(Descriptor) {}
  static llvm::Expected<std::optional<FileLock>> lock(llvm::StringRef Path, bool Wait);
  int Fd = -1;
};

// Held while a kernel is timed, so that parallel kcc processes (make -j32)
// take turns on the GPU instead of disturbing each other's measurements.
class GpuLock {
public:
  // $KOPT_GPU_LOCK if set, else kopt-gpu<Device>.lock in the system's
  // temporary directory: one lock per GPU and machine, shared by every user
  // and whatever cache directory each build uses.
  static std::string defaultPath(unsigned Device = 0);
  // Waits for the lock; calls OnWait first when another process holds it, so a
  // build can say why it stopped moving.
  static llvm::Expected<GpuLock> acquire(llvm::StringRef Path,
                                         llvm::function_ref<void()> OnWait = {});

private:
  explicit GpuLock(FileLock Held) : Lock(std::move(Held)) {}
  FileLock Lock;
};

} // namespace kopt::memory
