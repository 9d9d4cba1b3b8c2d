// The '#pragma kopt optimize' line that gives parsed clauses back (for a work
// queue's job, memory/queue/QueueJob.h, which carries a kernel's unit without
// the user's file): every clause with its expressions as the front end read
// them (macros expanded), so that the line parses to the same clauses and the
// same cache key, and numbers exactly (%.17g).
#pragma once

#include "clang-plugin/model/PragmaClauses.h"

#include <string>

namespace kopt::frontend {

// "#pragma kopt optimize launch(grid: ...; block: ...) args(...) ...", one line.
std::string pragmaSource(const PragmaClauses &P);

} // namespace kopt::frontend
