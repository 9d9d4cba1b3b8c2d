// One result-cache entry and its file format: versioned JSON whose payload is
// covered by a checksum, so a corrupt or truncated file is detected, never used.
//   {"format": 1, "checksum": "sha256:<hex of payload.dump()>", "payload": {...}}
#pragma once

#include "clang-plugin/model/KernelVariant.h"
#include "memory/cache/CacheKey.h"
#include "memory/cache/EntryReport.h"
#include "memory/cache/VerifiedWorkloads.h"

#include <llvm/Support/Error.h>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kopt::memory {

// Who made an entry. Device is recorded here, not keyed (see CacheKey.h).
struct Provenance {
  std::string Engine, Model, Device, Date, KoptVersion;
  std::vector<std::string> Skills;
  // What the llm engine spent (absent for the skills engine); no API key ever.
  struct LlmUsage {
    int64_t InputTokens = 0, OutputTokens = 0;
    std::optional<double> CostUsd; // None where the model has no known price.
  };
  std::optional<LlmUsage> Usage = std::nullopt;
};

// `kopt verify`'s verdict on an entry's variant: the application's own check
// failed with it and passed without it, so kcc compiles the original instead.
struct Rejection {
  std::string Why;     // "rejected by the application's check"
  std::string Command; // The check, as the user gave it.
  std::string Date;
};

struct CacheEntry {
  std::string KernelName;
  std::optional<frontend::KernelVariant> Variant;  // Empty: nothing beat the original.
  double Speedup = 1;                              // Measured, variant over original.
  nlohmann::json Verification, Timing, Trajectory; // Free-form records from the optimizer.
  Provenance Origin;
  // The launches `kopt record` captured that the variant was verified on;
  // none where it was verified on the pragma's workload alone (or the entry
  // predates the field).
  std::optional<VerifiedWorkloads> Workloads;
  // Null, or where `kopt cache rekey` moved the entry from: {"from": old key,
  // "from_text": its canonical text, "date", "kopt"}. The records above stay
  // as the optimizer made them.
  nlohmann::json Rekeyed = nullptr;
  // For the report and the notes (EntryReport.h); absent in entries written
  // before them, which load and hit as before.
  std::optional<EntryProfile> Profile;
  std::string KernelKind; // The features' kind ("" : not recorded).
  std::optional<OriginalKernel> Original;
  std::optional<std::vector<TransformNote>> Transforms;
  // Set by `kopt verify`; JSON "rejected", absent until then.
  std::optional<Rejection> Rejected;
};

// An entry as read from a file, with the key it was stored under.
struct StoredEntry {
  CacheKey Key;
  CacheEntry Entry;
};

constexpr int EntryFormat = 1;

std::string serializeEntry(const CacheKey &Key, const CacheEntry &Entry);

// Fails on malformed JSON (a truncated file), an unknown format, a checksum
// mismatch or a payload that does not describe an entry.
llvm::Expected<StoredEntry> parseEntry(llvm::StringRef Text);

// "verified variant (smem-tiling:T=32), 4.21x faster on NVIDIA H100 80GB HBM3;
// DRAM 34% -> 81% of peak (...)", or "no variant beat the original on ...: at
// 87% of DRAM peak: little headroom; ..." (EntryReport.h).
std::string describeEntry(const CacheEntry &Entry);

} // namespace kopt::memory
