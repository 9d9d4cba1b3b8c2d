#include "driver/rewrite/RewriteStages.h"

#include <cstring>

namespace kopt::driver {

llvm::Expected<RewriteRequest> parseRewriteRequest(const std::vector<std::string> &Args) {
  RewriteRequest R;
  std::vector<std::string> Own;
  for (size_t I = 0; I < Args.size(); ++I) {
    if (Args[I] == "--") {
      R.NvccFlags.assign(Args.begin() + I + 1, Args.end());
      break;
    }
    Own.push_back(Args[I]);
  }
  llvm::Expected<SplitCommandLine> Split = splitKoptFlags(Own);
  if (!Split)
    return Split.takeError();
  R.Kopt = std::move(*Split);
  const std::vector<std::string> &Rest = R.Kopt.CompilerArgs;
  for (size_t I = 0; I < Rest.size(); ++I) {
    llvm::StringRef A = Rest[I];
    bool TakesValue = A == "-o" || A == "--variant" || A == "--manifest";
    if (TakesValue && I + 1 == Rest.size())
      return llvm::createStringError("option '%s' needs a value", A.str().c_str());
    if (A == "-o")
      R.Output = Rest[++I];
    else if (A == "--variant")
      R.VariantFiles.push_back(Rest[++I]);
    else if (A == "--manifest")
      R.ManifestKey = Rest[++I];
    else if (A.starts_with("--variant="))
      R.VariantFiles.push_back(A.drop_front(strlen("--variant=")).str());
    else if (A.starts_with("-") && A != "-")
      return llvm::createStringError("unknown option '%s'", A.str().c_str());
    else if (!R.Source.empty())
      return llvm::createStringError("more than one source: %s and %s", R.Source.c_str(),
                                     A.str().c_str());
    else
      R.Source = A.str();
  }
  if (R.Source.empty() || R.Output.empty())
    return llvm::createStringError("needs a source and -o OUT");
  R.Kopt.CompilerArgs.clear();
  return R;
}

} // namespace kopt::driver
