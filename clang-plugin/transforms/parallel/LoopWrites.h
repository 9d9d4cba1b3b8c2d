// What the transforms that spread a loop over several threads (row-cooperative,
// inner-loop-parallel, split-k, loop-to-grid) ask of a loop: what it writes,
// which variables it folds into one value (s += e, s = fmaxf(s, e)), which
// global locations it accumulates into (y[j] += e), its counter, and where a
// pointer points.
#pragma once

#include "clang-plugin/transforms/framework/UnitRewriter.h"

#include <llvm/ADT/STLFunctionalExtras.h>
#include <llvm/Support/Error.h>

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace clang {
class ArraySubscriptExpr;
class BinaryOperator;
class Expr;
class ForStmt;
class QualType;
class Stmt;
class VarDecl;
} // namespace clang

namespace kopt::transform {

// What an assignment, increment or atomic changes: a variable of the thread
// (Memory false), or memory (Var and Subscript set for p[i] or p[i][k] with p
// a pointer variable, Subscript the outermost subscript; null where the target
// is not of that form).
struct Write {
  bool Memory = false;
  const clang::VarDecl *Var = nullptr;
  const clang::ArraySubscriptExpr *Subscript = nullptr;
  const clang::Expr *At = nullptr;
};

const clang::VarDecl *varOf(const clang::Expr *E);
Write targetOf(const clang::Expr *Lhs);

// p[i] or p[i][k] (p a pointer or array variable): p, and the indices,
// outermost first; empty where E is not of that form.
struct Subscripted {
  const clang::VarDecl *Base = nullptr;
  std::vector<const clang::Expr *> Indices;
};
std::optional<Subscripted> subscripted(const clang::Expr *E);
// The indices' texts as written, "i][k"; empty where one comes from a macro.
std::string indexText(const UnitAST &U, const Subscripted &S);

// Every write under S (atomics count as memory writes). Fails on what these
// transforms cannot reason about: calls to the unit's own functions, barriers,
// warp intrinsics, taking an address.
llvm::Expected<std::vector<Write>> writesIn(const UnitAST &U, const clang::Stmt *S);

bool containsLoop(const clang::Stmt *S);
// The for loops of the kernel that no other loop holds, in source order.
std::vector<const clang::ForStmt *> outerLoops(const UnitAST &U);
// Whether S may read memory: a subscript, a dereference or an arrow.
bool readsMemory(const clang::Stmt *S);
// The variables declared under S.
std::set<const clang::VarDecl *> declaredIn(const clang::Stmt *S);
// The pointer variables S names.
std::set<const clang::VarDecl *> pointersIn(const clang::Stmt *S);
// The parameters (or other origins) a pointer variable points into, through
// the initializers of local pointers.
std::set<const clang::VarDecl *> pointerRoots(const clang::VarDecl *V);
// Whether E is the variable V, perhaps converted to another integer type.
bool isVarRef(const clang::Expr *E, const clang::VarDecl *V);

// The types the warp shuffle moves.
bool shuffleType(clang::QualType T);

// How a reduction combines two partial values.
struct Fold {
  enum Kind { Sum, Max, Min } Op = Sum;
  std::string Combine; // The function that combines two partials; empty for a sum.
  bool operator==(const Fold &) const = default;
};

// One update of a reduction target T (a variable, or a subscript whose text
// is Target): T += e, T -= e, T = T + e, T = e + T (a sum), or T = f(T, e) /
// f(e, T) with f a max or min; e does not mention T. Refs counts how often the
// update names T.
struct FoldUpdate {
  Fold How;
  unsigned Refs = 0;
  const clang::BinaryOperator *Update = nullptr;
};
std::optional<FoldUpdate> foldUpdate(const UnitAST &U, const clang::BinaryOperator &Bin,
                                     llvm::function_ref<bool(const clang::Expr *)> IsTarget);

// Every update of V under S, where each is a FoldUpdate of one kind, a
// statement of its own (t = (s += e) hands the partial on), and V is never
// incremented (with Counts, an integer V may be: n++ and n-- as statements
// of their own are sums): the kind and how often the updates name V. None
// otherwise, or where nothing updates V.
struct VarFolds {
  Fold How;
  unsigned Refs = 0;
};
std::optional<VarFolds> foldsOf(const UnitAST &U, const clang::Stmt *S, const clang::VarDecl *V,
                                bool Counts = false);

// A for loop counting up by one: for (int j = E0; j < E1; j++), or with the
// counter declared before the loop (for (j = E0; j <= E1; ++j), as C89-style
// kernels write). Bound and Init without side effects; Bound does not name j.
struct LoopCounter {
  const clang::VarDecl *Var = nullptr;
  const clang::Expr *Init = nullptr, *Bound = nullptr;
  std::string Comparison; // "<" or "<=".
  bool Declared = true;   // Declared in the loop's init.
};
std::optional<LoopCounter> loopCounter(const clang::ForStmt &For, const UnitAST &U);

// For a counter declared outside its loop: fails unless every other use of it
// in the kernel is inside a for loop whose init assigns it again, so that the
// value the loop leaves behind is never read.
llvm::Error checkCounterDead(const UnitAST &U, const LoopCounter &L);

} // namespace kopt::transform
