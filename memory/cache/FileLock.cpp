#include "memory/cache/FileLock.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

namespace kopt::memory {

llvm::Expected<std::optional<FileLock>> FileLock::lock(llvm::StringRef Path, bool Wait) {
  std::string P = Path.str();
  llvm::sys::fs::create_directories(llvm::sys::path::parent_path(Path));
  // flock needs no write access: another user's lock file in /tmp still works.
  int Fd = ::open(P.c_str(), O_RDONLY | O_CREAT | O_CLOEXEC, 0666);
  if (Fd < 0)
    return llvm::createStringError(std::error_code(errno, std::generic_category()),
                                   "cannot open lock %s: %s", P.c_str(), strerror(errno));
  int Status;
  do
    Status = ::flock(Fd, LOCK_EX | (Wait ? 0 : LOCK_NB));
  while (Status != 0 && errno == EINTR);
  if (Status != 0) {
    int Err = errno;
    ::close(Fd);
    if (Err == EWOULDBLOCK)
      return std::nullopt;
    return llvm::createStringError(std::error_code(Err, std::generic_category()),
                                   "cannot lock %s: %s", P.c_str(), strerror(Err));
  }
  return FileLock(Fd);
}

llvm::Expected<FileLock> FileLock::acquire(llvm::StringRef Path) {
  llvm::Expected<std::optional<FileLock>> Lock = lock(Path, /*Wait=*/true);
  if (!Lock)
    return Lock.takeError();
  return std::move(**Lock);
}

llvm::Expected<std::optional<FileLock>> FileLock::tryAcquire(llvm::StringRef Path) {
  return lock(Path, /*Wait=*/false);
}

FileLock &FileLock::operator=(FileLock &&Other) noexcept {
  if (this != &Other) {
    if (Fd >= 0)
      ::close(Fd);
    Fd = Other.Fd;
    Other.Fd = -1;
  }
  return *this;
}

FileLock::~FileLock() {
  if (Fd >= 0)
    ::close(Fd); // Closing the last descriptor releases the flock.
}

} // namespace kopt::memory
