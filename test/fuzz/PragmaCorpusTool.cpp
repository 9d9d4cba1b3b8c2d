// kopt-pragma-corpus: the fuzz corpus of '#pragma kopt' lines, for lit.
//
//   kopt-pragma-corpus sample [SEED [COUNT [SIZE]]]
//       Generates COUNT cases (default 3000) from SEED (default 1) and prints SIZE
//       (default 50) of them, one a line, spread over the different outcomes (each
//       first diagnostic, and acceptance). Lines a source file cannot hold as one
//       line ('\', '/*') are left out.
//   kopt-pragma-corpus check FILE
//       Parses each line of FILE with clang as '#pragma kopt LINE' before a kernel
//       (int n, int m, float a, const float *x, float *y) and prints "case N:
//       accepted" or "case N: rejected" followed by its diagnostics.
#include "clang-plugin/parse/KernelFinder.h"
#include "test/fuzz/PragmaInvariants.h"
#include "test/fuzz/PragmaMutator.h"

#include <llvm/ADT/MapVector.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>

#include <string>
#include <vector>

using namespace kopt;

namespace {

int sample(uint64_t Seed, size_t Count, size_t Size) {
  std::vector<std::string> Cases = fuzz::generatePragmaCorpus(Seed, Count);
  llvm::MapVector<int, std::vector<size_t>> ByOutcome; // -1: accepted.
  for (size_t I = 0; I < Cases.size(); ++I) {
    llvm::StringRef C = Cases[I];
    if (C.contains('\\') || C.contains("/*") || C.empty())
      continue;
    fuzz::CaseOutcome O = fuzz::checkPragmaText(C);
    if (!O.Violation.empty()) {
      llvm::errs() << "invariant violated by '" << C << "': " << O.Violation << "\n";
      return 1;
    }
    int Key = O.Accepted || !O.FirstKind ? -1 : int(*O.FirstKind);
    ByOutcome[Key].push_back(I);
  }
  // Round robin over the outcomes, in the order they first occur.
  std::vector<size_t> Picked;
  for (size_t Round = 0; Picked.size() < Size; ++Round) {
    bool Any = false;
    for (auto &[Key, Indices] : ByOutcome)
      if (Round < Indices.size() && Picked.size() < Size) {
        Picked.push_back(Indices[Round]);
        Any = true;
      }
    if (!Any)
      break;
  }
  std::sort(Picked.begin(), Picked.end());
  for (size_t I : Picked)
    llvm::outs() << Cases[I] << "\n";
  return 0;
}

int check(llvm::StringRef File) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Buffer = llvm::MemoryBuffer::getFile(File);
  if (!Buffer) {
    llvm::errs() << "kopt-pragma-corpus: cannot read " << File << "\n";
    return 1;
  }
  llvm::SmallVector<llvm::StringRef> Lines;
  (*Buffer)->getBuffer().split(Lines, '\n', -1, /*KeepEmpty=*/false);
  for (size_t I = 0; I < Lines.size(); ++I) {
    std::string Name = "/fuzz/case-" + std::to_string(I + 1) + ".cu";
    std::string Code = "#pragma kopt " + Lines[I].str() + "\n__global__ void fuzz_kernel(" +
                       fuzz::FuzzKernelParams + ") {}\n";
    std::string Diagnostics;
    llvm::raw_string_ostream OS(Diagnostics);
    auto Kernels = frontend::findKernelsInCode(Code, Name, fuzz::snippetClangArgs(), OS);
    bool Accepted = Kernels && Kernels->size() == 1 && Kernels->front().Pragma;
    if (!Kernels)
      llvm::consumeError(Kernels.takeError());
    llvm::outs() << "case " << I + 1 << ": " << (Accepted ? "accepted" : "rejected") << "\n";
    // The diagnostics without their source lines and carets.
    llvm::SmallVector<llvm::StringRef> Out;
    llvm::StringRef(Diagnostics).split(Out, '\n');
    for (llvm::StringRef L : Out)
      if (L.starts_with("/fuzz/"))
        llvm::outs() << L.drop_front(6) << "\n";
  }
  return 0;
}

} // namespace

int main(int Argc, char **Argv) {
  std::vector<llvm::StringRef> Args(Argv + 1, Argv + Argc);
  if (Args.size() == 2 && Args[0] == "check")
    return check(Args[1]);
  if (!Args.empty() && Args[0] == "sample" && Args.size() <= 4) {
    uint64_t Seed = 1, Count = 3000, Size = 50;
    if ((Args.size() > 1 && !llvm::to_integer(Args[1], Seed)) ||
        (Args.size() > 2 && !llvm::to_integer(Args[2], Count)) ||
        (Args.size() > 3 && !llvm::to_integer(Args[3], Size))) {
      llvm::errs() << "kopt-pragma-corpus: numbers expected\n";
      return 2;
    }
    return sample(Seed, Count, Size);
  }
  llvm::errs() << "usage: kopt-pragma-corpus sample [SEED [COUNT [SIZE]]] | check FILE\n";
  return 2;
}
