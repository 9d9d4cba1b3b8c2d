#include "clang-plugin/transforms/framework/GuardHoisting.h"

#include "clang-plugin/analysis/ast/AstWalk.h"
#include "clang-plugin/transforms/framework/AstEdit.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Expr.h>
#include <clang/AST/Stmt.h>
#include <clang/Rewrite/Core/Rewriter.h>

#include <algorithm>

namespace kopt::transform {

namespace {
// A statement that ran under Guards before S still does: a statement in
// `if (guards) {...}`, a scalar declaration as `T v = guards ? init : T{};`.
llvm::Error keepUnderGuards(UnitAST &U, const clang::Stmt &S, const std::vector<Guard> &Guards) {
  const auto *Decl = llvm::dyn_cast<clang::DeclStmt>(&S);
  if (!Decl) {
    llvm::Expected<clang::CharSourceRange> Range = statementRange(U, S);
    if (!Range)
      return Range.takeError();
    U.Rewrite.InsertTextBefore(Range->getBegin(),
                               (llvm::Twine("if (") + conjunction(Guards) + ") {\n").str());
    U.Rewrite.InsertTextAfter(Range->getEnd(), "\n}");
    return llvm::Error::success();
  }
  // Each variable of the declaration (float xi = x[i], yi = y[i];): a number
  // or a plain struct (float4) that T{} can stand for.
  for (const clang::Decl *D : Decl->decls()) {
    const auto *V = llvm::dyn_cast<clang::VarDecl>(D);
    bool Plain = V && (V->getType()->isScalarType() ||
                       (V->getType()->isRecordType() && V->getType()->isAggregateType() &&
                        V->getType().isTriviallyCopyableType(U.Ctx)));
    if (!Plain || !V->getInit() || V->getInitStyle() != clang::VarDecl::CInit)
      return unsupported(U, S.getBeginLoc(),
                         "a declaration with effects runs under a bounds check before the loop");
    llvm::Expected<std::string> Init = exprText(U, *V->getInit());
    if (!Init)
      return Init.takeError();
    std::string Type = typeText(V->getType().getUnqualifiedType(), U);
    if (U.Rewrite.ReplaceText(
            V->getInit()->getSourceRange(),
            (llvm::Twine("(") + conjunction(Guards) + ") ? (" + *Init + ") : " + Type + "{}")
                .str()))
      return unsupported(U, S.getBeginLoc(), "cannot edit the declaration");
  }
  return llvm::Error::success();
}
} // namespace

llvm::Error addGuards(const UnitAST &U, const clang::Expr *Cond, bool Negated,
                      std::vector<Guard> &Out) {
  if (hasEffects(Cond, U.Ctx))
    return unsupported(U, Cond->getBeginLoc(), "a bounds check with side effects");
  for (const clang::Expr *Part : splitCondition(Cond, /*Or=*/Negated)) {
    llvm::Expected<std::string> Text = exprText(U, *Part);
    if (!Text)
      return Text.takeError();
    Out.push_back({Part, Negated, (Negated ? "!(" : "(") + *Text + ")"});
  }
  return llvm::Error::success();
}

llvm::Expected<std::vector<PathStep>> pathFromBody(const UnitAST &U, const clang::Stmt &S) {
  std::vector<PathStep> Path;
  const clang::Stmt *Body = U.Kernel.getBody();
  for (const clang::Stmt *Cur = &S; Cur != Body;) {
    const clang::Stmt *Parent = parentOf(Cur, U.Ctx);
    if (const auto *Block = llvm::dyn_cast_or_null<clang::CompoundStmt>(Parent))
      Path.push_back({Block, nullptr, Cur});
    else if (const auto *If = llvm::dyn_cast_or_null<clang::IfStmt>(Parent);
             If && If->getThen() == Cur && !If->getElse() && !If->getInit() &&
             !If->getConditionVariable())
      Path.push_back({nullptr, If, Cur});
    else
      return unsupported(U, Cur->getBeginLoc(),
                         "the statement is nested in something other than blocks and ifs "
                         "without else");
    Cur = Parent;
  }
  std::reverse(Path.begin(), Path.end());
  return Path;
}

std::string conjunction(const std::vector<Guard> &Guards) {
  std::string Out;
  for (const Guard &G : Guards)
    Out += (Out.empty() ? "" : " && ") + G.Text;
  return Out;
}

llvm::Expected<std::vector<Guard>> hoistOutOfGuards(UnitAST &U, const clang::Stmt &S) {
  llvm::Expected<std::vector<PathStep>> Path = pathFromBody(U, S);
  if (!Path)
    return Path.takeError();
  std::vector<Guard> Guards;
  clang::Rewriter &R = U.Rewrite;
  for (const PathStep &L : *Path) {
    if (L.If) {
      if (llvm::Error E = addGuards(U, L.If->getCond(), /*Negated=*/false, Guards))
        return E;
      // `if (cond) {...}` becomes `{...}`.
      R.RemoveText(
          clang::CharSourceRange::getCharRange(L.If->getBeginLoc(), L.Child->getBeginLoc()));
      continue;
    }
    auto It = L.Block->body_begin();
    for (; *It != L.Child; ++It) {
      if (const clang::Expr *Cond = earlyReturnCondition(**It)) {
        if (llvm::Error E = addGuards(U, Cond, /*Negated=*/true, Guards))
          return E;
        llvm::Expected<clang::CharSourceRange> Range = statementRange(U, **It);
        if (!Range)
          return Range.takeError();
        R.ReplaceText(*Range, "/* kopt: bounds check moved below */");
      } else if (inspectStmt(**It).Control) {
        return unsupported(U, (*It)->getBeginLoc(), "a thread may leave before the loop");
      } else if (!Guards.empty() && !isInertDecl(**It)) {
        if (llvm::Error E = keepUnderGuards(U, **It, Guards))
          return E;
      }
    }
    if (++It == L.Block->body_end() || Guards.empty())
      continue;
    // What follows ran only under the guards so far: it still does.
    llvm::Expected<clang::CharSourceRange> Last = statementRange(U, *L.Block->body_back());
    if (!Last)
      return Last.takeError();
    R.InsertTextBefore((*It)->getBeginLoc(), "if (" + conjunction(Guards) + ") {\n");
    R.InsertTextAfter(Last->getEnd(), "\n}");
  }
  return Guards;
}

} // namespace kopt::transform
