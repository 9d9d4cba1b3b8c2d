// One kernel of the report: what its cache entry (and, where a build log is
// given, the build's record of it) says, in the form the page and the text
// overview show. Figures an entry does not have stay empty: the page says
// "not recorded" for them, never 0.
#pragma once

#include "memory/cache/CacheEntry.h"
#include "report/BuildLog.h"

#include <optional>
#include <string>
#include <vector>

namespace kopt::report {

// One variant the search tried, in order.
struct TrajectoryPoint {
  std::string Steps;   // "register-blocking:BK=8 + unroll:factor=2"
  std::string Verdict; // evaluator::spelling: "faster", "not_faster", "wrong", ...
  double Speedup = 0;  // 0: not timed (it failed before).
  std::string Detail;
};

// A launch's grid, block and shared memory as expressions, with the values
// the pragma gave where known: "(n + 15) / 16 = 128".
struct LaunchText {
  std::string Grid, Block, Smem;
};

struct KernelReport {
  std::string Kernel;
  std::string Key;      // The cache key's digest.
  std::string Cache;    // "project cache DIR", "user cache DIR".
  std::string Location; // "main.cu:42" ("" : not recorded).
  std::string Kind;     // The features' kernel kind ("" : not recorded).
  std::string Device, Engine, Date;
  std::string Arch; // The architecture it was keyed for ("" : not known).
  bool HasVariant = false;
  std::vector<std::string> Chain; // The winning steps.
  double Speedup = 1;
  // Verification: random input sets, recorded launches, tolerance.
  std::optional<unsigned> Seeds;
  std::optional<uint64_t> RecordedLaunches;
  std::optional<double> Rtol, Atol, WorstToleranceRatio;
  std::optional<unsigned> Evaluations;
  std::optional<double> Seconds; // The loop's wall time.
  std::optional<memory::EntryProfile> Profile;
  std::vector<TrajectoryPoint> Trajectory;
  std::optional<std::string> OriginalDefinition, VariantCode;
  std::optional<LaunchText> Before; // The pragma's launch.
  std::optional<LaunchText> After;  // The variant's, where it remaps the launch.
  std::optional<std::vector<memory::TransformNote>> Transforms;
  std::optional<BuildRecord> Build; // What the build did with it.

  // "tol rtol=0.001 atol=0.001; 3 input sets; 12 recorded launches".
  std::string verificationText() const;
};

// Entries written before a field existed give reports without it.
KernelReport kernelReportOf(const memory::StoredEntry &Stored, const std::string &Cache);

// A kernel the build looked up but that has no entry (a miss): its record alone.
KernelReport kernelReportOf(const BuildRecord &Record);

} // namespace kopt::report
