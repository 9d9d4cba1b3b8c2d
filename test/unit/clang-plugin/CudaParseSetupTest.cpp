#include "clang-plugin/parse/CudaParseSetup.h"

#include <gtest/gtest.h>

#include <algorithm>

using kopt::frontend::CudaParseSetup;
using kopt::frontend::parseRelevantFlags;
using Strings = std::vector<std::string>;

TEST(ParseRelevantFlags, KeepsPreprocessorFlagsInBothSpellings) {
  Strings Flags = {"-c",       "-I",  "inc",      "-Iinc2", "-DN=4", "-D",  "M",   "-UX",
                   "-isystem", "sys", "-include", "pre.h",  "-o",    "x.o", "-O3", "--std=c++17"};
  EXPECT_EQ(parseRelevantFlags(Flags),
            (Strings{"-I", "inc", "-Iinc2", "-DN=4", "-D", "M", "-UX", "-isystem", "sys",
                     "-include", "pre.h", "-std=c++17"}));
}

TEST(ParseRelevantFlags, DropsCodeGenerationAndOutputFlags) {
  EXPECT_TRUE(parseRelevantFlags({"-arch=sm_90", "-O2", "-lineinfo", "-o", "out"}).empty());
}

TEST(ParseRelevantFlags, TrailingSeparateFlagWithoutValueIsIgnored) {
  EXPECT_TRUE(parseRelevantFlags({"-I"}).empty());
}

TEST(CudaParseSetup, ArgumentsPointClangAtShippedHeadersAndToolkit) {
  CudaParseSetup Setup;
  Setup.ClangResourceDir = "/opt/kopt/lib/kopt/clang";
  Setup.ShimIncludeDir = "/opt/kopt/lib/kopt/include-shims";
  Setup.CudaPath = "/usr/local/cuda";
  Setup.UserFlags = {"-DN=1"};
  Strings Args = Setup.clangArgs();
  auto Has = [&](const std::string &A) {
    return std::find(Args.begin(), Args.end(), A) != Args.end();
  };
  EXPECT_TRUE(Has("-xcuda"));
  EXPECT_TRUE(Has("-resource-dir=/opt/kopt/lib/kopt/clang"));
  EXPECT_TRUE(Has("--cuda-path=/usr/local/cuda"));
  EXPECT_TRUE(Has("/opt/kopt/lib/kopt/include-shims"));
  EXPECT_TRUE(Has("/usr/local/cuda/include/cccl"));
  EXPECT_TRUE(Has("--cuda-gpu-arch=sm_90"));
  EXPECT_EQ(Args.back(), "-DN=1"); // The user's flags come last and win.
}

TEST(CudaParseSetup, FallbackHeadersRdcAndOpenMpComeBeforeTheUsersFlags) {
  CudaParseSetup Setup;
  Setup.FallbackIncludeDir = "/opt/kopt/lib/kopt/include-fallback";
  Setup.RelocatableDeviceCode = true;
  Setup.OpenMP = true;
  Setup.UserFlags = {"-DN=1"};
  Strings Args = Setup.clangArgs();
  auto At = [&](const std::string &A) { return std::find(Args.begin(), Args.end(), A); };
  ASSERT_NE(At("-idirafter"), Args.end());
  EXPECT_EQ(*(At("-idirafter") + 1), "/opt/kopt/lib/kopt/include-fallback");
  EXPECT_NE(At("-fgpu-rdc"), Args.end());
  EXPECT_NE(At("-fopenmp"), Args.end());
  EXPECT_EQ(Args.back(), "-DN=1");
}

TEST(CudaParseSetup, NoFallbackDirectoryRdcOrOpenMpUnlessSet) {
  Strings Args = CudaParseSetup{}.clangArgs();
  for (const char *Absent : {"-idirafter", "-fgpu-rdc", "-fopenmp"})
    EXPECT_EQ(std::find(Args.begin(), Args.end(), Absent), Args.end()) << Absent;
}
