#include "evaluator/device/CudaDriver.h"

#include <dlfcn.h>

#include <cstdlib>
#include <mutex>

namespace kopt::evaluator {

namespace {
// cuGetProcAddress hands out the entry point matching the API version kopt was
// compiled against, so "_v2"-style renames need no bookkeeping here.
using GetProcAddressFn = CUresult (*)(const char *, void **, int, cuuint64_t,
                                      CUdriverProcAddressQueryResult *);

template <typename Fn> llvm::Error resolve(GetProcAddressFn GetProc, const char *Name, Fn &Out) {
  void *Ptr = nullptr;
  CUdriverProcAddressQueryResult Status{};
  CUresult Result = GetProc(Name, &Ptr, CUDA_VERSION, CU_GET_PROC_ADDRESS_DEFAULT, &Status);
  if (Result != CUDA_SUCCESS || Status != CU_GET_PROC_ADDRESS_SUCCESS || !Ptr)
    return llvm::createStringError("the CUDA driver lacks %s (driver older than CUDA %d.%d?)", Name,
                                   CUDA_VERSION / 1000, (CUDA_VERSION % 1000) / 10);
  Out = reinterpret_cast<Fn>(Ptr);
  return llvm::Error::success();
}
// resolve() for each (name, pointer) pair, every missing entry point reported.
inline llvm::Error resolveAll(GetProcAddressFn) { return llvm::Error::success(); }
template <typename Fn, typename... Rest>
llvm::Error resolveAll(GetProcAddressFn GetProc, const char *Name, Fn &Out, Rest &...More) {
  llvm::Error First = resolve(GetProc, Name, Out);
  return llvm::joinErrors(std::move(First), resolveAll(GetProc, More...));
}
} // namespace

llvm::Expected<CudaDriver &> CudaDriver::load() {
  static CudaDriver Driver;
  static std::string Failure; // Empty once the driver opened.
  static std::once_flag Once;
  std::call_once(Once, [] { Failure = llvm::toString(Driver.open()); });
  if (!Failure.empty())
    return llvm::createStringError(Failure);
  return Driver;
}

llvm::Error CudaDriver::open() {
  const char *Override = std::getenv("KOPT_LIBCUDA");
  LibraryPath = Override && *Override ? Override : "libcuda.so.1";
  void *Handle = ::dlopen(LibraryPath.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!Handle)
    return llvm::createStringError("no NVIDIA driver: cannot load %s (%s)", LibraryPath.c_str(),
                                   ::dlerror());
  auto GetProc = reinterpret_cast<GetProcAddressFn>(::dlsym(Handle, "cuGetProcAddress_v2"));
  if (!GetProc)
    return llvm::createStringError(
        "%s has no cuGetProcAddress_v2: the driver is older than CUDA 12", LibraryPath.c_str());

  decltype(&::cuInit) Init = nullptr;
  decltype(&::cuDriverGetVersion) GetVersion = nullptr;
  if (llvm::Error Missing =
          resolveAll(GetProc, "cuInit", Init, "cuDriverGetVersion", GetVersion, "cuDeviceGetCount",
                     DeviceGetCount, "cuDeviceGet", DeviceGet, "cuDeviceGetName", DeviceGetName,
                     "cuDeviceGetUuid", DeviceGetUuid, "cuDeviceGetAttribute", DeviceGetAttribute,
                     "cuDeviceTotalMem", DeviceTotalMem, "cuGetErrorName", GetErrorName,
                     "cuGetErrorString", GetErrorString))
    return Missing;
  if (llvm::Error Missing = resolveAll(
          GetProc, "cuDevicePrimaryCtxRetain", DevicePrimaryCtxRetain, "cuDevicePrimaryCtxRelease",
          DevicePrimaryCtxRelease, "cuCtxSetCurrent", CtxSetCurrent, "cuCtxSynchronize",
          CtxSynchronize, "cuModuleLoadData", ModuleLoadData, "cuModuleUnload", ModuleUnload,
          "cuModuleGetFunction", ModuleGetFunction, "cuFuncGetAttribute", FuncGetAttribute,
          "cuFuncSetAttribute", FuncSetAttribute, "cuLaunchKernel", LaunchKernel, "cuMemAlloc",
          MemAlloc, "cuMemFree", MemFree, "cuMemGetInfo", MemGetInfo, "cuMemcpyHtoD", MemcpyHtoD,
          "cuMemcpyDtoH", MemcpyDtoH, "cuMemcpyDtoDAsync", MemcpyDtoDAsync, "cuMemsetD8Async",
          MemsetD8Async, "cuStreamCreate", StreamCreate, "cuStreamDestroy", StreamDestroy,
          "cuStreamSynchronize", StreamSynchronize, "cuStreamQuery", StreamQuery, "cuEventCreate",
          EventCreate, "cuEventDestroy", EventDestroy, "cuEventRecord", EventRecord, "cuEventQuery",
          EventQuery, "cuEventElapsedTime", EventElapsedTime,
          "cuOccupancyMaxActiveBlocksPerMultiprocessor", OccupancyMaxActiveBlocksPerMultiprocessor))
    return Missing;

  if (llvm::Error E = check(Init(0), "cuInit"))
    return E;
  return check(GetVersion(&DriverVersion), "cuDriverGetVersion");
}

llvm::Error CudaDriver::check(CUresult Result, const char *Call) const {
  if (Result == CUDA_SUCCESS)
    return llvm::Error::success();
  const char *Name = "unknown CUDA error";
  const char *Text = "";
  if (GetErrorName)
    GetErrorName(Result, &Name);
  if (GetErrorString)
    GetErrorString(Result, &Text);
  return llvm::createStringError("%s: %s: %s", Call, Name, Text);
}

} // namespace kopt::evaluator
