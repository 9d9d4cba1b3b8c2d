#include "clang-plugin/pragma/KernelBinding.h"

#include <llvm/ADT/STLExtras.h>
#include <llvm/ADT/StringMap.h>
#include <llvm/ADT/StringSet.h>

#include <algorithm>

namespace kopt::frontend {

namespace {

class KernelChecker {
public:
  KernelChecker(const PragmaClauses &Checked, llvm::StringRef KernelName,
                llvm::ArrayRef<KernelParam> KernelParams)
      : Clauses(Checked), Kernel(KernelName), Params(KernelParams) {}

  std::vector<PragmaDiagnostic> run() {
    if (Clauses.Launch) {
      for (const ClauseExpr &E : Clauses.Launch->Grid)
        checkNames(E, /*IntegerOnly=*/true);
      for (const ClauseExpr &E : Clauses.Launch->Block)
        checkNames(E, true);
      if (Clauses.Launch->SharedMemory)
        checkNames(*Clauses.Launch->SharedMemory, true);
    }
    if (Clauses.Args) {
      for (const ArgValue &A : *Clauses.Args)
        checkArg(A);
      checkArgCycles(*Clauses.Args);
    }
    if (Clauses.Buffers)
      for (const BufferSpec &B : *Clauses.Buffers)
        checkBuffer(B);
    // In the order of the source (there are no notes to keep with their errors).
    std::stable_sort(
        Diags.begin(), Diags.end(),
        [](const PragmaDiagnostic &L, const PragmaDiagnostic &R) { return L.Token < R.Token; });
    return std::move(Diags);
  }

private:
  void diag(PragmaDiagKind K, unsigned Token, std::vector<std::string> Args,
            std::string FixIt = {}) {
    Diags.push_back({K, Token, std::move(Args), std::move(FixIt)});
  }

  // The parameter called Name; reports it missing (with a suggestion) at Token.
  const KernelParam *lookup(const std::string &Name, unsigned Token) {
    for (const KernelParam &P : Params)
      if (!P.Name.empty() && P.Name == Name)
        return &P;
    std::vector<llvm::StringRef> Names;
    for (const KernelParam &P : Params)
      Names.push_back(P.Name);
    if (std::optional<std::string> S = closestSpelling(Name, Names))
      diag(PragmaDiagKind::UnknownParameterSuggest, Token, {Kernel.str(), Name, *S}, *S);
    else
      diag(PragmaDiagKind::UnknownParameter, Token, {Kernel.str(), Name});
    return nullptr;
  }

  void checkNames(const ClauseExpr &E, bool IntegerOnly) {
    if (!E.Root)
      return;
    std::vector<const ExprNode *> Names;
    collectNames(*E.Root, Names);
    for (const ExprNode *N : Names) {
      const KernelParam *P = lookup(N->Spelling, N->Token);
      if (!P)
        continue;
      if (IntegerOnly && P->Category != ParamCategory::Integer)
        diag(PragmaDiagKind::NameNotInteger, N->Token, {P->Name, P->Type});
      else if (P->Category != ParamCategory::Integer && P->Category != ParamCategory::Floating)
        diag(PragmaDiagKind::NameNotScalar, N->Token, {P->Name, P->Type});
    }
  }

  void checkArg(const ArgValue &A) {
    const KernelParam *P = lookup(A.Name, A.NameToken);
    bool IntegerOnly = false;
    if (P) {
      switch (P->Category) {
      case ParamCategory::Pointer:
        diag(PragmaDiagKind::ArgIsPointer, A.NameToken, {P->Name});
        return;
      case ParamCategory::Other:
        diag(PragmaDiagKind::ArgNotScalar, A.NameToken, {P->Name, P->Type});
        return;
      case ParamCategory::Integer:
        IntegerOnly = true;
        if (const ExprNode *F = A.Value.Root ? findFloatLiteral(*A.Value.Root) : nullptr) {
          diag(PragmaDiagKind::ArgNeedsInteger, F->Token, {P->Name, P->Type, F->Spelling});
          return;
        }
        break;
      case ParamCategory::Floating:
        break;
      }
    }
    checkNames(A.Value, IntegerOnly);
  }

  // An args value may use other args, but not (through them) itself.
  void checkArgCycles(const std::vector<ArgValue> &Args) {
    llvm::StringMap<std::vector<std::string>> Uses;
    for (const ArgValue &A : Args) {
      std::vector<const ExprNode *> Names;
      if (A.Value.Root)
        collectNames(*A.Value.Root, Names);
      std::vector<std::string> &U = Uses[A.Name];
      for (const ExprNode *N : Names)
        U.push_back(N->Spelling);
    }
    for (const ArgValue &A : Args) {
      llvm::StringSet<> Visited;
      std::vector<std::string> Work = Uses[A.Name];
      bool Cycle = false;
      while (!Work.empty() && !Cycle) {
        std::string Name = std::move(Work.back());
        Work.pop_back();
        if (Name == A.Name)
          Cycle = true;
        else if (Visited.insert(Name).second && Uses.count(Name))
          llvm::append_range(Work, Uses[Name]);
      }
      if (Cycle)
        diag(PragmaDiagKind::ArgDependsOnItself, A.NameToken, {A.Name});
    }
  }

  void checkBuffer(const BufferSpec &B) {
    if (const KernelParam *P = lookup(B.Name, B.NameToken)) {
      if (P->Category != ParamCategory::Pointer)
        diag(PragmaDiagKind::BufferNotPointer, B.NameToken, {P->Name, P->Type});
      else if (P->PointeeIsConst && B.Access && *B.Access != BufferAccess::In)
        diag(PragmaDiagKind::ConstBufferWritten, B.AccessToken,
             {P->Name, spelling(*B.Access).str(), P->Type});
    }
    checkNames(B.Size, true);
  }

  const PragmaClauses &Clauses;
  llvm::StringRef Kernel;
  llvm::ArrayRef<KernelParam> Params;
  std::vector<PragmaDiagnostic> Diags;
};

} // namespace

std::vector<PragmaDiagnostic> checkAgainstKernel(const PragmaClauses &Clauses,
                                                 llvm::StringRef KernelName,
                                                 llvm::ArrayRef<KernelParam> Params) {
  return KernelChecker(Clauses, KernelName, Params).run();
}

} // namespace kopt::frontend
