// What the evaluator needs to know of each GPU, read through the driver API.
#pragma once

#include "evaluator/CudaDriver.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kopt::evaluator {

struct DeviceInfo {
  int Ordinal = 0;
  std::string Name;
  int ComputeMajor = 0;
  int ComputeMinor = 0;
  int MultiprocessorCount = 0;
  std::uint64_t TotalMemoryBytes = 0;
  int L2CacheBytes = 0;
  int MaxThreadsPerMultiprocessor = 0;
  int SharedMemoryPerBlockOptin = 0;
  int MemoryClockKHz = 0, MemoryBusWidthBits = 0;
  int ClockKHz = 0; // The SMs' typical clock.

  // Peak DRAM bandwidth from the memory clock and bus width (double data rate).
  double peakDramGBs() const { return MemoryClockKHz * 1e3 * 2 * (MemoryBusWidthBits / 8.0) / 1e9; }
  // Peak FMA throughput (two operations each) from the SMs, their clock and
  // the architecture's lanes per SM; 0 where the architecture is not known.
  double peakFp32Gflops() const;
  double peakFp64Gflops() const;

  // "sm_90" for compute capability 9.0: the architecture NVRTC compiles for.
  std::string smArch() const;
};

// Every device the driver sees; an error where none is present.
llvm::Expected<std::vector<DeviceInfo>> queryDevices(const CudaDriver &Driver);

} // namespace kopt::evaluator
