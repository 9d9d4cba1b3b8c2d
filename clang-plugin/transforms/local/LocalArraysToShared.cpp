// local-arrays-to-shared: a per-thread array indexed by data (a histogram of
// the thread's window, a traversal stack, a sorted top-k list) lives in local
// memory, since registers cannot be indexed at run time; each access is a
// load or store through L1, and under register pressure through L2. The array
// moves to shared memory, one slice a thread, laid out element-major so that
// the threads of a warp reach 32 different banks whatever element each
// indexes:
//   int hist[16];          ->  __shared__ int kopt_hist_shared[16 * 256]; ...
//   hist[v >> 4]++;        ->  kopt_hist[(v >> 4) * kopt_hist_stride]++;
// The slices are sized for the pragma's block (B threads). A launch with a
// larger block than B (the program's, not the pragma's) would not fit: there
// every thread keeps the array in local memory as before (a block-uniform
// choice of base pointer and stride), so any launch computes what the original
// does. The same operations on the same elements in the same order: exact.
//
// Refused where the array's slices cannot stand in for it: a use other than
// a[i] (its address, an argument, sizeof), a declaration of several
// variables, an initializer other than zeros, indices from macros, dynamic
// shared memory in the kernel (the block's total would pass its limit at
// launch), slices beyond what a block may have.
#include "clang-plugin/analysis/LocalArrays.h"
#include "clang-plugin/analysis/ast/AstWalk.h"
#include "clang-plugin/transforms/framework/AstEdit.h"
#include "clang-plugin/transforms/framework/TransformFactories.h"
#include "clang-plugin/transforms/framework/TransformSupport.h"
#include "clang-plugin/transforms/framework/UnitRewriter.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/Stmt.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Rewrite/Core/Rewriter.h>
#include <llvm/ADT/StringExtras.h>

namespace kopt::transform {

namespace {

// Static shared memory a block may have without opting in, on every
// architecture kopt targets.
constexpr uint64_t SharedBytesLimit = 48 * 1024;

struct Moved {
  std::vector<std::string> Arrays;
  uint64_t Bytes = 0; // Shared memory the slices take a block.
};

// Whether Init sets every element to zero: `= {}`, `= {0}`, `= {0, 0.0f}`.
bool zeroInitializer(const clang::Expr *Init, clang::ASTContext &Ctx) {
  const auto *List = llvm::dyn_cast<clang::InitListExpr>(Init->IgnoreParenImpCasts());
  if (!List)
    return false;
  for (const clang::Expr *E : List->inits()) {
    E = E->IgnoreParenImpCasts();
    if (llvm::isa<clang::ImplicitValueInitExpr>(E))
      continue;
    clang::Expr::EvalResult Value;
    if (E->isValueDependent() || !E->EvaluateAsRValue(Value, Ctx) ||
        (!Value.Val.isInt() && !Value.Val.isFloat()))
      return false;
    if (Value.Val.isInt() ? !Value.Val.getInt().isZero() : !Value.Val.getFloat().isZero())
      return false;
  }
  return true;
}

// Static shared bytes the kernel declares already; an error where it has
// dynamic shared memory.
llvm::Expected<uint64_t> sharedBytesDeclared(const UnitAST &U, const clang::Stmt &Body) {
  uint64_t Bytes = 0;
  std::optional<llvm::Error> Refusal;
  forEachStmt(&Body, [&](const clang::Stmt *S) {
    const auto *D = llvm::dyn_cast<clang::DeclStmt>(S);
    if (!D || Refusal)
      return;
    for (const clang::Decl *Each : D->decls()) {
      const auto *V = llvm::dyn_cast<clang::VarDecl>(Each);
      if (!V || !V->hasAttr<clang::CUDASharedAttr>())
        continue;
      clang::QualType T = V->getType();
      if (T->isIncompleteArrayType() || T->isDependentType() || !T->isConstantSizeType()) {
        Refusal = unsupported(U, V->getLocation(),
                              "the kernel uses dynamic shared memory (or a size of a template "
                              "argument): its block's total could pass the limit at launch");
        return;
      }
      Bytes += uint64_t(U.Ctx.getTypeSizeInChars(T).getQuantity());
    }
  });
  if (Refusal)
    return std::move(*Refusal);
  return Bytes;
}

llvm::Expected<Moved> rewrite(UnitAST &U, uint64_t BlockThreads) {
  const clang::Stmt *Body = U.Kernel.getBody();
  if (!Body)
    return unsupported(U, U.Kernel.getLocation(), "the kernel has no body");
  std::vector<frontend::LocalArrayUses> Arrays = frontend::findLocalArrays(U.Kernel, U.Ctx);
  std::erase_if(Arrays, [](const frontend::LocalArrayUses &A) { return !A.DataIndexed; });
  if (Arrays.empty())
    return unsupported(U, U.Kernel.getLocation(),
                       "no per-thread array is indexed by data (every index is a constant or a "
                       "counter of a loop with constant bounds: nvcc keeps such arrays in "
                       "registers)");
  llvm::Expected<uint64_t> Declared = sharedBytesDeclared(U, *Body);
  if (!Declared)
    return Declared.takeError();
  const std::string Thread =
      "((threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x)";
  const std::string Threads = "(blockDim.x * blockDim.y * blockDim.z)";
  const std::string Cap = std::to_string(BlockThreads);
  Moved Out;
  for (const frontend::LocalArrayUses &A : Arrays) {
    const clang::VarDecl &V = *A.Array;
    const std::string Name = V.getNameAsString();
    if (A.OtherUse)
      return unsupported(U, A.OtherUse->getBeginLoc(),
                         "'" + Name + "' is used other than as " + Name +
                             "[i] (its address, an argument, sizeof)");
    const auto *Decl = llvm::cast<clang::DeclStmt>(A.Declaration);
    if (!Decl->isSingleDecl())
      return unsupported(U, V.getLocation(), "'" + Name + "' is declared together with others");
    if (V.getInit() && !zeroInitializer(V.getInit(), U.Ctx))
      return unsupported(U, V.getLocation(), "'" + Name + "' has an initializer other than zeros");
    const clang::ConstantArrayType *T = U.Ctx.getAsConstantArrayType(V.getType());
    const clang::QualType Element = T->getElementType();
    const uint64_t Elements = T->getSize().getZExtValue();
    const uint64_t Bytes =
        Elements * uint64_t(U.Ctx.getTypeSizeInChars(Element).getQuantity()) * BlockThreads;
    if (*Declared + Out.Bytes + Bytes > SharedBytesLimit)
      return unsupported(
          U, V.getLocation(),
          "'" + Name + "' for " + Cap + " threads takes " + std::to_string(Bytes) +
              " bytes of shared memory" +
              (*Declared + Out.Bytes
                   ? " beside the kernel's other " + std::to_string(*Declared + Out.Bytes)
                   : std::string()) +
              ", more than the " + std::to_string(SharedBytesLimit) + " a block may have");
    llvm::Expected<clang::CharSourceRange> DeclRange = fileRange(U, Decl->getSourceRange());
    if (!DeclRange)
      return DeclRange.takeError();
    const std::string Type = typeText(Element, U), Count = std::to_string(Elements);
    const std::string Base = "kopt_" + Name, Stride = "kopt_" + Name + "_stride",
                      Fits = "kopt_" + Name + "_fits";
    // One line, so that the body's lines keep their numbers.
    std::string Replacement =
        "__shared__ " + Type + " " + Base + "_shared[" + Count + " * " + Cap + "]; " + Type + " " +
        Base + "_local[" + Count + "]; const bool " + Fits + " = " + Threads + " <= " + Cap +
        "u; " + Type + " *const " + Base + " = " + Fits + " ? " + Base + "_shared + " + Thread +
        " : " + Base + "_local; const unsigned " + Stride + " = " + Fits + " ? " + Cap + "u : 1u;";
    if (V.getInit())
      Replacement += " for (unsigned kopt_e = 0; kopt_e < " + Count + "u; ++kopt_e) " + Base +
                     "[kopt_e * " + Stride + "] = (" + Type + ")0;";
    std::vector<std::tuple<clang::CharSourceRange, clang::SourceLocation, clang::SourceLocation>>
        Edits;
    for (const clang::ArraySubscriptExpr *Sub : A.Subscripts) {
      llvm::Expected<clang::CharSourceRange> Ref = fileRange(U, Sub->getBase()->getSourceRange());
      llvm::Expected<clang::CharSourceRange> Index = fileRange(U, Sub->getIdx()->getSourceRange());
      if (!Ref)
        return Ref.takeError();
      if (!Index)
        return Index.takeError();
      if (U.Ctx.getSourceManager().isBeforeInTranslationUnit(Index->getBegin(), Ref->getBegin()))
        return unsupported(U, Sub->getBeginLoc(), "'" + Name + "' is indexed as i[" + Name + "]");
      Edits.emplace_back(*Ref, Index->getBegin(), Sub->getIdx()->getEndLoc());
    }
    U.Rewrite.ReplaceText(*DeclRange, Replacement);
    for (const auto &[Ref, IndexBegin, IndexEnd] : Edits) {
      U.Rewrite.ReplaceText(Ref, Base);
      U.Rewrite.InsertTextBefore(IndexBegin, "(");
      U.Rewrite.InsertTextAfterToken(IndexEnd, ") * " + Stride);
    }
    Out.Arrays.push_back(Name);
    Out.Bytes += Bytes;
  }
  return Out;
}

class LocalArraysToShared : public Transform {
public:
  llvm::StringRef id() const override { return "local-arrays-to-shared"; }

protected:
  Offer offerPoints(const frontend::KernelSummary &Kernel) const override {
    const frontend::KernelFeatures &F = Kernel.Features;
    if (std::none_of(F.LocalArrays.begin(), F.LocalArrays.end(),
                     [](const frontend::LocalArray &A) { return A.DataIndexed; }))
      return Offer::no("no per-thread array is indexed by data");
    if (std::any_of(F.SharedVariables.begin(), F.SharedVariables.end(),
                    [](const frontend::SharedVariable &S) { return S.Dynamic; }))
      return Offer::no("the kernel uses dynamic shared memory");
    if (!pragmaBlockThreads(Kernel))
      return Offer::no("the pragma's launch does not give the block size");
    return Offer::of({ParamSet{}});
  }

  llvm::Expected<TransformOutput> rewriteAt(const TransformInput &In,
                                            const ParamSet &) const override {
    std::optional<int64_t> Block = pragmaBlockThreads(In.Kernel);
    if (!Block || *Block <= 0)
      return llvm::createStringError("the pragma's launch does not give the block size");
    llvm::Expected<RewrittenWith<Moved>> Made = rewriteUnitWith<Moved>(
        In, [&](UnitAST &U) { return rewrite(U, static_cast<uint64_t>(*Block)); });
    if (!Made)
      return Made.takeError();
    return TransformOutput{std::move(Made->UnitText), std::nullopt,
                           llvm::join(Made->Found.Arrays, ", ") +
                               " in shared memory, a slice for each of " + std::to_string(*Block) +
                               " threads (" + std::to_string(Made->Found.Bytes) +
                               " bytes a block); larger blocks keep them local"};
  }
};
} // namespace

std::unique_ptr<Transform> makeLocalArraysToSharedTransform() {
  return std::make_unique<LocalArraysToShared>();
}

} // namespace kopt::transform
