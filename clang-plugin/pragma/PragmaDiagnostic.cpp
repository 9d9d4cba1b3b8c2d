#include "clang-plugin/pragma/PragmaDiagnostic.h"

#include "support/Spelling.h"

#include <llvm/ADT/StringExtras.h>

#include <algorithm>

namespace kopt::frontend {

namespace {
struct DiagInfo {
  PragmaDiagLevel Level;
  llvm::StringLiteral Format;
};

constexpr DiagInfo Infos[] = {
#define KOPT_PRAGMA_DIAG(Name, Level, Format) {PragmaDiagLevel::Level, Format},
#include "clang-plugin/pragma/PragmaDiagnosticKinds.def"
};

const DiagInfo &infoOf(PragmaDiagKind K) { return Infos[static_cast<size_t>(K)]; }

llvm::StringRef levelName(PragmaDiagLevel L) {
  switch (L) {
  case PragmaDiagLevel::Error:
    return "error";
  case PragmaDiagLevel::Warning:
    return "warning";
  case PragmaDiagLevel::Note:
    return "note";
  }
  return "";
}
} // namespace

PragmaDiagLevel levelOf(PragmaDiagKind K) { return infoOf(K).Level; }
llvm::StringRef formatOf(PragmaDiagKind K) { return infoOf(K).Format; }

std::string messageOf(const PragmaDiagnostic &D) {
  llvm::StringRef Format = formatOf(D.Kind);
  std::string Out;
  for (size_t I = 0; I < Format.size(); ++I) {
    if (Format[I] != '%' || I + 1 == Format.size()) {
      Out.push_back(Format[I]);
      continue;
    }
    char Next = Format[++I];
    if (llvm::isDigit(Next) && size_t(Next - '0') < D.Args.size())
      Out += D.Args[Next - '0'];
    else if (Next == '%')
      Out.push_back('%');
  }
  return Out;
}

bool hasErrors(llvm::ArrayRef<PragmaDiagnostic> Diags) {
  return std::any_of(Diags.begin(), Diags.end(), [](const PragmaDiagnostic &D) {
    return levelOf(D.Kind) == PragmaDiagLevel::Error;
  });
}

std::string renderDiagnostics(llvm::ArrayRef<PragmaDiagnostic> Diags,
                              llvm::ArrayRef<ClauseToken> Tokens) {
  std::string Out;
  for (const PragmaDiagnostic &D : Diags) {
    unsigned Column = D.Token < Tokens.size() ? Tokens[D.Token].Offset + 1 : 0;
    Out += "col " + std::to_string(Column) + ": " + levelName(levelOf(D.Kind)).str() + ": " +
           messageOf(D) + "\n";
  }
  return Out;
}

std::optional<std::string> closestSpelling(llvm::StringRef Word,
                                           llvm::ArrayRef<llvm::StringRef> Candidates) {
  // Close enough: one edit in three characters (so none for words of one or two).
  unsigned Limit = unsigned(Word.size()) / 3;
  if (Limit == 0)
    return std::nullopt;
  return kopt::closestSpelling(Word, Candidates, Limit, /*IgnoreCase=*/true);
}

std::string describeToken(const ClauseToken &T) {
  if (T.is(ClauseToken::Kind::End))
    return "end of line";
  // Long tokens (an unterminated literal runs to the end of the line) are cut.
  std::string Text = T.Text.size() > 24 ? T.Text.substr(0, 20) + "..." : T.Text;
  if (llvm::StringRef(Text).starts_with("'"))
    return Text; // A character literal is quoted already.
  return "'" + Text + "'";
}

} // namespace kopt::frontend
