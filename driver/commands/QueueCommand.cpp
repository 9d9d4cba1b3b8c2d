// kopt queue status [--queue URL]: the work queue's counts (pending, running,
// done, failed), then one line a job: running first, then pending, then the
// dead letters with their error.
#include "driver/Diagnostics.h"
#include "driver/commands/SourceKernels.h"
#include "driver/commands/Subcommand.h"
#include "driver/config/CacheConfig.h"
#include "driver/nvcc/NvccLocator.h"
#include "memory/queue/JobQueue.h"

#include <llvm/Support/Format.h>
#include <llvm/Support/raw_ostream.h>

namespace kopt::driver {

namespace {

constexpr const char *Tool = "kopt queue";
const Reporter Voice(Tool);

// "45s", "12m 5s", "3h 20m", "2d 4h".
std::string age(uint64_t Seconds) {
  if (Seconds < 60)
    return std::to_string(Seconds) + "s";
  if (Seconds < 3600)
    return std::to_string(Seconds / 60) + "m " + std::to_string(Seconds % 60) + "s";
  if (Seconds < 86400)
    return std::to_string(Seconds / 3600) + "h " + std::to_string(Seconds % 3600 / 60) + "m";
  return std::to_string(Seconds / 86400) + "d " + std::to_string(Seconds % 86400 / 3600) + "h";
}

void printStatus(const memory::QueueSpec &Spec, const memory::QueueStatus &S,
                 llvm::raw_ostream &OS) {
  OS << "queue " << Spec.display() << "\n"
     << "pending " << S.Pending << "\n"
     << "running " << S.Running << "\n"
     << "done " << S.Done << "\n"
     << "failed " << S.Failed << "\n";
  if (S.Jobs.empty())
    return;
  OS << "\njob               arch     state    age      attempts worker                   "
        "kernel\n";
  for (const memory::QueueStatus::Job &J : S.Jobs) {
    std::string Attempts = J.Attempts ? std::to_string(J.Attempts) : "-";
    OS << llvm::format("%-17s %-8s %-8s %-8s %-8s %-24s ", J.Id.c_str(), J.Arch.c_str(),
                       J.State.c_str(), age(J.AgeSeconds).c_str(), Attempts.c_str(),
                       J.Worker.empty() ? "-" : J.Worker.c_str())
       << J.Kernel << " (" << J.Origin << ")\n";
    if (!J.Error.empty())
      OS << "    " << (J.State == "failed" ? "error: " : "last failed attempt: ") << J.Error
         << "\n";
  }
}

} // namespace

namespace {
int queueStatus(const std::vector<std::string> &Arguments) {
  std::vector<std::string> Args = Arguments;
  llvm::Expected<KoptOptions> Options = koptOptionsFor(Args);
  llvm::Expected<std::optional<std::string>> Url =
      Options ? takeOption(Args, "queue") : Options.takeError();
  if (!Url) {
    Voice.error(Url.takeError());
    return 1;
  }
  if (Args.size() != 1 || Args.front() != "status") {
    Voice.error("usage: kopt queue status [--queue URL]");
    return 1;
  }
  std::string Text = *Url ? **Url : Options->get("queue").Value;
  if (Text.empty()) {
    Voice.error("no queue: --queue redis://host:port/NAME (or queue: in .kopt.yaml, "
                "KOPT_QUEUE)");
    return 1;
  }
  llvm::Expected<memory::QueueSpec> Spec =
      memory::parseQueueSpec(Text, NvccSearchEnvironment::current().GetEnv);
  if (!Spec) {
    Voice.error(Spec.takeError());
    return 1;
  }
  memory::JobQueue Queue(*Spec);
  llvm::Expected<memory::QueueStatus> Status = Queue.status();
  if (!Status) {
    Voice.error("queue " + Spec->display() + ": " + llvm::toString(Status.takeError()));
    return 1;
  }
  printStatus(*Spec, *Status, llvm::outs());
  return 0;
}
} // namespace

llvm::Error runQueue(const std::vector<std::string> &Args) {
  return exitStatusError(queueStatus(Args));
}

} // namespace kopt::driver
