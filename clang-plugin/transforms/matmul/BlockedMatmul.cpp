#include "clang-plugin/transforms/matmul/BlockedMatmul.h"

#include "clang-plugin/analysis/IndexAnalysis.h"
#include "clang-plugin/analysis/ast/AstWalk.h"
#include "clang-plugin/analysis/ast/Mentions.h"
#include "clang-plugin/transforms/framework/AstEdit.h"
#include "clang-plugin/transforms/framework/GuardHoisting.h"
#include "clang-plugin/transforms/matmul/MatmulIdiom.h"
#include "clang-plugin/transforms/normalize/Normalization.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/Expr.h>
#include <clang/AST/Stmt.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Rewrite/Core/Rewriter.h>

#include <set>

namespace kopt::transform {

namespace {
// What the rewrite needs to know of the kernel.
struct Shape {
  MatmulIdiom M;
  const clang::Stmt *LoopStmt = nullptr;
  const clang::VarDecl *Acc = nullptr;
  const clang::Expr *AccInit = nullptr;
  std::vector<const clang::DeclStmt *> Decls; // Before the loop, in order; not Acc's.
  std::vector<Guard> Guards;                  // What a thread needed to reach the loop.
  std::vector<const clang::ReturnStmt *> Returns;
  std::vector<PositionSum> Sums;
  unsigned OpenBlocks = 0; // Blocks entered between the body's and the loop.
};

bool isLocalOf(const clang::VarDecl *V, const clang::FunctionDecl &Kernel) {
  return V && V->isLocalVarDecl() && V->getDeclContext() == &Kernel;
}

bool contains(const clang::SourceManager &SM, clang::SourceRange Outer, clang::SourceLocation L) {
  return !SM.isBeforeInTranslationUnit(L, Outer.getBegin()) &&
         !SM.isBeforeInTranslationUnit(Outer.getEnd(), L);
}

// The accumulator: the one variable of the kernel (not of the loop body) that
// the body writes. The body may read it, its own locals, parameters and
// globals besides the two operands, nothing else of the kernel.
llvm::Error findAccumulator(const UnitAST &U, Shape &S) {
  const clang::SourceManager &SM = U.Ctx.getSourceManager();
  const clang::Stmt *Body = S.M.Loop->getBody();
  clang::SourceRange BodyRange = Body->getSourceRange();
  std::string Why;
  forEachStmt(Body, [&](const clang::Stmt *St) {
    const clang::Expr *Written = nullptr;
    if (const auto *B = llvm::dyn_cast<clang::BinaryOperator>(St); B && B->isAssignmentOp())
      Written = B->getLHS()->IgnoreParenImpCasts();
    else if (const auto *Un = llvm::dyn_cast<clang::UnaryOperator>(St);
             Un && Un->isIncrementDecrementOp())
      Written = Un->getSubExpr()->IgnoreParenImpCasts();
    if (!Written)
      return;
    const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(Written);
    const auto *V = Ref ? llvm::dyn_cast<clang::VarDecl>(Ref->getDecl()) : nullptr;
    if (!V || !isLocalOf(V, U.Kernel)) {
      Why = "the loop body writes something other than a local variable";
      return;
    }
    if (contains(SM, BodyRange, V->getLocation()))
      return; // A local of the body.
    if (S.Acc && S.Acc != V)
      Why = "the loop body updates two accumulators";
    S.Acc = V;
  });
  if (!Why.empty())
    return unsupported(U, S.M.Loop->getBeginLoc(), Why);
  if (!S.Acc || !S.Acc->getType()->isScalarType())
    return unsupported(U, S.M.Loop->getBeginLoc(), "the loop body updates no scalar accumulator");
  forEachStmt(Body, [&](const clang::Stmt *St) {
    const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(St);
    const auto *V = Ref ? llvm::dyn_cast<clang::VarDecl>(Ref->getDecl()) : nullptr;
    if (!V || !isLocalOf(V, U.Kernel) || V == S.Acc || V == S.M.K.Var ||
        contains(SM, BodyRange, V->getLocation()))
      return;
    if (llvm::any_of(S.M.Operands, [&](const MatmulOperand &O) {
          return contains(SM, O.Value->getSourceRange(), Ref->getLocation());
        }))
      return; // Operands are evaluated where they are loaded.
    Why = "the loop body reads '" + V->getNameAsString() + "' besides its operands";
  });
  if (!Why.empty())
    return unsupported(U, S.M.Loop->getBeginLoc(), Why);
  return llvm::Error::success();
}

// Whether E reads a local variable of the kernel.
bool readsLocal(const clang::Expr *E, const clang::FunctionDecl &Kernel) {
  bool Found = false;
  forEachStmt(E, [&](const clang::Stmt *St) {
    if (const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(St))
      Found |= isLocalOf(llvm::dyn_cast<clang::VarDecl>(Ref->getDecl()), Kernel);
  });
  return Found;
}

// Whether the locals E reads are all declared by S's declarations before the
// loop.
bool readsOnlyDecls(const clang::Expr *E, const Shape &S, const clang::FunctionDecl &Kernel) {
  bool Only = true;
  forEachStmt(E, [&](const clang::Stmt *St) {
    const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(St);
    const auto *V = Ref ? llvm::dyn_cast<clang::VarDecl>(Ref->getDecl()) : nullptr;
    if (!isLocalOf(V, Kernel))
      return;
    Only = Only && llvm::any_of(S.Decls, [&](const clang::DeclStmt *D) {
             return llvm::is_contained(D->decls(), V);
           });
  });
  return Only;
}

// The way from the kernel's body down to the loop: blocks and ifs without
// else; before the loop only declarations without effects, early returns and
// the accumulator's declaration.
llvm::Error walkToLoop(const UnitAST &U, Shape &S) {
  llvm::Expected<std::vector<PathStep>> Path = pathFromBody(U, *S.LoopStmt);
  if (!Path)
    return Path.takeError();
  const clang::Stmt *Body = U.Kernel.getBody();
  for (const PathStep &Step : *Path) {
    if (Step.If) {
      if (llvm::Error E = addGuards(U, Step.If->getCond(), /*Negated=*/false, S.Guards))
        return E;
      continue;
    }
    if (Step.Block != Body)
      ++S.OpenBlocks;
    for (const clang::Stmt *Before : Step.Block->body()) {
      if (Before == Step.Child)
        break;
      if (const clang::Expr *Cond = earlyReturnCondition(*Before)) {
        if (llvm::Error E = addGuards(U, Cond, /*Negated=*/true, S.Guards))
          return E;
        continue;
      }
      const auto *Decl = llvm::dyn_cast<clang::DeclStmt>(Before);
      if (Decl && Decl->isSingleDecl() && Decl->getSingleDecl() == S.Acc) {
        if (!S.Acc->getInit() || S.Acc->getInit()->HasSideEffects(U.Ctx) ||
            S.Acc->getInitStyle() != clang::VarDecl::CInit)
          return unsupported(U, Before->getBeginLoc(),
                             "the accumulator's declaration has no plain initializer");
        S.AccInit = S.Acc->getInit();
        continue;
      }
      if (Decl && isInertDecl(*Before)) {
        S.Decls.push_back(Decl);
        continue;
      }
      if (llvm::isa<clang::NullStmt>(Before))
        continue;
      return unsupported(U, Before->getBeginLoc(),
                         "a statement before the loop does more than declare and check");
    }
  }
  if (!S.AccInit)
    return unsupported(U, S.Acc->getLocation(),
                       "the accumulator is not declared on the way to the loop");
  return llvm::Error::success();
}

llvm::Expected<Shape> analyze(UnitAST &U) {
  Shape S;
  if (llvm::Error E = checkGlobalIndexForm(U, "xy", /*AllowBlockZ=*/true, &S.Sums))
    return E;
  llvm::Expected<MatmulIdiom> M = findMatmulIdiom(U);
  if (!M)
    return M.takeError();
  S.M = *M;
  S.LoopStmt = &outermostLoopStmt(U, *S.M.Loop);
  if (S.LoopStmt != S.M.Loop)
    return unsupported(U, S.M.Loop->getBeginLoc(), "the k loop carries a #pragma");
  if (!S.M.BoundsDim && (readsLocal(S.M.K.Init, U.Kernel) || readsLocal(S.M.K.Bound, U.Kernel)))
    return unsupported(U, S.M.Loop->getBeginLoc(), "the k loop's bounds read local variables");
  if (llvm::Error E = findAccumulator(U, S))
    return E;
  if (llvm::Error E = walkToLoop(U, S))
    return E;
  // Triangular bounds are evaluated at other positions than the thread's own:
  // they may read declarations before the loop (recomputed there), nothing
  // else of the kernel's.
  if (S.M.BoundsDim)
    for (const clang::Expr *E : {S.M.K.Init, S.M.K.Bound})
      if (!readsOnlyDecls(E, S, U.Kernel))
        return unsupported(U, S.M.Loop->getBeginLoc(),
                           "the k loop's bounds read a variable that is not declared before it");
  bool X = false, Y = false;
  for (const Guard &G : S.Guards) {
    bool GX = readsThreadPosition(G.Cond, 'x'), GY = readsThreadPosition(G.Cond, 'y');
    if (GX && GY)
      return unsupported(U, G.Cond->getBeginLoc(), "a bounds check mixes the row and the column");
    X = X || GX;
    Y = Y || GY;
  }
  if (!X || !Y)
    return unsupported(U, S.M.Loop->getBeginLoc(),
                       "no bounds check on both the row and the column: the tiles could cover "
                       "positions the original launch did not have");
  std::string Why;
  forEachStmt(U.Kernel.getBody(), [&](const clang::Stmt *St) {
    if (const auto *Ret = llvm::dyn_cast<clang::ReturnStmt>(St)) {
      if (Ret->getRetValue() || Ret->getBeginLoc().isMacroID())
        Why = "a return with a value or from a macro";
      S.Returns.push_back(Ret);
    }
  });
  if (!Why.empty())
    return unsupported(U, U.Kernel.getLocation(), Why);
  StmtContents Contents = inspectStmt(*U.Kernel.getBody());
  if (Contents.Barrier || Contents.Shared || Contents.WarpIntrinsic)
    return unsupported(U, U.Kernel.getLocation(),
                       "the kernel already synchronizes or uses shared memory");
  return S;
}

// The declarations before the loop that Reads need, directly or through other
// declarations, in order.
std::vector<const clang::DeclStmt *> neededDecls(const Shape &S,
                                                 std::vector<const clang::Expr *> Reads) {
  std::set<const clang::DeclStmt *> Needed;
  while (!Reads.empty()) {
    const clang::Expr *E = Reads.back();
    Reads.pop_back();
    forEachStmt(E, [&](const clang::Stmt *St) {
      const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(St);
      if (!Ref)
        return;
      for (const clang::DeclStmt *D : S.Decls)
        for (const clang::Decl *Declared : D->decls())
          if (Declared == Ref->getDecl() && Needed.insert(D).second)
            for (const clang::Decl *Each : D->decls())
              if (const auto *V = llvm::dyn_cast<clang::VarDecl>(Each); V && V->getInit())
                Reads.push_back(V->getInit());
    });
  }
  std::vector<const clang::DeclStmt *> Out;
  for (const clang::DeclStmt *D : S.Decls)
    if (Needed.count(D))
      Out.push_back(D);
  return Out;
}

// Edits that take out the declarations before the loop that Reads do not
// need (they are inert: nothing else changes).
llvm::Expected<std::vector<TextEdit>> unreadDecls(const UnitAST &U, const Shape &S,
                                                  const std::vector<const clang::Expr *> &Reads) {
  std::vector<const clang::DeclStmt *> Needed = neededDecls(S, Reads);
  std::vector<TextEdit> Edits;
  for (const clang::DeclStmt *D : S.Decls) {
    if (llvm::is_contained(Needed, D))
      continue;
    llvm::Expected<clang::CharSourceRange> R = statementRange(U, *D);
    if (!R)
      return R.takeError();
    // A token range that ends at the ';': the range's last character.
    Edits.push_back({clang::SourceRange(R->getBegin(), R->getEnd().getLocWithOffset(-1)), ""});
  }
  return Edits;
}

// Text of Range with Edits and, where no edit covers them, the position sums
// renamed and returns turned into jumps to Label.
class PhaseText {
public:
  PhaseText(const UnitAST &Unit, const Shape &Found) : U(Unit), S(Found) {}

  llvm::Expected<std::string> operator()(clang::CharSourceRange Range, std::vector<TextEdit> Edits,
                                         llvm::StringRef Label = "") const {
    const clang::SourceManager &SM = U.Ctx.getSourceManager();
    auto Inside = [&](clang::SourceRange R) {
      return !SM.isBeforeInTranslationUnit(R.getBegin(), Range.getBegin()) &&
             SM.isBeforeInTranslationUnit(R.getEnd(), Range.getEnd());
    };
    auto Covered = [&](clang::SourceRange R) {
      for (const TextEdit &E : Edits)
        if (contains(SM, E.Range, R.getBegin()))
          return true;
      return false;
    };
    std::vector<TextEdit> All;
    for (const TextEdit &E : Edits)
      if (Inside(E.Range))
        All.push_back(E);
    for (const PositionSum &P : S.Sums)
      if (Inside(P.Sum->getSourceRange()) && !Covered(P.Sum->getSourceRange()))
        All.push_back({P.Sum->getSourceRange(), P.Dim == 'x' ? "kopt_gx" : "kopt_gy"});
    for (const clang::ReturnStmt *R : S.Returns)
      if (Inside(R->getSourceRange()) && !Covered(R->getSourceRange())) {
        if (Label.empty())
          return unsupported(U, R->getBeginLoc(), "a return inside the loop");
        All.push_back({clang::SourceRange(R->getBeginLoc()), "goto " + Label.str()});
      }
    return editedText(U, Range, std::move(All));
  }

private:
  const UnitAST &U;
  const Shape &S;
};

// The label a phase's returns jump to, where it has any (an unused label
// draws a warning).
std::string label(llvm::StringRef Phase, llvm::StringRef Name) {
  return Phase.contains("goto " + Name.str()) ? "  " + Name.str() + ":;\n" : "";
}

// An operand's tile and fragment: kopt_tile_y for the first one of y,
// kopt_tile_y1 for a second (a sum of products).
std::string operandSuffix(const MatmulIdiom &M, size_t Index) {
  size_t Before = 0;
  for (size_t I = 0; I < Index; ++I)
    Before += M.Operands[I].Dim == M.Operands[Index].Dim;
  return std::string(1, M.Operands[Index].Dim) + (Before ? std::to_string(Before) : "");
}
std::string tileName(const MatmulIdiom &M, size_t I) { return "kopt_tile_" + operandSuffix(M, I); }
std::string fragName(const MatmulIdiom &M, size_t I) { return "kopt_frag_" + operandSuffix(M, I); }
std::string laneIndex(char Dim) { return Dim == 'y' ? "kopt_i" : "kopt_j"; }

// Where a thread's Count outputs along Dim lie in the tile. In groups of four
// consecutive positions where Count is a multiple of 4 (a fragment is then a
// 16-byte read of the shared tile, and 64 accumulators fit 128 registers
// without spilling: 5.49 -> 3.98 ms on a 4096^3 gemm, bench/RESULTS.md);
// Side apart otherwise.
std::string laneOffset(const Blocking &T, char Dim, int64_t Count, llvm::StringRef Lane) {
  std::string Side = std::to_string(T.Side);
  if (Count % 4 != 0)
    return "threadIdx." + std::string(1, Dim) + " + " + Side + "u * " + Lane.str();
  return "threadIdx." + std::string(1, Dim) + " * 4u + " + std::to_string(4 * T.Side) + "u * (" +
         Lane.str() + " / 4) + " + Lane.str() + " % 4";
}

// Whether an accumulator that starts at Init may start at T{} instead: Init
// is a constant integer zero or floating-point +0.
bool startsAtZero(const clang::Expr &Init, const clang::ASTContext &Ctx) {
  clang::Expr::EvalResult R;
  if (Init.isValueDependent() || !Init.EvaluateAsRValue(R, Ctx))
    return false;
  if (R.Val.isInt())
    return R.Val.getInt().isZero();
  return R.Val.isFloat() && R.Val.getFloat().isPosZero();
}

// Whether the loop body changes Acc only by adding or subtracting terms that
// do not read it (`acc += e`, `acc -= e`, `acc = acc + e`, `acc = e + acc`,
// `acc = acc - e`) and reads it nowhere else: its start may then be added
// after the loop.
bool updatesBySum(const clang::Stmt &Body, const clang::VarDecl *Acc) {
  auto IsAcc = [&](const clang::Expr *E) { return namedVariable(E) == Acc; };
  unsigned Summed = 0; // The references to Acc in the sums.
  forEachStmt(&Body, [&](const clang::Stmt *St) {
    const auto *B = llvm::dyn_cast<clang::BinaryOperator>(St);
    if (!B || !IsAcc(B->getLHS()))
      return;
    const clang::Expr *R = B->getRHS();
    if ((B->getOpcode() == clang::BO_AddAssign || B->getOpcode() == clang::BO_SubAssign) &&
        !mentions(R, Acc)) {
      Summed += 1;
      return;
    }
    const auto *Sum = llvm::dyn_cast<clang::BinaryOperator>(R->IgnoreParenImpCasts());
    if (B->getOpcode() != clang::BO_Assign || !Sum)
      return;
    bool Left = IsAcc(Sum->getLHS()) && !mentions(Sum->getRHS(), Acc),
         Right = IsAcc(Sum->getRHS()) && !mentions(Sum->getLHS(), Acc);
    if ((Sum->getOpcode() == clang::BO_Add && (Left || Right)) ||
        (Sum->getOpcode() == clang::BO_Sub && Left))
      Summed += 2;
  });
  return countRefs(&Body, Acc) == Summed;
}

// Whether the fragments of an operand of type Ty are read 4 at a time.
bool vectorFragments(clang::QualType Ty, int64_t Count) {
  return Count % 4 == 0 && Ty.getCanonicalType()->isSpecificBuiltinType(clang::BuiltinType::Float);
}

} // namespace

llvm::Error rewriteBlockedMatmul(UnitAST &U, const Blocking &T, unsigned &Line) {
  llvm::Expected<Shape> Found = analyze(U);
  if (!Found)
    return Found.takeError();
  const Shape &S = *Found;
  Line = U.line(S.M.Loop->getBeginLoc());
  const auto *Body = llvm::dyn_cast<clang::CompoundStmt>(U.Kernel.getBody());
  if (!Body || Body->getLBracLoc().isMacroID() || Body->getRBracLoc().isMacroID())
    return unsupported(U, U.Kernel.getLocation(), "the kernel's body is not a plain block");
  const int64_t Threads = T.Side * T.Side;
  const auto *Bounds = U.Kernel.getAttr<clang::CUDALaunchBoundsAttr>();
  if (Bounds) {
    std::optional<llvm::APSInt> Max = Bounds->getMaxThreads()
                                          ? Bounds->getMaxThreads()->getIntegerConstantExpr(U.Ctx)
                                          : std::nullopt;
    if (!Max || Max->getExtValue() < Threads)
      return unsupported(U, U.Kernel.getLocation(),
                         "the kernel's __launch_bounds__ do not allow blocks of " +
                             std::to_string(Threads) + " threads");
  }
  // 64 accumulators and their fragments take 130 to 190 registers, which
  // leaves one block of 256 threads on an SM; capped at 128 (two blocks) ptxas
  // fits them without spilling: 1.8x on a 4096^3 gemm on the H100
  // (bench/RESULTS.md). Launch bounds of the kernel's own are kept.
  if (T.TY * T.TX >= 64 && !Bounds) {
    if (U.Kernel.getLocation().isMacroID())
      return unsupported(U, U.Kernel.getLocation(), "the kernel's name comes from a macro");
    U.Rewrite.InsertTextBefore(U.Kernel.getLocation(),
                               "__launch_bounds__(" + std::to_string(Threads) + ", 2) ");
  }
  PhaseText Phase(U, S);
  clang::SourceLocation BodyStart = Body->getLBracLoc().getLocWithOffset(1);
  std::string AccType = typeText(S.Acc->getType(), U);
  std::string AccSlot = "kopt_acc[kopt_i][kopt_j]";

  // Where the loop only adds terms to the accumulator, the accumulators start
  // at zero and each position adds its own start after the loop, where it
  // stores: C's values loaded before the loop (gemm's `C[i][j] * beta`) cost
  // 5.15 -> 3.89 ms on a 4096^3 gemm (bench/RESULTS.md). The loop writes no
  // memory, so the start reads the same values there; a floating-point sum is
  // reassociated once, which the verification's tolerance judges as for any
  // variant. Other updates start from the start, computed before the loop.
  // Each phase leaves out the declarations it does not read (nvcc would warn).
  const bool Zero = startsAtZero(*S.AccInit, U.Ctx);
  const bool StartAfter = !Zero && updatesBySum(*S.M.Loop->getBody(), S.Acc);
  std::vector<const clang::Expr *> Checks, After;
  for (const Guard &G : S.Guards)
    Checks.push_back(G.Cond);
  const clang::SourceManager &SM = U.Ctx.getSourceManager();
  forEachStmt(Body, [&](const clang::Stmt *St) {
    if (const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(St);
        Ref && SM.isBeforeInTranslationUnit(S.LoopStmt->getEndLoc(), Ref->getLocation()))
      After.push_back(Ref);
  });
  std::vector<const clang::Expr *> PrefixReads = Checks, SuffixReads = Checks;
  PrefixReads.push_back(S.AccInit);
  SuffixReads.insert(SuffixReads.end(), After.begin(), After.end());
  if (StartAfter)
    SuffixReads.push_back(S.AccInit);
  llvm::Expected<std::vector<TextEdit>> PrefixDrops = unreadDecls(U, S, PrefixReads);
  llvm::Expected<std::vector<TextEdit>> SuffixDrops = unreadDecls(U, S, SuffixReads);
  if (!PrefixDrops)
    return PrefixDrops.takeError();
  if (!SuffixDrops)
    return SuffixDrops.takeError();
  // The code before the loop, for one position: the accumulator's start.
  llvm::Expected<std::string> Prefix =
      Phase(clang::CharSourceRange::getCharRange(BodyStart, S.LoopStmt->getBeginLoc()),
            *PrefixDrops, "kopt_init_next");
  // The whole body without the loop, the accumulator read back: the stores.
  std::string Stored = AccSlot;
  if (StartAfter) {
    llvm::Expected<std::string> InitText = exprText(U, *S.AccInit);
    if (!InitText)
      return InitText.takeError();
    Stored = "(" + *InitText + ") + " + AccSlot;
  }
  SuffixDrops->push_back({S.AccInit->getSourceRange(), Stored});
  SuffixDrops->push_back({S.LoopStmt->getSourceRange(), ""});
  llvm::Expected<std::string> Suffix =
      Phase(clang::CharSourceRange::getCharRange(BodyStart, Body->getRBracLoc()), *SuffixDrops,
            "kopt_store_next");
  // The loop body over registers.
  llvm::Expected<clang::CharSourceRange> LoopBody = statementRange(U, *S.M.Loop->getBody());
  if (!LoopBody)
    return LoopBody.takeError();
  std::vector<TextEdit> BodyEdits;
  for (size_t I = 0; I < S.M.Operands.size(); ++I)
    BodyEdits.push_back({S.M.Operands[I].Value->getSourceRange(),
                         fragName(S.M, I) + "[" + laneIndex(S.M.Operands[I].Dim) + "]"});
  forEachStmt(S.M.Loop->getBody(), [&](const clang::Stmt *St) {
    if (const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(St); Ref && Ref->getDecl() == S.Acc)
      BodyEdits.push_back({Ref->getSourceRange(), AccSlot});
  });
  llvm::Expected<std::string> Update = editedText(U, *LoopBody, BodyEdits);
  for (llvm::Expected<std::string> *E : {&Prefix, &Suffix, &Update})
    if (!*E)
      return E->takeError();

  std::string Cmp = S.M.K.Comparison;
  llvm::Expected<std::string> Bound = exprText(U, *S.M.K.Bound);
  llvm::Expected<std::string> Init = exprText(U, *S.M.K.Init);
  if (!Bound)
    return Bound.takeError();
  if (!Init)
    return Init.takeError();
  std::string KType = typeText(S.M.K.Var->getType(), U);
  std::string BK = std::to_string(T.BK);

  std::string Out;
  llvm::raw_string_ostream OS(Out);
  auto Positions = [&](llvm::StringRef Y, llvm::StringRef X) {
    OS << "  const unsigned int kopt_gy = blockIdx.y * " << T.extent('y') << "u + " << Y << ";\n"
       << "  const unsigned int kopt_gx = blockIdx.x * " << T.extent('x') << "u + " << X << ";\n";
  };
  auto EachPosition = [&] {
    OS << "#pragma unroll\nfor (int kopt_i = 0; kopt_i < " << T.TY << "; ++kopt_i)\n"
       << "#pragma unroll\nfor (int kopt_j = 0; kopt_j < " << T.TX << "; ++kopt_j) {\n";
    Positions(laneOffset(T, 'y', T.TY, "kopt_i"), laneOffset(T, 'x', T.TX, "kopt_j"));
  };

  // The bounds checks that do not read Other's position: those a position of
  // the other dimension alone can test (a load, a bound at that position).
  auto ChecksWithout = [&](char Other) {
    std::vector<const Guard *> Kept;
    for (const Guard &C : S.Guards)
      if (!readsThreadPosition(C.Cond, Other))
        Kept.push_back(&C);
    return Kept;
  };
  // Those checks as "(c) && ...".
  auto GuardsWithout = [&](char Other) -> llvm::Expected<std::string> {
    std::string Text;
    for (const Guard *C : ChecksWithout(Other)) {
      llvm::Expected<clang::CharSourceRange> R = fileRange(U, C->Cond->getSourceRange());
      if (!R)
        return R.takeError();
      llvm::Expected<std::string> G = Phase(*R, {});
      if (!G)
        return G.takeError();
      Text += (C->Negated ? "!(" : "(") + *G + ") && ";
    }
    return Text;
  };
  // The declarations before the loop that Reads need, at the position in
  // scope (kopt_gx or kopt_gy).
  auto EmitDecls = [&](std::vector<const clang::Expr *> Reads) -> llvm::Error {
    for (const clang::DeclStmt *D : neededDecls(S, std::move(Reads))) {
      llvm::Expected<clang::CharSourceRange> R = statementRange(U, *D);
      if (!R)
        return R.takeError();
      llvm::Expected<std::string> Decl = Phase(*R, {});
      if (!Decl)
        return Decl.takeError();
      OS << "  " << *Decl << "\n";
    }
    return llvm::Error::success();
  };
  const char BD = S.M.BoundsDim;
  const char NotBD = BD == 'y' ? 'x' : 'y';
  const std::string BoundsLane = BD ? laneIndex(BD) : "";
  std::vector<const clang::Expr *> BoundsReads = {S.M.K.Init, S.M.K.Bound};
  if (BD)
    for (const Guard *C : ChecksWithout(NotBD))
      BoundsReads.push_back(C->Cond);

  if (T.TY == 1 && T.TX == 1)
    OS << "{ // kopt smem-tiling: " << T.Side << " x " << T.Side << " tiles\n";
  else
    OS << "{ // kopt register-blocking: " << T.TY << " x " << T.TX << " outputs a thread, "
       << T.extent('y') << " x " << T.extent('x') << " tiles, k step " << BK << "\n";
  std::vector<int64_t> Pad;
  for (size_t I = 0; I < S.M.Operands.size(); ++I) {
    const MatmulOperand &O = S.M.Operands[I];
    // Loads walk k fastest where k is unit stride; padding spreads them over
    // banks (4 for rows of whole 16-byte fragments: at BK 16, two stores of a
    // warp share a bank).
    bool Vector = vectorFragments(O.Value->getType(), O.Dim == 'y' ? T.TY : T.TX);
    Pad.push_back(unitStrideInK(*O.Access, S.M.K.Var) ? (Vector ? 4 : 32 / T.BK) : 0);
    OS << "__shared__ " << (Vector ? "__align__(16) " : "") << typeText(O.Value->getType(), U)
       << " " << tileName(S.M, I) << "[" << BK << "][" << T.extent(O.Dim) + Pad[I] << "];\n";
  }
  OS << AccType << " kopt_acc[" << T.TY << "][" << T.TX << "];\n"
     << "const int kopt_tid = threadIdx.y * " << T.Side << " + threadIdx.x;\n";
  if (Zero || StartAfter) {
    OS << "#pragma unroll\nfor (int kopt_i = 0; kopt_i < " << T.TY << "; ++kopt_i)\n"
       << "#pragma unroll\nfor (int kopt_j = 0; kopt_j < " << T.TX << "; ++kopt_j)\n  " << AccSlot
       << " = " << AccType << "{};\n";
  } else {
    EachPosition();
    OS << "  " << AccSlot << " = " << AccType << "{};\n  {\n"
       << *Prefix << "\n"
       << AccSlot << " = " << S.Acc->getNameAsString() << ";\n"
       << std::string(S.OpenBlocks, '}') << "\n  }\n"
       << label(*Prefix, "kopt_init_next") << "}\n";
  }

  if (BD) {
    // A triangular loop: the tile runs over the union of its positions' k
    // ranges (those that pass the bounds checks); each thread keeps its own
    // positions' ranges for the updates.
    int64_t Count = BD == 'y' ? T.TY : T.TX;
    llvm::Expected<std::string> In = GuardsWithout(NotBD);
    if (!In)
      return In.takeError();
    OS << "long long kopt_klo = 0x7fffffffffffffffLL, kopt_khi = -0x7fffffffffffffffLL - 1;\n"
       << "#pragma unroll 1\nfor (int kopt_t = 0; kopt_t < " << T.extent(BD) << "; ++kopt_t) {\n"
       << "  const unsigned int kopt_g" << BD << " = blockIdx." << BD << " * " << T.extent(BD)
       << "u + kopt_t;\n";
    if (llvm::Error E = EmitDecls(BoundsReads))
      return E;
    OS << "  if (" << *In << "true) {\n"
       << "    const long long kopt_a = (" << *Init << "), kopt_b = (" << *Bound << ");\n"
       << "    kopt_klo = kopt_a < kopt_klo ? kopt_a : kopt_klo;\n"
       << "    kopt_khi = kopt_b > kopt_khi ? kopt_b : kopt_khi;\n  }\n}\n"
       << "long long kopt_lo[" << Count << "], kopt_hi[" << Count << "];\n"
       << "#pragma unroll\nfor (int " << BoundsLane << " = 0; " << BoundsLane << " < " << Count
       << "; ++" << BoundsLane << ") {\n"
       << "  const unsigned int kopt_g" << BD << " = blockIdx." << BD << " * " << T.extent(BD)
       << "u + " << laneOffset(T, BD, Count, BoundsLane) << ";\n";
    if (llvm::Error E = EmitDecls(BoundsReads))
      return E;
    // An empty range where the position is out of bounds (the bounds are
    // not evaluated there).
    OS << "  const bool kopt_in = " << *In << "true;\n"
       << "  kopt_lo[" << BoundsLane << "] = kopt_in ? (long long)(" << *Init << ") : 1;\n"
       << "  kopt_hi[" << BoundsLane << "] = kopt_in ? (long long)(" << *Bound << ") : 0;\n}\n"
       << "for (long long kopt_kt = kopt_klo; kopt_kt " << Cmp << " kopt_khi; kopt_kt += " << BK
       << ") {\n";
  } else {
    OS << "for (" << KType << " kopt_kt = (" << *Init << "); kopt_kt " << Cmp << " (" << *Bound
       << "); kopt_kt += " << BK << ") {\n";
  }
  for (size_t I = 0; I < S.M.Operands.size(); ++I) {
    const char Dim = S.M.Operands[I].Dim;
    const clang::Expr *Operand = S.M.Operands[I].Value;
    int64_t Extent = T.extent(Dim);
    int64_t Loads = Extent * T.BK / (T.Side * T.Side);
    bool KFastest = Pad[I] != 0;
    llvm::Expected<std::string> Guards = GuardsWithout(Dim == 'y' ? 'x' : 'y');
    if (!Guards)
      return Guards.takeError();
    llvm::Expected<clang::CharSourceRange> OperandRange = fileRange(U, Operand->getSourceRange());
    if (!OperandRange)
      return OperandRange.takeError();
    llvm::Expected<std::string> Value = Phase(*OperandRange, {});
    if (!Value)
      return Value.takeError();
    OS << "#pragma unroll\nfor (int kopt_l = 0; kopt_l < " << Loads << "; ++kopt_l) {\n"
       << "  const int kopt_e = kopt_tid + kopt_l * " << T.Side * T.Side << ";\n"
       << "  const int kopt_p = kopt_e " << (KFastest ? "/ " + BK : "% " + std::to_string(Extent))
       << ";\n"
       << "  const int kopt_q = kopt_e " << (KFastest ? "% " + BK : "/ " + std::to_string(Extent))
       << ";\n";
    // The operand reads its own dimension's position only (MatmulIdiom.h).
    OS << "  const unsigned int kopt_g" << Dim << " = blockIdx." << Dim << " * " << Extent
       << "u + kopt_p;\n";
    std::vector<const clang::Expr *> Reads = {Operand};
    for (const Guard *C : ChecksWithout(Dim == 'y' ? 'x' : 'y'))
      Reads.push_back(C->Cond);
    if (Dim == BD)
      Reads.insert(Reads.end(), {S.M.K.Init, S.M.K.Bound});
    if (llvm::Error E = EmitDecls(Reads))
      return E;
    std::string KName = S.M.K.Var->getName().str();
    // In range: the loop's own test, where the bounds follow this operand's
    // position; the tile's union where they follow the other's.
    std::string InRange = KName + " " + Cmp + " (" + *Bound + ")";
    if (Dim == BD)
      InRange = KName + " >= (" + *Init + ") && " + InRange;
    else if (BD)
      InRange = "kopt_kt + kopt_q " + Cmp + " kopt_khi";
    OS << "  const " << KType << " " << KName << " = "
       << (BD ? "static_cast<" + KType + ">(kopt_kt + kopt_q)" : std::string("kopt_kt + kopt_q"))
       << ";\n"
       << "  " << tileName(S.M, I) << "[kopt_q][kopt_p] = (" << *Guards << InRange << ") ? "
       << *Value << " : static_cast<" << typeText(Operand->getType(), U) << ">(0);\n}\n";
  }
  OS << "__syncthreads();\n"
     << "#pragma unroll\nfor (int kopt_kk = 0; kopt_kk < " << BK << "; ++kopt_kk) {\n";
  for (size_t I = 0; I < S.M.Operands.size(); ++I) {
    const char Dim = S.M.Operands[I].Dim;
    int64_t Count = Dim == 'y' ? T.TY : T.TX;
    std::string Lane = laneIndex(Dim);
    std::string Frag = fragName(S.M, I);
    OS << "  " << typeText(S.M.Operands[I].Value->getType(), U) << " " << Frag << "[" << Count
       << "];\n#pragma unroll\n";
    if (vectorFragments(S.M.Operands[I].Value->getType(), Count)) {
      OS << "  for (int " << Lane << " = 0; " << Lane << " < " << Count << "; " << Lane
         << " += 4) {\n"
         << "    const float4 kopt_v = *reinterpret_cast<const float4 *>(&" << tileName(S.M, I)
         << "[kopt_kk][" << laneOffset(T, Dim, Count, Lane) << "]);\n"
         << "    " << Frag << "[" << Lane << "] = kopt_v.x;\n"
         << "    " << Frag << "[" << Lane << " + 1] = kopt_v.y;\n"
         << "    " << Frag << "[" << Lane << " + 2] = kopt_v.z;\n"
         << "    " << Frag << "[" << Lane << " + 3] = kopt_v.w;\n  }\n";
    } else {
      OS << "  for (int " << Lane << " = 0; " << Lane << " < " << Count << "; ++" << Lane
         << ")\n    " << Frag << "[" << Lane << "] = " << tileName(S.M, I) << "[kopt_kk]["
         << laneOffset(T, Dim, Count, Lane) << "];\n";
    }
  }
  OS << "#pragma unroll\n  for (int kopt_i = 0; kopt_i < " << T.TY << "; ++kopt_i)\n"
     << "#pragma unroll\n  for (int kopt_j = 0; kopt_j < " << T.TX << "; ++kopt_j)";
  if (BD) // Each position's own k range.
    OS << " {\n    if (kopt_kt + kopt_kk >= kopt_lo[" << BoundsLane << "] && kopt_kt + kopt_kk "
       << Cmp << " kopt_hi[" << BoundsLane << "]) {\n      " << *Update << "\n    }\n  }\n";
  else if (S.M.PlainProduct) // Zeros past the end add nothing.
    OS << " {\n    " << *Update << "\n  }\n";
  else
    OS << " {\n    if (kopt_kt + kopt_kk " << Cmp << " (" << *Bound << ")) {\n      " << *Update
       << "\n    }\n  }\n";
  OS << "}\n__syncthreads();\n}\n";

  EachPosition();
  OS << "  {\n" << *Suffix << "\n  }\n" << label(*Suffix, "kopt_store_next") << "}\n}";
  U.Rewrite.ReplaceText(Body->getSourceRange(), Out);
  return llvm::Error::success();
}

frontend::LaunchMapping blockedLaunch(const Blocking &B) {
  std::string BY = std::to_string(B.extent('y')), BX = std::to_string(B.extent('x'));
  frontend::LaunchMapping Launch;
  Launch.Block = {std::to_string(B.Side), std::to_string(B.Side), "1"};
  Launch.Grid = {"(grid_x * block_x + " + BX + " - 1) / " + BX,
                 "(grid_y * block_y + " + BY + " - 1) / " + BY, "grid_z"};
  return Launch;
}

llvm::Expected<TransformOutput>
applyBlockedMatmul(const TransformInput &In, const Blocking &B,
                   llvm::function_ref<std::string(unsigned Line)> Summary) {
  unsigned Line = 0;
  llvm::Expected<NormalizedRewrite> Text = rewriteNormalized(
      In, idiomNormalizations(), [&](UnitAST &U) { return rewriteBlockedMatmul(U, B, Line); });
  if (!Text)
    return Text.takeError();
  return TransformOutput{std::move(Text->UnitText), blockedLaunch(B),
                         chainSummary(Text->Steps, Summary(Line))};
}

} // namespace kopt::transform
