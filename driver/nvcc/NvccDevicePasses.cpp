#include "driver/nvcc/NvccDevicePasses.h"

#include <llvm/ADT/StringExtras.h>

#include <algorithm>

namespace kopt::driver {

namespace {
constexpr llvm::StringLiteral DefaultArch = "sm_75"; // nvcc 13.0 without -arch.

// "90" and "a" of sm_90a, compute_90a or lto_90a; false when Arch is none of those.
bool splitArch(llvm::StringRef Arch, llvm::StringRef &Number, llvm::StringRef &Suffix) {
  if (!Arch.consume_front("sm_") && !Arch.consume_front("compute_") && !Arch.consume_front("lto_"))
    return false;
  size_t Digits = Arch.find_first_not_of("0123456789");
  Number = Arch.take_front(Digits);
  Suffix = Digits == llvm::StringRef::npos ? llvm::StringRef() : Arch.drop_front(Digits);
  return !Number.empty() && (Suffix.empty() || Suffix == "a" || Suffix == "f");
}

std::string withPrefix(llvm::StringRef Prefix, llvm::StringRef Arch) {
  llvm::StringRef Number, Suffix;
  if (!splitArch(Arch, Number, Suffix))
    return Arch.str();
  return (Prefix + Number + Suffix).str();
}

class PassList {
public:
  NvccDevicePass &pass(const std::string &Virtual) {
    for (NvccDevicePass &P : Passes)
      if (P.Virtual == Virtual)
        return P;
    Passes.push_back({Virtual, {}, false});
    return Passes.back();
  }
  // One -code or code= value for the pass of Virtual.
  void addCode(const std::string &Virtual, llvm::StringRef Code) {
    NvccDevicePass &P = pass(Virtual);
    if (Code.starts_with("compute_")) {
      P.Ptx = true;
      return;
    }
    std::string Real = withPrefix("sm_", Code);
    if (std::find(P.Real.begin(), P.Real.end(), Real) == P.Real.end())
      P.Real.push_back(Real);
  }
  // -arch=sm_XX[a|f] alone: its own pass, and for a or f also the plain one's PTX.
  void addShorthand(llvm::StringRef Arch) {
    std::string Virtual = withPrefix("compute_", Arch);
    llvm::StringRef Number, Suffix;
    if (splitArch(Arch, Number, Suffix) && !Suffix.empty())
      pass(("compute_" + Number).str()).Ptx = true;
    if (!Arch.starts_with("compute_"))
      addCode(Virtual, Arch);
    pass(Virtual).Ptx = true;
  }
  std::vector<NvccDevicePass> Passes;
};
} // namespace

std::string NvccDevicePass::matchingReal() const { return withPrefix("sm_", Virtual); }

int NvccDevicePass::number() const {
  llvm::StringRef Number, Suffix;
  int N = 0;
  if (splitArch(Virtual, Number, Suffix))
    llvm::to_integer(Number, N);
  return N;
}

std::string NvccDevicePass::guard() const {
  llvm::StringRef Number, Suffix;
  splitArch(Virtual, Number, Suffix);
  std::string Value = Number.str() + "0";
  if (Suffix == "a")
    return "defined(__CUDA_ARCH_SPECIFIC__) && __CUDA_ARCH_SPECIFIC__ == " + Value;
  if (Suffix == "f")
    return "defined(__CUDA_ARCH_FAMILY_SPECIFIC__) && __CUDA_ARCH_FAMILY_SPECIFIC__ == " + Value +
           " && !defined(__CUDA_ARCH_SPECIFIC__)";
  return "defined(__CUDA_ARCH__) && __CUDA_ARCH__ == " + Value +
         " && !defined(__CUDA_ARCH_FAMILY_SPECIFIC__)";
}

llvm::Expected<std::vector<NvccDevicePass>> nvccDevicePasses(const NvccCommandLine &Cmd) {
  PassList L;
  auto Check = [](llvm::StringRef Arch) -> llvm::Error {
    llvm::StringRef Number, Suffix;
    if (Arch == "all" || Arch == "all-major" || Arch == "native")
      return llvm::createStringError("-arch=%s: kcc cannot tell which architectures it builds",
                                     Arch.str().c_str());
    if (!splitArch(Arch, Number, Suffix))
      return llvm::createStringError("unknown GPU architecture '%s'", Arch.str().c_str());
    return llvm::Error::success();
  };
  if (!Cmd.GpuArchitectures.empty()) {
    llvm::StringRef Arch = Cmd.GpuArchitectures.back().Value;
    if (llvm::Error E = Check(Arch))
      return E;
    if (Cmd.GpuCodes.empty()) {
      L.addShorthand(Arch);
    } else {
      std::string Virtual = withPrefix("compute_", Arch);
      for (const NvccValue &Code : Cmd.GpuCodes) {
        if (llvm::Error E = Check(Code.Value))
          return E;
        L.addCode(Virtual, Code.Value);
      }
    }
  }
  for (const NvccGenerateCode &G : Cmd.GenerateCodes) {
    if (llvm::Error E = Check(G.Arch))
      return E;
    std::string Virtual = withPrefix("compute_", G.Arch);
    for (const std::string &Code : G.Codes) {
      if (llvm::Error E = Check(Code))
        return E;
      L.addCode(Virtual, Code);
    }
  }
  if (L.Passes.empty())
    L.addShorthand(DefaultArch);
  return L.Passes;
}

std::vector<std::string> realArchitectures(const std::vector<NvccDevicePass> &Passes) {
  std::vector<std::string> Out;
  for (const NvccDevicePass &P : Passes)
    for (const std::string &R : P.Real)
      if (std::find(Out.begin(), Out.end(), R) == Out.end())
        Out.push_back(R);
  return Out;
}

} // namespace kopt::driver
