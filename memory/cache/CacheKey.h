// The result cache's key: exactly what changes a kernel's device code or its
// evaluation, in one canonical text and its hash (docs/cache.md#the-key lists
// the components in this order and which compile flags are in and out).
#pragma once

#include <string>
#include <vector>

namespace kopt::memory {

// The key's composition; bumped when it changes. Entries of an older format
// stay readable (`kopt cache ls/show`) and are re-keyed by `kopt cache rekey`;
// a lookup never matches them (CacheKeyDiff.h says why).
inline constexpr int KeyFormat = 2;

struct CacheKeyInputs {
  std::string UnitHash;    // KernelUnit::Hash ("sha256:..."): the unit's text.
  std::string Clauses;     // Canonical text of the clauses that affect the result.
  std::string Arch;        // The real target: "sm_90".
  std::string CudaVersion; // "13.0"
  std::vector<std::string>
      DeviceFlags; // Device code-generation flags, normalized (NvccDeviceFlags.h).
  std::string KoptVersion;
  // KernelUnit::Environment: the macro definitions the unit sees from outside its text.
  std::vector<std::string> Environment = {};
  // The GPU model ("NVIDIA H200") of a key for one model; empty for the
  // architecture's key, whose text has no such field (docs/gpus.md).
  std::string DeviceModel = {};
};

struct CacheKey {
  std::string Digest;    // Lowercase hex SHA-256 of Canonical.
  std::string Canonical; // One JSON line; kept in the entry to detect a misplaced file.
};

// An entry has two keys. The architecture's (DeviceModel empty) is what a
// build machine without a GPU looks up: it must hit entries made on a GPU of
// the same architecture. The model's is what kcc looks up where it optimizes
// on a GPU of that model and the architecture's entry was made on another
// (docs/gpus.md, "GPU models").
CacheKey makeCacheKey(const CacheKeyInputs &Inputs);

// Digest of a canonical text (for checking a stored entry's key).
std::string digestOf(const std::string &Canonical);

} // namespace kopt::memory
