#include "memory/CacheStats.h"

#include "memory/FileLock.h"
#include "support/AtomicFile.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>

#include <unistd.h>

namespace kopt::memory {

namespace {
constexpr llvm::StringRef Names[NumCounters] = {"hits_project", "hits_user",    "misses",
                                                "stores",       "errors",       "evictions",
                                                "direct_hits",  "direct_misses"};

// A shard is "name value" lines; unknown names (a newer kopt's) are dropped.
CacheCounters readShard(const std::string &Path) {
  CacheCounters Counters;
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Text = llvm::MemoryBuffer::getFile(Path);
  if (!Text)
    return Counters;
  llvm::SmallVector<llvm::StringRef> Lines;
  (*Text)->getBuffer().split(Lines, '\n', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef Line : Lines) {
    auto [Name, Value] = Line.split(' ');
    uint64_t N = 0;
    for (size_t I = 0; I < NumCounters; ++I)
      if (Names[I] == Name && !Value.trim().getAsInteger(10, N))
        Counters.Values[I] = N;
  }
  return Counters;
}

std::string formatShard(const CacheCounters &Counters) {
  std::string Text;
  for (size_t I = 0; I < NumCounters; ++I)
    Text += Names[I].str() + " " + std::to_string(Counters.Values[I]) + "\n";
  return Text;
}
} // namespace

llvm::StringRef counterName(Counter C) { return Names[static_cast<size_t>(C)]; }

std::string CacheStats::shardPath(unsigned Shard) const {
  llvm::SmallString<256> Path(Dir);
  llvm::sys::path::append(Path, std::to_string(Shard));
  return std::string(Path);
}

llvm::Error CacheStats::add(Counter C, uint64_t N) {
  std::string Path = shardPath(static_cast<unsigned>(::getpid()) % NumShards);
  // The lock is a separate file: the shard itself is replaced by rename().
  llvm::Expected<FileLock> Lock = FileLock::acquire(Path + ".lock");
  if (!Lock)
    return Lock.takeError();
  CacheCounters Counters = readShard(Path);
  Counters[C] += N;
  return writeFileAtomically(Path, formatShard(Counters));
}

CacheCounters CacheStats::total() const {
  CacheCounters Sum;
  for (unsigned Shard = 0; Shard < NumShards; ++Shard) {
    CacheCounters One = readShard(shardPath(Shard));
    for (size_t I = 0; I < NumCounters; ++I)
      Sum.Values[I] += One.Values[I];
  }
  return Sum;
}

llvm::Error CacheStats::zero() {
  for (unsigned Shard = 0; Shard < NumShards; ++Shard) {
    std::string Path = shardPath(Shard);
    llvm::Expected<FileLock> Lock = FileLock::acquire(Path + ".lock");
    if (!Lock)
      return Lock.takeError();
    if (llvm::Error E = writeFileAtomically(Path, formatShard(CacheCounters())))
      return E;
  }
  return llvm::Error::success();
}

} // namespace kopt::memory
