// A fixture for tests of the GPU locks: KOPT_GPU_LOCK_DIR points at a fresh
// directory for the test, so its locks meet no other process's.
#pragma once

#include <gtest/gtest.h>
#include <llvm/ADT/SmallString.h>
#include <llvm/Support/FileSystem.h>

#include <cstdlib>
#include <string>

namespace kopt::test {

class GpuLockDirTest : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::SmallString<128> Dir;
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("kopt-gpu-locks", Dir));
    Root = std::string(Dir);
    ::setenv("KOPT_GPU_LOCK_DIR", Root.c_str(), 1);
  }
  void TearDown() override {
    ::unsetenv("KOPT_GPU_LOCK_DIR");
    llvm::sys::fs::remove_directories(Root);
  }
  std::string Root;
};

} // namespace kopt::test
