#include "clang-plugin/pragma/ClauseToken.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/ADT/StringSwitch.h>

namespace kopt::frontend {

namespace {

bool isIdentifierStart(char C) { return llvm::isAlpha(C) || C == '_' || C == '$'; }
bool isIdentifierBody(char C) { return llvm::isAlnum(C) || C == '_' || C == '$'; }

// C++ punctuators of more than one character, longest first.
constexpr llvm::StringLiteral MultiCharPunctuators[] = {
    "%:%:", "<<=", ">>=", "...", "->*", "<=>", "<<", ">>", "==", "!=", "<=",
    ">=",   "&&",  "||",  "++",  "--",  "->",  "::", "+=", "-=", "*=", "/=",
    "%=",   "&=",  "|=",  "^=",  "##",  ".*",  ":>", "<%", "%>", "%:"};

// Digraphs and the punctuators they stand for (clang reads them as those).
llvm::StringRef undigraph(llvm::StringRef P) {
  return llvm::StringSwitch<llvm::StringRef>(P)
      .Case("<:", "[")
      .Case(":>", "]")
      .Case("<%", "{")
      .Case("%>", "}")
      .Case("%:", "#")
      .Case("%:%:", "##")
      .Default(P);
}

class TextLexer {
public:
  explicit TextLexer(llvm::StringRef Source) : Text(Source) {}

  std::vector<ClauseToken> run() {
    std::vector<ClauseToken> Tokens;
    bool Space = false;
    while (Pos < Text.size()) {
      char C = Text[Pos];
      if (llvm::isSpace(C)) {
        ++Pos;
        Space = true;
        continue;
      }
      if (Text.substr(Pos).starts_with("//"))
        break;
      if (Text.substr(Pos).starts_with("/*")) {
        size_t Close = Text.find("*/", Pos + 2);
        Pos = Close == llvm::StringRef::npos ? Text.size() : Close + 2;
        Space = true;
        continue;
      }
      size_t Start = Pos;
      ClauseToken::Kind K = lexOne();
      llvm::StringRef Spelling = Text.slice(Start, Pos);
      if (K == ClauseToken::Kind::Punct)
        Spelling = undigraph(Spelling);
      Tokens.push_back({K, Spelling.str(), Space, unsigned(Start)});
      Space = false;
    }
    Tokens.push_back({ClauseToken::Kind::End, "", Space, unsigned(Text.size())});
    return Tokens;
  }

private:
  // Advances over one token starting at Pos and says what it is.
  ClauseToken::Kind lexOne() {
    char C = Text[Pos];
    if (isIdentifierStart(C)) {
      while (Pos < Text.size() && isIdentifierBody(Text[Pos]))
        ++Pos;
      return ClauseToken::Kind::Identifier;
    }
    if (llvm::isDigit(C) || (C == '.' && Pos + 1 < Text.size() && llvm::isDigit(Text[Pos + 1]))) {
      lexPPNumber();
      return ClauseToken::Kind::Number;
    }
    if (C == '"' || C == '\'') {
      lexQuoted(C);
      return ClauseToken::Kind::Punct;
    }
    llvm::StringRef Rest = Text.substr(Pos);
    // Digraphs, which clang reads as the punctuators they stand for; '<::' is
    // '<' '::' unless followed by ':' or '>'.
    if (Rest.starts_with("<:") &&
        !(Rest.starts_with("<::") && !Rest.starts_with("<:::") && !Rest.starts_with("<::>"))) {
      Pos += 2;
      return ClauseToken::Kind::Punct;
    }
    for (llvm::StringRef P : MultiCharPunctuators)
      if (Rest.starts_with(P)) {
        Pos += P.size();
        return ClauseToken::Kind::Punct;
      }
    ++Pos;
    return ClauseToken::Kind::Punct;
  }

  // pp-number: digit or .digit, then digits, letters, '_', '.', digit separators
  // and exponent signs (e+, E-, p+, P-).
  void lexPPNumber() {
    ++Pos;
    while (Pos < Text.size()) {
      char C = Text[Pos];
      char Prev = Text[Pos - 1];
      if ((C == '+' || C == '-') && llvm::StringRef("eEpP").contains(Prev)) {
        ++Pos;
      } else if (C == '\'' && Pos + 1 < Text.size() && isIdentifierBody(Text[Pos + 1])) {
        Pos += 2;
      } else if (isIdentifierBody(C) || C == '.') {
        ++Pos;
      } else {
        break;
      }
    }
  }

  void lexQuoted(char Quote) {
    ++Pos;
    while (Pos < Text.size() && Text[Pos] != Quote)
      Pos += Text[Pos] == '\\' && Pos + 1 < Text.size() ? 2 : 1;
    if (Pos < Text.size())
      ++Pos;
  }

  llvm::StringRef Text;
  size_t Pos = 0;
};

} // namespace

std::vector<ClauseToken> lexPragmaText(llvm::StringRef Text) { return TextLexer(Text).run(); }

} // namespace kopt::frontend
