// kopt-cache-stress DIR PROCS OPS [MAX_BYTES] [--remote URLS | --remote-file
// FILE[|ATTR...]] [--private]:
// PROCS processes each make OPS rounds of one store and one lookup on the
// result cache in DIR, over a few shared keys. Then it checks that no entry is
// corrupt, that every hit returned the entry of its own key, and that the
// counters add up exactly: stores == PROCS*OPS, hits + misses == PROCS*OPS,
// errors == 0. With --remote, stores also go to the remote caches (URLS as
// remote_cache takes them) and local misses are looked up there; with
// --private, each process has its own user cache DIR/p<N>, so that processes
// share entries only through the remotes. The remotes' counters must add up
// too: remote stores == PROCS*OPS (unless read only), remote hits + misses ==
// the lookups the local caches missed, remote errors == 0.
#include "memory/ResultCache.h"
#include "memory/remote/RemoteStorage.h"

#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

using namespace kopt::memory;

namespace {
constexpr unsigned NumKeys = 8;

CacheKey keyOf(unsigned K) {
  return makeCacheKey({"sha256:unit" + std::to_string(K), "", "sm_90", "13.0", {}, "stress"});
}

CacheEntry entryOf(unsigned K, unsigned Proc) {
  CacheEntry E;
  E.KernelName = "kernel" + std::to_string(K);
  kopt::frontend::KernelVariant V;
  V.KernelName = E.KernelName;
  // Large enough that a torn write would be likely to show, if writes tore.
  V.Code = std::string(4096 + K * 512, 'a' + K) + " by " + std::to_string(Proc);
  E.Variant = V;
  E.Speedup = 1 + K;
  return E;
}

struct Options {
  CacheConfig Config;
  std::vector<RemoteSpec> Remotes;
  bool Private = false;
};

CacheConfig configOf(const Options &O, unsigned Proc) {
  CacheConfig C = O.Config;
  if (O.Private)
    C.UserDir += "/p" + std::to_string(Proc);
  return C;
}

// One process's work; its exit status says whether it saw anything wrong.
int work(const Options &O, unsigned Proc, unsigned Ops) {
  CacheConfig Config = configOf(O, Proc);
  llvm::Expected<ResultCache> Cache = ResultCache::open(Config);
  if (!Cache)
    return 2;
  if (!O.Remotes.empty())
    Cache->setRemote(std::make_shared<RemoteStorage>(O.Remotes, Config.UserDir, false));
  unsigned Seed = Proc * 7919 + 1;
  for (unsigned I = 0; I < Ops; ++I) {
    unsigned K = (Seed = Seed * 1103515245 + 12345) / 65536 % NumKeys;
    std::string StoreWarning;
    if (llvm::Error E = Cache->store(keyOf(K), entryOf(K, Proc), &StoreWarning)) {
      llvm::errs() << "process " << Proc << ": store: " << llvm::toString(std::move(E)) << "\n";
      return 3;
    }
    if (!StoreWarning.empty()) {
      llvm::errs() << "process " << Proc << ": store: " << StoreWarning << "\n";
      return 3;
    }
    unsigned L = (Seed = Seed * 1103515245 + 12345) / 65536 % NumKeys;
    std::string Warning;
    llvm::Expected<std::optional<CacheEntry>> Hit = Cache->lookup(keyOf(L), &Warning);
    if (!Hit || !Warning.empty()) {
      llvm::errs() << "process " << Proc
                   << ": lookup: " << (Hit ? Warning : llvm::toString(Hit.takeError())) << "\n";
      return 4;
    }
    if (*Hit && (*Hit)->KernelName != "kernel" + std::to_string(L)) {
      llvm::errs() << "process " << Proc << ": key " << L << " returned " << (*Hit)->KernelName
                   << "\n";
      return 5;
    }
  }
  return 0;
}
} // namespace

int main(int Argc, char **Argv) {
  std::vector<std::string> Args(Argv + 1, Argv + Argc);
  Options O;
  for (size_t I = 0; I < Args.size();) {
    if (Args[I] == "--private") {
      O.Private = true;
      Args.erase(Args.begin() + I);
    } else if ((Args[I] == "--remote" || Args[I] == "--remote-file") && I + 1 < Args.size()) {
      // --remote-file: the URLs from a file (a test server's), with |ATTR... appended.
      std::string Urls = Args[I + 1];
      if (Args[I] == "--remote-file") {
        auto [Path, Attrs] = llvm::StringRef(Urls).split('|');
        auto Text = llvm::MemoryBuffer::getFile(Path);
        if (!Text) {
          llvm::errs() << Path << ": " << Text.getError().message() << "\n";
          return 2;
        }
        Urls = (*Text)->getBuffer().trim().str() + (Attrs.empty() ? "" : "|" + Attrs.str());
      }
      auto Specs = parseRemoteSpecs(Urls, [](const char *) { return std::nullopt; });
      if (!Specs) {
        llvm::errs() << llvm::toString(Specs.takeError()) << "\n";
        return 2;
      }
      O.Remotes = std::move(*Specs);
      Args.erase(Args.begin() + I, Args.begin() + I + 2);
    } else {
      ++I;
    }
  }
  if (Args.size() < 3) {
    llvm::errs() << "usage: kopt-cache-stress DIR PROCS OPS [MAX_BYTES] [--remote URLS | "
                    "--remote-file FILE[|ATTR...]] [--private]\n";
    return 2;
  }
  O.Config.UserDir = Args[0];
  unsigned Procs = std::atoi(Args[1].c_str()), Ops = std::atoi(Args[2].c_str());
  O.Config.MaxBytes = Args.size() > 3 ? std::strtoull(Args[3].c_str(), nullptr, 10) : 0;

  std::vector<pid_t> Children;
  for (unsigned P = 0; P < Procs; ++P) {
    pid_t Pid = fork();
    if (Pid == 0)
      _exit(work(O, P, Ops));
    if (Pid < 0) {
      perror("fork");
      return 2;
    }
    Children.push_back(Pid);
  }
  int Failed = 0;
  for (pid_t Pid : Children) {
    int Status = 0;
    waitpid(Pid, &Status, 0);
    if (!WIFEXITED(Status) || WEXITSTATUS(Status) != 0)
      ++Failed;
  }

  // Totals over every user cache (one, or one a process).
  unsigned Corrupt = 0;
  size_t Entries = 0;
  CacheCounters C;
  RemoteCounters R;
  for (unsigned P = 0; P < (O.Private ? Procs : 1); ++P) {
    ResultCache Cache = llvm::cantFail(ResultCache::open(configOf(O, P)));
    for (const ListedEntry &L : Cache.list())
      if (!L.Stored) {
        llvm::errs() << "corrupt entry: " << L.Error << "\n";
        ++Corrupt;
      }
    Entries += Cache.list().size();
    CacheCounters One = Cache.counters();
    for (size_t I = 0; I < NumCounters; ++I)
      C.Values[I] += One.Values[I];
    for (const RemoteCounters &Remote : RemoteStorage::countersIn(Cache.config().UserDir)) {
      R.Hits += Remote.Hits, R.Misses += Remote.Misses, R.Errors += Remote.Errors;
      R.Stores += Remote.Stores;
    }
  }
  uint64_t Total = uint64_t(Procs) * Ops;
  uint64_t LocalHits = C[Counter::UserHits] + C[Counter::ProjectHits];
  uint64_t Hits = LocalHits + C[Counter::RemoteHits];
  llvm::outs() << "processes " << Procs << " failed " << Failed << "\n"
               << "entries " << Entries << " corrupt " << Corrupt << "\n"
               << "stores " << C[Counter::Stores] << " of " << Total << "\n"
               << "lookups " << Hits + C[Counter::Misses] << " of " << Total << "\n"
               << "errors " << C[Counter::Errors] << "\n"
               << "evictions " << C[Counter::Evictions] << "\n";
  bool Ok = !Failed && !Corrupt && C[Counter::Stores] == Total &&
            Hits + C[Counter::Misses] == Total && C[Counter::Errors] == 0;
  if (!O.Remotes.empty()) {
    bool Writable = std::any_of(O.Remotes.begin(), O.Remotes.end(),
                                [](const RemoteSpec &S) { return !S.ReadOnly; });
    uint64_t LocalMisses = Total - LocalHits;
    llvm::outs() << "remote stores " << R.Stores << " of " << (Writable ? Total : 0) << "\n"
                 << "remote lookups " << R.Hits + R.Misses << " of " << LocalMisses << "\n"
                 << "remote hits " << R.Hits << " (counted " << C[Counter::RemoteHits] << ")\n"
                 << "remote errors " << R.Errors << "\n";
    // One remote: each local miss asks it once, and each of its hits is one lookup's.
    Ok = Ok && R.Stores == (Writable ? Total * O.Remotes.size() : 0) && R.Errors == 0 &&
         (O.Remotes.size() > 1 ||
          (R.Hits + R.Misses == LocalMisses && R.Hits == C[Counter::RemoteHits]));
  }
  llvm::outs() << (Ok ? "OK" : "FAILED") << "\n";
  return Ok ? 0 : 1;
}
