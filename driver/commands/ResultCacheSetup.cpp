#include "driver/commands/ResultCacheSetup.h"

#include "driver/config/CacheConfig.h"
#include "memory/queue/QueueSpec.h"

namespace kopt::driver {

llvm::Expected<std::vector<memory::RemoteSpec>> remoteCacheSpecs(const KoptOptions &Options,
                                                                 const GetEnvFn &GetEnv) {
  const OptionValue &Value = Options.get("remote_cache");
  const OptionValue &Queue = Options.get("queue");
  if (Value.Value.empty() && !Queue.Value.empty()) {
    llvm::Expected<memory::QueueSpec> Spec = memory::parseQueueSpec(Queue.Value, GetEnv);
    if (!Spec)
      return llvm::createStringError(Queue.Origin + ": " + llvm::toString(Spec.takeError()));
    return std::vector<memory::RemoteSpec>{Spec->cacheServer()};
  }
  llvm::Expected<std::vector<memory::RemoteSpec>> Specs =
      memory::parseRemoteSpecs(Value.Value, GetEnv);
  if (!Specs)
    return llvm::createStringError(Value.Origin + ": " + llvm::toString(Specs.takeError()));
  return Specs;
}

llvm::Expected<std::shared_ptr<memory::RemoteStorage>>
remoteStorageFor(const KoptOptions &Options, const memory::CacheConfig &Config,
                 const GetEnvFn &GetEnv) {
  llvm::Expected<std::vector<memory::RemoteSpec>> Specs = remoteCacheSpecs(Options, GetEnv);
  if (!Specs)
    return Specs.takeError();
  if (Specs->empty())
    return nullptr;
  return std::make_shared<memory::RemoteStorage>(std::move(*Specs), Config.UserDir,
                                                 Config.ReadOnly);
}

llvm::Expected<memory::ResultCache> openResultCache(const KoptOptions &Options,
                                                    const GetEnvFn &GetEnv) {
  llvm::Expected<memory::CacheConfig> Config = cacheConfigFrom(Options, GetEnv);
  if (!Config)
    return Config.takeError();
  llvm::Expected<memory::ResultCache> Cache = memory::ResultCache::open(*Config);
  if (!Cache)
    return Cache.takeError();
  llvm::Expected<std::shared_ptr<memory::RemoteStorage>> Remote =
      remoteStorageFor(Options, *Config, GetEnv);
  if (!Remote)
    return Remote.takeError();
  if (*Remote)
    Cache->setRemote(std::move(*Remote));
  return Cache;
}

} // namespace kopt::driver
