// The blocked product that register-blocking and smem-tiling write: the
// matmul idiom (MatmulIdiom.h) with each thread computing TY x TX outputs in
// registers. The block becomes Side x Side threads over a (Side TY) x
// (Side TX) tile of outputs; thread (x, y) of it runs the original body for
// the positions (x + Side j, y + Side i), so its stores stay coalesced. Each
// step of the k loop stages BK values of both operands in shared memory (all
// threads load, zero outside bounds; the loads walk k fastest where the
// operand is unit stride in k, its position fastest otherwise, so they stay
// coalesced for transposed operands), then every thread reads TY values of
// the row operand and TX of the column operand into registers and does
// TY x TX updates of its accumulators. smem-tiling is the case TY = TX = 1.
// Where the k range follows the row or the column (a triangular loop), the
// tile runs over the union of its positions' ranges and every load of that
// operand and every update checks its own position's range.
//
// The kernel's code around the loop runs once for each of a thread's
// positions ("virtual threads"): the code before the loop (declarations and
// bounds checks only, plus the accumulator's declaration) sets each
// accumulator; the code after it, with the declarations again and the
// accumulator read back, stores each result. A return leaves one position.
//
// Where the kernel is not in that shape as written, the idiom normalizations
// (Normalization.h) run first: a global accumulator becomes a register, a
// counter declared before its loop becomes the loop's, and so on.
#pragma once

#include "clang-plugin/transforms/framework/UnitRewriter.h"

#include <llvm/ADT/STLFunctionalExtras.h>

namespace kopt::transform {

struct Blocking {
  int64_t Side = 16; // The block is Side x Side threads.
  int64_t TY = 8, TX = 8, BK = 8;
  int64_t extent(char Dim) const { return Side * (Dim == 'y' ? TY : TX); }
};

// Rewrites U's kernel; Line receives the k loop's line.
llvm::Error rewriteBlockedMatmul(UnitAST &U, const Blocking &B, unsigned &Line);

// Side x Side blocks over tiles of (Side TY) x (Side TX) of the original threads.
frontend::LaunchMapping blockedLaunch(const Blocking &B);

// The rewrite of In's unit, normalized first where needed; Summary says what
// the rewrite did for the k loop at Line, and the output's summary adds the
// normalizations before it.
llvm::Expected<TransformOutput>
applyBlockedMatmul(const TransformInput &In, const Blocking &B,
                   llvm::function_ref<std::string(unsigned Line)> Summary);

} // namespace kopt::transform
