// `kopt cache explain FILE [--kernel K] [-- FLAGS]`: for each annotated kernel
// and real architecture of the compile, the key kcc would look up and whether
// it hits, or why not (the nearest entry for the kernel and what differs).
// `kopt cache rekey FILE [--kernel K] [-- INCLUDE FLAGS]`: moves the entries an
// earlier key format made for FILE's kernels to the current key. The key is
// recomputed from what the entry records (its unit hash, clauses,
// architecture, CUDA and kopt versions and the compile flags its old key
// held): FILE is parsed with those flags, and the entry moves only where the
// kernel's unit and clauses are still the ones it was verified for; its
// verification and timing records stay as they are.
#include "clang-plugin/parse/KernelFinder.h"
#include "driver/Diagnostics.h"
#include "driver/commands/CacheCommand.h"
#include "driver/commands/SourceKernels.h"
#include "driver/config/CacheConfig.h"
#include "driver/nvcc/NvccDeviceFlags.h"
#include "driver/nvcc/NvccDevicePasses.h"
#include "driver/nvcc/NvccLocator.h"
#include "driver/optimize/FrontendSetup.h"
#include "driver/optimize/KernelOptimization.h"
#include "kopt/Version.h"
#include "memory/cache/MissExplanation.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/Path.h>
#include <nlohmann/json.hpp>

#include <map>

namespace kopt::driver {

namespace {
const Reporter Voice("kopt");

struct KeyCommand {
  std::string File;
  std::optional<std::string> Kernel;
  std::vector<std::string> Flags;
  std::optional<memory::ResultCache> Cache;
};

// FILE, --kernel, the --kopt- options (with FILE's .kopt.yaml) and the flags after "--".
llvm::Expected<KeyCommand> prepare(std::vector<std::string> Args, bool ReadOnly) {
  KeyCommand C;
  auto Kernel = takeOption(Args, "kernel");
  if (!Kernel)
    return Kernel.takeError();
  C.Kernel = *Kernel;
  std::vector<std::string> Own;
  for (size_t I = 0; I < Args.size(); ++I) {
    if (Args[I] == "--") {
      C.Flags.assign(Args.begin() + I + 1, Args.end());
      break;
    }
    if (!llvm::StringRef(Args[I]).starts_with("-") && C.File.empty())
      C.File = Args[I];
    else
      Own.push_back(Args[I]);
  }
  if (C.File.empty())
    return llvm::createStringError("no input file");
  llvm::Expected<KoptOptions> Options = koptOptionsFor(Own, llvm::sys::path::parent_path(C.File));
  if (!Options)
    return Options.takeError();
  if (!Own.empty())
    return llvm::createStringError("unknown argument '%s' (compile flags go after --)",
                                   Own.front().c_str());
  llvm::Expected<memory::CacheConfig> Config =
      cacheConfigFrom(*Options, NvccSearchEnvironment::current().GetEnv);
  if (!Config)
    return Config.takeError();
  Config->ReadOnly = ReadOnly; // explain counts no lookup and ages no entry.
  llvm::Expected<memory::ResultCache> Cache = memory::ResultCache::open(*Config);
  if (!Cache)
    return Cache.takeError();
  C.Cache.emplace(std::move(*Cache));
  return C;
}

llvm::Expected<std::vector<frontend::KernelSummary>> parse(const std::string &File,
                                                           const std::vector<std::string> &Flags,
                                                           std::string *ArchNote = nullptr) {
  llvm::Expected<frontend::CudaParseSetup> Setup = frontendSetupFor(Flags, ArchNote);
  if (!Setup)
    return Setup.takeError();
  return frontend::findKernels(File, *Setup);
}

bool wanted(const KeyCommand &C, const frontend::KernelSummary &K) {
  return K.Pragma &&
         (!C.Kernel || K.Name == *C.Kernel || frontend::unqualifiedName(K.Name) == *C.Kernel);
}

// The key's components in a line, as `explain` shows them.
std::string components(const memory::CacheKey &Key) {
  nlohmann::json J = nlohmann::json::parse(Key.Canonical);
  std::string Env = std::to_string(J["environment"].size()) + " macro" +
                    (J["environment"].size() == 1 ? "" : "s");
  return "arch " + J["arch"].get<std::string>() + ", cuda " + J["cuda"].get<std::string>() +
         ", device flags [" + llvm::join(J["device_flags"].get<std::vector<std::string>>(), " ") +
         "], environment " + Env + ", unit " + J["unit"].get<std::string>().substr(0, 19) +
         "..., kopt " + J["kopt"].get<std::string>() + " (key " + Key.Digest.substr(0, 16) + ")";
}

llvm::Error explain(KeyCommand &C) {
  std::string ArchNote;
  auto Kernels = parse(C.File, C.Flags, &ArchNote);
  if (!Kernels)
    return Kernels.takeError();
  if (!ArchNote.empty())
    llvm::outs() << C.File << ": " << ArchNote << "\n";
  llvm::Expected<NvccCommandLine> Cmd = parseExpandedNvccFlags(C.Flags);
  auto Passes = Cmd ? nvccDevicePasses(*Cmd) : Cmd.takeError();
  if (!Passes)
    return Passes.takeError();
  unsigned Shown = 0;
  for (const frontend::KernelSummary &K : *Kernels) {
    if (!wanted(C, K))
      continue;
    for (const std::string &Arch : realArchitectures(*Passes)) {
      ++Shown;
      memory::CacheKey Key = cacheKeyFor(K, Arch, C.Flags);
      std::string Warning;
      auto Hit = C.Cache->lookup(Key, &Warning);
      llvm::outs() << (K.HeaderFile.empty() ? C.File : K.HeaderFile) << ":" << K.Line << ": "
                   << K.Name << ": " << Arch << ": ";
      if (Hit && *Hit) {
        llvm::outs() << "hit: " << describeEntry(**Hit) << "\n";
      } else {
        if (!Hit)
          llvm::consumeError(Hit.takeError());
        llvm::outs() << "miss: " << memory::explainMiss(*C.Cache, K.Name, Key).text(K.Name)
                     << (Warning.empty() ? "" : " (" + Warning + ")") << "\n";
      }
      llvm::outs() << "  key: " << components(Key) << "\n";
    }
  }
  if (!Shown)
    return llvm::createStringError(C.File + " has no annotated kernel" +
                                   (C.Kernel ? " named '" + *C.Kernel + "'" : std::string()));
  return llvm::Error::success();
}

// The compile flags an old key recorded, as nvcc takes them, with the include
// paths of Given (the old key left those out).
std::vector<std::string> recordedFlags(const nlohmann::json &Old,
                                       const std::vector<std::string> &Given) {
  std::vector<std::string> Flags = {"-c", "-arch=" + Old.value("arch", std::string())};
  for (const nlohmann::json &F : Old.value("codegen_flags", nlohmann::json::array()))
    if (F.is_string())
      Flags.push_back(F.get<std::string>());
  if (llvm::Expected<NvccCommandLine> Cmd = parseExpandedNvccFlags(Given)) {
    for (const NvccValue &D : Cmd->IncludeDirs)
      Flags.push_back("-I" + D.Value);
    for (const NvccValue &D : Cmd->SystemIncludeDirs)
      Flags.insert(Flags.end(), {"-isystem", D.Value});
  } else {
    llvm::consumeError(Cmd.takeError());
  }
  return Flags;
}

llvm::Error rekey(KeyCommand &C) {
  std::map<std::vector<std::string>, std::vector<frontend::KernelSummary>> Parsed;
  unsigned Moved = 0, Failed = 0;
  for (const memory::ListedEntry &L : C.Cache->list()) {
    if (!L.Stored)
      continue;
    nlohmann::json Old = nlohmann::json::parse(L.Stored->Key.Canonical, nullptr, false);
    if (!Old.is_object() || Old.value("key_format", 0) == memory::KeyFormat)
      continue;
    std::string Where = L.File.Digest.substr(0, 8) + " (" + L.Stored->Entry.KernelName + ", " +
                        Old.value("arch", std::string("?")) +
                        (L.Project ? ", project cache)" : ", user cache)");
    std::vector<std::string> Flags = recordedFlags(Old, C.Flags);
    auto It = Parsed.find(Flags);
    if (It == Parsed.end()) {
      auto Kernels = parse(C.File, Flags);
      if (!Kernels) {
        Voice.error("entry " + Where + ": " + llvm::toString(Kernels.takeError()));
        ++Failed;
        continue;
      }
      It = Parsed.emplace(Flags, std::move(*Kernels)).first;
    }
    const frontend::KernelSummary *K = nullptr;
    for (const frontend::KernelSummary &S : It->second)
      if (S.Name == L.Stored->Entry.KernelName && wanted(C, S))
        K = &S;
    if (!K)
      continue; // Another file's kernel.
    memory::CacheKeyInputs In = cacheKeyInputsFor(*K, Old.value("arch", std::string()), Flags);
    std::string Why;
    if (In.UnitHash != Old.value("unit", std::string()))
      Why = "the kernel's code in " + C.File + " is not the code the entry was verified for";
    else if (In.Clauses != Old.value("clauses", std::string()))
      Why = "the kernel's #pragma kopt clauses changed since the entry was made";
    if (!Why.empty()) {
      llvm::errs() << "kopt: cannot re-key entry " << Where << ": " << Why
                   << "; it needs a new optimization on a GPU of its architecture (kcc "
                      "--kopt-mode=optimize there, then kopt cache export)\n";
      ++Failed;
      continue;
    }
    // What the entry records, not what this machine has.
    In.CudaVersion = Old.value("cuda", In.CudaVersion);
    In.KoptVersion = Old.value("kopt", In.KoptVersion);
    memory::CacheKey New = memory::makeCacheKey(In);
    if (llvm::Error E = C.Cache->rekey(L, New, utcNow(), Version)) {
      Voice.error("entry " + Where + ": " + llvm::toString(std::move(E)));
      ++Failed;
      continue;
    }
    llvm::outs() << "Re-keyed " << Where << " to " << New.Digest.substr(0, 8) << "\n";
    ++Moved;
  }
  llvm::outs() << "Re-keyed " << Moved << " entr" << (Moved == 1 ? "y" : "ies") << " of " << C.File
               << (Failed ? ", " + std::to_string(Failed) + " could not be" : "") << "\n";
  return Failed ? failWithStatus(1) : llvm::Error::success();
}
} // namespace

llvm::Error runCacheKeyCommand(llvm::StringRef Action, const std::vector<std::string> &Args) {
  bool Explain = Action == "explain";
  llvm::Expected<KeyCommand> C = prepare(Args, /*ReadOnly=*/Explain);
  if (!C)
    return llvm::createStringError(llvm::toString(C.takeError()) + " (usage: kopt cache " +
                                   Action.str() +
                                   " FILE [--kernel K] [--kopt-OPTION=V]... [-- FLAGS])");
  return Explain ? explain(*C) : rekey(*C);
}

} // namespace kopt::driver
