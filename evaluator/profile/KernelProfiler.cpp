#include "evaluator/profile/KernelProfiler.h"

#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_result.h>
#include <cupti_target.h>
#include <dlfcn.h>
#include <llvm/ADT/ScopeExit.h>

#include <cmath>
#include <cstdlib>
#include <initializer_list>
#include <mutex>
#include <vector>

#ifndef KOPT_CUPTI_LIBRARY
#define KOPT_CUPTI_LIBRARY "/usr/local/cuda/lib64/libcupti.so.13"
#endif

namespace kopt::evaluator {

struct KernelProfiler::Api {
  decltype(&::cuptiGetResultString) GetResultString = nullptr;
  decltype(&::cuptiProfilerInitialize) Initialize = nullptr;
  decltype(&::cuptiProfilerDeInitialize) DeInitialize = nullptr;
  decltype(&::cuptiDeviceGetChipName) GetChipName = nullptr;
  decltype(&::cuptiProfilerGetCounterAvailability) GetCounterAvailability = nullptr;
  decltype(&::cuptiProfilerHostInitialize) HostInitialize = nullptr;
  decltype(&::cuptiProfilerHostDeinitialize) HostDeinitialize = nullptr;
  decltype(&::cuptiProfilerHostConfigAddMetrics) HostConfigAddMetrics = nullptr;
  decltype(&::cuptiProfilerHostGetConfigImageSize) HostGetConfigImageSize = nullptr;
  decltype(&::cuptiProfilerHostGetConfigImage) HostGetConfigImage = nullptr;
  decltype(&::cuptiProfilerHostEvaluateToGpuValues) HostEvaluateToGpuValues = nullptr;
  decltype(&::cuptiRangeProfilerEnable) Enable = nullptr;
  decltype(&::cuptiRangeProfilerDisable) Disable = nullptr;
  decltype(&::cuptiRangeProfilerGetCounterDataSize) GetCounterDataSize = nullptr;
  decltype(&::cuptiRangeProfilerCounterDataImageInitialize) CounterDataImageInitialize = nullptr;
  decltype(&::cuptiRangeProfilerSetConfig) SetConfig = nullptr;
  decltype(&::cuptiRangeProfilerStart) Start = nullptr;
  decltype(&::cuptiRangeProfilerStop) Stop = nullptr;
  decltype(&::cuptiRangeProfilerDecodeData) DecodeData = nullptr;
  decltype(&::cuptiRangeProfilerGetCounterDataInfo) GetCounterDataInfo = nullptr;

  // "cuptiX: CUPTI_ERROR_...: text"; success gives llvm::Error::success().
  llvm::Error check(CUptiResult Result, const char *Call) const {
    if (Result == CUPTI_SUCCESS)
      return llvm::Error::success();
    const char *Text = "unknown CUPTI error";
    if (GetResultString)
      GetResultString(Result, &Text);
    std::string Message = std::string(Call) + ": " + Text;
    if (Result == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES)
      Message += " (the driver restricts GPU performance counters to admin users: "
                 "NVreg_RestrictProfilingToAdminUsers=0 lifts it)";
    return llvm::createStringError(Message);
  }
};

namespace {
// What the planner's priors read first: throughputs, occupancy, DRAM bytes.
const char *const Core[] = {
    "gpu__time_duration.sum",
    "dram__throughput.avg.pct_of_peak_sustained_elapsed",
    "sm__throughput.avg.pct_of_peak_sustained_elapsed",
    "sm__warps_active.avg.pct_of_peak_sustained_active",
    "dram__bytes.sum",
};

// Floating-point work, for the arithmetic intensity (ProfileFacts.h).
const char *const Flops[] = {
    "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_dadd_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_dmul_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_dfma_pred_on.sum",
};

// The rest: cache hit rates, access efficiency, branches and warp stalls.
const char *const Detail[] = {
    "l1tex__t_sector_hit_rate.pct",
    "lts__t_sector_hit_rate.pct",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    "smsp__thread_inst_executed_per_inst_executed.ratio",
    "smsp__sass_average_branch_targets_threads_uniform.pct",
    "smsp__sass_branch_targets.sum",
    "smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct",
    "smsp__warp_issue_stalled_barrier_per_warp_active.pct",
    "smsp__warp_issue_stalled_mio_throttle_per_warp_active.pct",
    "smsp__warp_issue_stalled_lg_throttle_per_warp_active.pct",
    "smsp__warp_issue_stalled_math_pipe_throttle_per_warp_active.pct",
    "smsp__warp_issue_stalled_short_scoreboard_per_warp_active.pct",
};

std::vector<const char *> concatenated(std::initializer_list<llvm::ArrayRef<const char *>> Lists) {
  std::vector<const char *> Out;
  for (llvm::ArrayRef<const char *> L : Lists)
    Out.insert(Out.end(), L.begin(), L.end());
  return Out;
}

// A CUPTI parameter block: zeroed, its structSize set (the ABI's version).
template <typename T> T params(size_t Size) {
  T P{};
  P.structSize = Size;
  return P;
}

template <typename Fn> llvm::Error resolve(void *Handle, const char *Name, Fn &Out) {
  Out = reinterpret_cast<Fn>(::dlsym(Handle, Name));
  if (!Out)
    return llvm::createStringError("libcupti lacks %s (older than CUDA 13?)", Name);
  return llvm::Error::success();
}
} // namespace

Profile Profile::unavailable(llvm::StringRef Reason) {
  Profile P;
  P.Error = ("unavailable: " + Reason).str();
  return P;
}

llvm::ArrayRef<const char *> defaultProfileMetrics() {
  static const std::vector<const char *> All = concatenated({Core, Flops, Detail});
  return All;
}
llvm::ArrayRef<const char *> minimalProfileMetrics() { return Core; }
llvm::ArrayRef<const char *> coreProfileMetrics() {
  static const std::vector<const char *> Some = concatenated({Core, Flops});
  return Some;
}

Profile profileFromValues(llvm::ArrayRef<std::string> Names, llvm::ArrayRef<double> Values) {
  Profile P;
  for (size_t I = 0; I < Names.size() && I < Values.size(); ++I)
    if (std::isfinite(Values[I]))
      P.Metrics[Names[I]] = Values[I];
  return P;
}

llvm::Expected<KernelProfiler &> KernelProfiler::load() {
  static KernelProfiler Profiler;
  static std::string Failure; // Empty once the library opened.
  static std::once_flag Once;
  std::call_once(Once, [] { Failure = llvm::toString(Profiler.open()); });
  if (!Failure.empty())
    return llvm::createStringError(Failure);
  return Profiler;
}

llvm::Error KernelProfiler::open() {
  std::vector<std::string> Candidates;
  if (const char *Override = std::getenv("KOPT_LIBCUPTI"); Override && *Override)
    Candidates = {Override};
  else // The loader's path first, then the toolkit kopt was built with.
    Candidates = {"libcupti.so.13", KOPT_CUPTI_LIBRARY};
  void *Handle = nullptr;
  std::string Reasons;
  for (const std::string &C : Candidates) {
    if ((Handle = ::dlopen(C.c_str(), RTLD_NOW | RTLD_LOCAL))) {
      LibraryPath = C;
      break;
    }
    Reasons += (Reasons.empty() ? "" : "; ") + std::string(::dlerror());
  }
  if (!Handle)
    return llvm::createStringError("no CUPTI: cannot load %s", Reasons.c_str());
  auto *A = new Api(); // Process lifetime, like the library.
  llvm::Error Missing = llvm::Error::success();
  auto Get = [&](const char *Name, auto &Out) {
    Missing = llvm::joinErrors(std::move(Missing), resolve(Handle, Name, Out));
  };
  Get("cuptiGetResultString", A->GetResultString);
  Get("cuptiProfilerInitialize", A->Initialize);
  Get("cuptiProfilerDeInitialize", A->DeInitialize);
  Get("cuptiDeviceGetChipName", A->GetChipName);
  Get("cuptiProfilerGetCounterAvailability", A->GetCounterAvailability);
  Get("cuptiProfilerHostInitialize", A->HostInitialize);
  Get("cuptiProfilerHostDeinitialize", A->HostDeinitialize);
  Get("cuptiProfilerHostConfigAddMetrics", A->HostConfigAddMetrics);
  Get("cuptiProfilerHostGetConfigImageSize", A->HostGetConfigImageSize);
  Get("cuptiProfilerHostGetConfigImage", A->HostGetConfigImage);
  Get("cuptiProfilerHostEvaluateToGpuValues", A->HostEvaluateToGpuValues);
  Get("cuptiRangeProfilerEnable", A->Enable);
  Get("cuptiRangeProfilerDisable", A->Disable);
  Get("cuptiRangeProfilerGetCounterDataSize", A->GetCounterDataSize);
  Get("cuptiRangeProfilerCounterDataImageInitialize", A->CounterDataImageInitialize);
  Get("cuptiRangeProfilerSetConfig", A->SetConfig);
  Get("cuptiRangeProfilerStart", A->Start);
  Get("cuptiRangeProfilerStop", A->Stop);
  Get("cuptiRangeProfilerDecodeData", A->DecodeData);
  Get("cuptiRangeProfilerGetCounterDataInfo", A->GetCounterDataInfo);
  if (Missing) {
    delete A;
    return Missing;
  }
  Calls = A;
  return llvm::Error::success();
}

llvm::Expected<Profile> KernelProfiler::profile(CUcontext Context, int DeviceIndex,
                                                llvm::ArrayRef<std::string> Metrics,
                                                llvm::function_ref<llvm::Error()> Launch) {
  const Api &A = *Calls;
  auto Init =
      params<CUpti_Profiler_Initialize_Params>(CUpti_Profiler_Initialize_Params_STRUCT_SIZE);
  if (auto E = A.check(A.Initialize(&Init), "cuptiProfilerInitialize"))
    return E;
  auto DeInit = llvm::make_scope_exit([&] {
    auto P =
        params<CUpti_Profiler_DeInitialize_Params>(CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE);
    A.DeInitialize(&P);
  });

  auto Chip = params<CUpti_Device_GetChipName_Params>(CUpti_Device_GetChipName_Params_STRUCT_SIZE);
  Chip.deviceIndex = static_cast<size_t>(DeviceIndex);
  if (auto E = A.check(A.GetChipName(&Chip), "cuptiDeviceGetChipName"))
    return E;
  std::string ChipName = Chip.pChipName ? Chip.pChipName : "";

  auto Avail = params<CUpti_Profiler_GetCounterAvailability_Params>(
      CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE);
  Avail.ctx = Context;
  if (auto E = A.check(A.GetCounterAvailability(&Avail), "cuptiProfilerGetCounterAvailability"))
    return E;
  std::vector<uint8_t> Availability(Avail.counterAvailabilityImageSize);
  Avail.pCounterAvailabilityImage = Availability.data();
  if (auto E = A.check(A.GetCounterAvailability(&Avail), "cuptiProfilerGetCounterAvailability"))
    return E;

  // A host object with Names added; ConfigAddMetrics rejects the whole list
  // when one name is unknown to the chip.
  auto NewHost = [&](llvm::ArrayRef<const char *> Names,
                     CUpti_Profiler_Host_Object *&Out) -> llvm::Error {
    auto H = params<CUpti_Profiler_Host_Initialize_Params>(
        CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE);
    H.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
    H.pChipName = ChipName.c_str();
    H.pCounterAvailabilityImage = Availability.data();
    if (auto E = A.check(A.HostInitialize(&H), "cuptiProfilerHostInitialize"))
      return E;
    Out = H.pHostObject;
    auto Add = params<CUpti_Profiler_Host_ConfigAddMetrics_Params>(
        CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE);
    Add.pHostObject = Out;
    Add.ppMetricNames = const_cast<const char **>(Names.data());
    Add.numMetrics = Names.size();
    return A.check(A.HostConfigAddMetrics(&Add), "cuptiProfilerHostConfigAddMetrics");
  };
  auto FreeHost = [&](CUpti_Profiler_Host_Object *&Object) {
    if (!Object)
      return;
    auto P = params<CUpti_Profiler_Host_Deinitialize_Params>(
        CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE);
    P.pHostObject = Object;
    A.HostDeinitialize(&P);
    Object = nullptr;
  };

  Profile Result;
  std::vector<std::string> Kept(Metrics.begin(), Metrics.end());
  auto Pointers = [&] {
    std::vector<const char *> P;
    for (const std::string &M : Kept)
      P.push_back(M.c_str());
    return P;
  };
  CUpti_Profiler_Host_Object *Host = nullptr;
  auto FreeFinal = llvm::make_scope_exit([&] { FreeHost(Host); });
  if (llvm::Error E = NewHost(Pointers(), Host)) {
    // Find the unknown names one by one; the rest are still worth measuring.
    llvm::consumeError(std::move(E));
    FreeHost(Host);
    std::vector<std::string> Known;
    for (const std::string &M : Kept) {
      CUpti_Profiler_Host_Object *Probe = nullptr;
      const char *Name = M.c_str();
      llvm::Error Bad = NewHost(Name, Probe);
      FreeHost(Probe);
      if (Bad) {
        llvm::consumeError(std::move(Bad));
        Result.Skipped.push_back(M);
      } else {
        Known.push_back(M);
      }
    }
    Kept = std::move(Known);
    if (Kept.empty())
      return llvm::createStringError("the profiler knows none of the metrics on chip %s",
                                     ChipName.c_str());
    if (auto E2 = NewHost(Pointers(), Host))
      return E2;
  }
  std::vector<const char *> Names = Pointers();

  auto Size = params<CUpti_Profiler_Host_GetConfigImageSize_Params>(
      CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE);
  Size.pHostObject = Host;
  if (auto E = A.check(A.HostGetConfigImageSize(&Size), "cuptiProfilerHostGetConfigImageSize"))
    return E;
  std::vector<uint8_t> Config(Size.configImageSize);
  auto Image = params<CUpti_Profiler_Host_GetConfigImage_Params>(
      CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE);
  Image.pHostObject = Host;
  Image.configImageSize = Config.size();
  Image.pConfigImage = Config.data();
  if (auto E = A.check(A.HostGetConfigImage(&Image), "cuptiProfilerHostGetConfigImage"))
    return E;

  auto Enable =
      params<CUpti_RangeProfiler_Enable_Params>(CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE);
  Enable.ctx = Context;
  if (auto E = A.check(A.Enable(&Enable), "cuptiRangeProfilerEnable"))
    return E;
  CUpti_RangeProfiler_Object *Object = Enable.pRangeProfilerObject;
  auto Disable = llvm::make_scope_exit([&] {
    auto P =
        params<CUpti_RangeProfiler_Disable_Params>(CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE);
    P.pRangeProfilerObject = Object;
    A.Disable(&P);
  });

  // One range: the one launch.
  auto DataSize = params<CUpti_RangeProfiler_GetCounterDataSize_Params>(
      CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE);
  DataSize.pRangeProfilerObject = Object;
  DataSize.pMetricNames = Names.data();
  DataSize.numMetrics = Names.size();
  DataSize.maxNumOfRanges = 1;
  DataSize.maxNumRangeTreeNodes = 1;
  if (auto E = A.check(A.GetCounterDataSize(&DataSize), "cuptiRangeProfilerGetCounterDataSize"))
    return E;
  std::vector<uint8_t> Data(DataSize.counterDataSize);
  auto DataInit = params<CUpti_RangeProfiler_CounterDataImage_Initialize_Params>(
      CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE);
  DataInit.pRangeProfilerObject = Object;
  DataInit.counterDataSize = Data.size();
  DataInit.pCounterData = Data.data();
  if (auto E = A.check(A.CounterDataImageInitialize(&DataInit),
                       "cuptiRangeProfilerCounterDataImageInitialize"))
    return E;

  // Auto range with kernel replay: the launch is the range, and CUPTI replays
  // it once per pass, restoring the memory it writes in between.
  auto Set = params<CUpti_RangeProfiler_SetConfig_Params>(
      CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE);
  Set.pRangeProfilerObject = Object;
  Set.configSize = Config.size();
  Set.pConfig = Config.data();
  Set.counterDataImageSize = Data.size();
  Set.pCounterDataImage = Data.data();
  Set.range = CUPTI_AutoRange;
  Set.replayMode = CUPTI_KernelReplay;
  Set.maxRangesPerPass = 1;
  Set.numNestingLevels = 1;
  Set.minNestingLevel = 1;
  Set.passIndex = 0;
  Set.targetNestingLevel = 1;
  if (auto E = A.check(A.SetConfig(&Set), "cuptiRangeProfilerSetConfig"))
    return E;

  auto Start =
      params<CUpti_RangeProfiler_Start_Params>(CUpti_RangeProfiler_Start_Params_STRUCT_SIZE);
  Start.pRangeProfilerObject = Object;
  if (auto E = A.check(A.Start(&Start), "cuptiRangeProfilerStart"))
    return E;
  llvm::Error Launched = Launch();
  auto Stop = params<CUpti_RangeProfiler_Stop_Params>(CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE);
  Stop.pRangeProfilerObject = Object;
  llvm::Error Stopped = A.check(A.Stop(&Stop), "cuptiRangeProfilerStop");
  if (Launched || Stopped)
    return llvm::joinErrors(std::move(Launched), std::move(Stopped));
  if (!Stop.isAllPassSubmitted)
    return llvm::createStringError("kernel replay left passes unsubmitted after the launch");

  auto Decode = params<CUpti_RangeProfiler_DecodeData_Params>(
      CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE);
  Decode.pRangeProfilerObject = Object;
  if (auto E = A.check(A.DecodeData(&Decode), "cuptiRangeProfilerDecodeData"))
    return E;
  auto Info = params<CUpti_RangeProfiler_GetCounterDataInfo_Params>(
      CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE);
  Info.pCounterDataImage = Data.data();
  Info.counterDataImageSize = Data.size();
  if (auto E = A.check(A.GetCounterDataInfo(&Info), "cuptiRangeProfilerGetCounterDataInfo"))
    return E;
  if (Info.numTotalRanges == 0)
    return llvm::createStringError("the profiler recorded no kernel launch");

  std::vector<double> Values(Names.size(), std::nan(""));
  auto Eval = params<CUpti_Profiler_Host_EvaluateToGpuValues_Params>(
      CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE);
  Eval.pHostObject = Host;
  Eval.pCounterDataImage = Data.data();
  Eval.counterDataImageSize = Data.size();
  Eval.rangeIndex = 0;
  Eval.ppMetricNames = Names.data();
  Eval.numMetrics = Names.size();
  Eval.pMetricValues = Values.data();
  if (auto E = A.check(A.HostEvaluateToGpuValues(&Eval), "cuptiProfilerHostEvaluateToGpuValues"))
    return E;
  Profile Measured = profileFromValues(Kept, Values);
  Measured.Skipped = std::move(Result.Skipped);
  return Measured;
}

Profile profileKernel(CUcontext Context, int DeviceIndex, llvm::ArrayRef<std::string> Metrics,
                      llvm::function_ref<llvm::Error()> Launch) {
  auto Profiler = KernelProfiler::load();
  if (!Profiler)
    return Profile::unavailable(llvm::toString(Profiler.takeError()));
  auto P = Profiler->profile(Context, DeviceIndex, Metrics, Launch);
  if (!P)
    return Profile::unavailable(llvm::toString(P.takeError()));
  return std::move(*P);
}

} // namespace kopt::evaluator
