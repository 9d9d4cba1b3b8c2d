#include "driver/commands/CacheCommand.h"

#include "driver/Diagnostics.h"
#include "driver/commands/Subcommand.h"
#include "driver/config/CacheConfig.h"
#include "driver/config/KoptConfigFile.h"
#include "driver/nvcc/NvccLocator.h"
#include "driver/optimize/ResultCacheSetup.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/FormatVariadic.h>
#include <llvm/Support/MemoryBuffer.h>
#include <nlohmann/json.hpp>

#include <ctime>

namespace kopt::driver {

namespace {
const Reporter Voice("kopt");

// Whether the action only talks to the remotes (push, ls --remote).
bool remoteAction(const std::vector<std::string> &Args) {
  return !Args.empty() &&
         (Args[0] == "push" || (Args[0] == "ls" && Args.size() == 2 && Args[1] == "--remote"));
}

// The cache kcc would use from the current directory. A malformed remote_cache
// fails an action on the remotes; the others warn and use the local caches.
llvm::Expected<memory::ResultCache> openCache(std::vector<std::string> &Args) {
  llvm::Expected<KoptOptions> Options = koptOptionsFor(Args);
  if (!Options)
    return Options.takeError();
  GetEnvFn GetEnv = NvccSearchEnvironment::current().GetEnv;
  if (remoteAction(Args))
    return openResultCache(*Options, GetEnv);
  std::string RemoteProblem;
  llvm::Expected<memory::ResultCache> Cache = openResultCache(*Options, GetEnv, &RemoteProblem);
  if (!RemoteProblem.empty())
    Voice.warning(RemoteProblem + RemotesDropped.str());
  return Cache;
}

memory::RemoteStorage *remotesOf(const memory::ResultCache &Cache) {
  return static_cast<memory::RemoteStorage *>(Cache.remote());
}

std::string entrySummary(const memory::CacheEntry &E) {
  return (E.Variant ? llvm::formatv("{0:F2}x", E.Speedup).str() : "original") + "  " + E.KernelName;
}

// `kopt cache ls --remote`: each remote's entries, each checked as a lookup
// would check it.
llvm::Error listRemote(memory::ResultCache &Cache) {
  memory::RemoteStorage *Remotes = remotesOf(Cache);
  if (!Remotes)
    return llvm::createStringError("no remote cache configured (remote_cache)");
  bool Failed = false;
  for (size_t I = 0; I < Remotes->size(); ++I) {
    llvm::Expected<std::vector<std::string>> Digests = Remotes->list(I);
    if (!Digests) { // Said now; the other remotes are still listed.
      Voice.error(Remotes->spec(I).display() + ": " + llvm::toString(Digests.takeError()));
      Failed = true;
      continue;
    }
    llvm::outs() << "# " << Remotes->spec(I).display() << ": " << Digests->size()
                 << (Digests->size() == 1 ? " entry" : " entries") << "\n";
    std::sort(Digests->begin(), Digests->end());
    for (const std::string &D : *Digests) {
      llvm::outs() << D.substr(0, 16) << "  ";
      std::string Warning;
      memory::CacheKey Key{D, ""};
      if (std::optional<memory::RemoteTier::Fetched> F = Remotes->fetch(Key, Warning))
        llvm::outs() << entrySummary(F->Stored.Entry) << "\n";
      else
        llvm::outs() << "CORRUPT " << (Warning.empty() ? "gone while listing" : Warning) << "\n";
    }
  }
  return Failed ? failWithStatus(1) : llvm::Error::success();
}

// A directory to read a cache from must be one: a missing path (a typo) is an
// error, not a cache with no entries.
llvm::Error checkCacheDirectory(const std::string &Dir) {
  llvm::sys::fs::file_status Status;
  if (std::error_code EC = llvm::sys::fs::status(Dir, Status))
    return llvm::createStringError(EC, "%s", EC.message().c_str());
  if (!llvm::sys::fs::is_directory(Status))
    return llvm::createStringError("not a directory");
  if (!llvm::sys::fs::is_directory(Dir + "/entries"))
    Voice.warning(Dir + " holds no entries/ folder: no cache entries");
  return llvm::Error::success();
}

// `kopt cache push [DIR]`: the valid entries of a project cache (or the user
// cache) to every remote that is not read only.
llvm::Error push(memory::ResultCache &Cache, const std::string &Dir) {
  memory::RemoteStorage *Remotes = remotesOf(Cache);
  if (!Remotes)
    return llvm::createStringError("no remote cache configured (remote_cache)");
  std::string Root = Dir.empty() ? Cache.config().UserDir : Dir;
  if (!Dir.empty())
    if (llvm::Error E = checkCacheDirectory(Dir))
      return llvm::createStringError("cannot push " + Dir + ": " + llvm::toString(std::move(E)));
  std::vector<std::pair<std::string, std::string>> Valid; // Digest, bytes.
  for (const memory::EntryFile &F : memory::listEntryFiles(Root)) {
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Text = llvm::MemoryBuffer::getFile(F.Path);
    llvm::Expected<memory::StoredEntry> Stored =
        Text ? memory::parseEntry((*Text)->getBuffer())
             : llvm::createStringError(Text.getError(), "cannot read");
    if (Stored && Stored->Key.Digest != F.Digest)
      Stored = llvm::createStringError("holds the entry of another key");
    if (!Stored) {
      Voice.warning("skipped " + F.Path + ": " + llvm::toString(Stored.takeError()));
      continue;
    }
    Valid.emplace_back(F.Digest, (*Text)->getBuffer().str());
  }
  bool AnyFailed = false;
  for (size_t I = 0; I < Remotes->size(); ++I) {
    if (Remotes->spec(I).ReadOnly) {
      Voice.warning("remote cache " + Remotes->spec(I).display() +
                    " is read only: nothing pushed to it");
      continue;
    }
    uint64_t Uploaded = 0, Present = 0, Failed = 0;
    for (const auto &[Digest, Bytes] : Valid) {
      llvm::Expected<bool> Done = Remotes->push(I, Digest, Bytes);
      if (!Done) {
        Voice.error(Remotes->spec(I).display() + ": " + llvm::toString(Done.takeError()));
        ++Failed;
        AnyFailed = true;
        break; // The rest would fail the same way.
      }
      ++(*Done ? Uploaded : Present);
    }
    llvm::outs() << "Pushed " << Uploaded << " entries to " << Remotes->spec(I).display() << " ("
                 << Present << " already there" << (Failed ? ", stopped at a failure" : "")
                 << ") from " << Root << "\n";
  }
  return AnyFailed ? failWithStatus(1) : llvm::Error::success();
}

std::string date(llvm::sys::TimePoint<> T) {
  std::time_t Time = llvm::sys::toTimeT(T);
  char Text[32];
  std::strftime(Text, sizeof(Text), "%Y-%m-%d %H:%M", std::localtime(&Time));
  return Text;
}

llvm::Error listEntries(memory::ResultCache &Cache) {
  std::vector<memory::ListedEntry> Listed = Cache.list();
  if (Listed.empty()) {
    // Where it looked, so that an empty answer is not mistaken for a broken one.
    llvm::outs() << "no entries in " << Cache.config().UserDir;
    if (Cache.config().ProjectDir)
      llvm::outs() << " or " << *Cache.config().ProjectDir;
    llvm::outs() << "\n";
    return llvm::Error::success();
  }
  for (const memory::ListedEntry &L : Listed) {
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
  return llvm::Error::success();
}

llvm::Error showEntry(memory::ResultCache &Cache, llvm::StringRef Prefix) {
  std::vector<memory::ListedEntry> Found = Cache.find(Prefix);
  if (Found.empty())
    return llvm::createStringError("no cache entry with key " + Prefix.str());
  for (const memory::ListedEntry &L : Found)
    if (L.File.Digest != Found.front().File.Digest)
      return llvm::createStringError("key prefix " + Prefix.str() + " is ambiguous");
  // The project cache's entry first, as a lookup would use it.
  const memory::ListedEntry &L = Found.back().Project ? Found.back() : Found.front();
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Text =
      llvm::MemoryBuffer::getFile(L.File.Path);
  if (!Text || !L.Stored)
    return llvm::createStringError(L.File.Path + ": " +
                                   (L.Stored ? Text.getError().message() : L.Error));
  llvm::outs() << "# " << L.File.Path << "\n"
               << nlohmann::json::parse((*Text)->getBuffer()).dump(2) << "\n";
  return llvm::Error::success();
}

llvm::Error transfer(memory::ResultCache &Cache, bool Export, const std::string &Dir) {
  if (!Export)
    if (llvm::Error E = checkCacheDirectory(Dir))
      return llvm::createStringError("cannot import from " + Dir + ": " +
                                     llvm::toString(std::move(E)));
  std::vector<std::string> Skipped;
  llvm::Expected<uint64_t> N =
      Export ? Cache.exportTo(Dir, Skipped) : Cache.importFrom(Dir, Skipped);
  for (const std::string &S : Skipped)
    Voice.warning("skipped " + S);
  if (!N)
    return N.takeError();
  llvm::outs() << (Export ? "Exported " : "Imported ") << *N << " entries "
               << (Export ? "to " : "from ") << Dir << "\n";
  return llvm::Error::success();
}

// `kopt cache verify [--fix]`: every entry and manifest checked as a lookup
// checks it; --fix removes the corrupt ones. Exit 1 while any remain.
llvm::Error verify(memory::ResultCache &Cache, bool Fix) {
  memory::VerifyResult R = Cache.verify();
  uint64_t Removed = 0, Left = 0;
  for (const memory::CorruptFile &F : R.Corrupt) {
    std::string Where = F.Path + (F.Project ? " (project cache)" : "") + ": " + F.Why;
    if (!Fix) {
      llvm::outs() << "corrupt: " << Where << "\n";
      ++Left;
      continue;
    }
    llvm::Expected<bool> Done = Cache.removeCorrupt(F);
    if (!Done) {
      Voice.error(Done.takeError());
      ++Left;
    } else if (*Done) {
      llvm::outs() << "removed: " << Where << "\n";
      ++Removed;
    } else {
      llvm::outs() << "replaced since: " << F.Path << "\n";
    }
  }
  llvm::outs() << "Checked " << R.Entries << " entries and " << R.Manifests
               << " manifests: " << R.Corrupt.size() << " corrupt";
  if (Fix)
    llvm::outs() << ", " << Removed << " removed";
  llvm::outs() << "\n";
  if (!Left)
    return llvm::Error::success();
  if (!Fix)
    return failWithStatus(1, llvm::Twine(Left) + " corrupt (lookups ignore them): " +
                                 "`kopt cache verify --fix` removes them");
  return failWithStatus(1);
}

llvm::Error usage(llvm::StringRef Why) {
  return llvm::createStringError(Why.str() + "; usage: kopt cache [--kopt-OPTION=V] " +
                                 "ls [--remote]|show KEY|stats|-s|clear|gc|verify [--fix]|" +
                                 "export DIR|import DIR|push [DIR]|explain FILE|rekey FILE");
}
} // namespace

llvm::Error runCache(const std::vector<std::string> &Arguments) {
  // explain and rekey read the .kopt.yaml of their FILE, not the current directory's.
  for (size_t I = 0; I < Arguments.size(); ++I) {
    if (llvm::StringRef(Arguments[I]).starts_with("--kopt-"))
      continue;
    if (Arguments[I] == "explain" || Arguments[I] == "rekey") {
      std::vector<std::string> Rest = Arguments;
      Rest.erase(Rest.begin() + I);
      return runCacheKeyCommand(Arguments[I], Rest);
    }
    break;
  }
  std::vector<std::string> Args = Arguments;
  llvm::Expected<memory::ResultCache> Cache = openCache(Args);
  if (!Cache)
    return Cache.takeError();
  if (Args.empty())
    return usage("missing action");
  llvm::StringRef Action = Args[0];
  if (Action == "ls" && Args.size() == 2 && Args[1] == "--remote")
    return listRemote(*Cache);
  if (Action == "push" && Args.size() <= 2)
    return push(*Cache, Args.size() == 2 ? Args[1] : "");
  if (Action == "verify" && (Args.size() == 1 || (Args.size() == 2 && Args[1] == "--fix")))
    return verify(*Cache, Args.size() == 2);
  size_t Want = (Action == "show" || Action == "export" || Action == "import") ? 2 : 1;
  if (Args.size() != Want)
    return usage(Args.size() < Want ? "missing argument" : "too many arguments");
  if (Action == "ls")
    return listEntries(*Cache);
  if (Action == "show")
    return showEntry(*Cache, Args[1]);
  if (Action == "stats") {
    printCacheStats(*Cache, llvm::outs());
    return llvm::Error::success();
  }
  if (Action == "-s" || Action == "--show-stats") {
    printCacheSummary(*Cache, llvm::outs());
    return llvm::Error::success();
  }
  if (Action == "export" || Action == "import")
    return transfer(*Cache, Action == "export", Args[1]);
  if (Action == "clear") {
    llvm::Expected<memory::ClearResult> N = Cache->clear();
    if (!N)
      return N.takeError();
    if (llvm::Error E = memory::RemoteStorage::zeroCounters(Cache->config().UserDir))
      Voice.error(std::move(E));
    llvm::outs() << "Removed " << N->Entries << " entries and " << N->Manifests
                 << " manifests from " << Cache->config().UserDir << "\n";
    return llvm::Error::success();
  }
  if (Action == "gc") {
    llvm::Expected<memory::GcResult> Gc = Cache->gc();
    if (!Gc)
      return Gc.takeError();
    if (Gc->Corrupt)
      llvm::outs() << "Removed " << Gc->Corrupt << " corrupt entries and manifests\n";
    llvm::outs() << "Evicted " << Gc->EvictedEntries << " entries and "
                 << Gc->Evicted - Gc->EvictedEntries << " manifests (" << Gc->BytesBefore << " -> "
                 << Gc->BytesAfter << " bytes, limit " << Cache->config().MaxBytes << ")\n";
    return llvm::Error::success();
  }
  return usage("unknown action '" + Action.str() + "'");
}

} // namespace kopt::driver
