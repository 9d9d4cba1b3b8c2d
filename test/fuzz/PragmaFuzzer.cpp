// libFuzzer target for the '#pragma kopt' clause parser (KOPT_BUILD_FUZZERS):
// any input is a pragma text; a broken invariant aborts.
#include "test/fuzz/PragmaInvariants.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Text(reinterpret_cast<const char *>(Data), Size);
  kopt::fuzz::CaseOutcome O = kopt::fuzz::checkPragmaText(Text);
  if (!O.Violation.empty()) {
    std::fprintf(stderr, "invariant violated: %s\n", O.Violation.c_str());
    std::abort();
  }
  return 0;
}
