// The recorded launches a workload verifies and times on, and the weight each
// one carries for the launches the sample leaves out
// (driver/optimize/WorkloadFromRecording.h).
#include "driver/optimize/WorkloadFromRecording.h"

#include <gtest/gtest.h>

#include <numeric>

using namespace kopt;
using evaluator::RecordedLaunch;

namespace {
std::vector<RecordedLaunch> solver(uint32_t Launches) {
  std::vector<RecordedLaunch> All;
  for (uint32_t K = 0; K < Launches; ++K) {
    RecordedLaunch R;
    R.Id = Launches - 1 - K; // Recorded in another order than their scalars'.
    R.Count = K + 1;
    R.Args = {{"k", evaluator::ScalarArg{evaluator::ScalarType::I32, double(R.Id)}}};
    All.push_back(R);
  }
  return All;
}

uint64_t total(const std::vector<RecordedLaunch> &L, uint64_t RecordedLaunch::*Field) {
  return std::accumulate(L.begin(), L.end(), uint64_t(0),
                         [&](uint64_t S, const RecordedLaunch &R) { return S + R.*Field; });
}
} // namespace

TEST(WorkloadFromRecording, FewLaunchesAreAllKeptWithTheirOwnCounts) {
  std::vector<RecordedLaunch> Picked = driver::sampleRecordedLaunches(solver(5), 16);
  ASSERT_EQ(Picked.size(), 5u);
  for (const RecordedLaunch &R : Picked)
    EXPECT_EQ(R.Weight, R.Count);
}

TEST(WorkloadFromRecording, LeftOutLaunchesWeighTheNearestPickedOne) {
  std::vector<RecordedLaunch> All = solver(100);
  std::vector<RecordedLaunch> Picked = driver::sampleRecordedLaunches(All, 16);
  ASSERT_EQ(Picked.size(), 16u);
  // Every launch of the application is counted once.
  EXPECT_EQ(total(Picked, &RecordedLaunch::Weight), total(All, &RecordedLaunch::Count));
  // In scalar order, first and last always; k = 0 stands for itself and the
  // launches nearer to it than to the next picked one (k = 6): k = 0..3.
  EXPECT_EQ(Picked.front().Id, 0u);
  EXPECT_EQ(Picked.back().Id, 99u);
  EXPECT_EQ(Picked[1].Id, 6u);
  auto CountOf = [&](uint32_t Id) { return uint64_t(100 - Id); }; // Count = K + 1, Id = 99 - K.
  EXPECT_EQ(Picked.front().Weight, CountOf(0) + CountOf(1) + CountOf(2) + CountOf(3));
  for (const RecordedLaunch &R : Picked)
    EXPECT_GE(R.Weight, R.Count);
}
