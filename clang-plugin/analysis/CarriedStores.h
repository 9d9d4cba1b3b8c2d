// Stores a loop reads back in its next iteration: the recurrences of
// application codes that keep their running values in global memory, as the
// Thomas algorithm's forward sweep (cp[i] = c / (b - a * cp[i - 1])), a
// recursive (IIR) filter (y[x] = a * in[x] + b * y[x - 1]), a running sum
// (cum[k] = cum[k - 1] + f[k]) or a dynamic programme along a row. nvcc
// reloads the element from memory (L1 at best) on every iteration, with the
// load on the recurrence's critical path; it cannot forward the store, even
// with __restrict__ pointers.
//
// Found here: in a for loop whose counter steps by a constant, a statement of
// the body (not under a condition) `A[f(i)] = v;`, the only write to A in the
// loop, and reads A[f(i - step)] (the element the previous iteration stored)
// before it in the body or in v. Indices compare as polynomials
// (IndexPolynomial.h), locals followed to their initializers, so
// `id = j * nx + i; ... cp[id - nx]` is found for a loop over j. The loop has
// no continue or goto (the store runs in every iteration that reaches the
// next). Whether other pointers may alias A is the transform's to check.
#pragma once

#include <cstdint>
#include <vector>

namespace clang {
class ASTContext;
class ArraySubscriptExpr;
class BinaryOperator;
class ForStmt;
class FunctionDecl;
class VarDecl;
} // namespace clang

namespace kopt::frontend {

struct CarriedStore {
  const clang::ForStmt *Loop = nullptr;
  const clang::VarDecl *Counter = nullptr;
  int64_t Step = 0;
  const clang::BinaryOperator *Store = nullptr; // A[f(i)] = v
  const clang::VarDecl *Array = nullptr;        // A: a pointer parameter or local.
  // A[f(i - Step)] read as a value before the store in the iteration, in the
  // body's order; the store's index excluded.
  std::vector<const clang::ArraySubscriptExpr *> Reads;
};

// Every such store of the kernel, loops in source order.
std::vector<CarriedStore> findCarriedStores(const clang::FunctionDecl &Kernel,
                                            clang::ASTContext &Ctx);

} // namespace kopt::frontend
