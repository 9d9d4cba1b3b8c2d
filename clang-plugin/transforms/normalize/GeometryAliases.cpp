// geometry-aliases (a normalization, Normalization.h): a local that only
// names a thread-geometry value, `int tx = threadIdx.x; int by = blockIdx.y;`
// as textbooks and benchmark suites write them, is replaced at each use by
// that value (converted to the local's type, as its declaration converted
// it), and its declaration goes. `by * blockDim.y + ty` then reads as the
// global index `blockIdx.y * blockDim.y + threadIdx.y` that the idiom
// transforms match. Only where that cannot change a value: the local is never
// assigned, incremented or has its address taken, nor is a reference bound to
// it, and no use comes from a macro.
#include "clang-plugin/analysis/IndexAnalysis.h"
#include "clang-plugin/analysis/ast/AstWalk.h"
#include "clang-plugin/transforms/framework/AstEdit.h"
#include "clang-plugin/transforms/normalize/Normalization.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Expr.h>
#include <clang/AST/Stmt.h>
#include <clang/Rewrite/Core/Rewriter.h>

#include <llvm/ADT/StringExtras.h>

#include <map>
#include <set>

namespace kopt::transform {

namespace {
// The builtin (threadIdx.x, ...) that V's initializer is, or none.
std::optional<frontend::IndexBuiltin> aliasedBuiltin(const clang::VarDecl &V) {
  if (!V.getType()->isIntegerType() || !V.getInit() || V.isStaticLocal() ||
      V.getInitStyle() != clang::VarDecl::CInit || V.getType().isVolatileQualified() ||
      V.getLocation().isMacroID())
    return std::nullopt;
  return frontend::asIndexBuiltin(V.getInit()->IgnoreParenImpCasts());
}

// The variables that a reference declared in Body binds to: changing the
// reference changes them.
std::set<const clang::VarDecl *> boundByReference(const clang::Stmt *Body) {
  std::set<const clang::VarDecl *> Out;
  forEachStmt(Body, [&](const clang::Stmt *S) {
    const auto *D = llvm::dyn_cast<clang::DeclStmt>(S);
    if (!D)
      return;
    for (const clang::Decl *Each : D->decls())
      if (const auto *R = llvm::dyn_cast<clang::VarDecl>(Each);
          R && R->getType()->isReferenceType() && R->getInit())
        if (const clang::VarDecl *Target = namedVariable(R->getInit()))
          Out.insert(Target);
  });
  return Out;
}
} // namespace

llvm::Expected<std::string> inlineGeometryAliases(UnitAST &U, const NormalizeOptions &) {
  const clang::Stmt *Body = U.Kernel.getBody();
  std::set<const clang::VarDecl *> Changed = changedVariables(Body);
  std::set<const clang::VarDecl *> Referenced = boundByReference(Body);
  // Declarations whose every variable is an alias (`int tx = threadIdx.x,
  // ty = threadIdx.y;` goes as a whole).
  std::map<const clang::DeclStmt *, std::vector<const clang::VarDecl *>> Decls;
  forEachStmt(Body, [&](const clang::Stmt *S) {
    const auto *D = llvm::dyn_cast<clang::DeclStmt>(S);
    if (!D)
      return;
    std::vector<const clang::VarDecl *> Vars;
    for (const clang::Decl *Each : D->decls()) {
      const auto *V = llvm::dyn_cast<clang::VarDecl>(Each);
      if (!V || !aliasedBuiltin(*V) || Changed.count(V) || Referenced.count(V))
        return;
      Vars.push_back(V);
    }
    Decls.emplace(D, std::move(Vars));
  });
  if (Decls.empty())
    return std::string();
  std::map<const clang::VarDecl *, std::vector<const clang::DeclRefExpr *>> Uses;
  std::set<const clang::VarDecl *> FromMacro;
  forEachStmt(Body, [&](const clang::Stmt *S) {
    const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(S);
    const auto *V = Ref ? llvm::dyn_cast<clang::VarDecl>(Ref->getDecl()) : nullptr;
    if (!V || !aliasedBuiltin(*V))
      return;
    if (Ref->getLocation().isMacroID())
      FromMacro.insert(V);
    Uses[V].push_back(Ref);
  });
  std::vector<std::string> Inlined;
  for (const auto &[Decl, Vars] : Decls) {
    bool Usable = true;
    for (const clang::VarDecl *V : Vars)
      Usable = Usable && !FromMacro.count(V);
    llvm::Expected<clang::CharSourceRange> DeclRange = statementRange(U, *Decl);
    if (!DeclRange || !Usable) {
      if (!DeclRange)
        llvm::consumeError(DeclRange.takeError());
      continue;
    }
    for (const clang::VarDecl *V : Vars) {
      std::optional<frontend::IndexBuiltin> B = aliasedBuiltin(*V);
      std::string Builtin = B->Var.str() + "." + B->Component;
      // threadIdx.x is unsigned: an int alias makes `tx - 1` signed, and stays so.
      bool SameType = U.Ctx.hasSameUnqualifiedType(V->getType(),
                                                   V->getInit()->IgnoreParenImpCasts()->getType());
      std::string Text =
          SameType ? Builtin : "((" + typeText(V->getType(), U) + ")" + Builtin + ")";
      for (const clang::DeclRefExpr *Ref : Uses[V])
        if (U.Rewrite.ReplaceText(Ref->getSourceRange(), Text))
          return unsupported(U, Ref->getLocation(),
                             "cannot rewrite the uses of '" + V->getName() + "'");
      Inlined.push_back(V->getNameAsString());
    }
    U.Rewrite.RemoveText(*DeclRange);
  }
  if (Inlined.empty())
    return std::string();
  std::sort(Inlined.begin(), Inlined.end());
  return "inlined the thread geometry " + llvm::join(Inlined, ", ");
}

} // namespace kopt::transform
