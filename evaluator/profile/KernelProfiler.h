// Hardware counters of one kernel launch, read through CUPTI's range profiler
// (CUDA 13). libcupti is loaded at run time like the driver (CudaDriver.h):
// where it is missing, or the counters are not readable (permissions, an
// unsupported chip), the profile says why instead of failing the evaluation.
#pragma once

#include <cuda.h>
#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/STLFunctionalExtras.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>

#include <map>
#include <string>
#include <vector>

namespace kopt::evaluator {

// Metric values by CUPTI name. Error is empty when the profiler ran; otherwise
// it starts with "unavailable: " and Metrics is empty. Skipped lists metrics
// the chip does not know (the others are still measured).
struct Profile {
  std::map<std::string, double, std::less<>> Metrics;
  std::vector<std::string> Skipped;
  std::string Error;

  bool available() const { return Error.empty(); }
  static Profile unavailable(llvm::StringRef Reason);
};

// The metrics kopt asks for (Hopper names): throughputs, achieved occupancy,
// cache hit rates, DRAM bytes, efficiency, the main warp stall reasons and
// floating-point instruction counts.
llvm::ArrayRef<const char *> defaultProfileMetrics();
// The subset a long kernel gets: fewer replay passes.
llvm::ArrayRef<const char *> coreProfileMetrics();
// Throughputs, occupancy and DRAM bytes alone, for kernels of a large part of
// a second: hardware counters only, no instruction counts (those patch the
// kernel's code and cost replays of its whole length).
llvm::ArrayRef<const char *> minimalProfileMetrics();

// The profile of evaluated metric values, Values[i] belonging to Names[i]; a
// value that is not finite (CUPTI's "not applicable") is left out.
Profile profileFromValues(llvm::ArrayRef<std::string> Names, llvm::ArrayRef<double> Values);

class KernelProfiler {
public:
  // Loads libcupti.so.13 once (KOPT_LIBCUPTI, when set, is the only path
  // tried). Fails with a readable reason where it cannot be loaded.
  static llvm::Expected<KernelProfiler &> load();

  // Profiles the single kernel launch that Launch makes on Context (device
  // DeviceIndex), collecting Metrics. CUPTI replays that launch once per pass
  // of counters and saves and restores the device memory it writes between
  // passes (kernel replay), so the launch needs no restore of its own and its
  // buffers hold one launch's results afterwards. Launch must wait for the
  // kernel. Unknown metric names go to Skipped.
  llvm::Expected<Profile> profile(CUcontext Context, int DeviceIndex,
                                  llvm::ArrayRef<std::string> Metrics,
                                  llvm::function_ref<llvm::Error()> Launch);

  const std::string &libraryPath() const { return LibraryPath; }

private:
  KernelProfiler() = default;
  llvm::Error open();
  struct Api;
  Api *Calls = nullptr; // Resolved entry points; lives as long as the process.
  std::string LibraryPath;
};

// A profile from the library, or "unavailable: <reason>" where anything failed.
Profile profileKernel(CUcontext Context, int DeviceIndex, llvm::ArrayRef<std::string> Metrics,
                      llvm::function_ref<llvm::Error()> Launch);

} // namespace kopt::evaluator
