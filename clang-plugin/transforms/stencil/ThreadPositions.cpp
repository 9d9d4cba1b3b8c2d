#include "clang-plugin/transforms/stencil/ThreadPositions.h"

#include "clang-plugin/analysis/IndexAnalysis.h"
#include "clang-plugin/analysis/ast/AstWalk.h"
#include "clang-plugin/transforms/framework/AstEdit.h"
#include "clang-plugin/transforms/framework/TransformSupport.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/AST/Stmt.h>
#include <llvm/Support/FormatVariadic.h>

#include <map>
#include <set>

namespace kopt::transform {

namespace {
using frontend::AtomKind;
using frontend::IndexPoly;

// The statement S is part of: its parent statement, or for an initializer the
// declaration statement that holds the variable.
const clang::Stmt *enclosing(const clang::Stmt *S, clang::ASTContext &Ctx) {
  clang::DynTypedNodeList Parents = Ctx.getParents(*S);
  if (Parents.empty())
    return nullptr;
  if (const auto *P = Parents[0].get<clang::Stmt>())
    return P;
  if (const auto *D = Parents[0].get<clang::Decl>()) {
    clang::DynTypedNodeList Up = Ctx.getParents(*D);
    return Up.empty() ? nullptr : Up[0].get<clang::DeclStmt>();
  }
  return nullptr;
}

// The local variable whose initializer E is, if any.
const clang::VarDecl *initializedVar(const clang::Expr *E, clang::ASTContext &Ctx) {
  clang::DynTypedNodeList Parents = Ctx.getParents(*E);
  const auto *V = Parents.empty() ? nullptr : Parents[0].get<clang::VarDecl>();
  return V && V->hasLocalStorage() && V->getInit() == E ? V : nullptr;
}

// Whether the geometry leaf's value flows on through E's parent P as an
// integer sum or product (what IndexPolyBuilder reads as a polynomial).
bool extendsPolynomial(const clang::Stmt *P, const clang::Expr *E) {
  if (llvm::isa<clang::ParenExpr>(P))
    return true;
  if (const auto *Cast = llvm::dyn_cast<clang::CastExpr>(P))
    return Cast->getType()->isIntegerType() &&
           (llvm::isa<clang::ExplicitCastExpr>(Cast) ||
            Cast->getCastKind() == clang::CK_LValueToRValue ||
            Cast->getCastKind() == clang::CK_NoOp || Cast->getCastKind() == clang::CK_IntegralCast);
  if (const auto *Bin = llvm::dyn_cast<clang::BinaryOperator>(P))
    return Bin->getOpcode() == clang::BO_Add || Bin->getOpcode() == clang::BO_Sub ||
           Bin->getOpcode() == clang::BO_Mul ||
           (Bin->getOpcode() == clang::BO_Shl && Bin->getLHS() == E);
  if (const auto *Un = llvm::dyn_cast<clang::UnaryOperator>(P))
    return Un->getOpcode() == clang::UO_Minus || Un->getOpcode() == clang::UO_Plus;
  return false;
}

// Whether S may leave the statement list it is in early: a return or goto
// anywhere, a break or continue outside the loops and switches inside S.
bool escapes(const clang::Stmt *S, bool InLoop = false) {
  if (!S)
    return false;
  if (llvm::isa<clang::ReturnStmt, clang::GotoStmt, clang::IndirectGotoStmt>(S))
    return true;
  if (llvm::isa<clang::BreakStmt, clang::ContinueStmt>(S))
    return !InLoop;
  bool Loop =
      InLoop || llvm::isa<clang::ForStmt, clang::WhileStmt, clang::DoStmt, clang::SwitchStmt>(S);
  for (const clang::Stmt *Child : S->children())
    if (escapes(Child, Loop))
      return true;
  return false;
}

bool isMinMaxAbsCall(const clang::CallExpr &Call) {
  const clang::FunctionDecl *F = Call.getDirectCallee();
  if (!F || !F->getDeclName().isIdentifier())
    return false;
  llvm::StringRef N = F->getName();
  return N == "min" || N == "max" || N == "abs" || N == "umin" || N == "umax" || N == "llmin" ||
         N == "llmax" || N == "labs" || N == "llabs";
}

llvm::StringRef inverse(clang::BinaryOperatorKind Op) {
  switch (Op) {
  case clang::BO_LT:
    return ">=";
  case clang::BO_LE:
    return ">";
  case clang::BO_GT:
    return "<=";
  default:
    return "<";
  }
}

// Where E is a position sum or a geometry builtin: the edit that gives
// positions with a text in Positions that value, and true (E is done).
bool geometryEdit(const clang::Expr &E, const std::array<std::string, 3> &Positions,
                  std::vector<TextEdit> &Edits) {
  if (std::optional<char> Dim = positionSumDim(E))
    if (const std::string &P = Positions[*Dim - 'x']; !P.empty()) {
      Edits.push_back({E.getSourceRange(), "((unsigned int)(" + P + "))"});
      return true;
    }
  std::optional<frontend::IndexBuiltin> Bi = frontend::asIndexBuiltin(&E);
  if (!Bi)
    return false;
  const std::string &P = Positions[Bi->Component - 'x'];
  if (Bi->Var == "threadIdx" && !P.empty()) {
    std::string D(1, Bi->Component);
    Edits.push_back({E.getSourceRange(),
                     "((unsigned int)(" + P + ") - blockIdx." + D + " * blockDim." + D + ")"});
  }
  return true;
}

class TextExpander {
public:
  TextExpander(const UnitAST &Unit, const frontend::IndexPolyBuilder &Builder,
               const std::array<std::string, 3> &Pos)
      : U(Unit), B(Builder), Positions(Pos) {}

  llvm::Expected<std::string> text(const clang::Expr &E) {
    std::vector<TextEdit> Edits;
    if (llvm::Error Err = collect(&E, Edits))
      return Err;
    llvm::Expected<clang::CharSourceRange> R = fileRange(U, E.getSourceRange());
    if (!R)
      return R.takeError();
    return editedText(U, *R, std::move(Edits));
  }

private:
  llvm::Error collect(const clang::Stmt *S, std::vector<TextEdit> &Edits) {
    if (!S)
      return llvm::Error::success();
    if (const auto *E = llvm::dyn_cast<clang::Expr>(S)) {
      if (geometryEdit(*E, Positions, Edits))
        return llvm::Error::success();
      if (const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(E))
        return local(*Ref, Edits);
      if (const auto *PO = llvm::dyn_cast<clang::PseudoObjectExpr>(E))
        return collect(PO->getSyntacticForm(), Edits);
    }
    for (const clang::Stmt *Child : S->children())
      if (llvm::Error Err = collect(Child, Edits))
        return Err;
    return llvm::Error::success();
  }

  llvm::Error local(const clang::DeclRefExpr &Ref, std::vector<TextEdit> &Edits) {
    const auto *V = llvm::dyn_cast<clang::VarDecl>(Ref.getDecl());
    if (!V || llvm::isa<clang::ParmVarDecl>(V) || !V->hasLocalStorage() || B.isLoopVar(V))
      return llvm::Error::success();
    if (!V->getInit() || !B.isFixed(V) || V->getInitStyle() != clang::VarDecl::CInit)
      return unsupported(U, Ref.getLocation(),
                         "'" + V->getName() + "' is not set once, where its initializer is");
    llvm::Expected<std::string> Init = text(*V->getInit());
    if (!Init)
      return Init.takeError();
    Edits.push_back({Ref.getSourceRange(), "((" + typeText(V->getType(), U) + ")(" + *Init + "))"});
    return llvm::Error::success();
  }

  const UnitAST &U;
  const frontend::IndexPolyBuilder &B;
  const std::array<std::string, 3> &Positions;
};
} // namespace

llvm::Error checkPositionForm(const UnitAST &U, frontend::IndexPolyBuilder &B) {
  std::map<const clang::VarDecl *, std::vector<const clang::Expr *>> Uses;
  std::vector<const clang::Expr *> Leaves;
  std::vector<const clang::Stmt *> Work = {U.Kernel.getBody()};
  while (!Work.empty()) {
    const clang::Stmt *S = Work.back();
    Work.pop_back();
    if (!S)
      continue;
    if (const auto *E = llvm::dyn_cast<clang::Expr>(S)) {
      if (frontend::asIndexBuiltin(E)) {
        Leaves.push_back(E);
        continue;
      }
      if (const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(E))
        if (const auto *V = llvm::dyn_cast<clang::VarDecl>(Ref->getDecl()))
          Uses[V].push_back(Ref);
    }
    for (const clang::Stmt *Child : S->children())
      Work.push_back(Child);
  }
  // Each leaf's value flows up through sums and products; where it reaches a
  // local's initializer its uses are followed, else the whole is checked.
  std::set<const clang::VarDecl *> Followed;
  while (!Leaves.empty()) {
    const clang::Expr *Top = Leaves.back();
    Leaves.pop_back();
    while (const clang::Stmt *P = enclosing(Top, U.Ctx)) {
      if (!llvm::isa<clang::Expr>(P) || !extendsPolynomial(P, Top))
        break;
      Top = llvm::cast<clang::Expr>(P);
    }
    if (const clang::VarDecl *V = initializedVar(Top, U.Ctx);
        V && B.isFixed(V) && V->getType()->isIntegerType()) {
      if (Followed.insert(V).second)
        Leaves.insert(Leaves.end(), Uses[V].begin(), Uses[V].end());
      continue;
    }
    llvm::Expected<IndexPoly> P = B.build(Top);
    if (!P)
      return B.error(Top->getBeginLoc(), "the thread's position flows into an expression kopt "
                                         "cannot follow (" +
                                             llvm::toString(P.takeError()) + ")");
  }
  return llvm::Error::success();
}

void addForLoopVars(const UnitAST &U, frontend::IndexPolyBuilder &B) {
  forEachStmt(U.Kernel.getBody(), [&](const clang::Stmt *St) {
    const auto *For = llvm::dyn_cast<clang::ForStmt>(St);
    const auto *Init = For ? llvm::dyn_cast_or_null<clang::DeclStmt>(For->getInit()) : nullptr;
    if (Init)
      for (const clang::Decl *D : Init->decls())
        if (const auto *V = llvm::dyn_cast<clang::VarDecl>(D); V && V->getType()->isIntegerType())
          B.addLoopVar(V);
  });
}

ReachPath reachPath(const UnitAST &U, const clang::Stmt &S) {
  ReachPath Path;
  auto Inexact = [&](const clang::Stmt *Why) {
    if (Path.Exact)
      Path.Why = Why;
    Path.Exact = false;
  };
  const clang::Stmt *Body = U.Kernel.getBody();
  const clang::Stmt *Cur = &S;
  while (Cur != Body) {
    const clang::Stmt *Parent = enclosing(Cur, U.Ctx);
    if (!Parent) {
      Inexact(Cur);
      break;
    }
    if (const auto *If = llvm::dyn_cast<clang::IfStmt>(Parent)) {
      if (If->getInit() || If->getConditionVariable())
        Inexact(If);
      else if (Cur == If->getThen())
        Path.Conds.push_back(Condition::of(If->getCond(), false));
      else if (Cur == If->getElse())
        Path.Conds.push_back(Condition::of(If->getCond(), true));
    } else if (const auto *C = llvm::dyn_cast<clang::ConditionalOperator>(Parent)) {
      if (Cur == C->getTrueExpr())
        Path.Conds.push_back(Condition::of(C->getCond(), false));
      else if (Cur == C->getFalseExpr())
        Path.Conds.push_back(Condition::of(C->getCond(), true));
    } else if (const auto *Bin = llvm::dyn_cast<clang::BinaryOperator>(Parent);
               Bin && Bin->isLogicalOp() && Cur == Bin->getRHS()) {
      Path.Conds.push_back(Condition::of(Bin->getLHS(), Bin->getOpcode() == clang::BO_LOr));
    } else if (const auto *For = llvm::dyn_cast<clang::ForStmt>(Parent)) {
      if (Cur == For->getBody())
        Path.Loops.insert(Path.Loops.begin(), For);
      else if (Cur != For->getInit())
        Inexact(For);
    } else if (const auto *Block = llvm::dyn_cast<clang::CompoundStmt>(Parent)) {
      for (const clang::Stmt *Before : Block->body()) {
        if (Before == Cur)
          break;
        if (const clang::Expr *Cond = earlyReturnCondition(*Before))
          Path.Conds.push_back(Condition::of(Cond, true));
        else if (escapes(Before))
          Inexact(Before);
      }
    } else if (llvm::isa<clang::WhileStmt, clang::DoStmt, clang::SwitchStmt, clang::SwitchCase,
                         clang::LambdaExpr, clang::StmtExpr>(Parent)) {
      Inexact(Parent);
    }
    Cur = Parent;
  }
  std::reverse(Path.Conds.begin(), Path.Conds.end());
  return Path;
}

bool boundsAbove(const Condition &C, char Dim, frontend::IndexPolyBuilder &B) {
  if (!C.Expr)
    return false;
  unsigned G = B.positionAtom(Dim);
  for (const clang::Expr *Part : splitCondition(C.Expr, /*Or=*/C.Negated)) {
    bool Negated = C.Negated;
    const clang::Expr *E = Part->IgnoreParenImpCasts();
    while (const auto *Not = llvm::dyn_cast<clang::UnaryOperator>(E)) {
      if (Not->getOpcode() != clang::UO_LNot)
        break;
      Negated = !Negated;
      E = Not->getSubExpr()->IgnoreParenImpCasts();
    }
    const auto *Cmp = llvm::dyn_cast<clang::BinaryOperator>(E);
    if (!Cmp || !Cmp->isRelationalOp())
      continue;
    llvm::StringRef Op = Negated ? inverse(Cmp->getOpcode()) : Cmp->getOpcodeStr();
    const clang::Expr *Low = Cmp->getLHS(), *High = Cmp->getRHS();
    if (Op == ">" || Op == ">=")
      std::swap(Low, High);
    llvm::Expected<IndexPoly> L = B.build(Low);
    llvm::Expected<IndexPoly> H = B.build(High);
    if (!L || !H) {
      llvm::consumeError(L.takeError());
      llvm::consumeError(H.takeError());
      continue;
    }
    IndexPoly Rest;
    std::optional<int64_t> Coef = L->coefficientOf(G, &Rest).asConstant();
    if (Coef && *Coef > 0 && L->degreeIn(G) == 1 && B.isUniform(Rest) && B.isUniform(*H))
      return true;
  }
  return false;
}

bool isPure(const clang::Expr &Root, const frontend::IndexPolyBuilder &B) {
  const clang::Expr *E = Root.IgnoreParens();
  if (frontend::asIndexBuiltin(E))
    return true;
  if (llvm::isa<clang::IntegerLiteral, clang::FloatingLiteral, clang::CXXBoolLiteralExpr,
                clang::CharacterLiteral, clang::UnaryExprOrTypeTraitExpr>(E))
    return true;
  // A template argument where the kernel is analysed at an instantiation.
  if (const auto *Arg = llvm::dyn_cast<clang::SubstNonTypeTemplateParmExpr>(E))
    return isPure(*Arg->getReplacement(), B);
  if (const auto *Cast = llvm::dyn_cast<clang::CastExpr>(E))
    return Cast->getCastKind() != clang::CK_ArrayToPointerDecay &&
           Cast->getCastKind() != clang::CK_LValueToRValueBitCast && isPure(*Cast->getSubExpr(), B);
  if (const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(E)) {
    if (llvm::isa<clang::EnumConstantDecl>(Ref->getDecl()))
      return true;
    const auto *V = llvm::dyn_cast<clang::VarDecl>(Ref->getDecl());
    if (!V || !V->getType()->isArithmeticType())
      return false;
    if (B.isLoopVar(V))
      return true;
    if (!B.isFixed(V))
      return false;
    if (llvm::isa<clang::ParmVarDecl>(V))
      return true;
    return V->hasLocalStorage() && V->getInit() && V->getInitStyle() == clang::VarDecl::CInit &&
           isPure(*V->getInit(), B);
  }
  if (const auto *Bin = llvm::dyn_cast<clang::BinaryOperator>(E))
    return !Bin->isAssignmentOp() && Bin->getOpcode() != clang::BO_Comma &&
           isPure(*Bin->getLHS(), B) && isPure(*Bin->getRHS(), B);
  if (const auto *Un = llvm::dyn_cast<clang::UnaryOperator>(E)) {
    clang::UnaryOperatorKind Op = Un->getOpcode();
    return (Op == clang::UO_Minus || Op == clang::UO_Plus || Op == clang::UO_LNot ||
            Op == clang::UO_Not) &&
           isPure(*Un->getSubExpr(), B);
  }
  if (const auto *C = llvm::dyn_cast<clang::ConditionalOperator>(E))
    return isPure(*C->getCond(), B) && isPure(*C->getTrueExpr(), B) &&
           isPure(*C->getFalseExpr(), B);
  if (const auto *Call = llvm::dyn_cast<clang::CallExpr>(E)) {
    if (!isMinMaxAbsCall(*Call))
      return false;
    for (const clang::Expr *Arg : Call->arguments())
      if (!isPure(*Arg, B))
        return false;
    return true;
  }
  return false;
}

void positionEdits(const clang::Stmt &Root, const std::array<std::string, 3> &Positions,
                   std::vector<TextEdit> &Edits) {
  if (const auto *E = llvm::dyn_cast<clang::Expr>(&Root)) {
    if (geometryEdit(*E, Positions, Edits))
      return;
    if (const auto *PO = llvm::dyn_cast<clang::PseudoObjectExpr>(E)) {
      positionEdits(*PO->getSyntacticForm(), Positions, Edits);
      return;
    }
  }
  for (const clang::Stmt *Child : Root.children())
    if (Child)
      positionEdits(*Child, Positions, Edits);
}

llvm::Expected<std::string> expandedText(const UnitAST &U, const frontend::IndexPolyBuilder &B,
                                         const clang::Expr &E,
                                         const std::array<std::string, 3> &Positions) {
  return TextExpander(U, B, Positions).text(E);
}

llvm::Expected<std::string> conditionText(const UnitAST &U, const frontend::IndexPolyBuilder &B,
                                          const Condition &C,
                                          const std::array<std::string, 3> &Positions) {
  if (C.Expr) {
    llvm::Expected<std::string> T = expandedText(U, B, *C.Expr, Positions);
    if (!T)
      return T.takeError();
    return (C.Negated ? "!(" : "(") + *T + ")";
  }
  llvm::Expected<std::string> L = expandedText(U, B, *C.Lhs, Positions);
  if (!L)
    return L.takeError();
  llvm::Expected<std::string> R = expandedText(U, B, *C.Rhs, Positions);
  if (!R)
    return R.takeError();
  return "((" + *L + ") " + C.Op.str() + " (" + *R + "))";
}

std::string coveringGrid(char Dim, int64_t Block) {
  if (Block == 1)
    return llvm::formatv("grid_{0} * block_{0}", Dim).str();
  return llvm::formatv("(grid_{0} * block_{0} + {1}) / {2}", Dim, Block - 1, Block).str();
}

llvm::Expected<std::string> polyText(const UnitAST &U, const frontend::IndexPolyBuilder &B,
                                     const IndexPoly &P,
                                     const std::array<std::string, 3> &Positions) {
  std::string Out;
  for (const auto &[Monomial, Coef] : P.terms()) {
    std::string Term = std::to_string(Coef) + "LL";
    for (unsigned Id : Monomial) {
      const frontend::PolyAtom &A = B.atom(Id);
      std::string Factor;
      switch (A.Kind) {
      case AtomKind::Position:
        Factor = Positions[A.Dim - 'x'];
        if (Factor.empty())
          return llvm::createStringError("a position without a value in generated code");
        Factor = "(" + Factor + ")";
        break;
      case AtomKind::BlockIdx:
        Factor = std::string("(long long)blockIdx.") + A.Dim;
        break;
      case AtomKind::Param:
      case AtomKind::LoopVar:
        Factor = "(long long)" + llvm::cast<clang::NamedDecl>(A.Decl)->getNameAsString();
        break;
      case AtomKind::Opaque: {
        llvm::Expected<std::string> T = expandedText(U, B, *A.Expr, Positions);
        if (!T)
          return T.takeError();
        Factor = "(long long)(" + *T + ")";
        break;
      }
      case AtomKind::BlockDim:
        return llvm::createStringError("blockDim in an index polynomial");
      }
      Term += " * " + Factor;
    }
    Out += (Out.empty() ? "" : " + ") + Term;
  }
  return Out.empty() ? std::string("0LL") : "(" + Out + ")";
}

Fit fitsRegrouping2D(const frontend::KernelSummary &Kernel) {
  if (Fit F = analysedAtInstantiation(Kernel); !F)
    return F;
  if (Fit F = dimensionsBetween(Kernel, 2, 3); !F)
    return F;
  return independentThreads(Kernel);
}

} // namespace kopt::transform
