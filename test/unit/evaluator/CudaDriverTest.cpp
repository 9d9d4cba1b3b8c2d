// The driver is loaded at run time; where it cannot be loaded the error says
// why. (The process-wide CudaDriver is loaded once, so this binary never
// loads a real one: GPU behaviour is tested in test/gpu.)
#include "evaluator/device/CudaDriver.h"

#include <gtest/gtest.h>

#include <cstdlib>

TEST(CudaDriver, MissingLibraryIsAReadableErrorEveryTime) {
  ::setenv("KOPT_LIBCUDA", "/nonexistent/libcuda.so.1", 1);
  for (int Attempt = 0; Attempt < 2; ++Attempt) {
    llvm::Expected<kopt::evaluator::CudaDriver &> Driver = kopt::evaluator::CudaDriver::load();
    ASSERT_FALSE(Driver);
    std::string Message = llvm::toString(Driver.takeError());
    EXPECT_NE(Message.find("no NVIDIA driver: cannot load /nonexistent/libcuda.so.1"),
              std::string::npos)
        << Message;
  }
}
