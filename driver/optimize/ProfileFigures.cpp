#include "driver/optimize/ProfileFigures.h"

#include "memory/experience/ProfileFacts.h"

namespace kopt::driver {

namespace {
std::optional<double> counter(const evaluator::Profile &P, llvm::StringRef Name) {
  auto It = P.Metrics.find(Name);
  if (It == P.Metrics.end())
    return std::nullopt;
  return It->second;
}

std::optional<double> positive(double V) { return V > 0 ? std::optional<double>(V) : std::nullopt; }
} // namespace

memory::RunFigures runFiguresOf(const evaluator::Profile &P) {
  if (!P.available()) {
    llvm::StringRef Why = P.Error;
    Why.consume_front("unavailable: ");
    return memory::RunFigures::notRecorded(Why);
  }
  memory::RunFigures F;
  F.DramPct = counter(P, "dram__throughput.avg.pct_of_peak_sustained_elapsed");
  F.SmPct = counter(P, "sm__throughput.avg.pct_of_peak_sustained_elapsed");
  F.DramBytes = counter(P, "dram__bytes.sum");
  if (std::optional<double> Ns = counter(P, "gpu__time_duration.sum"))
    F.DurationMs = *Ns * 1e-6;
  if (std::optional<memory::FlopCount> Flops = memory::flopsFromCounters(P.Metrics)) {
    F.Flops = Flops->All;
    F.Fp64Flops = Flops->Fp64;
  }
  return F;
}

memory::DeviceRoofs deviceRoofsOf(const evaluator::Baseline &B,
                                  const memory::RunFigures &Original) {
  memory::DeviceRoofs R;
  R.Name = B.Device.Name;
  R.DramPeakGBs = positive(B.Device.peakDramGBs());
  R.Fp32PeakGflops = positive(B.Device.peakFp32Gflops());
  R.Fp64PeakGflops = positive(B.Device.peakFp64Gflops());
  if (B.CopyGBs > 0) {
    R.CopyGBs = B.CopyGBs;
    R.CopySource = "measured: a device-to-device copy timed in the evaluation's worker";
  } else if (std::optional<double> GBs = Original.dramGBs();
             GBs && Original.DramPct && *Original.DramPct > 0) {
    R.CopyGBs = *GBs / (*Original.DramPct / 100);
    R.CopySource = "profile: the original's DRAM bandwidth over its share of DRAM peak (no copy "
                   "measured: " +
                   B.CopyRateMissing + ")";
  }
  return R;
}

memory::EntryProfile entryProfileOf(const agents::OptimizeResult &O) {
  memory::EntryProfile P;
  P.Original = runFiguresOf(O.Original.Counters);
  P.Variant = O.Best ? runFiguresOf(O.BestCounters)
                     : memory::RunFigures::notRecorded("no variant beat the original");
  P.Device = deviceRoofsOf(O.Original, P.Original);
  return P;
}

} // namespace kopt::driver
