// ResultCache's direct mode: manifests in the user cache (DirectManifest.h).
#include "memory/cache/ResultCache.h"
#include "support/AtomicFile.h"

#include <llvm/Support/MemoryBuffer.h>

#include <sys/time.h>

namespace kopt::memory {

DirectLookup ResultCache::lookupDirect(llvm::StringRef Digest) {
  DirectLookup Result;
  auto Miss = [&](std::string Why) {
    count(Counter::DirectMisses);
    Result.Miss = std::move(Why);
    return std::move(Result);
  };
  if (!isDigest(Digest))
    return Miss("malformed manifest key");
  std::string Path = manifestPath(Config.UserDir, Digest);
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Text = llvm::MemoryBuffer::getFile(Path);
  if (!Text)
    return Miss(Text.getError() == std::errc::no_such_file_or_directory
                    ? "no manifest"
                    : Path + ": " + Text.getError().message());
  llvm::Expected<DirectManifest> M = parseManifest((*Text)->getBuffer());
  if (M && M->Key != Digest)
    M = llvm::createStringError("holds the manifest of key " + M->Key);
  if (!M) {
    count(Counter::Errors); // The next full compile replaces it.
    return Miss(Path + ": " + llvm::toString(M.takeError()) + " (ignored)");
  }
  if (llvm::Error E = checkManifest(*M))
    return Miss(llvm::toString(std::move(E)));
  if (!Config.ReadOnly) {
    // Used now, as a lookup's hit would mark it: eviction goes by last use.
    ::utimes(Path.c_str(), nullptr);
    for (const ManifestEntry &E : M->Entries)
      if (!E.Project && E.File.Type == FileObservation::Kind::File)
        ::utimes(E.File.Path.c_str(), nullptr);
  }
  count(Counter::DirectHits);
  Result.Manifest = std::move(*M);
  return Result;
}

llvm::Error ResultCache::storeManifest(const DirectManifest &M, std::string *Warning) {
  if (!isDigest(M.Key))
    return llvm::createStringError("malformed manifest key '%s'", M.Key.c_str());
  if (llvm::Error E = writable())
    return E;
  // Parallel compiles of one TU write the same manifest; the last rename wins.
  if (llvm::Error E =
          writeFileAtomically(manifestPath(Config.UserDir, M.Key), serializeManifest(M)))
    return E;
  // A cache-only build stores no entries, so its manifests keep the size in check.
  appendWarning(Warning, evictIfOverLimit());
  return llvm::Error::success();
}

} // namespace kopt::memory
