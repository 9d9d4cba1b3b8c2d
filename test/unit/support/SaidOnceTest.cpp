// Warnings said once across processes (support/SaidOnce.h): the first caller
// says it, later ones do not, a day-old marker lets it be said again, and a
// directory that cannot hold markers never silences a warning.
#include "support/SaidOnce.h"

#include <gtest/gtest.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>

#include <sys/wait.h>
#include <unistd.h>

#include <chrono>

using namespace kopt;

namespace {
class SaidOnceTest : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::SmallString<128> Made;
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("kopt-said", Made));
    Root = std::string(Made);
    Dir = Root + "/said";
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Root); }
  std::string Root, Dir;
};
} // namespace

TEST_F(SaidOnceTest, OnceAWarning) {
  EXPECT_TRUE(firstToSay(Dir, "remote cache 'redis//h': expected a URL"));
  EXPECT_FALSE(firstToSay(Dir, "remote cache 'redis//h': expected a URL"));
  EXPECT_TRUE(firstToSay(Dir, "remote cache 'ftp://h': unknown scheme"));
}

TEST_F(SaidOnceTest, OneOfManyProcessesSaysIt) {
  constexpr int Processes = 16;
  int Pipe[2];
  ASSERT_EQ(::pipe(Pipe), 0);
  for (int I = 0; I < Processes; ++I)
    if (::fork() == 0) {
      char Said = firstToSay(Dir, "said by one") ? '1' : '0';
      ::_exit(::write(Pipe[1], &Said, 1) == 1 ? 0 : 1);
    }
  ::close(Pipe[1]);
  int Saying = 0;
  char C;
  while (::read(Pipe[0], &C, 1) == 1)
    Saying += C == '1';
  ::close(Pipe[0]);
  for (int I = 0; I < Processes; ++I)
    ::wait(nullptr);
  EXPECT_EQ(Saying, 1);
}

TEST_F(SaidOnceTest, SaidAgainAfterADay) {
  ASSERT_TRUE(firstToSay(Dir, "corrupt entry"));
  llvm::SmallString<128> Marker(Dir);
  llvm::sys::path::append(Marker, saidMarkerName("corrupt entry"));
  int Fd;
  ASSERT_FALSE(llvm::sys::fs::openFileForWrite(Marker, Fd, llvm::sys::fs::CD_OpenExisting));
  llvm::sys::fs::setLastAccessAndModificationTime(Fd, std::chrono::system_clock::now() -
                                                          std::chrono::hours(25));
  ::close(Fd);
  EXPECT_TRUE(firstToSay(Dir, "corrupt entry"));
  EXPECT_FALSE(firstToSay(Dir, "corrupt entry"));
}

TEST_F(SaidOnceTest, AnUnwritableDirectoryNeverSilencesAWarning) {
  // Under /proc even root cannot create a directory.
  EXPECT_TRUE(firstToSay("/proc/self/kopt-said", "no cache"));
  EXPECT_TRUE(firstToSay("/proc/self/kopt-said", "no cache"));
}
