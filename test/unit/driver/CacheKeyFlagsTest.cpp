// What the result cache keys on, flag class by flag class (docs/cache.md#the-key):
// device code-generation flags in, host-only flags out, a -D that reaches the
// kernel's unit in and one that does not out, -std only where the
// unit keeps an #include, --extended-lambda only where the unit has one, the
// order of flags irrelevant; and how device passes follow from -arch/-gencode.
#include "clang-plugin/parse/KernelFinder.h"
#include "driver/nvcc/NvccDeviceFlags.h"
#include "driver/nvcc/NvccDevicePasses.h"
#include "driver/optimize/KernelOptimization.h"
#include "memory/cache/CacheKeyDiff.h"
#include "memory/cache/ResultCache.h"
#include "test/fuzz/PragmaMutator.h"

#include <gtest/gtest.h>
#include <llvm/Support/FileSystem.h>

using namespace kopt::driver;

namespace {
std::vector<std::string> flagsOf(const std::vector<std::string> &Args, UnitLanguageUse Use = {}) {
  NvccCommandLine Cmd = llvm::cantFail(parseExpandedNvccFlags(Args));
  return deviceCodegenFlags(Cmd, Use);
}

const std::vector<std::string> Base = {"-c", "k.cu", "-o", "k.o", "-arch=sm_90"};

std::vector<std::string> with(std::vector<std::string> More) {
  std::vector<std::string> Args = Base;
  Args.insert(Args.end(), More.begin(), More.end());
  return Args;
}
} // namespace

TEST(DeviceCodegenFlags, DeviceCodeGenerationFlagsAreIn) {
  EXPECT_EQ(flagsOf(with({"-use_fast_math"})), (std::vector<std::string>{"--use_fast_math"}));
  EXPECT_EQ(flagsOf(with({"--ftz=true", "-prec-div=false", "-prec-sqrt", "false", "-fmad=false"})),
            (std::vector<std::string>{"--fmad=false", "--ftz=true", "--prec-div=false",
                                      "--prec-sqrt=false"}));
  EXPECT_EQ(flagsOf(with({"-maxrregcount", "32"})),
            (std::vector<std::string>{"--maxrregcount=32"}));
  EXPECT_EQ(flagsOf(with({"-G"})), (std::vector<std::string>{"--device-debug"}));
  EXPECT_EQ(flagsOf(with({"-rdc=true"})),
            (std::vector<std::string>{"--relocatable-device-code=true"}));
  EXPECT_EQ(flagsOf({"-dc", "k.cu", "-arch=sm_90"}),
            (std::vector<std::string>{"--relocatable-device-code=true"}));
  EXPECT_EQ(flagsOf(with({"-Xptxas", "-O1,-dlcm=cg", "-Xptxas=-v"})),
            (std::vector<std::string>{"-Xptxas=-O1", "-Xptxas=-dlcm=cg"}));
  EXPECT_EQ(flagsOf(with({"-dopt", "on", "-extra-device-vectorization", "-restrict"})),
            (std::vector<std::string>{"--dopt=on", "--extra-device-vectorization", "--restrict"}));
}

TEST(DeviceCodegenFlags, WhatFastMathImpliesIsNotRepeated) {
  EXPECT_EQ(flagsOf(with({"-use_fast_math", "-ftz=true", "-fmad=true"})),
            (std::vector<std::string>{"--use_fast_math"}));
  EXPECT_EQ(flagsOf(with({"-ftz=false", "-prec-div=true"})), std::vector<std::string>{});
  EXPECT_EQ(flagsOf(with({"-use_fast_math", "-ftz=false"})),
            (std::vector<std::string>{"--ftz=false", "--use_fast_math"}));
}

TEST(DeviceCodegenFlags, HostOnlyAndOutputFlagsAreOut) {
  EXPECT_EQ(flagsOf(with({"-O3",
                          "-DNDEBUG",
                          "-g",
                          "-lineinfo",
                          "-Xcompiler",
                          "-fPIC,-Wall",
                          "-ccbin",
                          "g++",
                          "-Iinclude",
                          "-isystem",
                          "/opt/x",
                          "-MD",
                          "-MF",
                          "k.d",
                          "--expt-relaxed-constexpr",
                          "-Wno-deprecated-gpu-targets",
                          "-x",
                          "cu",
                          "--keep",
                          "--keep-dir",
                          "tmp",
                          "-std=c++20",
                          "--extended-lambda",
                          "-m64"})),
            std::vector<std::string>{});
  EXPECT_EQ(flagsOf(with({"-O0"})), flagsOf(with({"-O3"})));
}

TEST(DeviceCodegenFlags, StdOnlyWhereTheUnitKeepsAnIncludeAndLambdasWhereItHasOne) {
  UnitLanguageUse Includes{true, false};
  EXPECT_EQ(flagsOf(with({"-std=c++20"}), Includes), (std::vector<std::string>{"--std=c++20"}));
  // nvcc's default standard is C++17: naming it changes nothing.
  EXPECT_EQ(flagsOf(with({"-std=c++17"}), Includes), flagsOf(Base, Includes));
  UnitLanguageUse Lambda{false, true};
  EXPECT_EQ(flagsOf(with({"--extended-lambda"}), Lambda),
            (std::vector<std::string>{"--extended-lambda"}));
  EXPECT_TRUE(hasExtendedLambda("auto f = [=] __device__ (int i) { return i; };"));
  EXPECT_TRUE(hasExtendedLambda("auto f = [] __host__ __device__ () {};"));
  EXPECT_FALSE(hasExtendedLambda("a[i] = b[j]; __device__ int f();"));
}

TEST(DeviceCodegenFlags, OrderDoesNotMatterButPtxasOptionsKeepTheirs) {
  EXPECT_EQ(flagsOf(with({"-G", "-use_fast_math", "-maxrregcount=64"})),
            flagsOf(with({"-maxrregcount=64", "-use_fast_math", "-G"})));
}

namespace {
std::vector<std::string> passText(const std::vector<std::string> &Args) {
  NvccCommandLine Cmd = llvm::cantFail(parseExpandedNvccFlags(Args));
  llvm::Expected<std::vector<NvccDevicePass>> Passes = nvccDevicePasses(Cmd);
  if (!Passes)
    return {"error: " + llvm::toString(Passes.takeError())};
  std::vector<std::string> Out;
  for (const NvccDevicePass &P : *Passes) {
    std::string T = P.Virtual + " ->";
    for (const std::string &R : P.Real)
      T += " " + R;
    Out.push_back(T + (P.Ptx ? " +ptx" : ""));
  }
  return Out;
}
} // namespace

TEST(NvccDevicePasses, AsNvccDryrunShowsThem) {
  using V = std::vector<std::string>;
  EXPECT_EQ(passText({"-c", "k.cu", "-arch=sm_90"}), (V{"compute_90 -> sm_90 +ptx"}));
  EXPECT_EQ(passText({"-c", "k.cu"}), (V{"compute_75 -> sm_75 +ptx"}));
  EXPECT_EQ(passText({"-c", "k.cu", "-arch=sm_90a"}),
            (V{"compute_90 -> +ptx", "compute_90a -> sm_90a +ptx"}));
  EXPECT_EQ(passText({"-c", "k.cu", "-gencode", "arch=compute_80,code=sm_80", "-gencode",
                      "arch=compute_90,code=[sm_90,compute_90]"}),
            (V{"compute_80 -> sm_80", "compute_90 -> sm_90 +ptx"}));
  EXPECT_EQ(passText({"-c", "k.cu", "-arch=compute_80", "-code=sm_80,sm_90"}),
            (V{"compute_80 -> sm_80 sm_90"}));
  EXPECT_EQ(passText({"-c", "k.cu", "-arch=sm_80", "-gencode", "arch=compute_90,code=sm_90"}),
            (V{"compute_80 -> sm_80 +ptx", "compute_90 -> sm_90"}));
  EXPECT_EQ(passText({"-c", "k.cu", "-arch=sm_100"}), (V{"compute_100 -> sm_100 +ptx"}));
  EXPECT_EQ(passText({"-c", "k.cu", "-arch=all"}),
            (V{"error: -arch=all: kcc cannot tell which architectures it builds"}));
}

TEST(NvccDevicePasses, GuardsNameOnePassEach) {
  NvccDevicePass Plain{"compute_90", {"sm_90"}, true};
  NvccDevicePass Specific{"compute_90a", {"sm_90a"}, true};
  NvccDevicePass Family{"compute_100f", {"sm_100f"}, true};
  EXPECT_EQ(Plain.guard(), "defined(__CUDA_ARCH__) && __CUDA_ARCH__ == 900 && "
                           "!defined(__CUDA_ARCH_FAMILY_SPECIFIC__)");
  EXPECT_EQ(Specific.guard(), "defined(__CUDA_ARCH_SPECIFIC__) && __CUDA_ARCH_SPECIFIC__ == 900");
  EXPECT_EQ(Family.guard(), "defined(__CUDA_ARCH_FAMILY_SPECIFIC__) && "
                            "__CUDA_ARCH_FAMILY_SPECIFIC__ == 1000 && "
                            "!defined(__CUDA_ARCH_SPECIFIC__)");
  EXPECT_TRUE(Plain.buildsOnlyItsOwn());
  EXPECT_FALSE((NvccDevicePass{"compute_80", {"sm_80", "sm_90"}, false}.buildsOnlyItsOwn()));
  EXPECT_FALSE((NvccDevicePass{"compute_80", {"sm_90"}, false}.buildsOnlyItsOwn()));
  EXPECT_EQ(Family.number(), 100);
}

// The key of a parsed kernel under two compiles: equal where only flags that
// are out differ.
namespace {
kopt::memory::CacheKey keyOf(llvm::StringRef Code, const std::vector<std::string> &ParseFlags,
                             const std::vector<std::string> &NvccFlags,
                             llvm::StringRef Arch = "sm_90") {
  std::vector<std::string> Args = kopt::fuzz::snippetClangArgs();
  Args.insert(Args.end(), ParseFlags.begin(), ParseFlags.end());
  std::string Diags;
  llvm::raw_string_ostream OS(Diags);
  auto Kernels = kopt::frontend::findKernelsInCode(Code, "/t/k.cu", Args, OS);
  if (!Kernels) {
    ADD_FAILURE() << llvm::toString(Kernels.takeError()) << Diags;
    return {};
  }
  return cacheKeyFor(Kernels->front(), Arch, NvccFlags);
}
} // namespace

TEST(CacheKeyFor, ChangesExactlyWithWhatChangesTheKernel) {
  std::string Code = "#pragma kopt optimize launch(grid: 1; block: 32) args(n = 32) buffers(x[n])\n"
                     "__global__ void k(int n, float *x) { x[0] = n * SCALE; }\n";
  kopt::memory::CacheKey Release =
      keyOf(Code, {"-DSCALE=2", "-DNDEBUG"}, with({"-O3", "-DSCALE=2", "-DNDEBUG"}));
  kopt::memory::CacheKey Debug = keyOf(Code, {"-DSCALE=2"}, with({"-g", "-DSCALE=2"}));
  EXPECT_EQ(Release.Digest, Debug.Digest) << Release.Canonical << "\n" << Debug.Canonical;
  kopt::memory::CacheKey Scaled = keyOf(Code, {"-DSCALE=3"}, with({"-DSCALE=3"}));
  EXPECT_NE(Scaled.Digest, Debug.Digest);
  EXPECT_EQ(kopt::memory::compareKeys(Debug.Canonical, Scaled.Canonical).reason(),
            "macro SCALE differs: this compile has SCALE=3, the entry's had SCALE=2");
  kopt::memory::CacheKey Fast = keyOf(Code, {"-DSCALE=2"}, with({"-DSCALE=2", "-use_fast_math"}));
  EXPECT_EQ(kopt::memory::compareKeys(Debug.Canonical, Fast.Canonical).reason(),
            "flag --use_fast_math differs: this compile has --use_fast_math, the entry's had none");
  kopt::memory::CacheKey Sm80 = keyOf(Code, {"-DSCALE=2"}, with({"-DSCALE=2"}), "sm_80");
  EXPECT_EQ(kopt::memory::compareKeys(Debug.Canonical, Sm80.Canonical).reason(),
            "the entry was made for sm_90, this compile is sm_80");
  // -std does not change a unit without #include: in the flags, not the key.
  EXPECT_EQ(keyOf(Code, {"-DSCALE=2", "-std=c++20"}, with({"-DSCALE=2", "-std=c++20"})).Digest,
            Debug.Digest);
}

// An entry is keyed by architecture (builds without a GPU hit it), and by GPU
// model only where the architecture's key holds an entry made on another model.
TEST(CacheKeyFor, AModelsKeyOnlyWhereAnotherModelHoldsTheArchitecturesKey) {
  std::string Code = "#pragma kopt optimize launch(grid: 1; block: 32) args(n = 32) buffers(x[n])\n"
                     "__global__ void k(int n, float *x) { x[0] = n; }\n";
  std::vector<std::string> Args = kopt::fuzz::snippetClangArgs();
  std::string Diags;
  llvm::raw_string_ostream OS(Diags);
  auto Kernels = kopt::frontend::findKernelsInCode(Code, "/t/k.cu", Args, OS);
  ASSERT_TRUE(bool(Kernels)) << llvm::toString(Kernels.takeError()) << Diags;
  const kopt::frontend::KernelSummary &K = Kernels->front();
  std::vector<std::string> Flags = with({});
  kopt::memory::CacheKey Arch = cacheKeyFor(K, "sm_90", Flags);
  kopt::memory::CacheKey H200 = cacheKeyFor(K, "sm_90", Flags, "NVIDIA H200");
  EXPECT_EQ(Arch.Canonical.find("\"device\""), std::string::npos) << Arch.Canonical;
  EXPECT_NE(H200.Digest, Arch.Digest);
  EXPECT_EQ(kopt::memory::compareKeys(Arch.Canonical, H200.Canonical).reason(),
            "the entry's key is for any GPU of its architecture, this lookup is for the GPU model "
            "NVIDIA H200");

  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("kopt-model-keys", Dir));
  kopt::memory::CacheConfig Config;
  Config.UserDir = std::string(Dir);
  auto Cache = llvm::cantFail(kopt::memory::ResultCache::open(Config));
  // Nothing there yet, or an entry of the same model: the architecture's key.
  EXPECT_EQ(storeKeyFor(K, "sm_90", Flags, "NVIDIA H200", Cache).Digest, Arch.Digest);
  kopt::memory::CacheEntry Made;
  Made.KernelName = "k";
  Made.Origin.Device = "NVIDIA H200";
  ASSERT_FALSE(llvm::errorToBool(Cache.store(Arch, Made)));
  EXPECT_EQ(storeKeyFor(K, "sm_90", Flags, "NVIDIA H200", Cache).Digest, Arch.Digest);
  // Another model's entry keeps the architecture's key: the model's own.
  EXPECT_EQ(storeKeyFor(K, "sm_90", Flags, "NVIDIA H100 80GB HBM3", Cache).Digest,
            cacheKeyFor(K, "sm_90", Flags, "NVIDIA H100 80GB HBM3").Digest);
  llvm::sys::fs::remove_directories(Dir);
}
