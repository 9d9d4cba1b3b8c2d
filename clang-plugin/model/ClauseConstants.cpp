#include "clang-plugin/model/ClauseConstants.h"

#include <llvm/ADT/STLExtras.h>

namespace kopt::frontend {

std::shared_ptr<const ExprNode> withConstants(const std::shared_ptr<const ExprNode> &N,
                                              ConstantLookup Constant) {
  if (!N)
    return N;
  if (N->Kind == ExprKind::Name) {
    std::optional<int64_t> V = Constant(N->Spelling);
    if (!V)
      return N;
    auto Value = std::make_shared<ExprNode>(*N);
    Value->Kind = ExprKind::Integer;
    Value->IntValue = *V;
    return Value;
  }
  auto Cond = withConstants(N->Cond, Constant), LHS = withConstants(N->LHS, Constant),
       RHS = withConstants(N->RHS, Constant);
  if (Cond == N->Cond && LHS == N->LHS && RHS == N->RHS)
    return N;
  auto Copy = std::make_shared<ExprNode>(*N);
  Copy->Cond = std::move(Cond);
  Copy->LHS = std::move(LHS);
  Copy->RHS = std::move(RHS);
  return Copy;
}

void replaceConstants(PragmaClauses &P, ConstantLookup Constant) {
  auto Replace = [&](ClauseExpr &E) { E.Root = withConstants(E.Root, Constant); };
  if (P.Launch) {
    llvm::for_each(P.Launch->Grid, Replace);
    llvm::for_each(P.Launch->Block, Replace);
    if (P.Launch->SharedMemory)
      Replace(*P.Launch->SharedMemory);
  }
  if (P.Args)
    for (ArgValue &A : *P.Args) {
      Replace(A.Value);
      llvm::for_each(A.MoreValues, Replace);
    }
  if (P.Buffers)
    for (BufferSpec &B : *P.Buffers) {
      Replace(B.Size);
      if (B.Range) {
        Replace(B.Range->Low);
        Replace(B.Range->High);
      }
    }
}

} // namespace kopt::frontend
