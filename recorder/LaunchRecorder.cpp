#include "recorder/LaunchRecorder.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cxxabi.h>
#include <sys/stat.h>

namespace kopt::recorder {
namespace {

std::string envOr(const char *Name, const char *Default) {
  const char *V = std::getenv(Name);
  return V ? V : Default;
}

// "ns::t<float, 64>(float*)" -> "ns::t<float, 64>"; "void t<float>(float*)" -> "t<float>".
std::string qualifiedName(const std::string &Demangled) {
  int Angle = 0, Paren = 0;
  size_t Begin = 0, End = Demangled.size();
  for (size_t I = 0; I < Demangled.size(); ++I) {
    char C = Demangled[I];
    if (C == '<')
      ++Angle;
    else if (C == '>')
      --Angle;
    else if (C == '(' && Angle == 0 && Demangled.compare(I, 21, "(anonymous namespace)") != 0) {
      End = I;
      break;
    } else if (C == '(')
      ++Paren;
    else if (C == ')')
      --Paren;
    else if (C == ' ' && Angle == 0 && Paren == 0)
      Begin = I + 1; // A template's demangled name starts with its return type.
  }
  return Demangled.substr(Begin, End - Begin);
}

std::string withoutTemplateArgs(std::string Name) {
  if (!Name.empty() && Name.back() == '>') {
    int Depth = 0;
    for (size_t I = Name.size(); I-- > 0;) {
      if (Name[I] == '>')
        ++Depth;
      else if (Name[I] == '<' && --Depth == 0)
        return Name.substr(0, I);
    }
  }
  return Name;
}

} // namespace

bool kernelMatches(const std::string &Symbol, const std::string &Name) {
  if (Name == "*" || Symbol == Name)
    return true;
  if (Symbol.empty())
    return false;
  int Status = 0;
  char *Raw = abi::__cxa_demangle(Symbol.c_str(), nullptr, nullptr, &Status);
  if (!Raw)
    return false;
  std::string Qualified = qualifiedName(Raw);
  std::free(Raw);
  if (Qualified == Name || withoutTemplateArgs(Qualified) == Name)
    return true;
  std::string Plain = withoutTemplateArgs(Qualified);
  size_t Colon = Plain.rfind("::");
  return Colon != std::string::npos && Plain.substr(Colon + 2) == Name;
}

RecorderConfig RecorderConfig::fromEnvironment() {
  RecorderConfig C;
  C.Dir = envOr(RecordDirVar, "");
  std::string Names = envOr(RecordKernelsVar, "");
  for (size_t Start = 0; Start <= Names.size();) {
    size_t Comma = Names.find(',', Start);
    if (Comma == std::string::npos)
      Comma = Names.size();
    if (Comma > Start)
      C.Kernels.push_back(Names.substr(Start, Comma - Start));
    Start = Comma + 1;
  }
  if (std::string V = envOr(RecordMaxBytesVar, ""); !V.empty())
    C.MaxBytes = std::strtoull(V.c_str(), nullptr, 10);
  if (std::string V = envOr(RecordLaunchesVar, ""); !V.empty())
    C.MaxDistinct = uint32_t(std::strtoul(V.c_str(), nullptr, 10));
  C.LogPath = envOr(RecordLogVar, "");
  return C;
}

DeviceAccess::~DeviceAccess() = default;
bool DeviceAccess::pinHost(uint8_t *, uint64_t) { return false; }
void DeviceAccess::unpinHost(uint8_t *) {}

struct LaunchRecorder::KernelState {
  std::string Symbol, Path;
  std::vector<ParamLayout> Params;
  RecordingWriter Writer;
  std::unordered_map<std::string, uint32_t> Ids; // distinctLaunchKey -> Id.
  bool OverLimitNoted = false;
};

struct LaunchRecorder::Pending {
  explicit Pending(HostBufferPool &P) : Pool(P) {}
  // Contents go back to the pool on every path: a pinned buffer must not be
  // freed while the driver still has it registered.
  ~Pending() {
    for (AllocationRecord &A : Launch.Allocations) {
      if (A.Before)
        Pool.give(std::move(*A.Before));
      if (A.After)
        Pool.give(std::move(*A.After));
    }
  }
  HostBufferPool &Pool;
  KernelState *Kernel = nullptr;
  std::string Key;
  LaunchRecord Launch;
  std::optional<uint32_t> RepeatOf;
  uint64_t Reserved = 0; // Budget taken for the after contents.
  // A first occurrence runs alone on the device (synchronized before and
  // after): from here to the wait after it is its GPU time, give or take the
  // microseconds of the launch call.
  std::chrono::steady_clock::time_point Start;
};

LaunchRecorder::LaunchRecorder(RecorderConfig C, DeviceAccess &D)
    : Config(std::move(C)), Device(D), Buffers(D), BudgetLeft(Config.MaxBytes) {
  if (Config.Dir.empty()) {
    Disabled = true;
    log(std::string("error: ") + RecordDirVar + " is not set; recording nothing");
  }
}

LaunchRecorder::~LaunchRecorder() = default;

void LaunchRecorder::log(const std::string &Line) {
  FILE *F = Config.LogPath.empty() ? nullptr : std::fopen(Config.LogPath.c_str(), "a");
  std::fprintf(F ? F : stderr, "%s%s\n", F ? "" : "kopt record: ", Line.c_str());
  if (F)
    std::fclose(F);
}

void LaunchRecorder::fail(const std::string &Error) {
  log("error: " + Error + "; the recorder disabled itself");
  Disabled = true;
}

void LaunchRecorder::skip(const std::string &What) {
  std::lock_guard<std::mutex> Guard(Lock);
  if (!Disabled)
    log("skipped: " + What);
}

LaunchRecorder::KernelState *LaunchRecorder::stateFor(const LaunchCall &Call) {
  auto Known = ByFunction.find(Call.Function);
  if (Known != ByFunction.end())
    return Known->second;
  KernelState *State = nullptr;
  bool Wanted = false;
  for (const std::string &Name : Config.Kernels)
    Wanted = Wanted || kernelMatches(Call.Symbol, Name);
  if (Wanted) {
    auto &Slot = BySymbol[Call.Symbol];
    if (!Slot) {
      auto K = std::make_unique<KernelState>();
      K->Symbol = Call.Symbol;
      if (!Device.paramLayout(Call.Function, K->Params)) {
        log("skipped: kernel " + Call.Symbol + ": the driver gives no parameter layout");
        ByFunction[Call.Function] = nullptr;
        return nullptr;
      }
      ::mkdir(Config.Dir.c_str(), 0755);
      K->Path = Config.Dir + "/" + recordingFileName(Call.Symbol);
      if (std::string E = K->Writer.open(K->Path, {K->Symbol, K->Params}); !E.empty()) {
        fail(E);
        return nullptr;
      }
      log("kernel " + K->Symbol + " " + K->Path);
      Slot = std::move(K);
    }
    State = Slot.get();
  }
  ByFunction[Call.Function] = State;
  return State;
}

bool LaunchRecorder::capture(const LaunchCall &Call, KernelState &K, LaunchRecord &L) {
  L.Grid = Call.Grid;
  L.Block = Call.Block;
  L.SharedBytes = Call.SharedBytes;
  uint32_t Size = 0;
  for (const ParamLayout &P : K.Params)
    Size = std::max(Size, P.Offset + P.Size);
  L.ParamBytes.assign(Size, 0);
  const uint8_t *Packed = nullptr;
  if (!Call.KernelParams && Call.Extra) {
    // CU_LAUNCH_PARAM_BUFFER_POINTER (1), then its size (2), ended by 0.
    for (void **E = Call.Extra; *E; E += 2)
      if (*E == reinterpret_cast<void *>(1))
        Packed = static_cast<const uint8_t *>(E[1]);
  }
  for (size_t I = 0; I < K.Params.size(); ++I) {
    const ParamLayout &P = K.Params[I];
    const void *Src = Call.KernelParams ? Call.KernelParams[I]
                      : Packed          ? Packed + P.Offset
                                        : nullptr;
    if (!Src)
      return false;
    std::memcpy(L.ParamBytes.data() + P.Offset, Src, P.Size);
    uint64_t Value = 0, Base = 0, Bytes = 0;
    if (P.Size != 8)
      continue;
    std::memcpy(&Value, Src, 8);
    if (!Value || !Device.allocationOf(Value, Base, Bytes))
      continue;
    uint32_t Index = 0;
    while (Index < L.Allocations.size() && L.Allocations[Index].Base != Base)
      ++Index;
    if (Index == L.Allocations.size())
      L.Allocations.push_back({Base, Bytes, {}, {}, false});
    L.Pointers.push_back({uint32_t(I), Index, Value - Base});
  }
  return true;
}

bool LaunchRecorder::enter(const LaunchCall &Call) {
  // Declared before P: P (and the buffers it holds) goes first, under the lock.
  std::unique_lock<std::mutex> Guard(Lock);
  KernelState *K = Disabled ? nullptr : stateFor(Call);
  if (!K || Disabled)
    return false;
  if (Device.isCapturing(Call.Stream)) {
    log("skipped: a launch of " + K->Symbol + " inside stream capture (a graph)");
    return false;
  }
  auto P = std::make_unique<Pending>(Buffers);
  P->Kernel = K;
  if (!capture(Call, *K, P->Launch)) {
    log("skipped: a launch of " + K->Symbol + " without readable parameters");
    return false;
  }
  P->Key = distinctLaunchKey(P->Launch, K->Params);
  if (auto Seen = K->Ids.find(P->Key); Seen != K->Ids.end()) {
    P->RepeatOf = Seen->second;
  } else if (K->Ids.size() >= Config.MaxDistinct) {
    if (!K->OverLimitNoted)
      K->Writer.appendNote("more than " + std::to_string(Config.MaxDistinct) +
                           " distinct launches (--launches): later ones are not recorded");
    K->OverLimitNoted = true;
    return false;
  } else {
    uint64_t Bytes = 0;
    for (const AllocationRecord &A : P->Launch.Allocations)
      Bytes += A.Bytes;
    if (std::string E = Device.synchronize(); !E.empty()) {
      fail("before a launch of " + K->Symbol + ": " + E);
      return false;
    }
    if (2 * Bytes > BudgetLeft) {
      P->Launch.ContentsSkipped = "its buffers (" + std::to_string(Bytes) +
                                  " bytes, twice: before and after) exceed what is left of "
                                  "--max-bytes (" +
                                  std::to_string(BudgetLeft) + " bytes)";
    } else {
      for (AllocationRecord &A : P->Launch.Allocations) {
        A.Before = Buffers.take(A.Bytes);
        if (std::string E = Device.copyToHost(A.Base, A.Bytes, A.Before->data()); !E.empty()) {
          fail("reading a buffer of " + K->Symbol + ": " + E);
          return false;
        }
      }
      BudgetLeft -= 2 * Bytes;
      P->Reserved = Bytes;
    }
  }
  P->Start = std::chrono::steady_clock::now();
  Current = std::move(P);
  Guard.release(); // The lock stays held until exit.
  return true;
}

void LaunchRecorder::exit(bool Launched) {
  std::unique_lock<std::mutex> Guard(Lock, std::adopt_lock); // Taken by enter.
  std::unique_ptr<Pending> P = std::move(Current);
  if (!P)
    return;
  if (Disabled || !Launched)
    BudgetLeft += 2 * P->Reserved;
  else
    finish(*P);
}

void LaunchRecorder::finish(Pending &P) {
  KernelState &K = *P.Kernel;
  std::string Error;
  if (P.RepeatOf) {
    Error = K.Writer.appendRepeat(*P.RepeatOf);
  } else {
    if (std::string E = Device.synchronize(); !E.empty()) {
      fail("after a launch of " + K.Symbol + ": " + E);
      return;
    }
    const double Seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - P.Start).count();
    if (P.Reserved) {
      for (AllocationRecord &A : P.Launch.Allocations) {
        A.After = Buffers.take(A.Bytes);
        if (std::string E = Device.copyToHost(A.Base, A.Bytes, A.After->data()); !E.empty()) {
          fail("reading a buffer of " + K.Symbol + ": " + E);
          return;
        }
        if (*A.After == *A.Before) {
          Buffers.give(std::move(*A.After));
          A.After.reset();
          A.AfterUnchanged = true;
          BudgetLeft += A.Bytes;
        }
      }
    }
    P.Launch.Id = uint32_t(K.Ids.size());
    Error = K.Writer.append(P.Launch);
    if (Error.empty())
      Error = K.Writer.appendTime(P.Launch.Id, Seconds);
    if (Error.empty())
      K.Ids.emplace(P.Key, P.Launch.Id);
  }
  if (!Error.empty())
    fail(Error);
}

} // namespace kopt::recorder
