// ResultCache's maintenance: listing, eviction, clearing, export and import
// (what `kopt cache` does; kcc's compiles only look up and store).
#include "memory/cache/FileLock.h"
#include "memory/cache/ResultCache.h"
#include "support/AtomicFile.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>

#include <algorithm>
#include <tuple>

namespace kopt::memory {

namespace {
std::vector<ListedEntry> listDir(llvm::StringRef Root, bool Project, llvm::StringRef Prefix) {
  std::vector<ListedEntry> Listed;
  for (EntryFile &F : listEntryFiles(Root)) {
    if (!llvm::StringRef(F.Digest).starts_with(Prefix))
      continue;
    ListedEntry L{std::move(F), Project, std::nullopt, ""};
    llvm::Expected<std::optional<StoredEntry>> Stored = readEntryFile(L.File.Path);
    if (!Stored)
      L.Error = llvm::toString(Stored.takeError());
    else if (*Stored)
      L.Stored = std::move(**Stored);
    else
      continue; // Evicted meanwhile.
    Listed.push_back(std::move(L));
  }
  std::sort(Listed.begin(), Listed.end(), [](const ListedEntry &A, const ListedEntry &B) {
    return A.File.Digest < B.File.Digest;
  });
  return Listed;
}

// Copies the valid entries of From into To, byte for byte (checksums stay valid).
uint64_t copyEntries(llvm::StringRef From, llvm::StringRef To, std::vector<std::string> &Skipped,
                     llvm::Error &Failure) {
  uint64_t Copied = 0;
  for (const ListedEntry &L : listDir(From, /*Project=*/false, "")) {
    if (!L.Stored) {
      Skipped.push_back(L.Error);
      continue;
    }
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Text =
        llvm::MemoryBuffer::getFile(L.File.Path);
    if (!Text) {
      Skipped.push_back(L.File.Path + ": " + Text.getError().message());
      continue;
    }
    if (llvm::Error E = writeFileAtomically(entryPath(To, L.File.Digest), (*Text)->getBuffer())) {
      Failure = std::move(E);
      return Copied;
    }
    ++Copied;
  }
  return Copied;
}
} // namespace

std::vector<ListedEntry> ResultCache::list() const { return find(""); }

std::vector<ListedEntry> ResultCache::find(llvm::StringRef Prefix) const {
  std::vector<ListedEntry> All = listDir(Config.UserDir, /*Project=*/false, Prefix);
  if (Config.ProjectDir)
    for (ListedEntry &L : listDir(*Config.ProjectDir, /*Project=*/true, Prefix))
      All.push_back(std::move(L));
  return All;
}

namespace {
// Entries and manifests alike count in the cache's size.
std::vector<EntryFile> userFiles(llvm::StringRef Root) {
  std::vector<EntryFile> Files = listEntryFiles(Root);
  for (EntryFile &F : listManifestFiles(Root))
    Files.push_back(std::move(F));
  return Files;
}

bool isManifest(const EntryFile &F) { return llvm::StringRef(F.Path).ends_with(".manifest"); }

// The order files go in: manifests first, which a parse remakes, then
// entries, which only a GPU remakes (a verified variant, or the verdict that
// none beat the original); least recently used first within each.
void sortForEviction(std::vector<EntryFile> &Files) {
  std::sort(Files.begin(), Files.end(), [](const EntryFile &A, const EntryFile &B) {
    return std::make_tuple(!isManifest(A), A.LastUse) < std::make_tuple(!isManifest(B), B.LastUse);
  });
}
} // namespace

uint64_t ResultCache::userBytes() const {
  uint64_t Bytes = 0;
  for (const EntryFile &F : userFiles(Config.UserDir))
    Bytes += F.Bytes;
  return Bytes;
}

llvm::Expected<GcResult> ResultCache::evict(bool Gc) {
  if (llvm::Error E = writable())
    return E;
  std::string LockPath = gcLockPath(Config.UserDir);
  llvm::Expected<std::optional<FileLock>> Lock =
      Gc ? llvm::Expected<std::optional<FileLock>>(FileLock::acquire(LockPath))
         : FileLock::tryAcquire(LockPath);
  if (!Lock)
    return Lock.takeError();
  GcResult Result;
  if (!*Lock)
    return Result; // Another process is evicting.
  if (Gc)
    Result.Corrupt = removeCorruptUserFiles();
  std::vector<EntryFile> Files = userFiles(Config.UserDir);
  uint64_t WorkingSet = 0;
  for (const EntryFile &F : Files) {
    Result.BytesBefore += F.Bytes;
    if (Config.BuildStart && F.LastUse >= *Config.BuildStart)
      WorkingSet += F.Bytes;
  }
  Result.BytesAfter = Result.BytesBefore;
  if (!Config.MaxBytes || Result.BytesBefore <= Config.MaxBytes)
    return Result;
  // Down to 90%, so that the next few stores do not each evict again.
  uint64_t Target = Config.MaxBytes / 10 * 9;
  if (WorkingSet > Target)
    Result.WorkingSetBeyondLimit = WorkingSet;
  sortForEviction(Files);
  for (const EntryFile &F : Files) {
    if (Result.BytesAfter <= Target)
      break;
    if (llvm::sys::fs::remove(F.Path, /*IgnoreNonExisting=*/false))
      continue;
    Result.BytesAfter -= F.Bytes;
    ++Result.Evicted;
    Result.EvictedEntries += !isManifest(F);
  }
  count(Counter::Evictions, Result.Evicted);
  return Result;
}

llvm::Expected<GcResult> ResultCache::gc() { return evict(/*Gc=*/true); }

llvm::Expected<ClearResult> ResultCache::clear() {
  if (llvm::Error E = writable())
    return E;
  llvm::Expected<FileLock> Lock = FileLock::acquire(gcLockPath(Config.UserDir));
  if (!Lock)
    return Lock.takeError();
  ClearResult Removed;
  for (const EntryFile &F : listEntryFiles(Config.UserDir))
    if (!llvm::sys::fs::remove(F.Path, /*IgnoreNonExisting=*/false))
      ++Removed.Entries;
  for (const EntryFile &F : listManifestFiles(Config.UserDir))
    if (!llvm::sys::fs::remove(F.Path, /*IgnoreNonExisting=*/false))
      ++Removed.Manifests;
  if (llvm::Error E = Stats.zero())
    return E;
  return Removed;
}

llvm::Expected<uint64_t> ResultCache::exportTo(llvm::StringRef Dir,
                                               std::vector<std::string> &Skipped) const {
  llvm::Error Failure = llvm::Error::success();
  uint64_t Copied = copyEntries(Config.UserDir, Dir, Skipped, Failure);
  if (Failure)
    return Failure;
  return Copied;
}

llvm::Expected<uint64_t> ResultCache::importFrom(llvm::StringRef Dir,
                                                 std::vector<std::string> &Skipped) {
  if (llvm::Error E = writable())
    return E;
  llvm::Error Failure = llvm::Error::success();
  uint64_t Copied = copyEntries(Dir, Config.UserDir, Skipped, Failure);
  if (Failure)
    return Failure;
  return Copied;
}

llvm::Error ResultCache::rekey(const ListedEntry &From, const CacheKey &NewKey,
                               const std::string &Date, const std::string &KoptVersion) {
  if (!From.Stored)
    return llvm::createStringError("%s: %s", From.File.Path.c_str(), From.Error.c_str());
  if (!isDigest(NewKey.Digest))
    return llvm::createStringError("malformed cache key '%s'", NewKey.Digest.c_str());
  if (Config.ReadOnly)
    return llvm::createStringError("the cache is read only");
  const std::string &Root = From.Project ? *Config.ProjectDir : Config.UserDir;
  CacheEntry E = From.Stored->Entry;
  E.Rekeyed = {{"from", From.Stored->Key.Digest},
               {"from_text", From.Stored->Key.Canonical},
               {"date", Date},
               {"kopt", KoptVersion}};
  if (llvm::Error Err =
          writeFileAtomically(entryPath(Root, NewKey.Digest), serializeEntry(NewKey, E)))
    return Err;
  if (From.File.Digest != NewKey.Digest)
    if (std::error_code EC = llvm::sys::fs::remove(From.File.Path))
      return llvm::createStringError(EC, "cannot remove %s", From.File.Path.c_str());
  // Its <2 hex> directory, if that was its last entry (a committed cache stays tidy).
  llvm::sys::fs::remove(llvm::sys::path::parent_path(From.File.Path));
  return llvm::Error::success();
}

llvm::Error ResultCache::reject(const ListedEntry &Entry, const Rejection &Why) {
  if (!Entry.Stored)
    return llvm::createStringError("%s: %s", Entry.File.Path.c_str(), Entry.Error.c_str());
  if (Config.ReadOnly)
    return llvm::createStringError("the cache is read only");
  CacheEntry E = Entry.Stored->Entry;
  E.Rejected = Why;
  return writeFileAtomically(Entry.File.Path, serializeEntry(Entry.Stored->Key, E));
}

} // namespace kopt::memory
