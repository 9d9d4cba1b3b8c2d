#include "clang-plugin/units/ApproximateMath.h"

#include <llvm/ADT/StringExtras.h>

#include <map>

namespace kopt::frontend {

namespace {
// CUDA's functions that round differently from the functions and operators
// they stand for (CUDA Math API, "Single Precision Intrinsics"): the fast
// exponentials, logarithms, powers and trigonometry, __fdividef, and rsqrtf /
// rsqrt in place of 1 / sqrt(x). The rounding-mode forms (__fadd_rn,
// __frcp_rn, __fsqrt_rn, ...) are correctly rounded and are not here.
constexpr llvm::StringLiteral Approximate[] = {
    "__expf", "__exp10f", "__logf",    "__log2f",    "__log10f", "__powf", "__sinf",
    "__cosf", "__tanf",   "__sincosf", "__fdividef", "rsqrtf",   "rsqrt"};

bool identifierChar(char C) { return llvm::isAlnum(C) || C == '_'; }

// How often each approximate function is called in Code: a whole identifier
// followed by '('.
std::map<std::string, unsigned> calls(llvm::StringRef Code) {
  std::map<std::string, unsigned> Count;
  for (llvm::StringRef Name : Approximate) {
    size_t At = 0;
    while ((At = Code.find(Name, At)) != llvm::StringRef::npos) {
      size_t End = At + Name.size();
      bool Whole = (At == 0 || !identifierChar(Code[At - 1])) &&
                   (End == Code.size() || !identifierChar(Code[End]));
      llvm::StringRef Rest = Code.drop_front(End).ltrim();
      if (Whole && Rest.starts_with("("))
        ++Count[Name.str()];
      At = End;
    }
  }
  return Count;
}
} // namespace

std::vector<std::string> approximationsAdded(llvm::StringRef Original, llvm::StringRef Variant) {
  std::map<std::string, unsigned> Before = calls(Original), After = calls(Variant);
  std::vector<std::string> Added;
  for (const auto &[Name, N] : After)
    if (N > Before[Name])
      Added.push_back(Name);
  return Added;
}

std::string approximationsNotAllowed(llvm::StringRef Original, llvm::StringRef Variant) {
  std::vector<std::string> Added = approximationsAdded(Original, Variant);
  if (Added.empty())
    return "";
  return "it calls " + llvm::join(Added, ", ") +
         ", approximate math the user did not allow (add `fastmath` to the pragma, or build "
         "with --kopt-fast-math or -use_fast_math)";
}

} // namespace kopt::frontend
