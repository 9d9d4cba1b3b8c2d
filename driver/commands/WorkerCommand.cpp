// kopt worker: a GPU host's worker of the work queue (driver/worker/WorkerLoop.h).
#include "driver/commands/WorkerCommand.h"

#include "driver/Diagnostics.h"
#include "driver/commands/SourceKernels.h"
#include "driver/commands/Subcommand.h"
#include "driver/config/CacheConfig.h"
#include "driver/nvcc/NvccLocator.h"
#include "driver/optimize/ResultCacheSetup.h"
#include "evaluator/device/CudaDriver.h"
#include "evaluator/device/DeviceQuery.h"
#include "memory/cache/GpuLock.h"
#include "support/Duration.h"
#include "support/InstallLayout.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/Path.h>

#include <unistd.h>

#include <cstdlib>
#include <map>

namespace kopt::driver {

namespace {

constexpr const char *Tool = "kopt worker";
const Reporter Voice(Tool);

std::string hostName() {
  char Name[256] = {};
  return gethostname(Name, sizeof(Name) - 1) == 0 ? std::string(Name) : "worker";
}

// The GPUs the NVIDIA driver lists, or those of them named.
llvm::Expected<std::vector<WorkerDevice>> driverDevices(const std::vector<std::string> &Named) {
  llvm::Expected<evaluator::CudaDriver &> Driver = evaluator::CudaDriver::load();
  if (!Driver)
    return llvm::createStringError("no GPU here: " + llvm::toString(Driver.takeError()));
  llvm::Expected<std::vector<evaluator::DeviceInfo>> Infos = evaluator::queryDevices(*Driver);
  if (!Infos)
    return Infos.takeError();
  // A job's process sees its device alone; through this process's own
  // CUDA_VISIBLE_DEVICES, if it has one, ordinal N is its Nth entry.
  llvm::SmallVector<llvm::StringRef> Visible;
  if (const char *Env = std::getenv("CUDA_VISIBLE_DEVICES"); Env && *Env)
    llvm::SplitString(Env, Visible, ",");
  std::vector<WorkerDevice> All;
  for (const evaluator::DeviceInfo &D : *Infos) {
    size_t N = static_cast<size_t>(D.Ordinal);
    All.push_back({std::to_string(D.Ordinal), D.Name, D.smArch(),
                   N < Visible.size() ? Visible[N].trim().str() : std::to_string(D.Ordinal),
                   D.Uuid});
  }
  if (Named.empty())
    return All;
  std::vector<WorkerDevice> Chosen;
  for (const std::string &Id : Named) {
    auto It =
        std::find_if(All.begin(), All.end(), [&](const WorkerDevice &D) { return D.Id == Id; });
    if (It == All.end())
      return llvm::createStringError("no device %s here (devices: 0 to %zu)", Id.c_str(),
                                     All.size() - 1);
    Chosen.push_back(*It);
  }
  return Chosen;
}

llvm::Expected<double> seconds(const std::optional<std::string> &Text, double Default,
                               llvm::StringRef Flag) {
  if (!Text)
    return Default;
  unsigned Whole = 0;
  if (!llvm::StringRef(*Text).getAsInteger(10, Whole))
    return double(Whole);
  if (std::optional<double> S = parseDurationSeconds(*Text))
    return *S;
  return llvm::createStringError("--%s takes seconds or a duration (90s, 5m), not '%s'",
                                 Flag.str().c_str(), Text->c_str());
}

} // namespace

llvm::Error runWorker(const std::vector<std::string> &Args) {
  WorkerHooks Hooks;
  Hooks.ListDevices = driverDevices;
  Hooks.JobProgram = [] { return (InstallLayout::forRunningBinary().binDir() + "/kopt"); };
  Hooks.JobProgramArgs = {"worker-job"};
  return exitStatusError(runWorkerWith(Args, Hooks));
}

int runWorkerWith(const std::vector<std::string> &Arguments, const WorkerHooks &Hooks) {
  std::vector<std::string> Args = Arguments;
  auto Fail = [](llvm::Error E) {
    Voice.error(std::move(E));
    return 1;
  };
  // Its --kopt- options (remote_cache, cache_dir, the engines' settings) also
  // go to each job's process.
  std::vector<std::string> KoptFlags;
  for (const std::string &A : Args)
    if (llvm::StringRef(A).starts_with("--kopt-"))
      KoptFlags.push_back(A);
  llvm::Expected<KoptOptions> Options = koptOptionsFor(Args);
  if (!Options)
    return Fail(Options.takeError());
  WorkerConfig Config;
  std::map<std::string, std::optional<std::string>> Given;
  for (const char *Flag :
       {"queue", "devices", "max-jobs", "idle-exit", "lease", "job-timeout", "name", "work-dir"}) {
    llvm::Expected<std::optional<std::string>> V = takeOption(Args, Flag);
    if (!V)
      return Fail(V.takeError());
    Given[Flag] = std::move(*V);
  }
  const std::optional<std::string> &Queue = Given["queue"], &Devices = Given["devices"],
                                   &MaxJobs = Given["max-jobs"], &IdleExit = Given["idle-exit"],
                                   &Lease = Given["lease"], &JobTimeout = Given["job-timeout"],
                                   &Name = Given["name"], &WorkDir = Given["work-dir"];
  if (!Args.empty())
    return Fail(llvm::createStringError("unexpected argument '%s' (usage: kopt %s)",
                                        Args.front().c_str(),
                                        findSubcommand("worker")->Usage.data()));
  const GetEnvFn &GetEnv = NvccSearchEnvironment::current().GetEnv;
  const OptionValue &QueueOption = Options->get("queue");
  std::string QueueUrl = Queue ? *Queue : QueueOption.Value;
  if (QueueUrl.empty())
    return Fail(llvm::createStringError(
        "no queue: --queue redis://host:port/NAME (or queue: in .kopt.yaml, KOPT_QUEUE)"));
  llvm::Expected<memory::QueueSpec> Spec = memory::parseQueueSpec(QueueUrl, GetEnv);
  if (!Spec)
    return Fail(Spec.takeError());
  Config.Queue = std::move(*Spec);
  if (Queue) // The queue given here is also the remote cache where none is configured.
    if (llvm::Error E = Options->set("queue", *Queue, OptionSource::CommandLine, "--queue"))
      return Fail(std::move(E));

  llvm::Expected<std::vector<memory::RemoteSpec>> Remotes = remoteCacheSpecs(*Options, GetEnv);
  if (!Remotes)
    return Fail(Remotes.takeError());
  for (memory::RemoteSpec &S : *Remotes)
    if (!S.ReadOnly)
      Config.Publish.push_back(std::move(S));
  if (Config.Publish.empty())
    return Fail(llvm::createStringError(
        "every remote cache is read-only: the results would reach no build"));
  llvm::Expected<memory::CacheConfig> Local = cacheConfigFrom(*Options, GetEnv);
  if (!Local)
    return Fail(Local.takeError());
  Config.LocalCache = std::move(*Local);

  llvm::SmallVector<llvm::StringRef> Parts;
  if (Devices)
    llvm::SplitString(*Devices, Parts, ",");
  std::vector<std::string> Named;
  for (llvm::StringRef P : Parts)
    Named.push_back(P.trim().str());
  llvm::Expected<std::vector<WorkerDevice>> Found = Hooks.ListDevices(Named);
  if (!Found)
    return Fail(Found.takeError());
  Config.Devices = std::move(*Found);

  if (MaxJobs && llvm::StringRef(*MaxJobs).getAsInteger(10, Config.MaxJobs))
    return Fail(llvm::createStringError("--max-jobs takes a number, not '%s'", MaxJobs->c_str()));
  llvm::Expected<double> Idle = seconds(IdleExit, 0, "idle-exit");
  llvm::Expected<double> LeaseSeconds = Idle ? seconds(Lease, 300, "lease") : Idle.takeError();
  llvm::Expected<double> Timeout =
      LeaseSeconds ? seconds(JobTimeout, 3600, "job-timeout") : LeaseSeconds.takeError();
  if (!Timeout)
    return Fail(Timeout.takeError());
  if (*LeaseSeconds < 1)
    return Fail(llvm::createStringError("--lease must be at least 1 s"));
  Config.IdleExitSeconds = *Idle;
  Config.LeaseMs = static_cast<unsigned>(*LeaseSeconds * 1000);
  Config.JobTimeoutSeconds = *Timeout;
  Config.Name = Name ? *Name : hostName() + ":" + std::to_string(getpid());
  if (WorkDir) {
    Config.WorkDir = *WorkDir;
  } else {
    llvm::SmallString<256> Temp;
    llvm::sys::path::system_temp_directory(/*ErasedOnReboot=*/true, Temp);
    llvm::sys::path::append(Temp, "kopt-worker-" + std::to_string(getpid()));
    Config.WorkDir = std::string(Temp);
  }

  std::string Program = Hooks.JobProgram();
  std::vector<std::string> Leading = Hooks.JobProgramArgs;
  Config.Process = [Program, Leading, KoptFlags](const WorkerDevice &D, const std::string &JobFile,
                                                 const std::string &ResultFile,
                                                 const std::string &ErrorFile) {
    JobProcess P;
    P.Program = Program;
    P.Args = {Program};
    P.Args.insert(P.Args.end(), Leading.begin(), Leading.end());
    P.Args.insert(P.Args.end(), {JobFile, "--entry", ResultFile, "--error-file", ErrorFile});
    P.Args.insert(P.Args.end(), KoptFlags.begin(), KoptFlags.end());
    // The job's process sees its GPU alone, and takes that GPU's lock, the
    // one kcc and kopt optimize take for it (named by its UUID).
    P.Env = {{"CUDA_VISIBLE_DEVICES", D.Visible},
             {"KOPT_WORKER_GPU_LOCK", memory::GpuLock::pathFor(D.LockId)}};
    return P;
  };
  return runWorkerLoop(Config, llvm::outs());
}

} // namespace kopt::driver
