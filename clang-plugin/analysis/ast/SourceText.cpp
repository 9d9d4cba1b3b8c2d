#include "clang-plugin/analysis/ast/SourceText.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>

namespace kopt::frontend {

namespace {
clang::CharSourceRange fileRange(clang::SourceRange Range, const clang::ASTContext &Ctx) {
  const clang::SourceManager &SM = Ctx.getSourceManager();
  clang::CharSourceRange Tokens = clang::CharSourceRange::getTokenRange(Range);
  clang::CharSourceRange File = clang::Lexer::makeFileCharRange(Tokens, SM, Ctx.getLangOpts());
  if (File.isValid())
    return File;
  // Parts of the range come from different macro arguments or expansions:
  // take the invocations that hold them.
  clang::CharSourceRange Expansion = SM.getExpansionRange(Range);
  return clang::Lexer::makeFileCharRange(Expansion, SM, Ctx.getLangOpts());
}

// E without implicit conversions, temporaries and the implicit construction
// of a class (dim3) from a single value.
const clang::Expr *withoutImplicit(const clang::Expr *E) {
  while (true) {
    E = E->IgnoreImplicit();
    const auto *Construct = llvm::dyn_cast<clang::CXXConstructExpr>(E);
    if (!Construct || llvm::isa<clang::CXXTemporaryObjectExpr>(Construct) ||
        Construct->getNumArgs() != 1)
      return E;
    E = Construct->getArg(0);
  }
}
} // namespace

std::string sourceText(clang::SourceRange Range, const clang::ASTContext &Ctx) {
  clang::CharSourceRange File = fileRange(Range, Ctx);
  if (File.isInvalid())
    return "";
  return clang::Lexer::getSourceText(File, Ctx.getSourceManager(), Ctx.getLangOpts()).str();
}

LaunchExpr describeExpr(const clang::Expr &Written, const clang::ASTContext &Ctx) {
  const clang::Expr *E = withoutImplicit(&Written);
  LaunchExpr Out;
  clang::CharSourceRange File = fileRange(E->getSourceRange(), Ctx);
  if (File.isValid()) {
    const clang::SourceManager &SM = Ctx.getSourceManager();
    Out.Text = clang::Lexer::getSourceText(File, SM, Ctx.getLangOpts()).str();
    Out.Begin = SM.getFileOffset(File.getBegin());
    Out.End = SM.getFileOffset(File.getEnd());
  }
  llvm::raw_string_ostream OS(Out.Expanded);
  E->printPretty(OS, nullptr, Ctx.getPrintingPolicy());
  return Out;
}

void lineAndColumn(clang::SourceLocation Loc, const clang::ASTContext &Ctx, unsigned &Line,
                   unsigned &Column) {
  const clang::SourceManager &SM = Ctx.getSourceManager();
  clang::PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(Loc));
  Line = P.isValid() ? P.getLine() : 0;
  Column = P.isValid() ? P.getColumn() : 0;
}

} // namespace kopt::frontend
