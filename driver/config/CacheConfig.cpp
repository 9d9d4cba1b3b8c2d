#include "driver/config/CacheConfig.h"

#include "driver/config/KoptConfigFile.h"
#include "driver/nvcc/NvccLocator.h"

#include <llvm/ADT/SmallString.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>

namespace kopt::driver {

llvm::Expected<std::string> defaultCacheDir(const GetEnvFn &GetEnv) {
  llvm::SmallString<256> Dir;
  if (std::optional<std::string> Xdg = GetEnv("XDG_CACHE_HOME"); Xdg && !Xdg->empty())
    Dir = *Xdg;
  else if (std::optional<std::string> Home = GetEnv("HOME"); Home && !Home->empty())
    llvm::sys::path::append(Dir, *Home, ".cache");
  else
    return llvm::createStringError("no cache directory: set KOPT_CACHE_DIR or HOME");
  llvm::sys::path::append(Dir, "kopt");
  return std::string(Dir);
}

llvm::Expected<uint64_t> parseSize(llvm::StringRef Text) {
  uint64_t Scale = 1;
  llvm::StringRef Digits = Text;
  if (!Digits.empty() && llvm::StringRef("KMGT").contains(Digits.back())) {
    Scale = uint64_t(1) << (10 * (llvm::StringRef("KMGT").find(Digits.back()) + 1));
    Digits = Digits.drop_back();
  }
  uint64_t N = 0;
  if (Digits.getAsInteger(10, N) || (N && N > UINT64_MAX / Scale))
    return llvm::createStringError("invalid size '%s'", Text.str().c_str());
  return N * Scale;
}

llvm::Expected<memory::CacheConfig> cacheConfigFrom(const KoptOptions &Options,
                                                    const GetEnvFn &GetEnv) {
  memory::CacheConfig Config;
  Config.UserDir = Options.get("cache_dir").Value;
  if (Config.UserDir.empty()) {
    llvm::Expected<std::string> Dir = defaultCacheDir(GetEnv);
    if (!Dir)
      return Dir.takeError();
    Config.UserDir = *Dir;
  }
  llvm::Expected<uint64_t> Max = parseSize(Options.get("cache_max_size").Value);
  if (!Max)
    return Max.takeError();
  Config.MaxBytes = *Max;
  if (const std::string &Project = Options.get("project_cache").Value; !Project.empty())
    Config.ProjectDir = Project;
  return Config;
}

llvm::Expected<std::vector<memory::RemoteSpec>> remoteSpecsFrom(const KoptOptions &Options,
                                                                const GetEnvFn &GetEnv) {
  const OptionValue &Value = Options.get("remote_cache");
  llvm::Expected<std::vector<memory::RemoteSpec>> Specs =
      memory::parseRemoteSpecs(Value.Value, GetEnv);
  if (!Specs)
    return llvm::createStringError(Value.Origin + ": " + llvm::toString(Specs.takeError()));
  return Specs;
}

llvm::Expected<KoptOptions> koptOptionsFor(std::vector<std::string> &Args, llvm::StringRef Dir) {
  llvm::Expected<SplitCommandLine> Split = splitKoptFlags(Args);
  if (!Split)
    return Split.takeError();
  Args = Split->CompilerArgs;
  KoptOptions Options;
  llvm::SmallString<256> Start(Dir);
  if (!Start.empty() || !llvm::sys::fs::current_path(Start))
    if (std::optional<std::string> Config = findConfigFile(Start))
      if (llvm::Error E = loadConfigFile(*Config, Options))
        return E;
  if (llvm::Error E =
          applyEnvironmentAndFlags(Options, NvccSearchEnvironment::current().GetEnv, *Split))
    return E;
  return Options;
}

llvm::Expected<memory::CacheConfig> cacheConfigFor(std::vector<std::string> &Args) {
  llvm::Expected<KoptOptions> Options = koptOptionsFor(Args);
  if (!Options)
    return Options.takeError();
  return cacheConfigFrom(*Options, NvccSearchEnvironment::current().GetEnv);
}

} // namespace kopt::driver
