// The skills engine's planner: what one more try of a transform, at one
// parameter point, on one variant is worth, so that the search spends its
// evaluations where the yield is. The value of a step is its expected log
// speedup (memory/skills/SkillYield.h): the probability of a significant win times
// the log of the gain when it wins.
//
// - The prior is the skill's yield model (its YAML's likelihood, typical
//   speedup and `expect` cases) over the variant's static facts and the
//   original's profile: no list of transform ids in code, so a new transform
//   with its skill file is planned like the others.
// - Experience moves it: earlier tries of the step on kernels with similar
//   facts (ExperienceStore::evidenceFor: across the kernels of this build and
//   earlier builds), the same parameter point counting fully and the
//   transform's other points half; and this run's own tries of the step.
// - A normalization (a skill that `enables` others) is worth, besides its own
//   yield, its chance of unblocking an enabled transform that does not fit
//   the variant as it is.
#pragma once

#include "agents/OptimizeResult.h"
#include "clang-plugin/model/KernelFeatures.h"
#include "clang-plugin/transforms/framework/Transform.h"
#include "memory/experience/ExperienceStore.h"
#include "memory/skills/SkillLibrary.h"

#include <llvm/ADT/STLFunctionalExtras.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace kopt::agents {

// What the planner reads, from the driver once the original is measured.
struct PlanInputs {
  std::shared_ptr<const memory::SkillLibrary> Skills; // Null: every step on the default prior.
  memory::ProfileMetrics Metrics;                     // The original's measured facts.
  const memory::ExperienceStore *Experience = nullptr;
  std::string Device;
};

// "factor=4,loop=0": a parameter point as the experience store keys it.
std::string paramsText(const transform::ParamSet &P);

class StepPlanner {
public:
  StepPlanner(PlanInputs In, const frontend::KernelFeatures &Original,
              std::vector<std::string> Forced);

  // Where Transform does not fit the variant at hand (no parameter point, or
  // none that applies).
  using BlockedFn = llvm::function_ref<bool(llvm::StringRef Transform)>;

  // A variant's facts for value(): its static facts with the original's profile.
  memory::Facts factsOf(const frontend::KernelFeatures &Node) const;

  // The expected log speedup of one try of T at Point, the Index-th of its
  // points in the transform's own order, on a variant with facts NodeFacts.
  // Forced transforms (skills(+id)) come before all others.
  double value(const transform::Transform &T, const transform::ParamSet &Point, size_t Index,
               const memory::Facts &NodeFacts, BlockedFn Blocked) const;

  // The log of the gain T at Point makes where it wins (its yield's speedup,
  // moved by experience as value() is): what a step could make up of its
  // node's lag behind the best variant.
  double winGain(const transform::Transform &T, const transform::ParamSet &Point,
                 const memory::Facts &NodeFacts) const;

  // The outcome of a try in this run: a win is a verified gain of at least
  // memory::MinWinGain over the variant the step was applied to.
  void observe(llvm::StringRef Transform, const transform::ParamSet &Point, bool Win, double Gain);

  // The skill behind a transform (same id), if the library has it.
  const memory::Skill *skillOf(llvm::StringRef Transform) const;
  // The transforms whose skills can make Transform applicable (`enables`):
  // where one of them fits a new variant, the search checks early whether
  // Transform fits it as it stands.
  std::vector<std::string> enablersOf(llvm::StringRef Transform) const;
  const memory::FactVector &facts() const { return Vector; }

private:
  memory::Yield prior(llvm::StringRef Transform, const memory::Facts &NodeFacts) const;
  // The prior moved by the evidence for Transform at Point: what value() and
  // winGain() read.
  memory::Yield posterior(llvm::StringRef Transform, const transform::ParamSet &Point,
                          const memory::Facts &NodeFacts) const;
  memory::Evidence evidence(llvm::StringRef Transform, const std::string &Params) const;

  using EvidenceByPoint = std::map<std::string, memory::Evidence, std::less<>>;
  PlanInputs In;
  std::vector<std::string> Forced;
  memory::FactVector Vector; // The original's, for similarity.
  // The store's observations, weighed once against this kernel: transform ->
  // params -> evidence; and this run's own tries, the same way.
  std::map<std::string, EvidenceByPoint, std::less<>> Earlier, Tried;
};

// How the experience store counts a verdict.
memory::Outcome experienceOutcome(evaluator::Verdict V);

// A loop's attempts as observations for the experience store: each one's last
// step (skill and parameters), its gain over the variant it was applied to,
// on a kernel with Facts. VerifiedOnly keeps only verified attempts (the llm
// engine's: its failures say more about the model's code than the skill).
std::vector<memory::Observation> observationsFrom(const OptimizeResult &O,
                                                  const memory::FactVector &Facts,
                                                  llvm::StringRef Kind, bool VerifiedOnly);

} // namespace kopt::agents
