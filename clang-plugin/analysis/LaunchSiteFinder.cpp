#include "clang-plugin/analysis/LaunchSiteFinder.h"

#include "clang-plugin/analysis/ast/SourceText.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/GlobalDecl.h>
#include <clang/AST/Mangle.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>

#include <algorithm>
#include <memory>

namespace kopt::frontend {

namespace {
// The kernel a launch calls: a template's pattern for an instantiation or, in
// a template's own code, for a call not resolved yet.
const clang::FunctionDecl *launchedKernel(const clang::CallExpr &Call) {
  if (const clang::FunctionDecl *FD = Call.getDirectCallee()) {
    if (const clang::FunctionTemplateDecl *T = FD->getPrimaryTemplate())
      return T->getTemplatedDecl();
    return FD;
  }
  const clang::Expr *Callee = Call.getCallee()->IgnoreImplicit();
  if (const auto *Unresolved = llvm::dyn_cast<clang::UnresolvedLookupExpr>(Callee))
    for (const clang::NamedDecl *D : Unresolved->decls()) {
      if (const auto *T = llvm::dyn_cast<clang::FunctionTemplateDecl>(D->getUnderlyingDecl()))
        return T->getTemplatedDecl();
      if (const auto *FD = llvm::dyn_cast<clang::FunctionDecl>(D->getUnderlyingDecl()))
        return FD;
    }
  return nullptr;
}

std::string templateArgsText(const clang::TemplateArgumentList &Args,
                             const clang::ASTContext &Ctx) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  for (unsigned I = 0; I < Args.size(); ++I) {
    if (I)
      OS << ", ";
    Args[I].print(Ctx.getPrintingPolicy(), OS, /*IncludeType=*/false);
  }
  return Text;
}

bool isWritten(const clang::Expr *E) { return !llvm::isa<clang::CXXDefaultArgExpr>(E); }

class LaunchVisitor : public clang::RecursiveASTVisitor<LaunchVisitor> {
public:
  LaunchVisitor(clang::ASTContext &Context, LaunchSiteIndex &Sink) : Ctx(Context), Out(Sink) {}

  bool TraverseDecl(clang::Decl *D) {
    auto *FD = llvm::dyn_cast_or_null<clang::FunctionDecl>(D);
    if (FD)
      Callers.push_back(FD);
    bool Continue = RecursiveASTVisitor::TraverseDecl(D);
    if (FD)
      Callers.pop_back();
    return Continue;
  }

  bool VisitCUDAKernelCallExpr(clang::CUDAKernelCallExpr *Call) {
    const clang::SourceManager &SM = Ctx.getSourceManager();
    if (!SM.isInMainFile(SM.getExpansionLoc(Call->getBeginLoc())))
      return true;
    const clang::FunctionDecl *Kernel = launchedKernel(*Call);
    if (!Kernel)
      return true;
    const clang::CallExpr *Config = Call->getConfig();
    if (!Config || Config->getNumArgs() < 2)
      return true;
    LaunchSite Site;
    if (!Callers.empty())
      Site.Caller = Callers.back()->getQualifiedNameAsString();
    if (const clang::FunctionDecl *Callee = Call->getDirectCallee()) {
      if (const clang::TemplateArgumentList *Args = Callee->getTemplateSpecializationArgs())
        Site.TemplateArgs = templateArgsText(*Args, Ctx);
    } else if (const auto *Unresolved =
                   llvm::dyn_cast<clang::OverloadExpr>(Call->getCallee()->IgnoreParenImpCasts())) {
      // In a template's own code: the arguments as written (T, 128).
      if (Unresolved->hasExplicitTemplateArgs()) {
        std::string Text = sourceText(
            clang::SourceRange(Unresolved->getLAngleLoc(), Unresolved->getRAngleLoc()), Ctx);
        Site.TemplateArgs = llvm::StringRef(Text).drop_front().drop_back().trim().str();
      }
    }
    lineAndColumn(Call->getBeginLoc(), Ctx, Site.Line, Site.Column);
    LaunchExpr Whole = describeExpr(*Call, Ctx);
    Site.Begin = Whole.Begin;
    Site.End = Whole.End;
    Site.Grid = describeExpr(*Config->getArg(0), Ctx);
    Site.Block = describeExpr(*Config->getArg(1), Ctx);
    if (Config->getNumArgs() > 2 && isWritten(Config->getArg(2)))
      Site.SharedMem = describeExpr(*Config->getArg(2), Ctx);
    if (Config->getNumArgs() > 3 && isWritten(Config->getArg(3)))
      Site.Stream = describeExpr(*Config->getArg(3), Ctx);
    for (const clang::Expr *Arg : Call->arguments())
      if (isWritten(Arg))
        Site.Args.push_back(describeExpr(*Arg, Ctx));
    Out[Kernel->getCanonicalDecl()].push_back(std::move(Site));
    return true;
  }

private:
  clang::ASTContext &Ctx;
  LaunchSiteIndex &Out;
  std::vector<const clang::FunctionDecl *> Callers;
};
} // namespace

LaunchSiteIndex findLaunchSites(clang::ASTContext &Ctx) {
  LaunchSiteIndex Sites;
  LaunchVisitor Visitor(Ctx, Sites);
  const clang::SourceManager &SM = Ctx.getSourceManager();
  // Only the main file's declarations: the headers hold no launches to report.
  for (clang::Decl *D : Ctx.getTranslationUnitDecl()->decls())
    if (SM.isInMainFile(SM.getExpansionLoc(D->getLocation())))
      Visitor.TraverseDecl(D);
  for (auto &Entry : Sites)
    std::stable_sort(Entry.second.begin(), Entry.second.end(),
                     [](const LaunchSite &A, const LaunchSite &B) { return A.Begin < B.Begin; });
  return Sites;
}

std::string kernelSymbol(const clang::FunctionDecl &Kernel, clang::ASTContext &Ctx) {
  std::unique_ptr<clang::MangleContext> Mangler(Ctx.createMangleContext());
  std::string Symbol;
  llvm::raw_string_ostream OS(Symbol);
  if (!Mangler->shouldMangleDeclName(&Kernel)) // extern "C": the symbol is the name.
    return Kernel.getName().str();
  Mangler->mangleName(clang::GlobalDecl(&Kernel, clang::KernelReferenceKind::Kernel), OS);
  return Symbol;
}

std::vector<KernelInstantiation> findInstantiations(const clang::FunctionDecl &Kernel,
                                                    clang::ASTContext &Ctx) {
  std::vector<KernelInstantiation> Out;
  const clang::FunctionTemplateDecl *Template = Kernel.getDescribedFunctionTemplate();
  if (!Template)
    return Out;
  for (const clang::FunctionDecl *Spec : Template->specializations()) {
    if (!Spec->isTemplateInstantiation())
      continue; // Explicit specializations are kernels of their own.
    KernelInstantiation I;
    if (const clang::TemplateArgumentList *Args = Spec->getTemplateSpecializationArgs()) {
      I.TemplateArgs = templateArgsText(*Args, Ctx);
      const clang::TemplateParameterList &Params = *Template->getTemplateParameters();
      for (unsigned A = 0; A < Args->size() && A < Params.size(); ++A)
        if (Args->get(A).getKind() == clang::TemplateArgument::Integral)
          I.Values[Params.getParam(A)->getNameAsString()] =
              Args->get(A).getAsIntegral().getExtValue();
    }
    I.MangledName = kernelSymbol(*Spec, Ctx);
    Out.push_back(std::move(I));
  }
  return Out;
}

} // namespace kopt::frontend
