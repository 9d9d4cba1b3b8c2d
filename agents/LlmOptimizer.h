// The llm engine's loop of one kernel (docs/llm.md#the-loop), over the
// same machinery as the skills engine: the evaluator measures the original,
// and its profile with the skills that apply (long-term memory) go into the
// planner's context; the planner returns a grounded plan, the coder writes
// the variant, the debugger repairs one that fails to compile or verify (a
// bounded number of times), the reviewer rejects cheats before evaluation,
// and the evaluator verifies and times. Every outcome enters the trajectory
// the next planner call sees; no variant is evaluated twice (content hash);
// later rounds build on the fastest verified variant. Budget: wall time,
// evaluations and tokens.
#pragma once

#include "agents/LlmChatModel.h"
#include "agents/LlmPrompts.h"
#include "agents/OptimizeResult.h"
#include "clang-plugin/model/KernelSummary.h"
#include "clang-plugin/transforms/framework/Transform.h"
#include "evaluator/Evaluator.h"

#include <llvm/Support/Error.h>

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace kopt::agents {

struct LlmBudget {
  double Seconds = 120;
  unsigned Evaluations = 100;
  int64_t Tokens = 200000; // Input and output, every role's.
  unsigned Repairs = 2;    // Debugger calls for one planned variant.
  unsigned IdleRounds = 3; // Rounds in a row with nothing new to evaluate end the search.
};

// What long-term memory gives the planner once the original is measured.
struct LlmRetrieval {
  std::vector<std::pair<std::string, std::string>> Profile; // Fact name, value.
  std::vector<PromptSkill> Skills; // The skills that apply, best record first.
};

struct LlmRequest {
  const frontend::KernelSummary *Kernel = nullptr;
  evaluator::Workload Work;
  // The original as the evaluator compiles it; a variant replaces its Code.
  evaluator::KernelSource Source;
  std::vector<std::string> ClangArgs; // For the front end's parses of variants.
  LlmBudget Budget;
  std::string Model;                 // For the account (OptimizeResult::Llm).
  transform::TransformPolicy Policy; // What the user allows beyond exact results.
  std::function<LlmRetrieval(const evaluator::Baseline &)> Retrieve;
  // One line for each step that is not an attempt: a plan, a repair, a reply
  // without code, a duplicate skipped, the tokens of each call.
  std::function<void(llvm::StringRef)> Note;
};

// Fails where the evaluator cannot measure the original, where the model's
// API fails before any variant was verified faster (a result that says
// nothing about the kernel is not worth caching), or where the evaluator
// itself breaks.
llvm::Expected<OptimizeResult> optimizeWithLlm(const LlmRequest &Request, ChatModel &Model,
                                               evaluator::VariantEvaluator &Eval,
                                               const ProgressFn &Progress = {});

} // namespace kopt::agents
