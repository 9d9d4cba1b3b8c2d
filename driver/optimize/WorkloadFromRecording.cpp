#include "driver/optimize/WorkloadFromRecording.h"

#include "driver/optimize/BufferShape.h"
#include "driver/optimize/WorkloadFromKernel.h"
#include "recorder/RecordingFormat.h"

#include <llvm/Support/FileSystem.h>

#include <algorithm>

namespace kopt::driver {

using evaluator::BufferArg;
using evaluator::Direction;
using evaluator::KernelArg;
using evaluator::ScalarArg;

namespace {

std::string symbolOf(const frontend::KernelSummary &K) {
  if (!K.MangledName.empty() || K.Instantiations.empty())
    return K.MangledName;
  return K.Instantiations.front().MangledName; // As kernelSourceFor instantiates it.
}

// The launch's arguments in parameter order, typed by the kernel's signature:
// scalars as recorded, buffers as long as their allocation past the pointer.
llvm::Expected<std::vector<KernelArg>> recordedArgs(const frontend::KernelSummary &K,
                                                    const recorder::KernelRecord &Kernel,
                                                    const recorder::LaunchRecord &L,
                                                    const std::vector<KernelArg> &Pragma) {
  if (Kernel.Params.size() != K.Params.size())
    return llvm::createStringError("it has %zu parameters, the kernel %zu", Kernel.Params.size(),
                                   K.Params.size());
  std::vector<KernelArg> Args;
  for (size_t I = 0; I < K.Params.size(); ++I) {
    const frontend::KernelParam &P = K.Params[I];
    const recorder::ParamLayout &Layout = Kernel.Params[I];
    // A buffer's elements are its innermost scalars, a pointer to arrays included.
    std::optional<evaluator::ScalarType> Type;
    if (P.Category == frontend::ParamCategory::Pointer) {
      llvm::Expected<BufferElement> Element = bufferElementType(P);
      if (!Element)
        return Element.takeError();
      Type = Element->Scalar;
    } else {
      Type = evaluator::scalarTypeOfCType(P.Type);
    }
    if (!Type)
      return llvm::createStringError("parameter '%s' has type '%s'", P.Name.c_str(),
                                     P.Type.c_str());
    KernelArg Arg;
    Arg.Name = P.Name;
    if (P.Category == frontend::ParamCategory::Pointer) {
      auto Ptr = std::find_if(L.Pointers.begin(), L.Pointers.end(),
                              [&](const recorder::PointerParam &X) { return X.Param == I; });
      if (Ptr == L.Pointers.end())
        return llvm::createStringError("pointer '%s' was not a device address", P.Name.c_str());
      BufferArg B;
      B.Element = *Type;
      B.Count = (L.Allocations[Ptr->Allocation].Bytes - Ptr->Offset) / evaluator::sizeOf(*Type);
      B.Dir = P.PointeeIsConst ? Direction::In : Direction::InOut;
      if (I < Pragma.size() && Pragma[I].buffer())
        B.Dir = Pragma[I].buffer()->Dir; // buffers(x[n] out) says more than constness.
      Arg.Value = B;
    } else {
      if (Layout.Size != evaluator::sizeOf(*Type) ||
          uint64_t(Layout.Offset) + Layout.Size > L.ParamBytes.size())
        return llvm::createStringError("parameter '%s' is %u bytes, not %zu", P.Name.c_str(),
                                       Layout.Size, evaluator::sizeOf(*Type));
      Arg.Value =
          ScalarArg{*Type, evaluator::loadAsDouble(*Type, L.ParamBytes.data() + Layout.Offset)};
    }
    Args.push_back(std::move(Arg));
  }
  return Args;
}

bool hasContents(const recorder::LaunchRecord &L) {
  return std::all_of(L.Allocations.begin(), L.Allocations.end(),
                     [](const recorder::AllocationRecord &A) { return A.Before.has_value(); });
}

std::vector<double> scalarsOf(const evaluator::RecordedLaunch &R) {
  std::vector<double> Values;
  for (const KernelArg &A : R.Args)
    if (const ScalarArg *S = A.scalar())
      Values.push_back(S->Value);
  return Values;
}

} // namespace

std::vector<evaluator::RecordedLaunch>
sampleRecordedLaunches(std::vector<evaluator::RecordedLaunch> All, size_t Limit) {
  for (evaluator::RecordedLaunch &R : All)
    R.Weight = R.Count;
  if (All.size() <= Limit)
    return All;
  std::stable_sort(All.begin(), All.end(),
                   [](const auto &A, const auto &B) { return scalarsOf(A) < scalarsOf(B); });
  std::vector<size_t> At; // Positions in All of the picked launches.
  for (size_t I = 0; I < Limit; ++I)
    At.push_back(I * (All.size() - 1) / (Limit - 1));
  std::vector<evaluator::RecordedLaunch> Picked;
  for (size_t P : At) {
    Picked.push_back(All[P]);
    Picked.back().Weight = 0;
  }
  // Each launch's count goes to the nearest picked one (the earlier on a tie).
  for (size_t I = 0, Next = 0; I < All.size(); ++I) {
    while (Next + 1 < At.size() && At[Next + 1] <= I)
      ++Next;
    size_t Nearest = Next + 1 < At.size() && At[Next + 1] - I < I - At[Next] ? Next + 1 : Next;
    Picked[Nearest].Weight += All[I].Count;
  }
  return Picked;
}

namespace {

llvm::Error noWorkload(const frontend::KernelSummary &K, llvm::StringRef File) {
  return llvm::createStringError(
      "%s:%u:%u: error: kernel %s has no workload: add launch/args/buffers or run `kopt record "
      "-- ./app`",
      File.str().c_str(), K.Pragma->Line, K.Pragma->Column, K.Name.c_str());
}

} // namespace

std::optional<std::string> findRecording(const frontend::KernelSummary &Kernel,
                                         llvm::ArrayRef<std::string> Dirs) {
  std::string Symbol = symbolOf(Kernel);
  if (Symbol.empty())
    return std::nullopt;
  for (const std::string &Dir : Dirs) {
    std::string Path = Dir + "/" + recorder::recordingFileName(Symbol);
    if (llvm::sys::fs::exists(Path))
      return Path;
  }
  return std::nullopt;
}

std::optional<KernelRecording> readKernelRecording(const frontend::KernelSummary &K,
                                                   llvm::ArrayRef<std::string> RecordingDirs) {
  std::optional<std::string> Path = findRecording(K, RecordingDirs);
  if (!Path)
    return std::nullopt;
  recorder::ReadResult Read = recorder::readRecording(*Path, {/*Contents=*/false});
  if (!Read.Error.empty())
    return std::nullopt;
  KernelRecording Out{*Path, {}};
  for (const recorder::DistinctLaunch &D : Read.Value.Launches) {
    auto Args = recordedArgs(K, Read.Value.Kernel, D.Launch, {});
    if (!Args) {
      llvm::consumeError(Args.takeError());
      return std::nullopt;
    }
    Out.Launches.push_back({D.Launch.Id,
                            D.Count,
                            {D.Launch.Grid, D.Launch.Block, D.Launch.SharedBytes},
                            std::move(*Args),
                            D.Count});
  }
  return Out;
}

llvm::Expected<evaluator::Workload> workloadWithRecording(const frontend::KernelSummary &K,
                                                          llvm::StringRef File,
                                                          llvm::ArrayRef<std::string> RecordingDirs,
                                                          std::string *Warning,
                                                          llvm::ArrayRef<uint32_t> Only) {
  if (!K.Pragma)
    return workloadFor(K, File);
  const frontend::PragmaClauses &P = *K.Pragma;
  const bool Bare = !P.Launch && !P.Args && !P.Buffers;
  const bool Complete = P.Launch.has_value();
  auto Fallback = [&]() -> llvm::Expected<evaluator::Workload> {
    if (Bare)
      return noWorkload(K, File);
    return workloadFor(K, File);
  };
  std::optional<std::string> Path = findRecording(K, RecordingDirs);
  if (!Path)
    return Fallback();
  auto Ignore = [&](const std::string &Why) -> llvm::Expected<evaluator::Workload> {
    if (Warning)
      *Warning = "ignoring the recording " + *Path + ": " + Why + " (record again)";
    return Fallback();
  };
  recorder::ReadResult Read = recorder::readRecording(*Path, {/*Contents=*/false});
  if (!Read.Error.empty())
    return Ignore(Read.Error);
  const recorder::Recording &Rec = Read.Value;

  evaluator::Workload W;
  if (Complete) {
    auto FromPragma = workloadFor(K, File);
    if (!FromPragma)
      return FromPragma.takeError();
    W = std::move(*FromPragma);
  }
  std::vector<evaluator::RecordedLaunch> All;
  const recorder::DistinctLaunch *Frequent = nullptr;
  for (const recorder::DistinctLaunch &D : Rec.Launches) {
    auto Args = recordedArgs(K, Rec.Kernel, D.Launch, W.Args);
    if (!Args)
      return Ignore(llvm::toString(Args.takeError()));
    if (!hasContents(D.Launch) || (!Only.empty() && !llvm::is_contained(Only, D.Launch.Id)))
      continue;
    evaluator::RecordedLaunch R;
    R.Id = D.Launch.Id;
    R.Count = D.Count;
    R.Launch = {D.Launch.Grid, D.Launch.Block, D.Launch.SharedBytes};
    R.Args = std::move(*Args);
    All.push_back(std::move(R));
    if (!Frequent || D.Count > Frequent->Count)
      Frequent = &D;
  }
  if (All.empty())
    return Ignore("no recorded launch has its buffers' contents (--max-bytes)");
  if (!Complete) {
    // The seeds' workload: the application's most frequent launch, random inputs.
    auto It = std::find_if(All.begin(), All.end(), [&](const evaluator::RecordedLaunch &R) {
      return R.Id == Frequent->Launch.Id;
    });
    W.Args = It->Args;
    W.Launch = It->Launch;
    W.Tol = pragmaTolerance(P, W.Args);
    setBufferTolerances(P, W.Args, W.Tol);
    if (llvm::Error E = setBufferRanges(P, W.Args))
      return E;
  }
  W.RecordingFile = *Path;
  W.Recorded = sampleRecordedLaunches(std::move(All), MaxRecordedLaunches);
  // Each recorded launch is compared as the pragma says its outputs are.
  for (evaluator::RecordedLaunch &R : W.Recorded)
    setBufferTolerances(P, R.Args, W.Tol);
  return W;
}

} // namespace kopt::driver
