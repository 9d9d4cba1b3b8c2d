// The evaluator's own kernels (input generation, output comparison), as CUDA
// source compiled once per session with NVRTC and loaded into its context.
#pragma once

#include "evaluator/compile/KernelCompiler.h"
#include "evaluator/device/CudaDriver.h"

#include <llvm/Support/Error.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace kopt::evaluator {

// One block's result of the comparison kernel; the host reduces the blocks
// (DeviceVerify.h). Layout shared with the device source.
struct ComparePartial {
  uint64_t Mismatches = 0;
  uint64_t First = UINT64_MAX;      // Smallest mismatching index; UINT64_MAX: none.
  double WorstRatio = -1;           // Largest ratio; -1: none.
  uint64_t WorstIndex = UINT64_MAX; // Its smallest index.
};
static_assert(sizeof(ComparePartial) == 32);

// Blocks and threads of every comparison launch: the partials array's size.
inline constexpr unsigned CompareBlocks = 1024, CompareThreads = 256;

// The kernels' cubin for Arch ("sm_90"): needs NVRTC, no GPU.
llvm::Expected<CompiledKernel> compileDeviceKernels(const std::string &Arch);

// How the generator draws a buffer's elements (InputGenerator.h's
// generateElement with its range, offsets layout and local indices), passed
// by value: the device source's struct Layout, field for field.
struct GeneratorLayout {
  int32_t Ranged = 0;
  double Lo = 0, Hi = 0;
  int32_t Offsets = 0;
  uint64_t Mean = 0, Jitter = 0;
  int32_t Local = 0;
  uint64_t Count = 0;
};
static_assert(sizeof(GeneratorLayout) == 64 && offsetof(GeneratorLayout, Mean) == 32 &&
              offsetof(GeneratorLayout, Count) == 56);

struct DeviceKernels {
  CUmodule Module = nullptr;
  // generate(unsigned char *out, u64 count, u64 key, int type, GeneratorLayout layout)
  CUfunction Generate = nullptr;
  // compare(const unsigned char *got, const unsigned char *expected (null: the
  // generator's stream key), u64 key, u64 count, int type, double rtol,
  // double atol, int bytewise, ComparePartial *partials, GeneratorLayout layout)
  CUfunction Compare = nullptr;

  // Compiles for Arch ("sm_90") and loads into the current context.
  static llvm::Expected<DeviceKernels> load(CudaDriver &Driver, const std::string &Arch);
};

} // namespace kopt::evaluator
