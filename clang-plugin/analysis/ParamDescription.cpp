#include "clang-plugin/analysis/ParamDescription.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>

namespace kopt::frontend {

namespace {
// The pointee's array extents and innermost element: "float [N][M]" gives
// {N, M} and "float". An extent that is not a constant (a dependent or
// variable length) clears Constant.
void describePointee(clang::QualType Pointee, const clang::ASTContext &Ctx, KernelParam &K) {
  K.RowExtents.clear();
  K.ExtentsConstant = true;
  clang::QualType T = Pointee;
  while (const clang::ArrayType *A = Ctx.getAsArrayType(T)) {
    if (const auto *C = llvm::dyn_cast<clang::ConstantArrayType>(A))
      K.RowExtents.push_back(C->getSize().getZExtValue());
    else
      K.ExtentsConstant = false;
    T = A->getElementType();
  }
  K.ElementType = T.getAsString(Ctx.getPrintingPolicy());
  K.PointeeIsConst = T.isConstQualified();
}

// The extent the declaration gives the parameter itself: K in "float A[K][N]".
std::optional<uint64_t> declaredRows(const clang::ParmVarDecl &P, const clang::ASTContext &Ctx) {
  if (const auto *C =
          llvm::dyn_cast_or_null<clang::ConstantArrayType>(Ctx.getAsArrayType(P.getOriginalType())))
    return C->getSize().getZExtValue();
  return std::nullopt;
}
} // namespace

KernelParam describeParam(const clang::ParmVarDecl &P, const clang::ASTContext &Ctx,
                          const clang::ParmVarDecl *Instance) {
  KernelParam K;
  K.Name = P.getNameAsString();
  K.Type = P.getType().getAsString(Ctx.getPrintingPolicy());
  clang::QualType T = P.getType().getCanonicalType();
  if (T->isPointerType()) {
    K.Category = ParamCategory::Pointer;
    // A template's extents are those of the instantiation the evaluator runs.
    const clang::ParmVarDecl &Shape =
        Instance && Instance->getType()->isPointerType() ? *Instance : P;
    describePointee(Shape.getType()->getPointeeType(), Ctx, K);
    K.DeclaredRows = declaredRows(Shape, Ctx);
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
