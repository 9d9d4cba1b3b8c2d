#include "report/BuildLog.h"

#include <gtest/gtest.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/FormatVariadic.h>
#include <llvm/Support/raw_ostream.h>

#include <sys/wait.h>
#include <unistd.h>

using namespace kopt::report;

namespace {
BuildRecord record(unsigned Line) {
  BuildRecord R;
  R.Source = R.File = "a.cu";
  R.Line = Line;
  R.Kernel = llvm::formatv("k{0}", Line).str();
  R.Arch = "sm_90";
  R.Key = "key";
  R.Outcome = "hit";
  R.UserCache = "/u";
  R.Date = "2026-11-28T10:00:00Z";
  return R;
}
} // namespace

TEST(BuildLog, ParallelAppendsKeepWholeLines) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("kopt-build-log", Dir));
  std::string Path = (Dir + "/sub/build.jsonl").str();
  constexpr int Writers = 8, Each = 40;
  std::vector<pid_t> Children;
  for (int W = 0; W < Writers; ++W) {
    pid_t Pid = ::fork();
    if (Pid == 0) {
      for (int I = 0; I < Each; ++I) {
        std::vector<BuildRecord> Batch = {record(unsigned(W * 1000 + I)),
                                          record(unsigned(W * 1000 + I))};
        Batch[0].Detail = std::string(3000, 'x'); // Longer than one write.
        if (appendBuildRecords(Path, Batch))
          ::_exit(1);
      }
      ::_exit(0);
    }
    Children.push_back(Pid);
  }
  for (pid_t Pid : Children) {
    int Status = 0;
    ::waitpid(Pid, &Status, 0);
    EXPECT_TRUE(WIFEXITED(Status) && WEXITSTATUS(Status) == 0);
  }
  llvm::Expected<BuildLog> Log = readBuildLog(Path);
  ASSERT_TRUE(bool(Log)) << llvm::toString(Log.takeError());
  EXPECT_TRUE(Log->Problems.empty());
  ASSERT_EQ(Log->Records.size(), size_t(Writers * Each * 2));
  // A batch stays together: its two records are next to each other.
  for (size_t I = 0; I < Log->Records.size(); I += 2)
    EXPECT_EQ(Log->Records[I].Line, Log->Records[I + 1].Line);
  llvm::sys::fs::remove_directories(Dir);
}

TEST(BuildLog, BadLinesAreProblemsWithTheirPlace) {
  llvm::SmallString<128> Path;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("kopt-build-log", "jsonl", Path));
  ASSERT_FALSE(bool(appendBuildRecords(Path, {record(1)})));
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Path, EC, llvm::sys::fs::OF_Append);
    OS << "{\"format\": 1, \"source\": \"a.c\n{\"format\": 2}\n";
  }
  ASSERT_FALSE(bool(appendBuildRecords(Path, {record(3)})));
  llvm::Expected<BuildLog> Log = readBuildLog(Path);
  ASSERT_TRUE(bool(Log));
  ASSERT_EQ(Log->Records.size(), 2u);
  EXPECT_EQ(Log->Records[1].Line, 3u);
  ASSERT_EQ(Log->Problems.size(), 2u);
  EXPECT_EQ(Log->Problems[0].rfind((Path + ":2:").str(), 0), 0u) << Log->Problems[0];
  EXPECT_NE(Log->Problems[1].find(":3:1: not a build record: "), std::string::npos)
      << Log->Problems[1];
  EXPECT_FALSE(bool(readBuildLog((Path + ".missing").str())));
  llvm::sys::fs::remove(Path);
}
