// Parses what follows '#pragma kopt': the verb and the clauses (grammar in
// PragmaClauses.h). Works on tokens, so the same parser serves clang's
// preprocessor and plain strings.
#pragma once

#include "clang-plugin/model/PragmaClauses.h"
#include "clang-plugin/pragma/ClauseToken.h"
#include "clang-plugin/pragma/PragmaDiagnostic.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/Support/Error.h>

#include <optional>
#include <vector>

namespace kopt::frontend {

// Limits on one expression: parentheses, unary operators, casts, calls and
// ?: nested at most MaxExprNesting deep (the parser's recursion), and at most
// MaxExprNodes literals, names and operators in all, which also bounds the
// tree's height (a flat 1 + 1 + ... + 1 is a chain that deep) and so the
// recursion of everything that walks it.
inline constexpr unsigned MaxExprNesting = 256;
inline constexpr unsigned MaxExprNodes = 1024;

struct PragmaParseResult {
  std::optional<PragmaClauses> Clauses; // Set when no error was found.
  std::vector<PragmaDiagnostic> Diagnostics;
};

// Tokens: the verb, then the clauses; an End token is assumed after the last.
// Errors are reported, never thrown or asserted; after an error in a clause the
// parser goes on with the next clause, so one pragma can give several errors.
PragmaParseResult parsePragma(llvm::ArrayRef<ClauseToken> Tokens);

// lexPragmaText, then parsePragma: Text is "optimize launch(...) ...".
PragmaParseResult parsePragmaText(llvm::StringRef Text);

// One integer expression of the clause grammar (ClauseExpr.h) from text, as a
// launch mapping holds it: "(grid_x * block_x + 127) / 128". Fails with the
// parser's diagnostics, columns counted in Text.
llvm::Expected<ClauseExpr> parseExprText(llvm::StringRef Text);

} // namespace kopt::frontend
