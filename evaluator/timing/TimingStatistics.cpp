#include "evaluator/timing/TimingStatistics.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>
#include <numeric>
#include <utility>

namespace kopt::evaluator {

namespace {
// Above this many samples in either group the normal approximation is used.
constexpr size_t ExactLimit = 50;

// P(U <= u) for u = 0 .. M*N under the null hypothesis, U counting the pairs
// (candidate, baseline) where the candidate is the larger; M candidates, N
// baselines, no ties. p(m, n, u) = m/(m+n) p(m-1, n, u-n) + n/(m+n) p(m, n-1, u):
// the largest of the m+n values is a candidate (beating all n baselines) or not.
std::vector<double> exactLowerTail(size_t M, size_t N) {
  static std::mutex Lock;
  static std::map<std::pair<size_t, size_t>, std::vector<double>> Cache;
  std::lock_guard<std::mutex> Guard(Lock);
  auto It = Cache.find({M, N});
  if (It != Cache.end())
    return It->second;
  size_t Size = M * N + 1;
  // Prev[j][u]: p(i - 1, j, u); Cur[j][u]: p(i, j, u).
  std::vector<std::vector<double>> Prev(N + 1, std::vector<double>(Size, 0)), Cur = Prev;
  for (size_t J = 0; J <= N; ++J)
    Prev[J][0] = 1; // No candidates: U is 0.
  for (size_t I = 1; I <= M; ++I) {
    Cur[0].assign(Size, 0);
    Cur[0][0] = 1; // No baselines: U is 0.
    for (size_t J = 1; J <= N; ++J) {
      double Total = static_cast<double>(I + J);
      double A = static_cast<double>(I) / Total, B = static_cast<double>(J) / Total;
      std::vector<double> &Row = Cur[J];
      for (size_t U = 0; U < Size; ++U) {
        double FromCandidate = U >= J ? Prev[J][U - J] : 0;
        Row[U] = A * FromCandidate + B * Cur[J - 1][U];
      }
    }
    std::swap(Prev, Cur);
  }
  std::vector<double> Tail(Size);
  double Sum = 0;
  for (size_t U = 0; U < Size; ++U)
    Tail[U] = std::min(1.0, Sum += Prev[N][U]);
  return Cache.emplace(std::pair{M, N}, std::move(Tail)).first->second;
}
} // namespace

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
  double U = RankSumCandidate - n1 * (n1 + 1) / 2;          // Small U: candidate times are small.
  if (TieTerm == 0 && N1 <= ExactLimit && N2 <= ExactLimit) // U is then an integer.
    return exactLowerTail(N1, N2)[static_cast<size_t>(std::lround(U))];
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
