// What a skill is worth trying on one kernel, for the planner: the
// probability of a significant win and the speedup it brings when it wins.
// The prior comes from the skill's yield model over the kernel's facts
// (skills/README.md, "expect"); experience (ExperienceStore.h) moves it.
//
//   likelihood = (wins + K * prior likelihood) / (tries + K)       K = 2
//   log gain   = (sum of ln gain over wins + ln prior speedup) / (wins + 1)
//   value      = likelihood * log gain    (the expected log speedup of one try)
//
// Wins and tries may be weighted (by similarity of kernels), so they are reals.
// With a prior likelihood of 0.5 this is ExperienceStore's ranking score.
#pragma once

#include "memory/KernelFacts.h"
#include "memory/Skill.h"

namespace kopt::memory {

struct Yield {
  double Likelihood = 0.3, Speedup = 1.1;
  double value() const; // Likelihood * ln(Speedup), never negative.
};

// Outcomes of earlier tries, each with a weight.
struct Evidence {
  double Tries = 0, Wins = 0, SumLogGain = 0; // SumLogGain over wins.
  void add(double Weight, bool Win, double Gain);
  void add(const Evidence &Other);
};

// The skill's prior on a kernel with facts F: the first `expect` case whose
// predicate holds, else the skill's own likelihood and typical speedup. Where
// the skill's `when` does not hold, a quarter of that likelihood is left:
// its transform, not the predicate, decides whether it fits.
Yield priorYield(const Skill &S, const Facts &F);

// The prior moved by the evidence (the formula above).
Yield posteriorYield(const Yield &Prior, const Evidence &E);

} // namespace kopt::memory
