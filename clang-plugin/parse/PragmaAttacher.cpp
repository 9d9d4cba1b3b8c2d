#include "clang-plugin/parse/PragmaAttacher.h"

#include "clang-plugin/analysis/Enumerators.h"
#include "clang-plugin/analysis/LaunchSiteFinder.h"
#include "clang-plugin/analysis/ParamDescription.h"
#include "clang-plugin/model/ClauseConstants.h"
#include "clang-plugin/model/KernelFeatures.h"
#include "clang-plugin/pragma/ClangPragmaDiagnostics.h"
#include "clang-plugin/pragma/KernelBinding.h"
#include "clang-plugin/pragma/SkillIds.h"
#include "clang-plugin/pragma/WorkloadCheck.h"
#include "clang-plugin/units/TemplateSpecialization.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/Decl.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>

namespace kopt::frontend {

namespace {

// Finds the declaration that begins at a location (after macro expansion),
// looking into the declarations whose source range holds it.
class DeclLocator {
public:
  DeclLocator(const clang::SourceManager &Sources, clang::SourceLocation Loc)
      : SM(Sources), Target(Sources.getExpansionLoc(Loc)), File(Sources.getFileID(Target)) {}

  const clang::Decl *find(const clang::DeclContext &DC) const {
    for (const clang::Decl *D : DC.decls()) {
      if (D->isImplicit())
        continue;
      clang::SourceLocation Begin = SM.getExpansionLoc(D->getBeginLoc());
      if (Begin.isInvalid() || SM.getFileID(Begin) != File)
        continue;
      if (Begin == Target)
        return D;
      clang::SourceLocation End = SM.getExpansionLoc(D->getEndLoc());
      if (!SM.isBeforeInTranslationUnit(Begin, Target) || SM.isBeforeInTranslationUnit(End, Target))
        continue;
      // Target lies inside D: a declaration in a namespace, class or function body,
      // or the templated declaration after 'template <...>'.
      const clang::Decl *Inner = D;
      if (const auto *T = llvm::dyn_cast<clang::TemplateDecl>(D)) {
        Inner = T->getTemplatedDecl();
        if (Inner && SM.getExpansionLoc(Inner->getBeginLoc()) == Target)
          return D;
      }
      const auto *InnerDC = Inner ? llvm::dyn_cast<clang::DeclContext>(Inner) : nullptr;
      return InnerDC ? find(*InnerDC) : nullptr;
    }
    return nullptr;
  }

private:
  const clang::SourceManager &SM;
  clang::SourceLocation Target;
  clang::FileID File;
};

// The location after the C++11 attributes ([[...]]) that begin at Loc; those
// are not part of a declaration's source range.
clang::SourceLocation skipAttributes(clang::SourceLocation Loc, const clang::SourceManager &SM,
                                     const clang::LangOptions &LangOpts) {
  clang::Token T;
  while (!clang::Lexer::getRawToken(Loc, T, SM, LangOpts, /*IgnoreWhiteSpace=*/true) &&
         T.is(clang::tok::l_square)) {
    std::optional<clang::Token> Next = clang::Lexer::findNextToken(T.getLocation(), SM, LangOpts);
    if (!Next || Next->isNot(clang::tok::l_square))
      break;
    // Past the matching ']]'.
    unsigned Depth = 1;
    while (Depth > 0) {
      Next = clang::Lexer::findNextToken(Next->getLocation(), SM, LangOpts);
      if (!Next || Next->is(clang::tok::eof))
        return Loc;
      if (Next->is(clang::tok::l_square))
        ++Depth;
      else if (Next->is(clang::tok::r_square))
        --Depth;
    }
    Next = clang::Lexer::findNextToken(Next->getLocation(), SM, LangOpts);
    if (!Next || Next->isNot(clang::tok::r_square))
      return Loc;
    Next = clang::Lexer::findNextToken(Next->getLocation(), SM, LangOpts);
    if (!Next)
      return Loc;
    Loc = Next->getLocation();
  }
  return Loc;
}

// The declaration that the pragma's next token begins, if any.
const clang::Decl *declarationAt(clang::ASTContext &Ctx, clang::SourceLocation Next) {
  const clang::SourceManager &SM = Ctx.getSourceManager();
  const clang::TranslationUnitDecl &TU = *Ctx.getTranslationUnitDecl();
  const clang::Decl *D = DeclLocator(SM, Next).find(TU);
  if (!D) {
    clang::SourceLocation Start = SM.getExpansionLoc(Next);
    clang::SourceLocation AfterAttributes = skipAttributes(Start, SM, Ctx.getLangOpts());
    if (AfterAttributes != Start)
      D = DeclLocator(SM, AfterAttributes).find(TU);
  }
  // extern "C" __global__ void k() {}: the function inside the linkage spec.
  if (const auto *LS = llvm::dyn_cast_or_null<clang::LinkageSpecDecl>(D))
    if (!LS->hasBraces() && !LS->decls().empty())
      D = *LS->decls_begin();
  return D;
}

const clang::FunctionDecl *asFunction(const clang::Decl &D) {
  if (const auto *T = llvm::dyn_cast<clang::FunctionTemplateDecl>(&D))
    return T->getTemplatedDecl();
  return llvm::dyn_cast<clang::FunctionDecl>(&D);
}

// Why D cannot carry the pragma, for the diagnostic; empty when it can.
std::string rejectionOf(const clang::Decl &D) {
  if (const clang::FunctionDecl *FD = asFunction(D)) {
    std::string Name = FD->getNameAsString();
    Name = "'" + Name + "'";
    if (!FD->hasAttr<clang::CUDAGlobalAttr>()) {
      bool Device = FD->hasAttr<clang::CUDADeviceAttr>();
      bool Host = FD->hasAttr<clang::CUDAHostAttr>();
      if (Device && Host)
        return Name + " is a __host__ __device__ function";
      return Name + (Device ? " is a __device__ function" : " is a host function");
    }
    if (!FD->isThisDeclarationADefinition())
      return Name + " is a declaration without a body";
    return "";
  }
  const auto *ND = llvm::dyn_cast<clang::NamedDecl>(&D);
  std::string Name = ND ? ND->getNameAsString() : "";
  if (!Name.empty())
    Name = "'" + Name + "'";
  if (Name.empty())
    return "the next declaration is not a function";
  if (llvm::isa<clang::VarDecl>(D))
    return Name + " is a variable";
  if (llvm::isa<clang::TypeDecl>(D) || llvm::isa<clang::TypeAliasTemplateDecl>(D) ||
      llvm::isa<clang::ClassTemplateDecl>(D))
    return Name + " is a type";
  if (llvm::isa<clang::NamespaceDecl>(D))
    return Name + " is a namespace";
  return Name + " is not a function";
}

// Clauses with the enumerators they name replaced by their values; a name of
// the kernel's parameters stays theirs (it hides an enumerator, as in C++).
PragmaClauses withEnumerators(PragmaClauses Clauses, const std::vector<KernelParam> &Params,
                              const std::vector<KernelParam> &TemplateParams,
                              const EnumeratorIndex &Enums) {
  auto IsParameter = [&](llvm::StringRef Name) {
    auto Named = [&](const KernelParam &P) { return P.Name == Name; };
    return llvm::any_of(Params, Named) || llvm::any_of(TemplateParams, Named);
  };
  replaceConstants(Clauses, [&](llvm::StringRef Name) -> std::optional<int64_t> {
    return IsParameter(Name) ? std::nullopt : Enums.valueOf(Name);
  });
  return Clauses;
}

} // namespace

const clang::FunctionDecl *evaluatedInstance(const clang::FunctionDecl &Kernel,
                                             const std::optional<std::string> &Named,
                                             clang::ASTContext &Ctx) {
  const clang::FunctionTemplateDecl *Template = Kernel.getDescribedFunctionTemplate();
  if (!Template)
    return nullptr;
  // findInstantiations lists the instantiations in the order visited here.
  std::vector<KernelInstantiation> All = findInstantiations(Kernel, Ctx);
  size_t Wanted = 0;
  while (Named && Wanted < All.size() && !sameTemplateArgs(All[Wanted].TemplateArgs, *Named))
    ++Wanted;
  size_t Index = 0;
  for (const clang::FunctionDecl *Spec : Template->specializations())
    if (Spec->isTemplateInstantiation() && Index++ == Wanted)
      return Spec;
  return nullptr;
}

llvm::DenseMap<const clang::FunctionDecl *, PragmaClauses>
attachPragmas(clang::ASTContext &Ctx, const std::vector<PragmaOccurrence> &Occurrences) {
  llvm::DenseMap<const clang::FunctionDecl *, PragmaClauses> Kernels;
  if (Occurrences.empty())
    return Kernels;
  const clang::SourceManager &SM = Ctx.getSourceManager();
  const EnumeratorIndex Enums(Ctx);
  clang::DiagnosticsEngine &Diags = Ctx.getDiagnostics();
  for (const PragmaOccurrence &O : Occurrences) {
    const clang::Decl *D =
        O.Next.isValid() && !O.NextIsEndOfFile ? declarationAt(Ctx, O.Next) : nullptr;
    if (!D) {
      reportPragmaDiagnostic(
          Diags, O.Loc, PragmaDiagKind::NotFollowedByKernel,
          {O.NextIsEndOfFile ? "found the end of the file" : "found no declaration after it"});
      continue;
    }
    if (std::string Why = rejectionOf(*D); !Why.empty()) {
      reportPragmaDiagnostic(Diags, O.Loc, PragmaDiagKind::NotFollowedByKernel, {Why});
      reportPragmaDiagnostic(Diags, D->getLocation(), PragmaDiagKind::NoteNextDeclaration);
      continue;
    }
    if (!O.Clauses)
      continue; // Its errors were reported while preprocessing.

    const clang::FunctionDecl *Kernel = asFunction(*D);
    const clang::FunctionDecl *Instance = evaluatedInstance(*Kernel, O.Clauses->Instantiation, Ctx);
    std::vector<KernelParam> Params;
    for (unsigned I = 0; I < Kernel->getNumParams(); ++I)
      Params.push_back(describeParam(
          *Kernel->getParamDecl(I), Ctx,
          Instance && I < Instance->getNumParams() ? Instance->getParamDecl(I) : nullptr));
    std::vector<KernelParam> TemplateParams = describeTemplateParams(*Kernel, Ctx);
    std::string Name = Kernel->getQualifiedNameAsString();
    PragmaClauses Clauses = withEnumerators(*O.Clauses, Params, TemplateParams, Enums);
    std::vector<PragmaDiagnostic> Problems =
        checkAgainstKernel(Clauses, Name, Params, TemplateParams);
    if (!hasErrors(Problems)) {
      WorkloadSubject Subject{Name,
                              Params,
                              TemplateParams,
                              std::nullopt,
                              bodyUseOf(analyzeKernelFeatures(*Kernel, Ctx)),
                              installedSkillIds()};
      if (!TemplateParams.empty())
        Subject.TemplateValues = workloadTemplateValues(findInstantiations(*Kernel, Ctx));
      else
        Subject.TemplateValues.emplace();
      llvm::append_range(Problems, resolveWorkload(Clauses, Subject).Diagnostics);
    }
    reportPragmaDiagnostics(Diags, Problems, O.TokenLocs);
    if (hasErrors(Problems))
      continue;
    clang::PresumedLoc Where = SM.getPresumedLoc(SM.getExpansionLoc(O.Loc));
    if (Where.isValid()) {
      Clauses.Line = Where.getLine();
      Clauses.Column = Where.getColumn();
    }
    Kernels[Kernel] = std::move(Clauses);
  }
  return Kernels;
}

} // namespace kopt::frontend
