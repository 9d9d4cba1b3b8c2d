// The host halves of device-side verification: the counter-based input
// generator (the definition the device kernel must reproduce), the reduction
// of the comparison kernel's per-block results, and the verdict's wording.
#include "evaluator/device/DeviceKernels.h"
#include "evaluator/device/DeviceVerify.h"
#include "evaluator/device/RunComparison.h"
#include "evaluator/workload/InputGenerator.h"
#include "evaluator/workload/OutputComparison.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <set>

using namespace kopt::evaluator;

namespace {
constexpr ScalarType AllTypes[] = {
    ScalarType::Bool, ScalarType::I8,  ScalarType::U8,  ScalarType::I16, ScalarType::U16,
    ScalarType::I32,  ScalarType::U32, ScalarType::I64, ScalarType::U64, ScalarType::F16,
    ScalarType::BF16, ScalarType::F32, ScalarType::F64};

std::vector<double> values(ScalarType T, uint64_t Count, uint64_t Seed, unsigned Buffer) {
  auto Bytes = generateBufferInput({T, Count, Direction::In}, Seed, Buffer);
  std::vector<double> V(Count);
  for (uint64_t I = 0; I < Count; ++I)
    V[I] = loadAsDouble(T, Bytes.data() + I * sizeOf(T));
  return V;
}
} // namespace

TEST(CounterInputGenerator, DistributionsPerType) {
  constexpr uint64_t N = 20000;
  for (ScalarType T : AllTypes) {
    std::vector<double> V = values(T, N, 5, 1);
    double Sum = 0, Min = 1e9, Max = -1e9;
    std::set<double> Distinct;
    for (double X : V) {
      Sum += X;
      Min = std::min(Min, X);
      Max = std::max(Max, X);
      Distinct.insert(X);
    }
    double Mean = Sum / N;
    if (isFloating(T)) {
      EXPECT_GE(Min, -1.0) << spelling(T).str();
      EXPECT_LT(Max, 1.0) << spelling(T).str();
      EXPECT_LT(Min, -0.95) << spelling(T).str(); // Spread over the whole range.
      EXPECT_GT(Max, 0.95) << spelling(T).str();
      EXPECT_NEAR(Mean, 0.0, 0.03) << spelling(T).str();
      EXPECT_GT(Distinct.size(), T == ScalarType::BF16 ? 200u : 1000u) << spelling(T).str();
    } else if (T == ScalarType::Bool) {
      EXPECT_EQ(Distinct, (std::set<double>{0.0, 1.0}));
      EXPECT_NEAR(Mean, 0.5, 0.03);
    } else {
      EXPECT_EQ(Min, 0.0) << spelling(T).str();
      EXPECT_EQ(Max, 15.0) << spelling(T).str();
      EXPECT_EQ(Distinct.size(), 16u) << spelling(T).str();
      EXPECT_NEAR(Mean, 7.5, 0.2) << spelling(T).str();
    }
  }
}

TEST(CounterInputGenerator, FloatsLieOnTheirExactGrid) {
  // Values the type holds exactly: no conversion on the device can round differently.
  auto F32 = values(ScalarType::F32, 5000, 9, 0);
  for (double X : F32)
    EXPECT_EQ(std::ldexp(X + 1.0, 23), std::floor(std::ldexp(X + 1.0, 23))) << X;
  auto F16 = values(ScalarType::F16, 5000, 9, 0);
  for (double X : F16)
    EXPECT_EQ(std::ldexp(X + 1.0, 10), std::floor(std::ldexp(X + 1.0, 10))) << X;
}

TEST(CounterInputGenerator, DeterministicAndIndependent) {
  BufferArg B{ScalarType::F32, 4096, Direction::In};
  auto A = generateBufferInput(B, 1, 0);
  EXPECT_EQ(A, generateBufferInput(B, 1, 0));
  // Another seed, another buffer, or seed and buffer swapped: other streams.
  for (auto [Seed, Buffer] : {std::pair{2u, 0u}, std::pair{1u, 1u}, std::pair{0u, 1u}}) {
    auto Other = generateBufferInput(B, Seed, Buffer);
    size_t Same = 0;
    for (size_t I = 0; I < B.Count; ++I)
      Same += std::memcmp(&A[4 * I], &Other[4 * I], 4) == 0;
    EXPECT_LT(Same, 8u) << Seed << "/" << Buffer;
  }
  // Neighbouring seeds are not shifted copies of each other (a counter
  // that only added seed and index would be).
  auto S2 = generateBufferInput(B, 2, 0);
  size_t Shifted = 0;
  for (size_t I = 0; I + 1 < B.Count; ++I)
    Shifted += std::memcmp(&A[4 * (I + 1)], &S2[4 * I], 4) == 0;
  EXPECT_LT(Shifted, 8u);
  // Adjacent elements are uncorrelated.
  auto V = values(ScalarType::F64, 20000, 3, 2);
  double Corr = 0;
  for (size_t I = 0; I + 1 < V.size(); ++I)
    Corr += V[I] * V[I + 1];
  EXPECT_NEAR(Corr / V.size() * 3, 0.0, 0.05); // Var of U(-1,1) is 1/3.
}

TEST(CounterInputGenerator, ElementsAreCounterBased) {
  // Any element on its own equals the buffer's: what lets the device generate in parallel.
  for (ScalarType T : AllTypes) {
    BufferArg B{T, 300, Direction::In};
    auto All = generateBufferInput(B, 42, 3);
    uint64_t Key = inputStreamKey(42, 3);
    for (uint64_t I : {0ull, 1ull, 150ull, 299ull}) {
      uint8_t One[8] = {};
      generateElement(T, Key, I, One);
      EXPECT_EQ(std::memcmp(One, &All[I * sizeOf(T)], sizeOf(T)), 0) << spelling(T).str() << I;
    }
  }
}

TEST(CounterInputGenerator, KnownValues) {
  // Pins the definition the device kernel (DeviceKernels.cpp) reproduces.
  EXPECT_EQ(mixBits(0), 0u);
  EXPECT_EQ(inputElementBits(0, 0), 0xE220A8397B1DCDAFull); // splitmix64(0)'s first output.
  uint8_t B[4];
  generateElement(ScalarType::I32, 0, 0, B);
  int32_t I;
  std::memcpy(&I, B, 4);
  EXPECT_EQ(I, 0xE);
}

TEST(CounterInputGenerator, HostThroughput) {
  // Measured, not asserted: the host generator is the definition and the unit
  // tests' source; the evaluator generates on the device.
  BufferArg B{ScalarType::F32, 1 << 24, Direction::In};
  auto Begin = std::chrono::steady_clock::now();
  auto Bytes = generateBufferInput(B, 1, 0);
  double S = std::chrono::duration<double>(std::chrono::steady_clock::now() - Begin).count();
  std::printf("host generator: %.0f M f32 elements/s (%.2f GB/s)\n", B.Count / S / 1e6,
              Bytes.size() / S / 1e9);
  EXPECT_EQ(Bytes.size(), B.Count * 4);
}

TEST(DeviceVerify, ReducePartialsAcrossBlocks) {
  std::vector<ComparePartial> P(4); // Default: no mismatch in the block.
  EXPECT_EQ(reducePartials(P).Mismatches, 0u);
  EXPECT_FALSE(reducePartials(P).First);
  EXPECT_FALSE(reducePartials(P).Worst);
  P[1] = {3, 70, 2.5, 90};
  P[2] = {2, 12, 7.0, 500};
  P[3] = {1, 40, 7.0, 40}; // Same worst ratio, smaller index: compareBuffers keeps the first.
  ReducedPartials R = reducePartials(P);
  EXPECT_EQ(R.Mismatches, 6u);
  EXPECT_EQ(R.First, 12u);
  EXPECT_EQ(R.Worst, 40u);
  EXPECT_EQ(R.WorstRatio, 7.0);
  P[0] = {1, 5, INFINITY, 5}; // Class mismatches (NaN, infinity, integers) are the worst.
  R = reducePartials(P);
  EXPECT_EQ(R.First, 5u);
  EXPECT_EQ(R.Worst, 5u);
  EXPECT_TRUE(std::isinf(R.WorstRatio));
}

namespace {
Workload twoBuffers() {
  Workload W;
  W.Args = {{"n", ScalarArg{ScalarType::I32, 4}},
            {"x", BufferArg{ScalarType::F32, 4, Direction::In}},
            {"y", BufferArg{ScalarType::F32, 4, Direction::Out}}};
  return W;
}
} // namespace

TEST(RunComparison, VerdictTextsFromBufferComparisons) {
  Workload W = twoBuffers();
  RunResult Clean;
  Clean.Buffers.resize(2);
  BufferComparison Bad;
  Bad.Mismatches = 2;
  Bad.First = ElementMismatch{1, 2.5, 2.0, 5.0};
  Bad.Worst = ElementMismatch{3, 9.0, 1.0, 80.0};
  std::vector<size_t> Asked;
  auto V = compareRuns(W, Clean, [&](size_t I, const BufferArg &, const Tolerance &Tol) {
    Asked.push_back(I);
    if (I == 0) {
      EXPECT_EQ(Tol.Rtol + Tol.Atol, 0.0); // Inputs: exact.
    }
    return llvm::Expected<BufferComparison>(I == 1 ? Bad : BufferComparison());
  });
  ASSERT_TRUE(bool(V)) << llvm::toString(V.takeError());
  EXPECT_FALSE(V->Passed);
  EXPECT_EQ(Asked, (std::vector<size_t>{0, 1}));
  EXPECT_EQ(V->Buffer, "y");
  EXPECT_EQ(V->Mismatches, 2u);
  ASSERT_TRUE(V->First && V->Worst);
  EXPECT_EQ(V->First->Index, 1u);
  EXPECT_NE(V->Failure.find("buffer 'y': 2 of 4 elements differ; worst element 3 is 9.000000e+00"),
            std::string::npos)
      << V->Failure;
  EXPECT_NE(V->Failure.find("; first element 1 is 2.500000e+00, expected 2.000000e+00"),
            std::string::npos)
      << V->Failure;

  auto Changed = compareRuns(W, Clean, [&](size_t I, const BufferArg &, const Tolerance &) {
    return llvm::Expected<BufferComparison>(I == 0 ? Bad : BufferComparison());
  });
  ASSERT_TRUE(bool(Changed));
  EXPECT_NE(Changed->Failure.find("changed input buffer 'x'"), std::string::npos);

  RunResult Smashed = Clean;
  Smashed.Buffers[1].DamagedAfter = 0;
  auto Oob = compareRuns(W, Smashed, [&](size_t, const BufferArg &, const Tolerance &) {
    return llvm::Expected<BufferComparison>(BufferComparison());
  });
  ASSERT_TRUE(bool(Oob));
  EXPECT_EQ(Oob->Failure, "wrote out of bounds: byte 0 past the end of buffer 'y'");

  auto Failed = compareRuns(W, Clean, [&](size_t, const BufferArg &, const Tolerance &) {
    return llvm::Expected<BufferComparison>(llvm::createStringError("device lost"));
  });
  EXPECT_FALSE(bool(Failed));
  llvm::consumeError(Failed.takeError());
}

// A chain's final state is compared within its launches times the tolerance
// of one (chainTolerance); inputs stay exact; one launch keeps the pragma's.
TEST(RunComparison, ChainsScaleTheToleranceOfWrittenBuffers) {
  Workload W = twoBuffers();
  W.Tol = Tolerance{1e-4, 1e-5};
  std::vector<Tolerance> Seen;
  auto Record = [&](size_t, const BufferArg &, const Tolerance &Tol) {
    Seen.push_back(Tol);
    return llvm::Expected<BufferComparison>(BufferComparison());
  };
  RunResult Chained;
  Chained.Buffers.resize(2);
  Chained.Launches = 20;
  ASSERT_TRUE(bool(compareRuns(W, Chained, Record)));
  ASSERT_EQ(Seen.size(), 2u);
  EXPECT_EQ(Seen[0].Rtol + Seen[0].Atol, 0.0);
  EXPECT_DOUBLE_EQ(Seen[1].Rtol, 2e-3);
  EXPECT_DOUBLE_EQ(Seen[1].Atol, 2e-4);
  Seen.clear();
  Chained.Launches = 1;
  ASSERT_TRUE(bool(compareRuns(W, Chained, Record)));
  EXPECT_DOUBLE_EQ(Seen[1].Rtol, 1e-4);
  EXPECT_DOUBLE_EQ(chainTolerance({1e-4, 1e-5}, 0).Rtol, 1e-4);
}

TEST(DeviceKernels, SourceCompilesWithNvrtc) {
  // The device half of this file's definitions: it must at least compile
  // (running it needs a GPU: test/gpu/DeviceVerifyTest.cpp).
  auto K = compileDeviceKernels("sm_90");
  ASSERT_TRUE(bool(K)) << llvm::toString(K.takeError());
  EXPECT_EQ(K->Compiler, "nvrtc") << K->Log;
  EXPECT_NE(K->Cubin.find("kopt_compare"), std::string::npos);
  EXPECT_NE(K->Cubin.find("kopt_generate"), std::string::npos);
}
