#include "clang-plugin/transforms/framework/AstEdit.h"

#include "clang-plugin/analysis/IndexAnalysis.h"
#include "clang-plugin/analysis/ThreadPosition.h"
#include "clang-plugin/analysis/ast/AstWalk.h"
#include "clang-plugin/analysis/ast/Mentions.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/AST/Stmt.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>

#include <algorithm>
#include <set>

namespace kopt::transform {

llvm::Error unsupported(const UnitAST &U, clang::SourceLocation Loc, const llvm::Twine &Why) {
  return llvm::createStringError((llvm::Twine("line ") + llvm::Twine(U.line(Loc)) + ":" +
                                  llvm::Twine(U.column(Loc)) + ": " + Why)
                                     .str());
}

llvm::Expected<unsigned>
rewriteEachCall(UnitAST &U, llvm::function_ref<bool(const clang::CallExpr &)> Matches,
                llvm::function_ref<llvm::Error(const clang::CallExpr &,
                                               llvm::ArrayRef<const clang::CallExpr *>)>
                    Edit,
                llvm::StringRef None) {
  std::vector<const clang::CallExpr *> Calls;
  forEachStmt(U.Kernel.getBody(), [&](const clang::Stmt *S) {
    if (const auto *Call = llvm::dyn_cast<clang::CallExpr>(S); Call && Matches(*Call))
      Calls.push_back(Call);
  });
  unsigned Rewritten = 0;
  std::string FirstWhy; // The first call left alone, and why.
  for (const clang::CallExpr *Call : Calls) {
    if (llvm::Error E = Edit(*Call, Calls)) {
      std::string Why = llvm::toString(std::move(E));
      if (FirstWhy.empty())
        FirstWhy = Why;
      continue;
    }
    ++Rewritten;
  }
  if (Rewritten == 0)
    return llvm::createStringError(FirstWhy.empty() ? None.str() : FirstWhy);
  return Rewritten;
}

namespace {
// Whether the statement's text ends with the ';' that follows its source range.
bool endsWithSemicolon(const clang::Stmt &S) {
  if (llvm::isa<clang::Expr, clang::ReturnStmt, clang::BreakStmt, clang::ContinueStmt,
                clang::DoStmt, clang::GotoStmt>(S))
    return true;
  if (const auto *If = llvm::dyn_cast<clang::IfStmt>(&S))
    return endsWithSemicolon(If->getElse() ? *If->getElse() : *If->getThen());
  if (const auto *For = llvm::dyn_cast<clang::ForStmt>(&S))
    return endsWithSemicolon(*For->getBody());
  if (const auto *While = llvm::dyn_cast<clang::WhileStmt>(&S))
    return endsWithSemicolon(*While->getBody());
  if (const auto *Attributed = llvm::dyn_cast<clang::AttributedStmt>(&S))
    return endsWithSemicolon(*Attributed->getSubStmt());
  return false;
}

// The syntactic node of an index builtin, as the visitor below meets it.
// Casts are looked through as asIndexBuiltin does: `(int)threadIdx.x`.
const clang::Expr *builtinNode(const clang::Expr *E) {
  E = E->IgnoreParenCasts();
  if (const auto *PO = llvm::dyn_cast<clang::PseudoObjectExpr>(E))
    return PO->getSyntacticForm()->IgnoreParenCasts();
  return E;
}

class IndexFormVisitor : public clang::RecursiveASTVisitor<IndexFormVisitor> {
public:
  explicit IndexFormVisitor(llvm::StringRef Dimensions) : Dims(Dimensions) {}

  bool VisitBinaryOperator(clang::BinaryOperator *Add) {
    if (std::optional<frontend::PositionParts> P = frontend::positionSum(*Add);
        P && Dims.contains(P->Dim)) {
      for (const clang::Expr *E : P->Builtins)
        Approved.insert(builtinNode(E));
      Sums.push_back({P->Dim, Add});
    }
    return true;
  }
  bool VisitMemberExpr(clang::MemberExpr *E) { return note(E); }
  bool VisitMSPropertyRefExpr(clang::MSPropertyRefExpr *E) { return note(E); }

  std::vector<std::pair<const clang::Expr *, frontend::IndexBuiltin>> Uses;
  std::set<const clang::Expr *> Approved;
  std::vector<PositionSum> Sums;

private:
  bool note(const clang::Expr *E) {
    if (std::optional<frontend::IndexBuiltin> B = frontend::asIndexBuiltin(E))
      Uses.emplace_back(E, *B);
    return true;
  }
  llvm::StringRef Dims;
};

class ContentsVisitor : public clang::RecursiveASTVisitor<ContentsVisitor> {
public:
  bool VisitCallExpr(clang::CallExpr *Call) {
    const clang::FunctionDecl *FD = Call->getDirectCallee();
    if (!FD || !FD->getDeclName().isIdentifier()) {
      Out.UserCall = true;
      return true;
    }
    llvm::StringRef Name = FD->getName();
    if (Name.starts_with("__syncthreads") || Name == "__syncwarp")
      Out.Barrier = true;
    else if (Name.starts_with("atomic"))
      Out.Atomic = true;
    else if (Name.starts_with("__shfl") || Name.starts_with("__ballot") ||
             Name.starts_with("__any") || Name.starts_with("__all") ||
             Name.starts_with("__reduce") || Name.starts_with("__match"))
      Out.WarpIntrinsic = true;
    else if (const clang::FunctionDecl *Def = FD->getDefinition();
             Def && FD->getASTContext().getSourceManager().isInMainFile(Def->getLocation()))
      Out.UserCall = true;
    return true;
  }
  bool VisitReturnStmt(clang::ReturnStmt *) { return control(); }
  bool VisitBreakStmt(clang::BreakStmt *) { return control(); }
  bool VisitContinueStmt(clang::ContinueStmt *) { return control(); }
  bool VisitGotoStmt(clang::GotoStmt *) { return control(); }
  bool VisitVarDecl(clang::VarDecl *V) {
    Out.Shared = Out.Shared || V->hasAttr<clang::CUDASharedAttr>();
    return true;
  }
  StmtContents Out;

private:
  bool control() {
    Out.Control = true;
    return true;
  }
};
} // namespace

std::optional<char> positionSumDim(const clang::Expr &E) {
  const auto *Add = llvm::dyn_cast<clang::BinaryOperator>(E.IgnoreParens());
  std::optional<frontend::PositionParts> P = Add ? frontend::positionSum(*Add) : std::nullopt;
  return P ? std::optional<char>(P->Dim) : std::nullopt;
}

std::optional<frontend::IndexBuiltin>
builtinThroughLocal(const clang::Expr *E, const std::set<const clang::VarDecl *> &Changed) {
  E = E->IgnoreParenImpCasts();
  if (const clang::VarDecl *V = namedVariable(E)) {
    if (!V->isLocalVarDecl() || Changed.count(V) || !V->getInit() || !V->getType()->isIntegerType())
      return std::nullopt;
    E = V->getInit()->IgnoreParenImpCasts();
  }
  return frontend::asIndexBuiltin(E);
}

std::optional<char> positionSumDimThroughLocals(const clang::Expr &E,
                                                const std::set<const clang::VarDecl *> &Changed) {
  const auto *Add = llvm::dyn_cast<clang::BinaryOperator>(E.IgnoreParenImpCasts());
  auto Is = [&](const clang::Expr *X, llvm::StringRef Var, char Dim) {
    std::optional<frontend::IndexBuiltin> B = builtinThroughLocal(X, Changed);
    return B && B->Var == Var && B->Component == Dim;
  };
  std::optional<frontend::PositionParts> P = Add ? frontend::positionSum(*Add, Is) : std::nullopt;
  return P ? std::optional<char>(P->Dim) : std::nullopt;
}

llvm::Expected<clang::CharSourceRange> statementRange(const UnitAST &U, const clang::Stmt &S) {
  const clang::SourceManager &SM = U.Ctx.getSourceManager();
  clang::SourceLocation Begin = S.getBeginLoc(), End = S.getEndLoc();
  if (Begin.isMacroID() || End.isMacroID()) {
    // A statement that starts or ends with a macro (x /= SCALE;) is its
    // invocation's text; one inside a macro's expansion has none.
    clang::CharSourceRange File = clang::Lexer::makeFileCharRange(
        clang::CharSourceRange::getTokenRange(Begin, End), SM, U.Ctx.getLangOpts());
    if (File.isInvalid())
      return unsupported(U, SM.getExpansionLoc(Begin), "the statement comes from a macro");
    Begin = File.getBegin();
    End = SM.getExpansionRange(End).getEnd();
  }
  clang::SourceLocation After = clang::Lexer::getLocForEndOfToken(End, 0, SM, U.Ctx.getLangOpts());
  if (endsWithSemicolon(S)) {
    std::optional<clang::Token> Next = clang::Lexer::findNextToken(End, SM, U.Ctx.getLangOpts());
    if (!Next || !Next->is(clang::tok::semi))
      return unsupported(U, Begin, "cannot find the ';' that ends the statement");
    After = Next->getEndLoc();
  }
  return clang::CharSourceRange::getCharRange(Begin, After);
}

llvm::Expected<clang::CharSourceRange> fileRange(const UnitAST &U, clang::SourceRange Range) {
  clang::CharSourceRange R = clang::Lexer::makeFileCharRange(
      clang::CharSourceRange::getTokenRange(Range), U.Ctx.getSourceManager(), U.Ctx.getLangOpts());
  if (R.isInvalid())
    return unsupported(U, U.Ctx.getSourceManager().getExpansionLoc(Range.getBegin()),
                       "the code is partly inside a macro");
  return R;
}

llvm::Expected<std::string> exprText(const UnitAST &U, const clang::Expr &E) {
  llvm::Expected<clang::CharSourceRange> R = fileRange(U, E.getSourceRange());
  if (!R)
    return R.takeError();
  return clang::Lexer::getSourceText(*R, U.Ctx.getSourceManager(), U.Ctx.getLangOpts()).str();
}

bool rangeInside(const clang::SourceManager &SM, clang::SourceRange Outer,
                 clang::SourceRange Inner) {
  return !SM.isBeforeInTranslationUnit(Inner.getBegin(), Outer.getBegin()) &&
         !SM.isBeforeInTranslationUnit(Outer.getEnd(), Inner.getEnd());
}

llvm::Expected<std::string> editedText(const UnitAST &U, clang::CharSourceRange Range,
                                       std::vector<TextEdit> Edits) {
  const clang::SourceManager &SM = U.Ctx.getSourceManager();
  std::sort(Edits.begin(), Edits.end(), [&](const TextEdit &A, const TextEdit &B) {
    return SM.isBeforeInTranslationUnit(A.Range.getBegin(), B.Range.getBegin());
  });
  std::string Out;
  clang::SourceLocation Cursor = Range.getBegin();
  for (const TextEdit &E : Edits) {
    llvm::Expected<clang::CharSourceRange> R = fileRange(U, E.Range);
    if (!R)
      return R.takeError();
    if (SM.isBeforeInTranslationUnit(R->getBegin(), Cursor))
      return unsupported(U, R->getBegin(), "overlapping edits");
    Out += clang::Lexer::getSourceText(clang::CharSourceRange::getCharRange(Cursor, R->getBegin()),
                                       SM, U.Ctx.getLangOpts());
    Out += E.Text;
    Cursor = R->getEnd();
  }
  Out += clang::Lexer::getSourceText(clang::CharSourceRange::getCharRange(Cursor, Range.getEnd()),
                                     SM, U.Ctx.getLangOpts());
  return Out;
}

std::vector<const clang::Expr *> splitCondition(const clang::Expr *E, bool Or) {
  E = E->IgnoreParenImpCasts();
  const auto *Bin = llvm::dyn_cast<clang::BinaryOperator>(E);
  if (!Bin || Bin->getOpcode() != (Or ? clang::BO_LOr : clang::BO_LAnd))
    return {E};
  std::vector<const clang::Expr *> Parts = splitCondition(Bin->getLHS(), Or);
  for (const clang::Expr *P : splitCondition(Bin->getRHS(), Or))
    Parts.push_back(P);
  return Parts;
}

std::optional<CountedLoop> countedLoop(const clang::ForStmt &For, const UnitAST &U) {
  const auto *Decl = llvm::dyn_cast_or_null<clang::DeclStmt>(For.getInit());
  if (!Decl || !Decl->isSingleDecl())
    return std::nullopt;
  const auto *V = llvm::dyn_cast<clang::VarDecl>(Decl->getSingleDecl());
  if (!V || !V->getInit())
    return std::nullopt;
  return countedLoopWith(For, U, V, V->getInit());
}

std::optional<CountedLoop> countedLoopWith(const clang::ForStmt &For, const UnitAST &U,
                                           const clang::VarDecl *V, const clang::Expr *Init) {
  if (!V->getType()->isIntegerType())
    return std::nullopt;
  CountedLoop L;
  L.Var = V;
  L.Init = Init;
  const auto *Cond = llvm::dyn_cast_or_null<clang::BinaryOperator>(
      For.getCond() ? For.getCond()->IgnoreParenImpCasts() : nullptr);
  if (!Cond || (Cond->getOpcode() != clang::BO_LT && Cond->getOpcode() != clang::BO_LE) ||
      !mentionsThroughLocals(Cond->getLHS(), V) ||
      !llvm::isa<clang::DeclRefExpr>(Cond->getLHS()->IgnoreParenImpCasts()))
    return std::nullopt;
  L.Bound = Cond->getRHS();
  L.Comparison = Cond->getOpcode() == clang::BO_LT ? "<" : "<=";
  const clang::Expr *Inc = For.getInc() ? For.getInc()->IgnoreParenImpCasts() : nullptr;
  auto IsV = [&](const clang::Expr *E) {
    const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(E->IgnoreParenImpCasts());
    return Ref && Ref->getDecl() == V;
  };
  auto IsOne = [&](const clang::Expr *E) {
    std::optional<llvm::APSInt> One = E->getIntegerConstantExpr(U.Ctx);
    return One && *One == 1;
  };
  // j++, ++j, j += 1, j = j + 1, j = 1 + j.
  bool StepOne = false;
  if (const auto *Un = llvm::dyn_cast_or_null<clang::UnaryOperator>(Inc))
    StepOne = Un->isIncrementOp() && IsV(Un->getSubExpr());
  else if (const auto *Bin = llvm::dyn_cast_or_null<clang::BinaryOperator>(Inc);
           Bin && IsV(Bin->getLHS())) {
    const auto *Add = llvm::dyn_cast<clang::BinaryOperator>(Bin->getRHS()->IgnoreParenImpCasts());
    if (Bin->getOpcode() == clang::BO_AddAssign)
      StepOne = IsOne(Bin->getRHS());
    else if (Bin->getOpcode() == clang::BO_Assign && Add && Add->getOpcode() == clang::BO_Add)
      StepOne = (IsV(Add->getLHS()) && IsOne(Add->getRHS())) ||
                (IsOne(Add->getLHS()) && IsV(Add->getRHS()));
  }
  if (!StepOne || L.Init->HasSideEffects(U.Ctx) || L.Bound->HasSideEffects(U.Ctx) ||
      mentionsThroughLocals(L.Bound, V))
    return std::nullopt;
  return L;
}

const clang::Stmt &outermostLoopStmt(const UnitAST &U, const clang::Stmt &Loop) {
  const clang::Stmt *Parent = parentOf(&Loop, U.Ctx);
  if (Parent && llvm::isa<clang::AttributedStmt>(Parent))
    return *Parent;
  return Loop;
}

bool readsThreadIdx(const clang::Expr *E) {
  return frontend::anySubExpr(E, [](const clang::Expr *S) {
    std::optional<frontend::IndexBuiltin> B = frontend::asIndexBuiltin(S);
    return B && B->Var == "threadIdx";
  });
}

bool readsThreadPosition(const clang::Expr *E, char Dim) {
  return frontend::anySubExpr(E, [Dim](const clang::Expr *S) {
    std::optional<frontend::IndexBuiltin> B = frontend::asIndexBuiltin(S);
    return B && (B->Var == "threadIdx" || B->Var == "blockIdx") && B->Component == Dim;
  });
}

llvm::Error checkGlobalIndexForm(const UnitAST &U, llvm::StringRef Dims, bool AllowBlockZ,
                                 std::vector<PositionSum> *Sums) {
  IndexFormVisitor Visitor(Dims);
  Visitor.TraverseStmt(U.Kernel.getBody());
  if (Sums)
    *Sums = Visitor.Sums;
  for (const auto &[E, B] : Visitor.Uses) {
    bool Mapped = Dims.contains(B.Component);
    if (Mapped && B.Var != "gridDim" && Visitor.Approved.count(E))
      continue;
    if (!Mapped && AllowBlockZ && B.Var == "blockIdx" && B.Component == 'z')
      continue;
    return unsupported(U, E->getBeginLoc(),
                       llvm::Twine(B.Var) + "." + llvm::StringRef(&B.Component, 1) +
                           " is used outside the form blockIdx * blockDim + threadIdx");
  }
  return llvm::Error::success();
}

llvm::Error returnsAsContinues(const UnitAST &U, std::vector<TextEdit> &Edits) {
  std::vector<const clang::ReturnStmt *> Returns;
  bool Nested = false;
  forEachStmt(U.Kernel.getBody(), [&](const clang::Stmt *S) {
    const auto *Ret = llvm::dyn_cast<clang::ReturnStmt>(S);
    if (!Ret)
      return;
    for (const clang::Stmt *Up = parentOf(Ret, U.Ctx); Up && Up != U.Kernel.getBody();
         Up = parentOf(Up, U.Ctx))
      Nested |= llvm::isa<clang::ForStmt, clang::WhileStmt, clang::DoStmt, clang::SwitchStmt>(Up);
    Returns.push_back(Ret);
  });
  if (Nested)
    return llvm::createStringError("a return inside a loop or switch of the kernel");
  for (const clang::ReturnStmt *Ret : Returns) {
    if (Ret->getBeginLoc().isMacroID())
      return llvm::createStringError("a return comes from a macro");
    Edits.push_back({clang::SourceRange(Ret->getBeginLoc()), "continue"});
  }
  return llvm::Error::success();
}

const clang::Expr *earlyReturnCondition(const clang::Stmt &S) {
  const auto *If = llvm::dyn_cast<clang::IfStmt>(&S);
  if (!If || If->getElse() || If->getInit() || If->getConditionVariable())
    return nullptr;
  const clang::Stmt *Then = If->getThen();
  if (const auto *Block = llvm::dyn_cast<clang::CompoundStmt>(Then))
    Then = Block->size() == 1 ? Block->body_front() : nullptr;
  const auto *Return = llvm::dyn_cast_or_null<clang::ReturnStmt>(Then);
  return Return && !Return->getRetValue() ? If->getCond() : nullptr;
}

bool isInertDecl(const clang::Stmt &S) {
  if (llvm::isa<clang::NullStmt>(S))
    return true;
  const auto *Decl = llvm::dyn_cast<clang::DeclStmt>(&S);
  if (!Decl)
    return false;
  for (const clang::Decl *D : Decl->decls()) {
    const auto *V = llvm::dyn_cast<clang::VarDecl>(D);
    if (!V || V->hasAttr<clang::CUDASharedAttr>() || V->getType()->isReferenceType())
      return false;
    if (const clang::Expr *Init = V->getInit();
        Init && frontend::anySubExpr(Init, [](const clang::Expr *E) {
          if (llvm::isa<clang::ArraySubscriptExpr, clang::CallExpr, clang::CXXConstructExpr>(E))
            return !llvm::isa<clang::CXXConstructExpr>(E) ||
                   !llvm::cast<clang::CXXConstructExpr>(E)->getConstructor()->isTrivial();
          if (const auto *U = llvm::dyn_cast<clang::UnaryOperator>(E))
            return U->getOpcode() == clang::UO_Deref || U->isIncrementDecrementOp();
          const auto *B = llvm::dyn_cast<clang::BinaryOperator>(E);
          return B && B->isAssignmentOp();
        }))
      return false;
  }
  return true;
}

std::string typeText(clang::QualType T, const UnitAST &U) {
  clang::PrintingPolicy Policy = U.Ctx.getPrintingPolicy();
  Policy.SuppressTagKeyword = true;
  return T.getUnqualifiedType().getAsString(Policy);
}

StmtContents inspectStmt(const clang::Stmt &S) {
  ContentsVisitor Visitor;
  Visitor.TraverseStmt(const_cast<clang::Stmt *>(&S));
  return Visitor.Out;
}

} // namespace kopt::transform
