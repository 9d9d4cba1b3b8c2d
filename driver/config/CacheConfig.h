// The result cache's configuration from kcc's options (cache_dir,
// cache_max_size, project_cache), shared by kcc and `kopt cache`.
#pragma once

#include "driver/config/KoptOptions.h"
#include "memory/cache/ResultCache.h"
#include "memory/remote/RemoteUrl.h"

namespace kopt::driver {

// $XDG_CACHE_HOME/kopt, else $HOME/.cache/kopt.
llvm::Expected<std::string> defaultCacheDir(const GetEnvFn &GetEnv);

// "500M" -> 524288000; K, M, G, T are powers of 1024; "0" means no limit.
llvm::Expected<uint64_t> parseSize(llvm::StringRef Text);

// kopt's options as kcc would see them for a source in Dir (empty: the
// current directory): the nearest .kopt.yaml, then KOPT_ variables, then the
// --kopt- flags among Args (which are removed from Args).
llvm::Expected<KoptOptions> koptOptionsFor(std::vector<std::string> &Args,
                                           llvm::StringRef Dir = "");

llvm::Expected<memory::CacheConfig> cacheConfigFrom(const KoptOptions &Options,
                                                    const GetEnvFn &GetEnv);

// The remotes of the remote_cache option, every URL checked (and its ${NAME}
// password read through GetEnv). An error names where the value came from (a
// .kopt.yaml's file:line:col, KOPT_REMOTE_CACHE or --kopt-remote-cache) and
// never shows a password.
llvm::Expected<std::vector<memory::RemoteSpec>> remoteSpecsFrom(const KoptOptions &Options,
                                                                const GetEnvFn &GetEnv);
// What follows that error where the compile goes on without the remotes.
inline constexpr llvm::StringLiteral RemotesDropped =
    "; no remote cache is used, the local caches are";

// The cache configuration kcc would use from the current directory: the
// --kopt- flags among Args (removed from Args), then KOPT_ variables, then the
// nearest .kopt.yaml.
llvm::Expected<memory::CacheConfig> cacheConfigFor(std::vector<std::string> &Args);

} // namespace kopt::driver
