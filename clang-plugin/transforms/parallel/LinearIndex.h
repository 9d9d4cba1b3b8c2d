// Index expressions as polynomials with integer coefficients over the
// kernel's integer variables (j1 * (M + 1) + j2, i * n + k, with macro sizes
// folded to numbers), and what is known of those variables' ranges from
// bounds checks, loop headers and thread positions. LoopIndependence.h asks
// these whether two accesses can meet.
#pragma once

#include "clang-plugin/analysis/Polynomial.h"
#include "clang-plugin/analysis/ast/DeclOrder.h"

#include <llvm/ADT/STLFunctionalExtras.h>

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

namespace clang {
class ASTContext;
class Expr;
class VarDecl;
} // namespace clang

namespace kopt::transform {

// Polynomials over the kernel's integer variables, monomials sorted by
// WrittenBefore (so that what a transform writes from them does not depend on
// where the parse allocated a declaration).
using Linear = frontend::Polynomial<const clang::VarDecl *, WrittenBefore>;
using Monomial = Linear::Monomial;

// E as a polynomial over integer variables and constants (+, -, *, unary -,
// integer casts, parentheses, constant expressions); empty otherwise. A
// variable for which ValueOf gives an expression stands for that expression
// (a local that holds an index: int idx = j1 * n + j2).
std::optional<Linear>
linearize(const clang::Expr *E, const clang::ASTContext &Ctx,
          llvm::function_ref<const clang::Expr *(const clang::VarDecl *)> ValueOf = nullptr);

// Lo <= x < Hi for variables x (several bounds may be known for one x).
class Ranges {
public:
  void addLower(const clang::VarDecl *X, Linear Lo) { Lower[X].push_back(std::move(Lo)); }
  void addUpper(const clang::VarDecl *X, Linear Hi) { Upper[X].push_back(std::move(Hi)); }
  // Whether L >= 0 for every value the known ranges allow.
  bool nonNegative(const Linear &L, unsigned Depth = 0) const;

private:
  std::map<const clang::VarDecl *, std::vector<Linear>> Lower, Upper; // Hi exclusive.
};

} // namespace kopt::transform
