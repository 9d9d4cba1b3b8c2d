#include "clang-plugin/analysis/Polynomial.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <limits>

namespace {

using kopt::frontend::Polynomial;
using Poly = Polynomial<unsigned>;

// (i + 2) * (i - 2) = i^2 - 4: the products and sums a flattened index needs.
TEST(Polynomial, MultipliesOutAndCancels) {
  Poly I = Poly::atom(0);
  Poly P = (I + Poly::constant(2)) * (I - Poly::constant(2));
  EXPECT_EQ(P, Poly::term({0, 0}, 1) - Poly::constant(4));
  EXPECT_EQ(P.degreeIn(0), 2u);
  EXPECT_FALSE(P.isConstant());
  EXPECT_EQ(P.constantTerm(), -4);
  EXPECT_EQ((P - P).asConstant(), 0);
  EXPECT_TRUE((P - P).isZero());
}

// i * n + j: the coefficient of i is n, of j alone 1; without(i) leaves j.
TEST(Polynomial, SplitsByAtom) {
  Poly I = Poly::atom(0), J = Poly::atom(1), N = Poly::atom(2);
  Poly Flat = I * N + J;
  Poly Rest;
  EXPECT_EQ(Flat.coefficientOf(0, &Rest), N);
  EXPECT_EQ(Rest, J);
  EXPECT_EQ(Flat.linearCoefficient(1), 1);
  EXPECT_EQ(Flat.linearCoefficient(0), 0); // i occurs only in i * n.
  EXPECT_EQ(Flat.without(0), J);
  EXPECT_TRUE(Flat.mentions(2u));
  EXPECT_FALSE(Flat.mentions(3u));
  EXPECT_TRUE(Flat.mentions([](unsigned A) { return A > 1; }));
  EXPECT_EQ((J.scaled(3) + Poly::constant(1)).singleAtom(), 1u);
  EXPECT_FALSE(Flat.singleAtom());
}

TEST(Polynomial, SubstitutesAnAtom) {
  Poly I = Poly::atom(0), J = Poly::atom(1);
  // i * i + i with i = j + 1: j^2 + 3j + 2.
  Poly P = (I * I + I).substitute(0, J + Poly::constant(1));
  EXPECT_EQ(P, Poly::term({1, 1}, 1) + J.scaled(3) + Poly::constant(2));
}

// A wrapped coefficient must not prove anything: the result equals nothing
// and has no constant value, also after later operations.
TEST(Polynomial, OverflowPoisonsTheResult) {
  const int64_t Big = std::numeric_limits<int64_t>::max() / 2 + 1;
  Poly P = Poly::constant(Big) * Poly::constant(2);
  EXPECT_TRUE(P.overflowed());
  EXPECT_FALSE(P.asConstant());
  EXPECT_FALSE(P == P);
  Poly Later = P.scaled(0) + Poly::constant(1);
  EXPECT_TRUE(Later.overflowed());
  EXPECT_FALSE(Later.isConstant());
  EXPECT_TRUE((Poly::atom(0).scaled(Big) + Poly::atom(0).scaled(Big)).overflowed());
}

// Monomials are sorted by the atom order the type is given: with a reversed
// order, j * i and i * j are one monomial, written with the larger atom first.
TEST(Polynomial, OrdersMonomialsByTheGivenOrder) {
  using Reversed = Polynomial<unsigned, std::greater<unsigned>>;
  Reversed P = Reversed::atom(0) * Reversed::atom(1) + Reversed::term({0, 1}, 2);
  ASSERT_EQ(P.terms().size(), 1u);
  EXPECT_EQ(P.terms().begin()->first, (Reversed::Monomial{1, 0}));
  EXPECT_EQ(P.terms().begin()->second, 3);
}

} // namespace
