// The report's records in a cache entry (memory/cache/EntryReport.h): old
// entries load and hit as before, new fields round-trip, and every figure
// that was not recorded says so.
#include "memory/cache/EntryReport.h"
#include "memory/cache/CacheEntry.h"
#include "memory/cache/ResultCache.h"

#include <gtest/gtest.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>

using namespace kopt::memory;

namespace {
std::string examplesEntry(const char *Name) {
  std::string Dir = std::string(KOPT_UNIT_TEST_DIR) + "/../../examples/app/kopt-cache/entries/";
  std::error_code EC;
  for (llvm::sys::fs::recursive_directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC))
    if (llvm::StringRef(It->path()).ends_with(".json")) {
      auto Text = llvm::MemoryBuffer::getFile(It->path());
      if (Text && (*Text)->getBuffer().contains(std::string("\"kernel\": \"") + Name + "\""))
        return (*Text)->getBuffer().str();
    }
  return "";
}

RunFigures measured(double Dram, double Sm) {
  RunFigures F;
  F.DramPct = Dram;
  F.SmPct = Sm;
  F.DramBytes = 3.0e9;
  F.DurationMs = 1.0;
  F.Flops = 1.5e9;
  F.Fp64Flops = 0;
  return F;
}
} // namespace

TEST(EntryReport, CommittedEntriesLoadWithoutTheNewFieldsAndSerializeAsBefore) {
  for (const char *Kernel : {"matmul", "bias_relu"}) {
    std::string Text = examplesEntry(Kernel);
    ASSERT_FALSE(Text.empty()) << Kernel;
    llvm::Expected<StoredEntry> Stored = parseEntry(Text);
    ASSERT_TRUE(bool(Stored)) << llvm::toString(Stored.takeError());
    EXPECT_FALSE(Stored->Entry.Profile);
    EXPECT_FALSE(Stored->Entry.Original);
    EXPECT_FALSE(Stored->Entry.Transforms);
    EXPECT_TRUE(Stored->Entry.KernelKind.empty());
    // Written again, the file is the one committed: same key, same checksum.
    EXPECT_EQ(serializeEntry(Stored->Key, Stored->Entry), Text) << Kernel;
  }
}

TEST(EntryReport, NewFieldsRoundTrip) {
  CacheEntry E;
  E.KernelName = "scale";
  E.Verification = nlohmann::json::object();
  E.Timing = nlohmann::json::object();
  E.Trajectory = nlohmann::json::array();
  E.Origin = {"skills", "", "NVIDIA H200", "2026-11-28T10:00:00Z", "0.1.0", {}};
  EntryProfile P;
  P.Original = measured(41.5, 12);
  P.Variant = RunFigures::notRecorded("profiling was turned off");
  P.Device = {"NVIDIA H200", 4800, 4220, "measured: a copy", 66900, 33450};
  E.Profile = P;
  E.KernelKind = "elementwise";
  E.Original = OriginalKernel{"scale.cu", 12, "__global__ void scale() {}"};
  E.Transforms =
      std::vector<TransformNote>{{"unroll", "refused", "no loop"}, {"vectorize", "tried", ""}};
  CacheKey Key = makeCacheKey({"sha256:abc", "launch", "sm_90", "13.0", {}, "0.1.0"});
  llvm::Expected<StoredEntry> Back = parseEntry(serializeEntry(Key, E));
  ASSERT_TRUE(bool(Back)) << llvm::toString(Back.takeError());
  const CacheEntry &B = Back->Entry;
  ASSERT_TRUE(B.Profile);
  EXPECT_EQ(B.Profile->Original.DramPct, 41.5);
  EXPECT_EQ(B.Profile->Original.Fp64Flops, 0.0);
  EXPECT_FALSE(B.Profile->Variant.recorded());
  EXPECT_EQ(B.Profile->Variant.NotRecorded, "profiling was turned off");
  EXPECT_FALSE(B.Profile->Variant.DramPct);
  EXPECT_EQ(B.Profile->Device.CopyGBs, 4220);
  EXPECT_EQ(B.Profile->Device.CopySource, "measured: a copy");
  EXPECT_EQ(B.KernelKind, "elementwise");
  ASSERT_TRUE(B.Original);
  EXPECT_EQ(B.Original->Line, 12u);
  EXPECT_EQ(B.Original->Definition, "__global__ void scale() {}");
  ASSERT_TRUE(B.Transforms);
  ASSERT_EQ(B.Transforms->size(), 2u);
  EXPECT_EQ((*B.Transforms)[0].Why, "no loop");
  EXPECT_EQ((*B.Transforms)[1].Status, "tried");
}

TEST(EntryReport, DerivedFiguresNeedTheirInputs) {
  RunFigures F = measured(80, 10);
  EXPECT_DOUBLE_EQ(*F.dramGBs(), 3000);
  EXPECT_DOUBLE_EQ(*F.gflops(), 1500);
  EXPECT_DOUBLE_EQ(*F.intensity(), 0.5);
  EXPECT_TRUE(F.memoryBound());
  F.Flops.reset();
  EXPECT_FALSE(F.gflops());
  EXPECT_FALSE(F.intensity());
  EXPECT_FALSE(RunFigures::notRecorded("x").dramGBs());
}

TEST(EntryReport, SharesOfPeakSayNotRecordedNeverZero) {
  EntryProfile P;
  P.Original = RunFigures::notRecorded("the worker found no CUPTI");
  EXPECT_EQ(describePeakShares(P, true), "% of peak not recorded (the worker found no CUPTI)");
  P.Original = measured(34.2, 12);
  P.Variant = measured(81, 20);
  P.Variant.DramBytes = 3.0e9;
  P.Variant.DurationMs = 0.5;
  P.Device.CopyGBs = 4220;
  P.Device.CopySource = "measured: a copy in the worker";
  EXPECT_EQ(describePeakShares(P, true),
            "DRAM 34% -> 81% of peak (3000 -> 6000 GB/s of a 4220 GB/s copy), SM 12% -> 20%");
  P.Variant = RunFigures::notRecorded("the variant's launch failed under the profiler");
  P.Original.SmPct.reset();
  EXPECT_EQ(describePeakShares(P, true),
            "DRAM 34% -> not recorded of peak (3000 GB/s of a 4220 GB/s copy), SM not recorded -> "
            "not recorded (the variant's profile not recorded: the variant's launch failed under "
            "the profiler)");
}

TEST(EntryReport, HeadroomReadings) {
  EXPECT_EQ(headroomReading(measured(87, 20), "elementwise"),
            "at 87% of DRAM peak: little headroom");
  EXPECT_EQ(headroomReading(measured(10, 75), "matmul"), "at 75% of SM peak: little headroom");
  EXPECT_EQ(headroomReading(measured(12, 8), "reduction"),
            "at 12% of peak: no transform fits; the kernel is a reduction kernel, limited by "
            "latency (DRAM 12%, SM 8%)");
  EXPECT_EQ(headroomReading(measured(12, 8), "elementwise").find("an elementwise kernel") !=
                std::string::npos,
            true);
  EXPECT_EQ(headroomReading(RunFigures::notRecorded("profiling was turned off"), "scan"),
            "% of peak not recorded (profiling was turned off)");
}
