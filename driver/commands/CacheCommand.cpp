#include "driver/commands/CacheCommand.h"

#include "driver/Diagnostics.h"
#include "driver/commands/Subcommand.h"
#include "driver/config/CacheConfig.h"
#include "driver/config/KoptConfigFile.h"
#include "driver/nvcc/NvccLocator.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/FormatVariadic.h>
#include <llvm/Support/MemoryBuffer.h>
#include <nlohmann/json.hpp>

#include <ctime>

namespace kopt::driver {

namespace {
// The cache kcc would use from the current directory.
llvm::Expected<memory::ResultCache> openCache(std::vector<std::string> &Args) {
  llvm::Expected<memory::CacheConfig> Config = cacheConfigFor(Args);
  if (!Config)
    return Config.takeError();
  return memory::ResultCache::open(*Config);
}

std::string date(llvm::sys::TimePoint<> T) {
  std::time_t Time = llvm::sys::toTimeT(T);
  char Text[32];
  std::strftime(Text, sizeof(Text), "%Y-%m-%d %H:%M", std::localtime(&Time));
  return Text;
}

int listEntries(memory::ResultCache &Cache) {
  for (const memory::ListedEntry &L : Cache.list()) {
    llvm::outs() << L.File.Digest.substr(0, 16) << "  " << (L.Project ? "project" : "user   ")
                 << "  " << date(L.File.LastUse) << "  ";
    if (!L.Stored) {
      llvm::outs() << "CORRUPT " << L.Error << "\n";
      continue;
    }
    const memory::CacheEntry &E = L.Stored->Entry;
    llvm::outs() << (E.Variant ? llvm::formatv("{0:F2}x", E.Speedup).str() : "original") << "  "
                 << E.KernelName << "\n";
  }
  return 0;
}

int showEntry(memory::ResultCache &Cache, llvm::StringRef Prefix) {
  std::vector<memory::ListedEntry> Found = Cache.find(Prefix);
  if (Found.empty()) {
    reportError("kopt", "no cache entry with key " + Prefix.str());
    return 1;
  }
  for (const memory::ListedEntry &L : Found)
    if (L.File.Digest != Found.front().File.Digest) {
      reportError("kopt", "key prefix " + Prefix.str() + " is ambiguous");
      return 1;
    }
  // The project cache's entry first, as a lookup would use it.
  const memory::ListedEntry &L = Found.back().Project ? Found.back() : Found.front();
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Text =
      llvm::MemoryBuffer::getFile(L.File.Path);
  if (!Text || !L.Stored) {
    reportError("kopt", L.File.Path + ": " + (L.Stored ? Text.getError().message() : L.Error));
    return 1;
  }
  llvm::outs() << "# " << L.File.Path << "\n"
               << nlohmann::json::parse((*Text)->getBuffer()).dump(2) << "\n";
  return 0;
}

int transfer(memory::ResultCache &Cache, bool Export, const std::string &Dir) {
  std::vector<std::string> Skipped;
  llvm::Expected<uint64_t> N =
      Export ? Cache.exportTo(Dir, Skipped) : Cache.importFrom(Dir, Skipped);
  for (const std::string &S : Skipped)
    llvm::errs() << "kopt: warning: skipped " << S << "\n";
  if (!N) {
    reportError("kopt", N.takeError());
    return 1;
  }
  llvm::outs() << (Export ? "Exported " : "Imported ") << *N << " entries "
               << (Export ? "to " : "from ") << Dir << "\n";
  return 0;
}

int usage(llvm::StringRef Why) {
  reportError("kopt", Why.str() + "; usage: kopt cache [--kopt-OPTION=V] " +
                          "ls|show KEY|stats|-s|clear|gc|export DIR|import DIR");
  return 1;
}
} // namespace

int runCache(const std::vector<std::string> &Arguments) {
  std::vector<std::string> Args = Arguments;
  llvm::Expected<memory::ResultCache> Cache = openCache(Args);
  if (!Cache) {
    reportError("kopt", Cache.takeError());
    return 1;
  }
  if (Args.empty())
    return usage("missing action");
  llvm::StringRef Action = Args[0];
  size_t Want = (Action == "show" || Action == "export" || Action == "import") ? 2 : 1;
  if (Args.size() != Want)
    return usage(Args.size() < Want ? "missing argument" : "too many arguments");
  if (Action == "ls")
    return listEntries(*Cache);
  if (Action == "show")
    return showEntry(*Cache, Args[1]);
  if (Action == "stats") {
    printCacheStats(*Cache, llvm::outs());
    return 0;
  }
  if (Action == "-s" || Action == "--show-stats") {
    printCacheSummary(*Cache, llvm::outs());
    return 0;
  }
  if (Action == "export" || Action == "import")
    return transfer(*Cache, Action == "export", Args[1]);
  if (Action == "clear") {
    llvm::Expected<memory::ClearResult> N = Cache->clear();
    if (!N) {
      reportError("kopt", N.takeError());
      return 1;
    }
    llvm::outs() << "Removed " << N->Entries << " entries and " << N->Manifests
                 << " manifests from " << Cache->config().UserDir << "\n";
    return 0;
  }
  if (Action == "gc") {
    llvm::Expected<memory::GcResult> Gc = Cache->gc();
    if (!Gc) {
      reportError("kopt", Gc.takeError());
      return 1;
    }
    llvm::outs() << "Evicted " << Gc->Evicted << " entries (" << Gc->BytesBefore << " -> "
                 << Gc->BytesAfter << " bytes, limit " << Cache->config().MaxBytes << ")\n";
    return 0;
  }
  return usage("unknown action '" + Action.str() + "'");
}

} // namespace kopt::driver
