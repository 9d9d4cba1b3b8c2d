#include "clang-plugin/pragma/ClangPragmaDiagnostics.h"

#include <clang/Basic/DiagnosticIDs.h>

namespace kopt::frontend {

namespace {

unsigned customDiagID(clang::DiagnosticsEngine &Engine, PragmaDiagKind Kind) {
  clang::DiagnosticIDs::Level Level = clang::DiagnosticIDs::Error;
  switch (levelOf(Kind)) {
  case PragmaDiagLevel::Error:
    break;
  case PragmaDiagLevel::Warning:
    Level = clang::DiagnosticIDs::Warning;
    break;
  case PragmaDiagLevel::Note:
    Level = clang::DiagnosticIDs::Note;
    break;
  }
  // The same (level, format) pair always gives the same ID.
  return Engine.getDiagnosticIDs()->getCustomDiagID(Level, formatOf(Kind));
}

void report(clang::DiagnosticsEngine &Engine, clang::SourceLocation Loc, PragmaDiagKind Kind,
            llvm::ArrayRef<std::string> Args, llvm::StringRef FixIt) {
  clang::DiagnosticBuilder Builder = Engine.Report(Loc, customDiagID(Engine, Kind));
  for (const std::string &A : Args)
    Builder << A;
  if (!FixIt.empty() && Loc.isFileID())
    Builder << clang::FixItHint::CreateReplacement(clang::CharSourceRange::getTokenRange(Loc),
                                                   FixIt);
}

} // namespace

void reportPragmaDiagnostics(clang::DiagnosticsEngine &Engine,
                             llvm::ArrayRef<PragmaDiagnostic> Diags,
                             llvm::ArrayRef<clang::SourceLocation> TokenLocs) {
  for (const PragmaDiagnostic &D : Diags) {
    clang::SourceLocation Loc =
        D.Token < TokenLocs.size() ? TokenLocs[D.Token] : clang::SourceLocation();
    report(Engine, Loc, D.Kind, D.Args, D.FixIt);
  }
}

void reportPragmaDiagnostic(clang::DiagnosticsEngine &Engine, clang::SourceLocation Loc,
                            PragmaDiagKind Kind, llvm::ArrayRef<std::string> Args) {
  report(Engine, Loc, Kind, Args, {});
}

} // namespace kopt::frontend
