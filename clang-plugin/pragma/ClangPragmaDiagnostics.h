// Reports '#pragma kopt' diagnostics as clang diagnostics (custom diagnostic IDs),
// so they print as file:line:col with the source line and a caret, and count as
// errors of the parse.
#pragma once

#include "clang-plugin/pragma/PragmaDiagnostic.h"

#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/SourceLocation.h>

namespace kopt::frontend {

// Each diagnostic points at TokenLocs[D.Token], the location of its token.
void reportPragmaDiagnostics(clang::DiagnosticsEngine &Engine,
                             llvm::ArrayRef<PragmaDiagnostic> Diags,
                             llvm::ArrayRef<clang::SourceLocation> TokenLocs);

void reportPragmaDiagnostic(clang::DiagnosticsEngine &Engine, clang::SourceLocation Loc,
                            PragmaDiagKind Kind, llvm::ArrayRef<std::string> Args = {});

} // namespace kopt::frontend
