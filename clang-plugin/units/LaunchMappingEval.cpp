#include "clang-plugin/units/LaunchMappingEval.h"

#include "clang-plugin/pragma/ClauseParser.h"
#include "clang-plugin/pragma/ClauseToken.h"

#include <llvm/ADT/STLExtras.h>

namespace kopt::frontend {

namespace {
constexpr llvm::StringRef Names[] = {"grid_x",  "grid_y",  "grid_z", "block_x",
                                     "block_y", "block_z", "smem"};

// The mapping's seven expressions, in launchMappingNames() order.
std::array<const std::string *, 7> expressionsOf(const LaunchMapping &M) {
  return {&M.Grid[0], &M.Grid[1], &M.Grid[2], &M.Block[0], &M.Block[1], &M.Block[2], &M.SharedMem};
}
std::array<std::string *, 7> expressionsOf(LaunchMapping &M) {
  return {&M.Grid[0], &M.Grid[1], &M.Grid[2], &M.Block[0], &M.Block[1], &M.Block[2], &M.SharedMem};
}
std::array<int64_t *, 7> valuesOf(LaunchDims &D) {
  return {&D.Grid[0], &D.Grid[1], &D.Grid[2], &D.Block[0], &D.Block[1], &D.Block[2], &D.SharedMem};
}
} // namespace

llvm::ArrayRef<llvm::StringRef> launchMappingNames() { return Names; }

bool isLaunchMappingName(llvm::StringRef Name) { return llvm::is_contained(Names, Name); }

llvm::Expected<LaunchDims> evaluateLaunchMapping(const LaunchMapping &Mapping,
                                                 const LaunchDims &Original,
                                                 const IntBindings &ScalarArgs) {
  IntBindings Bindings = ScalarArgs;
  LaunchDims In = Original;
  std::array<int64_t *, 7> InValues = valuesOf(In);
  for (size_t I = 0; I < std::size(Names); ++I)
    Bindings[Names[I].str()] = *InValues[I];

  LaunchDims Out;
  std::array<int64_t *, 7> OutValues = valuesOf(Out);
  std::array<const std::string *, 7> Exprs = expressionsOf(Mapping);
  for (size_t I = 0; I < std::size(Names); ++I) {
    llvm::Expected<ClauseExpr> E = parseExprText(*Exprs[I]);
    if (!E)
      return llvm::createStringError("launch mapping, %s: %s", Names[I].str().c_str(),
                                     llvm::toString(E.takeError()).c_str());
    llvm::Expected<int64_t> V = evaluate(*E, Bindings);
    if (!V)
      return llvm::createStringError("launch mapping, %s = %s: %s", Names[I].str().c_str(),
                                     Exprs[I]->c_str(), llvm::toString(V.takeError()).c_str());
    bool IsSmem = I == std::size(Names) - 1;
    bool InRange = IsSmem ? *V >= 0 : (*V >= 1 && *V <= int64_t(UINT32_MAX));
    if (!InRange)
      return llvm::createStringError("launch mapping, %s = %s gives %lld, which is not %s",
                                     Names[I].str().c_str(), Exprs[I]->c_str(), (long long)*V,
                                     IsSmem ? "a shared memory size (>= 0)"
                                            : "a launch dimension (1 to 2^32 - 1)");
    *OutValues[I] = *V;
  }
  return Out;
}

std::string
substituteNames(llvm::StringRef ExprText,
                llvm::function_ref<std::optional<std::string>(llvm::StringRef)> Replace) {
  std::string Out;
  for (const ClauseToken &T : lexPragmaText(ExprText)) {
    if (T.is(ClauseToken::Kind::End))
      break;
    if (T.LeadingSpace && !Out.empty())
      Out += ' ';
    std::optional<std::string> New;
    if (T.is(ClauseToken::Kind::Identifier))
      New = Replace(T.Text);
    Out += New ? *New : T.Text;
  }
  return Out;
}

LaunchMapping composeLaunchMappings(const LaunchMapping &First, const LaunchMapping &Then) {
  std::array<const std::string *, 7> FirstExprs = expressionsOf(First);
  auto Replace = [&](llvm::StringRef Name) -> std::optional<std::string> {
    const auto *It = llvm::find(Names, Name);
    if (It == std::end(Names))
      return std::nullopt;
    return "(" + *FirstExprs[It - std::begin(Names)] + ")";
  };
  LaunchMapping Out = Then;
  for (std::string *E : expressionsOf(Out))
    *E = substituteNames(*E, Replace);
  return Out;
}

} // namespace kopt::frontend
