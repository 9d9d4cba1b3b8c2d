// The stages of kopt's rewrite of one translation unit (RewriteContext.h), one
// function each, and rewriteTu(), which runs them in order.
#pragma once

#include "clang-plugin/parse/KernelFinder.h"
#include "clang-plugin/units/HeaderInline.h"
#include "clang-plugin/units/VariantSplice.h"
#include "driver/rewrite/RewriteContext.h"

#include <llvm/Support/Error.h>

#include <memory>
#include <string>
#include <vector>

namespace kopt::driver {

// "SOURCE -o OUT [--variant FILE.json]... [--manifest KEY] [--kopt-OPTION]... [-- FLAGS]"
llvm::Expected<RewriteRequest> parseRewriteRequest(const std::vector<std::string> &Args);

// Options from the environment and the flags, the source read, the parse's
// setup, the device passes and the providers (the result cache opened, or
// said why not under --kopt-verbose).
llvm::Expected<std::unique_ptr<RewriteContext>> prepareRewrite(RewriteRequest Request,
                                                               RewriteOptions Options);

// clang's parse of the source. A pragma's mistake is frontend::PragmaErrors
// with clang's diagnostics printed; code clang cannot parse is an error that
// names clang's first one.
llvm::Expected<std::vector<frontend::KernelSummary>> parseTu(RewriteContext &C);

// What the look-up found: splices into the source's text, and headers whose
// copies are inlined with their kernels' variants.
struct KernelSplices {
  std::vector<frontend::VariantSplice> InText;
  frontend::HeaderInliner Headers;
};

// Each kernel's variants for the device passes. A provider or a variant that
// fails keeps the kernel's original with a warning (an error under
// --kopt-strict).
llvm::Expected<KernelSplices> lookUpVariants(RewriteContext &C,
                                             const std::vector<frontend::KernelSummary> &Kernels);

// The rewritten TU: `#line 1 "<source>"` first, the variants spliced, the
// `#pragma kopt` lines blanked.
llvm::Expected<std::string> spliceTu(const RewriteContext &C, const KernelSplices &Splices);

// Writes the output, then kcc's direct-mode manifest where one was asked for
// and may be recorded.
llvm::Error writeTu(RewriteContext &C, llvm::StringRef Rewritten);

// kcc's rewrite of a source where no kernel has a kopt pragma (kcc guessed one
// might come from a macro): nothing to write, the source compiles as it is.
class NoKoptPragma : public llvm::ErrorInfo<NoKoptPragma> {
public:
  static char ID;
  explicit NoKoptPragma(std::string Path) : Source(std::move(Path)) {}
  void log(llvm::raw_ostream &OS) const override;
  std::error_code convertToErrorCode() const override { return llvm::inconvertibleErrorCode(); }

private:
  std::string Source;
};

// The whole rewrite; NoKoptPragma where only annotated kernels take variants
// and none has a pragma.
llvm::Error rewriteTu(RewriteRequest Request, RewriteOptions Options);

} // namespace kopt::driver
