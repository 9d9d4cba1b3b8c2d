// kopt-eval-rate: the evaluator's throughput, issue 5's benchmark. Distinct
// variants of one kernel, each compiled (NVRTC), verified on the session's
// seeds and timed interleaved against the original, the way the optimizer
// submits them; reports variants a minute for a small elementwise kernel and
// a 4096 x 4096 matmul.
//   kopt-eval-rate [--variants N] [--only saxpy|matmul]
#include "evaluator/Evaluator.h"
#include "evaluator/worker/WorkerMain.h"

#include <llvm/Support/Format.h>
#include <llvm/Support/raw_ostream.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>

using namespace kopt::evaluator;

namespace {

struct Problem {
  const char *Name;
  std::string Code; // The original; variant N differs by a comment, so NVRTC compiles each.
  const char *Kernel;
  Workload Work;
};

Problem saxpy() {
  constexpr int N = 1 << 20;
  Problem P{"saxpy (1M floats)",
            "extern \"C\" __global__ void saxpy(int n, float a, const float *x, float *y) {\n"
            "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
            "  if (i < n) y[i] = a * x[i] + y[i];\n}\n",
            "saxpy",
            {}};
  P.Work.Args = {{"n", ScalarArg{ScalarType::I32, N}},
                 {"a", ScalarArg{ScalarType::F32, 2.0}},
                 {"x", BufferArg{ScalarType::F32, N, Direction::In}},
                 {"y", BufferArg{ScalarType::F32, N, Direction::InOut}}};
  P.Work.Launch.Grid = {N / 256, 1, 1};
  P.Work.Launch.Block = {256, 1, 1};
  return P;
}

Problem matmul() {
  constexpr int N = 4096;
  Problem P{"matmul (4096 x 4096 fp32, naive)",
            "extern \"C\" __global__ void matmul(int n, const float *a, const float *b, float *c) "
            "{\n"
            "  int row = blockIdx.y * blockDim.y + threadIdx.y;\n"
            "  int col = blockIdx.x * blockDim.x + threadIdx.x;\n"
            "  if (row < n && col < n) {\n"
            "    float acc = 0.0f;\n"
            "    for (int k = 0; k < n; ++k) acc += a[row * n + k] * b[k * n + col];\n"
            "    c[row * n + col] = acc;\n  }\n}\n",
            "matmul",
            {}};
  uint64_t Elems = uint64_t(N) * N;
  P.Work.Args = {{"n", ScalarArg{ScalarType::I32, N}},
                 {"a", BufferArg{ScalarType::F32, Elems, Direction::In}},
                 {"b", BufferArg{ScalarType::F32, Elems, Direction::In}},
                 {"c", BufferArg{ScalarType::F32, Elems, Direction::Out}}};
  P.Work.Launch.Grid = {N / 16, N / 16, 1};
  P.Work.Launch.Block = {16, 16, 1};
  P.Work.Tol = Tolerance{1e-3, 1e-3}; // K = 4096 sums in a different order stay within this.
  return P;
}

double secondsSince(std::chrono::steady_clock::time_point Start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
}

int measure(Evaluator &Eval, const Problem &P, unsigned Variants) {
  auto Start = std::chrono::steady_clock::now();
  auto Base = Eval.setOriginal({P.Code, P.Kernel, P.Kernel, {}}, P.Work);
  if (!Base) {
    llvm::errs() << "eval-rate: " << P.Name << ": " << llvm::toString(Base.takeError()) << "\n";
    return 1;
  }
  double SetupSeconds = secondsSince(Start);
  double CompileSeconds = 0;
  unsigned Verified = 0;
  Start = std::chrono::steady_clock::now();
  for (unsigned I = 0; I < Variants; ++I) {
    std::string Code = P.Code + "// variant " + std::to_string(I) + "\n";
    auto Out = Eval.evaluate({Code, P.Kernel, P.Kernel, {}}, P.Work.Launch);
    if (!Out) {
      llvm::errs() << "eval-rate: " << P.Name << ": " << llvm::toString(Out.takeError()) << "\n";
      return 1;
    }
    CompileSeconds += Out->Compile.Seconds;
    Verified += Out->Result == Verdict::Faster || Out->Result == Verdict::NotFaster;
  }
  double Seconds = secondsSince(Start);
  llvm::outs() << "eval-rate: " << P.Name << ": original measured in "
               << llvm::format("%.2f", SetupSeconds) << " s (" << Base->Timing.MedianMs
               << " ms a launch); " << Variants << " variants in " << llvm::format("%.2f", Seconds)
               << " s, " << Verified
               << " verified: " << llvm::format("%.1f", Variants / Seconds * 60)
               << " a minute (compile " << llvm::format("%.3f", CompileSeconds / Variants)
               << " s, verify + time "
               << llvm::format("%.3f", (Seconds - CompileSeconds) / Variants) << " s each)\n";
  return Verified == Variants ? 0 : 1;
}

} // namespace

int main(int argc, char **argv) {
  if (std::optional<int> Status = runEvaluationWorkerIfAsked(argc, argv))
    return *Status;
  unsigned Variants = 20;
  std::string Only;
  for (int I = 1; I < argc; ++I) {
    if (!std::strcmp(argv[I], "--variants") && I + 1 < argc)
      Variants = static_cast<unsigned>(std::atoi(argv[++I]));
    else if (!std::strcmp(argv[I], "--only") && I + 1 < argc)
      Only = argv[++I];
    else {
      llvm::errs() << "usage: kopt-eval-rate [--variants N] [--only saxpy|matmul]\n";
      return 2;
    }
  }
  if (Variants == 0) {
    llvm::errs() << "eval-rate: --variants must be at least 1\n";
    return 2;
  }
  int Status = 0;
  for (const Problem &P : {saxpy(), matmul()}) {
    if (!Only.empty() && llvm::StringRef(P.Kernel) != Only)
      continue;
    auto Eval = Evaluator::start(); // One session per problem, as kcc has per kernel.
    if (!Eval) {
      llvm::errs() << "eval-rate: " << llvm::toString(Eval.takeError()) << "\n";
      return 1;
    }
    Status |= measure(**Eval, P, Variants);
  }
  return Status;
}
