// What the evaluator needs to know of each GPU, read through the driver API.
#pragma once

#include "evaluator/device/CudaDriver.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kopt::evaluator {

struct DeviceInfo {
  int Ordinal = 0;  // Among the devices this process sees (CUDA_VISIBLE_DEVICES renumbers).
  std::string Name; // The model: "NVIDIA H200".
  // "GPU-8c1f7e0a-...": the physical GPU, the same in every process whatever
  // CUDA_VISIBLE_DEVICES says, as nvidia-smi spells it.
  std::string Uuid;
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
// The device of this ordinal.
llvm::Expected<DeviceInfo> queryDevice(const CudaDriver &Driver, int Ordinal);

// nvidia-smi's spelling of a GPU's 16 UUID bytes: "GPU-" then 8-4-4-4-12 hex digits.
std::string gpuUuidText(const unsigned char (&Bytes)[16]);

} // namespace kopt::evaluator
