// Integer polynomials over atoms: the one polynomial type of the analyses.
// IndexPolynomial.h's IndexPoly (atoms are thread positions, parameters and
// opaque terms, numbered by its builder) and LinearIndex.h's Linear (atoms are
// the kernel's integer variables) are this template at their atom type.
// Coefficients are int64_t; an operation whose coefficient overflows marks the
// result, which then equals nothing and has no constant value, so that no proof
// rests on a wrapped number.
#pragma once

#include <algorithm>
#include <concepts>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <vector>

namespace kopt::frontend {

template <class Atom, class Order = std::less<Atom>> class Polynomial {
public:
  // A product of atoms sorted by Order, repeated for powers; empty for the
  // constant term.
  using Monomial = std::vector<Atom>;
  struct MonomialOrder {
    bool operator()(const Monomial &A, const Monomial &B) const {
      return std::lexicographical_compare(A.begin(), A.end(), B.begin(), B.end(), Order());
    }
  };
  using TermMap = std::map<Monomial, int64_t, MonomialOrder>;

  Polynomial() = default;
  static Polynomial constant(int64_t Value) {
    Polynomial P;
    P.addTerm({}, Value);
    return P;
  }
  static Polynomial atom(Atom A) {
    Polynomial P;
    P.addTerm({A}, 1);
    return P;
  }
  static Polynomial term(Monomial M, int64_t Coefficient) {
    std::sort(M.begin(), M.end(), Order());
    Polynomial P;
    P.addTerm(M, Coefficient);
    return P;
  }

  // Adds C times M (sorted by Order).
  void addTerm(const Monomial &M, int64_t C) {
    if (C == 0)
      return;
    auto [It, New] = Terms.try_emplace(M, C);
    if (New)
      return;
    int64_t Sum;
    Overflow |= __builtin_add_overflow(It->second, C, &Sum);
    if (Sum == 0)
      Terms.erase(It);
    else
      It->second = Sum;
  }

  Polynomial operator+(const Polynomial &O) const {
    Polynomial R = *this;
    R.Overflow |= O.Overflow;
    for (const auto &[M, C] : O.Terms)
      R.addTerm(M, C);
    return R;
  }
  Polynomial operator-(const Polynomial &O) const { return *this + O.scaled(-1); }
  Polynomial operator*(const Polynomial &O) const {
    Polynomial R;
    R.Overflow = Overflow || O.Overflow;
    for (const auto &[MA, CA] : Terms)
      for (const auto &[MB, CB] : O.Terms) {
        Monomial M = MA;
        M.insert(M.end(), MB.begin(), MB.end());
        std::sort(M.begin(), M.end(), Order());
        int64_t Product;
        R.Overflow |= __builtin_mul_overflow(CA, CB, &Product);
        R.addTerm(M, Product);
      }
    return R;
  }
  Polynomial scaled(int64_t Factor) const {
    Polynomial R;
    R.Overflow = Overflow;
    for (const auto &[M, C] : Terms) {
      int64_t Product;
      R.Overflow |= __builtin_mul_overflow(C, Factor, &Product);
      R.addTerm(M, Product);
    }
    return R;
  }
  bool operator==(const Polynomial &O) const {
    return Terms == O.Terms && !Overflow && !O.Overflow;
  }

  bool overflowed() const { return Overflow; }
  bool isZero() const { return Terms.empty(); }
  const TermMap &terms() const { return Terms; }
  // The value where no atom occurs (and nothing overflowed).
  std::optional<int64_t> asConstant() const {
    if (Overflow)
      return std::nullopt;
    if (Terms.empty())
      return 0;
    if (Terms.size() == 1 && Terms.begin()->first.empty())
      return Terms.begin()->second;
    return std::nullopt;
  }
  bool isConstant() const { return asConstant().has_value(); }
  // The coefficient of the empty monomial.
  int64_t constantTerm() const {
    auto It = Terms.find({});
    return It == Terms.end() ? 0 : It->second;
  }

  // Whether any monomial contains an atom for which Pred holds.
  template <std::predicate<const Atom &> Pred> bool mentions(Pred P) const {
    for (const auto &[M, C] : Terms)
      for (const Atom &A : M)
        if (P(A))
          return true;
    return false;
  }
  bool mentions(const Atom &A) const {
    return mentions([&](const Atom &B) { return !Order()(A, B) && !Order()(B, A); });
  }
  // The terms in which A does not occur.
  Polynomial without(const Atom &A) const {
    Polynomial R;
    R.Overflow = Overflow;
    for (const auto &[M, C] : Terms)
      if (std::count(M.begin(), M.end(), A) == 0)
        R.Terms.emplace(M, C);
    return R;
  }
  // The highest power of A in a monomial (0 where it does not occur).
  unsigned degreeIn(const Atom &A) const {
    unsigned Degree = 0;
    for (const auto &[M, C] : Terms)
      Degree = std::max<unsigned>(Degree, std::count(M.begin(), M.end(), A));
    return Degree;
  }
  // The terms of degree one in A, divided by A; Rest gets the others.
  Polynomial coefficientOf(const Atom &A, Polynomial *Rest = nullptr) const {
    Polynomial Coef, Others;
    Coef.Overflow = Others.Overflow = Overflow;
    for (const auto &[M, C] : Terms) {
      if (std::count(M.begin(), M.end(), A) == 1) {
        Monomial Without = M;
        Without.erase(std::find(Without.begin(), Without.end(), A));
        Coef.addTerm(Without, C);
      } else {
        Others.addTerm(M, C);
      }
    }
    if (Rest)
      *Rest = Others;
    return Coef;
  }
  // The coefficient of the monomial A alone (c in c * A + ...); 0 where absent.
  int64_t linearCoefficient(const Atom &A) const {
    auto It = Terms.find(Monomial{A});
    return It == Terms.end() ? 0 : It->second;
  }
  // The only atom of c * A + k, or none.
  std::optional<Atom> singleAtom() const {
    std::optional<Atom> Found;
    for (const auto &[M, C] : Terms) {
      if (M.empty())
        continue;
      if (M.size() != 1 || Found)
        return std::nullopt;
      Found = M.front();
    }
    return Found;
  }
  // The polynomial with A set to Value.
  Polynomial substitute(const Atom &A, const Polynomial &Value) const {
    Polynomial R;
    R.Overflow = Overflow || Value.Overflow;
    for (const auto &[M, C] : Terms) {
      Polynomial Term = constant(C);
      Monomial Kept;
      for (const Atom &B : M) {
        if (B == A)
          Term = Term * Value;
        else
          Kept.push_back(B);
      }
      Polynomial KeptTerm;
      KeptTerm.addTerm(Kept, 1);
      R = R + Term * KeptTerm;
    }
    return R;
  }

private:
  TermMap Terms; // No zero coefficients.
  bool Overflow = false;
};

} // namespace kopt::frontend
