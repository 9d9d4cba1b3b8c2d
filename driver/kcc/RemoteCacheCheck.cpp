#include "driver/kcc/RemoteCacheCheck.h"

#include "driver/config/CacheConfig.h"
#include "memory/cache/OnceWarnings.h"

#include <llvm/Support/raw_ostream.h>

namespace kopt::driver {

llvm::Error checkRemoteCache(KccContext &C) {
  llvm::Expected<std::vector<memory::RemoteSpec>> Specs = remoteSpecsFrom(C.Options, C.GetEnv);
  if (Specs)
    return llvm::Error::success();
  if (C.Options.strict())
    return Specs.takeError();
  std::string Warning = llvm::toString(Specs.takeError()) + RemotesDropped.str();
  llvm::Expected<memory::CacheConfig> Cache = cacheConfigFrom(C.Options, C.GetEnv);
  bool Say = !Cache || memory::firstInBuild(Cache->UserDir, Warning);
  if (!Cache)
    llvm::consumeError(Cache.takeError());
  if (Say)
    llvm::errs() << "kcc: warning: " << Warning << "\n";
  const OptionValue &Value = C.Options.get("remote_cache");
  return C.Options.set("remote_cache", "", Value.Source, Value.Origin);
}

} // namespace kopt::driver
