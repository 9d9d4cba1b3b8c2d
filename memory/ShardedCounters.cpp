#include "memory/ShardedCounters.h"

#include "memory/FileLock.h"
#include "support/AtomicFile.h"

#include <llvm/ADT/SmallString.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>

#include <unistd.h>

namespace kopt::memory {

std::string ShardedCounters::shardPath(unsigned Shard) const {
  llvm::SmallString<256> Path(Dir);
  llvm::sys::path::append(Path, std::to_string(Shard));
  return std::string(Path);
}

std::vector<uint64_t> ShardedCounters::readShard(const std::string &Path) const {
  std::vector<uint64_t> Values(Names.size());
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Text = llvm::MemoryBuffer::getFile(Path);
  if (!Text)
    return Values;
  llvm::SmallVector<llvm::StringRef> Lines;
  (*Text)->getBuffer().split(Lines, '\n', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef Line : Lines) {
    auto [Name, Value] = Line.split(' ');
    uint64_t N = 0;
    for (size_t I = 0; I < Names.size(); ++I)
      if (Names[I] == Name && !Value.trim().getAsInteger(10, N))
        Values[I] = N;
  }
  return Values;
}

std::string ShardedCounters::formatShard(const std::vector<uint64_t> &Values) const {
  std::string Text;
  for (size_t I = 0; I < Names.size(); ++I)
    Text += Names[I].str() + " " + std::to_string(Values[I]) + "\n";
  return Text;
}

llvm::Error ShardedCounters::add(size_t Index, uint64_t N) {
  std::string Path = shardPath(static_cast<unsigned>(::getpid()) % NumShards);
  // The lock is a separate file: the shard itself is replaced by rename().
  llvm::Expected<FileLock> Lock = FileLock::acquire(Path + ".lock");
  if (!Lock)
    return Lock.takeError();
  std::vector<uint64_t> Values = readShard(Path);
  Values[Index] += N;
  return writeFileAtomically(Path, formatShard(Values));
}

std::vector<uint64_t> ShardedCounters::total() const {
  std::vector<uint64_t> Sum(Names.size());
  for (unsigned Shard = 0; Shard < NumShards; ++Shard) {
    std::vector<uint64_t> One = readShard(shardPath(Shard));
    for (size_t I = 0; I < Names.size(); ++I)
      Sum[I] += One[I];
  }
  return Sum;
}

llvm::Error ShardedCounters::zero() {
  for (unsigned Shard = 0; Shard < NumShards; ++Shard) {
    std::string Path = shardPath(Shard);
    llvm::Expected<FileLock> Lock = FileLock::acquire(Path + ".lock");
    if (!Lock)
      return Lock.takeError();
    if (llvm::Error E = writeFileAtomically(Path, formatShard(std::vector<uint64_t>(Names.size()))))
      return E;
  }
  return llvm::Error::success();
}

} // namespace kopt::memory
