// Device-side input generation and comparison against their host definitions
// (InputGenerator.cpp, compareBuffers), and verification of a workload too
// large to copy to the host in reasonable time.
#include "evaluator/device/DeviceVerify.h"
#include "evaluator/Evaluator.h"
#include "evaluator/workload/InputGenerator.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

using namespace kopt::evaluator;

namespace {

constexpr ScalarType AllTypes[] = {
    ScalarType::Bool, ScalarType::I8,  ScalarType::U8,  ScalarType::I16, ScalarType::U16,
    ScalarType::I32,  ScalarType::U32, ScalarType::I64, ScalarType::U64, ScalarType::F16,
    ScalarType::BF16, ScalarType::F32, ScalarType::F64};

// A context, a stream and the session's kernels, as GpuSession sets them up.
class DeviceVerify : public ::testing::Test {
public: // For the helpers below.
  void SetUp() override {
    auto D = CudaDriver::load();
    ASSERT_TRUE(bool(D)) << llvm::toString(D.takeError());
    Driver = &*D;
    auto Devices = queryDevices(*Driver);
    ASSERT_TRUE(bool(Devices)) << llvm::toString(Devices.takeError());
    ASSERT_FALSE(Driver->DevicePrimaryCtxRetain(&Context, 0));
    ASSERT_FALSE(Driver->CtxSetCurrent(Context));
    ASSERT_FALSE(Driver->StreamCreate(&Stream, CU_STREAM_NON_BLOCKING));
    auto K = DeviceKernels::load(*Driver, Devices->front().smArch());
    ASSERT_TRUE(bool(K)) << llvm::toString(K.takeError());
    Kernels = *K;
    ASSERT_FALSE(Driver->MemAlloc(&Partials, CompareBlocks * sizeof(ComparePartial)));
  }
  void TearDown() override {
    for (CUdeviceptr P : Allocated)
      Driver->MemFree(P);
    if (Partials)
      Driver->MemFree(Partials);
    if (Kernels.Module)
      Driver->ModuleUnload(Kernels.Module);
    if (Stream)
      Driver->StreamDestroy(Stream);
    if (Context)
      Driver->DevicePrimaryCtxRelease(0);
  }

  DeviceContext context() { return DeviceContext{*Driver, Kernels, Stream, Partials}; }
  CUdeviceptr upload(const std::vector<uint8_t> &Bytes) {
    CUdeviceptr P = 0;
    EXPECT_FALSE(Driver->MemAlloc(&P, std::max<size_t>(Bytes.size(), 1)));
    Allocated.push_back(P);
    EXPECT_FALSE(Driver->MemcpyHtoD(P, Bytes.data(), Bytes.size()));
    return P;
  }
  std::vector<uint8_t> download(CUdeviceptr P, size_t Bytes) {
    std::vector<uint8_t> Out(Bytes);
    EXPECT_FALSE(Driver->StreamSynchronize(Stream));
    EXPECT_FALSE(Driver->MemcpyDtoH(Out.data(), P, Bytes));
    return Out;
  }

  CudaDriver *Driver = nullptr;
  CUcontext Context = nullptr;
  CUstream Stream = nullptr;
  DeviceKernels Kernels;
  CUdeviceptr Partials = 0;
  std::vector<CUdeviceptr> Allocated;
};

// B's stream (5, 1) drawn on the device equals the host's bytes; the
// comparison of an input buffer regenerates it as B says (equal), and the
// plain stream differs (B's range or offsets are used).
void expectDeviceDrawsAsTheHost(DeviceVerify &Fixture, const BufferArg &B, const std::string &What,
                                bool Local = false) {
  auto Host = generateBufferInput(B, 5, 1, Local);
  CUdeviceptr P = Fixture.upload(std::vector<uint8_t>(Host.size(), 0));
  uint64_t Key = inputStreamKey(5, 1);
  std::optional<LocalIndices> Layout;
  if (Local)
    Layout = LocalIndices{B.Count};
  ASSERT_FALSE(bool(
      generateOnDevice(Fixture.context(), P, B.Element, B.Count, Key, B.Range, B.Offsets, Layout)));
  auto Device = Fixture.download(P, Host.size());
  size_t Differ = 0;
  for (size_t I = 0; I < Host.size(); ++I)
    Differ += Host[I] != Device[I];
  EXPECT_EQ(Differ, 0u) << What;
  auto Same = compareOnDevice(Fixture.context(), P, 0, Key, B.Element, B.Count, Tolerance{0, 0},
                              true, B.Range, B.Offsets, Layout);
  ASSERT_TRUE(bool(Same)) << llvm::toString(Same.takeError());
  EXPECT_TRUE(Same->passed()) << What;
  auto Plain =
      compareOnDevice(Fixture.context(), P, 0, Key, B.Element, B.Count, Tolerance{0, 0}, true);
  ASSERT_TRUE(bool(Plain)) << llvm::toString(Plain.takeError());
  EXPECT_FALSE(Plain->passed()) << What;
}

TEST_F(DeviceVerify, RangedGeneratorMatchesTheHostBytewise) {
  // buffers(a[n] in range(LO, HI)): the device draws what the host draws, and
  // the comparison of an input buffer regenerates it in the same range.
  const uint64_t Count = 256 * 65536 + 77;
  const std::pair<ScalarType, ValueRange> Cases[] = {
      {ScalarType::F32, {0.5, 2.0}},   {ScalarType::F64, {-1e3, 1e-3}},
      {ScalarType::I32, {0, 1 << 21}}, {ScalarType::I64, {-7, 5}},
      {ScalarType::U8, {3, 200}},      {ScalarType::Bool, {1, 2}}};
  for (const auto &[T, Range] : Cases) {
    BufferArg B{T, Count, Direction::In};
    B.Range = Range;
    expectDeviceDrawsAsTheHost(*this, B,
                               spelling(T).str() + " in [" + std::to_string(Range.Lo) + ", " +
                                   std::to_string(Range.Hi) + ")");
  }
}

TEST_F(DeviceVerify, OffsetsGeneratorMatchesTheHostBytewise) {
  // CSR row offsets (Workload.h's OffsetsLayout): element i depends on i
  // itself, so the comparison's regeneration must use the element's index.
  const uint64_t Count = 256 * 65536 + 77;
  const std::pair<ScalarType, OffsetsLayout> Cases[] = {
      {ScalarType::I32, {11, 11}}, {ScalarType::I64, {1000, 3}}, {ScalarType::U32, {7, 0}}};
  for (const auto &[T, Layout] : Cases) {
    BufferArg B{T, Count, Direction::In};
    B.Offsets = Layout;
    expectDeviceDrawsAsTheHost(*this, B,
                               spelling(T).str() + " offsets " + std::to_string(Layout.Mean) +
                                   " +- " + std::to_string(Layout.Jitter));
  }
}

TEST_F(DeviceVerify, LocalIndicesGeneratorMatchesTheHostBytewise) {
  // The local-indices run's index buffers (InputGenerator.h's
  // localIndexElement): ranges narrower and wider than the buffer.
  const uint64_t Count = 256 * 65536 + 77;
  const std::pair<ScalarType, ValueRange> Cases[] = {{ScalarType::I32, {0, Count / 13}},
                                                     {ScalarType::U32, {7, 7 + 3 * Count}},
                                                     {ScalarType::I64, {0, 1e12}}};
  for (const auto &[T, Range] : Cases) {
    BufferArg B{T, Count, Direction::In};
    B.Range = Range;
    expectDeviceDrawsAsTheHost(*this, B,
                               spelling(T).str() + " local in [" + std::to_string(Range.Lo) + ", " +
                                   std::to_string(Range.Hi) + ")",
                               /*Local=*/true);
  }
}

TEST_F(DeviceVerify, GeneratorMatchesTheHostBytewise) {
  // An odd count and more elements than one grid pass: the stride loop and the tail.
  const uint64_t Count = 256 * 65536 + 77;
  for (ScalarType T : AllTypes) {
    for (auto [Seed, Buffer] : {std::pair{1u, 0u}, std::pair{3u, 2u}}) {
      auto Host = generateBufferInput({T, Count, Direction::In}, Seed, Buffer);
      CUdeviceptr P = upload(std::vector<uint8_t>(Host.size(), 0));
      ASSERT_FALSE(bool(generateOnDevice(context(), P, T, Count, inputStreamKey(Seed, Buffer))));
      auto Device = download(P, Host.size());
      size_t Differ = 0, FirstDiff = 0;
      for (size_t I = 0; I < Host.size(); ++I)
        if (Host[I] != Device[I] && Differ++ == 0)
          FirstDiff = I;
      EXPECT_EQ(Differ, 0u) << spelling(T).str() << " seed " << Seed << ": byte " << FirstDiff;
      // The generator as expectation: a buffer equal to it passes bytewise.
      auto C = compareOnDevice(context(), P, 0, inputStreamKey(Seed, Buffer), T, Count,
                               Tolerance{0, 0}, true);
      ASSERT_TRUE(bool(C)) << llvm::toString(C.takeError());
      EXPECT_TRUE(C->passed()) << spelling(T).str();
    }
  }
}

template <typename T> std::vector<uint8_t> bytesOf(const std::vector<T> &V) {
  std::vector<uint8_t> B(V.size() * sizeof(T));
  std::memcpy(B.data(), V.data(), B.size());
  return B;
}

// The device's count, first and worst against compareBuffers on the same bytes.
void expectSameAsHost(DeviceVerify &Test, ScalarType T, const std::vector<uint8_t> &Got,
                      const std::vector<uint8_t> &Ref, const Tolerance &Tol, const char *What) {
  uint64_t Count = Got.size() / sizeOf(T);
  BufferComparison Host = compareBuffers(T, Got.data(), Ref.data(), Count, Tol);
  auto Device =
      compareOnDevice(Test.context(), Test.upload(Got), Test.upload(Ref), 0, T, Count, Tol, false);
  ASSERT_TRUE(bool(Device)) << llvm::toString(Device.takeError());
  EXPECT_EQ(Device->Mismatches, Host.Mismatches) << What;
  ASSERT_EQ(bool(Device->First), bool(Host.First)) << What;
  ASSERT_EQ(bool(Device->Worst), bool(Host.Worst)) << What;
  if (Host.First) {
    EXPECT_EQ(Device->First->Index, Host.First->Index) << What;
    EXPECT_EQ(Device->Worst->Index, Host.Worst->Index) << What;
    EXPECT_EQ(describeMismatch(*Device->Worst), describeMismatch(*Host.Worst)) << What;
    EXPECT_EQ(Device->Worst->Ratio, Host.Worst->Ratio) << What;
  }
}

TEST_F(DeviceVerify, ComparisonMatchesCompareBuffers) {
  const size_t N = 3'000'001; // Several elements per thread, blocks with and without mismatches.
  const float Nan = std::numeric_limits<float>::quiet_NaN(), Inf = INFINITY;
  std::vector<float> Ref(N), Got(N);
  for (size_t I = 0; I < N; ++I)
    Ref[I] = Got[I] = std::sin(static_cast<float>(I));
  Tolerance Tol{1e-4, 1e-5};
  expectSameAsHost(*this, ScalarType::F32, bytesOf(Got), bytesOf(Ref), Tol, "identical f32");
  Got[10] += 1e-7f;        // Within tolerance.
  Got[2'000'000] += 0.5f;  // A mismatch.
  Got[2'500'000] += 0.01f; // A smaller one, after it.
  Got[123] += 2e-4f;       // The first.
  expectSameAsHost(*this, ScalarType::F32, bytesOf(Got), bytesOf(Ref), Tol, "planted f32");
  Ref[500] = Got[500] = Nan;  // NaN where the reference has NaN: passes.
  Ref[600] = Got[600] = -Inf; // The same infinity: passes.
  Got[700] = Nan;             // NaN where a number is expected.
  Ref[800] = Inf;             // A number where infinity is expected...
  Got[900] = Inf;             // ...and the reverse: all infinitely wrong, first of them worst.
  expectSameAsHost(*this, ScalarType::F32, bytesOf(Got), bytesOf(Ref), Tol, "NaN and Inf");

  std::vector<double> RefD(N, 1.0), GotD(N, 1.0);
  GotD[N - 1] = 1.5;
  GotD[77] = 1.0 + 1e-3;
  expectSameAsHost(*this, ScalarType::F64, bytesOf(GotD), bytesOf(RefD), Tol, "f64");

  std::vector<uint16_t> RefH(N, 0x3c00), GotH(N, 0x3c00); // f16 1.0
  GotH[4096] = 0x3c01;                                    // 1 + 2^-10: beyond rtol 1e-4.
  GotH[9999] = 0x7e00;                                    // NaN.
  expectSameAsHost(*this, ScalarType::F16, bytesOf(GotH), bytesOf(RefH), Tol, "f16");
  expectSameAsHost(*this, ScalarType::BF16, bytesOf(GotH), bytesOf(RefH), Tol, "bf16");

  std::vector<int32_t> RefI(N, 7), GotI(N, 7);
  GotI[31] = 8; // Integers: exact, whatever the tolerance.
  GotI[N / 2] = -7;
  expectSameAsHost(*this, ScalarType::I32, bytesOf(GotI), bytesOf(RefI), Tolerance{0.5, 10}, "i32");
  std::vector<uint8_t> RefB(N, 1), GotB(N, 1);
  GotB[5] = 2; // Another byte for true: still a mismatch, as on the host.
  expectSameAsHost(*this, ScalarType::Bool, GotB, RefB, Tol, "bool");
  std::vector<int64_t> RefL(N, 1ll << 40), GotL(N, 1ll << 40);
  GotL[N - 2] += 1;
  expectSameAsHost(*this, ScalarType::I64, bytesOf(GotL), bytesOf(RefL), Tol, "i64");
}

TEST_F(DeviceVerify, BytewiseFindsChangedInputs) {
  const uint64_t Count = 100'000;
  auto Host = generateBufferInput({ScalarType::F32, Count, Direction::In}, 2, 1);
  float Zero = -0.0f; // Equal in value to +0 but not in bytes: an input must keep its bytes.
  std::memcpy(&Host[4 * 99'999], &Zero, 4);
  std::memcpy(&Host[4 * 40'000], &Zero, 4);
  auto C = compareOnDevice(context(), upload(Host), 0, inputStreamKey(2, 1), ScalarType::F32, Count,
                           Tolerance{0, 0}, true);
  ASSERT_TRUE(bool(C)) << llvm::toString(C.takeError());
  EXPECT_EQ(C->Mismatches, 2u);
  ASSERT_TRUE(C->First && C->Worst);
  EXPECT_EQ(C->First->Index, 40'000u);
  EXPECT_EQ(C->Worst->Index, 40'000u);
}

KernelSource twice(const char *Guard) {
  return KernelSource{std::string("extern \"C\" __global__ void twice(long long n, const float "
                                  "*x, float *y) {\n  long long i = (long long)blockIdx.x * "
                                  "blockDim.x + threadIdx.x;\n  if (") +
                          Guard + ")\n    y[i] = 2.0f * x[i];\n}\n",
                      "twice",
                      "twice",
                      {}};
}

Workload twiceWorkload(uint64_t N) {
  Workload W;
  W.Args = {{"n", ScalarArg{ScalarType::I64, static_cast<double>(N)}},
            {"x", BufferArg{ScalarType::F32, N, Direction::In}},
            {"y", BufferArg{ScalarType::F32, N, Direction::Out}}};
  W.Launch.Grid = {static_cast<uint32_t>((N + 255) / 256), 1, 1};
  W.Launch.Block = {256, 1, 1};
  return W;
}

uint64_t deviceMemory() {
  auto D = CudaDriver::load();
  if (!D)
    return 0;
  auto Devices = queryDevices(*D);
  return Devices ? Devices->front().TotalMemoryBytes : 0;
}

// Sets the original, verifies an identical variant and a variant that skips
// the last element, printing the seconds each takes.
void verifyTwice(uint64_t N) {
  EvaluatorOptions Options;
  Options.Profile = false; // CUPTI's replay saves and restores every buffer: minutes here.
  auto E = Evaluator::start(Options);
  ASSERT_TRUE(bool(E)) << llvm::toString(E.takeError());
  Workload W = twiceWorkload(N);
  auto Begin = std::chrono::steady_clock::now();
  auto Seconds = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - Begin).count();
  };
  auto B = (*E)->setOriginal(twice("i < n"), W);
  ASSERT_TRUE(bool(B)) << llvm::toString(B.takeError());
  std::printf("%llu floats: original set (3 reference runs, timing) in %.2f s\n",
              static_cast<unsigned long long>(N), Seconds());
  Begin = std::chrono::steady_clock::now();
  auto Same = (*E)->evaluate(twice("i < n"), W.Launch);
  ASSERT_TRUE(bool(Same)) << llvm::toString(Same.takeError());
  std::printf("%llu floats: identical variant verified (3 input sets) and timed in %.2f s\n",
              static_cast<unsigned long long>(N), Seconds());
  EXPECT_TRUE(Same->Result == Verdict::NotFaster || Same->Result == Verdict::Faster)
      << Same->Detail;
  EXPECT_EQ(Same->SeedsVerified, 3u);
  Begin = std::chrono::steady_clock::now();
  auto Short = (*E)->evaluate(twice("i < n - 1"), W.Launch);
  ASSERT_TRUE(bool(Short)) << llvm::toString(Short.takeError());
  std::printf("%llu floats: wrong variant rejected in %.2f s: %s\n",
              static_cast<unsigned long long>(N), Seconds(), Short->Detail.c_str());
  EXPECT_EQ(Short->Result, Verdict::Wrong);
  // The element left poisoned: a NaN (all bits set, so printed "-nan").
  EXPECT_NE(Short->Detail.find("element " + std::to_string(N - 1) + " is -nan"), std::string::npos)
      << Short->Detail;
  EXPECT_NE(Short->Detail.find("1 of " + std::to_string(N) + " elements differ"), std::string::npos)
      << Short->Detail;
}

// y = 2 * x over 1.6G floats (6.4 GB per buffer): KernelBench's largest
// shapes. Verification must stay on the device to finish in seconds.
TEST(DeviceVerifyLarge, SixGigabyteBuffersVerify) {
  if (deviceMemory() < 48ull << 30)
    GTEST_SKIP() << "needs 48 GiB of device memory";
  verifyTwice(1'600'000'000ull);
}

// Buffers of 22% of the device each (more than 2^32 elements on an H100):
// two reference sets fit, not three, so the worker drops the oldest and
// re-runs the original when a dropped input set comes back.
TEST(DeviceVerifyLarge, ReferenceSetsBeyondDeviceMemoryAreRecomputed) {
  uint64_t Bytes = deviceMemory();
  if (Bytes < 48ull << 30)
    GTEST_SKIP() << "needs 48 GiB of device memory";
  verifyTwice(Bytes / 4 * 2 / 9);
}

} // namespace
