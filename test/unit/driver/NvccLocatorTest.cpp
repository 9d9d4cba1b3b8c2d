#include "driver/nvcc/NvccLocator.h"

#include <gtest/gtest.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/raw_ostream.h>

#include <map>

using kopt::driver::locateRealNvcc;
using kopt::driver::NvccSearchEnvironment;

namespace {

// A scratch directory with fake nvcc executables.
class NvccLocatorTest : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::SmallString<128> Dir;
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("kopt-nvcc-locator", Dir));
    Root = std::string(Dir);
    Self = makeExecutable("self/kcc");
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Root); }

  std::string makeExecutable(const std::string &Relative) {
    llvm::SmallString<256> Path(Root);
    llvm::sys::path::append(Path, Relative);
    EXPECT_FALSE(llvm::sys::fs::create_directories(llvm::sys::path::parent_path(Path)));
    std::error_code EC;
    {
      llvm::raw_fd_ostream OS(Path, EC);
      OS << "#!/bin/sh\n";
    }
    EXPECT_FALSE(EC);
    EXPECT_FALSE(llvm::sys::fs::setPermissions(
        Path, llvm::sys::fs::all_exe | llvm::sys::fs::owner_read | llvm::sys::fs::owner_write));
    return std::string(Path);
  }

  std::string dir(const std::string &Relative) const { return Root + "/" + Relative; }

  NvccSearchEnvironment environment() const {
    NvccSearchEnvironment Env;
    Env.GetEnv = [this](const char *Name) -> std::optional<std::string> {
      auto It = Vars.find(Name);
      if (It == Vars.end())
        return std::nullopt;
      return It->second;
    };
    Env.SelfPath = Self;
    Env.BuildToolkitBin = BuildBin;
    return Env;
  }

  std::string Root, Self, BuildBin;
  std::map<std::string, std::string> Vars;
};

std::string found(llvm::Expected<std::string> Result) {
  if (!Result)
    return "error: " + llvm::toString(Result.takeError());
  return *Result;
}

TEST_F(NvccLocatorTest, KoptNvccWinsOverEverythingElse) {
  std::string Explicit = makeExecutable("explicit/nvcc");
  makeExecutable("toolkit/bin/nvcc");
  makeExecutable("path/nvcc");
  Vars = {{"KOPT_NVCC", Explicit}, {"CUDA_PATH", dir("toolkit")}, {"PATH", dir("path")}};
  EXPECT_EQ(found(locateRealNvcc(environment())), Explicit);
}

TEST_F(NvccLocatorTest, ToolkitVariablesComeBeforeBuildToolkitAndPath) {
  std::string Home = makeExecutable("home/bin/nvcc");
  BuildBin = dir("build/bin");
  makeExecutable("build/bin/nvcc");
  makeExecutable("path/nvcc");
  Vars = {{"CUDA_HOME", dir("home")}, {"PATH", dir("path")}};
  EXPECT_EQ(found(locateRealNvcc(environment())), Home);
}

TEST_F(NvccLocatorTest, BuildToolkitComesBeforePath) {
  BuildBin = dir("build/bin");
  std::string Build = makeExecutable("build/bin/nvcc");
  makeExecutable("path/nvcc");
  Vars = {{"PATH", dir("path")}};
  EXPECT_EQ(found(locateRealNvcc(environment())), Build);
}

TEST_F(NvccLocatorTest, PathSearchSkipsKccInstalledAsNvcc) {
  // kcc linked as "nvcc" first in PATH, the real one after it.
  ASSERT_FALSE(llvm::sys::fs::create_directories(dir("shadow")));
  ASSERT_FALSE(llvm::sys::fs::create_link(Self, dir("shadow/nvcc")));
  std::string Real = makeExecutable("real/nvcc");
  Vars = {{"PATH", dir("shadow") + ":" + dir("empty") + "::" + dir("real")}};
  EXPECT_EQ(found(locateRealNvcc(environment())), Real);
}

TEST_F(NvccLocatorTest, ExplicitSelfIsAnError) {
  Vars = {{"KOPT_NVCC", Self}};
  EXPECT_NE(found(locateRealNvcc(environment())).find("names kcc itself"), std::string::npos);
}

TEST_F(NvccLocatorTest, NothingFoundSaysWhatToSet) {
  Vars = {{"PATH", dir("nowhere")}};
  std::string Result = found(locateRealNvcc(environment()));
  EXPECT_NE(Result.find("cannot find the real nvcc"), std::string::npos) << Result;
  EXPECT_NE(Result.find("KOPT_NVCC"), std::string::npos) << Result;
}

TEST_F(NvccLocatorTest, DirectoryNamedNvccIsSkipped) {
  ASSERT_FALSE(llvm::sys::fs::create_directories(dir("trap/nvcc")));
  std::string Real = makeExecutable("real/nvcc");
  Vars = {{"PATH", dir("trap") + ":" + dir("real")}};
  EXPECT_EQ(found(locateRealNvcc(environment())), Real);
}

} // namespace
