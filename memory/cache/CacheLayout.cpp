#include "memory/cache/CacheLayout.h"

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

std::string manifestPath(llvm::StringRef Root, llvm::StringRef Digest) {
  return join(Root, "manifests", Digest.take_front(2)) + "/" + Digest.str() + ".manifest";
}

std::string statsDir(llvm::StringRef Root) { return join(Root, "stats"); }

std::string gcLockPath(llvm::StringRef Root) { return join(Root, "gc.lock"); }
std::string recordingsDir(llvm::StringRef Root) { return join(Root, "recordings"); }
std::string saidDir(llvm::StringRef Root) { return join(Root, "said"); }

namespace {
std::vector<EntryFile> listFiles(llvm::StringRef Root, llvm::StringRef Folder,
                                 llvm::StringRef Suffix) {
  std::vector<EntryFile> Files;
  std::error_code EC;
  std::string Dir = join(Root, Folder);
  for (llvm::sys::fs::recursive_directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC)) {
    llvm::StringRef Name = llvm::sys::path::filename(It->path());
    if (!Name.consume_back(Suffix) || !isDigest(Name))
      continue;
    llvm::sys::fs::file_status Status;
    if (llvm::sys::fs::status(It->path(), Status) || !llvm::sys::fs::is_regular_file(Status))
      continue; // Evicted meanwhile.
    Files.push_back({It->path(), Name.str(), Status.getSize(), Status.getLastModificationTime()});
  }
  return Files;
}

} // namespace

std::vector<EntryFile> listEntryFiles(llvm::StringRef Root) {
  return listFiles(Root, "entries", ".json");
}

std::vector<EntryFile> listManifestFiles(llvm::StringRef Root) {
  return listFiles(Root, "manifests", ".manifest");
}

} // namespace kopt::memory
