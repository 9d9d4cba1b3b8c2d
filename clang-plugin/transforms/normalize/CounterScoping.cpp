// counter-scoping (a normalization, Normalization.h): a counter declared
// before its loops, `int k; ... for (k = 0; k < n; k++)`, becomes the loop's
// own, `for (int k = 0; ...)`, where nothing outside the loops that start by
// assigning it reads, writes or takes the address of it: each such loop then
// sees the same values, and the counted-loop shape (AstEdit.h) needs a
// counter its loop declares. The declaration goes where it declares k alone,
// or loses k where it declares several.
#include "clang-plugin/analysis/ast/AstWalk.h"
#include "clang-plugin/transforms/framework/AstEdit.h"
#include "clang-plugin/transforms/normalize/Normalization.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Expr.h>
#include <clang/AST/Stmt.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>
#include <clang/Rewrite/Core/Rewriter.h>

#include <llvm/ADT/StringExtras.h>

#include <map>

namespace kopt::transform {

namespace {
// The counter a for loop assigns in its init (`k = E`), where it is a plain
// integer local of the kernel.
const clang::VarDecl *assignedCounter(const clang::ForStmt &For,
                                      const clang::FunctionDecl &Kernel) {
  const auto *Init = llvm::dyn_cast_or_null<clang::BinaryOperator>(For.getInit());
  if (!Init || Init->getOpcode() != clang::BO_Assign)
    return nullptr;
  const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(Init->getLHS()->IgnoreParens());
  const auto *V = Ref ? llvm::dyn_cast<clang::VarDecl>(Ref->getDecl()) : nullptr;
  if (!V || llvm::isa<clang::ParmVarDecl>(V) || !V->isLocalVarDecl() || V->isStaticLocal() ||
      V->getDeclContext() != &Kernel || !V->getType()->isIntegerType() ||
      V->getType().isVolatileQualified() || V->getType()->isReferenceType())
    return nullptr;
  return V;
}

bool within(const clang::SourceManager &SM, clang::SourceRange Outer, clang::SourceLocation L) {
  return !SM.isBeforeInTranslationUnit(L, Outer.getBegin()) &&
         !SM.isBeforeInTranslationUnit(Outer.getEnd(), L);
}

struct Counter {
  const clang::DeclStmt *Decl = nullptr;
  std::vector<const clang::ForStmt *> Loops;
};

// Why V cannot move into Loops, or "".
std::string checkCounter(const UnitAST &U, const clang::VarDecl *V, const Counter &C) {
  const clang::SourceManager &SM = U.Ctx.getSourceManager();
  if (!C.Decl)
    return "its declaration is not a statement of the kernel";
  if (V->getInit() && V->getInit()->HasSideEffects(U.Ctx))
    return "its declaration's initializer has side effects";
  for (const clang::ForStmt *A : C.Loops)
    for (const clang::ForStmt *B : C.Loops)
      if (A != B && within(SM, A->getSourceRange(), B->getBeginLoc()))
        return "one of its loops is nested in another";
  std::string Why;
  forEachStmt(U.Kernel.getBody(), [&](const clang::Stmt *S) {
    if (const auto *Un = llvm::dyn_cast<clang::UnaryOperator>(S);
        Un && Un->getOpcode() == clang::UO_AddrOf) {
      const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(Un->getSubExpr()->IgnoreParens());
      if (Ref && Ref->getDecl() == V)
        Why = "its address is taken";
    }
    const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(S);
    if (!Ref || Ref->getDecl() != V)
      return;
    bool Inside = false;
    for (const clang::ForStmt *F : C.Loops)
      Inside = Inside || within(SM, F->getSourceRange(), Ref->getLocation());
    if (!Inside)
      Why = "it is used outside the loops that assign it first";
  });
  return Why;
}

// Takes V out of its declaration statement: the whole statement where it
// declares V alone, else V's declarator and one comma.
llvm::Error removeDeclarator(UnitAST &U, const clang::DeclStmt &Decl, const clang::VarDecl *V) {
  const clang::SourceManager &SM = U.Ctx.getSourceManager();
  const clang::LangOptions &LO = U.Ctx.getLangOpts();
  if (Decl.isSingleDecl()) {
    llvm::Expected<clang::CharSourceRange> Range = statementRange(U, Decl);
    if (!Range)
      return Range.takeError();
    U.Rewrite.RemoveText(*Range);
    return llvm::Error::success();
  }
  std::vector<const clang::Decl *> Decls(Decl.decl_begin(), Decl.decl_end());
  auto It = std::find(Decls.begin(), Decls.end(), V);
  auto EndOf = [&](const clang::Decl *D) {
    return clang::Lexer::getLocForEndOfToken(D->getEndLoc(), 0, SM, LO);
  };
  for (const clang::Decl *D : Decls)
    if (D->getLocation().isMacroID() || D->getEndLoc().isMacroID())
      return unsupported(U, Decl.getBeginLoc(), "the declaration comes from a macro");
  if (It != Decls.begin()) { // ", k" or ", k = 0" after the previous declarator.
    U.Rewrite.RemoveText(clang::CharSourceRange::getCharRange(EndOf(*std::prev(It)), EndOf(V)));
    return llvm::Error::success();
  }
  std::optional<clang::Token> Comma = clang::Lexer::findNextToken(V->getEndLoc(), SM, LO);
  if (!Comma || !Comma->is(clang::tok::comma))
    return unsupported(U, V->getLocation(), "cannot find the ',' after the declarator");
  U.Rewrite.RemoveText(clang::CharSourceRange::getCharRange(V->getLocation(), Comma->getEndLoc()));
  return llvm::Error::success();
}
} // namespace

llvm::Expected<std::string> scopeLoopCounters(UnitAST &U, const NormalizeOptions &) {
  std::map<const clang::VarDecl *, Counter> Counters;
  std::vector<const clang::VarDecl *> Order;
  forEachStmt(U.Kernel.getBody(), [&](const clang::Stmt *S) {
    if (const auto *For = llvm::dyn_cast<clang::ForStmt>(S))
      if (const clang::VarDecl *V = assignedCounter(*For, U.Kernel)) {
        if (Counters[V].Loops.empty())
          Order.push_back(V);
        Counters[V].Loops.push_back(For);
      }
    if (const auto *Decl = llvm::dyn_cast<clang::DeclStmt>(S))
      for (const clang::Decl *D : Decl->decls())
        if (const auto *V = llvm::dyn_cast<clang::VarDecl>(D))
          Counters[V].Decl = Decl; // Used only for the counters found.
  });
  std::vector<std::string> Moved;
  std::optional<llvm::Error> FirstRefusal;
  for (const clang::VarDecl *V : Order) {
    const Counter &C = Counters[V];
    std::string Why = checkCounter(U, V, C);
    if (!Why.empty()) {
      if (!FirstRefusal)
        FirstRefusal = unsupported(U, V->getLocation(),
                                   "cannot declare '" + V->getName() + "' in its loop: " + Why);
      continue;
    }
    std::string Type = typeText(V->getType(), U) + " ";
    for (const clang::ForStmt *F : C.Loops) {
      clang::SourceLocation At = F->getInit()->getBeginLoc();
      if (At.isMacroID() || U.Rewrite.InsertTextBefore(At, Type))
        return unsupported(U, F->getBeginLoc(), "the loop's init comes from a macro");
    }
    if (llvm::Error E = removeDeclarator(U, *C.Decl, V))
      return E;
    Moved.push_back(V->getNameAsString());
  }
  if (Moved.empty() && FirstRefusal)
    return std::move(*FirstRefusal);
  if (FirstRefusal)
    llvm::consumeError(std::move(*FirstRefusal));
  if (Moved.empty())
    return std::string();
  return "declared " + llvm::join(Moved, ", ") +
         (Moved.size() == 1 ? " in its loop" : " in their loops");
}

} // namespace kopt::transform
