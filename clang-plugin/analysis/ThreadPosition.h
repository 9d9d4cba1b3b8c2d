// The thread's position in a dimension as kernels write it,
// blockIdx.c * blockDim.c + threadIdx.c (each sum and product in either
// order): the one recogniser of it that the analyses and the transforms share.
// Index polynomials (IndexPolynomial.h) need none: there threadIdx.c is
// g_c - blockIdx.c * blockDim.c, and the sum cancels to g_c.
#pragma once

#include <llvm/ADT/STLFunctionalExtras.h>
#include <llvm/ADT/StringRef.h>

#include <array>
#include <optional>

namespace clang {
class BinaryOperator;
class Expr;
} // namespace clang

namespace kopt::frontend {

// Whether E is the builtin Var.Dim (threadIdx.x, ...), as a caller
// recognizes it: written directly (isBuiltin) or through a local that holds it.
using BuiltinTest = llvm::function_ref<bool(const clang::Expr *E, llvm::StringRef Var, char Dim)>;

// E is Var.Dim, parentheses and casts looked through (asIndexBuiltin).
bool isBuiltin(const clang::Expr *E, llvm::StringRef Var, char Dim);

// Mul is First.Dim * Second.Dim in either order (blockIdx.x * blockDim.x,
// blockDim.x * gridDim.x): its operands, First's then Second's.
std::optional<std::array<const clang::Expr *, 2>> geometryProduct(const clang::BinaryOperator &Mul,
                                                                  llvm::StringRef First,
                                                                  llvm::StringRef Second, char Dim,
                                                                  BuiltinTest Is = isBuiltin);

// A position sum's dimension and its builtins as written: threadIdx.c,
// blockIdx.c, blockDim.c.
struct PositionParts {
  char Dim = 'x';
  std::array<const clang::Expr *, 3> Builtins{};
};

// Add is threadIdx.c + blockIdx.c * blockDim.c, either order of the sum and
// of the product (implicit casts around the product looked through).
std::optional<PositionParts> positionSum(const clang::BinaryOperator &Add,
                                         BuiltinTest Is = isBuiltin);

} // namespace kopt::frontend
