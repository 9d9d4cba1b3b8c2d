#include "driver/optimize/ResultCacheSetup.h"

#include "driver/config/CacheConfig.h"
#include "memory/queue/QueueSpec.h"

namespace kopt::driver {

// remote_cache's servers; without one, the work queue's server (queue) is
// the remote cache.
llvm::Expected<std::vector<memory::RemoteSpec>> remoteCacheSpecs(const KoptOptions &Options,
                                                                 const GetEnvFn &GetEnv) {
  const OptionValue &Queue = Options.get("queue");
  if (Options.get("remote_cache").Value.empty() && !Queue.Value.empty()) {
    llvm::Expected<memory::QueueSpec> Spec = memory::parseQueueSpec(Queue.Value, GetEnv);
    if (!Spec)
      return llvm::createStringError(Queue.Origin + ": " + llvm::toString(Spec.takeError()));
    return std::vector<memory::RemoteSpec>{Spec->cacheServer()};
  }
  return remoteSpecsFrom(Options, GetEnv);
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

llvm::Expected<memory::ResultCache>
openResultCache(const KoptOptions &Options, const GetEnvFn &GetEnv, std::string *RemoteProblem) {
  llvm::Expected<memory::CacheConfig> Config = cacheConfigFrom(Options, GetEnv);
  if (!Config)
    return Config.takeError();
  llvm::Expected<memory::ResultCache> Cache = memory::ResultCache::open(*Config);
  if (!Cache)
    return Cache.takeError();
  llvm::Expected<std::shared_ptr<memory::RemoteStorage>> Remote =
      remoteStorageFor(Options, *Config, GetEnv);
  if (!Remote && !RemoteProblem)
    return Remote.takeError();
  if (!Remote)
    *RemoteProblem = llvm::toString(Remote.takeError());
  else if (*Remote)
    Cache->setRemote(std::move(*Remote));
  return Cache;
}

} // namespace kopt::driver
