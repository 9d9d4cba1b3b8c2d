// kopt worker-job JOB --entry ENTRY --error-file ERROR [--kopt-OPTION]...: one job of
// the work queue, in a process of its own that `kopt worker` starts with one
// GPU visible. The job's unit, with its pragma, is parsed as kcc's front end
// parses a file; the key must come out as the submitter's (else the entry would
// land where no build looks); the kernel is optimized as `kopt optimize` does
// (KernelOptimization.h) and the entry written to ENTRY, or the error to ERROR.
#include "clang-plugin/parse/KernelFinder.h"
#include "driver/Diagnostics.h"
#include "driver/commands/SourceKernels.h"
#include "driver/commands/WorkerCommand.h"
#include "driver/config/CacheConfig.h"
#include "driver/nvcc/NvccLocator.h"
#include "driver/optimize/FrontendSetup.h"
#include "memory/cache/CacheKeyDiff.h"
#include "memory/cache/GpuLock.h"
#include "memory/queue/QueueJob.h"
#include "support/AtomicFile.h"

#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/raw_ostream.h>

namespace kopt::driver {

namespace {

constexpr const char *Tool = "kopt worker-job";
const Reporter Voice(Tool);

struct JobFiles {
  std::string Job, Entry, Error;
};

llvm::Expected<memory::StoredEntry> optimizeJob(const JobFiles &Files, KoptOptions Options,
                                                const EvaluatorFactory &Start,
                                                const std::function<void(KernelJob &)> &Adjust) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Text = llvm::MemoryBuffer::getFile(Files.Job);
  if (!Text)
    return llvm::createStringError("cannot read %s: %s", Files.Job.c_str(),
                                   Text.getError().message().c_str());
  llvm::Expected<memory::QueueJob> Job = memory::parseJob((*Text)->getBuffer());
  if (!Job)
    return Job.takeError();
  // The submitter's engine and budget; the rest (the llm engine's settings,
  // the cache) are this host's.
  for (const auto &[Key, Value] : {std::pair{"engine", Job->Engine}, {"budget", Job->Budget}})
    if (llvm::Error E = Options.set(Key, Value, OptionSource::CommandLine, "the job"))
      return E;

  // The unit with its pragma, in a file of its own beside the entry.
  llvm::SmallString<256> File(Files.Entry);
  llvm::sys::path::replace_extension(File, "cu");
  std::string Source = Job->workerSource();
  if (llvm::Error E = writeFileAtomically(File, Source))
    return E;
  llvm::Expected<frontend::CudaParseSetup> Setup = frontendSetupFor(Job->Flags);
  if (!Setup)
    return Setup.takeError();
  std::string Diagnostics;
  llvm::raw_string_ostream DiagOS(Diagnostics);
  llvm::Expected<std::vector<frontend::KernelSummary>> Kernels =
      frontend::findKernelsInCode(Source, File, Setup->clangArgs(), DiagOS);
  if (!Kernels)
    return llvm::createStringError("the job's unit does not parse here: " +
                                   llvm::toString(Kernels.takeError()) + "\n" + Diagnostics);
  std::vector<frontend::KernelSummary> All = std::move(*Kernels);
  auto K = std::find_if(All.begin(), All.end(), [&](const frontend::KernelSummary &S) {
    return S.Name == Job->Kernel && S.Pragma;
  });
  if (K == All.end())
    return llvm::createStringError("the job's unit has no annotated kernel %s",
                                   Job->Kernel.c_str());
  memory::CacheKey Key = cacheKeyFor(*K, Job->Arch, Job->Flags);
  if (Key.Digest != Job->Key.Digest)
    return llvm::createStringError("this worker's key for the kernel is not the submitter's: " +
                                   memory::compareKeys(Key.Canonical, Job->Key.Canonical).reason());

  llvm::Expected<memory::CacheConfig> Cache =
      cacheConfigFrom(Options, NvccSearchEnvironment::current().GetEnv);
  if (!Cache)
    return Cache.takeError();
  llvm::Expected<KernelJob> Kernel =
      jobFor(*K, File.str().str(), Job->Flags, Setup->clangArgs(), Options, Cache->UserDir);
  if (!Kernel)
    return Kernel.takeError();
  Kernel->RecordingDirs.clear(); // This host's recordings are of other programs.
  if (Adjust)
    Adjust(*Kernel);

  // kopt worker names the lock of the GPU it gives this job.
  const char *LockPath = std::getenv("KOPT_WORKER_GPU_LOCK");
  if (!LockPath || !*LockPath)
    return llvm::createStringError("KOPT_WORKER_GPU_LOCK is not set: kopt worker-job runs "
                                   "the jobs of kopt worker, which sets it");
  llvm::Expected<memory::GpuLock> Lock = memory::GpuLock::acquire(LockPath);
  if (!Lock)
    return Lock.takeError();
  llvm::Expected<OptimizeEvaluator> Eval = Start();
  if (!Eval)
    return Eval.takeError();
  if (!Eval->Arch.empty() && Eval->Arch != Job->Arch)
    return llvm::createStringError("this GPU (%s) is %s, the job is for %s", Eval->Device.c_str(),
                                   Eval->Arch.c_str(), Job->Arch.c_str());
  llvm::outs() << Job->Kernel << " (" << Job->Origin << ", " << Job->Arch << ", submitted by "
               << Job->Submitter << " " << Job->Submitted << ") on " << Eval->Device << ":\n";
  llvm::Expected<KernelJobResult> Result = optimizeForCache(*Kernel, *Eval->Eval, &llvm::outs());
  if (!Result)
    return Result.takeError();
  llvm::outs() << "  -> " << describeEntry(Result->Entry) << " (key "
               << Job->Key.Digest.substr(0, 16) << ")\n";
  return memory::StoredEntry{Job->Key, std::move(Result->Entry)};
}

} // namespace

llvm::Error runWorkerJob(const std::vector<std::string> &Args) {
  return exitStatusError(runWorkerJobWith(Args, startGpuEvaluator));
}

int runWorkerJobWith(const std::vector<std::string> &Arguments, const EvaluatorFactory &Start,
                     const std::function<void(KernelJob &)> &Adjust) {
  std::vector<std::string> Args = Arguments;
  llvm::Expected<KoptOptions> Options = koptOptionsFor(Args);
  llvm::Expected<std::optional<std::string>> Entry =
      Options ? takeOption(Args, "entry") : Options.takeError();
  llvm::Expected<std::optional<std::string>> Error =
      Entry ? takeOption(Args, "error-file") : Entry.takeError();
  if (!Error) {
    Voice.error(Error.takeError());
    return 2;
  }
  if (!*Entry || !*Error || Args.size() != 1) {
    Voice.error("usage: kopt worker-job JOB --entry ENTRY --error-file ERROR [--kopt-OPTION]...");
    return 2;
  }
  JobFiles Files{Args.front(), **Entry, **Error};
  llvm::Expected<memory::StoredEntry> Made = optimizeJob(Files, *Options, Start, Adjust);
  llvm::Error Written =
      Made ? writeFileAtomically(Files.Entry, memory::serializeEntry(Made->Key, Made->Entry))
           : Made.takeError();
  if (!Written)
    return 0;
  std::string Why = llvm::toString(std::move(Written));
  Voice.error(Why);
  if (llvm::Error E = writeFileAtomically(Files.Error, Why + "\n"))
    Voice.error(std::move(E));
  return 1;
}

} // namespace kopt::driver
