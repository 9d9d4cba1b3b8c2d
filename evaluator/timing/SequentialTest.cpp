#include "evaluator/timing/SequentialTest.h"

#include <llvm/ADT/STLExtras.h>
#include <llvm/Support/FormatVariadic.h>

#include <algorithm>

namespace kopt::evaluator {

namespace {
std::vector<double> scaled(llvm::ArrayRef<double> Samples, double Factor) {
  std::vector<double> Out(Samples.begin(), Samples.end());
  for (double &S : Out)
    S *= Factor;
  return Out;
}

bool firstFasterLookOrLater(const SequentialDesign &D, unsigned N) {
  return !D.FasterLooks.empty() && N >= D.FasterLooks.front();
}
} // namespace

bool SequentialDesign::isLook(unsigned N) const {
  return N == FirstLook || llvm::is_contained(FasterLooks, N);
}

llvm::StringRef spelling(TimingStage S) {
  switch (S) {
  case TimingStage::Full:
    return "full";
  case TimingStage::Screen:
    return "screen";
  case TimingStage::Confirm:
    return "confirm";
  }
  return "full";
}

namespace {
// The call at look N (samples of the variant: a side, or against a pool).
LookDecision decideAt(const SequentialDesign &D, TimingStage Stage, llvm::ArrayRef<double> Original,
                      llvm::ArrayRef<double> Variant, size_t N, bool Final) {
  LookDecision L;
  L.Samples = static_cast<unsigned>(N);
  double VariantMedian = summarize(Variant).MedianMs;
  if (VariantMedian > 0)
    L.Speedup = summarize(Original).MedianMs / VariantMedian;
  L.PFaster = fasterPValue(Original, Variant);
  // The variant scaled by MinGain against the original: is its gain below MinGain?
  L.PNotGain = fasterPValue(scaled(Variant, D.MinGain), Original);
  // And the other side: is its gain above MinGain?
  L.PGain = fasterPValue(Original, scaled(Variant, D.MinGain));
  const double Alpha = D.alphaPerLook(), Beta = D.betaPerLook();
  auto Say = [&](SequentialCall C, std::string Why) {
    L.Call = C;
    L.Why = std::move(Why);
    return L;
  };
  bool Confirming = Stage != TimingStage::Screen;
  if (Confirming && llvm::is_contained(D.FasterLooks, L.Samples) && L.PFaster < Alpha &&
      L.Speedup >= D.MinGain)
    return Say(
        SequentialCall::Faster,
        llvm::formatv("faster at {0} samples a side (p {1:e2} < {2:e2})", N, L.PFaster, Alpha));
  if (D.isLook(L.Samples) && L.PNotGain < Beta)
    return Say(SequentialCall::NotFaster,
               llvm::formatv("clearly not {0:F2}x faster at {1} samples a side (p {2:e2} < {3:e2})",
                             D.MinGain, N, L.PNotGain, Beta));
  if (!Confirming && D.isLook(L.Samples) && L.PGain < Beta)
    return Say(SequentialCall::Promising,
               llvm::formatv("promising at {0} samples a side: {1:F3}x", N, L.Speedup));
  if (!Final)
    return L;
  if (Confirming)
    return Say(SequentialCall::NotFaster,
               llvm::formatv("not significantly faster after {0} samples a side (p {1:e2})", N,
                             L.PFaster));
  if (L.Speedup >= D.MinGain)
    return Say(SequentialCall::Promising,
               llvm::formatv("screened at {0} samples a side: {1:F3}x", N, L.Speedup));
  return Say(SequentialCall::NotFaster,
             llvm::formatv("screened at {0} samples a side: {1:F3}x", N, L.Speedup));
}
} // namespace

LookDecision lookAt(const SequentialDesign &D, TimingStage Stage, llvm::ArrayRef<double> Original,
                    llvm::ArrayRef<double> Variant, bool Final) {
  size_t N = std::min(Original.size(), Variant.size());
  return decideAt(D, Stage, Original.take_front(N), Variant.take_front(N), N, Final);
}

bool runTimed(const SequentialDesign &D, double OriginalMs, double ScreenSeconds) {
  return 2 * D.FirstLook * OriginalMs > 1000 * ScreenSeconds;
}

SequentialDesign pooledDesign() {
  SequentialDesign D;
  D.FasterLooks = {4, PooledMaxRuns};
  D.FirstLook = 3;
  return D;
}

LookDecision lookAtPool(const SequentialDesign &D, TimingStage Stage, llvm::ArrayRef<double> Pool,
                        llvm::ArrayRef<double> Variant, bool Final) {
  LookDecision L = decideAt(D, Stage, Pool, Variant, Variant.size(), Final);
  // "a side" does not hold: say what was compared.
  if (size_t At = L.Why.find("samples a side"); At != std::string::npos)
    L.Why.replace(At, 14, llvm::formatv("runs against the original's {0}", Pool.size()).str());
  return L;
}

LookDecision screenFromRuns(const SequentialDesign &D, llvm::ArrayRef<double> Original,
                            llvm::ArrayRef<double> Variant) {
  LookDecision L;
  std::vector<double> Ratios;
  for (size_t I = 0; I < std::min(Original.size(), Variant.size()); ++I)
    if (Variant[I] > 0)
      Ratios.push_back(Original[I] / Variant[I]);
  L.Samples = static_cast<unsigned>(Ratios.size());
  L.Speedup = quantile(Ratios, 0.5);
  L.Call = !Ratios.empty() && L.Speedup >= D.MinGain ? SequentialCall::Promising
                                                     : SequentialCall::NotFaster;
  L.Why = llvm::formatv("screened on {0} verification runs: {1:F3}x", Ratios.size(), L.Speedup);
  return L;
}

bool PooledTiming::next(llvm::ArrayRef<double> Runs) {
  Runs = Runs.take_front(PooledMaxRuns);
  bool Final = Runs.size() >= PooledMaxRuns;
  if (!Design.isLook(static_cast<unsigned>(Runs.size())) && !Final)
    return false;
  Last = lookAtPool(Design, Stage, Pool, Runs, Final);
  return Last.Call != SequentialCall::Continue;
}

bool SequentialTiming::next(llvm::ArrayRef<double> Original, llvm::ArrayRef<double> Variant,
                            double Seconds) {
  unsigned N = static_cast<unsigned>(std::min(Original.size(), Variant.size()));
  bool AtLimit = N >= Lim.MaxSamples;
  if (!Design.isLook(N) && !AtLimit)
    return false;
  Last = lookAt(Design, Stage, Original, Variant, /*Final=*/false);
  if (Last.Call != SequentialCall::Continue)
    return true;
  // Where a look may end the measurement for want of time or noise: a
  // confirmation not before it can call a variant faster.
  bool Screening = Stage == TimingStage::Screen;
  bool MayEnd = Screening ? N >= Design.FirstLook : firstFasterLookOrLater(Design, N);
  bool Quiet = summarize(Original.take_front(N)).RelativeNoise <= Lim.TargetNoise &&
               summarize(Variant.take_front(N)).RelativeNoise <= Lim.TargetNoise;
  // Precise medians end a screen; a confirmation whose estimate is a gain goes
  // on while time is left, since the rank test needs more samples than the
  // medians do (each look is valid on its own: stopping later costs no level).
  bool QuietEnds = Quiet && (Screening || Last.Speedup < Design.MinGain);
  bool Final = AtLimit || (MayEnd && (QuietEnds || Seconds >= Lim.MaxSeconds));
  if (!Final)
    return false;
  Last = lookAt(Design, Stage, Original, Variant, /*Final=*/true);
  return true;
}

} // namespace kopt::evaluator
