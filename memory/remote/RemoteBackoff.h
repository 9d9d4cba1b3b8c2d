// A server that could not be reached (a remote cache, a work queue) is skipped
// for a while by every compile that shares the user cache, so a build of 500
// files does not wait 500 timeouts: <user cache>/remote/<id>.backoff holds
// "<until, seconds since the epoch> <why>" (id: RemoteSpec::id()).
#pragma once

#include <llvm/ADT/StringRef.h>

#include <chrono>

namespace kopt::memory {

inline constexpr std::chrono::seconds BackoffPeriod{60};

// Whether a process found server Id unreachable less than BackoffPeriod ago.
bool backedOff(llvm::StringRef UserDir, llvm::StringRef Id);

// Skips server Id for BackoffPeriod from now, saying Why; best effort (a user
// cache that cannot be written skips nothing).
void backOff(llvm::StringRef UserDir, llvm::StringRef Id, llvm::StringRef Why);

} // namespace kopt::memory
