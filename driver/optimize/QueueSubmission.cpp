#include "driver/optimize/QueueSubmission.h"

#include "clang-plugin/pragma/PragmaSource.h"
#include "driver/optimize/KernelOptimization.h"
#include "memory/remote/RemoteBackend.h"
#include "memory/remote/RemoteBackoff.h"

#include <llvm/Support/MemoryBuffer.h>

#include <unistd.h>

#include <cstdlib>

namespace kopt::driver {

namespace {
std::string hostName() {
  char Name[256] = {};
  if (gethostname(Name, sizeof(Name) - 1) != 0)
    return "unknown";
  return Name;
}

// The kernel's definition as its file has it: the unit holds the same text.
llvm::Expected<std::string> definitionText(const frontend::KernelSummary &K, const TuContext &Tu) {
  std::string Path = K.HeaderFile.empty() ? Tu.SourcePath : K.HeaderFile;
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> File = llvm::MemoryBuffer::getFile(Path);
  if (!File)
    return llvm::createStringError("cannot read %s: %s", Path.c_str(),
                                   File.getError().message().c_str());
  llvm::StringRef Text = (*File)->getBuffer();
  const frontend::SourceSpan &D = K.Unit.Definition;
  if (D.Begin >= D.End || D.End > Text.size())
    return llvm::createStringError("the kernel's definition is not where the parse saw it");
  return Text.slice(D.Begin, D.End).str();
}
} // namespace

llvm::Expected<memory::QueueJob> queueJobFor(const frontend::KernelSummary &K, const TuContext &Tu,
                                             const memory::CacheKey &Key) {
  if (!K.Pragma || !K.Pragma->hasWorkload())
    return llvm::createStringError("its workload would come from a recording on this machine, "
                                   "which a worker does not have");
  if (K.IsTemplate)
    return llvm::createStringError("a kernel template is not queued (its unit names no "
                                   "instantiation for the worker)");
  llvm::Expected<std::string> Definition = definitionText(K, Tu);
  if (!Definition)
    return Definition.takeError();
  size_t At = K.Unit.Text.rfind(*Definition);
  if (At == std::string::npos)
    return llvm::createStringError("the kernel's unit does not hold its definition as written");
  memory::QueueJob Job;
  Job.Kernel = K.Name;
  Job.Origin = (K.HeaderFile.empty() ? Tu.SourcePath : K.HeaderFile) + ":" + std::to_string(K.Line);
  Job.Unit = K.Unit.Text;
  Job.Pragma = frontend::pragmaSource(*K.Pragma);
  Job.PragmaAt = At;
  Job.Flags = Tu.NvccFlags;
  Job.Arch = Tu.Arch;
  Job.Key = Key;
  Job.Engine = Tu.Options.get("engine").Value;
  Job.Budget = Tu.Options.get("budget").Value;
  Job.Submitted = utcNow();
  Job.Submitter = hostName();
  return Job;
}

QueueSubmitter::Outcome QueueSubmitter::submit(const frontend::KernelSummary &K,
                                               const TuContext &Tu, const memory::CacheKey &Key) {
  if (!Broken.empty())
    return {"not queued: " + Broken, false}; // Warned once already.
  if (!Queue) {
    const OptionValue &Url = Tu.Options.get("queue");
    if (Url.Value.empty()) {
      Broken = "mode queue needs a queue (--kopt-queue=redis://host:port/NAME, KOPT_QUEUE or "
               "queue: in .kopt.yaml)";
      return {"not queued: " + Broken, true};
    }
    auto GetEnv = [](const char *Name) -> std::optional<std::string> {
      const char *Value = std::getenv(Name);
      return Value ? std::optional<std::string>(Value) : std::nullopt;
    };
    llvm::Expected<memory::QueueSpec> Spec = memory::parseQueueSpec(Url.Value, GetEnv);
    if (!Spec) {
      Broken = Url.Origin + ": " + llvm::toString(Spec.takeError());
      return {"not queued: " + Broken, true};
    }
    if (memory::backedOff(CacheDir, Spec->Server.id())) {
      // Another compile (or this one's remote cache, on the same server) found
      // it unreachable a moment ago, and said so.
      Broken = "queue " + Spec->display() + " could not be reached a moment ago (skipped for " +
               std::to_string(memory::BackoffPeriod.count()) + " s)";
      return {"not queued: " + Broken, false};
    }
    Queue = std::make_unique<memory::JobQueue>(std::move(*Spec));
  }
  std::string Where = Queue->spec().display();
  llvm::Expected<memory::QueueJob> Job = queueJobFor(K, Tu, Key);
  if (!Job)
    return {"not queued: " + llvm::toString(Job.takeError()), false};
  llvm::Expected<memory::SubmitResult> Sent = Queue->submit(*Job);
  if (!Sent) {
    memory::RemoteProblem Problem = memory::describeRemoteError(Sent.takeError());
    Broken = "queue " + Where + ": " + Problem.Message;
    if (Problem.Unreachable) {
      Broken += "; skipped for " + std::to_string(memory::BackoffPeriod.count()) + " s";
      if (!CacheReadOnly)
        memory::backOff(CacheDir, Queue->spec().Server.id(), Problem.Message);
    }
    return {"not queued: " + Broken, true};
  }
  switch (Sent->State) {
  case memory::SubmitState::Queued:
    return {"queued for a GPU worker on " + Where, false, Sent->Id};
  case memory::SubmitState::AlreadyQueued:
    return {"already queued on " + Where, false};
  case memory::SubmitState::FailedBefore:
    return {"not queued: its job failed before on " + Where + " (kopt queue status)", false};
  }
  llvm_unreachable("all submit states handled");
}

} // namespace kopt::driver
