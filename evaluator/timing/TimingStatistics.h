// Statistics over kernel time samples: robust summaries, a noise estimate for
// deciding when enough samples were taken, and a one-sided rank test for
// deciding whether a variant is faster.
#pragma once

#include <llvm/ADT/ArrayRef.h>

#include <vector>

namespace kopt::evaluator {

struct TimingSummary {
  unsigned Samples = 0;
  double MedianMs = 0, P20Ms = 0, P80Ms = 0, MinMs = 0;
  double RelativeNoise = 0; // Standard error of the median over the median.
};

// Linear interpolation between order statistics; Q in [0, 1].
double quantile(std::vector<double> Sorted, double Q);
TimingSummary summarize(llvm::ArrayRef<double> SamplesMs);

// One-sided Mann-Whitney U test: the probability of seeing Candidate's
// samples this much smaller than Baseline's if both came from one
// distribution. Small: Candidate is faster. Exact (the U statistic's null
// distribution) for up to 50 samples a side without ties; otherwise the
// normal approximation with tie and continuity corrections.
double fasterPValue(llvm::ArrayRef<double> BaselineMs, llvm::ArrayRef<double> CandidateMs);

struct SpeedDecision {
  double Speedup = 1;  // Baseline median / candidate median.
  double PValue = 1;   // fasterPValue.
  bool Faster = false; // Significant (p < Alpha) and at least MinGain.
};

// Faster only when significant and the median gain is at least MinGain (2%:
// below that, a cached variant is not worth its risk).
SpeedDecision decideFaster(llvm::ArrayRef<double> BaselineMs, llvm::ArrayRef<double> CandidateMs,
                           double Alpha = 0.01, double MinGain = 1.02);

} // namespace kopt::evaluator
