// Makes a statement run on every thread of the block, as a loop with
// __syncthreads() must: the bounds checks around it (enclosing ifs, earlier
// `if (...) return;`) are taken off, the code after it runs under the same
// checks as before, and the checks are handed back so that the caller can
// predicate the statement's own work on them.
#pragma once

#include "clang-plugin/transforms/framework/UnitRewriter.h"

#include <llvm/Support/Error.h>

#include <string>
#include <vector>

namespace clang {
class CompoundStmt;
class Expr;
class IfStmt;
class Stmt;
} // namespace clang

namespace kopt::transform {

// One condition a thread met to reach the statement.
struct Guard {
  const clang::Expr *Cond = nullptr; // As written; the thread needed it true,
  bool Negated = false;              // or false (a part of an early return's condition).
  std::string Text;                  // A C expression that is true for the thread: "(row < M)".
};

// One step of the way from the kernel's body down to a statement: a block
// and its statement on the way (Block, Child), or an if without else whose
// then-branch is on the way (If, Child).
struct PathStep {
  const clang::CompoundStmt *Block = nullptr;
  const clang::IfStmt *If = nullptr;
  const clang::Stmt *Child = nullptr;
};

// The steps from the body down to S, outermost first; fails where S is nested
// in anything else (a loop, a switch, an if with else).
llvm::Expected<std::vector<PathStep>> pathFromBody(const UnitAST &U, const clang::Stmt &S);

// Adds Cond's parts to Out: its && operands (Negated: an early return's
// condition, its || operands, each needed false). Fails where Cond has side
// effects.
llvm::Error addGuards(const UnitAST &U, const clang::Expr *Cond, bool Negated,
                      std::vector<Guard> &Out);

// Edits U.Rewrite so that S (a statement of the kernel body, reached through
// blocks and ifs without else only) runs on every thread, and returns the
// guards a thread had to pass to reach it. Statements run before S under a
// guard stay under it (inert declarations, AstEdit.h, need not); guards must
// have no side effects. S itself is not edited.
llvm::Expected<std::vector<Guard>> hoistOutOfGuards(UnitAST &U, const clang::Stmt &S);

// The conjunction of Guards' texts, "" for none.
std::string conjunction(const std::vector<Guard> &Guards);

} // namespace kopt::transform
