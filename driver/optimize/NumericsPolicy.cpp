#include "driver/optimize/NumericsPolicy.h"

namespace kopt::driver {

bool compileUsesFastMath(const std::vector<std::string> &NvccFlags) {
  for (const std::string &F : NvccFlags)
    if (F == "-use_fast_math" || F == "--use_fast_math")
      return true;
  return false;
}

transform::TransformPolicy numericsPolicy(const frontend::KernelSummary &Kernel,
                                          bool OptionFastMath,
                                          const std::vector<std::string> &NvccFlags) {
  transform::TransformPolicy P;
  P.ApproximateMath = OptionFastMath || (Kernel.Pragma && Kernel.Pragma->FastMath) ||
                      compileUsesFastMath(NvccFlags);
  return P;
}

} // namespace kopt::driver
