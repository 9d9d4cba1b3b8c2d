// Deterministic fuzz cases for '#pragma kopt': valid pragma lines mutated by
// token deletion, duplication, swaps, random punctuation, replacement with the
// grammar's words, insertion of pieces of the grammar (clauses, items, values
// at the checks' limits), numbers replaced by others around those limits,
// truncation and character edits. The same seed gives
// the same cases on every machine (an own generator, no std:: distributions).
#pragma once

#include "clang-plugin/model/KernelParam.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>

#include <cstdint>
#include <string>
#include <vector>

namespace kopt::fuzz {

// SplitMix64.
class Random {
public:
  explicit Random(uint64_t Seed) : State(Seed) {}
  uint64_t next();
  size_t below(size_t N) { return N == 0 ? 0 : size_t(next() % N); }

private:
  uint64_t State;
};

// The kernel every case applies to: its parameter list as C++, and as the front
// end describes it.
inline constexpr const char FuzzKernelParams[] = "int n, int m, float a, const float *x, float *y";
std::vector<frontend::KernelParam> fuzzKernelParams();

// Valid pragma texts (what follows '#pragma kopt'), each accepted for the kernel.
llvm::ArrayRef<std::string> seedPragmas();

// One seed with one to three mutations.
std::string mutatePragma(llvm::StringRef Seed, Random &R);

// Count cases from Seed.
std::vector<std::string> generatePragmaCorpus(uint64_t Seed, size_t Count);

// Arguments that let clang parse a small CUDA snippet fast, without the CUDA
// headers (__global__ and friends become their attributes).
std::vector<std::string> snippetClangArgs();

} // namespace kopt::fuzz
