#include "memory/remote/RemoteStorage.h"

#include "memory/remote/RemoteBackoff.h"

#include "memory/cache/ShardedCounters.h"
#include "support/AtomicFile.h"

#include <llvm/ADT/SmallString.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>

namespace kopt::memory {

namespace {

enum RemoteCounter : size_t { Hits, Misses, Errors, Stores, Microseconds };
constexpr llvm::StringRef CounterNames[] = {"hits", "misses", "errors", "stores", "time_us"};

std::string join(llvm::StringRef A, llvm::StringRef B, llvm::StringRef C = "") {
  llvm::SmallString<256> Path(A);
  llvm::sys::path::append(Path, B, C);
  return std::string(Path);
}
std::string statsDirOf(llvm::StringRef UserDir, llvm::StringRef Id) {
  return join(UserDir, "stats", ("remote-" + Id).str());
}
std::string urlPath(llvm::StringRef UserDir, llvm::StringRef Id) {
  return join(UserDir, "remote", (Id + ".url").str());
}

std::optional<std::string> readText(const std::string &Path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Text = llvm::MemoryBuffer::getFile(Path);
  if (!Text)
    return std::nullopt;
  return (*Text)->getBuffer().str();
}

} // namespace

struct RemoteStorage::Remote {
  RemoteSpec Spec;
  std::string Id;
  std::unique_ptr<RemoteBackend> Backend;
  ShardedCounters Counters;
  bool Down = false;           // Failed in this process: not asked again.
  bool CheckedBackoff = false; // The back-off file is read once a process.
  std::chrono::microseconds Spent{0};

  Remote(RemoteSpec S, llvm::StringRef UserDir)
      : Spec(std::move(S)), Id(Spec.id()), Counters(statsDirOf(UserDir, Id), CounterNames) {}
};

RemoteStorage::RemoteStorage(std::vector<RemoteSpec> Specs, std::string Dir, bool ReadOnly)
    : UserDir(std::move(Dir)), LocalReadOnly(ReadOnly) {
  for (RemoteSpec &S : Specs)
    Remotes.push_back(std::make_unique<Remote>(std::move(S), UserDir));
}

RemoteStorage::~RemoteStorage() {
  for (const std::unique_ptr<Remote> &R : Remotes)
    if (R->Spent.count())
      count(*R, Microseconds, static_cast<uint64_t>(R->Spent.count()));
}

const RemoteSpec &RemoteStorage::spec(size_t I) const { return Remotes[I]->Spec; }

void RemoteStorage::count(Remote &R, size_t Counter, uint64_t N) {
  if (LocalReadOnly)
    return;
  // Counters are best effort, as the local cache's are.
  llvm::consumeError(R.Counters.add(Counter, N));
  std::string Url = urlPath(UserDir, R.Id);
  if (!llvm::sys::fs::exists(Url))
    llvm::consumeError(writeFileAtomically(Url, R.Spec.display() + "\n"));
}

RemoteBackend *RemoteStorage::usable(Remote &R, std::string &Warning) {
  if (R.Down)
    return nullptr;
  if (!R.CheckedBackoff) {
    R.CheckedBackoff = true;
    if (backedOff(UserDir, R.Id)) {
      R.Down = true; // Another compile found it unreachable a moment ago: no warning.
      return nullptr;
    }
  }
  if (!R.Backend) {
    llvm::Expected<std::unique_ptr<RemoteBackend>> B = makeRemoteBackend(R.Spec);
    if (!B) {
      failed(R, B.takeError(), "cannot use it", Warning);
      return nullptr;
    }
    R.Backend = std::move(*B);
  }
  return R.Backend.get();
}

void RemoteStorage::failed(Remote &R, llvm::Error E, llvm::StringRef What, std::string &Warning) {
  RemoteProblem Problem = describeRemoteError(std::move(E));
  count(R, Errors);
  R.Down = true; // One warning per remote and process, whatever failed.
  std::string Line =
      "remote cache " + R.Spec.display() + ": " + What.str() + ": " + Problem.Message;
  if (Problem.Unreachable) {
    Line += "; skipped for " + std::to_string(BackoffPeriod.count()) + " s";
    if (!LocalReadOnly)
      backOff(UserDir, R.Id, Problem.Message);
  }
  Warning += (Warning.empty() ? "" : "; ") + Line;
}

std::optional<RemoteTier::Fetched> RemoteStorage::fetch(const CacheKey &Key, std::string &Warning) {
  for (const std::unique_ptr<Remote> &RP : Remotes) {
    Remote &R = *RP;
    RemoteBackend *B = usable(R, Warning);
    if (!B)
      continue;
    auto Start = std::chrono::steady_clock::now();
    llvm::Expected<std::optional<std::string>> Bytes = B->get(Key.Digest);
    R.Spent += std::chrono::duration_cast<std::chrono::microseconds>(
        std::chrono::steady_clock::now() - Start);
    if (!Bytes) {
      failed(R, Bytes.takeError(), "lookup failed", Warning);
      continue;
    }
    if (!*Bytes) {
      count(R, Misses);
      continue;
    }
    // The same checks as a local entry's, and the key it holds must be this one.
    llvm::Expected<StoredEntry> Stored = parseEntry(**Bytes);
    if (Stored && Stored->Key.Digest != Key.Digest)
      Stored = llvm::createStringError("it holds the entry of key %s", Stored->Key.Digest.c_str());
    if (!Stored) {
      count(R, Errors);
      Warning += (Warning.empty() ? "" : "; ") +
                 ("remote cache " + R.Spec.display() + ": entry " + Key.Digest.substr(0, 16) +
                  " rejected: " + llvm::toString(Stored.takeError()));
      continue;
    }
    count(R, Hits);
    return Fetched{std::move(*Stored), std::move(**Bytes)};
  }
  return std::nullopt;
}

void RemoteStorage::publish(const CacheKey &Key, const std::string &Bytes, std::string &Warning) {
  for (const std::unique_ptr<Remote> &RP : Remotes) {
    Remote &R = *RP;
    if (R.Spec.ReadOnly)
      continue;
    RemoteBackend *B = usable(R, Warning);
    if (!B)
      continue;
    auto Start = std::chrono::steady_clock::now();
    llvm::Error E = B->put(Key.Digest, Bytes);
    R.Spent += std::chrono::duration_cast<std::chrono::microseconds>(
        std::chrono::steady_clock::now() - Start);
    if (E)
      failed(R, std::move(E), "store failed", Warning);
    else
      count(R, Stores);
  }
}

llvm::Expected<std::vector<std::string>> RemoteStorage::list(size_t I) {
  std::string Warning;
  RemoteBackend *B = usable(*Remotes[I], Warning);
  if (!B)
    return llvm::createStringError(Warning.empty() ? "remote cache " + spec(I).display() +
                                                         " is backed off after a failure"
                                                   : Warning);
  return B->list();
}

llvm::Expected<bool> RemoteStorage::push(size_t I, llvm::StringRef Digest, llvm::StringRef Bytes) {
  Remote &R = *Remotes[I];
  if (R.Spec.ReadOnly)
    return llvm::createStringError("remote cache %s is read only", R.Spec.display().c_str());
  std::string Warning;
  RemoteBackend *B = usable(R, Warning);
  if (!B)
    return llvm::createStringError(Warning.empty() ? "remote cache " + R.Spec.display() +
                                                         " is backed off after a failure"
                                                   : Warning);
  llvm::Expected<bool> Has = B->exists(Digest);
  if (!Has)
    return Has.takeError();
  if (*Has)
    return false;
  if (llvm::Error E = B->put(Digest, Bytes))
    return E;
  count(R, Stores);
  return true;
}

std::vector<RemoteCounters> RemoteStorage::countersIn(llvm::StringRef UserDir) {
  std::vector<RemoteCounters> All;
  std::error_code EC;
  std::string Stats = join(UserDir, "stats");
  for (llvm::sys::fs::directory_iterator It(Stats, EC), End; !EC && It != End; It.increment(EC)) {
    llvm::StringRef Name = llvm::sys::path::filename(It->path());
    if (!Name.consume_front("remote-"))
      continue;
    RemoteCounters C;
    C.Id = Name.str();
    C.Url = llvm::StringRef(readText(urlPath(UserDir, C.Id)).value_or("(unknown)")).trim().str();
    std::vector<uint64_t> V = ShardedCounters(It->path(), CounterNames).total();
    C.Hits = V[Hits], C.Misses = V[Misses], C.Errors = V[Errors], C.Stores = V[Stores];
    C.Microseconds = V[Microseconds];
    All.push_back(std::move(C));
  }
  std::sort(All.begin(), All.end(),
            [](const RemoteCounters &A, const RemoteCounters &B) { return A.Url < B.Url; });
  return All;
}

llvm::Error RemoteStorage::zeroCounters(llvm::StringRef UserDir) {
  for (const RemoteCounters &C : countersIn(UserDir))
    if (llvm::Error E = ShardedCounters(statsDirOf(UserDir, C.Id), CounterNames).zero())
      return E;
  return llvm::Error::success();
}

} // namespace kopt::memory
