// The arguments nvcc really sees: NVCC_PREPEND_FLAGS, the command line,
// NVCC_APPEND_FLAGS, with options files (--options-file F, -optf F) and
// response files (@F) replaced by their contents, recursively.
//
// nvcc's rules, checked against nvcc 13.0:
//  - the environment flags are split at blanks outside double quotes, and the
//    quotes stay in the argument (-D"X" defines "X"); backslashes are literal.
//    They join the command line as if typed there: a trailing -I in
//    NVCC_PREPEND_FLAGS takes the first command-line argument as its value;
//  - an options file is split at blanks outside double quotes, the quotes are
//    removed, and a backslash takes the next character literally; single
//    quotes are ordinary characters and '#' starts no comment. Its arguments
//    stand alone: an option at its end that needs a value is an error;
//  - a relative options file name is relative to the working directory, also
//    inside another options file; files nest at most 15 deep;
//  - a value is never expanded: in "-I -optf", -optf is the include directory.
// nvcc itself does not know @file ("Don't know what to do with '@f'"); kcc
// expands it the way gcc and clang do (quotes and backslashes as in a POSIX
// shell) because build tools hand compilers response files.
#pragma once

#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace kopt::driver {

struct NvccParseEnvironment {
  std::optional<std::string> PrependFlags; // NVCC_PREPEND_FLAGS
  std::optional<std::string> AppendFlags;  // NVCC_APPEND_FLAGS
  // Reads an options or response file; gets the name made absolute against
  // WorkingDirectory.
  std::function<llvm::Expected<std::string>(const std::string &Path)> ReadFile;
  std::string WorkingDirectory;

  // The process's environment, file system and working directory.
  static NvccParseEnvironment current();
};

// Options files and response files nest at most this deep, like nvcc's.
inline constexpr unsigned MaxNvccFileNesting = 15;

// Args excludes argv[0].
llvm::Expected<std::vector<std::string>> expandNvccArguments(const std::vector<std::string> &Args,
                                                             const NvccParseEnvironment &Env);

// The splitting rules above, one per source of arguments.
std::vector<std::string> splitNvccEnvironmentFlags(llvm::StringRef Flags);
std::vector<std::string> splitNvccOptionsFile(llvm::StringRef Text);
std::vector<std::string> splitResponseFile(llvm::StringRef Text);

} // namespace kopt::driver
