#include "memory/experience/ProfileFacts.h"

#include <llvm/ADT/StringRef.h>
#include <llvm/ADT/Twine.h>

#include <tuple>

namespace kopt::memory {

namespace {
// Facts that are one counter, unchanged.
struct Direct {
  llvm::StringRef Fact, Counter;
};
constexpr Direct Directs[] = {
    {"dram_throughput_pct", "dram__throughput.avg.pct_of_peak_sustained_elapsed"},
    {"sm_throughput_pct", "sm__throughput.avg.pct_of_peak_sustained_elapsed"},
    {"achieved_occupancy_pct", "sm__warps_active.avg.pct_of_peak_sustained_active"},
    {"l1_hit_rate_pct", "l1tex__t_sector_hit_rate.pct"},
    {"l2_hit_rate_pct", "lts__t_sector_hit_rate.pct"},
    {"bytes_moved", "dram__bytes.sum"},
    {"stall_long_scoreboard_pct", "smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct"},
    {"stall_short_scoreboard_pct", "smsp__warp_issue_stalled_short_scoreboard_per_warp_active.pct"},
    {"stall_barrier_pct", "smsp__warp_issue_stalled_barrier_per_warp_active.pct"},
    {"stall_mio_throttle_pct", "smsp__warp_issue_stalled_mio_throttle_per_warp_active.pct"},
    {"stall_lg_throttle_pct", "smsp__warp_issue_stalled_lg_throttle_per_warp_active.pct"},
    {"stall_math_pipe_throttle_pct",
     "smsp__warp_issue_stalled_math_pipe_throttle_per_warp_active.pct"},
};
constexpr double WarpSize = 32;
} // namespace

std::optional<FlopCount>
flopsFromCounters(const std::map<std::string, double, std::less<>> &Counters) {
  FlopCount Count;
  bool Counted = false;
  for (auto [Op, Weight, Double] : {std::tuple{"fadd", 1.0, false},
                                    {"fmul", 1.0, false},
                                    {"ffma", 2.0, false},
                                    {"dadd", 1.0, true},
                                    {"dmul", 1.0, true},
                                    {"dfma", 2.0, true}}) {
    auto It = Counters.find(
        ("smsp__sass_thread_inst_executed_op_" + llvm::Twine(Op) + "_pred_on.sum").str());
    if (It == Counters.end())
      continue;
    Count.All += Weight * It->second;
    if (Double)
      Count.Fp64 += Weight * It->second;
    Counted = true;
  }
  if (!Counted)
    return std::nullopt;
  return Count;
}

ProfileMetrics metricsFromCounters(const std::map<std::string, double, std::less<>> &Counters) {
  ProfileMetrics Out;
  auto Get = [&](llvm::StringRef Name) -> const double * {
    auto It = Counters.find(Name);
    return It == Counters.end() ? nullptr : &It->second;
  };
  for (const Direct &D : Directs)
    if (const double *V = Get(D.Counter))
      Out[D.Fact.str()] = *V;
  // Active threads per executed warp instruction, as a share of the warp.
  if (const double *V = Get("smsp__thread_inst_executed_per_inst_executed.ratio"))
    Out["warp_execution_efficiency_pct"] = 100 * *V / WarpSize;
  // Without branch instructions the uniform share reads 0, not 100: no fact.
  const double *Uniform = Get("smsp__sass_average_branch_targets_threads_uniform.pct");
  const double *Branches = Get("smsp__sass_branch_targets.sum");
  if (Uniform && Branches && *Branches > 0)
    Out["branch_efficiency_pct"] = *Uniform;
  // Floating-point operations per DRAM byte.
  const double *Bytes = Get("dram__bytes.sum");
  if (std::optional<FlopCount> Flops = flopsFromCounters(Counters); Flops && Bytes && *Bytes > 0)
    Out["arithmetic_intensity"] = Flops->All / *Bytes;
  const double *Sectors = Get("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum");
  const double *Requests = Get("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum");
  if (Sectors && Requests && *Requests > 0) // No global loads: no ratio.
    Out["sectors_per_request"] = *Sectors / *Requests;
  return Out;
}

} // namespace kopt::memory
