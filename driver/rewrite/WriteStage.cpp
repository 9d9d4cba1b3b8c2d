#include "driver/rewrite/DirectManifestRecord.h"
#include "driver/rewrite/RewriteStages.h"
#include "support/TextFile.h"

namespace kopt::driver {

llvm::Error writeTu(RewriteContext &C, llvm::StringRef Rewritten) {
  if (llvm::Error E = writeTextFile(C.Request.Output, Rewritten))
    return E;
  if (!C.Request.ManifestKey.empty())
    recordManifest(C, Rewritten);
  return llvm::Error::success();
}

} // namespace kopt::driver
