#include "clang-plugin/analysis/ParamDescription.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>

namespace kopt::frontend {

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
