// kcc's direct mode, the recording side: where every annotated kernel hit the
// cache and nothing warned, a manifest of what this rewrite read and wrote, so
// that kcc can skip the parse next time (memory/cache/DirectManifest.h).
#pragma once

#include "driver/rewrite/RewriteContext.h"

namespace kopt::driver {

// Records C's manifest for the rewritten text Output, or says why not under
// --kopt-verbose. Never fails the rewrite.
void recordManifest(RewriteContext &C, llvm::StringRef Output);

} // namespace kopt::driver
