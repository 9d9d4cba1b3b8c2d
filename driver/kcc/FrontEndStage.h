// kcc's front-end stage: runs `kopt rewrite-tu` (kopt, beside kcc, links clang;
// kcc does not) to write the rewritten TU of one annotated source. kcc stays
// without clang; the front end's cost is paid only on the rewrite path.
#pragma once

#include "driver/config/KoptOptions.h"

#include <llvm/ADT/StringRef.h>

#include <string>
#include <utility>
#include <vector>

namespace kopt::driver {

enum class FrontEndOutcome {
  Rewritten,   // The output holds the TU with variants spliced.
  UserError,   // A mistake in a `#pragma kopt`, diagnosed on stderr: the compile fails.
  NoPragma,    // No kernel has a kopt pragma: the source compiles as it is.
  Unavailable, // kopt missing, crashed, or clang cannot parse the TU: Why says which.
};

struct FrontEndResult {
  FrontEndOutcome Outcome = FrontEndOutcome::Unavailable;
  std::string Why;
};

// The kopt binary: $KOPT_TOOL if set, else kopt in kcc's own bin directory.
std::string koptToolPath(const GetEnvFn &GetEnv);

// The options kopt's side reads (the rest are kcc's own), as "key", value.
std::vector<std::pair<std::string, std::string>> frontEndOptions(const KoptOptions &Options);

// The command line of `kopt rewrite-tu` for Source: kcc's resolved options
// that the front end and the providers read (those set by the user, not the
// defaults), then `--` and the compile's flags.
// With ManifestKey, a rewrite whose kernels all hit the cache records a
// direct-mode manifest under that key (driver/kcc/DirectMode.h).
std::vector<std::string> rewriteTuCommand(const std::string &Kopt, const KoptOptions &Options,
                                          llvm::StringRef Source, llvm::StringRef Output,
                                          const std::vector<std::string> &CompileFlags,
                                          llvm::StringRef ManifestKey = "");

// Options that may hold a secret (remote_cache, queue: URLs with a password) reach
// kopt through its environment, never its command line, which `ps` shows: sets
// their KOPT_ variables in this process to the resolved values.
void passSecretOptions(const KoptOptions &Options);

// Runs it; kopt's notes and diagnostics pass through to stderr. An exit
// status 1 is the user's mistake only where kopt printed an error diagnostic;
// else kopt failed (Unavailable), and Why says how.
FrontEndResult runFrontEnd(const std::string &Kopt, const std::vector<std::string> &Argv);

} // namespace kopt::driver
