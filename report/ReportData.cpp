#include "report/ReportData.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/FormatVariadic.h>

#include <cmath>
#include <cstdio>

namespace kopt::report {

std::string plainNumber(double V) {
  char Buffer[32];
  std::snprintf(Buffer, sizeof(Buffer), "%.6g", V);
  return Buffer;
}

Totals totalsOf(const ReportData &R) {
  Totals T;
  double LogSum = 0;
  size_t Entries = 0;
  for (const KernelReport &K : R.Kernels) {
    ++T.Kernels;
    if (K.Build)
      ++T.Outcomes[K.Build->Outcome];
    if (K.Build && K.Build->Outcome == OutcomeMiss)
      ++T.MissReasons[missReason(*K.Build)];
    if (K.Key.empty() || K.Device.empty()) // No entry: nothing measured.
      continue;
    ++Entries;
    LogSum += std::log(K.Speedup > 0 ? K.Speedup : 1.0);
    T.WithVariant += K.HasVariant;
    if (K.Seconds) {
      T.Seconds += *K.Seconds;
      ++T.SecondsRecorded;
    }
  }
  if (Entries)
    T.Geomean = std::exp(LogSum / double(Entries));
  return T;
}

std::string speedupText(const KernelReport &K) {
  if (K.Device.empty())
    return "-";
  return llvm::formatv("{0:f2}x", K.HasVariant ? K.Speedup : 1.0).str();
}

std::string chainText(const KernelReport &K) {
  if (K.Device.empty())
    return "(no entry)";
  return K.HasVariant ? llvm::join(K.Chain, " + ") : "(original kept)";
}

std::string peakShareText(const KernelReport &K,
                          const std::optional<double> memory::RunFigures::*Field) {
  if (K.Device.empty()) // No entry: nothing was measured.
    return "-";
  if (!K.Profile)
    return "not recorded";
  auto Text = [](const std::optional<double> &V) {
    return V ? llvm::formatv("{0:f0}%", *V).str() : std::string("not recorded");
  };
  const std::optional<double> &Before = K.Profile->Original.*Field;
  if (!K.HasVariant)
    return Text(Before);
  const std::optional<double> &After = K.Profile->Variant.*Field;
  if (!Before && !After)
    return "not recorded";
  return Text(Before) + " -> " + Text(After);
}

std::string evaluationsText(const KernelReport &K) {
  if (K.Device.empty())
    return "-";
  if (K.Evaluations)
    return std::to_string(*K.Evaluations);
  if (!K.Trajectory.empty())
    return "not recorded (" + std::to_string(K.Trajectory.size()) + " variants)";
  return "not recorded";
}

std::string secondsText(const KernelReport &K) {
  if (K.Device.empty())
    return "-";
  return K.Seconds ? llvm::formatv("{0:f1}", *K.Seconds).str() : "not recorded";
}

std::string outcomeText(const KernelReport &K) {
  if (K.Device.empty())
    return K.Build ? buildText(K) : "no entry";
  if (K.HasVariant)
    return llvm::formatv("{0:f2}x faster on {1} ({2})", K.Speedup, K.Device, chainText(K)).str();
  std::string Text = "no variant beat the original on " + K.Device + ": ";
  if (!K.Profile)
    return Text + "% of peak not recorded (the entry predates it)";
  return Text + memory::headroomReading(K.Profile->Original, K.Kind);
}

std::string buildText(const KernelReport &K) {
  if (!K.Build)
    return "";
  std::string Text = K.Build->Outcome + (K.Arch.empty() ? "" : " (" + K.Arch + ")");
  if (K.Build->Outcome == OutcomeMiss)
    Text += ": " + missReason(*K.Build);
  return Text;
}

std::string missReason(const BuildRecord &R) { return R.Reason.empty() ? R.Detail : R.Reason; }

} // namespace kopt::report
