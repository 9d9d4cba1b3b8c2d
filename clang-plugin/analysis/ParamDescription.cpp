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

// T as clang prints it with typedefs resolved (`typedef float DATA_TYPE;` prints as float), so
// that what reads a type (element types, vector widths) sees one spelling however the user
// named it. A dependent type keeps its spelling: its canonical form names no template parameter.
std::string resolvedSpelling(clang::QualType T, const clang::ASTContext &Ctx) {
  return (T->isDependentType() ? T : T.getCanonicalType()).getAsString(Ctx.getPrintingPolicy());
}

// The arithmetic type a scalar's value is passed as: an enum's underlying type.
std::string valueTypeOf(clang::QualType T, const clang::ASTContext &Ctx) {
  T = T.getCanonicalType().getUnqualifiedType();
  if (const auto *Enum = T->getAs<clang::EnumType>())
    T = Enum->getDecl()->getIntegerType().getCanonicalType();
  return T.getAsString(Ctx.getPrintingPolicy());
}

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
  K.ElementType = resolvedSpelling(T, Ctx);
  K.PointeeIsConst = T.isConstQualified();
  // Bool counts as Other: it has no range to draw from.
  K.Pointee = T->isBooleanType() ? ParamCategory::Other : categoryOf(T.getCanonicalType());
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
  K.Type = resolvedSpelling(P.getType(), Ctx);
  clang::QualType T = P.getType().getCanonicalType();
  if (T->isPointerType()) {
    K.Category = ParamCategory::Pointer;
    // A template's extents are those of the instantiation the evaluator runs.
    const clang::ParmVarDecl &Shape =
        Instance && Instance->getType()->isPointerType() ? *Instance : P;
    describePointee(Shape.getType()->getPointeeType(), Ctx, K);
    K.DeclaredRows = declaredRows(Shape, Ctx);
    return K;
  }
  // A template-typed scalar (IdxT n) is typed by the instantiation evaluated.
  clang::QualType Value =
      T->isDependentType() && Instance ? Instance->getType().getCanonicalType() : T;
  K.Category = categoryOf(Value);
  if (K.Category == ParamCategory::Integer || K.Category == ParamCategory::Floating)
    K.ElementType = valueTypeOf(Value, Ctx);
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
