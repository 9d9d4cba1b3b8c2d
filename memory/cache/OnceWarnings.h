// Warnings about the user cache's state that every compile would repeat, said
// once through markers in <cache>/said (support/SaidOnce.h): once a build
// (support/BuildIdentity.h: one `make` or `ninja` run, or $KOPT_BUILD_ID), or
// once for a cache entry whatever the build. Also when a build began, for the
// size of its working set (CacheConfig::BuildStart).
#pragma once

#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Chrono.h>

#include <optional>

namespace kopt::memory {

// True for the first compile of this build to say Warning (each compile where
// the build cannot be told).
bool firstInBuild(llvm::StringRef CacheDir, llvm::StringRef Warning);

// True the first time Warning, which names an entry, is said.
bool firstForEntry(llvm::StringRef CacheDir, llvm::StringRef Warning);

// When this build's first compile asked (this compile, if it is the first):
// a marker made once a build. Unset where the build cannot be told or the
// cache cannot be written.
std::optional<llvm::sys::TimePoint<>> buildStart(llvm::StringRef CacheDir);

} // namespace kopt::memory
