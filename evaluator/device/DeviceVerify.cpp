#include "evaluator/device/DeviceVerify.h"

#include "evaluator/workload/InputGenerator.h"

#include <algorithm>
#include <limits>

namespace kopt::evaluator {

ReducedPartials reducePartials(llvm::ArrayRef<ComparePartial> Partials) {
  ReducedPartials R;
  uint64_t First = UINT64_MAX, Worst = UINT64_MAX;
  double WorstRatio = -1;
  for (const ComparePartial &P : Partials) {
    R.Mismatches += P.Mismatches;
    First = std::min(First, P.First);
    if (P.WorstIndex != UINT64_MAX &&
        (P.WorstRatio > WorstRatio || (P.WorstRatio == WorstRatio && P.WorstIndex < Worst))) {
      WorstRatio = P.WorstRatio;
      Worst = P.WorstIndex;
    }
  }
  if (First != UINT64_MAX)
    R.First = First;
  if (Worst != UINT64_MAX) {
    R.Worst = Worst;
    R.WorstRatio = WorstRatio;
  }
  return R;
}

namespace {
unsigned blocksFor(uint64_t Count, unsigned Threads, unsigned Max) {
  return static_cast<unsigned>(std::clamp<uint64_t>((Count + Threads - 1) / Threads, 1, Max));
}

// The element at Index of the got buffer and of the expectation, compared on
// the host by compareBuffers itself (the reported values and ratio).
llvm::Expected<ElementMismatch> describeElement(const DeviceContext &C, CUdeviceptr Got,
                                                CUdeviceptr Expected, uint64_t Key, ScalarType Type,
                                                uint64_t Index, const Tolerance &Tol, bool Bytewise,
                                                const std::optional<ValueRange> &Range,
                                                const std::optional<OffsetsLayout> &Offsets,
                                                const std::optional<LocalIndices> &Local) {
  size_t Size = sizeOf(Type);
  uint8_t G[8] = {}, E[8] = {};
  if (auto Err = C.Driver.check(C.Driver.MemcpyDtoH(G, Got + Index * Size, Size), "cuMemcpyDtoH"))
    return Err;
  if (Expected) {
    if (auto Err =
            C.Driver.check(C.Driver.MemcpyDtoH(E, Expected + Index * Size, Size), "cuMemcpyDtoH"))
      return Err;
  } else {
    generateElement(Type, Key, Index, E, Range, Offsets, Local);
  }
  ElementMismatch M{Index, loadAsDouble(Type, G), loadAsDouble(Type, E),
                    std::numeric_limits<double>::infinity()};
  if (!Bytewise) {
    BufferComparison One = compareBuffers(Type, G, E, 1, Tol);
    if (One.Worst)
      M.Ratio = One.Worst->Ratio;
  }
  return M;
}

GeneratorLayout generatorLayout(const std::optional<ValueRange> &Range,
                                const std::optional<OffsetsLayout> &Offsets,
                                const std::optional<LocalIndices> &Local) {
  GeneratorLayout L;
  L.Ranged = Range.has_value();
  L.Lo = Range ? Range->Lo : 0;
  L.Hi = Range ? Range->Hi : 0;
  L.Offsets = Offsets.has_value();
  L.Mean = Offsets ? Offsets->Mean : 0;
  L.Jitter = Offsets ? Offsets->Jitter : 0;
  L.Local = Local.has_value();
  L.Count = Local ? Local->Count : 0;
  return L;
}
} // namespace

llvm::Error generateOnDevice(const DeviceContext &C, CUdeviceptr Out, ScalarType Type,
                             uint64_t Count, uint64_t Key, const std::optional<ValueRange> &Range,
                             const std::optional<OffsetsLayout> &Offsets,
                             const std::optional<LocalIndices> &Local) {
  if (Count == 0)
    return llvm::Error::success();
  int TypeCode = static_cast<int>(Type);
  GeneratorLayout Layout = generatorLayout(Range, Offsets, Local);
  void *Params[] = {&Out, &Count, &Key, &TypeCode, &Layout};
  return C.Driver.check(C.Driver.LaunchKernel(C.Kernels.Generate, blocksFor(Count, 256, 65536), 1,
                                              1, 256, 1, 1, 0, C.Stream, Params, nullptr),
                        "cuLaunchKernel (input generation)");
}

llvm::Expected<BufferComparison>
compareOnDevice(const DeviceContext &C, CUdeviceptr Got, CUdeviceptr Expected, uint64_t Key,
                ScalarType Type, uint64_t Count, const Tolerance &Tol, bool Bytewise,
                const std::optional<ValueRange> &Range, const std::optional<OffsetsLayout> &Offsets,
                const std::optional<LocalIndices> &Local) {
  BufferComparison Result;
  if (Count == 0)
    return Result;
  int TypeCode = static_cast<int>(Type), BytewiseFlag = Bytewise;
  double Rtol = Tol.Rtol, Atol = Tol.Atol;
  CUdeviceptr Partials = C.Partials;
  unsigned Blocks = blocksFor(Count, CompareThreads, CompareBlocks);
  GeneratorLayout Layout = generatorLayout(Range, Offsets, Local);
  void *Params[] = {&Got,  &Expected, &Key,          &Count,    &TypeCode,
                    &Rtol, &Atol,     &BytewiseFlag, &Partials, &Layout};
  if (auto E = C.Driver.check(C.Driver.LaunchKernel(C.Kernels.Compare, Blocks, 1, 1, CompareThreads,
                                                    1, 1, 0, C.Stream, Params, nullptr),
                              "cuLaunchKernel (output comparison)"))
    return E;
  if (auto E = C.Driver.check(C.Driver.StreamSynchronize(C.Stream), "cuStreamSynchronize"))
    return E;
  std::vector<ComparePartial> Host(Blocks);
  if (auto E = C.Driver.check(
          C.Driver.MemcpyDtoH(Host.data(), Partials, Blocks * sizeof(ComparePartial)),
          "cuMemcpyDtoH"))
    return E;
  ReducedPartials R = reducePartials(Host);
  Result.Mismatches = R.Mismatches;
  for (auto [Index, Slot] : {std::pair{R.First, &Result.First}, std::pair{R.Worst, &Result.Worst}})
    if (Index) {
      auto M = describeElement(C, Got, Expected, Key, Type, *Index, Tol, Bytewise, Range, Offsets,
                               Local);
      if (!M)
        return M.takeError();
      *Slot = *M;
    }
  if (Result.Worst) // The device's ratio decided the worst element; report that one.
    Result.Worst->Ratio = Bytewise ? Result.Worst->Ratio : R.WorstRatio;
  return Result;
}

} // namespace kopt::evaluator
