#include "clang-plugin/analysis/AccessOffsets.h"

#include <algorithm>
#include <cstdlib>

namespace kopt::frontend {

namespace {
unsigned dimBit(char Dim) { return 1u << (Dim - 'x'); }

bool isLoopAtom(const IndexPolyBuilder &B, unsigned A) {
  return B.atom(A).Kind == AtomKind::LoopVar;
}

// The nearest integer to A / S, ties toward zero.
int64_t roundDiv(int64_t A, int64_t S) {
  int64_t Q = A / S, R = A % S;
  if (2 * std::llabs(R) > std::llabs(S))
    Q += ((R < 0) == (S < 0)) ? 1 : -1;
  return Q;
}

// P split by the uniform part of each monomial: uniform monomial -> the loop
// variable polynomial it multiplies.
std::map<Monomial, IndexPoly> byUniformPart(const IndexPoly &P, const IndexPolyBuilder &B) {
  std::map<Monomial, IndexPoly> Out;
  for (const auto &[M, C] : P.terms()) {
    Monomial Uniform, Loop;
    for (unsigned A : M)
      (isLoopAtom(B, A) ? Loop : Uniform).push_back(A);
    Out[Uniform] = Out[Uniform] + IndexPoly::term(Loop, C);
  }
  return Out;
}

// Each coefficient of P divided by S; empty where one does not divide.
std::optional<IndexPoly> divideExactly(const IndexPoly &P, int64_t S) {
  IndexPoly Out;
  for (const auto &[M, C] : P.terms()) {
    if (C % S != 0)
      return std::nullopt;
    Out = Out + IndexPoly::term(M, C / S);
  }
  return Out;
}
} // namespace

AccessShape accessShape(const IndexPoly &P, unsigned Dims, IndexPolyBuilder &B, AccessForm &Form) {
  Form = AccessForm();
  IndexPoly Rem = P;
  bool Partial = false;
  for (char Dim : {'x', 'y', 'z'}) {
    if (!(Dims & dimBit(Dim)))
      continue;
    unsigned G = B.positionAtom(Dim);
    if (Rem.degreeIn(G) > 1)
      return AccessShape::Irregular;
    IndexPoly Others;
    IndexPoly Coef = Rem.coefficientOf(G, &Others);
    if (!Coef.isZero()) {
      if (!B.isUniform(Coef))
        return AccessShape::Irregular;
      Form.Stride[Dim - 'x'] = Coef;
      Rem = Others;
      continue;
    }
    // A clamp: one opaque atom of this position alone.
    std::set<unsigned> Clamps;
    Rem.mentions([&](unsigned A) {
      const PolyAtom &Atom = B.atom(A);
      if (Atom.Kind == AtomKind::Opaque && Atom.PositionDims == dimBit(Dim) && !Atom.ReadsLoopVar)
        Clamps.insert(A);
      return false;
    });
    if (Clamps.empty()) {
      Partial = true;
      continue;
    }
    unsigned A = *Clamps.begin();
    if (Clamps.size() > 1 || Rem.degreeIn(A) > 1)
      return AccessShape::Irregular;
    Coef = Rem.coefficientOf(A, &Others);
    if (!B.isUniform(Coef))
      return AccessShape::Irregular;
    Form.Stride[Dim - 'x'] = Coef;
    Form.Clamp[Dim - 'x'] = A;
    Rem = Others;
  }
  if (B.positionDims(Rem) != 0)
    return AccessShape::Irregular;
  if (Partial)
    return AccessShape::Partial;
  Form.Rest = Rem;
  return AccessShape::Follows;
}

std::optional<std::array<IndexPoly, 3>> splitOffsets(const IndexPoly &D,
                                                     const std::array<IndexPoly, 3> &Stride,
                                                     unsigned Dims, const IndexPolyBuilder &B) {
  // D may hold uniform terms and loop variables, nothing that moves otherwise.
  bool Moving = D.mentions([&](unsigned A) {
    const PolyAtom &Atom = B.atom(A);
    return Atom.Kind == AtomKind::Position || Atom.Kind == AtomKind::BlockDim ||
           (Atom.Kind == AtomKind::Opaque && (Atom.PositionDims || Atom.ReadsLoopVar));
  });
  if (Moving || D.overflowed())
    return std::nullopt;
  std::map<Monomial, IndexPoly> DU = byUniformPart(D, B);
  std::array<std::map<Monomial, int64_t>, 3> SU;
  std::set<Monomial> Keys;
  for (const auto &[U, Part] : DU)
    Keys.insert(U);
  std::vector<int> Unknown;
  for (int C = 0; C < 3; ++C) {
    if (!(Dims & (1u << C)))
      continue;
    Unknown.push_back(C);
    for (const auto &[M, Coef] : Stride[C].terms()) {
      if (llvm::any_of(M, [&](unsigned A) { return isLoopAtom(B, A); }))
        return std::nullopt;
      SU[C][M] = Coef;
      Keys.insert(M);
    }
  }
  std::array<std::optional<IndexPoly>, 3> Delta;
  auto Remainder = [&](const Monomial &U) {
    IndexPoly R = DU.count(U) ? DU.at(U) : IndexPoly();
    for (int C : Unknown)
      if (Delta[C] && SU[C].count(U))
        R = R - Delta[C]->scaled(SU[C].at(U));
    return R;
  };
  // Each symbolic term of the strides decides the one offset it still lacks.
  for (bool Progress = true; Progress;) {
    Progress = false;
    for (const Monomial &U : Keys) {
      if (U.empty())
        continue;
      std::vector<int> Open;
      for (int C : Unknown)
        if (!Delta[C] && SU[C].count(U))
          Open.push_back(C);
      if (Open.size() != 1)
        continue;
      std::optional<IndexPoly> Q = divideExactly(Remainder(U), SU[Open[0]].at(U));
      if (!Q)
        return std::nullopt;
      Delta[Open[0]] = *Q;
      Progress = true;
    }
  }
  // The others have numeric strides: least magnitude, largest stride first.
  std::vector<int> Numeric;
  for (int C : Unknown) {
    if (Delta[C])
      continue;
    if (SU[C].size() != 1 || !SU[C].count({}))
      return std::nullopt;
    Numeric.push_back(C);
  }
  std::sort(Numeric.begin(), Numeric.end(),
            [&](int A, int Bd) { return std::llabs(SU[A].at({})) > std::llabs(SU[Bd].at({})); });
  for (int C : Numeric) {
    int64_t S = SU[C].at({});
    IndexPoly Q, Left = Remainder({});
    for (const auto &[M, Coef] : Left.terms())
      Q = Q + IndexPoly::term(M, roundDiv(Coef, S));
    Delta[C] = Q;
  }
  std::array<IndexPoly, 3> Out;
  IndexPoly Sum;
  for (int C : Unknown) {
    Out[C] = *Delta[C];
    Sum = Sum + Stride[C] * Out[C];
  }
  if (!(Sum == D))
    return std::nullopt;
  return Out;
}

std::optional<std::pair<int64_t, int64_t>>
offsetRange(const IndexPoly &P, const IndexPolyBuilder &B,
            const std::function<std::optional<std::pair<int64_t, int64_t>>(unsigned)> &Range) {
  if (P.overflowed())
    return std::nullopt;
  int64_t Lo = 0, Hi = 0;
  for (const auto &[M, C] : P.terms()) {
    if (M.empty()) {
      Lo += C;
      Hi += C;
      continue;
    }
    if (M.size() != 1 || !isLoopAtom(B, M[0]))
      return std::nullopt;
    std::optional<std::pair<int64_t, int64_t>> R = Range(M[0]);
    if (!R)
      return std::nullopt;
    int64_t A = C * R->first, Z = C * R->second;
    Lo += std::min(A, Z);
    Hi += std::max(A, Z);
  }
  return std::make_pair(Lo, Hi);
}

} // namespace kopt::frontend
