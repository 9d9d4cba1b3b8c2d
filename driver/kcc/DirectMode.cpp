#include "driver/kcc/DirectMode.h"

#include "driver/Diagnostics.h"
#include "driver/config/CacheConfig.h"
#include "driver/kcc/FrontEndStage.h"
#include "driver/nvcc/NvccLocator.h"
#include "kopt/Version.h"
#include "memory/cache/OnceWarnings.h"
#include "memory/cache/ResultCache.h"
#include "support/TextFile.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/raw_ostream.h>

namespace kopt::driver {

namespace {
// What steers kopt's parse or its keys besides flags and options: clang's
// include variables, and where NVRTC (the CUDA version in cache keys) is found.
constexpr const char *SteeringVariables[] = {
    "CPATH",     "C_INCLUDE_PATH", "CPLUS_INCLUDE_PATH", "CUDA_HOME",
    "CUDA_PATH", "KOPT_LIBNVRTC",  "LD_LIBRARY_PATH"};

// The key of Source's manifest; fails where kopt's front end is missing.
llvm::Expected<memory::CacheKey> manifestKey(const KccContext &C, const NvccCommandLine &Cmd,
                                             const memory::CacheConfig &Cache,
                                             const std::string &Source, llvm::StringRef Text) {
  memory::ManifestKeyInputs In;
  In.SourcePath = Source;
  In.SourceDigest = contentDigest(Text);
  llvm::SmallString<256> Cwd;
  if (std::error_code EC = llvm::sys::fs::current_path(Cwd))
    return llvm::createStringError(EC, "no working directory");
  In.WorkingDir = std::string(Cwd);
  In.CompileFlags = Cmd.Args;
  // --kopt-verbose only shows more of the log, which the manifest keeps whole.
  for (auto &[Key, Value] : frontEndOptions(C.Options))
    if (Key != "verbose")
      In.Options.emplace_back(std::move(Key), std::move(Value));
  In.Options.emplace_back("user_cache", Cache.UserDir);
  for (const char *Var : SteeringVariables)
    if (std::optional<std::string> Value = C.GetEnv(Var))
      In.Environment.emplace_back(Var, *Value);
  // The toolkit whose headers kopt parses with, as kopt will find it.
  llvm::Expected<std::string> Nvcc = locateRealNvcc(NvccSearchEnvironment::current());
  if (Nvcc)
    In.Compiler = *Nvcc;
  else
    In.Compiler = "none: " + llvm::toString(Nvcc.takeError());
  In.KoptVersion = Version;
  std::string Kopt = koptToolPath(C.GetEnv);
  llvm::sys::fs::file_status Status;
  if (llvm::sys::fs::status(Kopt, Status))
    return llvm::createStringError("kopt's front end is not at " + Kopt);
  In.FrontEnd = Kopt + " " + stampOf(Status);
  return memory::makeManifestKey(In);
}

} // namespace

DirectAttempt tryDirect(const KccContext &C, const NvccCommandLine &Cmd, const std::string &Source,
                        llvm::StringRef Text, const std::string &Temp) {
  Reporter Kcc("kcc", C.Options.verbose());
  if (!C.Options.getBool("direct"))
    return {};
  llvm::Expected<memory::CacheConfig> Config = cacheConfigFrom(C.Options, C.GetEnv);
  llvm::Expected<memory::ResultCache> Cache =
      Config ? memory::ResultCache::open(*Config) : Config.takeError();
  if (!Cache) { // kopt's side says why there is no cache, if it matters.
    llvm::consumeError(Cache.takeError());
    return {};
  }
  // A direct hit uses the cache's files too: the build's working set begins
  // with its first compile, whichever path that takes.
  memory::buildStart(Config->UserDir);
  llvm::Expected<memory::CacheKey> Key = manifestKey(C, Cmd, *Config, Source, Text);
  if (!Key) {
    Kcc.verboseNote(Source + ": no direct mode: " + llvm::toString(Key.takeError()));
    return {};
  }
  memory::DirectLookup Found = Cache->lookupDirect(Key->Digest);
  if (!Found.Manifest) {
    Kcc.verboseNote(Source + ": direct miss: " + Found.Miss);
    return {false, Key->Digest};
  }
  if (llvm::Error E = writeTextFile(Temp, Found.Manifest->Output)) {
    Kcc.verboseNote(Source + ": direct miss: " + llvm::toString(std::move(E)));
    return {false, Key->Digest};
  }
  Kcc.verboseNote(Source + ": direct hit (manifest " + Key->Digest.substr(0, 16) +
                  "): the recorded rewrite, without kopt's parse");
  for (const memory::ManifestLine &L : Found.Manifest->Log)
    if (!L.VerboseOnly || C.Options.verbose())
      writeToStderr(L.Text);
  return {true, Key->Digest};
}

} // namespace kopt::driver
