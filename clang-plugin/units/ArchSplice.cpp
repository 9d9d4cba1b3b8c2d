#include "clang-plugin/units/ArchSplice.h"

#include "support/LineDirective.h"

#include <optional>

namespace kopt::frontend {

namespace {
std::string withNewline(llvm::StringRef Text) {
  std::string Out = Text.str();
  if (Out.empty() || Out.back() != '\n')
    Out += '\n';
  return Out;
}

// "#if C1\n<code1>#elif C2\n<code2>" for the variants' passes.
std::string branches(llvm::ArrayRef<GuardedCode> Variants, llvm::StringRef Prefix) {
  std::string Out;
  for (size_t I = 0; I < Variants.size(); ++I)
    Out += (I ? "#elif " : "#if ") + Prefix.str() + "(" + Variants[I].Guard->Condition + ")\n" +
           withNewline(*Variants[I].Code);
  return Out;
}
} // namespace

std::string guardedDefinition(llvm::ArrayRef<GuardedCode> Variants, llvm::StringRef Original,
                              llvm::StringRef Path, unsigned OriginalLine) {
  return branches(Variants, "") + "#else\n" + lineDirective(Path.str(), OriginalLine) +
         withNewline(Original) + "#endif\n";
}

llvm::Expected<std::string> guardedRenamedDefinition(llvm::ArrayRef<GuardedCode> Variants) {
  if (Variants.empty())
    return "";
  llvm::StringRef First = *Variants.front().Code;
  llvm::Expected<FunctionText> Kernel = lastFunction(First);
  if (!Kernel)
    return Kernel.takeError();
  // The kernel's declaration only: the device functions before it belong to its pass.
  std::string Stub = First.slice(Kernel->Begin, Kernel->Body).rtrim().str() + " {}\n";
  return branches(Variants, "defined(__CUDA_ARCH__) && ") + "#else\n" + Stub + "#endif\n";
}

llvm::Expected<FunctionText> lastFunction(llvm::StringRef Code) {
  std::optional<FunctionText> Last;
  int Braces = 0, Parens = 0;
  bool LineStart = true, ItemDone = true;
  size_t ItemStart = 0;
  for (size_t I = 0; I < Code.size(); ++I) {
    char C = Code[I];
    if (C == '\n') {
      LineStart = true;
      continue;
    }
    if (C == ' ' || C == '\t' || C == '\r')
      continue;
    if (LineStart && C == '#') { // A directive, with its continuation lines.
      while (I + 1 < Code.size() && !(Code[I + 1] == '\n' && Code[I] != '\\'))
        ++I;
      continue;
    }
    LineStart = false;
    if (Code.substr(I).starts_with("//")) {
      I = Code.find('\n', I);
      if (I == llvm::StringRef::npos)
        break;
      LineStart = true;
      continue;
    }
    if (Code.substr(I).starts_with("/*")) {
      I = Code.find("*/", I + 2);
      if (I == llvm::StringRef::npos)
        break;
      ++I;
      continue;
    }
    if (Braces == 0 && ItemDone) { // The first token of a top-level declaration.
      ItemStart = I;
      ItemDone = false;
    }
    if (C == '"' || C == '\'') {
      for (++I; I < Code.size() && Code[I] != C; ++I)
        if (Code[I] == '\\')
          ++I;
      continue;
    }
    if (C == '(') {
      ++Parens;
    } else if (C == ')') {
      --Parens;
    } else if (C == '{') {
      if (Braces == 0 && Parens == 0)
        Last = FunctionText{ItemStart, I};
      ++Braces;
    } else if (C == '}') {
      ItemDone = --Braces == 0;
    } else if (C == ';' && Braces == 0 && Parens == 0) {
      ItemDone = true;
    }
  }
  if (!Last || Braces != 0 || Parens != 0)
    return llvm::createStringError("cannot find the body of the variant's kernel");
  return *Last;
}

std::string dispatchPrelude() {
  return "static inline int kopt_pick_variant_(int *kopt_cache, int kopt_n, const void *const "
         "*kopt_fns, const int *kopt_ptx, const int *kopt_bin) { int kopt_dev = 0; if "
         "(cudaGetDevice(&kopt_dev) != cudaSuccess) return 0; const bool kopt_cached = kopt_dev "
         ">= 0 && kopt_dev < 64; const int kopt_known = kopt_cached ? "
         "__atomic_load_n(&kopt_cache[kopt_dev], __ATOMIC_RELAXED) : 0; if (kopt_known) return "
         "kopt_known - 1; const cudaError_t kopt_before = cudaPeekAtLastError(); int kopt_pick = "
         "0; for (int kopt_i = 0; kopt_i < kopt_n && !kopt_pick; ++kopt_i) { cudaFuncAttributes "
         "kopt_a; if (cudaFuncGetAttributes(&kopt_a, kopt_fns[kopt_i]) == cudaSuccess && "
         "kopt_a.ptxVersion == kopt_ptx[kopt_i] && kopt_a.binaryVersion == kopt_bin[kopt_i]) "
         "kopt_pick = kopt_i + 1; } if (kopt_before == cudaSuccess) (void)cudaGetLastError(); if "
         "(kopt_cached) __atomic_store_n(&kopt_cache[kopt_dev], kopt_pick + 1, __ATOMIC_RELAXED); "
         "return kopt_pick; }\n";
}

} // namespace kopt::frontend
