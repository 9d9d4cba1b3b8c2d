// The GPU locks (memory/cache/GpuLock.h): named by the GPU's UUID, and taken
// from a list (any free GPU), against locks held by another process.
#include "memory/cache/GpuLock.h"

#include "test/unit/common/GpuLockDir.h"
#include "test/unit/common/LockHolder.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <thread>

using namespace kopt::memory;
using kopt::test::LockHolder;

namespace {
using GpuLockTest = kopt::test::GpuLockDirTest;

const std::string GpuA = "GPU-8c1f7e0a-11d2-4c4e-9e0b-2f5a6b7c8d9e";
const std::string GpuB = "GPU-1d2e3f40-5a6b-7c8d-9e0f-a1b2c3d4e5f6";
} // namespace

TEST_F(GpuLockTest, NamedByTheGpusUuid) {
  EXPECT_EQ(GpuLock::pathFor(GpuA), Root + "/kopt-gpu-" + GpuA + ".lock");
  EXPECT_NE(GpuLock::pathFor(GpuA), GpuLock::pathFor(GpuB));
  // Whatever a caller passes stays one file name in the directory.
  EXPECT_EQ(GpuLock::pathFor("../x y"), Root + "/kopt-gpu-.._x_y.lock");
  ::unsetenv("KOPT_GPU_LOCK_DIR");
  EXPECT_NE(GpuLock::pathFor(GpuA).find("kopt-gpu-" + GpuA + ".lock"), std::string::npos);
}

TEST_F(GpuLockTest, TakesTheFirstGpuAnotherProcessDoesNotHold) {
  std::vector<std::string> Paths = {GpuLock::pathFor(GpuA), GpuLock::pathFor(GpuB)};
  {
    GpuLock First = llvm::cantFail(GpuLock::acquireAny(Paths));
    EXPECT_EQ(First.index(), 0u);
  }
  LockHolder Other(Paths[0]); // Another process holds GPU A.
  bool Waited = false;
  GpuLock Free = llvm::cantFail(GpuLock::acquireAny(Paths, [&] { Waited = true; }));
  EXPECT_EQ(Free.index(), 1u);
  EXPECT_FALSE(Waited);
}

TEST_F(GpuLockTest, WaitsWithANoteWhileEveryGpuIsBusy) {
  std::vector<std::string> Paths = {GpuLock::pathFor(GpuA), GpuLock::pathFor(GpuB)};
  std::optional<LockHolder> OnA(std::in_place, Paths[0]);
  std::optional<LockHolder> OnB(std::in_place, Paths[1]);
  std::atomic<int> Notes = 0;
  std::atomic<bool> Got = false;
  std::atomic<size_t> Index = 99;
  std::thread Waiter([&] {
    GpuLock Mine =
        llvm::cantFail(GpuLock::acquireAny(Paths, [&] { ++Notes; }, std::chrono::milliseconds(10)));
    Index = Mine.index();
    Got = true;
  });
  while (Notes == 0)
    std::this_thread::yield();
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_FALSE(Got); // Still waiting: both are held.
  OnB.reset();       // The other process lets go of B.
  Waiter.join();
  EXPECT_TRUE(Got);
  EXPECT_EQ(Index, 1u);
  EXPECT_EQ(Notes, 1); // One note, however long the wait.
}

TEST_F(GpuLockTest, NoGpuIsAnError) {
  auto Lock = GpuLock::acquireAny({});
  ASSERT_FALSE(bool(Lock));
  EXPECT_EQ(llvm::toString(Lock.takeError()), "no GPU to lock");
}
