// A profile's counters and a baseline as the planner's facts, and how skills'
// predicates read them when they are there and when they are not.
#include "memory/experience/ProfileFacts.h"
#include "driver/optimize/BaselineFacts.h"
#include "memory/skills/SkillPredicate.h"

#include <gtest/gtest.h>

using namespace kopt;
using memory::Facts;
using memory::ProfileMetrics;

namespace {

std::map<std::string, double, std::less<>> hopperCounters() {
  return {{"dram__throughput.avg.pct_of_peak_sustained_elapsed", 88},
          {"sm__throughput.avg.pct_of_peak_sustained_elapsed", 21},
          {"sm__warps_active.avg.pct_of_peak_sustained_active", 35},
          {"l1tex__t_sector_hit_rate.pct", 2},
          {"lts__t_sector_hit_rate.pct", 40},
          {"dram__bytes.sum", 1 << 24},
          {"smsp__thread_inst_executed_per_inst_executed.ratio", 24},
          {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 4096},
          {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", 1024},
          {"smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct", 70},
          {"smsp__sass_average_branch_targets_threads_uniform.pct", 85},
          {"smsp__sass_branch_targets.sum", 5000},
          {"gpu__time_duration.sum", 1234}};
}

bool holds(const char *Text, const Facts &F) {
  auto P = memory::Predicate::parse(Text);
  EXPECT_TRUE(bool(P)) << Text;
  return P && P->holds(F);
}

TEST(ProfileFacts, CountersBecomeNamedFacts) {
  ProfileMetrics M = memory::metricsFromCounters(hopperCounters());
  EXPECT_EQ(M.at("dram_throughput_pct"), 88);
  EXPECT_EQ(M.at("sm_throughput_pct"), 21);
  EXPECT_EQ(M.at("achieved_occupancy_pct"), 35);
  EXPECT_EQ(M.at("l1_hit_rate_pct"), 2);
  EXPECT_EQ(M.at("l2_hit_rate_pct"), 40);
  EXPECT_EQ(M.at("bytes_moved"), 1 << 24);
  EXPECT_EQ(M.at("warp_execution_efficiency_pct"), 75); // 24 of 32 lanes.
  EXPECT_EQ(M.at("sectors_per_request"), 4);
  EXPECT_EQ(M.at("branch_efficiency_pct"), 85);
  EXPECT_EQ(M.at("stall_long_scoreboard_pct"), 70);
  EXPECT_FALSE(M.count("stall_barrier_pct")); // Not measured: not a fact.
  for (const auto &[Name, Value] : M) {
    const memory::FactInfo *Info = memory::findFact(Name);
    ASSERT_NE(Info, nullptr) << Name;
    EXPECT_TRUE(Info->Metric) << Name;
  }
}

TEST(ProfileFacts, NoRatioWithoutItsDenominator) {
  auto C = hopperCounters();
  C["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"] = 0;
  C["smsp__sass_branch_targets.sum"] = 0; // The uniform share then reads 0 (measured on H100).
  C["smsp__sass_average_branch_targets_threads_uniform.pct"] = 0;
  EXPECT_FALSE(memory::metricsFromCounters(C).count("sectors_per_request"));
  EXPECT_FALSE(memory::metricsFromCounters(C).count("branch_efficiency_pct"));
  EXPECT_TRUE(memory::metricsFromCounters({}).empty());
}

TEST(ProfileFacts, PredicatesSeeMeasuredFactsAndTreatMissingOnesAsUnknown) {
  frontend::KernelFeatures None;
  Facts Measured = memory::factsFor(None, memory::metricsFromCounters(hopperCounters()));
  Facts Unmeasured = memory::factsFor(None, {});
  EXPECT_TRUE(holds("dram_throughput_pct > 60 and sm_throughput_pct < 50", Measured));
  EXPECT_TRUE(holds("achieved_occupancy_pct < 40", Measured));
  EXPECT_FALSE(holds("achieved_occupancy_pct < 40", Unmeasured));
  EXPECT_FALSE(holds("not (achieved_occupancy_pct < 40)", Unmeasured)); // Unknown, not true.
  EXPECT_TRUE(holds("loops == 0 or l1_hit_rate_pct < 10", Unmeasured));
  EXPECT_FALSE(holds("stall_long_scoreboard_pct > 50", Unmeasured));
  EXPECT_TRUE(holds("stall_long_scoreboard_pct > 50", Measured));
}

TEST(BaselineFacts, ProfileTimingResourcesAndLaunch) {
  evaluator::Baseline B;
  B.Counters.Metrics = hopperCounters();
  B.Timing.Samples = 20;
  B.Timing.MedianMs = 0.5;
  B.Resources.Registers = 40;
  B.Resources.LocalBytes = 8;
  B.Resources.StaticSharedBytes = 1024;
  B.Resources.TheoreticalOccupancy = 0.75;
  evaluator::LaunchGeometry L;
  L.Grid = {128, 2, 1};
  L.Block = {16, 16, 1};
  L.SharedBytes = 512;
  ProfileMetrics M = driver::baselineMetrics(B, L);
  EXPECT_EQ(M.at("dram_throughput_pct"), 88);
  EXPECT_EQ(M.at("elapsed_ms"), 0.5);
  EXPECT_EQ(M.at("registers"), 40);
  EXPECT_EQ(M.at("local_bytes"), 8);
  EXPECT_EQ(M.at("theoretical_occupancy_pct"), 75);
  EXPECT_EQ(M.at("shared_bytes_per_block"), 1536);
  EXPECT_EQ(M.at("block_size"), 256);
  EXPECT_EQ(M.at("grid_size"), 256);
}

TEST(BaselineFacts, UnavailableProfileLeavesCountersUnknown) {
  evaluator::Baseline B;
  B.Counters = evaluator::Profile::unavailable("no CUPTI");
  B.Timing.Samples = 10;
  B.Timing.MedianMs = 1;
  B.Resources.Registers = 16;
  ProfileMetrics M = driver::baselineMetrics(B, {});
  EXPECT_FALSE(M.count("dram_throughput_pct"));
  EXPECT_FALSE(M.count("achieved_occupancy_pct"));
  EXPECT_EQ(M.at("elapsed_ms"), 1);
  EXPECT_EQ(M.at("registers"), 16);
}

} // namespace
