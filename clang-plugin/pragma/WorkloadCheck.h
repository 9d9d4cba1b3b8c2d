// The workload a '#pragma kopt optimize' describes, resolved to numbers and
// checked without a GPU: every scalar has a value and every pointer a buffer,
// buffers declared 'in' are not written, launch dimensions and buffer sizes
// are within the device limits, nothing divides by zero, skill ids exist. One implementation
// serves the front end (its diagnostics fail the compile like other pragma
// errors: `kopt inspect`, `kopt check`, kcc, the clang plugin) and the
// optimizer (driver/optimize/WorkloadFromKernel.h builds the evaluator's
// workload from the launches resolved here). Needs no clang.
#pragma once

#include "clang-plugin/model/KernelFeatures.h"
#include "clang-plugin/model/KernelParam.h"
#include "clang-plugin/model/LaunchSite.h"
#include "clang-plugin/model/PragmaClauses.h"
#include "clang-plugin/pragma/PragmaDiagnostic.h"

#include <llvm/ADT/ArrayRef.h>

#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace kopt::frontend {

// What the front end's analysis of the body says about its use of buffers
// and threads (clang-plugin/model/KernelFeatures.h).
struct KernelBodyUse {
  // Pointer parameters the body writes, with where ("line 12").
  std::map<std::string, std::string> Written;
  // Pointer parameters it hands to code the analysis does not follow, with how
  // ("passed to 'helper' at line 9"): they may be written.
  std::map<std::string, std::string> MaybeWritten;
  // Pointer parameters whose elements bound a loop, with the loop's line
  // (counts: `k < cnt[i]`): the evaluator's random inputs set its trip counts.
  // Not a loop's offsets (CSR row pointers): the evaluator generates those as rows.
  std::map<std::string, unsigned> LoopBoundsFrom;
  bool MayUseThreadYZ = true; // False: only x components of threadIdx/blockDim.
  bool MayUseBlockYZ = true;  // False: only x components of blockIdx/gridDim.
};

// The body's use from its features: written pointers (accesses that write, an
// atomic's address), pointers handed to calls or stored, and whether threadIdx
// or blockDim (blockIdx or gridDim) .y/.z is read, or may be through a call or
// a collective.
KernelBodyUse bodyUseOf(const KernelFeatures &F);

// A loop of the body bounded by an integer buffer that the pragma gives no
// range: the evaluator's random integers in [0, 16) set its trip counts, not
// the application's (a count per row: `k < cnt[r]`).
struct RandomlyBoundedLoop {
  const BufferSpec *Buffer = nullptr; // In Pragma's buffers clause.
  unsigned Line = 0;                  // The loop's.
};
std::vector<RandomlyBoundedLoop> randomlyBoundedLoops(const KernelBodyUse &Body,
                                                      const PragmaClauses &Pragma,
                                                      llvm::ArrayRef<KernelParam> Params);

struct WorkloadSubject {
  std::string Kernel; // Qualified name, for messages.
  llvm::ArrayRef<KernelParam> Params;
  llvm::ArrayRef<KernelParam> TemplateParams;
  // The template arguments' values of the instantiation the workload runs;
  // unset for a template whose instantiation is not known (expressions that
  // use template parameters are then not evaluated).
  std::optional<NumberBindings> TemplateValues;
  std::optional<KernelBodyUse> Body;              // Unset: those checks are skipped.
  std::optional<std::vector<std::string>> Skills; // Known skill ids; unset: not checked.
};

// One launch of the workload, every expression evaluated.
struct ResolvedLaunch {
  std::string Label;     // "k = 256, j = 2": the multi-valued args; empty for a single launch.
  NumberBindings Values; // Every args value (and the template parameters').
  std::array<uint64_t, 3> Grid{1, 1, 1}, Block{1, 1, 1};
  uint64_t SharedBytes = 0;
  std::map<std::string, uint64_t> BufferCounts;
  std::map<std::string, std::pair<double, double>> Ranges; // range(lo, hi) per buffer.
};

struct ResolvedWorkload {
  // One per combination of the args values; empty where the pragma has no
  // workload (no launch, args or buffers) or an error.
  std::vector<ResolvedLaunch> Launches;
  std::vector<PragmaDiagnostic> Diagnostics; // In token order.
};

// At most this many launches (combinations of args values) are verified.
inline constexpr size_t MaxWorkloadLaunches = 16;

// The device limits of every GPU kopt targets (compute capability 7.0 on).
inline constexpr uint64_t MaxBlockThreads = 1024;
inline constexpr std::array<uint64_t, 3> MaxBlockDims = {1024, 1024, 64};
inline constexpr std::array<uint64_t, 3> MaxGridDims = {2147483647, 65535, 65535};
inline constexpr uint64_t MaxSharedBytes = 232448; // 227 KiB, the largest opt-in.
// No buffer is larger: 2^40 bytes (1 TiB) is several times the memory of the
// largest GPUs (an H200 has 141 GB, a B300 288 GB). A larger size is a mistake
// (1ULL << 62), and the evaluator would fail to allocate it on any device.
inline constexpr uint64_t MaxBufferBytes = uint64_t(1) << 40;

// The instantiation of a kernel template whose workload is resolved and
// optimized (today: the translation unit's first), or null where it has none.
const KernelInstantiation *
workloadInstantiation(const std::vector<KernelInstantiation> &Instantiations);
// Its integral template arguments as bindings; unset where there is none.
std::optional<NumberBindings>
workloadTemplateValues(const std::vector<KernelInstantiation> &Instantiations);

// Clauses must have passed checkAgainstKernel (KernelBinding.h).
ResolvedWorkload resolveWorkload(const PragmaClauses &Clauses, const WorkloadSubject &Kernel);

} // namespace kopt::frontend
