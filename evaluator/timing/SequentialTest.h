// When to stop timing a variant against the original: a group-sequential test
// on the interleaved (ABBA) samples, looked at after fixed numbers of samples
// a side, so that a variant that is clearly slower or clearly faster costs a
// few samples instead of the whole measurement.
//
// "Faster" keeps the single test's meaning (one-sided Mann-Whitney p < 0.01
// and a median gain of at least 2%) under optional stopping by spending the
// 1% over the looks (Bonferroni): look k rejects at p < Alpha / K, K looks in
// all, so P(some look calls an equal variant faster) <= Alpha whatever the
// stopping. The p-values are exact (TimingStatistics.h) where it matters, at
// the first looks, so the bound is not an approximation there. Looks are only
// where a rejection is possible: 6 samples a side is the first (complete
// separation has p = 1/924 < 0.01 / 9).
//
// "Clearly slower" (futility) tests the other side: the variant's samples
// scaled by MinGain against the original's. It stops a variant whose gain is
// below 2% with evidence p < Beta / looks at one look, so a variant that is
// really MinGain faster is stopped as not faster with probability <= Beta over
// all looks (5%); one with a larger gain less often. It costs a missed gain,
// never a wrong result, so its level is looser.
//
// Screening (the planner's first measurement of a variant) uses the same looks
// with the futility bound both ways: "promising" (worth the full test) or not
// faster; when the screen's samples run out, the median estimate decides.
// Only a confirmation (the full test above, on fresh samples) calls a variant
// faster, so selecting the best of many screened variants does not inflate
// the false-positive rate of the one that is confirmed.
#pragma once

#include "evaluator/timing/TimingStatistics.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>

#include <cstdint>
#include <string>
#include <vector>

namespace kopt::evaluator {

struct SequentialDesign {
  double Alpha = 0.01;   // False "faster" over all looks.
  double MinGain = 1.02; // The smallest gain worth a variant.
  double Beta = 0.05;    // Futility (and promise) error over all looks.
  // Samples a side at which "faster" may be called; futility looks also at FirstLook.
  std::vector<unsigned> FasterLooks = {6, 8, 12, 20, 32, 50, 80, 125, 200};
  unsigned FirstLook = 5;

  double alphaPerLook() const { return Alpha / static_cast<double>(FasterLooks.size()); }
  double betaPerLook() const { return Beta / static_cast<double>(FasterLooks.size() + 1); }
  bool isLook(unsigned N) const;
};

enum class TimingStage : uint8_t {
  Full,    // Verification and the whole sequential test: faster or not (the default).
  Screen,  // Verification and a short measurement: promising or not faster.
  Confirm, // The whole sequential test of a variant verified before: faster or not.
};
llvm::StringRef spelling(TimingStage S); // "full", "screen", "confirm"

enum class SequentialCall : uint8_t { Continue, Faster, NotFaster, Promising };

struct LookDecision {
  SequentialCall Call = SequentialCall::Continue;
  double Speedup = 0;   // Original median / variant median.
  double PFaster = 1;   // One-sided: the variant is faster.
  double PNotGain = 1;  // One-sided: the variant gains less than MinGain.
  double PGain = 1;     // One-sided: the variant gains more than MinGain.
  unsigned Samples = 0; // A side, at the look.
  std::string Why;      // "faster at 6 samples a side (p 0.0011 < 0.0011)", ...
};

// One look at Original and Variant (equal counts; the smaller one is used).
// Final: the measurement ends here (samples, time or noise ran out): the call
// is then never Continue.
LookDecision lookAt(const SequentialDesign &D, TimingStage Stage, llvm::ArrayRef<double> Original,
                    llvm::ArrayRef<double> Variant, bool Final);

// A screen from the verification runs, for kernels too slow to time within a
// screen's seconds: Original[i] and Variant[i] are one run each on input set
// i (the same procedure: inputs generated, outputs poisoned, one launch).
// Promising where the median of the per-set speedups reaches MinGain. Its
// error is the estimate's: with run-to-run noise s (relative), a variant of
// gain g is screened out with probability about Phi(ln(MinGain / g) / s).
LookDecision screenFromRuns(const SequentialDesign &D, llvm::ArrayRef<double> Original,
                            llvm::ArrayRef<double> Variant);

// Kernels too long to time interleaved within a screen's seconds (over 100 ms
// at the defaults: runTimed) are timed on their runs: the original's pool,
// measured once an optimization (its runs on each input set and a few timed
// samples, PooledBaselineRuns in all), against each variant's verification
// runs and, where those do not decide, as many timed runs as the next look
// needs. A looks once the verification runs are in (futility only), then at
// 4 and 6 runs (faster at p < Alpha / 2 each, exact: 4 runs all below a pool
// of 6 have p = 1/210). So a variant costs its verification runs and at most
// 3 more, and the original none.
bool runTimed(const SequentialDesign &D, double OriginalMs, double ScreenSeconds);
SequentialDesign pooledDesign();
inline constexpr unsigned PooledBaselineRuns = 6;
inline constexpr unsigned PooledMaxRuns = 6; // A variant's, verification runs included.

// One look at a variant's runs against the original's pool (sizes may
// differ): the look is at the variant's count. Final: no runs follow.
LookDecision lookAtPool(const SequentialDesign &D, TimingStage Stage, llvm::ArrayRef<double> Pool,
                        llvm::ArrayRef<double> Variant, bool Final);

// The sampling plan of a run-timed kernel's full test or confirmation: after
// each run of the variant (its verification runs first, then timed runs),
// next() says whether to stop; decision() then holds the call. It stops at
// PooledMaxRuns at the latest (later runs are not looked at).
class PooledTiming {
public:
  PooledTiming(TimingStage S, std::vector<double> OriginalPool)
      : Stage(S), Pool(std::move(OriginalPool)) {}
  bool next(llvm::ArrayRef<double> Runs);
  const LookDecision &decision() const { return Last; }

private:
  SequentialDesign Design = pooledDesign();
  TimingStage Stage;
  std::vector<double> Pool;
  LookDecision Last;
};

// The sampling plan around lookAt: after each round of the interleaved
// measurement, next() says whether to stop. The measurement ends at a look
// where the test decides, or where the noise target is met or the time or
// sample limit is reached (the last only at looks, and for Full and Confirm
// not before the first look that can call a variant faster).
class SequentialTiming {
public:
  struct Limits {
    unsigned MaxSamples = 200; // A side.
    double MaxSeconds = 3;
    double TargetNoise = 0.01; // Relative standard error of both medians.
  };
  SequentialTiming(SequentialDesign D, TimingStage S, Limits L)
      : Design(std::move(D)), Stage(S), Lim(L) {}

  // True when the measurement should stop; decision() then holds the call.
  bool next(llvm::ArrayRef<double> Original, llvm::ArrayRef<double> Variant, double Seconds);
  const LookDecision &decision() const { return Last; }

private:
  SequentialDesign Design;
  TimingStage Stage;
  Limits Lim;
  LookDecision Last;
};

} // namespace kopt::evaluator
