// The result cache as kopt's commands use it: the local caches of the options
// (config/CacheConfig.h) with the remote caches of `remote_cache` attached
// (memory/remote/). kcc's own process never opens a remote.
#pragma once

#include "driver/config/KoptOptions.h"
#include "memory/cache/ResultCache.h"
#include "memory/remote/RemoteStorage.h"

#include <memory>

namespace kopt::driver {

// The remote caches of the remote_cache option; nullptr when it names none. A
// malformed URL is an error (its password never shown).
llvm::Expected<std::shared_ptr<memory::RemoteStorage>>
remoteStorageFor(const KoptOptions &Options, const memory::CacheConfig &Config,
                 const GetEnvFn &GetEnv);

llvm::Expected<memory::ResultCache> openResultCache(const KoptOptions &Options,
                                                    const GetEnvFn &GetEnv);

} // namespace kopt::driver
