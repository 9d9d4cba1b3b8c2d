// What one report shows: its kernels, where they came from, and the totals
// over them (geomean speedup, time spent optimizing, the build's hits and
// misses with their reasons where a build log was read).
#pragma once

#include "report/KernelReport.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace kopt::report {

struct ReportData {
  std::vector<KernelReport> Kernels;
  std::vector<std::string> Sources;  // "project cache DIR", "build log FILE", ...
  std::vector<std::string> Problems; // Entries or log lines that could not be read.
  bool FromBuild = false;            // Kernels are the build's (a build log was read).
  std::string Date;                  // When the report was made (UTC).
};

struct Totals {
  size_t Kernels = 0, WithVariant = 0;
  std::optional<double> Geomean; // Over kernels with an entry (a kept original counts 1x).
  double Seconds = 0;            // Optimizing, over the entries that record it.
  size_t SecondsRecorded = 0;    // How many do.
  // From the build log: kernels by outcome, and misses by reason.
  std::map<std::string, size_t> Outcomes;
  std::map<std::string, size_t> MissReasons;
};

Totals totalsOf(const ReportData &R);

// "0.001", "5.98508", "2.5e+06": a number with six significant digits.
std::string plainNumber(double V);

// Cells both views share; a figure not recorded reads "not recorded".
std::string speedupText(const KernelReport &K);
std::string chainText(const KernelReport &K);
std::string peakShareText(const KernelReport &K,
                          const std::optional<double> memory::RunFigures::*Field);
std::string evaluationsText(const KernelReport &K);
std::string secondsText(const KernelReport &K);
// What happened to a kernel: "5.99x faster (register-blocking ...)", "no variant beat the
// original: at 87% of DRAM peak: little headroom", or the build's miss.
std::string outcomeText(const KernelReport &K);
// The build's outcome ("hit", "optimized", "miss: why"), or "" without a build log.
std::string buildText(const KernelReport &K);
// The reason of a miss (its detail where the record has none).
std::string missReason(const BuildRecord &R);

} // namespace kopt::report
