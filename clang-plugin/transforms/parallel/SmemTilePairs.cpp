// smem-tile-pairs: an all-pairs kernel (n-body forces, pairwise distances,
// kernel sums) where each thread i walks every j,
//   for (int j = 0; j < n; j++) { float dx = px[j] - xi; ... }
// reads px[j] from global memory once a thread, the same addresses in every
// thread of the block. The j range goes through shared-memory tiles of B
// elements (B the pragma's block): the block loads px[t .. t+B) together, a
// barrier, each thread walks the tile, a barrier, the next tile. Each thread
// accumulates in the same order as before: exact.
//
// What goes through the tiles: pointer parameters read in the loop at [j]
// and only there, never written by the kernel. The loop's bounds are the
// same for every thread (no thread index, nothing the loop changes); the loop
// has no return, break or goto, no barrier, atomic or shared memory. The
// bounds checks around the loop come off (GuardHoisting.h): threads past the
// end still load their part of each tile and reach the barriers, and walk no
// tile.
#include "clang-plugin/analysis/IndexAnalysis.h"
#include "clang-plugin/analysis/ast/AstWalk.h"
#include "clang-plugin/transforms/framework/AstEdit.h"
#include "clang-plugin/transforms/framework/GuardHoisting.h"
#include "clang-plugin/transforms/framework/TransformFactories.h"
#include "clang-plugin/transforms/framework/TransformSupport.h"
#include "clang-plugin/transforms/framework/UnitRewriter.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/Stmt.h>
#include <clang/Rewrite/Core/Rewriter.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <cctype>
#include <map>

namespace kopt::transform {

namespace {

// The most shared memory the tiles may take (the static limit a block).
constexpr uint64_t TileBytesLimit = 48 * 1024;

struct Staged {
  const clang::ParmVarDecl *Param = nullptr;
  std::vector<const clang::ArraySubscriptExpr *> Reads; // p[j], each.
};

struct Tiled {
  unsigned Line = 0;
  std::vector<std::string> Arrays;
};

// Parameters read in Body at [J] only, never written in the kernel; an error
// for a loop that another thread could see differently.
llvm::Expected<std::vector<Staged>> stagedReads(const UnitAST &U, const clang::Stmt &Body,
                                                const clang::VarDecl *J) {
  std::map<const clang::ParmVarDecl *, Staged> ByParam;
  std::set<const clang::ParmVarDecl *> Elsewhere;
  forEachStmt(&Body, [&](const clang::Stmt *S) {
    const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(S);
    const auto *P = Ref ? llvm::dyn_cast<clang::ParmVarDecl>(Ref->getDecl()) : nullptr;
    if (!P || !P->getType()->isPointerType())
      return;
    const auto *Sub =
        llvm::dyn_cast_or_null<clang::ArraySubscriptExpr>(parentPastParensAndCasts(Ref, U.Ctx));
    if (Sub && Sub->getBase()->IgnoreParenImpCasts() == Ref && namedVariable(Sub->getIdx()) == J) {
      ByParam[P].Param = P;
      ByParam[P].Reads.push_back(Sub);
    } else {
      Elsewhere.insert(P);
    }
  });
  // Written anywhere in the kernel: a tile would keep what the writes change.
  std::set<const clang::ParmVarDecl *> Written;
  forEachStmt(U.Kernel.getBody(), [&](const clang::Stmt *S) {
    const clang::Expr *Target = nullptr;
    if (const auto *B = llvm::dyn_cast<clang::BinaryOperator>(S); B && B->isAssignmentOp())
      Target = B->getLHS();
    if (const auto *Un = llvm::dyn_cast<clang::UnaryOperator>(S);
        Un && Un->isIncrementDecrementOp())
      Target = Un->getSubExpr();
    const auto *Sub =
        Target ? llvm::dyn_cast<clang::ArraySubscriptExpr>(Target->IgnoreParenImpCasts()) : nullptr;
    if (const auto *P =
            Sub ? llvm::dyn_cast_or_null<clang::ParmVarDecl>(namedVariable(Sub->getBase()))
                : nullptr)
      Written.insert(P);
  });
  std::vector<Staged> Out;
  for (auto &[P, S] : ByParam) {
    clang::QualType Element = P->getType()->getPointeeType();
    if (Elsewhere.count(P) || Written.count(P) || !Element->isConstantSizeType() ||
        Element->isVoidType())
      continue;
    for (const clang::ArraySubscriptExpr *R : S.Reads)
      if (parentOf(R, U.Ctx) && llvm::isa<clang::UnaryOperator>(parentOf(R, U.Ctx)) &&
          llvm::cast<clang::UnaryOperator>(parentOf(R, U.Ctx))->getOpcode() == clang::UO_AddrOf)
        return unsupported(U, R->getBeginLoc(), "the loop takes the address of an element");
    Out.push_back(std::move(S));
  }
  if (Out.empty())
    return unsupported(U, Body.getBeginLoc(),
                       "the loop reads no pointer parameter at [j] only (read-only, in no other "
                       "form)");
  return Out;
}

llvm::Error checkLoopBody(const UnitAST &U, const clang::Stmt &Body) {
  std::optional<llvm::Error> Refusal;
  forEachStmt(&Body, [&](const clang::Stmt *S) {
    if (Refusal)
      return;
    if (llvm::isa<clang::ReturnStmt>(S) || llvm::isa<clang::BreakStmt>(S) ||
        llvm::isa<clang::GotoStmt>(S))
      Refusal = unsupported(U, S->getBeginLoc(), "a return, break or goto in the loop");
  });
  if (Refusal)
    return std::move(*Refusal);
  StmtContents C = inspectStmt(Body);
  if (C.Barrier || C.Atomic || C.WarpIntrinsic || C.Shared)
    return unsupported(U, Body.getBeginLoc(),
                       "the loop synchronizes, uses atomics, warp intrinsics or shared memory");
  if (C.UserCall)
    return unsupported(U, Body.getBeginLoc(), "the loop calls a function of the unit");
  return llvm::Error::success();
}

// Whether E is the same for every thread of the block through the loop: it
// computes from parameters the kernel never assigns and constants. (A local
// could be declared under a bounds check, which threads past it skip.)
bool uniform(const clang::Expr *E, const std::set<const clang::VarDecl *> &Changed) {
  if (!computesOnly(E) || frontend::dependsOnThreadIndex(E))
    return false;
  bool Other = false;
  forEachStmt(E, [&](const clang::Stmt *S) {
    if (const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(S))
      if (const auto *V = llvm::dyn_cast<clang::VarDecl>(Ref->getDecl()))
        Other |= !llvm::isa<clang::ParmVarDecl>(V) || Changed.count(V) > 0;
  });
  return !Other;
}

llvm::Expected<Tiled> tileLoop(UnitAST &U, const clang::ForStmt &For, int64_t Block) {
  std::optional<CountedLoop> Counter = countedLoop(For, U);
  if (!Counter || Counter->Comparison != "<")
    return unsupported(U, For.getBeginLoc(), "the loop is not for (int j = E0; j < E1; j++)");
  std::set<const clang::VarDecl *> Changed = changedVariables(U.Kernel.getBody());
  if (changedVariables(For.getBody()).count(Counter->Var))
    return unsupported(U, For.getBeginLoc(), "the loop assigns its own counter");
  if (!uniform(Counter->Init, Changed) || !uniform(Counter->Bound, Changed))
    return unsupported(U, For.getBeginLoc(),
                       "the loop's bounds read more than parameters and constants");
  if (llvm::Error E = checkLoopBody(U, *For.getBody()))
    return E;
  llvm::Expected<std::vector<Staged>> Reads = stagedReads(U, *For.getBody(), Counter->Var);
  if (!Reads)
    return Reads.takeError();
  uint64_t Bytes = 0;
  for (const Staged &S : *Reads)
    Bytes += U.Ctx.getTypeSizeInChars(S.Param->getType()->getPointeeType()).getQuantity() *
             static_cast<uint64_t>(Block);
  if (Bytes > TileBytesLimit)
    return unsupported(U, For.getBeginLoc(),
                       "the tiles would take " + std::to_string(Bytes) +
                           " bytes of shared memory (48 KiB at most)");

  const clang::Stmt &Whole = outermostLoopStmt(U, For);
  llvm::Expected<clang::CharSourceRange> LoopRange = statementRange(U, Whole);
  llvm::Expected<clang::CharSourceRange> BodyRange = statementRange(U, *For.getBody());
  llvm::Expected<std::string> Init = exprText(U, *Counter->Init);
  llvm::Expected<std::string> Bound = exprText(U, *Counter->Bound);
  if (!LoopRange)
    return LoopRange.takeError();
  if (!BodyRange)
    return BodyRange.takeError();
  if (!Init)
    return Init.takeError();
  if (!Bound)
    return Bound.takeError();
  llvm::Expected<std::vector<Guard>> Guards = hoistOutOfGuards(U, Whole);
  if (!Guards)
    return Guards.takeError();

  std::string B = std::to_string(Block);
  std::string JType = typeText(Counter->Var->getType(), U);
  std::string J = Counter->Var->getName().str();
  std::vector<TextEdit> Uses;
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  Tiled Made;
  Made.Line = U.line(For.getBeginLoc());
  OS << "{ // kopt smem-tile-pairs: the j range through shared-memory tiles of " << B
     << " elements\n";
  for (const Staged &S : *Reads) {
    std::string Tile = "kopt_tile_" + S.Param->getName().str();
    OS << "__shared__ " << typeText(S.Param->getType()->getPointeeType().getUnqualifiedType(), U)
       << " " << Tile << "[" << B << "];\n";
    for (const clang::ArraySubscriptExpr *R : S.Reads)
      Uses.push_back({R->getSourceRange(), Tile + "[" + J + " - kopt_t]"});
    Made.Arrays.push_back(S.Param->getName().str());
  }
  OS << "for (" << JType << " kopt_t = (" << *Init << "); kopt_t < (" << *Bound
     << "); kopt_t += " << B << ") {\n"
     << "__syncthreads();\n"
     << "for (int kopt_e = (int)threadIdx.x; kopt_e < " << B << "; kopt_e += (int)blockDim.x) {\n"
     << "if (kopt_t + kopt_e < (" << *Bound << ")) {\n";
  for (const Staged &S : *Reads)
    OS << "kopt_tile_" << S.Param->getName() << "[kopt_e] = " << S.Param->getName()
       << "[kopt_t + kopt_e];\n";
  OS << "}\n}\n__syncthreads();\n";
  std::string AllGuards = conjunction(*Guards);
  if (!AllGuards.empty())
    OS << "if (" << AllGuards << ")\n";
  llvm::Expected<std::string> Body = editedText(U, *BodyRange, Uses);
  if (!Body)
    return Body.takeError();
  OS << "for (" << JType << " " << J << " = kopt_t; " << J << " < (" << *Bound << ") && " << J
     << " < kopt_t + " << B << "; ++" << J << ")\n"
     << *Body << "\n}\n}";
  U.Rewrite.ReplaceText(*LoopRange, Out);
  return Made;
}

llvm::Expected<Tiled> rewrite(UnitAST &U, int64_t Block) {
  std::vector<const clang::ForStmt *> Loops;
  forEachStmt(U.Kernel.getBody(), [&](const clang::Stmt *S) {
    if (const auto *For = llvm::dyn_cast<clang::ForStmt>(S))
      Loops.push_back(For);
  });
  if (Loops.empty())
    return unsupported(U, U.Kernel.getLocation(), "the kernel has no for loop");
  // The first loop that fits; the first loop's reason where none does.
  std::optional<llvm::Error> First;
  for (const clang::ForStmt *For : Loops) {
    // A candidate reads a parameter at its counter; others are not all-pairs loops.
    std::optional<CountedLoop> Counter = countedLoop(*For, U);
    if (!Counter)
      continue;
    llvm::Expected<Tiled> Made = tileLoop(U, *For, Block);
    if (Made) {
      if (First)
        llvm::consumeError(std::move(*First));
      return Made;
    }
    if (First)
      llvm::consumeError(Made.takeError());
    else
      First = Made.takeError();
  }
  if (First)
    return std::move(*First);
  return unsupported(U, U.Kernel.getLocation(), "the kernel has no counted for loop");
}

bool mentions(llvm::StringRef Text, llvm::StringRef Name) {
  for (size_t At = Text.find(Name); At != llvm::StringRef::npos; At = Text.find(Name, At + 1)) {
    auto Ident = [](char C) { return std::isalnum(static_cast<unsigned char>(C)) || C == '_'; };
    bool Before = At > 0 && Ident(Text[At - 1]);
    bool After = At + Name.size() < Text.size() && Ident(Text[At + Name.size()]);
    if (!Before && !After)
      return true;
  }
  return false;
}

// Whether L reads some array at [j] alone, the same element in every thread,
// and every other access of its body at an index without j (a reduction
// over x[j * n + i] is a product, not all pairs).
bool allPairs(const frontend::KernelFeatures &F, const frontend::LoopFeature &L) {
  if (L.InductionVar.empty())
    return false;
  int Index = static_cast<int>(&L - F.Loops.data());
  bool Pairs = false;
  for (const frontend::MemoryAccess &A : F.Accesses) {
    if (A.Loop != Index)
      continue;
    bool AtJ = A.Index == L.InductionVar;
    if (AtJ && A.Read && !A.Write && A.Pattern == frontend::AccessPattern::Broadcast)
      Pairs = true;
    else if (mentions(A.Index, L.InductionVar))
      return false;
  }
  return Pairs;
}

class SmemTilePairs : public Transform {
public:
  llvm::StringRef id() const override { return "smem-tile-pairs"; }

protected:
  Offer offerPoints(const frontend::KernelSummary &Kernel) const override {
    if (Fit F = dimensionsBetween(Kernel, 1, 1); !F)
      return F.offer();
    if (Fit F = independentThreads(Kernel); !F)
      return F.offer();
    const frontend::KernelFeatures &F = Kernel.Features;
    if (std::none_of(F.Loops.begin(), F.Loops.end(),
                     [&](const frontend::LoopFeature &L) { return allPairs(F, L); }))
      return Offer::no("no loop reads arrays at its counter alone, the same element across the "
                       "threads, and nothing else at an index of its counter (an all-pairs "
                       "loop over j)");
    std::optional<std::array<int64_t, 3>> Block = pragmaBlockDims(Kernel);
    if (!Block)
      return Offer::no("the pragma's launch does not give the block size");
    if ((*Block)[1] != 1 || (*Block)[2] != 1)
      return Offer::no("the pragma's block is not 1-D");
    return Offer::of({ParamSet{}});
  }

  llvm::Expected<TransformOutput> rewriteAt(const TransformInput &In,
                                            const ParamSet &) const override {
    std::optional<std::array<int64_t, 3>> Block = pragmaBlockDims(In.Kernel);
    if (!Block || (*Block)[0] < 1 || (*Block)[0] > 1024)
      return llvm::createStringError("the pragma's launch does not give a block size");
    int64_t X = (*Block)[0];
    llvm::Expected<RewrittenWith<Tiled>> Made =
        rewriteUnitWith<Tiled>(In, [&](UnitAST &U) { return rewrite(U, X); });
    if (!Made)
      return Made.takeError();
    return TransformOutput{std::move(Made->UnitText), std::nullopt,
                           "the loop at line " + std::to_string(Made->Found.Line) + " reads " +
                               llvm::join(Made->Found.Arrays, ", ") +
                               " through shared-memory tiles of " + std::to_string(X) +
                               " elements"};
  }
};

} // namespace

std::unique_ptr<Transform> makeSmemTilePairsTransform() {
  return std::make_unique<SmemTilePairs>();
}

} // namespace kopt::transform
