#include "clang-plugin/pragma/PragmaSource.h"

#include <llvm/Support/Format.h>
#include <llvm/Support/raw_ostream.h>

namespace kopt::frontend {

namespace {

// Writes items separated by ", ".
class ListWriter {
public:
  explicit ListWriter(llvm::raw_ostream &Out) : OS(Out) {}
  llvm::raw_ostream &next() {
    if (Count++)
      OS << ", ";
    return OS;
  }

private:
  llvm::raw_ostream &OS;
  unsigned Count = 0;
};

void number(llvm::raw_ostream &OS, double V) { OS << llvm::format("%.17g", V); }

void exprs(llvm::raw_ostream &OS, const std::vector<ClauseExpr> &Es) {
  ListWriter List(OS);
  for (const ClauseExpr &E : Es)
    List.next() << E.Text;
}

void tolerance(llvm::raw_ostream &OS, const ToleranceClause &T) {
  OS << "tol(";
  ListWriter List(OS);
  if (T.Rtol)
    number(List.next() << "rtol = ", *T.Rtol);
  if (T.Atol)
    number(List.next() << "atol = ", *T.Atol);
  OS << ")";
}

void launch(llvm::raw_ostream &OS, const LaunchClause &L) {
  OS << " launch(grid: ";
  exprs(OS, L.Grid);
  OS << "; block: ";
  exprs(OS, L.Block);
  if (L.SharedMemory)
    OS << "; smem: " << L.SharedMemory->Text;
  OS << ")";
}

void args(llvm::raw_ostream &OS, const std::vector<ArgValue> &As) {
  OS << " args(";
  ListWriter List(OS);
  for (const ArgValue &A : As) {
    List.next() << A.Name << " = " << A.Value.Text;
    for (const ClauseExpr &More : A.MoreValues)
      OS << " | " << More.Text;
  }
  OS << ")";
}

void buffers(llvm::raw_ostream &OS, const std::vector<BufferSpec> &Bs) {
  OS << " buffers(";
  ListWriter List(OS);
  for (const BufferSpec &B : Bs) {
    List.next() << B.Name << "[" << B.Size.Text << "]";
    if (B.Access)
      OS << " " << spelling(*B.Access);
    if (B.Range)
      OS << " range(" << B.Range->Low.Text << ", " << B.Range->High.Text << ")";
    if (B.Tol)
      tolerance(OS << " ", *B.Tol);
  }
  OS << ")";
}

void budget(llvm::raw_ostream &OS, const BudgetClause &B) {
  OS << " budget(";
  ListWriter List(OS);
  if (B.TimeSeconds)
    number(List.next() << "time = ", *B.TimeSeconds), OS << "s";
  if (B.Evals)
    List.next() << "evals = " << *B.Evals;
  if (B.Tokens)
    List.next() << "tokens = " << *B.Tokens;
  OS << ")";
}

void skills(llvm::raw_ostream &OS, const std::vector<SkillToggle> &Ss) {
  OS << " skills(";
  ListWriter List(OS);
  for (const SkillToggle &S : Ss)
    List.next() << (S.Enabled ? "+" : "-") << S.Id;
  OS << ")";
}

} // namespace

std::string pragmaSource(const PragmaClauses &P) {
  std::string Line;
  llvm::raw_string_ostream OS(Line);
  OS << "#pragma kopt optimize";
  if (P.Launch)
    launch(OS, *P.Launch);
  if (P.Args)
    args(OS, *P.Args);
  if (P.Buffers)
    buffers(OS, *P.Buffers);
  if (P.Tol)
    tolerance(OS << " ", *P.Tol);
  if (P.Budget)
    budget(OS, *P.Budget);
  if (P.Skills)
    skills(OS, *P.Skills);
  if (P.NoAlias)
    OS << " noalias";
  if (P.Engine)
    OS << " engine(" << spelling(*P.Engine) << ")";
  if (P.Instantiation)
    OS << " instantiation(" << *P.Instantiation << ")";
  return Line;
}

} // namespace kopt::frontend
