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

// One case of a skill's yield model (skills/README.md, "expect"): on kernels
// where When holds, the skill wins significantly with probability Likelihood,
// by Speedup when it does.
struct SkillExpectation {
  Predicate When = Predicate::always();
  double Speedup = 1.1, Likelihood = 0.3;
};

struct Skill {
  std::string Id, Title, Category;
  Predicate When = Predicate::always();
  std::string Guidance; // For the llm engine's prompt: what to change and how.
  std::vector<SkillEffect> Effects;
  std::string Risks;
  std::optional<std::string> Transform; // A mechanical transform's id.
  std::vector<SkillParam> Params;
  // The speedup expected where it applies, and how likely a significant win
  // is: the planner's prior (SkillYield.h) where no case of Expect holds.
  double TypicalSpeedup = 1.1;
  double Likelihood = 0.3;
  std::vector<SkillExpectation> Expect; // The first case that holds gives the prior.
  // Skills whose transforms this skill's transform can make applicable (a
  // normalization before the idiom it exposes): "file:line:col" of each, for errors.
  std::vector<std::string> Enables, EnablesAt;
  // Why the skill has no transform: it stays guidance for the llm engine.
  // A skill has a transform or this, never both.
  std::string GuidanceOnly;
  std::string File; // Where it was loaded from.
};

} // namespace kopt::memory
