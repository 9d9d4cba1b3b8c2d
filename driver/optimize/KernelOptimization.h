// What `kopt optimize` and kcc's rewrite (on a cache miss) share: the cache
// key of an annotated kernel, and one kernel's optimization from its pragma
// to a cache entry.
#pragma once

#include "agents/KernelOptimizer.h"
#include "agents/LlmConfig.h"
#include "clang-plugin/parse/KernelFinder.h"
#include "driver/config/KoptOptions.h"
#include "driver/optimize/EngineSelection.h"
#include "evaluator/Evaluator.h"
#include "memory/CacheEntry.h"
#include "memory/CacheKey.h"

#include <llvm/Support/Error.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kopt::driver {

// The key's inputs (README, "The result cache"): the unit's hash, the pragma's
// clauses, the architecture, CUDA's version, the compile's code-generation
// flags and kopt's version.
memory::CacheKey cacheKeyFor(const frontend::KernelSummary &Kernel, llvm::StringRef Arch,
                             const std::vector<std::string> &NvccFlags, llvm::StringRef File);

struct KernelJob {
  const frontend::KernelSummary *Kernel = nullptr;
  std::string File;
  std::vector<std::string> NvccFlags, ClangArgs;
  std::string Engine = "skills";        // Resolved (EngineSelection.h): skills or llm.
  std::optional<agents::LlmConfig> Llm; // For llm.
  double BudgetSeconds = 120;           // The pragma's budget(...) overrides these.
  unsigned BudgetEvaluations = 40;
  int64_t BudgetTokens = 200000;          // The llm engine's.
  std::string ExperiencePath;             // The experience store (empty: in memory only).
  std::vector<std::string> RecordingDirs; // Where `kopt record` left recordings.
};

// A job for Kernel with the options' engine and budget (the pragma's engine
// clause first), its experience store in CacheDir (the user cache, where the
// store lives beside the entries). Fails where the engine is llm and it is not
// configured (EngineSelection.h).
llvm::Expected<KernelJob> jobFor(const frontend::KernelSummary &Kernel, std::string File,
                                 std::vector<std::string> NvccFlags,
                                 std::vector<std::string> ClangArgs, const KoptOptions &Options,
                                 llvm::StringRef CacheDir,
                                 const agents::EnvLookup &GetEnv = processEnvironment);

struct KernelJobResult {
  agents::OptimizeResult Optimized;
  memory::CacheEntry Entry;
};

// Runs the job's engine for one kernel on Eval and makes its cache entry.
// Progress: one line per variant to Log (null: quiet).
llvm::Expected<KernelJobResult>
optimizeForCache(const KernelJob &Job, evaluator::VariantEvaluator &Eval, llvm::raw_ostream *Log);

// "verified variant (smem-tiling:T=32), 4.21x faster on NVIDIA H100 80GB HBM3"
std::string describeEntry(const memory::CacheEntry &Entry);

} // namespace kopt::driver
