// The transforms' parameter spaces on small kernels (empty where a transform
// does not fit), the registry, --apply's step syntax and launch composition.
#include "clang-plugin/parse/KernelFinder.h"
#include "clang-plugin/transforms/framework/LaunchCompose.h"
#include "clang-plugin/transforms/framework/ParamSetText.h"
#include "clang-plugin/transforms/framework/TransformPipeline.h"
#include "test/fuzz/PragmaMutator.h"

#include <gtest/gtest.h>

using namespace kopt;
using namespace kopt::transform;

namespace {

const char *const Prelude = R"(
struct uint3 { unsigned x, y, z; };
struct dim3 { unsigned x, y, z; };
extern const __device__ uint3 threadIdx, blockIdx;
extern const __device__ dim3 blockDim, gridDim;
__device__ void __syncthreads();
__device__ float expf(float);
__device__ float sqrtf(float);
#define __shared__ __attribute__((shared))
)";

frontend::KernelSummary kernel(const std::string &Code) {
  std::string Diagnostics;
  llvm::raw_string_ostream OS(Diagnostics);
  auto Kernels =
      frontend::findKernelsInCode(Prelude + Code, "/t/k.cu", fuzz::snippetClangArgs(), OS);
  if (!Kernels) {
    ADD_FAILURE() << llvm::toString(Kernels.takeError()) << "\n" << Diagnostics;
    return {};
  }
  EXPECT_EQ(Kernels->size(), 1u) << Diagnostics;
  return Kernels->empty() ? frontend::KernelSummary{} : Kernels->front();
}

std::vector<ParamSet> space(llvm::StringRef Id, const frontend::KernelSummary &K,
                            TransformPolicy Policy = {}) {
  const Transform *T = findTransform(Id);
  EXPECT_NE(T, nullptr) << Id.str();
  return T ? T->offer(K, Policy).points() : std::vector<ParamSet>{};
}

TransformPolicy approximateMathAllowed() {
  TransformPolicy P;
  P.ApproximateMath = true;
  return P;
}

const char *const Saxpy = R"(
#pragma kopt optimize launch(grid: (n + 255) / 256; block: 256) args(n = 1024, a = 2.0f) \
    buffers(x[n] in, y[n] inout) noalias
__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}
)";

// 2D, shared memory, a barrier, a loop with an unroll pragma, no pragma.
const char *const Tiled = R"(
__global__ void tiled(int n, float *out) {
  __shared__ float t[16][16];
  t[threadIdx.y][threadIdx.x] = threadIdx.x;
  __syncthreads();
#pragma unroll
  for (int k = 0; k < 16; ++k)
    out[blockIdx.y * n + threadIdx.x] += t[k][threadIdx.x];
}
)";

TEST(TransformRegistry, HasEachTransformOnceInOrder) {
  std::vector<std::string> Ids;
  for (const std::unique_ptr<Transform> &T : allTransforms())
    Ids.push_back(T->id().str());
  std::vector<std::string> Mine = {"launch-bounds", "unroll",     "restrict-readonly",
                                   "fast-math",     "block-size", "thread-coarsening"};
  for (const std::string &Id : Mine) {
    EXPECT_EQ(std::count(Ids.begin(), Ids.end(), Id), 1) << Id;
    ASSERT_NE(findTransform(Id), nullptr);
    EXPECT_EQ(findTransform(Id)->id(), Id);
  }
  EXPECT_EQ(findTransform("nosuch"), nullptr);
}

TEST(TransformSpace, GuardedElementwiseKernel) {
  frontend::KernelSummary K = kernel(Saxpy);
  // 256 threads: caps of 128 and 64 registers first, then none, then 32.
  EXPECT_EQ(space("launch-bounds", K),
            (std::vector<ParamSet>{
                {{"minBlocks", 2}}, {{"minBlocks", 4}}, {{"minBlocks", 1}}, {{"minBlocks", 8}}}));
  EXPECT_TRUE(space("unroll", K).empty());
  EXPECT_TRUE(space("fast-math", K).empty());
  EXPECT_EQ(space("restrict-readonly", K).size(), 2u);
  std::vector<ParamSet> Blocks = space("block-size", K);
  EXPECT_EQ(Blocks.size(), 4u); // Not 256, the current size.
  for (const ParamSet &P : Blocks)
    EXPECT_NE(P.at("block"), 256);
  EXPECT_EQ(space("thread-coarsening", K),
            (std::vector<ParamSet>{{{"factor", 2}}, {{"factor", 4}}, {{"factor", 8}}}));
}

TEST(TransformSpace, NothingFitsA2DTiledKernelWithoutPragma) {
  frontend::KernelSummary K = kernel(Tiled);
  for (llvm::StringRef Id : {"launch-bounds", "unroll", "restrict-readonly", "fast-math",
                             "block-size", "thread-coarsening"})
    EXPECT_TRUE(space(Id, K).empty()) << Id.str();
}

TEST(TransformSpace, UnrollOffersCanonicalLoopsInnermostFirst) {
  frontend::KernelSummary K = kernel(R"(
__global__ void loops(int n, float *a) {
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; j += 2)
      a[i * n + j] = 0;
  for (int s = 1; s < n; s <<= 1)
    a[s] = 1;
})");
  std::vector<ParamSet> S = space("unroll", K);
  ASSERT_EQ(S.size(), 8u); // Two loops, four factors; not the shifting one.
  EXPECT_EQ(S[0], (ParamSet{{"loop", 1}, {"factor", 4}}));
  EXPECT_EQ(S[4].at("loop"), 0);
}

TEST(TransformSpace, FastMathGroupsFollowTheCode) {
  frontend::KernelSummary K = kernel(R"(
__global__ void m(float *a) { a[threadIdx.x] = expf(a[threadIdx.x]); })");
  EXPECT_EQ(space("fast-math", K, approximateMathAllowed()),
            (std::vector<ParamSet>{{{"group", 1}}}));
  frontend::KernelSummary D = kernel(R"(
__global__ void d(float *a, float b) {
  a[threadIdx.x] = expf(a[threadIdx.x] / b) + 1.0f / sqrtf(b);
})");
  EXPECT_EQ(
      space("fast-math", D, approximateMathAllowed()),
      (std::vector<ParamSet>{{{"group", 0}}, {{"group", 1}}, {{"group", 2}}, {{"group", 3}}}));
}

TEST(TransformSpace, ApproximateMathOnlyWhereTheUserAllowsIt) {
  frontend::KernelSummary K = kernel(R"(
__global__ void m(float *a) { a[threadIdx.x] = expf(a[threadIdx.x]); })");
  Offer Refused = findTransform("fast-math")->offer(K, TransformPolicy{});
  EXPECT_FALSE(Refused.offered());
  EXPECT_NE(Refused.whyNot().find("add `fastmath` to the pragma"), std::string::npos)
      << Refused.whyNot();
  EXPECT_EQ(findTransform("fast-math")->numerics(), Numerics::Approximates);
  // Every other transform keeps results exact or only reorders sums.
  for (const std::unique_ptr<Transform> &T : allTransforms()) {
    if (T->id() != "fast-math") {
      EXPECT_NE(T->numerics(), Numerics::Approximates) << T->id().str();
    }
  }
}

TEST(TransformParams, CheckedAgainstTheDeclaration) {
  const Transform *Unroll = findTransform("unroll");
  EXPECT_FALSE(Unroll->checkParams({{"loop", 0}, {"factor", 4}}));
  EXPECT_EQ(llvm::toString(Unroll->checkParams({{"loop", 0}, {"factor", 3}})),
            "parameter 'factor' is 3; it takes 2, 4, 8, 16");
  EXPECT_EQ(llvm::toString(Unroll->checkParams({{"factor", 4}})),
            "parameter 'loop' is missing; it takes any integer from 0");
  EXPECT_EQ(llvm::toString(Unroll->checkParams({{"loop", 0}, {"factor", 4}, {"depth", 1}})),
            "no parameter 'depth'; it takes loop, factor");
  EXPECT_EQ(llvm::toString(findTransform("grid-stride-cover")->checkParams({{"x", 1}})),
            "no parameter 'x' (it takes none)");
  // Alternatives: one of rows or planes, not both, not neither.
  const Transform *Rows = findTransform("thread-coarsening-2d");
  EXPECT_FALSE(Rows->checkParams({{"planes", 2}}));
  EXPECT_TRUE(bool(llvm::toString(Rows->checkParams({{"rows", 2}, {"planes", 2}})).size()));
  EXPECT_NE(llvm::toString(Rows->checkParams({})).find("is missing"), std::string::npos);
  // An optional parameter may be left out.
  EXPECT_FALSE(findTransform("stencil-tiling")->checkParams({{"BX", 32}, {"BY", 8}}));
}

TEST(TransformParams, CompletedWithTheirFirstValues) {
  EXPECT_EQ(findTransform("unroll")->completeParams({{"factor", 8}}),
            (ParamSet{{"loop", 0}, {"factor", 8}}));
  EXPECT_EQ(findTransform("thread-coarsening-2d")->completeParams({}), (ParamSet{{"rows", 2}}));
  EXPECT_EQ(findTransform("thread-coarsening-2d")->completeParams({{"planes", 4}}),
            (ParamSet{{"planes", 4}}));
  EXPECT_EQ(findTransform("stencil-tiling")->completeParams({}), (ParamSet{{"BX", 32}, {"BY", 8}}));
}

TEST(TransformSpace, EveryOfferSaysWhyNot) {
  frontend::KernelSummary K = kernel(Tiled);
  for (const std::unique_ptr<Transform> &T : allTransforms()) {
    Offer O = T->offer(K, approximateMathAllowed());
    if (!O.offered()) {
      EXPECT_FALSE(O.whyNot().empty()) << T->id().str();
    }
    for (const ParamSet &P : O.points()) {
      EXPECT_FALSE(T->checkParams(P)) << T->id().str();
    }
  }
}

TEST(TransformSpace, RestrictNeedsNoalias) {
  frontend::KernelSummary K = kernel(R"(
#pragma kopt optimize launch(grid: 4; block: 128) buffers(x[128] in, y[128] out)
__global__ void k(const float *x, float *y) { y[threadIdx.x] = x[threadIdx.x]; })");
  Offer O = findTransform("restrict-readonly")->offer(K, TransformPolicy{});
  EXPECT_FALSE(O.offered());
  EXPECT_NE(O.whyNot().find("noalias"), std::string::npos) << O.whyNot();
}

TEST(StepSpec, ParsesIdsAndParameters) {
  llvm::Expected<StepSpec> S = parseStepSpec("unroll:loop=1,factor=0x4");
  ASSERT_TRUE(static_cast<bool>(S)) << llvm::toString(S.takeError());
  EXPECT_EQ(S->Id, "unroll");
  EXPECT_EQ(S->Params, (ParamSet{{"loop", 1}, {"factor", 4}}));
  EXPECT_EQ(formatParamSet(S->Params), "factor=4,loop=1");
  llvm::Expected<StepSpec> Bare = parseStepSpec("fast-math");
  ASSERT_TRUE(static_cast<bool>(Bare));
  EXPECT_TRUE(Bare->Params.empty());
  for (const char *Bad : {"", ":a=1", "unroll:loop", "unroll:loop=x", "unroll:a=1,a=2"}) {
    llvm::Expected<StepSpec> E = parseStepSpec(Bad);
    EXPECT_FALSE(static_cast<bool>(E)) << Bad;
    if (!E)
      llvm::consumeError(E.takeError());
  }
}

TEST(LaunchCompose, SubstitutesTheFirstMappingIntoTheSecond) {
  frontend::LaunchMapping Block;
  Block.Block[0] = "128";
  Block.Grid[0] = "(grid_x * block_x + 127) / 128";
  frontend::LaunchMapping Coarse;
  Coarse.Grid[0] = "(grid_x + 1) / 2";
  frontend::LaunchMapping Both = composeLaunch(Block, Coarse);
  EXPECT_EQ(Both.Grid[0], "(((grid_x * block_x + 127) / 128) + 1) / 2");
  EXPECT_EQ(Both.Block[0], "128");
  EXPECT_EQ(Both.Grid[1], "grid_y");
  EXPECT_EQ(formatLaunch(Both), "grid((((grid_x * block_x + 127) / 128) + 1) / 2, grid_y, grid_z) "
                                "block(128, block_y, block_z)");
  // Names that merely contain a launch variable stay.
  frontend::LaunchMapping Names;
  Names.Grid[0] = "grid_xx + n_grid_x + 1e5";
  EXPECT_EQ(composeLaunch(Block, Names).Grid[0], "grid_xx + n_grid_x + 1e5");
  EXPECT_FALSE(composeLaunch(std::nullopt, std::nullopt).has_value());
}

TEST(PragmaAfterLaunch, BlockFollowsConstantMappings) {
  frontend::KernelSummary K = kernel(Saxpy);
  ASSERT_TRUE(K.Pragma.has_value());
  frontend::LaunchMapping M;
  M.Block[0] = "512";
  frontend::PragmaClauses P = pragmaAfterLaunch(*K.Pragma, M);
  ASSERT_TRUE(P.Launch.has_value());
  EXPECT_EQ(P.Launch->Block[0].Text, "512");
  M.Block[0] = "block_x * 2";
  EXPECT_FALSE(pragmaAfterLaunch(*K.Pragma, M).Launch.has_value());
}

} // namespace
