// Which build a compile belongs to, so that kcc processes of one `make -j` or
// `ninja` run can share a build-wide optimization budget: $KOPT_BUILD_ID if
// set, else the nearest ancestor process that is a build tool (ninja, make,
// cmake, ...), else the parent process, named by its pid and its start time
// (so a later process with the same pid is another build). Linux (/proc).
#pragma once

#include <optional>
#include <string>

namespace kopt {

// "ninja-1234-5678901" (tool, pid, start time in clock ticks since boot), or
// the variable's value; nullopt where /proc cannot be read.
std::optional<std::string> buildIdentity(const char *Explicit);

} // namespace kopt
