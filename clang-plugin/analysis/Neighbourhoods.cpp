#include "clang-plugin/analysis/Neighbourhoods.h"

#include "clang-plugin/analysis/AccessOffsets.h"
#include "clang-plugin/analysis/ArrayAccesses.h"

#include <clang/AST/Decl.h>

#include <set>

namespace kopt::frontend {

namespace {
constexpr int64_t MaxRadius = 4;
constexpr size_t MaxValues = 4096;
// A clamped coordinate has no one offset: it counts as this, plus its atom.
constexpr int64_t ClampMark = int64_t(1) << 40;

struct Group {
  const clang::ParmVarDecl *Param;
  std::array<IndexPoly, 3> Stride;
  IndexPoly Base;
  std::set<std::array<int64_t, 3>> Offsets;
};

// The loop variables' atoms in Ps.
std::vector<unsigned> loopAtoms(const std::array<IndexPoly, 3> &Ps, const IndexPolyBuilder &B) {
  std::set<unsigned> Atoms;
  for (const IndexPoly &P : Ps)
    P.mentions([&](unsigned A) {
      if (B.atom(A).Kind == AtomKind::LoopVar)
        Atoms.insert(A);
      return false;
    });
  return {Atoms.begin(), Atoms.end()};
}
} // namespace

std::vector<Neighbourhood> findNeighbourhoods(const clang::FunctionDecl &Kernel,
                                              clang::ASTContext &Ctx) {
  if (!Kernel.hasBody() || Kernel.isTemplated())
    return {};
  IndexPolyBuilder B(Ctx, Kernel);
  unsigned Dims = B.threadDims();
  if (!Dims)
    return {};
  std::map<const clang::ValueDecl *, std::pair<int64_t, int64_t>> Ranges;
  for (const auto &[V, Range] : literalLoops(Kernel, Ctx)) {
    B.addLoopVar(V);
    Ranges[V] = Range;
  }
  std::vector<ArrayAccess> Accesses = pointerParamAccesses(Kernel, Ctx);
  std::set<const clang::ParmVarDecl *> Written;
  for (const ArrayAccess &A : Accesses)
    if (A.Write)
      Written.insert(A.Param);

  std::vector<Group> Groups;
  for (const ArrayAccess &A : Accesses) {
    if (Written.count(A.Param) || !A.Read)
      continue;
    llvm::Expected<IndexPoly> Lin = linearIndex(A, B, Ctx);
    if (!Lin) {
      llvm::consumeError(Lin.takeError());
      continue;
    }
    AccessForm Form;
    if (accessShape(*Lin, Dims, B, Form) != AccessShape::Follows)
      continue;
    // Its group: the same strides and a base within reach.
    std::optional<std::array<IndexPoly, 3>> Delta;
    Group *In = nullptr;
    for (Group &G : Groups) {
      if (G.Param != A.Param || !(G.Stride[0] == Form.Stride[0] && G.Stride[1] == Form.Stride[1] &&
                                  G.Stride[2] == Form.Stride[2]))
        continue;
      Delta = splitOffsets(Form.Rest - G.Base, Form.Stride, Dims, B);
      if (Delta) {
        In = &G;
        break;
      }
    }
    if (!In) {
      IndexPoly Base = Form.Rest;
      for (unsigned Atom = 0; Atom < B.atomCount(); ++Atom)
        if (B.atom(Atom).Kind == AtomKind::LoopVar)
          Base = Base.substitute(Atom, IndexPoly());
      Delta = splitOffsets(Form.Rest - Base, Form.Stride, Dims, B);
      if (!Delta)
        continue;
      Groups.push_back({A.Param, Form.Stride, Base, {}});
      In = &Groups.back();
    }
    // Every offset the read takes as its loops run.
    std::vector<unsigned> Loops = loopAtoms(*Delta, B);
    size_t Count = 1;
    for (unsigned L : Loops) {
      auto R = Ranges.at(B.atom(L).Decl);
      Count *= size_t(R.second - R.first + 1);
    }
    if (Count > MaxValues)
      continue;
    for (size_t I = 0; I < Count; ++I) {
      std::array<int64_t, 3> At{};
      size_t Rest = I;
      bool Near = true;
      for (int D = 0; D < 3; ++D) {
        IndexPoly P = (*Delta)[D];
        size_t R = Rest;
        for (unsigned L : Loops) {
          auto Range = Ranges.at(B.atom(L).Decl);
          int64_t N = Range.second - Range.first + 1;
          P = P.substitute(L, IndexPoly::constant(Range.first + int64_t(R % N)));
          R /= N;
        }
        std::optional<int64_t> V = P.asConstant();
        Near &= V && *V >= -MaxRadius && *V <= MaxRadius;
        At[D] = Form.Clamp[D] >= 0 ? ClampMark + Form.Clamp[D] : V.value_or(0);
      }
      if (Near)
        In->Offsets.insert(At);
    }
  }
  std::map<const clang::ParmVarDecl *, Neighbourhood> Best;
  for (const Group &G : Groups) {
    if (G.Offsets.size() < 2)
      continue;
    Neighbourhood N{G.Param->getNameAsString(), unsigned(G.Offsets.size()), 0};
    for (const std::array<int64_t, 3> &At : G.Offsets)
      for (int64_t V : At)
        if (V < ClampMark)
          N.Radius = std::max<unsigned>(N.Radius, unsigned(std::llabs(V)));
    Neighbourhood &Top = Best[G.Param];
    if (N.Offsets > Top.Offsets)
      Top = N;
  }
  std::vector<Neighbourhood> Out;
  for (const auto &[P, N] : Best)
    Out.push_back(N);
  std::sort(Out.begin(), Out.end(),
            [](const Neighbourhood &A, const Neighbourhood &Bn) { return A.Param < Bn.Param; });
  return Out;
}

} // namespace kopt::frontend
