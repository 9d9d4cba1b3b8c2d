// `kopt rewrite-tu` (kcc's front end) and `kopt apply` (the same for a user who
// wants to look at a spliced file): driver/rewrite/. Exit status of rewrite-tu:
// 0 the output is written; 1 a mistake in a `#pragma kopt` (clang-style
// diagnostics on stderr); 3 no kernel has a kopt pragma (kcc compiles the
// source as it is); 2 anything else, with one line "kopt rewrite-tu: error:
// ..." last on stderr, on which kcc compiles without kopt. apply exits 1 on
// any error.
#include "driver/Diagnostics.h"
#include "driver/commands/Subcommand.h"
#include "driver/rewrite/RewriteStages.h"

namespace kopt::driver {

namespace {
llvm::Error rewrite(const std::vector<std::string> &Args, llvm::StringRef Name,
                    const RewriteOptions &Options) {
  llvm::Expected<RewriteRequest> R = parseRewriteRequest(Args);
  if (!R)
    return failWithStatus(
        2, llvm::toString(R.takeError()) + " (usage: kopt " + Name +
               " SOURCE -o OUT [--variant FILE.json]... [--manifest KEY] [--kopt-OPTION]... "
               "[-- FLAGS])");
  return rewriteTu(std::move(*R), Options);
}

// A pragma's mistake (diagnosed already) exits UserStatus, no pragma at all
// 3, anything else KoptStatus with its message.
llvm::Error withStatus(llvm::Error E, int UserStatus, int KoptStatus) {
  return llvm::handleErrors(
      std::move(E), [&](const frontend::PragmaErrors &) { return failWithStatus(UserStatus); },
      [&](const NoKoptPragma &) { return failWithStatus(3); },
      [&](const CommandFailure &F) { return failWithStatus(KoptStatus, F.text()); },
      [&](const llvm::ErrorInfoBase &Other) {
        return failWithStatus(KoptStatus, Other.message());
      });
}
} // namespace

llvm::Error runRewriteTu(const std::vector<std::string> &Args) {
  RewriteOptions Kcc; // The defaults are kcc's.
  return withStatus(rewrite(Args, "rewrite-tu", Kcc), 1, 2);
}

llvm::Error runApply(const std::vector<std::string> &Args) {
  RewriteOptions Apply;
  Apply.Voice = "kopt";
  Apply.AnnotatedOnly = false;
  Apply.ResultCache = false;
  Apply.DevicePassesOfFlags = false;
  return withStatus(rewrite(Args, "apply", Apply), 1, 1);
}

} // namespace kopt::driver
