// The result cache as kopt's commands use it: the local caches of the options
// (config/CacheConfig.h) with the remote caches of `remote_cache` attached
// (memory/remote/). kcc's own process never opens a remote.
#pragma once

#include "driver/config/KoptOptions.h"
#include "memory/cache/ResultCache.h"
#include "memory/remote/RemoteStorage.h"

#include <memory>

namespace kopt::driver {

// The remote caches of the remote_cache option; where it names none and a work
// queue is configured (queue), the queue's server: its workers publish there.
// A malformed URL is an error (its password never shown).
llvm::Expected<std::vector<memory::RemoteSpec>> remoteCacheSpecs(const KoptOptions &Options,
                                                                 const GetEnvFn &GetEnv);

// The remote caches of remoteCacheSpecs; nullptr when there are none.
llvm::Expected<std::shared_ptr<memory::RemoteStorage>>
remoteStorageFor(const KoptOptions &Options, const memory::CacheConfig &Config,
                 const GetEnvFn &GetEnv);

// The local caches with their remotes. A malformed remote_cache fails the open
// where RemoteProblem is null; else it is said there (where the value came
// from, and why) and the local caches open without remotes.
llvm::Expected<memory::ResultCache> openResultCache(const KoptOptions &Options,
                                                    const GetEnvFn &GetEnv,
                                                    std::string *RemoteProblem = nullptr);

} // namespace kopt::driver
