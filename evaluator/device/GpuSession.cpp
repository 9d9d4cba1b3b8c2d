#include "evaluator/device/GpuSession.h"

#include "evaluator/workload/InputGenerator.h"
#include "evaluator/workload/OutputComparison.h"

#include <llvm/ADT/ScopeExit.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <thread>

namespace kopt::evaluator {

namespace {
using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point T) {
  return std::chrono::duration<double>(Clock::now() - T).count();
}

// Where a run on Seed draws A as local indices (GpuSession.h's LocalIndicesSeed).
std::optional<LocalIndices> localIndicesOn(uint64_t Seed, const BufferArg &A) {
  if (Seed != GpuSession::LocalIndicesSeed || !drawsLocalIndices(A))
    return std::nullopt;
  return LocalIndices{A.Count};
}

// Errors after which the context is unusable.
bool isSticky(CUresult R) {
  switch (R) {
  case CUDA_ERROR_ILLEGAL_ADDRESS:
  case CUDA_ERROR_LAUNCH_FAILED:
  case CUDA_ERROR_ILLEGAL_INSTRUCTION:
  case CUDA_ERROR_MISALIGNED_ADDRESS:
  case CUDA_ERROR_INVALID_ADDRESS_SPACE:
  case CUDA_ERROR_INVALID_PC:
  case CUDA_ERROR_HARDWARE_STACK_ERROR:
  case CUDA_ERROR_ASSERT:
  case CUDA_ERROR_LAUNCH_TIMEOUT:
  case CUDA_ERROR_ECC_UNCORRECTABLE:
  case CUDA_ERROR_CONTEXT_IS_DESTROYED:
    return true;
  default:
    return false;
  }
}
} // namespace

llvm::Expected<std::unique_ptr<GpuSession>> GpuSession::open(int Ordinal) {
  auto DriverOr = CudaDriver::load();
  if (!DriverOr)
    return DriverOr.takeError();
  std::unique_ptr<GpuSession> S(new GpuSession());
  CudaDriver &D = *DriverOr;
  S->Driver = &D;
  auto Info = queryDevice(D, Ordinal);
  if (!Info)
    return Info.takeError();
  S->Device = std::move(*Info);
  if (auto E = D.check(D.DeviceGet(&S->Dev, Ordinal), "cuDeviceGet"))
    return E;
  if (auto E = D.check(D.DevicePrimaryCtxRetain(&S->Context, S->Dev), "cuDevicePrimaryCtxRetain"))
    return E;
  if (auto E = D.check(D.CtxSetCurrent(S->Context), "cuCtxSetCurrent"))
    return E;
  if (auto E = D.check(D.StreamCreate(&S->Stream, CU_STREAM_NON_BLOCKING), "cuStreamCreate"))
    return E;
  if (auto E = D.check(D.EventCreate(&S->Start, CU_EVENT_DEFAULT), "cuEventCreate"))
    return E;
  if (auto E = D.check(D.EventCreate(&S->Stop, CU_EVENT_DEFAULT), "cuEventCreate"))
    return E;
  S->FlushBytes =
      std::max<uint64_t>(2 * static_cast<uint64_t>(S->Device.L2CacheBytes), 64ull << 20);
  if (auto E = D.check(D.MemAlloc(&S->Flush, S->FlushBytes), "cuMemAlloc"))
    return E;
  if (auto E =
          D.check(D.MemAlloc(&S->Partials, CompareBlocks * sizeof(ComparePartial)), "cuMemAlloc"))
    return E;
  auto Kernels = DeviceKernels::load(D, S->Device.smArch());
  if (!Kernels)
    return Kernels.takeError();
  S->Own = *Kernels;
  return S;
}

GpuSession::~GpuSession() {
  if (!Driver)
    return;
  releaseBuffers();
  if (Flush)
    Driver->MemFree(Flush);
  if (Partials)
    Driver->MemFree(Partials);
  if (Own.Module)
    Driver->ModuleUnload(Own.Module);
  if (Start)
    Driver->EventDestroy(Start);
  if (Stop)
    Driver->EventDestroy(Stop);
  if (Stream)
    Driver->StreamDestroy(Stream);
  if (Context)
    Driver->DevicePrimaryCtxRelease(Dev);
}

llvm::Expected<LoadedKernel> GpuSession::load(const CompiledKernel &Kernel,
                                              const LaunchGeometry &Launch) {
  LoadedKernel K;
  if (auto E =
          Driver->check(Driver->ModuleLoadData(&K.Module, Kernel.Cubin.data()), "cuModuleLoadData"))
    return E;
  if (auto E = Driver->check(
          Driver->ModuleGetFunction(&K.Function, K.Module, Kernel.LoweredName.c_str()),
          "cuModuleGetFunction")) {
    Driver->ModuleUnload(K.Module);
    return E;
  }
  auto Attr = [&](CUfunction_attribute A) {
    int V = 0;
    Driver->FuncGetAttribute(&V, A, K.Function);
    return V;
  };
  K.Resources.Registers = Attr(CU_FUNC_ATTRIBUTE_NUM_REGS);
  K.Resources.StaticSharedBytes = Attr(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES);
  K.Resources.LocalBytes = Attr(CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES);
  K.Resources.MaxThreadsPerBlock = Attr(CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
  if (Launch.SharedBytes > 48 * 1024)
    Driver->FuncSetAttribute(K.Function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                             static_cast<int>(Launch.SharedBytes));
  int BlockThreads = static_cast<int>(Launch.Block[0] * Launch.Block[1] * Launch.Block[2]);
  int Blocks = 0;
  if (BlockThreads > 0 && Device.MaxThreadsPerMultiprocessor > 0 &&
      Driver->OccupancyMaxActiveBlocksPerMultiprocessor(&Blocks, K.Function, BlockThreads,
                                                        Launch.SharedBytes) == CUDA_SUCCESS)
    K.Resources.TheoreticalOccupancy =
        static_cast<double>(Blocks * BlockThreads) / Device.MaxThreadsPerMultiprocessor;
  return K;
}

void GpuSession::unload(LoadedKernel &Kernel) {
  if (Kernel.Module)
    Driver->ModuleUnload(Kernel.Module);
  Kernel = LoadedKernel();
}

void GpuSession::releaseBuffers() {
  while (!References.empty())
    dropOldestReference();
  for (DeviceBuffer &B : Buffers) {
    if (B.Base)
      Driver->MemFree(B.Base);
    if (B.Pristine)
      Driver->MemFree(B.Pristine);
  }
  Buffers.clear();
  Args.clear();
}

llvm::Error GpuSession::prepare(const Workload &W) {
  releaseBuffers();
  RecordedInputs.clear();
  Current = W;
  for (const KernelArg &A : Current.Args) {
    const BufferArg *B = A.buffer();
    if (!B)
      continue;
    DeviceBuffer D;
    D.Bytes = B->Count * sizeOf(B->Element);
    if (auto E = Driver->check(Driver->MemAlloc(&D.Base, D.Bytes + 2 * GuardBytes), "cuMemAlloc"))
      return E;
    Buffers.push_back(D); // Before the next allocation: releaseBuffers frees it on failure.
    Args.push_back(B);
    if (B->Dir == Direction::InOut)
      if (auto E = Driver->check(
              Driver->MemAlloc(&Buffers.back().Pristine, std::max<uint64_t>(D.Bytes, 1)),
              "cuMemAlloc"))
        return E;
  }
  return llvm::Error::success();
}

void GpuSession::setRecordedInputs(std::vector<std::vector<uint8_t>> Inputs) {
  RecordedInputs = std::move(Inputs);
}

bool GpuSession::hasLocalIndices(const Workload &W) {
  return std::any_of(W.Args.begin(), W.Args.end(), [](const KernelArg &A) {
    return A.buffer() && drawsLocalIndices(*A.buffer());
  });
}

DeviceContext GpuSession::deviceContext() { return DeviceContext{*Driver, Own, Stream, Partials}; }

// Every buffer as a run on Seed starts: inputs generated afresh (a variant
// that changed an input cannot leak into the next run), outputs poisoned.
llvm::Error GpuSession::upload(uint64_t Seed) {
  for (size_t I = 0; I < Buffers.size(); ++I) {
    DeviceBuffer &B = Buffers[I];
    const BufferArg &A = *Args[I];
    if (auto E = Driver->check(Driver->MemsetD8Async(B.Base, GuardByte, GuardBytes, Stream),
                               "cuMemsetD8Async"))
      return E;
    if (auto E = Driver->check(
            Driver->MemsetD8Async(B.Base + GuardBytes + B.Bytes, GuardByte, GuardBytes, Stream),
            "cuMemsetD8Async"))
      return E;
    if (A.Dir == Direction::Out) {
      if (auto E =
              Driver->check(Driver->MemsetD8Async(B.Base + GuardBytes, PoisonByte, B.Bytes, Stream),
                            "cuMemsetD8Async"))
        return E;
      continue;
    }
    if (Seed == RecordedSeed && I < RecordedInputs.size()) {
      const std::vector<uint8_t> &Bytes = RecordedInputs[I];
      if (auto E = Driver->check(Driver->StreamSynchronize(Stream), "cuStreamSynchronize"))
        return E;
      if (auto E = Driver->check(Driver->MemcpyHtoD(B.Base + GuardBytes, Bytes.data(),
                                                    std::min<uint64_t>(Bytes.size(), B.Bytes)),
                                 "cuMemcpyHtoD"))
        return E;
    } else if (auto E = generateOnDevice(deviceContext(), B.Base + GuardBytes, A.Element, A.Count,
                                         inputStreamKey(Seed, static_cast<unsigned>(I)), A.Range,
                                         A.Offsets, localIndicesOn(Seed, A))) {
      return E;
    }
    if (B.Pristine && B.Bytes)
      if (auto E = Driver->check(
              Driver->MemcpyDtoDAsync(B.Pristine, B.Base + GuardBytes, B.Bytes, Stream),
              "cuMemcpyDtoDAsync"))
        return E;
  }
  return Driver->check(Driver->StreamSynchronize(Stream), "cuStreamSynchronize");
}

bool GpuSession::hasReference(uint64_t Seed) const {
  for (const ReferenceSet &R : References)
    if (R.Seed == Seed)
      return true;
  return false;
}

void GpuSession::dropOldestReference() {
  for (CUdeviceptr P : References.front().Copies)
    if (P)
      Driver->MemFree(P);
  References.pop_front();
}

llvm::Error GpuSession::keepReference(uint64_t Seed) {
  // Left free for the kernels' own needs (local memory, printf, the next set's
  // bookkeeping): a full device would make variants fail to launch.
  constexpr uint64_t Reserve = 512ull << 20;
  uint64_t Need = 0;
  for (size_t I = 0; I < Buffers.size(); ++I)
    if (Args[I]->Dir != Direction::In)
      Need += std::max<uint64_t>(Buffers[I].Bytes, 1);
  for (;;) {
    size_t Free = 0, Total = 0;
    if (auto E = Driver->check(Driver->MemGetInfo(&Free, &Total), "cuMemGetInfo"))
      return E;
    if (References.size() < MaxReferenceSets && Free >= Need + Reserve)
      break;
    if (References.empty())
      return llvm::createStringError(
          "the device lacks memory for one copy of the original's outputs (" +
          std::to_string(Need >> 20) + " MiB needed, " + std::to_string(Free >> 20) + " MiB free)");
    dropOldestReference();
  }
  ReferenceSet Set{Seed, std::vector<CUdeviceptr>(Buffers.size(), 0)};
  auto Release = [&] {
    for (CUdeviceptr P : Set.Copies)
      if (P)
        Driver->MemFree(P);
  };
  for (size_t I = 0; I < Buffers.size(); ++I) {
    if (Args[I]->Dir == Direction::In)
      continue;
    const DeviceBuffer &B = Buffers[I];
    llvm::Error E = Driver->check(Driver->MemAlloc(&Set.Copies[I], std::max<uint64_t>(B.Bytes, 1)),
                                  "cuMemAlloc");
    if (!E && B.Bytes)
      E = Driver->check(
          Driver->MemcpyDtoDAsync(Set.Copies[I], B.Base + GuardBytes, B.Bytes, Stream),
          "cuMemcpyDtoDAsync");
    if (E) {
      Release();
      return E;
    }
  }
  if (auto E = Driver->check(Driver->StreamSynchronize(Stream), "cuStreamSynchronize")) {
    Release();
    return E;
  }
  References.push_back(std::move(Set));
  return llvm::Error::success();
}

llvm::Expected<BufferComparison> GpuSession::compareBuffer(size_t BufferIndex, uint64_t Seed,
                                                           const Tolerance &Tol) {
  const BufferArg &A = *Args.at(BufferIndex);
  CUdeviceptr Got = Buffers[BufferIndex].Base + GuardBytes;
  if (A.Dir == Direction::In)
    return compareOnDevice(
        deviceContext(), Got, 0, inputStreamKey(Seed, static_cast<unsigned>(BufferIndex)),
        A.Element, A.Count, Tol, /*Bytewise=*/true, A.Range, A.Offsets, localIndicesOn(Seed, A));
  for (const ReferenceSet &R : References)
    if (R.Seed == Seed)
      return compareOnDevice(deviceContext(), Got, R.Copies[BufferIndex], 0, A.Element, A.Count,
                             Tol, /*Bytewise=*/false);
  return llvm::createStringError("no reference outputs for inputs #" + std::to_string(Seed));
}

llvm::Error GpuSession::launch(const LoadedKernel &Kernel, const LaunchGeometry &Launch) {
  std::vector<uint64_t> Slots(Current.Args.size());
  std::vector<void *> Params;
  size_t BufferIndex = 0;
  for (size_t I = 0; I < Current.Args.size(); ++I) {
    const KernelArg &A = Current.Args[I];
    if (A.buffer())
      Slots[I] = Buffers[BufferIndex++].Base + GuardBytes;
    else
      storeFromDouble(A.scalar()->Type, A.scalar()->Value, &Slots[I]);
    Params.push_back(&Slots[I]);
  }
  if (Launch.SharedBytes > 48 * 1024)
    Driver->FuncSetAttribute(Kernel.Function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                             static_cast<int>(Launch.SharedBytes));
  return Driver->check(Driver->LaunchKernel(Kernel.Function, Launch.Grid[0], Launch.Grid[1],
                                            Launch.Grid[2], Launch.Block[0], Launch.Block[1],
                                            Launch.Block[2], Launch.SharedBytes, Stream,
                                            Params.data(), nullptr),
                       "cuLaunchKernel");
}

RunFailure GpuSession::classify(CUresult Result, const char *Call, std::string &Message) {
  Message = llvm::toString(Driver->check(Result, Call));
  if (isSticky(Result) || Driver->CtxSynchronize() != CUDA_SUCCESS)
    return RunFailure::Fault;
  return RunFailure::LaunchRejected;
}

RunFailure GpuSession::waitFor(CUevent Event, double DeadlineSeconds, std::string &Message) {
  auto Begin = Clock::now();
  for (;;) {
    CUresult R = Driver->EventQuery(Event);
    if (R == CUDA_SUCCESS)
      return RunFailure::None;
    if (R != CUDA_ERROR_NOT_READY)
      return classify(R, "the kernel", Message);
    if (secondsSince(Begin) > DeadlineSeconds) {
      Message =
          "the kernel ran longer than the watchdog's " + std::to_string(DeadlineSeconds) + " s";
      return RunFailure::Hang;
    }
    std::this_thread::sleep_for(std::chrono::microseconds(20));
  }
}

RunResult GpuSession::run(const LoadedKernel &Kernel, const LaunchGeometry &Launch, uint64_t Seed,
                          double DeadlineSeconds, LaunchChain Chain) {
  RunResult R;
  if (llvm::Error E = upload(Seed)) {
    R.Failure = RunFailure::Fault;
    R.Message = llvm::toString(std::move(E));
    return R;
  }
  // Launches Count more, then waits for them; false: R says why not.
  auto LaunchAndWait = [&](unsigned Count) {
    for (unsigned I = 0; I < Count; ++I)
      if (llvm::Error E = launch(Kernel, Launch)) {
        R.Message = llvm::toString(std::move(E));
        R.Failure = Driver->CtxSynchronize() == CUDA_SUCCESS ? RunFailure::LaunchRejected
                                                             : RunFailure::Fault;
        return false;
      }
    Driver->EventRecord(Stop, Stream);
    R.Failure = waitFor(Stop, DeadlineSeconds * Count, R.Message);
    R.Launches += R.Failure == RunFailure::None ? Count : 0;
    return R.Failure == RunFailure::None;
  };
  Driver->EventRecord(Start, Stream);
  if (!LaunchAndWait(1))
    return R;
  float Elapsed = 0;
  if (Driver->EventElapsedTime(&Elapsed, Start, Stop) == CUDA_SUCCESS)
    R.Ms = Elapsed;
  unsigned Launches = std::max(Chain.Launches, 1u);
  if (Chain.MaxSeconds > 0 && R.Ms > 0)
    Launches = static_cast<unsigned>(
        std::clamp(std::floor(Chain.MaxSeconds * 1000 / R.Ms), 1.0, double(Launches)));
  if (Launches > 1 && !LaunchAndWait(Launches - 1))
    return R;
  std::vector<uint8_t> Before(GuardBytes), After(GuardBytes);
  for (const DeviceBuffer &B : Buffers) { // Only the guards come back; the elements stay.
    for (auto [Guard, At] :
         {std::pair{&Before, B.Base}, std::pair{&After, B.Base + GuardBytes + B.Bytes}})
      if (CUresult C = Driver->MemcpyDtoH(Guard->data(), At, GuardBytes); C != CUDA_SUCCESS) {
        R.Failure = classify(C, "cuMemcpyDtoH", R.Message);
        return R;
      }
    BufferState S;
    S.DamagedBefore = firstDamagedGuardByte(Before.data(), GuardBytes);
    S.DamagedAfter = firstDamagedGuardByte(After.data(), GuardBytes);
    R.Buffers.push_back(S);
  }
  return R;
}

llvm::Expected<std::vector<std::vector<double>>>
GpuSession::time(llvm::ArrayRef<TimedKernel> Kernels, uint64_t Seed, const TimingBudget &Budget,
                 RunFailure &Failure, RoundCheck Done) {
  Failure = RunFailure::None;
  std::vector<std::vector<double>> Samples(Kernels.size());
  if (auto E = upload(Seed))
    return E;
  auto Begin = Clock::now();
  auto Measure = [&](const TimedKernel &K, double *Ms) -> llvm::Error {
    for (size_t I = 0; I < Buffers.size(); ++I) { // Restore, outside the timed region.
      const DeviceBuffer &B = Buffers[I];
      if (B.Pristine && B.Bytes)
        Driver->MemcpyDtoDAsync(B.Base + GuardBytes, B.Pristine, B.Bytes, Stream);
      else if (Args[I]->Dir == Direction::Out && B.Bytes)
        Driver->MemsetD8Async(B.Base + GuardBytes, PoisonByte, B.Bytes, Stream);
    }
    if (Budget.FlushL2)
      Driver->MemsetD8Async(Flush, static_cast<unsigned char>(Samples[0].size()), FlushBytes,
                            Stream);
    Driver->EventRecord(Start, Stream);
    if (llvm::Error E = launch(*K.Kernel, K.Launch)) {
      Failure =
          Driver->CtxSynchronize() == CUDA_SUCCESS ? RunFailure::LaunchRejected : RunFailure::Fault;
      return E;
    }
    Driver->EventRecord(Stop, Stream);
    std::string Message;
    if ((Failure = waitFor(Stop, Budget.DeadlineSeconds, Message)) != RunFailure::None)
      return llvm::createStringError(Message);
    float Elapsed = 0;
    if (auto E =
            Driver->check(Driver->EventElapsedTime(&Elapsed, Start, Stop), "cuEventElapsedTime"))
      return E;
    *Ms = Elapsed;
    return llvm::Error::success();
  };
  // Warm-up: one untimed run each (module load, caches, clocks).
  for (const TimedKernel &K : Kernels) {
    double Ignored;
    if (!Budget.WarmUp)
      break;
    if (auto E = Measure(K, &Ignored))
      return E;
  }
  for (unsigned Round = 0; Round < Budget.MaxSamples; ++Round) {
    for (size_t I = 0; I < Kernels.size(); ++I) {
      size_t K = (Round % 2 == 0) ? I : Kernels.size() - 1 - I; // ABBA order.
      double Ms = 0;
      if (auto E = Measure(Kernels[K], &Ms))
        return E;
      Samples[K].push_back(Ms);
    }
    if (Done(Samples, secondsSince(Begin)))
      break;
  }
  return Samples;
}

Profile GpuSession::profile(const LoadedKernel &Kernel, const LaunchGeometry &Launch, uint64_t Seed,
                            llvm::ArrayRef<std::string> Metrics) {
  if (llvm::Error E = upload(Seed))
    return Profile::unavailable(llvm::toString(std::move(E)));
  return profileKernel(Context, Device.Ordinal, Metrics, [&]() -> llvm::Error {
    if (llvm::Error E = launch(Kernel, Launch))
      return E;
    return Driver->check(Driver->StreamSynchronize(Stream), "cuStreamSynchronize");
  });
}

llvm::Expected<GpuSession::CopyRate> GpuSession::measureCopyRate() {
  size_t Free = 0, Total = 0;
  if (auto E = Driver->check(Driver->MemGetInfo(&Free, &Total), "cuMemGetInfo"))
    return E;
  CopyRate Rate;
  Rate.Bytes = std::min<uint64_t>(CopyBytes, Free / 4) & ~uint64_t(4095);
  if (Rate.Bytes < FlushBytes)
    return llvm::createStringError("too little free device memory to time a copy beyond the L2");
  CUdeviceptr From = 0, To = 0;
  auto Release = llvm::make_scope_exit([&] {
    if (From)
      Driver->MemFree(From);
    if (To)
      Driver->MemFree(To);
  });
  if (auto E = Driver->check(Driver->MemAlloc(&From, Rate.Bytes), "cuMemAlloc"))
    return E;
  if (auto E = Driver->check(Driver->MemAlloc(&To, Rate.Bytes), "cuMemAlloc"))
    return E;
  // The first copy warms clocks and page mappings up, untimed.
  Driver->MemsetD8Async(From, 1, Rate.Bytes, Stream);
  Driver->MemcpyDtoDAsync(To, From, Rate.Bytes, Stream);
  Driver->EventRecord(Start, Stream);
  for (unsigned I = 0; I < CopyRounds; ++I)
    Driver->MemcpyDtoDAsync(To, From, Rate.Bytes, Stream);
  Driver->EventRecord(Stop, Stream);
  if (auto E = Driver->check(Driver->StreamSynchronize(Stream), "cuStreamSynchronize"))
    return E;
  float Ms = 0;
  if (auto E = Driver->check(Driver->EventElapsedTime(&Ms, Start, Stop), "cuEventElapsedTime"))
    return E;
  if (Ms <= 0)
    return llvm::createStringError("the copies took no measurable time");
  Rate.Copies = CopyRounds;
  Rate.GBs = 2.0 * double(Rate.Bytes) * CopyRounds / (Ms * 1e-3) / 1e9;
  return Rate;
}

} // namespace kopt::evaluator
