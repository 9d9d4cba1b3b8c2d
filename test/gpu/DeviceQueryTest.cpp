#include "evaluator/device/DeviceQuery.h"
#include "evaluator/device/CudaDriver.h"

#include <gtest/gtest.h>

using namespace kopt::evaluator;

namespace {
std::vector<DeviceInfo> devices() {
  CudaDriver &Driver = llvm::cantFail(CudaDriver::load());
  return llvm::cantFail(queryDevices(Driver));
}
} // namespace

TEST(DeviceQuery, ReportsEveryDeviceWithPlausibleProperties) {
  std::vector<DeviceInfo> All = devices();
  ASSERT_FALSE(All.empty());
  for (const DeviceInfo &D : All) {
    SCOPED_TRACE(D.Name);
    EXPECT_FALSE(D.Name.empty());
    EXPECT_GE(D.ComputeMajor, 7); // CUDA 13 supports Turing (7.5) and newer.
    EXPECT_GT(D.MultiprocessorCount, 0);
    EXPECT_GT(D.TotalMemoryBytes, 1ull << 30);
    EXPECT_GT(D.L2CacheBytes, 0);
    EXPECT_GE(D.MaxThreadsPerMultiprocessor, 1024);
    EXPECT_GE(D.SharedMemoryPerBlockOptin, 48 * 1024);
    EXPECT_EQ(D.smArch(), "sm_" + std::to_string(D.ComputeMajor) + std::to_string(D.ComputeMinor));
    std::printf("device %d: %s, %s, %d SMs, %.1f GiB, L2 %d MiB\n", D.Ordinal, D.Name.c_str(),
                D.smArch().c_str(), D.MultiprocessorCount, D.TotalMemoryBytes / double(1ull << 30),
                D.L2CacheBytes >> 20);
  }
}

TEST(DeviceQuery, DriverIsAtLeastTheToolkitKoptWasBuiltWith) {
  CudaDriver &Driver = llvm::cantFail(CudaDriver::load());
  EXPECT_GE(Driver.driverVersion(), CUDA_VERSION);
}

TEST(DeviceQuery, CheckNamesTheFailingCall) {
  CudaDriver &Driver = llvm::cantFail(CudaDriver::load());
  std::string Message = llvm::toString(Driver.check(CUDA_ERROR_INVALID_VALUE, "cuExample"));
  EXPECT_NE(Message.find("cuExample: CUDA_ERROR_INVALID_VALUE"), std::string::npos) << Message;
}
