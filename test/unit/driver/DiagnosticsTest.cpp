#include "driver/Diagnostics.h"

#include <gtest/gtest.h>

using namespace kopt::driver;

TEST(Diagnostics, LinesNameTheToolAndTheSeverity) {
  Reporter Voice("kopt eval");
  EXPECT_EQ(Voice.line(Severity::Note, "n"), "kopt eval: note: n\n");
  EXPECT_EQ(Voice.line(Severity::Warning, "w"), "kopt eval: warning: w\n");
  EXPECT_EQ(Voice.line(Severity::Error, "e"), "kopt eval: error: e\n");
}

TEST(Diagnostics, ExitStatusOfACommandsError) {
  Reporter Voice("kopt test");
  EXPECT_EQ(exitStatusOf(Voice, llvm::Error::success()), 0);
  testing::internal::CaptureStderr();
  EXPECT_EQ(exitStatusOf(Voice, llvm::createStringError("no such file: x.cu")), 1);
  EXPECT_EQ(exitStatusOf(Voice, failWithStatus(3)), 3);
  EXPECT_EQ(exitStatusOf(Voice, failWithStatus(2, "cannot parse")), 2);
  EXPECT_EQ(testing::internal::GetCapturedStderr(),
            "kopt test: error: no such file: x.cu\nkopt test: error: cannot parse\n");
}
