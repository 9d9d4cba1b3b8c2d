// scalar-replacement: a global location that a loop reads or writes in every
// iteration (the same access as written, p[i * n + j], p[i][j] or q[j] with q
// a local pointer, its indices invariant in the loop) lives in a register for
// the loop: loaded before it, stored once after it where the loop writes it.
// Both happen only where the loop runs at least once, so a loop that the
// original skips touches no memory; but where the statements just before the
// loop store the location (`C[i*N+j] *= beta;`, `= 0`, `= beta * C[i*N+j]`),
// that store becomes the register's start and the final store is
// unconditional. Legal where nothing else in the loop can reach the location:
// every other access of its parameter in the loop must be the same location,
// accesses to other pointers need the pragma's noalias or a __restrict__
// parameter, and no access may go through a pointer whose origin is unknown.
//
// The edits stay on the lines they change, so the unit keeps its line
// numbers. As a normalization (promoteAccumulators) it keeps only written
// locations, in every loop not nested in one it rewrote.
#include "clang-plugin/analysis/IndexAnalysis.h"
#include "clang-plugin/analysis/ast/AstWalk.h"
#include "clang-plugin/analysis/ast/DeclOrder.h"
#include "clang-plugin/transforms/framework/AstEdit.h"
#include "clang-plugin/transforms/framework/MemoryAccessScan.h"
#include "clang-plugin/transforms/framework/TransformFactories.h"
#include "clang-plugin/transforms/framework/TransformSupport.h"
#include "clang-plugin/transforms/normalize/Normalization.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Rewrite/Core/Rewriter.h>

#include <llvm/ADT/StringExtras.h>

#include <map>
#include <set>

namespace kopt::transform {

namespace {
// One location kept in a register.
struct Location {
  const clang::ParmVarDecl *Param = nullptr;
  std::string Text; // The access as written: "C[i * n + j]".
  std::vector<const clang::Expr *> Uses;
  bool Written = false;
  const clang::Expr *First = nullptr;
  // The store just before the loop that sets it, and the register's start
  // computed from it; empty where there is none.
  const clang::Stmt *Prologue = nullptr;
  std::string Start;
};

// Whether E may change within the loop: it names a variable the loop declares
// or assigns, or reads memory.
bool variesInLoop(const clang::Expr *E, const std::set<const clang::VarDecl *> &Changed) {
  return frontend::anySubExpr(E, [&](const clang::Expr *S) {
    if (llvm::isa<clang::ArraySubscriptExpr, clang::CallExpr>(S))
      return true;
    if (const auto *U = llvm::dyn_cast<clang::UnaryOperator>(S);
        U && U->getOpcode() == clang::UO_Deref)
      return true;
    const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(S);
    const auto *V = Ref ? llvm::dyn_cast<clang::VarDecl>(Ref->getDecl()) : nullptr;
    return V && Changed.count(V);
  });
}

struct LoopCollector : clang::RecursiveASTVisitor<LoopCollector> {
  bool VisitForStmt(clang::ForStmt *S) { return add(S); }
  bool VisitWhileStmt(clang::WhileStmt *S) { return add(S); }
  bool VisitDoStmt(clang::DoStmt *S) { return add(S); }
  bool add(const clang::Stmt *S) {
    Loops.push_back(S);
    return true;
  }
  std::vector<const clang::Stmt *> Loops;
};

// Why a loop keeps no location in registers; Refused where it writes memory
// that could have been kept but for a reason of legality.
struct NoCandidates {
  std::string Why;
  bool Refused = false;
};

// The locations of Loop that can live in registers (only written ones where
// OnlyWritten); Not says why none can.
std::vector<Location> candidates(const UnitAST &U, const clang::Stmt &Loop, bool NoAlias,
                                 bool OnlyWritten, NoCandidates &Not) {
  std::string &Why = Not.Why;
  MemoryAccesses Scan = scanMemoryAccesses(Loop);
  bool Writes = false;
  for (const MemoryAccess &A : Scan.All)
    Writes = Writes || A.Write;
  StmtContents Contents = inspectStmt(Loop);
  if (Contents.Barrier || Contents.Atomic || Contents.Control || Contents.UserCall ||
      Contents.WarpIntrinsic) {
    Why = "the loop synchronizes, leaves early, or calls device functions";
    Not.Refused = Writes;
    return {};
  }
  std::map<std::pair<const clang::ParmVarDecl *, std::string>, Location, WrittenBefore> ByKey;
  std::set<const clang::ParmVarDecl *> Unfit; // Accessed in another way too.
  for (const MemoryAccess &A : Scan.All) {
    bool Varies = A.Indices.empty() || A.E->getType().isVolatileQualified() ||
                  variesInLoop(A.Base, Scan.Declared);
    for (const clang::Expr *I : A.Indices)
      Varies = Varies || variesInLoop(I, Scan.Declared);
    llvm::Expected<std::string> Text = exprText(U, *A.E);
    if (!Text)
      llvm::consumeError(Text.takeError());
    if (Varies || !Text) {
      Unfit.insert(A.Param);
      continue;
    }
    Location &L = ByKey[{A.Param, *Text}];
    L.Param = A.Param;
    L.Text = *Text;
    L.Uses.push_back(A.E);
    L.Written = L.Written || A.Write;
    if (!L.First)
      L.First = A.E;
  }
  std::map<const clang::ParmVarDecl *, unsigned> LocationsOf;
  for (const auto &[Key, L] : ByKey)
    ++LocationsOf[Key.first];
  std::vector<Location> Out;
  for (auto &[Key, L] : ByKey) {
    if (OnlyWritten && !L.Written)
      continue;
    if (Unfit.count(L.Param) || LocationsOf[L.Param] > 1) {
      Why = (llvm::Twine("'") + L.Param->getName() + "' is also accessed at another index").str();
      Not.Refused = Not.Refused || L.Written;
      continue;
    }
    // Another pointer's access could reach this location.
    bool Others = false;
    for (const MemoryAccess &A : Scan.All)
      Others = Others || (A.Param != L.Param && (L.Written || A.Write));
    if (Others && !NoAlias && !L.Param->getType().isRestrictQualified()) {
      Why = (llvm::Twine("'") + L.Param->getName() +
             "' may alias another pointer (no noalias clause, not __restrict__)")
                .str();
      Not.Refused = Not.Refused || L.Written;
      continue;
    }
    Out.push_back(std::move(L));
  }
  // In the order of their first use: the output does not depend on addresses.
  const clang::SourceManager &SM = U.Ctx.getSourceManager();
  std::sort(Out.begin(), Out.end(), [&](const Location &A, const Location &B) {
    return SM.isBeforeInTranslationUnit(A.First->getBeginLoc(), B.First->getBeginLoc());
  });
  if (Scan.Unknown && !Out.empty()) {
    Why = "the loop accesses memory through a pointer whose origin is unknown (line " +
          std::to_string(U.line(Scan.Unknown->getBeginLoc())) + ")";
    Not.Refused = true;
    return {};
  }
  // Locations only read: worth it only beside one that is written.
  bool AnyWritten = false;
  for (const Location &L : Out)
    AnyWritten = AnyWritten || L.Written;
  if (!AnyWritten) {
    if (Why.empty())
      Why = "no location is written in every iteration";
    return {};
  }
  return Out;
}

// The register's start from a store `L op= E` or `L = E`; empty where S is
// not such a store of L or E has side effects.
std::optional<std::string> prologueStart(const UnitAST &U, const clang::Stmt &S,
                                         const Location &L) {
  const auto *Store = llvm::dyn_cast<clang::BinaryOperator>(&S);
  if (!Store || !Store->isAssignmentOp() || Store->getRHS()->HasSideEffects(U.Ctx))
    return std::nullopt;
  llvm::Expected<std::string> Lhs = exprText(U, *Store->getLHS());
  llvm::Expected<std::string> Rhs = exprText(U, *Store->getRHS());
  std::optional<std::string> Out;
  if (Lhs && Rhs && *Lhs == L.Text) {
    switch (Store->getOpcode()) {
    case clang::BO_Assign:
      Out = *Rhs;
      break;
    case clang::BO_AddAssign:
    case clang::BO_SubAssign:
    case clang::BO_MulAssign:
    case clang::BO_DivAssign:
      Out = "(" + L.Text + ") " + Store->getOpcodeStr().drop_back().str() + " (" + *Rhs + ")";
      break;
    default:
      break;
    }
  }
  llvm::consumeError(Lhs.takeError());
  llvm::consumeError(Rhs.takeError());
  return Out;
}

// Whether E may read memory of Param (or of a pointer whose origin is unknown).
bool mayRead(const clang::Expr *E, const clang::ParmVarDecl *Param) {
  MemoryAccesses Scan = scanMemoryAccesses(*E);
  bool Reads = Scan.Unknown != nullptr;
  for (const MemoryAccess &A : Scan.All)
    Reads = Reads || A.Param == Param;
  return Reads;
}

// The stores just before the loop (inert declarations may sit between) that
// set written locations, as each location's start. A later store must not
// read an earlier one's location: that value now lives in a register.
void findPrologues(const UnitAST &U, const clang::Stmt &LoopStmt, std::vector<Location> &Locs) {
  const auto *Block = llvm::dyn_cast_or_null<clang::CompoundStmt>(parentOf(&LoopStmt, U.Ctx));
  if (!Block)
    return;
  std::vector<const clang::Stmt *> Before;
  for (const clang::Stmt *S : Block->body()) {
    if (S == &LoopStmt)
      break;
    Before.push_back(S);
  }
  std::vector<const Location *> Later;
  for (auto It = Before.rbegin(); It != Before.rend(); ++It) {
    if (isInertDecl(**It))
      continue;
    Location *Found = nullptr;
    for (Location &L : Locs)
      if (L.Written && !L.Prologue)
        if (std::optional<std::string> Start = prologueStart(U, **It, L)) {
          L.Start = *Start;
          Found = &L;
          break;
        }
    if (!Found)
      return;
    bool ReadLater = false;
    for (const Location *After : Later)
      ReadLater = ReadLater || mayRead(llvm::cast<clang::BinaryOperator>(After->Prologue)->getRHS(),
                                       Found->Param);
    if (ReadLater) {
      Found->Start.clear();
      return;
    }
    Found->Prologue = *It;
    Later.push_back(Found);
  }
}

// `const bool <Name> = <the loop runs at least once>;`: the loop's condition
// with its counter replaced by the counter's start. Where that cannot be
// written as one declaration, a block that runs the loop's init.
llvm::Expected<std::string> firstIteration(const UnitAST &U, const clang::Stmt &Loop,
                                           const std::string &Name) {
  const clang::Expr *Cond = nullptr;
  const clang::VarDecl *Counter = nullptr;
  const clang::Expr *Start = nullptr;
  std::string Block; // The init as a statement, for the fallback.
  if (const auto *For = llvm::dyn_cast<clang::ForStmt>(&Loop)) {
    Cond = For->getCond();
    if (const clang::Stmt *InitStmt = For->getInit()) {
      const auto *Decl = llvm::dyn_cast<clang::DeclStmt>(InitStmt);
      const auto *Assign = llvm::dyn_cast<clang::BinaryOperator>(InitStmt);
      if (Decl) {
        for (const clang::Decl *D : Decl->decls())
          if (const auto *V = llvm::dyn_cast<clang::VarDecl>(D);
              V && V->getInit() && V->getInit()->HasSideEffects(U.Ctx))
            return unsupported(U, InitStmt->getBeginLoc(), "the loop's init has side effects");
        const auto *V =
            Decl->isSingleDecl() ? llvm::dyn_cast<clang::VarDecl>(Decl->getSingleDecl()) : nullptr;
        if (V && V->getInit() && V->getInitStyle() == clang::VarDecl::CInit) {
          Counter = V;
          Start = V->getInit();
        }
        llvm::Expected<clang::CharSourceRange> R = statementRange(U, *Decl);
        if (!R)
          return R.takeError();
        llvm::Expected<std::string> Text = editedText(U, *R, {});
        if (!Text)
          return Text.takeError();
        Block = *Text;
      } else if (Assign && Assign->getOpcode() == clang::BO_Assign &&
                 !Assign->getRHS()->HasSideEffects(U.Ctx) && namedVariable(Assign->getLHS())) {
        Counter = namedVariable(Assign->getLHS());
        Start = Assign->getRHS();
      } else {
        return unsupported(U, InitStmt->getBeginLoc(),
                           "the loop's init is not a declaration: cannot test it before the loop");
      }
    }
  } else if (const auto *While = llvm::dyn_cast<clang::WhileStmt>(&Loop)) {
    Cond = While->getCond();
  }
  if (!Cond) // A do loop, or a for without a condition: it runs.
    return "const bool " + Name + " = true; ";
  if (Cond->HasSideEffects(U.Ctx))
    return unsupported(U, Cond->getBeginLoc(), "the loop's condition has side effects");
  llvm::Expected<clang::CharSourceRange> CondRange = fileRange(U, Cond->getSourceRange());
  if (!CondRange)
    return CondRange.takeError();
  std::vector<TextEdit> Edits;
  if (Counter) {
    llvm::Expected<std::string> StartText = exprText(U, *Start);
    if (!StartText)
      return StartText.takeError();
    forEachStmt(Cond, [&](const clang::Stmt *S) {
      if (const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(S); Ref && Ref->getDecl() == Counter)
        Edits.push_back({Ref->getSourceRange(), "(" + *StartText + ")"});
    });
  }
  // Where the init declares more than the counter, the condition may read it.
  bool OneDecl = Block.empty() || Counter;
  if (OneDecl) {
    llvm::Expected<std::string> Text = editedText(U, *CondRange, Edits);
    if (Text)
      return "const bool " + Name + " = (" + *Text + "); ";
    llvm::consumeError(Text.takeError());
  }
  llvm::Expected<std::string> CondText = exprText(U, *Cond);
  if (!CondText)
    return CondText.takeError();
  return "bool " + Name + " = false; { " + Block + " " + Name + " = (" + *CondText + "); } ";
}

// Rewrites one loop: registers for Locs; Counter numbers the names a rewrite
// declares, so that several loops' names differ.
llvm::Error rewriteLoop(UnitAST &U, const clang::Stmt &Loop, const std::vector<Location> &Locs,
                        unsigned &Counter) {
  const clang::Stmt &Whole = outermostLoopStmt(U, Loop);
  llvm::Expected<clang::CharSourceRange> Range = statementRange(U, Whole);
  if (!Range)
    return Range.takeError();
  bool NeedsRun = false;
  for (const Location &L : Locs)
    NeedsRun = NeedsRun || !L.Prologue;
  std::string Run = "kopt_run" + (Counter ? std::to_string(Counter) : "");
  std::string Before, After;
  if (NeedsRun) {
    llvm::Expected<std::string> Test = firstIteration(U, Loop, Run);
    if (!Test)
      return Test.takeError();
    Before = *Test;
  }
  for (const Location &L : Locs) {
    std::string Reg = "kopt_s" + std::to_string(Counter++);
    std::string Type = typeText(L.First->getType(), U);
    if (L.Prologue) {
      Before += Type + " " + Reg + " = " + L.Start + "; ";
      llvm::Expected<clang::CharSourceRange> Store = statementRange(U, *L.Prologue);
      if (!Store)
        return Store.takeError();
      U.Rewrite.RemoveText(*Store);
    } else {
      Before += Type + " " + Reg + " = " + Run + " ? " + L.Text + " : " + Type + "{}; ";
    }
    if (L.Written)
      After += (L.Prologue ? " " : " if (" + Run + ") ") + L.Text + " = " + Reg + ";";
    for (const clang::Expr *Use : L.Uses)
      if (U.Rewrite.ReplaceText(Use->getSourceRange(), Reg))
        return unsupported(U, Use->getBeginLoc(), "cannot edit the access");
  }
  // Out of a block (an if's branch), the declarations need one of their own.
  bool InBlock = llvm::isa_and_nonnull<clang::CompoundStmt>(parentOf(&Whole, U.Ctx));
  U.Rewrite.InsertTextBefore(Range->getBegin(), (InBlock ? "" : "{ ") + Before);
  U.Rewrite.InsertTextAfter(Range->getEnd(), After + (InBlock ? "" : " }"));
  return llvm::Error::success();
}

std::string locationList(const std::vector<Location> &Locs) {
  std::vector<std::string> Texts;
  for (const Location &L : Locs)
    Texts.push_back(L.Text);
  return llvm::join(Texts, ", ");
}

class ScalarReplacement : public Transform {
public:
  llvm::StringRef id() const override { return "scalar-replacement"; }

protected:
  Offer offerPoints(const frontend::KernelSummary &Kernel) const override {
    for (const frontend::RepeatedAccess &R : Kernel.Features.RepeatedAccesses)
      if (R.Write || rowsOfArrays(Kernel, R.Param))
        return Offer::of({ParamSet{}});
    return Offer::no("no loop writes one global location in every iteration");
  }

  llvm::Expected<TransformOutput> rewriteAt(const TransformInput &In,
                                            const ParamSet &) const override {
    bool NoAlias = In.Kernel.Pragma && In.Kernel.Pragma->NoAlias;
    std::string Summary;
    llvm::Expected<std::string> Text = rewriteUnit(In, [&](UnitAST &U) -> llvm::Error {
      LoopCollector Loops;
      Loops.TraverseStmt(U.Kernel.getBody());
      std::string FirstWhy;
      for (const clang::Stmt *Loop : Loops.Loops) {
        NoCandidates Not;
        std::vector<Location> Locations = candidates(U, *Loop, NoAlias, false, Not);
        if (Locations.empty()) {
          if (FirstWhy.empty() && !Not.Why.empty())
            FirstWhy = "line " + std::to_string(U.line(Loop->getBeginLoc())) + ": " + Not.Why;
          continue;
        }
        findPrologues(U, outermostLoopStmt(U, *Loop), Locations);
        unsigned Counter = 0;
        if (llvm::Error E = rewriteLoop(U, *Loop, Locations, Counter))
          return E;
        Summary = "kept " + std::to_string(Locations.size()) + " location(s) (" +
                  locationList(Locations) + ") in registers across the loop at line " +
                  std::to_string(U.line(Loop->getBeginLoc()));
        return llvm::Error::success();
      }
      return llvm::createStringError(
          "no loop reads or writes one global location in every iteration where it is legal" +
          (FirstWhy.empty() ? std::string() : " (" + FirstWhy + ")"));
    });
    if (!Text)
      return Text.takeError();
    return TransformOutput{std::move(*Text), std::nullopt, Summary};
  }

private:
  // p[i][j] through a pointer to rows: the front end records p[i] only.
  static bool rowsOfArrays(const frontend::KernelSummary &Kernel, const std::string &Param) {
    for (const frontend::KernelParam &P : Kernel.Params)
      if (P.Name == Param && !P.RowExtents.empty())
        return true;
    return false;
  }
};
} // namespace

llvm::Expected<std::string> promoteAccumulators(UnitAST &U, const NormalizeOptions &Options) {
  LoopCollector Loops;
  Loops.TraverseStmt(U.Kernel.getBody());
  const clang::SourceManager &SM = U.Ctx.getSourceManager();
  std::vector<const clang::Stmt *> Done;
  std::vector<std::string> Kept;
  std::string FirstWhy;
  const clang::Stmt *FirstLoop = nullptr;
  unsigned Counter = 0;
  for (const clang::Stmt *Loop : Loops.Loops) {
    bool Nested = false;
    for (const clang::Stmt *D : Done)
      Nested = Nested || (!SM.isBeforeInTranslationUnit(Loop->getBeginLoc(), D->getBeginLoc()) &&
                          SM.isBeforeInTranslationUnit(Loop->getBeginLoc(), D->getEndLoc()));
    if (Nested)
      continue;
    NoCandidates Not;
    std::vector<Location> Locations = candidates(U, *Loop, Options.NoAlias, true, Not);
    if (Locations.empty()) {
      if (!FirstLoop && Not.Refused) {
        FirstLoop = Loop;
        FirstWhy = Not.Why;
      }
      continue;
    }
    findPrologues(U, outermostLoopStmt(U, *Loop), Locations);
    if (llvm::Error E = rewriteLoop(U, *Loop, Locations, Counter))
      return E;
    Done.push_back(Loop);
    Kept.push_back(locationList(Locations));
  }
  if (Kept.empty() && FirstLoop)
    return unsupported(U, FirstLoop->getBeginLoc(), FirstWhy);
  if (Kept.empty())
    return std::string();
  return "scalar-replaced " + llvm::join(Kept, ", ");
}

std::unique_ptr<Transform> makeScalarReplacementTransform() {
  return std::make_unique<ScalarReplacement>();
}

} // namespace kopt::transform
