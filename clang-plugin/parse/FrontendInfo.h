#pragma once

#include <string>

namespace kopt::frontend {
// "clang version 19.1.7 (...)": the clang kopt parses with, linked in.
std::string clangVersion();
} // namespace kopt::frontend
