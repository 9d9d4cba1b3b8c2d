// Where kopt's files live relative to its own binary. The build tree and the
// install tree share one layout, so nothing depends on an absolute path of the
// machine that built kopt:
//
//   <prefix>/bin/kopt, <prefix>/bin/kcc        the binaries
//   <prefix>/lib/kopt/clang/include           clang's resource headers
//   <prefix>/lib/kopt/include-shims           headers that let clang 19 parse CUDA 13
//   <prefix>/lib/kopt/include-fallback        headers nvcc's host compiler has and clang lacks
//   <prefix>/lib/kopt/kopt-clang-plugin.so    the front end as a clang++-19 plugin
//   <prefix>/share/kopt/skills                the skill library
#pragma once

#include <string>

namespace kopt {

class InstallLayout {
public:
  // The layout around the running binary (found through /proc/self/exe).
  static InstallLayout forRunningBinary();
  // The layout around the code that calls it: the running binary, or the clang
  // plugin (lib/kopt/kopt-clang-plugin.so) when clang++ loaded it.
  static InstallLayout forThisCode();
  // The layout under an explicit prefix (tests).
  explicit InstallLayout(std::string PrefixDir);

  const std::string &prefix() const { return Prefix; }
  std::string binDir() const;
  std::string clangResourceDir() const;
  std::string shimIncludeDir() const;
  std::string fallbackIncludeDir() const;
  std::string skillsDir() const;

private:
  std::string Prefix;
};

// The running binary's absolute path with symbolic links resolved.
std::string runningBinaryPath();

} // namespace kopt
