// The device compilations nvcc runs for a CUDA source, checked against nvcc
// 13.0's --dryrun: one a virtual architecture (cicc -arch compute_XX, where
// __CUDA_ARCH__ is XX0), each giving SASS for some real architectures (ptxas)
// and PTX for JIT. kcc looks a kernel up once for each real architecture and
// splices a variant only into the pass that builds that architecture alone.
//   -arch=sm_90                 compute_90 -> sm_90 + PTX
//   -arch=sm_90a                compute_90 -> PTX; compute_90a -> sm_90a + PTX
//   -arch=compute_80 -code=sm_80,sm_90   compute_80 -> sm_80, sm_90
//   -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90
//                               compute_80 -> sm_80; compute_90 -> sm_90
//   (none)                      compute_75 -> sm_75 + PTX (nvcc 13.0's default)
// -arch adds its pass to the -gencode ones. lto_XX counts as SASS for sm_XX
// (it becomes that at the device link).
#pragma once

#include "driver/nvcc/NvccCommandLine.h"

#include <llvm/Support/Error.h>

#include <string>
#include <vector>

namespace kopt::driver {

struct NvccDevicePass {
  std::string Virtual;           // "compute_90", "compute_90a", "compute_100f"
  std::vector<std::string> Real; // "sm_90": the SASS built from this pass, in order.
  bool Ptx = false;              // This pass's PTX is embedded (for JIT).

  // The real architecture of the same number and suffix ("sm_90" for compute_90).
  std::string matchingReal() const;
  // Whether this pass builds SASS for its own architecture and no other.
  bool buildsOnlyItsOwn() const { return Real.size() == 1 && Real.front() == matchingReal(); }
  // A preprocessor condition true in this pass only (false on the host):
  //   compute_90   __CUDA_ARCH__ == 900 && !defined(__CUDA_ARCH_FAMILY_SPECIFIC__)
  //   compute_100f __CUDA_ARCH_FAMILY_SPECIFIC__ == 1000 && !defined(__CUDA_ARCH_SPECIFIC__)
  //   compute_90a  __CUDA_ARCH_SPECIFIC__ == 900
  std::string guard() const;
  // The architecture's number (90 for compute_90a), as CUDA's runtime
  // reports a function's ptxVersion and binaryVersion.
  int number() const;
};

// Fails for -arch=all, all-major and native (kcc cannot tell which passes
// those make), and for a virtual architecture it cannot read.
llvm::Expected<std::vector<NvccDevicePass>> nvccDevicePasses(const NvccCommandLine &Cmd);

// The real architectures of the passes, each once, in order.
std::vector<std::string> realArchitectures(const std::vector<NvccDevicePass> &Passes);

} // namespace kopt::driver
