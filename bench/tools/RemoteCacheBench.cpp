// kopt-remote-bench: what a remote cache costs a compile (issue 18's benchmark).
//   kopt-remote-bench URL [--rounds N]
// URL is a remote_cache URL of a running server (bench/remote_cache.sh starts
// redis-server and nginx). Measures, each as the median of N rounds:
//   hit       a lookup served by the remote, over one open connection
//             (reported as lookups a second);
//   miss      what a compile's lookup adds on a remote miss: a new process's
//             first lookup (connect, GET, 404 or nil) through ResultCache, less
//             the same lookup without a remote;
//   down      what it adds once the remote is down and backed off (a closed
//             port: the first compile's failure starts the back-off).
// Entries are the size of examples/app's (about 60 KiB).
#include "memory/ResultCache.h"
#include "memory/remote/RemoteStorage.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Format.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>

using namespace kopt::memory;

namespace {

using Clock = std::chrono::steady_clock;

double median(std::vector<double> V) {
  std::sort(V.begin(), V.end());
  return V[V.size() / 2];
}

CacheKey keyOf(const std::string &Name) {
  return makeCacheKey({"sha256:" + Name, "", "sm_90", "13.0", {}, "bench"});
}

CacheEntry entryOf(const std::string &Name) {
  CacheEntry E;
  E.KernelName = Name;
  kopt::frontend::KernelVariant V;
  V.KernelName = Name;
  V.Code = std::string(60 * 1024, 'x');
  E.Variant = V;
  E.Speedup = 2;
  return E;
}

std::vector<RemoteSpec> specsOf(const std::string &Url) {
  return llvm::cantFail(parseRemoteSpecs(Url, [](const char *) { return std::nullopt; }));
}

// One compile's lookup of a key no cache holds, from a fresh cache object (a new
// kcc process), with or without the remote; milliseconds.
double missMs(const std::string &Dir, const std::string *Url, unsigned Round) {
  CacheConfig Config;
  Config.UserDir = Dir;
  auto Start = Clock::now();
  ResultCache Cache = llvm::cantFail(ResultCache::open(Config));
  if (Url)
    Cache.setRemote(std::make_shared<RemoteStorage>(specsOf(*Url), Dir, false));
  std::string Warning;
  auto Hit = Cache.lookup(keyOf("missing" + std::to_string(Round)), &Warning);
  if (!Hit || *Hit) {
    llvm::errs() << "kopt-remote-bench: expected a miss\n";
    std::exit(1);
  }
  llvm::consumeError(Hit.takeError());
  return std::chrono::duration<double, std::milli>(Clock::now() - Start).count();
}

double addedMs(const std::string &Dir, const std::string &Url, unsigned Rounds) {
  std::vector<double> With, Without;
  for (unsigned R = 0; R < Rounds; ++R) {
    Without.push_back(missMs(Dir, nullptr, R));
    With.push_back(missMs(Dir, &Url, R));
  }
  return median(With) - median(Without);
}

} // namespace

int main(int Argc, char **Argv) {
  if (Argc < 2) {
    llvm::errs() << "usage: kopt-remote-bench URL [--rounds N]\n";
    return 2;
  }
  std::string Url = Argv[1];
  unsigned Rounds = Argc > 3 && !std::strcmp(Argv[2], "--rounds") ? std::atoi(Argv[3]) : 200;
  llvm::SmallString<128> Dir;
  if (llvm::sys::fs::createUniqueDirectory("kopt-remote-bench", Dir))
    return 2;
  std::string UserDir(Dir);

  // Hits over one connection: a store, then lookups of it.
  RemoteStorage Remote(specsOf(Url), UserDir, false);
  std::string Warning;
  CacheKey Key = keyOf("hit");
  Remote.publish(Key, serializeEntry(Key, entryOf("hit")), Warning);
  if (!Warning.empty()) {
    llvm::errs() << "kopt-remote-bench: " << Warning << "\n";
    return 1;
  }
  std::vector<double> Hits;
  for (unsigned R = 0; R < Rounds; ++R) {
    auto Start = Clock::now();
    if (!Remote.fetch(Key, Warning)) {
      llvm::errs() << "kopt-remote-bench: lookup missed: " << Warning << "\n";
      return 1;
    }
    Hits.push_back(std::chrono::duration<double, std::milli>(Clock::now() - Start).count());
  }

  double Miss = addedMs(UserDir, Url, Rounds);

  // A server that is gone: port 1 on this host refuses at once. The first
  // lookup fails and starts the back-off; the rounds measure what follows.
  std::string Down = Url.substr(0, Url.find("://") + 3) + "127.0.0.1:1";
  missMs(UserDir, &Down, Rounds);
  double Backoff = addedMs(UserDir, Down, Rounds);

  llvm::outs() << "remote " << specsOf(Url).front().display() << "\n"
               << llvm::format("  hit lookups a second (one connection): %.0f\n",
                               1000.0 / median(Hits))
               << llvm::format("  a compile's added time on a remote miss: %.3f ms\n", Miss)
               << llvm::format("  added time with the remote down, after back-off: %.3f ms\n",
                               Backoff);
  llvm::sys::fs::remove_directories(UserDir);
  return 0;
}
