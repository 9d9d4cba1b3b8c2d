// kopt-parse-rate: what one parse costs the search. The search parses every
// variant it makes (its summary) and once more for every transform it applies
// to it, so parse time bounds how many variants fit a kernel's budget. For each
// annotated kernel of FILE, parses its unit as the search does (a summary, then
// a transform's rewrite that edits nothing), N times, with the CUDA headers read
// each time and with them precompiled (clang-plugin/parse/PrecompiledCudaHeaders.h),
// and prints the mean seconds of each and the first parse of the precompiled
// mode (which builds the PCH).
//   kopt-parse-rate FILE [--parses N] [-- NVCC_FLAGS]
#include "clang-plugin/parse/KernelFinder.h"
#include "clang-plugin/parse/PrecompiledCudaHeaders.h"
#include "clang-plugin/transforms/framework/TransformPipeline.h"
#include "clang-plugin/transforms/framework/UnitRewriter.h"
#include "driver/optimize/FrontendSetup.h"

#include <llvm/Support/Format.h>
#include <llvm/Support/raw_ostream.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace kopt;

namespace {

double seconds(std::chrono::steady_clock::time_point Since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - Since).count();
}

// One summary and one rewrite of the kernel's unit; false where either fails.
bool parseTwice(const frontend::KernelSummary &K, const std::vector<std::string> &ClangArgs) {
  llvm::Expected<frontend::KernelSummary> View = transform::summarizeUnit(
      K.Unit.Text, K.Name, ClangArgs, K.Pragma, transform::analysedInstantiation(K));
  if (!View) {
    llvm::errs() << llvm::toString(View.takeError()) << "\n";
    return false;
  }
  transform::TransformInput In{*View, K.Unit.Text, ClangArgs};
  llvm::Expected<std::string> Same =
      transform::rewriteUnit(In, [](transform::UnitAST &) { return llvm::Error::success(); });
  if (!Same) {
    llvm::errs() << llvm::toString(Same.takeError()) << "\n";
    return false;
  }
  return true;
}

struct Timing {
  double First = 0; // Seconds of the first summary-and-rewrite.
  double Mean = 0;  // Mean seconds of one parse over the others.
};

std::optional<Timing> time(const frontend::KernelSummary &K,
                           const std::vector<std::string> &ClangArgs, unsigned Parses) {
  Timing T;
  auto Start = std::chrono::steady_clock::now();
  if (!parseTwice(K, ClangArgs))
    return std::nullopt;
  T.First = seconds(Start);
  Start = std::chrono::steady_clock::now();
  for (unsigned I = 1; I < Parses; ++I)
    if (!parseTwice(K, ClangArgs))
      return std::nullopt;
  T.Mean = seconds(Start) / (2.0 * std::max(1u, Parses - 1));
  return T;
}

} // namespace

int main(int Argc, char **Argv) {
  std::string File;
  unsigned Parses = 10;
  std::vector<std::string> Flags;
  for (int I = 1; I < Argc; ++I) {
    if (!std::strcmp(Argv[I], "--parses") && I + 1 < Argc)
      Parses = std::max(2, std::atoi(Argv[++I]));
    else if (!std::strcmp(Argv[I], "--")) {
      Flags.assign(Argv + I + 1, Argv + Argc);
      break;
    } else if (File.empty())
      File = Argv[I];
    else {
      llvm::errs() << "usage: kopt-parse-rate FILE [--parses N] [-- NVCC_FLAGS]\n";
      return 2;
    }
  }
  if (File.empty()) {
    llvm::errs() << "usage: kopt-parse-rate FILE [--parses N] [-- NVCC_FLAGS]\n";
    return 2;
  }
  llvm::Expected<frontend::CudaParseSetup> Setup = driver::frontendSetupFor(Flags);
  if (!Setup) {
    llvm::errs() << "kopt-parse-rate: " << llvm::toString(Setup.takeError()) << "\n";
    return 1;
  }
  llvm::Expected<std::vector<frontend::KernelSummary>> Kernels =
      frontend::findKernels(File, *Setup);
  if (!Kernels) {
    llvm::errs() << "kopt-parse-rate: " << llvm::toString(Kernels.takeError()) << "\n";
    return 1;
  }
  std::vector<std::string> ClangArgs = Setup->clangArgs();
  llvm::outs() << "kernel\theaders read: s/parse\tprecompiled: s/parse\tfirst (builds the PCH) s\n";
  int Status = 0;
  for (const frontend::KernelSummary &K : *Kernels) {
    if (!K.Pragma)
      continue;
    frontend::enablePrecompiledCudaHeaders(false);
    std::optional<Timing> Read = time(K, ClangArgs, Parses);
    frontend::enablePrecompiledCudaHeaders(true);
    std::optional<Timing> Precompiled = time(K, ClangArgs, Parses);
    if (!Read || !Precompiled) {
      Status = 1;
      continue;
    }
    llvm::outs() << K.Name << "\t" << llvm::format("%.3f", Read->Mean) << "\t"
                 << llvm::format("%.3f", Precompiled->Mean) << "\t"
                 << llvm::format("%.3f", Precompiled->First) << "\n";
  }
  frontend::PrecompiledHeaderUse Use = frontend::precompiledHeaderUse();
  llvm::outs() << "PCHs built " << Use.Built << ", failed " << Use.Failed
               << ", parses that used one " << Use.Used << "\n";
  return Status;
}
