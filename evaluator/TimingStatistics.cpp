#include "evaluator/TimingStatistics.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <utility>

namespace kopt::evaluator {

double quantile(std::vector<double> Sorted, double Q) {
  if (Sorted.empty())
    return 0;
  std::sort(Sorted.begin(), Sorted.end());
  double Pos = Q * static_cast<double>(Sorted.size() - 1);
  auto Lo = static_cast<size_t>(std::floor(Pos));
  size_t Hi = std::min(Lo + 1, Sorted.size() - 1);
  double Frac = Pos - static_cast<double>(Lo);
  return Sorted[Lo] * (1 - Frac) + Sorted[Hi] * Frac;
}

TimingSummary summarize(llvm::ArrayRef<double> SamplesMs) {
  TimingSummary S;
  S.Samples = static_cast<unsigned>(SamplesMs.size());
  if (SamplesMs.empty())
    return S;
  std::vector<double> V(SamplesMs.begin(), SamplesMs.end());
  std::sort(V.begin(), V.end());
  S.MedianMs = quantile(V, 0.5);
  S.P20Ms = quantile(V, 0.2);
  S.P80Ms = quantile(V, 0.8);
  S.MinMs = V.front();
  // The interquartile range estimates sigma robustly (IQR / 1.349); the
  // median's standard error is 1.2533 sigma / sqrt(n).
  double Iqr = quantile(V, 0.75) - quantile(V, 0.25);
  double Sigma = Iqr / 1.349;
  if (S.MedianMs > 0)
    S.RelativeNoise = 1.2533 * Sigma / std::sqrt(static_cast<double>(V.size())) / S.MedianMs;
  return S;
}

double fasterPValue(llvm::ArrayRef<double> BaselineMs, llvm::ArrayRef<double> CandidateMs) {
  size_t N1 = CandidateMs.size(), N2 = BaselineMs.size();
  if (N1 == 0 || N2 == 0)
    return 1;
  // Rank the pooled samples (average ranks for ties).
  std::vector<std::pair<double, bool>> Pooled; // (value, is candidate)
  for (double V : CandidateMs)
    Pooled.push_back({V, true});
  for (double V : BaselineMs)
    Pooled.push_back({V, false});
  std::sort(Pooled.begin(), Pooled.end());
  double RankSumCandidate = 0, TieTerm = 0;
  for (size_t I = 0; I < Pooled.size();) {
    size_t J = I;
    while (J < Pooled.size() && Pooled[J].first == Pooled[I].first)
      ++J;
    double AvgRank = (static_cast<double>(I + 1) + static_cast<double>(J)) / 2;
    auto T = static_cast<double>(J - I);
    TieTerm += T * T * T - T;
    for (size_t K = I; K < J; ++K)
      if (Pooled[K].second)
        RankSumCandidate += AvgRank;
    I = J;
  }
  double n1 = static_cast<double>(N1), n2 = static_cast<double>(N2), N = n1 + n2;
  double U = RankSumCandidate - n1 * (n1 + 1) / 2; // Small U: candidate times are small.
  double Mean = n1 * n2 / 2;
  double Var = n1 * n2 / 12 * ((N + 1) - TieTerm / (N * (N - 1)));
  if (Var <= 0)
    return 1;
  double Z = (U - Mean + 0.5) / std::sqrt(Var); // Continuity correction.
  return 0.5 * std::erfc(-Z / std::sqrt(2.0));  // P(Z' <= Z).
}

SpeedDecision decideFaster(llvm::ArrayRef<double> BaselineMs, llvm::ArrayRef<double> CandidateMs,
                           double Alpha, double MinGain) {
  SpeedDecision D;
  TimingSummary B = summarize(BaselineMs), C = summarize(CandidateMs);
  if (C.MedianMs > 0)
    D.Speedup = B.MedianMs / C.MedianMs;
  D.PValue = fasterPValue(BaselineMs, CandidateMs);
  D.Faster = D.PValue < Alpha && D.Speedup >= MinGain;
  return D;
}

} // namespace kopt::evaluator
