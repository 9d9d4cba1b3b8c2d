#include "clang-plugin/transforms/framework/GlobalIndex.h"

#include "clang-plugin/analysis/IndexAnalysis.h"
#include "clang-plugin/analysis/ThreadPosition.h"
#include "clang-plugin/analysis/ast/AstWalk.h"
#include "clang-plugin/transforms/framework/TransformSupport.h"
#include "clang-plugin/transforms/framework/UnitRewriter.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/Basic/SourceManager.h>

namespace kopt::transform {

namespace {
// First.x * Second.x in either order, casts around the product looked through.
bool isProduct(const clang::Expr *E, llvm::StringRef First, llvm::StringRef Second) {
  const auto *Mul = llvm::dyn_cast<clang::BinaryOperator>(E->IgnoreParenCasts());
  return Mul && frontend::geometryProduct(*Mul, First, Second, 'x').has_value();
}

bool containsIndexBuiltin(const clang::Expr *E) {
  bool Found = false;
  forEachStmt(E, [&](const clang::Stmt *S) {
    if (const auto *X = llvm::dyn_cast<clang::Expr>(S))
      Found |= frontend::asIndexBuiltin(X).has_value();
  });
  return Found;
}

// The addends of a chain of +, through parentheses: `k + 1 + b * d + t` is
// ((k + 1) + b * d) + t, whose addends are k, 1, b * d and t.
void addends(const clang::Expr *E, std::vector<const clang::Expr *> &Out) {
  const auto *Add = llvm::dyn_cast<clang::BinaryOperator>(E->IgnoreParens());
  if (Add && Add->getOpcode() == clang::BO_Add) {
    addends(Add->getLHS(), Out);
    addends(Add->getRHS(), Out);
    return;
  }
  Out.push_back(E);
}

// A sum with blockIdx.x * blockDim.x and threadIdx.x among its addends, in any
// order, and other addends without thread geometry (an offset such as the
// `k + 1` of a solver's row index).
std::optional<GlobalIndex> asGlobalIndex(const clang::BinaryOperator *Add) {
  if (Add->getOpcode() != clang::BO_Add)
    return std::nullopt;
  std::vector<const clang::Expr *> Terms;
  addends(Add, Terms);
  GlobalIndex Index{Add, nullptr, nullptr, Terms.size() > 2};
  for (const clang::Expr *T : Terms) {
    if (!Index.Product && isProduct(T, "blockIdx", "blockDim"))
      Index.Product = T;
    else if (!Index.Thread && frontend::isBuiltin(T, "threadIdx", 'x'))
      Index.Thread = T;
    else if (containsIndexBuiltin(T))
      return std::nullopt;
  }
  if (!Index.Product || !Index.Thread)
    return std::nullopt;
  return Index;
}
} // namespace

llvm::Expected<GlobalIndexShape> findGlobalIndexShape(UnitAST &AST) {
  const clang::SourceManager &SM = AST.Ctx.getSourceManager();
  GlobalIndexShape Shape;
  std::vector<std::pair<unsigned, unsigned>> Covered; // File offsets [begin, end].
  std::vector<std::pair<unsigned, std::string>> Builtins;
  bool FromMacro = false;
  auto Offset = [&](clang::SourceLocation L) { return SM.getFileOffset(SM.getSpellingLoc(L)); };
  forEachStmt(AST.Kernel.getBody(), [&](const clang::Stmt *S) {
    const auto *E = llvm::dyn_cast<clang::Expr>(S);
    if (!E)
      return;
    if (std::optional<frontend::IndexBuiltin> B = frontend::asIndexBuiltin(E)) {
      FromMacro |= E->getBeginLoc().isMacroID();
      Builtins.emplace_back(Offset(E->getBeginLoc()), B->Var.str() + "." + B->Component);
      return;
    }
    const auto *Bin = llvm::dyn_cast<clang::BinaryOperator>(E);
    if (!Bin)
      return;
    std::optional<GlobalIndex> Index = asGlobalIndex(Bin);
    bool Stride = isProduct(Bin, "blockDim", "gridDim");
    if (!Index && !Stride)
      return;
    unsigned Begin = Offset(Bin->getBeginLoc()), End = Offset(Bin->getEndLoc());
    // An index inside one already found ((b * d + t) + k) is part of it.
    for (const auto &[OuterBegin, OuterEnd] : Covered)
      if (OuterBegin <= Begin && End <= OuterEnd)
        return;
    FromMacro |= Bin->getBeginLoc().isMacroID() || Bin->getEndLoc().isMacroID();
    Covered.emplace_back(Begin, End);
    if (Index)
      Shape.Indices.push_back(*Index);
    Shape.GridStride |= Stride;
  });
  if (FromMacro)
    return llvm::createStringError("the thread index comes from a macro");
  for (const auto &[At, Name] : Builtins) {
    bool Inside = false;
    for (const auto &[Begin, End] : Covered)
      Inside |= Begin <= At && At <= End;
    if (!Inside)
      return llvm::createStringError("the kernel reads %s outside blockIdx.x * blockDim.x + "
                                     "threadIdx.x",
                                     Name.c_str());
  }
  if (Shape.Indices.empty())
    return llvm::createStringError("the kernel has no blockIdx.x * blockDim.x + threadIdx.x");
  return Shape;
}

bool mayHaveGridStrideLoop(const frontend::KernelSummary &Kernel) {
  const frontend::KernelFeatures &F = Kernel.Features;
  return llvm::any_of(F.Loops,
                      [&](const frontend::LoopFeature &L) { return frontend::stepsByGrid(F, L); });
}

bool isGridStrideProduct(const clang::Expr *E) { return isProduct(E, "blockDim", "gridDim"); }

Fit fits1DGuarded(const frontend::KernelSummary &Kernel) {
  if (Fit F = dimensionsBetween(Kernel, 1, 1); !F)
    return F;
  if (Fit F = independentThreads(Kernel); !F)
    return F;
  if (Kernel.Features.Guards.empty() && !mayHaveGridStrideLoop(Kernel))
    return Fit::no("the kernel has neither a bounds check on its index nor a grid-stride loop");
  std::optional<std::array<int64_t, 3>> Block = pragmaBlockDims(Kernel);
  if (Block && ((*Block)[1] != 1 || (*Block)[2] != 1))
    return Fit::no("the pragma's block is not 1-D");
  return Fit::yes();
}

} // namespace kopt::transform
