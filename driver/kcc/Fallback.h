// kcc's reasons to compile without kopt. ccache counts each reason it does not
// cache; kcc counts each reason it hands a compile to the real compiler as
// written (or, where kopt's side failed, with the pragmas blanked only), in
// the result cache's statistics (memory/cache/CacheStats.h), which
// `kopt cache stats` and `kopt cache -s` show.
#pragma once

#include "driver/config/KoptOptions.h"
#include "memory/cache/CacheStats.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>

namespace kopt::driver {

enum class Fallback {
  NoPragma,         // No CUDA source has a `#pragma kopt` (the fast path).
  ModeOff,          // --kopt-mode=off, KOPT_MODE=off or mode: off.
  NotNvcc,          // The compiler (launcher form) is not nvcc.
  BadCommandLine,   // nvcc's command line does not parse: nvcc says why.
  NoCompile,        // The mode compiles no source: -E, -M, a link of objects.
  UnreadableSource, // A source cannot be read: nvcc says why.
  FrontEnd,         // kopt's front end is missing, failed or cannot parse the
                    // source: compiled with the pragmas blanked.
  Rewrite,          // kcc's rewrite failed before the compile: the original.
};

struct FallbackInfo {
  Fallback Reason;
  memory::Counter Counter; // Its statistics counter ("fallback_...").
  llvm::StringRef Summary; // Its line in `kopt cache -s`.
};

// Every reason, in the enum's order.
llvm::ArrayRef<FallbackInfo> allFallbacks();
const FallbackInfo &infoOf(Fallback Reason);

// Adds one to Reason's counter in the user cache the options name (nothing
// where there is none or it is read only). Best effort: never fails a compile.
void countFallback(Fallback Reason, const KoptOptions &Options, const GetEnvFn &GetEnv);

} // namespace kopt::driver
