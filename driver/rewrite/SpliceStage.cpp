#include "driver/rewrite/RewriteStages.h"

#include "clang-plugin/pragma/PragmaText.h"
#include "support/LineDirective.h"

namespace kopt::driver {

llvm::Expected<std::string> spliceTu(const RewriteContext &C, const KernelSplices &Splices) {
  llvm::Expected<std::vector<frontend::KernelReplacement>> Inlined =
      Splices.Headers.mainFileEdits(C.Text);
  if (!Inlined)
    return Inlined.takeError();
  std::string Prelude;
  llvm::Expected<std::string> Spliced =
      frontend::spliceVariants(C.Text, C.Request.Source, Splices.InText, &Prelude, *Inlined);
  if (!Spliced)
    return Spliced.takeError();
  return Prelude + lineDirective(C.Request.Source) + frontend::blankKoptPragmas(*Spliced);
}

} // namespace kopt::driver
