// The GPUs kopt optimizes on (driver/optimize/GpuPool.h), on a fake list of
// devices with UUIDs and fake evaluators: the devices option restricts them,
// a kernel takes the next GPU another process does not hold, waits with a
// note while all are busy, and each GPU's evaluator starts once.
#include "driver/optimize/GpuPool.h"

#include "test/unit/common/GpuLockDir.h"
#include "test/unit/common/LockHolder.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <thread>

using namespace kopt;
using namespace kopt::driver;
using kopt::test::LockHolder;

namespace {
evaluator::DeviceInfo device(int Ordinal, std::string Name, std::string Uuid) {
  evaluator::DeviceInfo D;
  D.Ordinal = Ordinal;
  D.Name = std::move(Name);
  D.Uuid = std::move(Uuid);
  D.ComputeMajor = 9;
  return D;
}

const std::vector<evaluator::DeviceInfo> Host = {
    device(0, "NVIDIA H200", "GPU-00000000-1111-2222-3333-444444444444"),
    device(1, "NVIDIA H200", "GPU-55555555-6666-7777-8888-999999999999"),
    device(2, "NVIDIA H200", "GPU-aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee")};

// An evaluator that is never asked anything here.
class IdleEvaluator : public evaluator::VariantEvaluator {
public:
  llvm::Expected<evaluator::Baseline> setOriginal(const evaluator::KernelSource &,
                                                  const evaluator::Workload &) override {
    return llvm::createStringError("not here");
  }
  llvm::Expected<evaluator::VariantOutcome> evaluate(const evaluator::KernelSource &,
                                                     const evaluator::VariantLaunch &,
                                                     llvm::ArrayRef<uint64_t>) override {
    return llvm::createStringError("not here");
  }
};

class GpuPoolTest : public kopt::test::GpuLockDirTest {
protected:
  GpuPool::EvaluatorStarter counting() {
    return [this](const evaluator::DeviceInfo &D)
               -> llvm::Expected<std::unique_ptr<evaluator::VariantEvaluator>> {
      ++Starts[D.Ordinal];
      return std::make_unique<IdleEvaluator>();
    };
  }
  std::atomic<int> Starts[3] = {0, 0, 0};
};

std::vector<int> ordinals(const std::vector<evaluator::DeviceInfo> &Devices) {
  std::vector<int> Out;
  for (const evaluator::DeviceInfo &D : Devices)
    Out.push_back(D.Ordinal);
  return Out;
}
} // namespace

TEST(GpuLabel, OrdinalAndModel) {
  EXPECT_EQ(gpuLabel(Host[1]), "gpu1 H200");
  EXPECT_EQ(gpuLabel(device(3, "Tesla T4", "GPU-x")), "gpu3 Tesla T4");
}

TEST(AllowedDevices, TheDevicesOptionRestrictsByOrdinalOrUuid) {
  EXPECT_EQ(ordinals(llvm::cantFail(allowedDevices(Host, ""))), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(ordinals(llvm::cantFail(allowedDevices(Host, "2,0"))), (std::vector<int>{2, 0}));
  EXPECT_EQ(ordinals(llvm::cantFail(allowedDevices(Host, Host[1].Uuid))), (std::vector<int>{1}));
  auto Missing = allowedDevices(Host, "0,7");
  ASSERT_FALSE(bool(Missing));
  std::string Message = llvm::toString(Missing.takeError());
  EXPECT_EQ(Message.rfind("the devices option names GPU '7', which is not here (GPUs here: gpu0 "
                          "H200 (GPU-00000000-",
                          0),
            0u)
      << Message;
}

TEST_F(GpuPoolTest, EachGpuIsLentToOneHolderAtATime) {
  GpuPool Pool(Host, counting());
  auto First = Pool.lend();
  ASSERT_TRUE(bool(First)) << llvm::toString(First.takeError());
  auto Second = Pool.lend();
  ASSERT_TRUE(bool(Second)) << llvm::toString(Second.takeError());
  EXPECT_EQ(First->device().Ordinal, 0);
  EXPECT_EQ(Second->device().Ordinal, 1);
  EXPECT_EQ(Second->label(), "gpu1 H200");
}

TEST_F(GpuPoolTest, TakesTheNextGpuAnotherProcessDoesNotHold) {
  LockHolder Other(memory::GpuLock::pathFor(Host[0].Uuid));
  GpuPool Pool(Host, counting());
  bool Waited = false;
  auto Lease = Pool.lend([&](const std::string &) { Waited = true; });
  ASSERT_TRUE(bool(Lease)) << llvm::toString(Lease.takeError());
  EXPECT_EQ(Lease->device().Ordinal, 1);
  EXPECT_FALSE(Waited);
  EXPECT_EQ(Starts[0], 0); // Nothing was started on the GPU it did not get.
  EXPECT_EQ(Starts[1], 1);
}

TEST_F(GpuPoolTest, TheDevicesOptionKeepsItOffOtherGpus) {
  LockHolder Other(memory::GpuLock::pathFor(Host[0].Uuid));
  GpuPool Pool(llvm::cantFail(allowedDevices(Host, "0,2")), counting());
  auto Lease = Pool.lend();
  ASSERT_TRUE(bool(Lease)) << llvm::toString(Lease.takeError());
  EXPECT_EQ(Lease->device().Ordinal, 2); // Not 1, which the option leaves out.
}

TEST_F(GpuPoolTest, WaitsWithTheNoteWhileAllAreBusy) {
  std::vector<evaluator::DeviceInfo> Two(Host.begin(), Host.begin() + 2);
  std::optional<LockHolder> OnZero(std::in_place, memory::GpuLock::pathFor(Two[0].Uuid));
  std::optional<LockHolder> OnOne(std::in_place, memory::GpuLock::pathFor(Two[1].Uuid));
  GpuPool Pool(Two, counting());
  std::string Note;
  std::atomic<bool> Noted = false, Got = false;
  std::atomic<int> Ordinal = -1;
  std::thread Waiter([&] {
    auto Lease = Pool.lend([&](const std::string &Why) {
      Note = Why;
      Noted = true;
    });
    ASSERT_TRUE(bool(Lease)) << llvm::toString(Lease.takeError());
    Ordinal = Lease->device().Ordinal;
    Got = true;
  });
  while (!Noted)
    std::this_thread::yield();
  EXPECT_FALSE(Got);
  OnZero.reset();
  Waiter.join();
  EXPECT_EQ(Ordinal, 0);
  EXPECT_EQ(Note.rfind("waiting for a GPU: other kopt processes are optimizing on all 2 (locks " +
                           memory::GpuLock::pathFor(Two[0].Uuid),
                       0),
            0u)
      << Note;
}

TEST_F(GpuPoolTest, OneGpuWaitsWithTheNoteOfOne) {
  std::vector<evaluator::DeviceInfo> One = {Host[2]};
  std::optional<LockHolder> Held(std::in_place, memory::GpuLock::pathFor(One[0].Uuid));
  GpuPool Pool(One, counting());
  std::string Note;
  std::atomic<bool> Noted = false;
  std::thread Waiter([&] {
    auto Lease = Pool.lend([&](const std::string &Why) {
      Note = Why;
      Noted = true;
    });
    EXPECT_TRUE(bool(Lease));
    if (!Lease)
      llvm::consumeError(Lease.takeError());
  });
  while (!Noted)
    std::this_thread::yield();
  Held.reset();
  Waiter.join();
  EXPECT_EQ(Note, "waiting for the GPU: another kopt process is optimizing on it (lock " +
                      memory::GpuLock::pathFor(One[0].Uuid) + ")");
}

TEST_F(GpuPoolTest, AGpuWhoseEvaluatorRunsComesFirstAndStartsOnce) {
  GpuPool Pool(Host, counting());
  {
    LockHolder Other(memory::GpuLock::pathFor(Host[0].Uuid));
    auto Lease = Pool.lend();
    ASSERT_TRUE(bool(Lease));
    EXPECT_EQ(Lease->device().Ordinal, 1);
  }
  for (int Round = 0; Round < 3; ++Round) {
    auto Lease = Pool.lend();
    ASSERT_TRUE(bool(Lease));
    EXPECT_EQ(Lease->device().Ordinal, 1); // Warm, though GPU 0 is free again.
  }
  EXPECT_EQ(Starts[1], 1);
  EXPECT_EQ(Starts[0], 0);
}

TEST_F(GpuPoolTest, AnEvaluatorThatCannotStartIsTheLeasesError) {
  GpuPool Pool({Host[0]},
               [](const evaluator::DeviceInfo &)
                   -> llvm::Expected<std::unique_ptr<evaluator::VariantEvaluator>> {
                 return llvm::createStringError("cuInit: CUDA_ERROR_NO_DEVICE");
               });
  auto Lease = Pool.lend();
  ASSERT_FALSE(bool(Lease));
  EXPECT_EQ(llvm::toString(Lease.takeError()), "cuInit: CUDA_ERROR_NO_DEVICE");
  // The lock went with the failed lease.
  EXPECT_TRUE(llvm::cantFail(memory::FileLock::tryAcquire(memory::GpuLock::pathFor(Host[0].Uuid)))
                  .has_value());
}
