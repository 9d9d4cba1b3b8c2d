// Compiles a kernel unit to a cubin for one exact architecture: NVRTC first
// (loaded at run time, like the driver), `nvcc -cubin` where NVRTC rejects the
// unit (host headers it cannot find, say). Needs no GPU.
#pragma once

#include <llvm/Support/Error.h>

#include <string>
#include <vector>

namespace kopt::evaluator {

struct KernelSource {
  std::string Code;           // A self-contained unit (KernelUnit.h).
  std::string NameExpression; // The kernel as C++ names it: "saxpy", "ns::k<float, 4>".
  std::string MangledName;    // Its symbol where known (needed for the nvcc fallback).
  // -D, -I, -std=..., --use_fast_math, -maxrregcount... as for nvcc; the
  // architecture is added by the compiler.
  std::vector<std::string> Options;
};

struct CompiledKernel {
  std::string Cubin;
  std::string LoweredName; // The symbol to look up in the cubin.
  std::string Compiler;    // "nvrtc" or "nvcc".
  std::string Log;         // The compiler's messages (warnings too).
  double Seconds = 0;
};

// Fails with the compile log when neither compiler accepts the unit. Arch:
// "sm_90". NvccPath: the nvcc for the fallback (empty: <CUDA>/bin/nvcc).
llvm::Expected<CompiledKernel> compileKernel(const KernelSource &Source, const std::string &Arch,
                                             const std::string &NvccPath = "");

// NVRTC's version ("13.0"), or an error where libnvrtc cannot be loaded.
llvm::Expected<std::string> nvrtcVersion();

// The file of the libnvrtc loaded (the version comes from it), or an error
// where it cannot be loaded.
llvm::Expected<std::string> nvrtcLibraryPath();

} // namespace kopt::evaluator
