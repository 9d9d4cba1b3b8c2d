#include "clang-plugin/parse/FrontendInfo.h"

#include <clang/Basic/Version.h>

namespace kopt::frontend {
std::string clangVersion() { return clang::getClangFullVersion(); }
} // namespace kopt::frontend
