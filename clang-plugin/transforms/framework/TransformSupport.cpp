#include "clang-plugin/transforms/framework/TransformSupport.h"

#include "clang-plugin/pragma/ClauseParser.h"

#include <algorithm>

namespace kopt::transform {

namespace {
// The launch clause's Grid or Block dimensions, evaluated.
std::optional<std::array<int64_t, 3>> launchDims(const frontend::KernelSummary &Kernel, bool Grid) {
  if (!Kernel.Pragma || !Kernel.Pragma->Launch)
    return std::nullopt;
  frontend::NumberBindings Args = frontend::resolveArgValues(*Kernel.Pragma);
  std::array<int64_t, 3> Dims = {1, 1, 1};
  const std::vector<frontend::ClauseExpr> &Block =
      Grid ? Kernel.Pragma->Launch->Grid : Kernel.Pragma->Launch->Block;
  for (size_t D = 0; D < Block.size() && D < 3; ++D) {
    llvm::Expected<frontend::ClauseNumber> V = frontend::evaluateNumber(Block[D], Args);
    if (!V) {
      llvm::consumeError(V.takeError());
      return std::nullopt;
    }
    const int64_t *Int = std::get_if<int64_t>(&*V);
    if (!Int || *Int <= 0)
      return std::nullopt;
    Dims[D] = *Int;
  }
  return Dims;
}
} // namespace

std::optional<std::array<int64_t, 3>> pragmaBlockDims(const frontend::KernelSummary &Kernel) {
  return launchDims(Kernel, /*Grid=*/false);
}

std::optional<int64_t> pragmaBlockThreads(const frontend::KernelSummary &Kernel) {
  std::optional<std::array<int64_t, 3>> Dims = pragmaBlockDims(Kernel);
  if (!Dims)
    return std::nullopt;
  return (*Dims)[0] * (*Dims)[1] * (*Dims)[2];
}

std::optional<int64_t> pragmaThreadsLaunched(const frontend::KernelSummary &Kernel) {
  std::optional<int64_t> Block = pragmaBlockThreads(Kernel);
  std::optional<std::array<int64_t, 3>> Grid = launchDims(Kernel, /*Grid=*/true);
  if (!Block || !Grid)
    return std::nullopt;
  return *Block * (*Grid)[0] * (*Grid)[1] * (*Grid)[2];
}

std::optional<int64_t> pragmaIntValue(const frontend::KernelSummary &Kernel,
                                      const std::string &Text) {
  if (!Kernel.Pragma)
    return std::nullopt;
  llvm::Expected<frontend::ClauseExpr> E = frontend::parseExprText(Text);
  if (!E) {
    llvm::consumeError(E.takeError());
    return std::nullopt;
  }
  llvm::Expected<frontend::ClauseNumber> V =
      frontend::evaluateNumber(*E, frontend::resolveArgValues(*Kernel.Pragma));
  if (!V) {
    llvm::consumeError(V.takeError());
    return std::nullopt;
  }
  const int64_t *Int = std::get_if<int64_t>(&*V);
  return Int ? std::optional<int64_t>(*Int) : std::nullopt;
}

Fit independentThreads(const frontend::KernelSummary &Kernel) {
  const frontend::KernelFeatures &F = Kernel.Features;
  if (!F.SharedVariables.empty())
    return Fit::no("the kernel uses shared memory");
  if (!F.Barriers.empty())
    return Fit::no("the kernel has barriers (" + F.Barriers.front().Name + ")");
  if (!F.WarpIntrinsics.empty())
    return Fit::no("the kernel uses warp intrinsics (" + F.WarpIntrinsics.front().Name + ")");
  return Fit::yes();
}

Fit callsAtomicAdd(const frontend::KernelSummary &Kernel) {
  for (const frontend::CallFeature &C : Kernel.Features.Atomics)
    if (C.Name == "atomicAdd")
      return Fit::yes();
  return Fit::no("the kernel has no atomicAdd");
}

Fit analysedAtInstantiation(const frontend::KernelSummary &Kernel) {
  if (!Kernel.IsTemplate || !Kernel.Instantiations.empty())
    return Fit::yes();
  return Fit::no(templateWithoutInstantiation());
}

std::string templateWithoutInstantiation() {
  return "the kernel template has no instantiation to analyse: launch it in the file or name "
         "one with the pragma's instantiation(...)";
}

Fit dimensionsBetween(const frontend::KernelSummary &Kernel, unsigned Min, unsigned Max) {
  unsigned D = Kernel.Features.Dimensions;
  if (D >= Min && D <= Max)
    return Fit::yes();
  auto Dims = [](unsigned N) { return std::to_string(N) + "-D"; };
  std::string Takes =
      Min == Max ? Dims(Min) : Dims(Min) + (Max == Min + 1 ? " or " : " to ") + Dims(Max);
  return Fit::no("the kernel is " +
                 (D == 0 ? std::string("not indexed by its thread position") : Dims(D)) +
                 "; this takes " + Takes + " kernels");
}

} // namespace kopt::transform
