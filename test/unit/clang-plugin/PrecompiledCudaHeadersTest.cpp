// The transform framework's parses with CUDA's headers precompiled give what
// the same parses give reading them: the kernel's summary, its unit and the
// transforms' output. A PCH is built once per command line; a user's -include
// file without an include guard is read once.
#include "clang-plugin/parse/PrecompiledCudaHeaders.h"
#include "clang-plugin/parse/KernelFinder.h"
#include "clang-plugin/transforms/framework/TransformPipeline.h"
#include "driver/commands/KernelAnalysisJson.h"
#include "driver/optimize/FrontendSetup.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/raw_ostream.h>

#include <gtest/gtest.h>

using namespace kopt;

namespace {

// The parse kopt makes for `-arch=sm_90` and Flags; null (the test skips)
// where this machine has no CUDA toolkit.
std::optional<std::vector<std::string>> cudaArgs(const std::vector<std::string> &Flags) {
  std::vector<std::string> Nvcc = {"-arch=sm_90"};
  Nvcc.insert(Nvcc.end(), Flags.begin(), Flags.end());
  llvm::Expected<frontend::CudaParseSetup> Setup = driver::frontendSetupFor(Nvcc);
  if (!Setup) {
    llvm::consumeError(Setup.takeError());
    return std::nullopt;
  }
  return Setup->clangArgs();
}

// Restores the default (on) whatever a test switched.
struct PrecompiledHeaders : ::testing::Test {
  void TearDown() override { frontend::enablePrecompiledCudaHeaders(true); }
};

// Rows summed by one thread each, with CUDA's math: the unit copies the
// macros; SCALE comes from the command line.
const char *const RowSums = R"(#include <cuda_runtime.h>
#define COLS 64
#pragma kopt optimize launch(grid: (n + 127) / 128; block: 128) args(n = 4096) \
    buffers(a[n * COLS] in, out[n] out) noalias
__global__ void row_sums(int n, const float *a, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = 0;
    for (int k = 0; k < COLS; ++k)
      s += SCALE * fabsf(a[i * COLS + k]) + PRELUDE_BIAS;
    out[i] = s;
  }
}
)";

struct Parsed {
  std::string Unit, Features, Restricted, Unrolled, Parallel;
};

std::optional<Parsed> parse(const std::vector<std::string> &Args) {
  std::string Diagnostics;
  llvm::raw_string_ostream OS(Diagnostics);
  auto Kernels = frontend::findKernelsInCode(RowSums, "/t/rows.cu", Args, OS);
  if (!Kernels || Kernels->size() != 1) {
    ADD_FAILURE() << (Kernels ? "not one kernel" : llvm::toString(Kernels.takeError())) << "\n"
                  << Diagnostics;
    return std::nullopt;
  }
  const frontend::KernelSummary &K = Kernels->front();
  auto View = transform::summarizeUnit(K.Unit.Text, K.Name, Args, K.Pragma,
                                       transform::analysedInstantiation(K));
  if (!View) {
    ADD_FAILURE() << llvm::toString(View.takeError());
    return std::nullopt;
  }
  Parsed P{View->Unit.Text, driver::featuresToJson(View->Features).dump(), "", "", ""};
  // Each transform at the first point of its space.
  for (auto [Id, Out] :
       {std::pair{"restrict-readonly", &P.Restricted}, std::pair{"unroll", &P.Unrolled},
        std::pair{"inner-loop-parallel", &P.Parallel}}) {
    const transform::Transform *T = transform::findTransform(Id);
    std::vector<transform::ParamSet> Space =
        T ? T->offer(*View, {}).points() : std::vector<transform::ParamSet>{};
    if (Space.empty()) {
      ADD_FAILURE() << Id << " does not apply";
      return std::nullopt;
    }
    auto Made = transform::applyChain(*View, Args, {transform::Step{T, Space.front()}});
    if (!Made) {
      ADD_FAILURE() << Id << ": " << llvm::toString(Made.takeError());
      return std::nullopt;
    }
    *Out = Made->UnitText;
  }
  return P;
}

std::string writeFile(llvm::StringRef Text) {
  llvm::SmallString<128> Path;
  int FD = -1;
  EXPECT_FALSE(llvm::sys::fs::createTemporaryFile("kopt-prelude", "h", FD, Path));
  llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
  OS << Text;
  return Path.str().str();
}

// No include guard: it must be read once, whether the PCH holds it or not
// (read twice, it would redefine the struct and the variable, which the kernel
// does not use, so its unit does not copy them).
const char *const Prelude = "struct prelude_unused { int x; };\n"
                            "static int prelude_count = 0;\n"
                            "#define PRELUDE_BIAS 0.5f\n";

TEST_F(PrecompiledHeaders, GiveTheSameSummaryUnitAndTransformsAsReadHeaders) {
  std::string Include = writeFile(Prelude);
  auto Args = cudaArgs({"-DSCALE=3.0f", "-include", Include});
  if (!Args)
    GTEST_SKIP() << "no CUDA toolkit here";
  frontend::enablePrecompiledCudaHeaders(false);
  unsigned UsedBefore = frontend::precompiledHeaderUse().Used;
  std::optional<Parsed> Read = parse(*Args);
  EXPECT_EQ(frontend::precompiledHeaderUse().Used, UsedBefore);
  frontend::enablePrecompiledCudaHeaders(true);
  std::optional<Parsed> Precompiled = parse(*Args);
  // One summary, then a summary and a rewrite for each of three transforms.
  EXPECT_EQ(frontend::precompiledHeaderUse().Used, UsedBefore + 7);
  llvm::sys::fs::remove(Include);
  ASSERT_TRUE(Read && Precompiled);
  EXPECT_EQ(Precompiled->Unit, Read->Unit);
  EXPECT_EQ(Precompiled->Features, Read->Features);
  EXPECT_EQ(Precompiled->Restricted, Read->Restricted);
  EXPECT_EQ(Precompiled->Unrolled, Read->Unrolled);
  EXPECT_EQ(Precompiled->Parallel, Read->Parallel);
  EXPECT_NE(Precompiled->Restricted.find("__restrict__"), std::string::npos);
  EXPECT_NE(Precompiled->Unrolled, Precompiled->Unit);
  EXPECT_NE(Precompiled->Parallel, Precompiled->Unit);
}

TEST_F(PrecompiledHeaders, AreBuiltOncePerCommandLine) {
  std::string Include = writeFile(Prelude);
  auto Twice = cudaArgs({"-DSCALE=2.0f", "-include", Include});
  auto Half = cudaArgs({"-DSCALE=0.5f", "-include", Include});
  if (!Twice || !Half)
    GTEST_SKIP() << "no CUDA toolkit here";
  frontend::PrecompiledHeaderUse Before = frontend::precompiledHeaderUse();
  EXPECT_TRUE(parse(*Twice));
  EXPECT_TRUE(parse(*Twice));
  EXPECT_EQ(frontend::precompiledHeaderUse().Built, Before.Built + 1);
  // A macro the headers may test is part of what they were compiled with.
  EXPECT_TRUE(parse(*Half));
  EXPECT_EQ(frontend::precompiledHeaderUse().Built, Before.Built + 2);
  EXPECT_EQ(frontend::precompiledHeaderUse().Failed, Before.Failed);
  llvm::sys::fs::remove(Include);
}

TEST_F(PrecompiledHeaders, AnErrorInAUsersIncludeIsStillReported) {
  std::string Include = writeFile(std::string(Prelude) + "int broken(;\n");
  auto Args = cudaArgs({"-DSCALE=1.0f", "-include", Include});
  if (!Args)
    GTEST_SKIP() << "no CUDA toolkit here";
  auto Summary = transform::summarizeUnit(RowSums, "row_sums", *Args, std::nullopt, std::nullopt);
  llvm::sys::fs::remove(Include);
  ASSERT_FALSE(Summary);
  std::string Why = llvm::toString(Summary.takeError());
  EXPECT_NE(Why.find("does not parse"), std::string::npos) << Why;
  EXPECT_NE(Why.find("expected"), std::string::npos) << Why; // clang's own diagnostic.
}

TEST_F(PrecompiledHeaders, AUsersIncludeIsNotCopiedIntoTheUnit) {
  // The unit's parse and the evaluator's compile get the same -include, so a
  // definition the kernel uses from it stays there (copied, it was defined twice).
  std::string Include = writeFile("#pragma once\n__device__ inline float prelude_twice(float v) "
                                  "{ return 2.0f * v; }\n");
  auto Args = cudaArgs({"-include", Include});
  if (!Args)
    GTEST_SKIP() << "no CUDA toolkit here";
  const char *Code = "__global__ void twice_all(int n, float *x) {\n"
                     "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                     "  if (i < n) x[i] = prelude_twice(x[i]);\n}\n";
  std::string Diagnostics;
  llvm::raw_string_ostream OS(Diagnostics);
  auto Kernels = frontend::findKernelsInCode(Code, "/t/twice.cu", *Args, OS);
  ASSERT_TRUE(Kernels && Kernels->size() == 1)
      << (Kernels ? "" : llvm::toString(Kernels.takeError())) << Diagnostics;
  const frontend::KernelSummary &K = Kernels->front();
  EXPECT_EQ(K.Unit.Text.find("prelude_twice(float v)"), std::string::npos) << K.Unit.Text;
  auto View = transform::summarizeUnit(K.Unit.Text, K.Name, *Args, std::nullopt,
                                       transform::analysedInstantiation(K));
  llvm::sys::fs::remove(Include);
  EXPECT_TRUE(bool(View)) << (View ? "" : llvm::toString(View.takeError()));
}

} // namespace
