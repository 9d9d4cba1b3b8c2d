#include "memory/CacheLayout.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>

namespace kopt::memory {

namespace {
std::string join(llvm::StringRef Root, llvm::StringRef A, llvm::StringRef B = "") {
  llvm::SmallString<256> Path(Root);
  llvm::sys::path::append(Path, A);
  if (!B.empty())
    llvm::sys::path::append(Path, B);
  return std::string(Path);
}
} // namespace

bool isDigest(llvm::StringRef Name) {
  return Name.size() == 64 && Name.find_first_not_of("0123456789abcdef") == llvm::StringRef::npos;
}

std::string entryPath(llvm::StringRef Root, llvm::StringRef Digest) {
  return join(Root, "entries", Digest.take_front(2)) + "/" + Digest.str() + ".json";
}

std::string statsDir(llvm::StringRef Root) { return join(Root, "stats"); }

std::string gcLockPath(llvm::StringRef Root) { return join(Root, "gc.lock"); }

std::vector<EntryFile> listEntryFiles(llvm::StringRef Root) {
  std::vector<EntryFile> Files;
  std::error_code EC;
  std::string Entries = join(Root, "entries");
  for (llvm::sys::fs::recursive_directory_iterator It(Entries, EC), End; It != End && !EC;
       It.increment(EC)) {
    llvm::StringRef Name = llvm::sys::path::filename(It->path());
    if (!Name.consume_back(".json") || !isDigest(Name))
      continue;
    llvm::sys::fs::file_status Status;
    if (llvm::sys::fs::status(It->path(), Status) || !llvm::sys::fs::is_regular_file(Status))
      continue; // Evicted meanwhile.
    Files.push_back({It->path(), Name.str(), Status.getSize(), Status.getLastModificationTime()});
  }
  return Files;
}

} // namespace kopt::memory
