#include "clang-plugin/analysis/ParamDescription.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/DeclTemplate.h>

namespace kopt::frontend {

namespace {
ParamCategory categoryOf(clang::QualType T) {
  if (T->isDependentType())
    return ParamCategory::Other;
  if (T->isPointerType())
    return ParamCategory::Pointer;
  if (T->isIntegralOrEnumerationType())
    return ParamCategory::Integer;
  if (T->isRealFloatingType())
    return ParamCategory::Floating;
  return ParamCategory::Other;
}
} // namespace

KernelParam describeParam(const clang::ParmVarDecl &P, const clang::ASTContext &Ctx) {
  KernelParam K;
  K.Name = P.getNameAsString();
  clang::QualType T = P.getType().getCanonicalType();
  // Typedefs resolved (`typedef float DATA_TYPE;` prints as float), so that what reads the
  // type (element types, vector widths) sees the same spelling however the user named it.
  // A dependent type keeps its spelling: its canonical form names no template parameter.
  K.Type = (T->isDependentType() ? P.getType() : T).getAsString(Ctx.getPrintingPolicy());
  if (T->isPointerType()) {
    K.Category = ParamCategory::Pointer;
    clang::QualType Element = T->getPointeeType();
    K.PointeeIsConst = Element.isConstQualified();
    K.Pointee = Element->isBooleanType() ? ParamCategory::Other : categoryOf(Element);
  } else {
    K.Category = categoryOf(T);
  }
  return K;
}

std::vector<KernelParam> describeTemplateParams(const clang::FunctionDecl &Kernel,
                                                const clang::ASTContext &Ctx) {
  std::vector<KernelParam> Out;
  const clang::FunctionTemplateDecl *Template = Kernel.getDescribedFunctionTemplate();
  if (!Template)
    return Out;
  for (const clang::NamedDecl *D : *Template->getTemplateParameters()) {
    KernelParam K;
    K.Name = D->getNameAsString();
    if (const auto *Value = llvm::dyn_cast<clang::NonTypeTemplateParmDecl>(D)) {
      K.Type = Value->getType().getAsString(Ctx.getPrintingPolicy());
      K.Category = categoryOf(Value->getType().getCanonicalType());
      if (K.Category != ParamCategory::Integer)
        K.Category = ParamCategory::Other;
    } else {
      K.Type = "typename";
    }
    Out.push_back(std::move(K));
  }
  return Out;
}

} // namespace kopt::frontend
