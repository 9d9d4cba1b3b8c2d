#include "evaluator/device/DeviceQuery.h"

#include <utility>

namespace kopt::evaluator {

std::string DeviceInfo::smArch() const {
  return "sm_" + std::to_string(ComputeMajor) + std::to_string(ComputeMinor);
}

std::string gpuUuidText(const unsigned char (&Bytes)[16]) {
  static const char Hex[] = "0123456789abcdef";
  std::string Text = "GPU-";
  for (int I = 0; I < 16; ++I) {
    if (I == 4 || I == 6 || I == 8 || I == 10)
      Text += '-';
    Text += Hex[Bytes[I] >> 4];
    Text += Hex[Bytes[I] & 15];
  }
  return Text;
}

namespace {
// FP32 and FP64 FMA lanes per SM, from NVIDIA's tables of arithmetic
// instruction throughput (CUDA C++ Programming Guide) for the architectures
// kopt meets; { 0, 0 } for others.
std::pair<int, int> fmaLanesPerSm(int Major, int Minor) {
  const int Cc = Major * 10 + Minor;
  switch (Cc) {
  case 70:
  case 72:
    return {64, 32};
  case 75:
    return {64, 2};
  case 80:
    return {64, 32};
  case 86:
  case 87:
  case 89:
    return {128, 2};
  case 90:
  case 100:
  case 103:
    return {128, 64};
  case 110:
  case 120:
  case 121:
    return {128, 2};
  default:
    return {0, 0};
  }
}

double peakGflops(const DeviceInfo &D, int Lanes) {
  return 2.0 * Lanes * D.MultiprocessorCount * (D.ClockKHz * 1e3) / 1e9;
}
} // namespace

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

  CUuuid Uuid{};
  if (llvm::Error E = Driver.check(Driver.DeviceGetUuid(&Uuid, Device), "cuDeviceGetUuid"))
    return E;
  unsigned char UuidBytes[16];
  for (int I = 0; I < 16; ++I)
    UuidBytes[I] = static_cast<unsigned char>(Uuid.bytes[I]);
  Info.Uuid = gpuUuidText(UuidBytes);

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
      {CU_DEVICE_ATTRIBUTE_CLOCK_RATE, &Info.ClockKHz},
  };
  for (auto [Attribute, Out] : Attributes)
    if (llvm::Error E =
            Driver.check(Driver.DeviceGetAttribute(Out, Attribute, Device), "cuDeviceGetAttribute"))
      return E;
  return Info;
}

double DeviceInfo::peakFp32Gflops() const {
  return peakGflops(*this, fmaLanesPerSm(ComputeMajor, ComputeMinor).first);
}
double DeviceInfo::peakFp64Gflops() const {
  return peakGflops(*this, fmaLanesPerSm(ComputeMajor, ComputeMinor).second);
}

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
