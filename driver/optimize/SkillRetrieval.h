// Long-term memory for one kernel's optimization. The skills engine's planner
// gets the skill library (each skill's yield model), the baseline's measured
// metrics and the experience store (agents/StepPlanner.h); the llm engine
// gets the skills whose predicates hold, ranked by their yield, with their
// guidance and the facts themselves in its planner's context.
#pragma once

#include "agents/LlmOptimizer.h"
#include "agents/StepPlanner.h"
#include "clang-plugin/model/KernelSummary.h"
#include "memory/experience/ExperienceStore.h"
#include "memory/experience/KernelFacts.h"

#include <llvm/Support/raw_ostream.h>

#include <string>
#include <vector>

namespace kopt::driver {

// The skills engine's planner inputs. Log (may be null) hears why the
// planner goes without skills where the library does not load.
agents::PlanInputs planInputs(const memory::ProfileMetrics &Metrics,
                              const memory::ExperienceStore &Experience, llvm::StringRef Device,
                              llvm::raw_ostream *Log);

// The planner's context: the kernel's kind and measured metrics as facts, and
// at most MaxSkills applicable skills with their guidance, best record first.
agents::LlmRetrieval llmRetrieval(const frontend::KernelSummary &K,
                                  const memory::ProfileMetrics &Metrics,
                                  const memory::ExperienceStore &Experience, llvm::raw_ostream *Log,
                                  size_t MaxSkills = 8);

} // namespace kopt::driver
