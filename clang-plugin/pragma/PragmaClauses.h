// '#pragma kopt optimize [clauses]' marks the __global__ function definition
// that follows it for optimization. The clauses describe how to run the kernel
// (its launch, argument values and buffers), how to check a variant (tolerances)
// and how hard to try (budget, skills, engine). The line is read through the
// preprocessor, so macros expand as in the compiler.
//
// Grammar (clauses in any order, each at most once, optionally comma-separated):
//
//   pragma     := '#pragma' 'kopt' 'optimize' (clause (','? clause)*)?
//   clause     := launch | args | buffers | tol | budget | skills | engine | 'noalias'
//               | instantiation
//
//   launch     := 'launch' '(' section (';' section)* ';'? ')'
//   section    := 'grid' ':' dims | 'block' ':' dims | 'smem' ':' expr
//   dims       := expr (',' expr (',' expr)?)?            x, y, z; missing ones are 1
//                 grid and block are required; smem (dynamic shared bytes) defaults to 0.
//   args       := 'args' '(' name '=' expr (',' name '=' expr)* ')'
//                 Values of scalar parameters; a value may use other parameters that
//                 args gives, in any order: args(m = n / 2, n = 1 << 20).
//   buffers    := 'buffers' '(' buffer (',' buffer)* ')'
//   buffer     := name '[' expr ']' ('in' | 'out' | 'inout')?
//                 A pointer parameter and its element count; without a direction the
//                 optimizer decides from the pointer's constness.
//   tol        := 'tol' '(' tolitem (',' tolitem)* ')'
//   tolitem    := ('rtol' | 'atol') '=' constant          non-negative
//   budget     := 'budget' '(' budgetitem (',' budgetitem)* ')'
//   budgetitem := 'time' '=' duration | 'evals' '=' constant | 'tokens' '=' constant
//   duration   := number unit                              60s, 1.5m, 500ms, 60 s
//   unit       := 's' | 'm' | 'ms'
//   skills     := 'skills' '(' skill (',' skill)* ')'
//   skill      := ('+' | '-')? id                           no sign: '+'; id: a-b_c
//   engine     := 'engine' '(' ('skills' | 'llm' | 'auto') ')'
//   instantiation := 'instantiation' '(' template-args ')'
//                 A kernel template's instantiation to optimize, its arguments as between
//                 '<' and '>' (instantiation(float, 128)); without it, the one the file
//                 launches (driver/optimize/InstantiationChoice.h).
//
// expr is an arithmetic expression over literals and the kernel's parameters (see
// ClauseExpr.h); constant is one that names no parameter. Launch dimensions, smem,
// buffer sizes, evals and tokens are integers; args values and tolerances may be
// floating. Example (the pragma is one line in the source, or continued with
// backslashes):
//
//   #define N (1 << 20)
//   #pragma kopt optimize launch(grid: (n + 255) / 256; block: 256) args(n = N, a = 2.0f)
//       buffers(x[n] in, y[n] inout) tol(rtol = 1e-5, atol = 1e-6) budget(time = 60s)
//   __global__ void saxpy(int n, float a, const float *x, float *y) { ... }
#pragma once

#include "clang-plugin/pragma/ClauseExpr.h"

#include <llvm/ADT/StringRef.h>

#include <optional>
#include <string>
#include <vector>

namespace kopt::frontend {

enum class BufferAccess : uint8_t { In, Out, InOut };
enum class EngineKind : uint8_t { Skills, Llm, Auto };

struct LaunchClause {
  std::vector<ClauseExpr> Grid, Block;    // 1 to 3 each: x, y, z.
  std::optional<ClauseExpr> SharedMemory; // Dynamic shared memory in bytes.
};

struct ArgValue {
  std::string Name;
  ClauseExpr Value;
  unsigned NameToken = 0; // Among the pragma's tokens, for diagnostics.
};

struct BufferSpec {
  std::string Name;
  ClauseExpr Size; // In elements.
  std::optional<BufferAccess> Access;
  unsigned NameToken = 0, AccessToken = 0;
};

struct ToleranceClause {
  std::optional<double> Rtol, Atol;
};

struct BudgetClause {
  std::optional<double> TimeSeconds;
  std::optional<int64_t> Evals;
  std::optional<int64_t> Tokens; // For the llm engine.
};

struct SkillToggle {
  std::string Id;
  bool Enabled = true;
};

// The parsed clauses. Absent clauses are empty optionals; a clause that is
// present holds at least one item.
struct PragmaClauses {
  std::optional<LaunchClause> Launch;
  std::optional<std::vector<ArgValue>> Args;
  std::optional<std::vector<BufferSpec>> Buffers;
  std::optional<ToleranceClause> Tol;
  std::optional<BudgetClause> Budget;
  std::optional<std::vector<SkillToggle>> Skills;
  bool NoAlias = false;
  std::optional<EngineKind> Engine;
  // instantiation(...): which instantiation of a kernel template to optimize,
  // as its template arguments ("float, 128"); unset: the one the file launches.
  std::optional<std::string> Instantiation;
  unsigned Line = 0, Column = 0; // Of the pragma; set by the front end.
};

llvm::StringRef spelling(BufferAccess A);
llvm::StringRef spelling(EngineKind E);

// The values of the args clause that evaluate, each given the others: constants,
// and values that use other resolvable args. Values that do not evaluate (a cycle,
// an unknown name, division by zero) are left out.
NumberBindings resolveArgValues(const PragmaClauses &P);

} // namespace kopt::frontend
