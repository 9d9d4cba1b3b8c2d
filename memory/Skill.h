// One skill of the library: a piece of optimization knowledge read from
// skills/<id>.yaml (the schema is in skills/README.md).
#pragma once

#include "memory/SkillPredicate.h"

#include <optional>
#include <string>
#include <vector>

namespace kopt::memory {

// The metric change a skill should cause: "dram_throughput_pct up".
struct SkillEffect {
  std::string Metric; // A measured fact's name (knownFacts(), Metric).
  bool Up = false;
};

// A tunable parameter of a skill's transform and the values worth trying.
struct SkillParam {
  std::string Name;
  std::vector<std::string> Values;
};

struct Skill {
  std::string Id, Title, Category;
  Predicate When = Predicate::always();
  std::string Guidance; // For the llm engine's prompt: what to change and how.
  std::vector<SkillEffect> Effects;
  std::string Risks;
  std::optional<std::string> Transform; // A mechanical transform's id.
  std::vector<SkillParam> Params;
  // The speedup expected where it applies: the prior of the ranking
  // (ExperienceStore.h) before the skill has a record.
  double TypicalSpeedup = 1.1;
  std::string File; // Where it was loaded from.
};

} // namespace kopt::memory
