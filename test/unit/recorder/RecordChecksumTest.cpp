// A record's checksum is fed in pieces by the writer (metadata, then each
// buffer's contents where it lies) and in one call by the reader: both must
// agree for every way of cutting the stream.
#include "recorder/RecordingFormat.h"

#include <gtest/gtest.h>

#include <numeric>

namespace {

using kopt::recorder::RecordChecksum;

uint64_t whole(const std::vector<uint8_t> &Data) {
  RecordChecksum Sum;
  Sum.add(Data.data(), Data.size());
  return Sum.value();
}

TEST(RecordChecksum, PiecesOfAnyLengthSumAsTheWhole) {
  std::vector<uint8_t> Data(1000);
  std::iota(Data.begin(), Data.end(), uint8_t(7));
  const uint64_t Expected = whole(Data);
  for (size_t First : {0, 1, 3, 7, 8, 9, 15, 16, 500, 999, 1000})
    for (size_t Second : {0, 1, 5, 8, 13, 64}) {
      size_t Cut2 = std::min(Data.size(), First + Second);
      RecordChecksum Sum;
      Sum.add(Data.data(), First);
      Sum.add(Data.data() + First, Cut2 - First);
      Sum.add(Data.data() + Cut2, Data.size() - Cut2);
      EXPECT_EQ(Sum.value(), Expected) << First << " + " << Second;
    }
}

TEST(RecordChecksum, EveryByteCounts) {
  std::vector<uint8_t> Data(37, 0x5a);
  const uint64_t Expected = whole(Data);
  for (size_t I = 0; I < Data.size(); ++I) {
    std::vector<uint8_t> Flipped = Data;
    Flipped[I] ^= 1;
    EXPECT_NE(whole(Flipped), Expected) << "byte " << I;
  }
  // A shorter stream of the same bytes differs too (the tail is summed).
  EXPECT_NE(whole(std::vector<uint8_t>(36, 0x5a)), Expected);
}

} // namespace
