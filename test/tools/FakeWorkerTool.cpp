// kopt-fake-worker: `kopt worker` for tests on machines without a GPU. Never
// installed; its entries say where they come from.
//
//   kopt-fake-worker --fake-arch sm_90 [kopt worker's arguments]
//     runs `kopt worker` (runWorkerWith: the queue, leases, retries, dead
//     letters, publishing) with fake GPUs (--devices 0,1: one a name; default
//     one) of architecture --fake-arch, whose jobs run `kopt-fake-worker --job`.
//   kopt-fake-worker --job JOB --entry ENTRY --error-file ERROR [--kopt-OPTION]...
//     runs `kopt worker-job` (runWorkerJobWith: the job's unit parsed, its key
//     checked against the submitter's, the optimization path) on an evaluator
//     that measures nothing: its baseline is 1 ms on "kopt-fake-worker (no GPU,
//     nothing measured)" and every variant is "not faster"; the budget ends at
//     the baseline, so the entry says that no variant beat the original.
//
// Faults, by kernel name: FAKE_WORKER_FAIL=K makes K's jobs fail (the
// evaluator cannot start); FAKE_WORKER_HANG=K makes them wait until killed.
#include "driver/commands/WorkerCommand.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/raw_ostream.h>

#include <chrono>
#include <cstdlib>
#include <thread>
#include <unistd.h>

using namespace kopt;

namespace {

constexpr const char *FakeDevice = "kopt-fake-worker (no GPU, nothing measured)";

class MeasuresNothing : public evaluator::VariantEvaluator {
public:
  llvm::Expected<evaluator::Baseline> setOriginal(const evaluator::KernelSource &,
                                                  const evaluator::Workload &W) override {
    evaluator::Baseline B;
    B.Device.Name = FakeDevice;
    B.Chain = W.Chain; // Nothing runs, so nothing shortens it.
    B.Timing.MedianMs = 1;
    B.Timing.Samples = 1;
    B.Counters = evaluator::Profile::unavailable("kopt-fake-worker measures nothing");
    return B;
  }
  llvm::Expected<evaluator::VariantOutcome> evaluate(const evaluator::KernelSource &,
                                                     const evaluator::VariantLaunch &,
                                                     llvm::ArrayRef<uint64_t>) override {
    evaluator::VariantOutcome O;
    O.Result = evaluator::Verdict::NotFaster;
    O.Detail = "kopt-fake-worker measures nothing";
    return O;
  }
};

// An address in this program, for finding its file.
void anchor() {}

std::string envOr(const char *Name) {
  const char *Value = std::getenv(Name);
  return Value ? Value : "";
}

int runJob(const std::vector<std::string> &Args) {
  std::string Kernel; // Known once the job is parsed: the fault hooks read it from the job.
  return driver::runWorkerJobWith(
      Args,
      [&]() -> llvm::Expected<driver::OptimizeEvaluator> {
        if (!Kernel.empty() && Kernel == envOr("FAKE_WORKER_FAIL"))
          return llvm::createStringError("FAKE_WORKER_FAIL: the fake GPU of %s fails",
                                         Kernel.c_str());
        if (!Kernel.empty() && Kernel == envOr("FAKE_WORKER_HANG")) {
          llvm::outs() << "FAKE_WORKER_HANG: " << Kernel << " waits until killed\n";
          llvm::outs().flush();
          while (true)
            std::this_thread::sleep_for(std::chrono::seconds(1));
        }
        return driver::OptimizeEvaluator{std::make_unique<MeasuresNothing>(), FakeDevice, ""};
      },
      [&](driver::KernelJob &Job) {
        Kernel = Job.Kernel->Name;
        Job.MaxSeconds = 0.001; // The baseline, then the budget is spent.
      });
}

} // namespace

int main(int Argc, char **Argv) {
  std::vector<std::string> Args(Argv + 1, Argv + Argc);
  if (!Args.empty() && Args.front() == "--job")
    return runJob({Args.begin() + 1, Args.end()});
  std::string Arch = "sm_90";
  for (size_t I = 0; I + 1 < Args.size(); ++I)
    if (Args[I] == "--fake-arch") {
      Arch = Args[I + 1];
      Args.erase(Args.begin() + I, Args.begin() + I + 2);
      break;
    }
  std::string Self = llvm::sys::fs::getMainExecutable(Argv[0], reinterpret_cast<void *>(&anchor));
  driver::WorkerHooks Hooks;
  Hooks.ListDevices = [Arch](const std::vector<std::string> &Named)
      -> llvm::Expected<std::vector<driver::WorkerDevice>> {
    std::vector<driver::WorkerDevice> Devices;
    // Visible names the job's GPU lock too: a fake one of this worker alone,
    // never the lock a real GPU's kopt takes.
    std::string Unique = "fake-" + std::to_string(getpid()) + "-";
    for (const std::string &Id : Named.empty() ? std::vector<std::string>{"0"} : Named)
      Devices.push_back({Id, "fake GPU " + Id, Arch, Unique + Id, Unique + Id});
    return Devices;
  };
  Hooks.JobProgram = [Self] { return Self; };
  Hooks.JobProgramArgs = {"--job"};
  return driver::runWorkerWith(Args, Hooks);
}
