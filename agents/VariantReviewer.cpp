#include "agents/VariantReviewer.h"

#include "clang-plugin/units/ApproximateMath.h"

#include <llvm/ADT/SmallVector.h>
#include <llvm/Support/Regex.h>

namespace kopt::agents {

namespace {
struct Rule {
  const char *Pattern; // An extended regular expression.
  const char *What;
};

// Constructs that escape the evaluator's view, or caches between calls.
constexpr Rule Rules[] = {
    {"cudaStream|cudaEvent|cudaGraph|cuStream|cuGraph", "streams, events or graphs"},
    {"<<<", "a device-side kernel launch"},
    {"cudaMalloc|cudaFree|malloc[[:space:]]*\\(|new[[:space:]]+[A-Za-z_]", "memory allocation"},
    {"__managed__|cudaMallocManaged|cudaHostAlloc", "managed or host memory"},
    {"^[[:space:]]*(static[[:space:]]+)?__device__[[:space:]]+[A-Za-z_][A-Za-z0-9_:<>]*[[:space:]]+"
     "[A-Za-z_][A-Za-z0-9_]*[[:space:]]*(\\[|=|;)",
     "a __device__ variable that persists across calls"},
    {"asm[[:space:]]*(volatile[[:space:]]*)?\\(", "inline assembly"},
    {"clock64?[[:space:]]*\\(|globaltimer", "timers"},
};

unsigned countMatches(const llvm::Regex &R, llvm::StringRef Text) {
  unsigned N = 0;
  llvm::SmallVector<llvm::StringRef, 2> Groups;
  llvm::SmallVector<llvm::StringRef, 64> Lines;
  Text.split(Lines, '\n');
  for (llvm::StringRef Line : Lines)
    if (R.match(Line, &Groups))
      ++N;
  return N;
}
} // namespace

std::string reviewVariantSource(llvm::StringRef Original, llvm::StringRef Variant,
                                const transform::TransformPolicy &Policy) {
  for (const Rule &R : Rules) {
    llvm::Regex Re(R.Pattern, llvm::Regex::Newline);
    if (countMatches(Re, Variant) > countMatches(Re, Original))
      return std::string("the variant uses ") + R.What + ", which the original does not";
  }
  if (!Policy.ApproximateMath)
    return frontend::approximationsNotAllowed(Original, Variant);
  return "";
}

llvm::Expected<evaluator::Verdict> reverifyOnFreshInputs(evaluator::VariantEvaluator &Eval,
                                                         const evaluator::KernelSource &Variant,
                                                         const evaluator::VariantLaunch &Launch) {
  auto Again = Eval.evaluate(Variant, Launch, std::vector<uint64_t>{101, 102, 103});
  if (!Again)
    return Again.takeError();
  return Again->Result;
}

} // namespace kopt::agents
