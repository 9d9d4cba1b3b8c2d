#include "driver/optimize/WorkloadFromKernel.h"

#include "clang-plugin/parse/CudaParseSetup.h"
#include "driver/optimize/BufferShape.h"
#include "driver/optimize/InstantiationChoice.h"

#include <cmath>
#include <llvm/Support/Path.h>

#include <map>

namespace kopt::driver {

using evaluator::BufferArg;
using evaluator::Direction;
using evaluator::KernelArg;
using evaluator::ScalarArg;
using evaluator::Workload;

namespace {
llvm::Error pragmaError(const frontend::KernelSummary &K, llvm::StringRef File,
                        const std::string &Message) {
  return llvm::createStringError("%s:%u:%u: error: kernel '%s': %s", File.str().c_str(),
                                 K.Pragma->Line, K.Pragma->Column, K.Name.c_str(), Message.c_str());
}

// An integer clause's value as the pragma's checks take it (WorkloadCheck.h):
// every args value may take part ((int)a for a float a), the result must be
// an integer.
llvm::Expected<int64_t> integerValue(const frontend::ClauseExpr &E,
                                     const frontend::NumberBindings &Values) {
  llvm::Expected<frontend::ClauseNumber> V = frontend::evaluateNumber(E, Values);
  if (!V)
    return V.takeError();
  if (const int64_t *I = std::get_if<int64_t>(&*V))
    return *I;
  return llvm::createStringError("its value is not an integer");
}

// Fn on each buffer of Args that buffers(...) names, with its entry; the
// first error stops.
llvm::Error
forEachNamedBuffer(const frontend::PragmaClauses &P, std::vector<KernelArg> &Args,
                   llvm::function_ref<llvm::Error(BufferArg &, const frontend::BufferSpec &)> Fn) {
  if (!P.Buffers)
    return llvm::Error::success();
  for (KernelArg &A : Args)
    if (auto *B = std::get_if<BufferArg>(&A.Value))
      for (const frontend::BufferSpec &S : *P.Buffers)
        if (S.Name == A.Name)
          if (llvm::Error E = Fn(*B, S))
            return E;
  return llvm::Error::success();
}
} // namespace

llvm::Expected<Workload> workloadFor(const frontend::KernelSummary &K, llvm::StringRef File) {
  if (!K.Pragma)
    return llvm::createStringError("kernel '%s' has no '#pragma kopt optimize'", K.Name.c_str());
  const frontend::PragmaClauses &P = *K.Pragma;
  if (!P.Launch)
    return pragmaError(K, File, "the evaluator needs launch(grid: ...; block: ...) to run it");
  auto Chosen = chosenInstantiation(K); // The one kernelSourceFor runs.
  if (!Chosen)
    return Chosen.takeError();
  // A template's integral arguments take part in the expressions, as in the checks.
  frontend::NumberBindings TemplateValues;
  if (*Chosen)
    for (const auto &[Name, Value] : (*Chosen)->Values)
      TemplateValues[Name] = Value;
  frontend::NumberBindings Values = frontend::resolveArgValues(P, TemplateValues);

  Workload W;
  auto Dims = [&](const std::vector<frontend::ClauseExpr> &Exprs, std::array<uint32_t, 3> &Out,
                  const char *What) -> llvm::Error {
    for (size_t I = 0; I < Exprs.size() && I < 3; ++I) {
      auto V = integerValue(Exprs[I], Values);
      if (!V)
        return pragmaError(K, File,
                           std::string(What) + " '" + Exprs[I].Text +
                               "' does not evaluate: " + llvm::toString(V.takeError()));
      if (*V <= 0 || *V > UINT32_MAX)
        return pragmaError(K, File,
                           std::string(What) + " '" + Exprs[I].Text + "' is " + std::to_string(*V) +
                               ", not a valid dimension");
      Out[I] = static_cast<uint32_t>(*V);
    }
    return llvm::Error::success();
  };
  if (auto E = Dims(P.Launch->Grid, W.Launch.Grid, "grid dimension"))
    return E;
  if (auto E = Dims(P.Launch->Block, W.Launch.Block, "block dimension"))
    return E;
  if (P.Launch->SharedMemory) {
    auto V = integerValue(*P.Launch->SharedMemory, Values);
    if (!V || *V < 0)
      return pragmaError(
          K, File, "smem '" + P.Launch->SharedMemory->Text + "' does not evaluate to a byte count");
    W.Launch.SharedBytes = static_cast<uint32_t>(*V);
  }

  std::map<std::string, const frontend::BufferSpec *> Buffers;
  if (P.Buffers)
    for (const frontend::BufferSpec &B : *P.Buffers)
      Buffers[B.Name] = &B;
  for (const frontend::KernelParam &Param : K.Params) {
    KernelArg Arg;
    Arg.Name = Param.Name;
    if (Param.Category == frontend::ParamCategory::Pointer) {
      auto It = Buffers.find(Param.Name);
      if (It == Buffers.end())
        return pragmaError(K, File,
                           "pointer parameter '" + Param.Name +
                               "' needs its element count in buffers(" + Param.Name + "[N])");
      llvm::Expected<BufferElement> Element = bufferElementType(Param);
      if (!Element)
        return pragmaError(K, File, llvm::toString(Element.takeError()));
      auto Count = integerValue(It->second->Size, Values);
      if (!Count || *Count < 0)
        return pragmaError(K, File,
                           "the size of buffer '" + Param.Name + "' ('" + It->second->Size.Text +
                               "') does not evaluate");
      if (llvm::Error E = checkBufferCount(Param, static_cast<uint64_t>(*Count)))
        return pragmaError(K, File, llvm::toString(std::move(E)));
      BufferArg B;
      B.Element = Element->Scalar;
      B.Count = static_cast<uint64_t>(*Count) * Element->Lanes;
      if (It->second->Access)
        B.Dir = *It->second->Access == frontend::BufferAccess::In    ? Direction::In
                : *It->second->Access == frontend::BufferAccess::Out ? Direction::Out
                                                                     : Direction::InOut;
      else
        B.Dir = Param.PointeeIsConst ? Direction::In : Direction::InOut;
      Arg.Value = B;
    } else {
      auto Type = evaluator::scalarTypeOfCType(Param.Type);
      auto It = Values.find(Param.Name);
      if (It == Values.end())
        return pragmaError(K, File,
                           "scalar parameter '" + Param.Name + "' needs a value in args(" +
                               Param.Name + " = ...)");
      if (!Type)
        return pragmaError(
            K, File, "cannot pass a value of type '" + Param.Type + "' for '" + Param.Name + "'");
      double V = std::visit([](auto X) { return static_cast<double>(X); }, It->second);
      Arg.Value = ScalarArg{*Type, V};
    }
    W.Args.push_back(std::move(Arg));
  }
  W.Tol = pragmaTolerance(P, W.Args);
  setBufferTolerances(P, W.Args, W.Tol);
  if (llvm::Error E = setBufferRanges(P, W.Args))
    return pragmaError(K, File, llvm::toString(std::move(E)));
  return W;
}

llvm::Error setBufferRanges(const frontend::PragmaClauses &P,
                            std::vector<evaluator::KernelArg> &Args) {
  frontend::NumberBindings Values = frontend::resolveArgValues(P);
  return forEachNamedBuffer(
      P, Args, [&](BufferArg &B, const frontend::BufferSpec &S) -> llvm::Error {
        if (!S.Range)
          return llvm::Error::success();
        auto Low = frontend::evaluateNumber(S.Range->Low, Values);
        auto High = frontend::evaluateNumber(S.Range->High, Values);
        if (!Low || !High) {
          llvm::consumeError(Low.takeError());
          llvm::consumeError(High.takeError());
          return llvm::createStringError("the range of buffer '" + S.Name + "' does not evaluate");
        }
        auto AsDouble = [](const frontend::ClauseNumber &N) {
          return std::visit([](auto X) { return static_cast<double>(X); }, N);
        };
        evaluator::ValueRange R{AsDouble(*Low), AsDouble(*High)};
        if (B.Element == evaluator::ScalarType::F16 || B.Element == evaluator::ScalarType::BF16)
          return llvm::createStringError("range(...) of buffer '" + S.Name +
                                         "': half and bfloat16 inputs keep [-1, 1)");
        if (!evaluator::isFloating(B.Element)) // The integers in [Lo, Hi).
          R = evaluator::ValueRange{std::ceil(R.Lo), std::ceil(R.Hi)};
        if (!(R.Lo < R.Hi) || !std::isfinite(R.Lo) || !std::isfinite(R.Hi))
          return llvm::createStringError("the range of buffer '" + S.Name + "' holds no value");
        B.Range = R;
        return llvm::Error::success();
      });
}

void setBufferTolerances(const frontend::PragmaClauses &P, std::vector<evaluator::KernelArg> &Args,
                         const std::optional<evaluator::Tolerance> &Workload) {
  llvm::cantFail(
      forEachNamedBuffer(P, Args, [&](BufferArg &B, const frontend::BufferSpec &S) -> llvm::Error {
        if (B.Dir != Direction::In && S.Tol) {
          evaluator::Tolerance Over = Workload ? *Workload : evaluator::defaultTolerance(B.Element);
          B.Tol = evaluator::Tolerance{S.Tol->Rtol.value_or(Over.Rtol),
                                       S.Tol->Atol.value_or(Over.Atol)};
        }
        return llvm::Error::success();
      }));
}

std::optional<evaluator::Tolerance> pragmaTolerance(const frontend::PragmaClauses &P,
                                                    const std::vector<evaluator::KernelArg> &Args) {
  if (!P.Tol)
    return std::nullopt;
  // A missing rtol or atol keeps the default of the first written floating buffer.
  evaluator::Tolerance Default{1e-4, 1e-5};
  for (const KernelArg &A : Args)
    if (const BufferArg *B = A.buffer();
        B && B->Dir != Direction::In && evaluator::isFloating(B->Element)) {
      Default = evaluator::defaultTolerance(B->Element);
      break;
    }
  return evaluator::Tolerance{P.Tol->Rtol.value_or(Default.Rtol),
                              P.Tol->Atol.value_or(Default.Atol)};
}

std::vector<std::string> unitCompileOptions(const std::vector<std::string> &NvccFlags,
                                            llvm::StringRef File) {
  std::vector<std::string> Relevant = frontend::parseRelevantFlags(NvccFlags);
  std::vector<std::string> Options;
  llvm::StringRef Dir = llvm::sys::path::parent_path(File);
  Options.push_back("-I" + (Dir.empty() ? std::string(".") : Dir.str()));
  for (size_t I = 0; I < Relevant.size(); ++I) {
    const std::string &F = Relevant[I];
    bool HasValue = I + 1 < Relevant.size();
    if ((F == "-I" || F == "-isystem") && HasValue)
      Options.push_back("-I" + Relevant[++I]);
    else if ((F == "-D" || F == "-U") && HasValue)
      Options.push_back(F + Relevant[++I]);
    else if (F == "-include" && HasValue)
      Options.push_back("--pre-include=" + Relevant[++I]);
    else
      Options.push_back(F);
  }
  for (size_t I = 0; I < NvccFlags.size(); ++I) {
    llvm::StringRef F = NvccFlags[I];
    if (F == "--use_fast_math" || F == "-use_fast_math")
      Options.push_back("--use_fast_math");
    for (const char *Name : {"ftz", "prec-div", "prec-sqrt", "fmad"}) {
      llvm::StringRef Rest = F;
      if (Rest.consume_front("-") && (Rest.consume_front("-"), Rest.consume_front(Name)) &&
          Rest.consume_front("="))
        Options.push_back((llvm::Twine("--") + Name + "=" + Rest).str());
    }
    if ((F == "-maxrregcount" || F == "--maxrregcount") && I + 1 < NvccFlags.size())
      Options.push_back("--maxrregcount=" + NvccFlags[++I]);
    else if (F.starts_with("-maxrregcount=") || F.starts_with("--maxrregcount="))
      Options.push_back("--maxrregcount=" + F.substr(F.find('=') + 1).str());
  }
  return Options;
}

evaluator::KernelSource kernelSourceFor(const frontend::KernelSummary &K,
                                        const std::string &UnitText,
                                        const std::vector<std::string> &Options) {
  evaluator::KernelSource S;
  S.Code = UnitText;
  S.NameExpression = K.Name;
  S.MangledName = K.MangledName;
  llvm::Expected<std::optional<frontend::KernelInstantiation>> Chosen = chosenInstantiation(K);
  if (!Chosen)
    llvm::consumeError(Chosen.takeError()); // workloadFor reported it.
  else if (*Chosen) {
    S.NameExpression += "<" + (*Chosen)->TemplateArgs + ">";
    S.MangledName = (*Chosen)->MangledName;
  }
  S.Options = Options;
  return S;
}

} // namespace kopt::driver
