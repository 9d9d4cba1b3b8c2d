// Long-term memory for one kernel's optimization: the skills whose predicates
// hold for its static facts and its baseline's measured metrics, ranked by
// the experience store (memory/SkillLibrary.h). The skills engine takes their
// transforms in that order; the llm engine gets the skills' guidance and the
// facts themselves in its planner's context.
#pragma once

#include "agents/LlmOptimizer.h"
#include "clang-plugin/parse/KernelFinder.h"
#include "memory/ExperienceStore.h"
#include "memory/KernelFacts.h"

#include <llvm/Support/raw_ostream.h>

#include <string>
#include <vector>

namespace kopt::driver {

// The transforms of the applicable skills, best record first. Log (may be
// null) hears why there are none where the library does not load.
std::vector<std::string> rankedTransforms(const frontend::KernelSummary &K,
                                          const memory::ProfileMetrics &Metrics,
                                          const memory::ExperienceStore &Experience,
                                          llvm::raw_ostream *Log);

// The planner's context: the kernel's kind and measured metrics as facts, and
// at most MaxSkills applicable skills with their guidance, best record first.
agents::LlmRetrieval llmRetrieval(const frontend::KernelSummary &K,
                                  const memory::ProfileMetrics &Metrics,
                                  const memory::ExperienceStore &Experience, llvm::raw_ostream *Log,
                                  size_t MaxSkills = 8);

} // namespace kopt::driver
