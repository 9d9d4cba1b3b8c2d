// The result cache's key: everything that can change what the optimizer
// produces for a kernel, in one canonical text and its hash (DESIGN.md, "The
// cache"; README, "The result cache" lists the inputs in this order).
#pragma once

#include <string>
#include <vector>

namespace kopt::memory {

struct CacheKeyInputs {
  std::string UnitHash;                  // KernelUnit::Hash ("sha256:...")
  std::string Clauses;                   // Canonical text of the clauses that affect the result.
  std::string Arch;                      // "sm_90"
  std::string CudaVersion;               // "13.0"
  std::vector<std::string> CodegenFlags; // Flags that change code generation, normalized.
  std::string KoptVersion;
};

struct CacheKey {
  std::string Digest;    // Lowercase hex SHA-256 of Canonical.
  std::string Canonical; // One JSON line; kept in the entry to detect a misplaced file.
};

// The device name is deliberately not an input: a build machine without a GPU
// must hit entries made on a GPU of the same architecture.
CacheKey makeCacheKey(const CacheKeyInputs &Inputs);

// Digest of a canonical text (for checking a stored entry's key).
std::string digestOf(const std::string &Canonical);

} // namespace kopt::memory
