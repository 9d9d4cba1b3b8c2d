// kopt's recorder as a CUDA injection library: `kopt record` points
// CUDA_INJECTION64_PATH at this shared object, the driver loads it at cuInit
// and calls InitializeInjection, which subscribes to CUPTI's callbacks for the
// driver's launch entry points. Driver callbacks see every launch, whether the
// application links the CUDA runtime statically (nvcc's default, which
// reaches the driver through cuGetProcAddress and so escapes an LD_PRELOAD
// interposer) or dynamically, or calls the driver API itself.
#include "recorder/LaunchRecorder.h"

#include <cuda.h>
#include <cupti.h>
#include <dlfcn.h>

#include <memory>
#include <string>

namespace kopt::recorder {
namespace {

// The driver's functions the recorder calls, from the libcuda.so.1 that
// loaded this library.
class DriverAccess final : public DeviceAccess {
public:
  bool load() {
    void *Lib = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD);
    if (!Lib)
      return false;
    bool Ok = true;
    auto Get = [&](auto &Fn, const char *Name) {
      Fn = reinterpret_cast<std::remove_reference_t<decltype(Fn)>>(dlsym(Lib, Name));
      Ok = Ok && Fn;
    };
    Get(FuncGetParamInfo, "cuFuncGetParamInfo");
    Get(KernelGetParamInfo, "cuKernelGetParamInfo");
    Get(MemGetAddressRange, "cuMemGetAddressRange_v2");
    Get(StreamIsCapturing, "cuStreamIsCapturing");
    Get(CtxSynchronize, "cuCtxSynchronize");
    Get(MemcpyDtoH, "cuMemcpyDtoH_v2");
    Get(GetErrorString, "cuGetErrorString");
    Get(MemHostRegister, "cuMemHostRegister_v2");
    Get(MemHostUnregister, "cuMemHostUnregister");
    return Ok;
  }

  bool paramLayout(void *Function, std::vector<ParamLayout> &Params) override {
    // The runtime may pass a CUkernel where a CUfunction goes (CUDA 12+).
    for (auto Query : {0, 1}) {
      Params.clear();
      for (size_t I = 0;; ++I) {
        size_t Offset = 0, Size = 0;
        CUresult R = Query == 0 ? FuncGetParamInfo(CUfunction(Function), I, &Offset, &Size)
                                : KernelGetParamInfo(CUkernel(Function), I, &Offset, &Size);
        if (R != CUDA_SUCCESS) {
          if (R == CUDA_ERROR_INVALID_VALUE)
            return true; // Past the last parameter.
          break;
        }
        Params.push_back({uint32_t(Offset), uint32_t(Size)});
      }
    }
    return false;
  }

  bool allocationOf(uint64_t Address, uint64_t &Base, uint64_t &Bytes) override {
    CUdeviceptr B = 0;
    size_t S = 0;
    if (MemGetAddressRange(&B, &S, CUdeviceptr(Address)) != CUDA_SUCCESS)
      return false;
    Base = B;
    Bytes = S;
    return true;
  }

  bool isCapturing(void *Stream) override {
    CUstreamCaptureStatus Status = CU_STREAM_CAPTURE_STATUS_NONE;
    return StreamIsCapturing(CUstream(Stream), &Status) == CUDA_SUCCESS &&
           Status != CU_STREAM_CAPTURE_STATUS_NONE;
  }

  std::string synchronize() override { return text(CtxSynchronize(), "cuCtxSynchronize"); }

  std::string copyToHost(uint64_t Address, uint64_t Bytes, uint8_t *Out) override {
    return text(MemcpyDtoH(Out, CUdeviceptr(Address), Bytes), "cuMemcpyDtoH");
  }

  // Portable: the copies may run in any context of the application.
  bool pinHost(uint8_t *Data, uint64_t Bytes) override {
    return MemHostRegister(Data, Bytes, CU_MEMHOSTREGISTER_PORTABLE) == CUDA_SUCCESS;
  }

  void unpinHost(uint8_t *Data) override { MemHostUnregister(Data); }

private:
  std::string text(CUresult R, const char *Call) {
    if (R == CUDA_SUCCESS)
      return {};
    const char *S = nullptr;
    GetErrorString(R, &S);
    return std::string(Call) + ": " + (S ? S : "error " + std::to_string(int(R)));
  }

  CUresult (*FuncGetParamInfo)(CUfunction, size_t, size_t *, size_t *) = nullptr;
  CUresult (*KernelGetParamInfo)(CUkernel, size_t, size_t *, size_t *) = nullptr;
  CUresult (*MemGetAddressRange)(CUdeviceptr *, size_t *, CUdeviceptr) = nullptr;
  CUresult (*StreamIsCapturing)(CUstream, CUstreamCaptureStatus *) = nullptr;
  CUresult (*CtxSynchronize)() = nullptr;
  CUresult (*MemcpyDtoH)(void *, CUdeviceptr, size_t) = nullptr;
  CUresult (*GetErrorString)(CUresult, const char **) = nullptr;
  CUresult (*MemHostRegister)(void *, size_t, unsigned) = nullptr;
  CUresult (*MemHostUnregister)(void *) = nullptr;
};

DriverAccess *Driver = nullptr;
LaunchRecorder *Recorder = nullptr;
thread_local bool InFlight = false; // This thread's enter asked for an exit.

LaunchCall callFor(CUpti_CallbackId Id, const void *Params) {
  LaunchCall C;
  switch (Id) {
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz: {
    auto *P = static_cast<const cuLaunchKernel_params *>(Params);
    C = {P->f,
         {},
         {P->gridDimX, P->gridDimY, P->gridDimZ},
         {P->blockDimX, P->blockDimY, P->blockDimZ},
         P->sharedMemBytes,
         P->hStream,
         P->kernelParams,
         P->extra};
    break;
  }
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz: {
    auto *P = static_cast<const cuLaunchCooperativeKernel_params *>(Params);
    C = {P->f,
         {},
         {P->gridDimX, P->gridDimY, P->gridDimZ},
         {P->blockDimX, P->blockDimY, P->blockDimZ},
         P->sharedMemBytes,
         P->hStream,
         P->kernelParams,
         nullptr};
    break;
  }
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz: {
    auto *P = static_cast<const cuLaunchKernelEx_params *>(Params);
    const CUlaunchConfig &L = *P->config;
    C = {P->f,
         {},
         {L.gridDimX, L.gridDimY, L.gridDimZ},
         {L.blockDimX, L.blockDimY, L.blockDimZ},
         L.sharedMemBytes,
         L.hStream,
         P->kernelParams,
         P->extra};
    break;
  }
  default:
    break;
  }
  return C;
}

void CUPTIAPI onDriverCall(void *, CUpti_CallbackDomain Domain, CUpti_CallbackId Id,
                           const void *Data) {
  if (Domain != CUPTI_CB_DOMAIN_DRIVER_API || !Recorder)
    return;
  auto *Info = static_cast<const CUpti_CallbackData *>(Data);
  if (Id == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch ||
      Id == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz) {
    if (Info->callbackSite == CUPTI_API_ENTER)
      Recorder->skip("a graph launch (kernels in CUDA graphs are not recorded)");
    return;
  }
  if (Info->callbackSite == CUPTI_API_ENTER) {
    LaunchCall Call = callFor(Id, Info->functionParams);
    Call.Symbol = Info->symbolName ? Info->symbolName : "";
    InFlight = Call.Function && !Call.Symbol.empty() && Recorder->enter(Call);
    return;
  }
  if (InFlight) {
    InFlight = false;
    auto *Result = static_cast<const CUresult *>(Info->functionReturnValue);
    Recorder->exit(Result && *Result == CUDA_SUCCESS);
  }
}

} // namespace
} // namespace kopt::recorder

// Called by the driver (CUDA_INJECTION64_PATH) once, at cuInit. Returns
// nonzero: a recorder that cannot start leaves the application alone.
extern "C" __attribute__((visibility("default"))) int InitializeInjection() {
  using namespace kopt::recorder;
  if (Recorder)
    return 1;
  static DriverAccess TheDriver;
  RecorderConfig Config = RecorderConfig::fromEnvironment();
  static LaunchRecorder TheRecorder(Config, TheDriver);
  if (!TheDriver.load()) {
    TheRecorder.skip("the driver lacks a function the recorder needs (CUDA 12.4 or newer)");
    return 1;
  }
  CUpti_SubscriberHandle Subscriber;
  if (cuptiSubscribe(&Subscriber, onDriverCall, nullptr) != CUPTI_SUCCESS) {
    TheRecorder.skip("CUPTI refused the subscription (another tool may hold it)");
    return 1;
  }
  for (CUpti_CallbackId Id :
       {CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
        CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
        CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel,
        CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz,
        CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch, CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz})
    cuptiEnableCallback(1, Subscriber, CUPTI_CB_DOMAIN_DRIVER_API, Id);
  Driver = &TheDriver;
  Recorder = &TheRecorder;
  return 1;
}
