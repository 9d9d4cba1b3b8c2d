// How long each kernel of a program ran between cudaProfilerStart and cudaProfilerStop:
// a CUDA injection library (CUDA_INJECTION64_PATH) for bench/suite.py, which needs each
// kernel's measured share of a program's time to predict the program's speedup from the
// kernels' (Amdahl). The programs of bench/apps bracket one run of their computation with
// the profiler calls (apps::programMs).
//
// CUPTI's activity API records every kernel's start and end on the GPU; callbacks on the
// profiler calls record the bracket's ends in the same clock. At exit the kernels that ran
// inside a bracket are summed by name and written as JSON to the file KOPT_KERNEL_TIMES
// names:
//   {"format": "kopt-kernel-times-1", "ranges": N, "range_ms": M,
//    "kernels": [{"name": "bilateralFilter<4>", "symbol": "_Z...", "launches": L, "ms": T}],
//    "outside_ms": ...}
// The library never changes what the program computes; a failure is one line on stderr.
#include <cuda.h>
#include <cupti.h>

#include <cxxabi.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace {

struct Interval {
  uint64_t Start = 0, End = 0;
};

struct KernelRun {
  std::string Symbol;
  Interval When;
};

std::mutex Lock;
std::vector<Interval> Ranges;
uint64_t OpenedAt = 0;
bool Open = false;
std::vector<KernelRun> Runs;

void warn(const char *What, CUptiResult R) {
  const char *Text = nullptr;
  cuptiGetResultString(R, &Text);
  std::fprintf(stderr, "kopt-kernel-times: %s: %s\n", What, Text ? Text : "unknown error");
}

void CUPTIAPI bufferRequested(uint8_t **Buffer, size_t *Size, size_t *MaxRecords) {
  *Size = size_t(8) << 20;
  *Buffer = static_cast<uint8_t *>(std::aligned_alloc(8, *Size));
  *MaxRecords = 0;
}

void CUPTIAPI bufferCompleted(CUcontext, uint32_t, uint8_t *Buffer, size_t, size_t Valid) {
  CUpti_Activity *Record = nullptr;
  std::lock_guard<std::mutex> Guard(Lock);
  while (cuptiActivityGetNextRecord(Buffer, Valid, &Record) == CUPTI_SUCCESS)
    if (Record->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) {
      auto *K = reinterpret_cast<const CUpti_ActivityKernel10 *>(Record);
      Runs.push_back({K->name ? K->name : "?", {K->start, K->end}});
    }
  std::free(Buffer);
}

// The profiler calls, seen through the runtime and the driver alike (the runtime's call
// makes the driver's): the first start to return opens a bracket, the first stop to be
// entered closes it, so the bracket holds no part of either call.
void CUPTIAPI onCall(void *, CUpti_CallbackDomain Domain, CUpti_CallbackId Id, const void *Data) {
  auto *Info = static_cast<const CUpti_CallbackData *>(Data);
  bool IsStart = Domain == CUPTI_CB_DOMAIN_DRIVER_API
                     ? Id == CUPTI_DRIVER_TRACE_CBID_cuProfilerStart
                     : Id == CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStart_v4000;
  if (Info->callbackSite != (IsStart ? CUPTI_API_EXIT : CUPTI_API_ENTER))
    return;
  uint64_t Now = 0;
  cuptiGetTimestamp(&Now);
  std::lock_guard<std::mutex> Guard(Lock);
  if (IsStart && !Open) {
    Open = true;
    OpenedAt = Now;
  } else if (!IsStart && Open) {
    Open = false;
    Ranges.push_back({OpenedAt, Now});
  }
}

// "bilateralFilter<4>" from "void bilateralFilter<4>(float const*, float*)": the demangled
// name without its parameters and, for a template, its return type.
std::string functionName(const std::string &Symbol) {
  int Status = 0;
  char *Text = abi::__cxa_demangle(Symbol.c_str(), nullptr, nullptr, &Status);
  if (Status != 0 || !Text)
    return Symbol;
  std::string Name = Text;
  std::free(Text);
  if (!Name.empty() && Name.back() == ')') {
    int Depth = 0;
    for (size_t I = Name.size(); I-- > 0;) {
      Depth += Name[I] == ')' ? 1 : Name[I] == '(' ? -1 : 0;
      if (Depth == 0) {
        Name.resize(I);
        break;
      }
    }
  }
  if (Name.rfind("void ", 0) == 0)
    Name = Name.substr(5);
  return Name;
}

std::string jsonString(const std::string &S) {
  std::string Out = "\"";
  for (char C : S) {
    if (C == '"' || C == '\\')
      Out += '\\';
    if (static_cast<unsigned char>(C) >= 0x20)
      Out += C;
  }
  return Out + "\"";
}

void writeTimes() {
  if (CUptiResult R = cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED); R != CUPTI_SUCCESS)
    warn("flushing the kernel records", R);
  const char *Path = std::getenv("KOPT_KERNEL_TIMES");
  std::lock_guard<std::mutex> Guard(Lock);
  struct Total {
    std::string Symbol;
    uint64_t Launches = 0, Ns = 0;
  };
  std::map<std::string, Total> Inside;
  uint64_t OutsideNs = 0, RangeNs = 0;
  for (const Interval &R : Ranges)
    RangeNs += R.End - R.Start;
  for (const KernelRun &K : Runs) {
    bool In = false;
    for (const Interval &R : Ranges)
      In = In || (K.When.Start >= R.Start && K.When.End <= R.End);
    if (!In) {
      OutsideNs += K.When.End - K.When.Start;
      continue;
    }
    Total &T = Inside[functionName(K.Symbol)];
    T.Symbol = K.Symbol;
    ++T.Launches;
    T.Ns += K.When.End - K.When.Start;
  }
  FILE *F = Path ? std::fopen(Path, "w") : nullptr;
  if (!F) {
    std::fprintf(stderr, "kopt-kernel-times: cannot write '%s' (KOPT_KERNEL_TIMES)\n",
                 Path ? Path : "");
    return;
  }
  std::fprintf(F, "{\"format\": \"kopt-kernel-times-1\", \"ranges\": %zu, \"range_ms\": %.6f, ",
               Ranges.size(), RangeNs * 1e-6);
  std::fprintf(F, "\"outside_ms\": %.6f, \"kernels\": [", OutsideNs * 1e-6);
  const char *Separator = "";
  for (const auto &[Name, T] : Inside) {
    std::fprintf(F, "%s\n {\"name\": %s, \"symbol\": %s, \"launches\": %llu, \"ms\": %.6f}",
                 Separator, jsonString(Name).c_str(), jsonString(T.Symbol).c_str(),
                 static_cast<unsigned long long>(T.Launches), T.Ns * 1e-6);
    Separator = ",";
  }
  std::fprintf(F, "]}\n");
  std::fclose(F);
}

} // namespace

// Called by the driver (CUDA_INJECTION64_PATH) once, at cuInit. The exit handler runs
// before the CUDA runtime's own, registered earlier, tears the context down.
extern "C" __attribute__((visibility("default"))) int InitializeInjection() {
  static bool Started = false;
  if (Started)
    return 1;
  Started = true;
  if (CUptiResult R = cuptiActivityRegisterCallbacks(bufferRequested, bufferCompleted);
      R != CUPTI_SUCCESS) {
    warn("registering the activity buffers", R);
    return 1;
  }
  if (CUptiResult R = cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
      R != CUPTI_SUCCESS) {
    warn("enabling kernel records", R);
    return 1;
  }
  CUpti_SubscriberHandle Subscriber;
  if (CUptiResult R = cuptiSubscribe(&Subscriber, onCall, nullptr); R != CUPTI_SUCCESS) {
    warn("subscribing to the profiler calls", R);
    return 1;
  }
  cuptiEnableCallback(1, Subscriber, CUPTI_CB_DOMAIN_DRIVER_API,
                      CUPTI_DRIVER_TRACE_CBID_cuProfilerStart);
  cuptiEnableCallback(1, Subscriber, CUPTI_CB_DOMAIN_DRIVER_API,
                      CUPTI_DRIVER_TRACE_CBID_cuProfilerStop);
  cuptiEnableCallback(1, Subscriber, CUPTI_CB_DOMAIN_RUNTIME_API,
                      CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStart_v4000);
  cuptiEnableCallback(1, Subscriber, CUPTI_CB_DOMAIN_RUNTIME_API,
                      CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStop_v4000);
  std::atexit(writeTimes);
  return 1;
}
