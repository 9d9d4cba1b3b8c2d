#include "clang-plugin/model/VerificationChain.h"

#include <algorithm>

namespace kopt::frontend {

bool hasInOutBuffer(const PragmaClauses &P, llvm::ArrayRef<KernelParam> Params) {
  for (const KernelParam &Param : Params) {
    if (Param.Category != ParamCategory::Pointer)
      continue;
    const BufferSpec *Spec = nullptr;
    if (P.Buffers)
      for (const BufferSpec &B : *P.Buffers)
        if (B.Name == Param.Name)
          Spec = &B;
    if ((Spec && Spec->Access) ? *Spec->Access == BufferAccess::InOut : !Param.PointeeIsConst)
      return true;
  }
  return false;
}

unsigned verificationChain(const PragmaClauses &P, llvm::ArrayRef<KernelParam> Params) {
  if (P.Repeat)
    return static_cast<unsigned>(std::clamp<int64_t>(*P.Repeat, 1, MaxRepeat));
  return hasInOutBuffer(P, Params) ? DefaultInOutChain : 1;
}

} // namespace kopt::frontend
