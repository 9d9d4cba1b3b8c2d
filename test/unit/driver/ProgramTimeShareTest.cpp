// Optimization time shared by the recorded program's GPU time: the share goes
// with the kernel's fraction of what kopt record measured, of the build budget
// where the user set one, else of what the recorded kernels would have had
// each; a kernel the program did not record gets none (it keeps the
// per-kernel budget), and a damaged program file is said, not taken as an
// empty program.
#include "driver/optimize/ProgramTimeShare.h"

#include "memory/cache/RecordedProgram.h"
#include "recorder/RecordingFormat.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/raw_ostream.h>

#include <gtest/gtest.h>

namespace {

using namespace kopt;

frontend::KernelSummary kernelWithSymbol(const std::string &Symbol) {
  frontend::KernelSummary K;
  K.MangledName = Symbol;
  return K;
}

void touch(const std::string &Path) {
  std::error_code EC;
  llvm::raw_fd_ostream(Path, EC) << "";
  ASSERT_FALSE(EC) << Path;
}

class ProgramTimeShareTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("kopt-recordings", Dir));
    memory::RecordedProgram P;
    P.Command = {"./solver", "--steps", "100"};
    for (auto [Symbol, Seconds] : {std::pair{"_Z5sweepPf", 9.9}, {"_Z4initPf", 0.1}}) {
      std::string File = recorder::recordingFileName(Symbol);
      P.Kernels[File] = {Symbol, 100, Seconds};
      touch(Dir.str().str() + "/" + File);
    }
    ASSERT_FALSE(bool(memory::writeRecordedProgram(Dir, P)));
  }
  void TearDown() override { EXPECT_FALSE(llvm::sys::fs::remove_directories(Dir)); }
  std::optional<driver::ProgramTimeShare> shareOf(const std::string &Symbol) {
    return driver::programTimeShare(kernelWithSymbol(Symbol), Dir, &Warning);
  }
  llvm::SmallString<128> Dir;
  std::string Warning;
};

TEST_F(ProgramTimeShareTest, GoesWithTheKernelsFractionOfTheProgramsGpuTime) {
  auto Sweep = shareOf("_Z5sweepPf");
  ASSERT_TRUE(Sweep);
  EXPECT_NEAR(Sweep->Fraction, 0.99, 1e-12);
  EXPECT_EQ(Sweep->Kernels, 2u);
  auto Init = shareOf("_Z4initPf");
  ASSERT_TRUE(Init);
  EXPECT_NEAR(Init->Fraction, 0.01, 1e-12);
  EXPECT_EQ(Warning, "");
}

TEST_F(ProgramTimeShareTest, SharesTheBuildBudgetWhereSetElseTheKernelsOwnBudgets) {
  auto Sweep = shareOf("_Z5sweepPf");
  ASSERT_TRUE(Sweep);
  driver::SharedPool Build = driver::sharedPool(*Sweep, 600.0, "10m", 15, "15s");
  EXPECT_EQ(Build.Seconds, 600);
  EXPECT_EQ(driver::describeShare(*Sweep, Build),
            "99% of the build budget 10m, by the program's recorded GPU time");
  // No build budget: the two recorded kernels' 15 s each, moved to where the time is.
  driver::SharedPool Own = driver::sharedPool(*Sweep, std::nullopt, "30m", 15, "15s");
  EXPECT_EQ(Own.Seconds, 30);
  EXPECT_NEAR(Own.Seconds * Sweep->Fraction, 29.7, 1e-9);
  EXPECT_EQ(driver::describeShare(*Sweep, Own),
            "99% of 30s (15s for each of 2 recorded kernels), by the program's recorded GPU time");
}

TEST_F(ProgramTimeShareTest, AKernelTheProgramDidNotRecordGetsNone) {
  EXPECT_FALSE(shareOf("_Z5otherPf"));
  // Recorded by an earlier run, but not by the program kopt record ran last.
  touch(Dir.str().str() + "/" + recorder::recordingFileName("_Z5stalePf"));
  EXPECT_FALSE(shareOf("_Z5stalePf"));
  EXPECT_EQ(Warning, "");
}

TEST_F(ProgramTimeShareTest, ADamagedProgramFileIsSaid) {
  std::error_code EC;
  llvm::raw_fd_ostream(memory::recordedProgramPath(Dir), EC) << "{\"command\": [";
  ASSERT_FALSE(EC);
  EXPECT_FALSE(shareOf("_Z5sweepPf"));
  EXPECT_NE(Warning.find("program.json"), std::string::npos) << Warning;
}

TEST_F(ProgramTimeShareTest, NoProgramFileMeansNoShareAndNoWarning) {
  EXPECT_FALSE(llvm::sys::fs::remove(memory::recordedProgramPath(Dir)));
  EXPECT_FALSE(shareOf("_Z5sweepPf"));
  EXPECT_EQ(Warning, "");
}

} // namespace
