// ResultCache's checks of every file (`kopt cache verify`, and gc, which
// removes what they refuse): each entry and manifest read as a lookup reads it.
#include "memory/cache/ResultCache.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>

namespace kopt::memory {

namespace {
// Why File (named by its key's digest) would be refused, or "".
std::string whyCorrupt(const EntryFile &File, bool Manifest) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Text = llvm::MemoryBuffer::getFile(File.Path);
  if (!Text)
    return Text.getError() == std::errc::no_such_file_or_directory ? "" : Text.getError().message();
  std::string Key;
  if (Manifest) {
    llvm::Expected<DirectManifest> M = parseManifest((*Text)->getBuffer());
    if (!M)
      return llvm::toString(M.takeError());
    Key = M->Key;
  } else {
    llvm::Expected<StoredEntry> E = parseEntry((*Text)->getBuffer());
    if (!E)
      return llvm::toString(E.takeError());
    Key = E->Key.Digest;
  }
  return Key == File.Digest
             ? ""
             : "holds the " + std::string(Manifest ? "manifest" : "entry") + " of key " + Key;
}

void check(const std::vector<EntryFile> &Files, bool Manifests, bool Project, uint64_t &Checked,
           std::vector<CorruptFile> &Corrupt) {
  for (const EntryFile &F : Files) {
    ++Checked;
    if (std::string Why = whyCorrupt(F, Manifests); !Why.empty())
      Corrupt.push_back({F.Path, std::move(Why), Project});
  }
}
} // namespace

VerifyResult ResultCache::verify() const {
  VerifyResult R;
  check(listEntryFiles(Config.UserDir), false, false, R.Entries, R.Corrupt);
  if (Config.ProjectDir)
    check(listEntryFiles(*Config.ProjectDir), false, true, R.Entries, R.Corrupt);
  check(listManifestFiles(Config.UserDir), true, false, R.Manifests, R.Corrupt);
  return R;
}

llvm::Expected<bool> ResultCache::removeCorrupt(const CorruptFile &File) {
  if (!File.Project)
    if (llvm::Error E = writable())
      return E;
  llvm::StringRef Path = File.Path;
  bool Manifest = Path.ends_with(".manifest");
  EntryFile Again{File.Path, Path.rsplit('/').second.split('.').first.str(), 0, {}};
  if (whyCorrupt(Again, Manifest).empty())
    return false; // Replaced, or gone, since it was checked.
  if (std::error_code EC = llvm::sys::fs::remove(File.Path))
    return llvm::createStringError(EC, "cannot remove %s: %s", File.Path.c_str(),
                                   EC.message().c_str());
  return true;
}

uint64_t ResultCache::removeCorruptUserFiles() {
  uint64_t Removed = 0;
  for (const CorruptFile &F : verify().Corrupt) {
    if (F.Project)
      continue; // gc keeps to the user cache; `kopt cache verify --fix` repairs a project cache.
    llvm::Expected<bool> Done = removeCorrupt(F);
    if (!Done)
      llvm::consumeError(Done.takeError()); // Left for verify to report.
    else
      Removed += *Done;
  }
  return Removed;
}

} // namespace kopt::memory
