// The sequential timing test (evaluator/timing/SequentialTest.h) on synthetic
// samples: its decisions at each look, where it stops, and its error rates
// over many seeds: an equal variant is called faster in at most 1% of runs,
// and a variant that truly gains the minimum is stopped as not faster in at
// most the futility level's 5%.
#include "evaluator/timing/SequentialTest.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <functional>
#include <random>

using namespace kopt::evaluator;

namespace {

using Sampler = std::function<double(std::mt19937 &)>;

// Kernel times around Ms with lognormal noise Sigma and, with probability
// Outliers, a slow sample (an interrupt, a clock dip) up to 30% longer.
Sampler timeAround(double Ms, double Sigma, double Outliers = 0) {
  return [=](std::mt19937 &Rng) {
    std::normal_distribution<double> Noise(0, Sigma);
    std::uniform_real_distribution<double> U(0, 1);
    double T = Ms * std::exp(Noise(Rng));
    if (U(Rng) < Outliers)
      T *= 1 + 0.3 * U(Rng);
    return T;
  };
}

// Event-timer resolution: times rounded to Step (many ties for short kernels).
Sampler quantized(Sampler S, double Step) {
  return [=](std::mt19937 &Rng) { return std::round(S(Rng) / Step) * Step; };
}

struct Measured {
  LookDecision Decision;
  unsigned Rounds = 0;
};

// One measurement as the worker makes it: rounds of one sample a side (ABBA
// order does not matter to the samples here), each costing the two samples'
// time, until the plan stops.
Measured simulate(TimingStage Stage, const Sampler &Original, const Sampler &Variant, unsigned Seed,
                  SequentialTiming::Limits Limits = {}) {
  std::mt19937 Rng(Seed);
  SequentialTiming Plan(SequentialDesign(), Stage, Limits);
  std::vector<double> O, V;
  double Seconds = 0;
  Measured R;
  for (unsigned Round = 0; Round < Limits.MaxSamples; ++Round) {
    O.push_back(Original(Rng));
    V.push_back(Variant(Rng));
    Seconds += (O.back() + V.back()) / 1000;
    R.Rounds = Round + 1;
    if (Plan.next(O, V, Seconds))
      break;
  }
  R.Decision = Plan.decision();
  return R;
}

// How often Stage ends in Call over Seeds runs.
double rate(SequentialCall Call, TimingStage Stage, const Sampler &Original, const Sampler &Variant,
            unsigned Seeds, SequentialTiming::Limits Limits = {}) {
  unsigned Hits = 0;
  for (unsigned S = 0; S < Seeds; ++S)
    Hits += simulate(Stage, Original, Variant, 1000 + S, Limits).Decision.Call == Call;
  return double(Hits) / Seeds;
}

TEST(MannWhitney, ExactTailsForSmallSamplesWithoutTies) {
  // Complete separation: 1 / C(2n, n).
  EXPECT_NEAR(fasterPValue({4, 5, 6}, {1, 2, 3}), 1.0 / 20, 1e-12);
  EXPECT_NEAR(fasterPValue({7, 8, 9, 10, 11, 12}, {1, 2, 3, 4, 5, 6}), 1.0 / 924, 1e-12);
  // One swapped pair: 2 / C(6, 3).
  EXPECT_NEAR(fasterPValue({3, 5, 6}, {1, 2, 4}), 2.0 / 20, 1e-12);
  // Unequal sizes: the candidate's single sample below all 4: 1 / 5.
  EXPECT_NEAR(fasterPValue({2, 3, 4, 5}, {1}), 1.0 / 5, 1e-12);
  // The other direction: certain.
  EXPECT_NEAR(fasterPValue({1, 2, 3}, {4, 5, 6}), 1.0, 1e-12);
  // Ties fall back to the normal approximation, still a probability.
  double P = fasterPValue({1, 1, 2, 2}, {1, 1, 1, 1});
  EXPECT_GT(P, 0.0);
  EXPECT_LE(P, 1.0);
}

TEST(MannWhitney, ExactAndNormalAgreeNearTheLimit) {
  std::mt19937 Rng(3);
  std::normal_distribution<double> N(1, 0.05);
  std::vector<double> A, B;
  for (int I = 0; I < 50; ++I) {
    A.push_back(N(Rng));
    B.push_back(N(Rng) * 0.98);
  }
  double Exact = fasterPValue(A, B);
  A.push_back(N(Rng)); // 51: the normal approximation.
  B.push_back(N(Rng) * 0.98);
  double Normal = fasterPValue(A, B);
  EXPECT_NEAR(Exact, Normal, 0.05);
}

TEST(SequentialLook, DecisionsAtEachLook) {
  SequentialDesign D;
  std::vector<double> O = {10, 10.1, 9.9, 10.2, 9.8, 10.05};
  std::vector<double> Half = {5, 5.1, 4.9, 5.05, 4.95, 5.02};
  std::vector<double> Double = {20, 20.1, 19.9, 20.2, 19.8, 20.05};

  // Twice as fast: faster at the first look where that is possible (6 a side).
  LookDecision L = lookAt(D, TimingStage::Confirm, O, Half, false);
  EXPECT_EQ(L.Call, SequentialCall::Faster) << L.Why;
  EXPECT_NEAR(L.Speedup, 2, 0.05);
  EXPECT_NEAR(L.PFaster, 1.0 / 924, 1e-9);
  // At 5 a side no p-value can reach 0.01 / 9: it goes on.
  L = lookAt(D, TimingStage::Confirm, llvm::ArrayRef(O).take_front(5),
             llvm::ArrayRef(Half).take_front(5), false);
  EXPECT_EQ(L.Call, SequentialCall::Continue) << L.Why;
  // Twice as slow: clearly not faster already at 5 a side.
  L = lookAt(D, TimingStage::Confirm, llvm::ArrayRef(O).take_front(5),
             llvm::ArrayRef(Double).take_front(5), false);
  EXPECT_EQ(L.Call, SequentialCall::NotFaster) << L.Why;
  EXPECT_NE(L.Why.find("clearly not 1.02x faster at 5 samples"), std::string::npos) << L.Why;
  // Not a look (7): nothing is called.
  std::vector<double> O7 = O, H7 = Half;
  O7.push_back(10);
  H7.push_back(5);
  EXPECT_EQ(lookAt(D, TimingStage::Confirm, O7, H7, false).Call, SequentialCall::Continue);

  // A screen never calls faster: promising.
  L = lookAt(D, TimingStage::Screen, llvm::ArrayRef(O).take_front(5),
             llvm::ArrayRef(Half).take_front(5), false);
  EXPECT_EQ(L.Call, SequentialCall::Promising) << L.Why;
  // A screen that runs out decides by the estimate.
  std::vector<double> Slightly = {9.6, 9.9, 9.5, 10.0, 9.6, 9.7};
  EXPECT_EQ(lookAt(D, TimingStage::Screen, O, Slightly, true).Call, SequentialCall::Promising);
  EXPECT_EQ(lookAt(D, TimingStage::Screen, O, O, true).Call, SequentialCall::NotFaster);
  // A confirmation that runs out without significance: not faster.
  EXPECT_EQ(lookAt(D, TimingStage::Confirm, O, O, true).Call, SequentialCall::NotFaster);
}

TEST(SequentialLook, UnderTheMinimumGainIsNeverFaster) {
  SequentialDesign D;
  std::vector<double> O, V;
  for (int I = 0; I < 20; ++I) {
    O.push_back(10 + 0.001 * I);
    V.push_back(9.9 + 0.001 * I); // 1% faster, perfectly separated.
  }
  LookDecision L = lookAt(D, TimingStage::Full, O, V, true);
  EXPECT_LT(L.PFaster, 1e-6);
  EXPECT_EQ(L.Call, SequentialCall::NotFaster) << L.Why;
}

TEST(SequentialTiming, StopsEarlyWhenClear) {
  // A 1 ms kernel: a variant at 0.5 ms is faster after 6 rounds, one at 2 ms
  // is out after 5; an equal one runs until its medians are precise.
  Sampler O = timeAround(1, 0.02);
  Measured Fast = simulate(TimingStage::Full, O, timeAround(0.5, 0.02), 1);
  EXPECT_EQ(Fast.Decision.Call, SequentialCall::Faster);
  EXPECT_EQ(Fast.Rounds, 6u);
  Measured Slow = simulate(TimingStage::Full, O, timeAround(2, 0.02), 1);
  EXPECT_EQ(Slow.Decision.Call, SequentialCall::NotFaster);
  EXPECT_EQ(Slow.Rounds, 5u);
  Measured Same = simulate(TimingStage::Full, O, O, 1);
  EXPECT_EQ(Same.Decision.Call, SequentialCall::NotFaster);
  EXPECT_EQ(Same.Rounds, 6u); // Medians within 1% at once.
  Sampler Noisy = timeAround(1, 0.05);
  Measured Long = simulate(TimingStage::Full, Noisy, Noisy, 1);
  EXPECT_EQ(Long.Decision.Call, SequentialCall::NotFaster);
  EXPECT_GE(Long.Rounds, 32u); // 5% noise: 1% medians need about 40 samples.
}

TEST(SequentialTiming, TimeLimitEndsAtALookThatCanDecide) {
  // A 1 s kernel with a 3 s limit: a confirmation still reaches 6 samples
  // a side (where "faster" is possible), a screen stops at its first look.
  SequentialTiming::Limits L;
  L.MaxSeconds = 3;
  Measured Confirm =
      simulate(TimingStage::Confirm, timeAround(1000, 0.005), timeAround(1000 / 1.10, 0.005), 1, L);
  EXPECT_EQ(Confirm.Decision.Call, SequentialCall::Faster) << Confirm.Decision.Why;
  EXPECT_EQ(Confirm.Rounds, 6u);
  Measured Screen =
      simulate(TimingStage::Screen, timeAround(1000, 0.005), timeAround(1000 / 1.01, 0.005), 1, L);
  EXPECT_EQ(Screen.Decision.Call, SequentialCall::NotFaster) << Screen.Decision.Why;
  EXPECT_EQ(Screen.Rounds, 5u);
}

// The error rates, over many seeds and several noise shapes.
struct Shape {
  const char *Name;
  Sampler Make; // Around 1 ms.
  Sampler Gained(double G) const {
    Sampler S = Make;
    return [S, G](std::mt19937 &Rng) { return S(Rng) / G; };
  }
};

std::vector<Shape> shapes() {
  return {{"quiet", timeAround(1, 0.005)},
          {"noisy", timeAround(1, 0.05)},
          {"outliers", timeAround(1, 0.01, 0.1)},
          {"ties", quantized(timeAround(0.01, 0.03), 0.0005)}};
}

TEST(SequentialErrors, EqualVariantsAreFasterInAtMostOnePercent) {
  for (const Shape &S : shapes())
    for (TimingStage Stage : {TimingStage::Full, TimingStage::Confirm}) {
      double FalseFaster = rate(SequentialCall::Faster, Stage, S.Make, S.Make, 4000);
      std::printf("false faster, %s, %s: %.4f\n", S.Name, spelling(Stage).data(), FalseFaster);
      EXPECT_LE(FalseFaster, 0.01) << S.Name;
    }
}

TEST(SequentialErrors, ScreensNeverCallFaster) {
  for (const Shape &S : shapes())
    EXPECT_EQ(rate(SequentialCall::Faster, TimingStage::Screen, S.Make, S.Gained(2), 200), 0)
        << S.Name;
}

TEST(SequentialErrors, FutilityMissesARealGainRarely) {
  // A variant exactly 2% faster is stopped early as "clearly not faster" in
  // at most 5% of runs (the union bound); one 10% faster almost never.
  for (const Shape &S : shapes()) {
    unsigned Early = 0, Seeds = 2000;
    for (unsigned Seed = 0; Seed < Seeds; ++Seed) {
      Measured R = simulate(TimingStage::Full, S.Make, S.Gained(1.02), 5000 + Seed);
      Early += R.Decision.Why.find("clearly not") != std::string::npos;
    }
    std::printf("futility at a 2%% gain, %s: %.4f\n", S.Name, double(Early) / Seeds);
    EXPECT_LE(double(Early) / Seeds, 0.05) << S.Name;
  }
  for (const Shape &S : shapes())
    EXPECT_GE(rate(SequentialCall::Faster, TimingStage::Full, S.Make, S.Gained(1.10), 500), 0.9)
        << S.Name;
}

TEST(SequentialErrors, ScreensPassRealGainsOn) {
  // What a screen loses: a 10% gain goes on to confirmation nearly always.
  for (const Shape &S : shapes())
    EXPECT_GE(rate(SequentialCall::Promising, TimingStage::Screen, S.Make, S.Gained(1.10), 500),
              0.95)
        << S.Name;
}

TEST(ScreenFromRuns, MedianOfPairedRatios) {
  SequentialDesign D;
  LookDecision L = screenFromRuns(D, {1000, 1010, 990}, {500, 505, 498});
  EXPECT_EQ(L.Call, SequentialCall::Promising);
  EXPECT_NEAR(L.Speedup, 2, 0.02);
  EXPECT_EQ(L.Samples, 3u);
  EXPECT_EQ(screenFromRuns(D, {1000, 1010, 990}, {1000, 1001, 1003}).Call,
            SequentialCall::NotFaster);
  EXPECT_EQ(screenFromRuns(D, {}, {}).Call, SequentialCall::NotFaster);
  // With 1% run-to-run noise a 5% gain passes the screen in nearly every
  // draw; an equal variant rarely does.
  std::mt19937 Rng(11);
  Sampler Base = timeAround(1000, 0.01), Gain = timeAround(1000 / 1.05, 0.01);
  unsigned Passed = 0, Equal = 0;
  for (int I = 0; I < 2000; ++I) {
    std::vector<double> O = {Base(Rng), Base(Rng), Base(Rng)};
    std::vector<double> V = {Gain(Rng), Gain(Rng), Gain(Rng)};
    std::vector<double> S = {Base(Rng), Base(Rng), Base(Rng)};
    Passed += screenFromRuns(D, O, V).Call == SequentialCall::Promising;
    Equal += screenFromRuns(D, O, S).Call == SequentialCall::Promising;
  }
  EXPECT_GE(Passed / 2000.0, 0.99);
  EXPECT_LE(Equal / 2000.0, 0.10);
}

// A long kernel's evaluation as the worker makes it (WorkerMain's
// setOriginal and timeOnRuns), on a fake clock that counts kernel runs: the
// original's pool once (its runs on Seeds input sets, then timed samples up
// to PooledBaselineRuns), then the variant's verification runs, its screen on
// them and, for a promising one (or Always), the pooled test with as many
// timed runs as its looks need.
struct LongEvaluation {
  LookDecision Screen, Decision;
  unsigned VariantRuns = 0;
  bool Confirmed = false;
};

LongEvaluation evaluateLong(const Sampler &Original, const Sampler &Variant, unsigned Seed,
                            bool Always = false, unsigned Seeds = 3) {
  std::mt19937 Rng(Seed);
  std::vector<double> References, Pool, Runs;
  for (unsigned I = 0; I < Seeds; ++I)
    References.push_back(Original(Rng));
  Pool = References;
  while (Pool.size() < PooledBaselineRuns)
    Pool.push_back(Original(Rng));
  LongEvaluation E;
  for (unsigned I = 0; I < Seeds; ++I)
    Runs.push_back(Variant(Rng));
  E.VariantRuns = Seeds;
  E.Screen = screenFromRuns(SequentialDesign(), References, Runs);
  if (E.Screen.Call != SequentialCall::Promising && !Always)
    return E;
  E.Confirmed = true;
  PooledTiming Plan(TimingStage::Confirm, Pool);
  while (!Plan.next(Runs)) {
    Runs.push_back(Variant(Rng));
    ++E.VariantRuns;
  }
  E.Decision = Plan.decision();
  return E;
}

TEST(PooledTiming, OnlyKernelsTooLongForAScreenAreRunTimed) {
  SequentialDesign D;
  // 5 rounds a side in the screen's second: up to 100 ms.
  EXPECT_FALSE(runTimed(D, 20, 1.0));
  EXPECT_FALSE(runTimed(D, 100, 1.0));
  EXPECT_TRUE(runTimed(D, 101, 1.0));
  EXPECT_TRUE(runTimed(D, 1000, 1.0));
  EXPECT_TRUE(runTimed(D, 30, 0.2)); // The GPU test's shorter screen.
}

TEST(PooledTiming, LooksAndTheirLevels) {
  std::vector<double> Pool = {1000, 1004, 996, 1002, 998, 1001};
  std::vector<double> Fast = {286, 287, 285, 288, 289, 284}; // No ties: exact p.
  std::vector<double> Equal = {1003, 999, 1001, 1002, 997, 1000};
  // Three verification runs: no faster call is possible yet (1/84 > 0.01 / 2).
  PooledTiming Plan(TimingStage::Confirm, Pool);
  EXPECT_FALSE(Plan.next(llvm::ArrayRef(Fast).take_front(3)));
  // The fourth run: all four below all six, p = 1/210 < 0.005.
  EXPECT_TRUE(Plan.next(llvm::ArrayRef(Fast).take_front(4)));
  EXPECT_EQ(Plan.decision().Call, SequentialCall::Faster) << Plan.decision().Why;
  EXPECT_NEAR(Plan.decision().PFaster, 1.0 / 210, 1e-9);
  EXPECT_EQ(Plan.decision().Samples, 4u);
  EXPECT_NE(Plan.decision().Why.find("4 runs against the original's 6"), std::string::npos)
      << Plan.decision().Why;
  // An equal variant: clearly not 2% faster on its verification runs alone.
  PooledTiming Same(TimingStage::Confirm, Pool);
  EXPECT_TRUE(Same.next(llvm::ArrayRef(Equal).take_front(3))) << Same.decision().Why;
  EXPECT_EQ(Same.decision().Call, SequentialCall::NotFaster);
  // 5 is no look; 6 is the last: never Continue there.
  PooledTiming Late(TimingStage::Confirm, Pool);
  std::vector<double> Mixed = {990, 1010, 985, 1005, 980, 995};
  EXPECT_FALSE(Late.next(llvm::ArrayRef(Mixed).take_front(5)));
  EXPECT_TRUE(Late.next(Mixed));
  EXPECT_EQ(Late.decision().Call, SequentialCall::NotFaster) << Late.decision().Why;
  // Under the minimum gain: never faster, however separated.
  std::vector<double> Slight = {990, 991, 990, 991, 990, 991};
  PooledTiming Small(TimingStage::Confirm, Pool);
  for (size_t N = 3; N <= Slight.size(); ++N)
    if (Small.next(llvm::ArrayRef(Slight).take_front(N)))
      break;
  EXPECT_NE(Small.decision().Call, SequentialCall::Faster) << Small.decision().Why;
}

TEST(PooledTiming, ALongVariantCostsAtMostSixRuns) {
  // A 1 s kernel with 0.5% noise; the variants of the slow kernel.
  Sampler Original = timeAround(1000, 0.005);
  for (double Gain : {1.0, 0.5, 1.02, 1.05, 1.3, 3.5}) {
    unsigned Most = 0;
    for (unsigned Seed = 0; Seed < 500; ++Seed) {
      LongEvaluation E = evaluateLong(Original, timeAround(1000 / Gain, 0.005), 100 + Seed);
      Most = std::max(Most, E.VariantRuns);
    }
    EXPECT_LE(Most, PooledMaxRuns) << Gain;
  }
  // Clear gains are confirmed at the first look that can say so: one timed run.
  LongEvaluation E = evaluateLong(Original, timeAround(1000 / 1.3, 0.005), 7);
  EXPECT_EQ(E.Decision.Call, SequentialCall::Faster) << E.Decision.Why;
  EXPECT_EQ(E.VariantRuns, 4u);
  // Equal variants are screened out on their verification runs: no timed run.
  E = evaluateLong(Original, Original, 8);
  EXPECT_FALSE(E.Confirmed) << E.Screen.Why;
  EXPECT_EQ(E.VariantRuns, 3u);
}

TEST(PooledTiming, EqualVariantsAreFasterInAtMostOnePercent) {
  // The pooled test on its own (every variant confirmed, screened or not) and
  // after the screen: either way at most Alpha.
  for (const Shape &S : shapes())
    for (bool Always : {true, false}) {
      unsigned Faster = 0, Seeds = 4000;
      for (unsigned Seed = 0; Seed < Seeds; ++Seed)
        Faster += evaluateLong(S.Make, S.Make, 9000 + Seed, Always).Decision.Call ==
                  SequentialCall::Faster;
      std::printf("pooled false faster, %s, %s: %.4f\n", S.Name, Always ? "always" : "screened",
                  double(Faster) / Seeds);
      EXPECT_LE(double(Faster) / Seeds, 0.01) << S.Name;
    }
}

TEST(PooledTiming, RealGainsAreConfirmed) {
  // A 10% gain is confirmed nearly always where the noise is small against
  // it (a long kernel's case), and in about 3 of 4 runs where one sample in
  // 10 is up to 30% slow (6 runs at most: the price of the short test); a 2%
  // gain is stopped as clearly not faster in at most Beta of the runs.
  for (auto [Name, Power] : {std::pair{"quiet", 0.9}, std::pair{"outliers", 0.7}})
    for (const Shape &S : shapes()) {
      if (std::string(S.Name) != Name)
        continue;
      unsigned Faster = 0, Early = 0, Seeds = 2000;
      for (unsigned Seed = 0; Seed < Seeds; ++Seed) {
        Faster += evaluateLong(S.Make, S.Gained(1.10), 20000 + Seed, true).Decision.Call ==
                  SequentialCall::Faster;
        Early += evaluateLong(S.Make, S.Gained(1.02), 30000 + Seed, true)
                     .Decision.Why.find("clearly not") != std::string::npos;
      }
      std::printf("pooled, %s: 10%% confirmed %.4f, 2%% stopped early %.4f\n", Name,
                  double(Faster) / Seeds, double(Early) / Seeds);
      EXPECT_GE(double(Faster) / Seeds, Power) << Name;
      EXPECT_LE(double(Early) / Seeds, 0.05) << Name;
    }
}

} // namespace
