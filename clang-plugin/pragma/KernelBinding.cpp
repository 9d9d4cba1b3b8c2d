#include "clang-plugin/pragma/KernelBinding.h"

#include <llvm/ADT/STLExtras.h>
#include <llvm/ADT/StringMap.h>
#include <llvm/ADT/StringSet.h>

#include <algorithm>

namespace kopt::frontend {

namespace {

// What a name in an expression is allowed to be.
enum class NameUse : uint8_t {
  Value,   // Any scalar: an args value, a range bound.
  Integer, // The expression's result is an integer: launch, sizes, integer args.
};

class KernelChecker {
public:
  KernelChecker(const PragmaClauses &Checked, llvm::StringRef KernelName,
                llvm::ArrayRef<KernelParam> KernelParams,
                llvm::ArrayRef<KernelParam> KernelTemplateParams)
      : Clauses(Checked), Kernel(KernelName), Params(KernelParams),
        TemplateParams(KernelTemplateParams) {}

  std::vector<PragmaDiagnostic> run() {
    if (Clauses.Launch) {
      for (const ClauseExpr &E : Clauses.Launch->Grid)
        checkExpr(E, NameUse::Integer, "a launch dimension");
      for (const ClauseExpr &E : Clauses.Launch->Block)
        checkExpr(E, NameUse::Integer, "a launch dimension");
      if (Clauses.Launch->SharedMemory)
        checkExpr(*Clauses.Launch->SharedMemory, NameUse::Integer, "the shared memory size");
    }
    if (Clauses.Args) {
      for (const ArgValue &A : *Clauses.Args)
        checkArg(A);
      checkArgCycles(*Clauses.Args);
    }
    if (Clauses.Buffers)
      for (const BufferSpec &B : *Clauses.Buffers)
        checkBuffer(B);
    // A kernel template always has template parameters.
    if (Clauses.Instantiation && TemplateParams.empty())
      diag(PragmaDiagKind::InstantiationOfNonTemplate, Clauses.InstantiationToken,
           {*Clauses.Instantiation, Kernel.str()});
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

  const KernelParam *find(llvm::StringRef Name) const {
    for (llvm::ArrayRef<KernelParam> List : {Params, TemplateParams})
      for (const KernelParam &P : List)
        if (!P.Name.empty() && P.Name == Name)
          return &P;
    return nullptr;
  }

  // The parameter or template parameter called Name; reports it missing (with
  // a suggestion) at Token.
  const KernelParam *lookup(const std::string &Name, unsigned Token, bool TemplatesToo) {
    if (const KernelParam *P = find(Name); P && (TemplatesToo || isFunctionParam(*P)))
      return P;
    std::vector<llvm::StringRef> Names;
    for (const KernelParam &P : Params)
      Names.push_back(P.Name);
    if (TemplatesToo)
      for (const KernelParam &P : TemplateParams)
        Names.push_back(P.Name);
    if (std::optional<std::string> S = closestSpelling(Name, Names))
      diag(PragmaDiagKind::UnknownParameterSuggest, Token, {Kernel.str(), Name, *S}, *S);
    else
      diag(PragmaDiagKind::UnknownParameter, Token, {Kernel.str(), Name});
    return nullptr;
  }

  bool isFunctionParam(const KernelParam &P) const {
    return &P >= Params.begin() && &P < Params.end();
  }

  static NumKind kindOf(const KernelParam *P) {
    return P && P->Category == ParamCategory::Floating ? NumKind::Double : NumKind::Integer;
  }

  // Every name is a scalar parameter or an integral template parameter; with
  // Use Integer, the expression's value is an integer. False after an error.
  bool checkExpr(const ClauseExpr &E, NameUse Use, llvm::StringRef What) {
    if (!E.Root)
      return true;
    std::vector<const ExprNode *> Names;
    collectNames(*E.Root, Names);
    bool OK = true;
    for (const ExprNode *N : Names) {
      const KernelParam *P = lookup(N->Spelling, N->Token, /*TemplatesToo=*/true);
      if (!P) {
        OK = false;
      } else if (P->Category != ParamCategory::Integer && P->Category != ParamCategory::Floating) {
        diag(PragmaDiagKind::NameNotScalar, N->Token, {P->Name, P->Type});
        OK = false;
      }
    }
    if (!OK || Use != NameUse::Integer)
      return OK;
    const ExprNode *Cause = nullptr;
    NumKind Kind =
        staticKind(*E.Root, [&](const ExprNode &N) { return kindOf(find(N.Spelling)); }, &Cause);
    if (Kind == NumKind::Integer || !Cause)
      return true;
    reportFloating(*Cause, What);
    return false;
  }

  void reportFloating(const ExprNode &Cause, llvm::StringRef What) {
    if (Cause.Kind == ExprKind::Name) {
      const KernelParam *P = find(Cause.Spelling);
      diag(PragmaDiagKind::NameNotInteger, Cause.Token, {Cause.Spelling, P ? P->Type : ""});
    } else if (Cause.Kind == ExprKind::Float) {
      diag(PragmaDiagKind::ExpectedInteger, Cause.Token, {What.str(), Cause.Spelling});
    } else {
      diag(PragmaDiagKind::ExpectedIntegerValue, Cause.Token, {What.str(), describeNode(Cause)});
    }
  }

  void checkArg(const ArgValue &A) {
    const KernelParam *P = lookup(A.Name, A.NameToken, /*TemplatesToo=*/false);
    NameUse Use = NameUse::Value;
    if (P) {
      switch (P->Category) {
      case ParamCategory::Pointer:
        diag(PragmaDiagKind::ArgIsPointer, A.NameToken, {P->Name});
        return;
      case ParamCategory::Other:
        diag(PragmaDiagKind::ArgNotScalar, A.NameToken, {P->Name, P->Type});
        return;
      case ParamCategory::Integer:
        Use = NameUse::Integer;
        break;
      case ParamCategory::Floating:
        break;
      }
    }
    for (const ClauseExpr *E : values(A)) {
      if (!checkExpr(*E, NameUse::Value, "") || Use != NameUse::Integer || !E->Root)
        continue;
      // An integer parameter: a floating value is the user's mistake in the value.
      const ExprNode *Cause = nullptr;
      NumKind Kind =
          staticKind(*E->Root, [&](const ExprNode &N) { return kindOf(find(N.Spelling)); }, &Cause);
      if (Kind == NumKind::Integer || !Cause)
        continue;
      if (Cause->Kind == ExprKind::Name)
        reportFloating(*Cause, "");
      else
        diag(PragmaDiagKind::ArgNeedsInteger, Cause->Token,
             {P->Name, P->Type, describeNode(*Cause)});
    }
  }

  static std::vector<const ClauseExpr *> values(const ArgValue &A) {
    std::vector<const ClauseExpr *> All = {&A.Value};
    for (const ClauseExpr &E : A.MoreValues)
      All.push_back(&E);
    return All;
  }

  // An args value may use other args, but not (through them) itself.
  void checkArgCycles(const std::vector<ArgValue> &Args) {
    llvm::StringMap<std::vector<std::string>> Uses;
    for (const ArgValue &A : Args) {
      std::vector<std::string> &U = Uses[A.Name];
      for (const ClauseExpr *E : values(A)) {
        std::vector<const ExprNode *> Names;
        if (E->Root)
          collectNames(*E->Root, Names);
        for (const ExprNode *N : Names)
          U.push_back(N->Spelling);
      }
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
    const KernelParam *P = lookup(B.Name, B.NameToken, /*TemplatesToo=*/false);
    if (P && P->Category != ParamCategory::Pointer) {
      diag(PragmaDiagKind::BufferNotPointer, B.NameToken, {P->Name, P->Type});
      P = nullptr;
    } else if (P && P->PointeeIsConst && B.Access && *B.Access != BufferAccess::In) {
      diag(PragmaDiagKind::ConstBufferWritten, B.AccessToken,
           {P->Name, spelling(*B.Access).str(), P->Type});
    }
    checkExpr(B.Size, NameUse::Integer, "a buffer size");
    if (!P)
      return;
    // Without a direction, constness decides: const elements are inputs only.
    BufferAccess Access =
        B.Access.value_or(P->PointeeIsConst ? BufferAccess::In : BufferAccess::InOut);
    if (B.Range) {
      if (Access == BufferAccess::Out)
        diag(PragmaDiagKind::RangeOfOutput, B.Range->Token, {B.Name});
      else if (P->Pointee == ParamCategory::Other)
        diag(PragmaDiagKind::RangeOfOtherType, B.Range->Token, {B.Name, P->Type});
      else
        for (const ClauseExpr *Bound : {&B.Range->Low, &B.Range->High})
          checkExpr(*Bound,
                    P->Pointee == ParamCategory::Integer ? NameUse::Integer : NameUse::Value,
                    "a range bound of integer elements");
    }
    if (B.Tol && Access == BufferAccess::In)
      diag(PragmaDiagKind::TolOfInput, B.TolToken, {B.Name});
  }

  const PragmaClauses &Clauses;
  llvm::StringRef Kernel;
  llvm::ArrayRef<KernelParam> Params, TemplateParams;
  std::vector<PragmaDiagnostic> Diags;
};

} // namespace

std::vector<PragmaDiagnostic> checkAgainstKernel(const PragmaClauses &Clauses,
                                                 llvm::StringRef KernelName,
                                                 llvm::ArrayRef<KernelParam> Params,
                                                 llvm::ArrayRef<KernelParam> TemplateParams) {
  return KernelChecker(Clauses, KernelName, Params, TemplateParams).run();
}

} // namespace kopt::frontend
