// What an entry keeps for `kopt report` and for the notes that say how close
// to the hardware a kernel is (issues 34 and 35): the profile figures of the
// original and of the variant against the device's peaks, where the original
// was written, and what each transform did with the kernel. Every figure is
// optional: an entry written before these fields, or a run without CUPTI,
// says "not recorded", never 0.
#pragma once

#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>
#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace kopt::memory {

// One launch's profile, as figures. NotRecorded is empty where the profile was
// taken; otherwise it says why not and every figure is empty.
struct RunFigures {
  std::optional<double> DramPct, SmPct; // % of the device's peak, as CUPTI reads it.
  std::optional<double> DramBytes;      // Read and written.
  std::optional<double> DurationMs;     // Of the profiled launch.
  std::optional<double> Flops;          // Floating-point operations (an FMA is two).
  std::optional<double> Fp64Flops;      // Of which double precision.
  std::string NotRecorded;

  bool recorded() const { return NotRecorded.empty(); }
  static RunFigures notRecorded(llvm::StringRef Why);
  // Derived where their inputs were recorded.
  std::optional<double> dramGBs() const;
  std::optional<double> gflops() const;
  std::optional<double> intensity() const; // Floating-point operations per DRAM byte.
  // "DRAM" where the kernel uses more of the DRAM's peak than of the SMs'.
  bool memoryBound() const;
};

// The device's roofs. CopyGBs is what a device-to-device copy reaches (the
// memory roof a kernel can hope for); CopySource says where it came from:
// "measured" (a copy timed once per worker session) or "profile" (the
// original's bytes over its time, scaled by its % of DRAM peak).
struct DeviceRoofs {
  std::string Name;
  std::optional<double> DramPeakGBs; // From the memory clock and bus width.
  std::optional<double> CopyGBs;
  std::string CopySource;
  std::optional<double> Fp32PeakGflops, Fp64PeakGflops;
};

struct EntryProfile {
  RunFigures Original, Variant;
  DeviceRoofs Device;
};

// Where the original was when it was optimized, and its definition as written
// (the report's diff is against it).
struct OriginalKernel {
  std::string File;
  unsigned Line = 0;
  std::string Definition;
};

// What one transform did with the kernel: Status "tried" (a step of an
// evaluated variant), "refused" (its code does not have the transform's
// shape: Why), "not offered" (no parameter point fits the kernel: Why),
// "not tried" (offered, but the search ended first) or "disabled" (the
// pragma's skills(-id)).
struct TransformNote {
  std::string Id, Status, Why;
};

nlohmann::json toJson(const EntryProfile &P);
llvm::Expected<EntryProfile> entryProfileFromJson(const nlohmann::json &J);
nlohmann::json toJson(const OriginalKernel &K);
llvm::Expected<OriginalKernel> originalKernelFromJson(const nlohmann::json &J);
nlohmann::json toJson(const std::vector<TransformNote> &Notes);
llvm::Expected<std::vector<TransformNote>> transformNotesFromJson(const nlohmann::json &J);

// "DRAM 34% -> 81% of peak (1434 -> 3418 GB/s of a 4220 GB/s copy), SM 12%
// -> 20%": the original's and (where recorded) the variant's figures; "% of
// peak not recorded (why)" where the original has none.
std::string describePeakShares(const EntryProfile &P, bool WithVariant);

// Why no variant beat the original, read from its figures: "at 87% of DRAM
// peak: little headroom", or "at 12% of peak: no transform fits; the kernel is
// a reduction, limited by latency (DRAM 12%, SM 8%)". Kind: the kernel kind
// of the features ("" where not recorded).
std::string headroomReading(const RunFigures &Original, llvm::StringRef Kind);

// A share of peak from which the kernel has little headroom left.
inline constexpr double LittleHeadroomPct = 60;

} // namespace kopt::memory
