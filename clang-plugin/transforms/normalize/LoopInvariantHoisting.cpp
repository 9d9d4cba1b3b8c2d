// loop-invariant-hoisting (a normalization, Normalization.h): a declaration in
// a for loop's body whose value is the same in every iteration,
// `for (...) { float a = alpha * beta; int base = i * K; ... }`, moves before
// the loop. The idiom transforms copy a loop body into code where the kernel's
// other locals are out of reach; a body that reads only its operands, its
// accumulator and parameters is what they take.
//
// Only where the move cannot change a value or add a fault: the initializer
// only computes (no memory, calls or assignments; no integer division, which
// could fault where the loop would not have run), reads nothing the loop
// changes or declares, and the local is never changed; its name is declared
// nowhere else in the kernel, so the earlier declaration hides nothing.
#include "clang-plugin/analysis/ast/AstWalk.h"
#include "clang-plugin/transforms/framework/AstEdit.h"
#include "clang-plugin/transforms/normalize/Normalization.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Expr.h>
#include <clang/AST/Stmt.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Rewrite/Core/Rewriter.h>

#include <llvm/ADT/StringExtras.h>

#include <map>
#include <set>

namespace kopt::transform {

namespace {
bool dividesIntegers(const clang::Expr *E) {
  bool Found = false;
  forEachStmt(E, [&](const clang::Stmt *X) {
    const auto *B = llvm::dyn_cast<clang::BinaryOperator>(X);
    Found = Found || (B && (B->getOpcode() == clang::BO_Div || B->getOpcode() == clang::BO_Rem) &&
                      B->getType()->isIntegerType());
  });
  return Found;
}

class Hoister {
public:
  explicit Hoister(UnitAST &Unit) : U(Unit), Changed(changedVariables(U.Kernel.getBody())) {
    forEachStmt(U.Kernel.getBody(), [&](const clang::Stmt *X) {
      if (const auto *D = llvm::dyn_cast<clang::DeclStmt>(X))
        for (const clang::Decl *Each : D->decls())
          if (const auto *N = llvm::dyn_cast<clang::NamedDecl>(Each))
            ++Declared[N->getNameAsString()];
    });
    for (const clang::ParmVarDecl *P : U.Kernel.parameters())
      ++Declared[P->getNameAsString()];
  }

  // Moves the invariant declarations of For's body before it.
  llvm::Error loop(const clang::ForStmt &For) {
    const auto *Body = llvm::dyn_cast<clang::CompoundStmt>(For.getBody());
    const clang::Stmt &Whole = outermostLoopStmt(U, For);
    if (!Body || &Whole != &For) // Nothing may come between a #pragma and its loop.
      return llvm::Error::success();
    std::set<const clang::VarDecl *> InLoop = changedVariables(&For);
    std::set<const clang::VarDecl *> Moved;
    std::string Text;
    for (const clang::Stmt *S : Body->body()) {
      const auto *Decl = llvm::dyn_cast<clang::DeclStmt>(S);
      const auto *V = Decl && Decl->isSingleDecl()
                          ? llvm::dyn_cast<clang::VarDecl>(Decl->getSingleDecl())
                          : nullptr;
      if (!V || !invariant(For, *V, InLoop, Moved))
        continue;
      llvm::Expected<clang::CharSourceRange> Range = statementRange(U, *Decl);
      if (!Range) {
        llvm::consumeError(Range.takeError());
        continue;
      }
      llvm::Expected<std::string> DeclText = editedText(U, *Range, {});
      if (!DeclText)
        return DeclText.takeError();
      Text += *DeclText + " ";
      U.Rewrite.RemoveText(*Range);
      Moved.insert(V);
      Names.push_back(V->getNameAsString());
    }
    if (Moved.empty())
      return llvm::Error::success();
    llvm::Expected<clang::CharSourceRange> LoopRange = statementRange(U, For);
    if (!LoopRange)
      return LoopRange.takeError();
    // Out of a block (an if's branch), the declarations need one of their own.
    bool InBlock = llvm::isa_and_nonnull<clang::CompoundStmt>(parentOf(&For, U.Ctx));
    U.Rewrite.InsertTextBefore(LoopRange->getBegin(), (InBlock ? "" : "{ ") + Text);
    if (!InBlock)
      U.Rewrite.InsertTextAfter(LoopRange->getEnd(), " }");
    return llvm::Error::success();
  }

  std::vector<std::string> Names;

private:
  bool invariant(const clang::ForStmt &For, const clang::VarDecl &V,
                 const std::set<const clang::VarDecl *> &InLoop,
                 const std::set<const clang::VarDecl *> &Moved) const {
    const clang::Expr *Init = V.getInit();
    if (!Init || !V.getType()->isScalarType() || V.getType()->isPointerType() ||
        V.isStaticLocal() || V.getInitStyle() != clang::VarDecl::CInit ||
        V.getType().isVolatileQualified() || Changed.count(&V) || !computesOnly(Init) ||
        Init->HasSideEffects(U.Ctx) || dividesIntegers(Init) || V.getLocation().isMacroID())
      return false;
    auto It = Declared.find(V.getNameAsString());
    if (It == Declared.end() || It->second != 1)
      return false;
    const clang::SourceManager &SM = U.Ctx.getSourceManager();
    bool Reads = false;
    forEachStmt(Init, [&](const clang::Stmt *X) {
      const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(X);
      const auto *R = Ref ? llvm::dyn_cast<clang::VarDecl>(Ref->getDecl()) : nullptr;
      if (!R)
        return;
      bool DeclaredInLoop = !SM.isBeforeInTranslationUnit(R->getLocation(), For.getBeginLoc()) &&
                            SM.isBeforeInTranslationUnit(R->getLocation(), For.getEndLoc());
      Reads =
          Reads || InLoop.count(R) || R->hasGlobalStorage() || (DeclaredInLoop && !Moved.count(R));
    });
    return !Reads;
  }

  UnitAST &U;
  std::set<const clang::VarDecl *> Changed;
  std::map<std::string, unsigned> Declared;
};
} // namespace

llvm::Expected<std::string> hoistLoopInvariants(UnitAST &U, const NormalizeOptions &) {
  std::vector<const clang::ForStmt *> Loops;
  forEachStmt(U.Kernel.getBody(), [&](const clang::Stmt *S) {
    if (const auto *For = llvm::dyn_cast<clang::ForStmt>(S))
      Loops.push_back(For);
  });
  Hoister H(U);
  for (const clang::ForStmt *For : Loops)
    if (llvm::Error E = H.loop(*For))
      return E;
  if (H.Names.empty())
    return std::string();
  return "hoisted " + llvm::join(H.Names, ", ") + " out of the loop";
}

} // namespace kopt::transform
