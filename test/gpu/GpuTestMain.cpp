// GPU test entry point: runs the tests only where the driver loads and sees a
// device; otherwise says why and exits KOPT_GPU_SKIP_CODE, which ctest reports
// as SKIPPED (never PASSED).
#include "evaluator/device/CudaDriver.h"
#include "evaluator/device/DeviceQuery.h"
#include "evaluator/worker/WorkerMain.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <optional>

int main(int argc, char **argv) {
  // The evaluator starts its worker as this program (EvaluatorGuardsTest.cpp).
  if (std::optional<int> Status = kopt::evaluator::runEvaluationWorkerIfAsked(argc, argv))
    return *Status;
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
