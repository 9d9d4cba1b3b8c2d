#pragma once

#include <string>
#include <vector>

namespace kopt::driver {
// kopt: the tool for everything but compiling (Args excludes argv[0]).
int koptMain(const std::vector<std::string> &Args);
} // namespace kopt::driver
