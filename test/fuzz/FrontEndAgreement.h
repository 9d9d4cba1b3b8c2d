// A '#pragma kopt' text through kopt's front end, as `kopt check` and `kopt
// inspect` take it: clang parses the pragma before the fuzz kernel; what the
// check accepts, the workload that inspect reports (and optimize runs,
// driver/optimize/WorkloadFromKernel.h) must build from without an error; and
// clang's verdict is the parser's alone (PragmaInvariants.h).
#pragma once

#include <llvm/ADT/StringRef.h>

#include <string>

namespace kopt::fuzz {

struct FrontEndOutcome {
  bool Accepted = false;   // kopt check passes it.
  std::string Diagnostics; // clang's, as kopt check prints them.
  std::string Violation;   // Empty when check, inspect and the parser alone agree.
};

// Text: what follows '#pragma kopt'; one line (no '\' or '/*', which would
// take the kernel's line with them).
FrontEndOutcome checkThroughFrontEnd(llvm::StringRef Text);

} // namespace kopt::fuzz
