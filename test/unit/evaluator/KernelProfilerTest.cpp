// The profiler's host side: the metric list, values into a profile, the
// protocol's JSON, and "unavailable" where libcupti cannot be loaded. (The
// process-wide profiler is loaded once, so this binary never loads a real
// one: counters on a GPU are tested in test/gpu.)
#include "evaluator/profile/KernelProfiler.h"
#include "evaluator/worker/WorkerProtocol.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>

using namespace kopt::evaluator;

namespace {

TEST(KernelProfiler, DefaultMetricsNameTheHopperCounters) {
  std::set<std::string> Names;
  for (const char *M : defaultProfileMetrics())
    EXPECT_TRUE(Names.insert(M).second) << "duplicate " << M;
  for (const char *Needed : {"dram__throughput.avg.pct_of_peak_sustained_elapsed",
                             "sm__throughput.avg.pct_of_peak_sustained_elapsed",
                             "sm__warps_active.avg.pct_of_peak_sustained_active",
                             "l1tex__t_sector_hit_rate.pct", "lts__t_sector_hit_rate.pct",
                             "smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct"})
    EXPECT_TRUE(Names.count(Needed)) << Needed;
}

TEST(KernelProfiler, ValuesPairWithNamesAndNotApplicableIsLeftOut) {
  std::vector<std::string> Names = {"a.pct", "b.sum", "c.ratio"};
  Profile P = profileFromValues(Names, {12.5, std::nan(""), 0});
  EXPECT_TRUE(P.available());
  ASSERT_EQ(P.Metrics.size(), 2u);
  EXPECT_EQ(P.Metrics.at("a.pct"), 12.5);
  EXPECT_EQ(P.Metrics.at("c.ratio"), 0);
  EXPECT_FALSE(P.Metrics.count("b.sum"));
  EXPECT_EQ(profileFromValues(Names, {1.0}).Metrics.size(), 1u); // Never past either end.
}

TEST(KernelProfiler, UnavailableSaysWhy) {
  Profile P = Profile::unavailable("no CUPTI");
  EXPECT_FALSE(P.available());
  EXPECT_EQ(P.Error, "unavailable: no CUPTI");
  EXPECT_TRUE(P.Metrics.empty());
}

TEST(KernelProfiler, ProfileSurvivesTheWorkerProtocol) {
  Profile P;
  P.Metrics = {{"dram__bytes.sum", 8.0e6}, {"lts__t_sector_hit_rate.pct", 33.25}};
  P.Skipped = {"smsp__unknown.pct"};
  Profile Back = nlohmann::json(P).get<Profile>();
  EXPECT_EQ(Back.Metrics, P.Metrics);
  EXPECT_EQ(Back.Skipped, P.Skipped);
  EXPECT_TRUE(Back.available());
  Profile Missing = nlohmann::json(Profile::unavailable("x")).get<Profile>();
  EXPECT_EQ(Missing.Error, "unavailable: x");
}

TEST(KernelProfiler, MissingLibraryIsUnavailableNotACrash) {
  ::setenv("KOPT_LIBCUPTI", "/nonexistent/libcupti.so.13", 1);
  for (int Attempt = 0; Attempt < 2; ++Attempt) {
    auto Loaded = KernelProfiler::load();
    ASSERT_FALSE(Loaded);
    std::string Message = llvm::toString(Loaded.takeError());
    EXPECT_NE(Message.find("no CUPTI: cannot load"), std::string::npos) << Message;
    EXPECT_NE(Message.find("/nonexistent/libcupti.so.13"), std::string::npos) << Message;
  }
  bool Launched = false;
  std::vector<std::string> Metrics = {"dram__bytes.sum"};
  Profile P = profileKernel(nullptr, 0, Metrics, [&] {
    Launched = true;
    return llvm::Error::success();
  });
  EXPECT_FALSE(Launched); // Nothing runs without a profiler.
  EXPECT_FALSE(P.available());
  EXPECT_EQ(P.Error.rfind("unavailable: no CUPTI: cannot load", 0), 0u) << P.Error;
}

} // namespace
