// The named facts that skills' `when:` predicates test: static facts from the
// front end's KernelFeatures (counts, booleans, the kernel's kind) and measured
// metrics from a profile run. Every name is in one table (knownFacts), so a
// predicate over an unknown name is caught when the skill library loads.
#pragma once

#include "clang-plugin/model/KernelFeatures.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>

#include <map>
#include <optional>
#include <string>

namespace kopt::memory {

// Measured numbers by name; any may be absent (no profile, or the profiler
// could not read it). The names are the Metric entries of knownFacts():
//   elapsed_ms                 median kernel time
//   dram_throughput_pct        DRAM bandwidth used, % of peak
//   sm_throughput_pct          SM (compute pipes) busy, % of peak
//   achieved_occupancy_pct     active warps / maximum warps per SM, %
//   theoretical_occupancy_pct  the occupancy the resource use allows, %
//   registers                  registers per thread
//   local_bytes                local memory (spills) per thread, bytes
//   shared_bytes_per_block     static + dynamic shared memory per block, bytes
//   block_size, grid_size      threads per block, blocks in the grid (the launch)
//   threads_launched           their product (set from them, not given)
//   bytes_moved                bytes read + written in DRAM by one launch
//   parallelism                threads launched / the device's resident thread capacity
//   arithmetic_intensity       floating-point operations per DRAM byte
//   l1_hit_rate_pct            L1 (l1tex) sector hit rate, %
//   l2_hit_rate_pct            L2 sector hit rate, %
//   sectors_per_request        global sectors per load/store request (4 = coalesced fp32)
//   branch_efficiency_pct      non-divergent branches, %
//   warp_execution_efficiency_pct  active lanes per executed instruction, %
//   stall_<reason>_pct         warps stalled for the reason, % of active warps
//                              (long_scoreboard, short_scoreboard, barrier,
//                              mio_throttle, lg_throttle, math_pipe_throttle)
// memory/experience/ProfileFacts.h maps the profiler's counters to these names.
using ProfileMetrics = std::map<std::string, double, std::less<>>;

enum class FactType { Number, Boolean };

struct FactInfo {
  llvm::StringRef Name;
  FactType Type;
  bool Metric; // Measured (may be absent) rather than static (always present).
  llvm::StringRef Description;
};

// Every fact name a predicate may use, static facts first.
llvm::ArrayRef<FactInfo> knownFacts();
const FactInfo *findFact(llvm::StringRef Name);

// Values by name; booleans are 0 or 1. A fact that is absent is unknown.
class Facts {
public:
  void set(llvm::StringRef Name, double Value) { Values[Name.str()] = Value; }
  void setBool(llvm::StringRef Name, bool Value) { Values[Name.str()] = Value ? 1 : 0; }
  std::optional<double> get(llvm::StringRef Name) const;
  const std::map<std::string, double, std::less<>> &all() const { return Values; }

private:
  std::map<std::string, double, std::less<>> Values;
};

// The kernel kinds, in the order kernelKind tries them.
llvm::ArrayRef<llvm::StringRef> kernelKinds();

// elementwise, reduction, stencil, matmul, transpose, scan or other.
std::string kernelKind(const frontend::KernelFeatures &F);

// The static facts of F (all present), the kind as kind_<name> booleans, and
// the metrics of Metrics whose names knownFacts() lists (others are ignored).
Facts factsFor(const frontend::KernelFeatures &F, const ProfileMetrics &Metrics);

} // namespace kopt::memory
