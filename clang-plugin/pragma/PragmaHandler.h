// Reads '#pragma kopt ...' lines while clang preprocesses a translation unit.
// The pragma applies to the next declaration; which one that is is only known
// after parsing (see PragmaAttacher.h), so the collector records, for each
// pragma, the location of the first token after it that reaches the parser.
#pragma once

#include "clang-plugin/model/PragmaClauses.h"

#include <clang/Basic/SourceLocation.h>

#include <memory>
#include <optional>
#include <vector>

namespace clang {
class Preprocessor;
class Token;
} // namespace clang

namespace kopt::frontend {

// One '#pragma kopt optimize' of the translation unit.
struct PragmaOccurrence {
  clang::SourceLocation Loc;  // The '#' or '_Pragma'.
  clang::SourceLocation Next; // The first token after the pragma.
  bool NextIsEndOfFile = false;
  std::optional<PragmaClauses> Clauses;         // Empty when the clauses had errors.
  std::vector<clang::SourceLocation> TokenLocs; // Of the verb, the clauses, the end.
};

class PragmaCollector : public std::enable_shared_from_this<PragmaCollector> {
public:
  // Registers the 'kopt' pragma namespace ('optimize', and a handler that
  // diagnoses unknown verbs) and a token watcher with PP. PP owns the handlers;
  // they share ownership of the collector.
  void install(clang::Preprocessor &PP);

  // In source order; pragmas that were diagnosed as misplaced on the spot (a
  // second pragma before one declaration) or had a wrong verb are not here.
  const std::vector<PragmaOccurrence> &occurrences() const { return Occurrences; }

  // For the handlers: reads the rest of the pragma line after Verb.
  void handlePragma(clang::Preprocessor &PP, clang::SourceLocation IntroducerLoc,
                    clang::Token &Verb);

private:
  void onToken(const clang::Token &T);

  std::vector<PragmaOccurrence> Occurrences;
  bool WaitingForNext = false; // The last occurrence has not seen its next token.
};

} // namespace kopt::frontend
