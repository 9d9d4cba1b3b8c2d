// What a cache entry records it was verified on, and whether a later
// recording goes beyond it (memory/cache/VerifiedWorkloads.h).
#include "memory/cache/VerifiedWorkloads.h"

#include "memory/cache/CacheEntry.h"

#include <gtest/gtest.h>

using namespace kopt::memory;

namespace {
const std::vector<std::string> Names = {"n", "k"};

// A solver's recording: k = 0 .. Last, the grid shrinking with k.
std::vector<LaunchDescription> solver(uint32_t N, uint32_t Last) {
  std::vector<LaunchDescription> Out;
  for (uint32_t K = 0; K <= Last; ++K) {
    LaunchDescription L;
    L.Id = K;
    L.Grid = {(N - K + 127) / 128, 1, 1};
    L.Block = {128, 1, 1};
    L.Scalars = {double(N), double(K)};
    Out.push_back(L);
  }
  return Out;
}

CacheKey key() { return makeCacheKey({"sha256:abc", "", "sm_90", "13.0", {}, "0.1.0"}); }

CacheEntry entry() {
  CacheEntry E;
  E.KernelName = "eliminate";
  kopt::frontend::KernelVariant V;
  V.KernelName = "eliminate";
  V.Code = "__global__ void eliminate(int n, int k) {}\n";
  E.Variant = V;
  E.Speedup = 1.3;
  E.Verification = {{"seeds", 19}};
  E.Timing = nlohmann::json::object();
  E.Trajectory = nlohmann::json::array();
  E.Origin = {"skills", "", "NVIDIA H100", "2026-11-27T00:00:00Z", "0.1.0", {"block-size"}};
  return E;
}
} // namespace

TEST(VerifiedWorkloads, TheSameRecordingIsCovered) {
  std::vector<LaunchDescription> Rec = solver(1024, 99);
  VerifiedWorkloads W = describeWorkloads(Names, Rec, {0, 33, 66, 99});
  EXPECT_TRUE(coverageOf(W, Names, Rec).covered());
  // In another order, with other ids, it is the same set of launches.
  std::vector<LaunchDescription> Shuffled(Rec.rbegin(), Rec.rend());
  for (LaunchDescription &L : Shuffled)
    L.Id += 1000;
  EXPECT_EQ(recordingDigest(Shuffled), recordingDigest(Rec));
  EXPECT_TRUE(coverageOf(W, Names, Shuffled).covered());
}

TEST(VerifiedWorkloads, LaunchesWithinTheRangesAndGeometriesAreCovered) {
  VerifiedWorkloads W = describeWorkloads(Names, solver(1024, 99), {0, 99});
  // A shorter run of the same solver: fewer launches, each one seen before.
  std::vector<LaunchDescription> Shorter = solver(1024, 50);
  EXPECT_NE(recordingDigest(Shorter), W.Digest);
  EXPECT_TRUE(coverageOf(W, Names, Shorter).covered());
}

TEST(VerifiedWorkloads, AScalarBeyondTheVerifiedRangeIsNotCovered) {
  VerifiedWorkloads W = describeWorkloads(Names, solver(1024, 99), {0, 99});
  std::vector<LaunchDescription> Longer = solver(1024, 120);
  Coverage C = coverageOf(W, Names, Longer);
  ASSERT_FALSE(C.covered());
  ASSERT_EQ(C.Uncovered.size(), 21u); // k = 100 .. 120.
  EXPECT_EQ(C.Uncovered.front(), 100u);
  EXPECT_EQ(C.Why, "recorded launch #100 (n = 1024; k = 100; grid(8,1,1) block(128,1,1)): "
                   "k = 100 is outside the verified 0..99");
}

TEST(VerifiedWorkloads, ANewGridIsNotCovered) {
  VerifiedWorkloads W = describeWorkloads(Names, solver(1024, 99), {0, 99});
  std::vector<LaunchDescription> Rec = solver(1024, 99);
  Rec[7].Block = {256, 1, 1}; // Same scalars, a launch never verified.
  Coverage C = coverageOf(W, Names, Rec);
  ASSERT_EQ(C.Uncovered, std::vector<size_t>{7});
  EXPECT_NE(C.Why.find("grid(8,1,1) block(256,1,1) was not verified"), std::string::npos) << C.Why;
}

TEST(VerifiedWorkloads, AnEntryVerifiedWithoutARecordingCoversNone) {
  Coverage C = coverageOf(std::nullopt, Names, solver(256, 3));
  EXPECT_EQ(C.Uncovered.size(), 4u);
  EXPECT_NE(C.Why.find("verified without a recording"), std::string::npos);
}

TEST(VerifiedWorkloads, WideningCoversTheNewRecordingAndKeepsTheOld) {
  VerifiedWorkloads W = describeWorkloads(Names, solver(1024, 99), {0, 99});
  VerifiedWorkloads Wide = widened(W, Names, solver(1024, 120), {100, 120});
  EXPECT_TRUE(coverageOf(Wide, Names, solver(1024, 120)).covered());
  EXPECT_TRUE(coverageOf(Wide, Names, solver(1024, 99)).covered());
  EXPECT_EQ(Wide.Scalars[1].Min, 0);
  EXPECT_EQ(Wide.Scalars[1].Max, 120);
  EXPECT_EQ(Wide.VerifiedIds, (std::vector<uint32_t>{100, 120}));
  EXPECT_FALSE(coverageOf(Wide, Names, solver(2048, 3)).covered()); // Another n.
}

TEST(VerifiedWorkloads, RoundTripsThroughJson) {
  VerifiedWorkloads W = describeWorkloads(Names, solver(1024, 99), {0, 50, 99});
  VerifiedWorkloads Back = workloadsFromJson(nlohmann::json::parse(workloadsToJson(W).dump()));
  EXPECT_EQ(Back.Digest, W.Digest);
  ASSERT_EQ(Back.Scalars.size(), 2u);
  EXPECT_EQ(Back.Scalars[1].Name, "k");
  EXPECT_EQ(Back.Scalars[1].Max, 99);
  EXPECT_EQ(Back.Geometries.size(), W.Geometries.size());
  EXPECT_EQ(Back.VerifiedIds, W.VerifiedIds);
  EXPECT_EQ(Back.Launches, 100u);
  EXPECT_TRUE(coverageOf(Back, Names, solver(1024, 99)).covered());
  EXPECT_FALSE(coverageOf(Back, Names, solver(1024, 100)).covered());
}

TEST(VerifiedWorkloads, TheEntryStoresItsWorkloads) {
  CacheEntry E = entry();
  E.Workloads = describeWorkloads(Names, solver(1024, 99), {0, 99});
  StoredEntry S = llvm::cantFail(parseEntry(serializeEntry(key(), E)));
  ASSERT_TRUE(S.Entry.Workloads.has_value());
  EXPECT_EQ(S.Entry.Workloads->Digest, E.Workloads->Digest);
  EXPECT_FALSE(coverageOf(S.Entry.Workloads, Names, solver(1024, 100)).covered());
}

TEST(VerifiedWorkloads, EntriesWithoutTheFieldStayReadable) {
  // An entry as kopt wrote it before the field existed: no "workloads" key.
  CacheEntry E = entry();
  std::string Text = serializeEntry(key(), E);
  EXPECT_EQ(Text.find("workloads"), std::string::npos);
  nlohmann::json Payload = nlohmann::json::parse(Text)["payload"];
  nlohmann::json Old = {
      {"format", 1}, {"checksum", "sha256:" + digestOf(Payload.dump())}, {"payload", Payload}};
  auto S = parseEntry(Old.dump(1));
  ASSERT_TRUE(bool(S)) << llvm::toString(S.takeError());
  EXPECT_FALSE(S->Entry.Workloads.has_value());
  EXPECT_EQ(S->Entry.Speedup, 1.3);
  // A malformed field is a bad entry, never a crash.
  Payload["workloads"] = {{"digest", 3}};
  nlohmann::json Bad = {
      {"format", 1}, {"checksum", "sha256:" + digestOf(Payload.dump())}, {"payload", Payload}};
  EXPECT_FALSE(bool(parseEntry(Bad.dump())));
  llvm::consumeError(parseEntry(Bad.dump()).takeError());
}
