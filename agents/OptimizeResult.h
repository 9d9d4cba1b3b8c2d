// What both engines' loops return (docs/architecture.md#the-optimizers-loop):
// the original's baseline, every variant tried, and the fastest verified one. The driver
// turns it into a cache entry, `kopt optimize`'s table and kcc's notes, the
// same way whichever engine ran.
#pragma once

#include "clang-plugin/model/KernelVariant.h"
#include "evaluator/Evaluator.h"
#include "memory/cache/EntryReport.h"

#include <llvm/ADT/StringRef.h>

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace kopt::agents {

// One variant tried: the steps that made it and what the evaluator (or the
// reviewer, before it) said.
struct Attempt {
  // "smem-tiling:T=32" (a transform and its parameters), or for the llm
  // engine the planned skill: "vectorize", "vectorize:repair=1".
  std::vector<std::string> Steps;
  std::string Hash;
  evaluator::Verdict Result = evaluator::Verdict::Wrong;
  std::string Detail;
  double Speedup = 0, Seconds = 0; // Seconds since the loop started.
  // What the evaluation cost: its wall time (screen and confirmation), and how
  // the timing ended ("screen: ...; confirm: ..."). Zero where the reviewer
  // rejected the variant before any evaluation.
  double EvalSeconds = 0;
  std::string Timing;
  double ParentSpeedup = 1; // The speedup of the variant the last step was applied to.
  bool Evaluated = false;
};

// What the llm engine spent on one kernel.
struct LlmSpend {
  std::string Model;
  int64_t InputTokens = 0, OutputTokens = 0;
  double CostUsd = 0;
  bool Priced = false; // The model is in the price table (LlmPricing.h).
  unsigned Requests = 0;
};

struct OptimizeResult {
  evaluator::Baseline Original;
  std::vector<Attempt> Trajectory;
  // The fastest verified variant with a significant gain, if any.
  std::optional<frontend::KernelVariant> Best;
  std::vector<std::string> BestSteps;
  evaluator::VariantOutcome BestOutcome;
  double Seconds = 0;
  // Steps whose transform did not fit the code (a parse and more each, no
  // evaluation), and the time they took: where a short budget can go.
  unsigned UnfitSteps = 0;
  double UnfitSeconds = 0;
  // Every transform applied (those that fit too), and the time it took.
  unsigned Applies = 0;
  double ApplySeconds = 0;
  // Why each transform the original kernel was not offered to did not fit it
  // (Transform::offer's answer): the skills a report says were refused.
  std::map<std::string, std::string> NotOffered;
  std::string StopReason; // "evaluation budget spent", ... ("" : the search ran out of ideas).
  // Where the loop ran past its time budget to give the kernel its first
  // evaluations (EvaluationPace.h): why, in one line; else empty.
  std::string BudgetNote;
  std::optional<LlmSpend> Llm; // Set by the llm engine.
  // The best variant's profile (one launch, after the search), or why none.
  evaluator::Profile BestCounters = evaluator::Profile::unavailable("no variant");
  // What each transform did with the original (the skills engine's).
  std::optional<std::vector<memory::TransformNote>> Transforms;
};

using ProgressFn = std::function<void(const Attempt &, unsigned Index, double BestSpeedup)>;

// The content hash that short-term memory keys variants by: the unit's text
// and, where the variant remaps it, its launch.
std::string variantHash(llvm::StringRef Unit, const std::optional<frontend::LaunchMapping> &Launch);

} // namespace kopt::agents
