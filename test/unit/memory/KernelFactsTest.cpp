// Facts and kernel kinds from features built by hand (the front end's own tests
// cover how features come from source; the corpus's kinds are a lit test).
#include "memory/experience/KernelFacts.h"

#include <gtest/gtest.h>

using namespace kopt::memory;
using kopt::frontend::AccessPattern;
using kopt::frontend::KernelFeatures;
using kopt::frontend::LoopFeature;
using kopt::frontend::MemoryAccess;

namespace {

MemoryAccess access(const char *Param, const char *Index, bool Write, AccessPattern P,
                    int Loop = -1) {
  MemoryAccess A;
  A.Param = Param;
  A.Index = Index;
  A.Read = !Write;
  A.Write = Write;
  A.Pattern = P;
  A.Loop = Loop;
  return A;
}

LoopFeature loop(const char *Var, const char *Bound, const char *Step, const char *Increment) {
  LoopFeature L;
  L.InductionVar = Var;
  L.Init = "0";
  L.Comparison = "<";
  L.Bound = Bound;
  L.Step = Step;
  L.Increment = Increment;
  L.Canonical = *Step != 0;
  return L;
}

KernelFeatures saxpy() {
  KernelFeatures F;
  F.Dimensions = 1;
  F.Accesses = {access("x", "i", false, AccessPattern::Coalesced),
                access("y", "i", false, AccessPattern::Coalesced),
                access("y", "i", true, AccessPattern::Coalesced)};
  F.Guards.push_back({"i < n", {"n"}, 3, 7});
  return F;
}

KernelFeatures matmul() {
  KernelFeatures F;
  F.Dimensions = 2;
  F.Loops = {loop("kk", "k", "1", "++kk")};
  F.Accesses = {access("A", "row * k + kk", false, AccessPattern::Broadcast, 0),
                access("B", "kk * n + col", false, AccessPattern::Coalesced, 0),
                access("C", "row * n + col", true, AccessPattern::Coalesced)};
  return F;
}

KernelFeatures treeReduction() {
  KernelFeatures F;
  F.Dimensions = 1;
  F.Loops = {loop("s", "0", "", "s >>= 1")};
  F.Accesses = {access("in", "i", false, AccessPattern::Coalesced),
                access("out", "blockIdx.x", true, AccessPattern::Broadcast)};
  F.SharedVariables.push_back({"partial", "float[256]", 1024, false});
  F.Barriers.push_back({"__syncthreads", 9, 3});
  return F;
}

KernelFeatures stencil() {
  KernelFeatures F;
  F.Dimensions = 2;
  F.Accesses = {access("in", "c - 1", false, AccessPattern::Coalesced),
                access("in", "c + 1", false, AccessPattern::Coalesced),
                access("in", "c - width", false, AccessPattern::Coalesced),
                access("in", "c", false, AccessPattern::Coalesced),
                access("out", "c", true, AccessPattern::Coalesced)};
  return F;
}

// A 2-D update reading two offsets of each of two fields (FDTD): only the
// front end's neighbourhoods tell.
KernelFeatures fieldUpdate() {
  KernelFeatures F;
  F.Dimensions = 2;
  F.Accesses = {access("ex", "i * (ny + 1) + (j + 1)", false, AccessPattern::Coalesced),
                access("ex", "i * (ny + 1) + j", false, AccessPattern::Coalesced),
                access("hz", "i * ny + j", true, AccessPattern::Coalesced)};
  F.Neighbourhoods = {{"ex", 2, 1}};
  return F;
}

KernelFeatures transpose() {
  KernelFeatures F;
  F.Dimensions = 2;
  F.Accesses = {access("in", "y * width + x", false, AccessPattern::Coalesced),
                access("out", "x * height + y", true, AccessPattern::Strided)};
  F.Accesses[1].Stride = "height";
  return F;
}

KernelFeatures blockScan() {
  KernelFeatures F;
  F.Dimensions = 1;
  F.Loops = {loop("offset", "blockDim.x", "", "offset *= 2")};
  F.Accesses = {access("in", "i", false, AccessPattern::Coalesced),
                access("out", "i", true, AccessPattern::Coalesced)};
  F.SharedVariables.push_back({"temp", "float[512]", 2048, false});
  F.Barriers.push_back({"__syncthreads", 9, 3});
  return F;
}

TEST(KernelFacts, KindOfEachIdiom) {
  EXPECT_EQ(kernelKind(saxpy()), "elementwise");
  EXPECT_EQ(kernelKind(matmul()), "matmul");
  EXPECT_EQ(kernelKind(treeReduction()), "reduction");
  EXPECT_EQ(kernelKind(stencil()), "stencil");
  EXPECT_EQ(kernelKind(fieldUpdate()), "stencil");
  EXPECT_EQ(kernelKind(transpose()), "transpose");
  EXPECT_EQ(kernelKind(blockScan()), "scan");
  EXPECT_EQ(kernelKind(KernelFeatures()), "other"); // Writes nothing.
}

TEST(KernelFacts, DotProductIsNotMatmul) {
  KernelFeatures F;
  F.Loops = {loop("k", "n", "1", "++k")};
  F.Accesses = {access("x", "k", false, AccessPattern::Broadcast, 0),
                access("y", "k", false, AccessPattern::Broadcast, 0)};
  EXPECT_FALSE(factsFor(F, {}).get("matmul_like").value());
  EXPECT_NE(kernelKind(F), "matvec");
  // A matrix-vector product is not matmul-like, whichever index the grid walks.
  F.Accesses[0].Index = "row * n + k";
  EXPECT_FALSE(factsFor(F, {}).get("matmul_like").value());
  F.Accesses[1].Index = "k * m + col";
  EXPECT_TRUE(factsFor(F, {}).get("matmul_like").value());
  // Two matrices each times a vector (gesummv) are matrix-vector products.
  F.Accesses.push_back(access("v", "k", false, AccessPattern::Broadcast, 0));
  EXPECT_FALSE(factsFor(F, {}).get("matmul_like").value());
  EXPECT_EQ(kernelKind(F), "matvec");
}

// Products that read both operands along rows, k unscaled: C = A B^T with
// rows and columns from different thread indices, and the rank-k update
// C += A A^T, one array read at two rows. One row times another that the same
// thread index chooses is not a product of matrices.
TEST(KernelFacts, ProductsWithATransposedOperandAreMatmul) {
  KernelFeatures F;
  F.Dimensions = 2;
  F.Loops = {loop("k", "K", "1", "k++")};
  F.Accesses = {access("A", "i * K + k", false, AccessPattern::Broadcast, 0),
                access("B", "j * K + k", false, AccessPattern::Strided, 0),
                access("C", "i * N + j", true, AccessPattern::Coalesced)};
  EXPECT_EQ(kernelKind(F), "matmul");
  F.Accesses[1].Param = "A"; // syrk: A[i][k] * A[j][k].
  EXPECT_EQ(kernelKind(F), "matmul");
  EXPECT_TRUE(factsFor(F, {}).get("matmul_like").value());
  F.Accesses[1].Index = "i * K + k"; // The same row twice: a squared norm.
  F.Accesses[1].Pattern = AccessPattern::Broadcast;
  EXPECT_NE(kernelKind(F), "matmul");
  F.Accesses[1] = access("B", "i * ldb + k", false, AccessPattern::Broadcast, 0);
  EXPECT_NE(kernelKind(F), "matmul"); // Rows of two arrays, one thread index.
  // k scaled in both (data[k * M + j1] * data[k * M + j2], j2 a loop's):
  // not this rule's.
  F.Accesses[0] = access("D", "k * M + j1", false, AccessPattern::Coalesced, 0);
  F.Accesses[1] = access("D", "k * M + j2", false, AccessPattern::Broadcast, 0);
  EXPECT_NE(kernelKind(F), "matmul");
}

// y = A x with one thread a row, and y = A^T x with one thread a column (the
// two kernels of PolyBench's atax or mvt), in flattened and 2-D spellings and
// with a cast: the same kind, and neither is matmul-like.
TEST(KernelFacts, MatrixVectorProductsAreOneKindInBothOrientations) {
  for (auto [Matrix, Vector] :
       std::vector<std::pair<std::string, std::string>>{{"row * n + k", "k"},
                                                        {"k * n + col", "k"},
                                                        {"(size_t)k * n + col", "(size_t)k"},
                                                        {"i * NY + j", "j"}}) {
    KernelFeatures F;
    F.Dimensions = 1;
    bool J = Vector == "j";
    F.Loops = {loop(J ? "j" : "k", "n", "1", J ? "++j" : "++k")};
    F.Accesses = {access("A", Matrix.c_str(), false, AccessPattern::Other, 0),
                  access("x", Vector.c_str(), false, AccessPattern::Broadcast, 0),
                  access("y", "row", true, AccessPattern::Coalesced)};
    EXPECT_EQ(kernelKind(F), "matvec") << Matrix << " * " << Vector;
    EXPECT_FALSE(factsFor(F, {}).get("matmul_like").value()) << Matrix;
    EXPECT_EQ(factsFor(F, {}).get("kind_matvec"), 1) << Matrix;
  }
}

TEST(KernelFacts, GridStrideLoopStaysElementwise) {
  KernelFeatures F = saxpy();
  F.Loops = {loop("i", "n", "blockDim.x * gridDim.x", "i += blockDim.x * gridDim.x")};
  EXPECT_EQ(kernelKind(F), "elementwise");
  EXPECT_EQ(factsFor(F, {}).get("grid_stride_loop"), 1);
  F.Atomics.push_back({"atomicAdd", 4, 5});
  EXPECT_EQ(kernelKind(F), "reduction");
}

// The stride kept in a local (`i += stride`) is the same loop, where the kernel
// reads gridDim; a step by a name in a kernel that does not is not.
TEST(KernelFacts, GridStrideKeptInALocalIsAGridStrideLoop) {
  KernelFeatures F = saxpy();
  F.Loops = {loop("i", "n", "stride", "i += stride")};
  EXPECT_EQ(factsFor(F, {}).get("grid_stride_loop"), 0);
  F.IndexBuiltins.push_back("gridDim.x");
  EXPECT_EQ(factsFor(F, {}).get("grid_stride_loop"), 1);
  EXPECT_EQ(kernelKind(F), "elementwise");
  F.Loops = {loop("i", "n", "2", "i += 2")};
  EXPECT_EQ(factsFor(F, {}).get("grid_stride_loop"), 0);
}

TEST(KernelFacts, StencilFromNeighbourhoods) {
  KernelFeatures F = fieldUpdate();
  EXPECT_EQ(factsFor(F, {}).get("stencil_points"), 2);
  // One offset of each field is elementwise; two in 1-D are not enough.
  F.Neighbourhoods.clear();
  EXPECT_EQ(kernelKind(F), "elementwise");
  F.Neighbourhoods = {{"ex", 2, 1}};
  F.Dimensions = 1;
  EXPECT_EQ(kernelKind(F), "elementwise");
  F.Neighbourhoods[0].Offsets = 3;
  EXPECT_EQ(kernelKind(F), "stencil");
}

TEST(KernelFacts, CountsAndBooleans) {
  KernelFeatures F = matmul();
  F.Loops[0].Unroll = true;
  F.MathCalls = {{"expf", 1, 1}, {"__expf", 2, 1}, {"fabsf", 3, 1}};
  F.RepeatedAccesses.push_back({"C", "row * n + col", 0, true, true, 1});
  Facts X = factsFor(F, {});
  EXPECT_EQ(X.get("loops"), 1);
  EXPECT_EQ(X.get("loop_depth"), 1);
  EXPECT_EQ(X.get("unrolled_loops"), 1);
  EXPECT_EQ(X.get("canonical_loops"), 1);
  EXPECT_EQ(X.get("literal_bound_loops"), 0);
  EXPECT_EQ(X.get("accesses"), 3);
  EXPECT_EQ(X.get("reads"), 2);
  EXPECT_EQ(X.get("writes"), 1);
  EXPECT_EQ(X.get("coalesced_accesses"), 2);
  EXPECT_EQ(X.get("broadcast_accesses"), 1);
  EXPECT_EQ(X.get("accesses_in_loops"), 2);
  EXPECT_EQ(X.get("read_only_params"), 2);
  EXPECT_EQ(X.get("written_params"), 1);
  EXPECT_EQ(X.get("repeated_writes"), 1);
  EXPECT_EQ(X.get("math_calls"), 3);
  EXPECT_EQ(X.get("precise_math_calls"), 1);
  EXPECT_EQ(X.get("fast_math_calls"), 1);
  EXPECT_EQ(X.get("has_bounds_guard"), 0);
  EXPECT_EQ(X.get("dims_2d"), 1);
  EXPECT_EQ(X.get("dims_3d"), 0);
  EXPECT_EQ(X.get("kind_matmul"), 1);
  EXPECT_EQ(X.get("kind_elementwise"), 0);

  Facts R = factsFor(treeReduction(), {});
  EXPECT_EQ(R.get("tree_loop"), 1);
  EXPECT_EQ(R.get("uses_shared"), 1);
  EXPECT_EQ(R.get("shared_bytes"), 1024);
  EXPECT_EQ(R.get("broadcast_writes"), 1);
  EXPECT_EQ(R.get("reduction_like"), 1);
  EXPECT_EQ(R.get("scan_like"), 0);
  EXPECT_EQ(factsFor(saxpy(), {}).get("has_bounds_guard"), 1);
}

TEST(KernelFacts, EveryStaticFactIsSetAndNoMetricWithoutAProfile) {
  Facts X = factsFor(saxpy(), {});
  for (const FactInfo &I : knownFacts())
    EXPECT_EQ(X.get(I.Name).has_value(), !I.Metric) << I.Name.str();
}

TEST(KernelFacts, MetricsAreTakenByTheirNamesOnly) {
  Facts X = factsFor(saxpy(), {{"dram_throughput_pct", 83.5}, {"not_a_metric", 1}, {"loops", 7}});
  EXPECT_EQ(X.get("dram_throughput_pct"), 83.5);
  EXPECT_FALSE(X.get("not_a_metric"));
  EXPECT_EQ(X.get("loops"), 0); // A static fact is not overridden by a "metric".
}

TEST(KernelFacts, ThreadsLaunchedComeFromTheLaunch) {
  EXPECT_EQ(factsFor(saxpy(), {{"block_size", 256}, {"grid_size", 8}}).get("threads_launched"),
            2048);
  EXPECT_FALSE(factsFor(saxpy(), {{"block_size", 256}}).get("threads_launched"));
}

TEST(KernelFacts, TheTableIsConsistent) {
  std::set<std::string> Names;
  for (const FactInfo &I : knownFacts()) {
    EXPECT_TRUE(Names.insert(I.Name.str()).second) << "duplicate " << I.Name.str();
    EXPECT_EQ(findFact(I.Name), &I);
    EXPECT_FALSE(I.Description.empty());
  }
  for (llvm::StringRef K : kernelKinds())
    EXPECT_NE(findFact("kind_" + K.str()), nullptr) << K.str();
  EXPECT_EQ(findFact("no_such_fact"), nullptr);
}

} // namespace
