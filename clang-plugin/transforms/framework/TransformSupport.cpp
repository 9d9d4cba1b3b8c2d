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

char ParamValueError::ID = 0;

llvm::Expected<int64_t> requireParam(const ParamSet &Params, llvm::StringRef Name,
                                     std::initializer_list<int64_t> Allowed) {
  int64_t Accepted = Allowed.size() ? *Allowed.begin() : 0;
  auto It = Params.find(Name.str());
  if (It == Params.end())
    return llvm::make_error<ParamValueError>("parameter '" + Name.str() + "' is missing",
                                             Name.str(), Accepted);
  if (Allowed.size() && std::find(Allowed.begin(), Allowed.end(), It->second) == Allowed.end()) {
    std::string List;
    for (int64_t A : Allowed)
      List += (List.empty() ? "" : ", ") + std::to_string(A);
    return llvm::make_error<ParamValueError>("parameter '" + Name.str() + "' is " +
                                                 std::to_string(It->second) + "; it takes " + List,
                                             Name.str(), Accepted);
  }
  return It->second;
}

llvm::Error checkParamNames(const ParamSet &Params, std::initializer_list<llvm::StringRef> Known) {
  for (const auto &Entry : Params)
    if (std::find(Known.begin(), Known.end(), Entry.first) == Known.end())
      return llvm::createStringError("unknown parameter '%s'", Entry.first.c_str());
  return llvm::Error::success();
}

} // namespace kopt::transform
