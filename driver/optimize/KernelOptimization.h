// What `kopt optimize` and kcc's rewrite (on a cache miss) share: the cache
// key of an annotated kernel, and one kernel's optimization from its pragma
// to a cache entry.
#pragma once

#include "agents/KernelOptimizer.h"
#include "agents/LlmConfig.h"
#include "clang-plugin/model/KernelSummary.h"
#include "driver/config/KoptOptions.h"
#include "driver/optimize/EngineSelection.h"
#include "evaluator/Evaluator.h"
#include "memory/cache/CacheEntry.h"
#include "memory/cache/CacheKey.h"
#include "memory/cache/ResultCache.h"
#include "memory/experience/ExperienceStore.h"
#include "support/UtcDate.h"

#include <llvm/Support/Error.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kopt::driver {

// The key's inputs (docs/cache.md#the-key): the unit's hash and
// environment, the pragma's clauses, the real target architecture Arch, CUDA's
// version, the compile's device code-generation flags (NvccDeviceFlags.h) and
// kopt's version. NvccFlags: the compile's flags as kcc passes them on.
// DeviceModel: empty for the architecture's key, else the key for one GPU
// model (memory/cache/CacheKey.h).
memory::CacheKeyInputs cacheKeyInputsFor(const frontend::KernelSummary &Kernel,
                                         llvm::StringRef Arch,
                                         const std::vector<std::string> &NvccFlags,
                                         llvm::StringRef DeviceModel = "");
memory::CacheKey cacheKeyFor(const frontend::KernelSummary &Kernel, llvm::StringRef Arch,
                             const std::vector<std::string> &NvccFlags,
                             llvm::StringRef DeviceModel = "");

// Where an entry made now on a GPU of model Model goes: the architecture's
// key (what builds without a GPU look up), unless the local caches hold an
// entry there made on another model, which keeps it; then Model's own key
// (docs/gpus.md, "GPU models").
memory::CacheKey storeKeyFor(const frontend::KernelSummary &Kernel, llvm::StringRef Arch,
                             const std::vector<std::string> &NvccFlags, llvm::StringRef Model,
                             const memory::ResultCache &Cache);

struct KernelJob {
  const frontend::KernelSummary *Kernel = nullptr;
  std::string File;
  std::vector<std::string> NvccFlags, ClangArgs;
  std::string Engine = "skills";        // Resolved (EngineSelection.h): skills or llm.
  std::optional<agents::LlmConfig> Llm; // For llm.
  double BudgetSeconds = 120;           // The pragma's budget(...) overrides these.
  double MaxSeconds = 1e300; // What the build has left (its build budget): caps the time.
  unsigned BudgetEvaluations = 100;
  int64_t BudgetTokens = 200000; // The llm engine's.
  std::string ExperiencePath;    // The experience store (empty: in memory only).
  // What the loop plans from, where set: the store as a run found it, shared
  // by the run's kernels so that their results depend neither on their order
  // nor on how many GPUs ran them (`kopt optimize`). Outcomes are recorded
  // to ExperiencePath either way.
  std::shared_ptr<const memory::ExperienceStore> Experience;
  std::vector<std::string> RecordingDirs; // Where `kopt record` left recordings.
  transform::TransformPolicy Policy;      // NumericsPolicy.h: approximate math or not.
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

// The wall time the job may take: the pragma's budget(time = ...) over the
// options', capped by MaxSeconds.
double jobSeconds(const KernelJob &Job);

struct KernelJobResult {
  agents::OptimizeResult Optimized;
  memory::CacheEntry Entry;
};

// Runs the job's engine for one kernel on Eval and makes its cache entry.
// Progress: one line per variant to Log (null: quiet).
llvm::Expected<KernelJobResult>
optimizeForCache(const KernelJob &Job, evaluator::VariantEvaluator &Eval, llvm::raw_ostream *Log);

// A weighted timing (evaluator VariantOutcome::Weighted, or a baseline's):
// "1.84x of the application's time, 3 recorded launches timed (#0 41% 2.01x,
// #40 33% 1.80x, #79 26% 1.66x) for 100 launches of the application".
std::string describeWeighted(const nlohmann::json &Weighted);

// What the loop spent, from the entry's timing.evaluations: "7 evaluations in
// 31.2 s (mean 4.46 s, longest 9.10 s; loop 58.3 s)". Empty for an entry
// without that summary (written before it existed).
std::string describeEvaluations(const memory::CacheEntry &Entry);

// Where the evaluator shortened W's verification chain (Baseline::Chain):
// what it did and why; else "".
std::string shortenedChain(const evaluator::Workload &W, const evaluator::Baseline &B);

} // namespace kopt::driver
