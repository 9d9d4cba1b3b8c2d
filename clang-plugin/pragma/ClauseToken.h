// The tokens of a '#pragma kopt' line after 'kopt', as the clause parser sees
// them. The front end makes them from clang's preprocessor (macros expanded);
// lexPragmaText makes them from a string, for tests and fuzzing, splitting text
// the way clang's lexer does (pp-numbers such as 60s or 1e-5 are one token).
#pragma once

#include <llvm/ADT/StringRef.h>

#include <string>
#include <vector>

namespace kopt::frontend {

struct ClauseToken {
  enum class Kind : uint8_t {
    Identifier, // Also C++ keywords.
    Number,     // A pp-number: 42, 0x10, 1e-5, 60s.
    Punct,      // Punctuators ('(', '<<', ...) and anything else (string literals, '@').
    End,        // The end of the pragma line; always the last token.
  };
  Kind K = Kind::End;
  std::string Text;          // The spelling; punctuators as such, '[' for the digraph '<:'.
  bool LeadingSpace = false; // Whitespace before it (for the expression text).
  unsigned Offset = 0;       // Byte offset in the text given to lexPragmaText.

  bool is(Kind Other) const { return K == Other; }
  bool isPunct(llvm::StringRef P) const { return K == Kind::Punct && Text == P; }
  bool isIdentifier(llvm::StringRef Name) const { return K == Kind::Identifier && Text == Name; }
};

// Splits Text (what follows '#pragma kopt' on a line, without macro expansion)
// into tokens ending with an End token. Comments are skipped; never fails.
std::vector<ClauseToken> lexPragmaText(llvm::StringRef Text);

} // namespace kopt::frontend
