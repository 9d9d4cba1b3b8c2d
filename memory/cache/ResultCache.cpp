#include "memory/cache/ResultCache.h"

#include "memory/cache/OnceWarnings.h"
#include "support/AtomicFile.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>

#include <sys/time.h>

namespace kopt::memory {

llvm::Expected<std::optional<StoredEntry>> readEntryFile(llvm::StringRef Path,
                                                         std::string *Digest) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Text = llvm::MemoryBuffer::getFile(Path);
  if (!Text) {
    if (Text.getError() == std::errc::no_such_file_or_directory)
      return std::nullopt; // Never stored, or evicted meanwhile: a miss, not an error.
    return llvm::createStringError(Text.getError(), "%s: %s", Path.str().c_str(),
                                   Text.getError().message().c_str());
  }
  if (Digest)
    *Digest = contentDigest((*Text)->getBuffer());
  llvm::Expected<StoredEntry> Stored = parseEntry((*Text)->getBuffer());
  if (!Stored)
    return llvm::createStringError("%s: %s", Path.str().c_str(),
                                   llvm::toString(Stored.takeError()).c_str());
  return std::move(*Stored);
}

ResultCache::ResultCache(CacheConfig C) : Config(std::move(C)), Stats(statsDir(Config.UserDir)) {}

llvm::Expected<ResultCache> ResultCache::open(const CacheConfig &Config) {
  if (Config.UserDir.empty())
    return llvm::createStringError("no cache directory configured");
  if (Config.ProjectDir && Config.ProjectDir->empty())
    return llvm::createStringError("empty project cache directory");
  return ResultCache(Config);
}

void ResultCache::count(Counter C, uint64_t N) {
  if (Config.ReadOnly)
    return;
  // Counters are best effort: an unwritable cache still serves hits.
  llvm::consumeError(Stats.add(C, N));
}

llvm::Error ResultCache::writable() const {
  if (Config.ReadOnly)
    return llvm::createStringError("the cache %s is read only", Config.UserDir.c_str());
  return llvm::Error::success();
}

llvm::Expected<std::optional<CacheEntry>> ResultCache::lookup(const CacheKey &Key,
                                                              std::string *Warning,
                                                              std::vector<ManifestEntry> *Read,
                                                              std::string *RemoteWarning) {
  if (!isDigest(Key.Digest))
    return llvm::createStringError("malformed cache key '%s'", Key.Digest.c_str());
  struct Source {
    const std::string *Root;
    Counter Hit;
  };
  const Source Sources[] = {
      {Config.ProjectDir ? &*Config.ProjectDir : nullptr, Counter::ProjectHits},
      {&Config.UserDir, Counter::UserHits}};
  for (const Source &S : Sources) {
    if (!S.Root)
      continue;
    std::string Path = entryPath(*S.Root, Key.Digest);
    std::string Digest;
    llvm::Expected<std::optional<StoredEntry>> Stored = readEntryFile(Path, &Digest);
    if (Read && Stored) {
      FileObservation File{Path, FileObservation::Kind::Absent, {}, {}, {}};
      if (*Stored) {
        File.Type = FileObservation::Kind::File;
        File.Content = Digest;
      }
      Read->push_back({Key.Digest, S.Hit == Counter::ProjectHits, std::move(File)});
    }
    if (Stored && *Stored && (*Stored)->Key.Digest != Key.Digest)
      Stored = llvm::createStringError("%s: holds the entry of key %s", Path.c_str(),
                                       (*Stored)->Key.Digest.c_str());
    if (!Stored) {
      if (Warning)
        *Warning +=
            (Warning->empty() ? "" : "; ") + llvm::toString(Stored.takeError()) + " (ignored)";
      else
        llvm::consumeError(Stored.takeError());
      count(Counter::Errors);
      continue;
    }
    if (!*Stored)
      continue;
    // The user cache's LRU order is by mtime; the project cache is never written.
    if (S.Hit == Counter::UserHits && !Config.ReadOnly)
      ::utimes(Path.c_str(), nullptr); // Now; a failure only ages the entry.
    count(S.Hit);
    return std::move((*Stored)->Entry);
  }
  if (Remote)
    if (std::optional<CacheEntry> Hit =
            fetchRemote(Key, RemoteWarning ? RemoteWarning : Warning, Read))
      return Hit;
  count(Counter::Misses);
  return std::nullopt;
}

std::optional<CacheEntry> ResultCache::fetchRemote(const CacheKey &Key, std::string *Warning,
                                                   std::vector<ManifestEntry> *Read) {
  std::string RemoteWarning;
  std::optional<RemoteTier::Fetched> Hit = Remote->fetch(Key, RemoteWarning);
  appendWarning(Warning, RemoteWarning);
  if (!Hit)
    return std::nullopt;
  // Kept locally, byte for byte, so the next lookup (and direct mode) needs no remote.
  if (!Config.ReadOnly) {
    std::string Path = entryPath(Config.UserDir, Key.Digest);
    if (llvm::Error E = writeFileAtomically(Path, Hit->Bytes)) {
      llvm::consumeError(std::move(E));
      count(Counter::Errors);
    } else {
      if (Read)
        Read->push_back(
            {Key.Digest, false,
             FileObservation{
                 Path, FileObservation::Kind::File, contentDigest(Hit->Bytes), {}, {}}});
      appendWarning(Warning, evictIfOverLimit());
    }
  }
  count(Counter::RemoteHits);
  return std::move(Hit->Stored.Entry);
}

llvm::Error ResultCache::store(const CacheKey &Key, const CacheEntry &Entry, std::string *Warning) {
  if (!isDigest(Key.Digest))
    return llvm::createStringError("malformed cache key '%s'", Key.Digest.c_str());
  if (llvm::Error E = writable())
    return E;
  std::string Bytes = serializeEntry(Key, Entry);
  if (llvm::Error E = writeFileAtomically(entryPath(Config.UserDir, Key.Digest), Bytes)) {
    count(Counter::Errors);
    return E;
  }
  count(Counter::Stores);
  appendWarning(Warning, evictIfOverLimit());
  if (Remote) {
    std::string RemoteWarning;
    Remote->publish(Key, Bytes, RemoteWarning);
    appendWarning(Warning, RemoteWarning);
  }
  return llvm::Error::success();
}

std::string ResultCache::evictIfOverLimit() {
  if (!Config.MaxBytes || userBytes() <= Config.MaxBytes)
    return "";
  llvm::Expected<GcResult> Gc = evict(/*Gc=*/false);
  if (!Gc) {
    llvm::consumeError(Gc.takeError());
    return "";
  }
  if (!Gc->WorkingSetBeyondLimit || !firstInBuild(Config.UserDir, "limit below the working set"))
    return "";
  return "the user cache's limit (cache_max_size, " + std::to_string(Config.MaxBytes >> 10) +
         " KiB) is below this build's working set (" +
         std::to_string(Gc->WorkingSetBeyondLimit >> 10) +
         " KiB of entries and manifests used since it began): evicting them makes later "
         "compiles parse again or miss; raise cache_max_size";
}

void appendWarning(std::string *Warning, const std::string &More) {
  if (Warning && !More.empty())
    *Warning += (Warning->empty() ? "" : "; ") + More;
}

} // namespace kopt::memory
