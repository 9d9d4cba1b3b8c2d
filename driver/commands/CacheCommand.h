// `kopt cache`: the result cache's maintenance, ccache style.
#pragma once

#include "memory/ResultCache.h"

#include <llvm/Support/raw_ostream.h>

namespace kopt::driver {

// ccache -s style summary (`kopt cache -s`) and the plain counters (`stats`).
void printCacheSummary(const memory::ResultCache &Cache, llvm::raw_ostream &OS);
void printCacheStats(const memory::ResultCache &Cache, llvm::raw_ostream &OS);

} // namespace kopt::driver
