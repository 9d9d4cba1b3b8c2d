// kopt-cache-stress DIR PROCS OPS [MAX_BYTES]: PROCS processes each make OPS
// rounds of one store and one lookup on the result cache in DIR, over a few
// shared keys. Then it checks that no entry is corrupt, that every hit
// returned the entry of its own key, and that the counters add up exactly:
// stores == PROCS*OPS, hits + misses == PROCS*OPS, errors == 0.
#include "memory/ResultCache.h"

#include <llvm/Support/raw_ostream.h>

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

// One process's work; its exit status says whether it saw anything wrong.
int work(const CacheConfig &Config, unsigned Proc, unsigned Ops) {
  llvm::Expected<ResultCache> Cache = ResultCache::open(Config);
  if (!Cache)
    return 2;
  unsigned Seed = Proc * 7919 + 1;
  for (unsigned I = 0; I < Ops; ++I) {
    unsigned K = (Seed = Seed * 1103515245 + 12345) / 65536 % NumKeys;
    if (llvm::Error E = Cache->store(keyOf(K), entryOf(K, Proc))) {
      llvm::errs() << "process " << Proc << ": store: " << llvm::toString(std::move(E)) << "\n";
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
  if (Argc < 4) {
    llvm::errs() << "usage: kopt-cache-stress DIR PROCS OPS [MAX_BYTES]\n";
    return 2;
  }
  CacheConfig Config;
  Config.UserDir = Argv[1];
  unsigned Procs = std::atoi(Argv[2]), Ops = std::atoi(Argv[3]);
  Config.MaxBytes = Argc > 4 ? std::strtoull(Argv[4], nullptr, 10) : 0;

  std::vector<pid_t> Children;
  for (unsigned P = 0; P < Procs; ++P) {
    pid_t Pid = fork();
    if (Pid == 0)
      _exit(work(Config, P, Ops));
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

  ResultCache Cache = llvm::cantFail(ResultCache::open(Config));
  unsigned Corrupt = 0;
  for (const ListedEntry &L : Cache.list())
    if (!L.Stored) {
      llvm::errs() << "corrupt entry: " << L.Error << "\n";
      ++Corrupt;
    }
  CacheCounters C = Cache.counters();
  uint64_t Total = uint64_t(Procs) * Ops;
  uint64_t Hits = C[Counter::UserHits] + C[Counter::ProjectHits];
  llvm::outs() << "processes " << Procs << " failed " << Failed << "\n"
               << "entries " << Cache.list().size() << " corrupt " << Corrupt << "\n"
               << "stores " << C[Counter::Stores] << " of " << Total << "\n"
               << "lookups " << Hits + C[Counter::Misses] << " of " << Total << "\n"
               << "errors " << C[Counter::Errors] << "\n"
               << "evictions " << C[Counter::Evictions] << "\n";
  bool Ok = !Failed && !Corrupt && C[Counter::Stores] == Total &&
            Hits + C[Counter::Misses] == Total && C[Counter::Errors] == 0;
  llvm::outs() << (Ok ? "OK" : "FAILED") << "\n";
  return Ok ? 0 : 1;
}
