#include "driver/commands/SourceKernels.h"
#include "clang-plugin/parse/KernelFinder.h"

#include "driver/optimize/FrontendSetup.h"

#include <llvm/Support/FileSystem.h>

namespace kopt::driver {

llvm::Expected<SourceKernels> loadSourceKernels(const std::vector<std::string> &Args,
                                                llvm::StringRef Usage) {
  SourceKernels S;
  for (size_t I = 0; I < Args.size(); ++I) {
    if (Args[I] == "--") {
      S.Flags.assign(Args.begin() + I + 1, Args.end());
      break;
    }
    if (!S.File.empty() || (Args[I].starts_with("-") && Args[I] != "-")) {
      S.Flags.assign(Args.begin() + I, Args.end());
      break;
    }
    S.File = Args[I];
  }
  if (S.File.empty())
    return llvm::createStringError("no input file (usage: kopt %s)", Usage.str().c_str());
  if (!llvm::sys::fs::exists(S.File))
    return llvm::createStringError("no such file: %s", S.File.c_str());

  llvm::Expected<frontend::CudaParseSetup> Setup = frontendSetupFor(S.Flags);
  if (!Setup)
    return Setup.takeError();
  S.CudaPath = Setup->CudaPath;
  auto Kernels = frontend::findKernels(S.File, *Setup);
  if (!Kernels)
    return Kernels.takeError();
  S.Kernels = std::move(*Kernels);
  return S;
}

llvm::Expected<const frontend::KernelSummary &> pickAnnotatedKernel(const SourceKernels &S,
                                                                    llvm::StringRef Name) {
  std::vector<const frontend::KernelSummary *> Annotated;
  std::string Names;
  for (const frontend::KernelSummary &K : S.Kernels) {
    if (!K.Pragma)
      continue;
    Annotated.push_back(&K);
    Names += (Names.empty() ? "" : ", ") + K.Name;
    llvm::StringRef Qualified = K.Name;
    if (!Name.empty() && (Qualified == Name || Qualified.ends_with(("::" + Name).str())))
      return *Annotated.back();
  }
  if (Annotated.empty())
    return llvm::createStringError("%s has no kernel marked with '#pragma kopt optimize'",
                                   S.File.c_str());
  if (Name.empty() && Annotated.size() == 1)
    return *Annotated.front();
  if (Name.empty())
    return llvm::createStringError(
        "%s has several annotated kernels (%s): choose one with --kernel", S.File.c_str(),
        Names.c_str());
  return llvm::createStringError("%s has no annotated kernel named '%s'%s (annotated: %s)",
                                 S.File.c_str(), Name.str().c_str(),
                                 suggestKernel(Annotated, Name).c_str(), Names.c_str());
}

llvm::Expected<std::optional<std::string>> takeOption(std::vector<std::string> &Args,
                                                      llvm::StringRef Name) {
  std::string Flag = ("--" + Name).str();
  for (size_t I = 0; I < Args.size() && Args[I] != "--"; ++I) {
    llvm::StringRef Arg = Args[I];
    if (Arg.consume_front(Flag + "=")) {
      std::string Value = Arg.str();
      Args.erase(Args.begin() + I);
      if (Value.empty())
        break;
      return Value;
    }
    if (Arg == Flag) {
      if (I + 1 == Args.size() || Args[I + 1] == "--")
        break;
      std::string Value = Args[I + 1];
      Args.erase(Args.begin() + I, Args.begin() + I + 2);
      return Value;
    }
    continue;
  }
  for (const std::string &Arg : Args) {
    if (Arg == "--")
      break;
    if (Arg == Flag || Arg == Flag + "=")
      return llvm::createStringError("%s needs a value", Flag.c_str());
  }
  return std::nullopt;
}

bool takeFlag(std::vector<std::string> &Args, llvm::StringRef Name) {
  std::string Flag = ("--" + Name).str();
  for (size_t I = 0; I < Args.size() && Args[I] != "--"; ++I)
    if (Args[I] == Flag) {
      Args.erase(Args.begin() + I);
      return true;
    }
  return false;
}

} // namespace kopt::driver
