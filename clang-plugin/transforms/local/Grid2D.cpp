// grid-2d: a 1D grid over a row-major 2D output becomes a 2D grid. Code that
// flattens the output into one thread index and splits it again,
//   int idx = blockIdx.x * blockDim.x + threadIdx.x;
//   if (idx < n * n) { int row = idx / n, col = idx % n; ... }
// reads its row and column from a division; the idiom transforms
// (register-blocking, smem-tiling, thread-mapping-swap) need them as thread
// positions. With a 2D launch of the same threads (x over the W columns, y
// over the rows), `idx / W` is the y position, `idx % W` the x position and
// idx itself `y * W + x`, exactly, for every thread whose x is below W; the
// others return at once (the kernel has no barriers). A bounds check
// `idx < H * W` becomes `y < H` (and `idx >= H * W`, `y >= H`). W is a
// positive constant or an integer parameter the kernel never changes (a
// width; W <= 0 would have the original divide by zero or index backwards);
// threads past the original launch are the bounds check's to skip, as for
// block-size.
#include "clang-plugin/analysis/ast/AstWalk.h"
#include "clang-plugin/transforms/framework/AstEdit.h"
#include "clang-plugin/transforms/framework/GlobalIndex.h"
#include "clang-plugin/transforms/framework/TransformFactories.h"
#include "clang-plugin/transforms/framework/TransformSupport.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/Stmt.h>
#include <clang/Rewrite/Core/Rewriter.h>

namespace kopt::transform {

namespace {
constexpr const char *RowText = "(blockIdx.y * blockDim.y + threadIdx.y)";
constexpr const char *ColText = "(blockIdx.x * blockDim.x + threadIdx.x)";

// A divisor: an integer constant, or an integer parameter never changed.
struct Width {
  std::optional<int64_t> Value;
  const clang::ParmVarDecl *Param = nullptr;
  std::string Text; // As the launch mapping and the kernel spell it.

  bool operator==(const Width &O) const { return Value == O.Value && Param == O.Param; }
};

std::optional<Width> widthOf(const clang::Expr *E, const UnitAST &U,
                             const std::set<const clang::VarDecl *> &Changed) {
  if (std::optional<llvm::APSInt> C = E->getIntegerConstantExpr(U.Ctx)) {
    if (C->getSExtValue() <= 0)
      return std::nullopt;
    return Width{C->getSExtValue(), nullptr, std::to_string(C->getSExtValue())};
  }
  const auto *P = llvm::dyn_cast_or_null<clang::ParmVarDecl>(namedVariable(E));
  if (!P || !P->getType()->isIntegerType() || Changed.count(P))
    return std::nullopt;
  return Width{std::nullopt, P, P->getName().str()};
}

// H where E is H * W (constants folded, or a product with W as a factor).
std::optional<std::string> rowsOf(const clang::Expr *E, const Width &W, const UnitAST &U,
                                  const std::set<const clang::VarDecl *> &Changed) {
  if (W.Value)
    if (std::optional<llvm::APSInt> C = E->getIntegerConstantExpr(U.Ctx))
      if (C->getSExtValue() % *W.Value == 0)
        return std::to_string(C->getSExtValue() / *W.Value);
  const auto *Mul = llvm::dyn_cast<clang::BinaryOperator>(E->IgnoreParenImpCasts());
  if (!Mul || Mul->getOpcode() != clang::BO_Mul)
    return std::nullopt;
  for (auto [Factor, Other] :
       {std::pair{Mul->getLHS(), Mul->getRHS()}, std::pair{Mul->getRHS(), Mul->getLHS()}}) {
    std::optional<Width> F = widthOf(Factor, U, Changed);
    if (!F || !(*F == W) || !computesOnly(Other))
      continue;
    llvm::Expected<std::string> Text = exprText(U, *Other);
    if (Text)
      return (llvm::Twine("(") + *Text + ")").str();
    llvm::consumeError(Text.takeError());
  }
  return std::nullopt;
}

// "(T)position": the split's value in the split's own type.
std::string cast(const std::string &Type, const char *Position) {
  return (llvm::Twine("(") + Type + ")" + Position).str();
}

struct Plan {
  Width W;
  unsigned Splits = 0; // idx / W and idx % W rewritten.
  unsigned Bounds = 0; // idx < H * W rewritten.
};

llvm::Expected<Plan> rewrite(UnitAST &U) {
  llvm::Expected<GlobalIndexShape> Shape = findGlobalIndexShape(U);
  if (!Shape)
    return Shape.takeError();
  const clang::Stmt *Body = U.Kernel.getBody();
  if (Shape->GridStride)
    return unsupported(U, Body->getBeginLoc(), "a grid-stride loop has no fixed rows");
  if (Shape->Indices.size() != 1 || Shape->Indices.front().Offset)
    return unsupported(U, Shape->Indices.front().Whole->getBeginLoc(),
                       "not one global index without an offset");
  const clang::Expr *Whole = Shape->Indices.front().Whole;
  // The index must be a local's initializer, the local never changed.
  const clang::VarDecl *Index = nullptr;
  const clang::DeclStmt *IndexDecl = nullptr;
  forEachStmt(Body, [&](const clang::Stmt *S) {
    if (const auto *DS = llvm::dyn_cast<clang::DeclStmt>(S))
      for (const clang::Decl *D : DS->decls())
        if (const auto *V = llvm::dyn_cast<clang::VarDecl>(D))
          if (V->getInit() && V->getInit()->IgnoreParenImpCasts() == Whole) {
            Index = V;
            IndexDecl = DS;
          }
  });
  std::set<const clang::VarDecl *> Changed = changedVariables(Body);
  if (!Index || Changed.count(Index) || !Index->getType()->isIntegerType())
    return unsupported(U, Whole->getBeginLoc(),
                       "the global index is not an integer local that keeps its value");

  std::vector<const clang::BinaryOperator *> Divs, Rems, Compares;
  unsigned OtherUses = 0;
  std::optional<Width> W;
  bool Mixed = false;
  forEachStmt(Body, [&](const clang::Stmt *S) {
    const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(S);
    if (!Ref || Ref->getDecl() != Index)
      return;
    const auto *Op =
        llvm::dyn_cast_or_null<clang::BinaryOperator>(parentPastParensAndCasts(Ref, U.Ctx));
    bool Left = Op && Op->getLHS()->IgnoreParenImpCasts() == Ref;
    if (Op && Left && (Op->getOpcode() == clang::BO_Div || Op->getOpcode() == clang::BO_Rem)) {
      std::optional<Width> This = widthOf(Op->getRHS(), U, Changed);
      Mixed |= !This || (W && !(*W == *This));
      if (This && !W)
        W = This;
      (Op->getOpcode() == clang::BO_Div ? Divs : Rems).push_back(Op);
      return;
    }
    if (Op && (Left ? Op->getOpcode() == clang::BO_LT || Op->getOpcode() == clang::BO_GE
                    : Op->getOpcode() == clang::BO_GT || Op->getOpcode() == clang::BO_LE))
      Compares.push_back(Op);
    else
      ++OtherUses;
  });
  if (Mixed || !W)
    return unsupported(U, Whole->getBeginLoc(),
                       "the index is not split by one width (idx / W, idx % W with W a "
                       "constant or an unchanged integer parameter)");
  if (Divs.empty() || Rems.empty())
    return unsupported(U, Whole->getBeginLoc(), "the index is not split into a row and a column");

  Plan P{*W};
  const std::string Flat = (llvm::Twine(RowText) + " * " + W->Text + " + " + ColText).str();
  std::string IndexType = typeText(Index->getType(), U);
  auto Replace = [&](const clang::Expr *E, const std::string &Text) -> llvm::Error {
    llvm::Expected<clang::CharSourceRange> Range = fileRange(U, E->getSourceRange());
    if (!Range)
      return Range.takeError();
    U.Rewrite.ReplaceText(*Range, Text);
    return llvm::Error::success();
  };
  for (const clang::BinaryOperator *Op : Divs)
    if (llvm::Error E = Replace(Op, cast(typeText(Op->getType(), U), RowText)))
      return E;
  for (const clang::BinaryOperator *Op : Rems)
    if (llvm::Error E = Replace(Op, cast(typeText(Op->getType(), U), ColText)))
      return E;
  P.Splits = Divs.size() + Rems.size();
  for (const clang::BinaryOperator *Op : Compares) {
    bool Left = Op->getOpcode() == clang::BO_LT || Op->getOpcode() == clang::BO_GE;
    bool Inside = Op->getOpcode() == clang::BO_LT || Op->getOpcode() == clang::BO_GT;
    const clang::Expr *Bound = Left ? Op->getRHS() : Op->getLHS();
    std::optional<std::string> Rows = rowsOf(Bound, *W, U, Changed);
    if (!Rows) {
      ++OtherUses; // Stays a comparison of the whole index.
      continue;
    }
    if (llvm::Error E = Replace(Op, cast(IndexType, RowText) + (Inside ? " < " : " >= ") + *Rows))
      return E;
    ++P.Bounds;
  }
  // The index itself, where it is still read (or declared beside others): the
  // same value, from both positions; unread, its declaration goes (nvcc would warn).
  if (OtherUses > 0 || !IndexDecl->isSingleDecl()) {
    if (llvm::Error E = Replace(Whole, Flat))
      return E;
  } else {
    llvm::Expected<clang::CharSourceRange> Range = statementRange(U, *IndexDecl);
    if (!Range)
      return Range.takeError();
    U.Rewrite.ReplaceText(*Range, "");
  }
  // Columns past W are no thread of the original launch; on the same line as
  // the body's brace, so that lines keep their numbers.
  const auto *Compound = llvm::cast<clang::CompoundStmt>(Body);
  U.Rewrite.InsertTextAfterToken(Compound->getLBracLoc(),
                                 std::string(" if (") + ColText + " >= " + W->Text + ") return;");
  return P;
}

class Grid2D : public Transform {
public:
  llvm::StringRef id() const override { return "grid-2d"; }

  std::vector<ParamDecl> params() const override {
    return {{"bx", {8, 16, 32, 64}}, {"by", {1, 2, 4, 8, 16, 32}}};
  }

protected:
  Offer offerPoints(const frontend::KernelSummary &Kernel) const override {
    if (Fit F = fits1DGuarded(Kernel); !F)
      return F.offer();
    if (Fit F = analysedAtInstantiation(Kernel); !F)
      return F.offer();
    return Offer::of({{{"bx", 16}, {"by", 16}}, {{"bx", 32}, {"by", 8}}, {{"bx", 32}, {"by", 4}}});
  }

  llvm::Expected<TransformOutput> rewriteAt(const TransformInput &In,
                                            const ParamSet &Params) const override {
    int64_t BX = Params.at("bx"), BY = Params.at("by");
    if (Fit F = fits1DGuarded(In.Kernel); !F)
      return llvm::createStringError(F.whyNot());
    llvm::Expected<RewrittenWith<Plan>> Made =
        rewriteUnitWith<Plan>(In, [](UnitAST &U) { return rewrite(U); });
    if (!Made)
      return Made.takeError();
    const std::string &W = Made->Found.W.Text, X = std::to_string(BX), Y = std::to_string(BY);
    frontend::LaunchMapping Launch;
    Launch.Block = {X, Y, "1"};
    // x over the W columns; y over the rows the original threads reach.
    Launch.Grid = {"(" + W + " + " + std::to_string(BX - 1) + ") / " + X,
                   "((grid_x * block_x + " + W + " - 1) / " + W + " + " + std::to_string(BY - 1) +
                       ") / " + Y,
                   "1"};
    return TransformOutput{std::move(Made->UnitText), Launch,
                           "2D grid of " + X + " x " + Y + " blocks over rows of " + W + " (" +
                               std::to_string(Made->Found.Splits) + " splits, " +
                               std::to_string(Made->Found.Bounds) + " bounds)"};
  }
};
} // namespace

std::unique_ptr<Transform> makeGrid2DTransform() { return std::make_unique<Grid2D>(); }

} // namespace kopt::transform
