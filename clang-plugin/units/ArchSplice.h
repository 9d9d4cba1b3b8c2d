// Splicing for a compile of several device passes (-gencode for 80 and 90):
// each variant goes into the pass of the architecture it was verified for,
// under that pass's preprocessor condition, and the original stays everywhere
// else (driver/nvcc/NvccDevicePasses.h makes the conditions).
//   - In place: the kernel's definition becomes
//       #if <pass 90>  variant  #elif <pass 80>  variant  #else  original  #endif
//   - Renamed (a remapped launch): the variant kernel has its code in its pass
//     and an empty body elsewhere (host side included, where a launch stub is
//     all nvcc makes of it), so the kernel exists in every pass; each launch
//     asks CUDA's runtime which pass's code the device runs
//     (cudaFuncAttributes ptxVersion and binaryVersion, once per device and
//     launch site) and launches the variant with its mapped launch only where
//     that is the verified architecture's code, else the original.
// Needs no clang.
#pragma once

#include <llvm/ADT/ArrayRef.h>
#include <llvm/Support/Error.h>

#include <string>

namespace kopt::frontend {

// A device pass: its condition, and what the runtime reports for a function
// whose code came from it, on the architecture the variant was verified for.
struct ArchGuard {
  std::string Condition; // "defined(__CUDA_ARCH__) && __CUDA_ARCH__ == 900 && ..."
  int PtxVersion = 0;    // 90 for compute_90.
  int BinaryVersion = 0; // 90 for sm_90.
};

// One pass's code: the guard and the variant's code for it.
struct GuardedCode {
  const ArchGuard *Guard;
  const std::string *Code;
};

// The kernel's definition with in-place variants in their passes; Original is
// its text, OriginalLine the line it starts on in Path (named by a #line before it).
std::string guardedDefinition(llvm::ArrayRef<GuardedCode> Variants, llvm::StringRef Original,
                              llvm::StringRef Path, unsigned OriginalLine);

// The definitions of one renamed variant kernel: each pass's code in its
// pass, the first one's signature with an empty body elsewhere. Fails where
// the code's last function has no body to find.
llvm::Expected<std::string> guardedRenamedDefinition(llvm::ArrayRef<GuardedCode> Variants);

// Where the last function in Code starts (its first token after the previous
// top-level declaration) and where its body opens ('{'), comments, strings and
// preprocessor lines skipped; an error where there is no such function.
struct FunctionText {
  size_t Begin = 0, Body = 0;
};
llvm::Expected<FunctionText> lastFunction(llvm::StringRef Code);

// The host function the dispatching launches call, kopt_pick_variant_: the
// 1-based index of the first function whose loaded code has the given
// ptxVersion and binaryVersion on the current device, else 0; cached per
// device in the caller's array of 64. It goes before the rewritten TU's first
// #line (one line, so the user's lines keep their numbers).
std::string dispatchPrelude();

} // namespace kopt::frontend
