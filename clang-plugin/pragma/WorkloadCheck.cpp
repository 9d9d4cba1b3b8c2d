#include "clang-plugin/pragma/WorkloadCheck.h"

#include "clang-plugin/model/VerificationChain.h"

#include <llvm/ADT/STLExtras.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/FormatVariadic.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <tuple>

namespace kopt::frontend {

namespace {

using Diag = PragmaDiagKind;

std::string numberText(const ClauseNumber &V) {
  if (const int64_t *I = std::get_if<int64_t>(&V))
    return std::to_string(*I);
  return llvm::formatv("{0}", std::get<double>(V)).str();
}

// The first token of an expression (its leftmost node).
unsigned firstToken(const ExprNode &N) {
  unsigned T = N.Token;
  if (N.LHS)
    T = std::min(T, firstToken(*N.LHS));
  if (N.RHS)
    T = std::min(T, firstToken(*N.RHS));
  return T;
}

// A skill id that has Id as one of its dash-separated words: tiling -> smem-tiling.
std::optional<std::string> skillWithWord(llvm::StringRef Id, llvm::ArrayRef<std::string> Known) {
  for (const std::string &K : Known) {
    llvm::SmallVector<llvm::StringRef, 4> Words;
    llvm::StringRef(K).split(Words, '-');
    if (llvm::is_contained(Words, Id))
      return K;
  }
  return std::nullopt;
}

class WorkloadResolver {
public:
  WorkloadResolver(const PragmaClauses &Clauses, const WorkloadSubject &Subject)
      : P(Clauses), K(Subject) {}

  ResolvedWorkload run() {
    checkSkills();
    checkRepeat();
    if (P.hasWorkload() && checkComplete()) {
      checkDirections();
      checkDataBoundLoops();
      resolveLaunches();
    }
    std::stable_sort(
        Out.Diagnostics.begin(), Out.Diagnostics.end(),
        [](const PragmaDiagnostic &L, const PragmaDiagnostic &R) { return L.Token < R.Token; });
    if (hasErrors(Out.Diagnostics))
      Out.Launches.clear();
    return std::move(Out);
  }

private:
  // Every problem once: two missing scalars at the same 'args' token are two
  // diagnostics, the same one again is not.
  void diag(Diag Kind, unsigned Token, std::vector<std::string> Args, std::string FixIt = {}) {
    if (!Reported.insert({unsigned(Kind), Token, llvm::join(Args, "\n")}).second)
      return;
    Out.Diagnostics.push_back({Kind, Token, std::move(Args), std::move(FixIt)});
  }
  // A problem of an expression that each launch (combination of args values)
  // meets again, with its label in the text: shown once, for the first launch.
  void launchDiag(Diag Kind, unsigned Token, std::vector<std::string> Args) {
    if (!Reported.insert({unsigned(Kind), Token, std::string()}).second)
      return;
    Out.Diagnostics.push_back({Kind, Token, std::move(Args), {}});
  }

  void checkSkills() {
    if (!P.Skills || !K.Skills)
      return;
    std::vector<llvm::StringRef> Known(K.Skills->begin(), K.Skills->end());
    for (const SkillToggle &T : *P.Skills) {
      if (llvm::is_contained(*K.Skills, T.Id))
        continue;
      std::optional<std::string> Near = closestSpelling(T.Id, Known);
      if (!Near)
        Near = skillWithWord(T.Id, *K.Skills);
      if (Near)
        diag(Diag::UnknownSkillSuggest, T.Token, {T.Id, *Near}, *Near);
      else
        diag(Diag::UnknownSkill, T.Token, {T.Id});
    }
  }

  // repeat(N) beyond any time-stepped program's need is a mistake (1 << 30):
  // every verification would run it.
  void checkRepeat() {
    if (P.Repeat && *P.Repeat > MaxRepeat)
      diag(Diag::RepeatTooLong, P.RepeatToken,
           {std::to_string(*P.Repeat), std::to_string(MaxRepeat)});
  }

  // A launch, a value for every scalar, a buffer for every pointer.
  bool checkComplete() {
    bool OK = true;
    if (!P.Launch) {
      diag(Diag::MissingLaunch, 0, {K.Kernel});
      OK = false;
    }
    for (size_t I = 0; I < K.Params.size(); ++I) {
      const KernelParam &Param = K.Params[I];
      if (Param.Category == ParamCategory::Pointer) {
        if (!findBuffer(Param.Name)) {
          diag(Diag::MissingBuffer, P.BuffersToken, {K.Kernel, Param.Name});
          OK = false;
        }
      } else if (Param.Name.empty()) {
        diag(Diag::UnnamedParameter, P.ArgsToken, {K.Kernel, std::to_string(I + 1)});
        OK = false;
      } else if (Param.Category == ParamCategory::Other) {
        diag(Diag::ParameterWithoutValue, P.ArgsToken, {K.Kernel, Param.Name, Param.Type});
        OK = false;
      } else if (!findArg(Param.Name)) {
        diag(Diag::MissingArg, P.ArgsToken, {K.Kernel, Param.Name});
        OK = false;
      }
    }
    return OK;
  }

  // The item of a clause (a buffer, an arg) that names Name.
  template <typename Item>
  static const Item *named(const std::optional<std::vector<Item>> &Items, llvm::StringRef Name) {
    if (Items)
      for (const Item &I : *Items)
        if (I.Name == Name)
          return &I;
    return nullptr;
  }
  const BufferSpec *findBuffer(llvm::StringRef Name) const { return named(P.Buffers, Name); }

  // The bytes of one element of pointer parameter Name where clause types know
  // its type ("float (4 bytes)"); else 1, a lower bound ("at least 1 byte").
  std::pair<uint64_t, std::string> elementOf(llvm::StringRef Name) const {
    for (const KernelParam &Param : K.Params) {
      if (Param.Name != Name)
        continue;
      llvm::StringRef Type = llvm::StringRef(Param.ElementType).trim();
      while (Type.consume_front("const ") || Type.consume_front("volatile "))
        ;
      if (std::optional<ClauseType> T = clauseTypeNamed(Type))
        return {T->Bytes, Type.str() + " (" + std::to_string(T->Bytes) + " bytes)"};
    }
    return {1, "at least 1 byte"};
  }
  const ArgValue *findArg(llvm::StringRef Name) const { return named(P.Args, Name); }

  // A buffer declared 'in' that the body writes.
  void checkDirections() {
    if (!K.Body || !P.Buffers)
      return;
    for (const BufferSpec &B : *P.Buffers) {
      if (B.Access != BufferAccess::In)
        continue;
      if (auto It = K.Body->Written.find(B.Name); It != K.Body->Written.end())
        diag(Diag::WrittenInput, B.AccessToken, {K.Kernel, B.Name, It->second});
      else if (auto Maybe = K.Body->MaybeWritten.find(B.Name); Maybe != K.Body->MaybeWritten.end())
        diag(Diag::MaybeWrittenInput, B.AccessToken, {K.Kernel, B.Name, Maybe->second});
    }
  }

  // An integer buffer that bounds a loop, with the default inputs: random
  // values in [0, 16) make its trip counts, so the timing the search ranks
  // variants by may not be the application's (a count per row; CSR offsets
  // are generated as rows and do not count here).
  void checkDataBoundLoops() {
    if (!K.Body)
      return;
    for (const RandomlyBoundedLoop &L : randomlyBoundedLoops(*K.Body, P, K.Params))
      diag(Diag::LoopBoundsFromRandomInput, L.Buffer->NameToken,
           {K.Kernel, std::to_string(L.Line), L.Buffer->Name});
  }

  // Every combination of the args values, each a launch.
  void resolveLaunches() {
    uint64_t Count = 1;
    std::vector<size_t> Sizes;
    if (P.Args)
      for (const ArgValue &A : *P.Args) {
        Sizes.push_back(A.MoreValues.size() + 1);
        Count = std::min<uint64_t>(Count * Sizes.back(), uint64_t(1) << 40);
      }
    if (Count > MaxWorkloadLaunches) {
      diag(Diag::TooManyLaunches, P.ArgsToken,
           {std::to_string(Count), std::to_string(MaxWorkloadLaunches)});
      return;
    }
    std::vector<size_t> Choice(Sizes.size(), 0);
    for (uint64_t N = 0; N < Count; ++N) {
      resolveLaunch(Choice, Count > 1);
      for (size_t I = Choice.size(); I-- > 0;) { // The next combination, last arg fastest.
        if (++Choice[I] < Sizes[I])
          break;
        Choice[I] = 0;
      }
    }
    checkRepeatedThreads();
  }

  // Threads that differ only in y or z where the body reads only x components
  // run the same code on the same addresses: every element the kernel writes
  // is written by all of them. Certain where the body writes something and
  // nothing it calls may read the other components.
  void checkRepeatedThreads() {
    if (!K.Body || K.Body->Written.empty())
      return;
    const std::string &Write = K.Body->Written.begin()->first;
    for (const ResolvedLaunch &L : Out.Launches) {
      if (!K.Body->MayUseThreadYZ && L.Block[1] * L.Block[2] > 1)
        launchDiag(Diag::OneDimensionalKernelRace, P.Launch->BlockToken,
                   {K.Kernel, std::to_string(L.Block[1] * L.Block[2]), forLabel(L.Label), Write});
      if (!K.Body->MayUseBlockYZ && L.Grid[1] * L.Grid[2] > 1)
        launchDiag(Diag::OneDimensionalGridRace, P.Launch->GridToken,
                   {K.Kernel, std::to_string(L.Grid[1] * L.Grid[2]), forLabel(L.Label), Write});
    }
  }

  static std::string forLabel(const std::string &Label) {
    return Label.empty() ? "" : " for " + Label;
  }

  bool namesUnknownTemplateParam(const ClauseExpr &E) const {
    if (K.TemplateValues || !E.Root)
      return false;
    std::vector<const ExprNode *> Names;
    collectNames(*E.Root, Names);
    return llvm::any_of(Names, [&](const ExprNode *N) {
      return llvm::any_of(K.TemplateParams,
                          [&](const KernelParam &T) { return T.Name == N->Spelling; });
    });
  }

  // E's value in launch L; reports why not (at the failing operator) and gives
  // nothing where it does not evaluate.
  std::optional<ClauseNumber> valueOf(const ClauseExpr &E, const std::string &What,
                                      const ResolvedLaunch &L) {
    if (namesUnknownTemplateParam(E))
      return std::nullopt;
    EvalFailure Why;
    llvm::Expected<ClauseNumber> V = evaluateNumber(E, L.Values, &Why);
    if (V)
      return *V;
    llvm::consumeError(V.takeError());
    // A value missing because another arg failed: that one is reported.
    if (!llvm::StringRef(Why.Reason).starts_with("no value for"))
      launchDiag(Diag::EvaluationFailed, Why.Token, {What, E.Text, forLabel(L.Label), Why.Reason});
    return std::nullopt;
  }

  std::optional<int64_t> integerOf(const ClauseExpr &E, const std::string &What,
                                   const ResolvedLaunch &L) {
    std::optional<ClauseNumber> V = valueOf(E, What, L);
    if (!V)
      return std::nullopt;
    if (const int64_t *I = std::get_if<int64_t>(&*V))
      return *I;
    launchDiag(
        Diag::EvaluationFailed, firstToken(*E.Root),
        {What, E.Text, forLabel(L.Label), "its value " + numberText(*V) + " is not an integer"});
    return std::nullopt;
  }

  // Dimension I of a grid or block: at least 1, at most Max.
  bool resolveDimension(const ClauseExpr &E, const std::string &What, uint64_t Max,
                        const ResolvedLaunch &L, uint64_t &Slot) {
    std::optional<int64_t> V = integerOf(E, What, L);
    if (!V)
      return false;
    if (*V < 1 || uint64_t(*V) > Max) {
      launchDiag(Diag::ValueOutsideLimits, firstToken(*E.Root),
                 {What, E.Text, std::to_string(*V), forLabel(L.Label),
                  *V < 1 ? "it must be at least 1" : "the limit is " + std::to_string(Max)});
      return false;
    }
    Slot = uint64_t(*V);
    return true;
  }

  void resolveLaunch(llvm::ArrayRef<size_t> Choice, bool Labelled) {
    ResolvedLaunch L;
    L.Values = resolveArgValues(P, K.TemplateValues.value_or(NumberBindings()), Choice);
    bool OK = true;
    std::vector<std::string> LabelParts;
    for (size_t I = 0; P.Args && I < P.Args->size(); ++I) {
      const ArgValue &A = (*P.Args)[I];
      const ClauseExpr &Chosen = Choice[I] == 0 ? A.Value : A.MoreValues[Choice[I] - 1];
      auto It = L.Values.find(A.Name);
      if (It == L.Values.end()) {
        valueOf(Chosen, "the value of '" + A.Name + "'", L); // Reports why.
        OK = false;
      } else if (!A.MoreValues.empty()) {
        LabelParts.push_back(A.Name + " = " + numberText(It->second));
      }
    }
    if (Labelled)
      L.Label = llvm::join(LabelParts, ", ");
    if (!OK)
      return;
    static constexpr const char *Axes[] = {"x", "y", "z"};
    const LaunchClause &Launch = *P.Launch;
    for (size_t I = 0; I < Launch.Grid.size(); ++I)
      OK &= resolveDimension(Launch.Grid[I], std::string("grid dimension ") + Axes[I],
                             MaxGridDims[I], L, L.Grid[I]);
    for (size_t I = 0; I < Launch.Block.size(); ++I)
      OK &= resolveDimension(Launch.Block[I], std::string("block dimension ") + Axes[I],
                             MaxBlockDims[I], L, L.Block[I]);
    uint64_t Threads = L.Block[0] * L.Block[1] * L.Block[2];
    if (OK && Threads > MaxBlockThreads) {
      launchDiag(Diag::BlockTooLarge, Launch.BlockToken,
                 {std::to_string(Threads), forLabel(L.Label), std::to_string(MaxBlockThreads)});
      OK = false;
    }
    if (Launch.SharedMemory) {
      const ClauseExpr &E = *Launch.SharedMemory;
      std::optional<int64_t> V = integerOf(E, "the shared memory size", L);
      if (V && (*V < 0 || uint64_t(*V) > MaxSharedBytes))
        launchDiag(Diag::ValueOutsideLimits, firstToken(*E.Root),
                   {"the shared memory size", E.Text, std::to_string(*V), forLabel(L.Label),
                    *V < 0 ? "it must not be negative"
                           : "the largest any GPU allows a block is " +
                                 std::to_string(MaxSharedBytes) + " bytes (227 KiB)"});
      OK &= V && *V >= 0 && uint64_t(*V) <= MaxSharedBytes;
      if (OK)
        L.SharedBytes = uint64_t(*V);
    }
    if (P.Buffers)
      for (const BufferSpec &B : *P.Buffers)
        OK &= resolveBuffer(B, L);
    if (OK)
      Out.Launches.push_back(std::move(L));
  }

  bool resolveBuffer(const BufferSpec &B, ResolvedLaunch &L) {
    std::string What = "the size of buffer '" + B.Name + "'";
    std::optional<int64_t> Count = integerOf(B.Size, What, L);
    if (!Count)
      return namesUnknownTemplateParam(B.Size);
    if (*Count < 0) {
      launchDiag(Diag::ValueOutsideLimits, firstToken(*B.Size.Root),
                 {What, B.Size.Text, std::to_string(*Count), forLabel(L.Label),
                  "it must not be negative"});
      return false;
    }
    auto [Bytes, Element] = elementOf(B.Name);
    if (uint64_t(*Count) > MaxBufferBytes / Bytes) {
      launchDiag(Diag::BufferTooLarge, firstToken(*B.Size.Root),
                 {B.Name, std::to_string(*Count), Element, forLabel(L.Label)});
      return false;
    }
    L.BufferCounts[B.Name] = uint64_t(*Count);
    if (!B.Range)
      return true;
    std::string RangeWhat = "a range bound of buffer '" + B.Name + "'";
    std::optional<ClauseNumber> Low = valueOf(B.Range->Low, RangeWhat, L);
    std::optional<ClauseNumber> High = valueOf(B.Range->High, RangeWhat, L);
    if (!Low || !High)
      return false;
    double Lo = std::visit([](auto X) { return double(X); }, *Low);
    double Hi = std::visit([](auto X) { return double(X); }, *High);
    if (!(Lo < Hi) || !std::isfinite(Lo) || !std::isfinite(Hi)) {
      launchDiag(Diag::RangeEmpty, B.Range->Token,
                 {numberText(*Low), numberText(*High), B.Name, forLabel(L.Label)});
      return false;
    }
    L.Ranges[B.Name] = {Lo, Hi};
    return true;
  }

  const PragmaClauses &P;
  const WorkloadSubject &K;
  ResolvedWorkload Out;
  std::set<std::tuple<unsigned, unsigned, std::string>> Reported;
};

} // namespace

std::vector<RandomlyBoundedLoop> randomlyBoundedLoops(const KernelBodyUse &Body,
                                                      const PragmaClauses &Pragma,
                                                      llvm::ArrayRef<KernelParam> Params) {
  std::vector<RandomlyBoundedLoop> Out;
  if (!Pragma.Buffers)
    return Out;
  for (const BufferSpec &B : *Pragma.Buffers) {
    auto It = Body.LoopBoundsFrom.find(B.Name);
    if (It == Body.LoopBoundsFrom.end() || B.Range)
      continue;
    auto Param = llvm::find_if(Params, [&](const KernelParam &KP) { return KP.Name == B.Name; });
    if (Param != Params.end() && Param->Pointee == ParamCategory::Integer)
      Out.push_back({&B, It->second});
  }
  return Out;
}

KernelBodyUse bodyUseOf(const KernelFeatures &F) {
  KernelBodyUse Use;
  auto Line = [](unsigned L) { return "line " + std::to_string(L); };
  for (const MemoryAccess &A : F.Accesses)
    if (A.Write)
      Use.Written.try_emplace(A.Param, Line(A.Line));
  for (const PointerEscape &E : F.Escapes) {
    if (E.Writes)
      Use.Written.try_emplace(E.Param, E.How + " at " + Line(E.Line));
    else
      Use.MaybeWritten.try_emplace(E.Param, E.How + " at " + Line(E.Line));
  }
  // Offsets (a CSR row's P[I] to P[I + 1]) are generated as well-formed rows
  // (Workload.h's OffsetsLayout): their loops' trip counts are not random values.
  for (const LoopFeature &L : F.Loops)
    for (const std::string &Param : L.BoundParams)
      if (Param != L.OffsetsParam)
        Use.LoopBoundsFrom.try_emplace(Param, L.Line);
  Use.MayUseThreadYZ = Use.MayUseBlockYZ = false;
  for (llvm::StringRef B : F.IndexBuiltins) {
    if (B.ends_with(".x"))
      continue;
    if (B.starts_with("threadIdx.") || B.starts_with("blockDim."))
      Use.MayUseThreadYZ = true;
    if (B.starts_with("blockIdx.") || B.starts_with("gridDim."))
      Use.MayUseBlockYZ = true;
  }
  // Device functions and block-wide collectives (cub, cooperative groups) may
  // read the other components; plain intrinsics (__syncthreads, __shfl_*) do not.
  auto Opaque = [](const CallFeature &C) { return !llvm::StringRef(C.Name).starts_with("__"); };
  if (!F.OtherCalls.empty() || llvm::any_of(F.Barriers, Opaque) ||
      llvm::any_of(F.WarpIntrinsics, Opaque))
    Use.MayUseThreadYZ = Use.MayUseBlockYZ = true;
  return Use;
}

const KernelInstantiation *
workloadInstantiation(const std::vector<KernelInstantiation> &Instantiations) {
  return Instantiations.empty() ? nullptr : &Instantiations.front();
}

std::optional<NumberBindings>
workloadTemplateValues(const std::vector<KernelInstantiation> &Instantiations) {
  const KernelInstantiation *I = workloadInstantiation(Instantiations);
  if (!I)
    return std::nullopt;
  NumberBindings Values;
  for (const auto &[Name, Value] : I->Values)
    Values[Name] = Value;
  return Values;
}

ResolvedWorkload resolveWorkload(const PragmaClauses &Clauses, const WorkloadSubject &Kernel) {
  return WorkloadResolver(Clauses, Kernel).run();
}

} // namespace kopt::frontend
