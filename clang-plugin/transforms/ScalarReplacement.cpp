// scalar-replacement: a global location that a loop reads or writes in every
// iteration (the same pointer parameter and index text, the index invariant
// in the loop) lives in a register for the loop: loaded before it, stored
// once after it where the loop writes it. Both happen only where the loop
// runs at least once, so a loop that the original skips touches no memory.
// Legal where nothing else in the loop can reach the location: every other
// access of its parameter in the loop must be the same location, and accesses
// to other pointers need the pragma's noalias or a __restrict__ parameter.
#include "clang-plugin/analysis/IndexAnalysis.h"
#include "clang-plugin/transforms/AstEdit.h"
#include "clang-plugin/transforms/TransformFactories.h"
#include "clang-plugin/transforms/TransformSupport.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Rewrite/Core/Rewriter.h>

#include <map>
#include <set>

namespace kopt::transform {

namespace {
// Every access to a pointer parameter in a statement, and what it assigns.
struct AccessScan : clang::RecursiveASTVisitor<AccessScan> {
  struct Access {
    const clang::Expr *E = nullptr;
    const clang::ParmVarDecl *Param = nullptr;
    bool Direct = false; // P[index] on the parameter itself.
    bool Write = false;
  };

  bool VisitArraySubscriptExpr(clang::ArraySubscriptExpr *E) {
    if (std::optional<frontend::PointerBase> Base = frontend::resolvePointerParam(E->getBase()))
      All.push_back({E, Base->Param, Base->Offsets.empty(), false});
    return true;
  }
  bool VisitUnaryOperator(clang::UnaryOperator *E) {
    if (E->getOpcode() == clang::UO_Deref) {
      if (std::optional<frontend::PointerBase> Base =
              frontend::resolvePointerParam(E->getSubExpr()))
        All.push_back({E, Base->Param, false, false});
    } else if (E->isIncrementDecrementOp()) {
      Assigned.push_back(E->getSubExpr()->IgnoreParenImpCasts());
    } else if (E->getOpcode() == clang::UO_AddrOf) {
      Assigned.push_back(E->getSubExpr()->IgnoreParenImpCasts()); // Escapes: may change.
    }
    return true;
  }
  bool VisitBinaryOperator(clang::BinaryOperator *E) {
    if (E->isAssignmentOp())
      Assigned.push_back(E->getLHS()->IgnoreParenImpCasts());
    return true;
  }
  bool VisitVarDecl(clang::VarDecl *V) {
    Declared.insert(V);
    return true;
  }

  void finish() {
    std::set<const clang::Expr *> Written(Assigned.begin(), Assigned.end());
    for (Access &A : All)
      A.Write = Written.count(A.E) > 0;
    for (const clang::Expr *E : Assigned)
      if (const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(E))
        if (const auto *V = llvm::dyn_cast<clang::VarDecl>(Ref->getDecl()))
          Declared.insert(V); // Changed in the loop: as good as declared there.
  }

  std::vector<Access> All;
  std::vector<const clang::Expr *> Assigned;
  std::set<const clang::VarDecl *> Declared; // Declared or assigned in the loop.
};

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

// One location kept in a register.
struct Location {
  const clang::ParmVarDecl *Param = nullptr;
  std::string Index; // As written.
  std::vector<const clang::Expr *> Uses;
  bool Written = false;
  const clang::Expr *Subscript = nullptr; // The first use.
};

// Whether the index may change within the loop: it names a variable the loop
// declares or assigns, or reads memory.
bool variesInLoop(const clang::Expr *Index, const std::set<const clang::VarDecl *> &Changed) {
  return frontend::anySubExpr(Index, [&](const clang::Expr *E) {
    if (llvm::isa<clang::ArraySubscriptExpr, clang::CallExpr>(E))
      return true;
    if (const auto *U = llvm::dyn_cast<clang::UnaryOperator>(E);
        U && U->getOpcode() == clang::UO_Deref)
      return true;
    const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(E);
    const auto *V = Ref ? llvm::dyn_cast<clang::VarDecl>(Ref->getDecl()) : nullptr;
    return V && Changed.count(V);
  });
}

class ScalarReplacement : public Transform {
public:
  llvm::StringRef id() const override { return "scalar-replacement"; }

  std::vector<ParamSet> parameterSpace(const frontend::KernelSummary &Kernel) const override {
    for (const frontend::RepeatedAccess &R : Kernel.Features.RepeatedAccesses)
      if (R.Write)
        return {ParamSet{}};
    return {};
  }

  llvm::Expected<TransformOutput> apply(const TransformInput &In,
                                        const ParamSet &Params) const override {
    if (llvm::Error E = checkParamNames(Params, {}))
      return E;
    bool NoAlias = In.Kernel.Pragma && In.Kernel.Pragma->NoAlias;
    std::string Summary;
    llvm::Expected<std::string> Text = rewriteUnit(In, [&](UnitAST &U) -> llvm::Error {
      LoopCollector Loops;
      Loops.TraverseStmt(U.Kernel.getBody());
      std::string FirstWhy;
      for (const clang::Stmt *Loop : Loops.Loops) {
        std::string Why;
        std::vector<Location> Locations = candidates(U, *Loop, NoAlias, Why);
        if (Locations.empty()) {
          if (FirstWhy.empty() && !Why.empty())
            FirstWhy = "line " + std::to_string(U.line(Loop->getBeginLoc())) + ": " + Why;
          continue;
        }
        if (llvm::Error E = rewrite(U, *Loop, Locations))
          return E;
        Summary = "kept " + std::to_string(Locations.size()) + " location(s) (" +
                  Locations[0].Param->getNameAsString() + "[" + Locations[0].Index +
                  "]) in registers across the loop at line " +
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
  // The locations of Loop that can live in registers; Why says why none can.
  static std::vector<Location> candidates(const UnitAST &U, const clang::Stmt &Loop, bool NoAlias,
                                          std::string &Why) {
    StmtContents Contents = inspectStmt(Loop);
    if (Contents.Barrier || Contents.Atomic || Contents.Control || Contents.UserCall ||
        Contents.WarpIntrinsic) {
      Why = "the loop synchronizes, leaves early, or calls device functions";
      return {};
    }
    AccessScan Scan;
    Scan.TraverseStmt(const_cast<clang::Stmt *>(&Loop));
    Scan.finish();
    std::map<std::pair<const clang::ParmVarDecl *, std::string>, Location> ByKey;
    std::set<const clang::ParmVarDecl *> Unfit; // Accessed in another way too.
    for (const AccessScan::Access &A : Scan.All) {
      const auto *Sub = llvm::dyn_cast<clang::ArraySubscriptExpr>(A.E);
      llvm::Expected<std::string> Index =
          Sub ? exprText(U, *Sub->getIdx()) : llvm::Expected<std::string>(std::string());
      if (!Index)
        llvm::consumeError(Index.takeError());
      if (!A.Direct || !Index || Index->empty() || variesInLoop(Sub->getIdx(), Scan.Declared) ||
          A.E->getType().isVolatileQualified()) {
        Unfit.insert(A.Param);
        continue;
      }
      Location &L = ByKey[{A.Param, *Index}];
      L.Param = A.Param;
      L.Index = *Index;
      L.Uses.push_back(A.E);
      L.Written = L.Written || A.Write;
      if (!L.Subscript)
        L.Subscript = A.E;
    }
    std::map<const clang::ParmVarDecl *, unsigned> LocationsOf;
    for (const auto &[Key, L] : ByKey)
      ++LocationsOf[Key.first];
    std::vector<Location> Out;
    for (auto &[Key, L] : ByKey) {
      if (Unfit.count(L.Param) || LocationsOf[L.Param] > 1) {
        Why = (llvm::Twine("'") + L.Param->getName() + "' is also accessed at another index").str();
        continue;
      }
      // Another pointer's access could reach this location.
      bool Others = false;
      for (const AccessScan::Access &A : Scan.All)
        Others = Others || (A.Param != L.Param && (L.Written || A.Write));
      if (Others && !NoAlias && !L.Param->getType().isRestrictQualified()) {
        Why = (llvm::Twine("'") + L.Param->getName() +
               "' may alias another pointer (no noalias clause, not __restrict__)")
                  .str();
        continue;
      }
      Out.push_back(std::move(L));
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

  // `bool kopt_run = <the loop runs at least once>;`, evaluated as the loop
  // would before its first iteration.
  static llvm::Expected<std::string> firstIteration(const UnitAST &U, const clang::Stmt &Loop) {
    const clang::Expr *Cond = nullptr;
    std::string Init;
    if (const auto *For = llvm::dyn_cast<clang::ForStmt>(&Loop)) {
      Cond = For->getCond();
      if (const clang::Stmt *InitStmt = For->getInit()) {
        const auto *Decl = llvm::dyn_cast<clang::DeclStmt>(InitStmt);
        if (!Decl)
          return unsupported(
              U, InitStmt->getBeginLoc(),
              "the loop's init is not a declaration: cannot test it before the loop");
        for (const clang::Decl *D : Decl->decls())
          if (const auto *V = llvm::dyn_cast<clang::VarDecl>(D);
              V && V->getInit() && V->getInit()->HasSideEffects(U.Ctx))
            return unsupported(U, InitStmt->getBeginLoc(), "the loop's init has side effects");
        llvm::Expected<clang::CharSourceRange> R = statementRange(U, *Decl);
        if (!R)
          return R.takeError();
        llvm::Expected<std::string> Text = editedText(U, *R, {});
        if (!Text)
          return Text.takeError();
        Init = *Text;
      }
    } else if (const auto *While = llvm::dyn_cast<clang::WhileStmt>(&Loop)) {
      Cond = While->getCond();
    }
    if (!Cond) // A do loop, or a for without a condition: it runs.
      return std::string("const bool kopt_run = true;\n");
    if (Cond->HasSideEffects(U.Ctx))
      return unsupported(U, Cond->getBeginLoc(), "the loop's condition has side effects");
    llvm::Expected<std::string> CondText = exprText(U, *Cond);
    if (!CondText)
      return CondText.takeError();
    if (Init.empty())
      return "const bool kopt_run = (" + *CondText + ");\n";
    return "bool kopt_run = false;\n{\n" + Init + "\nkopt_run = (" + *CondText + ");\n}\n";
  }

  static llvm::Error rewrite(UnitAST &U, const clang::Stmt &Loop,
                             const std::vector<Location> &Locations) {
    const clang::Stmt &Whole = outermostLoopStmt(U, Loop);
    llvm::Expected<clang::CharSourceRange> Range = statementRange(U, Whole);
    if (!Range)
      return Range.takeError();
    llvm::Expected<std::string> Run = firstIteration(U, Loop);
    if (!Run)
      return Run.takeError();
    std::string Before = "{ // kopt scalar-replacement\n" + *Run, After;
    for (size_t I = 0; I < Locations.size(); ++I) {
      const Location &L = Locations[I];
      std::string Reg = "kopt_s" + std::to_string(I);
      std::string Type = typeText(L.Subscript->getType(), U);
      std::string Place = L.Param->getNameAsString() + "[" + L.Index + "]";
      Before += Type + " " + Reg + " = kopt_run ? " + Place + " : " + Type + "{};\n";
      if (L.Written)
        After += "if (kopt_run)\n  " + Place + " = " + Reg + ";\n";
      for (const clang::Expr *Use : L.Uses)
        if (U.Rewrite.ReplaceText(Use->getSourceRange(), Reg))
          return unsupported(U, Use->getBeginLoc(), "cannot edit the access");
    }
    U.Rewrite.InsertTextBefore(Range->getBegin(), Before);
    U.Rewrite.InsertTextAfter(Range->getEnd(), "\n" + After + "}");
    return llvm::Error::success();
  }
};
} // namespace

std::unique_ptr<Transform> makeScalarReplacementTransform() {
  return std::make_unique<ScalarReplacement>();
}

} // namespace kopt::transform
