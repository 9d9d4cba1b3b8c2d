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
//   kopt-pragma-corpus fuzz [--seconds S] [--seed N] [--cases C]
//       Generates cases from N (default: a fresh seed, printed) for S seconds
//       (default 40; with --cases, C cases and no time limit unless --seconds is
//       given too) and checks each with the parser alone (PragmaInvariants.h)
//       and through the front end (FrontEndAgreement.h: kopt check and kopt
//       inspect agree). Exit 1 on the first violation, a case that takes over
//       10 s (a hang), or a crash (the case is printed with the stack).
#include "clang-plugin/parse/KernelFinder.h"
#include "test/fuzz/FrontEndAgreement.h"
#include "test/fuzz/PragmaInvariants.h"
#include "test/fuzz/PragmaMutator.h"

#include <llvm/ADT/MapVector.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/FormatVariadic.h>
#include <llvm/Support/InitLLVM.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/PrettyStackTrace.h>
#include <llvm/Support/raw_ostream.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <unistd.h>
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

// A crash names the case it crashed on.
class CaseTrace : public llvm::PrettyStackTraceEntry {
public:
  CaseTrace(uint64_t FromSeed, size_t CaseIndex, const std::string &CaseText)
      : Seed(FromSeed), Index(CaseIndex), Text(CaseText) {}
  void print(llvm::raw_ostream &OS) const override {
    OS << "pragma case " << Index << " of seed " << Seed << ": '" << Text << "'\n";
  }

private:
  uint64_t Seed;
  size_t Index;
  const std::string &Text;
};

// Ends the process where one case runs longer than Limit: a hang fails the
// run at once, naming the case, instead of at ctest's timeout.
class HangWatch {
public:
  HangWatch(uint64_t FromSeed, std::chrono::seconds CaseLimit)
      : Seed(FromSeed), Limit(CaseLimit), Thread([this] { watch(); }) {}
  ~HangWatch() {
    {
      std::lock_guard<std::mutex> Hold(Lock);
      Done = true;
    }
    Wake.notify_one();
    Thread.join();
  }
  void begin(size_t Index, const std::string &Text) {
    std::lock_guard<std::mutex> Hold(Lock);
    Current = Text;
    CurrentIndex = Index;
    Started = std::chrono::steady_clock::now();
  }

private:
  void watch() {
    std::unique_lock<std::mutex> Hold(Lock);
    while (!Wake.wait_for(Hold, std::chrono::milliseconds(500), [this] { return Done; }))
      if (std::chrono::steady_clock::now() - Started > Limit) {
        llvm::errs() << "fuzz: case " << CurrentIndex << " of seed " << Seed << " runs over "
                     << Limit.count() << " s (a hang): '" << Current << "'\n";
        llvm::errs().flush();
        ::_exit(1);
      }
  }
  uint64_t Seed;
  std::chrono::seconds Limit;
  std::mutex Lock;
  std::condition_variable Wake;
  bool Done = false;
  std::string Current;
  size_t CurrentIndex = 0;
  std::chrono::steady_clock::time_point Started = std::chrono::steady_clock::now();
  std::thread Thread; // Last: it starts with everything above in place.
};

// Runs until Seconds have passed or MaxCases cases are checked, whichever
// comes first (either may be unset).
int fuzzFor(uint64_t Seed, std::optional<double> Seconds, std::optional<size_t> MaxCases) {
  llvm::outs() << "fuzz: seed " << Seed;
  if (Seconds)
    llvm::outs() << ", " << llvm::formatv("{0}", *Seconds) << " s";
  if (MaxCases)
    llvm::outs() << ", " << *MaxCases << " cases";
  llvm::outs() << " (replay: kopt-pragma-corpus fuzz --seed " << Seed << ")\n";
  llvm::outs().flush();
  fuzz::Random R(Seed);
  llvm::ArrayRef<std::string> Seeds = fuzz::seedPragmas();
  auto End = std::chrono::steady_clock::now() + std::chrono::duration<double>(Seconds.value_or(0));
  HangWatch Watch(Seed, std::chrono::seconds(10));
  size_t Cases = 0, ThroughFrontEnd = 0, Accepted = 0;
  std::set<int> FirstKinds;
  while ((!Seconds || std::chrono::steady_clock::now() < End) && (!MaxCases || Cases < *MaxCases)) {
    std::string Case = fuzz::mutatePragma(Seeds[R.below(Seeds.size())], R);
    ++Cases;
    Watch.begin(Cases, Case);
    CaseTrace Trace(Seed, Cases, Case);
    fuzz::CaseOutcome Parsed = fuzz::checkPragmaText(Case);
    std::string Violation = Parsed.Violation;
    if (Parsed.FirstKind)
      FirstKinds.insert(int(*Parsed.FirstKind));
    llvm::StringRef C = Case;
    // Through clang: every case the parser accepts (check and inspect must
    // agree on it), and a quarter of the others (their verdicts must agree).
    bool ThroughClang = Parsed.Accepted || Cases % 4 == 0;
    if (Violation.empty() && ThroughClang && !C.contains('\\') && !C.contains("/*")) {
      fuzz::FrontEndOutcome Front = fuzz::checkThroughFrontEnd(Case);
      ++ThroughFrontEnd;
      Accepted += Front.Accepted;
      Violation = Front.Violation;
      if (!Violation.empty())
        Violation += "\n" + Front.Diagnostics;
    }
    if (!Violation.empty()) {
      llvm::errs() << "fuzz: case " << Cases << " of seed " << Seed << ": '" << Case
                   << "': " << Violation << "\n";
      return 1;
    }
  }
  llvm::outs() << "fuzz: " << Cases << " cases, " << ThroughFrontEnd << " through the front end ("
               << Accepted << " accepted), " << FirstKinds.size()
               << " kinds of first diagnostic: no violation\n";
  return 0;
}

} // namespace

int main(int Argc, char **Argv) {
  llvm::InitLLVM Init(Argc, Argv);
  std::vector<llvm::StringRef> Args(Argv + 1, Argv + Argc);
  if (Args.size() == 2 && Args[0] == "check")
    return check(Args[1]);
  if (!Args.empty() && Args[0] == "fuzz") {
    uint64_t Seed = std::random_device()();
    std::optional<double> Seconds;
    std::optional<size_t> MaxCases;
    for (size_t I = 1; I < Args.size(); ++I) {
      bool HasValue = I + 1 < Args.size();
      if (Args[I] == "--seed" && HasValue && llvm::to_integer(Args[I + 1], Seed))
        ++I;
      else if (Args[I] == "--seconds" && HasValue && llvm::to_float(Args[I + 1], Seconds.emplace()))
        ++I;
      else if (Args[I] == "--cases" && HasValue &&
               llvm::to_integer(Args[I + 1], MaxCases.emplace()))
        ++I;
      else {
        llvm::errs() << "kopt-pragma-corpus: fuzz [--seconds S] [--seed N] [--cases C]\n";
        return 2;
      }
    }
    if (!Seconds && !MaxCases)
      Seconds = 40;
    return fuzzFor(Seed, Seconds, MaxCases);
  }
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
  llvm::errs() << "usage: kopt-pragma-corpus sample [SEED [COUNT [SIZE]]] | check FILE | fuzz "
                  "[--seconds S] [--seed N] [--cases C]\n";
  return 2;
}
