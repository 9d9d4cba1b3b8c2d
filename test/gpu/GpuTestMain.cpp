// GPU test entry point: runs the tests only where the driver loads and sees a
// device; otherwise says why and exits KOPT_GPU_SKIP_CODE, which ctest reports
// as SKIPPED (never PASSED).
#include "evaluator/CudaDriver.h"
#include "evaluator/DeviceQuery.h"

#include <gtest/gtest.h>

#include <cstdio>

int main(int argc, char **argv) {
  llvm::Expected<kopt::evaluator::CudaDriver &> Driver = kopt::evaluator::CudaDriver::load();
  if (!Driver) {
    std::printf("SKIPPED: no usable GPU: %s\n", llvm::toString(Driver.takeError()).c_str());
    return KOPT_GPU_SKIP_CODE;
  }
  if (llvm::Expected<std::vector<kopt::evaluator::DeviceInfo>> Devices =
          kopt::evaluator::queryDevices(*Driver);
      !Devices) {
    std::printf("SKIPPED: no usable GPU: %s\n", llvm::toString(Devices.takeError()).c_str());
    return KOPT_GPU_SKIP_CODE;
  }
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
