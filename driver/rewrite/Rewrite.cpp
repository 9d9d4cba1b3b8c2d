#include "driver/rewrite/RewriteStages.h"

#include <llvm/Support/raw_ostream.h>

namespace kopt::driver {

char NoKoptPragma::ID = 0;

void NoKoptPragma::log(llvm::raw_ostream &OS) const {
  OS << Source << ": no kernel has a #pragma kopt";
}

llvm::Error rewriteTu(RewriteRequest Request, RewriteOptions Options) {
  llvm::Expected<std::unique_ptr<RewriteContext>> C =
      prepareRewrite(std::move(Request), std::move(Options));
  if (!C)
    return C.takeError();
  llvm::Expected<std::vector<frontend::KernelSummary>> Kernels = parseTu(**C);
  if (!Kernels)
    return Kernels.takeError();
  if ((*C)->Options.AnnotatedOnly &&
      llvm::none_of(*Kernels, [](const frontend::KernelSummary &K) { return K.Pragma; }))
    return llvm::make_error<NoKoptPragma>((*C)->Request.Source);
  llvm::Expected<KernelSplices> Splices = lookUpVariants(**C, *Kernels);
  if (!Splices)
    return Splices.takeError();
  llvm::Expected<std::string> Rewritten = spliceTu(**C, *Splices);
  if (!Rewritten)
    return Rewritten.takeError();
  return writeTu(**C, *Rewritten);
}

} // namespace kopt::driver
