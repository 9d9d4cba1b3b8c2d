#pragma once

#include <string>
#include <vector>

namespace kopt::driver {
// kcc: takes nvcc's command line (Args excludes argv[0]). Returns an exit status
// when it does not hand the process over to the real nvcc.
int kccMain(const std::vector<std::string> &Args);
} // namespace kopt::driver
