// What transforms that regroup the threads of a 2-D or 3-D kernel need to know
// of its thread positions g_c = blockIdx.c * blockDim.c + threadIdx.c (see
// analysis/IndexPolynomial.h): that the kernel reads the geometry only through
// them, the conditions under which a thread reaches a statement, whether a
// condition bounds a position from above, and conditions as text evaluated for
// another thread (the one at a position the caller names).
#pragma once

#include "clang-plugin/analysis/IndexPolynomial.h"
#include "clang-plugin/transforms/framework/AstEdit.h"
#include "clang-plugin/transforms/framework/UnitRewriter.h"

#include <llvm/Support/Error.h>

#include <array>
#include <string>
#include <vector>

namespace clang {
class Expr;
class ForStmt;
class Stmt;
} // namespace clang

namespace kopt::transform {

// Fails, naming the place, where the kernel reads threadIdx, blockIdx or
// blockDim other than through positions, or gridDim at all. blockIdx of a
// dimension without threadIdx (a batch index) is allowed.
llvm::Error checkPositionForm(const UnitAST &U, frontend::IndexPolyBuilder &B);

// Makes the variable of every for loop in the kernel an atom of B (its value
// then does not matter to checkPositionForm): for transforms that keep each
// thread's code and only need its positions to be the only geometry it reads.
void addForLoopVars(const UnitAST &U, frontend::IndexPolyBuilder &B);

// A condition a thread met: Expr true (false where Negated), or the
// comparison Lhs Op Rhs (from a min or max that picked one operand).
struct Condition {
  const clang::Expr *Expr = nullptr;
  bool Negated = false;
  const clang::Expr *Lhs = nullptr, *Rhs = nullptr;
  llvm::StringRef Op;
  static Condition of(const clang::Expr *E, bool Negated) {
    Condition C;
    C.Expr = E;
    C.Negated = Negated;
    return C;
  }
  static Condition compare(const clang::Expr *L, llvm::StringRef Op, const clang::Expr *R) {
    Condition C;
    C.Lhs = L;
    C.Op = Op;
    C.Rhs = R;
    return C;
  }
  bool operator==(const Condition &O) const {
    return Expr == O.Expr && Negated == O.Negated && Lhs == O.Lhs && Rhs == O.Rhs && Op == O.Op;
  }
};

// The way from the kernel's body down to S: the conditions that decide
// whether a thread runs S, the loops around it (outermost first), and whether
// that is all (Exact false: a while loop, a switch, a return or break inside
// a branch before S also decide; Why says where).
struct ReachPath {
  std::vector<Condition> Conds;
  std::vector<const clang::ForStmt *> Loops;
  bool Exact = true;
  const clang::Stmt *Why = nullptr;
};
ReachPath reachPath(const UnitAST &U, const clang::Stmt &S);

// Whether C bounds g_Dim from above: a part of it (of its && when it holds,
// of its || when it fails) compares an increasing function of g_Dim alone
// with a value uniform over the block (i < n - 1, !(row >= M)).
bool boundsAbove(const Condition &C, char Dim, frontend::IndexPolyBuilder &B);

// Whether E can be evaluated for another thread: it reads no memory, calls
// nothing but min, max and abs, assigns nothing, and reads only parameters,
// locals set once from such expressions, loop variables and the geometry.
bool isPure(const clang::Expr &E, const frontend::IndexPolyBuilder &B);

// Edits that make the code under Root read position c as Positions[c] (a C
// expression) where that is not empty: each position sum becomes it, each
// threadIdx.c outside one its difference from blockIdx.c * blockDim.c.
void positionEdits(const clang::Stmt &Root, const std::array<std::string, 3> &Positions,
                   std::vector<TextEdit> &Edits);

// E's text with every local variable replaced by its initializer (loop
// variables stay) and, where Positions[c] is not empty, position c by that
// C expression: E as evaluated by the thread at those positions.
llvm::Expected<std::string> expandedText(const UnitAST &U, const frontend::IndexPolyBuilder &B,
                                         const clang::Expr &E,
                                         const std::array<std::string, 3> &Positions);
// The same for a condition, as a C boolean expression.
llvm::Expected<std::string> conditionText(const UnitAST &U, const frontend::IndexPolyBuilder &B,
                                          const Condition &C,
                                          const std::array<std::string, 3> &Positions);

// P as C text of type long long: parameters by name, blockIdx of batch
// dimensions, opaque atoms through expandedText, Positions[c] for g_c and
// loop variables by name.
llvm::Expected<std::string> polyText(const UnitAST &U, const frontend::IndexPolyBuilder &B,
                                     const frontend::IndexPoly &P,
                                     const std::array<std::string, 3> &Positions);

// The launch mapping's grid in Dim for blocks of Block threads covering the
// positions the original launch covered: (grid_c * block_c + Block - 1) / Block.
std::string coveringGrid(char Dim, int64_t Block);

// What the front end's features tell beforehand for regrouping a kernel's
// threads in 2-D or 3-D: not a template, 2-D or 3-D, threads that do not work
// together; or why not. A rewrite checks the AST with checkPositionForm.
Fit fitsRegrouping2D(const frontend::KernelSummary &Kernel);

} // namespace kopt::transform
