// local-arrays-to-shared: a per-thread array indexed by data (a histogram of
// the thread's window, a traversal stack, a sorted top-k list) lives in local
// memory, since registers cannot be indexed at run time; each access is a
// load or store through L1, and under register pressure through L2. The array
// moves to shared memory, one slice a thread, laid out element-major so that
// the threads of a warp reach 32 different banks whatever element each
// indexes. The kernel's body becomes a generic lambda whose parameter is
// named as the array: a view whose operator[] reaches the thread's slice,
//   kopt_body(kopt_hist_in_shared{kopt_hist_shared + thread})   (At[E * B])
// where the block has at most the pragma's B threads, and otherwise a local
// copy as before (kopt_hist_in_local: At[E]), so any launch computes what the
// original does. Two instantiations rather than one pointer chosen at run
// time: each has its accesses in one address space (ld.shared, ld.local),
// where a pointer to either would be generic (about a third slower on
// image_entropy's window histogram). Returns leave the lambda as they left
// the kernel. The same operations on the same elements in the same order:
// exact.
//
// Refused where the views cannot stand in for the array: a use other than
// a[i] (its address, an argument, sizeof), i[a], a declaration of several
// variables, an initializer other than zeros, another variable of the same
// name, indices from macros, dynamic shared memory in the kernel (the block's
// total would pass its limit at launch), slices beyond what a block may have
// (the kernel's own shared memory counts twice: once an instantiation).
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

// Whether a variable other than Array in the kernel is named Name: the body
// would see the view in its place.
bool nameTaken(const clang::FunctionDecl &Kernel, const clang::VarDecl &Array) {
  bool Taken = false;
  for (const clang::ParmVarDecl *P : Kernel.parameters())
    Taken |= P->getName() == Array.getName();
  forEachStmt(Kernel.getBody(), [&](const clang::Stmt *S) {
    if (const auto *D = llvm::dyn_cast<clang::DeclStmt>(S))
      for (const clang::Decl *Each : D->decls())
        if (const auto *V = llvm::dyn_cast<clang::VarDecl>(Each))
          Taken |= V != &Array && V->getName() == Array.getName();
  });
  return Taken;
}

llvm::Expected<Moved> rewrite(UnitAST &U, uint64_t BlockThreads) {
  const auto *Body = llvm::dyn_cast_or_null<clang::CompoundStmt>(U.Kernel.getBody());
  if (!Body)
    return unsupported(U, U.Kernel.getLocation(), "the kernel's body is not a plain block");
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
  // The body is instantiated twice (shared and local views): its own shared
  // variables are allocated for each.
  const uint64_t Others = 2 * *Declared;
  const std::string Thread = ThreadInBlockText, Threads = BlockThreadsText;
  const std::string Cap = std::to_string(BlockThreads);
  Moved Out;
  std::string Storage, Params, SharedViews, LocalViews;
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
    if (nameTaken(U.Kernel, V))
      return unsupported(U, V.getLocation(),
                         "another variable of the kernel is also named '" + Name + "'");
    const clang::ConstantArrayType *T = U.Ctx.getAsConstantArrayType(V.getType());
    const clang::QualType Element = T->getElementType();
    const uint64_t Elements = T->getSize().getZExtValue();
    const uint64_t Bytes =
        Elements * uint64_t(U.Ctx.getTypeSizeInChars(Element).getQuantity()) * BlockThreads;
    if (Others + Out.Bytes + Bytes > SharedBytesLimit)
      return unsupported(
          U, V.getLocation(),
          "'" + Name + "' for " + Cap + " threads takes " + std::to_string(Bytes) +
              " bytes of shared memory" +
              (Others + Out.Bytes
                   ? " beside the kernel's other " + std::to_string(Others + Out.Bytes)
                   : std::string()) +
              ", more than the " + std::to_string(SharedBytesLimit) + " a block may have");
    llvm::Expected<clang::CharSourceRange> DeclRange = fileRange(U, Decl->getSourceRange());
    if (!DeclRange)
      return DeclRange.takeError();
    for (const clang::ArraySubscriptExpr *Sub : A.Subscripts) {
      if (!Sub->getBase()->getBeginLoc().isFileID() || !Sub->getRBracketLoc().isFileID())
        return unsupported(U, Sub->getBeginLoc(), "'" + Name + "' is indexed inside a macro");
      if (U.Ctx.getSourceManager().isBeforeInTranslationUnit(Sub->getIdx()->getBeginLoc(),
                                                             Sub->getBase()->getBeginLoc()))
        return unsupported(U, Sub->getBeginLoc(), "'" + Name + "' is indexed as i[" + Name + "]");
    }
    const std::string Type = typeText(Element, U), Count = std::to_string(Elements);
    const std::string Base = "kopt_" + Name;
    // The views: the body indexes the array's name, now a view whose
    // operator[] reaches the thread's slice (element-major) or the local copy.
    Storage += "__shared__ " + Type + " " + Base + "_shared[" + Count + " * " + Cap + "]; " + Type +
               " " + Base + "_local[" + Count + "]; struct " + Base + "_in_shared { " + Type +
               " *At; __device__ " + Type + " &operator[](long long E) const { return At[E * " +
               Cap + "]; } }; struct " + Base + "_in_local { " + Type + " *At; __device__ " + Type +
               " &operator[](long long E) const { return At[E]; } }; ";
    Params += std::string(Params.empty() ? "" : ", ") + "auto " + Name;
    SharedViews += std::string(SharedViews.empty() ? "" : ", ") + Base + "_in_shared{" + Base +
                   "_shared + " + Thread + "}";
    LocalViews +=
        std::string(LocalViews.empty() ? "" : ", ") + Base + "_in_local{" + Base + "_local}";
    U.Rewrite.ReplaceText(*DeclRange, V.getInit() ? "for (unsigned kopt_e = 0; kopt_e < " + Count +
                                                        "u; ++kopt_e) " + Name + "[kopt_e] = (" +
                                                        Type + ")0;"
                                                  : "");
    Out.Arrays.push_back(Name);
    Out.Bytes += Bytes;
  }
  // On the lines of the braces, so that the body's lines keep their numbers.
  U.Rewrite.InsertTextAfterToken(Body->getLBracLoc(),
                                 " " + Storage + "auto kopt_body = [&](" + Params + ") {");
  U.Rewrite.InsertTextBefore(Body->getRBracLoc(),
                             "}; // kopt local-arrays-to-shared: the slices fit the pragma's "
                             "block; a larger one keeps the arrays local\nif (" +
                                 Threads + " <= " + Cap + "u)\n  kopt_body(" + SharedViews +
                                 ");\nelse\n  kopt_body(" + LocalViews + ");\n");
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
