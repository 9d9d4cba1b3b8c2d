#include "memory/remote/RemoteBackoff.h"

#include "support/AtomicFile.h"

#include <llvm/ADT/SmallString.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>

#include <ctime>
#include <string>

namespace kopt::memory {

namespace {
std::string backoffPath(llvm::StringRef UserDir, llvm::StringRef Id) {
  llvm::SmallString<256> Path(UserDir);
  llvm::sys::path::append(Path, "remote", Id + ".backoff");
  return std::string(Path);
}
} // namespace

bool backedOff(llvm::StringRef UserDir, llvm::StringRef Id) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Text =
      llvm::MemoryBuffer::getFile(backoffPath(UserDir, Id));
  if (!Text)
    return false;
  int64_t Until = 0;
  if ((*Text)->getBuffer().split(' ').first.getAsInteger(10, Until))
    return false;
  return std::time(nullptr) < Until;
}

void backOff(llvm::StringRef UserDir, llvm::StringRef Id, llvm::StringRef Why) {
  int64_t Until = std::time(nullptr) + BackoffPeriod.count();
  llvm::consumeError(writeFileAtomically(backoffPath(UserDir, Id),
                                         std::to_string(Until) + " " + Why.str() + "\n"));
}

} // namespace kopt::memory
