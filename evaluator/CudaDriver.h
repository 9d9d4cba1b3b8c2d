// The CUDA driver API, loaded at run time. kopt links no libcuda, so kcc and
// kopt start and work (cache hits, passthrough) on machines without a driver;
// only the code that needs a GPU calls CudaDriver::load().
#pragma once

#include <cuda.h>
#include <llvm/Support/Error.h>

#include <string>

namespace kopt::evaluator {

class CudaDriver {
public:
  // Loads libcuda.so.1 (or KOPT_LIBCUDA when set) once and calls cuInit.
  // Fails with a readable reason where no driver or no device is present.
  static llvm::Expected<CudaDriver &> load();

  // Turns a CUresult into an llvm::Error that names the call ("cuInit: CUDA_ERROR_NO_DEVICE:
  // no CUDA-capable device is detected"); success gives llvm::Error::success().
  llvm::Error check(CUresult Result, const char *Call) const;

  int driverVersion() const { return DriverVersion; }
  const std::string &libraryPath() const { return LibraryPath; }

  decltype(&::cuDeviceGetCount) DeviceGetCount = nullptr;
  decltype(&::cuDeviceGet) DeviceGet = nullptr;
  decltype(&::cuDeviceGetName) DeviceGetName = nullptr;
  decltype(&::cuDeviceGetAttribute) DeviceGetAttribute = nullptr;
  decltype(&::cuDeviceTotalMem) DeviceTotalMem = nullptr;
  decltype(&::cuGetErrorName) GetErrorName = nullptr;
  decltype(&::cuGetErrorString) GetErrorString = nullptr;

private:
  CudaDriver() = default;
  llvm::Error open();

  std::string LibraryPath;
  int DriverVersion = 0;
};

} // namespace kopt::evaluator
