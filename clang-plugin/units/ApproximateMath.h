// Which of CUDA's approximate math functions a variant's code calls more often
// than the original's: __expf, __fdividef, rsqrtf and the like swap a correctly
// rounded operation for the hardware's approximation, which the user must allow
// (the pragma's `fastmath`, --kopt-fast-math or -use_fast_math). Read from the
// text, so that it judges a variant whichever engine wrote it, and entries
// cached before the user's choice was asked. Needs no clang.
#pragma once

#include <llvm/ADT/StringRef.h>

#include <string>
#include <vector>

namespace kopt::frontend {

// The approximate functions Variant calls more often than Original, by name.
std::vector<std::string> approximationsAdded(llvm::StringRef Original, llvm::StringRef Variant);

// Where Variant adds approximate math: why a user who did not allow it does
// not get the variant, in one line ("it calls __expf, approximate math ...");
// else empty.
std::string approximationsNotAllowed(llvm::StringRef Original, llvm::StringRef Variant);

} // namespace kopt::frontend
