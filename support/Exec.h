// Running other programs: replacing this process (kcc's hand-off to nvcc) or
// waiting for a child.
#pragma once

#include <llvm/Support/Error.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace kopt {

// Replaces the current process with Program, Args[0] being argv[0]. Returns
// only on failure, with the reason.
llvm::Error execReplacing(const std::string &Program, const std::vector<std::string> &Args);

// Runs Program with Args (Args[0] is argv[0]), inheriting stdin/stdout/stderr,
// and returns its exit status (128 + signal number if it was killed). SIGINT,
// SIGTERM or SIGHUP meanwhile go to the child too, and end this process once
// the child has ended (TerminationSignals.h).
llvm::Expected<int> runAndWait(const std::string &Program, const std::vector<std::string> &Args);

// Rewrites one line of a child's output (without its '\n'; the result is
// written with one), or drops it (std::nullopt).
using LineFilter = std::function<std::optional<std::string>(llvm::StringRef)>;
using StderrFilter = LineFilter;

// As runAndWait, but the child's stderr passes through Filter one line at a
// time.
llvm::Expected<int> runAndWaitFilteringStderr(const std::string &Program,
                                              const std::vector<std::string> &Args,
                                              const StderrFilter &Filter);
// As runAndWait, but the child's stdout passes through Filter one line at a
// time (to read what a program reports while the user still sees it).
llvm::Expected<int> runAndWaitFilteringStdout(const std::string &Program,
                                              const std::vector<std::string> &Args,
                                              const LineFilter &Filter);

} // namespace kopt
