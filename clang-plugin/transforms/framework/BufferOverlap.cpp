#include "clang-plugin/transforms/framework/BufferOverlap.h"

#include "clang-plugin/model/ClauseExpr.h"
#include "clang-plugin/model/KernelSummary.h"
#include "clang-plugin/transforms/framework/AstEdit.h"

#include <clang/AST/Decl.h>

namespace kopt::transform {

BufferSizes bufferSizes(const frontend::KernelSummary &Kernel) {
  BufferSizes Sizes;
  if (!Kernel.Pragma || !Kernel.Pragma->Buffers)
    return Sizes;
  for (const frontend::BufferSpec &B : *Kernel.Pragma->Buffers) {
    Sizes.Text[B.Name] = B.Size.Text;
    llvm::Expected<int64_t> N = frontend::evaluate(B.Size, {});
    if (!N)
      llvm::consumeError(N.takeError());
    else if (*N > 0)
      Sizes.Constant[B.Name] = *N;
  }
  return Sizes;
}

std::optional<std::string> bufferBytesText(const clang::ParmVarDecl &Param,
                                           const BufferSizes &Sizes) {
  auto Size = Sizes.Text.find(Param.getName().str());
  if (Size == Sizes.Text.end() || Param.getType()->getPointeeType()->isVoidType())
    return std::nullopt;
  return "(unsigned long long)(" + Size->second + ") * sizeof(*" + Param.getName().str() + ")";
}

llvm::Expected<std::string> apartTest(const UnitAST &U, const clang::ParmVarDecl &Kept,
                                      const std::string &KeptBytes,
                                      llvm::ArrayRef<const clang::ParmVarDecl *> Others,
                                      const BufferSizes &Sizes, bool NoAlias) {
  if (NoAlias || Kept.getType().isRestrictQualified())
    return "true";
  std::string Test;
  const std::string K = Kept.getName().str();
  for (const clang::ParmVarDecl *P : Others) {
    std::optional<std::string> Bytes = bufferBytesText(*P, Sizes);
    if (!Bytes)
      return unsupported(U, P->getLocation(),
                         "'" + P->getName() + "' may alias '" + K +
                             "' (no noalias clause, not __restrict__), and the pragma gives no "
                             "size to check it against");
    const std::string Q = P->getName().str();
    Test += std::string(Test.empty() ? "" : " && ") + "((const char *)" + Q + " + " + *Bytes +
            " <= (const char *)" + K + " || (const char *)" + K + " + " + KeptBytes +
            " <= (const char *)" + Q + ")";
  }
  return Test.empty() ? "true" : Test;
}

} // namespace kopt::transform
