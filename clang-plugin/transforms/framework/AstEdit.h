// What the data-movement transforms (scalar replacement, vectorize, thread
// mapping swap, shared-memory tiling) share: statements as text with edits
// applied, conditions split into their parts, counted loops, and the check
// that a kernel reads its thread position only as blockIdx*blockDim+threadIdx,
// which is what lets a launch mapping regroup threads; and rewriting each call
// of a kind (the pow transforms).
#pragma once

#include "clang-plugin/analysis/IndexAnalysis.h"
#include "clang-plugin/transforms/framework/UnitRewriter.h"

#include <clang/Basic/SourceLocation.h>
#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/STLFunctionalExtras.h>
#include <llvm/ADT/Twine.h>
#include <llvm/Support/Error.h>

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace clang {
class CallExpr;
class Expr;
class ForStmt;
class QualType;
class SourceManager;
class Stmt;
class VarDecl;
} // namespace clang

namespace kopt::transform {

// "line 7:5: Why", for errors about the unit's code.
llvm::Error unsupported(const UnitAST &U, clang::SourceLocation Loc, const llvm::Twine &Why);

// Each call of the kernel's body that Matches, in the body's order, edited by
// Edit (given every matching call, so that it may refuse one for another's
// sake; a refused call is left as written): how many Edit rewrote, or where it
// rewrote none, the first refusal (None where no call matched).
llvm::Expected<unsigned>
rewriteEachCall(UnitAST &U, llvm::function_ref<bool(const clang::CallExpr &)> Matches,
                llvm::function_ref<llvm::Error(const clang::CallExpr &,
                                               llvm::ArrayRef<const clang::CallExpr *>)>
                    Edit,
                llvm::StringRef None);

// A statement's text span, with the ';' that ends it where its last part is
// an expression, return, break, continue or do-while. Fails inside macros.
llvm::Expected<clang::CharSourceRange> statementRange(const UnitAST &U, const clang::Stmt &S);

// The file text span of a token range; fails where it is partly inside a macro.
llvm::Expected<clang::CharSourceRange> fileRange(const UnitAST &U, clang::SourceRange Range);

// An expression's text as written in the unit (a macro invocation stays one).
llvm::Expected<std::string> exprText(const UnitAST &U, const clang::Expr &E);

// Replacement of a token range.
struct TextEdit {
  clang::SourceRange Range;
  std::string Text;
};

// Whether the token range Inner lies within Outer (either may be the other).
bool rangeInside(const clang::SourceManager &SM, clang::SourceRange Outer,
                 clang::SourceRange Inner);

// The text of Range with Edits (disjoint token ranges inside it) applied.
llvm::Expected<std::string> editedText(const UnitAST &U, clang::CharSourceRange Range,
                                       std::vector<TextEdit> Edits);

// E's operands at top-level && (Or: at ||), parentheses looked through.
std::vector<const clang::Expr *> splitCondition(const clang::Expr *E, bool Or = false);

// for (T v = Init; v < Bound; ++v): step one, comparison < or <=, v declared
// in the init; Bound and Init without side effects.
struct CountedLoop {
  const clang::VarDecl *Var = nullptr;
  const clang::Expr *Init = nullptr, *Bound = nullptr;
  std::string Comparison; // "<" or "<=".
};
std::optional<CountedLoop> countedLoop(const clang::ForStmt &For, const UnitAST &U);
// The same checks of the condition and step for a counter V that starts at
// Init, wherever V is declared.
std::optional<CountedLoop> countedLoopWith(const clang::ForStmt &For, const UnitAST &U,
                                           const clang::VarDecl *V, const clang::Expr *Init);

// The loop statement as it stands in its block: the AttributedStmt around a
// loop under '#pragma unroll', else the loop.
const clang::Stmt &outermostLoopStmt(const UnitAST &U, const clang::Stmt &Loop);

// Whether E reads threadIdx (any component), looking through local variables.
bool readsThreadIdx(const clang::Expr *E);
// Whether E reads threadIdx.<Dim> or blockIdx.<Dim>, looking through locals.
bool readsThreadPosition(const clang::Expr *E, char Dim);

// One global position of the kernel: blockIdx.c * blockDim.c + threadIdx.c.
struct PositionSum {
  char Dim = 'x';
  const clang::Expr *Sum = nullptr; // The addition, as written.
};

// The dimension c where E is blockIdx.c * blockDim.c + threadIdx.c (either
// order of each sum and product), as written.
std::optional<char> positionSumDim(const clang::Expr &E);

// The builtin (blockIdx.y, ...) that E is, directly or through a local of the
// kernel that only names it: an integer declared with it as its initializer
// and never changed (not in Changed, changedVariables' set).
std::optional<frontend::IndexBuiltin>
builtinThroughLocal(const clang::Expr *E, const std::set<const clang::VarDecl *> &Changed);

// positionSumDim with each builtin written directly or through such a local
// (Rodinia's `bx * blockDim.x + tx`); implicit casts around the sum looked
// through.
std::optional<char> positionSumDimThroughLocals(const clang::Expr &E,
                                                const std::set<const clang::VarDecl *> &Changed);

// Checks that the kernel body reads threadIdx, blockIdx and blockDim of each
// dimension in Dims only in the form blockIdx.c * blockDim.c + threadIdx.c
// (either order), never gridDim of those dimensions, and nothing of the other
// dimensions except blockIdx.z where AllowBlockZ. Sums, where given, receives
// each such form.
llvm::Error checkGlobalIndexForm(const UnitAST &U, llvm::StringRef Dims, bool AllowBlockZ,
                                 std::vector<PositionSum> *Sums = nullptr);

// `if (Cond) return;` (or `{ return; }`) without else: its condition.
const clang::Expr *earlyReturnCondition(const clang::Stmt &S);

// Edits that make each return of the kernel a continue of a loop put around
// its whole body (the virtual threads of the coarsening transforms). Fails
// where a return sits inside a loop or switch of the kernel, or comes from a
// macro.
llvm::Error returnsAsContinues(const UnitAST &U, std::vector<TextEdit> &Edits);

// A declaration (or ';') that any thread may run without harm: its
// initializers read no memory, call nothing and assign nothing.
bool isInertDecl(const clang::Stmt &S);

// The type as the unit can spell it in a declaration ("float", "unsigned int").
std::string typeText(clang::QualType T, const UnitAST &U);

// Code for a whole block's threads: the thread's index in its block (x
// fastest, as the hardware numbers warps) and the block's thread count.
inline constexpr const char *ThreadInBlockText =
    "((threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x)";
inline constexpr const char *BlockThreadsText = "(blockDim.x * blockDim.y * blockDim.z)";

// Whether S contains a call to __syncthreads or a warp intrinsic, an atomic,
// a return, break, continue or goto (Control), or a __shared__ variable.
struct StmtContents {
  bool Barrier = false, Atomic = false, WarpIntrinsic = false, Control = false, Shared = false;
  bool UserCall = false; // A call to a function defined in the unit itself, or indirect.
};
StmtContents inspectStmt(const clang::Stmt &S);

} // namespace kopt::transform
