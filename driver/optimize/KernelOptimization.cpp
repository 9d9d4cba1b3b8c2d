#include "driver/optimize/KernelOptimization.h"

#include "driver/optimize/RecordingCoverage.h"
#include "driver/optimize/WorkloadFromRecording.h"
#include "memory/cache/CacheLayout.h"

#include "agents/LlmOptimizer.h"
#include "clang-plugin/model/VerificationChain.h"
#include "clang-plugin/pragma/PragmaJson.h"
#include "clang-plugin/pragma/WorkloadCheck.h"
#include "clang-plugin/transforms/framework/TransformPipeline.h"
#include "clang-plugin/units/InstantiationChoice.h"
#include "driver/nvcc/NvccDeviceFlags.h"
#include "driver/optimize/BaselineFacts.h"
#include "driver/optimize/NumericsPolicy.h"
#include "driver/optimize/ProfileFigures.h"
#include "driver/optimize/SkillRetrieval.h"
#include "driver/optimize/WorkloadFromKernel.h"
#include "evaluator/worker/WorkerProtocol.h"
#include "kopt/Version.h"
#include "memory/experience/ExperienceStore.h"
#include "memory/experience/KernelFacts.h"
#include "support/Duration.h"
#include "support/UtcDate.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/Format.h>
#include <llvm/Support/FormatVariadic.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>

namespace kopt::driver {

namespace {
std::string cudaVersion() {
  if (auto V = evaluator::nvrtcVersion())
    return *V;
  else
    llvm::consumeError(V.takeError());
  return std::to_string(CUDA_VERSION / 1000) + "." + std::to_string(CUDA_VERSION % 1000 / 10);
}

// The clauses without their position: moving a pragma does not change the result.
// A kernel template's key is its chosen instantiation's: <16> and <32> differ.
// The verification chain is keyed by its length, where it is more than one
// launch: entries of kernels without an inout buffer keep their keys, and
// repeat(20) keys as the default of a kernel with one.
std::string canonicalClauses(const frontend::KernelSummary &K) {
  nlohmann::ordered_json J = frontend::pragmaToJson(K.Pragma);
  if (J.is_object()) {
    J.erase("line");
    J.erase("column");
    J.erase("repeat");
    if (unsigned Chain = frontend::verificationChain(*K.Pragma, K.Params); Chain > 1)
      J["repeat"] = Chain;
    if (auto Chosen = chosenInstantiation(K); !Chosen)
      llvm::consumeError(Chosen.takeError()); // No workload either: never stored.
    else if (*Chosen)
      J["instantiation"] = (*Chosen)->TemplateArgs;
  }
  return J.dump();
}

} // namespace

memory::CacheKeyInputs cacheKeyInputsFor(const frontend::KernelSummary &Kernel,
                                         llvm::StringRef Arch,
                                         const std::vector<std::string> &NvccFlags,
                                         llvm::StringRef DeviceModel) {
  memory::CacheKeyInputs In;
  In.UnitHash = Kernel.Unit.Hash;
  In.Environment = Kernel.Unit.Environment;
  In.Clauses = canonicalClauses(Kernel);
  In.Arch = Arch.str();
  In.CudaVersion = cudaVersion();
  if (llvm::Expected<NvccCommandLine> Cmd = parseExpandedNvccFlags(NvccFlags)) {
    In.DeviceFlags = deviceCodegenFlags(
        *Cmd, {!Kernel.Unit.Includes.empty(), hasExtendedLambda(Kernel.Unit.Text)});
  } else {
    // nvcc rejects this command line; keyed on all of it, it matches nothing else.
    llvm::consumeError(Cmd.takeError());
    In.DeviceFlags = NvccFlags;
  }
  In.KoptVersion = Version;
  In.DeviceModel = DeviceModel.str();
  return In;
}

memory::CacheKey cacheKeyFor(const frontend::KernelSummary &Kernel, llvm::StringRef Arch,
                             const std::vector<std::string> &NvccFlags,
                             llvm::StringRef DeviceModel) {
  return memory::makeCacheKey(cacheKeyInputsFor(Kernel, Arch, NvccFlags, DeviceModel));
}

memory::CacheKey storeKeyFor(const frontend::KernelSummary &Kernel, llvm::StringRef Arch,
                             const std::vector<std::string> &NvccFlags, llvm::StringRef Model,
                             const memory::ResultCache &Cache) {
  memory::CacheKey ForArch = cacheKeyFor(Kernel, Arch, NvccFlags);
  // A look at the local caches that counts no lookup.
  for (const memory::ListedEntry &Listed : Cache.find(ForArch.Digest))
    if (Listed.Stored && Listed.Stored->Key.Digest == ForArch.Digest &&
        Listed.Stored->Entry.Origin.Device != Model)
      return cacheKeyFor(Kernel, Arch, NvccFlags, Model);
  return ForArch;
}

llvm::Expected<KernelJob> jobFor(const frontend::KernelSummary &Kernel, std::string File,
                                 std::vector<std::string> NvccFlags,
                                 std::vector<std::string> ClangArgs, const KoptOptions &Options,
                                 llvm::StringRef CacheDir, const agents::EnvLookup &GetEnv) {
  auto Engine = chooseEngine(Kernel, File, Options, GetEnv);
  if (!Engine)
    return Engine.takeError();
  KernelJob Job;
  Job.Kernel = &Kernel;
  Job.File = std::move(File);
  Job.NvccFlags = std::move(NvccFlags);
  Job.ClangArgs = std::move(ClangArgs);
  Job.Engine = Engine->Engine;
  Job.Llm = std::move(Engine->Llm);
  if (std::optional<double> Seconds = parseDurationSeconds(Options.get("budget").Value))
    Job.BudgetSeconds = *Seconds;
  llvm::to_integer(Options.get("llm_token_budget").Value, Job.BudgetTokens);
  Job.ExperiencePath = (CacheDir + "/experience.json").str();
  Job.RecordingDirs = {memory::recordingsDir(CacheDir)};
  Job.Policy = numericsPolicy(Kernel, Options.fastMath(), Job.NvccFlags);
  return Job;
}

namespace {
// What measuring the original cost (the first part of every budget), and why
// the planner has no profile where it has none.
void logBaseline(const evaluator::Baseline &B, llvm::raw_ostream *Log) {
  if (!Log)
    return;
  if (B.Seconds > 0)
    *Log << llvm::formatv("  baseline: {0:f3} ms median over {1} runs, measured in {2:f1} s "
                          "(profile {3:f1} s)\n",
                          B.Timing.MedianMs, B.Timing.Samples, B.Seconds, B.ProfileSeconds);
  if (!B.Weighted.is_null())
    *Log << "  timing weighted by launch counts: " << describeWeighted(B.Weighted) << "\n";
  if (!B.Counters.available())
    *Log << "  (no profile: " << B.Counters.Error << ")\n";
}

// The job's budget with the pragma's budget(...) clause over the options'.
struct JobBudget {
  double Seconds;
  unsigned Evaluations;
  int64_t Tokens;
};

JobBudget budgetOf(const KernelJob &Job) {
  JobBudget B{Job.BudgetSeconds, Job.BudgetEvaluations, Job.BudgetTokens};
  const frontend::KernelSummary &K = *Job.Kernel;
  if (K.Pragma && K.Pragma->Budget) {
    if (K.Pragma->Budget->TimeSeconds)
      B.Seconds = *K.Pragma->Budget->TimeSeconds;
    if (K.Pragma->Budget->Evals)
      B.Evaluations = static_cast<unsigned>(*K.Pragma->Budget->Evals);
    if (K.Pragma->Budget->Tokens)
      B.Tokens = *K.Pragma->Budget->Tokens;
  }
  B.Seconds = std::min(B.Seconds, Job.MaxSeconds);
  return B;
}

llvm::Expected<agents::OptimizeResult>
runSkillsEngine(const KernelJob &Job, const evaluator::Workload &W, const JobBudget &Budget,
                evaluator::VariantEvaluator &Eval, const memory::ExperienceStore &Experience,
                const agents::ProgressFn &Progress, llvm::raw_ostream *Log) {
  const frontend::KernelSummary &K = *Job.Kernel;
  agents::OptimizeRequest R;
  R.Kernel = &K;
  R.Work = W;
  R.CompileOptions = unitCompileOptions(Job.NvccFlags, Job.File);
  // The evaluator compiles what kernelSourceFor names: a template's instantiation.
  evaluator::KernelSource Original = kernelSourceFor(K, K.Unit.Text, R.CompileOptions);
  R.NameExpression = Original.NameExpression;
  R.MangledName = Original.MangledName;
  R.ClangArgs = Job.ClangArgs;
  R.Budget.Seconds = Budget.Seconds;
  R.Budget.Evaluations = Budget.Evaluations;
  if (K.Pragma && K.Pragma->Skills)
    for (const frontend::SkillToggle &T : *K.Pragma->Skills)
      (T.Enabled ? R.Forced : R.Disabled).push_back(T.Id);
  R.Policy = Job.Policy;
  R.Plan = [&](const evaluator::Baseline &B) {
    logBaseline(B, Log);
    return planInputs(baselineMetrics(B, W.Launch), Experience, B.Device.Name, Log);
  };
  return agents::optimizeKernel(R, Eval, Progress);
}

llvm::Expected<agents::OptimizeResult>
runLlmEngine(const KernelJob &Job, const evaluator::Workload &W, const JobBudget &Budget,
             evaluator::VariantEvaluator &Eval, const memory::ExperienceStore &Experience,
             const agents::ProgressFn &Progress, llvm::raw_ostream *Log) {
  if (!Job.Llm)
    return llvm::createStringError("the llm engine has no configuration");
  auto Model = agents::createChatModel(*Job.Llm);
  if (!Model)
    return Model.takeError();
  const frontend::KernelSummary &K = *Job.Kernel;
  agents::LlmRequest R;
  R.Kernel = &K;
  R.Work = W;
  R.Source = kernelSourceFor(K, K.Unit.Text, unitCompileOptions(Job.NvccFlags, Job.File));
  R.ClangArgs = Job.ClangArgs;
  R.Budget.Seconds = Budget.Seconds;
  R.Budget.Evaluations = Budget.Evaluations;
  R.Budget.Tokens = Budget.Tokens;
  R.Model = Job.Llm->Model;
  R.Policy = Job.Policy;
  R.Retrieve = [&](const evaluator::Baseline &B) {
    logBaseline(B, Log);
    return llmRetrieval(K, baselineMetrics(B, W.Launch), Experience, Log);
  };
  if (Log)
    R.Note = [Log](llvm::StringRef Line) {
      *Log << "  llm: " << Line << "\n";
      Log->flush();
    };
  return agents::optimizeWithLlm(R, **Model, Eval, Progress);
}

} // namespace

double jobSeconds(const KernelJob &Job) { return budgetOf(Job).Seconds; }

namespace {
// How many evaluations the kernel got and what they cost.
nlohmann::json evaluationSummary(const agents::OptimizeResult &O) {
  unsigned Count = 0;
  double Total = 0, Longest = 0;
  for (const agents::Attempt &A : O.Trajectory)
    if (A.Evaluated) {
      ++Count;
      Total += A.EvalSeconds;
      Longest = std::max(Longest, A.EvalSeconds);
    }
  return {{"count", Count},
          {"variants", O.Trajectory.size()},
          {"seconds", Total},
          {"mean_seconds", Count ? Total / Count : 0.0},
          {"max_seconds", Longest},
          {"loop_seconds", O.Seconds},
          {"unfit_steps", O.UnfitSteps},
          {"unfit_seconds", O.UnfitSeconds},
          {"applies", O.Applies},
          {"apply_seconds", O.ApplySeconds}};
}

// Why timing on this workload cannot rank variants, or "": a loop takes its
// bounds from random integers (WorkloadCheck.h) and no recording gives the
// application's (counts per row; CSR offsets are generated as well-formed
// rows). spmv_csr's search, before offsets were, measured a variant 1.10x
// faster on empty rows that made the program 2.3x slower (bench/RESULTS.md).
std::string timingWithoutTheApplicationsTripCounts(const frontend::KernelSummary &K,
                                                   const evaluator::Workload &W) {
  if (!W.Recorded.empty() || !K.Pragma)
    return "";
  std::vector<frontend::RandomlyBoundedLoop> Loops =
      frontend::randomlyBoundedLoops(frontend::bodyUseOf(K.Features), *K.Pragma, K.Params);
  if (Loops.empty())
    return "";
  return llvm::formatv("the loop at line {0} takes its bounds from '{1}', whose values are "
                       "random here: variants would be timed on trip counts the application "
                       "never has. Record the application's launches (`kopt record -- APP`) or "
                       "give '{1}' a range(lo, hi) that fits it",
                       Loops.front().Line, Loops.front().Buffer->Name)
      .str();
}

// Where K is and its definition as written, for the report's diff; the
// definition is read from the unit (a parse), empty where that fails.
memory::OriginalKernel originalKernelOf(const KernelJob &Job) {
  const frontend::KernelSummary &K = *Job.Kernel;
  memory::OriginalKernel O{K.HeaderFile.empty() ? Job.File : K.HeaderFile, K.Line, ""};
  auto Unit = transform::summarizeUnit(K.Unit.Text, K.Name, Job.ClangArgs, K.Pragma,
                                       transform::analysedInstantiation(K));
  if (!Unit) {
    llvm::consumeError(Unit.takeError());
    return O;
  }
  const frontend::SourceSpan &Span = Unit->Unit.Definition;
  O.Definition = llvm::StringRef(K.Unit.Text).slice(Span.Begin, Span.End).str();
  return O;
}

} // namespace

std::string shortenedChain(const evaluator::Workload &W, const evaluator::Baseline &B) {
  if (B.Chain >= W.Chain)
    return "";
  return llvm::formatv("verification chains are {0} launches, not {1}: {1} launches of the "
                       "original ({2:F1} ms each) would take longer than the evaluator allows a "
                       "chain; repeat(N) in the pragma sets a shorter one",
                       B.Chain, W.Chain, B.Timing.MedianMs)
      .str();
}

llvm::Expected<KernelJobResult>
optimizeForCache(const KernelJob &Job, evaluator::VariantEvaluator &Eval, llvm::raw_ostream *Log) {
  memory::ExperienceStore Experience = Job.Experience ? *Job.Experience
                                       : Job.ExperiencePath.empty()
                                           ? memory::ExperienceStore::inMemory()
                                           : memory::ExperienceStore::open(Job.ExperiencePath);
  const frontend::KernelSummary &K = *Job.Kernel;
  std::string RecordingWarning;
  std::vector<std::string> WorkloadNotes;
  auto W =
      workloadWithRecording(K, Job.File, Job.RecordingDirs, &RecordingWarning, {}, &WorkloadNotes);
  if (!W)
    return W.takeError();
  if (Log && !RecordingWarning.empty())
    *Log << "  warning: " << RecordingWarning << "\n";
  for (const std::string &Note : WorkloadNotes)
    if (Log)
      *Log << "  note: " << Note << "\n";
  if (Log && !W->Recorded.empty())
    *Log << "  verifying on " << W->Recorded.size() << " launches recorded from the application ("
         << W->RecordingFile << ")\n";
  auto Progress = [&](const agents::Attempt &A, unsigned Index, double Best) {
    if (!Log)
      return;
    *Log << "  [" << llvm::format("%2u", Index) << " " << llvm::format("%6.1f", A.Seconds) << "s] "
         << llvm::format("%-48s", llvm::join(A.Steps, " + ").c_str()) << " "
         << llvm::format("%-15s", spelling(A.Result).str().c_str());
    if (A.Speedup > 0 &&
        (A.Result == evaluator::Verdict::Faster || A.Result == evaluator::Verdict::NotFaster ||
         A.Result == evaluator::Verdict::Promising))
      *Log << llvm::format("%6.2fx", A.Speedup);
    else
      *Log << "       ";
    *Log << "  best " << llvm::format("%.2fx", Best);
    if (A.Evaluated)
      *Log << llvm::format("  (%.1fs)", A.EvalSeconds);
    *Log << "\n";
    Log->flush();
  };
  JobBudget Budget = budgetOf(Job);
  // The original is still measured (the entry records it); no variant is tried.
  if (std::string Why = timingWithoutTheApplicationsTripCounts(K, *W); !Why.empty()) {
    if (Log)
      *Log << "  not optimized: " << Why << "\n";
    Budget.Evaluations = 0;
  }
  auto Optimized = Job.Engine == "llm"
                       ? runLlmEngine(Job, *W, Budget, Eval, Experience, Progress, Log)
                       : runSkillsEngine(Job, *W, Budget, Eval, Experience, Progress, Log);
  if (!Optimized)
    return Optimized.takeError();
  // The user's choice that kept a transform out, said where its effect shows,
  // and a budget overrun.
  if (Log) {
    for (const auto &[Id, Why] : Optimized->NotOffered)
      if (Why == transform::approximateMathNotAllowed())
        *Log << "  " << Id << ": " << Why << "\n";
    if (!Optimized->BudgetNote.empty())
      *Log << "  note: " << Optimized->BudgetNote << "\n";
    if (std::string Why = shortenedChain(*W, Optimized->Original); !Why.empty())
      *Log << "  note: " << Why << "\n";
  }

  // Long-term memory learns from the attempts: their last step's skill and
  // parameters, on a kernel with these facts, on this device.
  memory::FactVector Facts = memory::factVector(
      memory::factsFor(K.Features, baselineMetrics(Optimized->Original, W->Launch)));
  if (llvm::Error E = Experience.recordAll(agents::observationsFrom(
          *Optimized, Facts, memory::kernelKind(K.Features), Job.Engine == "llm")))
    llvm::consumeError(std::move(E)); // Experience is advisory; the result stands.

  KernelJobResult Out;
  Out.Optimized = std::move(*Optimized);
  const agents::OptimizeResult &O = Out.Optimized;
  memory::CacheEntry &E = Out.Entry;
  E.KernelName = K.Name;
  E.Variant = O.Best;
  E.Speedup = O.Best ? O.BestOutcome.Speedup : 1.0;
  E.Timing = {{"original", O.Original.Timing}, {"evaluations", evaluationSummary(O)}};
  if (O.Best) {
    E.Timing["variant"] = O.BestOutcome.Variant;
    E.Timing["original_interleaved"] = O.BestOutcome.Original;
    E.Timing["p_value"] = O.BestOutcome.PValue;
    E.Verification = {{"seeds", O.BestOutcome.SeedsVerified},
                      {"worst_tolerance_ratio", O.BestOutcome.WorstToleranceRatio}};
    // Launches each verification chained (memory::describeEntry says so).
    if (W->Chain > 1) {
      E.Verification["chain"] = O.Original.Chain;
      E.Verification["chain_requested"] = W->Chain;
    }
    if (!O.BestOutcome.Weighted.is_null())
      E.Timing["weighted"] = O.BestOutcome.Weighted;
  }
  E.Workloads = verifiedWorkloadsOf(K, *W, Job.RecordingDirs);
  E.Trajectory = nlohmann::json::array();
  for (const agents::Attempt &A : O.Trajectory)
    E.Trajectory.push_back({{"steps", A.Steps},
                            {"hash", A.Hash},
                            {"verdict", spelling(A.Result).str()},
                            {"speedup", A.Speedup},
                            {"seconds", A.EvalSeconds},
                            {"timing", A.Timing},
                            {"detail", A.Detail.substr(0, 300)}});
  E.Profile = entryProfileOf(O);
  E.KernelKind = memory::kernelKind(K.Features);
  E.Original = originalKernelOf(Job);
  E.Transforms = O.Transforms;
  E.Origin.Engine = Job.Engine;
  E.Origin.Device = O.Original.Device.Name;
  E.Origin.Date = utcNow();
  E.Origin.KoptVersion = Version;
  E.Origin.Skills = O.BestSteps;
  if (O.Llm) {
    E.Origin.Model = O.Llm->Model;
    E.Origin.Usage =
        memory::Provenance::LlmUsage{O.Llm->InputTokens, O.Llm->OutputTokens, std::nullopt};
    if (O.Llm->Priced)
      E.Origin.Usage->CostUsd = O.Llm->CostUsd;
  }
  return Out;
}

std::string describeWeighted(const nlohmann::json &Weighted) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  const nlohmann::json &Launches = Weighted.value("launches", nlohmann::json::array());
  if (Weighted.contains("speedup"))
    OS << llvm::format("%.2fx of the application's time, ", Weighted.value("speedup", 0.0));
  OS << Launches.size() << " recorded launch" << (Launches.size() == 1 ? "" : "es") << " timed (";
  for (size_t I = 0; I < Launches.size(); ++I) {
    const nlohmann::json &L = Launches[I];
    OS << (I ? ", " : "") << "#" << L.value("id", 0u) << " "
       << llvm::format("%.0f%%", 100 * L.value("share", 0.0));
    if (L.contains("speedup"))
      OS << llvm::format(" %.2fx", L.value("speedup", 0.0));
  }
  OS << ") for " << Weighted.value("application_launches", 0u) << " launches of the application";
  return Text;
}

std::string describeEvaluations(const memory::CacheEntry &E) {
  auto It = E.Timing.find("evaluations");
  if (It == E.Timing.end() || !It->is_object())
    return "";
  // "N <what>s <how>, S s" for a count the entry has, else "".
  auto Counted = [&](llvm::StringRef CountKey, llvm::StringRef SecondsKey, llvm::StringRef Lead,
                     llvm::StringRef What, llvm::StringRef How) -> std::string {
    unsigned N = It->value(CountKey.str(), 0u);
    if (!N)
      return "";
    return llvm::formatv("{0}{1} {2}{3} {4} {5:F1} s", Lead, N, What, N == 1 ? "" : "s", How,
                         It->value(SecondsKey.str(), 0.0))
        .str();
  };
  unsigned Count = It->value("count", 0u);
  // Where the loop's time went besides the GPU: applying transforms (parses),
  // and of those, the ones that refused the code.
  return llvm::formatv(
             "{0} evaluation{1} in {2:F1} s (mean {3:F2} s, longest {4:F2} s; loop "
             "{5:F1} s{6}{7})",
             Count, Count == 1 ? "" : "s", It->value("seconds", 0.0),
             It->value("mean_seconds", 0.0), It->value("max_seconds", 0.0),
             It->value("loop_seconds", 0.0),
             Counted("applies", "apply_seconds", ", ", "transform", "applied in"),
             Counted("unfit_steps", "unfit_seconds", "; ", "step", "that did not fit the code,"))
      .str();
}

} // namespace kopt::driver
