// A work queue's job (QueueSubmission.h) holds a kernel's unit and its pragma
// as one line: parsed on a worker, without the submitter's file, the kernel
// must give the key the submitter computed, or the worker's result would land
// where no build looks.
#include "clang-plugin/parse/KernelFinder.h"
#include "driver/optimize/KernelOptimization.h"
#include "driver/optimize/QueueSubmission.h"
#include "memory/cache/CacheKeyDiff.h"
#include "test/fuzz/PragmaMutator.h"

#include <gtest/gtest.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/raw_ostream.h>

using namespace kopt;

namespace {

// The thread geometry, for the snippets' host-only parse (no CUDA headers).
constexpr llvm::StringRef Geometry = "struct uint3 { unsigned x, y, z; };\n"
                                     "extern const uint3 threadIdx, blockIdx, blockDim;\n";

std::vector<frontend::KernelSummary> parse(llvm::StringRef Code, llvm::StringRef Path,
                                           const std::vector<std::string> &Flags) {
  std::vector<std::string> Args = fuzz::snippetClangArgs();
  Args.insert(Args.end(), Flags.begin(), Flags.end());
  std::string Diags;
  llvm::raw_string_ostream OS(Diags);
  auto Kernels = frontend::findKernelsInCode(Code, Path, Args, OS);
  if (!Kernels) {
    ADD_FAILURE() << llvm::toString(Kernels.takeError()) << Diags;
    return {};
  }
  return std::move(*Kernels);
}

// The key of kernel Name in Code as the submitter computes it, and as a worker
// computes it from the job; the job's error where there is no job.
struct Keys {
  std::string Submitter, Worker, Error;
};

Keys keysOf(const std::string &Snippet, llvm::StringRef Name, std::vector<std::string> Flags = {}) {
  std::string Code = Geometry.str() + Snippet;
  llvm::SmallString<128> Path;
  if (llvm::sys::fs::createTemporaryFile("queue-job", "cu", Path)) {
    ADD_FAILURE() << "no temporary file";
    return {};
  }
  {
    std::error_code EC;
    llvm::raw_fd_ostream(Path, EC) << Code;
  }
  std::vector<frontend::KernelSummary> Kernels = parse(Code, Path, Flags);
  llvm::sys::fs::remove(Path);
  auto K = std::find_if(Kernels.begin(), Kernels.end(),
                        [&](const frontend::KernelSummary &S) { return S.Name == Name; });
  if (K == Kernels.end()) {
    ADD_FAILURE() << "no kernel " << Name.str();
    return {};
  }
  driver::TuContext Tu;
  Tu.SourcePath = std::string(Path);
  Tu.NvccFlags = Flags;
  Tu.NvccFlags.insert(Tu.NvccFlags.end(), {"-arch=sm_90", "-c", std::string(Path)});
  Tu.Arch = "sm_90";
  memory::CacheKey Key = driver::cacheKeyFor(*K, Tu.Arch, Tu.NvccFlags);
  llvm::Expected<memory::QueueJob> Job = driver::queueJobFor(*K, Tu, Key);
  if (!Job)
    return {Key.Digest, "", llvm::toString(Job.takeError())};
  std::vector<frontend::KernelSummary> Again =
      parse(Job->workerSource(), "/worker/jobs/1-0.cu", Flags);
  auto W = std::find_if(Again.begin(), Again.end(), [&](const frontend::KernelSummary &S) {
    return S.Name == Name && S.Pragma;
  });
  if (W == Again.end()) {
    ADD_FAILURE() << "the worker finds no annotated " << Name.str() << " in\n"
                  << Job->workerSource();
    return {};
  }
  memory::CacheKey Mine = driver::cacheKeyFor(*W, Job->Arch, Job->Flags);
  EXPECT_EQ(Mine.Digest, Key.Digest)
      << memory::compareKeys(Key.Canonical, Mine.Canonical).reason() << "\n"
      << Job->workerSource();
  return {Key.Digest, Mine.Digest, ""};
}

} // namespace

TEST(QueueJobKey, AWorkerComputesTheSubmittersKey) {
  keysOf("#define N (1 << 20)\n"
         "#define BLOCK 256\n"
         "__device__ float twice(float v) { return 2 * v; }\n"
         "#pragma kopt optimize launch(grid: (n + BLOCK - 1) / BLOCK; block: BLOCK) \\\n"
         "    args(n = N, a = 0.5f, k = 1 | 2) buffers(x[n] in range(-4, 4), y[n] out "
         "tol(atol = 1e-4)) tol(rtol = 1e-3) budget(time = 30s, evals = 12) skills(-unroll) "
         "noalias\n"
         "__global__ void saxpy(int n, float a, int k, const float *x, float *y) {\n"
         "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
         "  if (i < n) y[i] = a * twice(x[i]) + k;\n"
         "}\n",
         "saxpy");
}

TEST(QueueJobKey, KernelsInNamespacesAndCommandLineMacros) {
  keysOf("namespace blas { namespace detail {\n"
         "#pragma kopt optimize launch(grid: 4; block: 64) args(n = 256) buffers(x[n] inout)\n"
         "__global__ void scale(int n, float *x) {\n"
         "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
         "  if (i < n) x[i] *= SCALE;\n"
         "}\n"
         "} }\n"
         "__global__ void other(float *x) { x[0] = 1; }\n",
         "blas::detail::scale", {"-DSCALE=3.0f"});
}

TEST(QueueJobKey, WhatAWorkerCannotTakeIsSaid) {
  Keys K = keysOf("#pragma kopt optimize\n__global__ void k(float *x) { x[0] = 1; }\n", "k");
  EXPECT_EQ(K.Error, "its workload would come from a recording on this machine, which a worker "
                     "does not have");
  K = keysOf("#pragma kopt optimize launch(grid: 1; block: B) buffers(x[B] inout)\n"
             "template <int B>\n"
             "__global__ void t(float *x) { x[threadIdx.x] += B; }\n",
             "t");
  EXPECT_EQ(K.Error, "a kernel template is not queued (its unit names no instantiation for the "
                     "worker)");
}
