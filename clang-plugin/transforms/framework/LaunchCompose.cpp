#include "clang-plugin/transforms/framework/LaunchCompose.h"

#include <llvm/ADT/STLExtras.h>
#include <llvm/ADT/StringExtras.h>

namespace kopt::transform {

namespace {
// A name or a number: needs no parentheses.
bool isAtom(llvm::StringRef E) {
  return !E.empty() && llvm::all_of(E, [](char C) { return llvm::isAlnum(C) || C == '_'; });
}

// Replaces the launch variables of Expr with First's expressions.
std::string substitute(llvm::StringRef Expr, const frontend::LaunchMapping &First) {
  auto Lookup = [&](llvm::StringRef Name) -> const std::string * {
    static constexpr const char *Dims[] = {"x", "y", "z"};
    for (unsigned D = 0; D < 3; ++D) {
      if (Name == std::string("grid_") + Dims[D])
        return &First.Grid[D];
      if (Name == std::string("block_") + Dims[D])
        return &First.Block[D];
    }
    return Name == "smem" ? &First.SharedMem : nullptr;
  };
  std::string Out;
  size_t I = 0;
  while (I < Expr.size()) {
    char C = Expr[I];
    if (!llvm::isAlpha(C) && C != '_') {
      // Skip numbers whole, so a suffix like 1e5 is not taken for a name.
      size_t J = I + 1;
      if (llvm::isDigit(C))
        while (J < Expr.size() && (llvm::isAlnum(Expr[J]) || Expr[J] == '.'))
          ++J;
      Out += Expr.substr(I, J - I);
      I = J;
      continue;
    }
    size_t J = I;
    while (J < Expr.size() && (llvm::isAlnum(Expr[J]) || Expr[J] == '_'))
      ++J;
    llvm::StringRef Name = Expr.substr(I, J - I);
    const std::string *Replacement = Lookup(Name);
    if (!Replacement)
      Out += Name;
    else if (isAtom(*Replacement))
      Out += *Replacement;
    else
      Out += "(" + *Replacement + ")";
    I = J;
  }
  return Out;
}
} // namespace

frontend::LaunchMapping composeLaunch(const frontend::LaunchMapping &First,
                                      const frontend::LaunchMapping &Then) {
  frontend::LaunchMapping Out;
  for (unsigned D = 0; D < 3; ++D) {
    Out.Grid[D] = substitute(Then.Grid[D], First);
    Out.Block[D] = substitute(Then.Block[D], First);
  }
  Out.SharedMem = substitute(Then.SharedMem, First);
  return Out;
}

std::optional<frontend::LaunchMapping>
composeLaunch(const std::optional<frontend::LaunchMapping> &First,
              const std::optional<frontend::LaunchMapping> &Then) {
  if (!First || !Then)
    return First ? First : Then;
  return composeLaunch(*First, *Then);
}

std::string formatLaunch(const frontend::LaunchMapping &M) {
  std::string Out = "grid(" + M.Grid[0] + ", " + M.Grid[1] + ", " + M.Grid[2] + ") block(" +
                    M.Block[0] + ", " + M.Block[1] + ", " + M.Block[2] + ")";
  if (M.SharedMem != "smem")
    Out += " smem(" + M.SharedMem + ")";
  return Out;
}

} // namespace kopt::transform
