// restrict-readonly: __restrict__ on the kernel's pointer parameters and, with
// ldg=1, the reads through pointers the kernel never writes routed through
// __ldg (the read-only data cache). Legal only where the buffers do not alias:
// the parameter space is offered only under the pragma's noalias clause.
//
// The parameters' types keep their pointees: adding const to a pointee would
// change the kernel's mangled name, and a variant keeps its signature (launches
// in other TUs link against it); __restrict__ on the pointer itself does not.
// A parameter declared as an array ("float A[N][M]") is restricted in the
// spelling of the pointer it decays to: "float (*__restrict__ A)[M]".
#include "clang-plugin/analysis/ast/AstWalk.h"
#include "clang-plugin/transforms/framework/TransformFactories.h"
#include "clang-plugin/transforms/framework/TransformSupport.h"
#include "clang-plugin/transforms/framework/UnitRewriter.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/TypeLoc.h>
#include <clang/Rewrite/Core/Rewriter.h>
#include <llvm/ADT/StringSet.h>

namespace kopt::transform {

namespace {
// Element types that have an __ldg overload in CUDA's headers.
bool hasLdg(clang::QualType Pointee) {
  clang::QualType T = Pointee.getCanonicalType().getUnqualifiedType();
  if (const auto *B = T->getAs<clang::BuiltinType>())
    return (B->isInteger() && !B->isSpecificBuiltinType(clang::BuiltinType::Bool) &&
            !B->isSpecificBuiltinType(clang::BuiltinType::WChar_S) &&
            !B->isSpecificBuiltinType(clang::BuiltinType::WChar_U) &&
            B->getKind() != clang::BuiltinType::Char8 &&
            B->getKind() != clang::BuiltinType::Char16 &&
            B->getKind() != clang::BuiltinType::Char32 &&
            B->getKind() != clang::BuiltinType::Int128 &&
            B->getKind() != clang::BuiltinType::UInt128) ||
           B->getKind() == clang::BuiltinType::Float || B->getKind() == clang::BuiltinType::Double;
  static const llvm::StringSet<> Vectors = {
      "char2",     "char4",      "short2", "short4",  "int2",    "int4",
      "longlong2", "uchar2",     "uchar4", "ushort2", "ushort4", "uint2",
      "uint4",     "ulonglong2", "float2", "float4",  "double2"};
  if (const auto *R = T->getAsRecordDecl())
    return R->getIdentifier() && Vectors.contains(R->getName());
  return false;
}

// A pointer parameter whose uses in the body are all reads of its elements
// (p[i], *(p + i), read as values): those reads, or nothing where a use writes,
// takes an address, or lets the pointer escape.
std::optional<std::vector<const clang::Expr *>> readsOnly(const clang::ParmVarDecl &P,
                                                          UnitAST &AST) {
  std::vector<const clang::Expr *> Reads;
  bool Ok = true;
  forEachStmt(AST.Kernel.getBody(), [&](const clang::Stmt *S) {
    const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(S);
    if (!Ok || !Ref || Ref->getDecl() != &P)
      return;
    // Up through pointer arithmetic to the element access.
    const clang::Stmt *Cur = Ref;
    const clang::Stmt *Up = parentOf(Cur, AST.Ctx);
    while (Up) {
      if (const auto *Cast = llvm::dyn_cast<clang::ImplicitCastExpr>(Up);
          Cast && Cast->getCastKind() == clang::CK_LValueToRValue && Cur == Ref) {
      } else if (llvm::isa<clang::ParenExpr>(Up)) {
      } else if (const auto *Bin = llvm::dyn_cast<clang::BinaryOperator>(Up);
                 Bin && Bin->isAdditiveOp() && Bin->getType()->isPointerType()) {
      } else {
        break;
      }
      Cur = Up;
      Up = parentOf(Cur, AST.Ctx);
    }
    const clang::Expr *Access = nullptr;
    if (const auto *Sub = llvm::dyn_cast_or_null<clang::ArraySubscriptExpr>(Up);
        Sub && Sub->getBase()->IgnoreParenImpCasts() ==
                   llvm::cast<clang::Expr>(Cur)->IgnoreParenImpCasts())
      Access = Sub;
    else if (const auto *Deref = llvm::dyn_cast_or_null<clang::UnaryOperator>(Up);
             Deref && Deref->getOpcode() == clang::UO_Deref)
      Access = Deref;
    // A row of a pointer to arrays (A[i] of "float (*A)[N]") decays and is
    // subscripted again, down to the element: A[i][j].
    while (Access && Access->getType()->isArrayType()) {
      const auto *Decay =
          llvm::dyn_cast_or_null<clang::ImplicitCastExpr>(parentOf(Access, AST.Ctx));
      const auto *Sub =
          Decay && Decay->getCastKind() == clang::CK_ArrayToPointerDecay
              ? llvm::dyn_cast_or_null<clang::ArraySubscriptExpr>(parentOf(Decay, AST.Ctx))
              : nullptr;
      Access = Sub && Sub->getBase() == Decay ? Sub : nullptr;
    }
    // The element must be read as a value, not written or addressed.
    const clang::Stmt *User = Access ? parentOf(Access, AST.Ctx) : nullptr;
    while (User && llvm::isa<clang::ParenExpr>(User))
      User = parentOf(User, AST.Ctx);
    const auto *Load = llvm::dyn_cast_or_null<clang::ImplicitCastExpr>(User);
    if (!Load || Load->getCastKind() != clang::CK_LValueToRValue ||
        Access->getSourceRange().getBegin().isMacroID() ||
        Access->getSourceRange().getEnd().isMacroID()) {
      Ok = false;
      return;
    }
    Reads.push_back(Access);
  });
  if (!Ok)
    return std::nullopt;
  return Reads;
}

bool isPointerParam(const clang::ParmVarDecl &P) {
  // As written: a typedef'd pointer is left alone.
  return llvm::isa<clang::PointerType>(P.getType().getTypePtr()) && P.getIdentifier() &&
         !P.getLocation().isMacroID();
}

// The closing bracket of a parameter declared as an array ("float A[N][M]",
// "float A[][N]"), which decays to a pointer to its rows; invalid otherwise.
// C++ has no "A[__restrict__ N]" (g++ rejects it in nvcc's host pass), so
// such a parameter is restricted as "(*__restrict__ A)[M]".
clang::SourceLocation arrayDeclaratorEnd(const clang::ParmVarDecl &P) {
  if (!llvm::isa<clang::DecayedType>(P.getType().getTypePtr()) || !P.getIdentifier() ||
      P.getLocation().isMacroID() || !P.getTypeSourceInfo())
    return {};
  auto Array = P.getTypeSourceInfo()->getTypeLoc().getAsAdjusted<clang::ArrayTypeLoc>();
  if (!Array || Array.getRBracketLoc().isMacroID())
    return {};
  return Array.getRBracketLoc();
}

// The scalar a pointer to (arrays of) elements holds: float for "float (*)[N]".
clang::QualType innermostElement(clang::QualType Pointee, const clang::ASTContext &Ctx) {
  while (const clang::ArrayType *A = Ctx.getAsArrayType(Pointee))
    Pointee = A->getElementType();
  return Pointee;
}

class RestrictReadonly : public Transform {
public:
  llvm::StringRef id() const override { return "restrict-readonly"; }

  std::vector<ParamDecl> params() const override { return {{"ldg", {0, 1}}}; }

protected:
  Offer offerPoints(const frontend::KernelSummary &Kernel) const override {
    if (!Kernel.Pragma || !Kernel.Pragma->NoAlias)
      return Offer::no("the pragma does not say `noalias` (the buffers may overlap)");
    bool Pointers = false;
    for (const frontend::KernelParam &P : Kernel.Params)
      Pointers |= P.Category == frontend::ParamCategory::Pointer;
    if (!Pointers)
      return Offer::no("the kernel has no pointer parameters");
    return Offer::of({{{"ldg", 1}}, {{"ldg", 0}}});
  }

  llvm::Expected<TransformOutput> rewriteAt(const TransformInput &In,
                                            const ParamSet &Params) const override {
    const bool Ldg = Params.at("ldg") != 0;
    unsigned Restricted = 0, Routed = 0;
    llvm::Expected<std::string> Text = rewriteUnit(In, [&](UnitAST &AST) -> llvm::Error {
      for (const clang::ParmVarDecl *P : AST.Kernel.parameters()) {
        if (clang::SourceLocation End = arrayDeclaratorEnd(*P); End.isValid()) {
          AST.Rewrite.ReplaceText(clang::SourceRange(P->getLocation(), End),
                                  "(*__restrict__ " + P->getName().str() + ")");
          ++Restricted;
        } else if (!isPointerParam(*P)) {
          continue;
        } else if (!P->getType().isRestrictQualified()) {
          AST.Rewrite.InsertTextBefore(P->getLocation(), "__restrict__ ");
          ++Restricted;
        }
        if (!Ldg || !hasLdg(innermostElement(P->getType()->getPointeeType(), AST.Ctx)))
          continue;
        std::optional<std::vector<const clang::Expr *>> Reads = readsOnly(*P, AST);
        if (!Reads)
          continue;
        for (const clang::Expr *Read : *Reads) {
          AST.Rewrite.InsertTextBefore(Read->getBeginLoc(), "__ldg(&");
          AST.Rewrite.InsertTextAfterToken(Read->getEndLoc(), ")");
          ++Routed;
        }
      }
      if (Restricted + Routed == 0)
        return llvm::createStringError(
            "nothing to change: the pointer parameters are __restrict__ and none is read-only%s",
            Ldg ? "" : " (ldg=0)");
      return llvm::Error::success();
    });
    if (!Text)
      return Text.takeError();
    return TransformOutput{std::move(*Text), std::nullopt,
                           std::to_string(Restricted) + " parameters __restrict__, " +
                               std::to_string(Routed) + " reads through __ldg"};
  }
};
} // namespace

std::unique_ptr<Transform> makeRestrictReadonlyTransform() {
  return std::make_unique<RestrictReadonly>();
}

} // namespace kopt::transform
