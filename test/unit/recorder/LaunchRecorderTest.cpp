// The recorder between the driver's launch callbacks, with a device made of
// host memory: what a launch leaves in the recording when the contents'
// buffers are reused from launch to launch (a reused buffer must never carry
// an earlier launch's bytes into a later record), and that every pinned
// buffer is unpinned before it is freed.
#include "recorder/LaunchRecorder.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>

#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <set>
#include <thread>

namespace {

using namespace kopt::recorder;

// Allocations are host vectors at fake device addresses; a "launch" is
// whatever the test does to them between enter and exit.
class HostDevice final : public DeviceAccess {
public:
  std::map<uint64_t, std::vector<uint8_t>> Memory; // Base -> contents.
  std::set<uint8_t *> PinnedNow;
  size_t Pins = 0;

  bool paramLayout(void *, std::vector<ParamLayout> &Params) override {
    Params = {{0, 8}, {8, 8}, {16, 4}}; // (float *in, float *out, int k)
    return true;
  }
  bool allocationOf(uint64_t Address, uint64_t &Base, uint64_t &Bytes) override {
    for (auto &[B, M] : Memory)
      if (Address >= B && Address < B + M.size()) {
        Base = B;
        Bytes = M.size();
        return true;
      }
    return false;
  }
  bool isCapturing(void *) override { return false; }
  std::string synchronize() override { return {}; }
  std::string copyToHost(uint64_t Address, uint64_t Bytes, uint8_t *Out) override {
    std::copy_n(Memory.at(Address).begin(), Bytes, Out);
    return {};
  }
  bool pinHost(uint8_t *Data, uint64_t) override {
    ++Pins;
    return PinnedNow.insert(Data).second;
  }
  void unpinHost(uint8_t *Data) override { PinnedNow.erase(Data); }
};

struct Launcher {
  LaunchRecorder &Recorder;
  uint64_t In, Out;
  int Function = 0;
  // One launch of k(in, out, K) that does Body to the device's memory.
  template <typename Fn> void launch(int K, Fn Body) {
    void *Args[3] = {&In, &Out, &K};
    LaunchCall Call;
    Call.Function = &Function;
    Call.Symbol = "_Z4stepPfS_i";
    Call.Grid = {uint32_t(64 - K), 1, 1};
    Call.KernelParams = Args;
    bool Exit = Recorder.enter(Call);
    Body();
    if (Exit)
      Recorder.exit(true);
  }
};

TEST(LaunchRecorder, ReusedBuffersRecordEachLaunchsOwnContents) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("kopt-recorder", Dir));
  HostDevice Device;
  const uint64_t In = 0x10000, Out = 0x900000, Bytes = 1 << 16;
  Device.Memory[In] = std::vector<uint8_t>(Bytes, 1);
  Device.Memory[Out] = std::vector<uint8_t>(Bytes, 0);
  RecorderConfig Config;
  Config.Dir = Dir.str().str();
  Config.Kernels = {"step"};
  Config.LogPath = Config.Dir + "/log";
  {
    LaunchRecorder Recorder(Config, Device);
    Launcher L{Recorder, In, Out};
    for (int K = 0; K < 4; ++K) // Each writes k + 10 over out; the third changes nothing.
      L.launch(K, [&] {
        if (K != 2)
          std::fill(Device.Memory[Out].begin(), Device.Memory[Out].end(), uint8_t(K + 10));
        Device.Memory[In][K] = uint8_t(100 + K); // Seen by the next launch's "before".
      });
    L.launch(1, [] {}); // A repeat: no contents.
    // in and out, before and after (the launches mark in too): made once, then reused.
    EXPECT_EQ(Device.Pins, 4u);
  }
  EXPECT_TRUE(Device.PinnedNow.empty()) << "a pinned buffer was freed while pinned";

  ReadResult R = readRecording(Config.Dir + "/" + recordingFileName("_Z4stepPfS_i"));
  ASSERT_EQ(R.Error, "");
  ASSERT_EQ(R.Value.Launches.size(), 4u);
  EXPECT_EQ(R.Value.TotalLaunches, 5u);
  for (int K = 0; K < 4; ++K) {
    const LaunchRecord &Launch = R.Value.Launches[size_t(K)].Launch;
    ASSERT_EQ(Launch.Allocations.size(), 2u);
    const AllocationRecord &A = Launch.Allocations[0], &B = Launch.Allocations[1];
    ASSERT_TRUE(A.Before && B.Before) << K;
    // The input as this launch found it: the earlier launches' marks, not its own.
    for (int J = 0; J < 4; ++J)
      EXPECT_EQ((*A.Before)[size_t(J)], J < K ? 100 + J : 1) << K << " " << J;
    EXPECT_EQ((*B.Before)[7], K == 0 ? 0 : K == 3 ? 11 : K + 9) << K;
    EXPECT_EQ(B.AfterUnchanged, K == 2) << K;
    if (K != 2) {
      ASSERT_TRUE(B.After) << K;
      EXPECT_EQ((*B.After)[Bytes - 1], K + 10) << K;
    }
  }
  EXPECT_FALSE(llvm::sys::fs::remove_directories(Dir));
}

// kcc shares a build budget by the GPU time a recording says the program
// spent in each kernel: a distinct launch's first occurrence is timed, with or
// without its contents, and a repeat counts at that time.
TEST(LaunchRecorder, TimesEachDistinctLaunchsFirstOccurrence) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("kopt-recorder", Dir));
  HostDevice Device;
  const uint64_t In = 0x10000, Out = 0x900000;
  Device.Memory[In] = std::vector<uint8_t>(4096, 1);
  Device.Memory[Out] = std::vector<uint8_t>(4096, 0);
  RecorderConfig Config;
  Config.Dir = Dir.str().str();
  Config.Kernels = {"step"};
  Config.LogPath = Config.Dir + "/log";
  Config.MaxBytes = 4 * 4096; // The second distinct launch's contents do not fit.
  {
    LaunchRecorder Recorder(Config, Device);
    Launcher L{Recorder, In, Out};
    auto Sleep = [](int Ms) { std::this_thread::sleep_for(std::chrono::milliseconds(Ms)); };
    L.launch(0, [&] { Sleep(40); });
    L.launch(1, [&] { Sleep(10); });
    for (int I = 0; I < 3; ++I)
      L.launch(0, [] {}); // Repeats: counted, not timed.
  }
  ReadResult R = readRecording(Config.Dir + "/" + recordingFileName("_Z4stepPfS_i"));
  ASSERT_EQ(R.Error, "");
  ASSERT_EQ(R.Value.Launches.size(), 2u);
  EXPECT_NE(R.Value.Launches[1].Launch.ContentsSkipped, "");
  ASSERT_TRUE(R.Value.Launches[0].Seconds && R.Value.Launches[1].Seconds);
  const double First = *R.Value.Launches[0].Seconds, Second = *R.Value.Launches[1].Seconds;
  EXPECT_GE(First, 0.040);
  EXPECT_GE(Second, 0.010);
  EXPECT_LT(Second, First);
  std::optional<double> Gpu = recordedGpuSeconds(R.Value);
  ASSERT_TRUE(Gpu);
  EXPECT_DOUBLE_EQ(*Gpu, 4 * First + Second);
  EXPECT_FALSE(llvm::sys::fs::remove_directories(Dir));
}

TEST(HostBufferPool, KeepsWhatWasInUseAndNoMore) {
  HostDevice Device;
  {
    HostBufferPool Pool(Device);
    std::vector<uint8_t> A = Pool.take(100), B = Pool.take(200);
    A[0] = 7;
    const uint8_t *Where = A.data();
    Pool.give(std::move(A));
    Pool.give(std::move(B));
    std::vector<uint8_t> Again = Pool.take(100);
    EXPECT_EQ(Again.data(), Where);
    EXPECT_EQ(Again.size(), 100u);
    EXPECT_EQ(Pool.made(), 2u);
    // A size it lacks: one buffer of another size goes, so the pool does not grow.
    std::vector<uint8_t> Bigger = Pool.take(300);
    EXPECT_EQ(Pool.made(), 3u);
    EXPECT_EQ(Pool.held(), 0u);
    EXPECT_EQ(Device.PinnedNow.size(), 2u);
    Pool.give(std::move(Again));
    Pool.give(std::move(Bigger));
  }
  EXPECT_TRUE(Device.PinnedNow.empty());
}

} // namespace
