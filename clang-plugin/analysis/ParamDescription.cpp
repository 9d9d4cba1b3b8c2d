#include "clang-plugin/analysis/ParamDescription.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>

namespace kopt::frontend {

KernelParam describeParam(const clang::ParmVarDecl &P, const clang::ASTContext &Ctx) {
  KernelParam K;
  K.Name = P.getNameAsString();
  K.Type = P.getType().getAsString(Ctx.getPrintingPolicy());
  clang::QualType T = P.getType().getCanonicalType();
  if (T->isPointerType()) {
    K.Category = ParamCategory::Pointer;
    K.PointeeIsConst = T->getPointeeType().isConstQualified();
  } else if (T->isDependentType()) {
    K.Category = ParamCategory::Other;
  } else if (T->isIntegralOrEnumerationType()) {
    K.Category = ParamCategory::Integer;
  } else if (T->isRealFloatingType()) {
    K.Category = ParamCategory::Floating;
  }
  return K;
}

} // namespace kopt::frontend
