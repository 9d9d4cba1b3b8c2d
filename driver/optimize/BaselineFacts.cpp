#include "driver/optimize/BaselineFacts.h"

#include "memory/ProfileFacts.h"

namespace kopt::driver {

memory::ProfileMetrics baselineMetrics(const evaluator::Baseline &B,
                                       const evaluator::LaunchGeometry &Launch) {
  memory::ProfileMetrics M = memory::metricsFromCounters(B.Counters.Metrics);
  if (B.Timing.Samples > 0)
    M["elapsed_ms"] = B.Timing.MedianMs;
  const evaluator::KernelResources &R = B.Resources;
  if (R.Registers > 0) { // Zero: the kernel was never loaded.
    M["registers"] = R.Registers;
    M["local_bytes"] = R.LocalBytes;
    M["theoretical_occupancy_pct"] = 100 * R.TheoreticalOccupancy;
    M["shared_bytes_per_block"] = R.StaticSharedBytes + static_cast<double>(Launch.SharedBytes);
  }
  M["block_size"] = double(Launch.Block[0]) * Launch.Block[1] * Launch.Block[2];
  M["grid_size"] = double(Launch.Grid[0]) * Launch.Grid[1] * Launch.Grid[2];
  // Threads launched against what the device holds at once: below 1 the GPU
  // is never full, whatever the kernel does.
  double Capacity = double(B.Device.MultiprocessorCount) * B.Device.MaxThreadsPerMultiprocessor;
  if (Capacity > 0)
    M["parallelism"] = M["block_size"] * M["grid_size"] / Capacity;
  return M;
}

} // namespace kopt::driver
