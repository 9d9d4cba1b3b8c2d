// The run-time switch between a spliced variant and its kernel's original
// (docs/kcc.md, "Switching variants off"): kcc keeps every original in the TU,
// and each launch it retargets asks kopt_variants_enabled("K") once (a static
// a launch site) whether K runs its variant, so that `KOPT_VARIANTS=off` runs
// the program as nvcc would have built it and `kopt verify` can judge the
// variants by the application's own check.
#pragma once

#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>

#include <string>

namespace kopt::frontend {

// The host function the switching launches call, kopt_variants_enabled: false
// where KOPT_VARIANTS (read once a process) is "off", or "off:K1,K2,..." and
// names the kernel; true where it is unset, empty or "on" (any other value is
// said on stderr and leaves the variant on). Where KOPT_VARIANTS_LOG names a
// file, each first launch of a launch site appends "K variant" or "K original"
// to it. For the rewritten TU's start, before its first #line.
std::string variantSwitchPrelude();

// The name the original of an in-place variant of Kernel keeps in the TU:
// "ns::K" -> "K__kopt_original" (its scope stays that of the definition).
std::string originalKernelName(llvm::StringRef KernelName);

// Definition (a kernel's definition as written) with the kernel named NewName:
// the first occurrence of the kernel's unqualified name followed by '(' in the
// last function's declarator. Fails where there is none.
llvm::Expected<std::string> renamedDefinition(llvm::StringRef Definition,
                                              llvm::StringRef KernelName, llvm::StringRef NewName);

} // namespace kopt::frontend
