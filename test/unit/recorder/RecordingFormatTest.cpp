// The recording file: a record's checksum is fed in pieces by the writer
// (metadata, then each buffer's contents where it lies) and in one call by the
// reader, and both must agree for every way of cutting the stream; a listing
// (no contents) reads what a full read reads, but for the contents.
#include "recorder/RecordingFormat.h"

#include <llvm/Support/FileSystem.h>

#include <gtest/gtest.h>

#include <numeric>

namespace {

using kopt::recorder::RecordChecksum;

// Distinct launch Id of kernel k(float *, int): its own grid and parameter bytes.
kopt::recorder::LaunchRecord numberedLaunch(uint32_t Id) {
  kopt::recorder::LaunchRecord L;
  L.Id = Id;
  L.Grid = {Id + 1, 1, 1};
  L.ParamBytes.assign(12, uint8_t(Id));
  return L;
}

uint64_t whole(const std::vector<uint8_t> &Data) {
  RecordChecksum Sum;
  Sum.add(Data.data(), Data.size());
  return Sum.value();
}

TEST(RecordChecksum, PiecesOfAnyLengthSumAsTheWhole) {
  std::vector<uint8_t> Data(1000);
  std::iota(Data.begin(), Data.end(), uint8_t(7));
  const uint64_t Expected = whole(Data);
  for (size_t First : {0, 1, 3, 7, 8, 9, 15, 16, 63, 64, 65, 128, 500, 999, 1000})
    for (size_t Second : {0, 1, 5, 8, 13, 64, 65, 200}) {
      size_t Cut2 = std::min(Data.size(), First + Second);
      RecordChecksum Sum;
      Sum.add(Data.data(), First);
      Sum.add(Data.data() + First, Cut2 - First);
      Sum.add(Data.data() + Cut2, Data.size() - Cut2);
      EXPECT_EQ(Sum.value(), Expected) << First << " + " << Second;
    }
}

TEST(RecordChecksum, EveryByteCounts) {
  std::vector<uint8_t> Data(137, 0x5a); // Two whole blocks of the eight lanes, and a tail.
  const uint64_t Expected = whole(Data);
  for (size_t I = 0; I < Data.size(); ++I) {
    std::vector<uint8_t> Flipped = Data;
    Flipped[I] ^= 1;
    EXPECT_NE(whole(Flipped), Expected) << "byte " << I;
  }
  // A shorter stream of the same bytes differs too (the tail is summed).
  EXPECT_NE(whole(std::vector<uint8_t>(136, 0x5a)), Expected);
}

TEST(RecordingFile, AListingSkimsLargeRecordsAndReadsWhatAFullReadReads) {
  llvm::SmallString<128> Path;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("kopt-recording", "krec", Path));
  kopt::recorder::KernelRecord Kernel{"_Z1kPfi", {{0, 8}, {8, 4}}};
  {
    kopt::recorder::RecordingWriter W;
    ASSERT_EQ(W.open(Path.str().str(), Kernel), "");
    for (uint32_t Id = 0; Id < 3; ++Id) {
      kopt::recorder::LaunchRecord L = numberedLaunch(Id);
      L.Pointers = {{0, 0, 16}};
      kopt::recorder::AllocationRecord A;
      A.Base = 0x7f0000000000;
      A.Bytes = Id == 1 ? 1 << 16 : 1 << 20; // One small record, two skimmed ones.
      A.Before = std::vector<uint8_t>(A.Bytes, uint8_t(Id));
      if (Id == 2)
        A.After = std::vector<uint8_t>(A.Bytes, 9);
      else
        A.AfterUnchanged = true;
      L.Allocations.push_back(std::move(A));
      ASSERT_EQ(W.append(L), "");
      ASSERT_EQ(W.appendRepeat(Id), "");
    }
    ASSERT_EQ(W.appendNote("done"), "");
  }
  kopt::recorder::ReadResult Full = kopt::recorder::readRecording(Path.str().str());
  kopt::recorder::ReadResult Listed = kopt::recorder::readRecording(Path.str().str(), {false});
  EXPECT_FALSE(llvm::sys::fs::remove(Path));
  ASSERT_EQ(Full.Error, "");
  ASSERT_EQ(Listed.Error, "");
  for (const kopt::recorder::ReadResult *R : {&Full, &Listed}) {
    EXPECT_EQ(R->Value.Warning, "");
    EXPECT_EQ(R->Value.Kernel.Params, Kernel.Params);
    ASSERT_EQ(R->Value.Launches.size(), 3u);
    EXPECT_EQ(R->Value.TotalLaunches, 6u);
    EXPECT_EQ(R->Value.ContentBytes, (uint64_t(3) << 20) + (1 << 16));
    EXPECT_EQ(R->Value.Notes, std::vector<std::string>{"done"});
    for (uint32_t Id = 0; Id < 3; ++Id) {
      const kopt::recorder::LaunchRecord &L = R->Value.Launches[Id].Launch;
      EXPECT_EQ(R->Value.Launches[Id].Count, 2u);
      EXPECT_EQ(L.Grid[0], Id + 1);
      EXPECT_EQ(L.ParamBytes, std::vector<uint8_t>(12, uint8_t(Id)));
      ASSERT_EQ(L.Allocations.size(), 1u);
      EXPECT_EQ(L.Allocations[0].AfterUnchanged, Id != 2);
    }
  }
  const kopt::recorder::AllocationRecord &Last = Full.Value.Launches[2].Launch.Allocations[0];
  ASSERT_TRUE(Last.Before && Last.After);
  EXPECT_EQ((*Last.Before)[12345], 2);
  EXPECT_EQ((*Last.After)[12345], 9);
}

TEST(RecordingFile, ALargeRecordSummedAlongsideItsWriteReadsBack) {
  llvm::SmallString<128> Path;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("kopt-recording", "krec", Path));
  const uint64_t Bytes = 9 << 20; // Over the size from which the sum runs on its own thread.
  {
    kopt::recorder::RecordingWriter W;
    ASSERT_EQ(W.open(Path.str().str(), {"_Z1kPf", {{0, 8}}}), "");
    kopt::recorder::LaunchRecord L;
    L.ParamBytes.assign(8, 0);
    L.Pointers = {{0, 0, 0}};
    kopt::recorder::AllocationRecord A;
    A.Base = 0x7f0000000000;
    A.Bytes = Bytes;
    A.Before = std::vector<uint8_t>(Bytes);
    std::iota(A.Before->begin(), A.Before->end(), uint8_t(3));
    A.After = std::vector<uint8_t>(Bytes, 5);
    L.Allocations.push_back(std::move(A));
    ASSERT_EQ(W.append(L), "");
    ASSERT_EQ(W.appendNote("after"), "");
  }
  kopt::recorder::ReadResult R = kopt::recorder::readRecording(Path.str().str());
  EXPECT_FALSE(llvm::sys::fs::remove(Path));
  ASSERT_EQ(R.Error, "");
  EXPECT_EQ(R.Value.Warning, "");
  EXPECT_EQ(R.Value.Notes, std::vector<std::string>{"after"});
  ASSERT_EQ(R.Value.Launches.size(), 1u);
  const kopt::recorder::AllocationRecord &A = R.Value.Launches[0].Launch.Allocations.at(0);
  ASSERT_TRUE(A.Before && A.After);
  EXPECT_EQ((*A.Before)[Bytes - 1], uint8_t(3 + (Bytes - 1)));
  EXPECT_EQ((*A.After)[Bytes / 2], 5);
}

// A recording's GPU time: each distinct launch's time by its count; a launch
// without a time (its Time record lost) at the mean of those with one; none
// at all where nothing was timed (a version 3 recording).
TEST(RecordingFile, GpuTimeWeighsEachLaunchByItsCount) {
  llvm::SmallString<128> Path;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("kopt-recording", "krec", Path));
  kopt::recorder::KernelRecord Kernel{"_Z1kPfi", {{0, 8}, {8, 4}}};
  {
    kopt::recorder::RecordingWriter W;
    ASSERT_EQ(W.open(Path.str().str(), Kernel), "");
    for (uint32_t Id = 0; Id < 3; ++Id) {
      kopt::recorder::LaunchRecord L = numberedLaunch(Id);
      ASSERT_EQ(W.append(L), "");
      if (Id < 2) {
        ASSERT_EQ(W.appendTime(Id, Id == 0 ? 0.5 : 0.25), "");
      }
    }
    for (int I = 0; I < 3; ++I)
      ASSERT_EQ(W.appendRepeat(0), ""); // #0 four times in all.
  }
  kopt::recorder::ReadResult R = kopt::recorder::readRecording(Path.str().str());
  ASSERT_EQ(R.Error, "");
  ASSERT_EQ(R.Value.Launches.size(), 3u);
  EXPECT_EQ(R.Value.Launches[0].Seconds, 0.5);
  EXPECT_EQ(R.Value.Launches[1].Seconds, 0.25);
  EXPECT_FALSE(R.Value.Launches[2].Seconds);
  // 4 x 0.5 + 0.25, and #2 at the timed launches' mean (2.25 s over 5).
  std::optional<double> Gpu = kopt::recorder::recordedGpuSeconds(R.Value);
  ASSERT_TRUE(Gpu);
  EXPECT_DOUBLE_EQ(*Gpu, 2.25 + 2.25 / 5);

  R.Value.Launches[0].Seconds.reset();
  R.Value.Launches[1].Seconds.reset();
  EXPECT_FALSE(kopt::recorder::recordedGpuSeconds(R.Value));
  EXPECT_FALSE(llvm::sys::fs::remove(Path));
}

} // namespace
