#include "memory/SkillYield.h"

#include <algorithm>
#include <cmath>

namespace kopt::memory {

namespace {
constexpr double PriorStrength = 2; // K: the prior counts as two tries.
// What is left where `when` does not hold: little, so that a skill with a large
// typical gain (a parallelism transform on a kernel that already fills the GPU)
// does not come before the steps that fit the kernel.
constexpr double NotApplicable = 0.1;
} // namespace

double Yield::value() const { return Likelihood * std::log(std::max(Speedup, 1.0)); }

void Evidence::add(double Weight, bool Win, double Gain) {
  Tries += Weight;
  if (Win && Gain > 0) {
    Wins += Weight;
    SumLogGain += Weight * std::log(Gain);
  }
}

void Evidence::add(const Evidence &Other) {
  Tries += Other.Tries;
  Wins += Other.Wins;
  SumLogGain += Other.SumLogGain;
}

Yield priorYield(const Skill &S, const Facts &F) {
  Yield Y{S.Likelihood, S.TypicalSpeedup};
  for (const SkillExpectation &E : S.Expect)
    if (E.When.holds(F)) {
      Y = {E.Likelihood, E.Speedup};
      break;
    }
  if (!S.When.holds(F))
    Y.Likelihood *= NotApplicable;
  return Y;
}

Yield posteriorYield(const Yield &Prior, const Evidence &E) {
  Yield Y;
  Y.Likelihood = (E.Wins + PriorStrength * Prior.Likelihood) / (E.Tries + PriorStrength);
  double LogGain = (E.SumLogGain + std::log(std::max(Prior.Speedup, 1.0))) / (E.Wins + 1);
  Y.Speedup = std::exp(LogGain);
  return Y;
}

} // namespace kopt::memory
