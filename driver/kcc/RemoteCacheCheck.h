// remote_cache checked where kcc has read its options, before anything uses
// them: a malformed URL (no scheme, an unknown attribute, a bad port, an unset
// ${NAME}) would otherwise reach kopt's side, which could not open the cache.
#pragma once

#include "driver/kcc/KccPipeline.h"

#include <llvm/Support/Error.h>

namespace kopt::driver {

// Fails on a malformed remote_cache under --kopt-strict. Otherwise warns once a
// build (memory/cache/OnceWarnings.h), naming where the value came from, and
// drops the option: the local and project caches work as without remotes.
llvm::Error checkRemoteCache(KccContext &C);

} // namespace kopt::driver
