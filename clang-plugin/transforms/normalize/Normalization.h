// Normalizing rewrites: small passes that put a kernel's code into the form the
// idiom transforms (register-blocking, smem-tiling, row-cooperative) match,
// without changing what it computes. Other people write a product as
// `int k; for (k = 0; ...) C[i*N+j] += alpha * A[...] * B[...];`; after the
// passes it reads `T kopt_s0 = ...; for (int k = 0; ...) kopt_s0 += ...;
// C[i*N+j] = kopt_s0;`. An idiom transform first tries its rewrite on the unit
// as it is and, where that fails, on the normalized unit, so that one planner
// step reaches the kernel; its summary then names the whole chain.
//
// Passes keep the unit's line count where they can (edits stay on their
// lines), so that a refusal's line:col still points at the user's code.
#pragma once

#include "clang-plugin/model/ClauseExpr.h"
#include "clang-plugin/transforms/framework/UnitRewriter.h"

#include <llvm/ADT/ArrayRef.h>

#include <array>
#include <optional>

#include <string>
#include <vector>

namespace kopt::transform {

struct NormalizeOptions {
  bool NoAlias = false; // The pragma's noalias: pointer parameters never overlap.
  // The pragma's block dimensions, where its launch clause gives them.
  std::optional<std::array<int64_t, 3>> Block;
  // The launch clause's grid expressions, as written (after macro expansion).
  std::optional<std::vector<frontend::ClauseExpr>> Grid;
};

// One pass. It edits U and returns what it did ("scalar-replaced C[i*N+j]"),
// "" where the unit has nothing for it, or an error where it found its pattern
// but must leave it (the reason, with line:col): the chain then goes on
// without it and the reason explains a later refusal.
struct NormalizationPass {
  llvm::StringLiteral Name;
  llvm::Expected<std::string> (*Run)(UnitAST &U, const NormalizeOptions &Options);
};

// The passes, each in its own file.
llvm::Expected<std::string> inlineGeometryAliases(UnitAST &U, const NormalizeOptions &Options);
llvm::Expected<std::string> scopeLoopCounters(UnitAST &U, const NormalizeOptions &Options);
llvm::Expected<std::string> inlineIndexLocals(UnitAST &U, const NormalizeOptions &Options);
llvm::Expected<std::string> hoistLoopInvariants(UnitAST &U, const NormalizeOptions &Options);
llvm::Expected<std::string> promoteAccumulators(UnitAST &U, const NormalizeOptions &Options);
llvm::Expected<std::string> blockDimsForConstants(UnitAST &U, const NormalizeOptions &Options);
llvm::Expected<std::string> gridDimsFromLaunch(UnitAST &U, const NormalizeOptions &Options);
llvm::Expected<std::string> guardLaunchExtent(UnitAST &U, const NormalizeOptions &Options);
llvm::Expected<std::string> treeReductionsToAtomics(UnitAST &U, const NormalizeOptions &Options);

// What the matmul family (and row-cooperative) runs, in this order: aliases
// of threadIdx/blockIdx/blockDim replaced by what they name, counters into
// their loops, index locals into subscripts, invariant declarations out
// of loops, global accumulators into registers.
llvm::ArrayRef<NormalizationPass> idiomNormalizations();
// What the transforms that rewrite the thread's position run: the aliases only.
llvm::ArrayRef<NormalizationPass> geometryNormalizations();
// What the cooperative transforms run: block trees whose total one atomic
// adds to global memory as an atomic a thread (the threads become
// independent; sums reassociate), then the aliases.
llvm::ArrayRef<NormalizationPass> cooperativeNormalizations();

// What holds under the pragma's launch contract alone, for every transform:
// constants that stand for the block's size read as blockDim, gridDim read as
// the grid's expression, then a check of the thread's position against the
// launch's extent where the kernel has none.
llvm::ArrayRef<NormalizationPass> launchNormalizations();

struct Normalized {
  std::string UnitText;
  std::vector<std::string> Steps;    // What each pass that changed the unit did.
  std::vector<std::string> Refusals; // "scalar-replacement: line 9:7: ...".
};

// Runs Passes in order on In's unit, each on the previous one's output (one
// parse a pass). Results are remembered for the unit's text, arguments and
// options: the transforms of a family and their parameter points share them.
llvm::Expected<Normalized> normalizeUnit(const TransformInput &In,
                                         llvm::ArrayRef<NormalizationPass> Passes);

struct NormalizedRewrite {
  std::string UnitText;
  std::vector<std::string> Steps; // The normalizations it needed; empty for none.
};

// Edit on In's unit as it is; where that fails, Edit on the unit normalized by
// Passes. The error, where both fail, is Edit's on the normalized unit (or on
// the original where no pass changed anything) with the passes' refusals.
llvm::Expected<NormalizedRewrite> rewriteNormalized(const TransformInput &In,
                                                    llvm::ArrayRef<NormalizationPass> Passes,
                                                    UnitEdit Edit);

// The unit every chain of transforms on Kernel starts from: its text with the
// launch normalizations applied, or as it is where none changes it or the
// unit does not parse. Steps, where given, receives what they did.
std::string chainStart(const frontend::KernelSummary &Kernel,
                       const std::vector<std::string> &ClangArgs,
                       std::vector<std::string> *Steps = nullptr);

// "scalar-replaced C[i*N+j], then <Core>", or Core alone.
std::string chainSummary(const std::vector<std::string> &Steps, const std::string &Core);

} // namespace kopt::transform
