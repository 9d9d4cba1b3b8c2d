// index-inlining (a normalization, Normalization.h): an integer local that a
// loop body declares only to index memory, `int ia = i * K + k; ... A[ia]`,
// is replaced in each subscript by its initializer, and its declaration goes:
// the idiom transforms then see A[(i * K + k)] as one operand of the loop.
// Only where that cannot change a value: the initializer reads no memory,
// calls nothing and assigns nothing, nothing in the loop body assigns what it
// reads, and the local itself is never assigned nor its address taken.
#include "clang-plugin/analysis/ast/AstWalk.h"
#include "clang-plugin/transforms/framework/AstEdit.h"
#include "clang-plugin/transforms/normalize/Normalization.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Expr.h>
#include <clang/AST/Stmt.h>
#include <clang/Rewrite/Core/Rewriter.h>

#include <llvm/ADT/StringExtras.h>

#include <set>

namespace kopt::transform {

namespace {
// The uses of V under Root, or empty where one is not inside a subscript's index.
std::vector<const clang::DeclRefExpr *> indexUses(const clang::Stmt *Root,
                                                  const clang::VarDecl *V) {
  std::vector<const clang::DeclRefExpr *> All;
  std::set<const clang::DeclRefExpr *> InIndex;
  forEachStmt(Root, [&](const clang::Stmt *X) {
    if (const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(X); Ref && Ref->getDecl() == V)
      All.push_back(Ref);
    if (const auto *Sub = llvm::dyn_cast<clang::ArraySubscriptExpr>(X))
      forEachStmt(Sub->getIdx(), [&](const clang::Stmt *Y) {
        if (const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(Y); Ref && Ref->getDecl() == V)
          InIndex.insert(Ref);
      });
  });
  for (const clang::DeclRefExpr *Ref : All)
    if (!InIndex.count(Ref))
      return {};
  return All;
}

// The local that Decl (a statement of Body) declares, where it can be inlined.
const clang::VarDecl *inlinable(const UnitAST &U, const clang::DeclStmt &Decl,
                                const clang::Stmt &Body,
                                const std::set<const clang::VarDecl *> &ChangedInBody,
                                const std::set<const clang::VarDecl *> &ChangedInKernel) {
  const auto *V =
      Decl.isSingleDecl() ? llvm::dyn_cast<clang::VarDecl>(Decl.getSingleDecl()) : nullptr;
  if (!V || !V->getType()->isIntegerType() || !V->getInit() || V->isStaticLocal() ||
      V->getInitStyle() != clang::VarDecl::CInit || V->getType().isVolatileQualified() ||
      ChangedInKernel.count(V) || !computesOnly(V->getInit()) ||
      V->getInit()->HasSideEffects(U.Ctx) || V->getLocation().isMacroID())
    return nullptr;
  bool ReadsChanged = false;
  std::set<std::string> Names;
  std::set<const clang::VarDecl *> Read;
  forEachStmt(V->getInit(), [&](const clang::Stmt *X) {
    if (const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(X))
      if (const auto *R = llvm::dyn_cast<clang::VarDecl>(Ref->getDecl())) {
        ReadsChanged = ReadsChanged || ChangedInBody.count(R) || R->hasGlobalStorage();
        Names.insert(R->getNameAsString());
        Read.insert(R);
      }
  });
  // Another declaration in the body could hide a name the initializer reads.
  forEachStmt(&Body, [&](const clang::Stmt *X) {
    if (const auto *D = llvm::dyn_cast<clang::DeclStmt>(X))
      for (const clang::Decl *Each : D->decls())
        if (const auto *N = llvm::dyn_cast<clang::VarDecl>(Each))
          ReadsChanged = ReadsChanged || (Names.count(N->getNameAsString()) && !Read.count(N));
  });
  if (ReadsChanged)
    return nullptr;
  return indexUses(&Body, V).empty() ? nullptr : V;
}
} // namespace

llvm::Expected<std::string> inlineIndexLocals(UnitAST &U, const NormalizeOptions &) {
  std::set<const clang::VarDecl *> ChangedInKernel = changedVariables(U.Kernel.getBody());
  std::vector<std::string> Inlined;
  std::vector<const clang::ForStmt *> Loops;
  forEachStmt(U.Kernel.getBody(), [&](const clang::Stmt *S) {
    if (const auto *For = llvm::dyn_cast<clang::ForStmt>(S))
      Loops.push_back(For);
  });
  std::set<const clang::Stmt *> Edited; // Bodies already edited: one pass a loop nest.
  for (const clang::ForStmt *For : Loops) {
    const auto *Body = llvm::dyn_cast<clang::CompoundStmt>(For->getBody());
    if (!Body)
      continue;
    bool Nested = false;
    for (const clang::Stmt *Done : Edited)
      forEachStmt(Done, [&](const clang::Stmt *X) { Nested = Nested || X == Body; });
    if (Nested)
      continue;
    std::set<const clang::VarDecl *> ChangedInBody = changedVariables(Body);
    for (const clang::Stmt *S : Body->body()) {
      const auto *Decl = llvm::dyn_cast<clang::DeclStmt>(S);
      const clang::VarDecl *V =
          Decl ? inlinable(U, *Decl, *Body, ChangedInBody, ChangedInKernel) : nullptr;
      if (!V)
        continue;
      llvm::Expected<std::string> Init = exprText(U, *V->getInit());
      llvm::Expected<clang::CharSourceRange> DeclRange = statementRange(U, *Decl);
      if (!Init || !DeclRange) {
        llvm::consumeError(Init.takeError());
        llvm::consumeError(DeclRange.takeError());
        continue;
      }
      // The initializer converted as the declaration converted it.
      bool SameType = U.Ctx.hasSameUnqualifiedType(V->getType(),
                                                   V->getInit()->IgnoreParenImpCasts()->getType());
      std::string Text =
          SameType ? "(" + *Init + ")" : "((" + typeText(V->getType(), U) + ")(" + *Init + "))";
      bool Failed = false;
      for (const clang::DeclRefExpr *Ref : indexUses(Body, V))
        Failed = Failed || Ref->getLocation().isMacroID() ||
                 U.Rewrite.ReplaceText(Ref->getSourceRange(), Text);
      if (Failed)
        return unsupported(U, V->getLocation(),
                           "cannot rewrite the uses of '" + V->getName() + "'");
      U.Rewrite.RemoveText(*DeclRange);
      Inlined.push_back(V->getNameAsString());
      Edited.insert(Body);
    }
  }
  if (Inlined.empty())
    return std::string();
  return "inlined the index " + llvm::join(Inlined, ", ");
}

} // namespace kopt::transform
