#include "clang-plugin/transforms/StencilTiles.h"

#include "clang-plugin/analysis/IndexAnalysis.h"

#include <clang/AST/Attr.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/Stmt.h>
#include <llvm/Support/FormatVariadic.h>

#include <set>

namespace kopt::transform {

namespace {
using frontend::AtomKind;
using frontend::IndexPoly;

const std::array<std::string, 3> TestPositions = {"kopt_tx", "kopt_ty", "kopt_tz"};
const std::array<std::string, 3> CellPositions = {"kopt_px", "kopt_py", "kopt_pz"};

bool mentionsVar(const Condition &C, const clang::VarDecl *V) {
  auto Has = [&](const clang::Expr *E) {
    return E && frontend::anySubExpr(E, [&](const clang::Expr *S) {
             const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(S);
             return Ref && Ref->getDecl() == V;
           });
  };
  return Has(C.Expr) || Has(C.Lhs) || Has(C.Rhs);
}

// N as a term of a sum: "3" or "(-3)". (Through a stream: GCC 12 warns
// falsely on "(" + std::to_string(N) + ")".)
std::string term(int64_t N) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  if (N < 0)
    OS << "(" << N << ")";
  else
    OS << N;
  return Out;
}

// The loop variables an entry's conditions read, with their values.
std::vector<std::pair<const clang::VarDecl *, int64_t>> condLoops(const LoadEntry &E) {
  std::vector<std::pair<const clang::VarDecl *, int64_t>> Out;
  for (const auto &[V, Value] : E.LoopValues)
    if (llvm::any_of(E.Conds, [&](const Condition &C) { return mentionsVar(C, V); }))
      Out.emplace_back(V, Value);
  return Out;
}
} // namespace

StencilCode::StencilCode(const UnitAST &Unit, frontend::IndexPolyBuilder &Builder,
                         const StencilIdiom &Idiom, TileLayout Layout)
    : U(Unit), B(Builder), S(Idiom), L(Layout) {}

llvm::Expected<const clang::CompoundStmt *> stencilBody(const UnitAST &U) {
  if (U.Kernel.hasAttr<clang::CUDALaunchBoundsAttr>())
    return unsupported(U, U.Kernel.getLocation(), "the kernel has __launch_bounds__");
  const auto *Body = llvm::dyn_cast<clang::CompoundStmt>(U.Kernel.getBody());
  if (!Body || Body->getLBracLoc().isMacroID() || Body->getRBracLoc().isMacroID())
    return unsupported(U, U.Kernel.getLocation(), "the kernel's body is not a plain block");
  return Body;
}

llvm::Error StencilCode::checkSharedBytes() const {
  constexpr int64_t MaxSharedBytes = 48 * 1024;
  if (sharedBytes() <= MaxSharedBytes)
    return llvm::Error::success();
  return unsupported(U, U.Kernel.getLocation(),
                     "the tiles need " + llvm::Twine(sharedBytes()) + " bytes of shared memory");
}

int64_t StencilCode::extent(unsigned G, int D) const {
  const TileGroup &T = S.Groups[G];
  if (!tiled(D))
    return 1;
  if (D == 2 && L.Ring)
    return T.Hi[2] - T.Lo[2] + 1;
  return L.Block[D] + T.Hi[D] - T.Lo[D];
}

// The x extent as stored: odd where loads walk another dimension fastest, so
// that their stores spread over the banks.
static int64_t pitch(int64_t Extent, char Fast) {
  return Fast != 'x' && Extent % 2 == 0 ? Extent + 1 : Extent;
}

int64_t StencilCode::sharedBytes() const {
  int64_t Bytes = 0;
  for (unsigned G = 0; G < S.Groups.size(); ++G)
    Bytes += S.Groups[G].ElementBytes * pitch(extent(G, 0), S.Groups[G].Fast) * extent(G, 1) *
             extent(G, 2);
  return Bytes;
}

std::string StencilCode::offsetText(const IndexPoly &Delta, int64_t Shift) const {
  int64_t Constant = Shift;
  std::string Vars;
  for (const auto &[M, C] : Delta.terms()) {
    if (M.empty()) {
      Constant += C;
      continue;
    }
    std::string Name = llvm::cast<clang::NamedDecl>(B.atom(M[0]).Decl)->getNameAsString();
    if (C == 1)
      Vars += " + " + Name;
    else if (C == -1)
      Vars += " - " + Name;
    else
      Vars += " + " + std::to_string(C) + " * " + Name;
  }
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  if (Vars.empty())
    OS << Constant;
  else
    OS << "(" << Constant << Vars << ")";
  return Out;
}

llvm::Expected<std::string> StencilCode::declarations() {
  std::string Out;
  for (unsigned G = 0; G < S.Groups.size(); ++G) {
    const TileGroup &T = S.Groups[G];
    Out += "__shared__ " + T.Element + " " + tileName(G);
    for (int D = 2; D >= 0; --D)
      if (tiled(D))
        Out += llvm::formatv("[{0}]", D == 0 ? pitch(extent(G, 0), T.Fast) : extent(G, D)).str();
    Out += "; // '" + T.Array->getNameAsString() + "'\n";
  }
  // One reader test a condition set: the thread at (kopt_tx, ...) reads the
  // cells of the entries that carry it.
  for (const TileGroup &T : S.Groups)
    for (const LoadEntry &E : T.Entries) {
      std::vector<const clang::VarDecl *> Loops;
      for (const auto &[V, Value] : condLoops(E))
        Loops.push_back(V);
      bool Known = false;
      for (size_t K = 0; K < LambdaConds.size() && !Known; ++K)
        Known = LambdaConds[K] == E.Conds && LambdaLoops[K] == Loops;
      if (Known)
        continue;
      std::string Params, Test;
      for (int D = 0; D < 3; ++D)
        if (tiled(D)) {
          Params += (Params.empty() ? "" : ", ") + ("long long " + TestPositions[D]);
          Test += (Test.empty() ? "" : " && ") + TestPositions[D] + " >= 0";
        }
      for (const clang::VarDecl *V : Loops)
        Params += ", " + typeText(V->getType(), U) + " " + V->getNameAsString();
      std::array<std::string, 3> At;
      for (int D = 0; D < 3; ++D)
        At[D] = tiled(D) ? TestPositions[D] : "";
      for (const Condition &C : E.Conds) {
        llvm::Expected<std::string> Text = conditionText(U, B, C, At);
        if (!Text)
          return Text.takeError();
        Test += " && " + *Text;
      }
      std::string Name = "kopt_reads" + std::to_string(LambdaConds.size());
      Lambdas.push_back("auto " + Name + " = [&](" + Params + ") -> bool {\n  return " + Test +
                        ";\n};\n");
      LambdaConds.push_back(E.Conds);
      LambdaLoops.push_back(Loops);
    }
  for (const std::string &Lambda : Lambdas)
    Out += Lambda;
  Out += "const int kopt_tid = threadIdx.x + " + std::to_string(L.Block[0]) + " * (threadIdx.y + " +
         std::to_string(L.Block[1]) + " * threadIdx.z);\n";
  return Out;
}

llvm::Expected<std::string> StencilCode::cellTest(unsigned G) {
  std::vector<std::string> Calls;
  std::set<std::string> Seen;
  for (const LoadEntry &E : S.Groups[G].Entries) {
    std::vector<std::pair<const clang::VarDecl *, int64_t>> Loops = condLoops(E);
    std::vector<const clang::VarDecl *> Vars;
    for (const auto &[V, Value] : Loops)
      Vars.push_back(V);
    size_t K = 0;
    while (K < LambdaConds.size() && !(LambdaConds[K] == E.Conds && LambdaLoops[K] == Vars))
      ++K;
    if (K == LambdaConds.size())
      return llvm::createStringError("stencil code: a reader test was not declared");
    std::string Args;
    for (int D = 0; D < 3; ++D)
      if (tiled(D))
        Args += (Args.empty() ? "" : ", ") + CellPositions[D] + " - " + term(E.At[D]);
    for (const auto &[V, Value] : Loops)
      Args += ", " + std::to_string(Value);
    std::string Call = "kopt_reads" + std::to_string(K) + "(" + Args + ")";
    if (Seen.insert(Call).second)
      Calls.push_back(Call);
  }
  std::string Out;
  for (const std::string &C : Calls)
    Out += (Out.empty() ? "" : " ||\n        ") + C;
  return Out;
}

llvm::Expected<std::string> StencilCode::loads(unsigned G, llvm::StringRef PlaneZ,
                                               llvm::StringRef Slot) {
  const TileGroup &T = S.Groups[G];
  // Cells in the order of memory: the fast dimension first (a ring's z is no
  // dimension of the cells: each load fills one plane).
  std::vector<int> Order;
  if (!(L.Ring && T.Fast == 'z'))
    Order.push_back(T.Fast - 'x');
  for (int D = 0; D < 3; ++D)
    if (tiled(D) && !llvm::is_contained(Order, D) && !(D == 2 && L.Ring))
      Order.push_back(D);
  int64_t Cells = 1;
  for (int D : Order)
    Cells *= extent(G, D);
  int64_t Threads = L.Block[0] * L.Block[1] * L.Block[2];

  IndexPoly Lin = T.Base;
  for (int D = 0; D < 3; ++D)
    if (tiled(D))
      Lin = Lin + T.Stride[D] * IndexPoly::atom(B.positionAtom(char('x' + D)));
  llvm::Expected<std::string> Index = polyText(U, B, Lin, CellPositions);
  if (!Index)
    return Index.takeError();
  llvm::Expected<std::string> Test = cellTest(G);
  if (!Test)
    return Test.takeError();
  std::string Array = T.Array->getNameAsString();
  if (T.Subscripted)
    Array = "reinterpret_cast<const " + T.Element + " *>(" + Array + ")";

  std::string Out;
  llvm::raw_string_ostream OS(Out);
  OS << "for (int kopt_e = kopt_tid; kopt_e < " << Cells << "; kopt_e += " << Threads << ") {\n"
     << "  int kopt_r = kopt_e;\n";
  for (size_t I = 0; I < Order.size(); ++I) {
    char D = char('x' + Order[I]);
    if (I + 1 < Order.size())
      OS << "  const int kopt_c" << D << " = kopt_r % " << extent(G, Order[I]) << ";\n"
         << "  kopt_r /= " << extent(G, Order[I]) << ";\n";
    else
      OS << "  const int kopt_c" << D << " = kopt_r;\n";
  }
  for (int D = 0; D < 3; ++D) {
    if (!tiled(D))
      continue;
    char C = char('x' + D);
    if (D == 2 && L.Ring)
      OS << "  const long long kopt_pz = " << PlaneZ << ";\n";
    else
      OS << "  const long long kopt_p" << C << " = (long long)blockIdx." << C << " * " << L.Block[D]
         << " + " << term(T.Lo[D]) << " + kopt_c" << C << ";\n";
  }
  OS << "  if (" << *Test << ")\n    " << tileName(G);
  for (int D = 2; D >= 0; --D)
    if (tiled(D))
      OS << "[" << (D == 2 && L.Ring ? Slot.str() : std::string("kopt_c") + char('x' + D)) << "]";
  OS << " = " << Array << "[" << *Index << "];\n}\n";
  return Out;
}

llvm::Expected<std::string> StencilCode::readText(const TileRead &R, llvm::StringRef Fallback,
                                                  const std::array<std::string, 3> &Own,
                                                  llvm::StringRef Step) {
  const TileGroup &T = S.Groups[R.Group];
  std::string Out;
  unsigned Open = 0;
  for (const ReadLeaf &Leaf : R.Leaves) {
    if (Leaf.Fixed)
      continue;
    std::string Cell = tileName(R.Group);
    for (int D = 2; D >= 0; --D) {
      if (!tiled(D))
        continue;
      std::string Shift = offsetText(Leaf.Delta[D], -T.Lo[D]);
      if (D == 2 && L.Ring)
        Cell += llvm::formatv("[({0} + {1}) % {2}]", Step, Shift, extent(R.Group, 2)).str();
      else
        Cell += llvm::formatv("[threadIdx.{0} + {1}]", char('x' + D), Shift).str();
    }
    if (Leaf.Conds.empty())
      return Out + Cell + std::string(Open, ')');
    std::string Test;
    for (const Condition &C : Leaf.Conds) {
      llvm::Expected<std::string> Text = conditionText(U, B, C, Own);
      if (!Text)
        return Text.takeError();
      Test += (Test.empty() ? "" : " && ") + *Text;
    }
    Out += "(" + Test + " ? " + Cell + " : ";
    ++Open;
  }
  return Out + "(" + Fallback.str() + ")" + std::string(Open, ')');
}

} // namespace kopt::transform
