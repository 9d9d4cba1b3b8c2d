// `kopt cache`: the result cache's maintenance, ccache style.
#pragma once

#include "memory/cache/ResultCache.h"

#include <llvm/Support/raw_ostream.h>

#include <string>
#include <vector>

namespace kopt::driver {

// ccache -s style summary (`kopt cache -s`) and the plain counters (`stats`).
void printCacheSummary(const memory::ResultCache &Cache, llvm::raw_ostream &OS);
void printCacheStats(const memory::ResultCache &Cache, llvm::raw_ostream &OS);

// `kopt cache explain ...` and `kopt cache rekey ...` (CacheKeyCommands.cpp):
// Args follow the action.
llvm::Error runCacheKeyCommand(llvm::StringRef Action, const std::vector<std::string> &Args);

} // namespace kopt::driver
