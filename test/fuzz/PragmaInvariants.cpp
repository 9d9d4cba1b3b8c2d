#include "test/fuzz/PragmaInvariants.h"

#include "clang-plugin/pragma/ClauseParser.h"
#include "clang-plugin/pragma/KernelBinding.h"
#include "clang-plugin/pragma/SkillIds.h"
#include "clang-plugin/pragma/WorkloadCheck.h"
#include "test/fuzz/PragmaMutator.h"

namespace kopt::fuzz {

namespace {

using namespace frontend;

// Empty, or what is wrong with Diags.
std::string checkDiagnostics(llvm::ArrayRef<PragmaDiagnostic> Diags, size_t TokenCount) {
  for (size_t I = 0; I < Diags.size(); ++I) {
    const PragmaDiagnostic &D = Diags[I];
    std::string Message = messageOf(D);
    if (D.Token >= TokenCount)
      return "diagnostic points past the last token: " + Message;
    if (Message.empty())
      return "empty diagnostic message";
    llvm::StringRef Format = formatOf(D.Kind);
    for (size_t P = Format.find('%'); P != llvm::StringRef::npos; P = Format.find('%', P + 1))
      if (P + 1 < Format.size() && Format[P + 1] >= '0' && Format[P + 1] <= '9' &&
          size_t(Format[P + 1] - '0') >= D.Args.size())
        return "unfilled argument in: " + Message;
    if (levelOf(D.Kind) == PragmaDiagLevel::Note && I == 0)
      return "a note without an error before it: " + Message;
  }
  return "";
}

std::string checkExpr(const ClauseExpr &E, size_t TokenCount, const NumberBindings &Values) {
  if (!E.Root || E.Text.empty())
    return "an accepted clause has an empty expression";
  if (E.Root->Depth > MaxExprNodes)
    return "expression deeper than the limit: " + E.Text;
  std::vector<const ExprNode *> Names;
  collectNames(*E.Root, Names);
  for (const ExprNode *N : Names)
    if (N->Token >= TokenCount)
      return "name points past the last token: " + E.Text;
  // Either a value or an error; neither may crash.
  if (llvm::Expected<ClauseNumber> V = evaluateNumber(E, Values); !V)
    llvm::consumeError(V.takeError());
  if (llvm::Expected<int64_t> V = evaluate(E, {{"n", 3}, {"m", 0}}); !V)
    llvm::consumeError(V.takeError());
  (void)printExpr(*E.Root);
  return "";
}

std::string checkClauses(const PragmaClauses &C, size_t TokenCount) {
  NumberBindings Values = resolveArgValues(C);
  std::vector<const ClauseExpr *> Exprs;
  if (C.Launch) {
    if (C.Launch->Grid.empty() || C.Launch->Grid.size() > 3 || C.Launch->Block.empty() ||
        C.Launch->Block.size() > 3)
      return "launch accepted with a wrong number of dimensions";
    for (const ClauseExpr &E : C.Launch->Grid)
      Exprs.push_back(&E);
    for (const ClauseExpr &E : C.Launch->Block)
      Exprs.push_back(&E);
    if (C.Launch->SharedMemory)
      Exprs.push_back(&*C.Launch->SharedMemory);
  }
  if (C.Args)
    for (const ArgValue &A : *C.Args)
      Exprs.push_back(&A.Value);
  if (C.Buffers)
    for (const BufferSpec &B : *C.Buffers)
      Exprs.push_back(&B.Size);
  for (const ClauseExpr *E : Exprs)
    if (std::string Problem = checkExpr(*E, TokenCount, Values); !Problem.empty())
      return Problem;
  if (C.Tol && ((C.Tol->Rtol && !(*C.Tol->Rtol >= 0)) || (C.Tol->Atol && !(*C.Tol->Atol >= 0))))
    return "negative tolerance accepted";
  if (C.Budget && ((C.Budget->Evals && *C.Budget->Evals <= 0) ||
                   (C.Budget->TimeSeconds && !(*C.Budget->TimeSeconds > 0))))
    return "non-positive budget accepted";
  return "";
}

} // namespace

CaseOutcome checkPragmaText(llvm::StringRef Text) {
  CaseOutcome Out;
  std::vector<ClauseToken> Tokens = lexPragmaText(Text);
  if (Tokens.empty() || !Tokens.back().is(ClauseToken::Kind::End)) {
    Out.Violation = "the lexer did not end with an End token";
    return Out;
  }
  PragmaParseResult R = parsePragma(Tokens);
  if (!R.Diagnostics.empty()) {
    Out.FirstProblem = messageOf(R.Diagnostics.front());
    Out.FirstKind = R.Diagnostics.front().Kind;
  }
  if (bool(R.Clauses) == hasErrors(R.Diagnostics)) {
    Out.Violation = R.Clauses ? "clauses despite errors" : "no clauses and no error";
    return Out;
  }
  Out.Violation = checkDiagnostics(R.Diagnostics, Tokens.size());
  if (!Out.Violation.empty() || !R.Clauses)
    return Out;
  Out.Violation = checkClauses(*R.Clauses, Tokens.size());
  if (!Out.Violation.empty())
    return Out;

  std::vector<KernelParam> Params = fuzzKernelParams();
  std::vector<PragmaDiagnostic> Problems = checkAgainstKernel(*R.Clauses, "fuzz_kernel", Params);
  if (!hasErrors(Problems)) { // The workload, as the front end checks it (an empty body).
    WorkloadSubject Subject{
        "fuzz_kernel",      Params, {}, NumberBindings(), bodyUseOf(KernelFeatures()),
        installedSkillIds()};
    llvm::append_range(Problems, resolveWorkload(*R.Clauses, Subject).Diagnostics);
  }
  Out.Violation = checkDiagnostics(Problems, Tokens.size());
  if (!Problems.empty() && Out.FirstProblem.empty()) {
    Out.FirstProblem = messageOf(Problems.front());
    Out.FirstKind = Problems.front().Kind;
  }
  Out.Accepted = !hasErrors(Problems);
  return Out;
}

} // namespace kopt::fuzz
