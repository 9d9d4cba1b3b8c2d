#include "clang-plugin/KernelFeatures.h"

namespace kopt::frontend {

const char *accessPatternName(AccessPattern P) {
  switch (P) {
  case AccessPattern::Coalesced:
    return "coalesced";
  case AccessPattern::Strided:
    return "strided";
  case AccessPattern::Broadcast:
    return "broadcast";
  case AccessPattern::Indirect:
    return "indirect";
  case AccessPattern::Other:
    return "other";
  }
  return "other";
}

KernelFeatures analyzeKernelFeatures(const clang::FunctionDecl &, clang::ASTContext &) {
  return {};
}

} // namespace kopt::frontend
