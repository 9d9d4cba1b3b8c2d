// What must hold for any '#pragma kopt' text, valid or not: the parser ends with
// clauses or with at least one error, diagnostics point at real tokens and have
// complete messages, and accepted clauses can be checked and evaluated.
#pragma once

#include "clang-plugin/pragma/PragmaDiagnostic.h"

#include <llvm/ADT/StringRef.h>

#include <optional>

#include <string>

namespace kopt::fuzz {

struct CaseOutcome {
  bool Accepted = false;    // Parsed, and no error against the fuzz kernel.
  std::string FirstProblem; // The first diagnostic's message, or empty.
  std::optional<frontend::PragmaDiagKind> FirstKind;
  std::string Violation; // Empty when every invariant holds.
};

// Text: what follows '#pragma kopt'. Checks against fuzzKernelParams().
CaseOutcome checkPragmaText(llvm::StringRef Text);

} // namespace kopt::fuzz
