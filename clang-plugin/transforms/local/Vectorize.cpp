// vectorize: a 1D guarded elementwise kernel (every access p[i], i the global
// x index, 4-byte float/int elements) where each thread handles V consecutive
// elements, with V-wide loads and stores (float4, int2, ...). The grid shrinks
// by V through the launch mapping. A thread takes the vector path where its V
// elements all pass the kernel's guard and every pointer it touches is
// aligned to V elements (checked at run time); else it runs the original
// statements element by element, so the result is the same for any n and any
// pointer.
#include "clang-plugin/analysis/IndexAnalysis.h"
#include "clang-plugin/analysis/ast/AstWalk.h"
#include "clang-plugin/analysis/ast/DeclOrder.h"
#include "clang-plugin/analysis/ast/Mentions.h"
#include "clang-plugin/transforms/framework/AstEdit.h"
#include "clang-plugin/transforms/framework/GlobalIndex.h"
#include "clang-plugin/transforms/framework/TransformFactories.h"
#include "clang-plugin/transforms/framework/TransformSupport.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Rewrite/Core/Rewriter.h>

#include <map>
#include <set>

namespace kopt::transform {

namespace {
// The vector type of V elements of T, or "" where T is not float, int or unsigned.
std::string vectorType(clang::QualType T, int64_t V) {
  T = T.getCanonicalType().getUnqualifiedType();
  const auto *B = T->getAs<clang::BuiltinType>();
  if (!B)
    return "";
  switch (B->getKind()) {
  case clang::BuiltinType::Float:
    return "float" + std::to_string(V);
  case clang::BuiltinType::Int:
    return "int" + std::to_string(V);
  case clang::BuiltinType::UInt:
    return "uint" + std::to_string(V);
  default:
    return "";
  }
}

// The accesses of the elementwise statements: each must be P[I].
struct ElementScan : clang::RecursiveASTVisitor<ElementScan> {
  explicit ElementScan(const clang::VarDecl *Index) : I(Index) {}

  bool VisitArraySubscriptExpr(clang::ArraySubscriptExpr *E) {
    const auto *Base = llvm::dyn_cast<clang::DeclRefExpr>(E->getBase()->IgnoreParenImpCasts());
    const auto *Idx = llvm::dyn_cast<clang::DeclRefExpr>(E->getIdx()->IgnoreParenImpCasts());
    const auto *P = Base ? llvm::dyn_cast<clang::ParmVarDecl>(Base->getDecl()) : nullptr;
    if (!P || !Idx || Idx->getDecl() != I)
      Bad = Bad ? Bad : E;
    else
      Accesses.push_back({E, P});
    return true;
  }
  bool VisitUnaryOperator(clang::UnaryOperator *E) {
    if (E->getOpcode() == clang::UO_Deref || E->getOpcode() == clang::UO_AddrOf)
      Bad = Bad ? Bad : E;
    else if (E->isIncrementDecrementOp())
      Written.insert(E->getSubExpr()->IgnoreParenImpCasts());
    return true;
  }
  bool VisitBinaryOperator(clang::BinaryOperator *E) {
    if (E->isAssignmentOp()) {
      Written.insert(E->getLHS()->IgnoreParenImpCasts());
      if (E->getOpcode() == clang::BO_Assign)
        Stores.insert(E->getLHS()->IgnoreParenImpCasts());
    }
    return true;
  }
  bool VisitDeclRefExpr(clang::DeclRefExpr *E) {
    if (llvm::isa<clang::ParmVarDecl>(E->getDecl()) && E->getType()->isPointerType())
      ++PointerUses;
    if (E->getDecl() == I)
      IndexRefs.push_back(E);
    return true;
  }

  const clang::VarDecl *I;
  std::vector<std::pair<const clang::ArraySubscriptExpr *, const clang::ParmVarDecl *>> Accesses;
  std::set<const clang::Expr *> Written, Stores;
  std::vector<const clang::DeclRefExpr *> IndexRefs;
  unsigned PointerUses = 0;
  const clang::Expr *Bad = nullptr;
};

bool namesVar(const clang::Stmt *S, const clang::VarDecl *V) {
  if (const auto *Ref = llvm::dyn_cast_or_null<clang::DeclRefExpr>(S); Ref && Ref->getDecl() == V)
    return true;
  if (const auto *Decl = llvm::dyn_cast_or_null<clang::DeclStmt>(S))
    for (const clang::Decl *D : Decl->decls())
      if (const auto *Var = llvm::dyn_cast<clang::VarDecl>(D); Var && namesVar(Var->getInit(), V))
        return true;
  if (S)
    for (const clang::Stmt *Child : S->children())
      if (namesVar(Child, V))
        return true;
  return false;
}

// What one parameter needs: a vector load before the lanes, a store after.
struct VectorParam {
  const clang::ParmVarDecl *Param = nullptr;
  bool Load = false, Store = false;
};

class Vectorize : public Transform {
public:
  llvm::StringRef id() const override { return "vectorize"; }

  std::vector<ParamDecl> params() const override { return {{"V", {2, 4}}}; }

protected:
  Offer offerPoints(const frontend::KernelSummary &Kernel) const override {
    if (Fit F = fits1DGuarded(Kernel); !F)
      return F.offer();
    if (Kernel.Features.Accesses.empty())
      return Offer::no("the kernel reads and writes no global memory");
    for (const frontend::MemoryAccess &A : Kernel.Features.Accesses) {
      if (A.Pattern != frontend::AccessPattern::Coalesced ||
          A.Index != Kernel.Features.Accesses.front().Index)
        return Offer::no("not every access is at the thread's own index (" + A.Param + "[" +
                         A.Index + "])");
      for (const frontend::KernelParam &P : Kernel.Params)
        if (P.Name == A.Param && !llvm::StringRef(P.Type).contains("float") &&
            !llvm::StringRef(P.Type).contains("int"))
          return Offer::no("'" + P.Name + "' holds " + P.Type + ", which has no vector type here");
    }
    return Offer::of({{{"V", 4}}, {{"V", 2}}});
  }

  llvm::Expected<TransformOutput> rewriteAt(const TransformInput &In,
                                            const ParamSet &Params) const override {
    int64_t V = Params.at("V");
    llvm::Expected<std::string> Text = rewriteUnit(In, [&](UnitAST &U) { return rewrite(U, V); });
    if (!Text)
      return Text.takeError();
    TransformOutput Out;
    Out.UnitText = std::move(*Text);
    frontend::LaunchMapping Launch;
    Launch.Grid[0] = "(grid_x + " + std::to_string(V - 1) + ") / " + std::to_string(V);
    Out.Launch = Launch;
    Out.Summary = "each thread handles " + std::to_string(V) +
                  " consecutive elements with vector loads and stores";
    return Out;
  }

private:
  static llvm::Error rewrite(UnitAST &U, int64_t V) {
    if (llvm::Error E = checkGlobalIndexForm(U, "x", /*AllowBlockZ=*/false))
      return E;
    const auto *Body = llvm::dyn_cast<clang::CompoundStmt>(U.Kernel.getBody());
    if (!Body)
      return unsupported(U, U.Kernel.getLocation(), "the kernel's body is not a block");
    // The index: the one variable initialized from the thread's position.
    const clang::VarDecl *I = nullptr;
    auto It = Body->body_begin();
    for (; It != Body->body_end() && !I; ++It) {
      const auto *Decl = llvm::dyn_cast<clang::DeclStmt>(*It);
      const auto *Var = Decl && Decl->isSingleDecl()
                            ? llvm::dyn_cast<clang::VarDecl>(Decl->getSingleDecl())
                            : nullptr;
      if (Var && Var->getInit() && readsThreadPosition(Var->getInit(), 'x') &&
          Var->getType()->isIntegerType())
        I = Var;
      else if (!isInertDecl(**It))
        return unsupported(U, (*It)->getBeginLoc(), "a statement before the global index");
    }
    if (!I)
      return unsupported(U, U.Kernel.getLocation(), "no variable holds the global x index");
    for (; It != Body->body_end() && isInertDecl(**It); ++It)
      if (namesVar(*It, I)) // It would hold the first lane's value only.
        return unsupported(U, (*It)->getBeginLoc(), "a declaration computed from the index");
    if (It == Body->body_end())
      return unsupported(U, I->getLocation(), "no bounds check follows the index");
    // `if (G) S` as the last statement, or `if (C) return;` and S to the end.
    const clang::Stmt *First = *It, *Last = Body->body_back();
    std::string Guard;
    std::vector<const clang::Stmt *> Elementwise;
    if (const clang::Expr *C = earlyReturnCondition(*First)) {
      llvm::Expected<std::string> Text = exprText(U, *C);
      if (!Text)
        return Text.takeError();
      Guard = "!(" + *Text + ")";
      Elementwise.assign(It + 1, Body->body_end());
      if (!mentionsThroughLocals(C, I) || C->HasSideEffects(U.Ctx))
        return unsupported(U, C->getBeginLoc(), "the bounds check does not test the index");
    } else if (const auto *If = llvm::dyn_cast<clang::IfStmt>(First);
               If && First == Last && !If->getElse() && !If->getInit() &&
               !If->getConditionVariable()) {
      llvm::Expected<std::string> Text = exprText(U, *If->getCond());
      if (!Text)
        return Text.takeError();
      Guard = "(" + *Text + ")";
      Elementwise.push_back(If->getThen());
      if (!mentionsThroughLocals(If->getCond(), I) || If->getCond()->HasSideEffects(U.Ctx))
        return unsupported(U, If->getBeginLoc(), "the bounds check does not test the index");
    } else {
      return unsupported(U, First->getBeginLoc(),
                         "expected 'if (guard) ...' as the last statement or 'if (...) return;'");
    }
    if (Elementwise.empty())
      return unsupported(U, First->getBeginLoc(), "nothing follows the bounds check");
    return emit(U, V, *I, Guard, *First, *Last, Elementwise);
  }

  static llvm::Error emit(UnitAST &U, int64_t V, const clang::VarDecl &I, const std::string &Guard,
                          const clang::Stmt &First, const clang::Stmt &Last,
                          const std::vector<const clang::Stmt *> &Elementwise) {
    ElementScan Scan(&I);
    std::set<const clang::Stmt *> TopLevel;
    for (const clang::Stmt *S : Elementwise) {
      StmtContents Contents = inspectStmt(*S);
      if (Contents.Barrier || Contents.Atomic || Contents.WarpIntrinsic || Contents.Control ||
          Contents.Shared || Contents.UserCall)
        return unsupported(U, S->getBeginLoc(),
                           "the elementwise code synchronizes, leaves early or calls device "
                           "functions");
      Scan.TraverseStmt(const_cast<clang::Stmt *>(S));
      const clang::Stmt *Top = S;
      if (const auto *Block = llvm::dyn_cast<clang::CompoundStmt>(S))
        for (const clang::Stmt *Child : Block->body())
          TopLevel.insert(Child);
      TopLevel.insert(Top);
    }
    if (Scan.Bad)
      return unsupported(U, Scan.Bad->getBeginLoc(), "an access other than p[i]");
    if (Scan.Accesses.empty() || Scan.PointerUses != Scan.Accesses.size())
      return unsupported(U, First.getBeginLoc(), "pointers used other than as p[i]");
    for (const clang::Expr *W : Scan.Written)
      if (const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(W); Ref && Ref->getDecl() == &I)
        return unsupported(U, W->getBeginLoc(), "the index changes");
    // Per parameter: load where read (or written only in part), store where written.
    std::map<const clang::ParmVarDecl *, VectorParam, WrittenBefore> ByParam;
    std::vector<const clang::ParmVarDecl *> Order;
    for (const auto &[E, P] : Scan.Accesses) {
      if (vectorType(E->getType(), V).empty())
        return unsupported(U, E->getBeginLoc(), "elements are not float, int or unsigned int");
      auto [Slot, New] = ByParam.try_emplace(P, VectorParam{P, false, false});
      if (New)
        Order.push_back(P);
      bool Stored = Scan.Stores.count(E) > 0, Written = Scan.Written.count(E) > 0;
      Slot->second.Store = Slot->second.Store || Written;
      Slot->second.Load = Slot->second.Load || !Stored;
    }
    for (const auto &[E, P] : Scan.Accesses)
      if (Scan.Stores.count(E) && !isUnconditionalStore(U, *E, TopLevel))
        ByParam[P].Load = true; // Lanes that skip the store keep their value.
    for (const auto &[P, VP] : ByParam)
      if (VP.Store && P->getType()->getPointeeType().isConstQualified())
        return unsupported(U, P->getLocation(), "a store through a const pointer");

    static const char *Lanes[] = {"x", "y", "z", "w"};
    std::string IType = typeText(I.getType(), U), Name = I.getNameAsString();
    std::string VS = std::to_string(V);
    std::string Out;
    llvm::raw_string_ostream OS(Out);
    OS << "{ // kopt vectorize: V = " << VS << "\n"
       << "const long long kopt_base = static_cast<long long>(" << Name << ") * " << VS << ";\n"
       << "auto kopt_in = [&](long long kopt_j) {\n  const " << IType << " " << Name
       << " = static_cast<" << IType << ">(kopt_j);\n  return static_cast<bool>(" << Guard
       << ");\n};\n"
       << "const bool kopt_aligned = ((";
    for (size_t N = 0; N < Order.size(); ++N)
      OS << (N ? " | " : "") << "reinterpret_cast<unsigned long long>("
         << Order[N]->getNameAsString() << ")";
    OS << ") % (" << VS << " * 4)) == 0;\n"
       << "if (kopt_aligned";
    for (int64_t L = 0; L < V; ++L)
      OS << " && kopt_in(kopt_base + " << L << ")";
    OS << ") {\n";
    for (const clang::ParmVarDecl *P : Order) {
      const VectorParam &VP = ByParam[P];
      std::string VT = vectorType(P->getType()->getPointeeType(), V);
      OS << "  " << VT << " kopt_v_" << P->getName();
      if (VP.Load)
        OS << " = *reinterpret_cast<const " << VT << " *>(" << P->getName() << " + kopt_base)";
      OS << ";\n";
    }
    for (int64_t L = 0; L < V; ++L) {
      OS << "  {\n    const " << IType << " " << Name << " = static_cast<" << IType
         << ">(kopt_base + " << L << ");\n    (void)" << Name << ";\n";
      for (const clang::Stmt *S : Elementwise) {
        llvm::Expected<clang::CharSourceRange> Range = statementRange(U, *S);
        if (!Range)
          return Range.takeError();
        std::vector<TextEdit> Edits;
        for (const auto &[E, P] : Scan.Accesses)
          if (U.Ctx.getSourceManager().isPointWithin(E->getBeginLoc(), Range->getBegin(),
                                                     Range->getEnd()))
            Edits.push_back({E->getSourceRange(),
                             (llvm::Twine("kopt_v_") + P->getName() + "." + Lanes[L]).str()});
        llvm::Expected<std::string> Text = editedText(U, *Range, std::move(Edits));
        if (!Text)
          return Text.takeError();
        OS << "    " << *Text << "\n";
      }
      OS << "  }\n";
    }
    for (const clang::ParmVarDecl *P : Order)
      if (ByParam[P].Store)
        OS << "  *reinterpret_cast<" << vectorType(P->getType()->getPointeeType(), V) << " *>("
           << P->getName() << " + kopt_base) = kopt_v_" << P->getName() << ";\n";
    // The scalar path: the original statements, one element at a time.
    OS << "} else {\n  for (int kopt_l = 0; kopt_l < " << VS << "; ++kopt_l) {\n    const " << IType
       << " " << Name << " = static_cast<" << IType << ">(kopt_base + kopt_l);\n"
       << "    if (" << Guard << ") {\n";
    for (const clang::Stmt *S : Elementwise) {
      llvm::Expected<clang::CharSourceRange> Range = statementRange(U, *S);
      if (!Range)
        return Range.takeError();
      llvm::Expected<std::string> Text = editedText(U, *Range, {});
      if (!Text)
        return Text.takeError();
      OS << "      " << *Text << "\n";
    }
    OS << "    }\n  }\n}\n}";
    llvm::Expected<clang::CharSourceRange> FirstRange = statementRange(U, First);
    llvm::Expected<clang::CharSourceRange> LastRange = statementRange(U, Last);
    if (!FirstRange)
      return FirstRange.takeError();
    if (!LastRange)
      return LastRange.takeError();
    U.Rewrite.ReplaceText(
        clang::CharSourceRange::getCharRange(FirstRange->getBegin(), LastRange->getEnd()), Out);
    return llvm::Error::success();
  }

  // P[i] = ... as a statement of its own at the top of the elementwise code:
  // every lane stores it.
  static bool isUnconditionalStore(const UnitAST &U, const clang::Expr &E,
                                   const std::set<const clang::Stmt *> &TopLevel) {
    const clang::Stmt *Assign = parentOf(&E, U.Ctx);
    while (Assign && llvm::isa<clang::ParenExpr>(Assign))
      Assign = parentOf(Assign, U.Ctx);
    return Assign && TopLevel.count(Assign);
  }
};
} // namespace

std::unique_ptr<Transform> makeVectorizeTransform() { return std::make_unique<Vectorize>(); }

} // namespace kopt::transform
