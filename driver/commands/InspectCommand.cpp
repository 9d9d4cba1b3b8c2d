#include "clang-plugin/analysis/KernelSummaryJson.h"
#include "clang-plugin/model/KernelSummary.h"
#include "clang-plugin/parse/CudaParseSetup.h"
#include "driver/Diagnostics.h"
#include "driver/commands/KernelAnalysisJson.h"
#include "driver/commands/KernelUnitJson.h"
#include "driver/commands/SourceKernels.h"
#include "driver/commands/Subcommand.h"
#include "driver/optimize/FrontendSetup.h"
#include "driver/optimize/WorkloadFromKernel.h"
#include "kopt/Version.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/raw_ostream.h>
#include <nlohmann/json.hpp>

namespace kopt::driver {

namespace {
// The buffers the evaluator would allocate from the pragma's clauses (flat, in
// scalar elements), or why it could not run the kernel.
nlohmann::ordered_json workloadJson(const frontend::KernelSummary &K, const std::string &File) {
  std::vector<std::string> Notes;
  llvm::Expected<evaluator::Workload> W = workloadFor(K, File, &Notes);
  if (!W)
    return {{"error", llvm::toString(W.takeError())}};
  nlohmann::ordered_json Buffers = nlohmann::ordered_json::array();
  nlohmann::ordered_json Scalars = nlohmann::ordered_json::array();
  for (const evaluator::KernelArg &A : W->Args) {
    if (const evaluator::ScalarArg *S = A.scalar())
      Scalars.push_back(
          {{"name", A.Name}, {"type", evaluator::spelling(S->Type).str()}, {"value", S->Value}});
    const evaluator::BufferArg *B = A.buffer();
    if (!B)
      continue;
    nlohmann::ordered_json Buffer = {{"name", A.Name},
                                     {"element", evaluator::spelling(B->Element).str()},
                                     {"count", B->Count},
                                     {"direction", evaluator::directionName(B->Dir)}};
    if (B->Range) // What the inputs are drawn from, where range(...) gives it.
      Buffer["range"] = {B->Range->Lo, B->Range->Hi};
    if (B->Offsets) // CSR row offsets, generated as rows (Workload.h).
      Buffer["offsets"] = {{"mean", B->Offsets->Mean}, {"jitter", B->Offsets->Jitter}};
    if (B->Tol) // The buffer's own tol(...), over the workload's.
      Buffer["tol"] = {{"rtol", B->Tol->Rtol}, {"atol", B->Tol->Atol}};
    Buffers.push_back(std::move(Buffer));
  }
  // chain: the launches each verification chains (clang-plugin/model/VerificationChain.h).
  nlohmann::ordered_json Out = {{"buffers", Buffers}, {"scalars", Scalars}, {"chain", W->Chain}};
  if (!Notes.empty())
    Out["notes"] = Notes;
  return Out;
}
} // namespace

llvm::Error runInspect(const std::vector<std::string> &Arguments) {
  std::vector<std::string> Args = Arguments;
  llvm::Expected<std::optional<std::string>> UnitName = takeUnitOption(Args);
  if (!UnitName)
    return UnitName.takeError();
  llvm::Expected<SourceKernels> Loaded =
      loadSourceKernels(Args, "inspect FILE [--] [COMPILER FLAGS]");
  if (!Loaded)
    return Loaded.takeError();
  const std::string &File = Loaded->File;
  const std::vector<frontend::KernelSummary> *Kernels = &Loaded->Kernels;
  if (*UnitName)
    return printKernelUnit(*Kernels, **UnitName);
  nlohmann::ordered_json Out = {
      {"file", File}, {"kopt_version", Version}, {"kernels", nlohmann::ordered_json::array()}};
  for (const frontend::KernelSummary &K : *Kernels) {
    nlohmann::ordered_json Kernel = frontend::kernelDeclarationToJson(K);
    Kernel["unit"] = kernelUnitToJson(K.Unit);
    addKernelAnalysisJson(Kernel, K);
    if (K.Pragma)
      Kernel["workload"] = workloadJson(K, File);
    Out["kernels"].push_back(std::move(Kernel));
  }
  llvm::outs() << Out.dump(2) << "\n";
  return llvm::Error::success();
}

} // namespace kopt::driver
