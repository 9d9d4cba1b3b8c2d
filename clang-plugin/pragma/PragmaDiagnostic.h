// The diagnostics of '#pragma kopt', independent of clang: the clause parser and
// the kernel checks produce them pointing at a token of the pragma; the front end
// reports them as clang diagnostics (ClangPragmaDiagnostics.h), tests render them
// as text.
#pragma once

#include "clang-plugin/pragma/ClauseToken.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>

#include <optional>
#include <string>
#include <vector>

namespace kopt::frontend {

enum class PragmaDiagLevel : uint8_t { Error, Warning, Note };

enum class PragmaDiagKind : uint16_t {
#define KOPT_PRAGMA_DIAG(Name, Level, Format) Name,
#include "clang-plugin/pragma/PragmaDiagnosticKinds.def"
};

struct PragmaDiagnostic {
  PragmaDiagKind Kind;
  unsigned Token = 0; // Index of the token it points at, among the pragma's tokens.
  std::vector<std::string> Args;
  std::string FixIt; // Replacement text for that token (a did-you-mean), or empty.
};

PragmaDiagLevel levelOf(PragmaDiagKind K);
// The clang format string, "unknown clause '%0' ...".
llvm::StringRef formatOf(PragmaDiagKind K);
// The message with its arguments substituted.
std::string messageOf(const PragmaDiagnostic &D);
bool hasErrors(llvm::ArrayRef<PragmaDiagnostic> Diags);

// "col 12: error: message", one line each, the column taken from the tokens'
// offsets (as lexPragmaText sets them); for tests and tools.
std::string renderDiagnostics(llvm::ArrayRef<PragmaDiagnostic> Diags,
                              llvm::ArrayRef<ClauseToken> Tokens);

// The candidate closest to Word by edit distance, if close enough to suggest.
std::optional<std::string> closestSpelling(llvm::StringRef Word,
                                           llvm::ArrayRef<llvm::StringRef> Candidates);

// How a diagnostic names a token: 'text' ('c' for a character literal), or
// "end of line".
std::string describeToken(const ClauseToken &T);

} // namespace kopt::frontend
