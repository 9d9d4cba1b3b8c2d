#include "clang-plugin/pragma/ClangPragmaDiagnostics.h"

#include <clang/Basic/DiagnosticIDs.h>
#include <clang/Basic/SourceManager.h>

#include <algorithm>
#include <string>

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

// clang prints no source line longer than this (TextDiagnostic's limit), so a
// diagnostic in a longer pragma line (a generated sum of thousands of terms)
// would come without its line and caret.
constexpr size_t LongestLineClangShows = 4096;
constexpr size_t ExcerptHalf = 60;

// For a diagnostic at Loc in such a line: a note with the part of the line
// around it and a caret.
void noteLongLineExcerpt(clang::DiagnosticsEngine &Engine, clang::SourceLocation Loc) {
  if (Loc.isInvalid() || !Engine.hasSourceManager())
    return;
  const clang::SourceManager &SM = Engine.getSourceManager();
  clang::SourceLocation At = SM.getExpansionLoc(Loc);
  auto [File, Offset] = SM.getDecomposedLoc(At);
  bool Invalid = false;
  llvm::StringRef Text = SM.getBufferData(File, &Invalid);
  if (Invalid || Offset > Text.size())
    return;
  size_t Start = Text.take_front(Offset).find_last_of("\r\n");
  Start = Start == llvm::StringRef::npos ? 0 : Start + 1;
  size_t End = std::min(Text.find_first_of("\r\n", Offset), Text.size());
  if (End - Start <= LongestLineClangShows)
    return;
  size_t From = Offset - Start > ExcerptHalf ? Offset - ExcerptHalf : Start;
  size_t To = std::min(End, Offset + ExcerptHalf);
  std::string Lead = From > Start ? "..." : "";
  std::string Excerpt = Lead + Text.slice(From, To).str() + (To < End ? "..." : "");
  std::string Caret = std::string(Lead.size() + Offset - From, ' ') + "^";
  unsigned Note = Engine.getDiagnosticIDs()->getCustomDiagID(
      clang::DiagnosticIDs::Note, "the line is %0 columns long, more than clang shows; at "
                                  "column %1:\n    %2\n    %3");
  Engine.Report(At, Note) << std::to_string(End - Start) << std::to_string(Offset - Start + 1)
                          << Excerpt << Caret;
}

void report(clang::DiagnosticsEngine &Engine, clang::SourceLocation Loc, PragmaDiagKind Kind,
            llvm::ArrayRef<std::string> Args, llvm::StringRef FixIt) {
  {
    clang::DiagnosticBuilder Builder = Engine.Report(Loc, customDiagID(Engine, Kind));
    for (const std::string &A : Args)
      Builder << A;
    if (!FixIt.empty() && Loc.isFileID())
      Builder << clang::FixItHint::CreateReplacement(clang::CharSourceRange::getTokenRange(Loc),
                                                     FixIt);
  } // Emitted here, before its note.
  noteLongLineExcerpt(Engine, Loc);
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
