// Advisory locks on files (flock): exclusive between processes and between
// open file descriptions of one process, released when the holder is destroyed
// or its process dies, so a crashed kcc never leaves a cache locked.
#pragma once

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

} // namespace kopt::memory
