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
//               | 'fastmath' | instantiation | repeat
//
//   launch     := 'launch' '(' section (';' section)* ';'? ')'
//   section    := 'grid' ':' dims | 'block' ':' dims | 'smem' ':' expr
//   dims       := expr (',' expr (',' expr)?)?            x, y, z; missing ones are 1
//                 grid and block are required; smem (dynamic shared bytes) defaults to 0.
//   args       := 'args' '(' arg (',' arg)* ')'
//   arg        := name '=' expr ('|' expr)*
//                 Values of scalar parameters; a value may use other parameters that
//                 args gives, in any order: args(m = n / 2, n = 1 << 20). Several
//                 values (k = 1 | N / 4 | N - 2) make several launches: every one is
//                 verified, and the timing weighs them equally (several such args:
//                 every combination, at most 16).
//   buffers    := 'buffers' '(' buffer (',' buffer)* ')'
//   buffer     := name '[' expr ']' ('in' | 'out' | 'inout')? bufferitem*
//   bufferitem := 'range' '(' expr ',' expr ')' | 'tol' '(' tolitem (',' tolitem)* ')'
//                 A pointer parameter and its element count; without a direction the
//                 optimizer decides from the pointer's constness. range(lo, hi): the
//                 inputs are drawn from [lo, hi) (integers for integer elements, e.g.
//                 indices: range(0, n)) instead of [-1, 1) (floating) or [0, 16);
//                 tol(...): the tolerance of this written buffer, over the tol clause.
//   tol        := 'tol' '(' tolitem (',' tolitem)* ')'
//   tolitem    := ('rtol' | 'atol') '=' constant          non-negative
//   budget     := 'budget' '(' budgetitem (',' budgetitem)* ')'
//   budgetitem := 'time' '=' duration | 'evals' '=' constant | 'tokens' '=' constant
//   duration   := number unit                              60s, 1.5m, 500ms, 2h, 60 s
//   unit       := 'ms' | 's' | 'm' | 'h'                   as --kopt-budget takes them
//   skills     := 'skills' '(' skill (',' skill)* ')'
//   skill      := ('+' | '-')? id                           no sign: '+'; id: a-b_c
//   engine     := 'engine' '(' ('skills' | 'llm' | 'auto') ')'
//   'fastmath'    The user allows rewrites that change results beyond reordering:
//                 correctly rounded operations become the hardware's approximations
//                 (__expf, __fdividef, rsqrtf), as nvcc's -use_fast_math does. Without it
//                 (or --kopt-fast-math, or -use_fast_math on the compile) only exact
//                 rewrites and reassociation within tol are tried.
//   repeat     := 'repeat' '(' constant ')'              an integer, at least 1
//                 Verification runs the original and each variant this many times
//                 back to back on the same inputs, every launch on what the last one
//                 left, and compares the final state: error that accumulates over a
//                 time-stepped kernel's launches shows. Default: 20 where the kernel
//                 has an inout buffer (declared, or inferred from a non-const
//                 pointer), else 1; repeat(1) verifies one launch (docs/pragma.md).
//   instantiation := 'instantiation' '(' template-args ')'
//                 A kernel template's instantiation to optimize, its arguments as between
//                 '<' and '>' (instantiation(float, 128)); without it, the one the file
//                 launches (clang-plugin/units/InstantiationChoice.h).
//
// A pragma without launch, args and buffers ('#pragma kopt optimize' alone, or with
// only tol, budget, skills, noalias, fastmath, repeat or engine) is accepted: its
// workload is to come from a recording of the application (kopt record); without
// one, optimizing it fails with "kernel K has no workload".
//
// expr is an arithmetic expression over literals, the kernel's (template) parameters
// and enumerators, with casts, ceil, floor, log, exp, sqrt, pow, min, max and sizeof
// (ClauseExpr.h); constant is one that names no parameter. Launch dimensions, smem,
// buffer sizes, evals and tokens are integers; args values and tolerances may be
// floating. Example (the pragma is one line in the source, or continued with
// backslashes):
//
//   #define N (1 << 20)
//   #pragma kopt optimize launch(grid: (n + 255) / 256; block: 256) args(n = N, a = 2.0f)
//       buffers(x[n] in, y[n] inout) tol(rtol = 1e-5, atol = 1e-6) budget(time = 60s)
//   __global__ void saxpy(int n, float a, const float *x, float *y) { ... }
#pragma once

#include "clang-plugin/model/ClauseExpr.h"

#include <llvm/ADT/ArrayRef.h>
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
  unsigned GridToken = 0, BlockToken = 0; // The section names, for diagnostics.
};

struct ArgValue {
  std::string Name;
  ClauseExpr Value;                   // The first value.
  std::vector<ClauseExpr> MoreValues; // args(k = 1 | N / 4): the values after the first.
  unsigned NameToken = 0;             // Among the pragma's tokens, for diagnostics.
};

struct ToleranceClause {
  std::optional<double> Rtol, Atol;
};

// range(lo, hi): where a buffer's input elements are drawn from.
struct ValueRangeSpec {
  ClauseExpr Low, High;
  unsigned Token = 0; // 'range'.
};

struct BufferSpec {
  std::string Name;
  ClauseExpr Size; // In elements.
  std::optional<BufferAccess> Access;
  std::optional<ValueRangeSpec> Range;
  std::optional<ToleranceClause> Tol;
  unsigned NameToken = 0, AccessToken = 0, TolToken = 0;
};

struct BudgetClause {
  std::optional<double> TimeSeconds;
  std::optional<int64_t> Evals;
  std::optional<int64_t> Tokens; // For the llm engine.
};

struct SkillToggle {
  std::string Id;
  bool Enabled = true;
  unsigned Token = 0; // The id's first token.
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
  bool FastMath = false; // 'fastmath': approximate math allowed.
  std::optional<EngineKind> Engine;
  // instantiation(...): which instantiation of a kernel template to optimize,
  // as its template arguments ("float, 128"); unset: the one the file launches.
  std::optional<std::string> Instantiation;
  // repeat(N): the length of the verification's chains of launches; unset:
  // the default (clang-plugin/model/VerificationChain.h).
  std::optional<int64_t> Repeat;
  unsigned Line = 0, Column = 0; // Of the pragma; set by the front end.
  // The clause names among the pragma's tokens (0, the verb, where absent).
  unsigned ArgsToken = 0, BuffersToken = 0, InstantiationToken = 0, RepeatToken = 0;

  // No launch, args or buffers: the workload must come from elsewhere (a recording).
  bool hasWorkload() const { return Launch || Args || Buffers; }
};

llvm::StringRef spelling(BufferAccess A);
llvm::StringRef spelling(EngineKind E);

// The values of the args clause that evaluate, each given the others and Known
// (the template parameters' values): constants, and values that use other
// resolvable args. Values that do not evaluate (a cycle, an unknown name,
// division by zero) are left out. With Choice, arg I takes its value number
// Choice[I] (0: Value, 1: MoreValues[0], ...); without, every arg its first.
NumberBindings resolveArgValues(const PragmaClauses &P, const NumberBindings &Known = {},
                                llvm::ArrayRef<size_t> Choice = {});

} // namespace kopt::frontend
