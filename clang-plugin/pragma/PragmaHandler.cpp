#include "clang-plugin/pragma/PragmaHandler.h"

#include "clang-plugin/pragma/ClangPragmaDiagnostics.h"
#include "clang-plugin/pragma/ClauseParser.h"

#include <clang/Lex/Pragma.h>
#include <clang/Lex/Preprocessor.h>

namespace kopt::frontend {

namespace {

// Registered twice in the 'kopt' namespace: as "optimize", and with an empty
// name, which clang calls for every other verb (and for a missing one).
class KoptPragmaHandler : public clang::PragmaHandler {
public:
  KoptPragmaHandler(llvm::StringRef Verb, std::shared_ptr<PragmaCollector> Pragmas)
      : clang::PragmaHandler(Verb), Collector(std::move(Pragmas)) {}

  void HandlePragma(clang::Preprocessor &PP, clang::PragmaIntroducer Introducer,
                    clang::Token &Verb) override {
    Collector->handlePragma(PP, Introducer.Loc, Verb);
  }

private:
  std::shared_ptr<PragmaCollector> Collector;
};

ClauseToken toClauseToken(clang::Preprocessor &PP, const clang::Token &T) {
  ClauseToken C;
  C.LeadingSpace = T.hasLeadingSpace();
  if (T.isOneOf(clang::tok::eod, clang::tok::eof)) {
    C.K = ClauseToken::Kind::End;
  } else if (const clang::IdentifierInfo *II = T.getIdentifierInfo()) {
    C.K = ClauseToken::Kind::Identifier; // Identifiers and keywords.
    C.Text = II->getName().str();
  } else if (const char *Punctuator = clang::tok::getPunctuatorSpelling(T.getKind())) {
    C.K = ClauseToken::Kind::Punct;
    C.Text = Punctuator; // '[' also where the source has the digraph '<:'.
  } else {
    C.K = T.is(clang::tok::numeric_constant) ? ClauseToken::Kind::Number : ClauseToken::Kind::Punct;
    C.Text = PP.getSpelling(T);
  }
  return C;
}

} // namespace

void PragmaCollector::install(clang::Preprocessor &PP) {
  PP.AddPragmaHandler("kopt", new KoptPragmaHandler("optimize", shared_from_this()));
  PP.AddPragmaHandler("kopt", new KoptPragmaHandler("", shared_from_this()));
  PP.setTokenWatcher([Self = shared_from_this()](const clang::Token &T) { Self->onToken(T); });
}

void PragmaCollector::handlePragma(clang::Preprocessor &PP, clang::SourceLocation IntroducerLoc,
                                   clang::Token &Verb) {
  // The verb as clang read it (not macro-expanded), then the clauses through the
  // preprocessor, so that macros expand as in the compiler.
  std::vector<ClauseToken> Tokens;
  std::vector<clang::SourceLocation> Locs;
  clang::Token Tok = Verb;
  while (true) {
    Tokens.push_back(toClauseToken(PP, Tok));
    Locs.push_back(Tok.getLocation());
    if (Tok.isOneOf(clang::tok::eod, clang::tok::eof))
      break;
    PP.Lex(Tok);
  }

  PragmaParseResult Parsed = parsePragma(Tokens);
  clang::DiagnosticsEngine &Diags = PP.getDiagnostics();
  reportPragmaDiagnostics(Diags, Parsed.Diagnostics, Locs);
  if (!Tokens.front().isIdentifier("optimize"))
    return; // A wrong verb, diagnosed above.

  if (WaitingForNext) {
    reportPragmaDiagnostic(Diags, IntroducerLoc, PragmaDiagKind::RepeatedPragma);
    reportPragmaDiagnostic(Diags, Occurrences.back().Loc, PragmaDiagKind::NotePreviousPragma);
    return;
  }
  PragmaOccurrence &O = Occurrences.emplace_back();
  O.Loc = IntroducerLoc;
  O.Clauses = std::move(Parsed.Clauses);
  O.TokenLocs = std::move(Locs);
  WaitingForNext = true;
}

void PragmaCollector::onToken(const clang::Token &T) {
  // Annotation tokens come from other pragmas (#pragma pack, ...): not the
  // declaration yet.
  if (!WaitingForNext || T.isAnnotation())
    return;
  Occurrences.back().Next = T.getLocation();
  Occurrences.back().NextIsEndOfFile = T.is(clang::tok::eof);
  WaitingForNext = false;
}

} // namespace kopt::frontend
