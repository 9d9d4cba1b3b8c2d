#include "evaluator/device/DeviceQuery.h"

namespace kopt::evaluator {

std::string DeviceInfo::smArch() const {
  return "sm_" + std::to_string(ComputeMajor) + std::to_string(ComputeMinor);
}

namespace {
llvm::Expected<DeviceInfo> queryDevice(const CudaDriver &Driver, int Ordinal) {
  DeviceInfo Info;
  Info.Ordinal = Ordinal;
  CUdevice Device = 0;
  if (llvm::Error E = Driver.check(Driver.DeviceGet(&Device, Ordinal), "cuDeviceGet"))
    return E;

  char Name[256] = {};
  if (llvm::Error E =
          Driver.check(Driver.DeviceGetName(Name, sizeof Name, Device), "cuDeviceGetName"))
    return E;
  Info.Name = Name;

  size_t Bytes = 0;
  if (llvm::Error E = Driver.check(Driver.DeviceTotalMem(&Bytes, Device), "cuDeviceTotalMem"))
    return E;
  Info.TotalMemoryBytes = Bytes;

  const std::pair<CUdevice_attribute, int *> Attributes[] = {
      {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, &Info.ComputeMajor},
      {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, &Info.ComputeMinor},
      {CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, &Info.MultiprocessorCount},
      {CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, &Info.L2CacheBytes},
      {CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR, &Info.MaxThreadsPerMultiprocessor},
      {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, &Info.SharedMemoryPerBlockOptin},
      {CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE, &Info.MemoryClockKHz},
      {CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH, &Info.MemoryBusWidthBits},
  };
  for (auto [Attribute, Out] : Attributes)
    if (llvm::Error E =
            Driver.check(Driver.DeviceGetAttribute(Out, Attribute, Device), "cuDeviceGetAttribute"))
      return E;
  return Info;
}
} // namespace

llvm::Expected<std::vector<DeviceInfo>> queryDevices(const CudaDriver &Driver) {
  int Count = 0;
  if (llvm::Error E = Driver.check(Driver.DeviceGetCount(&Count), "cuDeviceGetCount"))
    return E;
  if (Count == 0)
    return llvm::createStringError("the NVIDIA driver sees no CUDA device");
  std::vector<DeviceInfo> Devices;
  for (int Ordinal = 0; Ordinal < Count; ++Ordinal) {
    llvm::Expected<DeviceInfo> Info = queryDevice(Driver, Ordinal);
    if (!Info)
      return Info.takeError();
    Devices.push_back(std::move(*Info));
  }
  return Devices;
}

} // namespace kopt::evaluator
