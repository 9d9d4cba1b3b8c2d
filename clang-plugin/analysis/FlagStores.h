// Flags a kernel raises: one value stored to one location by any thread that
// finds something, as iterative graph and relaxation codes signal the host to
// go on (`*changed = 1;` when a BFS labels a vertex, `*done = false;` when a
// relaxation still moves, `flags[0] = 1;` on overflow). Written inside a loop,
// the store repeats for every find, and all of a launch's stores go to one
// address: they serialize there, and a BFS level waits on them.
//
// Found here: a pointer parameter P, never reassigned, that the kernel uses
// only as the target of statements `*P = v;` or `P[c] = v;`, all of the same
// address and value, where c and v are thread-invariant (literals,
// enumerators, scalar parameters the kernel does not change, and operators
// over them), at least one of them inside a loop. Nothing in the kernel reads
// P, so only what P holds at the end can matter, and every writer writes the
// same. Whether other pointers may alias P is the transform's to check.
#pragma once

#include <vector>

namespace clang {
class ASTContext;
class BinaryOperator;
class FunctionDecl;
class ParmVarDecl;
} // namespace clang

namespace kopt::frontend {

struct FlagStore {
  const clang::ParmVarDecl *Flag = nullptr;
  std::vector<const clang::BinaryOperator *> Stores; // Every store through Flag, in source order.
};

// Every such flag of the kernel, in the order of the parameters.
std::vector<FlagStore> findFlagStores(const clang::FunctionDecl &Kernel, clang::ASTContext &Ctx);

} // namespace kopt::frontend
