// Drives kopt's recorder (recorder/LaunchRecorder.h) without a GPU: a fake
// device holds two buffers in host memory and a "kernel"
// lu_update(float *a, const float *pivots, int n, int k) whose launches shrink
// with k, each repeated, from one or several threads. Lit tests read what it
// writes with `kopt record --show`.
//
// kopt-recording-write DIR [--distinct N] [--repeat R] [--elements E]
//     [--max-bytes B] [--launches L] [--threads T] [--kernels NAMES]
//     [--launch-ms MS]   (each launch takes MS milliseconds)
// kopt-recording-write --raw FILE --version V   (a header of another version)
#include "recorder/LaunchRecorder.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

using namespace kopt::recorder;

namespace {

constexpr uint64_t ABase = 0x7f0000000000, PivotBase = 0x7f0100000000;

class FakeDevice final : public DeviceAccess {
public:
  explicit FakeDevice(size_t Elements) : A(Elements, 1.0f), Pivots(Elements, 4.0f) {}
  std::vector<float> A, Pivots;

  bool paramLayout(void *, std::vector<ParamLayout> &Params) override {
    Params = {{0, 8}, {8, 8}, {16, 4}, {20, 4}};
    return true;
  }
  bool allocationOf(uint64_t Address, uint64_t &Base, uint64_t &Bytes) override {
    for (uint64_t B : {ABase, PivotBase})
      if (Address >= B && Address < B + A.size() * 4) {
        Base = B;
        Bytes = A.size() * 4;
        return true;
      }
    return false;
  }
  bool isCapturing(void *) override { return false; }
  std::string synchronize() override { return {}; }
  std::string copyToHost(uint64_t Address, uint64_t Bytes, uint8_t *Out) override {
    const float *Src = Address >= PivotBase ? Pivots.data() : A.data();
    std::memcpy(Out, reinterpret_cast<const uint8_t *>(Src) + (Address & 0xffffffff), Bytes);
    return {};
  }
};

uint64_t number(const char *Text) { return std::strtoull(Text, nullptr, 10); }

} // namespace

int main(int Argc, char **Argv) {
  if (Argc >= 5 && std::string(Argv[1]) == "--raw") {
    RecordingWriter W;
    std::string E = W.open(Argv[2], {"_Z1kv", {}}, uint32_t(number(Argv[4])));
    if (!E.empty())
      std::fprintf(stderr, "%s\n", E.c_str());
    return E.empty() ? 0 : 1;
  }
  if (Argc < 2) {
    std::fprintf(stderr, "usage: kopt-recording-write DIR [options]\n");
    return 2;
  }
  RecorderConfig Config;
  Config.Dir = Argv[1];
  Config.Kernels = {"lu_update"};
  uint64_t Distinct = 4, Repeat = 3, Elements = 256, Threads = 1, LaunchMs = 0;
  for (int I = 2; I + 1 < Argc; I += 2) {
    std::string Flag = Argv[I];
    const char *V = Argv[I + 1];
    if (Flag == "--distinct")
      Distinct = number(V);
    else if (Flag == "--repeat")
      Repeat = number(V);
    else if (Flag == "--elements")
      Elements = number(V);
    else if (Flag == "--max-bytes")
      Config.MaxBytes = number(V);
    else if (Flag == "--launches")
      Config.MaxDistinct = uint32_t(number(V));
    else if (Flag == "--threads")
      Threads = number(V);
    else if (Flag == "--kernels")
      Config.Kernels = {V};
    else if (Flag == "--launch-ms")
      LaunchMs = number(V);
    else {
      std::fprintf(stderr, "unknown option %s\n", Flag.c_str());
      return 2;
    }
  }
  FakeDevice Device(Elements);
  LaunchRecorder Recorder(Config, Device);
  auto Run = [&] {
    int N = int(Elements);
    for (uint64_t K = 0; K < Distinct; ++K)
      for (uint64_t R = 0; R < Repeat; ++R) {
        uint64_t APtr = ABase + 4 * K, PivotPtr = PivotBase; // a points at row k.
        int Kv = int(K);
        void *Params[] = {&APtr, &PivotPtr, &N, &Kv};
        LaunchCall Call;
        Call.Function = &Device;
        Call.Symbol = "_Z9lu_updatePfPKfii";
        Call.Grid = {uint32_t(Distinct - K), 1, 1};
        Call.Block = {128, 1, 1};
        Call.KernelParams = Params;
        if (Recorder.enter(Call)) {
          Device.A[K] += 1; // The kernel's effect, inside the launch.
          std::this_thread::sleep_for(std::chrono::milliseconds(LaunchMs));
          Recorder.exit(true);
        }
      }
  };
  std::vector<std::thread> Workers;
  for (uint64_t T = 0; T < Threads; ++T)
    Workers.emplace_back(Run);
  for (std::thread &T : Workers)
    T.join();
  return Recorder.disabled() ? 1 : 0;
}
