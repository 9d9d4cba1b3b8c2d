// Warnings that many processes would each say, said once: the first process
// to say one leaves a marker file for it in a directory (the user cache's
// said/), made exclusively, so of many parallel compiles exactly one says it.
// Markers older than a day are removed when a new one is made: a warning that
// still holds then is said again, once.
#pragma once

#include <llvm/ADT/StringRef.h>

#include <string>

namespace kopt {

// True where this call made the marker of Warning in Dir, and where no marker
// can be made there (a read-only directory): a warning is never lost because
// its marker could not be written.
bool firstToSay(llvm::StringRef Dir, llvm::StringRef Warning);

// The name of Warning's marker file in that directory (its time is when it was said).
std::string saidMarkerName(llvm::StringRef Warning);

} // namespace kopt
