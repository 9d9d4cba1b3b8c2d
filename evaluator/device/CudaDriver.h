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
  decltype(&::cuDeviceGetUuid) DeviceGetUuid = nullptr;
  decltype(&::cuDeviceGetAttribute) DeviceGetAttribute = nullptr;
  decltype(&::cuDeviceTotalMem) DeviceTotalMem = nullptr;
  decltype(&::cuGetErrorName) GetErrorName = nullptr;
  decltype(&::cuGetErrorString) GetErrorString = nullptr;

  // Contexts, modules, memory, launches, streams and events: the evaluator's.
  decltype(&::cuDevicePrimaryCtxRetain) DevicePrimaryCtxRetain = nullptr;
  decltype(&::cuDevicePrimaryCtxRelease) DevicePrimaryCtxRelease = nullptr;
  decltype(&::cuCtxSetCurrent) CtxSetCurrent = nullptr;
  decltype(&::cuCtxSynchronize) CtxSynchronize = nullptr;
  decltype(&::cuModuleLoadData) ModuleLoadData = nullptr;
  decltype(&::cuModuleUnload) ModuleUnload = nullptr;
  decltype(&::cuModuleGetFunction) ModuleGetFunction = nullptr;
  decltype(&::cuFuncGetAttribute) FuncGetAttribute = nullptr;
  decltype(&::cuFuncSetAttribute) FuncSetAttribute = nullptr;
  decltype(&::cuLaunchKernel) LaunchKernel = nullptr;
  decltype(&::cuMemAlloc) MemAlloc = nullptr;
  decltype(&::cuMemFree) MemFree = nullptr;
  decltype(&::cuMemGetInfo) MemGetInfo = nullptr;
  decltype(&::cuMemcpyHtoD) MemcpyHtoD = nullptr;
  decltype(&::cuMemcpyDtoH) MemcpyDtoH = nullptr;
  decltype(&::cuMemcpyDtoDAsync) MemcpyDtoDAsync = nullptr;
  decltype(&::cuMemsetD8Async) MemsetD8Async = nullptr;
  decltype(&::cuStreamCreate) StreamCreate = nullptr;
  decltype(&::cuStreamDestroy) StreamDestroy = nullptr;
  decltype(&::cuStreamSynchronize) StreamSynchronize = nullptr;
  decltype(&::cuStreamQuery) StreamQuery = nullptr;
  decltype(&::cuEventCreate) EventCreate = nullptr;
  decltype(&::cuEventDestroy) EventDestroy = nullptr;
  decltype(&::cuEventRecord) EventRecord = nullptr;
  decltype(&::cuEventQuery) EventQuery = nullptr;
  decltype(&::cuEventElapsedTime) EventElapsedTime = nullptr;
  decltype(&::cuOccupancyMaxActiveBlocksPerMultiprocessor)
      OccupancyMaxActiveBlocksPerMultiprocessor = nullptr;

private:
  CudaDriver() = default;
  llvm::Error open();

  std::string LibraryPath;
  int DriverVersion = 0;
};

} // namespace kopt::evaluator
