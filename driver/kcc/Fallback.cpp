#include "driver/kcc/Fallback.h"

#include "driver/config/CacheConfig.h"
#include "memory/cache/CacheLayout.h"

namespace kopt::driver {

namespace {
using memory::Counter;
constexpr FallbackInfo Table[] = {
    {Fallback::NoPragma, Counter::FallbackNoPragma, "No #pragma kopt:"},
    {Fallback::ModeOff, Counter::FallbackModeOff, "Mode off:"},
    {Fallback::NotNvcc, Counter::FallbackNotNvcc, "Not nvcc:"},
    {Fallback::BadCommandLine, Counter::FallbackBadCommandLine, "Bad command line:"},
    {Fallback::NoCompile, Counter::FallbackNoCompile, "Compiles no source:"},
    {Fallback::UnreadableSource, Counter::FallbackUnreadableSource, "Unreadable source:"},
    {Fallback::FrontEnd, Counter::FallbackFrontEnd, "Front end failed:"},
    {Fallback::Rewrite, Counter::FallbackRewrite, "Rewrite failed:"},
};
} // namespace

llvm::ArrayRef<FallbackInfo> allFallbacks() { return Table; }

const FallbackInfo &infoOf(Fallback Reason) { return Table[static_cast<size_t>(Reason)]; }

void countFallback(Fallback Reason, const KoptOptions &Options, const GetEnvFn &GetEnv) {
  llvm::Expected<memory::CacheConfig> Config = cacheConfigFrom(Options, GetEnv);
  if (!Config) { // No HOME and no cache_dir: nowhere to count.
    llvm::consumeError(Config.takeError());
    return;
  }
  if (Config->ReadOnly)
    return;
  memory::CacheStats Stats(memory::statsDir(Config->UserDir));
  llvm::consumeError(Stats.add(infoOf(Reason).Counter));
}

} // namespace kopt::driver
