// smem-tiling: the matmul idiom (MatmulIdiom.h) through T x T shared-memory
// tiles. Each step of the tiled loop, the block's threads load one T-wide
// slice of both operands (zero where k or the thread's row/column is out of
// bounds), synchronize, and each thread runs the original body over the slice
// from the tiles. The launch becomes T x T blocks over the same threads; the
// bounds checks that guarded the loop now guard the loads and the body, since
// every thread must reach __syncthreads().
#include "clang-plugin/transforms/AstEdit.h"
#include "clang-plugin/transforms/GuardHoisting.h"
#include "clang-plugin/transforms/MatmulIdiom.h"
#include "clang-plugin/transforms/TransformFactories.h"
#include "clang-plugin/transforms/TransformSupport.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Expr.h>
#include <clang/Rewrite/Core/Rewriter.h>

namespace kopt::transform {

namespace {

std::string idx(char Dim) { return std::string("threadIdx.") + Dim; }

// Guards that depend on the thread's position in Dim or in no dimension:
// what a thread loading its own row (or column) of an operand must meet.
llvm::Expected<std::string> guardsFor(const UnitAST &U, const std::vector<Guard> &Guards,
                                      char Dim) {
  std::string Out;
  for (const Guard &G : Guards) {
    bool X = readsThreadPosition(G.Cond, 'x'), Y = readsThreadPosition(G.Cond, 'y');
    if (X && Y)
      return unsupported(U, G.Cond->getBeginLoc(),
                         "a bounds check mixes the row and the column: " + G.Text);
    if ((X && Dim != 'x') || (Y && Dim != 'y'))
      continue;
    Out += G.Text + " && ";
  }
  return Out;
}

bool boundsBothDims(const std::vector<Guard> &Guards) {
  bool X = false, Y = false;
  for (const Guard &G : Guards) {
    X = X || readsThreadPosition(G.Cond, 'x');
    Y = Y || readsThreadPosition(G.Cond, 'y');
  }
  return X && Y;
}

class SmemTiling : public Transform {
public:
  llvm::StringRef id() const override { return "smem-tiling"; }

  std::vector<ParamSet> parameterSpace(const frontend::KernelSummary &Kernel) const override {
    if (!looksLikeMatmul(Kernel))
      return {};
    return {{{"T", 16}}, {{"T", 32}}};
  }

  llvm::Expected<TransformOutput> apply(const TransformInput &In,
                                        const ParamSet &Params) const override {
    if (llvm::Error E = checkParamNames(Params, {"T"}))
      return E;
    llvm::Expected<int64_t> T = requireParam(Params, "T", {16, 32});
    if (!T)
      return T.takeError();
    int64_t Tile = *T;
    unsigned Line = 0;
    llvm::Expected<std::string> Text =
        rewriteUnit(In, [&](UnitAST &U) { return rewrite(U, Tile, Line); });
    if (!Text)
      return Text.takeError();
    TransformOutput Out;
    Out.UnitText = std::move(*Text);
    std::string TS = std::to_string(Tile);
    frontend::LaunchMapping Launch;
    Launch.Block = {TS, TS, "1"};
    Launch.Grid = {"(grid_x * block_x + " + std::to_string(Tile - 1) + ") / " + TS,
                   "(grid_y * block_y + " + std::to_string(Tile - 1) + ") / " + TS, "grid_z"};
    Out.Launch = Launch;
    Out.Summary = "tiled the k loop at line " + std::to_string(Line) + " through " + TS + "x" + TS +
                  " shared-memory tiles";
    return Out;
  }

private:
  static llvm::Error rewrite(UnitAST &U, int64_t Tile, unsigned &Line) {
    if (llvm::Error E = checkGlobalIndexForm(U, "xy", /*AllowBlockZ=*/true))
      return E;
    llvm::Expected<MatmulIdiom> M = findMatmulIdiom(U);
    if (!M)
      return M.takeError();
    Line = U.line(M->Loop->getBeginLoc());
    const clang::Stmt &LoopStmt = outermostLoopStmt(U, *M->Loop);
    llvm::Expected<clang::CharSourceRange> LoopRange = statementRange(U, LoopStmt);
    if (!LoopRange)
      return LoopRange.takeError();
    llvm::Expected<std::vector<Guard>> Guards = hoistOutOfGuards(U, LoopStmt);
    if (!Guards)
      return Guards.takeError();
    if (!boundsBothDims(*Guards))
      return unsupported(U, M->Loop->getBeginLoc(),
                         "no bounds check on both the row and the column: T x T blocks could "
                         "cover threads the original launch did not have");
    llvm::Expected<std::string> RowGuard = guardsFor(U, *Guards, M->RowDim);
    llvm::Expected<std::string> ColGuard = guardsFor(U, *Guards, M->ColDim);
    if (!RowGuard)
      return RowGuard.takeError();
    if (!ColGuard)
      return ColGuard.takeError();
    llvm::Expected<std::string> RowText = exprText(U, *M->Row);
    llvm::Expected<std::string> ColText = exprText(U, *M->Col);
    llvm::Expected<std::string> Init = exprText(U, *M->K.Init);
    llvm::Expected<std::string> Bound = exprText(U, *M->K.Bound);
    for (llvm::Expected<std::string> *E : {&RowText, &ColText, &Init, &Bound})
      if (!*E)
        return E->takeError();
    std::string TS = std::to_string(Tile);
    std::string R = idx(M->RowDim), C = idx(M->ColDim);
    // The body, reading the tiles.
    llvm::Expected<clang::CharSourceRange> BodyRange = statementRange(U, *M->Loop->getBody());
    if (!BodyRange)
      return BodyRange.takeError();
    llvm::Expected<std::string> Body =
        editedText(U, *BodyRange,
                   {{M->Row->getSourceRange(), "kopt_tile_row[" + R + "][kopt_kk]"},
                    {M->Col->getSourceRange(), "kopt_tile_col[kopt_kk][" + C + "]"}});
    if (!Body)
      return Body.takeError();

    std::string KType = typeText(M->K.Var->getType(), U);
    std::string K = M->K.Var->getNameAsString();
    std::string Cmp = " " + M->K.Comparison + " (" + *Bound + ")";
    std::string Pad = M->RowDim == 'x' ? " + 1" : ""; // Lanes walk the first index.
    std::string AllGuards = conjunction(*Guards);
    std::string Out;
    llvm::raw_string_ostream OS(Out);
    OS << "{ // kopt smem-tiling: T = " << TS << "\n"
       << "__shared__ " << typeText(M->Row->getType(), U) << " kopt_tile_row[" << TS << "][" << TS
       << Pad << "];\n"
       << "__shared__ " << typeText(M->Col->getType(), U) << " kopt_tile_col[" << TS << "][" << TS
       << Pad << "];\n"
       << "for (" << KType << " kopt_kt = (" << *Init << "); kopt_kt" << Cmp
       << "; kopt_kt += " << TS
       << ") {\n"
       // The loads name k as the original operands do: k is this thread's k.
       << "  {\n    const " << KType << " " << K << " = kopt_kt + " << C << ";\n"
       << "    kopt_tile_row[" << R << "][" << C << "] = (" << *RowGuard << K << Cmp << ") ? "
       << *RowText << " : static_cast<" << typeText(M->Row->getType(), U) << ">(0);\n  }\n"
       << "  {\n    const " << KType << " " << K << " = kopt_kt + " << R << ";\n"
       << "    kopt_tile_col[" << R << "][" << C << "] = (" << *ColGuard << K << Cmp << ") ? "
       << *ColText << " : static_cast<" << typeText(M->Col->getType(), U) << ">(0);\n  }\n"
       << "  __syncthreads();\n";
    if (!AllGuards.empty())
      OS << "  if (" << AllGuards << ") {\n";
    OS << "#pragma unroll\n"
       << "  for (int kopt_kk = 0; kopt_kk < " << TS << "; ++kopt_kk)";
    if (M->PlainProduct) // Zeros past the end add nothing.
      OS << "\n    " << *Body << "\n";
    else
      OS << " {\n    if (kopt_kt + kopt_kk" << Cmp << ")\n      " << *Body << "\n  }\n";
    if (!AllGuards.empty())
      OS << "  }\n";
    OS << "  __syncthreads();\n}\n}";
    U.Rewrite.ReplaceText(*LoopRange, Out);
    return llvm::Error::success();
  }
};
} // namespace

std::unique_ptr<Transform> makeSmemTilingTransform() { return std::make_unique<SmemTiling>(); }

} // namespace kopt::transform
