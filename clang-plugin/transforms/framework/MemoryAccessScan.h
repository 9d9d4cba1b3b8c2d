// Every global memory access in a statement (a loop, usually) and what the
// statement assigns: what the register transforms (scalar-replacement,
// carried-scalar-replacement) check before they keep a location in a register.
#pragma once

#include <set>
#include <vector>

namespace clang {
class Expr;
class ParmVarDecl;
class Stmt;
class VarDecl;
} // namespace clang

namespace kopt::transform {

struct MemoryAccess {
  const clang::Expr *E = nullptr;            // p[i], p[i][j] (the whole access) or *p.
  const clang::ParmVarDecl *Param = nullptr; // The pointer parameter it reaches.
  const clang::Expr *Base = nullptr;         // The pointer or array the indices apply to.
  std::vector<const clang::Expr *> Indices;  // Outermost first: p[i][j] gives i, j.
  bool Write = false;                        // Assigned, incremented or address taken.
};

struct MemoryAccesses {
  std::vector<MemoryAccess> All; // Through pointer parameters (or locals made from them).
  std::vector<const clang::Expr *> Assigned;
  std::set<const clang::VarDecl *> Declared; // Declared or assigned in the statement.
  const clang::Expr *Unknown = nullptr;      // An access through a pointer of unknown origin.
};

// A thread's own arrays and shared arrays are not global accesses: no
// parameter reaches them.
MemoryAccesses scanMemoryAccesses(const clang::Stmt &S);

} // namespace kopt::transform
