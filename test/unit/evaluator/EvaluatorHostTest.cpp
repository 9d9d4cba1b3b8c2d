// The evaluator's host-side logic, without a GPU: element types, comparison
// of outputs, timing statistics and compiling units.
#include "evaluator/compile/KernelCompiler.h"
#include "evaluator/timing/TimingStatistics.h"
#include "evaluator/workload/InputGenerator.h"
#include "evaluator/workload/OutputComparison.h"
#include "evaluator/workload/ScalarType.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

using namespace kopt::evaluator;

TEST(ScalarType, FromClangTypeSpellings) {
  EXPECT_EQ(scalarTypeOfCType("const float *__restrict"), ScalarType::F32);
  EXPECT_EQ(scalarTypeOfCType("unsigned int"), ScalarType::U32);
  EXPECT_EQ(scalarTypeOfCType("double *"), ScalarType::F64);
  EXPECT_EQ(scalarTypeOfCType("const __half *"), ScalarType::F16);
  EXPECT_EQ(scalarTypeOfCType("long long"), ScalarType::I64);
  EXPECT_EQ(scalarTypeOfCType("size_t"), ScalarType::U64);
  EXPECT_FALSE(scalarTypeOfCType("struct Params"));
  EXPECT_TRUE(isPointerCType("float *"));
  EXPECT_FALSE(isPointerCType("float"));
}

TEST(ScalarType, HalfAndBfloatRoundTrip) {
  for (double V :
       {0.0, 1.0, -2.5, 0.333251953125, 65504.0, 6.103515625e-05, 5.960464477539063e-08}) {
    uint16_t H;
    storeFromDouble(ScalarType::F16, V, &H);
    EXPECT_EQ(loadAsDouble(ScalarType::F16, &H), V) << V;
  }
  uint16_t H;
  storeFromDouble(ScalarType::F16, 1e6, &H);
  EXPECT_TRUE(std::isinf(loadAsDouble(ScalarType::F16, &H)));
  uint16_t B;
  storeFromDouble(ScalarType::BF16, 1.5, &B);
  EXPECT_EQ(loadAsDouble(ScalarType::BF16, &B), 1.5);
}

TEST(InputGenerator, ReproducibleBySeedAndDistinctAcrossSeeds) {
  BufferArg B{ScalarType::F32, 1000, Direction::In};
  auto A1 = generateBufferInput(B, 1, 0), A2 = generateBufferInput(B, 1, 0),
       A3 = generateBufferInput(B, 2, 0), A4 = generateBufferInput(B, 1, 1);
  EXPECT_EQ(A1, A2);
  EXPECT_NE(A1, A3);
  EXPECT_NE(A1, A4);
  for (size_t I = 0; I < 1000; ++I) {
    float F;
    std::memcpy(&F, &A1[I * 4], 4);
    EXPECT_LE(std::fabs(F), 1.0f);
  }
  auto Ints = generateBufferInput({ScalarType::I32, 100, Direction::In}, 3, 0);
  for (size_t I = 0; I < 100; ++I) {
    int32_t V;
    std::memcpy(&V, &Ints[I * 4], 4);
    EXPECT_GE(V, 0);
    EXPECT_LT(V, 16);
  }
}

TEST(InputGenerator, LocalIndicesLieNearTheirPositionInTheRange) {
  // A CSR's columns: 13 entries a row over 5000 rows. Each lies within the
  // window of its row's position, inside the range, and they are not the
  // uniform draw (which spreads them over the whole range).
  BufferArg B{ScalarType::I32, 13 * 5000, Direction::In};
  B.Range = ValueRange{0, 5000};
  ASSERT_TRUE(drawsLocalIndices(B));
  auto Local = generateBufferInput(B, 7, 2, /*Local=*/true);
  auto Uniform = generateBufferInput(B, 7, 2);
  uint64_t FarUniform = 0, Wrapped = 0;
  for (uint64_t I = 0; I < B.Count; ++I) {
    int32_t V, U;
    std::memcpy(&V, &Local[I * 4], 4);
    std::memcpy(&U, &Uniform[I * 4], 4);
    ASSERT_GE(V, 0);
    ASSERT_LT(V, 5000);
    const int64_t Row = static_cast<int64_t>(I / 13);
    int64_t Distance = std::llabs(V - Row);
    if (Distance > 5000 / 2) { // The band wraps at the range's ends.
      Distance = 5000 - Distance;
      ++Wrapped;
    }
    EXPECT_LE(Distance, static_cast<int64_t>(LocalIndexWindow)) << I;
    FarUniform += std::llabs(U - Row) > static_cast<int64_t>(LocalIndexWindow);
  }
  EXPECT_GT(Wrapped, 0u);
  EXPECT_LT(Wrapped, B.Count / 10);
  EXPECT_GT(FarUniform, B.Count / 2);
  // A range smaller than the buffer and one larger: every value in the range.
  BufferArg Wide{ScalarType::I64, 3000, Direction::In};
  Wide.Range = ValueRange{100, 100 + (int64_t(1) << 40)};
  auto Spread = generateBufferInput(Wide, 1, 0, /*Local=*/true);
  int64_t Last;
  std::memcpy(&Last, &Spread[2999 * 8], 8);
  EXPECT_GT(Last, int64_t(1) << 39); // The last element near the range's end.
  for (uint64_t I = 0; I < Wide.Count; ++I) {
    int64_t V;
    std::memcpy(&V, &Spread[I * 8], 8);
    EXPECT_GE(V, 100);
    EXPECT_LT(V, 100 + (int64_t(1) << 40));
  }
}

TEST(InputGenerator, OnlyWideInputIndexRangesAreDrawnLocal) {
  auto Buffer = [](ScalarType T, Direction D, double Lo, double Hi) {
    BufferArg B{T, 4096, D};
    B.Range = ValueRange{Lo, Hi};
    return B;
  };
  EXPECT_TRUE(drawsLocalIndices(Buffer(ScalarType::U32, Direction::In, 0, 1024)));
  EXPECT_TRUE(drawsLocalIndices(Buffer(ScalarType::I64, Direction::In, 5, 1 << 20)));
  // Labels and bins: a small range is not an index space worth a band.
  EXPECT_FALSE(drawsLocalIndices(Buffer(ScalarType::I32, Direction::In, 0, 1023)));
  EXPECT_FALSE(drawsLocalIndices(Buffer(ScalarType::I32, Direction::In, -10, 5000)));
  EXPECT_FALSE(drawsLocalIndices(Buffer(ScalarType::F32, Direction::In, 0, 1 << 20)));
  EXPECT_FALSE(drawsLocalIndices(Buffer(ScalarType::I32, Direction::InOut, 0, 1 << 20)));
  EXPECT_FALSE(drawsLocalIndices({ScalarType::I32, 4096, Direction::In})); // No range.
  BufferArg Offsets = Buffer(ScalarType::I32, Direction::In, 4, 5000);
  Offsets.Offsets = OffsetsLayout{2500, 2496};
  EXPECT_FALSE(drawsLocalIndices(Offsets));
  // Buffers it does not pick are drawn as the seed draws them.
  BufferArg Small = Buffer(ScalarType::I32, Direction::In, 0, 100);
  EXPECT_EQ(generateBufferInput(Small, 3, 1, /*Local=*/true), generateBufferInput(Small, 3, 1));
}

namespace {
std::vector<uint8_t> floats(std::initializer_list<float> Values) {
  std::vector<uint8_t> Bytes(Values.size() * 4);
  size_t I = 0;
  for (float V : Values)
    std::memcpy(&Bytes[4 * I++], &V, 4);
  return Bytes;
}
} // namespace

TEST(OutputComparison, ToleranceAndWorstElement) {
  auto Ref = floats({1.0f, 2.0f, 3.0f, 4.0f});
  auto Got = floats({1.0f, 2.0f + 1e-6f, 3.5f, 4.1f});
  BufferComparison C = compareBuffers(ScalarType::F32, Got.data(), Ref.data(), 4, {1e-4, 1e-5});
  EXPECT_EQ(C.Mismatches, 2u);
  ASSERT_TRUE(C.First && C.Worst);
  EXPECT_EQ(C.First->Index, 2u);
  EXPECT_EQ(C.Worst->Index, 2u);
  EXPECT_NE(describeMismatch(*C.Worst).find("element 2 is 3.500000e+00, expected 3.000000e+00"),
            std::string::npos);
}

TEST(OutputComparison, NanPassesOnlyWhereTheReferenceHasNan) {
  float Nan = std::nanf("");
  auto Ref = floats({Nan, 1.0f, INFINITY});
  auto Same = floats({Nan, 1.0f, INFINITY});
  EXPECT_TRUE(compareBuffers(ScalarType::F32, Same.data(), Ref.data(), 3, {1e-4, 1e-5}).passed());
  auto NanWhereNumber = floats({Nan, Nan, INFINITY});
  EXPECT_EQ(
      compareBuffers(ScalarType::F32, NanWhereNumber.data(), Ref.data(), 3, {1, 1}).Mismatches, 1u);
  auto NumberWhereNan = floats({0.0f, 1.0f, INFINITY});
  EXPECT_FALSE(
      compareBuffers(ScalarType::F32, NumberWhereNan.data(), Ref.data(), 3, {1, 1}).passed());
  auto WrongInf = floats({Nan, 1.0f, -INFINITY});
  EXPECT_FALSE(compareBuffers(ScalarType::F32, WrongInf.data(), Ref.data(), 3, {1, 1}).passed());
}

TEST(OutputComparison, IntegersCompareExactly) {
  int32_t Ref[] = {1, 2, 3}, Got[] = {1, 2, 4};
  BufferComparison C = compareBuffers(ScalarType::I32, reinterpret_cast<uint8_t *>(Got),
                                      reinterpret_cast<uint8_t *>(Ref), 3, {0.5, 10});
  EXPECT_EQ(C.Mismatches, 1u);
  EXPECT_EQ(C.First->Index, 2u);
}

TEST(OutputComparison, DamagedGuardIsFound) {
  std::vector<uint8_t> Guard(64, GuardByte);
  EXPECT_FALSE(firstDamagedGuardByte(Guard.data(), Guard.size()));
  Guard[17] = 0;
  EXPECT_EQ(firstDamagedGuardByte(Guard.data(), Guard.size()), 17u);
}

TEST(TimingStatistics, SummaryAndNoise) {
  std::vector<double> S = {1.0, 1.1, 0.9, 1.0, 1.05, 0.95, 1.0, 1.0, 1.02, 0.98};
  TimingSummary T = summarize(S);
  EXPECT_EQ(T.Samples, 10u);
  EXPECT_DOUBLE_EQ(T.MedianMs, 1.0);
  EXPECT_LT(T.P20Ms, T.MedianMs);
  EXPECT_GT(T.P80Ms, T.MedianMs);
  EXPECT_GT(T.RelativeNoise, 0);
  EXPECT_LT(T.RelativeNoise, 0.05);
}

TEST(TimingStatistics, FasterOnlyWhenSignificant) {
  std::mt19937 Rng(7);
  std::normal_distribution<double> Noise(0, 0.02);
  std::vector<double> Base, Same, Quicker, Marginal;
  for (int I = 0; I < 30; ++I) {
    Base.push_back(1.0 + Noise(Rng));
    Same.push_back(1.0 + Noise(Rng));
    Quicker.push_back(0.8 + Noise(Rng));
    Marginal.push_back(0.995 + Noise(Rng));
  }
  EXPECT_TRUE(decideFaster(Base, Quicker).Faster);
  EXPECT_NEAR(decideFaster(Base, Quicker).Speedup, 1.25, 0.05);
  EXPECT_FALSE(decideFaster(Base, Same).Faster);
  EXPECT_FALSE(decideFaster(Base, Marginal).Faster); // Under the 2% minimum gain.
  EXPECT_GT(fasterPValue(Quicker, Base), 0.99);      // Slower, not faster.
  // Too few samples cannot be significant at 1%.
  EXPECT_FALSE(decideFaster({1.0, 1.0}, {0.5, 0.5}).Faster);
}

TEST(KernelCompiler, NvrtcCompilesAUnitForTheArchitecture) {
  KernelSource S{
      "template <typename T> __global__ void scale(T *p, T a) { p[threadIdx.x] *= a; }\n",
      "scale<float>",
      "",
      {"-DUNUSED=1"}};
  auto K = compileKernel(S, "sm_90");
  ASSERT_TRUE(bool(K)) << llvm::toString(K.takeError());
  EXPECT_EQ(K->Compiler, "nvrtc");
  EXPECT_EQ(K->LoweredName, "_Z5scaleIfEvPT_S0_");
  EXPECT_EQ(K->Cubin.substr(0, 4), "\x7f"
                                   "ELF");
}

TEST(KernelCompiler, NvccTakesOverWhereNvrtcCannot) {
  // NVRTC has no host C++ library; nvcc -cubin does.
  KernelSource S{
      "#include <vector>\nextern \"C\" __global__ void k(int *p) { p[0] = 1; }\n", "k", "k", {}};
  auto K = compileKernel(S, "sm_90");
  ASSERT_TRUE(bool(K)) << llvm::toString(K.takeError());
  EXPECT_EQ(K->Compiler, "nvcc");
  EXPECT_EQ(K->LoweredName, "k");
}

TEST(KernelCompiler, ErrorsCarryTheLog) {
  KernelSource S{"__global__ void k(int *p) { p[0] = undeclared; }\n", "k", "_Z1kPi", {}};
  auto K = compileKernel(S, "sm_90");
  ASSERT_FALSE(bool(K));
  std::string Message = llvm::toString(K.takeError());
  EXPECT_NE(Message.find("undeclared"), std::string::npos) << Message;
}
