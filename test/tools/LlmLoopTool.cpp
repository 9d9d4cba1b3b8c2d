// kopt-llm-loop --script VERDICTS.json --out DIR [--nvcc NVCC] -- <kopt optimize arguments>
// Runs `kopt optimize` (runOptimizeWith: jobs, engines, cache entries, output)
// with a scripted evaluator in place of the GPU's, so lit tests drive the llm
// engine's loop end to end without a GPU. The evaluator writes each variant's
// unit to DIR/variant-N.cu; with --nvcc it compiles it (`nvcc -cubin`) and a
// compile failure is the verdict, with nvcc's log; every other verdict comes
// from the script, in order:
//   {"device": "...", "original_ms": 1.0,
//    "verdicts": [{"verdict": "faster", "speedup": 1.8, "detail": "...",
//                  "seconds": 4.5}, ...]}
// (verdict spellings as evaluator::spelling; "seconds": what the evaluation
// is said to have cost; when the script runs out, not_faster at 1.0x). The
// skills engine runs on it too (its screen is a full evaluation here).
// "devices": ["scripted H200", ...] makes that many scripted GPUs (sm_90, UUID
// GPU-5c417ed0-0000-0000-0000-00000000000N), each with its own evaluator and
// its own copy of the verdicts, for the spreading of kernels over GPUs;
// "evaluation_sleep": seconds each evaluation really takes there;
// "verdicts_per_kernel": true starts the verdicts over for each kernel.
// Optional hardware figures: "profile": {"original": {CUPTI metric: value},
// "variant": {...}} (the chosen variant's), "device_info": {"compute": [9, 0],
// "sm_count": N, "clock_khz": N, "memory_clock_khz": N, "memory_bus_bits": N}
// and "copy_gbs": the worker's copy rate; without them, no counters.
#include "driver/Diagnostics.h"
#include "driver/commands/OptimizeCommand.h"
#include "test/tools/ToolFiles.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Program.h>
#include <llvm/Support/raw_ostream.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdlib>
#include <thread>

namespace kopt::testtools {
[[noreturn]] void die(const llvm::Twine &Message) {
  llvm::errs() << "kopt-llm-loop: error: " << Message << "\n";
  std::exit(2);
}
} // namespace kopt::testtools
using kopt::testtools::die;
using kopt::testtools::readFile;
using kopt::testtools::writeFile;

using namespace kopt;
using evaluator::Verdict;

namespace {

class ScriptedEvaluator : public evaluator::VariantEvaluator {
public:
  ScriptedEvaluator(nlohmann::json TheScript, std::string Dir, std::string NvccPath,
                    std::string Device)
      : Script(std::move(TheScript)), OutDir(std::move(Dir)), Nvcc(std::move(NvccPath)),
        DeviceName(std::move(Device)) {}

  llvm::Expected<evaluator::Baseline> setOriginal(const evaluator::KernelSource &Source,
                                                  const evaluator::Workload &) override {
    writeFile(OutDir + "/original.cu", Source.Code);
    if (Script.value("verdicts_per_kernel", false))
      Verdicts = 0;
    evaluator::Baseline B;
    B.Device.Name = DeviceName;
    B.Timing.MedianMs = OriginalMs = Script.value("original_ms", 1.0);
    B.Timing.Samples = 10;
    B.Counters = scriptedProfile("original");
    if (const nlohmann::json D = Script.value("device_info", nlohmann::json()); D.is_object()) {
      std::vector<int> Compute = D.value("compute", std::vector<int>{9, 0});
      B.Device.ComputeMajor = Compute.at(0);
      B.Device.ComputeMinor = Compute.at(1);
      B.Device.MultiprocessorCount = D.value("sm_count", 0);
      B.Device.ClockKHz = D.value("clock_khz", 0);
      B.Device.MemoryClockKHz = D.value("memory_clock_khz", 0);
      B.Device.MemoryBusWidthBits = D.value("memory_bus_bits", 0);
    }
    B.CopyGBs = Script.value("copy_gbs", 0.0);
    if (B.CopyGBs <= 0)
      B.CopyRateMissing = "the scripted evaluator times no copy";
    return B;
  }

  evaluator::Profile profile(const evaluator::KernelSource &Variant,
                             const evaluator::VariantLaunch &) override {
    writeFile(OutDir + "/profiled.cu", Variant.Code);
    return scriptedProfile("variant");
  }

  llvm::Expected<evaluator::VariantOutcome> evaluate(const evaluator::KernelSource &Variant,
                                                     const evaluator::VariantLaunch &,
                                                     llvm::ArrayRef<uint64_t>) override {
    std::string File = OutDir + "/variant-" + std::to_string(++Count) + ".cu";
    writeFile(File, Variant.Code);
    if (double Sleep = Script.value("evaluation_sleep", 0.0); Sleep > 0)
      std::this_thread::sleep_for(std::chrono::duration<double>(Sleep));
    evaluator::VariantOutcome O;
    O.Original.MedianMs = OriginalMs;
    if (!Nvcc.empty() && !compiles(File, Variant.Options, O.Compile.Log)) {
      O.Result = Verdict::CompileError;
      O.Compile.Compiler = "nvcc";
      O.Detail = llvm::StringRef(O.Compile.Log).split('\n').first.str();
      return O;
    }
    nlohmann::json Next = Verdicts < Script.value("verdicts", nlohmann::json::array()).size()
                              ? Script["verdicts"][Verdicts++]
                              : nlohmann::json{{"verdict", "not_faster"}, {"speedup", 1.0}};
    O.Result = verdictNamed(Next.value("verdict", ""));
    O.Detail = Next.value("detail", "");
    O.Speedup = Next.value("speedup", 0.0);
    O.Seconds = Next.value("seconds", 0.0);
    if (O.Speedup > 0) {
      O.Variant.MedianMs = OriginalMs / O.Speedup;
      O.SeedsVerified = 3;
    }
    return O;
  }

private:
  evaluator::Profile scriptedProfile(const char *Which) const {
    const nlohmann::json Metrics =
        Script.value("profile", nlohmann::json::object()).value(Which, nlohmann::json());
    if (!Metrics.is_object())
      return evaluator::Profile::unavailable("the scripted evaluator has no counters");
    evaluator::Profile P;
    for (const auto &[Name, Value] : Metrics.items())
      P.Metrics[Name] = Value.get<double>();
    return P;
  }

  static Verdict verdictNamed(const std::string &Name) {
    for (Verdict V : {Verdict::Faster, Verdict::NotFaster, Verdict::Wrong, Verdict::CompileError,
                      Verdict::LaunchRejected, Verdict::Crashed, Verdict::TimedOut})
      if (evaluator::spelling(V) == Name)
        return V;
    die("unknown verdict '" + Name + "' in the script");
  }

  bool compiles(const std::string &File, const std::vector<std::string> &Options,
                std::string &Log) const {
    std::string LogFile = File + ".log";
    std::vector<std::string> Storage = {Nvcc, "-cubin", "-arch=sm_90", "-o", File + ".cubin"};
    Storage.insert(Storage.end(), Options.begin(), Options.end());
    Storage.push_back(File);
    std::vector<llvm::StringRef> Argv(Storage.begin(), Storage.end());
    std::optional<llvm::StringRef> Redirects[] = {std::nullopt, LogFile, LogFile};
    int Status = llvm::sys::ExecuteAndWait(Nvcc, Argv, std::nullopt, Redirects);
    Log = readFile(LogFile);
    return Status == 0;
  }

  nlohmann::json Script;
  std::string OutDir, Nvcc, DeviceName;
  double OriginalMs = 1;
  unsigned Count = 0;
  size_t Verdicts = 0;
};
} // namespace

int main(int Argc, char **Argv) {
  std::string ScriptFile, OutDir, Nvcc;
  std::vector<std::string> Rest;
  int I = 1;
  for (; I < Argc && llvm::StringRef(Argv[I]) != "--"; ++I) {
    llvm::StringRef A = Argv[I];
    if (I + 1 >= Argc)
      die(A + " needs a value");
    if (A == "--script")
      ScriptFile = Argv[++I];
    else if (A == "--out")
      OutDir = Argv[++I];
    else if (A == "--nvcc")
      Nvcc = Argv[++I];
    else
      die("unknown option " + A);
  }
  if (ScriptFile.empty() || OutDir.empty() || I >= Argc)
    die("usage: kopt-llm-loop --script VERDICTS.json --out DIR [--nvcc NVCC] -- "
        "<kopt optimize arguments>");
  Rest.assign(Argv + I + 1, Argv + Argc);
  nlohmann::json Script = nlohmann::json::parse(readFile(ScriptFile), nullptr, false);
  if (Script.is_discarded())
    die(ScriptFile + " is not JSON");
  if (std::error_code EC = llvm::sys::fs::create_directories(OutDir))
    die("cannot create " + OutDir + ": " + EC.message());
  std::vector<evaluator::DeviceInfo> Devices;
  nlohmann::json Names =
      Script.value("devices", nlohmann::json::array({Script.value("device", "scripted GPU")}));
  for (const nlohmann::json &Name : Names) {
    evaluator::DeviceInfo D;
    D.Ordinal = static_cast<int>(Devices.size());
    D.Name = Name.get<std::string>();
    D.ComputeMajor = 9;
    std::string Serial = std::to_string(D.Ordinal);
    D.Uuid = "GPU-5c417ed0-0000-0000-0000-" + std::string(12 - Serial.size(), '0') + Serial;
    Devices.push_back(D);
  }
  driver::OptimizeGpus Gpus;
  Gpus.List = [&]() -> llvm::Expected<std::vector<evaluator::DeviceInfo>> { return Devices; };
  Gpus.Start = [&](const evaluator::DeviceInfo &D)
      -> llvm::Expected<std::unique_ptr<evaluator::VariantEvaluator>> {
    // Each GPU writes its variants to its own folder: they run at once.
    std::string Dir = Devices.size() == 1 ? OutDir : OutDir + "/gpu" + std::to_string(D.Ordinal);
    if (std::error_code EC = llvm::sys::fs::create_directories(Dir))
      die("cannot create " + Dir + ": " + EC.message());
    return std::make_unique<ScriptedEvaluator>(Script, Dir, Nvcc, D.Name);
  };
  return driver::exitStatusOf(driver::Reporter("kopt optimize"),
                              driver::runOptimizeWith(Rest, Gpus));
}
