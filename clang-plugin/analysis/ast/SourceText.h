// Source text and positions of AST nodes, as the analyses report them.
#pragma once

#include "clang-plugin/model/LaunchSite.h"

#include <string>

namespace clang {
class ASTContext;
class Expr;
class SourceRange;
class SourceLocation;
} // namespace clang

namespace kopt::frontend {

// The text of Range as written in the file; a range inside a macro expansion
// gives the macro's invocation.
std::string sourceText(clang::SourceRange Range, const clang::ASTContext &Ctx);

// E's text as written, printed after macro expansion, and its file offsets.
// Implicit conversions around E (such as to dim3) are left out.
LaunchExpr describeExpr(const clang::Expr &E, const clang::ASTContext &Ctx);

// Line and column where Loc's expansion starts (as clang reports them).
void lineAndColumn(clang::SourceLocation Loc, const clang::ASTContext &Ctx, unsigned &Line,
                   unsigned &Column);

} // namespace kopt::frontend
