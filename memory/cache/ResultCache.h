// The result cache: optimized kernels by key, so that a kernel is optimized
// once and every later build (with or without a GPU) reuses the result. A
// project cache (committed with the sources, read only) is looked up before the
// user cache ($KOPT_CACHE_DIR or ~/.cache/kopt), where new entries go.
#pragma once

#include "memory/cache/CacheEntry.h"
#include "memory/cache/CacheKey.h"
#include "memory/cache/CacheLayout.h"
#include "memory/cache/CacheStats.h"
#include "memory/cache/DirectManifest.h"
#include "memory/cache/RemoteTier.h"

#include <llvm/Support/Error.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kopt::memory {

struct CacheConfig {
  std::string UserDir;
  std::optional<std::string> ProjectDir;
  uint64_t MaxBytes = uint64_t(1) << 30; // The user cache's size limit.
  bool ReadOnly = false;                 // Neither entries nor counters nor last-use times change.
  // When the build this process compiles for began (OnceWarnings.h): the user
  // files used since are its working set, which the size limit should hold.
  std::optional<llvm::sys::TimePoint<>> BuildStart;
};

// An entry file listed by `kopt cache ls`; Error is set when it cannot be read.
struct ListedEntry {
  EntryFile File;
  bool Project = false;
  std::optional<StoredEntry> Stored;
  std::string Error;
};

struct GcResult {
  uint64_t Evicted = 0, BytesBefore = 0, BytesAfter = 0;
  uint64_t EvictedEntries = 0; // Of Evicted: entries (the rest are manifests).
  uint64_t Corrupt = 0;        // Corrupt entries and manifests removed (gc only).
  // Bytes of the build's working set (CacheConfig::BuildStart) where it does
  // not fit under the limit; 0 where it does or no build is known.
  uint64_t WorkingSetBeyondLimit = 0;
};

struct ClearResult {
  uint64_t Entries = 0, Manifests = 0;
};

// A file of the cache that a lookup would refuse (`kopt cache verify`).
struct CorruptFile {
  std::string Path;
  std::string Why; // "not valid JSON (truncated?)", "checksum mismatch", ...
  bool Project = false;
};

struct VerifyResult {
  uint64_t Entries = 0, Manifests = 0; // How many were checked.
  std::vector<CorruptFile> Corrupt;
};

// A direct-mode lookup (DirectManifest.h): the manifest on a hit, else why not.
struct DirectLookup {
  std::optional<DirectManifest> Manifest;
  std::string Miss; // "no manifest", "./check.h: content changed", ...
};

class ResultCache {
public:
  // Checks the configuration; creates nothing (a store creates what it needs).
  static llvm::Expected<ResultCache> open(const CacheConfig &Config);

  // A hit from the project cache first, then the user cache, then the remote
  // tier (setRemote), whose hit is stored in the user cache. A corrupt or
  // truncated entry is counted as an error, reported through Warning, and
  // treated as a miss. Read, if given, gets each entry file looked at, as a
  // direct-mode manifest keeps it.
  // RemoteWarning, if given, gets what the remotes had to say (else Warning).
  llvm::Expected<std::optional<CacheEntry>> lookup(const CacheKey &Key,
                                                   std::string *Warning = nullptr,
                                                   std::vector<ManifestEntry> *Read = nullptr,
                                                   std::string *RemoteWarning = nullptr);
  // Writes to the user cache (atomically), then evicts if the cache outgrew
  // MaxBytes (gc()'s order), then writes to the remote tier (whose failures
  // only add to Warning, as does a limit below the build's working set). Fails,
  // changing nothing, when the cache is read only or its directory cannot be
  // written.
  llvm::Error store(const CacheKey &Key, const CacheEntry &Entry, std::string *Warning = nullptr);

  // The build this process compiles for (CacheConfig::BuildStart).
  void setBuildStart(std::optional<llvm::sys::TimePoint<>> Start) { Config.BuildStart = Start; }

  // Remote storage after the local caches (memory/remote/ implements it).
  void setRemote(std::shared_ptr<RemoteTier> Tier) { Remote = std::move(Tier); }
  RemoteTier *remote() const { return Remote.get(); }

  // Direct mode, in the user cache. A manifest that is missing, corrupt (also
  // counted as an error) or whose inputs changed is a direct miss; on a direct
  // hit the manifest and the user entries it used count as used now (LRU).
  DirectLookup lookupDirect(llvm::StringRef Digest);
  // Writes atomically, then evicts as store() does; fails when the cache is
  // read only or cannot be written.
  llvm::Error storeManifest(const DirectManifest &M, std::string *Warning = nullptr);

  // Maintenance (`kopt cache`). Entries of the project cache come last.
  std::vector<ListedEntry> list() const;
  // The entries whose key starts with Prefix (user cache first).
  std::vector<ListedEntry> find(llvm::StringRef Prefix) const;
  uint64_t userBytes() const; // Entries and manifests.
  CacheCounters counters() const { return Stats.total(); }
  // Removes every user entry and manifest and zeroes the counters.
  llvm::Expected<ClearResult> clear();
  // Removes corrupt user entries and manifests, then evicts down to 90% of
  // MaxBytes if over it: manifests first (a parse remakes one), least recently
  // used first, then entries (only a GPU remakes one), least recently used first.
  llvm::Expected<GcResult> gc();
  // Reads and checks every entry (user and project cache) and every manifest
  // as a lookup would: malformed or truncated JSON, an unknown format, a
  // checksum mismatch, a payload that is no entry, a file under another key.
  VerifyResult verify() const;
  // Removes File where it is still corrupt (a store may have replaced it since
  // it was checked); false where it no longer is.
  llvm::Expected<bool> removeCorrupt(const CorruptFile &File);
  // Copies every valid user entry into Dir (a project cache); returns how many.
  llvm::Expected<uint64_t> exportTo(llvm::StringRef Dir, std::vector<std::string> &Skipped) const;
  // Copies every valid entry of Dir into the user cache.
  llvm::Expected<uint64_t> importFrom(llvm::StringRef Dir, std::vector<std::string> &Skipped);
  // Moves a listed entry (user or project cache) to NewKey in the same
  // directory, its records unchanged and its old key kept in Rekeyed
  // (CacheEntry.h); the old file goes. `kopt cache rekey` decides NewKey.
  llvm::Error rekey(const ListedEntry &From, const CacheKey &NewKey, const std::string &Date,
                    const std::string &KoptVersion);

  // Rewrites a listed entry (user or project cache) in place with Why set
  // (`kopt verify`); its key and records stay.
  llvm::Error reject(const ListedEntry &Entry, const Rejection &Why);

  const CacheConfig &config() const { return Config; }

private:
  explicit ResultCache(CacheConfig Config);
  void count(Counter C, uint64_t N = 1);
  llvm::Error writable() const;
  // Evicts down to 90% of MaxBytes when over it, in gc()'s order. Gc: waits
  // for another process's eviction and removes corrupt files first; else
  // another process already evicting is enough.
  llvm::Expected<GcResult> evict(bool Gc);
  // After a write: evicts where the user cache is over its limit. The write
  // stands either way; a failed eviction only leaves the cache too big.
  // Returns the warning (once a build) where the limit is below the build's
  // working set, else "".
  std::string evictIfOverLimit();

  // Removes the corrupt entries and manifests of the user cache (gc);
  // returns how many.
  uint64_t removeCorruptUserFiles();
  // A remote hit, written to the user cache as if stored here.
  std::optional<CacheEntry> fetchRemote(const CacheKey &Key, std::string *Warning,
                                        std::vector<ManifestEntry> *Read);

  CacheConfig Config;
  CacheStats Stats;
  std::shared_ptr<RemoteTier> Remote;
};

// Adds More to *Warning (where both are there), "; " between warnings.
void appendWarning(std::string *Warning, const std::string &More);

// Reads and checks one entry file; nullopt when there is no such file. Digest,
// if given, gets the contentDigest() of the bytes read.
llvm::Expected<std::optional<StoredEntry>> readEntryFile(llvm::StringRef Path,
                                                         std::string *Digest = nullptr);

} // namespace kopt::memory
