// The report's page and text from entries built here: its plots, its
// figures (and "not recorded" where an entry lacks them), its diff, and that
// it refers to nothing outside itself.
#include "report/HtmlPage.h"
#include "report/ReportSources.h"
#include "report/RooflinePlot.h"
#include "report/TextOverview.h"
#include "report/TrajectoryPlot.h"

#include "memory/cache/ResultCache.h"

#include <gtest/gtest.h>
#include <llvm/Support/FileSystem.h>

using namespace kopt;
using namespace kopt::report;

namespace {
size_t count(const std::string &Text, llvm::StringRef What) {
  size_t N = 0;
  for (size_t At = Text.find(What); At != std::string::npos; At = Text.find(What, At + 1))
    ++N;
  return N;
}

memory::StoredEntry storedEntry(const std::string &Name, bool WithProfile) {
  memory::CacheEntry E;
  E.KernelName = Name;
  frontend::KernelVariant V;
  V.KernelName = Name;
  V.Code = "__global__ void " + Name + "(float *x) {\n  int i = threadIdx.x;\n  x[i] *= 2;\n}";
  E.Variant = V;
  E.Speedup = 2.5;
  E.Verification = {{"seeds", 3}, {"worst_tolerance_ratio", 0.1}};
  E.Timing = {{"evaluations", {{"count", 3}, {"loop_seconds", 12.5}}}};
  E.Trajectory = nlohmann::json::array(
      {{{"steps", {"unroll:factor=2"}}, {"verdict", "not_faster"}, {"speedup", 0.97}},
       {{"steps", {"vectorize"}}, {"verdict", "wrong"}, {"speedup", 0.0}},
       {{"steps", {"restrict-readonly"}}, {"verdict", "faster"}, {"speedup", 2.5}}});
  E.Origin = {"skills", "", "NVIDIA H200", "2026-11-28T10:00:00Z", "0.1.0", {"restrict-readonly"}};
  if (WithProfile) {
    memory::EntryProfile P;
    P.Original.DramPct = 30;
    P.Original.SmPct = 10;
    P.Original.DramBytes = 1e9;
    P.Original.DurationMs = 1;
    P.Original.Flops = 2.5e8;
    P.Original.Fp64Flops = 0;
    P.Variant = P.Original;
    P.Variant.DramPct = 75;
    P.Variant.DurationMs = 0.4;
    P.Device = {"NVIDIA H200", 4800, 4220, "measured: a copy", 66900, 33450};
    E.Profile = P;
    E.KernelKind = "elementwise";
    E.Original = memory::OriginalKernel{
        "scale.cu", 7, "__global__ void " + Name + "(float *x) {\n  x[threadIdx.x] *= 2;\n}"};
    E.Transforms = std::vector<memory::TransformNote>{
        {"restrict-readonly", "tried", ""}, {"smem-tiling", "not offered", "no 2-D tile"}};
  }
  memory::CacheKey Key =
      memory::makeCacheKey({"sha256:" + Name,
                            "{\"launch\":{\"grid\":[{\"text\":\"(n + 255) / 256\",\"value\":4096}],"
                            "\"block\":[{\"text\":\"256\",\"value\":256}],\"smem\":null},"
                            "\"tol\":{\"rtol\":0.001,\"atol\":0.001}}",
                            "sm_90",
                            "13.0",
                            {},
                            "0.1.0"});
  return {Key, E};
}
} // namespace

TEST(ReportPage, TwoPlotsAKernelAndNoExternalReference) {
  ReportData R;
  R.Kernels = {kernelReportOf(storedEntry("scale", true), "cache /c"),
               kernelReportOf(storedEntry("old", false), "cache /c")};
  R.Date = "2026-11-28T10:00:00Z";
  std::string Html = renderHtml(R);
  EXPECT_EQ(count(Html, "<svg class=\"plot trajectory\""), 2u);
  EXPECT_EQ(count(Html, "<svg class=\"plot roofline\""), 2u);
  EXPECT_EQ(count(Html, "<tr class=\"kernel-row\">"), 2u);
  EXPECT_EQ(count(Html, "http://") + count(Html, "https://") + count(Html, "src="), 0u);
  EXPECT_NE(Html.find("table.sortable"), std::string::npos);
  EXPECT_NE(Html.find("DRAM 30% -&gt; 75% of peak"), std::string::npos);
  // The entry without profile, source or transforms says so.
  EXPECT_NE(Html.find("Profile not recorded"), std::string::npos);
  EXPECT_NE(Html.find("The original's source not recorded"), std::string::npos);
  EXPECT_NE(Html.find("Why other transforms were not tried is not recorded"), std::string::npos);
  // The diff of the one with its original.
  EXPECT_NE(Html.find("<span class=\"del\">-   x[threadIdx.x] *= 2;</span>"), std::string::npos);
  EXPECT_NE(Html.find("<span class=\"add\">+   int i = threadIdx.x;</span>"), std::string::npos);
  EXPECT_NE(Html.find("(n + 255) / 256 = 4096"), std::string::npos);
  EXPECT_NE(Html.find("no 2-D tile"), std::string::npos);
}

TEST(ReportPage, TrajectoryMarksEachVerdictAndTheBest) {
  KernelReport K = kernelReportOf(storedEntry("scale", true), "cache /c");
  std::string Svg = trajectoryPlot(K);
  EXPECT_NE(Svg.find("#1 unroll:factor=2: not faster (0.97x)"), std::string::npos);
  EXPECT_NE(Svg.find("#2 vectorize: wrong result"), std::string::npos);
  EXPECT_NE(Svg.find("best so far (2.50x)"), std::string::npos);
  EXPECT_NE(Svg.find(">untimed<"), std::string::npos);
  EXPECT_NE(Svg.find("speedup over the original"), std::string::npos);
}

TEST(ReportPage, RooflineHasRoofsAndBothPoints) {
  KernelReport K = kernelReportOf(storedEntry("scale", true), "cache /c");
  std::string Svg = rooflinePlot(K);
  EXPECT_NE(Svg.find(">DRAM copy 4220 GB/s<"), std::string::npos);
  EXPECT_NE(Svg.find(">FP32 peak 66900 GFLOP/s<"), std::string::npos);
  EXPECT_EQ(Svg.find("FP64 peak"), std::string::npos); // No double-precision work.
  EXPECT_NE(Svg.find("original: 0.250 FLOP/byte, 250.0 GFLOP/s, DRAM 30%, SM 10%"),
            std::string::npos);
  EXPECT_NE(Svg.find("variant: 0.250 FLOP/byte, 625.0 GFLOP/s, DRAM 75%"), std::string::npos);
  EXPECT_NE(Svg.find("after 75%"), std::string::npos);
  K.Profile->Original = memory::RunFigures::notRecorded("the worker found no CUPTI");
  EXPECT_NE(rooflinePlot(K).find("Profile not recorded: the worker found no CUPTI."),
            std::string::npos);
}

TEST(ReportPage, TextOverviewHasARowAKernelAndTotals) {
  ReportData R;
  R.Kernels = {kernelReportOf(storedEntry("scale", true), "cache /c"),
               kernelReportOf(storedEntry("old", false), "cache /c")};
  std::string Text = renderText(R);
  EXPECT_NE(
      Text.find("scale   scale.cu:7    elementwise   2.50x    3            12.5     30% -> 75%"),
      std::string::npos)
      << Text;
  EXPECT_NE(Text.find("old     not recorded  not recorded  2.50x"), std::string::npos) << Text;
  EXPECT_NE(Text.find("2 kernels, 2 with a verified variant; geomean 2.50x; 25.0 s optimizing"),
            std::string::npos)
      << Text;
}

TEST(ReportPage, BuildLogRecordsPickTheBuildsKernels) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("kopt-report-test", Dir));
  std::string Cache = (Dir + "/cache").str();
  memory::StoredEntry Scale = storedEntry("scale", true);
  memory::CacheConfig Config;
  Config.UserDir = Cache;
  llvm::Expected<memory::ResultCache> C = memory::ResultCache::open(Config);
  ASSERT_TRUE(bool(C));
  ASSERT_FALSE(bool(C->store(Scale.Key, Scale.Entry)));
  BuildRecord Hit;
  Hit.Source = Hit.File = "scale.cu";
  Hit.Line = 7;
  Hit.Kernel = "scale";
  Hit.Arch = "sm_90";
  Hit.Key = Scale.Key.Digest;
  Hit.Outcome = "hit";
  Hit.Detail = "(cache)";
  Hit.UserCache = Cache;
  Hit.Date = "2026-11-28T10:00:00Z";
  BuildRecord Missed = Hit;
  Missed.Kernel = "other";
  Missed.Line = 20;
  Missed.Key = "0000";
  Missed.Outcome = "miss";
  Missed.Reason = "no GPU here to optimize on";
  std::string Log = (Dir + "/build.jsonl").str();
  ASSERT_FALSE(bool(appendBuildRecords(Log, {Missed, Hit})));
  ASSERT_FALSE(bool(appendBuildRecords(Log, {Hit}))); // A rebuild of scale.cu: the last counts.
  llvm::Expected<ReportData> R = gatherReport({{}, Log, "now"});
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  ASSERT_EQ(R->Kernels.size(), 2u);
  EXPECT_EQ(R->Kernels[0].Kernel, "other");
  EXPECT_EQ(buildText(R->Kernels[0]), "miss (sm_90): no GPU here to optimize on");
  EXPECT_EQ(R->Kernels[1].Kernel, "scale");
  EXPECT_TRUE(R->Kernels[1].Profile);
  Totals T = totalsOf(*R);
  EXPECT_EQ(T.Outcomes["hit"], 1u);
  EXPECT_EQ(T.MissReasons["no GPU here to optimize on"], 1u);
  std::string Text = renderText(*R);
  EXPECT_NE(Text.find("this build: 1 hit, 1 miss"), std::string::npos) << Text;
  llvm::sys::fs::remove_directories(Dir);
}
